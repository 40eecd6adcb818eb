"""The phase bar (issue 16, item 7): the turn and active player, a button per step,
Next step (Ctrl+Right) and Next turn (Ctrl+T); the untap step untaps and the draw step
draws when switched on; cleanup discards to hand size first. Real clicks and keys."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tabletop.cards import builtin
from tabletop.engine import Table


def _table() -> Table:
    t = Table(("Alice", "Bob"), "cr-2016", seed=2)
    for p in ("Alice", "Bob"):
        for name in ("Forest", "Mountain", "Hill Giant", "Shock", "Forest"):
            t.add_card(builtin.lookup(name), p, "library")
    t.add_card(builtin.lookup("Grizzly Bears"), "Bob", "battlefield", tapped=True)
    t.add_card(builtin.lookup("Forest"), "Alice", "battlefield", tapped=True)
    t.start_here()
    return t


def key(w, seq):
    QTest.keyClick(w, seq[-1], seq[0])
    QApplication.processEvents()


def test_steps_by_click_and_key_and_the_next_turn_untaps(make_window):
    t = _table()
    w = make_window(t)
    bar = w.phase_bar
    assert bar.turn_label.text().strip() == "Turn 1 · Alice" and bar.checked() == "main1"
    QTest.mouseClick(bar.buttons["combat"], Qt.LeftButton)
    QApplication.processEvents()
    assert t.phase == "combat" and bar.checked() == "combat"
    key(w, (Qt.ControlModifier, Qt.Key_Right))
    assert t.phase == "attackers" and bar.checked() == "attackers"
    assert w.log.lines()[-1].endswith("Alice's turn 1: declare attackers")
    key(w, (Qt.ControlModifier, Qt.Key_T))  # next turn: Bob untaps
    assert (t.turn, t.active, t.phase) == (2, "Bob", "untap")
    assert bar.turn_label.text().strip() == "Turn 2 · Bob" and bar.checked() == "untap"
    bears = next(o for o in t.objects_in((None, "battlefield")) if o.controller == "Bob")
    forest = next(o for o in t.objects_in((None, "battlefield")) if o.controller == "Alice")
    assert bears.tapped is False and forest.tapped is True
    hand = len(t.zones[("Bob", "hand")])
    key(w, (Qt.ControlModifier, Qt.Key_Right))  # upkeep
    key(w, (Qt.ControlModifier, Qt.Key_Right))  # draw: Bob draws
    assert t.phase == "draw" and len(t.zones[("Bob", "hand")]) == hand + 1
    w.undo()  # the step and its draw are one action
    assert t.phase == "upkeep" and len(t.zones[("Bob", "hand")]) == hand
    assert bar.checked() == "upkeep"


def test_switched_off_the_untap_and_draw_steps_leave_the_cards_alone(make_window):
    t = _table()
    w = make_window(t)
    w.untap_action.trigger()
    w.draw_action.trigger()
    assert not w.untap_action.isChecked() and not w.draw_action.isChecked()
    w.playtest.next_turn()
    bears = next(o for o in t.objects_in((None, "battlefield")) if o.controller == "Bob")
    assert bears.tapped is True
    hand = len(t.zones[("Bob", "hand")])
    QTest.mouseClick(w.phase_bar.buttons["draw"], Qt.LeftButton)
    assert t.phase == "draw" and len(t.zones[("Bob", "hand")]) == hand
    w.untap_action.trigger()
    w.draw_action.trigger()


def test_cleanup_asks_for_discards_and_a_cancel_keeps_the_step(make_window, dialogs):
    t = _table()
    for _ in range(3):
        t.add_card(builtin.lookup("Shock"), "Alice", "hand")
    for _ in range(5):
        t.add_card(builtin.lookup("Forest"), "Alice", "hand")
    t.start_here()
    w = make_window(t)
    QTest.mouseClick(w.phase_bar.buttons["cleanup"], Qt.LeftButton)
    QApplication.processEvents()
    assert "Cleanup" in dialogs.titles()  # 8 cards: the discard dialog (cancelled here)
    assert t.phase == "main1" and w.phase_bar.checked() == "main1"
    assert not t.history


def test_at_1024_wide_every_button_of_the_bar_is_on_it(make_window, qtbot):
    """On a 1024-pixel-wide screen Next step and Next turn are on the bar, not behind
    the toolbar's » button, and a click on Next turn goes to the next turn."""
    t = _table()
    w = make_window(t)
    w.resize(1022, 575)  # (a 1024x600 screen's window, inside its frame)
    qtbot.wait(50)
    bar = w.phase_bar
    for b in (*bar.buttons.values(), bar.next_step, bar.next_turn_button):
        assert b.isVisible() and bar.rect().contains(b.geometry()), b.text()
    QTest.mouseClick(bar.next_turn_button, Qt.LeftButton)
    QApplication.processEvents()
    assert (t.turn, t.active) == (2, "Bob")
