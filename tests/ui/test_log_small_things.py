"""The log and small things (issue 30): your own mulligan names your own cards in your
own view and no other's; undo and redo name the action once; where an edition's rule
number comes from ("as in the 2012 text") is said once a game, not on every line."""

from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication

from tabletop.cards import demo


def _mulligan(w, dialogs):
    """Table > Mulligan (London), one card to the bottom, as a player would."""
    def choose(d):
        d.list.item(0).setSelected(True)
        d.accept()
    dialogs.answer("London mulligan", choose)
    dialogs.expect("Order on the bottom", "OK")
    next(a for a in w.findChildren(QAction) if a.text() == "&Mulligan (London)").trigger()
    QApplication.processEvents()


def test_your_own_mulligan_names_your_cards_to_you_only(make_window, dialogs):
    t = demo.new_game(players=("Alice", "Bob"), edition="cr-2016", seed=5)
    kept = [o.card.name for o in t.objects_in(("Alice", "hand"))]
    w = make_window(t)
    _mulligan(w, dialogs)
    assert t.mulligans == {"Alice": 1}
    lines = w.log.lines()
    back = [line for line in lines if "to Alice's library" in line]
    assert len(back) == len(kept)  # each card that went back, by name, to Alice
    assert sorted(line.split(" moves")[0].strip("– ") for line in back) == sorted(kept)
    w.c.set_viewer("Bob")
    QApplication.processEvents()
    bob = "\n".join(w.log.lines())
    assert "Alice mulligans" in bob
    returned = [line for line in w.log.lines() if "hand to Alice's library" in line]
    assert len(returned) == len(kept)
    assert not any(name in line for line in returned for name in kept)


def test_undo_and_redo_name_the_action_once(make_window, dialogs):
    t = demo.new_game(players=("Alice", "Bob"), edition="cr-2016", seed=5)
    w = make_window(t)
    w.c.draw("Alice", 3)
    before = len(w.log.lines())
    w.undo_action.trigger()  # Edit > Undo
    lines = w.log.lines()
    assert lines[before:] == ["2. undone: Alice draws 3 cards"]  # one line, the heading
    assert w.status.text().startswith("Undone: Alice draws 3")
    w.redo_action.trigger()
    assert w.log.lines()[-1].endswith("redone: Alice draws 3 cards")
    assert w.status.text().startswith("Redone: Alice draws 3")


def test_an_editions_source_is_said_once_a_game(make_window, dialogs):
    t = demo.new_game(players=("Alice", "Bob"), edition="cr-2016", seed=5)
    w = make_window(t)
    hand = [o.cid for o in t.objects_in(("Alice", "hand"))]
    for pair in (hand[:2], hand[2:4]):  # twice two cards to the bottom, in an order
        w.c.move_many(pair, "library", "Alice", order=pair, position="bottom")
    lines = w.log.lines()
    cited = [line for line in lines if "401.4" in line and "note" not in line]
    notes = [line for line in lines if "as in the 2012 text" in line]
    assert len(cited) == 4 and len(notes) == 1  # 401.4 is the 2012 text's here
    w.c.set_viewer(None)  # the judge's log, drawn again from the start, says it once too
    assert sum("as in the 2012 text" in line for line in w.log.lines()) == 1
