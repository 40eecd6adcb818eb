"""The sideboard during a match (issue 16, item 11): look at it and bring a card in
during a game; between games, swap cards between deck and sideboard, choose who plays
first, and the next game starts from the swapped cards."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QPushButton

from tabletop.cards import builtin
from tabletop.cards.game import decks_in_play, game_from_cards
from tabletop.engine import Card, views
from tabletop.ui.sideboard import SideboardDialog, SideboardingDialog


def _cards(*names):
    return [builtin.lookup(n) for n in names]


def _match():
    alice = {"main": _cards(*["Forest"] * 6, "Llanowar Elves", "Hill Giant"),
             "sideboard": _cards("Naturalize", "Naturalize", "Shock")}
    bob = {"main": _cards(*["Island"] * 8), "sideboard": _cards("Counterspell")}
    return game_from_cards([("Alice", alice), ("Bob", bob)], seed=5, hand=3)


def test_the_decks_of_a_game_are_its_cards_wherever_they_went():
    t = _match()
    giant = next(o for o in t.objects_in(("Alice", "library")) + t.objects_in(("Alice", "hand"))
                 if o.card.name == "Hill Giant")
    t.move(giant.cid, "battlefield")
    t.move(giant.cid, "graveyard")
    t.create_token(Card("Soldier", ("Creature",)), "Alice")
    t.bring_in(builtin.lookup("Shock"), "Alice", "hand")
    decks = decks_in_play(t)
    assert [c.name for c in decks["Alice"]["main"]].count("Forest") == 6
    assert "Hill Giant" in [c.name for c in decks["Alice"]["main"]]
    assert "Soldier" not in [c.name for d in decks["Alice"].values() for c in d]
    assert sorted(c.name for c in decks["Alice"]["sideboard"]) == ["Naturalize", "Naturalize",
                                                                   "Shock"]
    assert len(decks["Bob"]["main"]) == 8 and len(decks["Bob"]["sideboard"]) == 1


def test_bring_a_sideboard_card_in_during_the_game(make_window):
    t = _match()
    w = make_window(t)
    dlg = SideboardDialog(w.c, "Alice", w)
    dlg.show()
    assert dlg.list.count() == 2  # "2 × Naturalize", "1 × Shock"
    dlg.list.setCurrentRow(0)
    QTest.mouseClick(dlg.bring, Qt.LeftButton)
    QApplication.processEvents()
    hand = [o.card.name for o in t.objects_in(("Alice", "hand"))]
    assert "Naturalize" in hand and len(t.sideboards["Alice"]) == 2
    assert dlg.list.item(0).text() == "1 × Naturalize"
    w.undo()
    assert len(t.sideboards["Alice"]) == 3
    # Bob's sideboard: Alice learns how many cards, not which
    other = SideboardDialog(w.c, "Bob", w)
    assert other.list.count() == 0 and "1 card" in other.info.text()
    assert views.sideboard(t, "Bob", "Alice") == 1
    dlg.close()
    other.close()


def test_sideboarding_then_the_next_game(make_window, dialogs, monkeypatch):
    t = _match()
    w = make_window(t)
    w.c.anyone = True  # hot seat: both players sideboard here
    chosen = {}

    def answer(d):
        assert isinstance(d, SideboardingDialog)
        page = d.pages["Alice"]
        row = next(i for i in range(page.main_list.count())
                   if page.main_list.item(i).data(Qt.UserRole) == "Hill Giant")
        page.main_list.setCurrentRow(row)
        QTest.mouseClick(page.to_side, Qt.LeftButton)
        row = next(i for i in range(page.side_list.count())
                   if page.side_list.item(i).data(Qt.UserRole) == "Shock")
        page.side_list.setCurrentRow(row)
        QTest.mouseClick(page.to_main, Qt.LeftButton)
        d.first.setCurrentIndex(d.first.findData("Bob"))
        chosen["main"] = page.main_label.text()
        start = next(b for b in d.findChildren(QPushButton) if b.text() == "Start the next game")
        QTest.mouseClick(start, Qt.LeftButton)

    dialogs.answer("Sideboarding", answer)
    dialogs.expect("Unsaved", "Discard")
    w.next_game()
    QApplication.processEvents()
    new = w.c.table
    assert new is not t and new.players == ("Bob", "Alice") and new.active == "Bob"
    assert chosen["main"] == "Deck: 8 cards"
    alice = [o.card.name for k in (("Alice", "library"), ("Alice", "hand"))
             for o in new.objects_in(k)]
    assert "Shock" in alice and "Hill Giant" not in alice and len(alice) == 8
    assert sorted(c.name for c in new.sideboards["Alice"]) == ["Hill Giant", "Naturalize",
                                                               "Naturalize"]
    assert len(new.objects_in(("Bob", "hand"))) == 7 and not new.history
