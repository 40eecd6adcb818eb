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
