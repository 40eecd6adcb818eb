"""Message boxes in one place: errors, yes/no questions and the unsaved-changes guard.

Text that may come from a file (card names, paths, messages quoting a file) is
always shown as plain text, never interpreted as rich text."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt

from tabletop.textsafe import html_text

if TYPE_CHECKING:  # made when a box first opens, not at start-up
    from PySide6.QtWidgets import QMessageBox


def _box(parent, icon, title: str, text: str, buttons, default=None) -> QMessageBox:
    from PySide6.QtWidgets import QMessageBox

    from tabletop.textsafe import escape_names
    box = QMessageBox(icon, title, escape_names(text), buttons, parent)
    box.setTextFormat(Qt.PlainText)
    if default is not None:
        box.setDefaultButton(default)
    return box


def plain_tooltip(text: str) -> str:
    """A tooltip that shows ``text`` literally: Qt guesses whether a tooltip is rich
    text, so text from a file is escaped inside an explicit rich-text wrapper."""
    if not text:
        return ""
    return "<qt>" + html_text(text).replace("\n", "<br>") + "</qt>"


def critical(parent, title: str, text: str) -> None:
    from PySide6.QtWidgets import QMessageBox
    _box(parent, QMessageBox.Critical, title, text, QMessageBox.Ok).exec()


def warn(parent, title: str, text: str) -> None:
    from PySide6.QtWidgets import QMessageBox
    _box(parent, QMessageBox.Warning, title, text, QMessageBox.Ok).exec()


def info(parent, title: str, text: str) -> None:
    from PySide6.QtWidgets import QMessageBox
    _box(parent, QMessageBox.Information, title, text, QMessageBox.Ok).exec()


def ask(parent, title: str, text: str, default_yes: bool = True) -> bool:
    """A yes/no question; True for Yes."""
    from PySide6.QtWidgets import QMessageBox
    box = _box(parent, QMessageBox.Question, title, text, QMessageBox.Yes | QMessageBox.No,
               QMessageBox.Yes if default_yes else QMessageBox.No)
    return box.exec() == QMessageBox.Yes


def save_discard_cancel(parent, what: str) -> str:
    """The unsaved-changes guard: "save", "discard" or "cancel"."""
    from PySide6.QtWidgets import QMessageBox
    box = _box(parent, QMessageBox.Warning, "Unsaved changes",
               f"The game has changes that are not saved to a file.\n\n"
               f"Save them before you {what}?",
               QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel, QMessageBox.Save)
    box.setEscapeButton(QMessageBox.Cancel)
    answer = box.exec()
    if answer == QMessageBox.Save:
        return "save"
    if answer == QMessageBox.Discard:
        return "discard"
    return "cancel"


def choose(parent, title: str, text: str, buttons: list[str]) -> str | None:
    """A question with buttons of its own; the button's text, or None (Escape)."""
    from PySide6.QtWidgets import QMessageBox
    box = _box(parent, QMessageBox.Question, title, text, QMessageBox.NoButton)
    made = [box.addButton(b, QMessageBox.AcceptRole) for b in buttons]
    cancel = box.addButton(QMessageBox.Cancel)
    box.setDefaultButton(made[0])
    box.setEscapeButton(cancel)
    box.exec()
    clicked = box.clickedButton()
    return buttons[made.index(clicked)] if clicked in made else None
