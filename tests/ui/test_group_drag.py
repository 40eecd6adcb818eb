"""Selecting several cards and dragging them together (issue 16, item 6): Ctrl+click,
a rubber band on the cloth, Ctrl+A in a zone; the engine decides for each card (some
land, one is redirected, one is refused), as one undo step and one log entry."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tabletop.cards import builtin
from tabletop.engine import Table
from tabletop.ui.selftest import drag, zone_center


def card(name):
    return builtin.lookup(name)


def ctrl_click(w, item):
    p = w.view.mapFromScene(item.sceneBoundingRect().center())
    QTest.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.ControlModifier, p)
    QApplication.processEvents()


def _table():
    t = Table(("Alice", "Bob"), "cr-2016", seed=4)
    names = ("Forest", "Plow Under", "Hill Giant", "Mountain")
    cards = {n: t.add_card(card(n), "Alice", "hand") for n in names}
    aura = t.add_card(card("Rancor"), "Bob", "battlefield", controller="Alice")
    elves = t.add_card(card("Llanowar Elves"), "Alice", "battlefield")
    t.start_here()
    return t, cards, aura, elves


def test_ctrl_click_then_drag_moves_each_card_as_the_engine_says(make_window):
    t, cards, _, _ = _table()
    w = make_window(t)
    s = w.scene
    items = [s.item_for_cid(cards[n].cid) for n in ("Forest", "Plow Under", "Hill Giant")]
    for it in items:
        ctrl_click(w, it)
    assert set(s.selected_cards()) == set(items)
    ctrl_click(w, items[2])  # a second Ctrl+click takes it out again
    ctrl_click(w, items[2])
    assert len(s.selected_cards()) == 3
    drag(w.view, items[0], zone_center(s, ("Alice", "battlefield")))
    zone = {n: t.obj_of(cards[n].cid).zone for n in cards}
    assert zone["Forest"] == (None, "battlefield") and zone["Hill Giant"] == (None, "battlefield")
    assert zone["Plow Under"] == ("Alice", "hand")  # 400.4a: a sorcery can't be there
    assert zone["Mountain"] == ("Alice", "hand")  # not selected: not moved
    assert s.item_for_cid(cards["Plow Under"].cid).zone_key == ("Alice", "hand")
    assert s.item_for_cid(cards["Hill Giant"].cid).zone_key == ("Alice", "battlefield")
    assert len(t.history) == 1  # one action
    lines = w.log.lines()
    # the heading counts the cards that moved (how many were refused is Alice's to know)
    assert lines[0] == "1. Alice moves 2 cards to the battlefield:"
    assert len(lines) == 4 and all(x.startswith("     – ") for x in lines[1:])
    assert any("400.4a" in x for x in lines[1:])
    w.undo()  # one undo takes the whole drop back
    assert all(t.obj_of(c.cid).zone == ("Alice", "hand") for c in cards.values())


def test_a_group_with_a_stolen_aura_is_redirected_card_by_card(make_window):
    t, _cards, aura, elves = _table()
    w = make_window(t)
    s = w.scene
    a, e = s.item_for_cid(aura.cid), s.item_for_cid(elves.cid)
    ctrl_click(w, a)
    ctrl_click(w, e)
    drag(w.view, e, zone_center(s, ("Alice", "graveyard")))
    assert t.obj_of(aura.cid).zone == ("Bob", "graveyard")  # 400.3: its owner's
    assert t.obj_of(elves.cid).zone == ("Alice", "graveyard")
    assert "400.3" in "\n".join(w.log.lines())


def test_rubber_band_on_the_cloth_selects_the_cards_it_crosses(make_window):
    t, _cards, _aura, _elves = _table()
    w = make_window(t)
    s = w.scene
    r = s.zone_items[("Alice", "battlefield")].spot.rect
    vp = w.view.viewport()
    start = w.view.mapFromScene(QPointF(r.x + r.w - 8, r.y + r.h - 8))  # empty cloth
    end = w.view.mapFromScene(QPointF(r.x + 4, r.y + 30))
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, start)
    for i in range(1, 7):
        p = start + (end - start) * (i / 6)
        QTest.mouseMove(vp, QPoint(int(p.x()), int(p.y())))
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, end)
    QApplication.processEvents()
    got = {i.face.name for i in s.selected_cards()}
    assert got == {"Rancor", "Llanowar Elves"}
    assert not t.history  # selecting changes nothing


def test_ctrl_a_selects_the_zone_and_escape_brings_a_group_back(make_window):
    t, cards, _, _ = _table()
    w = make_window(t)
    s = w.scene
    ctrl_click(w, s.item_for_cid(cards["Forest"].cid))
    QTest.keyClick(w, Qt.Key_A, Qt.ControlModifier)
    QApplication.processEvents()
    assert {i.face.name for i in s.selected_cards()} == set(cards)
    before = {i: i.pos() for i in s.selected_cards()}
    item = s.item_for_cid(cards["Mountain"].cid)
    vp = w.view.viewport()
    start = w.view.mapFromScene(item.sceneBoundingRect().center())
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, start)
    QTest.mouseMove(vp, start + QPoint(0, -120))
    moved = {i: i.pos() for i in before}
    assert all(moved[i] != before[i] for i in before)  # the whole group follows the mouse
    QTest.keyClick(vp, Qt.Key_Escape)
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, start + QPoint(0, -120))
    QApplication.processEvents()
    assert {i: i.pos() for i in before} == before and not t.history
