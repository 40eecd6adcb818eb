"""Crash safety: the app runs a scripted session offscreen, is killed with SIGKILL
at a random moment, and the next start restores every action completed before
the kill: the restored game is exactly the game after the last action reported
done, or after the one that was being saved when the kill came (10 trials in CI,
100 with TABLETOP_SOAK=1)."""

import os
import random
import signal
import subprocess
import sys
import time

import pytest

from tabletop.engine import saves
from tabletop.ui.app import scripted_actions
from tabletop.ui.controller import TableController
from tests.helpers import ROOT

TRIALS = 100 if os.environ.get("TABLETOP_SOAK") else 10
STEPS = 300
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")


def fingerprint(t):
    d = saves.to_json(t)
    return [d[k] for k in ("zones", "current", "lineage", "life", "active")]


@pytest.fixture(scope="module")
def expected(qapp):
    """The game after each step of the scripted session, replayed here."""
    c = TableController()
    states = [fingerprint(c.table)]
    for _ in scripted_actions(c, STEPS):
        states.append(fingerprint(c.table))
    return states


@pytest.mark.parametrize("trial", range(TRIALS))
def test_sigkill_loses_no_completed_action(tmp_path, trial, expected):
    rng = random.Random(trial)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.Popen(
        [sys.executable, "-m", "tabletop", "--data-dir", str(tmp_path),
         "--scripted-session", str(STEPS)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    done = 0  # the last step reported done, i.e. autosaved
    try:
        for _ in range(rng.randint(1, 120)):
            line = proc.stdout.readline()
            if not line:
                break
            done = int(line.split()[1])
        time.sleep(rng.random() * 0.02)  # sometimes in the middle of the next write
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
        for line in proc.stdout:  # what it reported before dying, still in the pipe
            done = int(line.split()[1])
        proc.stdout.close()
    r = subprocess.run([sys.executable, "-m", "tabletop", "--data-dir", str(tmp_path),
                        "--restore-last"], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=60)
    if r.returncode == 1 and expected[0] in (expected[done], expected[min(done + 1, STEPS)]):
        # killed while the game was still as dealt (before its first action was saved, or
        # its actions so far refused or undone): nothing to restore, nothing lost
        return
    assert r.returncode == 0, r.stdout + r.stderr
    restored = fingerprint(saves.load(tmp_path / "autosave.tabletop"))
    assert restored in (expected[done], expected[min(done + 1, STEPS)])
