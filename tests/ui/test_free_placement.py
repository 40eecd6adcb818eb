"""Free placement on the battlefield (issue 16, item 5): a card stays where it is
dropped, snapped to a grid and inside its zone; a card moved within its battlefield
changes only its place (an action undo takes back, with no log line); new cards flow
around placed ones; rows compress before they overflow; Arrange tidies."""

from __future__ import annotations

import itertools

from PySide6.QtCore import QPointF

from tabletop.cards import builtin
from tabletop.engine import Table
from tabletop.ui import layout as L
from tabletop.ui.selftest import drag


def _table(n_field=2):
    t = Table(("Alice", "Bob"), "cr-2016")
    field = [t.add_card(builtin.lookup("Hill Giant"), "Alice", "battlefield").cid
             for _ in range(n_field)]
    hand = t.add_card(builtin.lookup("Llanowar Elves"), "Alice", "hand").cid
    t.start_here()
    return t, field, hand


def _spot(w):
    return w.scene.zone_items[("Alice", "battlefield")].spot.rect


def _inside(w, item) -> bool:
    r = _spot(w)
    b = item.sceneBoundingRect()
    return r.x <= b.left() + 1 and b.right() - 1 <= r.x + r.w and r.y <= b.top() + 1 \
        and b.bottom() - 1 <= r.y + r.h


def test_a_card_stays_where_it_is_dropped(make_window):
    t, field, hand = _table()
    w = make_window(t)
    r = _spot(w)
    target = QPointF(r.x + r.w * 0.6, r.y + r.h * 0.5)
    drag(w.view, w.scene.item_for_cid(hand), target)
    assert t.obj_of(hand).zone == (None, "battlefield") and len(t.history) == 1
    item = w.scene.item_for_cid(hand)
    c = item.sceneBoundingRect().center()
    assert abs(c.x() - target.x()) <= L.GRID_X and abs(c.y() - target.y()) <= L.GRID_Y
    assert _inside(w, item)
    # within its battlefield: only the place changes (no log line); undo puts it back
    giant = w.scene.item_for_cid(field[0])
    was = giant.pos()
    far = QPointF(r.x + r.w * 0.85, r.y + r.h * 0.3)
    logged = len(t.journal)
    drag(w.view, giant, far)
    giant = w.scene.item_for_cid(field[0])
    assert [a.name for a in t.history] == ["move", "place"] and len(t.journal) == logged
    assert t.obj_of(field[0]).zone == (None, "battlefield")
    assert abs(giant.sceneBoundingRect().center().x() - far.x()) <= L.GRID_X
    assert w.c.undo() and w.scene.item_for_cid(field[0]).pos() == was
    assert w.c.redo()
    assert abs(w.scene.item_for_cid(field[0]).sceneBoundingRect().center().x() - far.x()) \
        <= L.GRID_X
    # it keeps its place when tapped, and never leaves its zone however far it is dropped
    before = giant.pos()
    w.c.tap(field[0], True)
    assert w.scene.item_for_cid(field[0]).pos() == before
    drag(w.view, w.scene.item_for_cid(field[1]), QPointF(r.x + r.w - 5, r.y + r.h - 5))
    assert _inside(w, w.scene.item_for_cid(field[1]))


def test_new_cards_flow_around_placed_ones_and_arrange_tidies(make_window):
    t, field, hand = _table(1)
    w = make_window(t)
    r = _spot(w)
    first_slot = w.scene.item_for_cid(field[0]).pos()
    drag(w.view, w.scene.item_for_cid(field[0]),
         QPointF(r.x + L.GAP + L.CARD_W / 2 + 1, r.y + r.h / 2))  # about the first slot
    placed = w.scene.item_for_cid(field[0]).sceneBoundingRect()
    w.c.drop(hand, "battlefield", None)  # not dropped by hand: it flows
    new = w.scene.item_for_cid(hand).sceneBoundingRect()
    assert not new.intersects(placed)
    menu = w.scene.zone_actions(w.scene.zone_items[("Alice", "battlefield")])
    next(a for a in menu.actions() if a.text().startswith("Arrange")).trigger()
    assert w.scene.item_for_cid(field[0]).pos() == first_slot


def test_a_crowded_row_compresses_inside_its_zone(make_window):
    t, field, _ = _table(40)
    w = make_window(t)
    for cid in field:
        assert _inside(w, w.scene.item_for_cid(cid))


def _rows(w, cids):
    """The cards' rows, each as its cards' left edges from left to right."""
    rows: dict[int, list[float]] = {}
    for cid in cids:
        b = w.scene.item_for_cid(cid).sceneBoundingRect()
        rows.setdefault(round(b.top()), []).append(b.left())
    return [sorted(xs) for _, xs in sorted(rows.items())]


def test_creatures_with_no_land_go_on_into_the_land_row(make_window):
    """Fifteen creatures and no land: more than a row holds side by side, so they take
    both rows of the battlefield, neither overlapping, rather than one row squeezed
    above an empty one."""
    t, field, _ = _table(15)
    w = make_window(t)
    rows = _rows(w, field)
    assert len(rows) == 2 and sum(map(len, rows)) == 15
    for xs in rows:
        assert all(b - a >= L.CARD_W for a, b in itertools.pairwise(xs))  # no overlap
    assert all(_inside(w, w.scene.item_for_cid(cid)) for cid in field)


def test_creatures_past_their_row_go_on_after_the_lands(make_window):
    """Fifteen creatures and two lands: the creatures their row cannot hold side by side
    go on in the lands' row, after the lands (which keep the row nearer their player and
    its start), as many as fit there; no card covers another. A person at a small screen
    read half-hidden creatures beside an empty stretch of the land row."""
    t, field, _ = _table(15)
    lands = [t.add_card(builtin.lookup("Forest"), "Alice", "battlefield").cid
             for _ in range(2)]
    t.start_here()
    w = make_window(t)
    boxes = {cid: w.scene.item_for_cid(cid).sceneBoundingRect() for cid in [*field, *lands]}
    creature_top = boxes[field[0]].top()
    land_top = boxes[lands[0]].top()
    assert land_top > creature_top  # the lands on the row nearer their player
    on_land_row = [cid for cid in field if boxes[cid].top() == land_top]
    assert on_land_row and len(on_land_row) < 15
    assert all(boxes[cid].top() in (creature_top, land_top) for cid in field)
    # the lands first in their row, the creatures that went on after them
    assert max(boxes[c].right() for c in lands) < min(boxes[c].left() for c in on_land_row)
    assert not any(a.intersects(b) for a, b in itertools.combinations(boxes.values(), 2))
    assert all(_inside(w, w.scene.item_for_cid(cid)) for cid in boxes)


def test_a_row_past_both_rows_squeezes_and_the_other_keeps_its_cards_apart(make_window):
    """Forty creatures and a land: the land row takes what it holds side by side, the
    creatures' row squeezes the rest inside the zone."""
    t, field, _ = _table(40)
    land = t.add_card(builtin.lookup("Forest"), "Alice", "battlefield").cid
    t.start_here()
    w = make_window(t)
    boxes = {cid: w.scene.item_for_cid(cid).sceneBoundingRect() for cid in [*field, land]}
    land_top = boxes[land].top()
    assert land_top == max(b.top() for b in boxes.values())  # nearer its player
    assert len(_rows(w, [*field, land])) == 2
    back = sorted(b.left() for b in boxes.values() if b.top() == land_top)
    assert 1 < len(back) < 41 and back[0] == boxes[land].left()  # the land first
    assert all(b - a >= L.CARD_W for a, b in itertools.pairwise(back))  # not squeezed
    assert all(_inside(w, w.scene.item_for_cid(cid)) for cid in boxes)


def test_tapping_creatures_with_a_real_mouse_wraps_their_row(make_window):
    """Ten untapped creatures fit one row; tapped, they are wider than the row. Each is
    tapped with a real double click: the row then goes on into the empty land row, and
    no card covers another."""
    from tabletop.ui.selftest import double_click
    t, field, _ = _table(10)
    w = make_window(t)
    assert len(_rows(w, field)) == 1
    for cid in field:
        double_click(w.view, w.scene.item_for_cid(cid).sceneBoundingRect().center())
    assert all(t.obj_of(cid).tapped for cid in field)  # the engine's word, not the scene's
    assert len(_rows(w, field)) == 2
    boxes = [w.scene.item_for_cid(cid).sceneBoundingRect() for cid in field]
    assert not any(a.intersects(b) for a, b in itertools.combinations(boxes, 2))
    assert all(_inside(w, w.scene.item_for_cid(cid)) for cid in field)


def test_tapping_creatures_beside_lands_with_a_real_mouse_sends_them_after_the_lands(
        make_window):
    """Ten creatures and two lands; each creature tapped with a real double click grows
    wider than the row: the last go on after the lands in their row, and no card covers
    another."""
    from tabletop.ui.selftest import double_click
    t, field, _ = _table(10)
    lands = [t.add_card(builtin.lookup("Forest"), "Alice", "battlefield").cid
             for _ in range(2)]
    t.start_here()
    w = make_window(t)
    land_y = w.scene.item_for_cid(lands[0]).sceneBoundingRect().center().y()
    for cid in field:
        double_click(w.view, w.scene.item_for_cid(cid).sceneBoundingRect().center())
    assert all(t.obj_of(cid).tapped for cid in field)  # the engine's word, not the scene's
    boxes = {cid: w.scene.item_for_cid(cid).sceneBoundingRect() for cid in [*field, *lands]}
    # (a tapped card is turned about its centre: the rows are told by their centres)
    moved = [cid for cid in field if abs(boxes[cid].center().y() - land_y) < 1]
    assert moved and max(boxes[c].right() for c in lands) < min(boxes[c].left() for c in moved)
    assert not any(a.intersects(b) for a, b in itertools.combinations(boxes.values(), 2))
    assert all(_inside(w, w.scene.item_for_cid(cid)) for cid in boxes)
