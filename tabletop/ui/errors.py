"""One place for unexpected errors: a dialog, a log file, and the table unchanged.

Engine actions take back their own changes when they fail, so after an
unexpected exception the table is as it was before the gesture."""

from __future__ import annotations

import logging
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

from PySide6.QtCore import QtMsgType, qInstallMessageHandler
from PySide6.QtWidgets import QApplication

from tabletop.ui import settings

log = logging.getLogger("tabletop")


def log_path() -> Path:
    return settings.log_dir() / "tabletop.log"


def start_logging() -> None:
    """The app's log: stdlib logging to a rotating file in the user's log folder (five
    files of 1 MB at most), with Qt's own messages routed into it."""
    import logging.handlers
    p = log_path()
    for h in [h for h in log.handlers if getattr(h, "tabletop", False)]:
        if getattr(h, "baseFilename", None) == str(p.absolute()):
            return
        log.removeHandler(h)  # the log folder changed (--data-dir)
        h.close()
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        handler = logging.handlers.RotatingFileHandler(p, maxBytes=1 << 20, backupCount=4,
                                                       encoding="utf-8", delay=True)
    except OSError:
        return
    handler.tabletop = True  # type: ignore[attr-defined]  # ours, to find it again
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    levels = {QtMsgType.QtDebugMsg: logging.DEBUG, QtMsgType.QtInfoMsg: logging.INFO,
              QtMsgType.QtWarningMsg: logging.WARNING, QtMsgType.QtCriticalMsg: logging.ERROR,
              QtMsgType.QtFatalMsg: logging.CRITICAL}

    def qt_messages(kind: QtMsgType, context: object, message: str) -> None:
        logging.getLogger("tabletop.qt").log(levels.get(kind, logging.WARNING), "%s", message)
    qInstallMessageHandler(qt_messages)


def write_log(text: str) -> None:
    start_logging()
    log.error("%s", text)


def install(parent_getter: Callable[[], Any] = lambda: None, show_dialog: bool = True
            ) -> None:
    from PySide6.QtCore import QTimer
    QTimer.singleShot(1000, start_logging)  # after the first frame (write_log starts it sooner)

    def hook(exc_type: type[BaseException], exc: BaseException,
             tb: TracebackType | None) -> None:
        text = "".join(traceback.format_exception(exc_type, exc, tb))
        write_log(text)
        if show_dialog and QApplication.instance() is not None:
            from tabletop.ui import dialogs
            dialogs.critical(parent_getter(), "Something went wrong",
                                 f"{exc_type.__name__}: {exc}\n\nThe table is as it was before. "
                                 f"Details are in {log_path()}.")
        elif sys.__stderr__ is not None:
            sys.__stderr__.write(text)
    sys.excepthook = hook
