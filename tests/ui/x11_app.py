"""The window on a real X server, for tests/ui/test_x11.py (run as a script there, with
DISPLAY set): a table with two creatures; it prints where they are on the screen, waits
for a line on standard input (xdotool has moved the real pointer meanwhile), then prints
the arrows on the table and the menu open, if any, and exits."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

os.environ["QT_QPA_PLATFORM"] = "xcb"
os.environ["TABLETOP_MDNS"] = "off"


def main() -> None:
    from PySide6.QtCore import QSocketNotifier, QTimer
    from PySide6.QtWidgets import QApplication

    from tabletop import paths
    from tabletop.cards import builtin
    from tabletop.engine import Table
    from tabletop.ui.controller import TableController
    from tabletop.ui.main_window import MainWindow
    paths.set_data_dir(Path(tempfile.mkdtemp(prefix="tabletop-x11-")))
    app = QApplication([])
    t = Table(("Alice", "Bob"))
    bears = t.add_card(builtin.lookup("Grizzly Bears"), "Alice", "battlefield")
    giant = t.add_card(builtin.lookup("Hill Giant"), "Bob", "battlefield")
    t.start_here()
    c = TableController()
    w = MainWindow(c)
    c.viewer = "Alice"
    c.set_table(t)
    w.resize(1200, 760)
    w.move(0, 0)
    w.show()

    def where() -> None:
        out = {}
        for name, o in (("from", bears), ("to", giant)):
            item = w.scene.item_for_cid(o.cid)
            p = w.view.viewport().mapToGlobal(
                w.view.mapFromScene(item.sceneBoundingRect().center()))
            out[name] = [p.x(), p.y()]
        print(json.dumps(out), flush=True)

    def finish() -> None:
        sys.stdin.readline()
        popup = QApplication.activePopupWidget()
        print(json.dumps({"arrows": [list(a) for a in t.arrows],
                          "menu": [a.text() for a in popup.actions()] if popup else None}),
              flush=True)
        app.quit()
    QTimer.singleShot(1000, where)
    notifier = QSocketNotifier(sys.stdin.fileno(), QSocketNotifier.Read)
    notifier.activated.connect(finish)
    app.exec()


if __name__ == "__main__":
    main()
