"""Cyclic garbage is collected on the GUI thread only, once the window's process runs
Python threads of its own (a hosted game's server, a network seat's connection, card data
being imported).

Python's collector runs on whichever thread happens to make the object that crosses
its threshold. A Qt object found in a garbage cycle is then destroyed on that thread,
and its destructor waits for Python's lock while it holds a lock of Qt's; the GUI
thread, holding Python's lock, waits for that lock of Qt's to set a label's text, and
both wait for ever (a hosted game's window froze so in a test: the server's thread
collected a cycle holding a Qt object while the window showed the room's
invitation). So the collector's automatic walks are turned off, and the GUI thread
walks the youngest objects every ``EVERY_MS`` (the older ones every ``OLDER`` walks);
the window's collector tender (tabletop/collector.py) still walks everything now and
then, on the same thread."""

from __future__ import annotations

import gc

EVERY_MS = 250
OLDER = 8  # every OLDER-th walk goes through the middle generation too

_started = False


def on_gui_thread() -> None:
    """Call on the GUI thread before starting a Python thread in the window's process;
    the first call turns the collector's own walks off and starts the GUI thread's."""
    global _started
    from PySide6.QtCore import QCoreApplication, QTimer
    app = QCoreApplication.instance()
    if _started or app is None:
        return
    _started = True
    gc.disable()
    walks = 0

    def walk() -> None:
        nonlocal walks
        walks += 1
        gc.collect(1 if walks % OLDER == 0 else 0)
    timer = QTimer(app)
    timer.setObjectName("gui-collector")
    timer.timeout.connect(walk)
    timer.start(EVERY_MS)
