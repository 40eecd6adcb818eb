"""Issue 34: a judge builds a demonstration in the window. From File > New empty table,
through the Setup menu's dialogs, drags on the table, the Scenario dock's narration,
"Expect this" on a card's menu and the save dialog, to a file that `tabletop ruling`
passes under its edition and when comparing cr-2004 with cr-2016."""

from __future__ import annotations

import json
import tomllib

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QFileDialog

from tabletop.engine import Card, Table
from tabletop.engine.model import Zone
from tabletop.ui.selftest import drag, zone_center
from tests.helpers import run_cli
from tests.ui.menus import card_menu_action


def _menu(w, text: str) -> None:
    """Choose a menu bar entry by its text, as a click would."""
    action = next(a for a in w.findChildren(QAction) if a.text() == text)
    assert action.isEnabled(), text
    action.trigger()
    QApplication.processEvents()


def _ok(dlg) -> None:
    dlg.buttons.button(QDialogButtonBox.StandardButton.Ok).click()


def _add_card(name: str, owner: str, controller: str, zone: Zone = Zone.BATTLEFIELD):
    def fill(dlg) -> None:
        QTest.keyClicks(dlg.name, name)  # typed, as a person does (the completer offers it)
        dlg.name.completer().popup().hide()
        dlg.owner.setCurrentIndex(dlg.owner.findData(owner))
        dlg.zone.setCurrentIndex(dlg.zone.findData(zone))
        dlg.controller.setCurrentIndex(dlg.controller.findData(controller))
        _ok(dlg)
    return fill


def _put_leyline_in_force(dlg) -> None:
    dlg.source.setCurrentText("Leyline of the Void")  # a known source fills the keys in
    assert dlg.label.text() == "leyline_of_the_void"
    assert dlg.watch.currentData() == Zone.GRAVEYARD and dlg.instead.currentData() == Zone.EXILE
    assert dlg.intent().affects == "opponents-of:Alice"
    _ok(dlg)


def _angel(t: Table, zone: Zone = Zone.BATTLEFIELD):
    return next(o for o in t.objects_in((None, zone)) if o.card.name == "Serra Angel")


def test_a_judge_builds_the_leyline_demonstration_in_the_window(make_window, dialogs,
                                                               monkeypatch, tmp_path):
    w = make_window(Table(("Alice", "Bob")))
    _menu(w, "New &empty table (to set up)")
    w.edition_box.setCurrentIndex(w.edition_box.findData("cr-2016"))
    w.edition_box.activated.emit(w.edition_box.currentIndex())
    t = w.c.table
    assert t.edition.id == "cr-2016" and not any(t.zones.values())
    _menu(w, "Re&cord a scenario")
    box = w.scenario_panel.recording_box
    assert box.isVisible() and not box.say.isEnabled()  # narration follows a step

    # the setup: the Leyline's effect in force, the Leyline, Bob's Serra Angel under Alice
    dialogs.answer("Put a replacement effect in force", _put_leyline_in_force)
    _menu(w, "Put an &effect in force…")
    assert [e.source for e in w.c.board.effects()] == ["Leyline of the Void"]
    dialogs.answer("Add a card", _add_card("Leyline of the Void", "Alice", "Alice"))
    _menu(w, "&Add a card…")
    dialogs.answer("Add a card", _add_card("Serra Angel", "Bob", "Alice"))
    _menu(w, "&Add a card…")
    angel = _angel(t)
    assert (angel.owner, angel.controller) == ("Bob", "Alice")
    assert angel.card.types == ("Creature",)  # from the card database: no types typed
    leyline = next(o for o in t.objects_in((None, Zone.BATTLEFIELD))
                   if o.card.name == "Leyline of the Void")
    assert box.steps.count() == 0  # setup, not steps

    # step 1: the stolen Angel dies; the Leyline exiles it (Bob is Alice's opponent)
    drag(w.view, w.scene.item_for_cid(angel.cid), zone_center(w.scene, ("Bob", "graveyard")))
    assert t.live(angel.cid).zone == (None, Zone.EXILE)
    assert box.steps.count() == 1 and box.say.isEnabled()
    QTest.keyClicks(box.say, "With the Leyline in force, the Angel is exiled")
    card_menu_action(w, leyline.cid, "Expect this")  # the Leyline stays where it is
    assert box.steps.item(0).text().endswith("expects 1 card named with Expect this")
    assert box.say.isEnabled()  # (the step's narration still open to write)

    # step 2: without the Leyline; step 3: another Angel; step 4: it dies to Bob's graveyard
    dialogs.answer("Take an effect out of force", lambda d: (
        d.setTextValue(d.comboBoxItems()[0]), d.accept()))
    _menu(w, "Take an effect &out of force…")
    assert w.c.board.effects() == []
    dialogs.answer("Add a card", _add_card("Serra Angel", "Bob", "Alice"))
    _menu(w, "&Add a card…")
    again = _angel(t)
    drag(w.view, w.scene.item_for_cid(again.cid), zone_center(w.scene, ("Bob", "graveyard")))
    assert t.live(again.cid).zone == ("Bob", Zone.GRAVEYARD)  # its owner's (400.3)
    QTest.keyClicks(box.say, "Without it, the Angel goes to its owner's graveyard")
    assert box.steps.count() == 4

    # saving: title and summary, and one proposed expectation dropped
    out = tmp_path / "leyline.toml"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), ""))
    dropped = []

    def save(dlg) -> None:
        dlg.title.setText("Leyline of the Void and a stolen Angel")
        dlg.summary.setPlainText("Whose graveyard, and what a replacement effect changes.")
        counts = [k for k, item in dlg.items.items()
                  if item.text().startswith("Step 2: cards in hands")]
        dlg.items[counts[0]].setCheckState(Qt.CheckState.Unchecked)
        dropped.append(counts[0])
        dlg.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Save).click()
    dialogs.answer("Save the recorded scenario", save)
    _menu(w, "Re&cord a scenario")
    assert dropped and out.exists(), dialogs.seen
    assert w.c.recorder is None and not box.isVisible()

    data = tomllib.loads(out.read_text(encoding="utf-8"))
    assert data["title"] == "Leyline of the Void and a stolen Angel"
    assert data["summary"].startswith("Whose graveyard")
    assert sorted(c["name"] for c in data["cards"].values()) == [
        "Leyline of the Void", "Serra Angel"]
    stolen = next(c for c in data["cards"].values() if c["name"] == "Serra Angel")
    assert (stolen["owner"], stolen["controller"]) == ("Bob", "Alice")
    assert [(e["source"], e["affects"]) for e in data["effects"]] == [
        ("Leyline of the Void", "opponents-of:Alice")]
    steps = data["steps"]
    kinds = [next(k for k in s if k not in ("say", "expect")) for s in steps]
    assert kinds == ["move", "end_effect", "add_card", "move"]
    assert steps[0]["say"] == "With the Leyline in force, the Angel is exiled"
    assert steps[3]["say"].startswith("Without it")
    first = {e.get("card"): e for e in steps[0]["expect"]}
    assert first["serra_angel"]["zone"] == "exile"
    assert first["leyline_of_the_void"]["zone"] == "battlefield"  # Expect this
    assert "expect" not in steps[1]  # its one proposal was dropped
    last = next(e for e in steps[3]["expect"] if "card" in e)
    assert (last["zone"], last["player"]) == ("graveyard", "Bob")

    r = run_cli("ruling", "--json", out)
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout)["files"][0]["passed"]
    r = run_cli("ruling", out, "--compare", "cr-2004,cr-2016")
    assert r.returncode == 0, r.stdout + r.stderr


def test_setup_commands_are_on_the_menus_and_go_through_undo(make_window, dialogs):
    """Remove and Modify from a card's menu, Add a card from a zone's, each undone by
    Edit > Undo; a card the database does not know asks for its types."""
    w = make_window(Table(("Alice", "Bob")))
    t = w.c.table
    seen = {}

    def unknown(dlg) -> None:
        QTest.keyClicks(dlg.name, "Homebrew Wurm")
        seen["problem"] = dlg.problem.text()
        seen["ok"] = dlg.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()
        dlg.types.setText("Creature — Wurm")
        _ok(dlg)
    dialogs.answer("Add a card", unknown)
    spot = w.scene.zone_items[("Alice", Zone.HAND)]
    menu = w.scene.zone_actions(spot)  # the hand's context menu
    next(a for a in menu.actions() if a.text() == "Add a card here…").trigger()
    QApplication.processEvents()
    assert seen == {"problem": "Give its types (Creature, Land, Instant…).", "ok": False}
    wurm = next(iter(t.objects_in(("Alice", Zone.HAND))))
    assert (wurm.card.types, wurm.card.subtypes) == (("Creature",), ("Wurm",))

    def modify(dlg) -> None:
        dlg.text.setText("gets +2/+2")
        dlg.origin.setCurrentIndex(dlg.origin.findData("static"))
        dlg.accept()
    dialogs.answer("Modify the object", modify)
    card_menu_action(w, wurm.cid, "Setup", "Modify it…")
    assert t.live(wurm.cid).modifications == (("gets +2/+2", "static"),)
    card_menu_action(w, wurm.cid, "Setup", "Remove it from the table")
    assert t.live(wurm.cid) is None and w.scene.item_for_cid(wurm.cid) is None
    assert "Undo Remove" in w.undo_action.text()
    w.undo_action.trigger()  # Edit > Undo
    QApplication.processEvents()
    assert t.live(wurm.cid) is not None and w.scene.item_for_cid(wurm.cid) is not None
    assert "Undo Modify" in w.undo_action.text()
    w.undo_action.trigger()
    assert t.live(wurm.cid).modifications == ()


def test_a_step_in_the_scenario_dock_selects_the_card_it_moved_and_shows_whence(make_window):
    from tests.helpers import SCENARIOS
    w = make_window(Table(("Alice", "Bob")))
    assert w.judges.open_scenario(SCENARIOS / "400_3_stolen_creature_dies.toml")
    panel = w.scenario_panel
    QTest.mouseClick(panel.step_button, Qt.MouseButton.LeftButton)
    t = w.c.table
    giant = next(o for o in t.objs.values() if o.card.name == "Hill Giant" and o.zone)
    assert giant.zone == ("Bob", Zone.GRAVEYARD)  # 400.3: its owner's graveyard
    item = w.scene.item_for_cid(giant.cid)
    assert w.scene.selected_cards() == [item]
    text = w.inspector.toPlainText()
    assert "Hill Giant" in text and "400.3" in text  # its lineage and the rule, at once
    ghost, arrow = w.judges.trail
    assert ghost.data(0) == "ghost" and arrow.data(0) == "ghost-arrow"
    field = w.scene._spot_for((None, Zone.BATTLEFIELD), "Alice").sceneBoundingRect()
    assert field.contains(ghost.sceneBoundingRect().center())  # where it was
    QTest.mouseClick(panel.back_button, Qt.MouseButton.LeftButton)
    assert w.judges.trail == [] or all(i.scene() is None for i in w.judges.trail)


def test_a_scenario_is_edited_in_the_dock_replayed_at_once_and_saved(make_window, dialogs,
                                                                     tmp_path, monkeypatch):
    from tabletop.scenario import editing
    from tests.helpers import SCENARIOS
    src = SCENARIOS / "400_6_rest_in_peace.toml"
    path = tmp_path / "rip.toml"
    path.write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
    before = editing.read(path)
    w = make_window(Table(("Alice", "Bob")))
    assert w.judges.open_scenario(path)
    panel = w.scenario_panel
    assert panel.edit_bar.isVisible()
    n = panel.steps.count()
    panel.steps.setCurrentRow(0)
    dialogs.expect("Narration", "The Knight dies; Rest in Peace exiles it")
    QTest.mouseClick(panel.say_button, Qt.MouseButton.LeftButton)
    assert panel.steps.item(0).text().endswith("The Knight dies; Rest in Peace exiles it")
    assert "every expectation holds" in panel.edit_status.text()
    panel.steps.setCurrentRow(n - 1)
    QTest.mouseClick(panel.up_button, Qt.MouseButton.LeftButton)
    assert "moved up" in panel.edit_status.text() and panel.steps.currentRow() == n - 2
    panel.steps.setCurrentRow(n - 2)
    QTest.mouseClick(panel.delete_button, Qt.MouseButton.LeftButton)
    assert panel.steps.count() == n - 1 and "deleted" in panel.edit_status.text()
    asked = []  # the file the judge names in the save dialog: the one opened
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: (asked.append(a) or str(path), ""))
    QTest.mouseClick(panel.save_button, Qt.MouseButton.LeftButton)  # Save as…
    assert asked and panel.edit_status.text() == f"Saved to {path}" and not panel.edited
    after = editing.read(path)
    assert after["steps"][0]["say"] == "The Knight dies; Rest in Peace exiles it"
    assert len(after["steps"]) == n - 1
    # the last step moved up over the one before it, then deleted: the others as they were
    assert after["steps"][1:] == before["steps"][1:n - 1]
    assert {k: v for k, v in after["steps"][0].items() if k != "say"} == {
        k: v for k, v in before["steps"][0].items() if k != "say"}
    r = run_cli("ruling", path)
    assert r.returncode == 0, r.stdout + r.stderr


def test_presenter_mode_fits_a_1280_by_800_projector(make_window, qtbot):
    """The table, the caption and the whole step list in view, nothing cut off; the
    stepped card selected so the inspector shows it."""
    from PySide6.QtCore import QRect

    from tests.helpers import SCENARIOS
    w = make_window(Table(("Alice", "Bob")))
    w.resize(1280, 800)
    qtbot.waitUntil(lambda: w.width() == 1280 and w.height() == 800, timeout=2000)
    assert w.judges.open_scenario(SCENARIOS / "400_6_rest_in_peace.toml")
    w.judges.toggle_presenter()
    panel = w.scenario_panel
    QApplication.processEvents()
    QTest.keyClick(w.view, Qt.Key.Key_Space)
    QTest.keyClick(w.view, Qt.Key.Key_Space)
    QApplication.processEvents()
    window = QRect(0, 0, w.width(), w.height())
    banner = w.presenter.banner
    assert banner.isVisible()
    assert banner.height() >= banner.sizeHint().height()  # the caption is not cut off
    top_left = banner.mapTo(w, banner.rect().topLeft())
    assert window.contains(QRect(top_left, banner.size()))
    view = QRect(w.view.mapTo(w, w.view.rect().topLeft()), w.view.size())
    assert view.width() > w.width() * 0.6  # the table keeps most of the screen
    steps = panel.steps
    for i in range(steps.count()):  # every step's line in the list's view
        assert steps.viewport().rect().contains(steps.visualItemRect(steps.item(i))), i
    assert not panel.edit_bar.isVisible() and not panel.detail.isVisible()
    assert panel.steps.font().pointSizeF() <= 15  # sized for the screen, still large
    assert w.scene.selected_cards()  # the card the step moved
    assert "Lightning Bolt" in w.inspector.toPlainText()
    w.judges.toggle_presenter()
    assert panel.edit_bar.isVisible() and panel.detail.isVisible()


def test_unsaved_edits_of_a_scenario_are_asked_about_before_they_go(make_window, dialogs,
                                                                    tmp_path, monkeypatch):
    """Edits made in the dock and not saved: opening another scenario asks first;
    Cancel keeps them, Save writes them, Discard gives them up."""
    from tabletop.scenario import editing
    from tests.helpers import SCENARIOS
    path = tmp_path / "rip.toml"
    path.write_text((SCENARIOS / "400_6_rest_in_peace.toml").read_text(encoding="utf-8"),
                    encoding="utf-8")
    other = SCENARIOS / "400_7_new_object.toml"
    if not other.exists():
        other = next(p for p in sorted(SCENARIOS.glob("*.toml")) if p.name != path.name)
    w = make_window(Table(("Alice", "Bob")))
    assert w.judges.open_scenario(path)
    panel = w.scenario_panel
    n = panel.steps.count()
    panel.steps.setCurrentRow(n - 1)
    QTest.mouseClick(panel.delete_button, Qt.MouseButton.LeftButton)
    assert panel.edited and panel.steps.count() == n - 1
    dialogs.expect("Unsaved scenario edits", "Cancel")
    assert not w.judges.open_scenario(other)
    assert "Unsaved scenario edits" in dialogs.titles()
    assert panel.edited and panel.steps.count() == n - 1  # kept, still open
    # Save: written where the player says, then the other scenario opens
    saved = tmp_path / "rip-edited.toml"  # the file the player names in the save dialog
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(saved), ""))
    dialogs.expect("Unsaved scenario edits", "Save")
    assert w.judges.open_scenario(other)
    assert len(editing.read(saved)["steps"]) == n - 1
    assert not panel.edited and panel.scenario is not None
    assert panel.scenario.path == other
    # Discard: an edit of the other one given up, and nothing written
    panel.steps.setCurrentRow(panel.steps.count() - 1)
    QTest.mouseClick(panel.delete_button, Qt.MouseButton.LeftButton)
    assert panel.edited
    before = other.read_bytes()
    dialogs.expect("Unsaved scenario edits", "Discard")
    assert w.judges.open_scenario(path)
    assert other.read_bytes() == before
    assert len(editing.read(path)["steps"]) == n  # the first file was never changed


def test_the_add_a_card_dialog_reads_whole_at_the_size_it_opens(make_window, dialogs):
    """What the card database says of the typed name gets the lines it needs (the dialog
    keeps the size it opened at), and each field's example is read whole."""
    w = make_window(Table(("Alice", "Bob")))
    seen = {}

    def fill(dlg) -> None:
        shown = dlg.found.text()
        QTest.keyClicks(dlg.name, "Homebrew Wurm of the Very Long Name That Wraps Twice")
        dlg.name.completer().popup().hide()
        QApplication.processEvents()
        label = dlg.found
        seen["said"] = (shown, label.text())
        seen["room"] = label.height() >= label.heightForWidth(label.width())
        seen["examples"] = [f.fontMetrics().horizontalAdvance(f.placeholderText())
                            <= f.width() - 12 for f in (dlg.name, dlg.types, dlg.counters)]
        dlg.reject()
    dialogs.answer("Add a card", fill)
    _menu(w, "&Add a card…")
    assert seen["room"] and seen["examples"] == [True, True, True], seen
    assert seen["said"] == ("Type two letters of a name to choose from the card database.",
                            "Not in the card database: give its types.")


def test_a_refused_card_keeps_the_dialog_open_to_change_what_was_refused(make_window,
                                                                        dialogs):
    """An instant added to the battlefield stays where it was put from (the rules:
    an instant or sorcery card never enters the battlefield), so the engine refuses it.
    The judge is told in the dialog, which keeps the name typed; changing the zone to
    the graveyard and pressing Add again puts it there."""
    w = make_window(Table(("Alice", "Bob")))
    t = w.c.table
    seen: dict = {}

    def fill(dlg) -> None:
        QTest.keyClicks(dlg.name, "Homebrew Bolt")
        dlg.types.setText("Instant")
        dlg.zone.setCurrentIndex(dlg.zone.findData(Zone.BATTLEFIELD))
        _ok(dlg)
        seen["open"], seen["problem"] = dlg.isVisible(), dlg.problem.text()
        seen["on the table"] = [o.card.name for z in (Zone.BATTLEFIELD, Zone.GRAVEYARD)
                                for o in t.objects_in((None if z == Zone.BATTLEFIELD else "Alice", z))]
        dlg.zone.setCurrentIndex(dlg.zone.findData(Zone.GRAVEYARD))
        _ok(dlg)
        seen["open after"] = dlg.isVisible()
    dialogs.answer("Add a card", fill)
    _menu(w, "&Add a card…")
    for _ in range(20):
        QApplication.processEvents()
    assert seen["open"] and not seen["open after"], seen
    assert "battlefield" in seen["problem"] and "400.4a" in seen["problem"], seen
    assert "Homebrew Bolt" not in seen["on the table"]
    assert [o.card.name for o in t.objects_in(("Alice", Zone.GRAVEYARD))] == ["Homebrew Bolt"]
    assert w.message().startswith("Added Homebrew Bolt")


def test_the_setup_menu_s_shortcuts_act_on_the_selected_card(make_window, dialogs, qtbot):
    """Ctrl+Alt+M and Ctrl+Alt+D, pressed with a card selected, modify and remove that
    card; Ctrl+Alt+E offers no one card's effect when none was named (a menu entry's
    signal once filled the command's card in with False: card 0)."""
    t = Table(("Alice", "Bob"))
    wurm = t.add_card(Card("Homebrew Wurm", ("Creature",)), "Alice", Zone.BATTLEFIELD)
    t.add_card(Card("Homebrew Elf", ("Creature",)), "Alice", Zone.BATTLEFIELD)
    t.start_here()
    w = make_window(t)
    w.scene.clearSelection()
    w.scene.item_for_cid(wurm.cid).setSelected(True)
    ctrl_alt = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier

    def modify(dlg) -> None:
        dlg.text.setText("gets +2/+2")
        dlg.accept()
    dialogs.answer("Modify the object", modify)
    QTest.keyClick(w, Qt.Key.Key_M, ctrl_alt)
    QApplication.processEvents()
    w.activateWindow()  # as the dialog closes, its window is the active one again
    qtbot.waitUntil(w.isActiveWindow, timeout=2000)
    assert t.live(wurm.cid).modifications == (("gets +2/+2", "spell"),), w.message()
    offered = {}

    def effect(dlg) -> None:
        offered["affects"] = [dlg.affects.itemData(i) for i in range(dlg.affects.count())]
        dlg.reject()
    dialogs.answer("Put a replacement effect in force", effect)
    QTest.keyClick(w, Qt.Key.Key_E, ctrl_alt)
    QApplication.processEvents()
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow, timeout=2000)
    assert offered["affects"] and "card" not in offered["affects"], offered
    QTest.keyClick(w, Qt.Key.Key_D, ctrl_alt)
    QApplication.processEvents()
    assert t.live(wurm.cid) is None, w.message()
    assert [o.card.name for o in t.objects_in((None, Zone.BATTLEFIELD))] == ["Homebrew Elf"]
