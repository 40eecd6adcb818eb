"""Zone viewers and zone menus (issue 16, items 3 and 4), in a real window: menus built by
the scene for a right-click, cards dragged out of a viewer with real drag-and-drop
events on the view, each drop decided by the engine."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu

from tabletop.cards import builtin
from tabletop.engine import Table
from tabletop.ui.selftest import zone_center


def card(name):
    return builtin.lookup(name)


def trigger(menu: QMenu, path: str) -> None:
    """Choose a menu entry by its text ("Move all to/Exile"), as a click would."""
    *subs, last = path.split("/")
    root, at = menu, menu  # the root owns its submenus: keep it alive
    for name in subs:
        at = next(a.menu() for a in at.actions() if a.text() == name)
    action = next(a for a in at.actions() if a.text() == last)
    assert action.isEnabled(), f"{path} is greyed"
    action.trigger()
    QApplication.processEvents()
    del root


def entries(menu: QMenu) -> dict[str, bool]:
    return {a.text(): a.isEnabled() for a in menu.actions() if a.text()}


def drop_from_viewer(w, viewer, name: str, key, modifiers=Qt.NoModifier) -> None:
    """Drag the viewer's card ``name`` onto a zone of the table: the drag-enter, drag-move
    and drop events Qt delivers to the view's viewport."""
    lw = viewer.cards
    item = next(lw.item(i) for i in range(lw.count())
                if lw.item(i).data(Qt.AccessibleTextRole) == name)
    mime = lw.mimeData([item])
    vp = w.view.viewport()
    pos = w.view.mapFromScene(zone_center(w.scene, key))
    for cls in (QDragEnterEvent, QDragMoveEvent):
        ev = cls(pos, Qt.MoveAction, mime, Qt.LeftButton, modifiers)
        QApplication.sendEvent(vp, ev)
        assert ev.isAccepted()
    QApplication.sendEvent(vp, QDropEvent(QPointF(pos), Qt.MoveAction, mime, Qt.LeftButton,
                                          modifiers))
    QApplication.processEvents()


def _table(players=("Alice", "Bob")) -> Table:
    t = Table(players, "cr-2016", seed=5)
    for name in ("Hill Giant", "Plow Under", "Lightning Bolt", "Forest"):
        t.add_card(card(name), "Alice", "graveyard")
    for p in players:
        for name in ("Mountain", "Giant Spider", "Shock", "Llanowar Elves", "Forest"):
            t.add_card(card(name), p, "library")
        t.add_card(card("Grizzly Bears"), p, "hand")
    t.start_here()
    return t


def test_graveyard_viewer_filters_and_cards_dragged_out_obey_the_rules(make_window):
    t = _table()
    w = make_window(t)
    gy = w.scene.zone_items[("Alice", "graveyard")]
    menu = w.scene.zone_actions(gy)
    trigger(menu, "View graveyard…")
    viewer = w.scene.viewers[-1]
    assert viewer.isVisible() and viewer.windowTitle() == "Alice's graveyard · 4 cards"
    assert viewer.visible_names() == ["Forest", "Lightning Bolt", "Plow Under", "Hill Giant"]
    viewer.filter.setText("sorcery")  # by type
    assert viewer.visible_names() == ["Plow Under"]
    viewer.filter.setText("giant")  # by name
    assert viewer.visible_names() == ["Hill Giant"]
    viewer.filter.clear()
    viewer.list_button.click()
    assert viewer.cards.item(0).text() == "Forest — Basic Land — Forest"
    viewer.grid_button.click()

    # a sorcery dropped on the battlefield: 400.4a, it stays in the graveyard
    drop_from_viewer(w, viewer, "Plow Under", ("Alice", "battlefield"))
    assert t.obj_of(_cid(t, "Plow Under", "Alice")).zone == ("Alice", "graveyard")
    assert "400.4a" in w.message()
    # a creature dropped on the battlefield enters it; the viewer follows the change
    drop_from_viewer(w, viewer, "Hill Giant", ("Alice", "battlefield"))
    giant = t.obj_of(_cid(t, "Hill Giant", "Alice"))
    assert giant.zone == (None, "battlefield")
    assert w.scene.item_for_cid(giant.cid).zone_key == ("Alice", "battlefield")
    assert "Hill Giant" not in viewer.visible_names()
    assert viewer.windowTitle() == "Alice's graveyard · 3 cards"
    # Shift-drop on a library: its bottom
    drop_from_viewer(w, viewer, "Lightning Bolt", ("Alice", "library"), Qt.ShiftModifier)
    assert t.objects_in(("Alice", "library"))[-1].card.name == "Lightning Bolt"
    w.undo()
    assert t.obj_of(_cid(t, "Lightning Bolt", "Alice")).zone == ("Alice", "graveyard")
    viewer.close()


def _cid(t, name, owner):
    return next(c for c, o in t.current.items()
                if t.objs[o].card.name == name and t.objs[o].owner == owner)


def test_searching_a_library_is_told_to_everyone_and_shuffles_after(make_window):
    t = _table()
    w = make_window(t)
    lib = w.scene.zone_items[("Alice", "library")]
    order = list(t.zones[("Alice", "library")])
    trigger(w.scene.zone_actions(lib), "Search the library…")
    viewer = w.scene.viewers[-1]
    assert sorted(viewer.visible_names()) == sorted(
        ["Mountain", "Giant Spider", "Shock", "Llanowar Elves", "Forest"])
    # Bob's log says Alice searched, and names none of her cards
    bob_line = t.journal[-1].told("Bob")[0]
    assert bob_line == "Alice searches their library"
    drop_from_viewer(w, viewer, "Llanowar Elves", ("Alice", "hand"))
    assert t.obj_of(_cid(t, "Llanowar Elves", "Alice")).zone == ("Alice", "hand")
    viewer.close()
    QApplication.processEvents()
    assert t.history[-1].name == "shuffle"
    assert [a.name for a in t.history] == ["look", "move", "shuffle"]
    assert len(t.zones[("Alice", "library")]) == len(order) - 1


def test_a_search_closed_with_escape_shuffles_the_library_too(make_window):
    """Escape closes a viewer as a dialog is closed (rejected, with no close event): the
    library searched is shuffled all the same, once, and the viewer is gone."""
    t = _table()
    w = make_window(t)
    trigger(w.scene.zone_actions(w.scene.zone_items[("Alice", "library")]),
            "Search the library…")
    viewer = w.scene.viewers[-1]
    drop_from_viewer(w, viewer, "Llanowar Elves", ("Alice", "hand"))
    viewer.activateWindow()
    QTest.keyClick(viewer, Qt.Key.Key_Escape)
    for _ in range(3):
        QApplication.processEvents()
    assert [a.name for a in t.history] == ["look", "move", "shuffle"]
    assert w.scene.viewers == []


def test_a_search_open_when_a_new_table_comes_shuffles_nothing_there(make_window, dialogs):
    """The viewer closes with the table it searched; the new table's library is not
    shuffled for it (the new game began with a shuffle nobody made)."""
    t = _table()
    w = make_window(t)
    trigger(w.scene.zone_actions(w.scene.zone_items[("Alice", "library")]),
            "Search the library…")
    assert w.scene.viewers
    fresh = _table()
    w.c.set_table(fresh)  # File > Open game, New table… (nothing unsaved to ask about)
    for _ in range(3):
        QApplication.processEvents()
    assert w.scene.viewers == [] and fresh.history == [] and not w.c.dirty


def test_a_search_ended_by_another_viewpoint_is_shuffled(make_window, qtbot):
    """Hot seat: Alice searches, then the viewpoint goes to Bob. The viewer is Alice's
    and closes (Bob may not see her library), and her search ends shuffled."""
    t = _table()
    w = make_window(t)
    trigger(w.scene.zone_actions(w.scene.zone_items[("Alice", "library")]),
            "Search the library…")
    w.activateWindow()  # back at the table's window (the viewer had the focus)
    qtbot.waitUntil(w.isActiveWindow, timeout=2000)
    QTest.keyClick(w, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)  # View > Bob
    for _ in range(3):
        QApplication.processEvents()
    assert w.c.viewer == "Bob" and w.scene.viewers == []
    assert [a.name for a in t.history] == ["look", "shuffle"]


def test_looking_at_the_top_n_shows_only_those_to_the_viewer(make_window, dialogs):
    t = _table()
    w = make_window(t)
    dialogs.expect("Look at the top", 2)
    trigger(w.scene.zone_actions(w.scene.zone_items[("Alice", "library")]),
            "Look at the top N (privately)…")
    viewer = w.scene.viewers[-1]
    assert viewer.visible_names() == ["Forest", "Llanowar Elves"]
    assert viewer.windowTitle() == "The top 2 of Alice's library"
    assert not viewer.shuffle_box.isVisible()
    assert t.journal[-1].text == "Alice looks at the top 2 cards of their library"
    viewer.close()
    assert t.history[-1].name == "look"  # closing shuffles nothing


def test_library_menu_mills_reveals_and_puts_the_top_on_the_bottom(make_window, dialogs):
    t = _table()
    w = make_window(t)
    lib = w.scene.zone_items[("Alice", "library")]
    dialogs.expect("Mill", 2)
    trigger(w.scene.zone_actions(lib), "Mill N (top cards into the graveyard)…")
    # moved together, as the engine orders a group (the library's top stays on top)
    assert [o.card.name for o in t.objects_in(("Alice", "graveyard"))[:2]] == \
        ["Forest", "Llanowar Elves"]
    assert len(t.history) == 1  # one action, one undo
    dialogs.expect("Reveal the top", 2)
    trigger(w.scene.zone_actions(lib), "Reveal the top N to everyone…")
    assert t.journal[-1].public == \
        "Alice reveals Shock and Giant Spider from Alice's library to everyone"
    trigger(w.scene.zone_actions(lib), "Put the top card on the bottom")
    assert t.objects_in(("Alice", "library"))[-1].card.name == "Shock"
    trigger(w.scene.zone_actions(lib), "Move all to/Exile")
    assert not t.zones[("Alice", "library")]
    assert len([o for o in t.objects_in((None, "exile")) if o.owner == "Alice"]) == 3


def test_revealing_a_hand_to_one_player_names_it_only_to_them(make_window):
    t = _table(("Alice", "Bob", "Carol"))
    w = make_window(t)
    trigger(w.scene.zone_actions(w.scene.zone_items[("Alice", "hand")]),
            "Reveal the hand to/Bob")
    line = t.journal[-1]
    assert line.told("Bob")[0] == "Alice reveals Grizzly Bears from Alice's hand to Bob"
    assert line.told("Carol")[0] == "Alice reveals cards from Alice's hand to Bob"
    w.c.set_viewer("Carol")
    assert "Grizzly Bears" not in "\n".join(w.log.lines())
    w.c.set_viewer("Bob")
    assert any("Grizzly Bears" in s for s in w.log.lines())


def test_another_players_zone_menu_is_greyed_but_looking_is_not(make_window):
    t = _table()
    w = make_window(t)
    menu = w.scene.zone_actions(w.scene.zone_items[("Bob", "library")])
    got = entries(menu)
    assert got["Draw"] is False and got["Shuffle"] is False and got["Move all to"] is False
    assert got["Mill N (top cards into the graveyard)…"] is False
    assert got["Look at the top N (privately)…"] is True
    assert entries(w.scene.zone_actions(w.scene.zone_items[("Bob", "graveyard")]))[
        "View graveyard…"] is True


def test_a_face_down_exiled_card_stays_hidden_in_the_viewer(make_window):
    t = _table()
    t.add_card(card("Shock"), "Bob", "exile", face_down=True)
    t.add_card(card("Hill Giant"), "Bob", "exile")
    t.start_here()
    w = make_window(t)
    trigger(w.scene.zone_actions(w.scene.zone_items[(None, "exile")]), "View exile…")
    viewer = w.scene.viewers[-1]
    assert sorted(viewer.visible_names()) == ["Hill Giant", "a face-down card"]
    hidden = next(viewer.cards.item(i) for i in range(viewer.cards.count())
                  if viewer.cards.item(i).toolTip() == "a face-down card")
    assert not hidden.flags() & Qt.ItemIsDragEnabled
    assert all("Shock" not in (viewer.cards.item(i).toolTip() + viewer.cards.item(i).text())
               for i in range(viewer.cards.count()))


def test_a_right_click_on_a_zone_opens_its_menu(make_window):
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QContextMenuEvent
    t = _table()
    w = make_window(t)
    vp = w.view.viewport()
    r = w.scene.zone_items[("Alice", "graveyard")].spot.rect
    pos = w.view.mapFromScene(QPointF(r.x + 12, r.y + 8))  # its title, beside the pile
    seen = []

    def read_and_close():
        popup = QApplication.activePopupWidget()
        if popup is None:
            QTimer.singleShot(20, read_and_close)
            return
        seen.extend(a.text() for a in popup.actions() if a.text())
        popup.close()

    QTimer.singleShot(20, read_and_close)
    QApplication.sendEvent(vp, QContextMenuEvent(QContextMenuEvent.Mouse, pos,
                                                 vp.mapToGlobal(pos)))
    assert seen[:2] == ["View graveyard…", "Move all to"]


def test_viewers_of_every_zone_open_close_and_open_again(make_window, dialogs):
    """A zone viewer closed (deleted with its window) and another opened, many times, for
    every zone whose menu offers one: no error, each new viewer shows its zone."""
    from PySide6.QtCore import QEvent
    t = _table()
    w = make_window(t)
    def viewer_entry(key):
        menu = w.scene.zone_actions(w.scene.zone_items[key])  # kept while it is read
        return menu, next((a.text() for a in menu.actions()
                           if a.text().startswith(("View ", "Search the library"))), None)
    keys = [k for k in w.scene.zone_items if viewer_entry(k)[1] is not None]
    assert ("Alice", "graveyard") in keys and (None, "exile") in keys
    for _ in range(3):
        for key in keys:
            menu, entry = viewer_entry(key)
            trigger(menu, entry)
            viewer = w.scene.viewers[-1]
            assert viewer.isVisible() and viewer.key == key
            viewer.close()  # as its close button does: the window is deleted
            QApplication.sendPostedEvents(None, QEvent.DeferredDelete)
            QApplication.processEvents()
    assert not [d for d in dialogs.seen if "wrong" in d[0].lower() or "wrong" in d[1].lower()]


def test_drawing_three_is_one_entry_of_the_log(make_window, dialogs):
    """Draw N… from the library's menu: one entry, "Alice draws 3 cards", with a line a
    card; Bob reads the same heading and no card's name."""
    t = _table()
    w = make_window(t)
    drawn = [o.card.name for o in t.objects_in(("Alice", "library"))[:3]]
    dialogs.expect("Draw", 3)
    trigger(w.scene.zone_actions(w.scene.zone_items[("Alice", "library")]), "Draw N…")
    lines = w.log.lines()
    assert lines[0] == "1. Alice draws 3 cards:" and len(lines) == 4
    assert all(line.startswith("     – ") for line in lines[1:])
    assert all(any(name in line for line in lines) for name in drawn)
    w.c.set_viewer("Bob")
    QApplication.processEvents()
    bob = w.log.lines()
    assert bob[0] == "1. Alice draws 3 cards:" and len(bob) == 4
    assert not any(name in line for line in bob for name in drawn)


def test_revealing_the_top_three_opens_a_window_for_every_viewer(make_window, dialogs):
    """Reveal the top N to everyone…: the cards, top first, in a window Alice reads; Bob
    taking the chair reads them too; the judge as well; they stay where they were."""
    t = _table()
    w = make_window(t)
    top = [o.card.name for o in t.objects_in(("Alice", "library"))[:3]]
    dialogs.expect("Reveal the top", 3)
    trigger(w.scene.zone_actions(w.scene.zone_items[("Alice", "library")]),
            "Reveal the top N to everyone…")
    QApplication.processEvents()
    win = w.reveal_window
    assert win is not None and win.isVisible() and win.names() == top
    assert "Alice reveals 3 cards to everyone" in win.windowTitle()
    assert [o.card.name for o in t.objects_in(("Alice", "library"))[:3]] == top
    for viewer in ("Bob", None):
        w.c.set_viewer(viewer)
        QApplication.processEvents()
        assert win.isVisible() and win.names() == top
    win.close()
    QApplication.processEvents()
    w.c.set_viewer("Alice")


def test_a_hand_shown_to_one_player_is_not_shown_to_another(make_window, dialogs):
    t = Table(("Alice", "Bob", "Carol"), "cr-2016", seed=5)
    bears = t.add_card(card("Grizzly Bears"), "Alice", "hand").cid
    t.start_here()
    w = make_window(t)
    w.c.show("Alice", [bears], "Bob")
    win = w.reveal_window
    assert win.isVisible() and win.names() == ["Grizzly Bears"]
    w.c.set_viewer("Bob")
    assert win.isVisible() and win.names() == ["Grizzly Bears"]
    w.c.set_viewer("Carol")  # she was not shown it: the window goes
    QApplication.processEvents()
    from shiboken6 import isValid
    assert not isValid(win) or not win.isVisible()
