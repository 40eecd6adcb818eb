"""Opening a large honest save (by hand: python3 tests/benchmarks/bench_saves.py
[ACTIONS]): a game of ACTIONS actions (140,000: cards drawn, played, tapped, untapped,
moved between zones, the library shuffled) is saved, then opened in a fresh process
the way the window opens one (read, checked, its history replayed to be sure it fits).
Reports the file's size, the open time and the opening process's peak memory.
Goal: at most 1.5 s and 250 MB for 140,000 actions."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def build(n: int, path: Path) -> None:
    from tabletop.cards import demo
    from tabletop.engine import saves
    t = demo.new_game(players=("Alice", "Bob"), seed=7)
    done = 0
    while done < n:
        for p in t.players:
            if not t.zones[(p, "library")]:
                t.zone_to_zone(p, "graveyard", "library", shuffle=True)
                done += 1
            t.draw(p, 1)
            hand = t.objects_in((p, "hand"))
            land = next((o for o in hand if "Land" in o.card.types), None)
            if land is not None:
                t.move(land.cid, "battlefield", None)
                done += 1
            for o in [o for o in t.objects_in((None, "battlefield")) if o.controller == p][:3]:
                t.set_tapped(o.cid, not o.tapped)
                done += 1
            if len(hand) > 7:
                t.move(hand[0].cid, "graveyard", p)
                done += 1
            done += 1
    saves.save(t, path)
    print(f"{len(t.history):,} actions saved: {path.stat().st_size / 1e6:.1f} MB")


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--build":
        build(int(sys.argv[2]), Path(sys.argv[3]))
        return
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 140_000
    path = Path(tempfile.mkdtemp(prefix="tabletop-bench-saves-")) / "big.tabletop"
    # built in a process of its own: a child forked from a process holding the game
    # would count that process's memory as its own peak
    subprocess.run([sys.executable, __file__, "--build", str(n), str(path)], check=True,
                   env=dict(os.environ, PYTHONPATH=str(ROOT)))
    code = ("import resource, sys, time\n"
            f"sys.path.insert(0, {str(ROOT)!r})\n"
            "from tabletop.engine import saves\n"
            "s = time.perf_counter()\n"
            f"t = saves.load({str(path)!r})\n"
            "e = time.perf_counter()\n"
            "print(f'{e - s:.2f} {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f}')\n")
    runs = []
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=dict(os.environ, PYTHONPATH=str(ROOT)), check=True).stdout
        secs, mb = out.split()
        runs.append((float(secs), float(mb)))
        print(f"  opened in {float(secs):.2f} s, {float(mb):.0f} MB")
    secs = sorted(r[0] for r in runs)[1]
    mb = sorted(r[1] for r in runs)[1]
    print(f"open: {secs:.2f} s, peak memory {mb:.0f} MB (medians of 3) "
          f"(goal: at most 1.5 s and 250 MB)")


if __name__ == "__main__":
    main()
