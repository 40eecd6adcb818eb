"""Card data in one step (issue 16, item 2): `tabletop cards --download URL` downloads,
checks the SHA-256 published beside the file and imports it; a mismatch, a missing
file, a cut-short download or no connection changes nothing and exits 2. Every test
talks to a server on 127.0.0.1 started here."""

from __future__ import annotations

import gzip
import hashlib
import json
import socket

from tests.helpers import run_cli
from tests.net_server import LocalServer

ATOMIC = {"meta": {"date": "2026-11-01", "version": "5.2.2"},
          "data": {"Zap Gun": [{"name": "Zap Gun", "manaCost": "{2}", "types": ["Artifact"],
                                "layout": "normal", "text": "Our words: it zaps."}],
                   "Glade Hound": [{"name": "Glade Hound", "types": ["Creature"],
                                    "subtypes": ["Dog"], "power": "2", "toughness": "2",
                                    "colors": ["G"], "layout": "normal"}]}}
BODY = gzip.compress(json.dumps(ATOMIC).encode())
PATH = "/api/v5/AtomicCards.json.gz"


def _cli(tmp_path, *args):
    return run_cli("--data-dir", tmp_path / "data", "cards", *args)


def test_download_checks_the_published_sha256_and_imports(tmp_path):
    with LocalServer() as srv:
        srv.files[PATH] = BODY
        srv.files[PATH + ".sha256"] = hashlib.sha256(BODY).hexdigest().encode() + b"\n"
        r = _cli(tmp_path, "--download", srv.url(PATH))
        assert r.returncode == 0, r.stderr
        assert "Downloaded and imported 2 cards" in r.stdout
        assert srv.hits == [PATH + ".sha256", PATH]
    shown = _cli(tmp_path, "Zap Gun")
    assert shown.returncode == 0 and "it zaps" in shown.stdout
    assert not list((tmp_path / "data").glob("download-*"))  # the temporary file is gone


def test_a_mismatched_download_changes_nothing(tmp_path):
    with LocalServer() as srv:
        srv.files[PATH] = BODY
        srv.files[PATH + ".sha256"] = (hashlib.sha256(b"another file").hexdigest()
                                       + "  AtomicCards.json.gz\n").encode()
        r = _cli(tmp_path, "--download", srv.url(PATH))
    assert r.returncode == 2 and "SHA-256" in r.stderr and "Nothing was imported" in r.stderr
    assert r.stderr.count("\n") == 1  # one clear message
    assert _cli(tmp_path, "Zap Gun").returncode == 1  # not imported
    assert not list((tmp_path / "data").glob("download-*"))


def test_missing_cut_short_and_offline_downloads_exit_2(tmp_path):
    with LocalServer() as srv:
        r = _cli(tmp_path, "--download", srv.url(PATH))  # no .sha256 there: 404
        assert r.returncode == 2 and "404" in r.stderr
        srv.files[PATH] = BODY
        srv.files[PATH + ".sha256"] = hashlib.sha256(BODY).hexdigest().encode()
        srv.short.add(PATH)
        r = _cli(tmp_path, "--download", srv.url(PATH))
        assert r.returncode == 2 and "cut short" in r.stderr
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    r = _cli(tmp_path, "--download", f"http://127.0.0.1:{port}{PATH}")
    assert r.returncode == 2 and "offline" in r.stderr and "--import" in r.stderr
    r = _cli(tmp_path, "--download", "file:///etc/passwd")
    assert r.returncode == 2 and "http" in r.stderr
    assert _cli(tmp_path, "Zap Gun").returncode == 1
