"""Network benchmark (by hand: python3 tests/benchmarks/bench_net.py [TABLES] [MOVES] [PACE]).

Starts `tabletop serve` on 127.0.0.1, opens TABLES rooms (50) of 4 scripted players
each, and has every room play MOVES random intentions (40) at once, one player at a
time per room: rolls, life changes, taps, lands and creatures played; PACE seconds
between one intention and the next in a room (0: as fast as the server answers; 0.5:
brisk human play). Reports the
round trip from sending an intention to receiving the redrawn view (median and p99),
and the server's resident memory per table; then the client's side: an update made
read into the window's board and drawn."""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tabletop.net.client import Client, ClientError

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def zone(view, player, name):
    return next(z["cards"] for z in view["zones"] if z["player"] == player and z["zone"] == name)


def play(url: str, moves: int, seed: int, times: list[float], errors: list[str],
         pace: float = 0.0) -> None:
    host = Client(url)
    room, code = host.create(PLAYERS, seed=seed)
    host.close()
    seats = {}
    for p in PLAYERS:
        c = Client(url)
        c.join(room, code, p, invite=host.invites[p])  # (each seat's own invitation)
        seats[p] = c
    pending = {p: len(PLAYERS) - 1 - i for i, p in enumerate(PLAYERS)}  # views of later joins
    rng = random.Random(seed)
    for i in range(moves):
        p = PLAYERS[i % len(PLAYERS)]
        c = seats[p]
        for _ in range(pending[p]):
            c.until("update")
        pending[p] = 0
        view = c.view
        hand = zone(view, p, "hand")
        mine = [x for x in zone(view, None, "battlefield") if x["controller"] == p]
        r = rng.random()
        if r < 0.3 and hand:
            msg = {"action": "move", "id": rng.choice(hand)["id"], "zone": "battlefield"}
        elif r < 0.5 and mine:
            x = rng.choice(mine)
            msg = {"action": "tap", "id": x["id"], "tapped": not x["tapped"]}
        elif r < 0.75:
            msg = {"action": "roll", "sides": 20}
        else:
            msg = {"action": "life", "delta": rng.choice([-3, -1, 1, 2])}
        if pace:
            time.sleep(pace * (0.5 + rng.random()))
        start = time.perf_counter()
        try:
            c.act(msg.pop("action"), **msg)
        except ClientError as e:  # refused (an instant onto the battlefield): no view sent
            errors.append(str(e))
            continue
        times.append(time.perf_counter() - start)
        for q in PLAYERS:
            if q != p:
                pending[q] += 1
    for c in seats.values():
        c.close()


def main() -> None:
    tables = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    moves = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    pace = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
    data = Path(tempfile.mkdtemp(prefix="tabletop-bench-net-"))
    proc = subprocess.Popen([sys.executable, "-m", "tabletop", "--data-dir", str(data),
                             "serve", "--port", "0",
                             # (its limits per address lifted: every client here stands
                             # for another player's machine)
                             "--rooms-per-hour", "100000", "--rooms-per-address", "100000",
                             "--per-address", "100000", "--address-rate", "1e9"],
                            cwd=ROOT, stdout=subprocess.PIPE,
                            text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        line = proc.stdout.readline()
        url = line.split("listening on ")[1].split()[0]
        base = rss_kb(proc.pid)
        times: list[float] = []
        errors: list[str] = []
        threads = [threading.Thread(target=play, args=(url, moves, 100 + i, times, errors, pace))
                   for i in range(tables)]
        t0 = time.perf_counter()
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        wall = time.perf_counter() - t0
        peak = rss_kb(proc.pid)
        times.sort()
        print(f"{tables} tables x 4 players, {moves} intentions each, pace {pace} s: "
              f"{len(times)} answered "
              f"with a view, {len(errors)} refused, in {wall:.1f} s")
        print(f"round trip, intention to redrawn view: median "
              f"{statistics.median(times) * 1000:.1f} ms, "
              f"p99 {times[int(len(times) * 0.99)] * 1000:.1f} ms (goal 5 / 50)")
        print(f"server memory: {base / 1024:.0f} MB at start, {peak / 1024:.0f} MB with "
              f"{tables} tables: {(peak - base) / tables:.0f} KB per table")
    finally:
        proc.kill()
        proc.wait()


def window_update() -> None:
    """The client's side: an update turned into the window's copy of the table and
    drawn (4 players, 60 log lines), median and worst of 30."""
    import json

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from tabletop.cards import demo
    from tabletop.net.rooms import Room
    from tabletop.ui.controller import TableController
    from tabletop.ui.main_window import MainWindow
    from tabletop.ui.network import Invitation, Session
    room = Room("r", "CODE", demo.new_game(players=tuple(PLAYERS), seed=2))
    for _ in range(60):
        room.act("Ann", {"action": "roll", "sides": 6})
    view = json.loads(json.dumps(room.view("Ann")))
    app = QApplication.instance() or QApplication([])
    c = TableController()
    w = MainWindow(c)
    w.resize(1280, 800)
    w.show()
    session = Session(c, Invitation.parse("ws://127.0.0.1:1/r/CODE"), "Ann")
    c.session = session  # (never connected: the views are given to it here)
    session._take({**view, "type": "view"})
    app.processEvents()
    session._take({**view, "type": "view"})  # the first drawing of every card
    app.processEvents()
    times = []
    for _ in range(30):
        s = time.perf_counter()
        session._take({**view, "type": "view"})
        app.processEvents()
        times.append((time.perf_counter() - s) * 1000)
    print(f"the window: a view read and drawn in {statistics.median(times):.1f} ms "
          f"(median; worst {max(times):.1f} ms)")


if __name__ == "__main__":
    main()
    window_update()
