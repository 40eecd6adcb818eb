"""The rules browser dock (issue 17, item 3): an edition's summaries in rule order,
searchable by number or words, rule numbers in the text as links; a rule number in the
inspector, the log or the status bar opens it there."""

from __future__ import annotations

from PySide6.QtCore import QUrl
from PySide6.QtWidgets import QApplication

from tabletop.cards import builtin
from tabletop.engine import Table


def _table():
    t = Table(("Alice", "Bob"), "cr-2016")
    giant = t.add_card(builtin.lookup("Hill Giant"), "Bob", "battlefield", controller="Alice")
    t.start_here()
    return t, giant.cid


def test_search_by_number_and_by_words(make_window):
    t, _ = _table()
    w = make_window(t)
    b = w.rules_browser
    everything = b.numbers()
    assert everything == sorted(t.edition.rules, key=t.edition.sort_key)
    b.search.setText("400.7")
    assert b.numbers() and all(n.startswith("400.7") for n in b.numbers())
    b.search.setText("owner")
    assert "400.3" in b.numbers() and len(b.numbers()) < len(everything)
    b.search.setText("no such words anywhere")
    assert b.numbers() == [] and "No rule matches" in b.text.toPlainText()


def test_rule_numbers_in_the_window_open_the_browser(make_window):
    t, giant = _table()
    w = make_window(t)
    w.rules_dock.hide()
    w.c.drop(giant, "graveyard", "Alice")  # redirected to Bob's graveyard: 400.3
    QApplication.processEvents()
    # the status bar: its rule numbers are links
    assert 'href="rule:400.3"' in w.status.text() and "400.3" in w.message()
    w.status.linkActivated.emit("rule:400.3")
    assert w.rules_dock.isVisible() and w.rules_browser.current == "400.3"
    assert t.edition.rules["400.3"] in w.rules_browser.text.toPlainText()
    # the inspector's links
    w.c.selection.emit(giant)
    w.inspector.anchorClicked.emit(QUrl("rule:400.7"))
    assert w.rules_browser.current == "400.7"
    # a log line with rules
    item = next(w.log.list.item(i) for i in range(w.log.list.count())
                if "400.3" in w.log.list.item(i).text())
    w.log.list.itemClicked.emit(item)
    assert w.rules_browser.current == "400.3"
    # links inside the browser's own text lead on
    w.rules_browser.text.anchorClicked.emit(QUrl("rule:400.1"))
    assert w.rules_browser.current == "400.1"


def _pick(*wanted):
    """Answer the editions dialog: tick the table's edition and ``wanted``, press OK."""
    from PySide6.QtWidgets import QCheckBox, QDialogButtonBox

    def answer(d):
        for box in d.findChildren(QCheckBox):
            box.setChecked(box.text().split(" ")[0] in wanted or box.text().startswith(
                "cr-2016"))
        d.findChild(QDialogButtonBox).button(QDialogButtonBox.Ok).click()
    return answer


def test_a_rule_in_a_comparison_opens_in_its_own_edition(make_window, dialogs):
    from tests.helpers import EXAMPLES
    w = make_window(Table(("Alice", "Bob")))
    w.judges.open_scenario(EXAMPLES / "basics.toml")
    dialogs.answer("Compare editions", _pick("cr-1999"))
    w.judges.compare_editions()
    tree = w.judges.compare_dialog.tree
    col = 3  # the cr-1999 column (Step, Differs, cr-2016, cr-1999)
    from tabletop.ui.rules_browser import first_number
    item = next(tree.topLevelItem(i) for i in range(tree.topLevelItemCount())
                if first_number(tree.topLevelItem(i).text(col)))
    tree.itemClicked.emit(item, col)
    assert w.rules_browser.edition.currentData() == "cr-1999"
    assert w.rules_browser.current == first_number(item.text(col))
    w.judges.compare_dialog.close()


def test_rule_numbers_in_the_scenario_dock_open_the_browser(make_window):
    from tests.helpers import EXAMPLES
    t, _ = _table()
    w = make_window(t)
    w.rules_dock.hide()
    w.scenario_panel.open(EXAMPLES / "basics.toml")
    p = w.scenario_panel
    for _ in range(4):  # ... Alice drags Plow Under onto the battlefield: refused, 400.4a
        p.step()
    assert "400.4a" in p.detail_text()
    assert 'href="rule:400.4a"' in p.detail.text()
    summary = w.c.table.edition.summary("400.4a")
    assert summary and summary in p.detail_text()
    p.detail.linkActivated.emit("rule:400.4a")
    assert w.rules_dock.isVisible() and w.rules_browser.current == "400.4a"


def test_f1_opens_the_rules_browser_on_the_tables_edition(make_window, dialogs):
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    t, _ = _table()
    w = make_window(t)
    w.rules_dock.hide()
    w.rules_browser.edition.setCurrentIndex(w.rules_browser.edition.findData("cr-1999"))
    QTest.keyClick(w, Qt.Key_F1)
    assert w.rules_dock.isVisible() and dialogs.seen == []  # no message box any more
    assert w.rules_browser.edition.currentData() == "cr-2016"
    assert w.rules_browser.numbers() == sorted(t.edition.rules, key=t.edition.sort_key)


def test_the_rules_text_is_built_after_the_first_frame_not_before(qtbot):
    """Start-up (issue 15, item 7): the browser, behind another tab, costs nothing until
    the table has been painted; shown, it holds the edition's rules."""
    from PySide6.QtCore import QEvent, QObject

    from tabletop.ui.controller import TableController
    from tabletop.ui.main_window import MainWindow
    t, _ = _table()
    w = MainWindow(TableController(t))
    qtbot.addWidget(w)
    built_at_first_paint = []

    class Spy(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Paint and not built_at_first_paint:
                built_at_first_paint.append(w.rules_browser._built)
            return False
    spy = Spy()
    w.view.viewport().installEventFilter(spy)
    assert not w.rules_browser._built and w.rules_browser.text.toPlainText() == ""
    w.show()
    qtbot.waitUntil(lambda: w.first_painted, timeout=3000)
    assert built_at_first_paint == [False]
    w.show_rules()
    qtbot.waitUntil(lambda: w.rules_browser._built, timeout=3000)
    assert t.edition.rules["400.3"] in w.rules_browser.text.toPlainText()


def test_edition_titles_are_read_without_reading_each_editions_rules():
    from tabletop.engine import editions
    assert [i for i, _ in editions.titles()] == list(editions.EDITION_IDS)
    assert all(title == editions.get(i).title for i, title in editions.titles())


def test_the_rules_browser_is_made_when_its_tab_is_clicked(make_window, qtbot):
    """Start-up leaves the browser (behind the log's tab) unmade; a click on its tab
    makes it, on the table's edition, and fills it."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QTabBar
    t, _ = _table()
    w = make_window(t)
    assert w._rules_browser is None
    bar = next(b for b in w.findChildren(QTabBar)
               if "Rules" in [b.tabText(i) for i in range(b.count())])
    index = [bar.tabText(i) for i in range(bar.count())].index("Rules")
    QTest.mouseClick(bar, Qt.LeftButton, Qt.NoModifier, bar.tabRect(index).center())
    qtbot.waitUntil(lambda: w._rules_browser is not None and w._rules_browser._built,
                    timeout=5000)
    assert w.rules_dock.widget() is w._rules_browser and w._rules_browser.isVisible()
    assert w._rules_browser.edition.currentData() == "cr-2016"
    assert t.edition.rules["400.3"] in w._rules_browser.text.toPlainText()
