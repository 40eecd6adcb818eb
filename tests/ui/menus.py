"""Choosing from the window's menus in tests, as a click would."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication


def card_menu_action(w, cid, *path) -> None:
    """Trigger an entry of a card's menu, through its submenus, as a click would."""
    root = menu = w.scene.card_actions(w.scene.item_for_cid(cid))
    for i, text in enumerate(path):
        action = next(a for a in menu.actions() if a.text() == text)
        if i + 1 < len(path):
            menu = action.menu()
        else:
            action.trigger()
    QApplication.processEvents()
    del root
