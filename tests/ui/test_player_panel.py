"""Each seat's player panel (issue 16, item 8): life with − and + and the mouse wheel,
poison, commander damage and any other counter; every change is in the history, in the
log and undone like any other action. Real clicks and wheel turns on the view."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tabletop.cards import demo


def click(w, panel, what, button=Qt.LeftButton):
    rect = next(r for r, wh in panel.regions() if wh == what)
    p = w.view.mapFromScene(panel.mapToScene(rect.center()))
    QTest.mouseClick(w.view.viewport(), button, Qt.NoModifier, p)
    QApplication.processEvents()


def wheel(w, panel, up: bool):
    vp = w.view.viewport()
    p = w.view.mapFromScene(panel.mapToScene(panel.life_rect().center()))
    ev = QWheelEvent(QPointF(p), QPointF(vp.mapToGlobal(p)), QPoint(), QPoint(0, 120 if up else -120),
                     Qt.NoButton, Qt.NoModifier, Qt.NoScrollPhase, False)
    QApplication.sendEvent(vp, ev)
    QApplication.processEvents()


def test_life_goes_up_and_down_with_clicks_and_the_wheel(make_window):
    t = demo.new_game()
    w = make_window(t)
    panel = w.scene.player_items["Alice"]
    click(w, panel, ("life", -1))
    click(w, panel, ("life", -1))
    click(w, panel, ("life", 1))
    assert t.life["Alice"] == 19 and panel.seen.life == 19
    wheel(w, panel, up=False)
    wheel(w, panel, up=False)
    assert t.life["Alice"] == 17
    wheel(w, panel, up=True)
    assert t.life["Alice"] == 18
    assert [a.name for a in t.history][-6:] == ["life"] * 6
    assert w.log.lines()[-1].endswith("Alice is at 18 life")
    w.undo()
    assert t.life["Alice"] == 17 and panel.seen.life == 17


def test_counters_are_added_from_the_panel_and_changed_with_their_buttons(make_window):
    t = demo.new_game()
    w = make_window(t)
    panel = w.scene.player_items["Alice"]
    menu = w.scene.add_counter_menu("Alice")
    assert [a.text() for a in menu.actions() if a.text()] == [
        "poison", "commander damage from Bob", "energy", "experience", "Another kind…"]
    next(a for a in menu.actions() if a.text() == "poison").trigger()
    menu2 = w.scene.add_counter_menu("Alice")
    next(a for a in menu2.actions() if a.text() == "commander damage from Bob").trigger()
    QApplication.processEvents()
    assert panel.seen.counters == (("poison", 1), ("commander damage from Bob", 1))
    click(w, panel, ("counter", "poison", 1))
    click(w, panel, ("counter", "poison", 1))
    click(w, panel, ("counter", "commander damage from Bob", 1))
    assert t.player_counters["Alice"] == {"poison": 3, "commander damage from Bob": 2}
    click(w, panel, ("counter", "poison", -1))
    assert t.player_counters["Alice"]["poison"] == 2
    assert "Alice has taken 2 commander damage from Bob" in "\n".join(w.log.lines())
    menu = w.scene.player_actions("Alice")
    next(a for a in menu.actions() if a.text() == "Remove all poison counters").trigger()
    QApplication.processEvents()
    assert panel.seen.counters == (("commander damage from Bob", 2),)
    w.undo()
    assert panel.seen.counters == (("poison", 2), ("commander damage from Bob", 2))


def test_another_players_panel_does_not_change_from_this_seat(make_window):
    t = demo.new_game()
    w = make_window(t)
    panel = w.scene.player_items["Bob"]
    assert panel.enabled is False
    click(w, panel, ("life", -1))
    assert t.life["Bob"] == 20 and not t.history
    assert "may not act for Bob" in w.message()
    menu = w.scene.player_actions("Bob")
    assert all(not a.isEnabled() for a in menu.actions() if a.text())
    w.c.set_viewer(None)  # the judge acts for everyone
    panel = w.scene.player_items["Bob"]
    click(w, panel, ("life", -1))
    assert t.life["Bob"] == 19


def test_the_panel_follows_a_saved_game(make_window, tmp_path):
    from tabletop.engine import saves
    t = demo.new_game()
    t.set_player_counter("Bob", "poison", 4)
    path = tmp_path / "g.tabletop"
    saves.save(t, path)
    w = make_window(saves.load(path))
    assert w.scene.player_items["Bob"].seen.counters == (("poison", 4),)
