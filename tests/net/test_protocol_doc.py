"""docs/protocol.md is a contract: its tables name exactly the messages, fields,
actions and error codes the server reads and sends (tabletop/net/protocol.py), and
its proxy configurations parse."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from tabletop.net import protocol
from tests.helpers import ROOT

DOC = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")


def table(heading: str) -> list[list[str]]:
    """The rows (cells) of the first table after ``heading``."""
    start = DOC.index(heading)
    rows = []
    for line in DOC[start:].splitlines()[1:]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not set(cells[0]) <= {"-", " "} and cells[0] not in ("type", "action", "code"):
                rows.append(cells)
        elif rows:
            break
    return rows


def names(cell: str) -> set[str]:
    return set(re.findall(r"`([a-z_\-]+)`", cell))


def test_the_client_messages_and_their_fields_are_the_servers():
    rows = table("## From a client")
    assert {t for r in rows for t in names(r[0])} == set(protocol.CLIENT_MESSAGES)
    for r in rows:
        (kind,) = names(r[0])
        if kind == "act":
            assert names(r[1]) == {"action"}
        else:
            assert names(r[1]) == set(protocol.CLIENT_MESSAGES[kind]), kind


def test_the_actions_and_their_fields_are_the_servers():
    rows = table("### Actions (`act`)")
    assert {a for r in rows for a in names(r[0])} == set(protocol.ACTIONS)
    fields = {f for r in rows for f in names(r[1])}
    assert fields == set(protocol.CLIENT_MESSAGES["act"]) - {"action"}


def test_each_action_lists_the_fields_of_its_intent():
    """The document's row of each action names exactly the fields its intent reads."""
    import dataclasses

    from tabletop.engine import intents
    for r in table("### Actions (`act`)"):
        for action in names(r[0]):
            cls = intents.INTENTS[action]
            wire = {cls.WIRE.get(f.name, f.name) for f in dataclasses.fields(cls)
                    if f.name not in cls.LOCAL}
            assert names(r[1]) == wire, action


def test_the_error_codes_are_the_servers():
    rows = table("### Error codes")
    assert {c for r in rows for c in names(r[0])} == {c.value for c in protocol.Code}


def test_the_server_messages_are_listed():
    rows = table("## From the server")
    assert {t for r in rows for t in names(r[0])} == {
        "created", "joined", "view", "update", "error", "ended", "pong"}
    created = next(r for r in rows if names(r[0]) == {"created"})
    assert names(created[1]) == {"room", "code", "invites", "seed", "rid"}
    error = next(r for r in rows if names(r[0]) == {"error"})
    assert names(error[1]) == {"message", "code", "rid"}


def test_the_limits_in_the_document_are_the_servers():
    from tabletop.net import server
    limits = server.Limits()
    assert f"{int(server.RATE)} messages a second" in DOC and f"({int(server.BURST)} at once)" in DOC
    assert f"after {server.MAX_ERRORS} of those" in DOC
    rate = int(limits.address_rate)
    assert f"together {rate} a second ({2 * rate} at once)" in DOC
    assert f"within {limits.join_timeout:g} s" in DOC
    assert f"at most {limits.per_address} open from one client address" in DOC
    assert f"{limits.connections:,} in\n  all" in DOC or f"{limits.connections:,} in all" in DOC
    assert f"at most {limits.rooms_per_hour} created an hour" in DOC
    assert f"{limits.rooms_per_address}\n  opened from one address kept at once" in DOC
    assert limits.rooms_per_network_factor == 4 and (
        f"four times that ({limits.rooms_per_address * 4})\n  opened from one network" in DOC)
    assert f"{server.MAX_ROOMS:,} on the server" in DOC
    assert f"at most {limits.spectators} spectators" in DOC
    assert f"hold\n  at most {limits.lines_per_address:,} log lines together" in DOC
    from tabletop.net import rooms
    assert f"keeps at most {rooms.MAX_LINES:,}\n  lines of log" in DOC
    assert f"{limits.guesses} wrong room codes" in DOC
    assert f"every {server.SNAPSHOT_EVERY} intentions" in DOC.replace("Every", "every")
    assert f"a number below {server.SNAPSHOT_EVERY // 2}" in DOC


def _block_after(marker: str) -> str:
    """The indented block that follows ``marker`` in the document."""
    lines = DOC[DOC.index(marker):].splitlines()[1:]
    while not lines[0].startswith("    "):
        lines.pop(0)
    block = []
    for line in lines:
        if line and not line.startswith("    "):
            break
        block.append(line[4:])
    return "\n".join(block).strip()


def _uncommented(path) -> str:
    return "\n".join(line for line in path.read_text().splitlines()
                     if not line.lstrip().startswith("#")).strip()


def test_the_proxy_configurations_are_the_documents_and_parse(tmp_path):
    nginx = ROOT / "docs" / "proxy" / "nginx.conf"
    caddy = ROOT / "docs" / "proxy" / "Caddyfile"
    assert _block_after("nginx (`docs/proxy/nginx.conf`") == _uncommented(nginx)
    assert _block_after("Caddy (`docs/proxy/Caddyfile`)").split() == _uncommented(caddy).split()
    for path in (nginx, caddy):  # balanced blocks, every directive ended
        text = _uncommented(path)
        depth = 0
        for ch in text:
            depth += {"{": 1, "}": -1}.get(ch, 0)
            assert depth >= 0, path
        assert depth == 0, path
    for line in _uncommented(nginx).splitlines():
        line = line.strip()
        assert not line or line.endswith((";", "{", "}")), line
    assert "proxy_set_header Upgrade $http_upgrade;" in nginx.read_text()
    assert "reverse_proxy 127.0.0.1:8765" in caddy.read_text()
    binary = shutil.which("nginx")
    if binary is None:
        pytest.skip("nginx is not installed here: checked by structure only")
    # nginx itself reads it, with a certificate of the test's own
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    conf = nginx.read_text().replace("/etc/ssl/games.example.org/fullchain.pem", str(cert)) \
        .replace("/etc/ssl/games.example.org/privkey.pem", str(key))
    (tmp_path / "nginx.conf").write_text(f"pid {tmp_path}/nginx.pid;\nerror_log stderr;\n" + conf)
    r = subprocess.run([binary, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
