"""Judges' commands of the main window: scenarios, the library, comparing editions,
reports, recording and presenter mode."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QInputDialog

from tabletop.engine import editions, saves
from tabletop.engine.errors import TabletopError
from tabletop.ui import settings
from tabletop.ui.scenario_panel import CompareDialog, ScenarioLibrary


class JudgeCommands:
    """Mixed into MainWindow."""

    def open_scenario_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open scenario", str(settings.documents()),
                                              "Scenarios (*.toml);;All files (*)")
        if path:
            self.open_scenario(Path(path))

    def open_scenario(self, path: Path, edition: str | None = None) -> bool:
        """Open a scenario; a file that breaks the contract leaves the table as it was."""
        if not self.confirm_discard("open a scenario"):
            return False
        try:
            self.scenario_panel.open(path, edition)
        except TabletopError as e:
            self.error("Cannot open the scenario", str(e))
            return False
        self.scenario_path = Path(path)
        self.path = None
        self.scenario_dock.show()
        self.scenario_dock.raise_()
        self.show_message(f"Opened scenario {path}: press Step (or Space in presenter mode).")
        return True

    def scenario_library(self) -> None:
        dlg = ScenarioLibrary(self)
        if dlg.exec() and dlg.chosen is not None:
            self.open_scenario(dlg.chosen)

    def compare_editions(self) -> None:
        from tabletop.scenario import compare
        path = getattr(self, "scenario_path", None)
        if path is None or self.scenario_panel.session is None:
            self.error("Compare editions", "Open a scenario first (File > Open scenario).")
            return
        current = self.c.table.edition.id
        others = [e for e in editions.EDITION_IDS if e != current]
        other, ok = QInputDialog.getItem(self, "Compare editions",
                                         f"Run this scenario under {current} and:", others, 0, False)
        if not ok:
            return
        try:
            c = compare.compare(path, [current, other])
        except TabletopError as e:
            self.error("Cannot compare", str(e))
            return
        self.compare_dialog = CompareDialog(c, self)
        self.compare_dialog.show()

    def export_report(self) -> None:
        from tabletop.scenario import Session
        from tabletop.scenario.ruling_report import write_report
        from tabletop.ui.render import report_pictures
        path = getattr(self, "scenario_path", None)
        if path is None:
            self.error("Export report", "Open a scenario first (File > Open scenario).")
            return
        out, _ = QFileDialog.getSaveFileName(self, "Export ruling report",
                                             str(settings.documents() / f"{path.stem}.html"),
                                             "HTML (*.html);;PDF (*.pdf);;Markdown (*.md)")
        if not out:
            return
        try:
            session = Session(self.scenario_panel.scenario)
            pictures = report_pictures(session)
            write_report(out, session.run, pictures)
        except (TabletopError, OSError) as e:
            self.error("Cannot export the report", str(e))
            return
        self.show_message(f"Report written to {out}")

    def toggle_recording(self, on: bool) -> None:
        from tabletop.scenario.recorder import Recorder
        if on:
            self.c.recorder = Recorder(self.c.table, title="Recorded at the table")
            self.show_message("Recording: every action from now on becomes a step. "
                              "File > Record again to stop and save.")
            return
        rec, self.c.recorder = self.c.recorder, None
        if rec is None or not rec.steps:
            self.show_message("Recording stopped; nothing was recorded.")
            return
        out, _ = QFileDialog.getSaveFileName(self, "Save the recorded scenario",
                                             str(settings.documents() / "recorded.toml"),
                                             "Scenarios (*.toml)")
        if out:
            self.save_recording(rec, Path(out))

    def save_recording(self, rec, path: Path) -> bool:
        text = rec.text()
        try:
            saves.atomic_write(path, text.encode("utf-8"))
        except OSError as e:
            self.error("Cannot save the scenario", f"{path}: {e.strerror or e}")
            return False
        self.show_message(f"Saved {len(rec.steps)} steps to {path}")
        if rec.problems:  # what the file could not say, never dropped in silence
            from tabletop.ui import dialogs
            dialogs.warn(self, "Parts of the recording are not in the file",
                         f"Saved to {path}, but:\n\n" + "\n".join(f"• {p}" for p in
                                                                 rec.problems))
        return True

    def toggle_presenter(self) -> None:
        """The judge's stage (presenter.py): large type, only the table, the steps and
        the inspector, the ruling in a banner; space and arrows step, Escape leaves."""
        self.presenting = not self.presenting
        if self.presenting:
            self.presenter.enter()
        else:
            self.presenter.leave()
        for a in self.presenter_keys:
            a.setEnabled(self.presenting)
        self.view.setFocus()
