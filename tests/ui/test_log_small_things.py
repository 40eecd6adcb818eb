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


def test_the_window_title_names_the_game(make_window, dialogs, tmp_path):
    t = demo.new_game(players=("Alice", "Bob"), edition="cr-2016", seed=5)
    w = make_window(t)
    game = "Alice (Forest Fire) vs Bob (Skies and Tides)"
    assert w.windowTitle() == f"Tabletop — {game} — cr-2016"
    w.c.draw("Alice", 1)
    assert w.windowTitle() == f"Tabletop — {game} * — cr-2016"
    w.path = tmp_path / "evening.tabletop"  # as Save as… leaves it
    assert w.save_game()
    assert w.windowTitle() == f"Tabletop — evening.tabletop — {game} — cr-2016"
    w2 = make_window(demo.new_game(players=("Carol",)))
    assert w2.load_game(tmp_path / "evening.tabletop", asked=True)
    assert game in w2.windowTitle()  # the decks' names are kept with the game


def test_a_piles_tools_are_on_its_top_cards_menu(make_window, dialogs):
    t = demo.new_game(players=("Alice", "Bob"), edition="cr-2016", seed=5)
    w = make_window(t)
    top = w.scene.cards[next(k for k, i in w.scene.cards.items()
                             if i.zone_key == ("Alice", "library"))]
    menu = w.scene.card_actions(top)
    tools = next(a.menu() for a in menu.actions() if a.menu() is not None
                 and a.text().startswith("Library"))
    hand = len(t.objects_in(("Alice", "hand")))
    dialogs.expect("Draw", 2)
    next(a for a in tools.actions() if a.text() == "Draw N…").trigger()
    QApplication.processEvents()
    assert len(t.objects_in(("Alice", "hand"))) == hand + 2
    del menu


def test_the_demo_table_says_how_to_play_your_own_decks(make_window, dialogs):
    from tabletop.engine import Table
    w = make_window(demo.new_game())
    assert "New game from decks" in w.inspector.toPlainText()
    assert "Forge or XMage .dck" in w.inspector.toPlainText()
    w.c.set_table(Table(("Alice", "Bob")))  # a table of one's own: nothing to say of it
    assert "New game from decks" not in w.inspector.toPlainText()


def test_undo_does_not_name_a_card_the_viewpoint_may_not_see(make_window, dialogs):
    from tabletop.cards import builtin
    from tabletop.engine import Table
    t = Table(("Alice", "Bob"), "cr-2016")
    morph = t.add_card(builtin.lookup("Hill Giant"), "Alice", "battlefield", face_down=True)
    t.start_here()
    w = make_window(t)
    w.c.tap(morph.cid, True)
    assert "Hill Giant" in w.undo_action.text()  # Alice controls it: she knows it
    w.c.set_viewer("Bob")
    assert "Hill Giant" not in w.undo_action.text() and "a card" in w.undo_action.text()


def _heights_as_the_list_measures_them(lst):
    """The oracle: the same lines in a plain list of the same font and width, left to
    measure them itself."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QListWidget
    ref = QListWidget()
    ref.setWordWrap(True)
    ref.setFont(lst.font())
    ref.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    ref.resize(lst.viewport().width() + 2 * ref.frameWidth(), 300)
    for i in range(lst.count()):
        ref.addItem(lst.item(i).text())
    ref.show()
    QApplication.processEvents()
    assert ref.viewport().width() == lst.viewport().width()
    heights = [ref.visualItemRect(ref.item(i)).height() for i in range(ref.count())]
    ref.close()
    return heights


def test_each_log_line_is_as_tall_as_its_words_wrapped_at_the_docks_width(make_window,
                                                                           qtbot):
    """The log gives each line its height, so that a line added does not make the list
    measure every line again (50 ms a line in a log of 5,000): each height is the one the
    list itself would find, and they follow when the dock is made narrower."""
    from PySide6.QtCore import Qt
    t = demo.new_game(players=("Alice", "Bob"), edition="cr-2016", seed=5)
    w = make_window(t)
    for _ in range(3):
        w.c.draw("Alice")
    for o in t.objects_in(("Alice", "hand"))[:4]:  # words of many lengths, and rules
        w.c.drop(o.cid, "graveyard", None)
    w.c.note(t.objects_in(("Alice", "graveyard"))[0].cid, "a long note " * 12)
    lst = w.log.list
    assert lst.count() >= 8

    def shown():
        return [lst.visualItemRect(lst.item(i)).height() for i in range(lst.count())]
    assert shown() == _heights_as_the_list_measures_them(lst)
    assert max(shown()) > min(shown())  # some lines wrap
    before = lst.viewport().width()
    for width in range(220, 300, 9):  # a line's last word goes over at one of them
        w.resizeDocks([w.log_dock], [width], Qt.Orientation.Horizontal)
        qtbot.waitUntil(lambda was=before: lst.viewport().width() != was, timeout=2000)
        before = lst.viewport().width()
        qtbot.waitUntil(lambda: shown() == _heights_as_the_list_measures_them(lst),
                        timeout=2000)
