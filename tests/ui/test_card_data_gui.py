"""File > Get card data (issue 16, item 2), from the menu: it downloads in a worker
thread with a progress dialog, checks the SHA-256 and imports; offline, it says so and
offers the file import. A server on 127.0.0.1 started here stands in for MTGJSON."""

from __future__ import annotations

import gzip
import hashlib
import json
import socket

from PySide6.QtWidgets import QApplication

from tabletop.cards.db import CardDB
from tabletop.engine import Table
from tabletop.ui import settings
from tests.net_server import LocalServer

PATH = "/api/v5/AtomicCards.json.gz"
BODY = gzip.compress(json.dumps({"data": {"Zap Gun": [
    {"name": "Zap Gun", "types": ["Artifact"], "layout": "normal", "text": "It zaps."}]}})
    .encode())


def _menu(w, text):
    for menu in w.menuBar().findChildren(type(w.menuBar().actions()[0].menu())):
        for a in menu.actions():
            if a.text().replace("&", "") == text:
                return a
    raise AssertionError(text)


def test_get_card_data_from_the_file_menu(make_window, dialogs, tmp_path, monkeypatch):
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path))
    w = make_window(Table(("Alice", "Bob")))
    dialogs.leave("Get card data")
    with LocalServer() as srv:
        srv.files[PATH] = BODY
        srv.files[PATH + ".sha256"] = hashlib.sha256(BODY).hexdigest().encode()
        settings.set_value("cards/url", srv.url(PATH))
        try:
            _menu(w, "Get card data (download)…").trigger()
        finally:
            settings.set_value("cards/url", "")
        QApplication.processEvents()
    assert w.message() == "Downloaded and imported 1 card."
    db = CardDB(tmp_path / "cards.sqlite3")
    assert db.text("Zap Gun") == "It zaps."
    db.close()


def test_offline_says_so_and_offers_the_file_import(make_window, dialogs, tmp_path,
                                                    monkeypatch):
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path))
    w = make_window(Table(("Alice", "Bob")))
    dialogs.leave("Get card data")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    dialogs.expect("Cannot reach the card data", "No")
    w.playtest.get_card_data(f"http://127.0.0.1:{port}{PATH}")
    QApplication.processEvents()
    seen = [x for x in dialogs.seen if x[0] == "Cannot reach the card data"]
    assert seen and "offline" in seen[0][1] and seen[0][2] == "No"
    assert not (tmp_path / "cards.sqlite3").exists() or \
        CardDB(tmp_path / "cards.sqlite3").text("Zap Gun") is None
