"""The collector as Tabletop's long-lived processes run it (tabletop/collector.py)."""

from __future__ import annotations

import gc
import weakref

import pytest

from tabletop import collector
from tabletop.engine import InputError


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def _cycle() -> weakref.ref[_Node]:
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_what_lived_a_tick_is_set_aside_and_freed_at_the_next_full_walk():
    now = [0.0]
    was, enabled = gc.get_threshold(), gc.isenabled()
    gc.disable()  # no walk of its own between making the garbage and setting it aside
    try:
        collector.tune()
        assert gc.get_threshold()[0] == collector.YOUNG
        tender = collector.Tender(clock=lambda: now[0])
        gone = _cycle()  # garbage only once set aside: no walk but the full one frees it
        kept = _Node()
        tender.tick()
        assert gc.get_freeze_count() > 0
        gc.collect()
        assert gone() is not None  # set aside: the walks leave it
        now[0] += collector.FULL_EVERY - 1
        tender.tick()
        assert gone() is not None
        now[0] += 1
        tender.tick()  # the full walk
        assert gone() is None
        assert isinstance(kept, _Node)  # what is still used stays
        assert gc.get_freeze_count() > 0  # and is set aside again
    finally:
        gc.unfreeze()
        gc.set_threshold(*was)
        if enabled:
            gc.enable()


def test_the_window_tends_the_collector_every_second(qapp):
    from PySide6.QtCore import QTimer

    from tabletop.ui.app import tend_collector
    was = gc.get_threshold()
    try:
        tend_collector(qapp)
        timer = qapp.findChild(QTimer, "collector")
        assert timer is not None and timer.isActive() and timer.interval() == 1000
        assert gc.get_threshold()[0] == collector.YOUNG
        timer.timeout.emit()  # a tick: what lives now is set aside
        assert gc.get_freeze_count() > 0
    finally:
        if timer is not None:
            timer.stop()
            timer.deleteLater()
        gc.unfreeze()
        gc.set_threshold(*was)


def test_a_game_read_where_what_lives_is_set_aside_is_set_aside_at_once(monkeypatch):
    """In the window and the server (``tune``), a game just read to be kept is set aside
    as the next tick would set it aside, so the collector's next walk does not go
    through all of it; a copy soon let go (the judge's comparison) is not, and
    elsewhere (a command that ends soon) the collector is left as it was."""
    from tabletop.cards import demo
    from tabletop.engine import saves
    text = saves.dumps(demo.new_game())
    was, enabled = gc.get_threshold(), gc.isenabled()
    gc.enable()
    try:
        monkeypatch.setattr(collector, "_tuned", False)
        gc.unfreeze()
        saves.loads(text, lasting=True)
        assert gc.get_freeze_count() == 0  # what was made is left to the walks
        monkeypatch.setattr(collector, "_tuned", True)
        assert saves.loads(text) is not None  # a copy soon let go: not set aside
        assert gc.get_freeze_count() == 0
        table = saves.loads(text, lasting=True)
        assert gc.get_freeze_count() > 0 and gc.get_count()[0] < 100
        assert gc.is_tracked(table.objs) and table.objs  # (it is what was set aside)
        with pytest.raises(InputError):  # a refused save: its remains are not kept
            before = gc.get_freeze_count()
            saves.loads(text.replace('"next_id":', '"next_id":"x","y":', 1), lasting=True)
        assert gc.get_freeze_count() == before
    finally:
        gc.unfreeze()
        gc.set_threshold(*was)
        if not enabled:
            gc.disable()
