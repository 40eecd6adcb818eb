"""Playtesting at the desk: new game from decks, mulligan, dice, life, search,
cleanup; autosave and restore; recent files."""


from tabletop.cards import decks as deckfiles
from tabletop.cards import demo
from tabletop.cards.game import new_game
from tabletop.engine import InputError, Table, files, saves
from tabletop.ui import playtest
from tabletop.ui.autosave import Autosave
from tests.helpers import ROOT

DECKS = ROOT / "tests" / "data" / "decks"


def test_new_game_from_deck_files_with_commander_and_sideboard():
    burn = deckfiles.load(DECKS / "burn.txt")
    arena = deckfiles.load(DECKS / "arena.txt")
    t = new_game([("Ann", burn), ("Ben", arena)], seed=3, life=30, hand=7)
    assert t.life == {"Ann": 30, "Ben": 30}
    assert len(t.zones[("Ann", "hand")]) == 7
    assert len(t.zones[("Ann", "library")]) == burn.count() - 7
    assert [o.card.name for o in t.objects_in((None, "command"))] == ["Craw Wurm"]
    assert len(t.sideboards["Ann"]) == 5 and len(t.sideboards["Ben"]) == 2  # outside the game
    # the unknown card is never dropped: it enters as a placeholder with its name
    assert len(t.zones[("Ben", "library")]) + 7 == arena.count()
    placeholder = [o for o in t.objs.values() if o.card.name == "Totally Unknown Card"]
    assert placeholder and placeholder[0].card.types == ()
    assert not t.history


def test_commander_needs_a_command_zone():
    arena = deckfiles.load(DECKS / "arena.txt")
    try:
        new_game([("Ann", arena)], edition="cr-1999")
    except InputError as e:
        assert "command zone" in str(e)
    else:
        raise AssertionError("a commander under cr-1999 should be refused")


def test_london_mulligan_dice_and_life(make_window, monkeypatch):
    t = demo.new_game()
    w = make_window(t)

    class Pick:  # the dialog answers: the first N cards
        def __init__(self, parent, title, prompt, objs, count, exact=True):
            self.objs, self.count = objs, count

        def exec(self):
            return True

        def chosen(self):
            return [o.cid for o in self.objs[:self.count]]
    monkeypatch.setattr(playtest, "ChooseCards", Pick)
    monkeypatch.setattr(playtest, "arrange", lambda parent, title, rule, objs:
                        [o.cid for o in reversed(objs)])
    w.playtest.mulligan()
    w.playtest.mulligan()
    assert len(t.zones[("Alice", "hand")]) == 5 and len(t.zones[("Alice", "library")]) == 35
    assert "401.4" in t.history[-1].events[0].cites  # two cards ordered on the bottom
    w.c.roll("Alice", 6)
    assert 1 <= t.last_roll[2] <= 6 and "rolls a d6" in w.log.lines()[-1]
    w.c.set_life("Alice", 13)
    assert w.scene.player_items["Alice"].seen.life == 13
    before = len(t.zones[("Alice", "library")])
    w.playtest.search_library()
    assert len(t.zones[("Alice", "library")]) == before - 1
    assert t.history[-1].name == "shuffle"


def test_next_turn_asks_for_cleanup_discards(make_window, monkeypatch):
    t = demo.new_game()
    t.draw("Alice", 2)
    w = make_window(t)

    class Pick:
        def __init__(self, parent, title, prompt, objs, count, exact=True):
            self.objs, self.count = objs, count
            assert "402.2" in prompt

        def exec(self):
            return True

        def chosen(self):
            return [o.cid for o in self.objs[-self.count:]]
    monkeypatch.setattr(playtest, "ChooseCards", Pick)
    arranged = []

    def arrange(parent, title, rule, objs):
        arranged.append(rule)
        return [o.cid for o in objs]
    monkeypatch.setattr(playtest, "arrange", arrange)
    w.playtest.next_turn()
    assert arranged == ["404.3"]
    assert len(t.zones[("Alice", "hand")]) == 7 and len(t.zones[("Alice", "graveyard")]) == 2
    assert t.active == "Bob"


def test_token_from_the_database(make_window):
    t = demo.new_game()
    w = make_window(t)
    cid = w.c.create_token("treasure", "Alice").events[0].cid
    assert t.obj_of(cid).card.types == ("Artifact",) and t.obj_of(cid).token
    cid = w.c.create_token("Homunculus", "Alice").events[0].cid
    assert t.obj_of(cid).card.name == "Homunculus"


def test_autosave_failure_is_reported_and_keeps_the_last_good_save(tmp_path, monkeypatch):
    a = Autosave(tmp_path)
    t = demo.new_game()
    assert a.save(t)
    good = a.path.read_bytes()

    def full(*args, **kw):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(files, "atomic_write", full)
    t.draw("Alice")
    assert not a.save(t) and "No space left" in a.error
    assert a.path.read_bytes() == good


def test_recent_files(make_window, tmp_path):
    from tabletop.ui import settings
    t = Table(("Alice", "Bob"))
    w = make_window(t)
    p = tmp_path / "game.tabletop"
    saves.save(demo.new_game(), p)
    assert w.load_game(p)
    assert settings.recent_files()[0] == str(p)
    assert [a.text() for a in w.recent_menu.actions()] == [str(p)]


def test_dialogs_offer_cards_by_the_names_the_viewer_may_read(make_window, monkeypatch):
    """The choice dialogs get their names from views: the searcher reads their own library
    (the search lets them), the mulligan shows the player's own hand."""
    t = demo.new_game()
    w = make_window(t)
    offered = []

    class Pick:
        def __init__(self, parent, title, prompt, objs, count, exact=True):
            offered.append([o.name for o in objs])
            self.objs, self.count = objs, count

        def exec(self):
            return False  # cancelled
    monkeypatch.setattr(playtest, "ChooseCards", Pick)
    w.playtest.search_library()
    lib = [t.objs[i].card.name for i in reversed(t.zones[("Alice", "library")])]
    assert offered[-1] == lib and "a hidden card" not in offered[-1]
    from tabletop.engine import views
    bob_view = views.choices(t, ("Alice", "hand"), "Bob")
    assert {c.name for c in bob_view} == {"a hidden card"}
    alice_view = views.choices(t, ("Alice", "hand"), "Alice")
    assert "a hidden card" not in {c.name for c in alice_view}


def test_a_library_search_says_how_many_are_chosen_and_why_ok_is_off(make_window, dialogs):
    """Table > Search your library, by the menu: two cards checked where one (or none) may
    be taken, OK is off and the dialog says why; one checked, OK is on."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QDialogButtonBox
    t = demo.new_game()
    w = make_window(t)
    seen = {}

    def two_then_one(dlg):
        ok = dlg.box.button(QDialogButtonBox.StandardButton.Ok)
        seen["none"] = (dlg.tally.text(), ok.isEnabled())
        dlg.list.item(0).setCheckState(Qt.CheckState.Checked)
        dlg.list.item(1).setCheckState(Qt.CheckState.Checked)
        seen["two"] = (dlg.tally.text(), ok.isEnabled())
        dlg.list.item(1).setCheckState(Qt.CheckState.Unchecked)
        seen["one"] = (dlg.tally.text(), ok.isEnabled())
        ok.click()
    dialogs.answer("Search Alice's library", two_then_one)
    next(a for a in w.findChildren(QAction) if a.text() == "&Search your library…").trigger()
    assert seen == {"none": ("0 chosen", True), "two": ("2 chosen: choose at most 1", False),
                    "one": ("1 chosen", True)}
    assert len(t.zones[("Alice", "hand")]) == 8


def test_a_mulligans_bottom_says_how_many_are_left_to_choose(make_window, dialogs):
    """Exactly one card to the bottom: none chosen yet is said without alarm, two is
    too many and says so, with OK off."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QDialogButtonBox
    w = make_window(demo.new_game())
    seen = []

    def choose(dlg):
        ok = dlg.box.button(QDialogButtonBox.StandardButton.Ok)
        assert dlg.note.text() == ("Alice has taken 1 mulligan: choose 1 card to put on the "
                                   "bottom of the library.")  # (it said "mulligan(s)")
        seen.append((dlg.tally.text(), ok.isEnabled()))
        for i in (0, 1):
            dlg.list.item(i).setCheckState(Qt.CheckState.Checked)
        seen.append((dlg.tally.text(), ok.isEnabled()))
        dlg.reject()
    dialogs.answer("London mulligan", choose)
    next(a for a in w.findChildren(QAction) if a.text() == "&Mulligan (London)").trigger()
    assert seen == [("0 of 1 chosen", False), ("2 chosen: choose exactly 1", False)]
