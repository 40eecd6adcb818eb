"""Plain data of the table: cards, objects, effects, events.

Everything here is a slotted dataclass or a tuple, so that the move pipeline
allocates little and copies nothing deep.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any, NamedTuple, NewType

ObjId = NewType("ObjId", int)  # one game object; a card that changes zones gets a new one
CardId = NewType("CardId", int)  # the physical card (token, ability) across its objects


class Zone(StrEnum):
    """Zone ids: the modern names in every edition; an edition shows its own."""

    LIBRARY = "library"
    HAND = "hand"
    BATTLEFIELD = "battlefield"
    GRAVEYARD = "graveyard"
    STACK = "stack"
    EXILE = "exile"
    COMMAND = "command"
    ANTE = "ante"
    PHASED_OUT = "phased-out"

    def __repr__(self) -> str:  # written as its id, as files and messages write it
        return repr(self.value)


class EventKind(StrEnum):
    """Every kind of event the engine reports (the contract's kinds first)."""

    MOVED = "moved"
    REDIRECTED = "redirected"
    REPLACED = "replaced"
    REJECTED = "rejected"
    UNCHANGED = "unchanged"
    NEW_OBJECT = "new_object"
    CEASED = "ceased"
    CONTROL_CHANGED = "control_changed"
    REORDERED = "reordered"
    CREATED = "created"
    BROUGHT_IN = "brought_in"
    ADDED = "added"
    TAPPED = "tapped"
    UNTAPPED = "untapped"
    COUNTERS = "counters"
    TURNED = "turned"
    REVEALED = "revealed"
    CONCEALED = "concealed"
    MODIFIED = "modified"
    CHOICES = "choices"
    ATTACHED = "attached"
    SHUFFLED = "shuffled"
    EMPTY_LIBRARY = "empty_library"
    OWNER_CHANGED = "owner_changed"
    ROLLED = "rolled"
    TURN = "turn"
    PHASE = "phase"
    LIFE = "life"
    PLAYER_COUNTERS = "player_counters"
    POWER_TOUGHNESS = "power_toughness"
    NOTED = "noted"
    STICKER = "sticker"
    MERGED = "merged"
    ARROWS = "arrows"
    LOOKED = "looked"
    SHOWN = "shown"
    UNDONE = "undone"
    REDONE = "redone"
    # setting up a table (a judge's workbench): not the rules' doing
    REMOVED = "removed"  # a card taken off the table
    EFFECT_STARTED = "effect_started"  # a replacement effect put in force
    EFFECT_ENDED = "effect_ended"  # a replacement effect taken out of force


class OpKind(StrEnum):
    """The recorded changes undo and redo replay (TableState._apply and _revert, state.py)."""

    MOVE = "mv"
    SET = "set"
    INSERT = "ins"
    DELETE = "del"
    ZONE_ORDER = "zone"
    CURRENT = "cur"
    LINEAGE = "lin"
    EFFECT = "eff"
    EFFECT_END = "effx"
    META = "meta"
    LIFE = "life"


# the members as module names: on the engine's hot path, reading Zone.HAND (a class
# attribute through the enum's metaclass) costs some 75 ns, a module's name 10
LIBRARY, HAND, BATTLEFIELD, GRAVEYARD = Zone.LIBRARY, Zone.HAND, Zone.BATTLEFIELD, Zone.GRAVEYARD
STACK, EXILE, COMMAND, ANTE, PHASED_OUT = (Zone.STACK, Zone.EXILE, Zone.COMMAND, Zone.ANTE,
                                           Zone.PHASED_OUT)
# the move pipeline's event kinds as module names, for the same reason
MOVED = EventKind.MOVED
REDIRECTED = EventKind.REDIRECTED
REPLACED = EventKind.REPLACED
REJECTED = EventKind.REJECTED
UNCHANGED = EventKind.UNCHANGED
NEW_OBJECT = EventKind.NEW_OBJECT
CEASED = EventKind.CEASED
CONTROL_CHANGED = EventKind.CONTROL_CHANGED
REORDERED = EventKind.REORDERED
ADDED = EventKind.ADDED
SHUFFLED = EventKind.SHUFFLED
SHOWN = EventKind.SHOWN

# the op kinds as module names, for the same reason (an action records several ops)
OP_MOVE = OpKind.MOVE
OP_SET = OpKind.SET
OP_INSERT = OpKind.INSERT
OP_DELETE = OpKind.DELETE
OP_ZONE_ORDER = OpKind.ZONE_ORDER
OP_CURRENT = OpKind.CURRENT
OP_LINEAGE = OpKind.LINEAGE
OP_EFFECT = OpKind.EFFECT
OP_EFFECT_END = OpKind.EFFECT_END
OP_META = OpKind.META
OP_LIFE = OpKind.LIFE
ZONE_IDS = tuple(z.value for z in Zone)
ZONES: dict[str, Zone] = {z.value: z for z in Zone}  # a zone's id -> the member
ORDERED = frozenset({LIBRARY, GRAVEYARD, STACK})
CONTROLLED = frozenset({BATTLEFIELD, STACK})

ZoneKey = tuple[str | None, Zone]  # (player name or None, zone id)

# a named tuple (an Event, a LogEntry, a Seen, an op...) made from all its fields in
# order, without the call of its class between: a third of the time, on the hot paths
# where every move makes several (the move, its log line, the views, a save read back)
from_fields = tuple.__new__


class Card(NamedTuple):
    """The printed facts of a card (or the definition of a token or an ability)."""

    name: str
    types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    supertypes: tuple[str, ...] = ()
    mana_cost: str = ""
    power: str | None = None
    toughness: str | None = None
    colors: tuple[str, ...] = ()

    def is_type(self, t: str) -> bool:
        return t in self.types

    @property
    def type_line(self) -> str:
        left = " ".join(self.supertypes + self.types)
        return f"{left} — {' '.join(self.subtypes)}" if self.subtypes else left

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name}
        for k in ("types", "subtypes", "supertypes", "colors"):
            v = getattr(self, k)
            if v:
                d[k] = list(v)
        for k in ("mana_cost", "power", "toughness"):
            v = getattr(self, k)
            if v:
                d[k] = v
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Card:
        return cls(name=d["name"], types=tuple(d.get("types", ())),
                   subtypes=tuple(d.get("subtypes", ())),
                   supertypes=tuple(d.get("supertypes", ())),
                   mana_cost=d.get("mana_cost", ""), power=d.get("power"),
                   toughness=d.get("toughness"), colors=tuple(d.get("colors", ())))


class Obj:
    """One game object. A card that changes zones becomes a new Obj (new id);
    ``cid`` names the physical card (or token, or ability) across all of them.

    Written out rather than made by ``dataclass``: the objects are the engine's hot
    data, and generating the class cost the window's first frame a millisecond."""

    __slots__ = (
        "attached_to",
        "card",
        "choices",
        "cid",
        "controller",
        "counters",
        "face_down",
        "id",
        "kind",
        "modifications",
        "note",
        "owner",
        "pile",
        "place",
        "prev",
        "pt",
        "revealed",
        "stickers",
        "tapped",
        "token",
        "zone",
    )

    def __init__(self, id: ObjId, cid: CardId, card: Card, owner: str,
                 zone: ZoneKey | None,  # None: this object no longer exists
                 controller: str | None = None, tapped: bool = False,
                 face_down: bool = False,
                 counters: dict[str, int] | None = None,  # replaced whole, never mutated
                 attached_to: ObjId | None = None,
                 modifications: tuple[tuple[str, str], ...] = (),  # ((text, origin), ...)
                 choices: tuple[Any, ...] = (),  # choices made while it was cast
                 token: bool = False,
                 kind: str = "card",  # card, token, ability, emblem
                 pile: str | None = None,  # exile pile: what exiled it (406.4)
                 revealed: bool = False,
                 prev: ObjId | None = None,  # the object it was before (lineage)
                 pt: str | None = None,  # power/toughness set by an effect ("3/3")
                 note: str = "",  # a player's note, forgotten with the object
                 # where a player put it on the battlefield: an offset from the corner of
                 # its controller's half, as that player sees it; None: in the rows
                 place: tuple[float, float] | None = None,
                 stickers: tuple[str, ...] = ()) -> None:  # markers put on it (123)
        self.id = id
        self.cid = cid
        self.card = card
        self.owner = owner
        self.zone = zone
        self.controller = controller
        self.tapped = tapped
        self.face_down = face_down
        self.counters: dict[str, int] = {} if counters is None else counters
        self.attached_to = attached_to
        self.modifications = modifications
        self.choices = choices
        self.token = token
        self.kind = kind
        self.pile = pile
        self.revealed = revealed
        self.prev = prev
        self.pt = pt
        self.note = note
        self.place = place
        self.stickers = stickers

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in Obj.__slots__)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Obj:
            return NotImplemented
        return self._values() == other._values()

    __hash__ = None  # type: ignore[assignment]  # mutable: not a dict key

    def __repr__(self) -> str:
        return "Obj(" + ", ".join(f"{name}={getattr(self, name)!r}"
                                  for name in Obj.__slots__) + ")"

    ATTRS = ("zone", "controller", "tapped", "face_down", "counters", "attached_to",
             "modifications", "choices", "pile", "revealed", "pt", "note", "place", "stickers")


MAX_PLACE = 20000.0  # a place beyond this is no table's


def check_place(v: object, what: str) -> tuple[float, float]:
    """A place on the battlefield (two finite numbers from 0 to MAX_PLACE), as a tuple;
    anything else is refused with a ValueError naming ``what``."""
    if isinstance(v, (list, tuple)) and len(v) == 2 and all(
            type(x) in (int, float) and 0 <= x <= MAX_PLACE for x in v):
        return float(v[0]), float(v[1])
    raise ValueError(f"{what} must be two numbers from 0 to {MAX_PLACE:g}, not "
                     f"{str(v)[:40]!r}")


_PT_PART = re.compile(r"[0-9*+\-X.½]{1,6}")
_PT_COUNTER = re.compile(r"([+-]\d{1,3})/([+-]\d{1,3})")


def split_pt(text: object) -> tuple[str, str] | None:
    """"3/3", "*/1+*", "-1/2" as (power, toughness); None for anything else."""
    if type(text) is not str or text.count("/") != 1:
        return None
    p, t = (x.strip() for x in text.split("/"))
    if _PT_PART.fullmatch(p) and _PT_PART.fullmatch(t):
        return p, t
    return None


def counter_bonus(counters: dict[str, int]) -> tuple[int, int]:
    """What counters such as +1/+1, -1/-1 or +1/+0 add to power and toughness."""
    dp = dt = 0
    for kind, n in counters.items():
        m = _PT_COUNTER.fullmatch(kind)
        if m:
            dp += int(m.group(1)) * n
            dt += int(m.group(2)) * n
    return dp, dt


def power_toughness(obj: Obj) -> tuple[str, str] | None:
    """The object's power and toughness as modified: the ones an effect set (or the
    printed ones), plus counters such as +1/+1, -1/-1 or +1/+0. A part that is not a
    number ("*") is shown as it is. None for an object without power/toughness."""
    base = split_pt(obj.pt) if obj.pt else None
    if base is None:
        if not obj.counters:  # (most cards: as printed)
            return printed_pt(obj.card)
        if obj.card.power is None or obj.card.toughness is None:
            return None
        base = (obj.card.power, obj.card.toughness)
    dp, dt = counter_bonus(obj.counters)
    return _plus(base, dp, dt)


def printed_pt(card: Card) -> tuple[str, str] | None:
    """A card's printed power and toughness as shown (None for a card without them):
    an object's with nothing changing them, and a card's outside the table (a deck's,
    one a host showed). Each pair is worked out once."""
    if card.power is None or card.toughness is None:
        return None
    base = (card.power, card.toughness)
    printed = _PRINTED.get(base)
    if printed is None:
        printed = _plus(base, 0, 0)
        if len(_PRINTED) < 4096:  # (cards a peer made up do not fill it)
            _PRINTED[base] = printed
    return printed


_PRINTED: dict[tuple[str, str], tuple[str, str]] = {}  # printed power/toughness as shown


def _plus(base: tuple[str, str], dp: int, dt: int) -> tuple[str, str]:
    """A power/toughness with what counters add (a part that is not a number as it
    is, with the bonus after it)."""
    out = []
    for part, d in zip(base, (dp, dt), strict=True):
        try:
            out.append(str(int(part) + d))
        except ValueError:
            out.append(part if not d else f"{part}{d:+d}")
    return out[0], out[1]


class Effect(NamedTuple):
    """A replacement effect on zone changes (400.6)."""

    label: str
    watch: Zone
    instead: Zone
    source: str = ""
    origin: str = "any"  # zone it would come from
    affects: str = "any"
    optional: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "watch": self.watch, "instead": self.instead,
                "source": self.source, "from": self.origin, "affects": self.affects,
                "optional": self.optional}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Effect:
        return cls(label=d["label"], watch=Zone(d["watch"]), instead=Zone(d["instead"]),
                   source=d.get("source", ""), origin=d.get("from", "any"),
                   affects=d.get("affects", "any"), optional=d.get("optional", False))


# Event and LineageEntry are values that nothing modifies after creation: named tuples,
# as cheap to build as a slotted class (several are built on every move).
class Event(NamedTuple):
    """One thing that happened, with the rules (edition numbering) behind it."""

    kind: EventKind
    cid: CardId | None = None
    obj: ObjId | None = None
    prev: ObjId | None = None
    src: ZoneKey | None = None
    dst: ZoneKey | None = None
    cites: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    text: str = ""
    # who may read the sentence (cards shown to one player); None: as the objects allow
    audience: tuple[str, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        d = {"kind": self.kind, "cid": self.cid, "object": self.obj,
             "previous_object": self.prev,
             "from": zone_json(self.src), "to": zone_json(self.dst),
             "cites": list(self.cites), "notes": list(self.notes), "text": self.text}
        if self.audience is not None:
            d["audience"] = list(self.audience)
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Event:
        return cls(kind=d["kind"], cid=d.get("cid"), obj=d.get("object"),
                   prev=d.get("previous_object"), src=zone_from_json(d.get("from")),
                   dst=zone_from_json(d.get("to")), cites=tuple(d.get("cites", ())),
                   notes=tuple(d.get("notes", ())), text=d.get("text", ""),
                   audience=tuple(d["audience"]) if d.get("audience") is not None else None)


def zone_json(z: ZoneKey | None) -> dict[str, Any] | None:
    return None if z is None else {"zone": z[1], "player": z[0]}


def zone_from_json(d: dict[str, Any] | None) -> ZoneKey | None:
    return None if d is None else (d["player"], d["zone"])


class LineageEntry(NamedTuple):
    """One object a card has been: where it was, and how it ended."""

    obj: ObjId
    zone: ZoneKey | None  # None: the card (token, ability) ceased to exist here
    event: str  # the kind of event that made this object
    cites: tuple[str, ...] = ()  # the rules of that event
    kept: tuple[tuple[str, str], ...] = ()  # (what, rule) carried from the object before
    forgotten: tuple[tuple[str, str], ...] = ()  # (what, rule) lost on the way

    def to_json(self) -> list[Any]:
        return [self.obj, zone_json(self.zone), self.event, list(self.cites),
                [list(k) for k in self.kept], [list(f) for f in self.forgotten]]

    @classmethod
    def from_json(cls, d: list[Any]) -> LineageEntry:
        return cls(d[0], zone_from_json(d[1]), d[2], tuple(d[3]),
                   tuple(tuple(k) for k in d[4]), tuple(tuple(f) for f in d[5]))
