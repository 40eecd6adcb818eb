"""A commander at the table (issue 33): the owner is asked when the rules offer the
command zone instead (903.9b), and the card's menu puts a commander that just died into
the command zone (903.9a), each as the 2025 rules say."""

from __future__ import annotations

from tabletop.engine import Card, Table
from tests.ui.menus import card_menu_action

THALIA = Card("Thalia, Guardian of Thraben", ("Creature",), ("Human", "Soldier"),
              supertypes=("Legendary",))


def _table() -> tuple[Table, int]:
    t = Table(("Alice", "Bob"), edition="cr-2025")
    cid = t.add_card(THALIA, "Alice", "battlefield", commander=True).cid
    t.add_card(Card("Forest", ("Land",)), "Alice", "library")
    t.start_here()
    return t, cid


def test_a_commander_bounced_to_hand_asks_its_owner(make_window, dialogs):
    t, cid = _table()
    w = make_window(t)
    dialogs.expect("Your commander", "Command zone")
    w.c.drop(cid, "hand", "Alice")
    assert t.obj_of(cid).zone == (None, "command")
    asked = next(text for title, text, _ in dialogs.seen if title == "Your commander")
    assert "903.9b" in asked and "hand" in asked
    w.c.drop(cid, "battlefield", None)
    dialogs.expect("Your commander", "Into the hand")
    w.c.drop(cid, "hand", "Alice")
    assert t.obj_of(cid).zone == ("Alice", "hand")


def test_a_commander_that_died_goes_to_the_command_zone_from_its_menu(make_window):
    t, cid = _table()
    w = make_window(t)
    w.c.drop(cid, "graveyard", "Alice")
    assert t.obj_of(cid).zone == ("Alice", "graveyard")
    card_menu_action(w, cid, "Put into the command zone (commander)")
    assert t.obj_of(cid).zone == (None, "command")
    assert "903.9a" in t.journal[-1].cites
    w.c.drop(cid, "battlefield", None)
    w.c.drop(cid, "exile", None)
    w.c.roll("Alice", 6)  # anything between: state-based actions were checked
    card_menu_action(w, cid, "Put into the command zone (commander)")
    assert t.obj_of(cid).zone == (None, "exile")  # too late: it stays, and the log says why
    assert "state-based actions" in t.journal[-1].text


def test_a_mutating_spell_merges_by_a_click_and_its_cards_leave_together(make_window):
    """728.2 and 728.3 at the table: the spell's menu, then a click on the permanent."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication
    t = Table(("Alice", "Bob"), edition="cr-2025")
    bears = t.add_card(Card("Grizzly Bears", ("Creature",)), "Alice", "battlefield").cid
    giant = t.add_card(Card("Hill Giant", ("Creature",)), "Alice", "stack").cid
    t.start_here()
    w = make_window(t)
    card_menu_action(w, giant, "Merge on top of a permanent…")
    at = w.view.mapFromScene(w.scene.item_for_cid(bears).sceneBoundingRect().center())
    QTest.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier, at)
    QApplication.processEvents()
    assert t.obj_of(bears).card.name == "Hill Giant" and t.live(giant) is None  # 728.2a
    w.c.drop(bears, "graveyard", "Alice")
    assert {t.objs[i].card.name for i in t.zones[("Alice", "graveyard")]} == {
        "Grizzly Bears", "Hill Giant"}
