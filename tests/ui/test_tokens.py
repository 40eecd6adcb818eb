"""Tokens (issue 16, item 9): one dialog for name, power/toughness, colours, types and how
many, filled from the card database's tokens; "Copy it as a token" from a card's menu.
Forty tokens are one action and one undo."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QPushButton

from tabletop.cards import builtin
from tabletop.engine import Table
from tabletop.ui.token_dialog import TokenDialog


def answer_token_dialog(dialogs, fill, seen: list) -> None:
    """When the token dialog opens, type into it as a person would and press Create."""
    def answer(w):
        assert isinstance(w, TokenDialog)
        fill(w)
        seen.append(w.card())
        create = next(b for b in w.findChildren(QPushButton) if b.text() == "Create")
        QTest.mouseClick(create, Qt.LeftButton)
    dialogs.answer("Create tokens", answer)


def _tick(box):
    """Click a check box on its indicator, where a person clicks."""
    QTest.mouseClick(box, Qt.LeftButton, Qt.NoModifier, QPoint(6, box.height() // 2))


def _retype(field, text):
    field.selectAll()
    QTest.keyClicks(field, text)


def test_forty_goblins_in_one_dialog_one_action_one_undo(make_window, dialogs):
    t = Table(("Alice", "Bob"), "cr-2016")
    t.start_here()
    w = make_window(t)
    seen: list = []

    def fill(d):
        _retype(d.name, "Goblin")  # a token the card database knows: red 1/1 Goblin
        assert d.colors["R"].isChecked() and not d.colors["W"].isChecked()
        assert (d.power.text(), d.toughness.text(), d.subtypes.text()) == ("1", "1", "Goblin")
        d.count.selectAll()
        QTest.keyClicks(d.count, "40")
        _tick(d.tapped)

    answer_token_dialog(dialogs, fill, seen)
    QTest.keyClick(w, Qt.Key_K, Qt.ControlModifier)  # Table > Create a token
    QApplication.processEvents()
    assert len(seen) == 1
    goblins = [o for o in t.objects_in((None, "battlefield")) if o.card.name == "Goblin"]
    assert len(goblins) == 40 and all(o.token and o.tapped for o in goblins)
    assert goblins[0].card.colors == ("R",) and goblins[0].card.power == "1"
    assert goblins[0].card.type_line == "Creature — Goblin"
    assert len(t.history) == 1
    assert w.log.lines()[0] == "1. Alice creates 40 Goblin tokens:"
    # they stay on Alice's battlefield, not over the library
    lib = w.scene.zone_items[("Alice", "library")].spot.rect
    field = w.scene.zone_items[("Alice", "battlefield")].spot.rect
    for o in goblins:
        item = w.scene.item_for_cid(o.cid)
        c = item.sceneBoundingRect().center()
        assert field.contains(c.x(), c.y()) and not lib.contains(c.x(), c.y())
    w.undo()
    assert not [o for o in t.objects_in((None, "battlefield")) if o.card.name == "Goblin"]


def test_a_known_token_name_fills_the_dialog(qtbot):
    from tabletop.engine import Card
    known = [Card("Treasure", ("Artifact",), ("Treasure",)),
             Card("Spirit", ("Creature",), ("Spirit",), power="1", toughness="1",
                  colors=("W",))]
    d = TokenDialog(None, ("Alice", "Bob"), "Bob", known)
    qtbot.addWidget(d)
    _retype(d.name, "spirit")
    assert d.colors["W"].isChecked() and d.power.text() == "1"
    assert d.card() == Card("Spirit", ("Creature",), ("Spirit",), power="1", toughness="1",
                            colors=("W",))
    _retype(d.name, "Treasure")
    card = d.card()
    assert card.types == ("Artifact",) and card.power is None
    _retype(d.name, "Clockwork Drake")  # a name it does not know keeps what is entered
    _tick(d.colors["U"])
    _retype(d.types, "Artifact Creature")
    _retype(d.power, "2")
    _retype(d.toughness, "3")
    assert d.card() == Card("Clockwork Drake", ("Artifact", "Creature"), ("Treasure",),
                            power="2", toughness="3", colors=("U",))
    assert d.player.currentData() == "Bob"


def test_copy_a_card_as_a_token_from_its_menu(make_window):
    t = Table(("Alice", "Bob"), "cr-2016")
    giant = t.add_card(builtin.lookup("Hill Giant"), "Alice", "battlefield")
    t.start_here()
    w = make_window(t)
    menu = w.scene.card_actions(w.scene.item_for_cid(giant.cid))
    next(a for a in menu.actions() if a.text() == "Copy it as a token").trigger()
    QApplication.processEvents()
    copies = [o for o in t.objects_in((None, "battlefield")) if o.token]
    assert len(copies) == 1 and copies[0].card == giant.card and copies[0].controller == "Alice"
