"""Engine benchmark (run by hand: python3 tests/benchmarks/bench_engine.py).

A table of 4 players x 100 cards, random legal moves. Reports the median and
p99 latency of one move at history lengths of 1,000, 10,000 and 100,000
actions, undo latency, save and load at 10,000 actions, peak memory, and the
wall time of `tabletop ruling` over every bundled scenario.

The collector runs as in the window and `tabletop serve` (``collector.tune()``; their
timer that sets aside what has lived a second is not here: a walk of everything still
comes as the game grows, and is reported with the others). Python's defaults, for
comparison: ``python3 tests/benchmarks/bench_engine.py --python-collector``."""

from __future__ import annotations

import gc
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tabletop import collector, jsontext
from tabletop.engine import Card, Table, saves

ZONES = ("hand", "battlefield", "graveyard", "exile", "library", "stack")
PLAYERS = ("Ann", "Ben", "Cat", "Dan")


def make_table() -> Table:
    t = Table(PLAYERS, seed=1)
    for p in PLAYERS:
        for i in range(100):
            t.add_card(Card(f"Card {i}", ("Creature",)), p, "library")
    t.history.clear()
    return t


def random_move(t: Table, rng: random.Random, cids):
    cid = rng.choice(cids)
    t.move(cid, rng.choice(ZONES), rng.choice(PLAYERS))


def timed_moves(t: Table, rng: random.Random, cids, n: int) -> list[float]:
    """Latency of n random moves in microseconds (choices drawn before timing)."""
    picks = [(rng.choice(cids), rng.choice(ZONES), rng.choice(PLAYERS)) for _ in range(n)]
    move, clock = t.move, time.perf_counter_ns
    out = []
    for cid, zone, player in picks:
        s = clock()
        move(cid, zone, player)
        out.append((clock() - s) / 1000)
    return out


def forget_saved(t: Table) -> None:
    """Nothing kept from earlier saves: each action's text, each log line's and each
    card's lineage are made again by the next save."""
    for a in t.history + t.redo_stack:
        assert a.ops is not None  # decoded first (an action read from a save is its text)
        a.raw = a.quoted = None
    t.saved_lines.clear()
    t.saved_lineage.clear()


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


PAUSES: list[tuple[int, float]] = []  # (generation, ms) of each walk of the collector


def _walks(phase: str, info: dict) -> None:
    if phase == "start":
        _walks.began = time.perf_counter()  # type: ignore[attr-defined]
    else:
        PAUSES.append((info["generation"],
                       (time.perf_counter() - _walks.began) * 1000))  # type: ignore[attr-defined]


def main():
    if "--python-collector" not in sys.argv:
        collector.tune()
    print(f"collector thresholds {gc.get_threshold()}")
    gc.callbacks.append(_walks)
    t = make_table()
    cids = list(t.current)
    rng = random.Random(2)
    rows = []
    for target in (1_000, 10_000, 100_000):
        while len(t.history) < target:
            random_move(t, rng, cids)
        lat = timed_moves(t, rng, cids, 1000)
        undo = []
        for _ in range(500):
            s = time.perf_counter_ns()
            t.undo()
            undo.append((time.perf_counter_ns() - s) / 1000)
        for _ in range(500):
            t.redo()
        rows.append((target, statistics.median(lat), pct(lat, 0.99),
                     statistics.median(undo), pct(undo, 0.99)))
        if target == 10_000:
            runs = []
            for _ in range(3):
                forget_saved(t)  # measure a first save, with nothing encoded yet
                s = time.perf_counter()
                text = saves.dumps(t)
                mid = time.perf_counter()
                saves.loads(text)
                end = time.perf_counter()
                runs.append(((mid - s) * 1000, (end - mid) * 1000))
            save_ms, load_ms = statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)
            size = len(text)
            # do orjson and the json module's private C encoder earn their places? (the
            # same save written without orjson, then with json.dumps alone)
            c_encoder, fast = jsontext._c_encoder, jsontext._orjson
            timed: dict[str, list[float]] = {"c": [], "plain": []}
            for name in ("c", "plain"):
                jsontext._orjson = None
                jsontext._c_encoder = c_encoder if name == "c" else None
                for _ in range(3):
                    forget_saved(t)
                    s = time.perf_counter()
                    saves.dumps(t)
                    timed[name].append((time.perf_counter() - s) * 1000)
            jsontext._c_encoder, jsontext._orjson = c_encoder, fast
            # the window's autosave: a save after each action, what earlier saves made kept
            again = []
            for _ in range(7):
                random_move(t, rng, cids)
                s = time.perf_counter()
                saves.dumps(t)
                again.append((time.perf_counter() - s) * 1000)
            again_ms = statistics.median(again)
            c_ms, plain_ms = statistics.median(timed["c"]), statistics.median(timed["plain"])
    print("history   move median   move p99   undo median   undo p99  (microseconds; history "
          "is the length when the 1,000 timed moves began)")
    for n, m, p, um, up in rows:
        print(f"{n:>7}   {m:>11.1f}   {p:>8.1f}   {um:>11.1f}   {up:>8.1f}")
    worst = max(rows, key=lambda r: r[1])
    # one line a figure, in issue 36's words, with its goal (a change shows run to run)
    print(f"move median {worst[1]:.1f} us, p99 {max(r[2] for r in rows):.1f} us at up to "
          f"100,000 actions (goal: median <= 5 us, p99 <= 30 us)")
    print(f"undo median {max(r[3] for r in rows):.1f} us (goal: <= 1 us)")
    for g in (0, 1, 2):
        ms = sorted(p for gen, p in PAUSES if gen == g)
        if ms:
            print(f"collector walks of generation {g} so far: {len(ms)}, median "
                  f"{statistics.median(ms):.2f} ms, max {ms[-1]:.1f} ms")
    print(f"save and load of 10,000 actions {save_ms + load_ms:.0f} ms (goal: <= 120 ms)")
    print(f"save {save_ms:.0f} ms + load {load_ms:.0f} ms = {save_ms + load_ms:.0f} ms at 10,000 actions "
          f"({size / 1e6:.1f} MB of JSON, written by orjson); the same save by the json "
          f"module's C encoder: {c_ms:.0f} ms, by json.dumps: {plain_ms:.0f} ms")
    print(f"a save after one more action (the window's autosave) at 10,000 actions: "
          f"median {again_ms:.1f} ms")
    tracemalloc.start()
    t2 = make_table()
    rng2 = random.Random(3)
    c2 = list(t2.current)
    for _ in range(100_000):
        random_move(t2, rng2, c2)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"peak traced memory for a 100,000-action game: {peak / 1e6:.0f} MB")
    files = sorted(str(p) for p in (ROOT / "resources" / "scenarios").rglob("*.toml"))
    s = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "tabletop", "ruling", *files], cwd=ROOT,
                       capture_output=True)
    wall = time.perf_counter() - s
    print(f"tabletop ruling over {len(files)} scenarios: {wall:.2f} s wall (exit {r.returncode})")


if __name__ == "__main__":
    main()
