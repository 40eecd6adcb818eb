"""Compare anywhere (issue 17, item 4): the game at the table, not only a scenario,
under two or more editions side by side; switching the edition offers to replay the
same position and history under the new one and shows the steps that change."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from tabletop.cards import builtin
from tabletop.engine import Table
from tests.ui.test_rules_browser import _pick


def _game(edition="cr-1999"):
    t = Table(("Alice", "Bob"), edition)
    plow = t.add_card(builtin.lookup("Plow Under"), "Alice", "hand")
    bears = t.add_card(builtin.lookup("Grizzly Bears"), "Alice", "hand")
    t.add_card(builtin.lookup("Forest"), "Alice", "library")
    t.start_here()
    return t, plow.cid, bears.cid


def test_compare_the_game_at_the_table_under_three_editions(make_window, dialogs):
    t, plow, bears = _game()
    w = make_window(t)
    w.c.drop(bears, "battlefield", None)
    w.c.drop(plow, "battlefield", None)  # into play in 1999; refused in 2016 (400.4a)
    w.c.draw("Alice", 1)
    dialogs.answer("Compare editions", _pick("cr-1999", "cr-2004"))
    w.judges.compare_editions()
    c = w.judges.compare_dialog
    tree = c.tree
    assert tree.columnCount() == 2 + 3
    assert [tree.headerItem().text(i) for i in range(2, 5)] == ["cr-1999", "cr-2004", "cr-2016"]
    rows = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    assert len(rows) == 3
    assert rows[1].text(1) == "outcome and rules" and "400.4a" in rows[1].text(4)
    assert rows[0].text(1) in ("", "rules", "renumbered")  # no outcome differs
    assert w.c.table is t and len(t.history) == 3  # the table itself is untouched
    from PySide6.QtWidgets import QLabel
    said = [x.text() for x in c.findChildren(QLabel) if "between" in x.text()]
    assert said == ["1 of 3 steps differs between cr-1999, cr-2004 and cr-2016."]
    # opened at 1100 wide, it is inside the screen (800x800 offscreen here)
    from PySide6.QtGui import QGuiApplication
    avail = QGuiApplication.primaryScreen().availableGeometry()
    assert avail.contains(c.frameGeometry()), (c.frameGeometry(), avail)
    c.close()


def test_switching_edition_replays_the_game(make_window, dialogs):
    t, plow, bears = _game()
    w = make_window(t)
    w.c.drop(bears, "battlefield", None)
    w.c.drop(plow, "battlefield", None)  # into play under 1999; refused under 2016
    dialogs.expect("Change the rules edition", "Replay the game")
    w._edition_chosen(w.edition_box.findData("cr-2016"))
    QApplication.processEvents()
    new = w.c.table
    assert new is not t and new.edition.id == "cr-2016"
    assert [o.card.name for o in new.objects_in((None, "battlefield"))] == ["Grizzly Bears"]
    assert "Plow Under" in [o.card.name for o in new.objects_in(("Alice", "hand"))]
    assert "1 of 2 steps turn out differently" in w.message()
    assert w.judges.compare_dialog.isVisible()
    assert w.edition_box.currentData() == "cr-2016" and w.c.dirty
    w.judges.compare_dialog.close()
    w.undo()  # the replayed game's history is the table's: undo takes the Bears back
    assert not new.objects_in((None, "battlefield"))


def test_what_the_rules_refused_is_replayed_too(make_window, dialogs):
    """A judge shows Plow Under refused under the 2016 rules, then asks about 1999: the
    refused drop is part of the game's story, and under 1999 it is put into play."""
    t, plow, bears = _game("cr-2016")
    w = make_window(t)
    w.c.drop(plow, "battlefield", None)  # refused: 400.4a
    w.c.drop(bears, "battlefield", None)
    assert len(t.history) == 1
    dialogs.expect("Change the rules edition", "Replay the game")
    w._edition_chosen(w.edition_box.findData("cr-1999"))
    QApplication.processEvents()
    new = w.c.table
    assert new.edition.id == "cr-1999"
    on = sorted(o.card.name for o in new.objects_in((None, "battlefield")))
    assert on == ["Grizzly Bears", "Plow Under"]
    assert "1 of 2 steps turn out differently" in w.message()
    w.judges.compare_dialog.close()


def test_a_recording_keeps_a_refused_drop_as_a_step(make_window, tmp_path):
    import json

    from tests.helpers import run_cli
    t, plow, bears = _game("cr-2016")
    w = make_window(t)
    w.c.drop(plow, "battlefield", None)  # before the recording: not in it
    w.judges.toggle_recording(True)
    w.c.drop(bears, "battlefield", None)
    w.c.drop(plow, "battlefield", None)  # refused: 400.4a
    rec, w.c.recorder = w.c.recorder, None
    assert [next(k for k in s if k not in ("say", "expect")) for s in rec.steps] == \
        ["move", "move"]
    out = tmp_path / "refused.toml"
    assert w.judges.save_recording(rec, out)
    assert rec.problems == []
    text = out.read_text()
    assert "rejected = true" in text and '"400.4a"' in text
    r = run_cli("ruling", "--json", out)
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout)["files"][0]["passed"]


def test_compare_at_a_table_where_nothing_happened_says_so_before_asking(make_window,
                                                                        dialogs):
    """Nothing to compare: said at once, not after the editions were chosen."""
    t, _plow, _bears = _game()
    w = make_window(t)
    w.judges.compare_editions()  # View > Compare editions…
    titles = dialogs.titles()
    assert titles == ["Compare editions"], titles
    assert dialogs.seen[0][1].startswith("Nothing has happened at this table yet")
    assert getattr(w.judges, "compare_dialog", None) is None
