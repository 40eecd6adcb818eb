"""Every entry of the menu bar and of a card's menu, chosen in a window seated at a
network table (a real `tabletop serve` on 127.0.0.1): nothing raises, the seat stays
seated, and the host never answers that a message could not be read (codes
"bad-frame" or "invalid": a window that built a message the protocol does not have).
What the seat may not do is refused with a code, which is fine."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from tabletop.net.protocol import Code
from tests.ui.menus import choose
from tests.ui.test_every_menu_entry import LEFT_OUT, _entries, _walk
from tests.ui.test_network_gui import _alice_joins, objects_in

pytestmark = pytest.mark.timeout(240)

# entries that end this seat's game on purpose (a new table at the desk): asked first
LEAVING = {"New table", "New empty table (to set up)", "New game from decks…",
           "Next game, after sideboarding…", "Open game…", "Open scenario…",
           "Scenario library…"}


def test_every_menu_entry_at_a_network_table(server, clients, make_window, dialogs, qtbot):
    w, _bob = _alice_joins(server, clients, make_window, dialogs, qtbot)
    errors: list[dict] = []
    w.c.session.conn.received.connect(
        lambda m: errors.append(m) if m.get("type") == "error" else None)
    land = next(o for o in objects_in(w, ("Alice", "hand")) if "Land" in o.card.types)
    w.c.drop(land.cid, "battlefield", "Alice")
    qtbot.waitUntil(lambda: any(o.controller == "Alice"
                                for o in objects_in(w, (None, "battlefield"))), timeout=10000)
    tried = []

    def settle() -> None:
        qtbot.wait(120)  # the host's answer
        if not w.isActiveWindow():
            w.activateWindow()
            qtbot.waitUntil(w.isActiveWindow, timeout=2000)
        assert w.c.session is not None and w.c.session.joined, tried[-1]
        bad = [e for e in errors if e.get("code") in (Code.BAD_FRAME, Code.INVALID)]
        assert not bad, (tried[-1], bad)

    def a_card(zone):
        cards = objects_in(w, zone)
        return cards[0].cid if cards else None

    for title, name, action in _entries(w):
        if name in LEFT_OUT | LEAVING or not action.isEnabled():
            continue
        w.scene.clearSelection()
        cid = a_card(("Alice", "hand"))
        if cid is not None and w.scene.item_for_cid(cid) is not None:
            w.scene.item_for_cid(cid).setSelected(True)
        action.trigger()
        QApplication.processEvents()
        tried.append(f"{title} > {name}")
        settle()
    for zone in (("Alice", "hand"), (None, "battlefield")):
        cid = a_card(zone)
        if cid is None:
            continue

        def card_menu(cid=cid):
            return w.scene.card_actions(w.scene.item_for_cid(cid))
        for path in list(_walk(card_menu())):
            cid = a_card(zone)  # (the card may have moved: the zone's first, again)
            if cid is None or w.scene.item_for_cid(cid) is None:
                break
            choose(w.scene.card_actions(w.scene.item_for_cid(cid)), path)
            QApplication.processEvents()
            tried.append(f"{zone} card > {' > '.join(path)}")
            settle()
    assert len(tried) > 50, tried
