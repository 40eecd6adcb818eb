"""Message boxes in one place: errors, yes/no questions and the unsaved-changes guard.

Text that may come from a file (card names, paths, messages quoting a file) is
always shown as plain text, never interpreted as rich text."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt

from tabletop.textsafe import html_text

if TYPE_CHECKING:  # made when a box first opens, not at start-up
    from PySide6.QtWidgets import QMessageBox, QWidget


def _box(parent: QWidget | None, icon: QMessageBox.Icon, title: str, text: str,
         buttons: QMessageBox.StandardButton,
         default: QMessageBox.StandardButton | None = None) -> QMessageBox:
    from PySide6.QtWidgets import QMessageBox

    from tabletop.textsafe import escape_names
    box = QMessageBox(icon, title, escape_names(text), buttons, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    if default is not None:
        box.setDefaultButton(default)
    return box


def plain_tooltip(text: str) -> str:
    """A tooltip that shows ``text`` literally: Qt guesses whether a tooltip is rich
    text, so text from a file is escaped inside an explicit rich-text wrapper."""
    if not text:
        return ""
    return "<qt>" + html_text(text).replace("\n", "<br>") + "</qt>"


def critical(parent: QWidget | None, title: str, text: str) -> None:
    from PySide6.QtWidgets import QMessageBox
    _box(parent, QMessageBox.Icon.Critical, title, text, QMessageBox.StandardButton.Ok).exec()


def warn(parent: QWidget | None, title: str, text: str) -> None:
    from PySide6.QtWidgets import QMessageBox
    _box(parent, QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Ok).exec()


def info(parent: QWidget | None, title: str, text: str) -> None:
    from PySide6.QtWidgets import QMessageBox
    _box(parent, QMessageBox.Icon.Information, title, text, QMessageBox.StandardButton.Ok).exec()


def ask(parent: QWidget | None, title: str, text: str, default_yes: bool = True) -> bool:
    """A yes/no question; True for Yes."""
    from PySide6.QtWidgets import QMessageBox
    B = QMessageBox.StandardButton
    box = _box(parent, QMessageBox.Icon.Question, title, text, B.Yes | B.No,
               B.Yes if default_yes else B.No)
    return box.exec() == B.Yes


def save_discard_cancel(parent: QWidget | None, what: str,
                        title: str = "Unsaved changes",
                        unsaved: str = "The game has changes that are not saved to a file."
                        ) -> str:
    """The unsaved-changes guard: "save", "discard" or "cancel"."""
    from PySide6.QtWidgets import QMessageBox
    B = QMessageBox.StandardButton
    box = _box(parent, QMessageBox.Icon.Warning, title,
               f"{unsaved}\n\nSave them before you {what}?", B.Save | B.Discard | B.Cancel,
               B.Save)
    box.setEscapeButton(B.Cancel)
    answer = box.exec()
    if answer == B.Save:
        return "save"
    if answer == B.Discard:
        return "discard"
    return "cancel"


def choose(parent: QWidget | None, title: str, text: str, buttons: list[str]) -> str | None:
    """A question with buttons of its own; the button's text, or None (Escape)."""
    from PySide6.QtWidgets import QMessageBox
    box = _box(parent, QMessageBox.Icon.Question, title, text,
               QMessageBox.StandardButton.NoButton)
    made = [box.addButton(b, QMessageBox.ButtonRole.AcceptRole) for b in buttons]
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(made[0])
    box.setEscapeButton(cancel)
    box.exec()
    clicked = box.clickedButton()
    return buttons[made.index(clicked)] if clicked in made else None
