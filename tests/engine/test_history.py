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


def test_a_game_not_asked_to_repeat_seeds_each_shuffle_with_62_bits():
    """A shuffle seeded with 32 bits has only 2**32 outcomes: a player who knows a deck
    list could try them all until one matched the cards seen. A game with no fixed seed
    seeds each shuffle and roll with 62 bits; one with a fixed seed keeps 32 bits, and
    deals and shuffles alike from the same seed."""
    from tabletop.engine import Table

    def seeds(t):
        for _ in range(40):
            t.shuffle("Alice")
            t.roll("Alice", 20)
        return [a.params["seed"] for a in t.history]
    wide = seeds(Table(("Alice", "Bob"), seed=None))
    assert all(0 <= s < 2 ** 62 for s in wide)
    assert max(wide) >= 2 ** 32 and len(set(wide)) == len(wide)
    fixed = seeds(Table(("Alice", "Bob"), seed=5))
    assert all(0 <= s < 2 ** 32 for s in fixed)
    assert fixed == seeds(Table(("Alice", "Bob"), seed=5))
    drawn = Table(("Alice", "Bob"), seed=5)
    drawn.draw_unseen()  # seeded afresh from the system: no longer the seed's
    assert seeds(drawn) != fixed and drawn.seed is None


def test_a_saved_unseen_game_goes_on_alike_after_loading():
    """A game with no fixed seed, saved and loaded twice, shuffles alike in both
    copies: the generator's state is in the save (a server's room restored after a
    crash replays its logged intentions to the same outcome)."""
    from tabletop.cards import demo
    t = demo.new_game(seed=None)
    t.shuffle("Alice")
    text = saves.dumps(t)
    a, b = saves.loads(text), saves.loads(text)
    a.shuffle("Alice")
    b.shuffle("Alice")
    assert a.seed is None and a.history[-1].params["seed"] == b.history[-1].params["seed"]
    assert a.zones[("Alice", "library")] == b.zones[("Alice", "library")]
