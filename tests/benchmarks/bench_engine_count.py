"""The engine's move and undo counted in machine instructions, not in time (run by hand:
python3 tests/benchmarks/bench_engine_count.py [ROOT...]).

On a shared 2-core machine bench_engine.py's medians move by half from one run to the
next, more than most changes to the engine: an 8% change cannot be seen in them. The
instructions Python runs for the same moves barely move (valgrind's callgrind counts
them, with the cyclic collector off and the hash seed fixed), so two commits compare in
one run each: ``git worktree add /tmp/before REV`` and give each root in turn.

The table and the moves are bench_engine.py's own: 4 players x 100 cards, 10,000 random
moves made first, then 5,000 more counted (their choices drawn before counting), then
5,000 undos counted. Each is counted twice: as the table does it, and with the table
``quiet`` (the log line each action writes left out, as on the scratch table that
checks a save), so the log's share is seen apart. A checkout from before the log
(34503fd, the commit issue 36 measured first) is counted as it is, without it. Skipped,
and said, where valgrind is not installed."""

from __future__ import annotations

import gc
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

COUNTED = 5_000


def _toggle(on: bool) -> None:
    subprocess.run(["callgrind_control", "-i", "on" if on else "off", str(os.getpid())],
                   capture_output=True, check=False)


def _inside(root: Path, what: str) -> None:
    """Run under callgrind (instrumentation off until toggled): the counted part."""
    sys.path.insert(0, str(root))
    sys.path.insert(0, str(root / "tests" / "benchmarks"))
    import bench_engine as b
    try:  # (a checkout from before it: Python's own collector settings)
        from tabletop import collector
    except ImportError:
        pass
    else:
        collector.tune()
    t = b.make_table()
    if what.endswith("-quiet"):
        what = what.removesuffix("-quiet")
        t.quiet = True
    cids = list(t.current)
    rng = random.Random(2)
    while len(t.history) < 10_000:
        b.random_move(t, rng, cids)
    picks = [(rng.choice(cids), rng.choice(b.ZONES), rng.choice(b.PLAYERS))
             for _ in range(COUNTED)]
    gc.collect()
    gc.disable()  # a walk of the collector falls in one run and not the next
    if what == "move":
        _toggle(True)
        for cid, zone, player in picks:
            t.move(cid, zone, player)
        _toggle(False)
    else:
        for cid, zone, player in picks:
            t.move(cid, zone, player)
        _toggle(True)
        for _ in range(COUNTED):
            t.undo()
        _toggle(False)


def _count(root: Path, what: str) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        env = dict(os.environ, PYTHONHASHSEED="0")
        r = subprocess.run(["valgrind", "--tool=callgrind", "--instr-atstart=no",
                            f"--callgrind-out-file={out}", sys.executable, __file__,
                            "--inside", str(root), what],
                           capture_output=True, text=True, env=env, check=False)
        for line in r.stderr.splitlines():
            if "Collected :" in line:
                return int(line.split()[-1])
        raise SystemExit(f"callgrind gave no count:\n{r.stderr[-2000:]}")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--inside":
        _inside(Path(sys.argv[2]), sys.argv[3])
        return
    if not (shutil.which("valgrind") and shutil.which("callgrind_control")):
        print("skipped: valgrind is not installed (apt-get install valgrind)")
        return
    roots = [Path(a).resolve() for a in sys.argv[1:]] or [Path(__file__).resolve().parents[2]]
    for root in roots:
        move = _count(root, "move") / COUNTED
        undo = _count(root, "undo") / COUNTED
        print(f"{root}: move {move:,.0f} instructions, undo {undo:,.0f} instructions "
              f"(each, at 10,000 actions)")
        if (root / "tabletop" / "engine" / "state.py").is_file() and \
                "self.quiet" in (root / "tabletop" / "engine" / "state.py").read_text():
            move = _count(root, "move-quiet") / COUNTED
            undo = _count(root, "undo-quiet") / COUNTED
            print(f"{root}: without the log line each writes: move {move:,.0f} "
                  f"instructions, undo {undo:,.0f} instructions")


if __name__ == "__main__":
    main()
