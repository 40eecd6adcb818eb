"""Room logic without a network: what a snapshot keeps, and what a replay redoes."""

from __future__ import annotations

import json

from tabletop.cards import demo
from tabletop.net.rooms import Room


def test_an_undo_request_survives_a_snapshot_and_is_answered_after_it():
    room = Room("r", "CODE", demo.new_game(players=("Ann", "Ben")))
    room.act("Ann", {"action": "roll", "sides": 6})
    room.act("Ben", {"action": "undo"})  # asks: Ann's roll is not Ben's to undo
    assert room.undo_request == ("Ben", frozenset({"Ben"}))
    again = Room.from_json(json.loads(json.dumps(room.to_json())), "snapshot")
    assert again.undo_request == room.undo_request and again.actors == ["Ann"]
    again.act("Ann", {"action": "agree_undo"})
    assert again.table.history == [] and again.undo_request is None


def test_the_log_cites_the_rule_to_the_seats_told_the_whole_line():
    """A stolen creature that dies goes to its owner's graveyard: both players see it
    happen in public, and both read the rule; a card drawn is named only to its drawer."""
    from tabletop.engine import Table
    from tabletop.engine.model import Card
    t = Table(("Ann", "Ben"))
    bear = t.add_card(Card("Grizzly Bears", types=("Creature",)), "Ben", "battlefield",
                      controller="Ann")
    t.add_card(Card("Forest", types=("Land",)), "Ann", "library")
    room = Room("r", "CODE", t)
    room.act("Ann", {"action": "move", "id": bear.id, "zone": "graveyard", "player": "Ann",
                     "position": "top"})
    for seat in ("Ann", "Ben", "spectator"):
        line = room.view(seat)["log"][-1]
        assert line["tag"] == "done" and "Ben's graveyard" in line["text"]
        assert "400.3" in line["cites"], seat
    room.act("Ann", {"action": "draw", "count": 1})
    ann, ben = room.view("Ann")["log"][-1], room.view("Ben")["log"][-1]
    assert "Forest" in ann["text"] and "Forest" not in ben["text"]
    assert "cites" not in ben and "notes" not in ben
