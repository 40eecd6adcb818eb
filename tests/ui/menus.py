"""Choosing from the window's menus in tests, as a click would."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication


def choose(root, path) -> None:
    """Trigger the entry of menu ``root`` that ``path`` (its words, through submenus)
    names, as a click would. The root is kept while its submenus are walked: they go
    with it."""
    menu = root
    for i, text in enumerate(path):
        action = next(a for a in menu.actions() if a.text() == text)
        if i + 1 < len(path):
            menu = action.menu()
        else:
            action.trigger()


def card_menu_action(w, cid, *path) -> None:
    """Trigger an entry of a card's menu, through its submenus, as a click would."""
    root = w.scene.card_actions(w.scene.item_for_cid(cid))
    choose(root, path)
    QApplication.processEvents()
    del root


def when_a_menu_opens(choose: str, every_ms: int = 10) -> tuple[list[str], list[str]]:
    """Wait, on the event loop, for a popup menu to open (a context menu opened by the
    event about to be sent), then trigger its entry whose words are ``choose`` (the words
    before a tab, where a menu shows the shortcut) and close the menu: it is never left
    open. Returns the lists filled then: the menu's entries, and the one chosen."""
    from PySide6.QtCore import QTimer
    seen: list[str] = []
    chosen: list[str] = []
    tries = [0]

    def pick() -> None:
        menu = QApplication.activePopupWidget()
        if menu is None:
            tries[0] += 1
            if tries[0] < 200:
                QTimer.singleShot(every_ms, pick)
            return
        words = [(a, a.text().split("\t")[0]) for a in menu.actions() if a.text()]
        seen.extend(w for _, w in words)
        action = next((a for a, w in words if w == choose), None)
        if action is not None:
            chosen.append(choose)
            action.trigger()
        menu.close()
    QTimer.singleShot(every_ms, pick)
    return seen, chosen
