"""Network load benchmark (by hand: python3 tests/benchmarks/bench_net_load.py
[ROOMS] [SECONDS] [IDLE]).

Starts `tabletop serve` on 127.0.0.1 (its writes synced to the disk, as always; its
limits per address lifted: every client here stands for another player's machine) and
opens ROOMS rooms (50) of 4 players each, every player a connection with one request
in flight at a time for SECONDS (20): rolls, life changes, taps and lands played, each
answered by the update that carries its request id. Players act at their own moments,
not in step, with gaps between 0.5 and 1.5 times the mean.

Two runs, each reporting the round trip (p50, p99, max) and the actions answered a
second. The goal run: each player 5 requests a second (1,000 a second in all, every
table of four acting 20 times a second, far past any game played by people); goal on
a 2-core machine: p99 <= 50 ms, max <= 200 ms. The capacity run: each player at the
server's allowance, 25 a second (5,000 a second asked, more than the two cores can
answer with these clients on them too): what the server then answers, and how long
it takes, and where it answers slower than asked, the mean wait that 200 requests
always in flight set at the rate answered (Little's law). Each run gives the server's and the clients' CPU time an
action. Then IDLE (1,000) connections that take a spectator's seat and wait, with
the server's resident memory before and after."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import orjson

from tabletop.net import mirror

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
WHEN: list[tuple[float, float]] = []  # (when sent, round trip)
GOAL_PACE = 5.0  # requests a second from one player in the goal run
CAPACITY_PACE = 25.0  # and in the capacity run (the server allows 30)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Seat(asyncio.Protocol):
    """One player's connection, read as frames come: it keeps the view and answers
    requests. A load generator on the machine it measures must cost little: the
    WebSocket protocol is websockets' own (its sans-I/O ``ClientProtocol``), each frame
    read as it comes in (parsed as JSON, merged into the view as the window merges it:
    ``mirror.merge``), with no task woken for a frame that answers nothing."""

    def __init__(self, url: str, name: str) -> None:
        from websockets.client import ClientProtocol
        from websockets.uri import parse_uri
        self.name = name
        self.protocol = ClientProtocol(parse_uri(url), max_size=None)
        self.view: dict = {}
        self.waiting: dict[int, asyncio.Future] = {}
        self.opened = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport) -> None:
        self.transport = transport
        self.protocol.send_request(self.protocol.connect())
        self._write()

    def data_received(self, data: bytes) -> None:
        from websockets.frames import Opcode
        self.protocol.receive_data(data)
        for event in self.protocol.events_received():
            if not hasattr(event, "opcode"):  # the handshake's answer
                if not self.opened.done():
                    self.opened.set_result(None)
            elif event.opcode is Opcode.TEXT:
                self._frame(orjson.loads(event.data))
        self._write()

    def connection_lost(self, exc) -> None:
        for future in self.waiting.values():
            if not future.done():
                future.set_exception(ConnectionError("the server closed the connection"))

    def _frame(self, msg: dict) -> None:
        kind = msg.get("type")
        if kind == "view":
            self.view = msg
        elif kind == "update" and self.view:
            mirror.merge(self.view, msg)
        rid = msg.get("rid")
        if rid in self.waiting and kind in ("update", "error"):
            self.waiting.pop(rid).set_result(kind)

    def _write(self) -> None:
        assert self.transport is not None
        for data in self.protocol.data_to_send():
            if data:
                self.transport.write(data)
            else:
                self.transport.write_eof()

    def send(self, msg: dict) -> None:
        self.protocol.send_text(orjson.dumps(msg))
        self._write()

    async def ask(self, rid: int, **fields) -> str:
        future = asyncio.get_running_loop().create_future()
        self.waiting[rid] = future
        self.send({"v": 1, "type": "act", "rid": rid, **fields})
        return await future

    async def close(self) -> None:
        self.protocol.send_close()
        self._write()
        if self.transport is not None:
            self.transport.close()


async def seat_at(url: str, name: str) -> Seat:
    host, port = url.removeprefix("ws://").split("/")[0].rsplit(":", 1)
    _, seat = await asyncio.get_running_loop().create_connection(
        lambda: Seat(url, name), host, int(port))
    await seat.opened
    return seat


def zone(view, player, name):
    return next((z["cards"] for z in view.get("zones", [])
                 if z["player"] == player and z["zone"] == name), [])


async def room_players(url: str, seed: int, deal: bool = False) -> list[Seat]:
    """A room's four players, seated; ``deal``: the room dealt from ``seed`` (the same
    game at every run), else as the server deals."""
    from websockets.asyncio.client import connect
    host = await connect(url, max_size=None)
    await host.send(json.dumps({"v": 1, "type": "create", "players": PLAYERS,
                                **({"seed": seed} if deal else {})}))
    created = json.loads(await host.recv())
    await host.close()
    seats = []
    for p in PLAYERS:
        seat = await seat_at(url, p)
        seat.send({"v": 1, "type": "join", "room": created["room"], "code": created["code"],
                   "seat": p, "invite": created["invites"][p], "changes": "cards"})
        seats.append(seat)
    while not all(s.view for s in seats):
        await asyncio.sleep(0.01)
    return seats


def intention(seat: Seat, rng: random.Random) -> dict:
    """A player's next request: a land played (15%), a permanent tapped or untapped
    (25%), a die rolled (30%), a life total changed (30%); what it cannot do, it rolls."""
    r = rng.random()
    # a player's cards are looked for only when the action needs them
    hand = zone(seat.view, seat.name, "hand") if r < 0.15 else []
    mine = [x for x in zone(seat.view, None, "battlefield")
            if x["controller"] == seat.name] if r < 0.4 else []
    if r < 0.15 and hand:
        land = [x for x in hand if "Land" in x.get("types", [])]
        return {"action": "move", "id": rng.choice(land or hand)["id"], "zone": "battlefield"}
    if r < 0.4 and mine:
        x = rng.choice(mine)
        return {"action": "tap", "id": x["id"], "tapped": not x["tapped"]}
    if r < 0.7:
        return {"action": "roll", "sides": 20}
    return {"action": "life", "delta": rng.choice([-1, 1])}


async def player(seat: Seat, until: float, seed: int, times: list[float],
                 pace: float) -> None:
    rng = random.Random(seed)
    rid = 0
    # players do not act in step: each starts at its own moment, and its next request
    # is sent between 0.5 and 1.5 of the mean gap after the last one was
    await asyncio.sleep(rng.random() / pace)
    sent = 0.0
    while time.monotonic() < until:
        rid += 1
        msg = intention(seat, rng)
        wait = sent + rng.uniform(0.5, 1.5) / pace - time.perf_counter()
        if wait > 0:
            await asyncio.sleep(wait)
        start = sent = time.perf_counter()
        await seat.ask(rid, **msg)
        times.append(time.perf_counter() - start)
        WHEN.append((start, times[-1]))


async def load(url: str, rooms: int, seconds: float, pace: float
               ) -> tuple[list[float], float]:
    tables = [await room_players(url, 100 + i) for i in range(rooms)]
    # the load's own collector pauses would be counted as the server's round trips
    gc.collect()
    gc.freeze()
    gc.disable()
    times: list[float] = []
    t0 = time.monotonic()
    until = t0 + seconds
    await asyncio.gather(*(player(s, until, 1000 * i + j, times, pace)
                           for i, seats in enumerate(tables) for j, s in enumerate(seats)))
    wall = time.monotonic() - t0
    gc.enable()
    for seats in tables:
        for s in seats:
            await s.close()
    return times, wall


async def idle(url: str, count: int) -> list:
    """``count`` connections watching one room as spectators."""
    from websockets.asyncio.client import connect
    host = await connect(url)
    await host.send(json.dumps({"v": 1, "type": "create", "players": PLAYERS}))
    created = json.loads(await host.recv())
    await host.close()
    conns = []
    for _ in range(count):
        ws = await connect(url, max_size=None, compression=None)
        await ws.send(json.dumps({"v": 1, "type": "join", "room": created["room"],
                                  "code": created["code"], "seat": "spectator"}))
        await ws.recv()  # joined
        await ws.recv()  # view
        conns.append(ws)
    return conns


def main() -> None:
    rooms = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 20.0
    idle_count = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    data = Path(tempfile.mkdtemp(prefix="tabletop-bench-load-"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "tabletop", "--data-dir", str(data), "serve", "--port", "0",
         "--rooms-per-hour", "100000", "--per-address", "100000", "--address-rate", "1e9",
         "--rooms-per-address", "100000", "--lines-per-address", "1000000000",
         "--spectators", "100000",
         "--max-connections", "100000"],
        cwd=ROOT, stdout=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        url = proc.stdout.readline().split("listening on ")[1].split()[0]
        for name, pace in (("goal", GOAL_PACE), ("capacity", CAPACITY_PACE)):
            WHEN.clear()
            cpu0, mine0 = cpu_s(proc.pid), resource.getrusage(resource.RUSAGE_SELF)
            times, wall = asyncio.run(load(url, rooms, seconds, pace))
            mine1 = resource.getrusage(resource.RUSAGE_SELF)
            times.sort()
            ms = [t * 1000 for t in times]
            print(f"{name} run: {rooms} rooms x 4 players, one request in flight each, "
                  f"{pace:g} a second each, {seconds:g} s, fsync on: {len(ms)} answered, "
                  f"{len(ms) / wall:.0f} actions/s")
            server_s = cpu_s(proc.pid) - cpu0
            clients_s = mine1.ru_utime + mine1.ru_stime - mine0.ru_utime - mine0.ru_stime
            print(f"  CPU: server {server_s:.1f} s, these clients {clients_s:.1f} s, in "
                  f"{wall:.1f} s on {os.cpu_count()} cores: {server_s / len(ms) * 1e6:.0f} us "
                  f"of the server's and {clients_s / len(ms) * 1e6:.0f} us of the clients' "
                  f"an action")
            goal = " (goal: p99 <= 50, max <= 200)" if name == "goal" else ""
            print(f"  round trip: p50 {ms[len(ms) // 2]:.1f} ms, p99 "
                  f"{ms[int(len(ms) * 0.99)]:.1f} ms, max {ms[-1]:.1f} ms{goal}")
            players, rate = rooms * len(PLAYERS), len(ms) / wall
            if rate < 0.9 * players * pace:
                # asked faster than answered, every player's one request waits: the wait
                # is set by how many wait and how fast they are answered, whatever the
                # order they are answered in (Little's law)
                print(f"  answered slower than asked: {players} requests always in "
                      f"flight, answered at {rate:.0f} a second, wait "
                      f"{players / rate * 1000:.0f} ms on average (Little's law; measured: "
                      f"{sum(ms) / len(ms):.0f} ms); a p99 of 50 ms needs some "
                      f"{players / 0.04:.0f} answered a second")
            t0 = min(w for w, _ in WHEN)
            worst = sorted(WHEN, key=lambda x: -x[1])[:5]
            print("  slowest: " + ", ".join(f"{rtt * 1000:.0f} ms at {w - t0:.1f} s"
                                            for w, rtt in worst))
        before = rss_mb(proc.pid)

        async def hold() -> None:
            conns = await idle(url, idle_count)
            await asyncio.sleep(2)
            print(f"{len(conns)} idle connections: server {before:.0f} MB before, "
                  f"{rss_mb(proc.pid):.0f} MB with them")
            for ws in conns:
                await ws.close()
        asyncio.run(hold())
    finally:
        proc.kill()
        proc.wait()


if __name__ == "__main__":
    main()
