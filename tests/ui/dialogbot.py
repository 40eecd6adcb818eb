"""Answers modal dialogs in GUI tests, as a person would, by pressing their buttons.

Every modal dialog the app opens during a test is met here: a test queues the
answers it expects (``bot.expect("Unsaved changes", "Save")``); any other
message box is answered with Discard (so closing a window at the end of a test
never waits) or else its escape button, and any other dialog is rejected. Each
dialog met is recorded in ``bot.seen`` as (title, text, button pressed)."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialog, QInputDialog, QMessageBox


class DialogBot:
    def __init__(self):
        self.queue: list[tuple[str, str]] = []
        self.handlers: list[tuple[str, object]] = []
        self.left: set[str] = set()  # titles of dialogs left to themselves (progress)
        self.seen: list[tuple[str, str, str]] = []
        self.timer = QTimer()
        self.timer.setInterval(20)
        self.timer.timeout.connect(self._tick)
        self.timer.start()

    def expect(self, title: str, button: str) -> None:
        """The next dialog whose title contains ``title`` gets ``button`` pressed (an
        input dialog: ``button`` is the value typed before OK)."""
        self.queue.append((title, button))

    def answer(self, title: str, handler) -> None:
        """The next dialog (of any kind) whose title contains ``title`` is handed to
        ``handler(dialog)``, which fills it in and presses its buttons as a person would."""
        self.handlers.append((title, handler))

    def leave(self, title: str) -> None:
        """Dialogs whose title contains ``title`` are left alone (a progress dialog
        that closes itself when its work is done)."""
        self.left.add(title)

    def titles(self) -> list[str]:
        return [t for t, _, _ in self.seen]

    def stop(self) -> None:
        self.timer.stop()

    def _tick(self) -> None:
        w = QApplication.activeModalWidget()
        if w is None or not w.isVisible():
            return
        title = w.windowTitle()
        if any(t in title for t in self.left):
            return
        for i, (t, handler) in enumerate(self.handlers):
            if t in title:
                del self.handlers[i]
                self.seen.append((title, "", "answered"))
                handler(w)
                return
        if isinstance(w, QMessageBox):
            text = w.text()
            wanted = None
            for i, (t, button) in enumerate(self.queue):
                if t in title:
                    wanted = button
                    del self.queue[i]
                    break
            buttons = {b.text().replace("&", ""): b for b in w.buttons()}
            if wanted is None:
                wanted = "Discard" if "Discard" in buttons else None
            if wanted is not None and wanted in buttons:
                self.seen.append((title, text, wanted))
                buttons[wanted].click()
                return
            esc = w.escapeButton() or (w.buttons()[0] if w.buttons() else None)
            self.seen.append((title, text, esc.text().replace("&", "") if esc else ""))
            if esc is not None:
                esc.click()
            else:
                w.reject()
        elif isinstance(w, QInputDialog):
            for i, (t, value) in enumerate(self.queue):
                if t in title:
                    del self.queue[i]
                    if w.inputMode() == QInputDialog.IntInput:
                        w.setIntValue(int(value))
                    else:
                        w.setTextValue(str(value))
                    self.seen.append((title, w.labelText(), str(value)))
                    w.accept()
                    return
            self.seen.append((title, w.labelText(), "rejected"))
            w.reject()
        elif isinstance(w, QDialog):
            self.seen.append((title, "", "rejected"))
            w.reject()
