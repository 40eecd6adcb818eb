"""The engine's figures beside those of another checkout, measured in the same minutes
(by hand: git worktree add /tmp/baseline 34503fd, then
python3 tests/benchmarks/bench_engine_baseline.py /tmp/baseline [ROOT]).

Issue 36's engine goals are times: a move in 5 us, an undo in 1 us, a save and load of
10,000 actions in 120 ms, set when commit 34503fd measured 6.9 us, 0.8 us and 115 ms.
This machine is shared and its speed moves: on 2026-11-27 the same commit took 14 to
26 us a move here. A time is only worth comparing with one taken beside it. So this
runs the same work on each checkout in turn, a fresh process each, alternating for
ROUNDS rounds: the asv suite's table of 4 players x 100 cards after 10,000 random
moves (on the checkout's own engine), then 2,000 moves and 2,000 undos timed one by
one, and a save and a load of that table (the collector off while timing: its walks
depend on the heap, not on the code timed). It prints each checkout's medians, their
ratio to the first checkout's, and, when the first is 34503fd, the issue's goals
scaled to what that commit measures now (5/6.9, 1/0.8 and 120/115 of its figures).

Only what every checkout has since 34503fd is used: Table, Card, move, undo, redo,
saves.dumps and saves.loads."""

from __future__ import annotations

import gc
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROUNDS = 5
PLAYERS = ("Ann", "Ben", "Cat", "Dan")
ZONES = ("hand", "battlefield", "graveyard", "exile", "library", "stack")
# the goals and what 34503fd measured when they were set: (goal, then)
GOALS = {"move": (5.0, 6.9), "undo": (1.0, 0.8), "save_load": (120.0, 115.0)}
BASELINE = "34503fd"


def _inside(root: str) -> None:
    """One round on one checkout: its medians, as JSON on stdout. The table and its
    10,000 moves are the asv suite's (``played``), on the checkout's own engine."""
    import importlib.util
    sys.path.insert(0, root)
    from tabletop.engine import Table, saves
    spec = importlib.util.spec_from_file_location(
        "asv_engine", Path(__file__).resolve().parent / "asv_suite" / "engine.py")
    assert spec is not None and spec.loader is not None
    suite = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(suite)  # (it imports the engine found first: the root's)

    saves.loads(saves.dumps(Table(PLAYERS, seed=1)))  # what a save imports, not timed
    t, cids, rng = suite.played(10_000)

    def pick() -> tuple[int, str, str]:
        return rng.choice(cids), rng.choice(ZONES), rng.choice(PLAYERS)
    picks = [pick() for _ in range(2_000)]
    clock = time.perf_counter_ns
    gc.collect()
    gc.disable()
    moves = []
    for cid, zone, player in picks:
        s = clock()
        t.move(cid, zone, player)
        moves.append(clock() - s)
    undos = []
    for _ in range(2_000):
        s = clock()
        t.undo()
        undos.append(clock() - s)
    for _ in range(2_000):
        t.redo()
    gc.collect()
    s = clock()
    text = saves.dumps(t)
    mid = clock()
    saves.loads(text)
    end = clock()
    gc.enable()
    print(json.dumps({"move": statistics.median(moves) / 1000,
                      "undo": statistics.median(undos) / 1000,
                      "save_load": (end - s) / 1e6, "save": (mid - s) / 1e6,
                      "load": (end - mid) / 1e6}))


def _commit(root: Path) -> str:
    r = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
                       capture_output=True, text=True, check=False)
    return r.stdout.strip() or str(root)


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--inside":
        _inside(sys.argv[2])
        return
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    roots = [Path(a).resolve() for a in sys.argv[1:]]
    if len(roots) == 1:
        roots.append(Path(__file__).resolve().parents[2])
    runs: dict[Path, list[dict[str, float]]] = {r: [] for r in roots}
    for _ in range(ROUNDS):  # in turn: a busy minute of the machine falls on each alike
        for root in roots:
            out = subprocess.run([sys.executable, __file__, "--inside", str(root)],
                                 capture_output=True, text=True, check=True, cwd=root)
            runs[root].append(json.loads(out.stdout.splitlines()[-1]))
    med = {r: {k: statistics.median(x[k] for x in runs[r]) for k in runs[r][0]}
           for r in roots}
    first = roots[0]
    units = {"move": "us", "undo": "us", "save_load": "ms"}
    words = {"move": "move median", "undo": "undo median",
             "save_load": "save and load of 10,000 actions"}
    for root in roots:
        m, base = med[root], med[first]
        print(f"{_commit(root)} ({root}): " + "; ".join(
            f"{words[k]} {m[k]:.1f} {units[k]} ({m[k] / base[k]:.2f} x {_commit(first)})"
            for k in units) + f" [save {m['save']:.0f} ms + load {m['load']:.0f} ms]")
    if _commit(first).startswith(BASELINE):
        base = med[first]
        print(f"the issue's goals as {BASELINE} measures now (its figures when they were "
              f"set: 6.9 us, 0.8 us, 115 ms): " + "; ".join(
                  f"{words[k]} <= {base[k] * goal / then:.1f} {units[k]}"
                  for k, (goal, then) in GOALS.items()))


if __name__ == "__main__":
    main()
