"""A gesture redraws what it changed, not the table (issue 36: a smooth table at any
size). On a table of 1,000 permanents, a land played re-stacked some 300 cards of other
zones (each card's drawing order counted from the table's first card), so Qt drew most
of the table again; and a click on a card that moved nothing laid out the whole table
anew (30 ms there) to put the card back."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tabletop.cards import builtin
from tabletop.engine import Table
from tabletop.ui.scene import DRAGGED_Z
from tabletop.ui.selftest import drag, zone_center

NAMES = ("Grizzly Bears", "Forest", "Llanowar Elves", "Hill Giant", "Island")


def _table(make_window, permanents: int = 12):
    t = Table(("Alice", "Bob", "Carol"), seed=4)
    for p in t.players:
        for i in range(permanents):
            t.add_card(builtin.lookup(NAMES[i % len(NAMES)]), p, "battlefield",
                       tapped=i % 4 == 0)
        for _ in range(3):
            t.add_card(builtin.lookup("Mountain"), p, "hand")
        for _ in range(5):
            t.add_card(builtin.lookup("Forest"), p, "graveyard")
    t.start_here()
    return t, make_window(t)


def _on_screen(w, item):
    return w.view.mapFromScene(item.sceneBoundingRect().center())


def test_a_card_played_restacks_no_card_of_another_zone(make_window):
    t, w = _table(make_window)
    land = t.objects_in(("Alice", "hand"))[0]
    moving = w.scene.item_for_cid(land.cid)
    touched = {("Alice", "hand"), ("Alice", "battlefield")}
    before = {key: item.zValue() for key, item in w.scene.cards.items()
              if item.zone_key not in touched}
    assert len(before) >= 30  # Bob's and Carol's permanents, hands and piles
    drag(w.view, moving, zone_center(w.scene, ("Alice", "battlefield")))
    QApplication.processEvents()
    assert t.obj_of(land.cid).zone == (None, "battlefield")
    after = {key: item.zValue() for key, item in w.scene.cards.items() if key in before}
    assert after == before
    # and the land is drawn over the permanents it joined, under none of them
    mine = [i for i in w.scene.cards.values() if i.zone_key == ("Alice", "battlefield")]
    assert moving.zValue() == max(i.zValue() for i in mine)
    # every card of a zone in its own place in the order: none shares it
    for key in {i.zone_key for i in w.scene.cards.values()}:
        zs = [i.zValue() for i in w.scene.cards.values() if i.zone_key == key]
        assert len(zs) == len(set(zs)), key


def test_a_click_on_a_card_puts_it_back_without_laying_out_the_table(make_window):
    t, w = _table(make_window)
    vp = w.view.viewport()
    o = next(x for x in t.objects_in((None, "battlefield")) if x.controller == "Alice")
    item = w.scene.item_for_cid(o.cid)
    home, z = item.pos(), item.zValue()
    syncs = w.scene._syncs
    at = _on_screen(w, item)
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, at)
    # while pressed, it is drawn over every other card of the table
    assert item.zValue() >= DRAGGED_Z > max(i.zValue() for i in w.scene.cards.values()
                                             if i is not item)
    QTest.mouseMove(vp, at + QPoint(2, 1))  # a hand's tremor: not a drag
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, at + QPoint(2, 1))
    QApplication.processEvents()
    assert (item.pos(), item.zValue()) == (home, z)
    assert w.scene._syncs == syncs  # nothing changed: nothing laid out again
    assert len(t.history) == 0 and item.isSelected()
    # a card let go where no zone is goes back the same way
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, at)
    for step in range(1, 6):
        QTest.mouseMove(vp, at + QPoint(0, -40 * step))
    outside = w.view.mapFromScene(w.scene.sceneRect().topLeft()) + QPoint(2, 2)
    QTest.mouseMove(vp, outside)
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, outside)
    QApplication.processEvents()
    assert (item.pos(), item.zValue()) == (home, z) and len(t.history) == 0
    # a double click still taps it (and that is laid out)
    was = t.obj_of(o.cid).tapped
    QTest.mouseDClick(vp, Qt.LeftButton, Qt.NoModifier, at)
    QApplication.processEvents()
    assert t.obj_of(o.cid).tapped is not was and w.scene._syncs > syncs



def test_a_card_dragged_while_the_table_changes_still_goes_back_when_refused(make_window):
    """The table drawn anew in the middle of a drag (a network update, another window's
    action) leaves the dragged card the hand's: let go where the rules refuse it (an
    instant onto the battlefield, 400.4a in cr-2025), it goes back to its place."""
    t = Table(("Alice", "Bob"), seed=4)
    bolt = t.add_card(builtin.lookup("Lightning Bolt"), "Alice", "hand")
    t.add_card(builtin.lookup("Mountain"), "Alice", "hand")
    bears = t.add_card(builtin.lookup("Grizzly Bears"), "Bob", "battlefield")
    t.start_here()
    w = make_window(t)
    vp = w.view.viewport()
    item = w.scene.item_for_cid(bolt.cid)
    home, z = item.pos(), item.zValue()
    a = _on_screen(w, item)
    b = w.view.mapFromScene(zone_center(w.scene, ("Alice", "battlefield")))
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, a)
    for step in range(1, 6):
        QTest.mouseMove(vp, a + (b - a) * (step / 10))
    syncs = w.scene._syncs
    w.c.tap(bears.cid, True)  # Alice may not handle Bob's card: refused, drawn anew
    assert w.scene._syncs > syncs
    for step in range(6, 11):
        QTest.mouseMove(vp, a + (b - a) * (step / 10))
    assert item.pos() != home  # carried by the hand, still
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, b)
    QApplication.processEvents()
    assert t.obj_of(bolt.cid).zone == ("Alice", "hand")
    assert (item.pos(), item.zValue()) == (home, z)


def test_a_card_whose_menu_closes_goes_back_under_the_cards_over_it(make_window):
    """A right click selects the card and opens its menu; closed without a choice, the
    card is drawn in its zone's order again, not left over its neighbours."""
    from tests.ui.menus import when_a_menu_opens
    t, w = _table(make_window)
    vp = w.view.viewport()
    o = next(x for x in t.objects_in((None, "battlefield")) if x.controller == "Alice")
    item = w.scene.item_for_cid(o.cid)
    z = item.zValue()
    seen, chosen = when_a_menu_opens("")  # (no entry has no words: it only closes)
    at = _on_screen(w, item)
    QTest.mousePress(vp, Qt.RightButton, Qt.NoModifier, at)
    QTest.mouseRelease(vp, Qt.RightButton, Qt.NoModifier, at)
    QApplication.processEvents()
    assert seen and not chosen  # the menu did open, and closed
    assert item.isSelected() and item.zValue() == z < DRAGGED_Z
    assert len(t.history) == 0


def test_a_battlefield_laid_out_from_memory_is_laid_out_as_afresh(make_window):
    """Each controller's battlefield is laid out again only when what its layout reads
    changed (its cards as the viewer sees them, what they carry): after every change of
    a long random game, the places, the drawing order and the stacks' counts are those
    of a layout made from nothing."""
    import random

    from tabletop.engine.model import Card
    soldier = Card("Soldier", ("Creature",), ("Soldier",), power="1", toughness="1")
    t, w = _table(make_window, permanents=8)
    rancor = t.add_card(builtin.lookup("Rancor"), "Bob", "battlefield").cid
    for p in t.players:
        for _ in range(4):
            t.create_token(soldier, p)
    w.scene.sync(None)
    rng = random.Random(7)
    fresh_layouts = 0
    for step in range(160):
        field = t.objects_in((None, "battlefield"))
        o = rng.choice(field)
        r = rng.random()
        if r < 0.3:
            t.set_tapped(o.cid, not o.tapped)
        elif r < 0.45:
            t.add_counters(o.cid, {"+1/+1": rng.choice((1, -1))})
        elif r < 0.55:
            t.place({o.cid: (rng.uniform(0, 600), rng.uniform(0, 100))})
        elif r < 0.65:
            t.move(o.cid, "graveyard", o.owner)
        elif r < 0.75:
            hand = t.objects_in((rng.choice(t.players), "hand"))
            if hand:
                t.move(hand[0].cid, "battlefield", hand[0].owner)
        elif r < 0.85:
            t.create_token(soldier, rng.choice(t.players))
        elif t.obj_of(rancor).zone == (None, "battlefield"):
            t.attach(rancor, o.cid if o.cid != rancor else None)
        if step % 40 == 39:  # another viewpoint now and then: other faces
            w.c.set_viewer(rng.choice(t.players))
        w.scene.sync(None)
        placed, _, badges = w.scene._placements()
        remembered = (list(placed.items()), badges)
        w.scene._fields.clear()
        placed, _, badges = w.scene._placements()
        afresh = (list(placed.items()), badges)
        assert remembered == afresh, step
        fresh_layouts += 1
    assert fresh_layouts == 160 and len(t.objects_in((None, "battlefield"))) > 20
