"""What the main window's command objects (window_playtest, window_judges,
window_network) are handed: the window's parts they use, declared here so that each
is wired explicitly and checked, and no command module imports the window."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from PySide6.QtCore import QByteArray, Qt
    from PySide6.QtGui import QAction, QFont
    from PySide6.QtWidgets import (
        QComboBox,
        QDockWidget,
        QMenu,
        QMenuBar,
        QStatusBar,
        QToolBar,
        QWidget,
    )

    from tabletop.engine import Table
    from tabletop.ui.controller import TableController
    from tabletop.ui.inspector import Inspector
    from tabletop.ui.phase_bar import PhaseBar
    from tabletop.ui.scenario_panel import ScenarioPanel
    from tabletop.ui.scene import TableScene
    from tabletop.ui.table_view import TableView


class Stage(Protocol):
    """Presenter mode (presenter.Presenter, which is handed the window in turn)."""

    def enter(self) -> None: ...
    def leave(self) -> None: ...


class Window(Protocol):
    """The main window as its commands (and presenter mode's stage) see it."""

    c: TableController
    path: Path | None
    presenting: bool
    scene: TableScene
    view: TableView
    phase_bar: PhaseBar
    log_dock: QDockWidget
    scenario_dock: QDockWidget
    inspector_dock: QDockWidget
    edition_box: QComboBox
    viewpoint_box: QComboBox
    _menus_built: bool

    # made with the menus, just after the first frame
    @property
    def recent_menu(self) -> QMenu: ...
    @property
    def viewpoint_menu(self) -> QMenu: ...
    @property
    def leave_action(self) -> QAction: ...
    @property
    def untap_action(self) -> QAction: ...
    @property
    def draw_action(self) -> QAction: ...
    @property
    def presenter_keys(self) -> list[QAction]: ...
    @property
    def record_action(self) -> QAction: ...

    # made the first time they are needed
    @property
    def scenario_panel(self) -> ScenarioPanel: ...
    @property
    def presenter(self) -> Stage: ...
    @property
    def inspector(self) -> Inspector: ...

    def window(self) -> QWidget:
        """The window as a widget: the parent of the commands' dialogs."""
    def error(self, title: str, text: str) -> None: ...
    def open_rule(self, number: str, edition: str | None = None) -> None: ...
    def show_message(self, text: str) -> None: ...
    def seat(self) -> str: ...
    def confirm_discard(self, what: str) -> bool: ...
    def load_game(self, path: Path, asked: bool = False, table: Table | None = None) -> bool: ...
    def _update_undo(self) -> None: ...
    def _dock(self, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget: ...
    def dock_room(self, dock: QDockWidget, flexible: QWidget) -> int: ...
    def give_room(self, dock: QDockWidget, need: int) -> None: ...
    def tabifyDockWidget(self, first: QDockWidget, second: QDockWidget) -> None: ...
    # what presenter mode hides, enlarges and puts back
    def toolbars(self) -> list[QToolBar]: ...
    def font(self) -> QFont: ...
    def menuBar(self) -> QMenuBar: ...
    def statusBar(self) -> QStatusBar: ...
    def saveState(self) -> QByteArray: ...
    def restoreState(self, state: QByteArray) -> bool: ...
    def resizeDocks(self, docks: list[QDockWidget], sizes: list[int],
                    orientation: Qt.Orientation) -> None: ...
