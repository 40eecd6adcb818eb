"""A room: one table on the host, its room code, and its seats.

A seat is a player of the table, the judge (only when the host allows it) or a
spectator. A seat sends intentions; the room checks the seat may make them (Bob
cannot move Alice's cards, draw from her library or act as the judge), the engine
decides, and every seat is sent its own view, built from the engine's views for
that seat alone: a card a seat may not see is sent without a name, a card id or
any characteristic. Pure logic: the server (server.py) carries the frames."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from tabletop.engine import IllegalActionError, InputError, Table, saves, views
from tabletop.engine.model import ORDERED, Card, Obj, ZoneKey, split_pt
from tabletop.engine.state import LogEntry, Result
from tabletop.engine.views import Hidden, Seen
from tabletop.net import protocol
from tabletop.net.protocol import CARD_TOOLS, SEAT_TOOLS

JUDGE_SEAT = "judge"
SPECTATOR = "spectator"
LOG_LINES = protocol.LOG_LINES
CHAT_LINES = 200


class RoomError(Exception):
    """An intention the room refuses: said back to that seat only."""


def new_code() -> str:
    """A room code people can read out: 8 letters and digits, no look-alikes."""
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    return "".join(secrets.choice(alphabet) for _ in range(8))


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

    # ---- seats ------------------------------------------------------------------------
    def join(self, seat: str, code: str, token: str | None = None) -> tuple[str, str]:
        """(seat, token) for a client that gave the room code; a seat already held
        needs its token (a client that dropped rejoins with it)."""
        if not secrets.compare_digest(code.encode(), self.code.encode()):
            raise RoomError("wrong room code")
        if seat == SPECTATOR:
            return SPECTATOR, ""
        if seat == JUDGE_SEAT:
            if not self.judge_sees_all:
                raise RoomError("the host has not opened the judge's seat")
        elif seat not in self.table.players:
            raise RoomError(f"no seat {seat[:40]!r} at this table "
                            f"(players: {', '.join(self.table.players)})")
        held = self.tokens.get(seat)
        if held is not None:
            if token is None or not secrets.compare_digest(token.encode(), held.encode()):
                raise RoomError(f"the seat {seat!r} is taken (rejoin with its token)")
            return seat, held
        self.tokens[seat] = secrets.token_urlsafe(24)
        return seat, self.tokens[seat]

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
    def act(self, seat: str, msg: dict[str, Any]) -> set[ZoneKey] | None:
        """Carry out one intention of ``seat`` through the engine, or RoomError. The
        zones it changed (None: any of them may have)."""
        if seat == SPECTATOR:
            raise RoomError("a spectator watches: it cannot act")
        t = self.table
        before = len(t.history)
        action = msg["action"]
        who = None if seat == JUDGE_SEAT else seat
        try:
            if action == "undo":
                self._undo(seat)
                return None
            if action in ("agree_undo", "refuse_undo"):
                self._answer_undo(seat, action == "agree_undo")
                return None
            if action == "move":
                obj = self._object(msg, who)
                zone = msg.get("zone")
                if not isinstance(zone, str):
                    raise RoomError("move: which zone?")
                position = msg.get("position", "top")
                res = t.move(obj.cid, zone, msg.get("player"), position=position, by=who)
            elif action == "move_many":  # several cards as one action (a group, a mulligan's)
                ids = msg.get("ids") or []
                if len(set(ids)) != len(ids):
                    raise RoomError("move_many: each card once")
                cids = [self._object({"id": i}, who).cid for i in ids]
                zone = msg.get("zone")
                if not isinstance(zone, str):
                    raise RoomError("move_many: which zone?")
                res = t.move_many(cids, zone, msg.get("player"),
                                  position=msg.get("position", "top"),
                                  order=cids if msg.get("ordered") else None, by=who)
            elif action == "tap":
                obj = self._object(msg, who)
                res = t.set_tapped(obj.cid, bool(msg.get("tapped", True)))
            elif action in ("draw", "shuffle", "roll", "life") and who is None:
                raise RoomError("the judge does not draw, shuffle, roll or change life")
            elif action == "draw":
                count = msg.get("count", 1)
                if not 1 <= count <= 100:
                    raise RoomError("draw: 1 to 100 cards")
                res = t.draw(seat, count)
            elif action == "shuffle":
                res = t.shuffle(seat)
            elif action == "roll":
                sides = msg.get("sides", 6)
                if not 2 <= sides <= 1000:
                    raise RoomError("roll: a die has 2 to 1,000 sides")
                res = t.roll(seat, sides)
            elif action == "life":
                delta = msg.get("delta", 0)
                if not -1000 <= delta <= 1000:
                    raise RoomError("life: a change of at most 1,000")
                res = t.set_life(seat, t.life[seat] + delta)
            elif action == "next_turn":
                if who is not None and t.active != who:
                    raise RoomError(f"it is {t.active}'s turn: only they end it")
                res = t.next_turn(untap=True)
            elif action == "phase":  # the phase bar: the turn moves to a step
                if who is not None and t.active != who:
                    raise RoomError(f"it is {t.active}'s turn: only they move it on")
                res = t.set_phase(str(msg.get("phase", "")), draw=bool(msg.get("draw")))
            elif action == "look":  # the top ``count`` of a library, or all of it (a search)
                if who is None:
                    raise RoomError("the judge sees every card already")
                res = self._look(seat, msg)
            elif action == "arrow":  # from a permanent or spell to another, or a player
                res = self._arrow(seat, msg)
            elif action == "clear_arrows":  # the seat's own (the judge's: everyone's)
                res = t.clear_arrows(who)
            elif action in CARD_TOOLS:
                res = self._card_tool(action, self._object(msg, who), msg)
            elif action in SEAT_TOOLS:
                if who is None:
                    raise RoomError("the judge has no counters, tokens or library of their own")
                res = self._seat_tool(action, seat, msg)
            else:  # the protocol lets no other action through
                raise RoomError(f"unknown action {action!r}")
        except (IllegalActionError, InputError) as e:
            raise RoomError(str(e)) from None
        self.actors += [seat] * (len(t.history) - before)
        self._forget({e.src for e in res.events if e.kind == "shuffled"})
        if len(t.history) != before:
            self.undo_request = None  # it asked about an action no longer the last
        if res.rejected and len(t.history) == before:
            text = "; ".join(e.text for e in res.events if e.text) or "refused"
            rules = t.edition.marks(res.cites)
            raise RoomError(f"refused: {text}" + (f" ({rules})" if rules else ""))
        return touched(t, res.events)

    def _card_tool(self, action: str, obj: Obj, msg: dict[str, Any]) -> Result:
        """Counters, face down or up, reveal, a note, a set power/toughness, attaching:
        on a card the seat may handle (as for ``move``)."""
        t = self.table
        if action == "counters":
            kind = " ".join(str(msg.get("kind", "")).split())
            delta = msg.get("delta", 1)
            if not 0 < len(kind) <= 60 or not -1000 <= delta <= 1000:
                raise RoomError("counters: a kind of 1 to 60 characters, a change of at "
                                "most 1,000")
            return t.add_counters(obj.cid, {kind: delta})
        if action == "face":
            return t.turn_face(obj.cid, bool(msg.get("down", True)))
        if action == "reveal":
            return t.reveal(obj.cid, bool(msg.get("revealed", True)))
        if action == "note":
            return t.set_note(obj.cid, str(msg.get("text", "")))
        if action == "pt":
            return t.set_pt(obj.cid, str(msg["text"]) if msg.get("text") else None)
        if action == "ability":  # an ability of it goes on the stack, its controller's
            text = " ".join(str(msg.get("text", "")).split())
            if not 0 < len(text) <= 200:
                raise RoomError("ability: what it does, in 1 to 200 characters")
            return t.put_ability(text, obj.controller or obj.owner, obj.cid)
        # attach: to the object ``host`` (one this seat can see), or unattach
        host = msg.get("host")
        if host is None:
            return t.attach(obj.cid, None)
        target = self._live(host)
        why = t.attach_refusal(obj.cid, target.cid)
        if why is not None:
            return t.refuse(obj, why)
        return t.attach(obj.cid, target.cid)

    def _look(self, seat: str, msg: dict[str, Any]) -> Result:
        t = self.table
        whose = msg.get("player") or seat
        if whose not in t.players:
            raise RoomError(f"look: no player {str(whose)[:40]!r}")
        count = msg.get("count")
        if count is not None and not 1 <= count <= 1000:
            raise RoomError("look: 1 to 1,000 cards, or none to search the library")
        res = t.look(seat, whose, count)
        ids = t.zones[(whose, "library")]  # bottom first
        seen = ids if count is None else ids[len(ids) - min(count, len(ids)):]
        self.looked[seat] = sorted(set(self.looked.get(seat, ())) | set(seen))
        return res

    def _forget(self, shuffled: set[ZoneKey | None]) -> None:
        """What seats looked at and no longer know: cards that left the library (new
        objects), and every card of a library just shuffled."""
        t = self.table

        def known(oid: int) -> bool:
            obj = t.objs.get(oid)
            return obj is not None and obj.zone is not None and obj.zone[1] == "library" \
                and obj.zone not in shuffled and t.current.get(obj.cid) == oid
        for seat, ids in list(self.looked.items()):
            keep = [i for i in ids if known(i)]
            if keep:
                self.looked[seat] = keep
            else:
                del self.looked[seat]

    def _arrow(self, seat: str, msg: dict[str, Any]) -> Result:
        """An arrow ``seat`` draws (the judge draws it for the card's controller): from
        any object on the table to another (``to``, an object id) or to a player."""
        t = self.table
        source = self._live(msg.get("id"))
        to = msg.get("to")
        target: int | str
        if isinstance(to, str):
            if to not in t.players:
                raise RoomError(f"arrow: no player {to[:40]!r}")
            target = to
        else:
            target = self._live(to).cid
        who = source.controller or source.owner if seat == JUDGE_SEAT else seat
        return t.arrow(who, source.cid, target)

    def _live(self, oid: Any) -> Obj:
        """The object of that id, if it is still that object (any seat may name it)."""
        t = self.table
        obj = t.objs.get(oid) if isinstance(oid, int) else None
        if obj is None or obj.zone is None or t.current.get(obj.cid) != obj.id:
            raise RoomError("that card is no longer there")
        return obj

    def _seat_tool(self, action: str, seat: str, msg: dict[str, Any]) -> Result:
        """A player's own counters, tokens and library."""
        t = self.table
        if action == "player_counter":
            value = msg.get("value", 0)
            if not 0 <= value <= 1000:
                raise RoomError("player_counter: a value of 0 to 1,000")
            return t.set_player_counter(seat, str(msg.get("kind", "")), value)
        if action == "mulligan":  # London: the hand into the library, seven new cards;
            return t.mulligan(seat)  # the seat then puts cards on the bottom (move_many)
        if action == "bring_in":  # a card of the seat's sideboard into the game (400.10)
            name = str(msg.get("name", ""))
            card = next((c for c in t.sideboards.get(seat, ()) if c.name == name), None)
            if card is None:
                raise RoomError(f"bring_in: no {name[:60]!r} in {seat}'s sideboard")
            return t.bring_in(card, seat, str(msg.get("zone") or "hand"))
        if action == "move_all":  # a whole zone of the seat's into another (400.11)
            return t.zone_to_zone(seat, str(msg.get("from", "")), str(msg.get("zone", "")),
                                  shuffle=bool(msg.get("shuffle")))
        if action in ("show", "cleanup"):
            ids = msg.get("ids") or []
            objs = [self._live(i) for i in ids]
            if any(o.owner != seat for o in objs) or len(set(ids)) != len(ids):
                raise RoomError(f"{action}: cards of {seat}'s own, each once")
            cids = [o.cid for o in objs]
            if action == "cleanup":  # discard to hand size: these, or the newest in hand
                return t.cleanup(seat, cids or None)
            to = msg.get("to")
            if to is not None and to not in t.players:
                raise RoomError(f"show: no player {str(to)[:40]!r}")
            return t.show(seat, cids, to)
        if action == "mill":
            count = msg.get("count", 1)
            if not 1 <= count <= 1000:
                raise RoomError("mill: 1 to 1,000 cards")
            cids = [c.cid for c in views.top_choices(t, seat, count, views.JUDGE)]
            if not cids:
                raise RoomError(f"{seat}'s library is empty")
            return t.move_many(cids, "graveyard", seat)
        # a token: its facts as the seat gives them (tokens are made up at the table)
        name = " ".join(str(msg.get("name", "")).split())
        if not 0 < len(name) <= 60:
            raise RoomError("token: a name of 1 to 60 characters")
        power, toughness = msg.get("power"), msg.get("toughness")
        if (power is None) != (toughness is None) or (
                power is not None and split_pt(f"{power}/{toughness}") is None):
            raise RoomError("token: a power and a toughness such as 2 and 2, or neither")
        card = Card(name, types=tuple(msg.get("types") or ("Creature",)),
                    subtypes=tuple(msg.get("subtypes", ())), colors=tuple(msg.get("colors", ())),
                    power=power, toughness=toughness)
        return t.create_token(card, seat, tapped=bool(msg.get("tapped", False)),
                              count=msg.get("count", 1))

    def _object(self, msg: dict[str, Any], who: str | None) -> Obj:
        """The object an intention names by the id the seat was shown, if it is still
        that object and the seat may handle it."""
        obj = self._live(msg.get("id"))
        why = views.move_refusal(self.table, obj, who)
        if why is not None:
            raise RoomError(why.split(" (")[0])
        return obj

    def _undo(self, seat: str) -> None:
        """A player takes back their own last action, and the judge any last action;
        another player's last action is taken back when every player agrees (the
        request is shown to all; each answers with agree_undo or refuse_undo)."""
        t = self.table
        if not t.history:
            raise RoomError("nothing to undo")
        last = self.actors[-1] if len(self.actors) == len(t.history) else None
        if seat != JUDGE_SEAT and last != seat:
            self.undo_request = (seat, frozenset({seat}))
            self._answer_undo(seat, True)
            return
        self._take_back()

    def _answer_undo(self, seat: str, agree: bool) -> None:
        if self.undo_request is None:
            raise RoomError("no one has asked to undo")
        if seat not in self.table.players:
            raise RoomError("only the players decide an undo")
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
            self._forget({e.src for e in action.events if e.kind == "shuffled"})
        if self.actors:
            self.actors.pop()
        t.redo_stack.clear()  # over the network, what is undone stays undone
        self.undo_request = None

    def say(self, seat: str, text: str) -> None:
        text = "".join(ch for ch in text if ch >= " " or ch == "\t").strip()
        if not text:
            raise RoomError("an empty chat line")
        self.chat.append((seat, text))
        del self.chat[:-CHAT_LINES]

    # ---- views ------------------------------------------------------------------------
    def view(self, seat: str, zones: set[ZoneKey] | None = None,
             log_from: int | None = None) -> dict[str, Any]:
        """Everything ``seat`` may know, as plain JSON data (only ``zones``, and the log
        from ``log_from``, when given)."""
        t = self.table
        viewer = self.viewer(seat)
        shown = []
        for key, ids in t.zones.items():
            if zones is not None and key not in zones:
                continue
            ordered = key[1] in ORDERED
            known = set(self.looked.get(seat, ())) if key[1] == "library" else set()
            cards = []
            for i, oid in enumerate(reversed(ids), 1):
                if oid in known:  # looked at: its face, for this seat
                    face = _face(views.face_of(t, t.objs[oid], views.JUDGE, True, i))
                    cards.append({**face, "looked": True})
                else:
                    cards.append(_face(views.face_of(t, t.objs[oid], viewer, False,
                                                     i if ordered else None)))
            shown.append({"player": key[0], "zone": key[1], "cards": cards})
        start = len(t.journal) - LOG_LINES if log_from is None else log_from
        log = [_line(entry, viewer) for entry in t.journal[max(0, start):]]
        last = self.actors[-1] if self.actors and len(self.actors) == len(t.history) else None
        return {"room": self.id, "seat": seat, "edition": t.edition.id,
                "players": list(t.players), "active": t.active, "turn": t.turn,
                "phase": t.phase, "life": dict(t.life),
                "player_counters": {p: [[k, n] for k, n in c.items()]
                                    for p, c in t.player_counters.items() if c},
                "mulligans": {p: n for p, n in t.mulligans.items() if n},
                # each sideboard's cards for its player (and a judge who sees all), else
                # how many there are (400.10a)
                "sideboards": {p: [c.to_json() for c in side] if isinstance(side, list)
                               else side for p in t.players
                               for side in [views.sideboard(t, p, viewer)]},
                # (object ids are public: they change with every zone change)
                "arrows": [[a.player, a.source, a.target_player if a.target is None
                            else a.target] for a in views.arrows(t)],
                "zones": shown, "log": log,
                "chat": [[s, x] for s, x in self.chat[-50:]],
                "connected": sorted(s for s, n in self.connected.items() if n > 0),
                "can_undo": bool(t.history) and (seat == JUDGE_SEAT or last == seat),
                "undo_request": None if self.undo_request is None else {
                    "by": self.undo_request[0], "agreed": sorted(self.undo_request[1])},
                "last_roll": list(t.last_roll) if t.last_roll else None}

    def update(self, seat: str, zones: set[ZoneKey] | None, log_from: int
               ) -> dict[str, Any]:
        """What changed for ``seat`` since it was last sent the table: the zones that
        changed (all of them when ``zones`` is None), the log lines from ``log_from``,
        and the small facts (life, turn, who is connected) in full."""
        out = self.view(seat, zones=zones, log_from=log_from)
        out["log_from"] = log_from
        return out

    # ---- autosave -----------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "code": self.code, "judge_sees_all": self.judge_sees_all,
                "tokens": dict(self.tokens), "actors": list(self.actors),
                "chat": [list(c) for c in self.chat], "applied": self.applied,
                "undo_request": None if self.undo_request is None else [
                    self.undo_request[0], sorted(self.undo_request[1])],
                "looked": {s: list(ids) for s, ids in self.looked.items()},
                "table": saves.to_json(self.table)}

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
            room.looked = {str(s): [int(i) for i in ids]
                           for s, ids in dict(d.get("looked", {})).items()}
            req = d.get("undo_request")
            if req is not None:  # asked before the snapshot, answered after it
                room.undo_request = (str(req[0]), frozenset(str(x) for x in req[1]))
        except (KeyError, TypeError, ValueError) as e:
            raise InputError(f"{source}: a damaged room ({type(e).__name__})") from None
        return room


def touched(t: Table, events: Any) -> set[ZoneKey] | None:
    """The zones a result's events changed; None when one of them does not say."""
    out: set[ZoneKey] = set()
    for e in events:
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


def _line(entry: LogEntry, viewer: str | None) -> dict[str, Any]:
    """A line of the log as a seat may read it: the rules it cites only when the seat
    was told the whole sentence."""
    text, cites, notes = entry.told(viewer)
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


def _face(f: Seen | Hidden) -> dict[str, Any]:
    """A card as a seat is sent it: a hidden one with only its public facts."""
    common = {"id": f.id, "tapped": f.tapped, "face_down": f.face_down,
              "owner": f.owner, "controller": f.controller,
              "counters": [list(c) for c in f.counters], "revealed": f.revealed,
              "position": f.position, "note": f.note, "host": f.host}
    if isinstance(f, Hidden):
        return {**common, "hidden": True}
    d: dict[str, Any] = {**common, "hidden": False, "name": f.name, "token": f.token,
                         "pt": list(f.pt) if f.pt else None}
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
