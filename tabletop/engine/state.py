"""The table's state: plain data, one way in, and a history of recorded changes (the
Table in table.py is this state, holding its move pipeline and actions).

Every action runs inside ``_action()``, which records each primitive change
(an *op*) as it is made. Undo replays an action's ops backwards, redo forwards:
no snapshot of the table is ever taken. Object ids come from a counter that
never goes back, so an undone object's id is never handed out again.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Callable, Iterable, Sequence
from types import TracebackType
from typing import Any, NamedTuple

from tabletop.engine import editions
from tabletop.engine.errors import IllegalActionError, InputError
from tabletop.engine.model import (
    ADDED,
    BATTLEFIELD,
    CONTROLLED,
    EXILE,
    NEW_OBJECT,
    OP_CURRENT,
    OP_DELETE,
    OP_EFFECT,
    OP_EFFECT_END,
    OP_INSERT,
    OP_LIFE,
    OP_LINEAGE,
    OP_META,
    OP_MOVE,
    OP_SET,
    OP_ZONE_ORDER,
    ORDERED,
    REJECTED,
    STACK,
    ZONES,
    Card,
    CardId,
    Effect,
    Event,
    EventKind,
    LineageEntry,
    Obj,
    ObjId,
    Zone,
    ZoneKey,
    from_fields,
)
from tabletop.engine.ops import (
    CurrentOp,
    DeleteOp,
    EffectEndOp,
    EffectOp,
    InsertOp,
    LifeOp,
    LineageOp,
    MetaOp,
    MoveOp,
    Op,
    OrderOp,
    SetOp,
)
from tabletop.jsontext import read

# what undo does not restore, noted before an action a dialog may still take back:
# (actions in the history, next object id, next card id, the random generator's state)
Mark = tuple[int, int, int, Any]
# turns a save's encoded action back into (name, params, events, ops)
Decoder = Callable[[str], tuple[str, dict[str, Any], tuple[Event, ...], list[Op]]]


class Action:
    """One recorded action: what was asked, what happened, the changes made.

    An action read from a save stays as its encoded text until something needs
    it (undo, redo, the log), so loading a long game does not decode its history.
    A save keeps that text as it writes it (``quoted``: the JSON string of the text,
    put in the save as it is), and then only that form."""

    __slots__ = ("_decode", "_events", "_name", "_ops", "_params", "quoted", "raw", "told")

    def __init__(self, name: str | None, params: dict[str, Any] | None,
                 events: tuple[Event, ...] | None, ops: list[Op] | None,
                 raw: str | None = None, decode: Decoder | None = None) -> None:
        self._name, self._params, self._events, self._ops = name, params, events, ops
        self.raw, self._decode = raw, decode
        self.quoted: str | None = None
        # the log lines it was told in when done (None: read from a save, told afresh):
        # undo and redo tell them again as they were, without wording them anew
        self.told: tuple[LogEntry, ...] | None = None

    @classmethod
    def encoded(cls, raw: str, decode: Decoder) -> Action:
        return cls(None, None, None, None, raw, decode)

    def _load(self) -> None:
        if self._ops is None:
            raw = self.raw if self.quoted is None else read(self.quoted)
            assert self._decode is not None and raw is not None
            self._name, self._params, self._events, self._ops = self._decode(raw)

    def as_read(self, raw: str | None, quoted: str | None) -> None:
        """Back to the encoded text it was read as (its objects again as they were when
        it was written): decoded again when something needs it, and a save puts the
        text in as it is."""
        if raw is None and quoted is None:
            return
        self.raw, self.quoted = raw, quoted
        self._name = self._params = self._events = self._ops = None

    @property
    def name(self) -> str:
        self._load()
        assert self._name is not None
        return self._name

    @property
    def params(self) -> dict[str, Any]:
        self._load()
        assert self._params is not None
        return self._params

    @property
    def events(self) -> tuple[Event, ...]:
        self._load()
        assert self._events is not None
        return self._events

    @property
    def ops(self) -> list[Op]:
        self._load()
        assert self._ops is not None
        return self._ops

    @property
    def title(self) -> str:
        """The action's title when it was given one (moves get theirs from the table)."""
        title = self.params.get("title")
        return title if isinstance(title, str) and title else self.name.replace("_", " ")


LOG_TAGS = ("done", "undone", "redone", "refused", "step")  # step: a scenario step's heading




class LogEntry(NamedTuple):
    """One line of the table's journal, written when its event happened and never
    changed: undo and redo add lines of their own."""

    tag: str  # "done", "undone", "redone", "refused", or "step" (a scenario step's words)
    kind: str  # the event's kind
    text: str  # the whole sentence, for the judge and the players who know the card
    public: str  # the same event for a player who may not see the card: names nothing
    cites: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    knowers: tuple[str, ...] = ()  # players told the whole sentence (and its rules)
    # one action moving several cards is one entry with its lines: the first line carries
    # the entry's heading (public: it names no card), and every line is marked ``sub``
    lead: str = ""
    sub: bool = False

    def told(self, viewer: str | None) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
        """(text, cites, notes) as this viewer (a player, None: the judge, or anyone
        else: a spectator) reads it. A line that names nothing hidden is everyone's,
        with its rules."""
        if viewer is None or viewer in self.knowers or self.public == self.text:
            return self.text, self.cites, self.notes
        return self.public, (), ()

    def to_json(self, players: tuple[str, ...] | None = None) -> list[Any]:
        """The line as a save keeps it: short forms for what most lines say (words that
        are everyone's: 1; no rules or notes: 0; known to every player: 0)."""
        r: list[Any] = [self.tag, str(self.kind), self.text,
                        1 if self.public == self.text else self.public,
                        list(self.cites) or 0, list(self.notes) or 0,
                        0 if players is not None and self.knowers == players
                        else list(self.knowers)]
        if self.sub:
            r += [self.lead, True]
        return r


class SavedLog:
    """The log's lines as a save writes them, each made once (saves.py): the lines they
    were made of, in order; where each one's text ends in ``text``; and the texts
    joined as the save puts them. One string for the whole log, not one a line: a
    server holds many rooms' logs this way between snapshots."""

    __slots__ = ("ends", "entries", "text")

    def __init__(self) -> None:
        self.entries: list[LogEntry] = []
        self.ends = array("q")
        self.text = ""

    def clear(self) -> None:
        """Nothing kept: the next save makes every line again."""
        self.entries, self.ends, self.text = [], array("q"), ""


class Result(NamedTuple):
    """The answer to an action: its events, each citing rules."""

    events: tuple[Event, ...]

    @property
    def rejected(self) -> bool:
        return bool(self.events) and all(e.kind == REJECTED for e in self.events)

    @property
    def cites(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for e in self.events:
            for c in e.cites:
                seen.setdefault(c, None)
        return tuple(seen)


class TableState:
    MIN_PLAYERS, MAX_PLAYERS = 1, 8

    def __init__(self, players: Iterable[str], edition: str = editions.NEWEST, seed: int | None = 0,
                 ante: bool = False, max_hand: int = 7, life: int = 20) -> None:
        players = tuple(players)
        if not self.MIN_PLAYERS <= len(players) <= self.MAX_PLAYERS:
            raise IllegalActionError(f"a table seats 1 to 8 players, not {len(players)}")
        if len(set(players)) != len(players) or not all(isinstance(p, str) and p for p in players):
            raise IllegalActionError("player names must be distinct, non-empty strings")
        self.edition = editions.get(edition)
        self.players = players
        self.active = players[0]
        self.seed = seed  # None: not asked to be repeatable (see ``draw_unseen``)
        self.rng = random.Random(seed)
        self.ante = ante
        self.max_hand = max_hand
        self.life = {p: life for p in players}
        self.objs: dict[ObjId, Obj] = {}
        # every id an object's ``attached_to`` has named (built at first use, see
        # ``may_host``); None: not built yet
        self._hosts: set[ObjId] | None = None
        self.current: dict[CardId, ObjId] = {}  # cid -> id of the object it is now (or was last)
        self.lineage: dict[CardId, list[LineageEntry]] = {}
        self.zones: dict[ZoneKey, list[ObjId]] = {}  # bottom first, top last
        self.effects: list[Effect] = []
        self.sideboards: dict[str, list[Card]] = {p: [] for p in players}  # outside the game
        self.revealed_tops: frozenset[str] = frozenset()  # players playing with it
        # the cards that are their owners' commanders: an attribute of the card itself,
        # kept through every zone change (903.3); set up with the table
        self.commanders: frozenset[CardId] = frozenset()
        # merged permanents (728): the card id of the permanent -> its components, top
        # first, the permanent's own card among them: (card id, card, owner, token)
        self.merged: dict[CardId, tuple[tuple[CardId, Card, str, bool], ...]] = {}
        self.last_roll: tuple[str, int, int] | None = None  # (player, sides, value) of the last die or coin
        self.mulligans: dict[str, int] = {}  # mulligans taken this game, per player
        # players' counters (poison, commander damage from a player, energy...): player ->
        # kind -> count; replaced whole on each change (a MetaOp), never changed in place
        self.player_counters: dict[str, dict[str, int]] = {}
        self.turn = 1  # the turn number
        self.phase = "main1"  # a step or phase of the turn (PHASES), for the phase bar
        # arrows players draw (an attacker to what it attacks, a spell to its target):
        # (player, object id, object id or player name); gone at the next turn
        self.arrows: tuple[tuple[str, ObjId, ObjId | str], ...] = ()
        # the printings the decks named (card name -> (set code, collector number)): for
        # pictures only; no rule reads them. Set up with the game, saved with it.
        self.printings: dict[str, tuple[str, str]] = {}
        # each player's deck as this game began ("main", "commander", "sideboard"): the
        # next game of a match starts from it. Set up with the game, saved with it.
        self.decks: dict[str, dict[str, list[Card]]] = {}
        self.deck_names: dict[str, str] = {}  # each player's deck as named (the title's)
        # how a window last showed this game ("viewer": a player, or None for the judge;
        # "zoom" and "centre" when zoomed in; "viewers": the zones with a viewer open):
        # no rule reads it; saved with the game, so a restore looks as it was left
        self.screen: dict[str, Any] = {}
        self.history: list[Action] = []
        self.redo_stack: list[Action] = []
        self._cleared_redo: list[Action] = []  # what the last recorded action cleared
        # attempts the rules refused (nothing changed, so not in the history), each with
        # the number of actions before it: part of a judge's demonstration, so a
        # recording or a replay under another edition keeps them. Not undone, not saved;
        # those made after actions since undone go when a new action is recorded.
        self.refused: list[tuple[int, Action]] = []
        self.journal: list[LogEntry] = []  # the log: append-only
        # its lines as a save writes them, each made once (saves.py)
        self.saved_lines = SavedLog()
        # and each card's lineage: its length and last entry when made, and its text
        self.saved_lineage: dict[CardId, tuple[int, LineageEntry, str]] = {}
        self.quiet = False  # a scratch table (checking a save) writes no log
        self._journal_before = 0  # the journal's length before the last recorded action
        self.next_id = 1
        self.next_cid = 1
        # the ops of the action under way; None outside one, so a change made outside an
        # action fails at once rather than going unrecorded
        self._ops: list[Op] = None  # type: ignore[assignment]
        self._card_ids: dict[Card, int] = {}  # card faces numbered for saves; only grows
        for z in self.edition.zones:
            if z in self.edition.per_player:
                for p in players:
                    self.zones[(p, z)] = []
            else:
                self.zones[(None, z)] = []

    # ---- zones -------------------------------------------------------------
    def zone_key(self, zone: Zone, player: str | None) -> ZoneKey:
        """The key of a zone: per-player zones need a player; shared ones ignore it."""
        if not self.edition.has_zone(zone):
            raise IllegalActionError(f"the {self.edition.id} edition has no {zone!r} zone")
        zone = ZONES[zone]  # the vocabulary's own member (a file's text names it too)
        if zone in self.edition.per_player:
            if player not in self.life:
                raise IllegalActionError(f"unknown player {player!r}")
            return (player, zone)
        return (None, zone)

    def objects_in(self, key: ZoneKey) -> list[Obj]:
        """The objects of a zone, top first."""
        return [self.objs[i] for i in reversed(self.zones[key])]

    def position(self, obj: Obj) -> int | None:
        """Place from the top (1 is the top) in an ordered zone."""
        if obj.zone is None or obj.zone[1] not in ORDERED:
            return None
        lst = self.zones[obj.zone]
        return len(lst) - lst.index(obj.id)

    def obj_of(self, cid: CardId) -> Obj:
        """The object a card (token, ability) is now, or was last."""
        try:
            return self.objs[self.current[cid]]
        except KeyError:
            raise IllegalActionError(f"there is no card {cid!r} on this table") from None

    def live(self, cid: CardId) -> Obj | None:
        oid = self.current.get(cid)
        o = self.objs.get(oid) if oid is not None else None
        return o if o is not None and o.zone is not None else None

    def player_of(self, obj: Obj) -> str | None:
        """Whose zone it is in, or on the battlefield and stack its controller."""
        if obj.zone is None:
            return None
        return obj.controller if obj.zone[1] in CONTROLLED else obj.zone[0]

    def apnap(self) -> list[str]:
        i = self.players.index(self.active)
        return list(self.players[i:] + self.players[:i])

    # ---- recording ---------------------------------------------------------
    def _action(self, name: str, params: dict[str, Any]) -> _Recording:
        """Run an action's changes; record it in history unless nothing changed."""
        return _Recording(self, name, params)

    def _set(self, obj: Obj, attr: str, value: Any) -> None:
        old = getattr(obj, attr)
        if old == value and type(old) is type(value):
            return
        self._ops.append(SetOp(OP_SET, obj.id, attr, old, value))
        setattr(obj, attr, value)
        if attr == "attached_to":
            self.hosting(value)

    def may_host(self, oid: ObjId) -> bool:
        """Whether anything may be attached to the object: False when no object's
        ``attached_to`` has ever named it, so a permanent leaving the battlefield need
        not look through every other for what was attached to it (a thousand on a
        token deck's table). Built from every object at its first use, then told of
        each id an attachment names (``hosting``): whatever is attached to the object
        now named it, when made (``_new_obj``, read from a save) or when set (``_set``,
        an op redone or undone), so an id never named is one nothing is attached to."""
        hosts = self._hosts
        if hosts is None:
            hosts = self._hosts = {o.attached_to for o in self.objs.values()
                                   if o.attached_to is not None}
        return oid in hosts

    def hosting(self, oid: ObjId | None) -> None:
        """An object's ``attached_to`` names ``oid`` (see ``may_host``)."""
        if oid is not None and self._hosts is not None:
            self._hosts.add(oid)

    def _insert(self, key: ZoneKey, index: int, oid: ObjId) -> None:
        lst = self.zones[key]
        if index < 0:
            index = len(lst) + 1 + index
        lst.insert(index, oid)
        self._ops.append(InsertOp(OP_INSERT, key, index, oid))

    def _remove(self, key: ZoneKey, oid: ObjId) -> None:
        lst = self.zones[key]
        index = lst.index(oid)
        del lst[index]
        self._ops.append(DeleteOp(OP_DELETE, key, index, oid))

    def _reorder(self, key: ZoneKey, new: Sequence[ObjId]) -> None:
        old = self.zones[key]
        self.zones[key] = list(new)
        self._ops.append(OrderOp(OP_ZONE_ORDER, key, tuple(old), tuple(new)))

    def _meta(self, name: str, value: Any) -> None:
        old = getattr(self, name)
        setattr(self, name, value)
        self._ops.append(MetaOp(OP_META, name, old, value))

    def _life(self, player: str, value: int) -> None:
        self._ops.append(LifeOp(OP_LIFE, player, self.life[player], value))
        self.life[player] = value

    def _new_obj(self, cid: CardId, card: Card, owner: str, *, kind: str = "card",
                 token: bool = False, prev: ObjId | None = None, current: bool = True,
                 controller: str | None = None, tapped: bool = False,
                 face_down: bool = False, counters: dict[str, int] | None = None,
                 attached_to: ObjId | None = None,
                 modifications: tuple[tuple[str, str], ...] = (),
                 choices: tuple[Any, ...] = (), pile: str | None = None,
                 revealed: bool = False, pt: str | None = None, note: str = "",
                 place: tuple[float, float] | None = None,
                 stickers: tuple[str, ...] = ()) -> Obj:
        """A new object, not yet in a zone (the counter never goes back). With
        ``current=False`` the card is pointed at it later, by ``_replace_obj``."""
        oid = ObjId(self.next_id)
        self.next_id += 1
        # (Obj's fields in their order: a move makes one, and keywords cost it a third)
        obj = Obj(oid, cid, card, owner, None, controller, tapped, face_down, counters,
                  attached_to, modifications, choices, token, kind, pile, revealed, prev, pt,
                  note, place, stickers)
        self.objs[oid] = obj
        if attached_to is not None:
            self.hosting(attached_to)
        if current:
            old = self.current.get(cid)
            self.current[cid] = oid
            self._ops.append(CurrentOp(OP_CURRENT, cid, old, oid))
        return obj

    def _successor(self, old: Obj, card: Card, controller: str | None, face_down: bool,
                   modifications: tuple[tuple[str, str], ...], choices: tuple[Any, ...],
                   stickers: tuple[str, ...], pile: str | None) -> Obj:
        """The new object a zone change makes of ``old`` (400.7): ``_new_obj`` as the move
        pipeline asks for it on every move, its arguments in order (a call with ten
        keywords cost the move more than the object). Not yet in a zone, and not yet
        the card's current object: ``_replace_obj`` makes it both."""
        oid = ObjId(self.next_id)
        self.next_id += 1
        obj = Obj(oid, old.cid, card, old.owner, None, controller, False, face_down, None, None,
                  modifications, choices, old.token, old.kind, pile, False, old.id, None, "",
                  None, stickers)
        self.objs[oid] = obj
        return obj

    def _replace_obj(self, old: Obj, new: Obj, dst: ZoneKey, index: int,
                     entry: LineageEntry) -> None:
        """The zone change itself (400.7): ``old`` leaves its zone and ``new``, just
        made by ``_new_obj``, enters ``dst`` at ``index``; one op records it all."""
        src = old.zone
        assert src is not None, "an object in no zone cannot change zones"
        lst = self.zones[src]
        sidx = lst.index(old.id)
        del lst[sidx]
        old.zone = None
        new.zone = dst
        self.current[old.cid] = new.id
        self.zones[dst].insert(index, new.id)
        self.lineage.setdefault(old.cid, []).append(entry)
        self._ops.append(from_fields(MoveOp, (OP_MOVE, old.cid, old.id, new.id, src, sidx, dst,
                                              index, entry)))

    def _spawn(self, card: Card, owner: str, key: ZoneKey, event: EventKind,
               cites: Iterable[str] = (), notes: Iterable[str] = (),
               text: str = "", position: str | int = "top", **attrs: Any) -> Event:
        """A new card (token, ability, emblem) enters a zone: a fresh card id, its first
        object, its first lineage entry, and the event that says so."""
        cid = CardId(self.next_cid)
        self.next_cid += 1
        obj = self._new_obj(cid, card, owner, **attrs)
        self._set(obj, "zone", key)
        self._insert(key, self._index_for(key, position), obj.id)
        self._lineage(cid, LineageEntry(obj.id, key, event, tuple(cites)))
        return Event(event, cid, obj.id, None, None, key, tuple(cites), tuple(notes), text)

    def _renew(self, obj: Obj, cites: Iterable[str], text: str, notes: Iterable[str] = (),
               forgotten: Iterable[tuple[str, str]] = (), **attrs: Any) -> Event:
        """The object becomes a new object where it is, in its place in the zone (exiled
        again 400.8, turned face down in the command zone 400.9, a revealed top card
        covered 401.7): the one way the engine does it."""
        key = obj.zone
        assert key is not None, "an object in no zone cannot be renewed"
        index = self.zones[key].index(obj.id)
        new = self._new_obj(obj.cid, obj.card, obj.owner, kind=obj.kind, token=obj.token,
                            prev=obj.id, **attrs)
        self._remove(key, obj.id)
        self._set(obj, "zone", None)
        self._set(new, "zone", key)
        self._insert(key, index, new.id)
        self._lineage(obj.cid, LineageEntry(new.id, key, "new_object", tuple(cites), (),
                                            tuple(forgotten)))
        return Event(NEW_OBJECT, obj.cid, new.id, obj.id, key, key, tuple(cites),
                     tuple(notes), text)

    def _lineage(self, cid: CardId, entry: LineageEntry) -> None:
        self.lineage.setdefault(cid, []).append(entry)
        self._ops.append(LineageOp(OP_LINEAGE, cid, entry))

    def _add_effect(self, effect: Effect) -> None:
        self.effects.append(effect)
        self._ops.append(EffectOp(OP_EFFECT, effect))

    def _apply(self, op: Op) -> None:
        op.apply(self)  # each kind of change knows how (ops.py)

    def _revert(self, op: Op) -> None:
        op.revert(self)

    # ---- history -----------------------------------------------------------
    def can_redo(self) -> bool:
        return bool(self.redo_stack)

    def undo(self) -> Action | None:
        if not self.history:
            return None
        action = self.history[-1]
        told = len(self.journal)
        # told while its objects are as it left them; an action of many lines is named
        # once, by its heading ("undone: Alice mulligans")
        self._journal_again(action, "undone")
        ops = action._ops  # (decoded already, most often: the property's call saved)
        try:
            self._replay(action.ops if ops is None else ops, True)
        except InputError:
            del self.journal[told:]
            raise
        self.history.pop()
        # which of its objects exist has changed: encode it afresh
        action.raw = action.quoted = None
        self.redo_stack.append(action)
        return action

    def redo(self) -> Action | None:
        if not self.redo_stack:
            return None
        action = self.redo_stack[-1]
        ops = action._ops
        self._replay(action.ops if ops is None else ops, False)
        self.redo_stack.pop()
        action.raw = action.quoted = None
        self.history.append(action)
        self._journal_again(action, "redone")
        return action

    def _journal_again(self, action: Action, tag: str) -> None:
        """An action undone or redone: its one line as it was told, or its heading. Undo
        and redo find the table as the action left it, so the lines it was told in when
        done are its lines again, marked with the tag."""
        told = action.told
        if self.quiet:
            return
        if told:
            if told[0].sub:  # an entry of lines under a heading: the heading
                lead = told[0].lead
                self.journal.append(LogEntry(tag, "action", f"{tag}: {lead}",
                                             f"{tag}: {lead}", (), (), self.players))
                return
            add, head = self.journal.append, tag + ": "
            for _, kind, said, public, cites, notes, knowers, lead, sub in told:
                text = head + said
                # (a line everyone reads alike stays one text; made as the tuple it is)
                public = (text if public == said else head + public) if public else ""
                add(from_fields(LogEntry, (tag, kind, text, public, cites, notes, knowers,
                                           lead, sub)))
            return
        lead = _lead(self, action)
        if not lead:
            self._journal(action.events, tag)
        elif not self.quiet:
            self.journal.append(LogEntry(tag, "action", f"{tag}: {lead}", f"{tag}: {lead}",
                                         (), (), self.players))

    def log_step(self, text: str, public: str) -> None:
        """A heading in the log before a scenario step's events: its sentence for the
        judge, ``public`` (naming no card) for the players."""
        if not self.quiet:
            self.journal.append(LogEntry("step", "step", text, public))

    def _journal(self, events: Iterable[Event], tag: str, lead: str = "") -> None:
        """Write the log lines of these events as they stand now, for every viewer;
        ``lead``: they are one entry under this heading (a move of several cards)."""
        if self.quiet:
            return
        prefix = "" if tag in ("done", "refused") else f"{tag}: "
        if not lead:  # each event a line of its own (most actions: one event)
            for e in events:
                if e.kind != ADDED:
                    text, public, knowers = self._told(e, prefix)
                    self.journal.append(from_fields(LogEntry, (tag, e.kind, text, public,
                                                               tuple(e.cites), tuple(e.notes),
                                                               knowers, "", False)))
            return
        lead = prefix + lead
        events = [e for e in events if e.kind != ADDED]
        if events and events[0].kind == REJECTED:  # the heading goes first on a line
            events.sort(key=lambda e: e.kind == REJECTED)  # that every player reads
        lines: list[list[Any]] = []
        for e in events:  # lines under the heading: the tag is the heading's
            line = [e.kind, *self._told(e, ""), tuple(e.cites), tuple(e.notes)]
            if lines and lines[-1][:6] == line:  # forty tokens: one line, ×40
                lines[-1][6] += 1
            else:
                lines.append([*line, 1])
        for kind, text, public, knowers, cites, notes, n in lines:
            if n > 1:
                text, public = f"{text} ×{n}", f"{public} ×{n}" if public else public
            self.journal.append(LogEntry(tag, kind, text, public, cites, notes, knowers, lead,
                                         True))
            lead = ""  # the heading goes on the entry's first line only

    def _told(self, e: Event, prefix: str) -> tuple[str, str, tuple[str, ...]]:
        """An event's line: (its sentence, the sentence for players who may not know its
        card, the players who may)."""
        text = prefix + self.describe(e)
        knowers = self.knowers(e)
        # everyone's words only when every player knows them and nobody chose who may:
        # cards shown to the players at a table of two are still not a spectator's
        if len(knowers) == len(self.players) and e.audience is None:
            return text, text, knowers
        if e.kind == REJECTED:  # a refusal of a card some may not see: told to who
            return text, "", knowers  # knows it only (its kind would show what it is)
        return text, prefix + self.unnamed(e), knowers

    def describe(self, e: Event) -> str:  # the move pipeline (moves.py) words events
        raise NotImplementedError

    def can_move(self, cid: CardId, zone: Zone, player: str | None = None, *,
                 chooser: Any = None, by: str | None = None,
                 allowed_by: str | None = None) -> bool:  # the move pipeline's check
        raise NotImplementedError

    def knowers(self, e: Event) -> tuple[str, ...]:  # who may know its card (views.py)
        raise NotImplementedError

    def unnamed(self, e: Event) -> str:  # an event told without its card (views.py)
        raise NotImplementedError

    def refuse(self, obj: Obj | None, text: str) -> Result:
        """Something the table does not allow (not a rule: who may handle a card or a
        player's library): nothing changes, and the log says so."""
        # it names no card: the words are about who may handle what, public to all
        e = Event(REJECTED, src=obj.zone if obj is not None else None, text=text)
        self.journal.append(LogEntry("refused", "rejected", text, text, (), (), self.players))
        return Result((e,))

    def start_here(self) -> None:
        """Make the table as it stands the game's starting point: nothing to undo or
        redo, nothing in the log (after setting up a game or a scenario)."""
        self.history.clear()
        self.redo_stack.clear()
        self._cleared_redo = []
        self.refused = []
        self.journal.clear()
        self._journal_before = 0

    def _forget_refused(self, n: int) -> None:
        """Forget the refused attempts made after more than ``n`` actions (after actions
        that are gone for good)."""
        if self.refused and self.refused[-1][0] > n:
            self.refused = [r for r in self.refused if r[0] <= n]

    def chance_seed(self) -> int:
        """The seed of one random action (a shuffle, a roll), drawn from the table's
        generator and kept in the action so that it replays alike. A game dealt from a
        fixed seed is repeatable: its seeds are 32 bits, as they always were, and the
        same seed deals and shuffles the same. A game not asked to be (``seed`` None)
        draws 62 bits: with 32, a player who knows a deck list could try every seed
        of a shuffle until one matched the cards seen, and read the rest of a library."""
        return self.rng.getrandbits(32 if self.seed is not None else 62)

    def draw_unseen(self) -> None:
        """From now on this game's chances cannot be worked out: its generator is
        seeded afresh from the system's randomness and it is no longer repeatable from
        a seed (a table a host hands to a network room: one dealt from a known seed,
        the window's first table, would let anyone who knows it foretell each
        shuffle). What was done keeps its recorded seeds, so it replays as it was."""
        self.seed = None
        self.rng = random.Random()

    def mark(self) -> Mark:
        """A note of what undo does not restore (ids handed out, the random state), taken
        before an action that a following dialog may still take back."""
        return (len(self.history), self.next_id, self.next_cid, self.rng.getstate())

    def take_back(self, mark: Mark | None = None) -> Action | None:
        """Undo the last action and forget it, as if it had never been done: the redo
        list is as it was before it (a dialog that follows an action was cancelled).
        Given the `mark` taken just before the action, ids and the random state are
        put back too, so the table is exactly as it was."""
        action = self.undo()
        if action is None:
            return None
        self.redo_stack.pop()
        self.redo_stack.extend(self._cleared_redo)
        self._cleared_redo = []
        self._forget_refused(len(self.history))
        del self.journal[self._journal_before:]
        if mark is not None and mark[0] == len(self.history):
            self.next_id, self.next_cid = mark[1], mark[2]
            self.rng.setstate(mark[3])
        return action

    def _replay(self, ops: list[Op], backwards: bool) -> None:
        """Apply recorded ops (``backwards``: take them back, last first); if one does
        not fit the table (a damaged save), take back those already applied and say so:
        the table stays as it was."""
        n = 0
        try:
            if backwards:
                for op in reversed(ops):
                    op.revert(self)
                    n += 1
            else:
                for op in ops:
                    op.apply(self)
                    n += 1
        except (KeyError, IndexError, ValueError):  # ids or places the table lacks
            if backwards:
                for op in ops[len(ops) - n:]:
                    op.apply(self)
            else:
                for op in reversed(ops[:n]):
                    op.revert(self)
            raise InputError("the saved history does not fit this table: a change in it "
                             "names an object, a zone or a place the table does not have"
                             ) from None

    def action_title(self, action: Action) -> str:
        """What the Edit menu calls an action ("Move Rancor to graveyard")."""
        p = action.params
        if action.name == "move" and "title" not in p:
            names = ", ".join(self.objs[self.current[c]].card.name for c in p["cids"])
            return f"Move {names} to {self.edition.zone_name(p['zone']).lower()}"
        return action.title

    def undo_status(self) -> tuple[str | None, str | None]:
        """Titles of the actions undo and redo would take back or bring back."""
        return (self.action_title(self.history[-1]) if self.history else None,
                self.action_title(self.redo_stack[-1]) if self.redo_stack else None)

    # ---- setting up (also recorded, so a game replays from its first action) -----
    def add_card(self, card: Card, owner: str, zone: Zone, *, player: str | None = None,
                 controller: str | None = None, token: bool = False, tapped: bool = False,
                 face_down: bool = False, counters: dict[str, int] | None = None,
                 position: str | int = "top", kind: str = "card", pile: str | None = None,
                 modifications: Iterable[tuple[str, str]] = (),
                 choices: Iterable[Any] = (), commander: bool = False,
                 stickers: Iterable[str] = (), attached_to: CardId | None = None) -> Obj:
        """Put a new card (or token) on the table as part of setting it up (attached to
        the permanent ``attached_to``, where given). The rules refuse here what they
        would refuse a move (an instant on the battlefield)."""
        if owner not in self.life:
            raise IllegalActionError(f"unknown player {owner!r}")
        if zone in CONTROLLED:
            controller = controller or owner
            if controller not in self.life:
                raise IllegalActionError(f"unknown player {controller!r}")
        elif controller is not None:
            raise IllegalActionError(f"only objects {self.edition.within(BATTLEFIELD)} or "
                                     f"on the stack have a controller")
        key = self.zone_key(zone, player or owner)
        if tapped and zone != BATTLEFIELD:
            raise IllegalActionError(f"only permanents {self.edition.within(BATTLEFIELD)} "
                                     f"can be tapped")
        if token and zone != BATTLEFIELD:
            raise IllegalActionError(f"a token can only be put {self.edition.toward(BATTLEFIELD)}"
                                     .replace(" to the", " onto the"))
        ed = self.edition
        if zone == BATTLEFIELD and not face_down and ed.cite("instant_sorcery") and (
                card.is_type("Instant") or card.is_type("Sorcery")):  # face down: a 2/2
            raise IllegalActionError(f"an instant or sorcery cannot be put "
                                     f"{ed.toward(BATTLEFIELD)} ({ed.cite('instant_sorcery')[0]})"
                                     .replace(" to the", " onto the"))
        host = None
        if attached_to is not None:
            target = self.live(attached_to)
            if zone != BATTLEFIELD or target is None or target.zone is None \
                    or target.zone[1] != BATTLEFIELD:
                raise IllegalActionError("only a permanent on the battlefield is attached "
                                         "to another one")
            host = target.id
        params: dict[str, Any] = {"name": card.name, "zone": zone}
        params.update(  # what a recording writes back (a judge's setup)
            card=card.to_json(), owner=owner, player=player,
                          controller=controller, tapped=tapped, face_down=face_down,
                          counters=dict(counters or {}), position=position,
                          commander=commander, token=token, attached_to=attached_to,
            title=f"Add {card.name}")
        with self._action("add_card", params) as box:
            box.append(self._spawn(card, owner, key, ADDED, position=position,
                                   kind="token" if token else kind, token=token,
                                   controller=controller, tapped=tapped, face_down=face_down,
                                   counters=dict(counters or {}),
                                   pile=pile if zone == EXILE else None,
                                   modifications=tuple(modifications), choices=tuple(choices),
                                   stickers=tuple(stickers), attached_to=host))
            if commander:
                cid = box[0].cid
                assert cid is not None  # a card just added has a card id
                self._meta("commanders", self.commanders | {cid})
        oid = box[0].obj
        assert oid is not None  # a card just added is an object
        return self.objs[oid]

    def _index_for(self, key: ZoneKey, position: str | int) -> int:
        """List index for 'top', 'bottom' or N-th from the top."""
        n = len(self.zones[key])
        if position == "top" or key[1] not in ORDERED:
            return n
        if position == "bottom":
            return 0
        return max(0, n - (int(position) - 1))

    def add_effect(self, effect: Effect) -> Result:
        """A replacement effect put in force (a scenario's, or a judge's setting up)."""
        if any(e.label == effect.label for e in self.effects):
            raise IllegalActionError(f"an effect labelled {effect.label!r} is already in force")
        said = effect_sentence(self, effect)
        with self._action("add_effect", {"label": effect.label, "effect": effect.to_json(),
                                         "title": f"Put {effect.source or effect.label} "
                                                  f"in force"}) as box:
            self._add_effect(effect)
            box.append(Event(EventKind.EFFECT_STARTED, text=f"In force: {said}"))
        return Result(tuple(box))

    def end_effect(self, label: str) -> Result:
        """A replacement effect taken out of force (its source left, or a judge's setup)."""
        i = next((i for i, e in enumerate(self.effects) if e.label == label), None)
        if i is None:
            raise IllegalActionError(f"no effect labelled {label!r} is in force")
        effect = self.effects[i]
        said = effect_sentence(self, effect)
        with self._action("end_effect", {"label": label, "effect": effect.to_json(),
                                         "title": f"Take {effect.source or label} out of "
                                                  f"force"}) as box:
            del self.effects[i]
            self._ops.append(EffectEndOp(OP_EFFECT_END, i, effect))
            box.append(Event(EventKind.EFFECT_ENDED, text=f"No longer in force: {said}"))
        return Result(tuple(box))

    def remove_card(self, cid: CardId) -> Result:
        """A card taken off the table while setting it up: it leaves its zone for no
        zone, and what was attached to it is unattached. Not a rule's doing."""
        obj = self.live(cid)
        if obj is None or obj.zone is None:
            raise IllegalActionError("that card is not on the table")
        key = obj.zone
        with self._action("remove_card", {"cid": cid, "name": obj.card.name,
                                          "title": f"Remove {obj.card.name}"}) as box:
            for other in self.objs.values():
                if other.attached_to == obj.id and other.zone is not None:
                    self._set(other, "attached_to", None)
            self._remove(key, obj.id)
            self._set(obj, "zone", None)
            if cid in self.commanders:
                self._meta("commanders", self.commanders - {cid})
            box.append(Event(EventKind.REMOVED, cid, obj.id, None, key, None, (), (),
                             f"{obj.card.name} is taken off the table"))
        return Result(tuple(box))

    def add_to_sideboard(self, player: str, card: Card) -> None:
        """Sideboard cards are outside the game (400.10a); they are not objects."""
        if player not in self.sideboards:
            raise IllegalActionError(f"unknown player {player!r}")
        with self._action("sideboard", {"player": player, "name": card.name}):
            self._meta("sideboards", {**self.sideboards,
                                      player: [*self.sideboards[player], card]})

    def card_numbers(self) -> dict[Card, int]:
        """Card faces numbered for saves (the numbering only grows)."""
        return self._card_ids

    def number_cards(self, cards: Iterable[Card]) -> None:
        """Take a save's numbering of card faces."""
        self._card_ids = {c: i for i, c in enumerate(cards)}

    def __repr__(self) -> str:
        return f"<Table {self.edition.id} {', '.join(self.players)}: {len(self.history)} actions>"


def effect_sentence(t: TableState, e: Effect) -> str:
    """A replacement effect in words: "Leyline of the Void: a card of an opponent of
    Alice's put into a graveyard is put into exile instead"."""
    ed = t.edition
    whose = {"any": "a card", "tokens": "a token", "nontokens": "a card that is not a token",
             "card": "a card"}.get(e.affects)
    if whose is None:
        kind, _, name = e.affects.partition(":")
        whose = {"owner": f"a card {name} owns",
                 "opponents-of": f"a card an opponent of {name} owns"}.get(kind, "a card")
    src = "" if e.origin == "any" else f" from {ed.zone_name(Zone(e.origin)).lower()}"
    may = " (its owner may decline)" if e.optional else ""
    return (f"{e.source or e.label}: {whose} put into {ed.zone_name(e.watch).lower()}{src} "
            f"goes to {ed.zone_name(e.instead).lower()} instead{may}")


def _lead(t: TableState, action: Action) -> str:
    """The heading of an action logged as one entry with lines: a move of several cards
    (public: it names no card)."""
    if action._name == "move" and action._params is not None \
            and len(action._params["cids"]) == 1:
        return ""  # (one card moved, the commonest action: no heading, nothing to read)
    action._load()
    events, p, name = action._events or (), action._params or {}, action._name
    if name == "token" and p.get("count", 1) > 1:
        return f"{p['controller']} creates {p['count']} {p['name']} tokens"
    several = len(events) > 1
    if name == "draw" and several:  # one entry, "Bob draws 3 cards"
        n = sum(1 for e in events if e.dst is not None)
        return f"{p['player']} draws {n} card{'s' * (n != 1)}"
    if name in ("mulligan", "move_all", "cleanup") and several:
        title = p.get("title")  # "Alice mulligans", "Alice: hand into library": no card
        return title if isinstance(title, str) else ""
    if name == "move" and len(p.get("cids", ())) > 1:
        who = f"{p['by']} moves" if p.get("by") else "Move"
        whose = None if p["zone"] in (BATTLEFIELD, STACK) else p.get("player")
        title = p.get("title")
        # the cards that moved: how many were refused is not everyone's to know
        n = sum(1 for e in events if e.kind != REJECTED and e.cid is not None)
        n = n or len(p["cids"])
        return title if isinstance(title, str) and title else \
            f"{who} {n} card{'s' * (n != 1)} {t.edition.toward(p['zone'], whose)}"
    return ""


# actions that change nothing on the table but are part of the game's story (someone
# looked at or revealed cards): recorded, logged and undone like any other
TOLD_ONLY = frozenset({"look", "show"})


class _Recording:
    """Context of one action: collects its ops; on error, takes them back."""

    __slots__ = ("box", "name", "params", "table")

    def __init__(self, table: TableState, name: str, params: dict[str, Any]) -> None:
        self.table, self.name, self.params = table, name, params

    def __enter__(self) -> list[Event]:
        t = self.table
        if t._ops is not None:
            raise IllegalActionError("actions cannot nest")
        t._ops = []
        self.box: list[Event] = []
        return self.box

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        t = self.table
        ops, t._ops = t._ops, None  # type: ignore[assignment]  # None: no action under way
        if exc_type is not None:
            for op in reversed(ops):
                t._revert(op)
            return None
        ed = t.edition
        if ed.outside:  # say where a number the edition's own text lacks comes from
            for i, e in enumerate(self.box):
                if e.cites:
                    notes = editions.outside_notes(ed, e.cites)
                    if notes:
                        self.box[i] = e._replace(notes=tuple(e.notes) + tuple(
                            n for n in notes if n not in e.notes))
        if ops or (self.box and self.name in TOLD_ONLY):
            if t.redo_stack:  # the undone actions go for good, and what was tried after them
                t._forget_refused(len(t.history))
            t.history.append(Action(self.name, self.params, tuple(self.box), ops))
            t._cleared_redo = t.redo_stack
            if t.redo_stack:
                t.redo_stack = []
            t._journal_before = len(t.journal)
            t._journal(self.box, "done", _lead(t, t.history[-1]))
            t.history[-1].told = tuple(t.journal[t._journal_before:]) if not t.quiet \
                else None
        elif self.box and all(e.kind == REJECTED for e in self.box):
            t.refused.append((len(t.history), Action(self.name, self.params, tuple(self.box),
                                                     [])))
            t._journal(self.box, "refused")
        return None
