"""The Card menu of the menu bar acts on the selected card, by its shortcuts as by its
entries: each command a person can reach works (two once called methods the scene no
longer had, and raised)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tabletop.cards import builtin
from tabletop.engine import Table


def _table() -> Table:
    t = Table(("Alice", "Bob"), seed=1)
    for name in ("Island", "Swamp", "Mountain"):
        t.add_card(builtin.lookup(name), "Alice", "library")
    t.add_card(builtin.lookup("Forest"), "Alice", "battlefield")
    t.add_card(builtin.lookup("Shock"), "Alice", "hand")
    t.start_here()
    return t


def _select(w, cid: int) -> None:
    w.scene.clearSelection()
    w.scene.item_for_cid(cid).setSelected(True)


def test_put_into_the_library_nth_from_the_top_by_its_shortcut(make_window, dialogs):
    t = _table()
    w = make_window(t)
    shock = t.objects_in(("Alice", "hand"))[0].cid
    _select(w, shock)
    dialogs.expect("Put into library", 2)
    QTest.keyClick(w, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    names = [o.card.name for o in t.objects_in(("Alice", "library"))]
    assert names[1] == "Shock" and len(names) == 4  # second from the top (401.7)


def test_put_an_ability_on_the_stack_from_the_card_menu(make_window, dialogs):
    t = _table()
    w = make_window(t)
    forest = t.objects_in((None, "battlefield"))[0].cid
    _select(w, forest)
    dialogs.expect("Ability", "Add one green mana")
    action = next(a for a in w._menus["&Card"].actions()
                  if a.text().replace("&", "").startswith("Put an ability"))
    action.trigger()
    stack = t.objects_in((None, "stack"))
    assert len(stack) == 1 and "Add one green mana" in stack[0].card.name
