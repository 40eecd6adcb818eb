"""Crash safety: the app runs a scripted session offscreen, is killed with SIGKILL
at a random moment, and the next start restores every action completed before
the kill (10 trials in CI, 100 with TABLETOP_SOAK=1)."""

import os
import random
import signal
import subprocess
import sys
import time

import pytest

from tabletop.engine import saves
from tests.helpers import ROOT

TRIALS = 100 if os.environ.get("TABLETOP_SOAK") else 10
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")


def _env():
    return dict(os.environ, QT_QPA_PLATFORM="offscreen")


@pytest.mark.parametrize("trial", range(TRIALS))
def test_sigkill_loses_no_completed_action(tmp_path, trial):
    rng = random.Random(trial)
    proc = subprocess.Popen(
        [sys.executable, "-m", "tabletop", "--data-dir", str(tmp_path), "--scripted-session", "300"],
        cwd=ROOT, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    completed = 0  # history length after the last action reported done
    try:
        for _ in range(rng.randint(1, 120)):
            line = proc.stdout.readline()
            if not line:
                break
            completed = int(line.split()[2])
        time.sleep(rng.random() * 0.02)  # sometimes in the middle of the next write
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
        proc.stdout.close()
    r = subprocess.run([sys.executable, "-m", "tabletop", "--data-dir", str(tmp_path),
                        "--restore-last"], cwd=ROOT, env=_env(), capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    restored = int(r.stdout.split()[1])
    assert restored >= completed
    t = saves.load(tmp_path / "autosave.tabletop")  # whole and consistent
    while t.undo():
        pass
