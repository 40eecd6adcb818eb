"""Issue 35, the deck editor, driven through its window: from an empty editor a legal
60-card deck is built with search only, its curve and the odds of a named card by turn
3 are read (against a hypergeometric value worked out by hand), a fifth copy is a
legality problem, the deck is saved, reopened and playtested, and Next game picks up
the deck as edited."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QFileDialog

from tabletop.cards import stats
from tabletop.cards.db import CardDB
from tabletop.engine import Table

EVERYWHERE = {f: "legal" for f in ("standard", "modern", "legacy", "vintage", "commander")}


def _card(name, type_line, cost="", colors=(), cmc=0, pt=None):
    d = {"object": "card", "name": name, "type_line": type_line, "layout": "normal",
         "mana_cost": cost, "cmc": cmc, "colors": list(colors),
         "color_identity": list(colors), "oracle_text": "", "legalities": EVERYWHERE}
    if pt:
        d["power"], d["toughness"] = pt
    return d


CARDS = [_card("Forest", "Basic Land — Forest"), _card("Mountain", "Basic Land — Mountain"),
         _card("Grove Elf", "Creature — Elf", "{G}", "G", 1, ("1", "1")),
         _card("Ember Fiend", "Creature — Elemental", "{1}{R}", "R", 2, ("3", "1"))]


@pytest.fixture
def db(tmp_path):
    (tmp_path / "cards.json").write_text(json.dumps(CARDS), encoding="utf-8")
    d = CardDB(tmp_path / "cards.sqlite3")
    d.import_file(tmp_path / "cards.json")
    return d


def _menu(window, text):
    action = next(a for a in window.findChildren(QAction) if a.text() == text)
    action.trigger()
    QApplication.processEvents()


def _search(ed, query):
    ed.search.clear()
    QTest.keyClicks(ed.search, query)
    QTest.keyClick(ed.search, Qt.Key.Key_Return)
    return [ed.results.item(i).text() for i in range(ed.results.count())]


def _add_from_search(ed, name, times):
    row = next(i for i in range(ed.results.count()) if ed.results.item(i).text() == name)
    ed.results.setCurrentRow(row)
    ed.results.setFocus()
    for _ in range(times):
        QTest.keyClick(ed.results, Qt.Key.Key_Plus)


def _row(ed, section, name):
    t = ed.tables[section]
    return next(r for r in range(t.rowCount()) if t.name_at(r) == name)


def test_a_player_builds_checks_saves_reopens_and_playtests_a_deck(make_window, dialogs, db,
                                                                   monkeypatch, tmp_path):
    w = make_window(Table(("Alice", "Bob")))
    _menu(w, "Dec&k editor…")
    ed = w.playtest.editor
    ed.db = db
    assert ed.isVisible() and ed.played() == []

    assert _search(ed, "t:creature (grove OR fiend)") == ["Ember Fiend", "Grove Elf"]
    _add_from_search(ed, "Grove Elf", 4)
    at = ed.results.visualItemRect(ed.results.item(0)).center()  # Ember Fiend's line
    vp, left, none = ed.results.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier(0)
    QTest.mousePress(vp, left, none, at)  # a real double-click: press, release, press...
    QTest.mouseRelease(vp, left, none, at)
    QTest.mouseDClick(vp, left, none, at)
    QTest.mouseRelease(vp, left, none, at)
    assert ed.count("main", "Ember Fiend") == 1
    _add_from_search(ed, "Ember Fiend", 3)
    assert _search(ed, "t:basic -t:snow (forest OR mountain)") == ["Forest", "Mountain"]
    _add_from_search(ed, "Forest", 1)
    _add_from_search(ed, "Mountain", 1)
    forest = ed.tables["main"].item(_row(ed, "main", "Forest"), 0)
    forest.setText("28")  # counts are edited in place
    ed.tables["main"].item(_row(ed, "main", "Mountain"), 0).setText("24")
    assert dict(ed.played()) == {"Forest": 28, "Mountain": 24, "Grove Elf": 4,
                                 "Ember Fiend": 4}
    assert ed.headings["main"].text() == "Main deck — 60"

    s = ed.current_stats
    assert (s.cards, s.lands, s.curve[1], s.curve[2], s.average_mv) == (60, 52, 4, 4, 1.5)
    # the curve as Qt's chart draws it: a bar a mana value, 4 at 1 and 4 at 2
    bars = ed.curve_chart.chart.series()[0].barSets()
    assert [b.label() for b in bars][:3] == ["0", "1", "2"]
    assert [sum(b.at(i) for i in range(b.count())) for b in bars][:4] == [0, 4, 4, 0]
    # its scale: three whole-number ticks, the top above the tallest bar (4): 0, 3, 6
    y = next(a for a in ed.curve_chart.chart.axes() if a.orientation() == Qt.Orientation.Vertical)
    assert (y.min(), y.max(), y.tickCount()) == (0, 6, 3)
    ed.format_box.setCurrentIndex(ed.format_box.findData("modern"))
    assert ed.legal_out.text() == "Legal in modern."

    # the odds of at least one Grove Elf by turn 3 on the play: 9 cards seen of 60, 4 elves;
    # 1 - C(56,9)/C(60,9) = 1 - (51*50*49*48)/(60*59*58*57), by hand
    QTest.keyClicks(ed.odds_group, "Grove Elf")
    ed.odds_turn.setValue(3)
    by_hand = 1 - (51 * 50 * 49 * 48) / (60 * 59 * 58 * 57)
    assert abs(float(ed.last_odds.play) - by_hand) < 1e-12
    assert f"By turn 3 on the play: {by_hand:.1%}" in ed.odds_out.text()
    assert ed.odds_out.text().startswith("4 of 60 cards are in the group.")
    on_draw = 1 - (50 * 49 * 48 * 47) / (60 * 59 * 58 * 57)  # 10 cards seen
    assert abs(float(ed.last_odds.draw) - on_draw) < 1e-12

    # a fifth copy is a problem naming the card and the rule; taking it out is undone
    ed.tables["main"].setCurrentCell(_row(ed, "main", "Grove Elf"), 1)
    ed.tables["main"].setFocus()
    QTest.keyClick(ed.tables["main"], Qt.Key.Key_Plus)
    lines = [ed.problems.item(i).text() for i in range(ed.problems.count())]
    assert any(x.startswith("Grove Elf: 5 copies; at most 4 (100.2a") for x in lines), lines
    ed.undo_action.trigger()
    assert ed.count("main", "Grove Elf") == 4 and ed.problems.count() == 0
    ed.redo_action.trigger()
    QTest.keyClick(ed.tables["main"], Qt.Key.Key_Minus)
    assert ed.count("main", "Grove Elf") == 4

    path = tmp_path / "green-red.txt"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    _menu(ed, "Save &as…")
    assert path.exists() and ed.undo.isClean() and not ed.windowTitle().endswith("*")
    _menu(ed, "&New deck")
    assert ed.played() == []
    assert ed.open_deck(path)
    assert dict(ed.played()) == {"Forest": 28, "Mountain": 24, "Grove Elf": 4,
                                 "Ember Fiend": 4}
    assert str(path) in ed.recent()

    dialogs.expect("Playtest", "Alone")
    _menu(ed, "&Playtest")
    t = w.c.table
    assert t.players == ("Player",)
    assert sum(len(t.zones[("Player", z)]) for z in ("library", "hand")) == 60

    # edited after the game began: the next game is dealt from the deck as edited
    ed.set_count("main", "Ember Fiend", 0)
    ed.set_count("main", "Mountain", 28)
    dialogs.answer("Sideboarding", lambda d: d.findChild(QDialogButtonBox).button(
        QDialogButtonBox.StandardButton.Ok).click())
    w.playtest.next_game()
    t = w.c.table
    names = [t.objs[o].card.name for z in ("library", "hand") for o in t.zones[("Player", z)]]
    assert len(names) == 60 and "Ember Fiend" not in names and names.count("Mountain") == 28


def test_unsaved_changes_are_never_lost_silently(make_window, dialogs, db):
    w = make_window(Table(("Alice", "Bob")))
    ed = w.playtest.deck_editor()
    ed.db = db
    ed.change("main", "Forest", 3)
    assert ed.windowTitle().endswith("*")
    dialogs.expect("Unsaved changes", "Cancel")
    ed.close()
    assert ed.isVisible() and ed.count("main", "Forest") == 3
    # it is the deck that has changes, not the game
    assert dialogs.seen[-1][1].startswith("The deck “New deck” has changes that are not "
                                          "saved to a file."), dialogs.seen[-1]
    dialogs.expect("Unsaved changes", "Cancel")
    ed.new_deck()
    assert ed.count("main", "Forest") == 3
    dialogs.expect("Unsaved changes", "Discard")
    ed.close()
    assert not ed.isVisible()


def test_a_sample_hand_takes_london_mulligans():
    hand = stats.SampleHand(["Forest"] * 30 + ["Grove Elf"] * 30, seed=3)
    assert len(hand.hand) == 7
    hand.mulligan()
    hand.mulligan()
    assert len(hand.hand) == 7 and hand.to_bottom == 2  # seven again, two to the bottom
    with pytest.raises(ValueError):
        hand.keep([0])
    kept = hand.keep([0, 1])
    assert len(kept) == 5 and len(hand.library) == 55


def test_cards_are_dropped_from_the_search_and_moved_between_sections(make_window, db):
    from PySide6.QtCore import QMimeData, QPointF
    from PySide6.QtGui import QDropEvent

    from tabletop.ui.deck_editor import MIME
    w = make_window(Table(("Alice", "Bob")))
    ed = w.playtest.deck_editor()
    ed.db = db
    found = _search(ed, "t:creature")
    assert len(found) > 1 and ed.found.text() == f"{len(found)} cards"
    assert _search(ed, "no such card") == [] and ed.found.text() == "No card matches."
    _search(ed, "grove")
    assert ed.found.text() == "1 card"  # (it said "1 cards")
    data = ed.results.mimeData([ed.results.item(0)])  # what dragging the result carries

    def drop(table, mime):
        ev = QDropEvent(QPointF(10, 10), Qt.DropAction.MoveAction, mime,
                        Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
        table.dropEvent(ev)
    drop(ed.tables["main"], data)
    QApplication.processEvents()
    # counted in words that fit the numbers (it said "1 cards: 0 lands, 1 other cards")
    assert ed.summary.text().startswith("1 card: 0 lands, 1 other card;"), ed.summary.text()
    QTest.keyClicks(ed.odds_group, "Grove Elf")
    assert ed.odds_out.text().startswith("1 of 1 card is in the group."), ed.odds_out.text()
    drop(ed.tables["main"], data)
    assert ed.count("main", "Grove Elf") == 2
    moved = QMimeData()
    moved.setData(MIME, b"main\nGrove Elf")  # a row dragged from the main deck
    drop(ed.tables["sideboard"], moved)
    assert (ed.count("main", "Grove Elf"), ed.count("sideboard", "Grove Elf")) == (1, 1)
    ed.undo_action.trigger()  # the move is one edit
    assert (ed.count("main", "Grove Elf"), ed.count("sideboard", "Grove Elf")) == (2, 0)
    ed.pictures_box.click()  # results as pictures
    assert ed.results.viewMode() == ed.results.ViewMode.IconMode
    assert not ed.results.item(0).icon().isNull()
    ed.tables["main"].setCurrentCell(0, 1)
    QTest.keyClick(ed.tables["main"], Qt.Key.Key_Delete)
    assert ed.count("main", "Grove Elf") == 0


def test_the_editor_draws_a_card_as_the_table_draws_it(make_window, db):
    """The card the editor shows when one is clicked among the search's results (where
    there is no picture) is the table's drawing of it: a creature with its power and
    toughness in the corner (the editor drew Ember Fiend, a 3/1, with none)."""
    from PySide6.QtCore import QSize
    from PySide6.QtGui import QImage

    from tabletop.engine import Card, views
    from tabletop.ui.zone_viewer import card_pixmap
    w = make_window(Table(("Alice", "Bob")))
    ed = w.playtest.deck_editor()
    ed.db = db
    ed.show()
    for name in ("Ember Fiend", "Forest"):
        found = _search(ed, name.lower())
        row = ed.results.visualItemRect(ed.results.item(found.index(name))).center()
        QTest.mouseClick(ed.results.viewport(), Qt.MouseButton.LeftButton,
                         Qt.KeyboardModifier.NoModifier, row)
        QApplication.processEvents()
        t = Table(("Alice",))
        t.add_card(Card.from_json(ed.info(name)), "Alice", "hand")
        face = views.face_of(t, t.objects_in(("Alice", "hand"))[0], views.JUDGE)
        on_table = card_pixmap(face, 2.0).scaled(
            QSize(220, 306), Qt.AspectRatioMode.KeepAspectRatio,
            Qt.TransformationMode.SmoothTransformation)
        shown = ed.picture.pixmap().toImage().convertToFormat(QImage.Format.Format_ARGB32)
        assert shown == on_table.toImage().convertToFormat(QImage.Format.Format_ARGB32), name


def test_a_card_the_database_does_not_know_is_counted_apart():
    facts = {"Forest": {"name": "Forest", "types": ["Land"], "supertypes": ["Basic"]},
             "Grove Elf": {"name": "Grove Elf", "types": ["Creature"], "mv": 1.0,
                           "colors": ["G"]}}
    s = stats.deck_stats([("Forest", 20), ("Grove Elf", 4), ("Homebrew Thing", 3)],
                         facts.get)
    assert (s.cards, s.lands, s.unknown, s.curve[0], s.curve[1]) == (27, 20, 3, 0, 4)
    assert s.average_mv == 1.0 and s.colorless == 0


def test_the_editor_opens_inside_a_small_screen(make_window):
    """It opened at 1280x780 whatever the screen (the offscreen one here is 800x800; a
    netbook's 1024x600), its right and bottom past the edges, and its Statistics tab
    alone wanted 714 pixels of height. It opens inside the screen's available area, and
    every tab fits in it (a tall one scrolls)."""
    from PySide6.QtGui import QGuiApplication
    w = make_window(Table(("Alice", "Bob")))
    _menu(w, "Dec&k editor…")
    ed = w.playtest.editor
    avail = QGuiApplication.primaryScreen().availableGeometry()
    assert avail.contains(ed.frameGeometry()), (ed.frameGeometry(), avail)
    assert ed.minimumSizeHint().height() <= min(avail.height(), 600)
    assert ed.minimumSizeHint().width() <= min(avail.width(), 1024)
    ed.close()


def _right_click(view, pos, choose):
    """A right press on ``view`` at ``pos`` as X11 sends it (the press, then the
    context-menu event), and ``choose`` picked from the menu that opens; returns the
    menu's items (none: no menu opened)."""
    from PySide6.QtGui import QContextMenuEvent

    from tests.ui.menus import when_a_menu_opens
    vp = view.viewport()
    QTest.mousePress(vp, Qt.MouseButton.RightButton, pos=pos)
    seen, _ = when_a_menu_opens(choose)
    QApplication.sendEvent(vp, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos,
                                                 vp.mapToGlobal(pos)))
    QTest.mouseRelease(vp, Qt.MouseButton.RightButton, pos=pos)
    for _ in range(50):  # (a menu opens at once, or not at all)
        if seen:
            break
        QTest.qWait(10)
    return seen


def test_a_mouse_alone_adds_counts_and_moves_cards_by_their_right_click_menus(make_window, db):
    """A player with only a mouse: a result's right-click menu adds the card to any
    section; a row's adds one, takes one away, moves one or all to another section (one
    undoable edit) and removes the card; the menu is for the row under the mouse, not the
    row selected before."""
    w = make_window(Table(("Alice", "Bob")))
    ed = w.playtest.deck_editor()
    ed.db = db
    ed.show()
    assert _search(ed, "t:creature (grove OR fiend)") == ["Ember Fiend", "Grove Elf"]
    elf_result = ed.results.visualItemRect(ed.results.item(1)).center()
    seen = _right_click(ed.results, elf_result, "Add to the main deck")
    assert seen == ["Add to the main deck", "Add to the sideboard", "Add to the commanders",
                    "Add to the maybeboard"]
    _right_click(ed.results, elf_result, "Add to the main deck")
    _right_click(ed.results, ed.results.visualItemRect(ed.results.item(0)).center(),
                 "Add to the sideboard")
    assert ed.deck == {"main": {"Grove Elf": 2}, "sideboard": {"Ember Fiend": 1},
                       "commander": {}, "maybeboard": {}}

    main = ed.tables["main"]
    row = main.visualItemRect(main.item(_row(ed, "main", "Grove Elf"), 1)).center()
    main.clearSelection()
    seen = _right_click(main, row, "Add one")
    assert seen[:4] == ["Add one", "Remove one", "Remove all", "Edit the count"]
    assert "Move all 2 to the sideboard" in seen and "Move one to the commanders" in seen
    assert ed.count("main", "Grove Elf") == 3
    _right_click(main, row, "Remove one")
    assert ed.count("main", "Grove Elf") == 2
    _right_click(main, row, "Move all 2 to the sideboard")
    assert ed.deck["main"] == {} and ed.deck["sideboard"] == {"Ember Fiend": 1,
                                                              "Grove Elf": 2}
    ed.undo_action.trigger()  # the move of both is one edit
    assert ed.deck["main"] == {"Grove Elf": 2} and ed.deck["sideboard"] == {"Ember Fiend": 1}
    _right_click(main, row, "Move one to the commanders")
    assert (ed.count("main", "Grove Elf"), ed.count("commander", "Grove Elf")) == (1, 1)

    side = ed.tables["sideboard"]
    side.setCurrentCell(_row(ed, "sideboard", "Ember Fiend"), 1)
    _right_click(side, side.visualItemRect(side.item(0, 1)).center(), "Remove all")
    assert ed.deck["sideboard"] == {}
    # below the last row: no menu, nothing changed
    from PySide6.QtCore import QPoint
    assert _right_click(main, QPoint(10, main.viewport().height() - 5), "Add one") == []
    assert ed.deck["main"] == {"Grove Elf": 1}
    ed.close()


def test_every_entry_of_the_deck_editors_menus(make_window, dialogs, db):
    """Every enabled entry of the editor's menu bar, chosen with a deck under way (each
    dialog it opens cancelled; a question about unsaved changes answered Discard): none
    raises, and the editor is still there to use."""
    from PySide6.QtGui import QAction
    w = make_window(Table(("Alice", "Bob")))
    ed = w.playtest.deck_editor()
    ed.db = db
    _search(ed, "grove")
    _add_from_search(ed, "Grove Elf", 3)
    chosen = []

    def entries(menu):
        for a in menu.actions():
            if a.menu() is not None:
                yield from entries(a.menu())
            elif a.text() and not a.isSeparator():
                yield a
    for top in ed.menuBar().actions():
        for a in list(entries(top.menu())):
            if not a.isEnabled() or a.text().replace("&", "") in ("Close", "Playtest"):
                continue  # (closing, and a game dealt: tested on their own)
            if ed.count("main", "Grove Elf") == 0:
                _add_from_search(ed, "Grove Elf", 3)
            a.trigger()
            QApplication.processEvents()
            chosen.append(a.text().replace("&", ""))
    # (Undo is named by the edit it takes back; Open recent has no deck yet)
    assert [x.split(" ")[0] if x.startswith("Undo") else x for x in chosen] == [
        "New deck", "Open deck…", "Save", "Save as…", "Undo", "Redo", "Find a card"], chosen
    assert isinstance(ed.undo_action, QAction) and ed.isVisible()
    _search(ed, "grove")
    _add_from_search(ed, "Grove Elf", 1)
    assert ed.count("main", "Grove Elf") >= 1
