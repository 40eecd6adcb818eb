"""Every entry of the menu bar, chosen as a person chooses it with a card selected,
raises nothing and never acts on a card that is not there: an entry's signal once
filled a command's card in with False (card 0, which no table has), so Setup > Remove
the card and Modify the card (Ctrl+Alt+D, Ctrl+Alt+M) only ever answered "that card is
not on the table". Each dialog an entry opens is cancelled. Entries that leave this
table (Quit), go to the network or change the screen are left out, and said so."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication

from tabletop.cards import builtin
from tabletop.engine import Table, saves
from tabletop.engine.model import Zone
from tests.ui.menus import choose

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


@pytest.mark.parametrize("viewer", ["Alice", None, "Bob"], ids=["owner", "judge", "other"])
def test_every_menu_bar_entry_with_a_card_selected(make_window, dialogs, qtbot, viewer):
    """From its owner's viewpoint, the judge's and another player's (who is refused)."""
    t = Table(("Alice", "Bob"), seed=3)
    for name in ("Island", "Swamp", "Mountain", "Plains"):
        t.add_card(builtin.lookup(name), "Alice", Zone.LIBRARY)
    bears = t.add_card(builtin.lookup("Grizzly Bears"), "Alice", Zone.BATTLEFIELD)
    t.add_card(builtin.lookup("Shock"), "Alice", Zone.HAND)
    t.start_here()
    w = make_window(t, viewer=viewer)
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


def _walk(menu, path=()):
    for a in menu.actions():
        if a.menu() is not None:
            yield from _walk(a.menu(), (*path, a.text()))
        elif a.text() and not a.isSeparator() and a.isEnabled():
            yield (*path, a.text())


def test_every_entry_of_every_card_and_zone_menu(make_window, dialogs, qtbot):
    """A card's menu in each zone, and each zone's menu, every entry chosen in turn on a
    table put back as it was before each: nothing raises, and nothing is said of a card
    that is not there."""
    t = Table(("Alice", "Bob"), seed=3)
    for name in ("Island", "Swamp", "Mountain", "Plains", "Forest"):
        t.add_card(builtin.lookup(name), "Alice", Zone.LIBRARY)
        t.add_card(builtin.lookup(name), "Bob", Zone.LIBRARY)
    cards = [t.add_card(builtin.lookup("Grizzly Bears"), "Alice", Zone.BATTLEFIELD),
             t.add_card(builtin.lookup("Shock"), "Alice", Zone.HAND),
             t.add_card(builtin.lookup("Llanowar Elves"), "Alice", Zone.GRAVEYARD),
             t.add_card(builtin.lookup("Giant Growth"), "Alice", Zone.EXILE)]
    t.start_here()
    w = make_window(t)
    start = saves.to_json(t)
    tried = []

    def back() -> None:
        if w.c.table is not t:
            w.c.set_table(t)
        while t.history:
            assert w.c.undo()
        QApplication.processEvents()
        assert saves.to_json(t)["objects"] == start["objects"]

    def one(make_menu, path) -> None:
        back()
        menu = make_menu()
        said = len(t.journal)
        choose(menu, path)
        for _ in range(3):
            QApplication.processEvents()
        lines = [e.text for e in t.journal[said:]]
        assert not [x for x in lines if "not on the table" in x], (path, lines)
        tried.append(path)
        if not w.isActiveWindow():
            w.activateWindow()
            qtbot.waitUntil(w.isActiveWindow, timeout=2000)

    for card in cards:
        def card_menu(cid=card.cid):
            return w.scene.card_actions(w.scene.item_for_cid(cid))
        for path in list(_walk(card_menu())):
            one(card_menu, path)
    for key in list(w.scene.zone_items):
        def zone_menu(key=key):
            return w.scene.zone_actions(w.scene.zone_items[key])
        for path in list(_walk(zone_menu())):
            one(zone_menu, path)
    assert len(tried) > 60, tried


def test_every_menu_bar_entry_with_nothing_selected(make_window, dialogs, qtbot):
    """The same entries with no card selected: each does what needs no card, or says to
    select one; none raises."""
    t = Table(("Alice", "Bob"), seed=3)
    for name in ("Island", "Swamp", "Mountain"):
        t.add_card(builtin.lookup(name), "Alice", Zone.LIBRARY)
    t.add_card(builtin.lookup("Grizzly Bears"), "Alice", Zone.BATTLEFIELD)
    t.start_here()
    w = make_window(t)
    said = []
    for title, name, action in _entries(w):
        if name in LEFT_OUT or not action.isEnabled():
            continue
        if w.c.table is not t:
            w.c.set_table(t)
        w.scene.clearSelection()
        QApplication.processEvents()
        action.trigger()
        for _ in range(3):
            QApplication.processEvents()
        if title in ("Card", "Setup") and name != "Add a card…" and "effect" not in name \
                and not name.startswith("Expect this"):  # (that one: only while recording)
            said.append((name, w.message()))
        if not w.isActiveWindow():
            w.activateWindow()
            qtbot.waitUntil(w.isActiveWindow, timeout=2000)
    # the commands for a card ask for one
    assert said and [s for s in said if not s[1].startswith("Select a card")] == [], said
