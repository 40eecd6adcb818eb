"""Saving and loading a whole game (state and history) as versioned JSON.

The file reproduces the table exactly: undo, redo, the random generator and
object ids carry on from where they were. Each recorded action is stored as
its own compact JSON text, encoded once and decoded only when undo, redo or
the log needs it, so a long game saves and opens quickly. Saves are atomic
(temporary file, flush, fsync, rename); loading never runs code and refuses
newer versions."""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable
from pathlib import Path
from typing import Any

from tabletop import collector
from tabletop.engine.actions import PHASES
from tabletop.engine.errors import InputError
from tabletop.engine.files import atomic_write, read_bounded
from tabletop.engine.model import (
    BATTLEFIELD,
    OP_CURRENT,
    OP_MOVE,
    OP_SET,
    PHASED_OUT,
    Card,
    CardId,
    Effect,
    Event,
    EventKind,
    LineageEntry,
    Obj,
    ObjId,
    ZoneKey,
    check_place,
    from_fields,
    split_pt,
)
from tabletop.engine.ops import SAVED as SAVED_OPS
from tabletop.engine.ops import (
    MoveOp,
    Op,
)
from tabletop.engine.state import LOG_TAGS
from tabletop.engine.table import Action, LogEntry, Table
from tabletop.jsontext import compact, quote, read

FORMAT = "tabletop-save"
VERSION = 2  # 2: the log's lines in short forms (version 1 saves still open)
MAX_BYTES = 64 * 1024 * 1024  # a 100,000-action game is about 45 MB

_TUPLE_ATTRS = {"modifications", "choices", "stickers"}
OBJ_FIELDS = 18  # the most fields an object's row has (trailing defaults are left out)
MAX_NOTE = 300

_KINDS = {k.value: k for k in EventKind}


def _kind(value: Any) -> EventKind:
    """An event's kind from its saved name (ValueError for a name that is none)."""
    kind = _KINDS.get(value) if type(value) is str else None
    if kind is None:
        raise ValueError(f"{str(value)[:20]!r} is not a kind of event")
    return kind


class _Codec:
    """Compact encoding for one table: zones are numbered in the table's order."""

    def __init__(self, t: Table, cards: list[Card] | None = None) -> None:
        self.t = t
        self.keys = list(t.zones)
        self.index = {k: i for i, k in enumerate(self.keys)}
        self.card_ids = t.card_numbers()
        self.cards = cards if cards is not None else sorted(self.card_ids,
                                                            key=lambda c: self.card_ids[c])
        self.kept: set[ObjId] = set()
        self._by_identity: dict[int, int] = {}  # cards hash slowly; objects share them

    def card(self, c: Card) -> int:
        i = self._by_identity.get(id(c))
        if i is None:
            i = self.card_ids.get(c)
            if i is None:
                i = self.card_ids[c] = len(self.card_ids)
                self.cards.append(c)
            self._by_identity[id(c)] = i
        return i

    def obj(self, o: Obj) -> list[Any]:
        """An object as a list, rarely set fields last and trailing defaults left out."""
        r: list[Any] = [o.id, o.cid, self.card(o.card), o.owner, o.prev, self.z(o.zone),
                        o.controller]
        if not (o.tapped or o.face_down or o.token or o.revealed or o.kind != "card"
                or o.counters or o.attached_to is not None or o.modifications or o.choices
                or o.pile or o.pt or o.note or o.place is not None or o.stickers):
            return r  # the common case: nothing but defaults after the controller
        flags = o.tapped | o.face_down << 1 | o.token << 2 | o.revealed << 3
        r += [flags, 0 if o.kind == "card" else o.kind, o.counters or 0, o.attached_to,
             self.val("modifications", o.modifications) or 0,
             self.val("choices", o.choices) or 0, o.pile, o.pt, o.note or None,
             self.val("place", o.place), self.val("stickers", o.stickers) or None]
        while len(r) > 7 and (r[-1] is None or r[-1] == 0):
            r.pop()
        return r

    def unobj(self, r: list[Any]) -> Obj:
        if len(r) == 7:  # the common case: nothing but defaults after the controller
            return Obj(r[0], r[1], self.cards[r[2]], r[3], self.unz(r[5]), r[6], prev=r[4])
        r = r + [None] * (OBJ_FIELDS - len(r))
        flags = r[7] or 0
        return Obj(id=r[0], cid=r[1], card=self.cards[r[2]], owner=r[3], prev=r[4],
                   zone=self.unz(r[5]), controller=r[6], tapped=bool(flags & 1),
                   face_down=bool(flags & 2), token=bool(flags & 4), revealed=bool(flags & 8),
                   kind=r[8] or "card", counters=dict(r[9] or {}), attached_to=r[10],
                   modifications=self.unval("modifications", r[11] or ()),
                   choices=self.unval("choices", r[12] or ()), pile=r[13], pt=r[14],
                   note=r[15] or "", place=self.unval("place", r[16]),
                   stickers=_stickers(self.unval("stickers", r[17] or ())))

    @staticmethod
    def _ended(ops: Iterable[Any], done: bool) -> set[ObjId]:
        """Objects this action took out of existence (done) or brought in (undone):
        the ones a save must carry with the action, since the state leaves them out."""
        ids: set[ObjId] = set()
        for op in ops:
            tag = op[0]
            if tag == OP_MOVE:
                ids.add(op[2] if done else op[3])
            elif tag == OP_SET and op[2] == "zone" and (op[4] is None) == done:
                ids.add(op[1])
            elif tag == OP_CURRENT and not done:
                ids.add(op[3])
        return ids

    def z(self, key: ZoneKey | None) -> int | list[Any] | None:
        """A zone key as its number; a key that is no zone of this table (an event's
        aim that was refused) as [player, zone]."""
        if key is None:
            return None
        i = self.index.get(key)
        return [key[0], key[1]] if i is None else i

    def unz(self, i: Any) -> ZoneKey | None:
        if i is None:
            return None
        if isinstance(i, list):
            return (i[0], i[1])
        key: ZoneKey = self.keys[i]
        return key

    def unkey(self, i: Any) -> ZoneKey:
        """A zone an op names: one there must be."""
        if type(i) is int:
            return self.keys[i]
        key = self.unz(i)
        if key is None:
            raise ValueError("a change names no zone")
        return key

    def val(self, attr: str, v: Any) -> Any:
        if attr == "zone":
            return self.z(v)
        if attr == "place":
            return None if v is None else list(v)
        if attr in _TUPLE_ATTRS:
            return [list(m) if isinstance(m, tuple) else m for m in v]
        return v

    def unval(self, attr: str, v: Any) -> Any:
        if attr == "zone":
            return self.unz(v)
        if attr in _TUPLE_ATTRS:
            return tuple(tuple(m) if isinstance(m, list) else m for m in v)
        if attr not in Obj.ATTRS and attr != "owner":
            raise ValueError(f"unknown object attribute {attr!r}")
        if attr == "pt" and v is not None and split_pt(v) is None:
            raise ValueError("a power/toughness is not like 3/3")
        if attr == "note" and (type(v) is not str or len(v) > MAX_NOTE):
            raise ValueError(f"a note must be text of at most {MAX_NOTE} characters")
        if attr == "place":
            return None if v is None else check_place(v, "a place on the battlefield")
        return v

    def event(self, e: Event) -> list[Any]:
        r: list[Any] = [e.kind, e.cid, e.obj, e.prev, self.z(e.src), self.z(e.dst), e.cites, e.notes,
             e.text]
        if e.audience is not None:
            r.append(list(e.audience))
        return r

    def unevent(self, d: list[Any]) -> Event:
        audience = None
        if len(d) > 9:
            if type(d[9]) is not list or not all(type(p) is str for p in d[9]):
                raise ValueError("an event's audience must be a list of players")
            audience = tuple(d[9])
        return Event(_kind(d[0]), d[1], d[2], d[3], self.unz(d[4]), self.unz(d[5]),
                     tuple(d[6]),
                     tuple(d[7]), d[8], audience)

    @staticmethod
    def _move_event(op: Op) -> Event:
        if not isinstance(op, MoveOp):
            raise ValueError("an event names a change that is not a move")
        _, cid, old, new, src, _, dst, _, entry = op
        return from_fields(Event, (_kind(entry.event), cid, new, old, src, dst, entry.cites,
                                   (), "", None))

    def entry(self, e: LineageEntry) -> list[Any]:
        z = self.z(e.zone)
        if e.forgotten:
            return [e.obj, z, e.event, e.cites, e.kept, e.forgotten]
        if e.kept:
            return [e.obj, z, e.event, e.cites, e.kept]
        return [e.obj, z, e.event, e.cites]

    def unentry(self, d: list[Any]) -> LineageEntry:
        z, n = d[1], len(d)
        return from_fields(LineageEntry, (
            d[0], self.keys[z] if type(z) is int else self.unz(z), d[2], tuple(d[3]),
            tuple(tuple(k) for k in d[4]) if n > 4 else (),
            tuple(tuple(f) for f in d[5]) if n > 5 else ()))

    def op(self, op: Op) -> list[Any]:
        return op.encode(self)

    def unop(self, d: list[Any]) -> Op:
        kind = SAVED_OPS.get(d[0]) if isinstance(d[0], str) else None
        if kind is None:
            raise ValueError(f"unknown change {str(d[0])[:20]!r}")
        op: Op = kind.decode(self, d)
        return op

    def meta(self, name: str, v: Any) -> Any:
        """A table setting as a save writes it."""
        if name in ("revealed_tops", "commanders"):
            return sorted(v)
        if name == "sideboards":
            return {p: [c.to_json() for c in cs] for p, cs in v.items()}
        if name == "merged":
            return _merged_json(v)
        return v

    def unmeta(self, name: str, v: Any) -> Any:
        """A table setting read back from a save, checked."""
        if name == "revealed_tops":
            return frozenset(v)
        if name == "commanders":
            return _commanders(v)
        if name == "merged":
            return _merged(v, self.t.players)
        if name == "sideboards":
            return {p: [Card.from_json(c) for c in cs] for p, cs in v.items()}
        if name == "mulligans":
            return _mulligans(v)
        if name == "player_counters":
            return _player_counters(v)
        if name == "arrows":
            return _arrows(v, self.t.players)
        if name == "last_roll":
            return tuple(v) if v else None
        if name == "turn":
            return _int(v, 1, BIG, "a turn number")
        if name == "phase":
            if v not in PHASES:
                raise ValueError("a step of the turn is not one Tabletop knows")
            return v
        if name != "active":
            raise ValueError(f"unknown table setting {str(name)[:30]!r}")
        return v

    def quoted(self, a: Action, done: bool = True) -> str:
        """An action as a save writes it: the JSON string of its text (``action``).
        Made once and kept, in place of the text, until undo or redo changes which of
        its objects exist: a save after every action then puts it in as it is."""
        q = a.quoted
        if q is None:
            q = a.quoted = quote(self.action(a, done))
            a.raw = None
        return q

    def action(self, a: Action, done: bool = True) -> str:
        """An action as JSON text, carrying the objects it names that the saved
        state leaves out (those that no longer exist)."""
        if a.quoted is not None:
            return read(a.quoted)  # type: ignore[no-any-return]
        if a.raw is None:
            objs = self.t.objs
            extra = [self.obj(objs[i]) for i in sorted(self._ended(a.ops, done) - self.kept)]
            ops = a.ops
            moves = {(op.cid, op.new): (i, op) for i, op in enumerate(ops)
                     if isinstance(op, MoveOp)}
            events: list[Any] = []  # an op's index, or the event in full
            for e in a.events:
                found = moves.get((e.cid, e.obj)) if e.cid is not None and e.obj is not None \
                    else None
                if found is None:
                    events.append(self.event(e))
                    continue
                i, mv = found
                if not e.notes and not e.text and e.prev == mv.old \
                        and e.kind == mv.entry.event and e.cites == mv.entry.cites:
                    events.append(i)  # the event says no more than the move it made
                else:
                    events.append(self.event(e))
            a.raw = compact([a.name, a.params, events, [self.op(op) for op in ops], extra])
        return a.raw

    def unaction(self, raw: str) -> tuple[str, dict[str, Any], tuple[Event, ...], list[Op]]:
        try:
            d = read(raw)
            objs = self.t.objs
            for r in d[4]:
                if r[0] not in objs:
                    objs[r[0]] = o = self.unobj(r)
                    self.t.hosting(o.attached_to)  # (an undo may bring it back)
            ops = [self.unop(op) for op in d[3]]
            events = tuple(self._move_event(ops[e]) if isinstance(e, int) else self.unevent(e)
                           for e in d[2])
            return OLD_NAMES.get(d[0], d[0]), d[1], events, ops
        except (ValueError, KeyError, IndexError, TypeError, AttributeError, RecursionError) as e:
            raise InputError(f"the saved history is damaged: {_in_words(e)}") from None


# actions a save written before the intents (engine/intents.py) names otherwise
OLD_NAMES = {"turn_face": "face", "power_toughness": "pt", "create_token": "token",
             "zone": "move_all", "turn": "next_turn", "player_counters": "player_counter"}


def to_json(t: Table) -> dict[str, Any]:
    """The save as data (what ``text`` writes, read back)."""
    return json.loads(text(t))  # type: ignore[no-any-return]


def text(t: Table) -> str:
    """The save's JSON text. Only the table as it stands is encoded afresh: each
    action and each log line is put in as its kept text (made at the first save that
    held it), so a save after every action costs little more than the table."""
    codec = _Codec(t)
    kept = {i for ids in t.zones.values() for i in ids}
    kept.update(t.current.values())
    kept.update(a for a in (t.objs[i].attached_to for i in list(kept)) if a is not None)
    codec.kept = kept
    quoted = codec.quoted
    # (the actions first: the cards their objects show are numbered as they are encoded)
    history = ",".join([a.quoted or quoted(a) for a in t.history])
    redo = ",".join([a.quoted or quoted(a, done=False) for a in t.redo_stack])
    lineage = _lineage_text(t, codec)
    journal = _journal_text(t)
    return (f'{compact(_state(t, codec))[:-1]},"lineage":[{lineage}],'
            f'"history":[{history}],"redo":[{redo}],"journal":[{journal}]}}')


def _lineage_text(t: Table, codec: _Codec) -> str:
    """Every card's lineage as a save writes it, each card's made again only when its
    lineage changed. A lineage only grows and shrinks at its end, and as the history
    does (undo takes back the newest entries, redo puts the same ones back): one of the
    same length ending in the very entry it ended in is the one the text was made of."""
    kept = t.saved_lineage
    out = []
    for cid, entries in t.lineage.items():
        if not entries:
            out.append(f"[{cid},[]]")
            continue
        was = kept.get(cid)
        if was is None or was[0] != len(entries) or was[1] is not entries[-1]:
            was = kept[cid] = (len(entries), entries[-1],
                               compact([cid, [codec.entry(e) for e in entries]]))
        out.append(was[2])
    return ",".join(out)


def _state(t: Table, codec: _Codec) -> dict[str, Any]:
    """The save's fields but the lineage, the history, the redo list and the log (the
    objects ``codec.kept``, and the cards it numbered)."""
    objs = t.objs
    state_objs = [codec.obj(objs[i]) for i in sorted(codec.kept) if i in objs]
    from tabletop import __version__
    st = t.rng.getstate()
    return {
        "format": FORMAT, "version": VERSION, "app": __version__,
        "edition": t.edition.id, "players": list(t.players), "active": t.active,
        "seed": t.seed, "ante": t.ante, "max_hand": t.max_hand, "life": dict(t.life),
        "rng": [st[0], list(st[1]), st[2]],
        "next_id": t.next_id, "next_cid": t.next_cid,
        "zone_keys": [list(k) for k in codec.keys],
        "cards": [c.to_json() for c in codec.cards],
        "objects": state_objs,
        "current": [[c, o] for c, o in t.current.items()],
        "zones": [list(v) for v in t.zones.values()],
        "effects": [e.to_json() for e in t.effects],
        "revealed_tops": sorted(t.revealed_tops),
        "commanders": sorted(t.commanders),
        "merged": _merged_json(t.merged),
        "last_roll": list(t.last_roll) if t.last_roll else None,
        "mulligans": dict(t.mulligans),
        "player_counters": {p: dict(c) for p, c in t.player_counters.items()},
        "turn": t.turn, "phase": t.phase,
        "arrows": [list(a) for a in t.arrows],
        "printings": {n: list(p) for n, p in t.printings.items()},
        "screen": t.screen,
        "deck_names": dict(t.deck_names),
        "sideboards": {p: [c.to_json() for c in cs] for p, cs in t.sideboards.items()},
        "decks": {p: {k: [c.to_json() for c in cs] for k, cs in sections.items()}
                  for p, sections in t.decks.items()},
    }


def _journal_text(t: Table) -> str:
    """The log's lines as a save writes them, joined, each line made once: the log grows
    at its end (a line taken back, and the log of another game, are made again)."""
    kept, journal = t.saved_lines, t.journal
    entries = kept.entries
    same = min(len(entries), len(journal))
    if same and same == len(entries) and journal[same - 1] is entries[-1]:
        i = same  # (lines go only from the end, and new ones are new objects)
    else:
        i = 0
        while i < same and entries[i] is journal[i]:
            i += 1
    if i < len(entries):  # lines taken back: their texts go
        del entries[i:]
        del kept.ends[i:]
        kept.text = kept.text[:kept.ends[-1]] if i else ""
    if i < len(journal):
        players = t.players
        new = [compact(e.to_json(players)) for e in journal[i:]]
        end, ends = len(kept.text), kept.ends
        for line in new:
            end += len(line) + (1 if end else 0)  # (a comma before every line but the first)
            ends.append(end)
        kept.text = f"{kept.text},{','.join(new)}" if kept.text else ",".join(new)
        entries.extend(journal[i:])
    return kept.text


def _in_words(e: BaseException) -> str:
    """What a damaged save's error says, for a person: no Python names."""
    if isinstance(e, KeyError):
        return f"it lacks a part every save has ({str(e)[:40]})"
    if isinstance(e, IndexError):
        return "a list in it is shorter than what refers to it"
    if isinstance(e, (TypeError, AttributeError)):
        return "a value in it is not of the kind it must be"
    if isinstance(e, RecursionError):
        return "it is nested deeper than any save"
    if isinstance(e, OverflowError):
        return "a number in it is too large"
    return str(e)[:300] or "a value in it is not possible"


def from_json(d: Any, source: str = "save", verify: bool = True,
              consume: bool = False) -> Table:
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise InputError(f"{source}: not a Tabletop save file")
    version = d.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise InputError(f"{source}: the save has no valid version number")
    if version > VERSION:
        raise InputError(f"{source}: saved by a newer Tabletop (save version {version}; this "
                         f"version reads up to {VERSION}); update Tabletop to open it")
    try:
        check_fields(d)
        t = Table(d["players"], d["edition"], seed=d["seed"], ante=d["ante"],
                  max_hand=d["max_hand"])
        cards = [Card.from_json(c) for c in d["cards"]]
        t.number_cards(cards)
        codec = _Codec(t, cards)
        if [list(k) for k in codec.keys] != d["zone_keys"]:
            raise ValueError("its zones do not match its edition and players")
        t.active = d["active"]
        if t.active not in t.players:
            raise ValueError(f"active player {t.active!r} is not at the table")
        t.life = {p: int(d["life"][p]) for p in t.players}
        st = d["rng"]
        t.rng.setstate((st[0], tuple(st[1]), st[2]))
        t.next_id, t.next_cid = int(d["next_id"]), int(d["next_cid"])
        objs = t.objs
        for r in d["objects"]:
            objs[r[0]] = codec.unobj(r)
        t.current = {CardId(int(c)): ObjId(int(o)) for c, o in d["current"]}
        t.lineage = {CardId(int(c)): [codec.unentry(e) for e in es] for c, es in d["lineage"]}
        if len(d["zones"]) != len(codec.keys):
            raise ValueError("the zone lists do not match the table")
        for key, ids in zip(codec.keys, d["zones"], strict=True):
            t.zones[key] = [ObjId(int(i)) for i in ids]
        t.effects = [Effect.from_json(e) for e in d["effects"]]
        t.revealed_tops = frozenset(d["revealed_tops"])
        t.commanders = _commanders(d.get("commanders", []))
        t.merged = _merged(d.get("merged", {}), t.players)
        t.last_roll = tuple(d["last_roll"]) if d.get("last_roll") else None
        t.mulligans = _mulligans(d.get("mulligans", {}))
        if any(p not in t.players for p in t.mulligans):
            raise ValueError("mulligans are counted for a player not at the table")
        t.player_counters = _player_counters(d.get("player_counters", {}))
        t.turn = _int(d.get("turn", 1), 1, BIG, "the turn number")
        t.phase = d.get("phase", "main1")
        if t.phase not in PHASES:
            raise ValueError(f"the step {_show(t.phase)} is not one Tabletop knows")
        if any(p not in t.players for p in t.player_counters):
            raise ValueError("counters are kept for a player not at the table")
        t.arrows = _arrows(d.get("arrows", []), t.players)
        t.printings = _printings(d.get("printings", {}))
        t.screen = _screen(d.get("screen", {}), t)
        t.deck_names = _deck_names(d.get("deck_names", {}), t.players)
        t.sideboards = {p: [Card.from_json(c) for c in cs] for p, cs in d["sideboards"].items()}
        t.decks = {p: {k: [Card.from_json(c) for c in cs] for k, cs in sections.items()}
                   for p, sections in d.get("decks", {}).items()}
        for name, target in (("history", t.history), ("redo", t.redo_stack)):
            raws = d[name]
            if not isinstance(raws, list) or not all(isinstance(r, str) for r in raws):
                raise ValueError(f"{name} must be a list of encoded actions")
            target.extend(Action.encoded(r, codec.unaction) for r in raws)
        _check_consistent(t)
        if not verify:  # a scratch table for checking the history: it keeps no log
            t.quiet = True
        elif "journal" in d:
            # (a save being opened gives up its parsed log once read: less memory at once)
            t.journal = _journal(d.pop("journal") if consume else d["journal"], t.players)
        else:  # saved before the journal: tell the history as the table stands now
            for action in t.history:
                t._journal(action.events, "done")
        t._journal_before = len(t.journal)
    except InputError as e:
        raise InputError(f"{source}: {e}") from None
    except FieldError as e:
        raise InputError(f"{source}: the save is damaged: {e}") from None
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, OverflowError,
            RecursionError) as e:
        raise InputError(f"{source}: the save is damaged: {_in_words(e)}") from None
    if verify:
        _verify_history(t, source)
    return t


VERIFY_LAST = 5_000  # the actions of a history replayed as it opens (the latest)


def _verify_history(t: Table, source: str) -> None:
    """Replay the history's latest actions (VERIFY_LAST, with the whole redo list) on
    the table just read: undo them, check the table, redo them, check it again, then
    leave it exactly as saved (the log says nothing of it). A save whose recent history
    does not replay is refused now; an older action that does not fit is refused when
    it is undone, and the table stays as it was (undo takes back what it began).

    The actions replayed go back to the text they were read as: the table is as it was
    saved, so that text is still theirs, and the next save puts it in as it is (else
    the first autosave after opening a long game encoded 5,000 actions afresh)."""
    quiet, t.quiet = t.quiet, True
    try:
        ahead = len(t.redo_stack)
        back = min(len(t.history), VERIFY_LAST)
        read = [(a, a.raw, a.quoted) for a in (*t.history[len(t.history) - back:],
                                               *t.redo_stack)]
        for _ in range(ahead):  # the redo list must replay too
            t.redo()
        _check_consistent(t)
        for _ in range(ahead + back):
            t.undo()
        _check_consistent(t)
        for _ in range(back + ahead):
            t.redo()
        _check_consistent(t)
        for _ in range(ahead):  # the redo list as it was saved
            t.undo()
        for action, raw, quoted in read:
            action.as_read(raw, quoted)
    except InputError as e:
        raise InputError(f"{source}: the saved history does not replay ({e})") from None
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, OverflowError,
            RecursionError) as e:
        raise InputError(f"{source}: the saved history does not replay: "
                         f"{_in_words(e)}") from None
    finally:
        t.quiet = quiet


def _journal(raw: Any, players: Collection[str]) -> list[LogEntry]:
    """Read the saved log, checking every field; the few distinct lists of rules,
    notes and players are checked once each (a long game repeats them)."""
    if not isinstance(raw, list):
        raise ValueError("the journal must be a list")
    known: dict[tuple[Any, ...], tuple[str, ...]] = {}
    seated: set[tuple[str, ...]] = set()  # lists of players already checked
    tags = LOG_TAGS

    def strings(x: Any, what: str) -> tuple[str, ...]:
        if type(x) is not list:
            raise ValueError(f"a journal line's {what} must be a list of short texts")
        key = tuple(x)
        got = known.get(key)
        if got is None:
            if not all(type(v) is str and len(v) <= 4000 for v in key):
                raise ValueError(f"a journal line's {what} must be a list of short texts")
            got = known[key] = key
        return got
    out: list[LogEntry] = []
    add = out.append
    words: dict[str, str] = {}
    every = tuple(players)
    seated.add(every)
    str_, int_, list_ = str, int, list
    for r in raw:
        if type(r) is not list_:
            raise ValueError("a journal line must have 7 or 9 fields")
        n = len(r)
        if n == 7:
            tag, kind, text, public, cites, notes, knowers = r
            lead, sub = "", False
        elif n == 9:
            tag, kind, text, public, cites, notes, knowers, lead, sub = r
            if type(lead) is not str_ or len(lead) > 400 or sub is not True:
                raise ValueError("a journal line's heading must be a short text")
            lead = words.setdefault(lead, lead)
        else:
            raise ValueError("a journal line must have 7 or 9 fields")
        # the short forms (save version 2): 1 words everyone's, 0 nothing, 0 every player
        if type(public) is int_ and public == 1:
            public = text
        if tag not in tags:
            raise ValueError(f"unknown journal tag {str(tag)[:20]!r}")
        if type(kind) is not str_ or type(text) is not str_ or type(public) is not str_ \
                or len(kind) > 40 or len(text) > 4000 or len(public) > 4000:
            raise ValueError("a journal line's texts must be short strings")
        if type(knowers) is int_ and knowers == 0:
            k = every
        else:
            k = strings(knowers, "knowers")
            if k not in seated:
                if any(p not in players for p in k):
                    raise ValueError("a journal line names a player not at the table")
                seated.add(k)
        # one string where a line's words are everyone's, and each tag and kind once
        add(from_fields(LogEntry, (
            words.setdefault(tag, tag), words.setdefault(kind, kind), text,
            text if public == text else public,
            () if type(cites) is int_ and cites == 0 else strings(cites, "cites"),
            () if type(notes) is int_ and notes == 0 else strings(notes, "notes"),
            k, lead, sub)))
    return out


def _mulligans(d: Any) -> dict[str, int]:
    if not isinstance(d, dict) or not all(
            isinstance(k, str) and type(v) is int and 0 <= v <= 100 for k, v in d.items()):
        raise ValueError("mulligans must map players to small counts")
    return dict(d)


# ---- checking every field of a save before anything is built from it ---------------
BIG = 10 ** 12  # ids and counters beyond this are tampering, not a game


class FieldError(ValueError):
    """A field of a save with the wrong type or out of range (said in plain words)."""


def _int(v: Any, lo: int, hi: int, what: str) -> int:
    if type(v) is not int or not lo <= v <= hi:
        raise FieldError(f"{what} must be a whole number from {lo} to {hi}, not {_show(v)}")
    return v


def _str(v: Any, what: str, most: int = 300, empty: bool = False) -> str:
    if type(v) is not str or len(v) > most or (not v and not empty):
        raise FieldError(f"{what} must be a text of at most {most} characters, not {_show(v)}")
    return v


def _show(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _strs(v: Any, what: str, most: int = 30) -> None:
    if type(v) is not list or len(v) > most:
        raise FieldError(f"{what} must be a list of at most {most} texts")
    for x in v:
        _str(x, what, 100)


DECK_SECTIONS = ("main", "commander", "sideboard")  # a deck as a game began


def _card_fields(c: Any, i: int) -> None:
    what = f"card {i}"
    if type(c) is not dict:
        raise FieldError(f"{what} must be a table of fields")
    _str(c.get("name"), f"{what}'s name")
    for key in ("types", "subtypes", "supertypes", "colors"):
        if key in c:
            _strs(c[key], f"{what}'s {key}")
    if "mana_cost" in c:
        _str(c["mana_cost"], f"{what}'s mana cost", 100, empty=True)
    for key in ("power", "toughness"):
        if c.get(key) is not None:
            _str(c[key], f"{what}'s {key}", 10, empty=True)


def _merged_json(v: dict[CardId, tuple[tuple[CardId, Card, str, bool], ...]]) -> dict[str, Any]:
    return {str(host): [[c, card.to_json(), owner, token] for c, card, owner, token in comps]
            for host, comps in v.items()}


def _merged(v: Any, players: Collection[str]
            ) -> dict[CardId, tuple[tuple[CardId, Card, str, bool], ...]]:
    """Merged permanents (728): card id -> components, checked."""
    if not isinstance(v, dict) or len(v) > 1000:
        raise ValueError("the merged permanents must be a table of at most 1,000")
    out = {}
    for host, comps in v.items():
        if not str(host).isdigit() or not isinstance(comps, list) or not 1 < len(comps) <= 100:
            raise ValueError("a merged permanent is a card number and 2 to 100 components")
        parts = []
        for c in comps:
            if not (isinstance(c, list) and len(c) == 4 and type(c[0]) is int
                    and c[2] in players and type(c[3]) is bool and isinstance(c[1], dict)):
                raise ValueError("a merged permanent's component is not one Tabletop wrote")
            parts.append((CardId(c[0]), Card.from_json(c[1]), c[2], c[3]))
        out[CardId(int(host))] = tuple(parts)
    return out


def _stickers(v: tuple[Any, ...]) -> tuple[str, ...]:
    """An object's stickers (123), checked: a few short texts."""
    if len(v) > 20 or not all(type(x) is str and 0 < len(x) <= 60 for x in v):
        raise ValueError("stickers must be at most 20 texts of 1 to 60 characters")
    return v


def _commanders(v: Any) -> frozenset[CardId]:
    """The card ids of the commanders (903.3), checked."""
    if not isinstance(v, list) or len(v) > 1000 or not all(
            isinstance(c, int) and not isinstance(c, bool) and c > 0 for c in v):
        raise ValueError("the commanders must be a list of card numbers")
    return frozenset(CardId(c) for c in v)


def _printings(d: Any) -> dict[str, tuple[str, str]]:
    """Card name -> (set code, collector number), as the decks said."""
    if type(d) is not dict or len(d) > 20_000:
        raise ValueError("the printings must map at most 20,000 card names to a set and a "
                         "number")
    out = {}
    for name, p in d.items():
        if type(name) is not str or len(name) > 200 or type(p) is not list or len(p) != 2 \
                or not all(type(x) is str and 0 < len(x) <= 12 for x in p):
            raise ValueError("a printing must be a set code and a collector number")
        out[name] = (p[0], p[1])
    return out


def _deck_names(d: Any, players: Collection[str]) -> dict[str, str]:
    """Each player's deck's name: a short text for a player at the table."""
    if type(d) is not dict or not all(p in players and type(n) is str and 0 < len(n) <= 200
                                      for p, n in d.items()):
        raise ValueError("the decks' names must be short texts for players at the table")
    return dict(d)


def _screen(d: Any, t: Table) -> dict[str, Any]:
    """How the window showed the game: a viewpoint of the table, a zoom, open viewers."""
    if type(d) is not dict or not set(d) <= {"viewer", "zoom", "centre", "viewers"}:
        raise ValueError("the screen must say only viewer, zoom, centre and viewers")
    out: dict[str, Any] = {}
    if "viewer" in d:
        if d["viewer"] is not None and d["viewer"] not in t.players:
            raise ValueError(f"the viewpoint {_show(d['viewer'])} is not a player's")
        out["viewer"] = d["viewer"]
    if "zoom" in d:
        z = d["zoom"]
        if type(z) not in (int, float) or not 0.05 <= z <= 20:
            raise ValueError("the zoom must be a number from 0.05 to 20")
        out["zoom"] = float(z)
    if "centre" in d:
        out["centre"] = list(check_place(d["centre"], "the centre of the screen"))
    if "viewers" in d:
        v = d["viewers"]
        if type(v) is not list or len(v) > 20 or not all(
                type(k) is list and len(k) == 2 and (k[0], k[1]) in t.zones for k in v):
            raise ValueError("the open viewers must be at most 20 of the table's zones")
        out["viewers"] = [list(k) for k in v]
    return out


def _arrows(d: Any, players: Iterable[str]) -> tuple[tuple[str, ObjId, ObjId | str], ...]:
    """Arrows on the table: (player, object id, object id or player name)."""
    if type(d) is not list or len(d) > 200:
        raise ValueError("the arrows must be a list of at most 200")
    out: list[tuple[str, ObjId, ObjId | str]] = []
    for a in d:
        if type(a) is not list or len(a) != 3 or a[0] not in players:
            raise ValueError("an arrow must name its player, its card and where it points")
        _int(a[1], 1, BIG, "an arrow's card")
        if not (a[2] in players or (type(a[2]) is int and 1 <= a[2] <= BIG)):
            raise ValueError("an arrow points at a card or a player at the table")
        out.append((a[0], ObjId(a[1]), a[2] if isinstance(a[2], str) else ObjId(a[2])))
    return tuple(out)


def _player_counters(d: Any) -> dict[str, dict[str, int]]:
    """Players' counters (poison, commander damage...): player -> kind -> a whole number."""
    if type(d) is not dict or len(d) > 8:
        raise ValueError("players' counters must map players to their counters")
    out = {}
    for p, cs in d.items():
        if type(cs) is not dict or len(cs) > 100:
            raise ValueError(f"{_show(p)}'s counters must be at most 100 kinds")
        for kind, n in cs.items():
            _str(kind, "a kind of player counter", 60)
            _int(n, -BIG, BIG, f"{_show(p)}'s {kind} counters")
        out[p] = dict(cs)
    return out


def check_fields(d: Any) -> None:
    """Every top-level field's type and range, before a table is built from them:
    a tampered save gets one clear message, never an overflow deep inside."""
    players = d["players"]
    if type(players) is not list or not 1 <= len(players) <= 8:
        raise FieldError("players must be a list of 1 to 8 names")
    for p in players:
        _str(p, "a player's name", 100)
    if len(set(players)) != len(players):
        raise FieldError("two players have the same name")
    _str(d["edition"], "the edition", 40)
    if d["active"] not in players:
        raise FieldError(f"the active player {_show(d['active'])} is not at the table")
    if d["seed"] is not None:
        _int(d["seed"], -(2 ** 63), 2 ** 63, "the seed")
    if type(d["ante"]) is not bool:
        raise FieldError("ante must be true or false")
    _int(d["max_hand"], 0, 10_000, "the maximum hand size")
    life = d["life"]
    if type(life) is not dict or set(life) != set(players):
        raise FieldError("life must give each player at the table a total")
    for p, v in life.items():
        _int(v, -BIG, BIG, f"{p}'s life")
    rng = d["rng"]
    if type(rng) is not list or len(rng) != 3 or rng[0] != 3 or type(rng[1]) is not list \
            or len(rng[1]) != 625:
        raise FieldError("the random generator's state is not one this version writes")
    for v in rng[1][:624]:
        _int(v, 0, 2 ** 32 - 1, "a word of the random generator's state")
    _int(rng[1][624], 0, 624, "the random generator's position")
    if rng[2] is not None and type(rng[2]) is not float:
        raise FieldError("the random generator's state is not one this version writes")
    _int(d["next_id"], 1, BIG, "the next object id")
    _int(d["next_cid"], 1, BIG, "the next card id")
    cards = d["cards"]
    if type(cards) is not list:
        raise FieldError("cards must be a list")
    for i, c in enumerate(cards):
        _card_fields(c, i)
    objects = d["objects"]
    if type(objects) is not list:
        raise FieldError("objects must be a list")
    for r in objects:
        _object_fields(r, d, len(cards))
    if d.get("last_roll") is not None:
        roll = d["last_roll"]
        if type(roll) is not list or len(roll) != 3 or roll[0] not in players:
            raise FieldError("the last roll must name a player, the sides and the result")
        _int(roll[1], 2, 1000, "the sides of the last die")
        _int(roll[2], 1, roll[1], "the last roll")
    boards = d["sideboards"]
    if type(boards) is not dict or any(p not in players for p in boards):
        raise FieldError("sideboards are kept for players not at the table")
    for p, cs in boards.items():
        if type(cs) is not list or len(cs) > 10_000:
            raise FieldError(f"{p}'s sideboard must be a list of at most 10,000 cards")
        for i, c in enumerate(cs):
            _card_fields(c, i)
    decks = d.get("decks", {})  # older saves have none
    if type(decks) is not dict or any(p not in players for p in decks):
        raise FieldError("decks are kept for players not at the table")
    for p, sections in decks.items():
        if type(sections) is not dict or not set(sections) <= set(DECK_SECTIONS):
            raise FieldError(f"{p}'s deck has the sections {', '.join(DECK_SECTIONS)}")
        for cs in sections.values():
            if type(cs) is not list or len(cs) > 10_000:
                raise FieldError(f"{p}'s deck sections are lists of at most 10,000 cards")
            for i, c in enumerate(cs):
                _card_fields(c, i)


def _object_fields(r: Any, d: dict[str, Any], n_cards: int) -> None:
    if type(r) is not list or not 7 <= len(r) <= OBJ_FIELDS:
        raise FieldError(f"an object must be a list of 7 to {OBJ_FIELDS} fields")
    oid = _int(r[0], 1, d["next_id"] - 1, "an object id (below the next object id)")
    what = f"object {oid}"
    _int(r[1], 1, d["next_cid"] - 1, f"{what}'s card id (below the next card id)")
    _int(r[2], 0, n_cards - 1, f"{what}'s card")
    if r[3] not in d["players"]:
        raise FieldError(f"{what} is owned by {_show(r[3])}, who is not at the table")
    if r[4] is not None:
        _int(r[4], 1, BIG, f"{what}'s previous object")
    if r[6] is not None and r[6] not in d["players"]:
        raise FieldError(f"{what} is controlled by {_show(r[6])}, who is not at the table")
    extra = r + [None] * (OBJ_FIELDS - len(r))
    if extra[7] not in (None, 0):
        _int(extra[7], 0, 15, f"{what}'s flags")
    if extra[8] not in (None, 0) and extra[8] not in ("token", "ability", "emblem", "card"):
        raise FieldError(f"{what} is of an unknown kind {_show(extra[8])}")
    counters = extra[9]
    if counters not in (None, 0):
        if type(counters) is not dict or len(counters) > 50:
            raise FieldError(f"{what}'s counters must map kinds to numbers")
        for k, v in counters.items():
            _str(k, f"{what}'s counter kind", 60)
            _int(v, -BIG, BIG, f"{what}'s {k} counters")
    if extra[10] is not None:
        _int(extra[10], 1, BIG, f"{what}'s attachment")
    if extra[13] is not None:
        _str(extra[13], f"{what}'s exile pile", 200)
    if extra[14] is not None and split_pt(extra[14]) is None:
        raise FieldError(f"{what}'s power/toughness must read like 3/3")
    if extra[15] is not None:
        _str(extra[15], f"{what}'s note", MAX_NOTE)
    if extra[16] is not None:
        try:
            check_place(extra[16], f"{what}'s place on the battlefield")
        except ValueError as e:
            raise FieldError(str(e)) from None


def _check_consistent(t: Table) -> None:
    seen = set()
    objs = t.objs
    for key, ids in t.zones.items():
        for i in ids:
            o = objs.get(i)
            if o is None or i in seen or o.zone != key:
                raise ValueError(f"object {i} is not where its zone says")
            seen.add(i)
    if any(o not in objs for o in t.current.values()):
        raise ValueError("a card points to an object that is not saved")
    players = frozenset(t.players)
    for p, v in t.life.items():
        if type(v) is not int or abs(v) > BIG:
            raise ValueError(f"{p}'s life is not a whole number")
    for o in objs.values():  # every object, those gone from the table too
        if o.zone is not None and o.id not in seen:
            raise ValueError("an object is in no zone list")
        if o.owner not in players or (o.controller is not None and o.controller not in players):
            raise ValueError(f"object {o.id} belongs to a player not at the table")
        if type(o.card.name) is not str:
            raise ValueError(f"object {o.id}'s card has no name")
    _check_rules(t)


ATTACHED_IN = (BATTLEFIELD, PHASED_OUT)  # where a permanent can be attached to another


def _check_rules(t: Table) -> None:
    """What no game can come to, said in words: a token anywhere but the battlefield (it
    ceases to exist when it leaves), a card attached to itself, to something that is
    not there, to a card in a hidden zone, or in a loop of attachments."""
    objs = t.objs

    def named(o: Obj) -> str:
        where = t.edition.place(o.zone[1], o.zone[0]) if o.zone is not None else "nowhere"
        return f"{o.card.name} (object {o.id}, {where})"
    for o in objs.values():
        if o.zone is None:
            continue
        if o.token and o.zone[1] != BATTLEFIELD:
            raise FieldError(f"the token {named(o)} is not on the battlefield: a token that "
                             f"leaves it ceases to exist")
        if o.attached_to is None:
            continue
        if o.attached_to == o.id:
            raise FieldError(f"{named(o)} is attached to itself")
        host = objs.get(o.attached_to)
        if host is not None and host.zone is None and host.token and o.zone[1] == PHASED_OUT:
            continue  # phased out on a token that then ceased: it stays out (217.8d, 2004)
        if host is None or host.zone is None:
            raise FieldError(f"{named(o)} is attached to an object that is not on the table")
        if o.zone[1] not in ATTACHED_IN or host.zone[1] not in ATTACHED_IN:
            raise FieldError(f"{named(o)} is attached to {named(host)}: only permanents "
                             f"are attached to one another")
        seen = {o.id}
        at = host
        while at.attached_to is not None:
            if at.attached_to in seen:
                raise FieldError(f"{named(o)} is in a loop of cards attached to each other")
            seen.add(at.id)
            nxt = objs.get(at.attached_to)
            if nxt is None:
                break
            at = nxt


def check(t: Table) -> None:
    """The table's consistency check: InputError when it is not one a save may hold."""
    try:
        _check_consistent(t)
    except ValueError as e:
        raise InputError(f"the table failed its consistency check ({e}): not saved") from None


def dumps(t: Table) -> str:
    """The save's text; a table that fails its consistency check is never written."""
    check(t)
    with collector.paused():
        return text(t)


_LONE = re.compile("[\ud800-\udfff]")


def utf8(text: str) -> bytes:
    """A save's text as the bytes of its file. A lone surrogate (a name read from a
    broken file) is no UTF-8: written as its JSON escape, which reads back as it was
    (only a string of the text can hold one)."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return _LONE.sub(lambda m: f"\\u{ord(m.group()):04x}", text).encode("utf-8")


def loads(text: str, source: str = "save", lasting: bool = False) -> Table:
    """A save's text read back as a table. ``lasting``: the table is kept (a game
    opened), not a copy soon let go (collector.paused)."""
    with collector.paused(lasting=lasting):
        return from_json(_parsed(text, source), source)


def _parsed(text: str, source: str) -> Any:
    try:
        return read(text)
    except (json.JSONDecodeError, RecursionError) as e:
        raise InputError(f"{source}: not valid JSON ({e})") from None
    except ValueError as e:  # Infinity, NaN, 1e999, a 5,000-digit number
        raise InputError(f"{source}: the save is damaged ({e})") from None


def save(t: Table, path: str | Path) -> None:
    atomic_write(Path(path), utf8(dumps(t)))


def load(path: str | Path) -> Table:
    path = Path(path)
    raw = read_bounded(path, MAX_BYTES)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a Tabletop save file (not UTF-8 text)") from None
    del raw  # the bytes, then the text, let go as soon as what is made of them is made:
    with collector.paused(lasting=True):  # a large save's peak memory
        d = _parsed(text, str(path))
        del text
        return from_json(d, str(path), consume=True)
