"""The phase bar: the turn number, the active player, and the steps of the turn as
buttons (click one to go there); Next step and Next turn. The untap step can untap and
the draw step can draw for the player (View > Turn), as a table's regulars expect."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QButtonGroup, QLabel, QToolBar, QToolButton

from tabletop.engine.actions import PHASE_NAMES, PHASES

SHORT = {"untap": "Untap", "upkeep": "Upkeep", "draw": "Draw", "main1": "Main 1",
         "combat": "Combat", "attackers": "Attack", "blockers": "Block", "damage": "Damage",
         "end_combat": "End combat", "main2": "Main 2", "end": "End", "cleanup": "Cleanup"}
# where the bar is too narrow for those (a window under about 1,000 pixels): shorter
# words, each step's whole name in its tooltip, so that Next step and Next turn stay on
# the bar rather than behind its » button
SHORTER = {"untap": "Untap", "upkeep": "Upk.", "draw": "Draw", "main1": "M1",
           "combat": "Comb.", "attackers": "Att.", "blockers": "Blk.", "damage": "Dmg.",
           "end_combat": "End C.", "main2": "M2", "end": "End", "cleanup": "Clean."}
NEXT = ("Next step ▸", "Next turn ▸▸")
NEXT_SHORTER = ("Next ▸", "Turn ▸▸")


class PhaseBar(QToolBar):
    def __init__(self, window: Any) -> None:  # the MainWindow
        super().__init__("Turn", window)
        self.setObjectName("phase-bar")
        self.w = window
        self.turn_label = QLabel()
        self.turn_label.setTextFormat(Qt.TextFormat.PlainText)
        # its own width, not 150 pixels: at 1024 wide the bar then holds Next turn too
        # (else behind the toolbar's » button)
        self.addWidget(self.turn_label)
        self.addSeparator()
        self.group = QButtonGroup(self)
        self.group.setExclusive(True)
        self.buttons: dict[str, QToolButton] = {}
        for phase in PHASES:
            b = QToolButton()
            b.setText(SHORT[phase])
            b.setToolTip(PHASE_NAMES[phase])
            b.setCheckable(True)
            b.setAutoRaise(True)
            b.clicked.connect(lambda _=False, p=phase: self.w.playtest.go_to_phase(p))
            self.group.addButton(b)
            self.addWidget(b)
            self.buttons[phase] = b
        self.addSeparator()
        self.next_step = QToolButton()
        self.next_step.setText(NEXT[0])
        self.next_step.clicked.connect(self.w.playtest.next_phase)
        self.addWidget(self.next_step)
        self.next_turn_button = QToolButton()
        self.next_turn_button.setText(NEXT[1])
        self.next_turn_button.setToolTip("Next turn: the next player's untap step")
        self.next_turn_button.clicked.connect(self.w.playtest.next_turn)
        self.addWidget(self.next_turn_button)
        self.setStyleSheet("QToolButton:checked { background: #ffd54a; color: #1d1d1d; "
                           "font-weight: bold; border-radius: 4px; }")
        self.shorter = False  # the shorter words shown
        self.refresh()

    def _words(self, shorter: bool) -> list[tuple[QToolButton, str]]:
        words, nexts = (SHORTER, NEXT_SHORTER) if shorter else (SHORT, NEXT)
        return [*((b, words[p]) for p, b in self.buttons.items()),
                (self.next_step, nexts[0]), (self.next_turn_button, nexts[1])]

    def _fit(self, width: int) -> None:
        """Whole words where the bar holds them at ``width``, else the shorter ones: the
        width the whole words want is the bar's own with the words it shows now, and
        each button's whole word measured against its word now (the turn's label, which
        grows with the turn and the players' names, counted as it is)."""
        extra = sum(b.fontMetrics().horizontalAdvance(whole)
                    - b.fontMetrics().horizontalAdvance(b.text())
                    for b, whole in self._words(False))
        shorter = self.sizeHint().width() + extra > width
        if shorter != self.shorter:
            self.shorter = shorter
            for b, text in self._words(shorter):
                b.setText(text)

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._fit(event.size().width())

    def refresh(self, _result: object = None) -> None:
        t = self.w.c.board
        self.turn_label.setText(f" Turn {t.turn} · {t.active} ")
        if self.isVisible():
            self._fit(self.width())
        b = self.buttons.get(t.phase)
        if b is not None and not b.isChecked():
            b.setChecked(True)
        self.next_step.setToolTip("The cleanup step is the last: Next turn" if
                                  t.phase == PHASES[-1] else
                                  f"Go to {PHASE_NAMES[PHASES[PHASES.index(t.phase) + 1]]}"
                                  if t.phase in PHASES else "")

    def checked(self) -> str | None:
        return next((p for p, b in self.buttons.items() if b.isChecked()), None)
