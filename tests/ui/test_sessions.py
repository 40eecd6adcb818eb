"""Never lose a game: crash restore through the app's real start-up, the
unsaved-changes guard, SIGTERM, one session slot per running app, the scenario
dock that belongs to its table, and mulligans counted by the game."""

import os
import signal
import subprocess
import sys
import time

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from tabletop import cli
from tabletop.cards import demo
from tabletop.engine import Card, Table, saves
from tabletop.ui.app import scripted_actions
from tabletop.ui.autosave import Autosave
from tabletop.ui.controller import TableController
from tabletop.ui.main_window import MainWindow
from tests.helpers import ROOT, SCENARIOS

POSIX = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
STEPS = 25


def fingerprint(t):
    d = saves.to_json(t)
    return [d[k] for k in ("zones", "current", "lineage", "life", "active")] + [len(t.history)]


def expected_after(steps, then_undo=False):
    c = TableController()
    for _ in scripted_actions(c, steps):
        pass
    if then_undo:
        c.undo()
    return fingerprint(c.table)


def start_session(data_dir, *extra):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.Popen([sys.executable, "-m", "tabletop", "--data-dir", str(data_dir),
                             *extra, "--then-wait"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    for line in proc.stdout:
        if line.strip() == "ready":
            return proc
    proc.wait(timeout=30)
    raise AssertionError(f"the app did not start: {proc.stderr.read()}")


def killed_mid_game(data_dir):
    """An earlier app process played STEPS actions and was SIGKILLed."""
    proc = start_session(data_dir, "--scripted-session", str(STEPS))
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    proc.stdout.close()
    proc.stderr.close()


def run_app(argv, then):
    """Start the real app entry point in this process; ``then(window)`` runs once the
    main window is shown and no dialog is open, and should close the window."""
    app = QApplication.instance()
    old_hook = sys.excepthook
    old_handlers = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP)}
    state = {}

    def poll():
        if QApplication.activeModalWidget() is not None:
            return
        win = next((w for w in app.topLevelWidgets()  # once start-up is over, not during
                    if isinstance(w, MainWindow) and w.isVisible() and w.started), None)
        if win is None or "window" in state:
            return
        state["window"] = win
        timer.stop()
        try:
            then(win)
        except BaseException as e:  # noqa: BLE001 - raised again once the event loop ends
            state["error"] = e
            win.ending = True
            win.close()
    timer = QTimer()
    timer.setInterval(50)
    timer.timeout.connect(poll)
    timer.start()
    try:
        code = cli.main(argv)
    finally:
        timer.stop()
        sys.excepthook = old_hook
        for s, h in old_handlers.items():
            signal.signal(s, h)
        signal.set_wakeup_fd(-1)
    if "error" in state:
        raise state["error"]
    return code, state.get("window")


@POSIX
def test_crash_restore_yes_brings_back_the_game_through_the_real_start(tmp_path, dialogs):
    killed_mid_game(tmp_path)
    assert (tmp_path / "session.running").exists()
    seen = {}

    def check(w):
        seen["restored"] = fingerprint(w.c.table)
        w.undo_action.trigger()  # Edit > Undo
        seen["undone"] = fingerprint(w.c.table)
        w.close()  # the guard asks (restored, never saved to a file): the bot says Discard
    dialogs.expect("Restore the last game?", "Yes")
    code, _w = run_app(["--data-dir", str(tmp_path)], check)
    assert code == 0
    assert "Restore the last game?" in dialogs.titles()
    assert seen["restored"] == expected_after(STEPS)
    assert seen["undone"] == expected_after(STEPS, then_undo=True)
    assert "Unsaved changes" in dialogs.titles()
    assert not (tmp_path / "session.running").exists()  # closed by the player: nothing to offer


@POSIX
def test_the_windows_first_table_is_no_deal_anyone_knows(tmp_path):
    """The window's first table, through the real start: dealt from the system's
    randomness, not from seed 1 (whose deal anyone can make at home and read, should
    the table be hosted as it stands); two starts, two deals."""
    known = demo.new_game(seed=1)
    deals = []

    def check(w):
        t = w.c.table
        deals.append((t.seed, [t.objs[i].card.name for i in t.zones[("Alice", "library")]]))
        w.close()
    for n in range(2):
        code, _ = run_app(["--data-dir", str(tmp_path / str(n))], check)
        assert code == 0
    library = [known.objs[i].card.name for i in known.zones[("Alice", "library")]]
    assert [seed for seed, _ in deals] == [None, None]
    assert library not in [d for _, d in deals] and deals[0][1] != deals[1][1]


@POSIX
def test_crash_restore_no_keeps_the_old_game_aside(tmp_path, dialogs):
    killed_mid_game(tmp_path)
    old = (tmp_path / "autosave.tabletop").read_bytes()
    seen = {}

    def check(w):
        seen["history"] = len(w.c.table.history)
        seen["dirty"] = w.c.dirty
        w.close()
    dialogs.expect("Restore the last game?", "No")
    code, _ = run_app(["--data-dir", str(tmp_path)], check)
    assert code == 0
    kept = list(tmp_path.glob("autosave *.tabletop"))
    assert len(kept) == 1 and kept[0].read_bytes() == old  # dated, whole, not deleted
    assert fingerprint(saves.load(kept[0])) == expected_after(STEPS)
    assert seen["dirty"] is False and seen["history"] == len(demo.new_game().history)


@POSIX
@pytest.mark.parametrize("answer", ["Yes", "No"])
def test_behind_the_restore_question_is_no_other_game(tmp_path, dialogs, answer):
    """While the start asks whether to restore the game a crash left, the table behind
    the question holds no cards: a fresh deal there looked as if the game were already
    lost. Yes brings the game back; No deals a new one (the old kept aside)."""
    killed_mid_game(tmp_path)
    behind = {}

    def look(box):
        window = box.parent().window()
        t = window.c.table
        behind["cards"] = sum(len(ids) for ids in t.zones.values())
        behind["visible"] = window.isVisible()
        next(b for b in box.buttons() if b.text().replace("&", "") == answer).click()
    dialogs.answer("Restore the last game?", look)
    seen = {}

    def check(w):
        seen["table"] = fingerprint(w.c.table)
        seen["cards"] = sum(len(ids) for ids in w.c.table.zones.values())
        w.close()
    code, _ = run_app(["--data-dir", str(tmp_path)], check)
    assert code == 0
    assert behind == {"cards": 0, "visible": True}
    if answer == "Yes":
        assert seen["table"] == expected_after(STEPS)
    else:  # a new deal: both players' hands and libraries
        assert seen["cards"] == sum(len(ids) for ids in demo.new_game().zones.values())
        assert len(list(tmp_path.glob("autosave *.tabletop"))) == 1


@POSIX
def test_sigterm_saves_the_game_and_the_next_start_offers_it(tmp_path):
    proc = start_session(tmp_path, "--scripted-session", str(STEPS))
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 0  # a clean exit, not a death by signal
    proc.stdout.close()
    proc.stderr.close()
    assert (tmp_path / "session.running").exists()
    assert fingerprint(saves.load(tmp_path / "autosave.tabletop")) == expected_after(STEPS)
    again = Autosave(tmp_path)
    assert again.crashed_before() and not again.shared  # the lock was released
    again.end()


@POSIX
def test_sigterm_with_nothing_to_restore_asks_nothing_next_time(tmp_path):
    proc = start_session(tmp_path)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 0
    proc.stdout.close()
    proc.stderr.close()
    assert not Autosave(tmp_path).crashed_before()


def test_autosave_follows_unsaved_changes(tmp_path, make_window, dialogs):
    a = Autosave(tmp_path)
    a.begin()
    t = demo.new_game()
    w = MainWindow(TableController(t), autosave=a)
    assert not a.path.exists()  # a new table has nothing worth restoring
    hand = t.objects_in(("Alice", "hand"))
    w.c.drop(hand[0].cid, "graveyard", "Alice")
    w.c.draw("Alice")
    assert saves.to_json(saves.load(a.path)) == saves.to_json(t)
    # a second app on the same folder gets a slot of its own and never writes this one
    b = Autosave(tmp_path)
    assert not b.crashed_before() and b.shared and b.path != a.path
    b.end()
    assert w._write(tmp_path / "game.tabletop")  # saved to a file: nothing left to restore
    assert not a.path.exists() and not w.c.dirty
    w.close()
    assert "Unsaved changes" not in dialogs.titles()
    assert not Autosave(tmp_path).crashed_before()


def test_lock_file_is_never_followed_through_a_symlink(tmp_path):
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    tmp_path.joinpath("session.lock").symlink_to(target)
    a = Autosave(tmp_path)
    assert a.claim() and a.slot == 1
    a.begin()
    assert target.read_text() == "keep me"
    a.end()


def test_leftover_temporary_files_are_cleaned(tmp_path):
    (tmp_path / ".autosave.tabletop.abc123.tmp").write_text("half a save")
    a = Autosave(tmp_path)
    a.begin()
    assert not list(tmp_path.glob("*.tmp"))
    a.end()


# ---- the unsaved-changes guard -----------------------------------------------------------
def dirty_window(make_window):
    w = make_window(demo.new_game())
    w.c.draw("Alice")
    assert w.c.dirty and w.windowTitle().count("*") == 1
    return w


def test_new_table_cancel_keeps_the_game(make_window, dialogs):
    w = dirty_window(make_window)
    t = w.c.table
    dialogs.expect("Unsaved changes", "Cancel")
    w.findChild(type(w.undo_action), None)  # the menus exist
    w.new_table()
    assert w.c.table is t and w.c.dirty


def test_new_table_discard_replaces_the_game(make_window, dialogs):
    w = dirty_window(make_window)
    t = w.c.table
    dialogs.expect("Unsaved changes", "Discard")
    w.new_table()
    assert w.c.table is not t and not w.c.dirty


def test_save_from_the_guard_writes_the_file_first(make_window, dialogs, tmp_path):
    w = dirty_window(make_window)
    w.path = tmp_path / "evening.tabletop"
    t = w.c.table
    dialogs.expect("Unsaved changes", "Save")
    w.new_table()
    assert w.c.table is not t
    assert saves.to_json(saves.load(tmp_path / "evening.tabletop")) == saves.to_json(t)


def test_quit_cancel_keeps_the_window_open(make_window, dialogs):
    w = dirty_window(make_window)
    dialogs.expect("Unsaved changes", "Cancel")
    w.close()
    assert w.isVisible()
    dialogs.expect("Unsaved changes", "Discard")
    w.close()
    assert not w.isVisible()


def test_guard_on_edition_open_scenario_and_new_game(make_window, dialogs, monkeypatch):
    w = dirty_window(make_window)
    t = w.c.table
    dialogs.expect("Change the rules edition", "New table")  # a game under way: asked first
    dialogs.expect("Unsaved changes", "Cancel")
    w._edition_chosen(w.edition_box.findData("cr-1999"))
    assert w.c.table is t and w.edition_box.currentData() == t.edition.id
    dialogs.expect("Unsaved changes", "Cancel")
    assert not w.judges.open_scenario(SCENARIOS / "400_3_stolen_creature_dies.toml")
    assert w.c.table is t
    dialogs.expect("Unsaved changes", "Cancel")
    w.playtest.new_game()
    assert w.c.table is t
    dialogs.expect("Unsaved changes", "Cancel")
    assert not w.load_game(ROOT / "nowhere.tabletop")
    assert w.c.table is t
    assert dialogs.titles().count("Unsaved changes") == 4


def test_a_clean_table_is_replaced_without_asking(make_window, dialogs):
    w = make_window(demo.new_game())
    w.new_table()
    w._edition_chosen(w.edition_box.findData("cr-2004"))
    assert w.c.table.edition.id == "cr-2004"
    assert dialogs.seen == []


# ---- the scenario dock belongs to its table -------------------------------------------------
def test_scenario_dock_closes_when_its_table_is_replaced(make_window, dialogs):
    w = make_window(demo.new_game())
    assert w.judges.open_scenario(SCENARIOS / "400_3_stolen_creature_dies.toml")
    w.scenario_panel.step()
    assert w.scenario_panel.back_button.isEnabled()
    w.new_table()  # Ctrl+N
    fresh = w.c.table
    assert w.scenario_panel.session is None
    assert not w.scenario_panel.back_button.isEnabled()
    assert not w.scenario_panel.restart_button.isEnabled()
    w.scenario_panel.restart()
    w.scenario_panel.back()
    assert w.c.table is fresh


def test_stepping_a_scenario_leaves_nothing_unsaved(make_window, dialogs):
    w = make_window(demo.new_game())
    assert w.judges.open_scenario(SCENARIOS / "400_3_stolen_creature_dies.toml")
    while w.scenario_panel.step():
        pass
    assert not w.c.dirty
    w.new_table()
    assert dialogs.seen == []


# ---- mulligans belong to the game ---------------------------------------------------------
def test_mulligan_count_is_the_games(make_window, dialogs, tmp_path):
    from tabletop.ui import playtest
    w = make_window(demo.new_game())
    t = w.c.table
    t.mulligan("Alice")
    t.mulligan("Alice")
    assert t.mulligans == {"Alice": 2}
    p = tmp_path / "m.tabletop"
    saves.save(t, p)
    assert saves.load(p).mulligans == {"Alice": 2}
    t.undo()
    assert t.mulligans == {"Alice": 1}
    w.c.set_table(demo.new_game())
    assert w.c.table.mulligans == {}
    assert playtest  # the dialog module the mulligan uses


def test_cancelled_mulligan_leaves_the_game_exactly_as_before(make_window, dialogs):
    t = demo.new_game()
    w = make_window(t)
    w.c.draw("Alice")
    w.c.draw("Alice")
    w.c.undo()  # something to redo: it must survive the cancelled mulligan too
    before = saves.to_json(t)
    dirty = w.c.dirty
    w.playtest.mulligan()  # the bot rejects the choose-cards dialog
    assert any(title == "London mulligan" for title, _, _ in dialogs.seen)
    assert saves.to_json(t) == before
    assert w.c.dirty == dirty and t.mulligans == {}


def test_new_table_at_start_is_not_saved_over_the_autosave(tmp_path):
    """The order bug: the window's first table must not overwrite the autosave."""
    a = Autosave(tmp_path)
    a.claim()
    a.path.write_bytes(saves.dumps(demo.new_game()).encode())
    before = a.path.read_bytes()
    w = MainWindow(TableController(demo.new_game()), autosave=a)
    w.c.draw("Alice")  # a change the window would autosave, were the autosave begun
    assert w.c.dirty and len(w.c.table.history) == 1
    assert a.path.read_bytes() == before  # not begun: nothing written yet
    w.ending = True
    w.close()
    a.end()


# ---- `tabletop FILE`: the desktop file's Exec=tabletop %f -------------------------------
@POSIX
def test_the_app_opens_a_save_given_on_the_command_line(tmp_path, dialogs):
    t = demo.new_game()
    t.draw("Alice")
    t.draw("Alice")
    game = tmp_path / "evening.tabletop"
    saves.save(t, game)
    seen = {}

    def check(w):
        seen["title"] = w.windowTitle()
        seen["state"] = saves.to_json(w.c.table)
        w.close()
    code, _ = run_app([str(game), "--data-dir", str(tmp_path / "data")], check)
    assert code == 0 and "evening.tabletop" in seen["title"]
    assert seen["state"] == saves.to_json(saves.load(game))


@POSIX
def test_the_app_opens_a_scenario_given_on_the_command_line(tmp_path, dialogs):
    seen = {}

    def check(w):
        seen["title"] = w.scenario_panel.title.text()
        w.close()
    code, _ = run_app(["400_3_stolen_creature_dies", "--data-dir", str(tmp_path)], check)
    assert code == 0 and "stolen creature" in seen["title"]


@POSIX
@pytest.mark.parametrize("last, opened", [("cr-1999", "cr-1999"), ("cr-2099", "cr-2025")])
def test_the_table_opens_under_the_edition_used_last(tmp_path, dialogs, last, opened):
    """The edition chosen last time is the new table's; one this version does not have
    (a setting left by another version) is passed over, and the app still starts."""
    from tabletop import paths
    from tabletop.ui import settings
    paths.set_data_dir(tmp_path)
    settings.set_value("last_edition", last)
    seen = {}

    from PySide6.QtGui import QIcon
    QApplication.instance().setWindowIcon(QIcon())  # none yet: the start sets it

    def check(w):
        seen["edition"] = w.c.table.edition.id
        seen["title"] = w.windowTitle()
        deadline = time.monotonic() + 5
        while not (w.first_painted and not w._after_first_frame) and time.monotonic() < deadline:
            QApplication.processEvents()
            time.sleep(0.01)
        seen["icon"] = QApplication.windowIcon().availableSizes()
        w.close()
    code, _ = run_app(["--data-dir", str(tmp_path)], check)
    assert code == 0 and seen["edition"] == opened and opened in seen["title"]
    assert seen["icon"], "the app's icon is set once the first frame is up"


def test_a_game_holding_a_name_no_utf8_can_hold_is_autosaved_and_comes_back(tmp_path):
    """A card named from a broken file (a lone surrogate's escape in a JSON deck) makes
    a game like any other: the autosave writes it, and the restore brings it back."""
    a = Autosave(tmp_path)
    a.begin()
    t = demo.new_game()
    t.add_card(Card("Broken \ud800 name", ("Creature",)), "Alice", "hand")
    assert a.save(t), a.error
    back = a.restore()
    assert saves.to_json(back) == saves.to_json(t)
    a.end()


def test_quit_asks_about_the_deck_editors_deck_first_and_cancel_keeps_both(make_window,
                                                                             dialogs):
    """File > Quit with unsaved deck edits: the deck editor asks, and Cancel cancels the
    quit (the table's window closed first once, leaving the editor alone on screen)."""
    w = make_window(Table(("Alice", "Bob")))
    ed = w.playtest.deck_editor()  # File > Deck editor
    ed.change("main", "Forest", 3)
    dialogs.expect("Unsaved changes", "Cancel")
    w.close()  # File > Quit
    assert w.isVisible() and ed.isVisible() and ed.count("main", "Forest") == 3
    dialogs.expect("Unsaved changes", "Discard")
    w.close()
    assert not w.isVisible() and not ed.isVisible()


@POSIX
def test_sigterm_keeps_the_deck_editors_unsaved_deck_and_the_next_start_says_where(tmp_path):
    """A logout or SIGTERM asks nothing: the deck's unsaved edits go to a new file in the
    data folder (the deck's own file is left as it was), offered first in the editor's
    File > Open recent, and the next start says where they are."""
    from tabletop.cards import decks
    from tabletop.ui import settings
    seen = {}

    def edit_then_terminate(w):
        deadline = time.monotonic() + 10  # the app's SIGTERM handler is in after its first
        while not (w.first_painted and not w._after_first_frame):  # frame
            assert time.monotonic() < deadline, "no first frame"
            QApplication.processEvents()
        assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, None)
        ed = w.playtest.deck_editor()  # File > Deck editor
        ed.change("main", "Forest", 3)
        ed.change("sideboard", "Island", 2)
        QApplication.processEvents()
        os.kill(os.getpid(), signal.SIGTERM)  # the app's own handler: save, close, quit
        seen["editor"] = ed

    code, _w = run_app(["--data-dir", str(tmp_path)], edit_then_terminate)
    assert code == 0 and not seen["editor"].isVisible()
    kept = list((tmp_path / "decks kept").glob("New deck (unsaved, *).txt"))
    assert len(kept) == 1, list(tmp_path.rglob("*"))
    deck = decks.load(kept[0])
    assert {s: [(e.count, e.name) for e in deck.sections[s]] for s in ("main", "sideboard")} \
        == {"main": [(3, "Forest")], "sideboard": [(2, "Island")]}
    assert settings.value("recent_decks")[0] == str(kept[0])

    def look(w):
        seen["said"] = w.message()
        w.close()
    code, _w = run_app(["--data-dir", str(tmp_path)], look)
    assert str(kept[0]) in seen["said"], seen["said"]
    assert settings.value("deck_kept") == ""  # said once
