"""Garbage cycles are collected on the GUI thread once the window's process runs
threads of its own: a Qt object collected on another thread deadlocked a hosted game's
window (see tabletop/ui/gui_collector.py)."""

from __future__ import annotations

import gc
import threading
import weakref

from tabletop.ui.network import Host


class Cycle:
    def __init__(self) -> None:
        self.me = self


def test_cycles_made_on_a_network_thread_are_collected_on_the_gui_thread(qtbot, tmp_path):
    host = Host(tmp_path)
    host.start("127.0.0.1", 0)  # a hosted game: the server's thread runs in this process
    try:
        assert not gc.isenabled()  # the collector's own walks, on any thread, are off
        where: list[str] = []

        def make() -> None:
            # far more objects than the youngest generation's threshold, among them
            # cycles that only the collector can free
            for _ in range(2_000):
                c = Cycle()
                weakref.finalize(c, lambda: where.append(threading.current_thread().name))
                del c
                _ = [[i] for i in range(50)]
        worker = threading.Thread(target=make, name="worker")
        worker.start()
        worker.join()
        assert where == []  # nothing collected on the thread that made them
        qtbot.waitUntil(lambda: len(where) == 2_000, timeout=5_000)
        assert set(where) == {threading.main_thread().name}
    finally:
        host.stop()


def test_leaving_a_hosted_game_leaves_no_qt_object_to_the_collector(
        clients, make_window, dialogs, qtbot, tmp_path, monkeypatch):
    """The window's network objects are freed when the window lets them go, not by the
    cycle collector: the session and its port, the host and its server held each other,
    with Qt objects among them (the session, its connection, the host's requests)."""
    from PySide6.QtCore import QObject

    from tabletop import paths
    from tabletop.cards import demo
    from tabletop.ui.network import Invitation
    from tests.ui.test_network_gui import _host
    paths.set_data_dir(tmp_path / "data")
    w = make_window(demo.new_game(players=("Alice", "Bob"), seed=4), viewer="Alice")
    monkeypatch.setattr("tabletop.ui.network.local_addresses", lambda: ["127.0.0.1"])
    gc.collect()
    gc.garbage.clear()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what the collector would free is kept, to be looked at
    try:
        _host(dialogs, qtbot, w, 18767)
        inv = Invitation.parse(w.network.talk.invitation)
        bob = clients(inv.url)
        bob.join(inv.room, inv.code, "Bob", invite=inv.invite)
        qtbot.waitUntil(lambda: "Bob ●" in w.network.talk.who.text(), timeout=10000)
        bob.act("roll", sides=6)
        qtbot.wait(200)
        dialogs.expect("Stop hosting", "Yes")
        w.leave_action.trigger()
        assert w.c.session is None
        qtbot.wait(300)
        gc.collect()
        left = [type(o).__name__ for o in gc.garbage if isinstance(o, QObject)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert left == []
