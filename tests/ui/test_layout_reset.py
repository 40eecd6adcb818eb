"""View > Reset the layout: the docks and toolbars as a first start arranges them, after
a person's drags floated one dock, moved another above the table and stretched it over
the table, and their menu hid the toolbars."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tabletop.cards import demo


def _view_menu_action(w, text):
    view = next(a.menu() for a in w.menuBar().actions() if a.text().replace("&", "") == "View")
    return next(a for a in view.actions() if a.text().replace("&", "") == text)


def test_reset_the_layout_gives_the_table_its_room_back(make_window, qtbot):
    w = make_window(demo.new_game(seed=2))
    docks = (w.inspector_dock, w.log_dock, w.scenario_dock, w.rules_dock)
    # the mess a monkey's drags made at a 1024x600 screen: the table a strip
    w.inspector_dock.setFloating(True)
    w.addDockWidget(Qt.DockWidgetArea.TopDockWidgetArea, w.log_dock)
    w.resizeDocks([w.log_dock], [w.height() - 150], Qt.Orientation.Vertical)
    w.rules_dock.hide()
    for bar in w.toolbars():  # the toolbars' own menu (a right-click on them) hides them
        bar.hide()
    QApplication.processEvents()
    assert w.view.height() < w.height() // 3  # the table squeezed under the log
    _view_menu_action(w, "Reset the layout").trigger()
    qtbot.waitUntil(lambda: w.view.height() > w.height() // 2, timeout=2000)
    for d in docks:
        assert not d.isFloating() and not d.isHidden(), d.objectName()
        assert w.dockWidgetArea(d) == Qt.DockWidgetArea.RightDockWidgetArea, d.objectName()
    assert w.log_dock.isVisible() and w.inspector_dock.isVisible()
    assert w.toolbars() and all(bar.isVisible() for bar in w.toolbars())
    assert set(w.tabifiedDockWidgets(w.log_dock)) == {w.scenario_dock, w.rules_dock}
    # the first start's share of the width: 27% of the window, from 240 to 380 pixels
    # (set once the layout put back has its sizes, on the event loop's next turn)
    share = min(380, max(240, w.width() * 27 // 100))
    qtbot.waitUntil(lambda: abs(w.inspector_dock.width() - share) <= 40, timeout=2000)
    assert w.view.width() > w.width() * 2 // 3


def test_reset_the_layout_leaves_presenter_mode_first(make_window, qtbot):
    """In presenter mode the docks are the presenter's: resetting leaves it (its fonts
    and docks put back), then lays the docks out as a first start does."""
    w = make_window(demo.new_game(seed=2))
    w.judges.toggle_presenter()
    assert w.presenting
    _view_menu_action(w, "Reset the layout").trigger()
    qtbot.waitUntil(lambda: w.log_dock.isVisible() and w.inspector_dock.isVisible(),
                    timeout=2000)
    assert not w.presenting
    assert w.dockWidgetArea(w.log_dock) == Qt.DockWidgetArea.RightDockWidgetArea
