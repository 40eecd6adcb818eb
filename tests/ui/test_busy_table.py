"""A busy table read at 1280x800 (issue 30): forty identical tokens stack with a count
and cover no other card, the log tells their making in one line, and every name on
the battlefield and in the hand is whole, at a size a person reads."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QStyleOptionGraphicsItem

from tabletop.cards import builtin, demo
from tabletop.engine.model import Card
from tabletop.ui import items as I
from tabletop.ui.selftest import drag, zone_center

SOLDIER = Card("Soldier", ("Creature",), ("Soldier",), power="1", toughness="1",
               colors=("W",))


def _busy(make_window):
    t = demo.new_game(players=("Alice", "Bob"), seed=5)
    for n in ("Llanowar Elves", "Hill Giant", "Grizzly Bears", "Forest", "Mountain"):
        t.add_card(builtin.lookup(n), "Alice", "battlefield")
    bears = t.add_card(builtin.lookup("Grizzly Bears"), "Bob", "battlefield")
    rancor = t.add_card(builtin.lookup("Rancor"), "Bob", "battlefield")
    t.start_here()
    w = make_window(t)
    w.c.attach(rancor.cid, bears.cid)
    w.c.create_tokens(SOLDIER, "Alice", 40)
    return t, w


def _field(w, player):
    return [i for i in w.scene.cards.values() if i.zone_key == (player, "battlefield")]


def test_forty_tokens_stack_with_a_count_and_cover_no_other_card(make_window, dialogs):
    _t, w = _busy(make_window)
    mine = _field(w, "Alice")
    tops = [i for i in mine if i.badge]
    assert [i.badge for i in tops] == ["×40"]
    stack = [i for i in mine if i.view.name == "Soldier"]
    top = tops[0]
    assert len(stack) == 40 and all(i.zValue() < top.zValue() for i in stack if i is not top)
    # no card is under another but a stack's own and an attachment behind its host
    others = [i for i in mine if i.view.name != "Soldier"]
    for a in others:
        for b in mine:
            if b is not a:
                assert not a.sceneBoundingRect().adjusted(3, 3, -3, -3).intersects(
                    b.sceneBoundingRect().adjusted(3, 3, -3, -3)), (a.view.name, b.view.name)
    # a token dragged off the top goes; the stack says one fewer
    drag(w.view, top, zone_center(w.scene, ("Alice", "graveyard")))
    QApplication.processEvents()
    assert [i.badge for i in _field(w, "Alice") if i.badge] == ["×39"]
    # making them is one line of the log, for Alice and for Bob
    for viewer in ("Alice", "Bob"):
        w.c.set_viewer(viewer)
        lines = w.log.lines()
        made = [k for k, line in enumerate(lines) if "creates 40 Soldier tokens" in line]
        assert len(made) == 1
        assert "Soldier token ×40" in lines[made[0] + 1]
        assert "creates a Soldier token" not in lines[made[0] + 2]


def test_every_name_and_type_line_reads_whole_at_1280x800(make_window, dialogs):
    _t, w = _busy(make_window)
    w.resize(1280, 800)
    QApplication.processEvents()
    w.view.fit()
    QApplication.processEvents()
    seen = 0
    for item in w.scene.cards.values():
        if item.face is None or item.zone_key[1] not in ("battlefield", "hand"):
            continue
        lod = QStyleOptionGraphicsItem.levelOfDetailFromTransform(
            w.view.viewportTransform() * item.sceneTransform())
        assert 0.4 < lod < 0.8  # the table as it is drawn on such a screen
        width = I.CARD_W - 10 - 4
        font, names = I._narrowed(I._wrap, item.face.name,
                                  I._font(I.NAME_PX, I.MIN_NAME_PX, lod, True), width, 2)
        assert not any(n.endswith("…") for n in names), names
        assert " ".join(names) == item.face.name
        assert font.pixelSize() * lod >= 10  # on the screen, in pixels
        tfont, types = I._narrowed(I._type_lines, item.card.type_line,
                                   I._font(I.TYPE_PX, I.MIN_TYPE_PX, lod, True), width, 2)
        assert tfont.pixelSize() * lod >= 9 and not any(x.endswith("…") for x in types)
        seen += 1
    assert seen >= 15


# the window filling an 800x600 screen draws its cards at 0.36 of their size, 1024x600
# at 0.43, 1280x800 at 0.6, 1920x1080 at 0.85
@pytest.mark.parametrize("lod", [0.36, 0.43, 0.6, 0.85, 1.0])
def test_a_small_card_keeps_its_name_and_type_line_apart_from_its_bottom_row(qapp, lod):
    """On a small screen a name on two lines pushed the type line under the bottom row,
    where the cost and power and toughness sit over it. Every card's type line stays
    between its name and that row, and a name is whole or cut short with an ellipsis,
    never silently after its first word."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QFontMetrics
    inner = QRectF(0, 0, I.CARD_W, I.CARD_H).adjusted(5, 5, -5, -5)
    for name in builtin.names():
        card = builtin.lookup(name)
        fl = I.face_layout(name, card.type_line, inner, lod)
        assert fl.title.bottom() <= fl.type_box.top(), (name, lod)
        assert fl.type_box.bottom() <= fl.row_top + 0.01, (name, lod)
        assert fl.type_box.height() >= QFontMetrics(fl.type_font).height(), (name, lod)
        assert " ".join(fl.names) == name or any("…" in n for n in fl.names), (name, fl.names)


def test_attached_cards_peek_out_inside_their_zone_below_its_heading(make_window, dialogs):
    """Two cards attached to the first permanent of a row peeked out above it, over the
    zone's heading ("Battlefield — Alice · 3"); on the far side, past its edge. They
    peek out inside the zone, the heading left clear, from either seat."""
    t = demo.new_game(players=("Alice", "Bob"), seed=5)
    for player in ("Alice", "Bob"):
        elves = t.add_card(builtin.lookup("Llanowar Elves"), player, "battlefield")
        for aura in ("Rancor", "Rancor"):
            t.attach(t.add_card(builtin.lookup(aura), player, "battlefield").cid, elves.cid)
    t.start_here()
    w = make_window(t)
    for viewer in ("Alice", "Bob"):
        w.c.set_viewer(viewer)
        QApplication.processEvents()
        for player in ("Alice", "Bob"):
            rect = w.scene.zone_items[(player, "battlefield")].sceneBoundingRect()
            cards = _field(w, player)
            riders = [i for i in cards if i.view.name == "Rancor"]
            assert len(riders) == 2
            for i in cards:
                box = i.sceneBoundingRect().adjusted(2, 2, -2, -2)  # (its outline's)
                assert box.top() >= rect.top() + 14 - 0.5, (viewer, player, i.view.name)
                assert box.bottom() <= rect.bottom() + 0.5, (viewer, player, i.view.name)
            # still each peeking out from behind the host, at its left
            host = next(i for i in cards if i.view.name == "Llanowar Elves")
            assert all(r.sceneBoundingRect().left() < host.sceneBoundingRect().left()
                       for r in riders)
