"""How Python's cyclic collector runs in Tabletop's long-lived processes: the window
and ``tabletop serve`` (not the one-shot commands, which end before it matters).

Nearly everything the engine makes lives as long as the game (each action's changes,
events, log lines), and what dies is freed at once by reference counting: the
collector's walks find almost nothing. With Python's defaults they cost this much
(tests/benchmarks/bench_engine.py, 100,000 moves, 2 cores): the youngest objects
walked every 700 new ones, so 2% of moves paid for a walk (move p99 55 us against
25 us without the collector), and walks of every object lasting 100 to 345 ms as the
game grew. Hence:

- ``tune()``: the youngest objects are walked every ``YOUNG`` new ones (0.5 ms a walk,
  for one move in 700);
- ``Tender.tick()``, every second or so: what has lived that long is set aside
  (``gc.freeze``), so no walk goes through it again; every object is walked once in
  ``FULL_EVERY`` seconds, for cycles that became garbage after being set aside."""

from __future__ import annotations

import contextlib
import gc
import time
from collections.abc import Callable, Iterator

YOUNG = 10_000  # new objects between two walks of the youngest (Python's default: 700)
FULL_EVERY = 600.0  # seconds between two walks of every object
_tuned = False  # this process runs the collector as above (tune): what lives is set aside


def tune() -> None:
    """The collector as Tabletop's processes run it (the older generations' thresholds
    stay Python's own)."""
    global _tuned
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG, middle, old)
    _tuned = True


class Tender:
    """Call ``tick()`` now and then (about every second): sets aside what has lived
    since the last tick, and walks everything once every ``FULL_EVERY`` seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.last_full = clock()

    def tick(self) -> None:
        if self.clock() - self.last_full >= FULL_EVERY:
            gc.unfreeze()
            gc.collect()
            self.last_full = self.clock()
        gc.freeze()


@contextlib.contextmanager
def paused(lasting: bool = False) -> Iterator[None]:
    """No walks while bulk encoding or decoding makes many small containers and no
    cycles: a walk would only slow it down (a server's snapshot of a long game held
    the event loop 25 ms, most of it in walks).

    ``lasting``: what is made lives on (a game read from a save). Where what lives is
    set aside (``tune``, the window and the server) it is set aside as made, as the
    next ``Tender.tick`` would: otherwise the first walk after this one goes through
    all of it (65-80 ms after reading a 10,000-action save, a quarter of the read)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
        if lasting and _tuned:  # (not what a refused save left half made)
            gc.freeze()
    finally:
        if was:
            gc.enable()
