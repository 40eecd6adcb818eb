"""A connection that joins with ``changes: "cards"`` is sent each changed zone as its
order of ids and only the cards that are new to it or changed. The contract: merged
into its view (mirror.merge), every update gives the very view a connection sent whole
zones has, and the very view the seat would be sent afresh, whatever happened."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.cards import demo
from tabletop.net import mirror, protocol
from tabletop.net.rooms import RoomError
from tabletop.net.server import Server, _Conn


class Socket:
    def __init__(self) -> None:
        self.remote_address = ("127.0.0.1", 1)
        self.view: dict[str, Any] | None = None
        self.frames: list[dict[str, Any]] = []

    async def send(self, frame: str) -> None:
        msg = json.loads(frame)
        self.frames.append(json.loads(frame))  # as sent (``view`` has updates merged in)
        if msg["type"] == "view":
            self.view = msg
        elif msg["type"] == "update" and self.view is not None:
            mirror.merge(self.view, msg)


def zones_of(view: dict[str, Any]) -> dict[tuple[Any, str], list[dict[str, Any]]]:
    return {(z["player"], z["zone"]): z["cards"] for z in view["zones"]}


def facts_of(view: dict[str, Any]) -> dict[str, Any]:
    """A view but its zones and what only numbers its frames."""
    return {k: v for k, v in view.items()
            if k not in ("zones", "type", "v", "seq", "rid", "log_from", "chat_from")}


def cards(view: dict[str, Any], player: Any, zone: str) -> list[dict[str, Any]]:
    return zones_of(view).get((player, zone), [])


async def seated(server: Server, room: Any, seat: str, changes: str | None,
                 token: str | None = None) -> _Conn:
    conn = _Conn(Socket(), "127.0.0.1")
    msg: dict[str, Any] = {"type": "join", "room": room.id, "code": room.code, "seat": seat}
    if token is not None:
        msg["token"] = token
    elif seat in room.invites:
        msg["invite"] = room.invites[seat]
    if changes is not None:
        msg["changes"] = changes
    await server._handle(conn, msg, None)
    return conn


def intention(view: dict[str, Any], seat: str, pick: int, kind: int) -> dict[str, Any]:
    """One of many kinds of intention, on the cards ``seat`` was sent."""
    hand = cards(view, seat, "hand")
    mine = [c for c in cards(view, None, "battlefield") if c["controller"] == seat]
    grave = cards(view, seat, "graveyard")

    def one(pile: list[dict[str, Any]]) -> int:
        return pile[pick % len(pile)]["id"]
    choices: list[dict[str, Any]] = [{"action": "draw", "count": 1 + pick % 3}]
    if hand:
        choices += [{"action": "move", "id": one(hand), "zone": "battlefield"},
                    {"action": "move", "id": one(hand), "zone": "graveyard"},
                    {"action": "move", "id": one(hand), "zone": "library",
                     "position": "top"},
                    {"action": "move", "id": one(hand), "zone": "battlefield",
                     "face_down": True}]
    if mine:
        choices += [{"action": "tap", "id": one(mine), "tapped": pick % 2 == 0},
                    {"action": "counters", "id": one(mine), "kind": "+1/+1", "delta": 1},
                    {"action": "note", "id": one(mine), "text": f"note {pick}"},
                    {"action": "move", "id": one(mine), "zone": "graveyard"},
                    {"action": "move", "id": one(mine), "zone": "hand"},
                    {"action": "face", "id": one(mine), "down": pick % 2 == 1},
                    {"action": "pt", "id": one(mine), "text": f"{pick % 5}/{pick % 7}"},
                    {"action": "place", "ids": [one(mine)], "at": [[pick % 9, pick % 4]]}]
        everyone = cards(view, None, "battlefield")
        if len(everyone) > 1:  # onto any permanent the seat sees, or off it
            host = everyone[(pick + 1) % len(everyone)]["id"]
            choices += [{"action": "attach", "id": one(mine),
                         "host": None if pick % 3 == 0 else host}]
        choices += [{"action": "arrow", "id": one(mine), "to": "Ann" if pick % 2 else
                     everyone[pick % len(everyone)]["id"]}, {"action": "clear_arrows"}]
    if hand:  # (shown to one player, or to everyone)
        choices += [{"action": "show", "ids": [one(hand)],
                     **({"to": "Ben" if seat == "Ann" else "Ann"} if pick % 2 else {})}]
    if grave:
        choices += [{"action": "move", "id": one(grave), "zone": "library",
                     "position": "bottom"},
                    {"action": "move", "id": one(grave), "zone": "exile"}]
    side = view.get("sideboards", {}).get(seat)
    if side and isinstance(side, list):  # a card of the seat's sideboard wished for
        choices += [{"action": "bring_in", "name": side[pick % len(side)]["name"]}]
    choices += [{"action": "shuffle"}, {"action": "mill", "count": 2},
                {"action": "token", "name": "Saproling", "types": ["Creature"],
                 "power": "1", "toughness": "1", "count": 2},
                {"action": "look", "count": 3}, {"action": "undo"}]
    return choices[kind % len(choices)]


async def play(steps: list[tuple[int, int, int]]) -> None:
    server = Server(None)
    game = demo.new_game(players=("Ann", "Ben"), seed=7)
    some = [o.card for o in game.objs.values()][:6]  # sideboards to wish from
    game.sideboards = {"Ann": some[:3], "Ben": some[3:]}
    room = server.add_room(game)
    ann_cards = await seated(server, room, "Ann", protocol.Changes.CARDS)
    assert ann_cards.ws.frames[0]["type"] == "joined"
    token = ann_cards.ws.frames[0]["token"]
    ann_zones = await seated(server, room, "Ann", None, token=token)
    ben_cards = await seated(server, room, "Ben", "cards")
    ben_zones = await seated(server, room, "Ben", "zones",
                             token=ben_cards.ws.frames[0]["token"])
    watch_cards = await seated(server, room, "spectator", "cards")
    watch_zones = await seated(server, room, "spectator", None)
    pairs = [(ann_cards, ann_zones), (ben_cards, ben_zones), (watch_cards, watch_zones)]
    before = {id(c): len(c.ws.frames) for pair in pairs for c in pair}
    for rid, (who, pick, kind) in enumerate(steps, 1):
        actor = (ann_zones, ben_cards)[who % 2]
        msg = intention(actor.ws.view, actor.seat, pick, kind)
        refused = False
        try:
            await server._handle(actor, {"type": "act", "rid": rid, **msg}, rid)
        except RoomError as e:  # a refusal (the rules, nothing to undo): no change sent
            assert e.code in tuple(protocol.Code), e
            refused = True  # (its line in the log comes with the next update)
        for by_cards, by_zones in pairs:
            merged = zones_of(by_cards.ws.view)
            assert merged == zones_of(by_zones.ws.view), (msg, by_cards.seat)
            fresh = json.loads(json.dumps(room.view(by_cards.seat)))
            assert merged == zones_of(fresh), (msg, by_cards.seat)
            for conn in (by_cards, by_zones) if not refused else ():  # and every other
                # fact of the view too:
                # the seat's own (arrows, sideboards, whether it may undo), the log's
                # lines as the seat reads them, the public facts
                assert facts_of(conn.ws.view) == facts_of(fresh), (msg, conn.seat)
    for by_cards, by_zones in pairs:  # never more than whole zones (each card once)
        sent_cards = sum(len(json.dumps([{k: v for k, v in z.items() if k != "order"}
                                         for z in f["zones"]])) for f in by_cards.ws.frames[
            before[id(by_cards)]:] if f["type"] == "update")
        sent_zones = sum(len(json.dumps(f["zones"])) for f in by_zones.ws.frames[
            before[id(by_zones)]:] if f["type"] == "update")
        assert sent_cards <= sent_zones + 60 * len(steps)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 60), st.integers(0, 30)),
                min_size=1, max_size=25))
def test_merged_card_changes_give_the_whole_view(steps):
    asyncio.run(play(steps))


def test_a_tap_sends_one_card_not_the_battlefield():
    async def run() -> tuple[dict[str, Any], dict[str, Any]]:
        server = Server(None)
        room = server.add_room(demo.new_game(players=("Ann", "Ben"), seed=7))
        by_cards = await seated(server, room, "Ann", "cards")
        by_zones = await seated(server, room, "Ann", None,
                                token=by_cards.ws.frames[0]["token"])
        for rid, card in enumerate(cards(by_zones.ws.view, "Ann", "hand"), 1):
            try:
                await server._handle(by_zones, {"type": "act", "rid": rid, "action": "move",
                                                "id": card["id"], "zone": "battlefield"}, rid)
            except RoomError as e:  # an instant stays in hand
                assert e.code == protocol.Code.REFUSED
        lands = cards(by_zones.ws.view, None, "battlefield")
        assert len(lands) >= 3
        await server._handle(by_zones, {"type": "act", "rid": 99, "action": "tap",
                                        "id": lands[1]["id"], "tapped": True}, 99)
        return by_cards.ws.frames[-1], by_zones.ws.frames[-1]
    small, whole = asyncio.run(run())
    battlefield = next(z for z in small["zones"] if z["zone"] == "battlefield")
    assert [c["tapped"] for c in battlefield["cards"]] == [True]
    assert len(battlefield["order"]) >= 3
    assert len(next(z for z in whole["zones"] if z["zone"] == "battlefield")["cards"]) == len(
        battlefield["order"])
    # and of the view's other fields only those that changed: not the effects in force,
    # the players or the room, sent with the view
    for update in (small, whole):
        assert not {"effects", "players", "room", "edition", "seed"} & set(update), update


def test_a_card_changed_past_the_room_or_by_an_undo_is_sent_changed():
    """A public card's face is kept from one update to the next, and a card nothing
    changed is not looked at again. Changed by a seat's action, by an undo and a redo,
    or by the table itself past the room, the next update still sends it as it is."""
    async def run() -> None:
        server = Server(None)
        room = server.add_room(demo.new_game(players=("Ann", "Ben"), seed=7))
        t = room.table
        ann = await seated(server, room, "Ann", None)
        ben = await seated(server, room, "Ben", "cards")
        for rid, card in enumerate(cards(ann.ws.view, "Ann", "hand"), 1):
            with contextlib.suppress(RoomError):  # an instant stays in hand
                await server._handle(ann, {"type": "act", "rid": rid, "action": "move",
                                           "id": card["id"], "zone": "battlefield"}, rid)
        land = cards(ann.ws.view, None, "battlefield")[0]
        cid = t.objs[room.seat_ids("Ann").back[land["id"]]].cid
        battlefield = {(None, "battlefield")}

        def tapped() -> bool:
            merged = zones_of(ben.ws.view)
            assert merged == zones_of(json.loads(json.dumps(room.view("Ben"))))
            return next(c["tapped"] for c in merged[(None, "battlefield")]
                        if c["name"] == land["name"] and c["id"] == room.id_for(
                            "Ben", t.obj_of(cid).id))

        async def tap(down: bool) -> None:
            await server._handle(ann, {"type": "act", "action": "tap", "id": land["id"],
                                       "tapped": down}, None)

        async def roll() -> None:  # an action that names no card
            await server._handle(ann, {"type": "act", "action": "roll", "sides": 6}, None)
        await roll()
        assert tapped() is False
        await tap(True)
        assert tapped() is True
        await server._handle(ann, {"type": "act", "action": "undo"}, None)
        assert tapped() is False
        await roll()
        await tap(True)
        assert tapped() is True
        t.undo()  # past the room, which then sends the zone again
        await server.broadcast(room, battlefield)
        assert tapped() is False
        t.redo()
        await server.broadcast(room, battlefield)
        assert tapped() is True
        t.set_tapped(cid, False)
        await server.broadcast(room, battlefield)
        assert tapped() is False
        await roll()
        assert tapped() is False
        await tap(True)
        assert tapped() is True
    asyncio.run(run())


def test_an_attached_card_is_sent_changed_when_its_host_leaves():
    """An Aura's face names what it is attached to: when the host leaves, the Aura is
    sent again, though nothing the action changed was the Aura itself."""
    from tabletop.engine import Table
    from tabletop.engine.model import Card

    async def run() -> None:
        t = Table(("Ann", "Ben"), edition="cr-2025")
        bears = t.add_card(Card("Grizzly Bears", types=("Creature",)), "Ann", "battlefield")
        rancor = t.add_card(Card("Rancor", types=("Enchantment",), subtypes=("Aura",)),
                            "Ann", "battlefield")
        t.attach(rancor.cid, bears.cid)
        server = Server(None)
        room = server.add_room(t)
        ann = await seated(server, room, "Ann", "cards")
        ben = await seated(server, room, "Ben", "cards")
        for rid, sides in enumerate((6, 20), 1):  # faces kept, and kept again
            await server._handle(ann, {"type": "act", "action": "roll", "sides": sides},
                                 rid)
        await server._handle(ann, {"type": "act", "action": "move", "zone": "graveyard",
                                   "id": room.id_for("Ann", t.obj_of(bears.cid).id)}, 3)
        for conn in (ann, ben):
            assert zones_of(conn.ws.view) == zones_of(json.loads(json.dumps(
                room.view(conn.seat))))
        aura = next(c for c in cards(ben.ws.view, None, "battlefield")
                    if c["name"] == "Rancor")
        assert aura["host"] is None
    asyncio.run(run())


def test_an_unknown_way_of_sending_changes_is_refused():
    try:
        protocol.parse(json.dumps({"v": 1, "type": "join", "room": "r", "code": "c",
                                   "seat": "Ann", "changes": "diff"}))
    except protocol.ProtocolError as e:
        assert e.code == protocol.Code.BAD_FRAME
    else:
        raise AssertionError("a join with changes 'diff' was taken")


def test_an_answer_carries_its_rid_to_the_asker_alone_and_each_seat_its_own_numbers():
    """Seats are often sent the same update (a roll): each still gets its own ``seq``
    (1, 2, ... a connection) and ``log_from`` (the lines it was sent before), and only
    the asker the ``rid`` of its request."""
    async def go() -> list[_Conn]:
        server = Server(None)
        room = server.add_room(demo.new_game(players=("Ann", "Ben"), seed=7))
        ann = await seated(server, room, "Ann", "cards")
        ben = await seated(server, room, "Ben", None)
        watch = await seated(server, room, "spectator", "cards")
        await server._handle(ben, {"type": "chat", "text": "hi"}, None)
        for rid in ("r-1", 7, "r-1"):
            await server._handle(ann, {"type": "act", "rid": rid, "action": "roll",
                                       "sides": 6}, rid)
        await server._handle(ben, {"type": "act", "rid": 9, "action": "life",
                                   "delta": -1}, 9)
        return [ann, ben, watch]
    conns = asyncio.run(go())
    for conn in conns:
        view = next(f for f in conn.ws.frames if f["type"] == "view")
        updates = [f for f in conn.ws.frames if f["type"] == "update"]
        assert [u["seq"] for u in updates] == list(range(1, len(updates) + 1))
        lines = len(view["log"])
        for u in updates:
            assert u["log_from"] == lines
            lines += len(u["log"])
        rids = [u.get("rid") for u in updates[-4:]]
        assert rids == (["r-1", 7, "r-1", None] if conn.seat == "Ann" else
                        [None, None, None, 9] if conn.seat == "Ben" else [None] * 4)
        assert all("rid" not in u for u in updates[:-4])
