"""The windows on a real X server with a window manager, for tests/ui/test_x11.py (run
as a script there, with DISPLAY set and a window manager framing windows): the main
window starts and, once framed, prints a line saying so; the test then presses
Ctrl+Shift+K (the deck editor's shortcut) on the real keyboard. Once the deck editor is
framed (or after 15 s each) it prints, for each window, its frame (title bar and
borders included) and the screen's available area, then exits."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

os.environ["QT_QPA_PLATFORM"] = "xcb"
os.environ["TABLETOP_MDNS"] = "off"


def main() -> None:
    from PySide6.QtCore import QTimer
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
    told = [False]

    def step() -> None:
        waited[0] += 1
        ed = w.playtest.editor
        ready = framed(w) and w.first_painted and not w._after_first_frame  # (menus made)
        if ed is None and not told[0] and (ready or waited[0] > 150):
            # the test presses Ctrl+Shift+K on the real keyboard (xdotool)
            print(json.dumps({"ready": True}), flush=True)
            told[0], waited[0] = True, 0
        elif ed is None and told[0] and waited[0] > 150:  # the key never opened it
            report()
            return
        elif ed is not None and (framed(ed) or waited[0] > 150):
            QTimer.singleShot(500, report)
            return
        QTimer.singleShot(100, step)
    QTimer.singleShot(500, step)
    app.exec()


if __name__ == "__main__":
    main()
