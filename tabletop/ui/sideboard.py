"""Sideboards: a player's sideboard during a game (look at it; bring a card into the
game, as a wish does), and sideboarding between the games of a match (swap cards
between the deck and the sideboard, choose who plays first, start the next game)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from tabletop.engine.model import Card, Zone

if TYPE_CHECKING:
    from tabletop.ui.controller import TableController

Sections = dict[str, list[Card]]  # "main", "commander", "sideboard": the cards of each


def _grouped(cards: Sequence[Card]) -> list[tuple[str, int, Card]]:
    """(name, count, a card of that name), by name."""
    counts = Counter(c.name for c in cards)
    first: dict[str, Card] = {}
    for c in cards:
        first.setdefault(c.name, c)
    return [(n, counts[n], first[n]) for n in sorted(counts, key=str.casefold)]


def _fill(widget: QListWidget, cards: Sequence[Card]) -> None:
    widget.clear()
    for name, n, card in _grouped(cards):
        item = QListWidgetItem(f"{n} × {name}")
        item.setData(Qt.ItemDataRole.UserRole, name)
        item.setToolTip(card.type_line)
        widget.addItem(item)


class SideboardDialog(QDialog):
    """One player's sideboard during a game. Its cards are the player's (and the
    judge's) to see; anyone else learns only how many there are."""

    def __init__(self, controller: TableController, player: str,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.c = controller
        self.player = player
        self.setWindowTitle(f"{player}'s sideboard")
        self.resize(360, 420)
        lay = QVBoxLayout(self)
        self.info = QLabel()
        self.info.setTextFormat(Qt.TextFormat.PlainText)
        self.info.setWordWrap(True)
        lay.addWidget(self.info)
        self.list = QListWidget()
        lay.addWidget(self.list)
        self.bring = QPushButton("Bring into the game (to the hand)")
        self.bring.setToolTip("A card from outside the game comes into it, as a wish does "
                              "(400.10); it goes back to the sideboard for the next game.")
        self.bring.clicked.connect(self._bring)
        self.list.itemDoubleClicked.connect(lambda _i: self._bring())
        lay.addWidget(self.bring)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        controller.changed.connect(self._refresh)
        self._refresh()

    def _refresh(self, *_args: object) -> None:
        board = self.c.board
        seen = board.sideboard(self.player, self.c.viewer) \
            if self.player in board.players else 0
        if isinstance(seen, int):
            self.list.clear()
            self.info.setText(f"{self.player}'s sideboard holds {seen} card"
                              f"{'s' * (seen != 1)}; only {self.player} sees them.")
            self.bring.setEnabled(False)
            return
        self.info.setText(f"{len(seen)} card{'s' * (len(seen) != 1)} outside the game. "
                          f"Select one to bring it into the game.")
        _fill(self.list, seen)
        self.bring.setEnabled(bool(seen) and self.c.may_act_for(self.player))

    def _bring(self) -> None:
        item = self.list.currentItem()
        seen = self.c.board.sideboard(self.player, self.c.viewer)
        if item is None or isinstance(seen, int):
            return
        name = item.data(Qt.ItemDataRole.UserRole)
        card = next((c for c in seen if c.name == name), None)
        if card is not None:
            self.c.bring_in(self.player, card, Zone.HAND)


class _DeckTab(QWidget):
    """One player's deck and sideboard, with buttons to move a card across."""

    def __init__(self, sections: Sections, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.main = list(sections["main"])
        self.side = list(sections["sideboard"])
        self.commander = list(sections.get("commander", ()))
        grid = QGridLayout(self)
        self.main_label, self.side_label = QLabel(), QLabel()
        self.main_list, self.side_list = QListWidget(), QListWidget()
        self.to_side = QPushButton("Move to the sideboard →")
        self.to_main = QPushButton("← Move to the deck")
        self.to_side.clicked.connect(lambda: self._move(self.main_list, self.main, self.side))
        self.to_main.clicked.connect(lambda: self._move(self.side_list, self.side, self.main))
        self.main_list.itemDoubleClicked.connect(
            lambda _i: self._move(self.main_list, self.main, self.side))
        self.side_list.itemDoubleClicked.connect(
            lambda _i: self._move(self.side_list, self.side, self.main))
        grid.addWidget(self.main_label, 0, 0)
        grid.addWidget(self.side_label, 0, 1)
        grid.addWidget(self.main_list, 1, 0)
        grid.addWidget(self.side_list, 1, 1)
        grid.addWidget(self.to_side, 2, 0)
        grid.addWidget(self.to_main, 2, 1)
        if self.commander:
            grid.addWidget(QLabel("Commander: " + ", ".join(c.name for c in self.commander)),
                           3, 0, 1, 2)
        self._refresh()

    def _move(self, widget: QListWidget, src: list[Card], dst: list[Card]) -> None:
        item = widget.currentItem()
        if item is None:
            return
        name = item.data(Qt.ItemDataRole.UserRole)
        i = next((k for k, c in enumerate(src) if c.name == name), None)
        if i is None:
            return
        dst.append(src.pop(i))
        row = widget.currentRow()
        self._refresh()
        widget.setCurrentRow(min(row, widget.count() - 1))

    def _refresh(self) -> None:
        _fill(self.main_list, self.main)
        _fill(self.side_list, self.side)
        main, side = len(self.main), len(self.side)
        self.main_label.setText(f"Deck: {main} card{'s' * (main != 1)}")
        self.side_label.setText(f"Sideboard: {side} card{'s' * (side != 1)}")

    def sections(self) -> Sections:
        return {"main": list(self.main), "commander": list(self.commander),
                "sideboard": list(self.side)}


class SideboardingDialog(QDialog):
    """Between games: each player swaps cards between deck and sideboard (a player sees
    only their own lists; the judge and hot-seat play see all), then the next game."""

    def __init__(self, decks: dict[str, Sections], players: Iterable[str],
                 editable: Iterable[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Sideboarding: the next game")
        self.resize(640, 520)
        self.decks = decks
        self.players = list(players)
        lay = QVBoxLayout(self)
        self.tabs = QTabWidget()
        self.pages: dict[str, _DeckTab] = {}
        for p in self.players:
            if p in editable:
                page = _DeckTab(decks[p])
                self.pages[p] = page
                self.tabs.addTab(page, p)
            else:
                note = QLabel(f"{p} sideboards at their own seat: their deck stays as it "
                              f"was for this table.")
                note.setWordWrap(True)
                self.tabs.addTab(note, p)
        lay.addWidget(self.tabs)
        form = QFormLayout()
        self.first = QComboBox()
        for p in self.players:
            self.first.addItem(p, p)
        form.addRow("Plays first:", self.first)
        self.life = QSpinBox()
        self.life.setRange(1, 999)
        self.life.setValue(20)
        form.addRow("Starting life:", self.life)
        lay.addLayout(form)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Start the next game")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    def lists(self) -> list[tuple[str, Sections]]:
        """(player, sections) in turn order, the chosen first player first."""
        first = self.first.currentData()
        i = self.players.index(first)
        order = self.players[i:] + self.players[:i]
        return [(p, self.pages[p].sections() if p in self.pages else self.decks[p])
                for p in order]
