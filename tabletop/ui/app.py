"""Starting the GUI, and its headless entry points (--screenshot, --self-test)."""

from __future__ import annotations

import os
import sys


def scripted_actions(c, n: int, seed: int = 7):
    """Seeded random actions through a controller; yields the count after each one."""
    import random
    rng = random.Random(seed)
    t = c.table
    zones = ["hand", "battlefield", "graveyard", "exile", "library"]
    for k in range(1, n + 1):
        what = rng.random()
        player = rng.choice(t.players)
        if what < 0.6:
            cids = [cid for cid in t.current if t.live(cid) is not None]
            c.drop(rng.choice(cids), rng.choice(zones), player)
        elif what < 0.8:
            c.draw(player)
        elif what < 0.9:
            c.shuffle(player)
        else:
            c.undo() or c.draw(player)
        yield k


def scripted_session(window, n: int, seed: int = 7) -> None:
    """The crash-safety test's session: each action is autosaved before it is
    reported done, and the test kills the process in between."""
    for k in scripted_actions(window.c, n, seed):
        print(f"done {k} {len(window.c.table.history)}", flush=True)


def run_gui(args) -> int:
    headless = bool(args.screenshot or args.self_test or args.scripted_session
                    or args.restore_last or args.report_first_frame)
    if headless:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication, QMessageBox

    from tabletop.engine.errors import TabletopError
    from tabletop.ui import errors
    from tabletop.ui.controller import TableController
    from tabletop.ui.main_window import MainWindow

    if headless:
        from PySide6.QtCore import qInstallMessageHandler

        def quiet(mode, context, message):  # the offscreen platform's harmless notices
            if "propagateSizeHints" not in message:
                sys.stderr.write(message + "\n")
        qInstallMessageHandler(quiet)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Tabletop")
    from PySide6.QtGui import QIcon

    from tabletop import resources
    app.setWindowIcon(QIcon(str(resources.path("icons", "tabletop-256.png"))))
    from tabletop.ui import settings
    controller = TableController()
    last = settings.value("last_edition")
    if not args.edition and isinstance(last, str) and last != controller.table.edition.id \
            and not headless:
        args.edition = last  # the table opens under the edition used last time
    if args.edition:
        try:
            controller.new_table(edition=args.edition)
        except TabletopError as e:
            print(f"tabletop: {e}", file=sys.stderr)
            return 2
    autosave = None
    crashed = False
    if not headless or args.scripted_session or args.restore_last:
        from tabletop.ui.autosave import Autosave
        autosave = Autosave(args.data_dir)
        crashed = autosave.crashed_before()
    if args.restore_last:
        if not crashed:
            print("nothing to restore")
            return 1
        try:
            table = autosave.restore()
        except TabletopError as e:
            print(f"tabletop: {e}", file=sys.stderr)
            return 2
        print(f"restored {len(table.history)} actions")
        return 0
    window = MainWindow(controller, autosave=autosave)
    errors.install(lambda: window, show_dialog=not headless)
    if crashed and not args.scenario:
        answer = QMessageBox.question(window, "Restore the last game?",
                                      "Tabletop did not close normally last time. Restore the "
                                      "game as it was after its last action?")
        if answer == QMessageBox.Yes:
            try:
                controller.set_table(autosave.restore())
            except TabletopError as e:
                QMessageBox.warning(window, "Cannot restore the game", str(e))
    if autosave is not None:
        autosave.begin()
        if autosave.error:
            window.show_message(f"Autosave is off: {autosave.error}")
    if args.scenario:
        from pathlib import Path

        from tabletop.scenario import load
        try:
            load(args.scenario)  # check it first: a bad file gets one message, no window
        except TabletopError as e:
            if headless:
                print(f"tabletop: {e}", file=sys.stderr)
                return 2
            QMessageBox.warning(window, "Cannot open the scenario", str(e))
        else:
            window.open_scenario(Path(args.scenario))
    if args.viewpoint:
        if args.viewpoint.lower() == "judge":
            controller.set_viewer(None)
        elif args.viewpoint in controller.table.players:
            controller.set_viewer(args.viewpoint)
        else:
            print(f"tabletop: unknown viewpoint {args.viewpoint!r} (players: "
                  f"{', '.join(controller.table.players)}, or judge)", file=sys.stderr)
            return 2
    if args.scripted_session:
        scripted_session(window, args.scripted_session)
        return 0
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
            def eventFilter(self, obj, event):
                if event.type() == QEvent.Paint:
                    print(f"{time.time():.4f}", flush=True)
                    os._exit(0)
                return False
        window._first_frame = FirstFrame()
        window.view.viewport().installEventFilter(window._first_frame)
    window.show()
    return app.exec()
