"""Judges' tools in the window: play a scenario step by step, browse the bundled
scenarios, compare two editions, record a scenario by playing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QStyledItemDelegate,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from tabletop.engine import Result
from tabletop.scenario.compare import Comparison

if TYPE_CHECKING:
    from PySide6.QtCore import QModelIndex, QPersistentModelIndex
    from PySide6.QtWidgets import QStyleOptionViewItem, QTreeView

    from tabletop.scenario.model import Scenario
    from tabletop.scenario.runner import Session, StepReport
    from tabletop.ui.controller import TableController
from tabletop.ui.dialogs import plain_tooltip
from tabletop.ui.flow import FlowLayout
from tabletop.ui.settings import FitsTheScreen

HELD, FAILED = "✔", "✘"


class StepList(QListWidget):
    """The list of steps: it asks three lines, not the 70 pixels a list asks, and takes
    whatever room the dock has beyond its other lines (on a short screen the scenario's
    title, its buttons and the step's detail come first)."""

    def __init__(self) -> None:
        super().__init__()
        self.setMinimumHeight(3 * self.fontMetrics().lineSpacing() + 12)

    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), self.minimumHeight())


class ScenarioPanel(QWidget):
    """The steps of the open scenario: narration, Step, Back, Restart, Play, and
    each expectation shown as held or failed. The panel belongs to the scenario's
    table: when another table replaces it, the scenario is closed."""

    NONE = "No scenario open. File > Open scenario, or the scenario library."
    stepped = Signal(object)  # the report of the step just shown (None: at the start)
    rule_clicked = Signal(str)  # a rule number in the step's detail was clicked

    def __init__(self, controller: TableController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.c = controller
        self.scenario: Scenario | None = None
        self.session: Session | None = None  # while a scenario is open
        self.recording_box: Any = None  # while recording: workbench.RecordingBox
        self.raw: dict[str, Any] = {}  # the open scenario's file, as data (editing.py)
        self.edition: str | None = None  # the edition it was opened under, if not its own
        self.edited = False  # edits not yet saved
        self.detail_hidden = False  # presenter mode's banner says what the detail would
        # the window's unsaved-changes guard: may ``what`` go on?
        self.guard: Callable[[str], bool] = lambda what: True
        self.title = QLabel(self.NONE)
        self.title.setWordWrap(True)
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self._reveal = False  # the step's detail is to be scrolled into view
        self._watching = False  # (its scroll area's range is watched for that)
        self.steps = StepList()
        self.steps.setWordWrap(True)
        self.detail = QLabel()
        self.detail.setWordWrap(True)
        # escaped file text with the rule numbers as links (rules_browser.linked)
        self.detail.setTextFormat(Qt.TextFormat.RichText)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse
                                            | Qt.TextInteractionFlag.LinksAccessibleByKeyboard)
        self.detail.linkActivated.connect(self._link)
        self.step_bar = QWidget()  # the rows wrap in a narrow dock (a small screen's)
        buttons = FlowLayout(self.step_bar)
        self.restart_button = QPushButton("Restart")
        self.back_button = QPushButton("◀ Back")
        self.step_button = QPushButton("Step ▶")
        self.play_button = QPushButton("Play")
        self.play_button.setCheckable(True)
        for b in (self.restart_button, self.back_button, self.step_button, self.play_button):
            buttons.addWidget(b)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.title)
        lay.addWidget(self.step_bar)
        lay.addWidget(self.steps, 1)
        # editing the open scenario: each edit replayed and rechecked at once
        self.edit_bar = QWidget()
        edits = FlowLayout(self.edit_bar)
        self.say_button = QPushButton("Narration…")
        self.delete_button = QPushButton("Delete step")
        self.up_button = QPushButton("Move up")
        self.down_button = QPushButton("Move down")
        self.save_button = QPushButton("Save as…")
        for b, tip in ((self.say_button, "What the audience hears for the chosen step"),
                       (self.delete_button, "Delete the chosen step (then replayed)"),
                       (self.up_button, "Move the chosen step earlier (then replayed)"),
                       (self.down_button, "Move the chosen step later (then replayed)"),
                       (self.save_button, "Save the scenario as edited")):
            b.setToolTip(tip)
            edits.addWidget(b)
        self.say_button.clicked.connect(self.edit_say)
        self.delete_button.clicked.connect(self.delete_step)
        self.up_button.clicked.connect(lambda: self.move_step(-1))
        self.down_button.clicked.connect(lambda: self.move_step(1))
        self.save_button.clicked.connect(lambda: self.save_as())  # (not its checked state)
        self.edit_status = QLabel()
        self.edit_status.setWordWrap(True)
        self.edit_status.setTextFormat(Qt.TextFormat.PlainText)
        lay.addWidget(self.edit_bar)
        lay.addWidget(self.edit_status)
        lay.addWidget(self.detail)
        self.restart_button.clicked.connect(self.restart)
        self.back_button.clicked.connect(self.back)
        self.step_button.clicked.connect(self.step)
        self.play_button.toggled.connect(self._play)
        self.steps.currentRowChanged.connect(self._show_detail)
        self.timer = QTimer(self)
        self.timer.setInterval(1600)
        self.timer.timeout.connect(self._tick)
        controller.reset.connect(self._table_changed)
        self._update_buttons()

    def _table_changed(self) -> None:
        if self.session is not None and self.c.game() is not self.session.run.table:
            self.close_scenario()

    def close_scenario(self) -> None:
        self.play_button.setChecked(False)
        self.timer.stop()
        self.scenario = None
        self.session = None
        self.steps.clear()
        self.detail.clear()
        self.title.setText(self.NONE)
        self._update_buttons()

    # ---- opening ------------------------------------------------------------------------
    def open(self, path: Path | str, edition: str | None = None) -> None:
        """Load a scenario (raises InputError; nothing changes then)."""
        from tabletop.scenario import (  # when a scenario opens: not at start-up
            Session,
            editing,
            load,
        )
        scenario = load(path, edition)
        session = Session(scenario)
        self.raw = editing.read(Path(path))  # what an edit changes (editing.py)
        self.edition = edition
        self.scenario = scenario
        self.edited = False
        self.edit_status.clear()
        self._start(session)

    def _start(self, session: Session) -> None:
        self.session = session
        s = session.scenario
        self.c.set_table(session.run.table, session.run.names)
        self.title.setText(f"{s.title}\n{session.run.table.edition.id}"
                           + (f" — {s.summary}" if s.summary else ""))
        self.steps.clear()
        for st, sentence in zip(s.steps, session.sentences, strict=True):
            item = QListWidgetItem(f"{st.index}. {st.say or sentence}")
            if st.say:  # the file's words; the step's own sentence on hover
                item.setToolTip(plain_tooltip(sentence))
            item.setForeground(QBrush(QColor("#777")))
            self.steps.addItem(item)
        self._update_buttons()

    # ---- stepping -------------------------------------------------------------------------
    def step(self) -> bool:
        if self.session is None or self.session.finished:
            return False
        rep = self.session.advance()
        if rep is None:
            return False
        self.c.show_result(Result(tuple(rep.events)))
        self._mark(rep)
        self._update_buttons()
        self.stepped.emit(rep)
        return True

    def _mark(self, rep: StepReport) -> None:
        item = self.steps.item(rep.index - 1)
        ok = all(c.held for c in rep.checks)
        mark = "" if not rep.checks else (HELD if ok else FAILED)
        text = item.text().lstrip(HELD + FAILED + " ")
        item.setText(f"{mark} {text}".strip())
        item.setForeground(QBrush(QColor("#1c7c3a" if ok else "#b3261e")))
        from tabletop.scenario.sentences import expectation_lines
        cards = self.scenario.cards if self.scenario is not None else {}
        names = {lab: spec.get("name", lab) for lab, spec in cards.items()}
        lines = [f"{'✔' if held else '✘ FAILED:'} {words}"
                 for held, words in expectation_lines(rep.checks, names,
                                                      self.c.board.edition)]
        lines += [f"   (actually {c.seen()} for {c.card + ' ' if c.card else ''}{c.key})"
                  for c in rep.checks if not c.held]
        cited: list[str] = []
        for e in rep.events:
            cited += [n for n in e.cites if n not in cited]
        edition = self.c.board.edition
        lines += [f"Rule {edition.mark(n)}: {edition.summary(n) or ''}".rstrip(": ")
                  for n in cited]
        item.setToolTip("\n".join(lines) or "no expectations")
        item.setData(Qt.ItemDataRole.UserRole, "\n".join(lines))
        self.steps.setCurrentRow(rep.index - 1)

    def _show_detail(self, row: int) -> None:
        from tabletop.ui.rules_browser import linked
        item = self.steps.item(row) if row >= 0 else None
        text = (item.data(Qt.ItemDataRole.UserRole) or "") if item is not None else ""
        known = self.c.board.edition.rules
        self.detail.setText("<br>".join(linked(line, known).replace("  ", "&nbsp;&nbsp;")
                                        for line in text.split("\n")))
        if text:  # in a dock too short for it all (it scrolls): the step's checks shown,
            # once the area knows how tall they made the panel
            self._reveal = True
            area = self._area()
            if area is not None and not self._watching:
                self._watching = True
                area.verticalScrollBar().rangeChanged.connect(self._range_changed)
            # (timers that go with the panel if it goes first)
            QTimer.singleShot(0, self, self._detail_into_view)
            QTimer.singleShot(200, self, self._detail_shown)

    def _area(self) -> QScrollArea | None:
        """The scroll area the dock holds this panel in, if any."""
        viewport = self.parentWidget()
        area = viewport.parentWidget() if viewport is not None else None
        return area if isinstance(area, QScrollArea) else None

    def _range_changed(self, _low: int, _high: int) -> None:
        self._detail_into_view()

    def _detail_shown(self) -> None:
        self._detail_into_view(last=True)

    def _detail_into_view(self, last: bool = False) -> None:
        """(At once, at each change of the area's range while the detail's new lines
        are laid out, and a moment later, the last time.)"""
        area = self._area()
        if self._reveal and area is not None:
            # the step buttons at the top: Step again is at hand, and the step's checks
            # (the detail's first lines) below them
            bar = area.verticalScrollBar()
            if self.detail.y() - bar.value() > area.viewport().height() - 40:
                bar.setValue(min(bar.maximum(), self.step_bar.y() - 4))
        if last:
            self._reveal = False

    def detail_text(self) -> str:
        """The detail under the steps as plain text (what a person reads)."""
        item = self.steps.currentItem()
        return (item.data(Qt.ItemDataRole.UserRole) or "") if item is not None else ""

    def _link(self, href: str) -> None:
        if href.startswith("rule:"):
            self.rule_clicked.emit(href[5:])

    def back(self) -> None:
        if self.session is None or self.session.done == 0 or not self.guard("step back"):
            return
        self._replay(self.session.done - 1)

    def restart(self) -> None:
        if self.scenario is not None and self.guard("restart the scenario"):
            self._replay(0)

    def _replay(self, upto: int) -> None:
        from tabletop.scenario import Session
        if self.scenario is None:
            return
        session = Session(self.scenario)
        for _ in range(upto):
            session.advance()
        self._start(session)
        for rep in session.run.reports:
            self._mark(rep)
        self._update_buttons()
        self.stepped.emit(session.run.reports[-1] if session.run.reports else None)

    def _play(self, on: bool) -> None:
        if on:
            self.timer.start()
            self._tick()
        else:
            self.timer.stop()

    def _tick(self) -> None:
        if not self.step():
            self.play_button.setChecked(False)

    def show_player(self) -> None:
        """The scenario player's parts are hidden while a recording fills the dock with no
        scenario open (its buttons would all be greyed)."""
        recording = self.recording_box is not None and self.c.recorder is not None
        shown = self.session is not None or not recording
        for part in (self.title, self.restart_button, self.back_button, self.step_button,
                     self.play_button, self.steps):
            part.setVisible(shown)
        self.detail.setVisible(shown and not self.detail_hidden)
        editing = shown and self.session is not None and not self.detail_hidden
        self.edit_bar.setVisible(editing)
        self.edit_status.setVisible(editing and bool(self.edit_status.text()))

    # ---- editing ---------------------------------------------------------------------
    def _chosen(self) -> int | None:
        row = self.steps.currentRow()
        if self.scenario is None or not 0 <= row < len(self.scenario.steps):
            self.edit_status.setText("Choose a step in the list first.")
            self.show_player()
            return None
        return row

    def edit_say(self) -> None:
        from PySide6.QtWidgets import QInputDialog
        i = self._chosen()
        if i is None:
            return
        old = str(self.raw["steps"][i].get("say", ""))
        text, ok = QInputDialog.getText(self, "Narration", f"What the audience hears for "
                                        f"step {i + 1}:", QLineEdit.EchoMode.Normal, old)
        if ok and text != old:
            from tabletop.scenario import editing
            self._edit(editing.with_say(self.raw, i, text), f"Step {i + 1}'s narration changed",
                       i)

    def delete_step(self) -> None:
        from tabletop.scenario import editing
        i = self._chosen()
        if i is not None:
            self._edit(editing.without_step(self.raw, i), f"Step {i + 1} deleted",
                       min(i, len(self.raw["steps"]) - 2))

    def move_step(self, by: int) -> None:
        from tabletop.engine.errors import InputError
        from tabletop.scenario import editing
        i = self._chosen()
        if i is None:
            return
        try:
            moved = editing.with_step_moved(self.raw, i, by)
        except InputError as e:
            self.edit_status.setText(str(e))
            self.show_player()
            return
        self._edit(moved, f"Step {i + 1} moved {'up' if by < 0 else 'down'}", i + by)

    def _edit(self, data: dict[str, Any], what: str, row: int) -> None:
        """Take the edited file if the loader does, replay it whole to recheck every
        expectation, and show it up to where it was shown."""
        from tabletop.engine.errors import TabletopError
        from tabletop.scenario import Session, editing
        if self.scenario is None or self.session is None:
            return
        try:
            scenario = editing.checked(data, self.scenario.path, self.edition)
            whole = Session(scenario)
            while whole.advance() is not None:
                pass
        except TabletopError as e:
            from tabletop.ui import dialogs
            dialogs.warn(self, "The scenario cannot be edited so", str(e))
            return
        failed = [r.index for r in whole.run.reports if not all(c.held for c in r.checks)]
        done = min(self.session.done, len(scenario.steps))
        self.raw, self.scenario, self.edited = data, scenario, True
        self._replay(done)
        n = len(scenario.steps)
        self.edit_status.setText(
            f"{what} (not saved yet). Replayed: "
            + ("every expectation holds." if not failed else
               f"step{'s' * (len(failed) > 1)} {', '.join(map(str, failed))} no longer "
               f"hold{'s' * (len(failed) == 1)}.") + f" {n} step{'s' * (n != 1)}.")
        if 0 <= row < self.steps.count():
            self.steps.setCurrentRow(row)
        self.show_player()

    def save_as(self, path: Path | str | None = None) -> bool:
        """The scenario as edited, into a file (atomic)."""
        from tabletop.engine import files
        from tabletop.scenario import editing
        if self.scenario is None:
            return False
        if path is None:
            from PySide6.QtWidgets import QFileDialog
            chosen, _ = QFileDialog.getSaveFileName(self, "Save the scenario",
                                                    str(self.scenario.path),
                                                    "Scenarios (*.toml)")
            if not chosen:
                return False
            path = chosen
        try:
            files.atomic_write(Path(path), editing.dump(self.raw).encode("utf-8"))
        except OSError as e:
            from tabletop.ui import dialogs
            dialogs.warn(self, "Cannot save the scenario", f"{path}: {e.strerror or e}")
            return False
        self.edited = False
        self.edit_status.setText(f"Saved to {path}")
        self.show_player()
        return True

    def _update_buttons(self) -> None:
        self.show_player()
        s = self.session
        self.step_button.setEnabled(s is not None and not s.finished)
        self.back_button.setEnabled(s is not None and s.done > 0)
        self.restart_button.setEnabled(s is not None)
        self.play_button.setEnabled(s is not None and not s.finished)


class ScenarioLibrary(QDialog):
    """The bundled scenarios, searchable by rule number and title."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Scenario library")
        self.resize(720, 520)
        self.chosen: Path | None = None
        from tabletop.scenario.library import bundled_scenarios
        self.entries = bundled_scenarios()
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search by rule number or title (e.g. 400.3, token, cr-1999)")
        self.list = QListWidget()
        self.none = QLabel()  # what to try when no scenario matches
        self.none.setTextFormat(Qt.TextFormat.PlainText)
        self.none.setWordWrap(True)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel)
        self.open_button = box.button(QDialogButtonBox.StandardButton.Open)
        lay = QVBoxLayout(self)
        lay.addWidget(self.search)
        lay.addWidget(self.list, 1)
        lay.addWidget(self.none)
        lay.addWidget(box)
        self.search.textChanged.connect(self.refresh)
        self.list.itemDoubleClicked.connect(lambda _i: self.accept())
        self.list.currentItemChanged.connect(
            lambda item, _old: self.open_button.setEnabled(item is not None))
        box.accepted.connect(self.accept)
        box.rejected.connect(self.reject)
        self.refresh()

    def matches(self, text: str) -> list[dict[str, Any]]:
        """The scenarios every typed word is found in: in the title, as the edition, or
        as the start of a rule number it cites ("400.6 exiles", "token cr-2004")."""
        words = text.lower().split()
        return [e for e in self.entries
                if all(w in e["title"].lower() or w in e["edition"]
                       or any(r.lower().startswith(w) for r in e["rules"]) for w in words)]

    def refresh(self) -> None:
        self.list.clear()
        for e in self.matches(self.search.text()):
            item = QListWidgetItem(f"{e['title']}  —  {e['edition']}"
                                   + (f"  [{', '.join(e['rules'])}]" if e["rules"] else ""))
            item.setData(Qt.ItemDataRole.UserRole, str(e["path"]))
            self.list.addItem(item)
        if self.list.count():
            self.list.setCurrentRow(0)
        self.open_button.setEnabled(self.list.currentItem() is not None)
        self.none.setText("" if self.list.count() else
                          f"No scenario matches “{self.search.text().strip()[:60]}”: try a "
                          f"rule number (400.3), an edition (cr-2004) or fewer words.")
        self.none.setVisible(not self.list.count())

    def accept(self) -> None:
        item = self.list.currentItem()
        if item is None:  # (Enter with nothing found: the search stays open)
            return
        self.chosen = Path(item.data(Qt.ItemDataRole.UserRole))
        super().accept()


class _Wrapped(QStyledItemDelegate):
    """Rows as tall as their text wrapped to the column's width (a tree view's own size
    hint does not know the column width)."""

    def __init__(self, tree: QTreeView) -> None:
        super().__init__(tree)
        self.tree = tree

    def sizeHint(self, option: QStyleOptionViewItem,
                 index: QModelIndex | QPersistentModelIndex) -> QSize:
        if index.column() == 1:  # "Differs": as wide as its words
            return super().sizeHint(option, index)
        width = max(40, self.tree.columnWidth(index.column()) - 12)
        text = str(index.data() or "")
        r = option.fontMetrics.boundingRect(QRect(0, 0, width, 100_000), Qt.TextFlag.TextWordWrap, text)
        return QSize(width, r.height() + 6)


class CompareDialog(FitsTheScreen, QDialog):
    """One scenario under two (or more) editions, side by side; differing steps marked."""

    rule_asked = Signal(str, str)  # a rule number and its edition, to open

    def __init__(self, comparison: Comparison, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        c = comparison
        self.setWindowTitle(f"Compare editions — {c.title}")
        self.resize(1100, 560)
        self.tree = QTreeWidget()
        self.tree.setColumnCount(2 + len(c.editions))
        self.tree.setHeaderLabels(["Step", "Differs", *c.editions])
        self.tree.setWordWrap(True)
        self.tree.setRootIsDecorated(False)
        for s in c.steps:
            marks = [m for m, on in (("outcome", s.outcome_differs), ("rules", s.rules_differ)) if on]
            said = " and ".join(marks) or ("renumbered" if s.renumbered else "")
            row = QTreeWidgetItem([f"{s.index}. {s.say or s.action}", said]
                                  + [s.outcomes[e] for e in c.editions])
            if marks:
                for col in range(row.columnCount()):
                    row.setBackground(col, QBrush(QColor("#fff1c2")))
            for col in range(row.columnCount()):
                row.setToolTip(col, row.text(col))
            self.tree.addTopLevelItem(row)
        # every edition in view side by side, the outcomes wrapped rather than cut off
        self.tree.setTextElideMode(Qt.TextElideMode.ElideNone)
        head = self.tree.header()
        head.setStretchLastSection(False)
        self.tree.resizeColumnToContents(0)
        self.tree.setColumnWidth(0, min(self.tree.columnWidth(0), 300))
        head.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        for col in range(2, self.tree.columnCount()):
            head.setSectionResizeMode(col, QHeaderView.ResizeMode.Stretch)
        # row heights follow the wrapped text when the columns change width
        self.tree.setItemDelegate(_Wrapped(self.tree))
        head.sectionResized.connect(lambda *_: self.tree.doItemsLayout())
        self.tree.itemClicked.connect(lambda item, col: self._rule(c, item, col))
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        box.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        n = sum(1 for s in c.steps if s.outcome_differs or s.rules_differ)
        eds = list(c.editions)
        between = " and ".join(eds) if len(eds) < 3 else f"{', '.join(eds[:-1])} and {eds[-1]}"
        steps = f"{len(c.steps)} step{'s' * (len(c.steps) != 1)}"
        lay.addWidget(QLabel(f"{n} of {steps} {'differs' if n == 1 else 'differ'} between "
                             f"{between}."))
        lay.addWidget(self.tree, 1)
        lay.addWidget(box)

    def _rule(self, c: Comparison, item: QTreeWidgetItem, col: int) -> None:
        """A click on an edition's outcome opens the first rule it cites, in that edition."""
        from tabletop.ui.rules_browser import first_number
        n = first_number(item.text(col))
        if n is not None and col >= 2:
            self.rule_asked.emit(n, c.editions[col - 2])
