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
    """100 validated moves, and 100 undos and redos, from a history of 10,000 actions.
    A hundred at a time: one move is a few microseconds, less than asv's own work
    around each call, which timing one alone mostly measured."""

    timeout = 300.0

    def setup(self) -> None:
        self.t, cids, rng = played(10_000)
        self.picks = [(rng.choice(cids), rng.choice(ZONES), rng.choice(PLAYERS))
                      for _ in range(4096)]
        self.i = 0

    def time_100_moves(self) -> None:
        move, picks, i = self.t.move, self.picks, self.i
        for k in range(i, i + 100):
            cid, zone, player = picks[k & 4095]
            move(cid, zone, player)
        self.i = i + 100

    def time_100_undos_and_redos(self) -> None:
        t = self.t
        for _ in range(100):
            t.undo()
        for _ in range(100):
            t.redo()


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
            if hasattr(a, "quoted"):
                a.quoted = None  # (in the form a save puts it in, either)
        self.t.__dict__.get("saved_lines", []).clear()  # (nor the log, where it is kept)
        self.t.__dict__.get("saved_lineage", {}).clear()  # (nor each card's lineage)
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
