"""The network server: ``tabletop serve`` (headless, many rooms) and the host of a
game opened from the window. WebSocket (RFC 6455) through the ``websockets``
library; JSON messages (protocol.py); one engine per room (rooms.py).

Every room is kept on disk in the server's folder: a snapshot (an atomic write of
the whole room) every SNAPSHOT_EVERY intentions, and each intention carried out
appended to the room's log before anyone is told of it; a server started again
reads the snapshot and carries the logged intentions out again. Clients rejoin
their seats with their tokens. Each connection is rate-limited; a malformed, oversized or unknown message
gets an error frame, and a connection that keeps sending them is closed. Nothing a
client sends can crash the server or change a game outside the rules."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tabletop.engine import InputError, saves
from tabletop.engine.files import read_bounded
from tabletop.net import protocol
from tabletop.net.rooms import Room, RoomError, new_code

log = logging.getLogger("tabletop.net")

RATE = 30.0  # messages a second a connection may send, on average
BURST = 60.0  # and at once
MAX_ERRORS = 20  # error frames before the connection is closed
MAX_ROOMS = 1000
MAX_ROOM_FILE = 20 * 1024 * 1024
SNAPSHOT_EVERY = 50  # intentions between two whole writes of a room


@dataclass
class _Conn:
    ws: Any
    room: Room | None = None
    seat: str | None = None
    allowance: float = BURST
    last: float = 0.0
    errors: int = 0
    log_sent: int = 0  # the room's log lines this connection has been sent

    def take(self) -> bool:
        """One message from the rate allowance (a token bucket)."""
        now = time.monotonic()
        self.allowance = min(BURST, self.allowance + (now - self.last) * RATE)
        self.last = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True


class Server:
    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder
        self.rooms: dict[str, Room] = {}
        self.members: dict[str, list[_Conn]] = {}
        self._snapshot_at: dict[str, int] = {}  # room -> intentions in its snapshot
        self.opened: Callable[[Room], None] | None = None  # told of each room opened
        if folder is not None:
            self.restore()

    # ---- autosave ---------------------------------------------------------------------
    def restore(self) -> None:
        """Every room as its last snapshot, then the intentions logged after it, carried
        out again in order (the engine is deterministic: the same table, seeds and
        intentions give the same game)."""
        assert self.folder is not None
        self.folder.mkdir(parents=True, exist_ok=True)
        for p in self.folder.glob("room-*.json.tmp*"):  # a write cut short
            p.unlink(missing_ok=True)
        for p in sorted(self.folder.glob("room-*.json")):
            try:
                d = json.loads(read_bounded(p, MAX_ROOM_FILE).decode("utf-8"))
                room = Room.from_json(d, str(p))
            except (InputError, ValueError) as e:
                log.warning("room file left as it is: %s", e)
                continue
            self._replay(room, p.with_suffix(".log"))
            self.rooms[room.id] = room
            self._snapshot_at[room.id] = room.applied

    def _replay(self, room: Room, path: Path) -> None:
        try:
            lines = read_bounded(path, MAX_ROOM_FILE).decode("utf-8").splitlines()
        except (InputError, UnicodeDecodeError):
            return  # no log yet (or none readable): the snapshot is the room
        for line in lines:
            try:
                rec = json.loads(line)
                n, seat, msg = int(rec["n"]), str(rec["seat"]), rec["msg"]
            except (ValueError, KeyError, TypeError):
                break  # a line cut short by a kill: the end of what was written
            if n <= room.applied:
                continue  # already in the snapshot
            try:
                if msg.get("type") == "chat":
                    room.say(seat, str(msg["text"]))
                else:
                    room.act(seat, protocol.parse(json.dumps(msg)))
            except (RoomError, protocol.ProtocolError):
                pass  # refused again, as it was not the first time: nothing changed
            room.applied = n

    def snapshot(self, room: Room) -> None:
        """The whole room, atomically; then its log starts again."""
        if self.folder is None:
            return
        data = json.dumps(room.to_json(), ensure_ascii=False, separators=(",", ":"))
        saves.atomic_write(self.folder / f"room-{room.id}.json", data.encode("utf-8"))
        (self.folder / f"room-{room.id}.log").write_bytes(b"")
        self._snapshot_at[room.id] = room.applied

    def record(self, room: Room, seat: str, msg: dict[str, Any]) -> None:
        """One intention carried out, appended to the room's log before anyone is told
        of it. A killed process loses nothing written (the system keeps it); every
        SNAPSHOT_EVERY intentions the whole room is written again."""
        room.applied += 1
        if self.folder is None:
            return
        line = json.dumps({"n": room.applied, "seat": seat, "msg": msg},
                          ensure_ascii=False, separators=(",", ":")) + "\n"
        with open(self.folder / f"room-{room.id}.log", "ab") as f:
            f.write(line.encode("utf-8"))
        if room.applied - self._snapshot_at.get(room.id, 0) >= SNAPSHOT_EVERY:
            self.snapshot(room)

    # ---- one connection -----------------------------------------------------------------
    async def handler(self, ws: Any) -> None:
        conn = _Conn(ws, last=time.monotonic())
        try:
            async for frame in ws:
                if not conn.take():
                    await self._refuse(conn, "too many messages: slow down")
                    continue
                try:
                    msg = protocol.parse(frame)
                    await self._handle(conn, msg)
                except protocol.ProtocolError as e:
                    await self._refuse(conn, str(e))
                except RoomError as e:
                    await ws.send(protocol.error(str(e)))
        except Exception as e:  # a dropped connection, a closed socket
            log.info("connection ended: %s", type(e).__name__)
        finally:
            await self._leave(conn)

    async def _refuse(self, conn: _Conn, text: str) -> None:
        conn.errors += 1
        await conn.ws.send(protocol.error(text))
        if conn.errors >= MAX_ERRORS:
            await conn.ws.close(code=1008, reason="too many bad messages")

    async def _handle(self, conn: _Conn, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "ping":
            await conn.ws.send(protocol.encode("pong"))
            return
        if kind == "create":
            if conn.room is not None:
                raise RoomError("this connection is already in a room")
            if len(self.rooms) >= MAX_ROOMS:
                raise RoomError("this server holds as many rooms as it may")
            made = self.create(msg["players"], msg.get("edition", "cr-2016"),
                               msg.get("seed", 1), msg.get("judge_sees_all", False),
                               msg.get("decks"))
            await conn.ws.send(protocol.encode("created", room=made.id, code=made.code))
            return
        if kind == "join":
            found = self.rooms.get(msg["room"])
            if found is None:
                raise RoomError("no such room")
            if conn.room is not None:
                raise RoomError("this connection is already in a room")
            had = dict(found.tokens)
            seat, token = found.join(msg["seat"], msg["code"], msg.get("token"))
            conn.room, conn.seat = found, seat
            self.members.setdefault(found.id, []).append(conn)
            found.connected[seat] = found.connected.get(seat, 0) + 1
            if found.tokens != had:  # a seat newly taken: its token must survive
                self.snapshot(found)
            await conn.ws.send(protocol.encode("joined", room=found.id, seat=seat, token=token))
            await conn.ws.send(protocol.encode("view", **found.view(seat)))
            conn.log_sent = len(found.table.journal)
            await self.broadcast(found, set(), skip=conn)
            return
        if conn.room is None or conn.seat is None:
            raise RoomError("join a room first")
        room, seat = conn.room, conn.seat
        zones: set[Any] | None = set()
        if kind == "chat":
            room.say(seat, msg["text"])
        elif kind == "act":
            zones = room.act(seat, msg)
        self.record(room, seat, msg)
        await self.broadcast(room, zones)

    async def _leave(self, conn: _Conn) -> None:
        room, seat = conn.room, conn.seat
        if room is None or seat is None:
            return
        members = self.members.get(room.id, [])
        if conn in members:
            members.remove(conn)
        room.connected[seat] = max(0, room.connected.get(seat, 1) - 1)
        await self.broadcast(room, set())

    def create(self, players: list[str], edition: str, seed: int,
               judge_sees_all: bool, decks: dict[str, Any] | None = None) -> Room:
        """A room with a new game: of the players' ``decks`` (card names, found in this
        server's card data), else of the demo decks (a host's own table comes through
        ``open_table``)."""
        from tabletop.cards import demo
        try:
            if decks is None:
                table = demo.new_game(edition=edition, players=tuple(players), seed=seed)
            else:
                table = self._from_decks(players, decks, edition, seed)
        except InputError as e:
            raise RoomError(str(e)) from None
        return self.open_table(table, judge_sees_all)

    @staticmethod
    def _from_decks(players: list[str], decks: dict[str, Any], edition: str,
                    seed: int) -> Any:
        from tabletop.cards import game
        from tabletop.cards.db import default
        from tabletop.cards.decks import Deck
        lookup = default().card
        made, unknown = [], []
        for player in players:
            deck = Deck(player)
            for section, lines in decks[player].items():
                for count, name in lines:
                    if lookup(name) is None:
                        unknown.append(name)
                    deck.add(section, count, name)
            made.append((player, deck))
        if unknown:
            names = ", ".join(repr(n[:40]) for n in sorted(set(unknown))[:5])
            raise RoomError(f"cards this server does not know: {names}"
                            + (" and more" if len(set(unknown)) > 5 else "")
                            + " (import card data on the server: tabletop cards --download)")
        return game.new_game(made, edition=edition, seed=seed, lookup=lookup)

    def open_table(self, table: Any, judge_sees_all: bool = False) -> Room:
        room_id = secrets.token_hex(4)
        while room_id in self.rooms:
            room_id = secrets.token_hex(4)
        room = Room(room_id, new_code(), table, judge_sees_all)
        self.rooms[room_id] = room
        self.snapshot(room)
        if self.opened is not None:  # announced on the network (tabletop serve --announce)
            self.opened(room)
        return room

    async def broadcast(self, room: Room, zones: set[Any] | None,
                        skip: _Conn | None = None) -> None:
        """Each connection of the room is sent what changed, as its own seat sees it:
        the ``zones`` that changed (None: all), the new log lines, the small facts."""
        end = len(room.table.journal)
        for conn in list(self.members.get(room.id, [])):
            if conn is skip or conn.seat is None:
                continue
            update = room.update(conn.seat, zones, conn.log_sent)
            conn.log_sent = end
            try:
                await conn.ws.send(protocol.encode("update", **update))
            except Exception as e:  # a connection closing as it is sent to
                log.info("update not sent: %s", type(e).__name__)

    def forget(self, room_id: str) -> None:
        """A room whose game is over: gone from the server and from its folder."""
        self.rooms.pop(room_id, None)
        self.members.pop(room_id, None)
        self._snapshot_at.pop(room_id, None)
        if self.folder is not None:
            for suffix in (".json", ".log"):
                (self.folder / f"room-{room_id}{suffix}").unlink(missing_ok=True)

    async def end_all(self, why: str) -> None:
        """Tell every connection the game is over (an ``ended`` message: no rejoining),
        then close it: the host stops hosting."""
        for members in list(self.members.values()):
            for conn in list(members):
                try:
                    await conn.ws.send(protocol.encode("ended", message=why))
                    await conn.ws.close(code=1001, reason="the game ended")
                except Exception as e:  # already gone
                    log.info("not told of the end: %s", type(e).__name__)


async def serve(host: str, port: int, folder: Path | None, ready: Any = None,
                announce: bool = False) -> None:
    """Run until cancelled; ``ready(port)`` is told the port once listening.
    ``announce``: each room is announced on the local network (mDNS) as it opens."""
    from websockets.asyncio.server import serve as ws_serve
    server = Server(folder)
    async with ws_serve(server.handler, host, port, max_size=protocol.MAX_FRAME,
                        max_queue=16, compression=None,
                        close_timeout=protocol.CLOSE_TIMEOUT) as ws_server:
        bound = next(iter(ws_server.sockets)).getsockname()[1]
        announcer = await _announcer(server, host, bound) if announce else None
        if ready is not None:
            ready(bound)
        try:
            await asyncio.get_running_loop().create_future()
        finally:
            if announcer is not None:
                announcer.close()


async def _announcer(server: Server, host: str, port: int) -> Any:
    """Announce the rooms there are and each one opened from now on; registering waits
    on the network, so it is done on a worker thread, never on the server's loop."""
    from tabletop.net import discovery
    if not discovery.enabled():
        return None
    loop = asyncio.get_running_loop()
    try:
        announcer = await loop.run_in_executor(
            None, discovery.Announcer, discovery.host_addresses(host), port)
    except Exception as e:  # no multicast here
        log.warning("rooms not announced on the network: %s", e)
        return None

    def announce(room: Room) -> None:
        def register() -> None:
            try:
                announcer.add(", ".join(room.table.players), room.id,
                              list(room.table.players))
            except Exception as e:
                log.warning("room %s not announced: %s", room.id, e)
        loop.run_in_executor(None, register)
    for room in list(server.rooms.values()):
        announce(room)
    server.opened = announce
    return announcer


def main(host: str, port: int, folder: Path, announce: bool = False) -> int:
    """``tabletop serve``: prints where it listens, runs until interrupted."""
    def ready(bound: int) -> None:
        print(f"tabletop server listening on ws://{host}:{bound} "
              f"(rooms saved in {folder})", flush=True)
    try:
        asyncio.run(serve(host, port, folder, ready, announce))
    except KeyboardInterrupt:
        pass
    except OSError as e:
        print(f"tabletop serve: cannot listen on {host}:{port}: {e.strerror or e}")
        return 2
    return 0
