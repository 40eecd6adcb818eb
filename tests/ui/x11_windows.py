"""The windows on a real X server with a window manager, for tests/ui/test_x11.py (run
as a script there, with DISPLAY set and a window manager framing windows): the main
window starts, opens the deck editor from its menu (Ctrl+Shift+K), and once both are
framed (or after 15 s each) prints, for each, its frame (title bar and borders
included) and the screen's available area, then exits."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

os.environ["QT_QPA_PLATFORM"] = "xcb"
os.environ["TABLETOP_MDNS"] = "off"


def main() -> None:
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QApplication

    from tabletop import paths
    from tabletop.engine import Table
    from tabletop.ui.controller import TableController
    from tabletop.ui.main_window import MainWindow
    paths.set_data_dir(Path(tempfile.mkdtemp(prefix="tabletop-x11-")))
    app = QApplication([])
    c = TableController()
    w = MainWindow(c)
    c.set_table(Table(("Alice", "Bob")))
    w.show()

    def rect(r) -> list[int]:
        return [r.x(), r.y(), r.width(), r.height()]

    def framed(win) -> bool:
        return win is not None and win.frameGeometry().size() != win.size()

    def report() -> None:
        ed = w.playtest.editor
        screen = w.screen().availableGeometry()
        print(json.dumps({"screen": rect(screen), "main": rect(w.frameGeometry()),
                          "editor": rect(ed.frameGeometry()) if ed is not None else None,
                          "framed": [framed(w), framed(ed)]}), flush=True)
        app.quit()

    # (a busy machine's window manager may take a while to frame a window: each step
    # waits for it, 15 s at most, then settles half a second)
    waited = [0]

    def step() -> None:
        waited[0] += 1
        ed = w.playtest.editor
        if ed is None and (framed(w) or waited[0] > 150):
            next(a for a in w.findChildren(QAction) if a.text() == "Dec&k editor…").trigger()
            waited[0] = 0
        elif ed is not None and (framed(ed) or waited[0] > 150):
            QTimer.singleShot(500, report)
            return
        QTimer.singleShot(100, step)
    QTimer.singleShot(500, step)
    app.exec()


if __name__ == "__main__":
    main()
