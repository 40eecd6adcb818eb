"""An effect reorders a library (issue 14, item 6): allowed, cited, undoable, hidden."""

from __future__ import annotations

from tabletop.engine import Card, Table, saves, views

LAND = Card("Forest", ("Land",))


def _lib(t):
    return [t.objs[i].cid for i in t.zones[("Alice", "library")]]  # bottom first


def test_bottom_and_nth_from_the_top_reorder_the_same_object_and_undo():
    t = Table(("Alice", "Bob"), edition="cr-2012")
    a, b, c, d = (t.add_card(LAND, "Alice", "library").cid for _ in range(4))
    assert _lib(t) == [a, b, c, d]  # d on top
    top = t.current[d]
    res = t.move(d, "library", position="bottom")
    (e,) = res.events
    assert e.kind == "reordered" and e.cites == ("400.5",) and e.obj == top == t.current[d]
    assert _lib(t) == [d, a, b, c]
    res = t.move(c, "library", position=3)
    assert _lib(t) == [d, c, a, b] and res.events[0].text.endswith("3rd from the top of "
                                                                   "Alice's library")
    text = saves.dumps(t)
    assert _lib(saves.loads(text)) == [d, c, a, b]
    t.undo()
    t.undo()
    assert _lib(t) == [a, b, c, d]
    # Bob is told only that a hidden card in Alice's library was reordered
    t.redo()
    told = views.tell(t, t.history[-1].events[0], "Bob")
    assert "Forest" not in told.text and told.cites == ()


def test_a_card_already_in_place_is_unchanged_and_a_graveyard_keeps_its_order():
    t = Table(("Alice", "Bob"), edition="cr-2016")
    a = t.add_card(LAND, "Alice", "library").cid
    assert t.move(a, "library", position="bottom").events[0].kind == "unchanged"
    g1 = t.add_card(LAND, "Alice", "graveyard").cid
    t.add_card(LAND, "Alice", "graveyard")
    assert t.move(g1, "graveyard").events[0].kind == "unchanged"  # 400.5: fixed order
