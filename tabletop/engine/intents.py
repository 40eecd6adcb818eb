"""The table's actions, one typed name each: an intent.

An intent is what a person means to do at the table (tap this card, draw two, put
this Aura on that creature), as plain data with one name. The same object is what
the window's controller builds from a gesture, what a table port carries out (on the
table here, or sent to the host as the protocol's ``act`` message, whose ``action``
is the intent's NAME and whose fields are its fields) and what the host's room
carries out for a seat. ``INTENTS`` is the one registry: an action is one class
here, one engine method, a case in each port's ``match`` and the room's, and one row
in docs/protocol.md (a test checks the row against the class).

A card is named by a ``Ref``: the table's card id on the table that carries the
intent out, or the id a seat was sent on the wire (the room turns it into its
object). Values are checked when an intent is read from outside (``decode``): a
wrong type or a value out of range is an ``IntentError`` with a code."""

from __future__ import annotations

import dataclasses
import types
from dataclasses import dataclass
from typing import (
    Any,
    ClassVar,
    NewType,
    TypeVar,
    Union,
    dataclass_transform,
    get_args,
    get_origin,
    get_type_hints,
)

from tabletop.engine.errors import TabletopError
from tabletop.engine.model import ZONE_IDS, Card, Zone, check_place, split_pt

Ref = NewType("Ref", int)  # a card, as the builder of the intent knows it
Place = tuple[float, float]  # where a permanent stands on the battlefield


class IntentError(TabletopError):
    """An intent that cannot be read: a field of the wrong type or out of range."""

    code = "invalid"


_C = TypeVar("_C")


@dataclass_transform(frozen_default=True, eq_default=False)
def _intent(cls: type[_C]) -> type[_C]:
    """How every intent class is made: a frozen dataclass with slots, its equality, hash
    and repr left to ``Intent``'s own (see there)."""
    return dataclass(frozen=True, slots=True, eq=False, repr=False)(cls)


@_intent
class Intent:
    """One action at the table. ``NAME`` is its one name, from the gesture to the wire;
    ``SEAT`` says whose it is: "card" (the cards it names must be the actor's to
    handle), "own" (the actor's own player: library, life, counters, tokens),
    "active" (the active player's: the turn), "any" (anyone at the table),
    "answer" (a reply to another seat's request), "setup" (setting the table up for a
    demonstration: at the desk only, never a network seat's)."""

    NAME: ClassVar[str] = ""
    SEAT: ClassVar[str] = "any"
    WIRE: ClassVar[dict[str, str]] = {}  # field -> its key on the wire, where they differ
    HANDLES: ClassVar[tuple[str, ...]] = ()  # fields naming the cards the actor handles
    LOCAL: ClassVar[tuple[str, ...]] = ()  # fields known only where it is made: not sent
    # The same action's names where a contract or the engine's history needs its own
    # (declared here, the one place): the actions the engine records for it (None: its
    # NAME) and the scenario step kinds that write it (None: its NAME; () for none).
    HISTORY: ClassVar[tuple[str, ...] | None] = None
    STEP: ClassVar[tuple[str, ...] | None] = None

    # Every intent is a frozen dataclass with slots whose __init__ (and the frozen
    # __setattr__ and __delattr__) dataclasses writes for it; equality, hash and repr are
    # these, one for all: dataclasses compiles each method it writes, and six for each of
    # the classes took 45-75 ms of the window's work just after its first frame
    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, f.name) for f in dataclasses.fields(self))

    def __eq__(self, other: object) -> bool:
        """Equal when of the same class with equal fields (as dataclasses' own)."""
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Intent)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash((self.__class__, self._values()))

    def __repr__(self) -> str:
        fields = ", ".join(f"{f.name}={getattr(self, f.name)!r}"
                           for f in dataclasses.fields(self))
        return f"{self.__class__.__qualname__}({fields})"

    @classmethod
    def history_names(cls) -> tuple[str, ...]:
        return (cls.NAME,) if cls.HISTORY is None else cls.HISTORY

    @classmethod
    def step_names(cls) -> tuple[str, ...]:
        return (cls.NAME,) if cls.STEP is None else cls.STEP

    def encode(self) -> dict[str, Any]:
        """The intent as the protocol's ``act`` fields (unset optional fields left out)."""
        out: dict[str, Any] = {"action": self.NAME}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is None or f.name in self.LOCAL or (value == () and f.default == ()):
                continue  # unset, local, or an empty list that is the default
            if isinstance(value, tuple):
                value = [list(v) if isinstance(v, tuple) else v for v in value]
            out[self.WIRE.get(f.name, f.name)] = value
        return out

    @classmethod
    def decode_fields(cls, d: dict[str, Any]) -> Intent:
        """This intent from the protocol's fields (each checked against its type), or
        IntentError naming the field."""
        given: dict[str, Any] = {}
        for name, key, hint, required in _schema(cls):
            if key not in d or d[key] is None:
                if required:
                    raise IntentError(f"{cls.NAME}: field {key!r} is needed")
                continue
            given[name] = _typed(cls.NAME, key, d[key], hint)
        intent = cls(**given)
        intent.check()
        return intent

    def check(self) -> None:
        """Values in range, else IntentError (a type's own limits)."""

    def handled(self) -> tuple[Ref, ...]:
        """The cards the actor must be allowed to handle for this intent."""
        out: list[Ref] = []
        for name in self.HANDLES:
            value = getattr(self, name)
            out.extend(value if isinstance(value, tuple) else (value,))
        return tuple(out)


_SCHEMAS: dict[str, tuple[tuple[str, str, Any, bool], ...]] = {}


def _schema(cls: type[Intent]) -> tuple[tuple[str, str, Any, bool], ...]:
    """An intent's fields as the wire has them: (field, key, type, required), worked
    out once per class (reading the annotations is slow; decode is on the server's
    hot path)."""
    known = _SCHEMAS.get(cls.NAME)
    if known is None:
        hints = get_type_hints(cls)
        known = _SCHEMAS[cls.NAME] = tuple(
            (f.name, cls.WIRE.get(f.name, f.name), _given(hints[f.name]),
             f.default is dataclasses.MISSING)
            for f in dataclasses.fields(cls) if f.name not in cls.LOCAL)
    return known


def _given(hint: Any) -> Any:
    """A field's type as a value given for it is read: an optional one's other type
    (a field sent as None, or not sent, is left unset before its type is looked at)."""
    if get_origin(hint) in (Union, types.UnionType):
        options = [a for a in get_args(hint) if a is not type(None)]
        if len(options) == 1:
            return options[0]
    return hint


def _wrong(action: str, key: str) -> IntentError:
    return IntentError(f"{action}: field {key!r} has the wrong type")


def _typed(action: str, key: str, value: Any, hint: Any) -> Any:
    """``value`` as the field's type, or IntentError."""
    if hint is Ref or hint is int:  # (the plain types first: most fields are one)
        if isinstance(value, bool) or not isinstance(value, int):
            raise _wrong(action, key)
        return value
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        if value is None and type(None) in get_args(hint):
            return None
        options = [a for a in get_args(hint) if a is not type(None)]
        for option in options:
            try:
                return _typed(action, key, value, option)
            except IntentError:
                continue
        raise _wrong(action, key)
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise _wrong(action, key)
        return float(value)
    if hint is bool:
        if not isinstance(value, bool):
            raise _wrong(action, key)
        return value
    if hint is str:
        if not isinstance(value, str):
            raise _wrong(action, key)
        return value
    if hint is Zone:
        if not isinstance(value, str) or value not in ZONE_IDS:
            raise IntentError(f"{action}: field {key!r} names no zone (zones: "
                              f"{', '.join(ZONE_IDS)})")
        return Zone(value)
    if origin is tuple:
        args = get_args(hint)
        if not isinstance(value, list | tuple):
            raise _wrong(action, key)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_typed(action, key, v, args[0]) for v in value)
        if len(value) != len(args):
            raise _wrong(action, key)
        return tuple(_typed(action, key, v, a) for v, a in zip(value, args, strict=True))
    raise _wrong(action, key)


def _place(action: str, at: Place | None) -> None:
    if at is not None:
        try:
            check_place(at, f"{action}: a place")
        except ValueError as e:
            raise IntentError(str(e)) from None


def _labels(action: str, labels: tuple[str, ...] | None) -> None:
    """The labels of replacement effects a mover applies (``commander``: the rules' own,
    903.9b): at most 20, each of 1 to 60 characters."""
    if labels is not None and (len(labels) > 20 or not all(0 < len(x) <= 60 for x in labels)):
        raise IntentError(f"{action}: 'apply' is at most 20 labels of 1 to 60 characters")


def _each_once(action: str, ids: tuple[Ref, ...]) -> None:
    if len(set(ids)) != len(ids):
        raise IntentError(f"{action}: each card once")


def _within(action: str, value: int, low: int, high: int, what: str) -> None:
    if not low <= value <= high:
        raise IntentError(f"{action}: {what}")


# ---- cards ------------------------------------------------------------------------------
@_intent
class Move(Intent):
    """A card put into a zone, as a person drops it (``at``: where it is let go on a
    battlefield)."""

    NAME = "move"
    SEAT = "card"
    HANDLES = ("id",)
    id: Ref
    zone: Zone
    player: str | None = None
    position: str | int = "top"
    face_down: bool | None = None
    at: Place | None = None
    apply: tuple[str, ...] | None = None  # replacement effects applied, in order (None: all)

    def check(self) -> None:
        _place(self.NAME, self.at)
        _labels(self.NAME, self.apply)


@_intent
class MoveMany(Intent):
    """Several cards put into a zone at once, one action (``ordered``: in the order
    of ``ids``, top first; ``at``: each one's place, or None)."""

    NAME = "move_many"
    HISTORY, STEP = ("move",), ("move",)  # a move of several cards, one action
    SEAT = "card"
    HANDLES = ("ids",)
    ids: tuple[Ref, ...]
    zone: Zone
    player: str | None = None
    position: str | int = "top"
    ordered: bool | None = None
    face_down: bool | None = None
    at: tuple[Place | None, ...] | None = None
    apply: tuple[str, ...] | None = None  # replacement effects applied, in order (None: all)

    def check(self) -> None:
        _labels(self.NAME, self.apply)
        if not self.ids:
            raise IntentError("move_many: which cards?")
        _each_once(self.NAME, self.ids)
        if self.at is not None and len(self.at) != len(self.ids):
            raise IntentError("move_many: one place (or none) for each card")
        for a in self.at or ():
            _place(self.NAME, a)


@_intent
class PlaceCards(Intent):
    """Permanents put elsewhere on the battlefield (None: back in the rows)."""

    NAME = "place"
    STEP = ()  # where a permanent sits: the layout, no rule (no step)
    SEAT = "card"
    HANDLES = ("ids",)
    ids: tuple[Ref, ...]
    at: tuple[Place | None, ...] = ()

    def check(self) -> None:
        if not self.ids or len(self.at) != len(self.ids) or len(set(self.ids)) != len(
                self.ids):
            raise IntentError("place: each card once, with where it goes")
        for a in self.at:
            _place(self.NAME, a)


@_intent
class Tap(Intent):
    NAME = "tap"
    HISTORY = STEP = ("tap", "untap")  # the contract's two steps, by direction
    SEAT = "card"
    HANDLES = ("id",)
    id: Ref
    tapped: bool = True


@_intent
class Counters(Intent):
    """Counters of a kind put on (or, negative, removed from) a card."""

    NAME = "counters"
    SEAT = "card"
    HANDLES = ("id",)
    id: Ref
    kind: str = ""
    delta: int = 1

    def check(self) -> None:
        kind = " ".join(self.kind.split())
        if not 0 < len(kind) <= 60 or not -1000 <= self.delta <= 1000:
            raise IntentError("counters: a kind of 1 to 60 characters, a change of at "
                              "most 1,000")
        object.__setattr__(self, "kind", kind)


@_intent
class Face(Intent):
    NAME = "face"
    STEP = ("turn_face",)  # the contract's step
    SEAT = "card"
    HANDLES = ("id",)
    id: Ref
    down: bool = True


@_intent
class Reveal(Intent):
    NAME = "reveal"
    SEAT = "card"
    HANDLES = ("id",)
    id: Ref
    revealed: bool = True


@_intent
class Note(Intent):
    NAME = "note"
    SEAT = "card"
    HANDLES = ("id",)
    id: Ref
    text: str = ""


@_intent
class PT(Intent):
    """A power/toughness set on a card ("" clears it)."""

    NAME = "pt"
    STEP = ("set_pt",)
    SEAT = "card"
    HANDLES = ("id",)
    id: Ref
    text: str = ""


@_intent
class Attach(Intent):
    """A permanent attached to another (``host``), or unattached (None)."""

    NAME = "attach"
    SEAT = "card"
    HANDLES = ("id",)
    id: Ref
    host: Ref | None = None  # any card the actor can see: not one it must handle


@_intent
class Ability(Intent):
    """An ability of a card put on the stack, its controller's."""

    NAME = "ability"
    SEAT = "card"
    HANDLES = ("id",)
    id: Ref
    text: str = ""

    def check(self) -> None:
        text = " ".join(self.text.split())
        if not 0 < len(text) <= 200:
            raise IntentError("ability: what it does, in 1 to 200 characters")
        object.__setattr__(self, "text", text)


@_intent
class Sticker(Intent):
    """A sticker put on an object its owner owns (123.3b): what it says, e.g.
    "name: Dark", "ability: flying", "3/3"."""

    NAME = "sticker"
    id: Ref
    text: str = ""

    def check(self) -> None:
        text = " ".join(self.text.split())
        if not 0 < len(text) <= 60:
            raise IntentError("sticker: what it is, in 1 to 60 characters")
        object.__setattr__(self, "text", text)


@_intent
class Merge(Intent):
    """A card merges with a permanent (mutate, 728.2): under it, or on top of it."""

    NAME = "merge"
    SEAT = "card"
    HANDLES = ("id",)
    id: Ref
    onto: Ref = Ref(0)  # any permanent the actor can see
    on_top: bool = False


@_intent
class CommanderReturns(Intent):
    """Its owner puts a commander from a graveyard or exile into the command zone, the
    state-based action of 2025's 903.9a (refused where the rules have none)."""

    NAME = "commander_returns"
    SEAT = "card"
    HANDLES = ("id",)
    id: Ref


@_intent
class Arrow(Intent):
    """An arrow from a card to a card or to a player (a name): any card on the table."""

    NAME = "arrow"
    id: Ref = Ref(0)  # any card on the table
    to: Ref | str = ""


@_intent
class ClearArrows(Intent):
    NAME = "clear_arrows"


# ---- a player's own ----------------------------------------------------------------------
@_intent
class Draw(Intent):
    NAME = "draw"
    SEAT = "own"
    count: int = 1
    player: str | None = None  # None: the seat that sends it

    def check(self) -> None:
        _within(self.NAME, self.count, 1, 100, "1 to 100 cards")


@_intent
class Shuffle(Intent):
    NAME = "shuffle"
    SEAT = "own"
    player: str | None = None


@_intent
class Roll(Intent):
    NAME = "roll"
    SEAT = "own"
    sides: int = 6
    player: str | None = None

    def check(self) -> None:
        _within(self.NAME, self.sides, 2, 1000, "a die has 2 to 1,000 sides")


@_intent
class Life(Intent):
    """A change of a life total (a change, never a total: one meaning everywhere)."""

    NAME = "life"
    SEAT = "own"
    delta: int = 0
    player: str | None = None

    def check(self) -> None:
        _within(self.NAME, self.delta, -1000, 1000, "a change of at most 1,000")


@_intent
class PlayerCounter(Intent):
    """How many counters of a kind a player has (poison, energy...)."""

    NAME = "player_counter"
    SEAT = "own"
    kind: str = ""
    value: int = 0
    player: str | None = None

    def check(self) -> None:
        _within(self.NAME, self.value, 0, 1000, "a value of 0 to 1,000")


@_intent
class Token(Intent):
    """Tokens made up at the table, with the facts given (``card``: the whole card
    where it was made, the card database's token; the wire carries its facts above)."""

    NAME = "token"
    STEP = ("create_token",)  # the contract's step
    SEAT = "own"
    LOCAL = ("card",)
    name: str = ""
    types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    colors: tuple[str, ...] = ()
    count: int = 1
    tapped: bool = False
    power: str | None = None
    toughness: str | None = None
    player: str | None = None
    card: Card | None = None

    @classmethod
    def of(cls, card: Card, player: str | None, count: int = 1,
           tapped: bool = False) -> Token:
        pt = card.power is not None and card.toughness is not None
        return cls(card.name, tuple(card.types), tuple(card.subtypes), tuple(card.colors),
                   count, tapped, card.power if pt else None,
                   card.toughness if pt else None, player, card)

    def check(self) -> None:
        name = " ".join(self.name.split())
        if not 0 < len(name) <= 60:
            raise IntentError("token: a name of 1 to 60 characters")
        object.__setattr__(self, "name", name)
        if (self.power is None) != (self.toughness is None) or (
                self.power is not None and split_pt(f"{self.power}/{self.toughness}") is None):
            raise IntentError("token: a power and a toughness such as 2 and 2, or neither")


@_intent
class Mill(Intent):
    """The top cards of a library into its owner's graveyard."""

    NAME = "mill"
    HISTORY, STEP = ("move",), ("move",)  # the top cards moved, one action
    SEAT = "own"
    count: int = 1
    player: str | None = None

    def check(self) -> None:
        _within(self.NAME, self.count, 1, 1000, "1 to 1,000 cards")


@_intent
class Mulligan(Intent):
    NAME = "mulligan"
    SEAT = "own"
    player: str | None = None


@_intent
class MoveAll(Intent):
    """A whole zone of the player's put into another."""

    NAME = "move_all"
    STEP = ("whole_zone",)
    SEAT = "own"
    WIRE: ClassVar[dict[str, str]] = {"src": "from"}
    src: Zone
    zone: Zone
    shuffle: bool = False
    player: str | None = None


@_intent
class Show(Intent):
    """Cards of the player's shown to one player, or to everyone (None)."""

    NAME = "show"
    SEAT = "own"
    ids: tuple[Ref, ...] = ()  # the player's own cards (not ones to handle)
    to: str | None = None
    player: str | None = None


@_intent
class Cleanup(Intent):
    """Discard to hand size: these cards, or (none given) the newest in hand."""

    NAME = "cleanup"
    SEAT = "own"
    ids: tuple[Ref, ...] = ()  # the player's own cards in hand
    player: str | None = None


@_intent
class BringIn(Intent):
    """A card of the player's sideboard brought into the game (a wish)."""

    NAME = "bring_in"
    STEP = ("wish",)
    SEAT = "own"
    name: str = ""
    zone: Zone = Zone.HAND
    player: str | None = None


@_intent
class Look(Intent):
    """The top ``count`` cards of a library looked at, or all of it searched (None);
    another player's library only with its owner's leave."""

    NAME = "look"
    player: str | None = None  # whose library (None: the seat's own)
    count: int | None = None

    def check(self) -> None:
        if self.count is not None:
            _within(self.NAME, self.count, 1, 1000,
                    "1 to 1,000 cards, or none to search the library")


# ---- the turn ----------------------------------------------------------------------------
@_intent
class NextTurn(Intent):
    NAME = "next_turn"
    SEAT = "active"
    untap: bool = True  # the active player's permanents untap (as at the host, always)


@_intent
class Phase(Intent):
    """The turn moved on to a step (``draw``: its draw too, as the phase bar does)."""

    NAME = "phase"
    SEAT = "active"
    phase: str = ""
    draw: bool = False


# ---- setting the table up (a judge's workbench; at the desk only) ----------------------
AFFECTS = ("any", "owner", "opponents-of", "card", "tokens", "nontokens")


def _words(action: str, key: str, value: str, most: int) -> str:
    text = " ".join(value.split())
    if not 0 < len(text) <= most:
        raise IntentError(f"{action}: {key} of 1 to {most} characters")
    return text


@_intent
class AddCard(Intent):
    """A named card put on the table (``owner``'s; into ``player``'s zone, where zones
    are a player's), with what the scenario format's ``[cards]`` says of it; ``host``:
    the permanent it is attached to. ``card``: the card database's card, where it was
    made (the wire carries its facts above)."""

    NAME = "add_card"
    SEAT = "setup"
    LOCAL = ("card",)
    name: str = ""
    zone: Zone = Zone.BATTLEFIELD
    owner: str = ""
    types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    supertypes: tuple[str, ...] = ()
    player: str | None = None
    controller: str | None = None
    tapped: bool = False
    face_down: bool = False
    counters: tuple[tuple[str, int], ...] = ()
    host: Ref | None = None
    commander: bool = False
    position: str | int = "top"
    card: Card | None = None

    def check(self) -> None:
        object.__setattr__(self, "name", _words(self.NAME, "a name", self.name, 141))
        if not self.types and self.card is None:
            raise IntentError("add_card: its types (Creature, Land...), at least one")
        for kind, n in self.counters:
            _words(self.NAME, "a counter's kind", kind, 60)
            _within(self.NAME, n, 1, 1000, "1 to 1,000 counters of a kind")
        if isinstance(self.position, str) and self.position not in ("top", "bottom"):
            raise IntentError("add_card: a position is top, bottom or a number from 1")
        if isinstance(self.position, int):
            _within(self.NAME, self.position, 1, 1000, "a position from 1 to 1,000")

    def the_card(self) -> Card:
        return self.card or Card(self.name, self.types, self.subtypes, self.supertypes)


@_intent
class RemoveCard(Intent):
    """A card taken off the table (setting it up; no rule moves it)."""

    NAME = "remove_card"
    SEAT = "setup"
    id: Ref = Ref(0)


@_intent
class AddEffect(Intent):
    """A replacement effect put in force, with the scenario format's keys: an object
    that would be put into ``watch`` (from ``src``: a zone, or "any") is put into
    ``instead``; ``affects`` is any, owner:NAME, opponents-of:NAME, tokens, nontokens,
    or card (the card ``id``); ``optional``: its owner may decline it."""

    NAME = "add_effect"
    SEAT = "setup"
    WIRE: ClassVar[dict[str, str]] = {"src": "from"}
    label: str = ""
    watch: Zone = Zone.GRAVEYARD
    instead: Zone = Zone.EXILE
    source: str = ""
    src: str = "any"
    affects: str = "any"
    id: Ref | None = None
    optional: bool = False

    def check(self) -> None:
        object.__setattr__(self, "label", _words(self.NAME, "a label", self.label, 60))
        if self.source:
            object.__setattr__(self, "source", _words(self.NAME, "a source", self.source, 141))
        if self.src != "any" and self.src not in ZONE_IDS:
            raise IntentError("add_effect: field 'from' names no zone (or any)")
        kind, _, arg = self.affects.partition(":")
        if kind not in AFFECTS or (kind in ("owner", "opponents-of")) != bool(arg):
            raise IntentError("add_effect: 'affects' is any, owner:NAME, opponents-of:NAME, "
                              "card, tokens or nontokens")
        if (kind == "card") != (self.id is not None):
            raise IntentError("add_effect: a card's effect names the card ('id'), and only it")


@_intent
class EndEffect(Intent):
    """A replacement effect taken out of force, by its label."""

    NAME = "end_effect"
    SEAT = "setup"
    label: str = ""


@_intent
class Modify(Intent):
    """An effect that changes an object's characteristics, as its text says, from a
    spell, an ability or a static ability (``origin``)."""

    NAME = "modify"
    SEAT = "setup"
    ORIGINS: ClassVar[tuple[str, ...]] = ("spell", "ability", "static")
    id: Ref = Ref(0)
    effect: str = ""
    origin: str = "spell"

    def check(self) -> None:
        object.__setattr__(self, "effect", _words(self.NAME, "what it does", self.effect, 200))
        if self.origin not in self.ORIGINS:
            raise IntentError("modify: 'origin' is spell, ability or static")


# ---- the history and the seats' answers ------------------------------------------------
@_intent
class Undo(Intent):
    NAME = "undo"
    HISTORY = ()  # takes an action back: records none


@_intent
class AgreeUndo(Intent):
    NAME = "agree_undo"
    HISTORY = STEP = ()  # an answer: the room's, not the table's
    SEAT = "answer"


@_intent
class RefuseUndo(Intent):
    NAME = "refuse_undo"
    HISTORY = STEP = ()
    SEAT = "answer"


@_intent
class AgreeLook(Intent):
    NAME = "agree_look"
    HISTORY, STEP = ("look",), ()  # the look it allows
    SEAT = "answer"


@_intent
class RefuseLook(Intent):
    NAME = "refuse_look"
    HISTORY = STEP = ()
    SEAT = "answer"


INTENTS: dict[str, type[Intent]] = {c.NAME: c for c in (
    Move, MoveMany, PlaceCards, Tap, Counters, Face, Reveal, Note, PT, Attach, Ability,
    CommanderReturns, Sticker, Merge,
    Arrow, ClearArrows, Draw, Shuffle, Roll, Life, PlayerCounter, Token, Mill, Mulligan,
    MoveAll, Show, Cleanup, BringIn, Look, NextTurn, Phase, Undo, AgreeUndo, RefuseUndo,
    AgreeLook, RefuseLook, AddCard, RemoveCard, AddEffect, EndEffect, Modify)}


def decode(d: dict[str, Any]) -> Intent:
    """An intent from the protocol's ``act`` fields (``action`` names it)."""
    name = d.get("action")
    cls = INTENTS.get(name) if isinstance(name, str) else None
    if cls is None:
        raise IntentError(f"unknown action {str(name)[:40]!r}")
    return cls.decode_fields(d)
