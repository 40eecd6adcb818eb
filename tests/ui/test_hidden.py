"""Hidden information stays hidden (issue 11, items 6 to 8): what the window shows a
viewpoint comes only from the engine's view for that viewpoint.

The property test builds twin tables that differ only in one card the viewer may
not see, drives both windows with the same real presses and drags, and compares
everything drawn: item texts and tooltips, positions and rows, a rendered picture
of the scene (colours included), the drag highlight over every zone, the
inspector's HTML, the log and the status bar."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tabletop.cards import builtin
from tabletop.engine import Table, saves
from tabletop.engine.views import HIDDEN_REFUSAL, JUDGE, may_see
from tabletop.ui.selftest import double_click, drag, zone_center

SWAPS = ["Forest", "Lightning Bolt", "Hill Giant", "Counterspell", "Sol Ring", "Rancor"]
DECK = ["Forest", "Island", "Hill Giant", "Llanowar Elves", "Shock", "Wrath of God",
        "Sol Ring", "Counterspell", "Rancor", "Lightning Bolt"]


def build(seed: int, secret_spot: str, secret: str) -> tuple[Table, int]:
    """A table where every card is fixed by the seed except one, named ``secret``,
    at ``secret_spot``: "hand" (Bob's hand), "library" (Alice's library) or
    "face-down" (Bob's face-down permanent)."""
    rng = random.Random(seed)
    t = Table(("Alice", "Bob"), seed=seed)
    secret_cid = None
    for p in t.players:
        for zone, n in (("library", 8), ("hand", 4), ("graveyard", 1)):
            for i in range(n):
                name = rng.choice(DECK)
                is_secret = (secret_spot == "hand" and p == "Bob" and zone == "hand" and i == 2) \
                    or (secret_spot == "library" and p == "Alice" and zone == "library" and i == 7)
                o = t.add_card(builtin.lookup(secret if is_secret else name), p, zone)
                if is_secret:
                    secret_cid = o.cid
        t.add_card(builtin.lookup("Forest"), p, "battlefield", controller=p)
        t.add_card(builtin.lookup("Hill Giant"), p, "battlefield", controller=p)
        down = secret if (secret_spot == "face-down" and p == "Bob") else rng.choice(DECK)
        o = t.add_card(builtin.lookup(down), p, "battlefield", controller=p, face_down=True)
        if secret_spot == "face-down" and p == "Bob":
            secret_cid = o.cid
    t.start_here()
    return t, secret_cid


def picture(w) -> QImage:
    img = QImage(500, 400, QImage.Format_ARGB32)
    img.fill(0)
    p = QPainter(img)
    w.scene.render(p)
    p.end()
    return img


def screen(w) -> dict:
    """Everything the window shows, as comparable data."""
    sc = w.scene
    cards = sorted((repr(k), round(i.pos().x(), 1), round(i.pos().y(), 1), i.rotation(),
                    i.zValue(), tuple(i.text_items()), i.toolTip(), i.badge,
                    type(i.view).__name__, i.zone_key) for k, i in sc.cards.items())
    zones = sorted((repr(k), z.title, z.count, tuple(z.captions), z.state)
                   for k, z in sc.zone_items.items())
    return {"cards": cards, "zones": zones, "log": w.log.lines(),
            "status": (w.message(), w.status.toolTip()),
            "inspector": w.inspector.toHtml(), "picture": picture(w),
            "undo": (w.undo_action.text(), w.redo_action.text())}


def highlights(w, item) -> list:
    """Press the card, pass over every zone, note each zone's light, then Escape."""
    vp = w.view.viewport()
    start = w.view.mapFromScene(item.sceneBoundingRect().center())
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, start)
    QTest.mouseMove(vp, start + QPoint(12, 12))
    states = []
    for key in sorted(w.scene.zone_items, key=repr):
        p = w.view.mapFromScene(zone_center(w.scene, key))
        QTest.mouseMove(vp, p)
        states.append((repr(key), w.scene.zone_items[key].state))
    QTest.keyClick(vp, Qt.Key_Escape)
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, start)
    QApplication.processEvents()
    return states


def click(w, item) -> None:
    p = w.view.mapFromScene(item.sceneBoundingRect().center())
    QTest.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier, p)
    QApplication.processEvents()


def same(a, b, what) -> None:
    sa, sb = screen(a), screen(b)
    for k in sa:
        assert sa[k] == sb[k], f"{what}: the {k} differs"


def twins(make_window, seed, spot, viewer, names):
    ws = []
    for name in names:
        t, cid = build(seed, spot, name)
        w = make_window(t, viewer=viewer)
        ws.append((w, cid))
    return ws


@pytest.mark.parametrize("spot", ["hand", "library", "face-down"])
def test_a_card_the_viewer_cannot_see_changes_nothing_on_screen(make_window, spot):
    (a, cid), (b, _) = twins(make_window, 7, spot, "Alice", ["Forest", "Lightning Bolt"])
    assert not may_see(a.c.table, a.c.table.obj_of(cid), "Alice")
    same(a, b, "at the start")
    key = next(k for k, i in a.scene.cards.items() if i.oid == a.c.table.obj_of(cid).id) \
        if any(i.oid == a.c.table.obj_of(cid).id for i in a.scene.cards.values()) else None
    if key is not None:  # on screen (a library shows only its top card)
        for w in (a, b):
            w.c.anyone = True  # hot-seat: the secret card may be handled, so it lights
        ha, hb = highlights(a, a.scene.cards[key]), highlights(b, b.scene.cards[key])
        assert ha == hb
        assert ("('Alice', 'battlefield')", "unknown") in ha or spot == "face-down"
        click(a, a.scene.cards[key])
        click(b, b.scene.cards[key])
        same(a, b, "with the hidden card selected")
        assert "hidden card" in a.inspector.toPlainText().lower()


def test_the_opponents_face_down_land_sits_in_the_same_row_as_any_face_down_card(make_window):
    (a, cid_a), (b, cid_b) = twins(make_window, 3, "face-down", "Alice", ["Forest", "Shock"])
    ia = a.scene.item_for_cid(cid_a) or next(i for i in a.scene.cards.values()
                                               if i.oid == a.c.table.obj_of(cid_a).id)
    ib = next(i for i in b.scene.cards.values() if i.oid == b.c.table.obj_of(cid_b).id)
    assert ia.pos() == ib.pos() and ia.view.row == "others"
    # its controller sees the face, and still the creature row: face down, it is no land
    a.c.set_viewer("Bob")
    mine = a.scene.item_for_cid(cid_a)
    assert mine.face is not None and mine.face.name == "Forest" and mine.view.row == "others"


@pytest.mark.parametrize("seed", range(6))
def test_property_random_tables_viewpoints_and_drags(make_window, seed):
    rng = random.Random(seed)
    spot = rng.choice(["hand", "library", "face-down"])
    viewer = "Alice"
    names = rng.sample(SWAPS, 2)
    (a, cid), (b, _) = twins(make_window, seed, spot, viewer, names)
    anyone = rng.random() < 0.5
    a.c.anyone = b.c.anyone = anyone
    same(a, b, f"seed {seed} at the start")
    for step in range(14):
        ta, tb = a.c.table, b.c.table
        if may_see(ta, ta.obj_of(cid), viewer) or may_see(tb, tb.obj_of(cid), viewer):
            break  # the card is in view now: from here the tables may look different
        roll = rng.random()
        keys = sorted(set(a.scene.cards) & set(b.scene.cards), key=repr)
        if roll < 0.1:
            a.undo()
            b.undo()
        elif roll < 0.2:
            lib = a.scene.zone_items[(viewer, "library")]
            for w in (a, b):
                double_click(w.view, zone_center(w.scene, lib.key))
        elif roll < 0.3 and keys:
            k = rng.choice(keys)
            click(a, a.scene.cards[k])
            click(b, b.scene.cards[k])
        elif keys:
            k = rng.choice(keys)
            zone = rng.choice(sorted(a.scene.zone_items, key=repr))
            r = a.scene.zone_items[zone].spot.rect
            target = QPointF(r.x + rng.random() * r.w, r.y + rng.random() * r.h)
            ra = drag(a.view, a.scene.cards[k], target, steps=3)
            rb = drag(b.view, b.scene.cards[k], target, steps=3)
            assert ra is None and rb is None
        QApplication.processEvents()
        ta, tb = a.c.table, b.c.table
        if may_see(ta, ta.obj_of(cid), viewer) or may_see(tb, tb.obj_of(cid), viewer):
            break
        same(a, b, f"seed {seed}, step {step}")


def test_dragging_an_opponents_hidden_card_is_refused_without_saying_what_it_is(make_window):
    t, cid = build(1, "hand", "Lightning Bolt")
    w = make_window(t)
    w.c.anyone = True  # hot-seat: Alice may try to play Bob's card
    item = next(i for i in w.scene.cards.values() if i.oid == t.obj_of(cid).id)
    states = dict(highlights(w, item))
    assert states["('Alice', 'battlefield')"] == "unknown"
    drag(w.view, item, zone_center(w.scene, ("Bob", "battlefield")))
    assert t.obj_of(cid).zone == ("Bob", "hand")  # 400.4a kept it there
    assert w.message() == HIDDEN_REFUSAL
    assert "400.4a" not in " ".join(w.log.lines()) and "Lightning" not in " ".join(w.log.lines())
    # nor the log: a refusal of a card the viewer may not see is not told to them at all
    assert not any("refused" in line for line in w.log.lines())
    w.c.set_viewer(JUDGE)  # the judge reads the rule
    assert "400.4a" in w.log.lines()[-1] and "Lightning Bolt" in w.log.lines()[-1]


def test_a_player_moves_only_their_own_cards_unless_hot_seat_is_on(make_window):
    t, cid = build(2, "hand", "Forest")
    w = make_window(t)
    theirs = next(i for i in w.scene.cards.values() if i.oid == t.obj_of(cid).id)
    assert dict(highlights(w, theirs))["('Bob', 'graveyard')"] == "refuse"
    drag(w.view, theirs, zone_center(w.scene, ("Bob", "graveyard")))
    assert t.obj_of(cid).zone == ("Bob", "hand")
    assert "Alice may not handle Bob's cards" in w.message()
    assert "refused: Alice may not handle Bob's cards" in w.log.lines()[-1]
    before = t.obj_of(cid).zone
    # the opponent's library: double-clicking it does not draw for them
    n = len(t.zones[("Bob", "hand")])
    double_click(w.view, zone_center(w.scene, ("Bob", "library")))
    assert len(t.zones[("Bob", "hand")]) == n
    assert w.scene.mouseGrabberItem() is None
    # the menu turns it on
    w.anyone_action.trigger()
    assert w.c.anyone
    theirs = next(i for i in w.scene.cards.values() if i.oid == t.obj_of(cid).id)
    drag(w.view, theirs, zone_center(w.scene, ("Bob", "graveyard")))
    assert t.obj_of(cid).zone == ("Bob", "graveyard") != before, (cid, t.objs[t.zones[("Bob","graveyard")][-1]].cid, theirs.oid, theirs.pos(), theirs.zValue())
    # the judge handles anything, hot-seat or not
    w.anyone_action.trigger()
    w.c.set_viewer(JUDGE)
    giant = next(o for o in t.objects_in((None, "battlefield")) if o.controller == "Bob"
                 and o.card.name == "Hill Giant")
    drag(w.view, w.scene.item_for_cid(giant.cid), zone_center(w.scene, ("Bob", "graveyard")))
    assert t.obj_of(giant.cid).zone == ("Bob", "graveyard")


def test_log_lines_never_change_and_undo_adds_its_own(make_window, tmp_path):
    t, _ = build(4, "hand", "Forest")
    w = make_window(t)
    giant = next(o for o in t.objects_in((None, "battlefield")) if o.controller == "Alice"
                 and o.card.name == "Hill Giant")
    drag(w.view, w.scene.item_for_cid(giant.cid), zone_center(w.scene, ("Alice", "graveyard")))
    first = w.log.lines()
    assert len(first) == 1 and "Hill Giant" in first[0]
    w.undo()
    after = w.log.lines()
    assert after[:1] == first and after[1].startswith("2. undone: Hill Giant")
    w.redo()
    assert w.log.lines()[:2] == after and "redone: Hill Giant" in w.log.lines()[2]
    p = tmp_path / "g.tabletop"
    saves.save(t, p)
    w2 = make_window(saves.load(p))
    assert w2.log.lines() == w.log.lines()


def test_an_old_save_without_a_journal_gets_its_log_rebuilt(tmp_path):
    t, _ = build(5, "hand", "Forest")
    t.draw("Alice")
    d = saves.to_json(t)
    del d["journal"]
    t2 = saves.from_json(d)
    assert [e.text for e in t2.journal] == [e.text for e in t.journal]


def test_hidden_draws_name_nothing_for_the_opponent(make_window):
    t, _ = build(6, "hand", "Forest")
    w = make_window(t, viewer="Bob")
    w.c.anyone = True
    w.c.draw("Alice")
    assert w.log.lines()[-1] == "1. a card moves from Alice's library to Alice's hand"
    w.c.set_viewer("Alice")
    assert "moves to Alice's hand" in w.log.lines()[-1]
