"""The floor under the network load benchmark (by hand: python3
tests/benchmarks/bench_net_floor.py [ROOMS] [SECONDS] [PACE]).

bench_net_load.py's capacity run asks 5,000 actions a second of `tabletop serve` on
two cores that also run its 200 clients. This runs the same clients, at the same
pace, against a server that does only what any websockets server of a table must:
read each request, and write an update of the same size (about 200 bytes; 700 for a
zone) to each of the room's four connections, the requester's with its request id.
No rules, no views, no disk. What it answers, and how fast, is the most `tabletop
serve` could answer here, with Python and the websockets library, before it does
any work of its own. It runs on the event loop `tabletop serve` runs on (uvloop where
it is installed)."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import resource
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_net_load as load  # (its clients, pace and figures)

PAD = "x" * 150  # an update's usual size (a log line's words), as a room's are


def floor_server(port_out: multiprocessing.connection.Connection) -> None:
    from websockets.asyncio.connection import broadcast
    from websockets.asyncio.server import serve

    rooms: dict[str, list] = {}
    made = 0

    async def handler(ws) -> None:
        nonlocal made
        room = None
        seq = 0
        async for frame in ws:
            msg = json.loads(frame)
            kind = msg.get("type")
            if kind == "create":
                made += 1
                name = f"r{made}"
                rooms[name] = []
                await ws.send(json.dumps({"v": 1, "type": "created", "room": name,
                                          "code": "C", "invites": {
                                              p: "i" for p in load.PLAYERS}}))
            elif kind == "join":
                room = rooms[msg["room"]]
                room.append(ws)
                await ws.send(json.dumps({"v": 1, "type": "joined", "seat": msg["seat"]}))
                await ws.send(json.dumps({"v": 1, "type": "view", "zones": [], "log": []}))
            elif kind == "act" and room is not None:
                seq += 1
                for member in room:
                    update = {"v": 1, "type": "update", "seq": seq, "zones": [],
                              "log": [{"tag": "done", "text": PAD}]}
                    if member is ws:
                        update["rid"] = msg.get("rid")
                    broadcast([member], json.dumps(update, separators=(",", ":")))

    async def main() -> None:
        async with serve(handler, "127.0.0.1", 0, max_size=None, compression=None) as s:
            port_out.send(next(iter(s.sockets)).getsockname()[1])
            await asyncio.get_running_loop().create_future()

    from tabletop.net.server import loop_runner
    loop_runner()[1](main())  # the loop `tabletop serve` runs on


def main() -> None:
    rooms = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 20.0
    pace = float(sys.argv[3]) if len(sys.argv) > 3 else load.CAPACITY_PACE
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    mine, theirs = multiprocessing.Pipe()
    proc = multiprocessing.Process(target=floor_server, args=(theirs,), daemon=True)
    proc.start()
    try:
        url = f"ws://127.0.0.1:{mine.recv()}"
        cpu0, own0 = load.cpu_s(proc.pid), resource.getrusage(resource.RUSAGE_SELF)
        times, wall = asyncio.run(load.load(url, rooms, seconds, pace))
        own1 = resource.getrusage(resource.RUSAGE_SELF)
        ms = sorted(t * 1000 for t in times)
        server_cpu = load.cpu_s(proc.pid) - cpu0
        clients_cpu = own1.ru_utime + own1.ru_stime - own0.ru_utime - own0.ru_stime
        print(f"floor: {rooms} rooms x 4 players, {pace:g} requests a second each, "
              f"{seconds:g} s: {len(ms)} answered, {len(ms) / wall:.0f} actions/s")
        print(f"  CPU per action: server {server_cpu / len(ms) * 1000:.2f} ms, these clients "
              f"{clients_cpu / len(ms) * 1000:.2f} ms ({os.cpu_count()} cores)")
        print(f"  round trip: p50 {ms[len(ms) // 2]:.1f} ms, p99 "
              f"{ms[int(len(ms) * 0.99)]:.1f} ms, max {ms[-1]:.1f} ms")
    finally:
        proc.kill()


if __name__ == "__main__":
    main()
