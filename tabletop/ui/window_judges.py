"""Judges' commands of the main window: scenarios, the library, comparing editions,
reports, recording and presenter mode."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tabletop.engine import editions
from tabletop.engine.errors import TabletopError
from tabletop.ui import settings

if TYPE_CHECKING:
    from tabletop.scenario.recorder import Recorder
    from tabletop.ui.window_parts import Window


class JudgeCommands:
    """The judges' commands of a main window ``w``, which its menus call."""

    def __init__(self, w: Window) -> None:
        self.w = w
        self.scenario_path: Path | None = None  # the scenario open in the Scenario dock
        self.compare_dialog: Any = None  # the last comparison shown (a CompareDialog)
        self._editions_dialog: Any = None
        self.save_dialog: Any = None  # the save dialog of a recording, while it is open
        self.trail: list[Any] = []  # the last step's ghost and arrow, in the Scenario dock

    def open_scenario_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog
        path, _ = QFileDialog.getOpenFileName(self.w.window(), "Open scenario", str(settings.documents()),
                                              "Scenarios (*.toml);;All files (*)")
        if path:
            from tabletop.textsafe import names_from_outside
            names_from_outside([path])  # a line feed in its name is shown escaped
            self.open_scenario(Path(path))

    def open_scenario(self, path: Path, edition: str | None = None) -> bool:
        """Open a scenario; a file that breaks the contract leaves the table as it was."""
        if not self.w.confirm_discard("open a scenario"):
            return False
        try:
            self.w.scenario_panel.open(path, edition)
        except TabletopError as e:
            self.w.error("Cannot open the scenario", str(e))
            return False
        self.scenario_path = Path(path)
        self.w.path = None
        self.w.scenario_dock.show()
        self.w.scenario_dock.raise_()
        self._room_for_scenario()
        self.w.show_message(f"Opened scenario {path}: press Step (or Space in presenter mode).")
        return True

    def _room_for_scenario(self) -> None:
        """On a short screen the Scenario dock is given the height its lines need (its
        title, its buttons, the step's detail), once laid out at its width."""
        from PySide6.QtCore import QTimer

        def give() -> None:
            dock = self.w.scenario_dock
            self.w.give_room(dock, self.w.dock_room(dock, self.w.scenario_panel.steps))
        QTimer.singleShot(0, self.w.window(), give)  # (gone with the window if it goes)

    def scenario_library(self) -> None:
        from tabletop.ui.scenario_panel import ScenarioLibrary
        dlg = ScenarioLibrary(self.w.window())
        if dlg.exec() and dlg.chosen is not None:
            self.open_scenario(dlg.chosen)

    def compare_editions(self) -> None:
        """The open scenario, or else the game at the table (its history replayed from
        where it began), under two or more editions side by side, differences marked."""
        from tabletop.scenario import compare
        from tabletop.ui.scenario_panel import CompareDialog
        current = self.w.c.board.edition.id
        path = self.scenario_path
        scenario = path is not None and self.w.scenario_panel.session is not None
        if not scenario and not self.w.c.history_length():  # said before editions are asked
            self.w.error("Compare editions", "Nothing has happened at this table yet: "
                         "play some moves, or open a scenario.")
            return
        chosen = self._choose_editions(current)
        if not chosen:
            return
        try:
            if scenario:
                assert path is not None
                c = compare.compare(path, chosen)
            else:
                c, problems = self.w.c.compare(chosen)
                self._told_problems(problems)
        except TabletopError as e:
            self.w.error("Cannot compare", str(e))
            return
        self.compare_dialog = CompareDialog(c, self.w.window())
        self.compare_dialog.rule_asked.connect(self.w.open_rule)
        self.compare_dialog.show()

    def _told_problems(self, problems: list[str]) -> None:
        if problems:
            from tabletop.ui import dialogs
            dialogs.warn(self.w.window(), "Parts of the game are left out",
                         "A scenario cannot hold all of this game:\n\n"
                         + "\n".join(f"• {p}" for p in problems))

    def _choose_editions(self, current: str) -> list[str] | None:
        """The editions to compare: the table's and at least one more."""
        from PySide6.QtWidgets import QCheckBox, QDialog, QDialogButtonBox, QLabel, QVBoxLayout
        dlg = QDialog(self.w.window())
        dlg.setWindowTitle("Compare editions")
        lay = QVBoxLayout(dlg)
        lay.addWidget(QLabel("Run it under these editions, side by side:"))
        boxes = {}
        for e in editions.EDITION_IDS:
            box = QCheckBox(f"{e} — {editions.get(e).title}")
            box.setChecked(e == current or e == editions.NEWEST)
            boxes[e] = box
            lay.addWidget(box)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        ok = buttons.button(QDialogButtonBox.StandardButton.Ok)

        def check() -> None:
            ok.setEnabled(sum(b.isChecked() for b in boxes.values()) >= 2)
        for b in boxes.values():
            b.toggled.connect(lambda _on: check())
        check()
        buttons.accepted.connect(dlg.accept)
        buttons.rejected.connect(dlg.reject)
        lay.addWidget(buttons)
        self._editions_dialog = dlg
        if not dlg.exec():
            return None
        picked = [e for e, b in boxes.items() if b.isChecked()]
        return [current] + [e for e in picked if e != current] if current in picked \
            else picked

    def replay_under(self, edition: str) -> bool:
        """The same position and history under another edition: the table becomes the
        replayed one, and the steps whose outcome changes are shown."""
        from tabletop.scenario.runner import Run
        from tabletop.ui.scenario_panel import CompareDialog
        old = self.w.c.board.edition.id
        try:
            c, problems = self.w.c.compare([old, edition])
        except TabletopError as e:
            self.w.error("Cannot replay the game", str(e))
            return False
        run = c.runs.get(edition)
        if not isinstance(run, Run):
            self.w.error("Cannot replay the game", str(run))
            return False
        self._told_problems(problems)
        self.w.path = None
        self.w.c.set_table(run.table, dirty=True)
        changed = sum(1 for s in c.steps if s.outcome_differs)
        self.w.show_message(f"The game replayed under {edition}: {changed} of {len(c.steps)} "
                          f"steps turn out differently.")
        if changed:
            self.compare_dialog = CompareDialog(c, self.w.window())
            self.compare_dialog.rule_asked.connect(self.w.open_rule)
            self.compare_dialog.show()
        return True

    def export_report(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        from tabletop.scenario import Session
        from tabletop.scenario.ruling_report import write_report
        from tabletop.ui.render import report_pictures, write_pdf
        path = self.scenario_path
        if path is None:
            self.w.error("Export report", "Open a scenario first (File > Open scenario).")
            return
        out, _ = QFileDialog.getSaveFileName(self.w.window(), "Export ruling report",
                                             str(settings.documents() / f"{path.stem}.html"),
                                             "HTML (*.html);;PDF (*.pdf);;Markdown (*.md)")
        if not out:
            return
        scenario = self.w.scenario_panel.scenario
        if scenario is None:
            self.w.error("Export report", "Open a scenario first (File > Open scenario).")
            return
        try:
            session = Session(scenario)
            pictures = report_pictures(session)
            write_report(out, session.run, pictures, write_pdf)
        except (TabletopError, OSError) as e:
            self.w.error("Cannot export the report", str(e))
            return
        self.w.show_message(f"Report written to {out}")

    def toggle_recording(self, on: bool) -> None:
        from PySide6.QtWidgets import QFileDialog

        from tabletop.ui.workbench import RecordingBox, SaveRecordingDialog, save_path_default
        panel = self.w.scenario_panel
        if on:
            self.w.c.start_recording()
            box = getattr(panel, "recording_box", None)
            if box is None:  # the steps so far and the narration, at the dock's top
                box = panel.recording_box = RecordingBox(self.w, panel)
                layout = panel.layout()
                if layout is not None and hasattr(layout, "insertWidget"):
                    layout.insertWidget(0, box, 1)
            box.refresh()
            self.w.scenario_dock.show()
            self.w.scenario_dock.raise_()
            self.w.show_message("Recording: cards and effects set up now are the file's "
                                "setup; every action after them is a step. File > Record "
                                "again (or Stop and save) to save.")
            return
        rec, self.w.c.recorder = self.w.c.recorder, None
        box = getattr(panel, "recording_box", None)
        if box is not None:
            box.refresh()
        if rec is None or not rec.steps:
            self.w.show_message("Recording stopped; nothing was recorded.")
            return
        dlg = SaveRecordingDialog(self.w.window(), rec)
        self.save_dialog = dlg
        if not dlg.exec():
            self.w.c.recorder = rec  # not saved: the recording goes on
            self.w.record_action.setChecked(True)
            if box is not None:
                box.refresh()
            return
        dlg.apply()
        out, _ = QFileDialog.getSaveFileName(self.w.window(), "Save the recorded scenario",
                                             str(save_path_default(rec.title)),
                                             "Scenarios (*.toml)")
        if out:
            self.save_recording(rec, Path(out), dlg.kept)
        else:
            self.w.c.recorder = rec  # not saved: the recording goes on
            self.w.record_action.setChecked(True)
            if box is not None:
                box.refresh()

    def save_recording(self, rec: Recorder, path: Path,
                       keep: Callable[[int, int], bool] | None = None) -> bool:
        from tabletop.engine import files
        text = rec.text(keep)
        try:
            files.atomic_write(path, text.encode("utf-8"))
        except OSError as e:
            self.w.error("Cannot save the scenario", f"{path}: {e.strerror or e}")
            return False
        n = len(rec.steps)
        self.w.show_message(f"Saved {n} step{'s' * (n != 1)} to {path}")
        if rec.problems:  # what the file could not say, never dropped in silence
            from tabletop.ui import dialogs
            dialogs.warn(self.w.window(), "Parts of the recording are not in the file",
                         f"Saved to {path}, but:\n\n" + "\n".join(f"• {p}" for p in
                                                                 rec.problems))
        return True

    def show_step(self, rep: Any) -> None:
        """A scenario step shown in the Scenario dock: the card it moved is selected (the
        inspector shows its lineage and the rule at once), with a ghost where it was and
        an arrow to where it went (presenter mode draws its own ghost and arrow)."""
        from shiboken6 import isValid

        from tabletop.engine.model import EventKind
        from tabletop.ui.presenter import came_from
        scene = self.w.scene
        for item in self.trail:  # (a new table's layout may have taken them already)
            if isValid(item) and item.scene() is scene:
                scene.removeItem(item)
        self.trail = []
        if rep is None:
            return
        moved = (EventKind.MOVED, EventKind.REPLACED, EventKind.REDIRECTED)
        event = next((e for e in rep.events if e.kind in moved and e.cid is not None), None)
        cid = event.cid if event is not None else next(
            (c for c in rep.subjects if scene.item_for_cid(c) is not None), None)
        item = scene.item_for_cid(cid) if cid is not None else None
        if item is None:
            return
        scene.clearSelection()
        item.setSelected(True)
        self.w.c.selection.emit(cid)
        sess = self.w.scenario_panel.session
        if event is not None and sess is not None and not self.w.presenting:
            step = sess.scenario.steps[rep.index - 1]
            spec = sess.scenario.cards.get(sess.run.names.get(event.cid, ""), {})
            mover = step.args.get("by") or spec.get("controller") or spec.get("owner")
            self.trail = came_from(scene, event, mover)

    def toggle_presenter(self) -> None:
        """The judge's stage (presenter.py): large type, only the table, the steps and
        the inspector, the ruling in a banner; space and arrows step, Escape leaves."""
        self.w.presenting = not self.w.presenting
        if self.w.presenting:
            self.w.presenter.enter()
        else:
            self.w.presenter.leave()
        for a in self.w.presenter_keys:
            a.setEnabled(self.w.presenting)
        self.w.view.setFocus()
