"""Playtesting dialogs: a new game from decks, choosing cards (mulligan bottoms,
cleanup discards, searching a library), importing card data with progress."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QThread, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QProgressDialog,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from tabletop.cards import decks as deckfiles
from tabletop.cards import demo
from tabletop.engine import editions
from tabletop.engine.errors import TabletopError
from tabletop.engine.views import Choice

DeckChoice = tuple[str, tuple[str, str]]  # (player, ("demo", name) or ("file", path))

DECK_FILTER = "Decks (*.txt *.dec *.dek *.dck *.cod *.o8d *.json *.mwDeck *.csv);;All files (*)"


class NewGameDialog(QDialog):
    """1 to 4 players, each with a demo deck or a deck file; life, hand size, ante, edition."""

    def __init__(self, parent: QWidget | None = None, edition: str = editions.NEWEST) -> None:
        super().__init__(parent)
        self.setWindowTitle("New game")
        self.rows: list[tuple[QCheckBox, QLineEdit, QComboBox]] = []
        grid = QGridLayout()
        grid.addWidget(QLabel("Play"), 0, 0)
        grid.addWidget(QLabel("Player"), 0, 1)
        grid.addWidget(QLabel("Deck"), 0, 2)
        names = ["Alice", "Bob", "Carol", "Dan"]
        for i in range(4):
            on = QCheckBox()
            on.setChecked(i < 2)
            name = QLineEdit(names[i])
            deck = QComboBox()
            deck.setEditable(False)
            for d in demo.DECKS:
                deck.addItem(f"Demo: {d}", ("demo", d))
            deck.setCurrentIndex(i % len(demo.DECKS))
            browse = QPushButton("Deck file…")
            browse.clicked.connect(lambda _=False, box=deck: self._browse(box))
            for col, w in enumerate((on, name, deck, browse)):
                grid.addWidget(w, i + 1, col)
            self.rows.append((on, name, deck))
        form = QFormLayout()
        self.edition = QComboBox()
        for ed in editions.all_editions():
            self.edition.addItem(ed.id, ed.id)
        self.edition.setCurrentIndex(self.edition.findData(edition))
        self.life = QSpinBox()
        self.life.setRange(1, 999)
        self.life.setValue(20)
        self.hand = QSpinBox()
        self.hand.setRange(0, 60)
        self.hand.setValue(7)
        self.ante = QCheckBox("Play for ante")
        form.addRow("Rules edition", self.edition)
        form.addRow("Starting life", self.life)
        form.addRow("Opening hand", self.hand)
        form.addRow("", self.ante)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        box.accepted.connect(self.accept)
        box.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addLayout(grid)
        lay.addLayout(form)
        lay.addWidget(box)

    def _browse(self, box: QComboBox) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Deck file", "", DECK_FILTER)
        if path:
            from tabletop.textsafe import names_from_outside
            names_from_outside([path])  # a line feed in its name is shown escaped
            box.addItem(Path(path).name, ("file", path))
            box.setCurrentIndex(box.count() - 1)

    def choices(self) -> list[DeckChoice]:
        out: list[DeckChoice] = []
        for on, name, deck in self.rows:
            if on.isChecked():
                out.append((name.text().strip() or "Player", deck.currentData()))
        return out


def load_decks(parent: QWidget | None, choices: Sequence[DeckChoice]
               ) -> list[tuple[str, deckfiles.Deck]] | None:
    """Read the chosen decks; ask before playing without unknown cards. None: cancelled."""
    loaded: list[tuple[str, deckfiles.Deck]] = []
    unknown: list[tuple[str, int | None, str]] = []
    notes: list[str] = []
    for player, (kind, what) in choices:
        if kind == "demo":
            loaded.append((player, demo.deck(what)))
            continue
        try:
            d = deckfiles.load(what)
        except TabletopError as e:
            from tabletop.ui import dialogs
            dialogs.warn(parent, "Cannot read the deck", str(e))
            return None
        unknown += d.unknown
        notes += d.notes
        loaded.append((player, d))
    if unknown or notes:
        lines = "\n".join(f"{f}:{ln or '?'}: {name}" for f, ln, name in unknown[:30])
        more = f"\n… and {len(unknown) - 30} more" if len(unknown) > 30 else ""
        told = (f"The card database does not know these cards:\n{lines}{more}\n\n"
                if unknown else "")
        told += "".join(f"{n}\n" for n in notes[:10]) + ("\n" if notes else "")
        from tabletop.ui import dialogs
        if not dialogs.ask(parent, "Unknown cards" if unknown else "Parts of a deck left out",
                           told + "Start the game anyway? A card the database does not "
                           "know enters as a placeholder with its name as written."):
            return None
    return loaded


class ChooseCards(QDialog):
    """Pick exactly (or at most) N cards from a list of views.Choice (id and the name the
    viewer may read)."""

    def __init__(self, parent: QWidget | None, title: str, prompt: str,
                 objs: Sequence[Choice], count: int, exact: bool = True) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.count, self.exact = count, exact
        self.list = QListWidget()
        for o in objs:
            item = QListWidgetItem(o.name)
            item.setData(Qt.ItemDataRole.UserRole, o.cid)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Unchecked)
            self.list.addItem(item)
        self.note = QLabel(prompt)
        self.note.setTextFormat(Qt.TextFormat.PlainText)  # player and card names come from files
        self.note.setWordWrap(True)
        # how many are chosen, and why OK is off when that is not what is asked
        self.tally = QLabel()
        self.box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.box.accepted.connect(self.accept)
        self.box.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(self.note)
        lay.addWidget(self.list)
        lay.addWidget(self.tally)
        lay.addWidget(self.box)
        self.list.itemChanged.connect(self._check)
        self._check()

    def chosen(self) -> list[int]:
        return [self.list.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.list.count())
                if self.list.item(i).checkState() == Qt.CheckState.Checked]

    def _check(self) -> None:
        n = len(self.chosen())
        ok = n == self.count if self.exact else n <= self.count
        self.box.button(QDialogButtonBox.StandardButton.Ok).setEnabled(ok)
        if n < self.count and self.exact:  # (still choosing: nothing wrong yet)
            self.tally.setText(f"{n} of {self.count} chosen")
            self.tally.setStyleSheet("")
            return
        asked = f"exactly {self.count}" if self.exact else f"at most {self.count}"
        self.tally.setText(f"{n} chosen" + ("" if ok else f": choose {asked}"))
        self.tally.setStyleSheet("" if ok else "color: #b3261e;")


class ArrangeCards(QDialog):
    """When the rules let a player order cards going somewhere together (401.4,
    404.3): drag them into order, top first."""

    def __init__(self, parent: QWidget | None, title: str, prompt: str,
                 objs: Sequence[Choice]) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.list = QListWidget()
        self.list.setDragDropMode(QListWidget.DragDropMode.InternalMove)
        for o in objs:
            item = QListWidgetItem(o.name)
            item.setData(Qt.ItemDataRole.UserRole, o.cid)
            self.list.addItem(item)
        note = QLabel(prompt)
        note.setTextFormat(Qt.TextFormat.PlainText)
        note.setWordWrap(True)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok)
        box.accepted.connect(self.accept)
        lay = QVBoxLayout(self)
        lay.addWidget(note)
        lay.addWidget(self.list)
        lay.addWidget(box)

    def order(self) -> list[int]:
        return [self.list.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.list.count())]


def arrange(parent: QWidget | None, title: str, rule: str,
            objs: Sequence[Choice]) -> list[int] | None:
    """The order a player chooses for several cards (top first); one card needs no choice.
    None when the player cancels."""
    if len(objs) < 2:
        return [o.cid for o in objs]
    dlg = ArrangeCards(parent, title, f"Drag the cards into the order you want, top first "
                       f"(rule {rule}).", objs)
    if not dlg.exec():
        return None
    return dlg.order()


class ImportWorker(QThread):
    """Imports card data off the GUI thread, on its own database connection."""

    progressed = Signal(int, int, int)  # cards, bytes read, total bytes
    downloaded = Signal(int, int)  # bytes downloaded, total bytes (0: not told)

    def __init__(self, path: str, parent: QObject | None = None,
                 url: str | None = None) -> None:
        super().__init__(parent)
        self.path = path
        self.url = url  # download card data from here first (and check its SHA-256)
        self.cancel = False
        self.result: int | None = None
        self.error: Exception | None = None

    def run(self) -> None:
        from tabletop.cards.db import CardDB
        db = CardDB()
        try:
            if self.url is not None:
                from tabletop.cards import download

                def progress(stage: str, read: int, total: int) -> None:
                    if stage == "download":
                        self.downloaded.emit(read, total)
                    else:
                        self.progressed.emit(0, read, total)
                self.result = download.download_and_import(db, self.url, progress,
                                                           lambda: self.cancel)
            else:
                self.result = db.import_file(self.path, self.progressed.emit,
                                             lambda: self.cancel)
        except (TabletopError, OSError) as e:
            self.error = e
        finally:
            db.close()


def import_card_data(parent: QWidget | None, path: str, url: str | None = None,
                     import_instead: Callable[[], object] | None = None) -> int | None:
    """Import (after downloading it from ``url``, when given) in a worker thread with
    progress and Cancel: a bad file, a failed download, a damaged database or Cancel
    each get one message and leave the database as it was."""
    from PySide6.QtCore import QEventLoop

    from tabletop.cards.db import CardDataError, ImportCancelled, default
    from tabletop.ui import dialogs
    name = Path(path).name if url is None else url.rsplit("/", 1)[-1]
    first = f"Importing {name}…" if url is None else f"Downloading {name}…"
    dlg = QProgressDialog(first, "Cancel", 0, 1000, parent)
    dlg.setWindowTitle("Import card data" if url is None else "Get card data")
    dlg.setWindowModality(Qt.WindowModality.WindowModal)
    dlg.setMinimumDuration(0)
    dlg.setAutoClose(False)
    dlg.setAutoReset(False)
    from tabletop.ui import gui_collector
    gui_collector.on_gui_thread()
    worker = ImportWorker(path, parent, url)

    def progress(done: int, read: int, total: int) -> None:
        dlg.setValue(int(1000 * read / total) if total else 1000)
        dlg.setLabelText(f"Importing {name}: {done:,} cards" if done else
                         f"Importing {name}…")

    def fetched(read: int, total: int) -> None:
        if total:
            dlg.setValue(int(1000 * read / total))
            dlg.setLabelText(f"Downloading {name}: {read / 1e6:.1f} of {total / 1e6:.1f} MB")
        else:
            dlg.setLabelText(f"Downloading {name}: {read / 1e6:.1f} MB")
    worker.downloaded.connect(fetched)

    def cancel() -> None:
        worker.cancel = True
        dlg.setLabelText("Cancelling…")
    worker.progressed.connect(progress)
    dlg.canceled.connect(cancel)
    dlg.rejected.connect(cancel)  # Escape or closing the window cancels too
    loop = QEventLoop()
    worker.finished.connect(loop.quit)
    worker.start()
    if not worker.isFinished():
        loop.exec()
    worker.wait()
    dlg.close()
    e = worker.error
    if isinstance(e, ImportCancelled):
        dialogs.info(parent, "Import cancelled", str(e))
        return None
    if isinstance(e, CardDataError):
        if dialogs.ask(parent, "The card database cannot be used",
                       f"{e}\n\nSet the damaged database aside and start a new one now? "
                       f"Then import the file again."):
            aside = default().rebuild()
            dialogs.info(parent, "A new card database",
                         "A new card database was started."
                         + (f" The old one is kept as {aside}." if aside else ""))
        return None
    if url is not None and isinstance(e, TabletopError):
        from tabletop.cards.download import Offline
        if isinstance(e, Offline):
            if dialogs.ask(parent, "Cannot reach the card data",
                           f"{e}\n\nIf you have the file already (downloaded another way), "
                           f"import it instead?") and import_instead is not None:
                import_instead()
            return None
        dialogs.warn(parent, "Cannot get the card data", str(e))
        return None
    if isinstance(e, TabletopError):
        dialogs.warn(parent, "Cannot import the card data", str(e))
        return None
    if isinstance(e, OSError):
        dialogs.warn(parent, "Cannot store the card data", str(e))
        return None
    return worker.result