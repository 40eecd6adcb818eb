"""The main window: the table view, the inspector and log docks, menus with
shortcuts, undo and redo over the engine's history, viewpoints and editions."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QAction  # the menus' classes: when they are made
from PySide6.QtWidgets import (  # dialogs are imported where they open: not at start-up
    QComboBox,
    QDockWidget,
    QLabel,
    QMainWindow,
    QSizePolicy,
    QToolBar,
    QWidget,
)

from tabletop import __version__
from tabletop.engine import editions, views
from tabletop.engine.errors import TabletopError
from tabletop.engine.model import EventKind, Zone
from tabletop.engine.views import JUDGE
from tabletop.textsafe import escape_names, names_from_outside
from tabletop.ui import later, settings
from tabletop.ui.controller import TableController
from tabletop.ui.inspector import Inspector, LogView, opening_words
from tabletop.ui.scene import TableScene
from tabletop.ui.table_view import TableView
from tabletop.ui.window_judges import JudgeCommands
from tabletop.ui.window_network import NetworkCommands
from tabletop.ui.window_playtest import PlaytestCommands

if TYPE_CHECKING:  # types only: their classes are made where they are first used
    from PySide6.QtCore import QObject, QSize
    from PySide6.QtGui import QCloseEvent, QKeySequence, QResizeEvent
    from PySide6.QtWidgets import QListWidgetItem, QMenu

    from tabletop.engine import Result, Table
    from tabletop.engine.model import Effect, Obj, ZoneKey
    from tabletop.engine.moves import Chooser
    from tabletop.engine.views import Handle, Shown
    from tabletop.ui.autosave import Autosave
    from tabletop.ui.presenter import Presenter
    from tabletop.ui.rules_browser import RulesBrowser
    from tabletop.ui.scenario_panel import ScenarioPanel
    from tabletop.ui.zone_viewer import RevealWindow


class MainWindow(QMainWindow):
    """The table's window: the scene, its docks and menus. Its commands are three
    objects it is composed of, each handed the window: ``playtest`` (games, decks,
    turns), ``judges`` (scenarios, comparisons, recording, presenter mode) and
    ``network`` (hosting, joining, the Table talk dock)."""

    def __init__(self, controller: TableController | None = None,
                 autosave: Autosave | None = None) -> None:
        super().__init__()
        self.playtest = PlaytestCommands(self)
        self.judges = JudgeCommands(self)
        self.network = NetworkCommands(self, self.playtest)
        self.c = controller or TableController()
        self.autosave = autosave  # an Autosave, or None (tests, screenshots, self-test)
        self.c.chooser = self._chooser
        self.path: Path | None = None
        self.ending = False  # interrupted (SIGTERM, logout): close without asking
        self.started = False  # set once start-up is over and the event loop runs
        # work the first frame does not need waits until it is painted
        self.first_painted = False
        self._after_first_frame: list[Callable[[], object]] = []
        self.setWindowTitle("Tabletop")
        self.scene = TableScene(self.c, self)
        self.view = TableView(self.scene, self)
        self.setCentralWidget(self.view)
        self.view.viewport().installEventFilter(self)
        self.status = QLabel()
        # the inspector (a text browser, slow to make the first time) comes just after the
        # first frame, which shows its opening words
        self._inspector: Inspector | None = None
        self.log = LogView(self.c)
        self.inspector_dock = self._dock("Inspector", opening_words(self.c.board),
                                         Qt.DockWidgetArea.RightDockWidgetArea)
        self.after_first_frame(lambda: self.inspector)
        self.after_first_frame(self.log.ready)  # (so the first action's line waits on nothing)
        # the table's intents (ui/controller.py): made before the first action, not frame
        self.after_first_frame(lambda: later.module("tabletop.engine.intents").INTENTS)
        # the JSON writer (orjson), left out of the first frame: loaded now, not by the
        # first action that writes (a drag over the table held a frame 15 ms for it)
        self.after_first_frame(lambda: later.module("tabletop.jsontext").compact(None))
        # and the card database's module (sqlite3), which the first hover preview read
        # card text with: that preview took 30 ms, the next ones 5
        self.after_first_frame(lambda: later.module("tabletop.cards.db").default)
        self.log_dock = self._dock("Log", self.log, Qt.DockWidgetArea.RightDockWidgetArea)
        # the scenario player is made when first shown or used (its tab is behind the log)
        self._scenario_panel: ScenarioPanel | None = None
        self.scenario_dock = self._dock("Scenario", QLabel(), Qt.DockWidgetArea.RightDockWidgetArea)
        self.scenario_dock.visibilityChanged.connect(
            lambda shown: shown and self.scenario_panel)
        self.tabifyDockWidget(self.log_dock, self.scenario_dock)
        self._rules_browser: RulesBrowser | None = None  # the same: made when its tab is first shown or used
        self.rules_dock = self._dock("Rules", QLabel(), Qt.DockWidgetArea.RightDockWidgetArea)
        self.rules_dock.visibilityChanged.connect(lambda shown: shown and self.rules_browser)
        self.tabifyDockWidget(self.scenario_dock, self.rules_dock)
        self.log_dock.raise_()
        self.log.list.itemClicked.connect(self._log_rule)
        self.status.linkActivated.connect(lambda url: self.open_rule(url[len("rule:"):]))
        self.presenting = False
        self._presenter: Presenter | None = None  # made when presenter mode is first entered
        self.statusBar().addWidget(self.status, 1)
        self._build_bars()
        self.after_first_frame(self._build_menus)
        self.c.changed.connect(self._on_changed)
        self.c.reset.connect(self._on_reset)
        self.c.message.connect(self.show_message)
        self._screen_of: object = None  # the game whose saved screen was last put back
        self.reveal_window: RevealWindow | None = None  # cards just revealed, while open
        self._reveal_seen = -1  # at a network table: the host's reveal last opened
        self._screen_timer = QTimer(self, singleShot=True, interval=500)
        self._screen_timer.timeout.connect(self._autosave)
        self.view.zoomed.connect(self._screen_moved)
        self.scene.viewers_changed.connect(self._screen_moved)
        self._on_reset()
        settings.fit_to_screen(self, 1500, 950)  # the first start: as much as fits
        # the docks' first width: a narrower share of a small screen, so the table keeps
        # room to be read (the person's own width comes back with the window's state)
        self._dock_width()
        # the docks as a first start arranges them: View > Reset the layout brings them back
        self._first_layout = self.saveState(settings.LAYOUT_VERSION)
        settings.restore_window(self)  # then where and how big it was last time
        settings.fit_to_screen(self)  # on this screen, which may be smaller
        # and again once shown, when the window's frame (title bar, borders) is known,
        # unless it was given a size of its own meanwhile (--screenshot renders 1600x1000)
        fitted = self.size()
        self.after_first_frame(lambda: self._fit_again(fitted))

    def _fit_again(self, fitted: QSize) -> None:
        if self.size() == fitted:
            settings.fit_to_screen(self)

    def toolbars(self) -> list[QToolBar]:
        return self.findChildren(QToolBar)

    # a window made narrower gives its width to the table first: the docks at its side
    # keep at most this share of it (a window snapped to half of a small screen, 640
    # pixels, left the table 350 beside docks that kept 280)
    DOCKS_SHARE = 0.3

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        old, new = event.oldSize().width(), event.size().width()
        if 0 < new < old and not self.presenting:
            docks = [d for d in (self.inspector_dock, self.log_dock, self.scenario_dock,
                                 self.rules_dock)
                     if d.isVisible() and not d.isFloating()
                     and self.dockWidgetArea(d) == Qt.DockWidgetArea.RightDockWidgetArea]
            share = int(new * self.DOCKS_SHARE)
            if docks and max(d.width() for d in docks) > share:
                self.resizeDocks(docks[:1], [share], Qt.Orientation.Horizontal)

    def _dock_width(self) -> None:
        self.resizeDocks([self.inspector_dock], [min(380, max(240, self.width() * 27 // 100))],
                         Qt.Orientation.Horizontal)

    def reset_layout(self) -> None:
        """Every dock and toolbar back where a first start puts it, shown, the docks at
        their first width, and the table fitted to what is left: a dock dragged away,
        floated or stretched by mistake can leave the table a strip (a toolbar hidden
        from its menu, the phase bar gone), and the layout is kept from one start to the
        next."""
        if self.presenting:  # presenter mode puts its own layout back as it leaves
            self.judges.toggle_presenter()
        self.restoreState(self._first_layout, settings.LAYOUT_VERSION)
        for dock in (self.inspector_dock, self.log_dock, self.scenario_dock, self.rules_dock):
            dock.setFloating(False)
            dock.show()
        self.log_dock.raise_()

        def settle() -> None:  # once the layout restored has its sizes
            self._dock_width()
            self.view.fit()
        QTimer.singleShot(0, self, settle)  # (gone with the window if it goes first)

    def dock_room(self, dock: QDockWidget, flexible: QWidget) -> int:
        """The height ``dock`` needs for its lines at its width (a wrapped label, a row
        of buttons that wraps), with ``flexible`` (a list) at its least: a dock does not
        ask it by itself, and on a short screen (1024x600) its lines would be squeezed."""
        inner = dock.widget()
        if inner is None:
            return 0
        from PySide6.QtWidgets import QScrollArea
        content = inner.widget() if isinstance(inner, QScrollArea) else None
        if isinstance(inner, QScrollArea) and content is not None:
            frame = dock.height() - inner.viewport().height()  # its title bar
            inner = content
        else:
            frame = dock.height() - inner.height()
        wanted = inner.heightForWidth(inner.width())
        if wanted < 0:  # (nothing in it wraps)
            return inner.minimumSizeHint().height() + frame
        return wanted - flexible.sizeHint().height() + flexible.minimumHeight() + frame

    def give_room(self, dock: QDockWidget, need: int) -> None:
        """Taller, to ``need``, taken from the docks beside it (the inspector)."""
        if not dock.isVisible() or dock is self.inspector_dock:
            return
        if dock.isFloating():  # a window of its own: made taller itself
            if dock.height() < need:
                dock.resize(dock.width(), need)
            return
        if not self.inspector_dock.isVisible() or self.inspector_dock.isFloating() \
                or self.dockWidgetArea(dock) != self.dockWidgetArea(self.inspector_dock):
            return  # (moved apart by the person: their layout is theirs)
        ask = need
        for _ in range(2):  # (the sizes asked come out a few pixels short: asked again,
            # by as much more as was missing)
            if dock.height() >= need:
                return
            both = self.inspector_dock.height() + dock.height()  # (both named: a dock
            # alone is not made taller than it is)
            self.resizeDocks([self.inspector_dock, dock], [max(0, both - ask), ask],
                             Qt.Orientation.Vertical)
            ask += need - dock.height()

    def _dock(self, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(title.lower())
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    # ---- menus ---------------------------------------------------------------------
    def _act(self, menu: QMenu, text: str, slot: Callable[..., object],
             shortcut: str | QKeySequence.StandardKey | None = None, *,
             checkable: bool = False) -> QAction:
        """A menu entry (and its shortcut, for the whole window). Only a ``checkable``
        entry's slot is given its new state: any other is called with nothing, as its
        signal's ``checked`` (False) would otherwise fill a command's first optional
        parameter (Setup > Remove the card took it for card 0)."""
        from PySide6.QtGui import QKeySequence
        a = QAction(text, self)
        if shortcut:
            a.setShortcut(QKeySequence(shortcut))
        if checkable:
            a.setCheckable(True)
            a.triggered.connect(slot)
        else:
            a.triggered.connect(lambda: slot())
        menu.addAction(a)
        self.addAction(a)
        return a

    def _build_bars(self) -> None:
        """What the first frame shows above the table: the menus' titles, the toolbar
        with the edition and viewpoint, and the phase bar."""
        self._menus_built = False
        self._menus = {title: self.menuBar().addMenu(title) for title in
                       ("&File", "&Edit", "&View", "&Card", "&Table", "&Setup", "&Help")}
        bar = QToolBar("Table", self)
        bar.setObjectName("table-toolbar")
        self.addToolBar(bar)
        bar.addWidget(QLabel(" Rules edition: "))
        self.edition_box = QComboBox()
        for edition_id, title in editions.titles():  # no edition's rules read yet
            self.edition_box.addItem(f"{edition_id} — {title}", edition_id)
        self.edition_box.activated.connect(self._edition_chosen)
        # as wide as its longest title where there is room, narrower (the title cut
        # short, whole in its list) where there is not: the viewpoint beside it stays
        # on a narrow window's toolbar, not behind its »
        whole = self.edition_box.sizeHint().width()
        self.edition_box.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.edition_box.setMinimumContentsLength(18)
        self.edition_box.setSizePolicy(QSizePolicy.Policy.Expanding,
                                       QSizePolicy.Policy.Fixed)
        self.edition_box.setMaximumWidth(whole)
        bar.addWidget(self.edition_box)
        bar.addWidget(QLabel("   Viewpoint: "))
        self.viewpoint_box = QComboBox()
        self.viewpoint_box.activated.connect(
            lambda i: self.c.set_viewer(self.viewpoint_box.itemData(i)))
        bar.addWidget(self.viewpoint_box)
        from tabletop.ui.phase_bar import PhaseBar
        self.addToolBarBreak()
        self.phase_bar = PhaseBar(self)
        self.addToolBar(self.phase_bar)
        self.c.changed.connect(self.phase_bar.refresh)
        self.c.reset.connect(self.phase_bar.refresh)

    def _build_menus(self) -> None:
        """The menus' commands and their shortcuts: made just after the first frame (the
        menus' titles are there from the start), or at once when something needs them."""
        from PySide6.QtGui import QKeySequence

        from tabletop.ui import card_menu
        if self._menus_built:
            return
        self._menus_built = True
        menu = self._menus
        f = menu["&File"]
        self._act(f, "&New table", lambda: self.new_table(), QKeySequence.StandardKey.New)
        self._act(f, "New &empty table (to set up)", lambda: self.new_table(empty=True),
                  "Ctrl+Alt+Shift+N")
        self._act(f, "New &game from decks…", self.playtest.new_game, "Ctrl+Shift+N")
        self._act(f, "Ne&xt game, after sideboarding…", self.playtest.next_game)
        self._act(f, "Save &deck as…", self.playtest.save_deck_as)
        self._act(f, "Dec&k editor…", self.playtest.deck_editor, "Ctrl+Shift+K")
        self._act(f, "&Open game…", self.open_game, QKeySequence.StandardKey.Open)
        self.recent_menu = f.addMenu("Open &recent")
        self.playtest._fill_recent()
        self._act(f, "&Save game", self.save_game, QKeySequence.StandardKey.Save)
        self._act(f, "Save game &as…", self.save_game_as, QKeySequence.StandardKey.SaveAs)
        f.addSeparator()
        self._act(f, "Open s&cenario…", self.judges.open_scenario_dialog, "Ctrl+Shift+O")
        self._act(f, "Scenario &library…", self.judges.scenario_library, "Ctrl+Shift+L")
        self._act(f, "Export ruling &report…", self.judges.export_report, "Ctrl+Shift+E")
        self.record_action = self._act(f, "Re&cord a scenario", self.judges.toggle_recording,
                                       "Ctrl+R", checkable=True)
        f.addSeparator()
        self._act(f, "Import &rules text…", self.import_rules)
        self._act(f, "Get card data (download)…", self.playtest.get_card_data)
        self._act(f, "Import card &data…", self.playtest.import_cards)
        self._act(f, "Export &picture of the table…", self.export_picture)
        f.addSeparator()
        self._act(f, "&Host a game on the network…", self.network.host_game)
        self._act(f, "&Join a network game…", self.network.join_game, "Ctrl+Shift+J")
        self.leave_action = self._act(f, "&Leave the network game", self.network.leave_game)
        self.leave_action.setEnabled(False)
        f.addSeparator()
        self._act(f, "&Quit", self.close, QKeySequence.StandardKey.Quit)
        e = menu["&Edit"]
        self.undo_action = self._act(e, "&Undo", self.undo, QKeySequence.StandardKey.Undo)
        self.redo_action = self._act(e, "&Redo", self.redo, "Ctrl+Shift+Z")
        self._act(e, "&Copy the log", self.log.copy, "Ctrl+Alt+C")
        self._act(e, "Select all in the &zone", self.select_zone, QKeySequence.StandardKey.SelectAll)
        v = menu["&View"]
        self._act(v, "Zoom &in", lambda: self.view.zoom(1.2), QKeySequence.StandardKey.ZoomIn)
        self._act(v, "Zoom &out", lambda: self.view.zoom(1 / 1.2), QKeySequence.StandardKey.ZoomOut)
        self._act(v, "&Fit to window", self.view.fit, "Ctrl+0")
        self._act(v, "F&ull screen", self.toggle_full_screen, "F11")
        self._act(v, "&Presenter mode", self.judges.toggle_presenter, "F5")
        self._act(v, "&Compare editions…", self.judges.compare_editions, "Ctrl+E")
        v.addSeparator()
        self.viewpoint_menu = v.addMenu("&Viewpoint")
        v.addAction(self.inspector_dock.toggleViewAction())
        v.addAction(self.log_dock.toggleViewAction())
        v.addAction(self.scenario_dock.toggleViewAction())
        v.addAction(self.rules_dock.toggleViewAction())
        self._act(v, "&Reset the layout", self.reset_layout)
        v.addSeparator()
        pm = v.addMenu("Card &pictures")
        self.pictures_action = self._act(pm, "&Download pictures (Scryfall)",
                                         self.set_picture_downloads, checkable=True)
        self.pictures_action.setChecked(
            str(settings.value("pictures/download", "true")).lower() == "true")
        self._act(pm, "Your &pictures folder…", self.choose_picture_folder)
        self._act(pm, "Picture &cache size…", self.set_picture_cache)
        # presenter keys: active only while presenting
        self.presenter_keys = []
        for key, slot in (("Space", lambda: self.scenario_panel.step()),
                          ("Right", lambda: self.scenario_panel.step()),
                          ("Left", lambda: self.scenario_panel.back()),
                          ("Escape", self.judges.toggle_presenter)):
            a = QAction(self)
            a.setShortcut(QKeySequence(key))
            a.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            a.triggered.connect(slot)
            a.setEnabled(False)
            self.addAction(a)
            self.presenter_keys.append(a)
        cm = menu["&Card"]
        self._act(cm, "&Tap or untap", lambda: self._on_card(
            lambda o: self.c.tap(o.cid, not o.tapped)), "Ctrl+Space")
        self._act(cm, "&Add a +1/+1 counter", lambda: self._on_card(
            lambda o: self.c.counters(o.cid, "+1/+1", 1)), "Alt+Up")
        self._act(cm, "&Remove a counter", lambda: self._on_card(
            lambda o: o.counters and self.c.counters(o.cid, next(iter(o.counters)), -1)),
                  "Alt+Down")
        self._act(cm, "Turn &face down or up", lambda: self._on_card(
            lambda o: self.c.turn_face(o.cid, not o.face_down)), "Ctrl+Shift+D")
        self._act(cm, "Re&veal or hide (in a hand)", lambda: self._on_card(
            lambda o: self.c.reveal(o.cid, not o.revealed)), "Ctrl+Shift+V")
        self._act(cm, "Put into library, &Nth from the top…", lambda: self._on_card(
            lambda o: card_menu.ask_nth(self.c, o.cid, o.owner)), "Ctrl+Shift+T")
        self._act(cm, "Put an a&bility of it on the stack…", lambda: self._on_card(
            lambda o: card_menu.ask_ability(self.c, o.cid)), "Ctrl+Shift+A")
        tm = menu["&Table"]
        self._act(tm, "&Draw a card", lambda: self.c.draw(self.seat()), "Ctrl+D")
        self._act(tm, "S&huffle your library", lambda: self.c.shuffle(self.seat()), "Ctrl+H")
        self._act(tm, "&Untap all", lambda: self.c.untap_all(self.seat()), "Ctrl+U")
        self._act(tm, "Create a &token…", self.create_token, "Ctrl+K")
        self._act(tm, "&Cleanup: discard to hand size", lambda: self.c.cleanup(self.seat()),
                  "Ctrl+L")
        self._act(tm, "Next &step", self.playtest.next_phase, "Ctrl+Right")
        self._act(tm, "&Next turn (with cleanup)", self.playtest.next_turn, "Ctrl+T")
        self.untap_action = self._act(tm, "The untap step &untaps", lambda on: settings.set_value(
            "turn/untap", bool(on)), checkable=True)
        self.draw_action = self._act(tm, "The dra&w step draws", lambda on: settings.set_value(
            "turn/draw", bool(on)), checkable=True)
        for a, key in ((self.untap_action, "turn/untap"), (self.draw_action, "turn/draw")):
            a.setChecked(str(settings.value(key, "true")).lower() == "true")
        tm.addSeparator()
        self._act(tm, "&Mulligan (London)", self.playtest.mulligan, "Ctrl+M")
        self._act(tm, "&Search your library…", self.playtest.search_library, "Ctrl+Shift+F")
        self._act(tm, "&Life total…", self.playtest.set_life, "Ctrl+Shift+I")
        self._act(tm, "&Roll a die", lambda: self.c.roll(self.seat(), 6), "Ctrl+Shift+R")
        self._act(tm, "&Flip a coin", lambda: self.c.roll(self.seat(), 2), "Ctrl+Shift+C")
        self._act(tm, "Clear your a&rrows", self.c.clear_arrows, "Ctrl+Shift+X")
        self._act(tm, "Your side&board…", self.playtest.show_sideboard, "Ctrl+Shift+B")
        tm.addSeparator()
        self.anyone_action = self._act(tm, "&Allow moving anyone's cards", self._set_anyone,
                                       checkable=True)
        self.anyone_action.setToolTip("Hot-seat play: every viewpoint may handle every card. "
                                      "Off, a player handles only their own cards and what "
                                      "they control; the judge handles everything.")
        from tabletop.ui.workbench import SetupCommands
        self.setup = SetupCommands(self)  # the judge's workbench
        self.setup.fill_menu(menu["&Setup"])
        self.scene.setup = self.setup
        h = menu["&Help"]
        self._act(h, "Rules of this &edition", self.show_rules, "F1")
        self._act(h, "&About Tabletop", self.about)
        self._fill_viewpoints()
        self._update_undo()
        self.network._network_controls()

    # attributes the menus make: asked for before the menus are made, they make them
    MENU_PARTS = frozenset({"recent_menu", "record_action", "undo_action", "redo_action",
                            "viewpoint_menu", "pictures_action", "presenter_keys",
                            "untap_action", "draw_action", "anyone_action", "leave_action", "setup"})

    def __getattr__(self, name: str) -> Any:
        if name in MainWindow.MENU_PARTS and not self.__dict__.get("_menus_built", True):
            self._build_menus()
            return self.__dict__[name]
        raise AttributeError(name)


    # ---- state changes ---------------------------------------------------------------
    def select_zone(self) -> None:
        """Ctrl+A: every card in the zone of the selected card, else of the zone under
        the mouse."""
        from PySide6.QtGui import QCursor
        sel = self.scene.selected_cards()
        key = sel[0].zone_key if sel else None
        if key is None:
            at = self.view.mapToScene(self.view.viewport().mapFromGlobal(QCursor.pos()))
            zone = self.scene.zone_at(at)
            key = zone.key if zone is not None else None
        if key is not None:
            n = self.scene.select_zone(key)
            self.show_message(f"{n} card{'s' * (n != 1)} selected: drag one to move them all")

    def _on_card(self, fn: Callable[[Handle], object]) -> None:
        """Run a Card-menu command on the selected card, if there is one."""
        items = self.scene.selected_cards()
        if not items:
            self.show_message("Select a card first (click it).")
            return
        obj = self.c.board.handle(items[0].oid)  # public status, never the face
        if obj is None or obj.zone is None:
            return
        fn(obj)

    def _set_anyone(self, on: bool) -> None:
        self.c.anyone = bool(on)
        self.show_message("Every viewpoint may now handle every card." if on else
                          "Each player handles only their own cards; the judge handles all.")

    def seat(self) -> str:
        """The player the Table menu acts for: the viewpoint, or the active player."""
        return self.c.viewer if self.c.viewer is not JUDGE else self.c.board.active

    def _on_reset(self) -> None:
        self.edition_box.setCurrentIndex(self.edition_box.findData(self.c.board.edition.id))
        self.viewpoint_box.clear()
        for label, who in self._viewpoints():
            self.viewpoint_box.addItem(label, who)
        self.viewpoint_box.setCurrentIndex(self.viewpoint_box.findData(self.c.viewer))
        self.network._network_controls()
        if self._menus_built:
            self._fill_viewpoints()
            self._update_undo()
        self.view.fit()
        self._restore_screen()
        self._reveal_follows_viewpoint()
        self._update_title()
        self.show_message("")  # nothing said about an earlier table survives it
        self._autosave()

    def _viewpoints(self) -> list[tuple[str, str | None]]:
        """(label, viewer) of each viewpoint: the players, then the judge."""
        return [(p, p) for p in self.c.board.players] + [("Judge (sees all)", JUDGE)]

    def _fill_viewpoints(self) -> None:
        """View > Viewpoint: one checkable command per viewpoint, Ctrl+1… and Ctrl+J."""
        from PySide6.QtGui import QActionGroup, QKeySequence
        self.viewpoint_menu.clear()
        group = QActionGroup(self)
        for i, (label, who) in enumerate(self._viewpoints()):
            a = QAction(label, self, checkable=True)
            a.setChecked(who == self.c.viewer)
            a.setShortcut(QKeySequence("Ctrl+J" if who is JUDGE else f"Ctrl+{i + 1}"))
            a.triggered.connect(lambda _=False, w=who: self.c.set_viewer(w))
            group.addAction(a)
            self.viewpoint_menu.addAction(a)

    def _update_title(self) -> None:
        """The game's file (or its decks), unsaved changes, the rules edition."""
        game = self.c.board.game_name()
        name = escape_names(self.path.name) if self.path else (game or "new table")
        if self.path and game:
            name += f" — {game}"
        s = self.c.session
        if s is not None:  # (the host's view carries no deck names: say whose seat it is)
            from tabletop.net.rooms import JUDGE_SEAT, SPECTATOR
            who = "the judge" if s.seat == JUDGE_SEAT else "a spectator" \
                if s.seat == SPECTATOR else s.seat
            name = f"{'hosting' if s.hosted is not None else 'network'} game, as " \
                f"{escape_names(who)}"
        panel = self._scenario_panel
        if panel is not None and panel.session is not None and panel.scenario is not None \
                and self.c.game() is panel.session.run.table:  # a scenario's table
            title = "".join(ch for ch in " ".join(panel.scenario.title.split())
                            if ch.isprintable())  # a file's words: one plain line
            name = f"Scenario: {title[:120]}"
        mark = " *" if self.c.dirty else ""
        self.setWindowTitle(f"Tabletop — {name}{mark} — {self.c.board.edition.id}")

    def _note_screen(self) -> None:
        """Keep in the game how it is shown (viewpoint, zoom, open viewers), so a save or
        a crash restore looks as it was left. A library's viewer is not kept: opening one
        is a search or a look that everyone is told of, not something to do again."""
        if self.c.session is not None:
            return
        screen: dict[str, Any] = {"viewer": self.c.viewer}
        if not self.view.fit_on_resize:
            centre = self.view.mapToScene(self.view.viewport().rect().center())
            screen["zoom"] = min(20.0, max(0.05, round(self.view.transform().m11(), 4)))
            screen["centre"] = [min(20000.0, max(0.0, round(centre.x(), 1))),
                                min(20000.0, max(0.0, round(centre.y(), 1)))]
        keys = [list(v.key) for v in getattr(self.scene, "viewers", [])
                if v.key[1] != Zone.LIBRARY and v.key in self.c.board.counts()]
        if keys:
            screen["viewers"] = keys[:20]
        self.c.keep_screen(screen)

    def _restore_screen(self) -> None:
        """A game opened or restored: shown as it was when saved (its zoom and viewers;
        the controller has already taken its viewpoint)."""
        game = self.c.game()
        if self._screen_of is game:
            return
        self._screen_of = game
        screen = self.c.screen()
        if "zoom" in screen:
            self.view.resetTransform()
            self.view.zoom(screen["zoom"])
            if "centre" in screen:
                self.view.centerOn(*screen["centre"])
        keys = [(k[0], k[1]) for k in screen.get("viewers", [])]
        if keys:  # once the reset that closes every viewer is over
            QTimer.singleShot(0, lambda: self._open_viewers(game, keys))

    def _open_viewers(self, game: object, keys: list[ZoneKey]) -> None:
        if self.c.game() is not game:
            return
        counts = self.c.board.counts()
        for key in keys:
            if key in counts and key[1] != Zone.LIBRARY:
                self.scene.view_zone(key)

    def _screen_moved(self) -> None:
        """A viewer opened or closed, the zoom changed: the autosave follows soon (the
        zoom's steps are gathered, not written one by one)."""
        if self.autosave is not None and self.c.dirty:
            self._screen_timer.start()

    def _autosave(self) -> None:
        """Keep the autosave equal to the game while it has unsaved changes; a game with
        none (new, opened, just saved) leaves nothing to restore."""
        if self.autosave is None or not self.autosave.active or self.c.session is not None:
            return  # a network game is kept by its host
        if not self.c.dirty:
            self.autosave.clear()
            return
        self._note_screen()
        if not self.c.autosave_to(self.autosave):
            self.show_message(self.autosave.error or "The game could not be kept.")

    def confirm_discard(self, what: str) -> bool:
        """The unsaved-changes guard: True when the current game may be replaced (and
        with it the scenario open in the dock, whose edits are asked about first)."""
        from tabletop.ui import dialogs
        panel = self._scenario_panel
        if panel is not None and panel.edited and panel.scenario is not None:
            answer = dialogs.save_discard_cancel(
                self, what, "Unsaved scenario edits",
                f"The scenario “{panel.scenario.title}” has edits that are not saved to "
                f"its file.")
            if answer == "cancel" or (answer == "save" and not panel.save_as()):
                return False
            panel.edited = False  # kept, or given up: the player said which
        if not self.c.dirty:
            return True
        answer = dialogs.save_discard_cancel(self, what)
        if answer == "save":
            return self.save_game()
        return answer == "discard"

    def _on_changed(self, result: Result | None) -> None:
        self._update_undo()
        self._update_title()
        self._autosave()
        self._revealed(result)
        if result is None:
            self.scene.sync(None)
            return
        self.show_message(self.status_text(result))  # the last action's words, or none

    def _revealed(self, result: Result | None) -> None:
        """Cards just revealed to this viewpoint open in a window (at a network table, as
        the host says, once for each reveal)."""
        s = self.c.session
        if s is not None:
            got = s.shown
            if got is not None and got[0] != self._reveal_seen:
                self._reveal_seen = got[0]
                self._open_reveal(got[1])
            return
        if result is not None and any(e.kind == EventKind.SHOWN for e in result.events):
            shown = self.c.board.shown()
            if shown is not None:
                self._open_reveal(shown)

    def _open_reveal(self, shown: Shown) -> None:
        from shiboken6 import isValid

        from tabletop.ui.zone_viewer import RevealWindow
        w = self.reveal_window
        if w is None or not isValid(w):
            w = self.reveal_window = RevealWindow(self)
        w.show_cards(shown)
        w.show()
        w.raise_()

    def _reveal_follows_viewpoint(self) -> None:
        """Another viewpoint (or table): an open reveal window shows what this one was
        shown, or closes when it was shown nothing."""
        from shiboken6 import isValid
        w = self.reveal_window
        if w is None or not isValid(w) or not w.isVisible() or self.c.session is not None:
            return
        shown = self.c.board.shown()
        if shown is None:
            w.close()
        else:
            w.show_cards(shown)

    def status_text(self, result: Result) -> str:
        """The last action in words, as the viewpoint may know it (views.tell): a card
        the viewer may not see is not named, and no rule is cited for it."""
        t = self.c.board
        lines = []
        for e in result.events:
            told = t.tell(e)
            if e.kind in (EventKind.MOVED, EventKind.CREATED, EventKind.SHUFFLED, EventKind.COUNTERS, EventKind.TAPPED, EventKind.UNTAPPED):
                if told.cites and e.kind != EventKind.MOVED:
                    lines.append(told.text + f" ({t.edition.marks(told.cites)})")
                continue
            text = told.text
            if told.cites:
                first = told.cites[0]
                summary = t.edition.summary(first) or ""
                text += f" — {t.edition.mark(first)}: {summary}"
            lines.append(text)
            # where an edition's number comes from is the log's to say (once a game)
            outside = set(editions.outside_notes(t.edition, told.cites))
            lines.extend(n for n in told.notes if n not in outside)
        return " · ".join(lines)

    def show_message(self, text: str) -> None:
        """The status line: plain text (escaped), its rule numbers links to the rules."""
        self._message = text
        if not text:  # (the start-up's own, which need not load the rules browser)
            self.status.clear()
            self.status.setToolTip("")
            return
        from tabletop.ui.dialogs import plain_tooltip
        from tabletop.ui.rules_browser import linked
        self.status.setTextFormat(Qt.TextFormat.RichText)
        self.status.setText(linked(text, self.c.board.edition.rules))
        self.status.setToolTip(plain_tooltip(text))

    def message(self) -> str:
        """The status line's text, as plain text."""
        return getattr(self, "_message", "")

    def open_rule(self, number: str, edition: str | None = None) -> None:
        """Show a rule in the rules browser (every rule number in the window leads here);
        ``edition``: another edition's rule (a comparison), else the table's."""
        if not number:
            return
        self.rules_dock.show()
        self.rules_dock.raise_()
        self.rules_browser.open_rule(number, edition)

    def _log_rule(self, item: QListWidgetItem) -> None:
        from tabletop.ui.rules_browser import first_number
        n = first_number(item.text())
        if n is not None:
            self.open_rule(n)

    def _update_undo(self) -> None:
        if not self._menus_built:
            return  # the Edit menu is made after the first frame, and says it then
        s = self.c.session
        if s is not None:  # over the network: your own last action, or ask everyone
            own = bool((s.view or {}).get("can_undo"))
            self.undo_action.setEnabled(s.seat != "spectator")
            self.undo_action.setText("&Undo your last action" if own else
                                     "&Undo: ask the players to undo the last action")
            self.redo_action.setEnabled(False)
            self.redo_action.setText("&Redo")
            return
        undo, redo = self.c.undo_status()
        self.undo_action.setEnabled(undo is not None)
        self.redo_action.setEnabled(redo is not None)
        self.undo_action.setText(f"&Undo {undo}" if undo else "&Undo")
        self.redo_action.setText(f"&Redo {redo}" if redo else "&Redo")

    # ---- commands ----------------------------------------------------------------------
    def undo(self) -> None:
        """Edit > Undo: the status line names what was taken back, once."""
        title = self.c.undo_status()[0]
        if self.c.undo():
            self.show_message(f"Undone: {title}." if title else "Undone.")

    def redo(self) -> None:
        title = self.c.undo_status()[1]
        if self.c.redo():
            self.show_message(f"Redone: {title}." if title else "Redone.")

    def new_table(self, empty: bool = False) -> None:
        if not self.confirm_discard("start a new table"):
            return
        self.path = None
        self.c.new_table(empty=empty)

    def _edition_chosen(self, index: int) -> None:
        ed = self.edition_box.itemData(index)
        if ed == self.c.board.edition.id:
            return
        if self.c.history_length():  # a game under way: replay it, or start afresh
            from tabletop.ui import dialogs
            answer = dialogs.choose(
                self, "Change the rules edition",
                f"Replay this game (its starting position and every action since) under "
                f"{ed}, and see which steps turn out differently? Or start a new table?",
                ["Replay the game", "New table"])
            if answer == "Replay the game":
                if not self.judges.replay_under(ed):
                    self.edition_box.setCurrentIndex(
                        self.edition_box.findData(self.c.board.edition.id))
                return
            if answer is None:
                self.edition_box.setCurrentIndex(
                    self.edition_box.findData(self.c.board.edition.id))
                return
        if not self.confirm_discard(f"start a new table under {ed}"):
            self.edition_box.setCurrentIndex(self.edition_box.findData(self.c.board.edition.id))
            return
        self.path = None
        empty = not any(self.c.board.counts().values())  # a table being set up stays empty
        self.c.new_table(edition=ed, empty=empty)
        settings.set_value("last_edition", ed)

    def toggle_full_screen(self) -> None:
        self.showNormal() if self.isFullScreen() else self.showFullScreen()

    def create_token(self, player: str | None = None) -> None:
        """The token dialog: name, power/toughness, colours, types, how many."""
        from tabletop.ui.token_dialog import TokenDialog
        dlg = TokenDialog(self, list(self.c.board.players), player or self.seat(), self.c.token_kinds())
        if dlg.exec():
            self.c.create_tokens(dlg.card(), dlg.player.currentData(), dlg.count.value(),
                                 dlg.tapped.isChecked())

    # ---- card pictures ---------------------------------------------------------------------
    def set_picture_downloads(self, on: bool) -> None:
        from tabletop.ui import pictures
        settings.set_value("pictures/download", "true" if on else "false")
        pictures.store().forget()
        self.scene.pictures_changed()

    def choose_picture_folder(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        from tabletop.ui import pictures
        folder = QFileDialog.getExistingDirectory(
            self, "Your pictures folder (one picture per card name, e.g. Hill Giant.jpg)",
            str(pictures.user_folder()))
        if folder:
            settings.set_value("pictures/folder", folder)
            pictures.store().forget()
            self.scene.pictures_changed()

    def set_picture_cache(self) -> None:
        from PySide6.QtWidgets import QInputDialog

        from tabletop.ui import pictures
        mb, ok = QInputDialog.getInt(self, "Picture cache",
                                     "Keep at most this many megabytes of downloaded "
                                     "pictures\n(the oldest go first):",
                                     pictures.cache_limit() >> 20, 0, 100_000)
        if ok:
            settings.set_value("pictures/cache_mb", mb)

    def error(self, title: str, text: str) -> None:
        from tabletop.ui import dialogs
        dialogs.warn(self, title, text)

    def open_game(self) -> None:
        from PySide6.QtWidgets import QFileDialog
        if not self.confirm_discard("open another game"):
            return
        path, _ = QFileDialog.getOpenFileName(self, "Open game", str(settings.save_folder()),
                                              "Tabletop games (*.tabletop);;All files (*)")
        if path:
            names_from_outside([path])  # a line feed in its name is shown escaped
            self.load_game(Path(path), asked=True)

    def load_game(self, path: Path, asked: bool = False, table: Table | None = None) -> bool:
        """Open a saved game; ``table``: the game already read from ``path``."""
        if not asked and not self.confirm_discard("open another game"):
            return False
        try:
            from tabletop.engine import saves
            table = table if table is not None else saves.load(path)
        except TabletopError as e:
            self.error("Cannot open the game", str(e))
            return False
        self.path = path
        settings.add_recent(path)
        self.playtest._fill_recent()
        self.c.set_table(table)
        return True

    def save_game(self) -> bool:
        """Save to the game's file (asking for one the first time); True when saved."""
        if self.path is None:
            return self.save_game_as()
        return self._write(self.path)

    def save_game_as(self) -> bool:
        from PySide6.QtWidgets import QFileDialog
        folder = settings.save_folder(self.path.parent if self.path is not None else None)
        name = self.path.name if self.path is not None else "game.tabletop"
        path, _ = QFileDialog.getSaveFileName(self, "Save game", str(folder / name),
                                              "Tabletop games (*.tabletop)")
        if not path:
            return False
        p = Path(path)
        if p.suffix != ".tabletop":
            p = p.with_suffix(".tabletop")
        if not self._write(p):
            return False
        self.path = p
        settings.add_recent(p)
        self.playtest._fill_recent()
        self._update_title()
        return True

    def _write(self, path: Path) -> bool:
        try:
            self._note_screen()
            self.c.save_to(path)
        except OSError as e:
            self.error("Cannot save the game", f"{path}: {e.strerror or e}")
            return False
        except TabletopError as e:  # the file on disk is left as it was
            self.error("Cannot save the game", f"{path}: {e}")
            return False
        self.c.dirty = False
        self._update_title()
        self._autosave()
        self.show_message(f"Saved {path}")
        return True

    def import_rules(self) -> None:
        from PySide6.QtWidgets import QFileDialog
        path, _ = QFileDialog.getOpenFileName(self, "Import rules text", str(settings.documents()),
                                              "Rules text (*.txt *.rst *.html);;All files (*)")
        if not path:
            return
        names_from_outside([path])
        try:
            from tabletop.engine import rulestext
            rt, _dest = rulestext.import_file(path)
        except TabletopError as e:
            self.error("Cannot import the rules text", str(e))
            return
        except OSError as e:
            self.error("Cannot store the rules text", str(e))
            return
        self.show_message(f"Imported {rt.describe()}.")
        self.inspector.refresh()

    def export_picture(self) -> None:
        from PySide6.QtWidgets import QFileDialog
        path, _ = QFileDialog.getSaveFileName(self, "Export picture", str(settings.documents()),
                                              "PNG images (*.png)")
        if path:
            self.grab().save(path)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if not self.first_painted and event.type() == QEvent.Type.Paint \
                and obj is self.view.viewport():
            self.first_painted = True
            obj.removeEventFilter(self)
            QTimer.singleShot(0, self._run_after_first_frame)
        return False

    def after_first_frame(self, work: Callable[[], object]) -> None:
        """Run ``work`` once the table has been painted for the first time (at once if
        it has been)."""
        if self.first_painted:
            work()
        else:
            self._after_first_frame.append(work)

    def _run_after_first_frame(self) -> None:
        """The work after the first frame, one piece at a time, each in a turn of the event
        loop of its own, in the order it was asked for: a click or a key pressed meanwhile
        waits for the piece under way (the longest, the intents' classes or the menus, some
        30-60 ms), not for all of it (70-180 ms)."""
        if not self._after_first_frame:
            return
        work = self._after_first_frame.pop(0)
        try:
            work()
        finally:
            if self._after_first_frame:
                QTimer.singleShot(0, self, self._run_after_first_frame)

    @property
    def inspector(self) -> Inspector:
        """The inspector dock's browser (inspector.py), made just after the first frame or
        when first needed."""
        if self._inspector is None:
            self._inspector = Inspector(self.c)
            self._inspector.rule_clicked.connect(self.open_rule)
            self.inspector_dock.setWidget(self._inspector)
        return self._inspector

    @property
    def scenario_panel(self) -> ScenarioPanel:
        """The scenario player (scenario_panel.py), made the first time it is needed."""
        if self._scenario_panel is None:
            from tabletop.ui.scenario_panel import ScenarioPanel
            panel = self._scenario_panel = ScenarioPanel(self.c)
            panel.guard = self.confirm_discard
            panel.rule_clicked.connect(self.open_rule)
            panel.stepped.connect(self.judges.show_step)
            # in a scroll area: on a short screen (1024x600) its lines keep the height
            # their words need, and it scrolls once the inspector has given what it can
            from PySide6.QtWidgets import QScrollArea
            scroll = QScrollArea()
            scroll.setWidgetResizable(True)
            scroll.setFrameShape(QScrollArea.Shape.NoFrame)
            scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
            scroll.setWidget(panel)
            self.scenario_dock.setWidget(scroll)
        return self._scenario_panel

    @property
    def rules_browser(self) -> RulesBrowser:
        """The rules browser (rules_browser.py), made the first time it is shown or used."""
        if self._rules_browser is None:
            from tabletop.ui.rules_browser import RulesBrowser
            self._rules_browser = RulesBrowser(self.c)
            self.rules_dock.setWidget(self._rules_browser)
        return self._rules_browser

    @property
    def presenter(self) -> Presenter:
        """Presenter mode's stage (presenter.py), made the first time it is needed."""
        if self._presenter is None:
            from tabletop.ui.presenter import Presenter
            self._presenter = Presenter(self)
        return self._presenter

    def show_rules(self) -> None:
        """F1: the rules browser, on the table's edition, its search field ready."""
        self.rules_dock.show()
        self.rules_dock.raise_()
        b = self.rules_browser
        b._follow_table()
        b.search.setFocus()
        b.search.selectAll()

    def about(self) -> None:
        from PySide6.QtWidgets import QMessageBox
        QMessageBox.about(self, "About Tabletop",
                          f"Tabletop {__version__}\nA Magic: The Gathering table whose every "
                          "move is checked by a zone-rules engine that cites the rule.")

    def _chooser(self, obj: Obj) -> Chooser:
        """When several replacement effects apply, or an optional one does, ask."""
        from PySide6.QtWidgets import QInputDialog

        def choose(o: Obj, candidates: list[Effect]) -> Effect | None:
            if len(candidates) == 1 and not candidates[0].optional:
                return candidates[0]
            if len(candidates) == 1 and candidates[0].label == "commander":
                return commander(o, candidates[0])
            labels = [f"{e.source or e.label} ({e.watch} → {e.instead})" for e in candidates]
            if all(e.optional for e in candidates):
                labels.append("Decline")
            name = self.c.board.choice_of(o.cid, self.c.viewer).name
            who, role = views.replacement_chooser(o)
            rule = ", ".join(self.c.board.edition.cite("replacement")) or "of this edition"
            item, ok = QInputDialog.getItem(
                self, "Replacement effects",
                f"{who}, {'its' if name == 'a hidden card' else name + chr(39) + 's'} {role}, "
                f"chooses which applies first (rule {rule}).", labels, 0, False)
            if not ok or item == "Decline":
                return None
            return candidates[labels.index(item)]

        def commander(o: Obj, rule: Effect) -> Effect | None:
            """The rules' own replacement for a commander: a question for its owner."""
            from tabletop.ui import dialogs
            ed = self.c.board.edition
            name = self.c.board.choice_of(o.cid, self.c.viewer).name
            headed = ed.zone_name(rule.watch).lower()
            answer = dialogs.choose(
                self, "Your commander",
                f"{name} would be put into {o.owner}'s {headed}. Its owner may put it "
                f"into the command zone instead ({rule.source}).",
                ["Command zone", f"Into the {headed}"])
            return rule if answer == "Command zone" else None
        return choose

    def end_session(self) -> None:
        """Interrupted (SIGTERM, logout): write the game and close without asking; the
        next start offers to restore a game that was not saved to a file."""
        self.ending = True
        self._autosave()
        editor = self.playtest.editor
        if editor is not None and editor.isVisible():
            editor.end_session()  # its unsaved deck kept in a file, closed without asking
        self.close()

    def closeEvent(self, event: QCloseEvent) -> None:
        editor = self.playtest.editor
        if not self.ending and editor is not None and editor.isVisible() \
                and not editor.close():  # its unsaved deck asked about first: Cancel
            event.ignore()  # keeps both windows
            return
        if self.c.session is not None:  # a hosted game comes back whole, to be saved
            if self.c.session.hosted is not None and not self.ending:
                from tabletop.ui import dialogs
                if not dialogs.ask(self, "Stop hosting?", "Quitting ends the network game "
                                   "for the other players."):
                    event.ignore()
                    return
            self.network._end_session()
        if not self.ending and not self.confirm_discard("quit"):
            event.ignore()
            return
        if self.autosave is not None:
            if self.ending:
                self._autosave()
            self.autosave.end(keep=self.ending and self.c.dirty)
        settings.save_window(self)
        super().closeEvent(event)
