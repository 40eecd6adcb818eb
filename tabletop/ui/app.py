"""Starting the GUI, and its headless entry points (--screenshot, --self-test)."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterator
from types import FrameType
from typing import TYPE_CHECKING, Any

from tabletop.engine.model import Zone

if TYPE_CHECKING:  # (start-up imports them itself, when it needs them)
    from PySide6.QtCore import QMessageLogContext, QtMsgType
    from PySide6.QtWidgets import QApplication

    from tabletop.ui.controller import TableController
    from tabletop.ui.main_window import MainWindow


def scripted_actions(c: TableController, n: int, seed: int = 7) -> Iterator[int]:
    """Seeded random actions through a controller; yields the count after each one."""
    import random
    rng = random.Random(seed)
    zones = [Zone.HAND, Zone.BATTLEFIELD, Zone.GRAVEYARD, Zone.EXILE, Zone.LIBRARY]
    for k in range(1, n + 1):
        what = rng.random()
        player = rng.choice(c.board.players)
        if what < 0.6:
            c.drop(rng.choice(c.card_ids()), rng.choice(zones), player)
        elif what < 0.8:
            c.draw(player)
        elif what < 0.9:
            c.shuffle(player)
        else:
            c.undo() or c.draw(player)
        yield k


def scripted_session(window: MainWindow, n: int, seed: int = 7) -> None:
    """The crash-safety test's session: each action is autosaved before it is
    reported done, and the test kills the process in between."""
    for k in scripted_actions(window.c, n, seed):
        print(f"done {k} {window.c.history_length()}", flush=True)


def handle_termination(app: QApplication, window: MainWindow) -> None:
    """SIGTERM, SIGHUP (a closed terminal) and the session manager's logout save the
    game and close the window without asking; the next start offers the game back.

    Python runs a signal handler only when it gets control, so the signal also
    writes to a pipe that Qt's event loop watches (``signal.set_wakeup_fd``)."""
    import signal

    from PySide6.QtCore import QSocketNotifier

    app.commitDataRequest.connect(lambda _manager: window.end_session())
    if not hasattr(signal, "SIGTERM") or sys.platform == "win32":
        return
    read_fd, write_fd = os.pipe()
    os.set_blocking(read_fd, False)
    os.set_blocking(write_fd, False)
    signal.set_wakeup_fd(write_fd)
    notifier = QSocketNotifier(read_fd, QSocketNotifier.Type.Read, window)

    def drain() -> None:
        with contextlib.suppress(OSError):
            os.read(read_fd, 256)
    notifier.activated.connect(drain)
    # the notifier is the window's child: it lives as long as the window

    def on_signal(signum: int, frame: FrameType | None) -> None:
        window.end_session()
        app.quit()
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), on_signal)


def set_icon(app: QApplication) -> None:
    from PySide6.QtGui import QIcon

    from tabletop import resources
    app.setWindowIcon(QIcon(str(resources.path("icons", "tabletop-256.png"))))


def tend_collector(app: QApplication) -> None:
    """The collector as Tabletop's processes run it (tabletop/collector.py): the
    youngest objects walked less often, and what has lived a second set aside, so a
    long game is not held up by walks of everything it holds."""
    from PySide6.QtCore import QTimer

    from tabletop import collector
    collector.tune()
    tender = collector.Tender()
    timer = QTimer(app)
    timer.setObjectName("collector")
    # (a function holding the tender: Qt keeps only a weak hold of a bound method's
    # object, and the tender would go with this function's frame)
    timer.timeout.connect(lambda: tender.tick())
    timer.start(1000)


def quick_source_scan() -> None:
    """PySide6 looks through the source of each module imported (is `PySide6` in it? a
    module that uses it may turn on a ``__feature__``, PYSIDE-2029) with
    ``inspect.getsource``: each file read, decoded and kept line by line in ``linecache``,
    about 18 ms of the start-up for 60 modules. The same question is answered here from
    the file's bytes. A PySide6 without that look, or a module with no source file, is
    left to PySide6's own way."""
    feature = sys.modules.get("shibokensupport.feature")
    slow = getattr(feature, "_mod_uses_pyside", None)
    if not callable(slow) or getattr(slow, "quick", False):
        return

    def uses_pyside(module: Any) -> bool:
        path = getattr(module, "__file__", None)
        if isinstance(path, str) and path.endswith(".py"):
            try:
                with open(path, "rb") as f:
                    return b"PySide6" in f.read()
            except OSError:
                pass
        return bool(slow(module))
    uses_pyside.quick = True  # type: ignore[attr-defined]
    feature._mod_uses_pyside = uses_pyside  # type: ignore[union-attr]


def run_gui(args: argparse.Namespace) -> int:
    args.game = None
    if getattr(args, "file", None):  # `tabletop FILE`, as the desktop file's Exec=tabletop %f
        if args.file.lower().endswith(".tabletop"):
            args.game = args.file
        elif not args.scenario:
            args.scenario = args.file
    if args.scenario:
        from tabletop.scenario.library import resolve
        args.scenario = resolve(args.scenario)  # a bundled scenario's name works too
    headless = bool(args.screenshot or args.self_test or args.scripted_session
                    or args.restore_last or args.report_first_frame or args.then_wait)
    if headless:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    # The first table is dealt before Qt is loaded: once PySide6 is, its import hook
    # looks at every module imported after it, and the engine is pure Python (4 ms).
    from tabletop.cards import demo
    from tabletop.engine import views  # noqa: F401  (the window draws from the views)
    from tabletop.engine.errors import TabletopError
    try:  # the window's own first deal is nobody's to know (it may be hosted); a
        # headless run's is the same each time (the pictures and checks made of it)
        table = demo.new_game(seed=1 if headless else None,
                              **({"edition": args.edition} if args.edition else {}))
    except TabletopError as e:
        print(f"tabletop: {e}", file=sys.stderr)
        return 2
    from PySide6.QtWidgets import QApplication
    quick_source_scan()

    from tabletop.ui import errors
    from tabletop.ui.controller import TableController
    from tabletop.ui.main_window import MainWindow

    if headless:
        from PySide6.QtCore import qInstallMessageHandler

        def quiet(mode: QtMsgType, context: QMessageLogContext, message: str) -> None:
            # the offscreen platform's harmless notices
            if "propagateSizeHints" not in message:
                sys.stderr.write(message + "\n")
        qInstallMessageHandler(quiet)
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(sys.argv[:1])
    app.setApplicationName("Tabletop")
    from tabletop.ui import settings
    controller = TableController(table)
    last = settings.value("last_edition")
    if not args.edition and isinstance(last, str) and last != controller.board.edition.id \
            and not headless:  # the table opens under the edition used last time
        # an edition this version does not have: the default one
        with contextlib.suppress(TabletopError):
            controller.new_table(edition=last)
    autosave = None
    crashed = False
    if not headless or args.scripted_session or args.restore_last or args.then_wait:
        from tabletop.ui.autosave import Autosave
        autosave = Autosave(args.data_dir)
        crashed = autosave.crashed_before()
    if args.restore_last:
        if not crashed or autosave is None:
            print("nothing to restore")
            return 1
        try:
            table = autosave.restore()
        except TabletopError as e:
            print(f"tabletop: {e}", file=sys.stderr)
            return 2
        print(f"restored {len(table.history)} actions")
        return 0
    # The window does not autosave until the question below is answered: the new
    # table it starts with must not overwrite the game that may be restored.
    asking = crashed and not args.scenario and autosave is not None
    if asking and not headless:  # behind the question, no other game than the one asked
        controller.new_table(empty=True)  # about: a fresh deal there looked like its loss
    window = MainWindow(controller, autosave=autosave)
    # the icon (the window list's, the task bar's) follows the table's first frame by a
    # moment; loading it and Qt's icon class first cost that frame 3 ms
    window.after_first_frame(lambda: set_icon(app))
    errors.install(lambda: window, show_dialog=not headless)
    from tabletop.ui import dialogs
    if asking and autosave is not None:
        if not headless:
            window.show()
        if dialogs.ask(window, "Restore the last game?",
                       "Tabletop did not close normally last time. Restore the game as it was "
                       "after its last action?"):
            try:
                controller.set_table(autosave.restore(), dirty=True)
            except TabletopError as e:
                if not headless:  # a game to play meanwhile, dealt afresh
                    controller.new_table()
                kept = autosave.set_aside()
                dialogs.warn(window, "Cannot restore the game",
                             str(e) + (f"\n\nThe file is kept as {kept}." if kept else ""))
        else:
            if not headless:  # the new game the player chose, dealt afresh
                controller.new_table()
            kept = autosave.set_aside()
            if kept is not None:
                window.show_message(f"The last game is kept as {kept}.")
    if autosave is not None:
        autosave.begin()
        if autosave.error:
            window.show_message(f"Autosave is off: {autosave.error}")
        elif autosave.shared:
            window.show_message(f"Another Tabletop is open on the same folder: this window "
                                f"autosaves to {autosave.path.name}.")
        window._autosave()
        deck_kept = settings.value("deck_kept")  # the deck editor's, when it was interrupted
        if isinstance(deck_kept, str) and deck_kept:
            settings.set_value("deck_kept", "")
            if not window.message():  # (what the autosave says comes first)
                window.show_message(f"The deck editor's unsaved deck was kept as {deck_kept} "
                                    f"(File > Deck editor, then File > Open recent).")
    # once the table is on screen: a signal before that has no game to save
    window.after_first_frame(lambda: handle_termination(app, window))
    window.after_first_frame(lambda: tend_collector(app))
    if args.game:
        from pathlib import Path

        from tabletop.engine import saves
        try:
            game = saves.load(args.game)  # read (and check) once: a bad file gets one message
        except TabletopError as e:
            if headless:
                print(f"tabletop: {e}", file=sys.stderr)
                return 2
            dialogs.warn(window, "Cannot open the game", str(e))
        else:  # the unsaved-changes guard asks if need be
            window.load_game(Path(args.game), table=game)
    if args.scenario:
        from pathlib import Path

        from tabletop.scenario import load
        try:
            load(args.scenario)  # check it first: a bad file gets one message, no window
        except TabletopError as e:
            if headless:
                print(f"tabletop: {e}", file=sys.stderr)
                return 2
            dialogs.warn(window, "Cannot open the scenario", str(e))
        else:
            window.judges.open_scenario(Path(args.scenario))
    if args.viewpoint:
        if args.viewpoint.lower() == "judge":
            controller.set_viewer(None)
        elif args.viewpoint in controller.board.players:
            controller.set_viewer(args.viewpoint)
        else:
            print(f"tabletop: unknown viewpoint {args.viewpoint!r} (players: "
                  f"{', '.join(controller.board.players)}, or judge)", file=sys.stderr)
            return 2
    if args.scripted_session:
        scripted_session(window, args.scripted_session)
        if not args.then_wait:
            return 0
    if args.then_wait:  # the termination test: run until a signal ends the session
        window.show()
        window.after_first_frame(lambda: print("ready", flush=True))  # the handlers are in
        return app.exec()
    if args.self_test:
        from tabletop.ui.selftest import self_test
        ok, report = self_test(window)
        print(report)
        return 0 if ok else 1
    if args.screenshot:
        window.resize(1600, 1000)
        window.show()
        app.processEvents()
        window.view.fit()
        app.processEvents()
        if not window.grab().save(args.screenshot):
            print(f"tabletop: cannot write {args.screenshot}", file=sys.stderr)
            return 2
        return 0
    if args.report_first_frame:  # the GUI benchmark: print the clock at the first paint, quit
        import time

        from PySide6.QtCore import QEvent, QObject

        class FirstFrame(QObject):
            def eventFilter(self, obj: QObject, event: QEvent) -> bool:
                if event.type() == QEvent.Type.Paint:
                    import resource  # and the most resident memory so far, in MB
                    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
                    print(f"{time.time():.4f} {rss:.1f}", flush=True)
                    os._exit(0)
                return False
        first_frame = FirstFrame(window)  # kept by the window, its parent
        window.view.viewport().installEventFilter(first_frame)
    window.show()
    window.started = True  # start-up is over (restore question, files to open): the loop runs
    return app.exec()
