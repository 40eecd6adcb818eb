"""The server's work per action, counted in instructions (by hand: python3
tests/benchmarks/bench_net_count.py [ACTIONS]; needs valgrind).

bench_net_load.py's figures move by up to a third from one minute to the next on a
shared machine, more than most changes to the server's hot path. This counts instead:
`tabletop serve` runs under valgrind's cachegrind (instructions only, no cache model),
once with no action and once with ACTIONS (1,500) intentions sent one after another
by the load benchmark's players (5 rooms of 4, each dealt from a seed: the same games
at every run; rolls, life changes, taps, lands played, each waited for), and prints
the instructions of the server's process per action, its start-up taken off. The
count is the same to about 0.1% from run to run, whatever else the machine does, so
two commits' counts show what a change costs or saves. It counts every thread of the server (the disk's too), and the time the
kernel spends for it not at all; a change that writes or reads less often (fewer
sends) saves more than its count says."""

from __future__ import annotations

import asyncio
import compileall
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_net_load as load  # (its players)


async def play(url: str, actions: int, rooms: int = 5) -> None:
    tables = [await load.room_players(url, 100 + i, deal=True) for i in range(rooms)]
    seats = [s for seats in tables for s in seats]
    rng = random.Random(5)
    for rid in range(1, actions + 1):
        seat = seats[rid % len(seats)]
        await seat.ask(rid, **load.intention(seat, rng))
    for seat in seats:
        await seat.close()


def counted(actions: int) -> int:
    """Instructions of a server that answered ``actions`` intentions, start-up included."""
    folder = Path(tempfile.mkdtemp(prefix="tabletop-bench-count-"))
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED="0")
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # (as installed: compiled once, not each run)
    proc = subprocess.Popen(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no",
         f"--cachegrind-out-file={folder / 'counts'}", sys.executable, "-m", "tabletop",
         "--data-dir", str(folder / "data"), "serve", "--port", "0",
         "--rooms-per-hour", "100000", "--per-address", "100000", "--address-rate", "1e9",
         "--rooms-per-address", "100000", "--lines-per-address", "1000000000"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stderr is not None
        line = proc.stdout.readline()  # (slow under valgrind: about half a minute)
        url = re.search(r"ws://\S+", line)
        if url is None:
            raise SystemExit(f"the server did not start: {line!r}")
        asyncio.run(play(url.group(0), actions))
        time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)  # (valgrind writes its counts as it ends)
        _, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
        shutil.rmtree(folder, ignore_errors=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", err)
    if found is None:
        raise SystemExit(f"valgrind gave no count: {err[-500:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    actions = int(sys.argv[1]) if len(sys.argv) > 1 else 1500
    if shutil.which("valgrind") is None:
        raise SystemExit("bench_net_count: valgrind is not installed (apt-get install valgrind)")
    compileall.compile_dir(str(ROOT / "tabletop"), quiet=1)
    start = counted(0)
    whole = counted(actions)
    print(f"server instructions per action: {(whole - start) / actions / 1000:.0f} thousand "
          f"({actions} intentions one after another, 5 rooms of 4 players; start-up, "
          f"{start / 1e6:.0f} million, taken off)")


if __name__ == "__main__":
    main()
