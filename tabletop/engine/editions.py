"""Rules editions as data (``resources/rules/<id>.toml``) plus the few switches
the engine reads. Every rule the engine applies is named by a *concept*; the
edition maps each concept to its own rule numbers, or leaves it out when its
text is silent, and the engine then says so instead of inventing a rule."""

from __future__ import annotations

import fnmatch
import json
import re
from collections.abc import Iterable
from functools import cache
from typing import Any, NamedTuple

from tabletop import resources
from tabletop.engine.errors import InputError
from tabletop.engine.model import ANTE, BATTLEFIELD, COMMAND, EXILE, STACK, Zone

OUTSIDE_MARK = "†"  # after a number the edition's own text does not hold
EDITION_IDS = ("cr-1999", "cr-2004", "cr-2005", "cr-2012", "cr-2016", "cr-2025")
NEWEST = "cr-2025"


# Edition.toward's words, made once for each zone's name, zone and player
_TOWARD: dict[tuple[str, str, str | None], str] = {}


class Edition(NamedTuple):
    id: str
    title: str
    seed: str
    year: int
    zones: tuple[Zone, ...]
    names: dict[str, str]
    per_player: frozenset[Zone]
    redirect: frozenset[str]
    command_stays: frozenset[str]
    cites: dict[str, tuple[str, ...]]  # concept -> tuple of rule numbers
    token_cites: dict[str, tuple[str, ...]]  # zone id or "*" -> tuple of rule numbers
    silent: dict[str, str]  # concept -> what the engine applies when the text is silent
    rules: dict[str, str]  # rule number -> summary in our own words
    same_zone: str  # "nothing" or "exile-new-object"
    phased_keeps: bool
    carry_choices: bool
    ante_pick: str  # "top" or "random"
    outside_zones: frozenset[Zone]  # zones that count as outside the game
    outside: dict[str, str]  # rule number (or pattern) the text lacks -> where its wording comes from
    source_text: str = ""  # where the text comes from, when no seed holds it
    command_new_object: bool = False  # into the command zone from it: a new object (2025)
    carry_static_grants: bool = False  # a static ability's grant to a spell carries (2025)
    commander_returns: frozenset[str] = frozenset()  # zones a commander may leave by SBA
    commander_replace: frozenset[str] = frozenset()  # zones the commander's replacement watches
    stickers_kept: bool = False  # an object's stickers go with it into a public zone (2025)

    def has_zone(self, zone: Zone) -> bool:
        return zone in self.zones

    def zone_name(self, zone: Zone) -> str:
        return self.names.get(zone, zone)

    def place(self, zone: Zone, player: str | None = None) -> str:
        """A zone as the edition's text would name it in a sentence: "play", "Bob's
        graveyard", "the removed-from-the-game zone", "exile", "the stack"."""
        name = self.zone_name(zone).lower()
        if name == "in play":
            return "play"
        if name == EXILE:
            return f"{player}'s exile" if player else EXILE
        if " " in name or "-" in name:
            name = name.replace(" ", "-") + " zone"
        elif zone in (COMMAND, ANTE):
            name += " zone"
        return f"{player}'s {name}" if player else f"the {name}"

    def toward(self, zone: Zone, player: str | None = None) -> str:
        """"into play", "to Bob's graveyard" (worded once for each edition, zone and
        player: the log words every move with it)."""
        key = (self.names.get(zone, zone), zone, player)  # all that place() reads
        words = _TOWARD.get(key)
        if words is None:
            place = self.place(zone, player)
            words = "into play" if place == "play" else f"to {place}"
            if len(_TOWARD) < 4096:  # player names are a game's: bounded all the same
                _TOWARD[key] = words
        return words

    def within(self, zone: Zone) -> str:
        """"in play", "on the battlefield", "in the graveyard"."""
        place = self.place(zone)
        if place == "play":
            return "in play"
        return f"on {place}" if zone in (BATTLEFIELD, STACK) else f"in {place}"

    def cite(self, concept: str) -> tuple[str, ...]:
        return self.cites.get(concept, ())

    def token_cite(self, zone: Zone) -> tuple[str, ...]:
        return self.token_cites.get(zone) or self.token_cites.get("*", ())

    def silence(self, concept: str) -> str:
        """The note shown where this edition's text does not cover a concept."""
        applying = self.silent.get(concept, "the table's usual handling")
        return f"The {self.id} text does not cover this; applying {applying}."

    def source(self, number: str) -> str | None:
        """Where a number comes from when the edition's own text does not hold it ("as
        in the 2012 text"); None for a number of the edition's own text."""
        return _source(self.id, number) if self.outside else None

    def mark(self, number: str) -> str:
        """A number as lists show it: marked with a dagger when it comes from outside
        the edition's own text (its note says from where)."""
        return number + OUTSIDE_MARK if self.source(number) else number

    def marks(self, cites: Iterable[str]) -> str:
        return ", ".join(self.mark(c) for c in cites)

    def split(self, cites: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Cited numbers as (from the edition's own text, from outside it)."""
        cites = tuple(cites)
        own = tuple(c for c in cites if self.source(c) is None)
        return own, tuple(c for c in cites if c not in own)

    def summary(self, number: str) -> str | None:
        return self.rules.get(number)

    def sort_key(self, number: str) -> list[tuple[int, int | str]]:
        return _number_key(number)


@cache
def _source(edition_id: str, number: str) -> str | None:
    outside = get(edition_id).outside
    note = outside.get(number)
    if note is None:
        note = next((v for k, v in outside.items() if fnmatch.fnmatchcase(number, k)), None)
    return note


def outside_notes(ed: Edition, cites: Iterable[str]) -> tuple[str, ...]:
    """The notes that say where an event's outside numbers come from, one per source:
    "405.3: as in the 2012 text (...)"."""
    by_note: dict[str, list[str]] = {}
    for c in cites:
        note = ed.source(c)
        if note is not None:
            by_note.setdefault(note, []).append(c)
    return tuple(f"{' and '.join(nums)}: {note}" for note, nums in by_note.items())


def _number_key(number: str) -> list[tuple[int, int | str]]:
    """Rule order: 400.4 < 400.4a < 400.5 < 400.10; 217.2e < 217.2.Ruling.1 < 217.3;
    Z.1.5 < Z.1.Ruling.1."""
    parts: list[tuple[int, int | str]] = []
    for p in number.split("."):
        m = re.fullmatch(r"(\d+)([a-z]*)", p)
        if m:
            parts.append((0, int(m.group(1))))
            if m.group(2):
                parts.append((1, m.group(2)))
        else:
            parts.append((2 if p == "Ruling" else -1, p))
    return parts


def _read(edition_id: str) -> dict[str, Any]:
    import tomllib
    p = resources.path("rules", f"{edition_id}.toml")
    try:
        with p.open("rb") as f:
            return tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise InputError(f"{p}: cannot read edition data: {e}") from None


CACHE_FORMAT = 1


def _stamps() -> dict[str, list[int]]:
    """Each edition file's size and modification time: the cache is good while these
    are what they were when it was written."""
    out = {}
    for edition_id in EDITION_IDS:
        st = resources.path("rules", f"{edition_id}.toml").stat()
        out[edition_id] = [st.st_size, st.st_mtime_ns]
    return out


@cache
def _all_data() -> dict[str, dict[str, Any]]:
    """Every edition's merged data. Parsing TOML (and importing its parser) is the
    slowest part of opening the first table, so the merged data is kept as JSON in the
    user's cache folder and read from there while the edition files are unchanged;
    a missing, damaged or stale copy is made again from the files."""
    from tabletop import paths
    try:
        stamps = _stamps()
    except OSError as e:
        raise InputError(f"cannot read edition data: {e}") from None
    copy = paths.cache_dir() / "editions.json"
    try:
        kept = json.loads(copy.read_bytes())
        if kept["format"] == CACHE_FORMAT and kept["stamps"] == stamps \
                and set(kept["data"]) == set(EDITION_IDS):
            return dict(kept["data"])
    except (OSError, ValueError, KeyError, TypeError):
        pass  # none yet, or not one this version wrote: made again below
    data = {e: _merged(e) for e in EDITION_IDS}
    try:
        from tabletop.engine.files import atomic_write
        atomic_write(copy, json.dumps({"format": CACHE_FORMAT, "stamps": stamps,
                                       "data": data}, ensure_ascii=False).encode("utf-8"))
    except OSError:
        pass  # a read-only cache folder: parse each time
    return data


def _merged(edition_id: str) -> dict[str, Any]:
    d = _read(edition_id)
    parent = d.get("inherit")
    if not parent:
        return d
    base = _merged(parent)
    out = {**base, **{k: v for k, v in d.items() if not isinstance(v, dict)}}
    for table in ("names", "cite", "token_cite", "silent", "rules", "outside"):
        merged = dict(base.get(table, {}))
        for pattern in d.get("drop", {}).get(table, []):
            for k in [k for k in merged if fnmatch.fnmatchcase(k, pattern)]:
                del merged[k]
        merged.update(d.get(table, {}))
        out[table] = merged
    return out


@cache
def get(edition_id: str) -> Edition:
    if edition_id not in EDITION_IDS:
        raise InputError(f"unknown edition {edition_id!r}; editions are: "
                         + ", ".join(EDITION_IDS))
    d = _all_data()[edition_id]
    return Edition(
        id=edition_id, title=d["title"], seed=d["seed"], year=d["year"],
        zones=tuple(Zone(z) for z in d["zones"]), names=d["names"],
        per_player=frozenset(Zone(z) for z in d["per_player"]), redirect=frozenset(d["redirect"]),
        command_stays=frozenset(d.get("command_stays", ())),
        cites={k: tuple(v) for k, v in d["cite"].items()},
        token_cites={k: tuple(v) for k, v in d.get("token_cite", {}).items()},
        silent=d.get("silent", {}), rules=d["rules"],
        same_zone=d["same_zone"], phased_keeps=d.get("phased_keeps", False),
        carry_choices=d.get("carry_choices", False), ante_pick=d.get("ante_pick", "random"),
        outside_zones=frozenset(Zone(z) for z in d.get("outside_zones", ())),
        outside=d.get("outside", {}),
        source_text=str(d.get("source", "")),
        command_new_object=bool(d.get("command_new_object", False)),
        carry_static_grants=bool(d.get("carry_static_grants", False)),
        commander_returns=frozenset(d.get("commander_returns", ())),
        commander_replace=frozenset(d.get("commander_replace", ())),
        stickers_kept=bool(d.get("stickers_kept", False)),
    )


def all_editions() -> list[Edition]:
    return [get(e) for e in EDITION_IDS]


@cache
def titles() -> tuple[tuple[str, str], ...]:
    """(id, title) of every edition, for the window's edition lists."""
    data = _all_data()
    return tuple((e, str(data[e]["title"])) for e in EDITION_IDS)
