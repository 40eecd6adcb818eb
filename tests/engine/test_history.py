"""History: undo and redo to any depth, ids that never repeat, seeded replays."""

import random

from tabletop.engine import saves
from tests.helpers import BEARS, FOREST, table


def _random_game(seed: int, n: int):
    t = table(seed=seed)
    for p in t.players:
        for _ in range(10):
            t.add_card(FOREST, p, "library")
    rng = random.Random(seed)
    zones = ["hand", "battlefield", "graveyard", "exile", "library", "stack"]
    for _ in range(n):
        cids = [c for c in t.current if t.live(c) is not None]
        roll = rng.random()
        if roll < 0.1:
            t.shuffle(rng.choice(t.players))
        elif roll < 0.2:
            t.draw(rng.choice(t.players))
        else:
            t.move(rng.choice(cids), rng.choice(zones), rng.choice(t.players))
    return t


def test_undo_all_then_redo_all_restores_the_same_table():
    t = _random_game(5, 200)
    before = saves.to_json(t)
    lines = list(t.journal)
    n = len(t.history)
    for _ in range(n):
        assert t.undo() is not None
    assert t.undo() is None
    for _ in range(n):
        t.redo()
    after = saves.to_json(t)
    # the log only grows: what was written stays, undo and redo add their own lines
    assert t.journal[:len(lines)] == lines
    assert {e.tag for e in t.journal[len(lines):]} == {"undone", "redone"}
    del before["journal"], after["journal"]
    assert after == before


def test_undo_restores_zones_exactly():
    t = table()
    a = t.add_card(BEARS, "Alice", "battlefield", tapped=True)
    snapshot = {k: list(v) for k, v in t.zones.items()}
    t.move(a.cid, "graveyard")
    t.move(a.cid, "exile")
    t.undo()
    t.undo()
    assert {k: list(v) for k, v in t.zones.items()} == snapshot
    assert t.obj_of(a.cid).tapped


def test_object_ids_never_repeat_after_undo():
    t = table()
    a = t.add_card(BEARS, "Alice", "hand")
    first = t.move(a.cid, "graveyard").events[0].obj
    t.undo()
    second = t.move(a.cid, "graveyard").events[0].obj
    assert second > first


def test_new_action_clears_redo():
    t = table()
    a = t.add_card(BEARS, "Alice", "hand")
    t.move(a.cid, "graveyard")
    t.undo()
    assert t.can_redo()
    t.move(a.cid, "exile")
    assert not t.can_redo()


def test_seeded_game_replays_identically():
    assert saves.to_json(_random_game(9, 150)) == saves.to_json(_random_game(9, 150))


def test_undo_status_names_the_action():
    t = table()
    a = t.add_card(BEARS, "Alice", "hand")
    t.move(a.cid, "graveyard")
    undo, redo = t.undo_status()
    assert "Grizzly Bears" in undo and "graveyard" in undo and redo is None


def test_refused_attempts_are_kept_in_their_place_and_forgotten_with_their_branch():
    from tabletop.cards import builtin
    from tabletop.engine import Table
    t = Table(("Alice", "Bob"), "cr-2016")
    plow = t.add_card(builtin.lookup("Plow Under"), "Alice", "hand")
    bears = t.add_card(builtin.lookup("Grizzly Bears"), "Alice", "hand")
    t.start_here()
    assert t.move(plow.cid, "battlefield").rejected  # 400.4a
    assert [(n, a.name, a.params["cids"]) for n, a in t.refused] == [(0, "move", [plow.cid])]
    assert t.history == []  # nothing changed: nothing to undo
    t.move(bears.cid, "battlefield")
    t.move(plow.cid, "battlefield")
    assert [n for n, _ in t.refused] == [0, 1]
    t.undo()
    t.redo()
    assert [n for n, _ in t.refused] == [0, 1]  # undo and redo keep the story
    t.undo()
    t.move(bears.cid, "graveyard")  # the Bears' move is gone for good, and what came after
    assert [n for n, _ in t.refused] == [0]
    t.start_here()
    assert t.refused == []
