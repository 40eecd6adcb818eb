"""Issue 36: undo and redo tell an action again from the lines it was told in when
done (not worded anew): the journal is the same either way, for every viewer."""

from __future__ import annotations

import random

from tabletop.cards import demo

ZONES = ("hand", "battlefield", "graveyard", "exile", "library", "stack")


def _play(forget: bool) -> list[tuple[object, ...]]:
    t = demo.new_game(players=("Ann", "Ben"), seed=4)
    rng = random.Random(9)
    for _ in range(1500):
        r = rng.random()
        cids = [c for c in t.current if t.live(c) is not None]
        if r < 0.45:
            t.move(rng.choice(cids), rng.choice(ZONES), rng.choice(t.players))
        elif r < 0.55:
            t.move_many(rng.sample(cids, 3), rng.choice(ZONES), rng.choice(t.players))
        elif r < 0.62 and t.zones[("Ann", "library")]:
            t.draw("Ann", rng.randint(1, 3))
        elif r < 0.68:
            t.set_tapped(rng.choice(cids), rng.random() < 0.5)
        elif r < 0.85:
            t.undo()
        else:
            t.redo()
        if forget:  # as actions read from a save are: worded anew when undone
            for a in [*t.history[-3:], *t.redo_stack[-3:]]:
                a.told = None
    return [tuple(e) for e in t.journal]


def test_undo_and_redo_tell_the_same_lines_as_wording_them_anew():
    kept, anew = _play(False), _play(True)
    assert kept == anew
    assert sum(1 for e in kept if e[0] == "undone") > 100
    assert sum(1 for e in kept if e[0] == "redone") > 20
