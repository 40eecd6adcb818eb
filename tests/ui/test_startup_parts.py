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
    print(json.dumps({"modules": sorted(sys.modules), "qt": sorted(made)}), flush=True)
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
             "tabletop.ui.presenter", "tabletop.ui.network", "PySide6.QtNetwork"}
    assert not later & modules, sorted(later & modules)
    # dialogs and animations are made when one opens; a widget class met by asking Qt for
    # an object it made (the view's own viewport) makes some sixty more
    assert not {"QMessageBox", "QFileDialog", "QInputDialog", "QPropertyAnimation",
                "QCalendarWidget", "QWizard", "QMdiArea"} & qt
