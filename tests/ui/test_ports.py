"""The controller's intents and their ports (issue 31): a gesture is one intent; at the
desk the local port carries it out, at a network table the session's port sends that
same intent, encoded, and changes nothing on screen until the host answers."""

from __future__ import annotations

import ast
from pathlib import Path

from tabletop.cards import demo
from tabletop.engine import Card, Result, intents
from tabletop.net.protocol import Code
from tabletop.net.rooms import Room, RoomError
from tabletop.ui.controller import TableController
from tabletop.ui.ports import RemotePort

UI = Path(__file__).resolve().parents[2] / "tabletop" / "ui"


class Wire:
    """A network seat as far as the port needs one: what it would send."""

    def __init__(self, c: TableController, seat: str) -> None:
        self.c, self.seat, self.view = c, seat, {"zones": []}
        self.board = None  # no view yet: the window draws the table it had
        self.sent: list[dict] = []
        self.port = RemotePort(self)

    def send_intent(self, intent: intents.Intent) -> Result:
        self.sent.append(intent.encode())
        return Result(())


def _at_a_network_table(qapp):
    c = TableController(demo.new_game(players=("Ann", "Ben")))
    c.viewer = "Ann"
    wire = Wire(c, "Ann")
    c.session = wire
    said: list[str] = []
    c.message.connect(said.append)
    return c, wire, said


def test_a_gesture_at_a_network_table_sends_its_intent_and_changes_nothing_here(qapp):
    c, wire, said = _at_a_network_table(qapp)
    t = c.table
    hand = [o.cid for o in t.objects_in(("Ann", "hand"))]
    history = len(t.history)
    c.set_life("Ann", 15)
    c.tap(hand[0], True)
    c.drop_many(hand[:1], "graveyard", "Ann")  # one card: a move
    c.drop(hand[1], "battlefield", None, at={hand[1]: (40.0, 50.0)})
    c.create_tokens(Card("Goblin", ("Creature",), ("Goblin",), power="1", toughness="1"),
                    "Ann", 2)
    c.next_turn(untap=False)
    assert wire.sent == [
        {"action": "life", "delta": -5, "player": "Ann"},
        {"action": "tap", "id": hand[0], "tapped": True},
        {"action": "move", "id": hand[0], "zone": "graveyard", "player": "Ann",
         "position": "top"},
        {"action": "move", "id": hand[1], "zone": "battlefield", "position": "top",
         "at": [40.0, 50.0]},
        {"action": "token", "name": "Goblin", "types": ["Creature"], "subtypes": ["Goblin"],
         "count": 2, "tapped": False, "power": "1", "toughness": "1", "player": "Ann"},
        {"action": "next_turn", "untap": False}]
    assert len(t.history) == history and t.life["Ann"] == 20  # the host decides
    assert not said


def test_a_network_seat_acts_for_itself_and_the_host_keeps_the_history(qapp):
    c, wire, said = _at_a_network_table(qapp)
    c.draw("Ben")
    assert wire.sent == [] and said == ["At a network table you act for your own seat only."]
    assert c.undo() is False and wire.sent == [{"action": "undo"}]
    assert c.redo() is False and c.take_back() is False
    before = c.table
    c.new_table()
    assert c.table is before and "leave it first" in said[-1]


def test_at_the_desk_the_same_intents_change_the_table(qapp):
    c = TableController(demo.new_game(players=("Ann", "Ben")))
    c.viewer = "Ann"
    t = c.table
    c.set_life("Ann", 15)
    c.add_life("Ann", 2)
    assert t.life["Ann"] == 17
    top = c.top_cids("Ann", 2)
    c.mill("Ann", 2)
    assert {o.cid for o in t.objects_in(("Ann", "graveyard"))} == set(top)
    res = c.draw("Ben")  # Ann's viewpoint does not draw for Ben
    assert res.rejected and len(t.objects_in(("Ben", "hand"))) == 7


def test_the_room_refuses_a_seat_naming_another_player():
    room = Room("r", "CODE", demo.new_game(players=("Ann", "Ben")))
    try:
        room.act("Ann", {"action": "draw", "count": 1, "player": "Ben"})
    except RoomError as e:
        assert e.code == Code.NOT_YOUR_SEAT
    else:
        raise AssertionError("Ann drew for Ben")
    assert len(room.table.objects_in(("Ben", "hand"))) == 7
    room.act("Ann", {"action": "draw", "count": 1, "player": "Ann"})
    assert len(room.table.objects_in(("Ann", "hand"))) == 8


def test_no_class_is_changed_at_import():
    """No method is swapped in with setattr (the controller's were, once)."""
    for path in UI.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "setattr":
                target = ast.unparse(node.args[0])
                assert target == "self", f"{path.name}:{node.lineno}: setattr({target}, …)"


def _deal(t):
    return [[t.objs[i].card.name for i in t.zones[(p, z)]]
            for p in t.players for z in ("hand", "library")]


def test_a_new_table_is_dealt_from_the_systems_randomness(qapp):
    """File > New table deals the demo decks afresh each time: a deal from a seed anyone
    knows (the window once dealt every new table from seed 1) is one anyone can read
    at home once the table is hosted. Given a seed, the deal is that seed's."""
    c = TableController(demo.new_game(players=("Ann", "Ben")))
    deals = []
    for _ in range(3):
        c.new_table()
        deals.append(_deal(c.table))
        assert c.table.seed is None
    known = _deal(demo.new_game(players=("Ann", "Ben"), seed=1))
    assert known not in deals and deals[0] != deals[1] != deals[2]
    c.new_table(seed=1)
    assert _deal(c.table) == known
