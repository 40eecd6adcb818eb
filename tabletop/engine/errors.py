"""Errors the engine raises, split by cause (as python-chess does)."""


class TabletopError(Exception):
    """Base of every error Tabletop reports to a person."""


class InputError(TabletopError):
    """A file or value from outside is malformed; the message names what is wrong."""


class NoSuchZoneError(InputError):
    """A file names a zone its rules edition does not have (a scenario written for
    another edition): comparing editions runs the others and says so."""


class IllegalActionError(TabletopError):
    """An action names something that does not exist on this table (a bad id, player, zone)."""
