"""The sideboard during a match (issue 16, item 11): look at it and bring a card in
during a game; between games, swap cards between deck and sideboard, choose who plays
first, and the next game starts from the swapped cards."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
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
    w.playtest.next_game()
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


def _sixty():
    main = _cards(*["Forest"] * 20, *["Llanowar Elves"] * 4, *["Grizzly Bears"] * 4,
                  *["Hill Giant"] * 4, *["Giant Growth"] * 4, *["Rancor"] * 4,
                  *["Mountain"] * 4, *["Shock"] * 4, *["Lightning Bolt"] * 4,
                  *["Giant Spider"] * 4, *["Naturalize"] * 4)
    return main, _cards(*["Plow Under"] * 3, *["Counterspell"] * 2)


def _play_a_while(t):
    """A few turns: a mulligan, lands and creatures, a creature dying, a card brought in
    from the sideboard, cards drawn, the turn passed."""
    t.mulligan("Alice")
    t.move_many([o.cid for o in t.objects_in(("Alice", "hand"))[:1]], "library", "Alice",
                position="bottom")
    for _ in range(3):
        for p in t.players:
            hand = t.objects_in((p, "hand"))
            land = next((o for o in hand if "Land" in o.card.types), None)
            if land is not None:
                t.move(land.cid, "battlefield", p)
            creature = next((o for o in t.objects_in((p, "hand"))
                             if "Creature" in o.card.types), None)
            if creature is not None:
                t.move(creature.cid, "battlefield", p)
                t.move(creature.cid, "graveyard", p)
            t.draw(p, 1)
        t.next_turn(untap=True)
    t.bring_in(t.sideboards["Alice"][0], "Alice", "hand")


def test_the_next_game_after_play_and_a_save_has_every_card_of_the_decks():
    """60 cards and 5 in the sideboard come back as 60 and 5 after play, a mulligan,
    a card brought in, and a save and reload (a crash restore reads the same file)."""
    from tabletop.engine import saves
    main, side = _sixty()
    t = game_from_cards([("Alice", {"main": main, "sideboard": side}),
                         ("Bob", {"main": list(main), "sideboard": list(side)})], seed=9)
    _play_a_while(t)
    for table in (t, saves.from_json(saves.to_json(t), "a save")):
        decks = decks_in_play(table)
        for p in ("Alice", "Bob"):
            assert len(decks[p]["main"]) == 60 and len(decks[p]["sideboard"]) == 5, p
            assert sorted(c.name for c in decks[p]["main"]) == sorted(c.name for c in main)


def test_file_next_game_after_a_restore_deals_the_whole_demo_decks(make_window, dialogs):
    """The window's demo game, played a while, restored from its save (what a crash
    restore does), then File > Next game: each player has the whole deck again, and the
    sideboarding dialog counts it right."""
    from tabletop.cards import demo
    from tabletop.engine import saves
    t = demo.new_game(players=("Alice", "Bob"), seed=4)
    sizes = {p: len(t.objects_in((p, "library"))) + len(t.objects_in((p, "hand")))
             for p in t.players}
    w = make_window(t)
    w.c.anyone = True
    for p in t.players:  # some play: cards drawn, one discarded, a mulligan
        t.draw(p, 2)
        t.move(t.objects_in((p, "hand"))[0].cid, "graveyard", p)
    t.mulligan("Bob")
    w.c.set_table(saves.from_json(saves.to_json(t), "the autosave"))
    counted = {}

    def answer(d):
        for p, page in d.pages.items():
            counted[p] = page.main_label.text()
        start = next(b for b in d.findChildren(QPushButton) if b.text() == "Start the next game")
        QTest.mouseClick(start, Qt.LeftButton)
    dialogs.answer("Sideboarding", answer)
    dialogs.expect("Unsaved", "Discard")
    action = next(a for a in w.findChildren(QAction) if a.text().startswith("Ne&xt game"))
    action.trigger()
    QApplication.processEvents()
    new = w.c.table
    assert new is not t
    for p in new.players:
        dealt = len(new.objects_in((p, "library"))) + len(new.objects_in((p, "hand")))
        assert dealt == sizes[p] and counted[p] == f"Deck: {sizes[p]} cards", p


def test_file_save_deck_as_writes_the_seats_deck_in_the_chosen_format(
        make_window, dialogs, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    from tabletop.cards import decks as deckfiles
    from tabletop.cards import demo
    t = demo.new_game(players=("Alice", "Bob"), seed=4)
    w = make_window(t)
    t.draw("Alice", 3)  # play changes nothing of the deck as it began
    target = tmp_path / "mine"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: (str(target), "Forge (*.dck)"))
    action = next(a for a in w.findChildren(QAction) if a.text() == "Save &deck as…")
    action.trigger()
    saved = tmp_path / "mine.dck"
    deck = deckfiles.load(saved, known=lambda n: True)
    assert deck.name == "Forest Fire" and deck.count("main") == 40
    assert saved.read_text().startswith("[metadata]\nName=Forest Fire\n")
