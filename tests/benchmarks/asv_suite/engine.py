"""The engine's hot paths, tracked across commits with asv (airspeed velocity):
`asv continuous main HEAD` names what got slower (docs/design.md, "Speed"). Only the
standard library and the engine are needed, so each commit is installed alone.

The same figures, printed with their goals, come from tests/benchmarks/bench_engine.py
and bench_saves.py; these are the ones kept from one commit to the next."""

from __future__ import annotations

import random

from tabletop.engine import Card, Table, saves

ZONES = ("hand", "battlefield", "graveyard", "exile", "library", "stack")
PLAYERS = ("Ann", "Ben", "Cat", "Dan")


def played(actions: int, seed: int = 2) -> tuple[Table, list, random.Random]:
    """A table of 4 players x 100 cards after ``actions`` random moves."""
    t = Table(PLAYERS, seed=1)
    for p in PLAYERS:
        for i in range(100):
            t.add_card(Card(f"Card {i}", ("Creature",)), p, "library")
    t.history.clear()
    cids = list(t.current)
    rng = random.Random(seed)
    for _ in range(actions):
        t.move(rng.choice(cids), rng.choice(ZONES), rng.choice(PLAYERS))
    return t, cids, rng


class Moves:
    """One validated move, and one undo and redo, at a history of 10,000 actions."""

    timeout = 300.0

    def setup(self) -> None:
        self.t, cids, rng = played(10_000)
        self.picks = [(rng.choice(cids), rng.choice(ZONES), rng.choice(PLAYERS))
                      for _ in range(4096)]
        self.i = 0

    def time_move(self) -> None:
        cid, zone, player = self.picks[self.i & 4095]
        self.i += 1
        self.t.move(cid, zone, player)

    def time_undo_and_redo(self) -> None:
        self.t.undo()
        self.t.redo()


class Saves:
    """A save and a load of a game of 10,000 actions, and its size."""

    timeout = 300.0

    def setup(self) -> None:
        self.t = played(10_000)[0]
        self.text = saves.dumps(self.t)

    def time_save(self) -> None:
        for a in self.t.history:
            if hasattr(a, "raw"):
                a.raw = None  # a first save: nothing encoded yet
        saves.dumps(self.t)

    def time_load(self) -> None:
        saves.loads(self.text)

    def track_save_bytes(self) -> int:
        return len(self.text)

    track_save_bytes.unit = "bytes"  # type: ignore[attr-defined]


class Memory:
    timeout = 300.0

    def peakmem_game_of_100000_actions(self) -> None:
        played(100_000, seed=3)
