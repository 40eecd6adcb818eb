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
