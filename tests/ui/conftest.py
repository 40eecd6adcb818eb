import pytest

from tabletop.engine import Table
from tabletop.ui.controller import TableController
from tabletop.ui.main_window import MainWindow


@pytest.fixture
def make_window(qtbot):
    """A real main window around a given table, animations off, fitted."""
    def make(table: Table, viewer="Alice"):
        c = TableController(table)
        w = MainWindow(c)
        qtbot.addWidget(w)
        c.set_viewer(viewer)
        w.scene.animations = False
        w.resize(1400, 900)
        w.show()
        qtbot.waitExposed(w)
        w.activateWindow()
        qtbot.waitUntil(w.isActiveWindow, timeout=2000)
        w.view.fit()
        # start-up is over (the menus' commands and the inspector come after the first
        # frame), as it is before a person can reach for a menu
        qtbot.waitUntil(lambda: w.first_painted and not w._after_first_frame, timeout=5000)
        qtbot.wait(1)
        return w
    return make


@pytest.fixture(autouse=True)
def dialogs(qapp):
    """Every modal dialog in a GUI test is answered (see dialogbot.py): none can hang."""
    from tests.ui.dialogbot import DialogBot
    bot = DialogBot()
    yield bot
    bot.stop()


@pytest.fixture(autouse=True)
def fresh_settings():
    """Each test starts with no remembered window layout."""
    from tabletop.ui import settings
    ini = settings.config_dir() / "tabletop.ini"
    ini.unlink(missing_ok=True)
    yield
    ini.unlink(missing_ok=True)


# a real `tabletop serve` process and scripted clients, for the network window tests
from tests.net.conftest import clients, server  # noqa: F401


@pytest.fixture(autouse=True)
def _collected_on_the_gui_thread():
    """Once a test has started a network thread, the collector walks only from the GUI
    thread's timer (tabletop/ui/gui_collector.py), which runs only while a test waits:
    what a test left in cycles is collected after it, on this (the GUI) thread."""
    yield
    import gc
    if not gc.isenabled():
        gc.collect()
