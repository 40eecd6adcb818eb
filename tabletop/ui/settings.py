"""Settings and user folders (platformdirs): window layout, last edition."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMainWindow, QWidget

from tabletop import paths

APP = paths.APP
config_dir = paths.config_dir
log_dir = paths.log_dir
documents = paths.documents


def save_folder(preferred: Path | None = None) -> Path:
    """A folder that exists, for the Save dialog: ``preferred`` (the game's own
    folder), the last one used, else Documents, else the home folder."""
    last = value("last_folder")
    for p in (preferred, last, documents(), Path.home()):
        if isinstance(p, (str, Path)) and p and Path(p).is_dir():
            return Path(p)
    return Path.cwd()


def _settings() -> QSettings:
    path = config_dir() / "tabletop.ini"
    return QSettings(str(path), QSettings.Format.IniFormat)


def value(key: str, default: Any = None) -> Any:
    return _settings().value(key, default)


def set_value(key: str, v: Any) -> None:
    s = _settings()
    s.setValue(key, v)
    s.sync()


# the docks and toolbars' layout version: a layout saved before the phase bar existed is
# not restored (it would squeeze the bar onto the first toolbar's row)
LAYOUT_VERSION = 1


def save_window(window: QMainWindow) -> None:
    s = _settings()
    s.setValue("window/geometry", window.saveGeometry())
    s.setValue("window/state", window.saveState(LAYOUT_VERSION))
    s.sync()


def fit_to_screen(window: QWidget, width: int | None = None,
                  height: int | None = None) -> None:
    """Size the window to ``width`` x ``height`` (else its own size) at most, and place it
    inside the screen's available area (without the panels and docks of the desktop)."""
    from PySide6.QtGui import QGuiApplication
    screen = window.screen() or QGuiApplication.primaryScreen()
    if screen is None:
        return
    avail = screen.availableGeometry()
    frame = window.frameGeometry()  # the title bar and borders, once the window has them
    extra_w, extra_h = frame.width() - window.width(), frame.height() - window.height()
    w = min(width or window.width(), avail.width() - extra_w)
    h = min(height or window.height(), avail.height() - extra_h)
    if (w, h) != (window.width(), window.height()):
        window.resize(w, h)
    frame = window.frameGeometry()
    if width is not None or not avail.contains(frame):
        x = min(max(frame.x(), avail.x()), avail.right() + 1 - w - extra_w)
        y = min(max(frame.y(), avail.y()), avail.bottom() + 1 - h - extra_h)
        if width is not None:  # the first start: in the middle
            x = avail.x() + (avail.width() - w - extra_w) // 2
            y = avail.y() + (avail.height() - h - extra_h) // 2
        window.move(max(avail.x(), x), max(avail.y(), y))


class FitsTheScreen:
    """A window of its own size (the deck editor's 1280x780): inside the screen's
    available area the first time it is shown (a 1024x600 screen is smaller), title bar
    and borders included. Put before the Qt class it is mixed into."""

    _fitted = False
    _framed: Any = None  # the size it was fitted to before its frame was known

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)  # type: ignore[misc]
        if not self._fitted:
            self._fitted = True
            fit_to_screen(self)  # type: ignore[arg-type]
            if self.frameGeometry().size() == self.size():  # type: ignore[attr-defined]
                # the window manager has not framed it yet: its title bar would push its
                # bottom off a small screen. Fitted again once framed (the move that
                # frames it), unless it was resized meanwhile
                self._framed = self.size()  # type: ignore[attr-defined]

    def moveEvent(self, event: Any) -> None:
        super().moveEvent(event)  # type: ignore[misc]
        if self._framed is not None and self.frameGeometry().size() != self.size():  # type: ignore[attr-defined]
            fitted, self._framed = self._framed, None
            if self.size() == fitted:  # type: ignore[attr-defined]
                fit_to_screen(self)  # type: ignore[arg-type]


def restore_window(window: QMainWindow) -> None:
    s = _settings()
    geo = s.value("window/geometry")
    state = s.value("window/state")
    if geo is not None:
        window.restoreGeometry(geo)
    if state is not None:
        window.restoreState(state, LAYOUT_VERSION)


def recent_files() -> list[str]:
    v = value("recent", [])
    if isinstance(v, str):
        v = [v]
    return [p for p in (v or []) if Path(p).exists()][:8]


def add_recent(path: str | Path) -> None:
    files = [str(path)] + [p for p in recent_files() if p != str(path)]
    set_value("recent", files[:8])
    set_value("last_folder", str(Path(path).parent))
