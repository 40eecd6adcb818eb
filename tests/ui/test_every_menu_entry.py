"""Every entry of the menu bar, chosen as a person chooses it with a card selected,
raises nothing and never acts on a card that is not there: an entry's signal once
filled a command's card in with False (card 0, which no table has), so Setup > Remove
the card and Modify the card (Ctrl+Alt+D, Ctrl+Alt+M) only ever answered "that card is
not on the table". Each dialog an entry opens is cancelled. Entries that leave this
table (Quit), go to the network or change the screen are left out, and said so."""

from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication

from tabletop.cards import builtin
from tabletop.engine import Table
from tabletop.engine.model import Zone

# what they do is outside this table, or the screen's: each is tested where it is used
LEFT_OUT = {"Quit", "Host a game on the network…", "Join a network game…",
            "Leave the network game", "Get card data (download)…", "Full screen",
            "Presenter mode", "Download pictures (Scryfall)", "Record a scenario"}


def _entries(w) -> list[tuple[str, str, QAction]]:
    out = []

    def walk(title: str, menu) -> None:
        for a in menu.actions():
            if a.menu() is not None:
                walk(title, a.menu())
            elif a.text() and not a.isSeparator():
                out.append((title, a.text().replace("&", ""), a))
    for title, menu in w._menus.items():
        walk(title.replace("&", ""), menu)
    return out


def test_every_menu_bar_entry_with_a_card_selected(make_window, dialogs, qtbot):
    t = Table(("Alice", "Bob"), seed=3)
    for name in ("Island", "Swamp", "Mountain", "Plains"):
        t.add_card(builtin.lookup(name), "Alice", Zone.LIBRARY)
    bears = t.add_card(builtin.lookup("Grizzly Bears"), "Alice", Zone.BATTLEFIELD)
    t.add_card(builtin.lookup("Shock"), "Alice", Zone.HAND)
    t.start_here()
    w = make_window(t)
    entries = _entries(w)
    names = {n for _, n, _ in entries}
    assert {"Remove the card from the table", "Modify the card…", "Tap or untap",
            "Undo", "Draw a card"} <= names  # the walk reaches the menus' entries
    assert LEFT_OUT - names == set(), "a left-out entry no longer exists"
    tried = []
    for title, name, action in entries:
        if name in LEFT_OUT or not action.isEnabled():
            continue
        if w.c.table is not t:  # a new table (its question answered Discard): this one back
            w.c.set_table(t)
        while t.live(bears.cid) is None or t.live(bears.cid).zone != (None, Zone.BATTLEFIELD):
            assert w.c.undo(), name  # the bears back on the battlefield, for the next entry
        QApplication.processEvents()
        w.scene.clearSelection()
        w.scene.item_for_cid(bears.cid).setSelected(True)
        said = len(t.journal)
        action.trigger()
        for _ in range(3):
            QApplication.processEvents()
        tried.append(f"{title} > {name}")
        lines = [e.text for e in t.journal[said:]]
        assert not [x for x in lines if "not on the table" in x], (title, name, lines)
        if not w.isActiveWindow():
            w.activateWindow()
            qtbot.waitUntil(w.isActiveWindow, timeout=2000)
    setup = [x for x in tried if x.startswith("Setup >")]
    assert len(setup) == 6 and len(tried) > 60, tried
