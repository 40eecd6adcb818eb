"""Hostile files through the window (issue 12): the card import runs off the GUI
thread with a Cancel that leaves the database as it was; a damaged database is
offered a rebuild; a tampered save gets one dialog and the table stays."""

from __future__ import annotations

import copy
import json

from tabletop.cards import demo
from tabletop.cards.db import default, default_path
from tabletop.engine import saves
from tests.cards.test_db import MTGJSON


def _atomic(tmp_path, n: int):
    data = {"meta": {}, "data": {f"Generated {i}": [{"name": f"Generated {i}",
                                                     "types": ["Creature"]}] for i in range(n)}}
    p = tmp_path / "AtomicCards.json"
    p.write_text(json.dumps(data))
    return p


def test_cancel_during_a_card_import_leaves_the_database_as_before(make_window, dialogs,
                                                                   tmp_path):
    from tabletop.ui.playtest import import_card_data
    w = make_window(demo.new_game())
    small = tmp_path / "small.json"
    small.write_text(json.dumps(MTGJSON))
    assert import_card_data(w, str(small)) == 3
    before = default().count()
    # the dialog bot presses Cancel on the progress dialog as soon as it shows
    result = import_card_data(w, str(_atomic(tmp_path, 200_000)))
    assert result is None, dialogs.seen
    assert default().count() == before and default().info("Generated 7") is None
    assert "Import cancelled" in dialogs.titles()


def test_a_damaged_card_database_is_offered_a_rebuild(make_window, dialogs, tmp_path):
    from tabletop.ui.playtest import import_card_data
    w = make_window(demo.new_game())
    path = default_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"not a database" * 100)
    small = tmp_path / "small.json"
    small.write_text(json.dumps(MTGJSON))
    dialogs.expect("cannot be used", "Yes")
    assert import_card_data(w, str(small)) is None
    assert "A new card database" in dialogs.titles()
    kept = [p for p in path.parent.iterdir() if "damaged" in p.name]
    assert kept and kept[0].read_bytes().startswith(b"not a database")
    assert import_card_data(w, str(small)) == 3  # the new database works


def test_a_tampered_save_gets_one_dialog_and_the_table_stays(make_window, dialogs, tmp_path):
    t = demo.new_game()
    w = make_window(t)
    d = saves.to_json(demo.new_game())
    bad = copy.deepcopy(d)
    bad["cards"][0]["name"] = 5  # a name that is a number: TypeError in paint() before
    p = tmp_path / "bad.tabletop"
    p.write_text(json.dumps(bad))
    assert w.load_game(p) is False
    seen = [(title, text) for title, text, _ in dialogs.seen]
    assert seen and seen[-1][0] == "Cannot open the game" and "card 0's name" in seen[-1][1]
    assert w.c.table is t and w.path != p


def test_a_file_name_with_a_line_feed_is_shown_escaped_in_the_window(
        make_window, dialogs, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    from tabletop.engine import Table
    p = tmp_path / "evening\nmatch.tabletop"
    p.write_text("not a save")
    w = make_window(Table(("Alice", "Bob")))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(p), ""))
    w.open_game()  # File > Open game…, the file chosen in the dialog
    _, text, _ = next(s for s in dialogs.seen if "Cannot open" in s[0])
    assert "evening\\u000amatch.tabletop" in text and "evening\nmatch" not in text
