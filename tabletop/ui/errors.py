"""One place for unexpected errors: a dialog, a log file, and the table unchanged.

Engine actions take back their own changes when they fail, so after an
unexpected exception the table is as it was before the gesture."""

from __future__ import annotations

import datetime
import sys
import traceback

from PySide6.QtWidgets import QApplication

from tabletop.ui import settings


def log_path():
    return settings.log_dir() / "tabletop.log"


def write_log(text: str) -> None:
    try:
        p = log_path()
        p.parent.mkdir(parents=True, exist_ok=True)
        with p.open("a", encoding="utf-8") as f:
            f.write(f"--- {datetime.datetime.now().isoformat(timespec='seconds')}\n{text}\n")
    except OSError:
        pass


def install(parent_getter=lambda: None, show_dialog: bool = True) -> None:
    def hook(exc_type, exc, tb):
        text = "".join(traceback.format_exception(exc_type, exc, tb))
        write_log(text)
        if show_dialog and QApplication.instance() is not None:
            from tabletop.ui import dialogs
            dialogs.critical(parent_getter(), "Something went wrong",
                                 f"{exc_type.__name__}: {exc}\n\nThe table is as it was before. "
                                 f"Details are in {log_path()}.")
        else:
            sys.__stderr__.write(text)
    sys.excepthook = hook
