"""Smaller things found at the table (issue 11, item 11), each through real mouse
and keyboard events on the view."""

from __future__ import annotations

import random

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog

from tabletop.cards import builtin, demo
from tabletop.engine import Table
from tabletop.engine.views import Seen
from tabletop.ui.selftest import double_click, drag, zone_center
from tests.ui.menus import when_a_menu_opens


def _inside(scene, item, key) -> bool:
    r = scene.zone_items[key].spot.rect
    b = item.sceneBoundingRect().adjusted(2, 2, -2, -2)  # the item's 2px selection margin
    return r.x <= b.left() and b.right() <= r.x + r.w and r.y <= b.top() \
        and b.bottom() <= r.y + r.h


def test_escape_during_a_drag_sends_the_card_home(make_window):
    t = demo.new_game()
    w = make_window(t)
    card = t.objects_in(("Alice", "hand"))[0]
    item = w.scene.item_for_cid(card.cid)
    home = item.pos()
    vp = w.view.viewport()
    start = w.view.mapFromScene(item.sceneBoundingRect().center())
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, start)
    end = w.view.mapFromScene(zone_center(w.scene, ("Alice", "graveyard")))
    for i in range(1, 5):
        QTest.mouseMove(vp, start + (end - start) * (i / 4))
    assert item.pos() != home and w.scene.zone_items[("Alice", "graveyard")].state == "accept"
    QTest.keyClick(vp, Qt.Key_Escape)
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, end)
    QApplication.processEvents()
    assert t.obj_of(card.cid).zone == ("Alice", "hand") and not t.history
    assert w.scene.item_for_cid(card.cid).pos() == home
    assert all(z.state is None for z in w.scene.zone_items.values())
    assert w.log.lines() == []


def test_a_context_menu_action_keeps_the_card_selected(make_window):
    t = Table(("Alice", "Bob"), seed=1)
    giant = t.add_card(builtin.lookup("Hill Giant"), "Alice", "battlefield", controller="Alice")
    other = t.add_card(builtin.lookup("Forest"), "Alice", "battlefield", controller="Alice")
    t.start_here()
    w = make_window(t)
    w.scene.item_for_cid(other.cid).setSelected(True)
    item = w.scene.item_for_cid(giant.cid)
    _, chosen = when_a_menu_opens("Tap", every_ms=25)  # Tap, in the menu about to open
    p = w.view.mapFromScene(item.sceneBoundingRect().center())
    ev = QContextMenuEvent(QContextMenuEvent.Mouse, p, w.view.viewport().mapToGlobal(p))
    QApplication.sendEvent(w.view.viewport(), ev)
    QApplication.processEvents()
    assert chosen == ["Tap"] and t.obj_of(giant.cid).tapped
    assert w.scene.item_for_cid(giant.cid).isSelected()
    assert not w.scene.item_for_cid(other.cid).isSelected()
    assert w.inspector.selected == giant.cid and "tapped" in w.inspector.toPlainText()


def test_double_clicking_the_library_draws_a_card(make_window):
    t = demo.new_game()
    w = make_window(t)
    n = len(t.zones[("Alice", "hand")])
    double_click(w.view, zone_center(w.scene, ("Alice", "library")))
    assert len(t.zones[("Alice", "hand")]) == n + 1
    assert w.scene.mouseGrabberItem() is None
    # an empty library: the engine says so, nothing breaks
    t2 = Table(("Alice", "Bob"), seed=1)
    t2.start_here()
    w.c.set_table(t2)
    double_click(w.view, zone_center(w.scene, ("Alice", "library")))
    assert not t2.history


def test_two_hundred_fast_drags_leave_every_card_inside_its_zone(make_window, qtbot):
    rng = random.Random(7)
    t = demo.new_game()
    w = make_window(t)
    w.scene.animations = True  # the slides are what could carry a card off
    w.c.anyone = True
    keys = list(w.scene.zone_items)
    for _ in range(200):
        items = [i for i in w.scene.cards.values() if i.view is not None]
        item = rng.choice(items)
        key = rng.choice(keys)
        r = w.scene.zone_items[key].spot.rect
        drag(w.view, item, QPointF(r.x + rng.random() * r.w, r.y + rng.random() * r.h), steps=2)
    qtbot.wait(600)  # every slide has ended
    for item in w.scene.cards.values():
        key = item.zone_key
        r = w.scene.zone_items[key].spot.rect
        assert r.contains(item.pos().x(), item.pos().y()), (item.key, key)
        c = item.sceneBoundingRect().center()
        assert r.contains(c.x(), c.y()), (item.key, key)


def test_forty_tokens_never_cover_another_zone(make_window):
    t = demo.new_game()
    w = make_window(t)
    for i in range(40):
        w.c.create_token("Soldier", "Alice")
        if i % 3 == 0:
            cid = max(o.cid for o in t.objects_in((None, "battlefield")) if o.token)
            w.c.tap(cid, True)
    mine = [i for i in w.scene.cards.values() if i.zone_key == ("Alice", "battlefield")]
    assert len(mine) >= 40
    for item in mine:
        assert _inside(w.scene, item, ("Alice", "battlefield")), item.key


def test_save_as_proposes_a_folder_that_exists(make_window, tmp_path, monkeypatch):
    w = make_window(demo.new_game())
    gone = tmp_path / "gone"
    gone.mkdir()
    w.path = gone / "old.tabletop"
    gone.rmdir()
    proposed = []

    def fake(parent, title, start, filters):
        proposed.append(start)
        return "", ""
    monkeypatch.setattr(QFileDialog, "getSaveFileName", fake)
    assert w.save_game_as() is False
    from pathlib import Path
    assert Path(proposed[0]).parent.is_dir()


def test_hidden_cards_are_items_without_faces(make_window):
    w = make_window(demo.new_game())
    bobs = [i for i in w.scene.cards.values() if i.zone_key == ("Bob", "hand")]
    assert bobs and all(i.face is None and not isinstance(i.view, Seen) and not i.text_items()
                        for i in bobs)
    assert QPoint  # imported for the view helpers


def test_the_status_bar_speaks_of_the_last_action_only(make_window, dialogs):
    t = Table(("Alice", "Bob"), seed=1)
    bolt = t.add_card(builtin.lookup("Lightning Bolt"), "Alice", "hand")
    land = t.add_card(builtin.lookup("Forest"), "Alice", "hand")
    t.start_here()
    w = make_window(t)
    drag(w.view, w.scene.item_for_cid(bolt.cid), zone_center(w.scene, ("Alice", "battlefield")))
    assert "400.4a" in w.message()
    drag(w.view, w.scene.item_for_cid(land.cid), zone_center(w.scene, ("Alice", "graveyard")))
    assert "400.4a" not in w.message()  # replaced by the next action's words
    drag(w.view, w.scene.item_for_cid(bolt.cid), zone_center(w.scene, ("Alice", "battlefield")))
    assert w.message()
    w.new_table()  # the refusal left nothing unsaved: no question, and no old words
    assert w.message() == "" and w.status.toolTip() == ""
