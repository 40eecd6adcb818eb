"""What the window's first frame loads: the parts it does not show are made (and their
modules imported) only after it, so a regression in start-up time shows here as a
module or a Qt class that came back. Measured times live in the GUI benchmark."""

import json
import os
import subprocess
import sys

from tests.helpers import ROOT

PROBE = r"""
import json, os, sys
real_exit = os._exit
def first_frame(code=0):  # the app calls os._exit at its first painted frame
    from PySide6 import QtCore, QtGui, QtWidgets
    made = [n for m in (QtCore, QtGui, QtWidgets) for n, v in vars(m).items()
            if isinstance(v, type)]
    modules = sorted(sys.modules)  # (before the look below imports anything)
    import linecache
    kept = len(linecache.cache)  # each module's source PySide6 looked through the slow way
    feature = sys.modules["shibokensupport.feature"]  # and its answers, made the quick way
    import inspect
    def slow(m):  # PySide6's own way
        try:
            return "PySide6" in inspect.getsource(m)
        except (OSError, TypeError, SyntaxError):  # (an empty file has no source)
            return False
    wrong = [n for n, m in list(sys.modules.items())
             if str(getattr(m, "__file__", "")).endswith(".py")
             and feature._mod_uses_pyside(m) != slow(m)]
    print(json.dumps({"modules": modules, "qt": sorted(made), "kept": kept,
                      "wrong": wrong}), flush=True)
    real_exit(0)
os._exit = first_frame
from tabletop import cli
cli.main(["--report-first-frame"])
"""


def first_frame(data_dir) -> dict:
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True,
                         text=True, timeout=60,
                         env={**os.environ, "TABLETOP_DATA_DIR": str(data_dir)})
    return json.loads(out.stdout.splitlines()[-1])


def test_the_first_frame_loads_only_what_it_shows(tmp_path):
    first_frame(tmp_path)  # the very first start also writes the editions' cached copy
    seen = first_frame(tmp_path)
    modules, qt = set(seen["modules"]), set(seen["qt"])
    assert "tabletop.ui.main_window" in modules and "QGraphicsView" in qt  # it did start
    later = {"html", "tomllib", "sqlite3", "tabletop.ui.rules_browser", "tabletop.ui.scenario_panel",
             "tabletop.scenario", "tabletop.cards.decks", "tabletop.engine.saves",
             "tabletop.ui.presenter", "tabletop.ui.network", "PySide6.QtNetwork",
             "orjson", "dataclasses", "uuid", "platform"}
    assert not later & modules, sorted(later & modules)
    # dialogs and animations are made when one opens; a widget class met by asking Qt for
    # an object it made (the view's own viewport) makes some sixty more
    assert not {"QMessageBox", "QFileDialog", "QInputDialog", "QPropertyAnimation",
                "QCalendarWidget", "QWizard", "QMdiArea"} & qt


def test_pyside_is_told_which_modules_use_it_without_reading_them_line_by_line(tmp_path):
    """PySide6 asks of every module imported whether its source names PySide6 (it may
    turn a ``__feature__`` on), through ``inspect.getsource``: each file read, decoded and
    kept in ``linecache``, some 18 ms of the start-up. The window answers from the files'
    bytes: the same answer for every module, and no source kept."""
    seen = first_frame(tmp_path)
    assert seen["wrong"] == []
    assert seen["kept"] <= 5, seen["kept"]  # (it was 47: every module PySide6 looked at)


def test_the_window_opens_inside_the_screen_and_comes_back_where_it_was(qtbot):
    """The offscreen screen is 800x800 here: the window, made and shown as the app makes
    it, fits inside it, frame and all (it was 1500x950); moved and resized, it comes back
    so after a restart; one saved on a larger screen is brought inside this one."""
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication

    from tabletop.ui import settings
    from tabletop.ui.controller import TableController
    from tabletop.ui.main_window import MainWindow

    def start():
        w = MainWindow(TableController())
        qtbot.addWidget(w)
        w.show()
        qtbot.waitExposed(w)
        qtbot.waitUntil(lambda: w.first_painted and not w._after_first_frame, timeout=5000)
        QApplication.processEvents()
        return w
    avail = QGuiApplication.primaryScreen().availableGeometry()
    w = start()
    assert avail.contains(w.frameGeometry()), (w.frameGeometry(), avail)
    assert w.width() >= avail.width() * 0.9  # as much of the screen as fits
    w.resize(600, 500)
    w.move(100, 120)
    QApplication.processEvents()
    before = w.geometry()
    w.close()  # the window keeps its size and place when it closes
    again = start()
    assert again.geometry().size() == before.size()
    assert abs(again.x() - w.x()) <= 4 and abs(again.y() - w.y()) <= 4
    again.resize(1900, 1200)  # as a bigger screen left it
    again.move(900, 700)
    settings.save_window(again)
    third = start()
    assert avail.contains(third.frameGeometry()), (third.frameGeometry(), avail)


def test_the_intents_are_made_after_the_first_frame_not_at_import():
    """The window's way in to the table imports its 36 intent classes lazily (25 ms of
    dataclasses): importing the window runs none of them; the first use makes them."""
    probe = ("import sys, types, tabletop.ui.main_window\n"
             "m = sys.modules['tabletop.engine.intents']\n"  # loaded: a plain module again
             "print(object.__getattribute__(m, '__class__') is types.ModuleType)\n"
             "from tabletop.ui.controller import intents\n"
             "print(len(intents.INTENTS) > 30)\n")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                         text=True, timeout=60,
                         env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert out.stdout.split() == ["False", "True"], out.stderr


def test_the_work_after_the_first_frame_lets_the_window_answer_between_pieces(qtbot):
    """What the window does just after its first frame (the inspector, the log, the
    intents, the menus...) runs one piece per turn of the event loop: a click or a key
    that comes meanwhile is handled after the piece under way, not after all of them."""
    from PySide6.QtCore import QTimer

    from tabletop.ui.controller import TableController
    from tabletop.ui.main_window import MainWindow

    w = MainWindow(TableController())
    qtbot.addWidget(w)
    ran: list[str] = []

    def piece(name: str):
        def run() -> None:
            ran.append(name)
            if name == "one":  # a person's click comes while the first piece runs
                QTimer.singleShot(0, lambda: ran.append("the click"))
        return run
    w.after_first_frame(piece("one"))
    w.after_first_frame(piece("two"))
    w.show()
    qtbot.waitUntil(lambda: w.first_painted and not w._after_first_frame, timeout=5000)
    qtbot.waitUntil(lambda: "the click" in ran, timeout=2000)
    assert ran.index("one") < ran.index("the click") < ran.index("two")
    assert w.menuBar().actions()  # and all of the window's own pieces ran: its menus
