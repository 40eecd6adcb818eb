"""The rules engine: pure Python, never imports Qt."""

from tabletop.engine.editions import EDITION_IDS, NEWEST, Edition
from tabletop.engine.errors import IllegalActionError, InputError, TabletopError
from tabletop.engine.model import Card, Effect, Event, LineageEntry, Obj
from tabletop.engine.moves import chooser_from_labels
from tabletop.engine.table import Action, Result, Table

__all__ = [
    "EDITION_IDS",
    "NEWEST",
    "Action",
    "Card",
    "Edition",
    "Effect",
    "Event",
    "IllegalActionError",
    "InputError",
    "LineageEntry",
    "Obj",
    "Result",
    "Table",
    "TabletopError",
    "chooser_from_labels",
]
