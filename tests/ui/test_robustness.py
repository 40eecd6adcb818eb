"""Never crash: an unexpected error is logged, shown once, and the table stays as it was.
Window layout is remembered."""

import sys

import pytest

from tabletop.cards import builtin
from tabletop.engine import Table
from tabletop.ui import errors, settings


def test_failing_action_leaves_the_table_as_it_was(make_window, monkeypatch):
    t = Table(("Alice", "Bob"))
    bears = t.add_card(builtin.lookup("Grizzly Bears"), "Alice", "hand")
    t.history.clear()
    w = make_window(t)
    zones_before = {k: list(v) for k, v in t.zones.items()}

    def boom(*a, **k):
        raise RuntimeError("disk on fire")
    # fail in the middle of the move, after its first changes were made
    monkeypatch.setattr(type(t), "_lineage", boom)
    monkeypatch.setattr(type(t), "_replace_obj", boom)
    with pytest.raises(RuntimeError):
        w.c.drop(bears.cid, "battlefield", "Alice")
    assert {k: list(v) for k, v in t.zones.items()} == zones_before
    assert not t.history and t.obj_of(bears.cid).id == bears.id


def test_unexpected_error_is_logged_and_reported(qapp, monkeypatch, tmp_path, dialogs):
    monkeypatch.setattr(errors, "log_path", lambda: tmp_path / "tabletop.log")
    old = sys.excepthook
    try:
        errors.install(lambda: None, show_dialog=True)
        try:
            raise ValueError("a bug")
        except ValueError:
            sys.excepthook(*sys.exc_info())
    finally:
        sys.excepthook = old
    assert "ValueError: a bug" in (tmp_path / "tabletop.log").read_text()
    shown = [text for title, text, _ in dialogs.seen if title == "Something went wrong"]
    assert shown and "The table is as it was" in shown[0] and "ValueError: a bug" in shown[0]


def test_window_layout_is_remembered(make_window, qtbot):
    from PySide6.QtCore import Qt

    from tabletop.ui.controller import TableController
    from tabletop.ui.main_window import MainWindow
    w = make_window(Table(("Alice", "Bob")))
    w.addDockWidget(Qt.LeftDockWidgetArea, w.inspector_dock)
    w.log_dock.hide()
    w.close()
    ini = settings.config_dir() / "tabletop.ini"
    assert ini.exists() and "geometry" in ini.read_text()
    w2 = MainWindow(TableController(Table(("Alice", "Bob"))))
    qtbot.addWidget(w2)
    assert w2.dockWidgetArea(w2.inspector_dock) == Qt.LeftDockWidgetArea
    assert w2.log_dock.isHidden()


def test_qt_messages_and_errors_go_to_a_rotating_log_file(qapp, monkeypatch, tmp_path):
    """Issue 15, item 6: stdlib logging to a rotating file, Qt's messages routed in."""
    import logging.handlers

    from PySide6.QtCore import qWarning
    monkeypatch.setattr(errors, "log_path", lambda: tmp_path / "tabletop.log")
    errors.start_logging()
    qWarning("a warning from Qt")
    errors.write_log("an error from Tabletop")
    handlers = [h for h in errors.log.handlers if getattr(h, "tabletop", False)]
    assert len(handlers) == 1 and isinstance(handlers[0], logging.handlers.RotatingFileHandler)
    assert handlers[0].maxBytes == 1 << 20 and handlers[0].backupCount == 4
    handlers[0].flush()
    text = (tmp_path / "tabletop.log").read_text()
    assert "WARNING tabletop.qt: a warning from Qt" in text
    assert "ERROR tabletop: an error from Tabletop" in text
