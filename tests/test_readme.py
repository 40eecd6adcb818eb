"""The README's commands work as written, from anywhere, for someone who installed
with pip: two commands for a fresh machine, and every `tabletop ...` line runs."""

from __future__ import annotations

import re
import shlex

import pytest

from tests.helpers import ROOT, run_cli

README = (ROOT / "README.md").read_text(encoding="utf-8")
CI = (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def _commands() -> list[str]:
    return [line.strip() for line in README.splitlines()
            if line.startswith("    ") and line.strip().startswith(("python3 -m venv", "tabletop "))]


def test_two_commands_each_in_its_own_virtual_environment():
    fresh = [c for c in _commands() if c.startswith("python3 -m venv")]
    assert len(fresh) == 2
    start, tests = fresh
    assert start.endswith(".venv/bin/tabletop") and "pip install ." in start
    assert tests.endswith(".venv/bin/python -m pytest")
    assert tests in CI  # .ci/run runs exactly the README's test command
    assert "Python 3.11" in README


# lines that need a file of the reader's own, a window, or a download
NEEDS_MORE = ("FILE", "my-deck", "my-scenario", "AtomicCards", "--screenshot", "--self-test",
              "serve", "tabletop room")  # serve: runs until stopped; room: needs a server
# (tests/net start one and run both)


@pytest.mark.parametrize("line", [c for c in _commands() if c.startswith("tabletop ")
                                  and not any(w in c for w in NEEDS_MORE)])
def test_every_command_line_shown_runs_from_any_folder(line, tmp_path):
    args = shlex.split(re.sub(r"\s+#.*$", "", line))[1:]
    r = run_cli(*args, cwd=tmp_path)  # not the repository: paths must not depend on it
    # rerun under another edition, a scenario may well fail its expectations: exit 1
    ok = r.returncode == 0 or (r.returncode == 1 and "--edition" in args and "FAILED" in r.stdout)
    assert ok, (line, r.stdout[-500:], r.stderr[-500:])
    assert r.stdout.strip()
