"""Create tokens: name, power/toughness, colours, types and how many, in one dialog,
filled from the card database's tokens when the name is one it knows."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QCompleter,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from tabletop.engine import Card

COLOR_NAMES = (("W", "White"), ("U", "Blue"), ("B", "Black"), ("R", "Red"), ("G", "Green"))


class TokenDialog(QDialog):
    def __init__(self, parent: QWidget | None, players: Sequence[str], player: str,
                 known: list[Card] | None = None, card: Card | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Create tokens")
        self.known = {c.name.casefold(): c for c in (known or [])}
        lay = QVBoxLayout(self)
        form = QFormLayout()
        self.name = QLineEdit("Soldier")
        comp = QCompleter(sorted({c.name for c in (known or [])}), self)
        comp.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.name.setCompleter(comp)
        self.name.textChanged.connect(self._fill_from_known)
        form.addRow("Name:", self.name)
        pt = QWidget()
        row = QHBoxLayout(pt)
        row.setContentsMargins(0, 0, 0, 0)
        self.power = QLineEdit("1")
        self.toughness = QLineEdit("1")
        for e in (self.power, self.toughness):
            e.setMaxLength(4)
            e.setFixedWidth(48)
        row.addWidget(self.power)
        row.addWidget(QLabel("/"))
        row.addWidget(self.toughness)
        row.addStretch(1)
        form.addRow("Power / toughness:", pt)
        colors = QWidget()
        row = QHBoxLayout(colors)
        row.setContentsMargins(0, 0, 0, 0)
        self.colors = {}
        for code, name in COLOR_NAMES:
            box = QCheckBox(name)
            self.colors[code] = box
            row.addWidget(box)
        form.addRow("Colours:", colors)
        self.types = QLineEdit("Creature")
        self.types.setPlaceholderText("e.g. Artifact Creature")
        form.addRow("Types:", self.types)
        self.subtypes = QLineEdit("Soldier")
        self.subtypes.setPlaceholderText("e.g. Goblin, or Treasure")
        form.addRow("Subtypes:", self.subtypes)
        self.count = QSpinBox()
        self.count.setRange(1, 100)
        form.addRow("How many:", self.count)
        self.tapped = QCheckBox("Enter tapped")
        form.addRow("", self.tapped)
        self.player = QComboBox()
        for p in players:
            self.player.addItem(p, p)
        self.player.setCurrentIndex(max(0, list(players).index(player)
                                        if player in players else 0))
        form.addRow("For:", self.player)
        lay.addLayout(form)
        ok, cancel = QDialogButtonBox.StandardButton.Ok, QDialogButtonBox.StandardButton.Cancel
        buttons = QDialogButtonBox(ok | cancel)
        buttons.button(ok).setText("Create")
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        if card is not None:
            self.fill(card)
        else:
            self._fill_from_known(self.name.text())

    def fill(self, card: Card) -> None:
        self.name.blockSignals(True)
        self.name.setText(card.name)
        self.name.blockSignals(False)
        self.power.setText(card.power or "")
        self.toughness.setText(card.toughness or "")
        for code, box in self.colors.items():
            box.setChecked(code in card.colors)
        self.types.setText(" ".join(card.types))
        self.subtypes.setText(" ".join(card.subtypes))

    def _fill_from_known(self, text: str) -> None:
        card = self.known.get(text.strip().casefold())
        if card is not None:
            self.fill(card)

    def card(self) -> Card:
        """The token's characteristics as entered (text from the user, kept as text)."""
        types = tuple(w for w in self.types.text().split() if w) or ("Creature",)
        subtypes = tuple(w.strip(",") for w in self.subtypes.text().split() if w.strip(","))
        power = self.power.text().strip() or None
        tough = self.toughness.text().strip() or None
        colors = tuple(c for c, box in self.colors.items() if box.isChecked())
        return Card(" ".join(self.name.text().split())[:100] or "Token", types[:6], subtypes[:6],
                    power=power if "Creature" in types else None,
                    toughness=tough if "Creature" in types else None, colors=colors)

    def _accept(self) -> None:
        if not self.name.text().strip():
            self.name.setFocus()
            return
        self.accept()
