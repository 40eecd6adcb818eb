"""The deck editor: search the card database, build a deck's main deck, sideboard,
commander and maybeboard, see its statistics, draw odds and legality as it changes,
and playtest it at once.

Search results are a list or pictures; a card is added by double-click, by dragging it
onto a section, or with + (and the Enter key); in a section, + and - change its count,
Delete removes it, a double-click takes one away, and the count is edited in place.
A right click offers the same, and moving cards to another section, to the mouse.
Every change is one command on an undo stack (Edit > Undo, Redo); a deck with changes
not saved is never closed or replaced without asking."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import QMargins, QMimeData, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QColor,
    QDrag,
    QDragEnterEvent,
    QDropEvent,
    QKeyEvent,
    QKeySequence,
    QPainter,
    QUndoCommand,
    QUndoStack,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMenu,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from tabletop.cards import decks as deckfiles
from tabletop.cards import legality, stats
from tabletop.engine.errors import TabletopError
from tabletop.ui.settings import FitsTheScreen

SECTIONS = (("main", "Main deck"), ("sideboard", "Sideboard"), ("commander", "Commander"),
            ("maybeboard", "Maybeboard"))
# each section as a menu names it ("Add to the commanders": a deck may have two)
TO_SECTION = {"main": "the main deck", "sideboard": "the sideboard",
              "commander": "the commanders", "maybeboard": "the maybeboard"}
MIME = "application/x-tabletop-card"
FORMATS = ("standard", "pioneer", "modern", "legacy", "vintage", "pauper", "commander")
COLOR_PAINT = {"W": "#e9e2c7", "U": "#3b7dd8", "B": "#4a4350", "R": "#d2492a", "G": "#2f8a4c"}


def _cards(n: int) -> str:
    """"1 card", "60 cards"."""
    return f"{n} card{'s' * (n != 1)}"


class SetCount(QUndoCommand):
    """A card's count in a section set (0 takes it out): one undoable edit."""

    def __init__(self, editor: DeckEditor, section: str, name: str, new: int,
                 text: str) -> None:
        super().__init__(text)
        self.e, self.section, self.name = editor, section, name
        self.old, self.new = editor.count(section, name), max(0, min(new, 250))

    def redo(self) -> None:
        self.e._set(self.section, self.name, self.new)

    def undo(self) -> None:
        self.e._set(self.section, self.name, self.old)


class CardList(QListWidget):
    """Search results: a card is dragged from here onto a section."""

    def __init__(self) -> None:
        super().__init__()
        self.setDragEnabled(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)

    def mimeData(self, items: Any) -> QMimeData:
        data = QMimeData()
        if items:
            data.setData(MIME, ("search\n" + items[0].text()).encode("utf-8"))
        return data

    def mimeTypes(self) -> list[str]:
        return [MIME]


class SectionTable(QTableWidget):
    """One section of the deck: count and name, sorted by name. Cards dropped here from
    the search or another section are added (moved)."""

    dropped = Signal(str, str)  # where it came from ("search" or a section), the name

    def __init__(self, section: str) -> None:
        super().__init__(0, 2)
        self.section = section
        self.setHorizontalHeaderLabels(["#", "Card"])
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.horizontalHeader().setStretchLastSection(True)
        self.setColumnWidth(0, 44)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setAcceptDrops(True)
        self.setDragEnabled(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragDrop)
        self.setEditTriggers(QAbstractItemView.EditTrigger.EditKeyPressed
                             | QAbstractItemView.EditTrigger.SelectedClicked)

    def name_at(self, row: int) -> str | None:
        item = self.item(row, 1)
        return item.text() if item is not None else None

    def current_name(self) -> str | None:
        return self.name_at(self.currentRow()) if self.currentRow() >= 0 else None

    def startDrag(self, actions: Any) -> None:
        name = self.current_name()
        if name is None:
            return
        drag = QDrag(self)
        data = QMimeData()
        data.setData(MIME, f"{self.section}\n{name}".encode())
        drag.setMimeData(data)
        drag.exec(Qt.DropAction.MoveAction)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasFormat(MIME):
            event.acceptProposedAction()

    def dragMoveEvent(self, event: Any) -> None:
        if event.mimeData().hasFormat(MIME):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        raw = bytes(event.mimeData().data(MIME).data()).decode("utf-8", "replace")
        source, _, name = raw.partition("\n")
        if name:
            self.dropped.emit(source, name)
            event.acceptProposedAction()


class Chart(QWidget):
    """A small bar chart drawn with Qt's chart module (QtCharts): labelled bars, each
    with its count. ``values``: what it shows now, (label, value, colour)."""

    def __init__(self, title: str) -> None:
        super().__init__()
        from PySide6.QtCharts import QChart, QChartView
        self.values: list[tuple[str, int, str]] = []
        self.chart = QChart()
        self.chart.setTitle(title)
        self.chart.legend().hide()
        self.chart.setMargins(QMargins(2, 2, 2, 2))
        self.chart.setBackgroundRoundness(0)
        self.view = QChartView(self.chart)
        self.view.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.view.setMinimumHeight(150)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.view)

    def set_values(self, values: list[tuple[str, int, str]]) -> None:
        from PySide6.QtCharts import QBarCategoryAxis, QBarSet, QStackedBarSeries, QValueAxis
        if values == self.values:
            return
        self.values = values
        c = self.chart
        c.removeAllSeries()
        for axis in c.axes():
            c.removeAxis(axis)
        # one set per bar, stacked on its own category: each bar keeps its own colour
        series = QStackedBarSeries()
        series.setLabelsVisible(True)
        series.setLabelsPosition(QStackedBarSeries.LabelsPosition.LabelsInsideEnd)
        for i, (label, v, colour) in enumerate(values):
            bar = QBarSet(label)
            for j in range(len(values)):
                bar.append(v if j == i else 0)
            bar.setColor(QColor(colour))
            bar.setLabelColor(QColor("#1b1b1b"))
            series.append(bar)
        c.addSeries(series)
        x = QBarCategoryAxis()
        x.append([label for label, _, _ in values])
        y = QValueAxis()
        # room above the tallest bar, to an even top: the three ticks (0, the middle, the
        # top) are whole numbers, each written once (0 to 1.15 read "0, 0, 1")
        top = max(2, math.ceil(max([0, *(v for _, v, _ in values)]) * 1.15))
        y.setRange(0, top + top % 2)
        y.setLabelFormat("%d")
        y.setTickCount(3)
        c.addAxis(x, Qt.AlignmentFlag.AlignBottom)
        c.addAxis(y, Qt.AlignmentFlag.AlignLeft)
        series.attachAxis(x)
        series.attachAxis(y)


def _scrolled(page: QWidget) -> QScrollArea:
    """``page`` in a scroll area without a frame: as tall as it likes, on any screen."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidget(page)
    return area


class DeckEditor(FitsTheScreen, QMainWindow):
    """The deck editor window. ``playtest(deck)``: starts a game with the deck at the
    table (given by the main window)."""

    def __init__(self, parent: QWidget | None = None,
                 playtest: Callable[[deckfiles.Deck], object] | None = None,
                 db: Any = None) -> None:
        super().__init__(parent)
        from tabletop.cards.db import default
        self.db = db or default()  # the card database it searches and reads
        self.playtest_with = playtest
        self.setWindowFlag(Qt.WindowType.Window, True)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        self.deck: dict[str, dict[str, int]] = {s: {} for s, _ in SECTIONS}
        self.name = "New deck"
        self.path: Path | None = None
        self.ending = False  # interrupted (SIGTERM, logout): closes without asking
        self.undo = QUndoStack(self)
        self.undo.cleanChanged.connect(self._clean_changed)
        self._info: dict[str, dict[str, Any] | None] = {}
        self.sample: stats.SampleHand | None = None
        self._build()
        self._refresh()

    # ---- the deck as data -------------------------------------------------------------
    def count(self, section: str, name: str) -> int:
        return self.deck[section].get(name, 0)

    def entries(self, *sections: str) -> list[tuple[str, int]]:
        out: list[tuple[str, int]] = []
        for s in sections:
            out += sorted(self.deck[s].items(), key=lambda kv: kv[0].casefold())
        return out

    def info(self, name: str) -> dict[str, Any] | None:
        if name not in self._info:
            self._info[name] = self.db.info(name)
        return self._info[name]

    def _set(self, section: str, name: str, n: int) -> None:
        if n <= 0:
            self.deck[section].pop(name, None)
        else:
            self.deck[section][name] = n
        self._refresh()

    def change(self, section: str, name: str, delta: int) -> None:
        n = self.count(section, name)
        label = dict(SECTIONS)[section].lower()
        self.set_count(section, name, n + delta,
                       f"{'Add' if delta > 0 else 'Remove'} {abs(delta)} {name} "
                       f"{'to' if delta > 0 else 'from'} the {label}")

    def set_count(self, section: str, name: str, n: int, text: str | None = None) -> None:
        if n == self.count(section, name) or not name:
            return
        self.undo.push(SetCount(self, section, name, n,
                                text or f"Set {name} to {n} in the "
                                        f"{dict(SECTIONS)[section].lower()}"))

    def move_card(self, src: str, dst: str, name: str) -> None:
        """One copy from one section to another, as one undoable edit."""
        if src == dst or self.count(src, name) <= 0:
            return
        self.undo.beginMacro(f"Move {name} to the {dict(SECTIONS)[dst].lower()}")
        self.undo.push(SetCount(self, src, name, self.count(src, name) - 1, ""))
        self.undo.push(SetCount(self, dst, name, self.count(dst, name) + 1, ""))
        self.undo.endMacro()

    def move_all(self, src: str, dst: str, name: str) -> None:
        """Every copy from one section to another, as one undoable edit."""
        n = self.count(src, name)
        if src == dst or n <= 0:
            return
        self.undo.beginMacro(f"Move {n} {name} to the {dict(SECTIONS)[dst].lower()}")
        self.undo.push(SetCount(self, src, name, 0, ""))
        self.undo.push(SetCount(self, dst, name, self.count(dst, name) + n, ""))
        self.undo.endMacro()

    def as_deck(self) -> deckfiles.Deck:
        d = deckfiles.Deck(self.name, str(self.path or ""))
        for section, _ in SECTIONS:
            for name, n in self.entries(section):
                d.add(section, n, name)
        return d

    # ---- building the window ----------------------------------------------------------
    def _build(self) -> None:
        self.resize(1280, 780)
        split = QSplitter(Qt.Orientation.Horizontal)
        # the search
        left = QWidget()
        lay = QVBoxLayout(left)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search: angel, t:creature c:w mv<=3, o:\"draw a card\"")
        self.search.setClearButtonEnabled(True)
        self.search.returnPressed.connect(self.run_search)
        self.search_timer = QTimer(self)
        self.search_timer.setSingleShot(True)
        self.search_timer.setInterval(250)
        self.search_timer.timeout.connect(self.run_search)
        self.search.textEdited.connect(lambda _t: self.search_timer.start())
        lay.addWidget(self.search)
        row = QHBoxLayout()
        self.found = QLabel("Type a search.")
        self.found.setTextFormat(Qt.TextFormat.PlainText)
        self.pictures_box = QPushButton("Pictures")
        self.pictures_box.setCheckable(True)
        self.pictures_box.toggled.connect(self._view_mode)
        row.addWidget(self.found, 1)
        row.addWidget(self.pictures_box)
        lay.addLayout(row)
        self.results = CardList()
        self.results.itemDoubleClicked.connect(lambda it: self.change("main", it.text(), 1))
        self.results.currentItemChanged.connect(
            lambda it, _p: self.show_card(it.text() if it else None))
        self.results.installEventFilter(self)
        self.results.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.results.customContextMenuRequested.connect(self._results_menu)
        self.results.setMouseTracking(True)  # the hovered card is shown
        self.results.itemEntered.connect(lambda it: self.show_card(it.text()))
        lay.addWidget(self.results, 1)
        split.addWidget(left)
        # the deck
        middle = QWidget()
        mlay = QVBoxLayout(middle)
        self.deck_name = QLineEdit(self.name)
        self.deck_name.setToolTip("The deck's name")
        self.deck_name.editingFinished.connect(self._renamed)
        top = QHBoxLayout()
        top.addWidget(self.deck_name, 1)
        self.playtest_button = QPushButton("Playtest ▶")
        self.playtest_button.setToolTip("Start a game with this deck at once (Ctrl+P)")
        self.playtest_button.clicked.connect(self.playtest)
        top.addWidget(self.playtest_button)
        mlay.addLayout(top)
        self.tables: dict[str, SectionTable] = {}
        self.headings: dict[str, QLabel] = {}
        for section, title in SECTIONS:
            head = QLabel(title)
            head.setStyleSheet("font-weight: bold")
            self.headings[section] = head
            t = SectionTable(section)
            t.dropped.connect(lambda src, name, s=section: self._dropped(src, s, name))
            t.cellDoubleClicked.connect(lambda r, _c, s=section: self._take_one(s, r))
            t.itemChanged.connect(lambda item, s=section: self._count_edited(s, item))
            t.currentCellChanged.connect(
                lambda r, _c, _r2, _c2, t=t: self.show_card(t.name_at(r)))
            t.installEventFilter(self)
            t.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
            t.customContextMenuRequested.connect(
                lambda pos, s=section: self._section_menu(s, pos))
            t.setMouseTracking(True)
            t.cellEntered.connect(lambda r, _c, t=t: self.show_card(t.name_at(r)))
            self.tables[section] = t
            mlay.addWidget(head)
            mlay.addWidget(t, 3 if section == "main" else 1)
        split.addWidget(middle)
        # the card, statistics, odds, legality
        right = QTabWidget()
        card = QWidget()
        clay = QVBoxLayout(card)
        self.picture = QLabel()
        self.picture.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.picture.setMinimumSize(QSize(240, 200))
        self.card_text = QTextBrowser()
        clay.addWidget(self.picture)
        clay.addWidget(self.card_text, 1)
        right.addTab(card, "Card")
        # (each scrolls where the screen is shorter than it: three charts and a sample
        # hand stood 714 pixels tall, past a 1024x600 screen's bottom)
        right.addTab(_scrolled(self._stats_tab()), "Statistics")
        right.addTab(_scrolled(self._odds_tab()), "Draw odds")
        right.addTab(_scrolled(self._legal_tab()), "Legality")
        self.right = right
        split.addWidget(right)
        split.setSizes([380, 420, 480])
        self.setCentralWidget(split)
        self._menus()

    def _menus(self) -> None:
        f = self.menuBar().addMenu("&File")
        self._act(f, "&New deck", self.new_deck, QKeySequence.StandardKey.New)
        self._act(f, "&Open deck…", lambda: self.open_deck(), QKeySequence.StandardKey.Open)
        self.recent_menu = f.addMenu("Open &recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self._act(f, "&Save", self.save, QKeySequence.StandardKey.Save)
        self._act(f, "Save &as…", lambda: self.save_as(), QKeySequence.StandardKey.SaveAs)
        f.addSeparator()
        self._act(f, "&Playtest", self.playtest, "Ctrl+P")
        f.addSeparator()
        self._act(f, "&Close", self.close, QKeySequence.StandardKey.Close)
        e = self.menuBar().addMenu("&Edit")
        undo = self.undo.createUndoAction(self, "&Undo")
        undo.setShortcut(QKeySequence.StandardKey.Undo)
        redo = self.undo.createRedoAction(self, "&Redo")
        redo.setShortcut(QKeySequence("Ctrl+Shift+Z"))
        e.addAction(undo)
        e.addAction(redo)
        self.undo_action, self.redo_action = undo, redo
        self._act(e, "&Find a card", lambda: self.search.setFocus(), QKeySequence.StandardKey.Find)

    def _act(self, menu: Any, text: str, slot: Callable[[], object], key: Any) -> QAction:
        a = QAction(text, self)
        a.setShortcut(QKeySequence(key))
        a.triggered.connect(lambda: slot())  # (not its checked state: MainWindow._act)
        menu.addAction(a)
        return a

    def _stats_tab(self) -> QWidget:
        w = QWidget()
        lay = QVBoxLayout(w)
        self.summary = QLabel()
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setWordWrap(True)
        self.curve_chart = Chart("Mana curve (nonland cards by mana value)")
        self.color_chart = Chart("Colours (nonland cards of each colour)")
        self.type_chart = Chart("Card types")
        for x in (self.summary, self.curve_chart, self.color_chart, self.type_chart):
            lay.addWidget(x)
        box = QGroupBox("Sample opening hand (London mulligan)")
        blay = QVBoxLayout(box)
        self.hand = QListWidget()
        self.hand.setSelectionMode(QAbstractItemView.SelectionMode.MultiSelection)
        buttons = QHBoxLayout()
        self.draw_hand = QPushButton("New hand")
        self.mulligan_button = QPushButton("Mulligan")
        self.keep_button = QPushButton("Keep")
        self.draw_hand.clicked.connect(self.new_hand)
        self.mulligan_button.clicked.connect(self.mulligan)
        self.keep_button.clicked.connect(self.keep)
        for b in (self.draw_hand, self.mulligan_button, self.keep_button):
            buttons.addWidget(b)
        self.hand_note = QLabel()
        self.hand_note.setWordWrap(True)
        self.hand_note.setTextFormat(Qt.TextFormat.PlainText)
        blay.addWidget(self.hand)
        blay.addLayout(buttons)
        blay.addWidget(self.hand_note)
        lay.addWidget(box, 1)
        return w

    def _odds_tab(self) -> QWidget:
        w = QWidget()
        form = QFormLayout(w)
        self.odds_group = QLineEdit()
        self.odds_group.setPlaceholderText("a card's name, or a search (t:land)")
        self.odds_k = QSpinBox()
        self.odds_k.setRange(1, 60)
        self.odds_turn = QSpinBox()
        self.odds_turn.setRange(1, 20)
        self.odds_turn.setValue(3)
        self.odds_out = QLabel()
        self.odds_out.setTextFormat(Qt.TextFormat.PlainText)
        self.odds_out.setWordWrap(True)
        form.addRow("Cards of:", self.odds_group)
        form.addRow("At least:", self.odds_k)
        form.addRow("By turn:", self.odds_turn)
        form.addRow(self.odds_out)
        for sig in (self.odds_group.textChanged, self.odds_k.valueChanged,
                    self.odds_turn.valueChanged):
            sig.connect(lambda *_a: self._odds())
        return w

    def _legal_tab(self) -> QWidget:
        w = QWidget()
        lay = QVBoxLayout(w)
        self.format_box = QComboBox()
        for f in FORMATS:
            self.format_box.addItem(f.title(), f)
        self.format_box.currentIndexChanged.connect(lambda _i: self._legality())
        self.legal_out = QLabel()
        self.legal_out.setTextFormat(Qt.TextFormat.PlainText)
        self.problems = QListWidget()
        self.problems.setWordWrap(True)
        lay.addWidget(self.format_box)
        lay.addWidget(self.legal_out)
        lay.addWidget(self.problems, 1)
        return w

    # ---- searching --------------------------------------------------------------------
    def run_search(self) -> None:
        self.search_timer.stop()
        query = self.search.text().strip()
        self.results.clear()
        if not query:
            self.found.setText("Type a search.")
            return
        try:
            names = self.db.search(query, limit=500)
        except TabletopError as e:
            self.found.setText(str(e))
            return
        for n in names:
            QListWidgetItem(n, self.results)
        n = len(names)
        self.found.setText("No card matches." if not n else "500+ cards" if n == 500
                           else _cards(n))
        if self.pictures_box.isChecked():
            self._pictures()

    def _view_mode(self, pictures: bool) -> None:
        self.results.setViewMode(QListWidget.ViewMode.IconMode if pictures
                                 else QListWidget.ViewMode.ListMode)
        self.results.setIconSize(QSize(110, 153) if pictures else QSize(0, 0))
        self.results.setGridSize(QSize(124, 190) if pictures else QSize())
        self.results.setWordWrap(pictures)
        if pictures:
            self._pictures()

    def _pictures(self) -> None:
        from PySide6.QtGui import QIcon

        from tabletop.ui.pictures import store
        pics = store()
        for i in range(min(self.results.count(), 120)):
            item = self.results.item(i)
            item.setIcon(QIcon(pics.get(item.text()) or self.drawn(item.text())))

    def show_card(self, name: str | None) -> None:
        """The hovered or chosen card's picture and text."""
        if not name:
            return
        from tabletop.ui.pictures import store
        d = self.info(name) or {"name": name}
        pix = store().get(name) or self.drawn(name, 2.0)
        self.picture.setPixmap(pix.scaled(QSize(220, 306), Qt.AspectRatioMode.KeepAspectRatio,
                                          Qt.TransformationMode.SmoothTransformation))
        from tabletop.engine.model import Card
        c = Card.from_json(d) if "types" in d or "name" in d else None
        lines = [name]
        if c is not None:
            lines += [f"{c.mana_cost}".strip(), c.type_line]
            if c.power is not None:
                lines.append(f"{c.power}/{c.toughness}")
        text = self.db.text(name)
        if text:
            lines += ["", text]
        self.card_text.setPlainText("\n".join(x for x in lines if x is not None))

    def drawn(self, name: str, scale: float = 1.0) -> Any:
        """The card as the table draws it, where there is no picture of it."""
        from tabletop.engine.model import Card, CardId, ObjId, printed_pt
        from tabletop.engine.views import Seen
        from tabletop.ui.zone_viewer import card_pixmap
        d = self.info(name)
        card = Card.from_json(d) if d else Card(name, ())
        return card_pixmap(Seen(ObjId(0), CardId(0), card.name, False, False, (), False, None,
                                "", card=card, pt=printed_pt(card)), scale)

    # ---- gestures ---------------------------------------------------------------------
    def eventFilter(self, obj: Any, event: Any) -> bool:
        from PySide6.QtCore import QEvent
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            key = event.key()
            if obj is self.results and key in (Qt.Key.Key_Plus, Qt.Key.Key_Return,
                                               Qt.Key.Key_Enter, Qt.Key.Key_Equal):
                item = self.results.currentItem()
                if item is not None:
                    self.change("main", item.text(), 1)
                return True
            for section, table in self.tables.items():
                if obj is table and table.state() != QAbstractItemView.State.EditingState:
                    name = table.current_name()
                    if name is None:
                        return False
                    if key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
                        self.change(section, name, 1)
                        return True
                    if key == Qt.Key.Key_Minus:
                        self.change(section, name, -1)
                        return True
                    if key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
                        self.set_count(section, name, 0, f"Remove {name}")
                        return True
        return super().eventFilter(obj, event)

    def _menu(self) -> QMenu:
        menu = QMenu(self)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        return menu

    def _results_menu(self, pos: Any) -> None:
        """A search result's menu: the card added to any section."""
        item = self.results.itemAt(pos)
        if item is None:
            return
        self.results.setCurrentItem(item)
        name = item.text()
        menu = self._menu()
        for section, _ in SECTIONS:
            act = menu.addAction(f"Add to {TO_SECTION[section]}"
                                 + ("\t+" if section == "main" else ""))
            act.triggered.connect(lambda _=False, s=section: self.change(s, name, 1))
        menu.popup(self.results.viewport().mapToGlobal(pos))

    def _section_menu(self, section: str, pos: Any) -> None:
        """A deck row's menu: its count changed or edited, the card taken out or moved to
        another section (one copy or all)."""
        table = self.tables[section]
        row = table.rowAt(pos.y())
        name = table.name_at(row) if row >= 0 else None
        if name is None:
            return
        table.setCurrentCell(row, 1)
        n = self.count(section, name)
        menu = self._menu()
        menu.addAction("Add one\t+").triggered.connect(
            lambda _=False: self.change(section, name, 1))
        menu.addAction("Remove one\t-").triggered.connect(
            lambda _=False: self.change(section, name, -1))
        menu.addAction("Remove all\tDel").triggered.connect(
            lambda _=False: self.set_count(section, name, 0, f"Remove {name}"))

        def edit_count(_: bool = False) -> None:
            table.setCurrentCell(row, 0)
            table.edit(table.currentIndex())
        menu.addAction("Edit the count\tF2").triggered.connect(edit_count)
        menu.addSeparator()
        for dst, _ in SECTIONS:
            if dst == section:
                continue
            menu.addAction(f"Move one to {TO_SECTION[dst]}").triggered.connect(
                lambda _=False, d=dst: self.move_card(section, d, name))
            if n > 1:
                menu.addAction(f"Move all {n} to {TO_SECTION[dst]}").triggered.connect(
                    lambda _=False, d=dst: self.move_all(section, d, name))
        menu.popup(table.viewport().mapToGlobal(pos))

    def _dropped(self, src: str, dst: str, name: str) -> None:
        if src == "search":
            self.change(dst, name, 1)
        elif src in self.deck:
            self.move_card(src, dst, name)

    def _take_one(self, section: str, row: int) -> None:
        name = self.tables[section].name_at(row)
        if name is not None:
            self.change(section, name, -1)

    def _count_edited(self, section: str, item: QTableWidgetItem) -> None:
        if self._filling or item.column() != 0:
            return
        name = self.tables[section].name_at(item.row())
        text = item.text().strip()
        if name is None:
            return
        if text.isdigit() and int(text) <= 250:
            self.set_count(section, name, int(text))
        else:
            self._refresh()  # not a count: as it was

    def _renamed(self) -> None:
        name = " ".join(self.deck_name.text().split()) or "New deck"
        if name != self.name:
            self.name = name
            self._title()

    # ---- showing ----------------------------------------------------------------------
    _filling = False

    def _refresh(self) -> None:
        if not hasattr(self, "tables"):
            return
        self._filling = True
        try:
            for section, table in self.tables.items():
                chosen = table.current_name()
                rows = self.entries(section)
                table.setRowCount(len(rows))
                for r, (name, n) in enumerate(rows):
                    count = QTableWidgetItem(str(n))
                    count.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                    table.setItem(r, 0, count)
                    item = QTableWidgetItem(name)
                    item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
                    table.setItem(r, 1, item)
                    if name == chosen:
                        table.setCurrentCell(r, 1)
                total = sum(n for _, n in rows)
                self.headings[section].setText(f"{dict(SECTIONS)[section]} — {total}")
        finally:
            self._filling = False
        self._stats()
        self._odds()
        self._legality()
        self._title()

    def _clean_changed(self, _clean: bool) -> None:
        from shiboken6 import isValid
        if isValid(self) and isValid(self.undo):  # (not while the window is destroyed)
            self._title()

    def _title(self) -> None:
        mark = "" if self.undo.isClean() else " *"
        where = f" — {self.path.name}" if self.path is not None else ""
        self.setWindowTitle(f"Deck editor — {self.name}{where}{mark}")

    def played(self) -> list[tuple[str, int]]:
        return self.entries("main", "commander")

    def _stats(self) -> None:
        s = stats.deck_stats(self.played(), self.info)
        self.current_stats = s
        unknown = (f"; {s.unknown} the card database does not know (in no chart)"
                   if s.unknown else "")
        other = s.cards - s.lands - s.unknown
        self.summary.setText(
            f"{_cards(s.cards)}: {s.lands} land{'s' * (s.lands != 1)}, {other} other "
            f"card{'s' * (other != 1)}{unknown}; average mana value {s.average_mv:.2f} "
            f"(nonland cards)")
        self.curve_chart.set_values([(str(mv) if mv < stats.CURVE_TOP else f"{mv}+", n,
                                      "#7a8fa6") for mv, n in s.curve.items()])
        self.color_chart.set_values([(c, s.colors[c], COLOR_PAINT[c])
                                     for c in stats.COLOR_ORDER] + [("C", s.colorless,
                                                                     "#a8a8a8")])
        self.type_chart.set_values([(t, n, "#8f7a5a") for t, n in s.types.items() if n])

    def group_size(self, group: str) -> int:
        """How many cards of the deck (main and commander) a group takes: a card's name,
        or a search."""
        group = group.strip()
        played = dict(self.played())
        if not group:
            return 0
        exact = {n.casefold(): n for n in played}
        if group.casefold() in exact:
            return played[exact[group.casefold()]]
        try:
            names = set(self.db.search(group))
        except TabletopError:
            return -1
        return sum(n for name, n in played.items() if name in names)

    def _odds(self) -> None:
        group = self.odds_group.text()
        deck = sum(n for _, n in self.played())
        if not group.strip() or not deck:
            self.odds_out.setText("Name a card of the deck, or a search (t:land).")
            return
        k, turn = self.odds_k.value(), self.odds_turn.value()
        size = self.group_size(group)
        if size < 0:
            self.odds_out.setText("The search cannot be read.")
            return
        o = stats.odds(k, size, deck, turn)
        self.last_odds = o
        self.odds_out.setText(
            f"{size} of {_cards(deck)} {'is' if size == 1 else 'are'} in the group.\n"
            f"At least {k} in the opening hand: {float(o.opening):.1%}\n"
            f"By turn {turn} on the play: {float(o.play):.1%}\n"
            f"By turn {turn} on the draw: {float(o.draw):.1%}")

    def _legality(self) -> None:
        fmt = self.format_box.currentData()
        problems = legality.check(self.as_deck(), fmt, self.info)
        self.last_problems = problems
        self.problems.clear()
        self.legal_out.setText(f"Legal in {fmt}." if not problems else
                               f"Not legal in {fmt}: {len(problems)} problem"
                               f"{'s' * (len(problems) != 1)}.")
        for p in problems:
            QListWidgetItem(p.line(), self.problems)

    # ---- sample hands -----------------------------------------------------------------
    def new_hand(self) -> None:
        cards = stats.counted(self.entries("main"))
        if len(cards) < 7:
            self.hand_note.setText("The main deck has fewer than seven cards.")
            return
        self.sample = stats.SampleHand(cards)
        self._show_hand()

    def mulligan(self) -> None:
        if self.sample is None:
            self.new_hand()
            return
        self.sample.mulligan()
        self._show_hand()

    def keep(self) -> None:
        if self.sample is None:
            return
        chosen = [self.hand.row(i) for i in self.hand.selectedItems()]
        try:
            kept = self.sample.keep(chosen)
        except ValueError as e:
            self.hand_note.setText(f"Choose the cards to put on the bottom: {e}.")
            return
        self.sample = None
        self.hand.clear()
        for n in kept:
            QListWidgetItem(n, self.hand)
        self.hand_note.setText(f"Kept {_cards(len(kept))}.")

    def _show_hand(self) -> None:
        assert self.sample is not None
        self.hand.clear()
        for n in self.sample.hand:
            QListWidgetItem(n, self.hand)
        m = self.sample.mulligans
        self.hand_note.setText(
            "Keep it, or take a mulligan." if not m else
            f"{m} mulligan{'s' * (m != 1)}: choose {self.sample.to_bottom} card"
            f"{'s' * (self.sample.to_bottom != 1)} to put on the bottom, then Keep.")

    # ---- files ------------------------------------------------------------------------
    def _may_replace(self, what: str) -> bool:
        if self.undo.isClean():
            return True
        from tabletop.ui import dialogs
        answer = dialogs.save_discard_cancel(
            self, what, unsaved=f"The deck “{self.name[:60]}” has changes that are not "
                                f"saved to a file.")
        if answer == "save":
            return self.save()
        return answer == "discard"

    def new_deck(self) -> None:
        if self._may_replace("start a new deck"):
            self._load(deckfiles.Deck("New deck"), None)

    def open_deck(self, path: Path | str | None = None) -> bool:
        if not self._may_replace("open another deck"):
            return False
        if path is None:
            from tabletop.ui import settings
            from tabletop.ui.playtest import DECK_FILTER
            chosen, _ = QFileDialog.getOpenFileName(
                self, "Open a deck", str(settings.documents()), DECK_FILTER)
            if not chosen:
                return False
            path = chosen
        try:
            deck = deckfiles.load(path)
        except TabletopError as e:
            from tabletop.ui import dialogs
            dialogs.warn(self, "Cannot open the deck", str(e))
            return False
        self._load(deck, Path(path))
        self._remember(Path(path))
        return True

    def _load(self, deck: deckfiles.Deck, path: Path | None) -> None:
        self.deck = {s: {} for s, _ in SECTIONS}
        for section, entries in deck.sections.items():
            where = section if section in self.deck else "sideboard"
            for e in entries:
                self.deck[where][e.name] = self.deck[where].get(e.name, 0) + e.count
        self.name, self.path = deck.name or "New deck", path
        self.deck_name.setText(self.name)
        self.undo.clear()
        self._refresh()

    def save(self) -> bool:
        if self.path is None:
            return self.save_as()
        return self._write(self.path)

    def save_as(self, path: Path | str | None = None) -> bool:
        if path is None:
            from tabletop.ui import settings
            stem = "".join(ch for ch in self.name if ch.isalnum() or ch in " -_").strip()
            chosen, _ = QFileDialog.getSaveFileName(
                self, "Save the deck", str(settings.documents() / f"{stem or 'deck'}.txt"),
                "Text (*.txt);;MTGO (*.dek);;Cockatrice (*.cod);;Forge (*.dck)")
            if not chosen:
                return False
            path = chosen
        return self._write(Path(path))

    def _write(self, path: Path) -> bool:
        fmt = "text" if path.suffix.lower() == ".txt" else None
        try:
            deckfiles.save(self.as_deck(), path, deckfiles.export_format(path, fmt))
        except (OSError, TabletopError) as e:
            from tabletop.ui import dialogs
            dialogs.warn(self, "Cannot save the deck",
                         f"{path}: {getattr(e, 'strerror', None) or e}")
            return False
        self.path = path
        self.undo.setClean()
        self._remember(path)
        self._title()
        return True

    def _remember(self, path: Path) -> None:
        from tabletop.ui import settings
        recent = [str(path)] + [p for p in self.recent() if p != str(path)]
        settings.set_value("recent_decks", recent[:8])

    @staticmethod
    def recent() -> list[str]:
        from tabletop.ui import settings
        v = settings.value("recent_decks", [])
        v = [v] if isinstance(v, str) else list(v or [])
        return [p for p in v if Path(p).exists()][:8]

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for p in self.recent():
            self.recent_menu.addAction(p, partial(self.open_deck, p))
        if self.recent_menu.isEmpty():
            a = self.recent_menu.addAction("No recent decks")
            a.setEnabled(False)

    def playtest(self) -> None:
        if not self.played():
            from tabletop.ui import dialogs
            dialogs.warn(self, "Playtest", "The deck has no cards yet.")
            return
        if self.playtest_with is not None:
            self.playtest_with(self.as_deck())

    def end_session(self) -> Path | None:
        """Interrupted (SIGTERM, a logout): the deck's unsaved changes are written, as a
        deck list, to a new file in the data folder (never over the deck's own file),
        and the editor closes without asking. Returns that file (None when nothing was
        unsaved, or it could not be written: then the close is left to ask)."""
        kept = None
        if not self.undo.isClean():
            kept = self._keep()
            if kept is None:
                return None
        self.ending = True
        self.close()
        return kept

    def _keep(self) -> Path | None:
        import time

        from tabletop import paths
        from tabletop.ui import settings
        stem = "".join(ch for ch in self.name if ch.isalnum() or ch in " -_").strip()[:60]
        folder = paths.data_dir() / "decks kept"
        path = folder / f"{stem or 'deck'} (unsaved, {time.strftime('%Y-%m-%d %H.%M.%S')}).txt"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            deckfiles.save(self.as_deck(), path, "text")
        except (OSError, TabletopError) as e:
            from tabletop.ui import errors
            errors.write_log(f"the unsaved deck could not be kept: {path}: {e}")
            return None
        self._remember(path)  # the first of File > Open recent
        settings.set_value("deck_kept", str(path))  # said at the next start
        return path

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.ending or self._may_replace("close the deck editor"):
            event.accept()
        else:
            event.ignore()
