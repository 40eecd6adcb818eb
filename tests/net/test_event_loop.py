"""`tabletop serve` runs on uvloop where it is installed, else on asyncio's own loop;
`--event-loop` chooses. Either way a real server process plays a real table."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tabletop.net import server as net_server
from tests.helpers import ROOT
from tests.net.conftest import ServerProcess

HAS_UVLOOP = net_server.loop_runner()[0] is net_server.EventLoop.UVLOOP


def _hide_uvloop(folder) -> dict[str, str]:
    """An environment in which importing uvloop fails, as on a machine without it."""
    fake = folder / "no-uvloop" / "uvloop"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text('raise ImportError("no uvloop here")\n')
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(fake.parent), str(ROOT)]))


@pytest.mark.parametrize("loop", ["uvloop", "asyncio"])
def test_a_table_is_played_on_either_event_loop(tmp_path, clients, loop):
    """A room is created, both seats taken, a card put from Alice's hand into her
    graveyard, and a chat line said: Bob is told of both, on the loop asked for, and
    the line that starts the server names that loop."""
    if loop == "uvloop" and not HAS_UVLOOP:
        pytest.skip("uvloop is not installed here")
    s = ServerProcess(tmp_path / "data")
    s.extra = ["--event-loop", loop]
    s.start()
    try:
        assert f"event loop: {loop})" in s.line, s.line
        host = clients(s.url)
        room, code = host.create(["Alice", "Bob"], seed=3)
        alice, bob = clients(s.url), clients(s.url)
        alice.join(room, code, "Alice", invite=host.invites["Alice"])
        bob.join(room, code, "Bob", invite=host.invites["Bob"])
        hand = next(z for z in alice.view["zones"]
                if z["player"] == "Alice" and z["zone"] == "hand")
        card = hand["cards"][0]
        alice.act("move", id=card["id"], zone="graveyard")
        bob.until("update")
        graveyard = [z for z in bob.view["zones"]
                     if z["player"] == "Alice" and z["zone"] == "graveyard"]
        # the card Alice put into her graveyard, face up: Bob sees it by name
        assert [c["name"] for c in graveyard[0]["cards"]] == [card["name"]]
        alice.send("chat", text="on " + loop)
        bob.until("update")
        assert bob.view["chat"][-1] == ["Alice", "on " + loop]
    finally:
        s.kill()


def test_without_uvloop_the_server_runs_on_asyncio(tmp_path):
    """No uvloop (Windows, or not installed): the default is asyncio's loop; asking for
    uvloop by name is refused with a message and exit status 2."""
    env = _hide_uvloop(tmp_path)
    proc = subprocess.Popen(
        [sys.executable, "-m", "tabletop", "--data-dir", str(tmp_path / "data"), "serve",
         "--port", "0"], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert "listening on ws://" in line and "event loop: asyncio" in line, line
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
    r = subprocess.run(
        [sys.executable, "-m", "tabletop", "--data-dir", str(tmp_path / "data"), "serve",
         "--port", "0", "--event-loop", "uvloop"], cwd=ROOT, env=env, capture_output=True,
        text=True, timeout=60)
    assert r.returncode == 2
    assert "uvloop" in r.stdout + r.stderr and "not installed" in r.stdout + r.stderr


def test_the_command_line_offers_each_event_loop_by_its_name():
    """`--event-loop` accepts exactly the loops the server knows, by their names, and
    refuses another with exit status 2."""
    import re

    from tests.helpers import run_cli
    usage = run_cli("serve", "--help").stdout
    offered = re.search(r"--event-loop \{([^}]*)\}", usage)
    assert offered, usage
    assert sorted(offered.group(1).split(",")) == sorted(e.value for e in net_server.EventLoop)
    r = run_cli("serve", "--port", "0", "--event-loop", "trio")
    assert r.returncode == 2 and "--event-loop" in r.stderr


def test_out_of_descriptors_is_said_once_a_minute_and_the_rest_as_asyncio_says_it(caplog):
    """What the loop's handler does with what no task caught: asyncio's listener out of
    descriptors, in one line a minute however often it is told; anything else, as the
    loop's own handler says it."""
    import errno
    import logging

    from tabletop.net.server import QuietAccept
    now = [0.0]
    handler = QuietAccept(clock=lambda: now[0])
    passed: list[dict] = []

    class Loop:
        def default_exception_handler(self, context):
            passed.append(context)
    out = OSError(errno.EMFILE, "Too many open files")
    with caplog.at_level(logging.WARNING, logger="tabletop.net"):
        for _ in range(300):
            handler(Loop(), {"message": "any words", "exception": out, "socket": object()})
        now[0] = 59.0
        handler(Loop(), {"message": "any words", "exception": out, "socket": object()})
        now[0] = 60.0
        handler(Loop(), {"message": "any words", "exception": out, "socket": object()})
    assert len([r for r in caplog.records if "out of open files" in r.message]) == 2
    other = {"message": "Task exception was never retrieved", "exception": ValueError()}
    refused = {"message": "x", "exception": OSError(errno.ECONNRESET, "reset"),
               "socket": object()}
    handler(Loop(), other)
    handler(Loop(), refused)
    assert passed == [other, refused]
