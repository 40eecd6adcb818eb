"""A room: one table on the host, its room code, and its seats.

A seat is a player of the table, the judge (only when the host allows it) or a
spectator. A seat sends intentions; the room checks the seat may make them (Bob
cannot move Alice's cards, draw from her library or act as the judge), the engine
decides, and every seat is sent its own view, built from the engine's views for
that seat alone: a card a seat may not see is sent without a name, a card id or
any characteristic. Pure logic: the server (server.py) carries the frames."""

from __future__ import annotations

import itertools
import json
import operator
import os
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tabletop.engine import (
    IllegalActionError,
    InputError,
    Table,
    chooser_from_labels,
    intents,
    saves,
    views,
)
from tabletop.engine.model import (
    HAND,
    ORDERED,
    REJECTED,
    SHUFFLED,
    Card,
    CardId,
    Obj,
    ObjId,
    Zone,
    ZoneKey,
)
from tabletop.engine.ops import CurrentOp, DeleteOp, InsertOp, MoveOp, SetOp
from tabletop.engine.state import LogEntry, Result
from tabletop.engine.views import Hidden, Seen
from tabletop.jsontext import compact
from tabletop.net import protocol
from tabletop.net.protocol import Code
from tabletop.textsafe import peer_text

JUDGE_SEAT = "judge"
SPECTATOR = "spectator"
HIDDEN_ZONES = (Zone.LIBRARY, Zone.HAND)
LOG_LINES = protocol.LOG_LINES
CHAT_LINES = 200
# tokens and abilities a room's table holds at once (a token deck's board, many times
# over): each update sends the battlefield, and a seat making 100 tokens 30 times a
# second had a view of 3 MB after three seconds, which every seat is sent again
MADE_MAX = 2_000
# log lines a room's game may hold (each action, refusal, undo and redo adds at least
# one): an evening's game has a few thousand; a seat acting at its allowance, 30 times
# a second, would otherwise grow the room's memory (with each line its action) for as
# long as it cared to
MAX_LINES = 300_000


ID_SPACE = 999_999  # the ids a seat is sent: 1 to this (the protocol's number range)
SHORT = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # letters and digits with no look-alikes


class RoomError(Exception):
    """An intention the room refuses: said back to that seat only, with its code."""

    def __init__(self, text: str, code: Code = Code.INVALID) -> None:
        super().__init__(text)
        self.code = code


def new_code() -> str:
    """A room code people can read out: 8 letters and digits, no look-alikes."""
    return "".join(secrets.choice(SHORT) for _ in range(8))


def new_invite() -> str:
    """A seat's invitation, short enough to read out: 12 letters and digits in three
    groups (60 bits; guessing is limited per address by the server)."""
    raw = "".join(secrets.choice(SHORT) for _ in range(12))
    return f"{raw[:4]}-{raw[4:8]}-{raw[8:]}"


def same_invite(given: str, held: str) -> bool:
    """An invitation as a person types it: case, spaces and dashes do not matter."""
    def norm(x: str) -> bytes:
        return "".join(ch for ch in x.upper() if ch.isalnum()).encode("ascii", "replace")
    return secrets.compare_digest(norm(given), norm(held))


# each zone's cards as one connection was last sent them: by the seat's id, the card as
# a public face is made (no id, no host, no place) and the id of its host
Known = dict[ZoneKey, dict[int, tuple[dict[str, Any], int | None]]]


class SeatIds:
    """The ids one seat is sent, and the objects they stand for.

    Every object a seat is sent gets an id drawn at random for that seat alone, so an
    id tells nothing: not the deck list's order, not another seat's ids, not what a card
    was before it became hidden. A card hidden from the seat gets a fresh id whenever it
    could otherwise be followed: a new object (every zone change), its library shuffled
    or reordered, or a card the seat saw becoming hidden again in a hand or library. An
    id is never given twice to a seat, so an old id can never name another card."""

    __slots__ = ("_at", "_pool", "back", "hidden", "out", "sent", "used")

    def __init__(self) -> None:
        self.out: dict[int, int] = {}  # object id -> the id this seat knows it by
        self.back: dict[int, int] = {}
        self.hidden: dict[int, bool] = {}  # object id -> hidden from the seat when sent
        self.sent: dict[ZoneKey, tuple[int, ...]] = {}  # hidden zones, as last sent
        self.used: set[int] = set()
        self._pool, self._at = b"", 0  # bytes from the system's random source, unused

    def _draw(self) -> int:
        """A number from 1 to ID_SPACE, each as likely, from the system's random source
        (as ``secrets.randbelow``), which is asked for a few hundred at a time: every
        move gives each seat a new id, and a system call for each cost more than the
        view it is sent in."""
        while True:
            if self._at >= len(self._pool):
                self._pool, self._at = os.urandom(3 * 256), 0
            n = int.from_bytes(self._pool[self._at:self._at + 3], "big") & 0xFFFFF
            self._at += 3
            if n < ID_SPACE:  # 20 bits, the few past the range drawn again: uniform
                return n + 1

    def of(self, oid: int, hidden: bool, hidden_zone: bool) -> int:
        sid = self.out.get(oid)
        if sid is not None and hidden and hidden_zone and not self.hidden[oid]:
            self.drop(oid)  # seen, now hidden in a hand or library: no longer followed
            sid = None
        if sid is None:
            if len(self.used) > ID_SPACE // 2:  # a very long game: forget the oldest
                self.used = set(self.back)
            sid = self._draw()
            while sid in self.used:
                sid = self._draw()
            self.used.add(sid)
            self.out[oid], self.back[sid] = sid, oid
        self.hidden[oid] = hidden
        return sid

    def drop(self, oid: int) -> None:
        sid = self.out.pop(oid, None)
        if sid is not None:
            del self.back[sid]
        self.hidden.pop(oid, None)

    def reorder(self, key: ZoneKey, ids: Sequence[int]) -> None:
        """A hidden zone about to be sent: when the cards it had are no longer in the
        order they were sent in (a shuffle, an effect reordering it), all its cards get
        new ids (another player's hand: ``Room._shuffled_hand``)."""
        before = self.sent.get(key)
        now = tuple(ids)
        if before is not None and before != now:
            kept = set(now)
            old = [i for i in before if i in kept]
            still = set(before)
            if old != [i for i in now if i in still]:
                for oid in now:
                    self.drop(oid)
        self.sent[key] = now

    def prune(self, live: set[int]) -> None:
        """Forget objects that are gone (the ids stay used)."""
        for oid in [o for o in self.out if o not in live]:
            self.drop(oid)


# faces a room keeps from one update to the next (Room._public_face) before those of
# objects that are gone are let go (then twice as many as are left, at least this)
FACES_KEPT = 256
CHANGED_KEPT = 4096  # objects marked changed (Room._changed) before all are looked at
# keys of what one broadcast makes once for every seat, beside its cards' faces (``view``)
_TODO, _LOG, _ALIKE, _SEATS, _STALE = ("todo",), ("log",), ("alike",), ("seats",), \
    ("stale",)


@dataclass
class Room:
    id: str
    code: str
    table: Table
    judge_sees_all: bool = False
    tokens: dict[str, str] = field(default_factory=dict)  # seat -> its secret token
    actors: list[str] = field(default_factory=list)  # who made each action in the history
    chat: list[tuple[str, str]] = field(default_factory=list)  # (seat, text)
    connected: dict[str, int] = field(default_factory=dict)  # seat -> open connections
    applied: int = 0  # intentions carried out in this room, ever (the server's log counts)
    # a request to undo the last action of someone else: who asked, who agreed so far
    undo_request: tuple[str, frozenset[str]] | None = None
    # library cards a seat has looked at (the top N, a search): their object ids, sent
    # to that seat with their faces until they leave the library or it is shuffled
    looked: dict[str, list[int]] = field(default_factory=dict)
    # each seat's invitation (players and, when open, the judge): taken once, then the
    # seat's token is the way back
    invites: dict[str, str] = field(default_factory=dict)
    seed: int | None = None  # the deal's seed when the room was asked for a fixed one
    # a request to look through another player's library: (who, whose, count)
    look_request: tuple[str, str, int | None] | None = None
    chat_base: int = 0  # chat lines said before the first one kept
    idle_since: float = field(default_factory=time.time)  # nobody connected since then
    ids: dict[str, SeatIds] = field(default_factory=dict)  # what each seat's ids stand for
    # each viewer's sideboards as sent, for the table's sideboards as they are (replaced
    # whole when they change, never changed in place): made once, not at every update
    _sides: tuple[Any, dict[Any, dict[str, Any]]] = field(
        default_factory=lambda: (None, {}), init=False, repr=False, compare=False)
    # each seat's own facts as last made, with what they were made of (its sideboards
    # as made, whether it may undo), while no arrow is drawn and nothing is shown: the
    # same facts are the same object, which an update compares no further
    _facts: dict[str, tuple[Any, bool, dict[str, Any]]] = field(
        default_factory=dict, init=False, repr=False, compare=False)
    # the faces of cards in public zones as last made, each with what it was made from
    # (_stamp), for the table's printings and commanders as they are: a card that has
    # not changed is not made again at the next update (nor compared beyond identity)
    _faces: dict[Any, tuple[Any, Any, int]] = field(default_factory=dict, init=False,
                                               repr=False, compare=False)
    _faces_for: tuple[Any, Any] = field(default=(None, None), init=False, repr=False,
                                        compare=False)
    _faces_limit: int = field(default=FACES_KEPT, init=False, repr=False, compare=False)
    # each plain zone (_plain_zone) as last made: (the count it was checked at, the kept
    # faces it was made from, its objects, what was made), so that the next update looks
    # again only at the objects changed since, not at every card on a crowded battlefield
    _plain: dict[ZoneKey, tuple[int, Any, tuple[int, ...], tuple[tuple[int, ...], list[Any]]]] \
        = field(default_factory=dict, init=False, repr=False, compare=False)
    # what changed since a face was kept, so that a card nothing changed is not even
    # stamped: the room's actions are counted (_gen); each object an action's changes
    # name is marked with its count (_changed), and when anything may have changed (an
    # undo, a change made past the room) every face made before is looked at (_all_at).
    # A kept face holds the count it was checked at. _marker: the table's history as the
    # room last left it, to see a change made past it.
    _gen: int = field(default=0, init=False, repr=False, compare=False)
    _all_at: int = field(default=0, init=False, repr=False, compare=False)
    _changed: dict[int, int] = field(default_factory=dict, init=False, repr=False,
                                     compare=False)
    _marker: tuple[Any, ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.invites:
            seats = list(self.table.players) + ([JUDGE_SEAT] if self.judge_sees_all else [])
            self.invites = {s: new_invite() for s in seats}

    # ---- seats ------------------------------------------------------------------------
    def check_code(self, code: str) -> None:
        if not secrets.compare_digest(code.encode("utf-8"), self.code.encode("utf-8")):
            raise RoomError("no such room, or a wrong room code", Code.NO_ROOM)

    def seat_of(self, seat: str) -> str:
        """The seat asked for, if the table has it."""
        if seat == SPECTATOR:
            return seat
        if seat == JUDGE_SEAT:
            if not self.judge_sees_all:
                raise RoomError("the host has not opened the judge's seat", Code.NO_SEAT)
            return seat
        if seat not in self.table.players:
            raise RoomError(f"no seat {seat[:40]!r} at this table "
                            f"(players: {', '.join(self.table.players)})", Code.NO_SEAT)
        return seat

    def invited_seat(self, invite: str) -> str:
        """The seat whose invitation ``invite`` is (a join that names no seat); each
        seat's is compared, in the same time whichever it is."""
        found = [s for s, held in self.invites.items() if same_invite(invite, held)]
        if not found:
            raise RoomError("no seat at this table has that invitation: check it with the "
                            "host", Code.INVITE_NEEDED)
        return found[0]

    def join(self, seat: str | None, code: str, token: str | None = None,
             invite: str | None = None, approved: bool = False) -> tuple[str, str]:
        """(seat, token) for a client that gave the room code. A spectator needs nothing
        more; a free seat needs its invitation (or ``approved``: the host let this client
        sit); a seat already taken needs its token (a client that dropped rejoins). No
        ``seat``: the one ``invite`` is for."""
        self.check_code(code)
        if seat is None:
            if invite is None:
                raise RoomError("name a seat, or give its invitation", Code.NO_SEAT)
            seat = self.invited_seat(invite)
        seat = self.seat_of(seat)
        if seat == SPECTATOR:
            return SPECTATOR, ""
        held = self.tokens.get(seat)
        if token is not None and held is not None \
                and secrets.compare_digest(token.encode("utf-8"), held.encode("utf-8")):
            return seat, held
        if held is not None:
            raise RoomError(f"the seat {seat!r} is taken (rejoin with its token)",
                            Code.SEAT_TAKEN)
        invited = invite is not None and same_invite(invite, self.invites[seat])
        if not invited and not (approved and seat != JUDGE_SEAT):  # the judge: invited only
            raise RoomError(f"the seat {seat!r} needs its invitation from the host"
                            + (" (or the host's approval)" if seat != JUDGE_SEAT else ""),
                            Code.INVITE_NEEDED)
        self.tokens[seat] = secrets.token_urlsafe(24)
        return seat, self.tokens[seat]

    def seat_ids(self, seat: str) -> SeatIds:
        ids = self.ids.get(seat)
        if ids is None:
            ids = self.ids[seat] = SeatIds()
        return ids

    def id_for(self, seat: str, oid: ObjId) -> int:
        """The id ``seat`` knows an object by (sending it to the seat if it was not yet)."""
        obj = self.table.objs[oid]
        hidden = not self._sees(seat, obj)
        return self.seat_ids(seat).of(oid, hidden, obj.zone is not None
                                      and obj.zone[1] in HIDDEN_ZONES)

    def _sees(self, seat: str, obj: Obj) -> bool:
        if obj.id in self.looked.get(seat, ()):
            return True
        return isinstance(views.face_of(self.table, obj, self.viewer(seat)), Seen)

    @staticmethod
    def viewer(seat: str) -> str | None:
        """The engine's viewer for a seat: a player, the judge (None), or a name no
        player has (a spectator sees only what is public)."""
        if seat == JUDGE_SEAT:
            return views.JUDGE
        if seat == SPECTATOR:
            return "\x00spectator"
        return seat

    # ---- intentions -------------------------------------------------------------------
    def resolve(self, seat: str, msg: dict[str, Any]) -> dict[str, Any]:
        """An intention as ``seat`` sent it, naming cards by the ids that seat was sent,
        as the same intention naming the table's objects (what ``act`` carries out, and
        the server logs and replays). An id the seat was never sent, or whose card has
        moved since, is "no longer there", whatever it was."""
        if seat == SPECTATOR:
            raise RoomError("a spectator watches: it cannot act", Code.SPECTATOR)
        ids = self.ids.get(seat)

        def real(sid: Any) -> int:
            oid = ids.back.get(sid) if ids is not None and isinstance(sid, int) else None
            if oid is None:
                raise RoomError("that card is no longer there", Code.GONE)
            return oid
        out = {k: v for k, v in msg.items() if k not in ("v", "type", "rid")}
        for key in ("id", "host", "onto"):
            if key in out:
                out[key] = real(out[key])
        if isinstance(out.get("to"), int):
            out["to"] = real(out["to"])
        if "ids" in out:
            out["ids"] = [real(i) for i in out["ids"]]
        return out

    def act(self, seat: str, msg: dict[str, Any]) -> set[ZoneKey] | None:
        """Carry out one intention of ``seat`` (the protocol's ``act`` fields, read as
        an intent) through the engine, or RoomError. Its ids are the table's object ids
        (``resolve`` turns a seat's into them). The zones it changed (None: any of
        them may have)."""
        if seat == SPECTATOR:
            raise RoomError("a spectator watches: it cannot act", Code.SPECTATOR)
        try:
            intent = intents.decode(msg)
        except intents.IntentError as e:
            raise RoomError(str(e), Code.INVALID) from None
        return self.carry_out(seat, intent)

    def carry_out(self, seat: str, intent: intents.Intent) -> set[ZoneKey] | None:
        """One intent of ``seat``, its cards named by the table's object ids: the seat's
        right to it checked (whose cards, whose seat, whose turn), then the engine's."""
        if seat == SPECTATOR:
            raise RoomError("a spectator watches: it cannot act", Code.SPECTATOR)
        t = self.table
        if len(t.journal) >= MAX_LINES:
            raise RoomError(f"this game's log holds {MAX_LINES:,} lines, as many as a room "
                            f"keeps: play on in a new room", Code.FULL)
        before = len(t.history)
        marker = self._table_marker()
        who = None if seat == JUDGE_SEAT else seat
        moved: set[ZoneKey] = set()  # zones changed with no event to say so (places)
        try:
            self._may(seat, who, intent)
            cids = [self._object(i, who).cid for i in intent.handled()]
            res = self._carry_out(seat, who, intent, cids, moved)
        except (IllegalActionError, InputError) as e:
            raise RoomError(str(e)) from None
        self._note_changes(before, marker, res is None)
        if res is None:  # an undo (anything may have changed), or a request asked
            return None if isinstance(intent, intents.Undo | intents.AgreeUndo
                                      | intents.RefuseUndo) else set()
        self.actors += [seat] * (len(t.history) - before)
        self._forget({e.src for e in res.events if e.kind == SHUFFLED})
        if len(t.history) != before:
            self.undo_request = None  # it asked about an action no longer the last
        if res.rejected and len(t.history) == before:
            text = "; ".join(e.text for e in res.events if e.text) or "refused"
            rules = t.edition.marks(res.cites)
            raise RoomError(f"refused: {text}" + (f" ({rules})" if rules else ""),
                            Code.REFUSED)
        out = touched(t, res.events)
        return out | moved if out is not None else None

    def _note_changes(self, before: int, marker: tuple[Any, ...], anything: bool) -> None:
        """After one intent: the objects the changes of the actions it added (from the
        history's ``before``) name are marked changed; with ``anything`` (an undo, a
        redo), or a table the room did not leave as it was (``marker``: as the intent
        found it), every object is."""
        t = self.table
        self._gen += 1
        gen = self._gen
        if anything or self._marker != marker or len(self._changed) > CHANGED_KEPT:
            self._all_at = gen
            self._changed.clear()
        else:
            changed = self._changed
            for action in t.history[before:]:
                for op in action.ops:
                    match op:
                        case SetOp() | InsertOp() | DeleteOp():
                            changed[op.oid] = gen
                        case MoveOp() | CurrentOp():
                            changed[op.new] = gen
                            if op.old is not None:
                                changed[op.old] = gen
        self._marker = self._table_marker()

    def _table_marker(self) -> tuple[Any, ...]:
        """The table's history, log and what may be redone, as they stand: any change
        to the table (an action, an undo, a redo) leaves another."""
        t = self.table
        return (len(t.history), len(t.journal), len(t.redo_stack),
                id(t.history[-1]) if t.history else None,
                id(t.redo_stack[-1]) if t.redo_stack else None)

    def _kept_faces(self) -> dict[Any, tuple[Any, Any, int]]:
        """The faces kept, for the table's printings and commanders as they are."""
        t = self.table
        if self._faces_for[0] is not t.printings or self._faces_for[1] is not t.commanders:
            self._faces, self._faces_for = {}, (t.printings, t.commanders)
        return self._faces

    def _stale(self, faces: dict[Any, Any]) -> int:
        """A kept face checked before this count may be out of date (worked out once a
        broadcast: ``faces``). A change made past the room (its table acted on, undone or
        redone directly) makes every face kept so far out of date."""
        stale: int | None = faces.get(_STALE)
        if stale is not None:
            return stale
        marker = self._table_marker()
        if marker != self._marker:
            self._gen += 1
            self._all_at = self._gen
            self._changed.clear()
            self._marker = marker
        faces[_STALE] = self._all_at
        return self._all_at

    def _may(self, seat: str, who: str | None, intent: intents.Intent) -> None:
        """Whether ``seat`` may make the intent at all (its cards are checked apart)."""
        t = self.table
        if intent.SEAT == "setup":  # a demonstration is set up at the judge's own desk
            raise RoomError(f"{intent.NAME}: a network table is played as dealt; cards and "
                            f"effects are set up at the desk (the Setup menu)",
                            Code.NOT_YOUR_SEAT)
        if intent.SEAT == "own":
            if who is None:
                if isinstance(intent, intents.Draw | intents.Shuffle | intents.Roll
                              | intents.Life):
                    raise RoomError("the judge does not draw, shuffle, roll or change life",
                                    Code.NOT_YOUR_SEAT)
                raise RoomError("the judge has no counters, tokens or library of their "
                                "own", Code.NOT_YOUR_SEAT)
            if getattr(intent, "player", None) not in (None, seat):
                raise RoomError(f"{intent.NAME}: a seat acts for its own player only",
                                Code.NOT_YOUR_SEAT)
        elif intent.SEAT == "active" and who is not None and t.active != who:
            what = "end it" if isinstance(intent, intents.NextTurn) else "move it on"
            raise RoomError(f"it is {t.active}'s turn: only they {what}",
                            Code.NOT_YOUR_SEAT)
        elif isinstance(intent, intents.Look) and who is None:
            raise RoomError("the judge sees every card already")

    def _carry_out(self, seat: str, who: str | None, intent: intents.Intent,
                   cids: list[CardId], moved: set[ZoneKey]) -> Result | None:
        """The engine's part of an intent (None: nothing the engine did, or only asked)."""
        t = self.table
        match intent:
            case intents.Undo():
                self._undo(seat)
                return None
            case intents.AgreeUndo() | intents.RefuseUndo():
                self._answer_undo(seat, isinstance(intent, intents.AgreeUndo))
                return None
            case intents.AgreeLook() | intents.RefuseLook():
                return self._answer_look(seat, isinstance(intent, intents.AgreeLook))
            case intents.Move(zone=zone, player=player, position=position, at=at):
                return t.move(cids[0], zone, player, position=position, by=who,
                              face_down=bool(intent.face_down), chooser=_chooser(intent),
                              at={cids[0]: at} if at is not None else None)
            case intents.MoveMany(zone=zone, player=player, position=position, at=places):
                return t.move_many(cids, zone, player, position=position,
                                   order=cids if intent.ordered else None, by=who,
                                   face_down=bool(intent.face_down), chooser=_chooser(intent),
                                   at={c: a for c, a in zip(cids, places or (), strict=False)
                                       if a is not None} or None)
            case intents.PlaceCards(at=places):  # the seat's permanents elsewhere
                res = t.place(dict(zip(cids, places, strict=True)))
                moved.update(z for z in (t.obj_of(c).zone for c in cids) if z is not None)
                return res
            case intents.Tap(tapped=tapped):
                return t.set_tapped(cids[0], tapped)
            case intents.Counters(kind=kind, delta=delta):
                return t.add_counters(cids[0], {kind: delta})
            case intents.Face(down=down):
                return t.turn_face(cids[0], down)
            case intents.Reveal(revealed=revealed):
                return t.reveal(cids[0], revealed)
            case intents.Note(text=text):
                return t.set_note(cids[0], text)
            case intents.PT(text=text):
                return t.set_pt(cids[0], text or None)
            case intents.Ability(text=text):  # on the stack, its controller's
                self._room_for(1)
                obj = t.obj_of(cids[0])
                return t.put_ability(text, obj.controller or obj.owner, cids[0])
            case intents.Attach(host=host):  # to any object this seat can see, or off
                onto = None if host is None else self._live(host).cid
                why = t.attach_refusal(cids[0], onto)
                if why is not None:
                    return t.refuse(t.obj_of(cids[0]), why)
                return t.attach(cids[0], onto)
            case intents.Sticker(id=ref, text=text):  # on an object the seat owns (123.3b)
                return t.add_sticker(self._seen(seat, ref).cid, text, by=who)
            case intents.Merge(onto=onto, on_top=on_top):  # mutate (728.2)
                return t.merge(cids[0], self._seen(seat, onto).cid, on_top)
            case intents.CommanderReturns():  # 903.9a: the owner's choice
                return t.commander_returns(cids[0])
            case intents.Arrow():  # from a permanent or spell to another, or a player
                return self._arrow(seat, intent)
            case intents.ClearArrows():  # the seat's own (the judge's: everyone's)
                return t.clear_arrows(who)
            case intents.Draw(count=count):
                return t.draw(seat, count)
            case intents.Shuffle():
                return t.shuffle(seat)
            case intents.Roll(sides=sides):
                return t.roll(seat, sides)
            case intents.Life(delta=delta):
                return t.set_life(seat, t.life[seat] + delta)
            case intents.NextTurn(untap=untap):
                return t.next_turn(untap=untap)
            case intents.Phase(phase=phase, draw=draw):  # the phase bar: to a step
                return t.set_phase(phase, draw=draw)
            case intents.Look(player=whose, count=count):  # a library's top, or all
                return self._look(seat, whose or seat, count)
            case _:
                return self._seat_tool(seat, intent)

    def _room_for(self, n: int) -> None:
        """Refused when ``n`` more tokens or abilities would put the table past
        ``MADE_MAX`` of them (the tokens on the battlefield and what is on the stack)."""
        t = self.table
        objs = t.objs
        made = sum(1 for i in t.zones.get((None, Zone.BATTLEFIELD), ()) if objs[i].token) \
            + len(t.zones.get((None, Zone.STACK), ()))
        if made + n > MADE_MAX:
            raise RoomError(f"this table holds at most {MADE_MAX:,} tokens and abilities "
                            f"at once ({made:,} now)", Code.FULL)

    def _look(self, seat: str, whose: str, count: int | None) -> Result | None:
        """A seat looks at its own library's top cards or searches it; another player's
        library only with its owner's leave (None: the owner is asked first)."""
        t = self.table
        if whose not in t.players:
            raise RoomError(f"look: no player {str(whose)[:40]!r}")
        if whose != seat:  # 401.2: nobody looks through a library without leave
            if self.look_request is not None:
                raise RoomError(f"{self.look_request[0]} is waiting for "
                                f"{self.look_request[1]}'s answer", Code.HIDDEN)
            self.look_request = (seat, whose, count)
            return None
        return self._looked(seat, whose, count)

    def _answer_look(self, seat: str, agree: bool) -> Result | None:
        """The owner of the library answers a request to look through it."""
        req = self.look_request
        if req is None or req[1] != seat:
            raise RoomError("no one has asked to look at your library", Code.NOTHING)
        self.look_request = None
        who, whose, count = req
        if not agree:
            self.table.log_step(f"{whose} does not let {who} look at their library",
                                f"{whose} does not let {who} look at their library")
            return None
        return self._looked(who, whose, count)

    def _looked(self, seat: str, whose: str, count: int | None) -> Result:
        t = self.table
        res = t.look(seat, whose, count)
        ids = t.zones[(whose, Zone.LIBRARY)]  # bottom first
        seen = ids if count is None else ids[len(ids) - min(count, len(ids)):]
        self.looked[seat] = sorted(set(self.looked.get(seat, ())) | set(seen))
        return res

    def _forget(self, shuffled: set[ZoneKey | None]) -> None:
        """What seats looked at and no longer know: cards that left the library (new
        objects), and every card of a library just shuffled (whose cards every seat
        is then sent by new ids)."""
        t = self.table
        for key in shuffled:
            if key is not None and key in t.zones:
                for seat_ids in self.ids.values():
                    for oid in t.zones[key]:
                        seat_ids.drop(oid)

        def known(oid: int) -> bool:
            obj = t.objs.get(ObjId(oid))
            return obj is not None and obj.zone is not None and obj.zone[1] == Zone.LIBRARY \
                and obj.zone not in shuffled and t.current.get(obj.cid) == oid
        for seat, ids in list(self.looked.items()):
            keep = [i for i in ids if known(i)]
            if keep:
                self.looked[seat] = keep
            else:
                del self.looked[seat]

    def _arrow(self, seat: str, intent: intents.Arrow) -> Result:
        """An arrow ``seat`` draws (the judge draws it for the card's controller): from
        any object on the table to another (``to``, an object id) or to a player."""
        t = self.table
        source = self._live(intent.id)
        to = intent.to
        target: int | str
        if isinstance(to, str):
            if to not in t.players:
                raise RoomError(f"arrow: no player {to[:40]!r}")
            target = to
        else:
            target = self._live(to).cid
        who = source.controller or source.owner if seat == JUDGE_SEAT else seat
        return t.arrow(who, source.cid, target)

    def _seen(self, seat: str, oid: Any) -> Obj:
        """The object of that id if the seat may see its face (a sticker or a merge
        names what it acts on: a hidden card is refused before anything is said)."""
        obj = self._live(oid)
        if not self._sees(seat, obj):
            raise RoomError("that card is hidden from you", Code.HIDDEN)
        return obj

    def _live(self, oid: Any) -> Obj:
        """The object of that id, if it is still that object (any seat may name it)."""
        t = self.table
        obj = t.objs.get(ObjId(oid)) if isinstance(oid, int) else None
        if obj is None or obj.zone is None or t.current.get(obj.cid) != obj.id:
            raise RoomError("that card is no longer there", Code.GONE)
        return obj

    def _seat_tool(self, seat: str, intent: intents.Intent) -> Result:
        """A player's own counters, tokens and library."""
        t = self.table
        match intent:
            case intents.PlayerCounter(kind=kind, value=value):
                return t.set_player_counter(seat, kind, value)
            case intents.Mulligan():  # London: the hand into the library, seven new
                return t.mulligan(seat)  # cards; then cards to the bottom (move_many)
            case intents.BringIn(name=name, zone=zone):  # from the sideboard (400.10)
                card = next((c for c in t.sideboards.get(seat, ()) if c.name == name), None)
                if card is None:
                    raise RoomError(f"bring_in: no {name[:60]!r} in {seat}'s sideboard")
                return t.bring_in(card, seat, zone or Zone.HAND)
            case intents.MoveAll(src=src, zone=zone, shuffle=shuffle):  # a whole zone
                return t.zone_to_zone(seat, src, zone, shuffle=shuffle)
            case intents.Show(ids=ids) | intents.Cleanup(ids=ids):
                objs = [self._live(i) for i in ids]
                if any(o.owner != seat for o in objs) or len(set(ids)) != len(ids):
                    raise RoomError(f"{intent.NAME}: cards of {seat}'s own, each once",
                                    Code.NOT_YOUR_SEAT)
                cids = [o.cid for o in objs]
                if isinstance(intent, intents.Cleanup):  # these, or the newest in hand
                    return t.cleanup(seat, cids or None)
                to = intent.to
                if to is not None and to not in t.players:
                    raise RoomError(f"show: no player {str(to)[:40]!r}")
                return t.show(seat, cids, to)
            case intents.Mill(count=count):
                cids = [c.cid for c in views.top_choices(t, seat, count, views.JUDGE)]
                if not cids:
                    raise RoomError(f"{seat}'s library is empty")
                return t.move_many(cids, Zone.GRAVEYARD, seat)
            case intents.Token():  # its facts as the seat gives them (made up at the table)
                self._room_for(intent.count)
                card = Card(intent.name, types=intent.types or ("Creature",),
                            subtypes=intent.subtypes, colors=intent.colors,
                            power=intent.power, toughness=intent.toughness)
                return t.create_token(card, seat, tapped=intent.tapped, count=intent.count)
        raise RoomError(f"unknown action {intent.NAME!r}")

    def _object(self, oid: int, who: str | None) -> Obj:
        """The object an intention names by the id the seat was shown, if it is still
        that object and the seat may handle it."""
        obj = self._live(oid)
        if views.move_refusal(self.table, obj, who) is not None:
            raise RoomError(f"{who} may not handle {views.handler(obj)}'s cards",
                            Code.NOT_YOUR_SEAT)
        return obj

    def _undo(self, seat: str) -> None:
        """A player takes back their own last action, and the judge any last action;
        another player's last action is taken back when every player agrees (the
        request is shown to all; each answers with agree_undo or refuse_undo)."""
        t = self.table
        if not t.history:
            raise RoomError("nothing to undo", Code.NOTHING)
        last = self.actors[-1] if len(self.actors) == len(t.history) else None
        if seat != JUDGE_SEAT and last != seat:
            self.undo_request = (seat, frozenset({seat}))
            self._answer_undo(seat, True)
            return
        self._take_back()

    def _answer_undo(self, seat: str, agree: bool) -> None:
        if self.undo_request is None:
            raise RoomError("no one has asked to undo", Code.NOTHING)
        if seat not in self.table.players:
            raise RoomError("only the players decide an undo", Code.NOT_YOUR_SEAT)
        asker, agreed = self.undo_request
        if not agree:
            self.undo_request = None
            self.table.log_step(f"{seat} refuses {asker}'s request to undo",
                                f"{seat} refuses {asker}'s request to undo")
            return
        agreed = agreed | {seat}
        if agreed >= set(self.table.players):
            self._take_back()
        else:
            self.undo_request = (asker, agreed)

    def _take_back(self) -> None:
        t = self.table
        action = t.undo()
        if action is not None:  # an undone shuffle restores an order no one saw
            self._forget({e.src for e in action.events if e.kind == SHUFFLED})
        if self.actors:
            self.actors.pop()
        t.redo_stack.clear()  # over the network, what is undone stays undone
        self.undo_request = None

    def say(self, seat: str, text: str) -> None:
        text = peer_text(text).strip()
        if not text:
            raise RoomError("an empty chat line")
        self.chat.append((seat, text))
        if len(self.chat) > CHAT_LINES:
            self.chat_base += len(self.chat) - CHAT_LINES
            del self.chat[:-CHAT_LINES]

    @property
    def chat_said(self) -> int:
        """Chat lines said in this room, ever (an update sends those after a number)."""
        return self.chat_base + len(self.chat)

    # ---- views ------------------------------------------------------------------------
    def view(self, seat: str, zones: set[ZoneKey] | None = None,
             log_from: int | None = None, chat_from: int | None = None,
             public: dict[str, Any] | None = None,
             faces: dict[Any, Any] | None = None,
             known: Known | None = None, delta: bool = False) -> dict[str, Any]:
        """Everything ``seat`` may know, as plain JSON data (only ``zones``, and the log
        from ``log_from`` and the chat from ``chat_from``, when given). Every card is
        named by the seat's own ids (``SeatIds``). ``public``: ``public_facts()`` as
        they stand, and ``faces`` an empty dict, when the caller makes every seat's
        view of the same table at once: what is alike for every seat is then made once
        and kept there (the public faces, the zones looked up, the log's lines for the
        seats that read them alike, the arrows).

        ``known``: each zone's cards as this connection was last sent them (updated
        here); with ``delta``, each zone is sent as its ``order`` of ids and only the
        ``cards`` that are new to the connection or changed (``Changes.CARDS``)."""
        t = self.table
        viewer = self.viewer(seat)
        start = len(t.journal) - LOG_LINES if log_from is None else log_from
        first = max(0, self.chat_said - 50) if chat_from is None else chat_from
        shown = self.zone_cards(seat, zones, faces, known, delta)  # (ids made first)
        facts = self.seat_facts(seat, faces)  # (kept and shared: copied, as the log is)
        return {**(self.public_facts() if public is None else public),
                **facts, "arrows": [list(a) for a in facts["arrows"]], "zones": shown,
                "log": list(self.log_lines(viewer, start, faces)),
                "chat": self.chat_lines(first), "chat_from": first}

    def zone_cards(self, seat: str, zones: set[ZoneKey] | None,
                   faces: dict[Any, Any] | None, known: Known | None,
                   delta: bool) -> list[dict[str, Any]]:
        """The ``zones`` (None: all) as ``seat`` is sent them (see ``view``)."""
        t = self.table
        viewer = self.viewer(seat)
        ids = self.seat_ids(seat)
        looked = set(self.looked.get(seat, ()))
        shown = []
        # an update's few zones are looked up, not found among the table's many
        if zones is None:
            todo: Any = t.zones.items()
        else:
            todo = None if faces is None else faces.get(_TODO)
            if todo is None:
                todo = [(key, t.zones[key]) for key in sorted(zones, key=_zone_order)
                        if key in t.zones]
                if faces is not None:
                    faces[_TODO] = todo
        for key, oids in todo:
            ordered = key[1] in ORDERED
            hidden_zone = key[1] in HIDDEN_ZONES
            # another's hand: sent in the order of this seat's ids, drawn at random,
            # not in the order its cards came (the newest would be the card that came)
            concealed = key[1] == HAND and viewer is not views.JUDGE and viewer != key[0]
            if concealed:
                oids = self._shuffled_hand(ids, key, oids, viewer)
            elif hidden_zone:
                ids.reorder(key, oids)
            cards = []  # the zone's cards as sent (with ``delta``: those that changed)
            order = []
            before = {} if known is None else known.get(key, {})
            plain = None
            if delta and faces is not None and not hidden_zone:
                plain = self._plain_zone(key, oids, faces)
                if plain is not None and looked and not looked.isdisjoint(plain[0]):
                    plain = None
            if plain is not None and isinstance(before, _Sent) and before.oids == plain[0]:
                # the same cards in the same order as this seat was last sent: only
                # those whose faces were made again are looked at
                assert known is not None
                mades = plain[1]
                for i in itertools.compress(range(len(mades)),
                                            map(operator.is_not, before.mades, mades)):
                    base = mades[i][1]
                    was = before.order[i]
                    before[was] = (base, None)
                    card = dict(base)
                    card["id"], card["host"] = was, None
                    card["position"] = i + 1 if ordered else None
                    cards.append(card)
                before.oids, before.mades = plain
                shown.append({"player": key[0], "zone": key[1], "ordered": ordered,
                              "order": before.order, "cards": cards})
                continue
            now = _Sent()
            for i, oid in enumerate(reversed(oids), 1):
                obj = t.objs[oid]
                if oid in looked:  # looked at: its face, for this seat
                    face = views.face_of(t, obj, views.JUDGE, True, i)
                    card = _face(face, ids.of(oid, False, hidden_zone), None)
                    card["looked"] = True
                elif faces is not None and not hidden_zone:
                    # a public zone: a face is the same for every seat but its ids (a
                    # face-down one differs for its controller), made once a broadcast;
                    # sent as changes, its place is left out (the zone's order says it)
                    place = None if delta or not ordered else i
                    slot = (oid, place, viewer if obj.face_down else "")
                    made = faces.get(slot)
                    if made is None:
                        made = faces[slot] = self._public_face(obj, slot, viewer, faces)
                    face, base = made
                    hidden = isinstance(face, Hidden)
                    sid = ids.out.get(oid)
                    if sid is None or ids.hidden[oid] is not hidden:  # (else: as it was)
                        sid = ids.of(oid, hidden, False)
                    host = None if face.host is None else self.id_for(seat, face.host)
                    if delta:  # compared as made: no copy of a card that did not change
                        order.append(sid)
                        now[sid] = (base, host)
                        if before.get(sid) != (base, host):
                            card = dict(base)
                            card["id"], card["host"] = sid, host
                            card["position"] = i if ordered else None
                            cards.append(card)
                        continue
                    card = dict(base)
                    card["id"] = sid
                    card["host"] = host
                else:
                    face = views.face_of(t, obj, viewer, False, i if ordered else None)
                    host = None if face.host is None else self.id_for(seat, face.host)
                    card = _face(face, ids.of(oid, isinstance(face, Hidden), hidden_zone),
                                 host)
                if known is None:
                    cards.append(card)
                    continue
                sid, host = card["id"], card["host"]
                # as a public face is made: no id, no host, no place
                made = {**card, "id": 0, "host": None, "position": None}
                now[sid] = (made, host)
                if not delta:
                    cards.append(card)
                    continue
                order.append(sid)
                if before.get(sid) != (made, host):
                    cards.append(card)
            if known is not None:
                known[key] = now
                if plain is not None:  # the next update may look only at what changed
                    now.oids, now.mades = plain
                    now.order = order
            if delta:
                shown.append({"player": key[0], "zone": key[1], "ordered": ordered,
                              "order": order, "cards": cards})
            else:
                shown.append({"player": key[0], "zone": key[1], "cards": cards})
        if zones is None:  # the whole table: forget what is gone
            ids.prune({o for lst in t.zones.values() for o in lst})
            if known is not None:
                for key in [k for k in known if k not in t.zones]:
                    del known[key]
        return shown

    def log_lines(self, viewer: str | None, start: int,
                  faces: dict[Any, Any] | None) -> list[dict[str, Any]]:
        """The log's lines from ``start`` as ``viewer`` reads them (``faces``: the
        broadcast's, where a line is made once for the seats that read it alike)."""
        t = self.table
        if faces is None:
            return [line for entry in t.journal[max(0, start):]
                    for line in [_line(entry, viewer)] if line is not None]
        journal = t.journal
        start = max(0, start)
        alike = faces.get((_ALIKE, start))
        if alike is None:  # from ``start``, lines every seat reads alike (the usual):
            # made once a broadcast for them all (False: some seat reads one otherwise)
            alike = faces[(_ALIKE, start)] = all(
                journal[n].public == journal[n].text for n in range(start, len(journal)))
        if alike is True or alike is False:
            log = []
            for n in range(start, len(journal)):
                entry = journal[n]
                said = (_LOG, n, viewer is None or entry.public == entry.text
                        or viewer in entry.knowers)
                line = faces.get(said, _LOG)
                if line is _LOG:
                    line = faces[said] = _line(entry, viewer)
                if line is not None:
                    log.append(line)
            if alike is False:
                return log
            faces[(_ALIKE, start)] = alike = log
        return alike

    def chat_lines(self, first: int) -> list[list[str]]:
        """The chat's lines from the ``first`` said (those still kept)."""
        return [[s_, x] for s_, x in self.chat[max(0, first - self.chat_base):]]

    def _shuffled_hand(self, ids: SeatIds, key: ZoneKey, oids: Sequence[ObjId],
                       viewer: str | None) -> list[ObjId]:
        """Another player's hand about to be sent, bottom first as a zone's list is, in
        the order of the ids ``viewer`` knows its cards by (each as ``zone_cards`` will
        send it: hidden, or seen when revealed), not the order its cards came. When any
        card came into it since it was last sent, or a card of it the seat saw (revealed)
        is hidden again, every card of it gets a new id: the one new id would be the card
        the seat may have seen come (a permanent returned to the hand)."""
        t = self.table
        hidden = [not views.may_see(t, t.objs[oid], viewer) for oid in oids]
        before = ids.sent.get(key)
        came = before is not None and not set(before).issuperset(oids)
        if came or any(h and ids.hidden.get(oid) is False
                       for oid, h in zip(oids, hidden, strict=True)):
            for oid in oids:
                ids.drop(oid)
        ids.sent[key] = tuple(oids)
        sid = {oid: ids.of(oid, h, True) for oid, h in zip(oids, hidden, strict=True)}
        return sorted(oids, key=sid.__getitem__, reverse=True)

    def seat_facts(self, seat: str, faces: dict[Any, Any] | None) -> dict[str, Any]:
        """The facts of a view that are the seat's own: its name, the sideboards and
        arrows as it is sent them, what was shown to it, whether it may undo."""
        t = self.table
        viewer = self.viewer(seat)
        alike = None if faces is None else faces.get(_SEATS)
        if alike is None:  # what every seat's facts are made of: once a broadcast
            last = self.actors[-1] if self.actors and len(self.actors) == len(t.history) \
                else None
            # (views.shown says None unless the last action was a show)
            alike = (last, views.arrows(t), bool(t.history) and t.history[-1].name == "show")
            if faces is not None:
                faces[_SEATS] = alike
        last, drawn, shows = alike
        can_undo = bool(t.history) and (seat == JUDGE_SEAT or last == seat)
        sides = self._sideboards(viewer)
        # in a broadcast (``faces``), with no arrow and nothing shown: as last made, if
        # made of the same (a view made whole is made afresh)
        keep = faces is not None and not drawn and not shows
        if keep:
            kept = self._facts.get(seat)
            if kept is not None and kept[0] is sides and kept[1] == can_undo:
                return kept[2]
        arrows = []
        for a in drawn:  # ends the seat was sent (an arrow's ends are public)
            to: Any = a.target_player if a.target is None else self.id_for(seat, a.target)
            arrows.append([a.player, self.id_for(seat, a.source), to])
        # what the last action showed this seat
        revealed = views.shown(t, viewer) if shows else None
        shown_now = None if revealed is None else {
            "by": revealed.by, "to": revealed.to, "title": revealed.title,
            "action": len(t.history),
            # no ids: a face tied to a hidden card's id would follow that card after
            "cards": [_face(f, 0, None) for f in revealed.cards]}
        facts = {"seat": seat, "sideboards": sides, "arrows": arrows, "shown": shown_now,
                 "can_undo": can_undo}
        if keep:
            self._facts[seat] = (sides, can_undo, facts)
        return facts

    def _plain_zone(self, key: ZoneKey, oids: Sequence[int], faces: dict[Any, Any]
                    ) -> tuple[tuple[int, ...], list[Any]] | None:
        """A public zone whose cards every seat sees alike (none face down, none attached,
        none hidden): its objects and their faces as made (``_public_face``), top first,
        made once a broadcast; None for a zone whose cards some seat sees otherwise."""
        slot = ("zone", key)
        if slot in faces:
            made: tuple[tuple[int, ...], list[Any]] | None = faces[slot]
            return made
        kept_faces, stale = self._kept_faces(), self._stale(faces)
        ids = tuple(oids)
        was = self._plain.get(key)
        made = None
        if was is not None and was[0] >= stale and was[1] is kept_faces and was[2] == ids:
            made = self._plain_again(was[0], was[3], faces)
        if made is None:
            made = self._plain_made(oids, faces, kept_faces, stale)
        if made is None:
            self._plain.pop(key, None)
        else:
            self._plain[key] = (self._gen, kept_faces, ids, made)
        faces[slot] = made
        return made

    def _plain_again(self, checked: int, was: tuple[tuple[int, ...], list[Any]],
                     faces: dict[Any, Any]) -> tuple[tuple[int, ...], list[Any]] | None:
        """A plain zone made at the count ``checked``, its objects the same: the faces of
        those changed since made again (a new list: an update keeps the one it was sent
        to compare with the next), the rest as they were. None when a card changed so
        that the zone may no longer be plain (it is then walked whole)."""
        ids, mades = was
        get = self._changed.get
        again = [i for i, oid in enumerate(ids) if get(oid, 0) > checked]
        if not again:
            return was
        objs = self.table.objs
        mades = list(mades)
        top = len(ids) - 1  # (the faces go top first)
        for i in again:
            obj = objs[ObjId(ids[i])]
            if obj.face_down or obj.attached_to is not None:
                return None
            one = (ids[i], None, "")
            face = faces.get(one)
            if face is None:
                face = faces[one] = self._public_face(obj, one, None, faces)
            if isinstance(face[0], Hidden) or face[0].host is not None:
                return None
            mades[top - i] = face
        return (ids, mades)

    def _plain_made(self, oids: Sequence[int], faces: dict[Any, Any],
                    kept_faces: dict[Any, tuple[Any, Any, int]], stale: int
                    ) -> tuple[tuple[int, ...], list[Any]] | None:
        """A plain zone made card by card (see ``_plain_zone``: the faces kept, and the
        count before which a kept face may be out of date)."""
        objs, changed = self.table.objs, self._changed
        mades = []
        for oid in reversed(oids):
            obj = objs[ObjId(oid)]
            if obj.face_down or obj.attached_to is not None:
                return None
            one = (oid, None, "")
            face = faces.get(one)
            if face is None:  # a face kept since nothing changed it is as it was
                kept = kept_faces.get(one)
                face = faces[one] = kept[1] if kept is not None and kept[2] >= stale \
                    and kept[2] >= changed.get(oid, 0) else self._public_face(
                        obj, one, None, faces)
            if isinstance(face[0], Hidden) or face[0].host is not None:
                return None
            mades.append(face)
        return (tuple(oids), mades)

    def _public_face(self, obj: Obj, slot: Any, viewer: str | None,
                     faces: dict[Any, Any]) -> tuple[Seen | Hidden, dict[str, Any]]:
        """A card in a public zone as ``viewer`` sees it, and as it is sent without its
        ids: made again only when something it is made from has changed (``faces``:
        the broadcast's)."""
        t = self.table
        kept = self._kept_faces().get(slot)
        if kept is not None and obj.attached_to is None:
            # kept since nothing changed its object (``_gen``): as it was, not stamped
            # (an attached card's face also follows its host: that one is stamped)
            stale = self._stale(faces)
            if kept[2] >= stale and kept[2] >= self._changed.get(obj.id, 0):
                made: tuple[Seen | Hidden, dict[str, Any]] = kept[1]
                return made
        stamp = _stamp(t, obj)
        if kept is not None and kept[0] == stamp:
            made = kept[1]
            self._faces[slot] = (stamp, made, self._gen)
            return made
        if len(self._faces) >= self._faces_limit:  # the faces of objects now gone go
            objs = t.objs
            self._faces = {k: v for k, v in self._faces.items()
                           if (o := objs.get(k[0])) is not None and o.zone is not None}
            self._faces_limit = max(FACES_KEPT, 2 * len(self._faces))
        face = views.face_of(t, obj, viewer, False, slot[1])
        made = (face, _face(face, 0, None))
        self._faces[slot] = (stamp, made, self._gen)
        return made

    def _sideboards(self, viewer: str | None) -> dict[str, Any]:
        """Each sideboard's cards for its player (and a judge who sees all), else how
        many there are (400.10a)."""
        t = self.table
        held, made = self._sides
        if held is not t.sideboards:
            made = {}
            self._sides = (t.sideboards, made)
        sides = made.get(viewer)
        if sides is None:
            sides = made[viewer] = {
                p: [c.to_json() for c in side] if isinstance(side, list) else side
                for p in t.players for side in [views.sideboard(t, p, viewer)]}
        return sides

    def public_facts(self) -> dict[str, Any]:
        """The facts of a view every seat is told alike."""
        t = self.table
        req = self.look_request
        return {"room": self.id, "edition": t.edition.id,
                # the replacement effects in force: public, as on a real table
                "effects": [{"label": e.label, "source": e.source, "watch": e.watch,
                             "instead": e.instead, "from": e.origin, "affects": e.affects,
                             "optional": e.optional} for e in views.effects_in_force(t)],
                "players": list(t.players), "active": t.active, "turn": t.turn,
                "phase": t.phase, "life": dict(t.life),
                "player_counters": {p: [[k, n] for k, n in c.items()]
                                    for p, c in t.player_counters.items() if c},
                "mulligans": {p: n for p, n in t.mulligans.items() if n},
                "connected": sorted(s_ for s_, n in self.connected.items() if n > 0),
                "undo_request": None if self.undo_request is None else {
                    "by": self.undo_request[0], "agreed": sorted(self.undo_request[1])},
                # a request to look through a library: public (who asks whom), the count
                # too (the top N); answered by the library's owner
                "look_request": None if req is None else {
                    "by": req[0], "whose": req[1], "count": req[2]},
                "seed": self.seed,  # the deal's seed, when the room was given a fixed one
                "last_roll": list(t.last_roll) if t.last_roll else None}

    def update(self, seat: str, zones: set[ZoneKey] | None, log_from: int,
               chat_from: int | None = None, public: dict[str, Any] | None = None,
               faces: dict[Any, Any] | None = None, known: Known | None = None,
               delta: bool = False) -> dict[str, Any]:
        """What changed for ``seat`` since it was last sent the table: the zones that
        changed (all of them when ``zones`` is None), the log lines from ``log_from``,
        the chat lines from ``chat_from``, and the small facts (life, turn, who is
        connected) in full."""
        return self.view(seat, zones=zones, log_from=log_from,
                         chat_from=self.chat_said if chat_from is None else chat_from,
                         public=public, faces=faces, known=known, delta=delta)

    # ---- autosave -----------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The room as its snapshot holds it (``text``, read back)."""
        return json.loads(self.text())  # type: ignore[no-any-return]

    def text(self) -> str:
        """The room's snapshot: its own fields, then the table's save (saves.text: the
        history and the log put in as kept)."""
        return f'{compact(self._fields())[:-1]},"table":{saves.text(self.table)}}}'

    def _fields(self) -> dict[str, Any]:
        return {"id": self.id, "code": self.code, "judge_sees_all": self.judge_sees_all,
                "tokens": dict(self.tokens), "actors": list(self.actors),
                "chat": [list(c) for c in self.chat], "applied": self.applied,
                "undo_request": None if self.undo_request is None else [
                    self.undo_request[0], sorted(self.undo_request[1])],
                "looked": {s: list(ids) for s, ids in self.looked.items()},
                "invites": dict(self.invites), "seed": self.seed,
                "look_request": None if self.look_request is None else list(
                    self.look_request),
                "chat_base": self.chat_base, "idle_since": self.idle_since}

    @classmethod
    def from_json(cls, d: Any, source: str) -> Room:
        if not isinstance(d, dict):
            raise InputError(f"{source}: not a room")
        try:
            table = saves.from_json(d["table"], source)
            room = cls(str(d["id"]), str(d["code"]), table, bool(d["judge_sees_all"]),
                       {str(k): str(v) for k, v in dict(d["tokens"]).items()},
                       [str(a) for a in d["actors"]],
                       [(str(s), str(x)) for s, x in d["chat"]])
            room.applied = int(d.get("applied", 0))
            if isinstance(d.get("invites"), dict):
                room.invites = {str(k): str(v) for k, v in d["invites"].items()}
            room.seed = None if d.get("seed") is None else int(d["seed"])
            look = d.get("look_request")
            if look is not None:
                room.look_request = (str(look[0]), str(look[1]),
                                     None if look[2] is None else int(look[2]))
            room.chat_base = int(d.get("chat_base", 0))
            room.idle_since = float(d.get("idle_since", time.time()))
            room.looked = {str(s): [int(i) for i in ids]
                           for s, ids in dict(d.get("looked", {})).items()}
            req = d.get("undo_request")
            if req is not None:  # asked before the snapshot, answered after it
                room.undo_request = (str(req[0]), frozenset(str(x) for x in req[1]))
        except (KeyError, TypeError, ValueError) as e:
            raise InputError(f"{source}: a damaged room ({type(e).__name__})") from None
        return room


def _chooser(intent: intents.Move | intents.MoveMany) -> Any:
    """The mover's choice of replacement effects (``apply``), or every one (None)."""
    return None if intent.apply is None else chooser_from_labels(list(intent.apply))


def touched(t: Table, events: Any) -> set[ZoneKey] | None:
    """The zones a result's events changed; None when one of them does not say. A refused
    card changed nothing: its zone is not sent again (that would tell others it was
    tried)."""
    out: set[ZoneKey] = set()
    for e in events:
        if e.kind == REJECTED:  # (the module's name: an enum's attribute costs more)
            continue
        if e.src is None and e.dst is None:
            obj = t.objs.get(e.obj) if e.obj is not None else None
            if obj is None or obj.zone is None:
                if e.cid is None and e.obj is None:
                    continue  # a die roll, a life total: no zone
                return None
            out.add(obj.zone)
            continue
        for key in (e.src, e.dst):
            if key is not None and key in t.zones:
                out.add(key)
    return out


def _line(entry: LogEntry, viewer: str | None) -> dict[str, Any] | None:
    """A line of the log as a seat may read it: the rules it cites only when the seat
    was told the whole sentence; None for a line the seat is not told at all (another
    player's refused move of a card this seat may not see)."""
    text, cites, notes = entry.told(viewer)
    if not text:
        return None
    line: dict[str, Any] = {"tag": entry.tag, "text": text}
    if cites:
        line["cites"] = list(cites)
    if notes:
        line["notes"] = list(notes)
    if entry.sub:  # one line of an action moving several cards; the first carries its heading
        line["sub"] = True
        if entry.lead:
            line["lead"] = entry.lead
    return line


class _Sent(dict[int, tuple[dict[str, Any], int | None]]):
    """A zone's cards as a connection was last sent them (its ids -> (face as made,
    host)); for a zone every seat sees alike (``Room._plain_zone``), also its objects,
    their faces as made and the ids they were sent by, in the zone's order."""

    __slots__ = ("mades", "oids", "order")

    def __init__(self) -> None:
        super().__init__()
        self.oids: tuple[int, ...] | None = None
        self.mades: list[Any] = []
        self.order: list[int] = []


def _zone_order(key: ZoneKey) -> tuple[str, str]:
    """An update's zones in an order that does not change from one run to the next."""
    return (key[0] or "", key[1])


def _stamp(t: Table, o: Obj) -> tuple[Any, ...]:
    """All that ``views.face_of`` reads of an object and of what it is attached to
    (with the seat, its place in the zone, and the table's printings and commanders):
    the same stamp, the same face."""
    h = o.attached_to
    host = None if h is None else t.objs.get(h)
    return (o.zone, o.cid, o.card, o.owner, o.controller, o.face_down, o.tapped,
            o.counters, o.token, o.pile, o.revealed, o.pt, o.note, o.place, o.stickers,
            h, host is not None and host.zone is not None)


def _face(f: Seen | Hidden, sid: int, host: int | None) -> dict[str, Any]:
    """A card as a seat is sent it, by the seat's id ``sid`` (``host``: the seat's id of
    what it is attached to): a hidden one with only its public facts."""
    common = {"id": sid, "tapped": f.tapped, "face_down": f.face_down,
              "owner": f.owner, "controller": f.controller,
              "counters": [list(c) for c in f.counters], "revealed": f.revealed,
              "position": f.position, "note": f.note, "host": host,
              "place": list(f.place) if f.place is not None else None}
    if isinstance(f, Hidden):
        return {**common, "hidden": True}
    d: dict[str, Any] = {**common, "hidden": False, "name": f.name, "token": f.token,
                         "pt": list(f.pt) if f.pt else None}
    if f.commander:
        d["commander"] = True
    if f.stickers:
        d["stickers"] = list(f.stickers)
    if f.card is not None:
        d["types"] = list(f.card.types)
        d["subtypes"] = list(f.card.subtypes)
        d["mana_cost"] = f.card.mana_cost
        if f.card.supertypes:
            d["supertypes"] = list(f.card.supertypes)
        if f.card.colors:
            d["colors"] = list(f.card.colors)
        if f.card.power is not None and f.card.toughness is not None:
            d["printed"] = [f.card.power, f.card.toughness]
    return d
