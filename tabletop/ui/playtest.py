"""Playtesting dialogs: a new game from decks, choosing cards (mulligan bottoms,
cleanup discards, searching a library), importing card data with progress."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFileDialog,
                               QFormLayout, QGridLayout, QLabel, QLineEdit, QListWidget,
                               QListWidgetItem, QMessageBox, QProgressDialog, QPushButton,
                               QSpinBox, QVBoxLayout, QApplication)

from tabletop.cards import decks as deckfiles
from tabletop.cards import demo
from tabletop.engine import editions
from tabletop.engine.errors import TabletopError

DECK_FILTER = "Decks (*.txt *.dec *.dek *.cod *.mwDeck);;All files (*)"


class NewGameDialog(QDialog):
    """1 to 4 players, each with a demo deck or a deck file; life, hand size, ante, edition."""

    def __init__(self, parent=None, edition: str = editions.NEWEST):
        super().__init__(parent)
        self.setWindowTitle("New game")
        self.rows = []
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
        box = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        box.accepted.connect(self.accept)
        box.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addLayout(grid)
        lay.addLayout(form)
        lay.addWidget(box)

    def _browse(self, box: QComboBox) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Deck file", "", DECK_FILTER)
        if path:
            box.addItem(Path(path).name, ("file", path))
            box.setCurrentIndex(box.count() - 1)

    def choices(self) -> list[tuple[str, tuple]]:
        out = []
        for on, name, deck in self.rows:
            if on.isChecked():
                out.append((name.text().strip() or "Player", deck.currentData()))
        return out


def load_decks(parent, choices) -> list | None:
    """Read the chosen decks; ask before playing without unknown cards. None: cancelled."""
    loaded = []
    unknown = []
    for player, (kind, what) in choices:
        if kind == "demo":
            loaded.append((player, demo.deck(what)))
            continue
        try:
            d = deckfiles.load(what)
        except TabletopError as e:
            QMessageBox.warning(parent, "Cannot read the deck", str(e))
            return None
        unknown += d.unknown
        loaded.append((player, d))
    if unknown:
        lines = "\n".join(f"{f}:{ln or '?'}: {name}" for f, ln, name in unknown[:30])
        more = f"\n… and {len(unknown) - 30} more" if len(unknown) > 30 else ""
        answer = QMessageBox.question(
            parent, "Unknown cards",
            f"The card database does not know these cards:\n{lines}{more}\n\n"
            "Start the game with the cards it knows?")
        if answer != QMessageBox.Yes:
            return None
    return loaded


class ChooseCards(QDialog):
    """Pick exactly (or at most) N cards from a list of objects."""

    def __init__(self, parent, title: str, prompt: str, objs, count: int, exact: bool = True):
        super().__init__(parent)
        self.setWindowTitle(title)
        self.count, self.exact = count, exact
        self.list = QListWidget()
        for o in objs:
            item = QListWidgetItem(o.card.name)
            item.setData(Qt.UserRole, o.cid)
            item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
            item.setCheckState(Qt.Unchecked)
            self.list.addItem(item)
        self.note = QLabel(prompt)
        self.note.setWordWrap(True)
        self.box = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.box.accepted.connect(self.accept)
        self.box.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(self.note)
        lay.addWidget(self.list)
        lay.addWidget(self.box)
        self.list.itemChanged.connect(self._check)
        self._check()

    def chosen(self) -> list[int]:
        return [self.list.item(i).data(Qt.UserRole) for i in range(self.list.count())
                if self.list.item(i).checkState() == Qt.Checked]

    def _check(self) -> None:
        n = len(self.chosen())
        ok = n == self.count if self.exact else n <= self.count
        self.box.button(QDialogButtonBox.Ok).setEnabled(ok)


class ArrangeCards(QDialog):
    """When the rules let a player order cards going somewhere together (401.4,
    404.3): drag them into order, top first."""

    def __init__(self, parent, title: str, prompt: str, objs):
        super().__init__(parent)
        self.setWindowTitle(title)
        self.list = QListWidget()
        self.list.setDragDropMode(QListWidget.InternalMove)
        for o in objs:
            item = QListWidgetItem(o.card.name)
            item.setData(Qt.UserRole, o.cid)
            self.list.addItem(item)
        note = QLabel(prompt)
        note.setWordWrap(True)
        box = QDialogButtonBox(QDialogButtonBox.Ok)
        box.accepted.connect(self.accept)
        lay = QVBoxLayout(self)
        lay.addWidget(note)
        lay.addWidget(self.list)
        lay.addWidget(box)

    def order(self) -> list[int]:
        return [self.list.item(i).data(Qt.UserRole) for i in range(self.list.count())]


def arrange(parent, title: str, rule: str, objs) -> list[int] | None:
    """The order a player chooses for several cards (top first); one card needs no choice.
    None when the player cancels."""
    if len(objs) < 2:
        return [o.cid for o in objs]
    dlg = ArrangeCards(parent, title, f"Drag the cards into the order you want, top first "
                       f"(rule {rule}).", objs)
    if not dlg.exec():
        return None
    return dlg.order()


def import_card_data(parent, path: str) -> int | None:
    """Import with a progress dialog; a bad file gets one dialog and changes nothing."""
    from tabletop.cards.db import default
    dlg = QProgressDialog(f"Importing {Path(path).name}…", None, 0, 1000, parent)
    dlg.setWindowTitle("Import card data")
    dlg.setWindowModality(Qt.WindowModal)
    dlg.setMinimumDuration(0)

    def progress(done, read, total):
        dlg.setValue(int(1000 * read / total) if total else 1000)
        dlg.setLabelText(f"Importing {Path(path).name}: {done:,} cards")
        QApplication.processEvents()
    try:
        n = default().import_file(path, progress)
    except TabletopError as e:
        dlg.close()
        QMessageBox.warning(parent, "Cannot import the card data", str(e))
        return None
    except OSError as e:
        dlg.close()
        QMessageBox.warning(parent, "Cannot store the card data", str(e))
        return None
    dlg.close()
    return n
