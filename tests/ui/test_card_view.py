"""The whole card in the hover preview and the inspector (issue 16, item 1): name, cost,
type line, oracle text from imported card data, power/toughness as modified, counters,
the note; text from a file is shown as text, never as markup."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tabletop.cards import builtin
from tabletop.cards.db import CardDB
from tabletop.engine import Card, Table

TEXT = "Our own words for this giant.\nWhen it stomps, <b>nothing</b> happens."


@pytest.fixture
def imported(tmp_path, monkeypatch):
    """A data folder whose card database holds imported text for Hill Giant."""
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    from tabletop import paths
    data = {"data": {"Hill Giant": [{"name": "Hill Giant", "types": ["Creature"],
                                     "layout": "normal", "text": TEXT}]}}
    p = tmp_path / "AtomicCards.json"
    p.write_text(json.dumps(data))
    from tabletop.cards import db as dbmod
    dbmod.default.cache_clear()  # the app's database is the one in this data folder
    db = CardDB(paths.card_database())
    db.import_file(p)
    db.close()
    yield tmp_path
    dbmod.default().close()
    dbmod.default.cache_clear()


def _click(w, cid):
    item = w.scene.item_for_cid(cid)
    QTest.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier,
                     w.view.mapFromScene(item.sceneBoundingRect().center()))
    QApplication.processEvents()


def test_the_inspector_shows_the_whole_card_as_modified(make_window, imported):
    t = Table(("Alice", "Bob"), "cr-2016")
    giant = t.add_card(builtin.lookup("Hill Giant"), "Alice", "battlefield").cid
    t.start_here()
    w = make_window(t)
    w.c.counters(giant, "+1/+1", 1)
    w.c.note(giant, "blocked by <i>Elves</i>")
    _click(w, giant)
    text = w.inspector.toPlainText()
    assert "Hill Giant" in text and "Creature — Giant" in text and "{3}{R}" in text
    assert "4/4 (printed 3/3)" in text
    assert "When it stomps, <b>nothing</b> happens." in text  # escaped: shown as written
    assert "Counters: 1 × +1/+1" in text and "Note: blocked by <i>Elves</i>" in text


def test_the_preview_reads_the_oracle_text_and_says_how_to_get_it(make_window, imported):
    t = Table(("Alice", "Bob"), "cr-2016")
    giant = t.add_card(builtin.lookup("Hill Giant"), "Alice", "battlefield").cid
    elves = t.add_card(builtin.lookup("Llanowar Elves"), "Alice", "battlefield").cid
    t.start_here()
    w = make_window(t)
    w.scene.hover(w.scene.item_for_cid(giant), True)
    assert TEXT in w.scene._preview.text_items()
    w.scene.hover(w.scene.item_for_cid(elves), True)  # no imported text for it
    assert w.scene._preview.text is None


def test_a_face_down_card_shows_no_preview_to_the_opponent(make_window):
    t = Table(("Alice", "Bob"), "cr-2016")
    secret = t.add_card(Card("Secret Plan", ("Creature",), power="2", toughness="2"),
                        "Alice", "battlefield", face_down=True)
    t.start_here()
    w = make_window(t, viewer="Bob")
    item = next(i for i in w.scene.cards.values() if i.zone_key == ("Alice", "battlefield"))
    w.scene.hover(item, True)
    assert w.scene._preview is None
    _click_item = w.view.mapFromScene(item.sceneBoundingRect().center())
    QTest.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier, _click_item)
    assert "Secret Plan" not in w.inspector.toPlainText()
    assert secret.cid not in [k[1] for k in w.scene.cards if k[0] == "c"]
