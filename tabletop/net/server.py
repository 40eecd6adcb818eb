"""The network server: ``tabletop serve`` (headless, many rooms) and the host of a
game opened from the window. WebSocket (RFC 6455) through the ``websockets``
library; JSON messages (protocol.py); one engine per room (rooms.py).

Every room is kept on disk in the server's folder: a snapshot (an atomic write of
the whole room) every SNAPSHOT_EVERY intentions, and each intention that reached the
engine appended to the server's journal (every room's, one file) before anyone is
told of it. The disk is written
by a thread of its own (``Disk``), never by the event loop: it takes everything
waiting, writes it, syncs it once, and only then are the seats told. A server started
again reads the snapshot and carries the logged intentions out again.

What one client can cost everyone else is bounded: messages per connection (a token
bucket), connections per address and in all, rooms created per address per hour,
wrong room codes, invitations and tokens per address, a connection that never joins,
stops answering pings or stops reading. Every refusal is an error frame with a stable
code."""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import errno
import functools
import ipaddress
import json
import logging
import os
import secrets
import sys
import threading
import time
import zlib
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.protocol import OPEN as WS_OPEN

from tabletop import collector
from tabletop.engine import InputError, editions, files
from tabletop.engine.files import read_bounded
from tabletop.jsontext import compact
from tabletop.net import protocol
from tabletop.net.protocol import Changes, Code
from tabletop.net.rooms import JUDGE_SEAT, SPECTATOR, Known, Room, RoomError, new_code

log = logging.getLogger("tabletop.net")
# what reading from or sending to a connection may end with: it closed, or its socket
GONE = (ConnectionClosed, OSError)

RATE = 30.0  # messages a second a connection may send, on average
BURST = 60.0  # and at once
MAX_ERRORS = 20  # error frames before the connection is closed
MAX_ROOMS = 1000
MAX_ROOM_FILE = 20 * 1024 * 1024
SNAPSHOT_EVERY = 500  # intentions between two whole writes of a room (at least; each
# room adds its own number below half of it, so rooms started together are not all
# written at once, each write holding up every room's answers)
# what an update carries only when it changed for that connection (zones, log and chat
# lines are sent as they change; the rest of a view is these)
FACTS = ("room", "seat", "edition", "effects", "players", "active", "turn", "phase", "life",
         "player_counters", "mulligans", "sideboards", "arrows", "connected", "can_undo",
         "undo_request", "look_request", "seed", "last_roll", "shown")
_UNSENT = object()


@dataclass
class Limits:
    """What the server allows one client address, and everyone together."""

    address_rate: float = 60.0  # messages a second from all of one address's connections
    # (twice as many at once)
    rooms_per_hour: int = 20  # rooms one address may create in an hour
    # rooms one address opened that the server keeps at once: a room lasts room_idle
    # after its last player left, so at rooms_per_hour alone three addresses filled the
    # server's MAX_ROOMS for a day
    rooms_per_address: int = 40
    # and the rooms one network opened (an IPv6 /48, a site's; an IPv4 /24) kept at once,
    # in rooms_per_address: a /48 holds 65,536 /64s, each counted as a client above
    rooms_per_network_factor: int = 4
    room_idle: float = 24 * 3600.0  # seconds a room with nobody connected is kept
    join_timeout: float = 30.0  # seconds a connection has to take a seat
    spectators: int = 50  # spectators one room sends its updates to
    max_unread: int = 4 * 1024 * 1024  # bytes sent to a connection and not yet read
    per_address: int = 32  # open connections from one address
    connections: int = 2000  # open connections in all
    guesses: int = 20  # wrong room codes, invitations or tokens per address ...
    guess_window: float = 600.0  # ... in this many seconds
    ping_interval: float = 20.0  # seconds between pings; a connection that does not
    ping_timeout: float = 20.0  # answer one within this is closed
    approve_timeout: float = 120.0  # seconds the host has to answer a request to sit
    trusted_proxies: tuple[str, ...] = ()  # their X-Forwarded-For names the client
    fsync: bool = True  # sync each write to the disk before telling anyone
    # log lines in all the rooms one address opened and the server keeps: every room
    # may hold rooms.MAX_LINES, and rooms last (room_idle), so an address acting at its
    # allowance in room after room grew the server's memory by a gigabyte every few
    # hours, for as long as it cared to (an evening's game has a few thousand lines)
    lines_per_address: int = 300_000


class _Window:
    """Events per key in a sliding window of time (rooms created, wrong guesses)."""

    def __init__(self, limit: int, seconds: float) -> None:
        self.limit, self.seconds = limit, seconds
        self.seen: dict[str, collections.deque[float]] = {}

    def full(self, key: str) -> bool:
        q = self.seen.get(key)
        if q is None:
            return False
        now = time.monotonic()
        while q and q[0] <= now - self.seconds:
            q.popleft()
        if not q:
            del self.seen[key]
            return False
        return len(q) >= self.limit

    def add(self, key: str) -> None:
        self.seen.setdefault(key, collections.deque()).append(time.monotonic())

    def sweep(self) -> None:
        for key in list(self.seen):
            self.full(key)


class _Bucket:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once."""

    __slots__ = ("allowance", "burst", "last", "rate")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.allowance, self.last = burst, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.allowance = min(self.burst, self.allowance + (now - self.last) * self.rate)
        self.last = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True

    def idle(self) -> bool:
        """Full again: nothing to remember."""
        return self.allowance + (time.monotonic() - self.last) * self.rate >= self.burst


def text_frame(text: str) -> bytes:
    """A whole text frame from the server, as websockets writes it when no extension is
    agreed (RFC 6455 5.2: FIN and the text opcode, the payload's length in 7, 16 or 64
    bits, no mask), made without its frame objects: an update's frames are many."""
    data = text.encode()
    n = len(data)
    if n < 126:
        return bytes((0x81, n)) + data
    if n < 65536:
        return b"\x81\x7e" + n.to_bytes(2, "big") + data
    return b"\x81\x7f" + n.to_bytes(8, "big") + data


@dataclass
class _Conn:
    ws: Any
    address: str = "?"
    room: Room | None = None
    seat: str | None = None
    bucket: _Bucket = field(default_factory=lambda: _Bucket(RATE, BURST))
    errors: int = 0
    log_sent: int = 0  # the room's log lines this connection has been sent
    chat_sent: int = 0  # the room's chat lines this connection has been sent
    # counted as this connection sees them, so that no gap tells of what it was not
    # sent (another seat's refused move of a hidden card leaves a line only they read)
    lines: int = 0  # log lines sent to this connection
    seq: int = 0  # updates sent to this connection
    asking: bool = False  # waiting for the host's answer to a request to sit
    facts: dict[str, Any] = field(default_factory=dict)  # the small facts as last sent
    # the facts alike for every seat, as the last update this connection was sent had
    # them (None: not since it joined): each update then carries only those that changed
    public: dict[str, Any] | None = None
    own: dict[str, Any] | None = None  # the seat's own facts the last update was made of
    # with Changes.CARDS, each zone's cards as last sent; None: whole zones are sent
    known: Known | None = None


JOURNAL = "journal-{:06d}.log"  # the server's log of intentions, one file a segment
SEGMENT_BYTES = 16 * 1024 * 1024  # a segment this long is closed and the next begun
FOREVER = 2**62  # a forgotten room's lines are never needed again


class Disk:
    """The server's writes, on two threads of their own. The journal's lines are
    written in the order they were asked for; whatever is waiting is written together
    and synced once (a group commit), and ``wait`` ends when a line and every one
    before it is on the disk. Snapshots (and the files a forgotten room leaves) are
    written by a thread of their own, in their order, so that a room's snapshot never
    holds up every room's lines: each is told done by its ``done`` callback. A room's
    snapshots waiting together are written once, the newest.

    Every room's intentions go to one journal (``journal-N.log``), so that a batch is
    one append and one sync however many rooms it holds. A segment that grew past
    SEGMENT_BYTES is closed and the next one begun; a closed segment is removed once
    every room with lines in it has a snapshot past them (``pinning`` names the rooms
    that do not yet, for the server to write again)."""

    def __init__(self, folder: Path, fsync: bool = True, segment: int = 1) -> None:
        self.folder = folder
        self.fsync = fsync
        self._queue: collections.deque[tuple[str, str, Any, Any]] = collections.deque()
        self._cv = threading.Condition()
        self._stop = False
        self._asleep = False  # the writing thread waits for lines (put wakes it)
        self.seq = 0  # writes asked for so far
        self.done = 0  # of which this many are on the disk
        self._waiters: list[tuple[int, Any, Any]] = []  # (seq, loop, future)
        self.segment = segment  # the journal's segment written now
        self._journal: Any = None  # its open file
        self._lines: dict[int, dict[str, int]] = {}  # segment -> room -> its newest line
        self._covered: dict[str, int] = {}  # room -> the line its newest snapshot holds
        # (loop, callback): called on that loop after each batch, before its waiters
        self.on_written: tuple[Any, Callable[[], None]] | None = None
        # the snapshots' own queue: (kind, room, data, [done callbacks])
        self._files: collections.deque[tuple[str, str, Any, list[Any]]] = collections.deque()
        self._files_cv = threading.Condition()
        self._files_busy = False  # a snapshot being written now
        self._drop_lock = threading.Lock()  # segments are removed by one thread at a time
        self._thread = threading.Thread(target=self._run, name="tabletop-disk", daemon=True)
        self._thread.start()
        self._files_thread = threading.Thread(target=self._run_files,
                                              name="tabletop-snapshots", daemon=True)
        self._files_thread.start()

    def put(self, kind: str, room: str, data: Any, done: Any = None) -> int:
        """``kind``: "line" ((bytes, n): the room's intention numbered n, appended to
        the journal), "snapshot" ((bytes, n): the room's JSON, holding its intentions
        up to n), "forget" (the room's file removed, its lines never read again) or
        "drop" ((N, {room: n}): every journal segment before number N removed, once
        each of those rooms is written whole up to n). ``done()`` is called on this thread once it is
        written (a forget: once its files are gone). Its number, for ``wait`` (for a
        snapshot or a drop, the journal's number when it was asked for: their ``done``
        says when they are written)."""
        if kind in ("snapshot", "drop", "forget"):
            with self._files_cv:
                dones = [] if done is None else [done]
                for i in range(len(self._files) - 1, -1, -1) if kind == "snapshot" else ():
                    item = self._files[i]
                    if item[0] == "drop":  # (a drop waits for the snapshots before it)
                        break
                    if item[0] == "snapshot" and item[1] == room:  # one of the room's
                        dones = item[3] + dones  # waiting: the newest is written instead,
                        del self._files[i]  # and answers both
                        break
                self._files.append((kind, room, data, dones))
                self._files_cv.notify()
            if kind != "forget":
                with self._cv:
                    return self.seq
            done = None  # (a forgotten room's line in the journal: told by its files')
        with self._cv:
            self.seq += 1
            self._queue.append((kind, room, data, done))
            if self._asleep:  # (a thread writing takes what waits when it is done)
                self._cv.notify()
            return self.seq

    def pinning(self) -> list[str]:
        """The rooms whose lines keep a closed segment of the journal on the disk."""
        with self._cv:
            return sorted({room for seg, rooms in self._lines.items() if seg < self.segment
                           for room, n in rooms.items() if self._covered.get(room, 0) < n})

    async def wait(self, seq: int) -> None:
        """Until the write numbered ``seq``, and every one before it, is on the disk."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        with self._cv:
            if self.done >= seq:
                return
            self._waiters.append((seq, loop, future))
        await future

    async def write(self, kind: str, room: str, data: Any) -> None:
        """Until that write is on the disk (a forget: its line, and its files gone)."""
        if kind not in ("snapshot", "drop", "forget"):
            await self.wait(self.put(kind, room, data))
            return
        loop = asyncio.get_running_loop()
        told: asyncio.Future[None] = loop.create_future()

        def done() -> None:
            loop.call_soon_threadsafe(_settle, [told])
        await self.wait(self.put(kind, room, data, done))
        await told

    async def idle(self) -> None:
        """Until everything asked for so far is written, snapshots too."""
        await self.wait(self.seq)
        await self.write("drop", "", (0, {}))  # (after them in their order: removes nothing)

    def close(self) -> None:
        with self._files_cv:
            self._stop = True
            self._files_cv.notify()
        self._files_thread.join(timeout=10)
        with self._cv:
            self._stop = True
            self._cv.notify()
        self._thread.join(timeout=10)
        if self._journal is not None:
            self._journal.close()

    def _run_files(self) -> None:
        while True:
            with self._files_cv:
                while not self._files and not self._stop:
                    self._files_cv.wait()
                if not self._files and self._stop:
                    return
                kind, room, data, dones = self._files.popleft()
            try:
                self._file(kind, room, data)
            except Exception:  # a full disk: said in the server's log, the game goes on
                log.exception("the server's folder could not be written")
            self._drop_covered()
            for done in dones:
                done()

    def _file(self, kind: str, room: str, data: Any) -> None:
        if kind == "snapshot":
            files.atomic_write(self.folder / f"room-{room}.json", data[0])
            # a server before the journal kept a log a room: its lines are in this
            (self.folder / f"room-{room}.log").unlink(missing_ok=True)
            with self._cv:
                self._covered[room] = data[1]
        elif kind == "forget":
            for suffix in (".json", ".log"):
                (self.folder / f"room-{room}{suffix}").unlink(missing_ok=True)
            with self._cv:
                self._covered[room] = FOREVER
        elif kind == "drop":
            before, needed = data
            with self._cv:  # only once those rooms are written whole: else kept
                written = all(self._covered.get(r, -1) >= n for r, n in needed.items())
            for path in self.folder.glob("journal-*.log"):
                if written and _segment_of(path) < before:
                    path.unlink(missing_ok=True)

    def _run(self) -> None:
        while True:
            with self._cv:
                while not self._queue and not self._stop:
                    self._asleep = True
                    self._cv.wait()
                    self._asleep = False
                if not self._queue and self._stop:
                    return
                batch = list(self._queue)
                self._queue.clear()
                upto = self.seq - len(self._queue)
            try:
                self._write(batch)
            except Exception:  # a full disk: said in the server's log, the game goes on
                log.exception("the server's folder could not be written")
            for *_, done in batch:
                if done is not None:
                    done()
            with self._cv:
                self.done = upto
                ready = [w for w in self._waiters if w[0] <= upto]
                self._waiters = [w for w in self._waiters if w[0] > upto]
            woken: dict[Any, list[Any]] = {}  # one wake-up of each loop for all its waiters
            hook = self.on_written
            if hook is not None:
                woken[hook[0]] = []
            for _, loop, future in ready:
                woken.setdefault(loop, []).append(future)
            for loop, futures in woken.items():
                try:
                    loop.call_soon_threadsafe(_settle, futures, hook[1] if hook is not None
                                              and hook[0] is loop else None)
                except RuntimeError:  # that loop has closed: nobody waits there any more
                    if hook is not None and hook[0] is loop:
                        self.on_written = None

    def _append(self, data: bytes) -> None:
        if self._journal is None:
            # kept open from one batch to the next, closed when the segment is full
            self._journal = open(self.folder / JOURNAL.format(self.segment), "ab")  # noqa: SIM115
        self._journal.write(data)

    def _write(self, batch: list[tuple[str, str, Any, Any]]) -> None:
        lines = self._lines.setdefault(self.segment, {})
        appended = False
        run: list[bytes] = []  # lines one after another: appended in one write
        newest: dict[str, int] = {}
        for kind, room, data, _ in batch:
            if kind == "line":
                run.append(data[0])
                newest[room] = data[1]
                continue
            if run:
                self._append(b"".join(run))
                run.clear()
                appended = True
            if kind == "forget":  # (its files go on the snapshots' thread)
                # read again, the journal forgets the room's lines before this one
                self._append(json.dumps({"room": room, "forget": True}).encode() + b"\n")
                appended = True
        if run:
            self._append(b"".join(run))
            appended = True
        if newest:
            with self._cv:
                lines.update(newest)
        if appended and self._journal is not None:
            self._journal.flush()
            if self.fsync:
                os.fsync(self._journal.fileno())
            if self._journal.tell() >= SEGMENT_BYTES:
                self._journal.close()
                self._journal = None
                with self._cv:
                    self.segment += 1
        self._drop_covered()

    def _drop_covered(self) -> None:
        """Remove the closed segments, oldest first, whose rooms were all written since
        (on either thread: after lines, after snapshots)."""
        with self._drop_lock:
            for seg in sorted(self._lines):
                with self._cv:
                    if seg >= self.segment:
                        return
                    rooms = self._lines[seg]
                    if any(self._covered.get(room, 0) < n for room, n in rooms.items()):
                        return
                    del self._lines[seg]
                (self.folder / JOURNAL.format(seg)).unlink(missing_ok=True)


def _log_lines(path: Path, limit: int) -> list[str]:
    """A log's lines (none when it cannot be read)."""
    try:
        return read_bounded(path, limit).decode("utf-8", "replace").splitlines()
    except InputError:
        return []


def _segment_of(path: Path) -> int:
    """The number of a journal segment's file (0 for a name that is not one)."""
    digits = path.stem.removeprefix("journal-")
    return int(digits) if digits.isdigit() else 0


def _settle(futures: list[Any], first: Callable[[], None] | None = None) -> None:
    if first is not None:
        first()
    for future in futures:
        if not future.done():
            future.set_result(None)


Approver = Callable[[Room, str, str], Awaitable[bool]]


class Server:
    def __init__(self, folder: Path | None = None, limits: Limits | None = None) -> None:
        self.folder = folder
        self.limits = limits or Limits()
        self.rooms: dict[str, Room] = {}
        self.members: dict[str, list[_Conn]] = {}
        self._snapshot_at: dict[str, int] = {}  # room -> intentions in its snapshot
        self._closing: set[asyncio.Future[None]] = set()  # connections being closed
        self.opened: Callable[[Room], None] | None = None  # told of each room opened
        # the host of a game opened from the window: asked whether a client may take a
        # player's seat without its invitation (room, seat, address) -> yes or no
        self.approver: Approver | None = None
        self._asking: set[str] = set()  # rooms whose host is being asked now
        self.created = _Window(self.limits.rooms_per_hour, 3600.0)
        # the rooms each address opened, while the server keeps them, with their log
        # lines as last counted (each room's brought up to date as it acts), and room ->
        # the address that opened it: their lines together are held to the limits'
        # lines_per_address (not kept across a restart, as the rate windows are not)
        self.opened_from: dict[str, dict[str, int]] = {}
        self._opener: dict[str, str] = {}
        self._held: dict[str, int] = {}  # address -> the lines of the rooms it opened
        self.opened_in: dict[str, set[str]] = {}  # network -> the rooms opened from it
        # rooms being made (their tables dealt off the event loop), counted with those
        # opened: for the server, each address and each network, so that creates sent
        # at once cannot all pass the checks before any room is counted
        self._making: collections.Counter[str] = collections.Counter()
        self.guesses = _Window(self.limits.guesses, self.limits.guess_window)
        self.open_by: collections.Counter[str] = collections.Counter()
        self.sent_by: dict[str, _Bucket] = {}  # each address's messages
        # each room's frames made and not yet sent: (the disk write they wait for, frames)
        self._outbox: dict[str, collections.deque[tuple[int, list[tuple[_Conn, str]]]]] = {}
        self._flushing: set[str] = set()  # rooms whose frames are being sent
        self._written: dict[str, int] = {}  # room -> the number of its newest disk write
        self.disk: Disk | None = None
        self._rewrite: set[str] = set()  # rooms restored with logged intentions
        self._segments_read = 0  # the journal's newest segment when the server started
        if folder is not None:
            self.restore()
            self.disk = Disk(folder, self.limits.fsync, self._segments_read + 1)
            # the restored rooms written whole again: the journal read is no longer needed
            for room_id in sorted(self._rewrite):
                self._put_snapshot(self.rooms[room_id])
            if self._segments_read:
                self.disk.put("drop", "", (self._segments_read + 1, {
                    room_id: self.rooms[room_id].applied for room_id in self._rewrite}))

    # ---- autosave ---------------------------------------------------------------------
    def restore(self) -> None:
        """Every room as its last snapshot, then the intentions logged after it, carried
        out again in order (the engine is deterministic: the same table, seeds and
        intentions give the same game)."""
        assert self.folder is not None
        self.folder.mkdir(parents=True, exist_ok=True)
        for p in self.folder.glob(".room-*.tmp"):  # a write cut short
            p.unlink(missing_ok=True)
        for p in sorted(self.folder.glob("room-*.json")):
            try:
                d = json.loads(read_bounded(p, MAX_ROOM_FILE).decode("utf-8"))
                room = Room.from_json(d, str(p))
            except (InputError, ValueError) as e:
                log.warning("room file left as it is: %s", e)
                continue
            legacy = p.with_suffix(".log")  # a room's own log, from before the journal
            if legacy.exists() and self._replay(room, _log_lines(legacy, MAX_ROOM_FILE)):
                self._rewrite.add(room.id)
            self.rooms[room.id] = room
            self._snapshot_at[room.id] = room.applied
        pending: dict[str, list[str]] = {}
        segments = sorted(self.folder.glob("journal-*.log"), key=_segment_of)
        for path in segments:
            with open(path, "rb") as f:  # the server's own file: read a line at a time
                for raw in f:
                    try:
                        line = raw.decode("utf-8")
                        rec = json.loads(line)
                        room_id = str(rec["room"])
                    except (ValueError, KeyError, TypeError):
                        break  # a line cut short by a kill: the end of what was written
                    if rec.get("forget"):
                        pending.pop(room_id, None)
                    elif room_id in self.rooms:
                        pending.setdefault(room_id, []).append(line)
        for room_id, lines in pending.items():
            found = self.rooms.get(room_id)
            if found is not None and self._replay(found, lines):
                self._rewrite.add(room_id)
        self._segments_read = max((_segment_of(p) for p in segments), default=0)

    def _replay(self, room: Room, lines: list[str]) -> bool:
        """The logged intentions after the room's snapshot carried out again; whether
        there were any."""
        replayed = False
        for line in lines:
            try:
                rec = json.loads(line)
                n, seat, msg = int(rec["n"]), str(rec["seat"]), dict(rec["msg"])
            except (ValueError, KeyError, TypeError):
                break  # a line cut short by a kill: the end of what was written
            if n <= room.applied:
                continue  # already in the snapshot
            try:
                if "text" in msg and "action" not in msg:
                    room.say(seat, str(msg["text"]))
                else:  # the intention as carried out: the table's object ids
                    room.act(seat, msg)
            except (RoomError, KeyError, TypeError, ValueError):
                pass  # refused again, as it was the first time (its log line is back)
            room.applied = n
            replayed = True
        return replayed

    def _room_bytes(self, room: Room) -> bytes:
        # (each action's text and the log's, made once, are kept for the next snapshot:
        # the log as one string, about 70 bytes a line with its bookkeeping)
        with collector.paused():
            return room.text().encode("utf-8")

    async def snapshot(self, room: Room) -> None:
        """The whole room, atomically, until it is on the disk, and every line of the
        room before it (a seat's new token: the view waits for it); made here, written
        on the snapshots' thread."""
        if self.disk is not None:
            self._snapshot_at[room.id] = room.applied
            await self.disk.write("snapshot", room.id, (self._room_bytes(room), room.applied))
            await self.durable(room)

    def _put_snapshot(self, room: Room) -> None:
        """The whole room, written when the snapshots' thread comes to it: nobody waits
        for it (the journal holds the room's lines meanwhile)."""
        assert self.disk is not None
        self._snapshot_at[room.id] = room.applied
        self.disk.put("snapshot", room.id, (self._room_bytes(room), room.applied))

    def record(self, room: Room, seat: str, msg: dict[str, Any]) -> None:
        """One intention that reached the room, handed to the disk's thread to append to
        the room's log (``durable`` waits for it); now and then the whole room is written
        again."""
        room.applied += 1
        if self.disk is None:
            return
        line = compact({"room": room.id, "n": room.applied, "seat": seat, "msg": msg}) + "\n"
        self._written[room.id] = self.disk.put("line", room.id,
                                               (line.encode("utf-8"), room.applied))
        # every SNAPSHOT_EVERY intentions, or in a long game once the log holds half as
        # many as the history (a snapshot costs as much as the history is long)
        if room.applied - self._snapshot_at.get(room.id, 0) >= max(
                SNAPSHOT_EVERY + zlib.crc32(room.id.encode()) % (SNAPSHOT_EVERY // 2),
                len(room.table.history) // 2):
            self._put_snapshot(room)

    async def durable(self, room: Room) -> None:
        """Until everything the room has handed to the disk is on it."""
        if self.disk is None:
            return
        while self.disk.done < self._written.get(room.id, 0):
            await self.disk.wait(self._written[room.id])

    # ---- one connection -----------------------------------------------------------------
    def address(self, ws: Any) -> str:
        """The client's address as the limits count it (``client_key``): the peer's,
        or, behind trusted proxies, the last in X-Forwarded-For that is not one of
        theirs."""
        try:
            peer = str(ws.remote_address[0])
        except (AttributeError, IndexError, TypeError):
            return "?"
        if not self.limits.trusted_proxies or not self._trusted(peer):
            return client_key(peer)
        try:
            forwarded = ws.request.headers.get("X-Forwarded-For", "")
        except AttributeError:
            forwarded = ""
        # from the right: each proxy appends the address it was reached from, so the
        # first one that is not a trusted proxy's is the client (what is left of it, the
        # client may have written itself)
        client = peer
        for hop in reversed(forwarded.split(",")[-16:]):
            try:
                address = str(_plain(ipaddress.ip_address(hop.strip())))
            except ValueError:
                break  # not an address: nothing before it is believed either
            client = address
            if not self._trusted(address):
                break
        return client_key(client)

    def _trusted(self, address: str) -> bool:
        """Whether ``address`` is one of the proxies named with ``--trusted-proxy``."""
        try:
            ip = _plain(ipaddress.ip_address(address))
        except ValueError:
            return False
        return any(ip in net for net in trusted_networks(self.limits.trusted_proxies))

    def _address_bucket(self, address: str) -> _Bucket:
        """The messages one address may send, however many connections it opens."""
        bucket = self.sent_by.get(address)
        if bucket is None:
            rate = self.limits.address_rate
            bucket = self.sent_by[address] = _Bucket(rate, 2 * rate)
        return bucket

    def admit(self, address: str) -> str | None:
        """Why a new connection from ``address`` is refused, or None."""
        if sum(self.open_by.values()) >= self.limits.connections:
            return "this server has as many connections as it may"
        if self.open_by[address] >= self.limits.per_address:
            return "too many connections from this address"
        return None

    async def handler(self, ws: Any) -> None:
        conn = _Conn(ws, self.address(ws))
        why = self.admit(conn.address)
        if why is not None:  # one that slipped past the handshake's check
            await ws.send(protocol.error(why, Code.FULL))
            await ws.close(code=1013, reason="try again later")
            return
        self.open_by[conn.address] += 1
        timer = asyncio.get_running_loop().call_later(
            self.limits.join_timeout, self._unseated, conn)
        try:
            async for frame in ws:
                if not conn.bucket.take() or not self._address_bucket(conn.address).take():
                    await self._refuse(conn, "too many messages: slow down",
                                       Code.RATE_LIMITED, protocol.rid_of(frame))
                    continue
                rid = None
                try:
                    if isinstance(frame, bytes):
                        raise protocol.ProtocolError("binary frames are refused: send "
                                                     "JSON text")
                    msg = protocol.parse(frame)
                    rid = msg.get("rid")
                    await self._handle(conn, msg, rid)
                except protocol.ProtocolError as e:
                    await self._refuse(conn, str(e), e.code, e.rid)
                except RoomError as e:
                    await self._answer(conn, protocol.error(str(e), e.code, rid))
        except GONE as e:  # a dropped connection, a closed socket
            log.info("connection ended: %s", type(e).__name__)
        finally:
            timer.cancel()
            self.open_by[conn.address] -= 1
            if self.open_by[conn.address] <= 0:
                del self.open_by[conn.address]
            await self._leave(conn)

    def _unseated(self, conn: _Conn) -> None:
        if conn.room is None and not conn.asking:
            task = asyncio.ensure_future(conn.ws.close(
                code=1008, reason=f"take a seat within {self.limits.join_timeout:g} s"))
            self._closing.add(task)  # kept until done (the loop holds tasks weakly)
            task.add_done_callback(self._closing.discard)

    async def _answer(self, conn: _Conn, frame: str) -> None:
        """A frame to this connection alone (an error): written now, without waiting
        for a slow reader, on a real connection."""
        if self.disk is not None and self.disk.on_written is not None:
            self._push(conn, frame)
        else:
            await conn.ws.send(frame)

    async def _refuse(self, conn: _Conn, text: str, code: Code, rid: Any) -> None:
        conn.errors += 1
        await self._answer(conn, protocol.error(text, code, rid))
        if conn.errors >= MAX_ERRORS:
            await conn.ws.close(code=1008, reason="too many bad messages")

    async def _handle(self, conn: _Conn, msg: dict[str, Any], rid: Any) -> None:
        kind = msg["type"]
        answer = {} if rid is None else {"rid": rid}
        if kind == "ping":
            await conn.ws.send(protocol.encode("pong", **answer))
            return
        if kind == "create":
            await self._create(conn, msg, answer)
            return
        if kind == "join":
            await self._join(conn, msg, answer)
            return
        if conn.room is None or conn.seat is None:
            raise RoomError("join a room first", Code.NOT_JOINED)
        room, seat = conn.room, conn.seat
        zones: set[Any] | None = set()
        if kind == "chat":
            room.say(seat, msg["text"])
            self.record(room, seat, {"text": msg["text"]})
        else:
            self._lines_left(room)
            resolved = room.resolve(seat, msg)
            said = len(room.table.journal)
            try:
                zones = room.act(seat, resolved)
            except RoomError:
                self._recount(room)
                if len(room.table.journal) != said:  # refused by the rules: its log line
                    # is part of the game, kept like any intention (replayed, refused again)
                    self.record(room, seat, resolved)
                    await self.durable(room)
                    # and it reaches now whoever may read it (a face-up card's refusal;
                    # a hidden card's is read by nobody else, who is then sent nothing)
                    if self._told_others(room, seat, said):
                        await self.broadcast(room, set(), skip=conn, told_only=True)
                if self.disk is not None:  # what was made before the refusal goes first
                    await self._flush(room.id)
                raise
            self._recount(room)
            self.record(room, seat, resolved)
        await self.broadcast(room, zones, answer=(conn, answer))

    def _lines_left(self, room: Room) -> None:
        """RoomError (``full``) when the rooms opened from the address that opened
        ``room`` hold ``lines_per_address`` log lines together: none of them acts until
        one has gone (chat goes on)."""
        if self._recount(room) >= self.limits.lines_per_address:
            raise RoomError(f"the rooms opened from one address keep at most "
                            f"{self.limits.lines_per_address:,} log lines together on this "
                            f"server, and this room's are full: play on once one of them "
                            f"has gone", Code.FULL)

    def _recount(self, room: Room) -> int:
        """The log lines of the rooms opened from the address that opened ``room``, its
        own counted anew (0: a room restored, or the window's own, counted to none)."""
        address = self._opener.get(room.id)
        if address is None:
            return 0
        counted = self.opened_from[address]
        lines = len(room.table.journal)
        held = self._held[address] + lines - counted[room.id]
        self._held[address], counted[room.id] = held, lines
        return held

    def _unopened(self, room_id: str) -> None:
        """A room gone: no longer counted to the address that opened it."""
        address = self._opener.pop(room_id, None)
        if address is None:
            return
        net = network_key(address)
        self.opened_in[net].discard(room_id)
        if not self.opened_in[net]:
            del self.opened_in[net]
        rooms = self.opened_from[address]
        self._held[address] -= rooms.pop(room_id)
        if not rooms:
            del self.opened_from[address], self._held[address]

    async def _create(self, conn: _Conn, msg: dict[str, Any], answer: dict[str, Any]) -> None:
        if conn.room is not None:
            raise RoomError("this connection is already in a room", Code.ALREADY_JOINED)
        address, net = conn.address, network_key(conn.address)
        making = self._making
        if len(self.rooms) + making[""] >= MAX_ROOMS:
            raise RoomError("this server holds as many rooms as it may", Code.FULL)
        if self.created.full(address):
            raise RoomError(f"at most {self.limits.rooms_per_hour} rooms an hour from one "
                            f"address", Code.RATE_LIMITED)
        if len(self.opened_from.get(address, ())) + making[address] \
                >= self.limits.rooms_per_address:
            raise RoomError(f"at most {self.limits.rooms_per_address} rooms opened from one "
                            f"address are kept at once (a room goes once nobody has been "
                            f"in it for a while)", Code.RATE_LIMITED)
        per_net = self.limits.rooms_per_address * self.limits.rooms_per_network_factor
        if len(self.opened_in.get(net, ())) + making["net " + net] >= per_net:
            raise RoomError(f"at most {per_net} rooms opened from one network ({net}) are "
                            f"kept at once (a room goes once nobody has been in it for a "
                            f"while)", Code.RATE_LIMITED)
        self.created.add(address)
        fixed = msg.get("seed")
        counted = ("", address, "net " + net)
        making.update(counted)
        try:
            made = await asyncio.get_running_loop().run_in_executor(
                None, self.make_table, msg["players"], msg.get("edition", editions.NEWEST),
                fixed, msg.get("decks"))  # (no seed: dealt from the system's randomness)
            room = await self.open_table(made, msg.get("judge_sees_all", False), fixed)
        finally:
            making.subtract(counted)
            making += collections.Counter()  # (the counts at nought dropped)
        self._opener[room.id] = conn.address
        self.opened_in.setdefault(net, set()).add(room.id)
        lines = len(room.table.journal)
        self.opened_from.setdefault(conn.address, {})[room.id] = lines
        self._held[conn.address] = self._held.get(conn.address, 0) + lines
        await conn.ws.send(protocol.encode("created", room=room.id, code=room.code,
                                           invites=dict(room.invites), seed=fixed,
                                           **answer))

    async def _join(self, conn: _Conn, msg: dict[str, Any], answer: dict[str, Any]) -> None:
        if conn.room is not None:
            raise RoomError("this connection is already in a room", Code.ALREADY_JOINED)
        if self.guesses.full(conn.address):
            raise RoomError("too many wrong room codes, invitations or tokens from this "
                            "address: wait a few minutes", Code.RATE_LIMITED)
        found = self.rooms.get(msg["room"])
        try:
            if found is None:
                raise RoomError("no such room, or a wrong room code", Code.NO_ROOM)
            had = dict(found.tokens)
            try:
                seat, token = found.join(msg.get("seat"), msg["code"], msg.get("token"),
                                         msg.get("invite"))
            except RoomError as e:
                if not (e.code == Code.INVITE_NEEDED and "invite" not in msg
                        and "token" not in msg and msg.get("seat") in found.table.players
                        and self.approver is not None):
                    raise
                seat, token = await self._ask_host(conn, found, msg)
        except RoomError as e:
            # (a request to sit the host declined or left unanswered counts too: a
            # stranger with the room code may ask again and again, and each one is a
            # question on the host's screen)
            if e.code in (Code.NO_ROOM, Code.INVITE_NEEDED, Code.SEAT_TAKEN, Code.DECLINED):
                self.guesses.add(conn.address)
            raise
        if seat == SPECTATOR and found.connected.get(SPECTATOR, 0) >= self.limits.spectators:
            raise RoomError(f"this room has {self.limits.spectators} spectators already",
                            Code.FULL)
        conn.room, conn.seat = found, seat
        found.connected[seat] = found.connected.get(seat, 0) + 1
        if found.tokens != had:  # a seat newly taken: its token must survive
            await self.snapshot(found)
        await conn.ws.send(protocol.encode("joined", room=found.id, seat=seat, token=token,
                                           **answer))
        await self.durable(found)  # the view tells nothing that is not on the disk yet
        if msg.get("changes") == Changes.CARDS:
            conn.known = {}
        view = found.view(seat, known=conn.known)
        conn.facts, conn.own = {key: view[key] for key in FACTS}, None
        conn.log_sent = len(found.table.journal)
        conn.chat_sent = found.chat_said
        conn.lines = len(view["log"])
        # the updates made from now on follow the view (its bytes are queued first)
        self.members.setdefault(found.id, []).append(conn)
        await conn.ws.send(protocol.encode("view", **view))
        await self.broadcast(found, set(), skip=conn)

    async def _ask_host(self, conn: _Conn, room: Room, msg: dict[str, Any]
                        ) -> tuple[str, str]:
        """A player's seat asked for without its invitation: the host decides."""
        assert self.approver is not None
        room.check_code(msg["code"])
        if room.id in self._asking:  # one question at a time on the host's screen
            raise RoomError("the host is answering another request to sit: ask again "
                            "in a moment", Code.RATE_LIMITED)
        conn.asking = True
        self._asking.add(room.id)
        try:
            yes = await asyncio.wait_for(self.approver(room, msg["seat"], conn.address),
                                         self.limits.approve_timeout)
        except TimeoutError:
            yes = False
        finally:
            conn.asking = False
            self._asking.discard(room.id)
        if not yes:
            raise RoomError("the host did not let you take that seat", Code.DECLINED)
        return room.join(msg["seat"], msg["code"], approved=True)

    async def _leave(self, conn: _Conn) -> None:
        room, seat = conn.room, conn.seat
        if room is None or seat is None:
            return
        members = self.members.get(room.id, [])
        if conn in members:
            members.remove(conn)
        room.connected[seat] = max(0, room.connected.get(seat, 1) - 1)
        if not members:
            room.idle_since = time.time()
        await self.broadcast(room, set())

    def make_table(self, players: list[str], edition: str, seed: int | None,
                   decks: dict[str, Any] | None = None) -> Any:
        """A new game: of the players' ``decks`` (card names, found in this server's
        card data), else of the demo decks (a host's own table comes through
        ``open_table``)."""
        from tabletop.cards import demo
        try:
            if decks is None:
                return demo.new_game(edition=edition, players=tuple(players), seed=seed)
            return self._from_decks(players, decks, edition, seed)
        except InputError as e:
            raise RoomError(str(e)) from None

    @staticmethod
    def _from_decks(players: list[str], decks: dict[str, Any], edition: str,
                    seed: int | None) -> Any:
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
                            + " (import card data on the server: tabletop cards --download)",
                            Code.UNKNOWN_CARDS)
        return game.new_game(made, edition=edition, seed=seed, lookup=lookup)

    def add_room(self, table: Any, judge_sees_all: bool = False,
                 seed: int | None = None) -> Room:
        """A room for ``table`` (``seed``: the fixed seed it was dealt with, told to
        every seat), not yet written. Without a fixed seed, the table's chances are
        drawn afresh from here on (``draw_unseen``): a host's table may have been dealt
        from a seed anyone can know, the window's first table's."""
        if seed is None:
            table.draw_unseen()
        room_id = secrets.token_hex(4)
        while room_id in self.rooms:
            room_id = secrets.token_hex(4)
        room = Room(room_id, new_code(), table, judge_sees_all)
        room.seed = seed
        self.rooms[room_id] = room
        return room

    async def open_table(self, table: Any, judge_sees_all: bool = False,
                         seed: int | None = None) -> Room:
        """A new room, written to the disk before anyone hears of it."""
        room = self.add_room(table, judge_sees_all, seed)
        await self.snapshot(room)
        if self.opened is not None:  # announced on the network (tabletop serve --announce)
            self.opened(room)
        return room

    # ---- from the window's thread, while the server is not running -------------------
    def _now(self, kind: str, room_id: str, data: Any) -> None:
        if self.disk is None:
            return
        done = threading.Event()
        self.disk.put(kind, room_id, data, done.set)
        done.wait(30)

    def open_table_now(self, table: Any, judge_sees_all: bool = False) -> Room:
        """``open_table`` for the window, before it starts hosting."""
        room = self.add_room(table, judge_sees_all)
        self._snapshot_at[room.id] = room.applied
        self._now("snapshot", room.id, (self._room_bytes(room), room.applied))
        return room

    def forget_now(self, room_id: str) -> None:
        """``forget`` for the window, once it has stopped hosting."""
        self.rooms.pop(room_id, None)
        self.members.pop(room_id, None)
        self._snapshot_at.pop(room_id, None)
        self._outbox.pop(room_id, None)
        self._unopened(room_id)
        self._now("forget", room_id, None)

    def _told_others(self, room: Room, seat: str, start: int) -> bool:
        """Whether a connection of another seat may read a log line from ``start`` on,
        as each line tells its viewer (``LogEntry.told``, what its updates send). Looked
        at first: a refused hidden card's line, read by its player alone, then costs no
        update made for nobody."""
        lines = room.table.journal[start:]
        viewers = {room.viewer(c.seat) for c in self.members.get(room.id, ())
                   if c.seat is not None and c.seat != seat}
        return any(e.told(v)[0] for v in viewers for e in lines)

    async def broadcast(self, room: Room, zones: set[Any] | None,
                        skip: _Conn | None = None,
                        answer: tuple[_Conn, dict[str, Any]] | None = None,
                        told_only: bool = False) -> None:
        """Each connection of the room is sent what changed, as its own seat sees it:
        the ``zones`` that changed (None: all), the new log and chat lines, the small
        facts; ``answer``: the connection whose request this answers, and its rid;
        ``told_only``: only the connections with a new log line they may read.

        The frames are made at once, from the room as this change left it, and queued
        in the room's outbox; nobody is told of a change before it is on the disk, so
        they are sent once the room's writes so far are (the disk's thread syncs many
        rooms' at once, and the room's other seats go on acting meanwhile). A room's
        frames leave in the order they were made, whoever's wait ends first. On real
        connections nothing waits here: the disk's wake-up after the write sends them."""
        frames = self._frames(room, zones, skip, answer, told_only)
        if told_only and not frames:
            return
        if self.disk is None:
            await self._send(frames)
            return
        written = self._written.get(room.id, 0)
        box = self._outbox.setdefault(room.id, collections.deque())
        box.append((written, frames))
        if self.disk.on_written is not None and room.id not in self._flushing:
            # real connections: the disk's wake-up after the write sends them, and
            # nothing here waits for it (already written, they are sent now)
            if self.disk.done >= written:
                self._push_written(room.id, box)
            return
        if self.disk.done < written:
            await self.disk.wait(written)
        await self._flush(room.id)

    def _frames(self, room: Room, zones: set[Any] | None, skip: _Conn | None,
                answer: tuple[_Conn, dict[str, Any]] | None,
                told_only: bool = False) -> list[tuple[_Conn, str]]:
        end, said = len(room.table.journal), room.chat_said
        frames = []
        public = room.public_facts()  # alike for every seat: made once
        faces: dict[Any, Any] = {}  # and so is what else every seat is sent alike
        # and what changed of them since the last update: compared once, not a seat
        changed: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}  # (before, told)
        # the part of an update seats are sent alike (the public facts that changed, the
        # log and chat lines), made into text once: a seat's cards and its own facts and
        # numbers (and the answer's rid) are put at its end
        alike: dict[tuple[Any, ...], str] = {}
        kept: list[Any] = []  # (what the keys of ``alike`` name stays while it is used)
        cards_changed = zones is None or bool(zones)
        for conn in list(self.members.get(room.id, [])):
            seat = conn.seat
            if conn is skip or seat is None:
                continue
            before = conn.public
            if before is None:  # the first update since its view: what that did not have
                told = {k: v for k, v in public.items() if conn.facts.get(k, _UNSENT) != v}
                kept.append(told)
            else:
                hit = changed.get(id(before))
                if hit is not None and hit[0] is before:
                    told = hit[1]
                else:
                    told = {k: v for k, v in public.items() if before.get(k, _UNSENT) != v}
                    changed[id(before)] = (before, told)
            cards = room.zone_cards(seat, zones, faces, conn.known, conn.known is not None) \
                if cards_changed else []
            log = room.log_lines(room.viewer(seat), conn.log_sent, faces)
            if told_only and not log:  # (nothing it may read: no frame, not even a number)
                continue
            key = (id(told), conn.chat_sent, id(log))  # (a log alike for the seats that
            kept.append(log)  # read it alike is one list, kept by ``faces``)
            text = alike.get(key)
            if text is None:
                text = alike[key] = protocol.encode(
                    "update", **told, log=log, chat=room.chat_lines(conn.chat_sent),
                    chat_from=conn.chat_sent)[:-1]
            conn.log_sent, conn.chat_sent, conn.public = end, said, public
            tail = f',"zones":{compact(cards)}' if cards else ',"zones":[]'
            own = room.seat_facts(seat, faces)
            if own is not conn.own:  # (the same facts as last made: none changed)
                conn.own = own
                for fact, value in own.items():
                    if conn.facts.get(fact, _UNSENT) != value:  # the seat's own facts,
                        conn.facts[fact] = value  # when they changed for this connection
                        tail += f',"{fact}":{compact(value)}'
            conn.seq += 1
            tail += f',"seq":{conn.seq},"log_from":{conn.lines}'
            conn.lines += len(log)
            if answer is not None and conn is answer[0]:
                for name, value in answer[1].items():
                    tail += f",{compact(name)}:{compact(value)}"
            frames.append((conn, f"{text}{tail}}}"))
        return frames

    def attach(self) -> None:
        """Called on the loop serving real connections: from now on a batch on the disk
        sends the frames it made durable at once, from the disk's own wake-up."""
        if self.disk is not None:
            self.disk.on_written = (asyncio.get_running_loop(), self._flush_written)

    def detach(self) -> None:
        """The serving loop stops: frames are no longer sent from the disk's wake-up."""
        if self.disk is not None:
            self.disk.on_written = None

    def _flush_written(self) -> None:
        """Every room's queued frames now on the disk, written to their connections
        without waiting (a room whose frames are being sent by ``_flush`` is left to
        it, so that nothing passes what it sends)."""
        for room_id, box in list(self._outbox.items()):
            if room_id not in self._flushing:
                self._push_written(room_id, box)

    def _push_written(self, room_id: str, box: collections.deque[
            tuple[int, list[tuple[_Conn, str]]]]) -> None:
        """The room's queued frames now on the disk, in order, written to their
        connections without waiting."""
        assert self.disk is not None
        done = self.disk.done
        if box and box[0][0] <= done:
            ready = box.popleft()[1]
            if box and box[0][0] <= done:  # several changes of the room written at once:
                by_conn: dict[int, tuple[_Conn, list[str]]] = {}  # each connection's
                while True:  # frames go in one write, in order
                    for conn, frame in ready:
                        by_conn.setdefault(id(conn), (conn, []))[1].append(frame)
                    if not (box and box[0][0] <= done):
                        break
                    ready = box.popleft()[1]
                for conn, frames in by_conn.values():
                    self._push(conn, *frames)
            else:
                for conn, frame in ready:
                    self._push(conn, frame)
        if not box and self._outbox.get(room_id) is box:
            del self._outbox[room_id]

    def _push(self, conn: _Conn, *frames: str) -> None:
        """Frames written to a connection now, in one write. One that has not read what
        it was sent (``max_unread`` bytes waiting) is closed: it would otherwise hold its
        room up, or the server's memory."""
        ws = conn.ws
        transport = ws.transport
        if transport.get_write_buffer_size() > self.limits.max_unread:
            log.info("connection closed: %d bytes it did not read",
                     transport.get_write_buffer_size())
            transport.abort()
            return
        if ws.protocol.state is not WS_OPEN:  # closing: nothing more is sent (as
            return  # websockets' own broadcast does)
        if not ws.protocol.extensions:  # (none is agreed: compression is off)
            transport.write(b"".join(map(text_frame, frames)))
            return
        for frame in frames:  # framed by websockets, sent as one piece
            ws.protocol.send_text(frame.encode())
        data = ws.protocol.data_to_send()
        if all(data):
            transport.write(b"".join(data))
            return
        for piece in data:  # (an end of the stream among them: as websockets sends it)
            if piece:
                transport.write(piece)
            elif transport.can_write_eof():
                transport.write_eof()
            else:
                transport.close()

    async def _flush(self, room_id: str) -> None:
        """Send the room's queued frames whose changes are on the disk, in order (one
        sender at a time: a send that waits does not let a later frame pass it)."""
        if room_id in self._flushing:
            return  # the one sending now sends these too, or their own wait will
        box = self._outbox.get(room_id)
        self._flushing.add(room_id)
        try:
            while box and self.disk is not None and box[0][0] <= self.disk.done:
                await self._send(box.popleft()[1])
        finally:
            self._flushing.discard(room_id)
        if box is not None and not box and self._outbox.get(room_id) is box:
            del self._outbox[room_id]

    async def _send(self, frames: list[tuple[_Conn, str]]) -> None:
        for conn, frame in frames:
            if self.disk is not None and self.disk.on_written is not None:
                self._push(conn, frame)  # a real connection: never waits for a slow one
                continue
            try:
                await conn.ws.send(frame)
            except GONE as e:  # a connection closing as it is sent to
                log.info("update not sent: %s", type(e).__name__)

    async def forget(self, room_id: str) -> None:
        """A room whose game is over: gone from the server and from its folder."""
        self.rooms.pop(room_id, None)
        for conn in self.members.pop(room_id, []):
            try:
                await conn.ws.send(protocol.encode("ended", message="the room was closed"))
                await conn.ws.close(code=1001, reason="the room was closed")
            except GONE as e:  # already gone
                log.info("not told of the end: %s", type(e).__name__)
        self._snapshot_at.pop(room_id, None)
        self._outbox.pop(room_id, None)
        self._written.pop(room_id, None)
        self._unopened(room_id)
        if self.disk is not None:
            await self.disk.write("forget", room_id, None)

    async def sweep(self) -> None:
        """Rooms nobody has been connected to for ``room_idle`` seconds go, with their
        files; old entries of the limits' windows go too."""
        now = time.time()
        for room in list(self.rooms.values()):
            if not self.members.get(room.id) and now - room.idle_since >= self.limits.room_idle:
                log.info("room %s closed: nobody there for %.0f s", room.id,
                         now - room.idle_since)
                await self.forget(room.id)
        if self.disk is not None:  # rooms whose lines keep an old segment of the journal
            for room_id in self.disk.pinning():
                if room_id in self.rooms:
                    self._put_snapshot(self.rooms[room_id])
        self.created.sweep()
        self.guesses.sweep()
        for address in [a for a, b in self.sent_by.items() if b.idle()]:
            del self.sent_by[address]

    async def keep(self) -> None:
        """Sweep now and then, for as long as the server runs."""
        every = max(0.05, min(60.0, self.limits.room_idle / 4))
        while True:
            await asyncio.sleep(every)
            await self.sweep()

    async def tend_memory(self) -> None:
        """``tabletop serve`` only (the collector is the whole process's): Python's
        full collection walks every object there is, and with many rooms that held the
        event loop for tens of milliseconds at a time, more as games grew. So what has
        lived a second is set aside, and everything is walked once in a while
        (``collector.Tender``)."""
        tender = collector.Tender()
        while True:
            await asyncio.sleep(1.0)
            tender.tick()

    async def end_all(self, why: str) -> None:
        """Tell every connection the game is over (an ``ended`` message: no rejoining),
        then close it: the host stops hosting."""
        for members in list(self.members.values()):
            for conn in list(members):
                try:
                    await conn.ws.send(protocol.encode("ended", message=why))
                    await conn.ws.close(code=1001, reason="the game ended")
                except GONE as e:  # already gone
                    log.info("not told of the end: %s", type(e).__name__)

    def close(self) -> None:
        if self.disk is not None:
            self.disk.close()

    # ---- the listening socket -------------------------------------------------------
    def ws_options(self) -> dict[str, Any]:
        """The websockets server's options: frame size, queue, pings, and the check that
        refuses a connection past the caps before its handshake."""
        server = self

        def process_request(connection: Any, request: Any) -> Any:
            from http import HTTPStatus
            why = server.admit(server.address(_Peer(connection, request)))
            if why is not None:
                return connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, why + "\n")
            return None
        return {"max_size": protocol.MAX_FRAME, "max_queue": 16, "compression": None,
                "close_timeout": protocol.CLOSE_TIMEOUT,
                "ping_interval": self.limits.ping_interval,
                "ping_timeout": self.limits.ping_timeout,
                "process_request": process_request}


@functools.cache
def trusted_networks(names: tuple[str, ...]) -> tuple[Any, ...]:
    """The ``--trusted-proxy`` names as networks (an address is a network of one);
    ValueError naming the first that is neither."""
    nets = []
    for name in names:
        try:
            nets.append(ipaddress.ip_network(name.strip(), strict=False))
        except ValueError:
            raise ValueError(f"{name!r} is not an IP address or network (such as "
                             f"127.0.0.1, ::1 or 10.0.0.0/8)") from None
    return tuple(nets)


def client_key(address: str) -> str:
    """What the limits of one client address count: an IPv4 address, or the /64 network
    of an IPv6 one (a home or a host is given a /64, and picks any address in it)."""
    try:
        ip = _plain(ipaddress.ip_address(address))
    except ValueError:
        return address
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def network_key(key: str) -> str:
    """The wider network a client (``client_key``) is counted in as well: the /48 of an
    IPv6 /64 (a site's: a home or a firm is given a /48 or a /56, so one person holds
    65,536 /64s or 256), the /24 of an IPv4 address."""
    try:
        net = ipaddress.ip_network(key, strict=False)
    except ValueError:
        return key
    prefix = 48 if net.version == 6 else 24
    return str(net.supernet(new_prefix=prefix)) if net.prefixlen > prefix else str(net)


def _plain(ip: Any) -> Any:
    """An IPv4 client of a dual-stack socket (``::ffff:10.0.0.1``) as IPv4."""
    mapped = getattr(ip, "ipv4_mapped", None)
    return mapped if mapped is not None else ip


@dataclass
class _Peer:
    """A connection's peer and request, before the handshake (for ``Server.address``)."""

    connection: Any
    request: Any

    @property
    def remote_address(self) -> Any:
        return self.connection.remote_address


def raise_file_limit() -> int:
    """The open-file soft limit raised to the hard limit (each connection is a file):
    the limit now."""
    try:
        import resource
    except ImportError:  # Windows
        return 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft == resource.RLIM_INFINITY or soft >= want:
        return int(soft)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    except (ValueError, OSError):
        return int(soft)
    return int(want)


# descriptors kept beyond the connections admitted: the server's own files (snapshots,
# the journal) and connections not yet past their handshake
def _kept_files(limit: int) -> int:
    return max(32, limit // 8)


def fitted(limits: Limits, file_limit: int) -> Limits:
    """``limits`` admitting no more connections than the open-file limit leaves room
    for: past that cap a connection is refused with an answer, where past the limit it
    would wait unanswered (0: no limit known)."""
    room = file_limit - _kept_files(file_limit)
    if file_limit <= 0 or limits.connections <= room:
        return limits
    return dataclasses.replace(limits, connections=max(1, room))


_OUT_OF = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


class QuietAccept:
    """The loop's handler of what no task caught. Out of descriptors (a flood of
    connections that never finish their handshake), asyncio's listener says so with a
    traceback for each of a hundred accepts a second, and tries again a second later:
    said here in one line a minute (a server writing to a pipe nobody read stopped when
    the pipe was full). uvloop's listener waits quietly."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 every: float = 60.0) -> None:
        self.clock, self.every = clock, every
        self.said: float | None = None

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if isinstance(exc, OSError) and exc.errno in _OUT_OF and "socket" in context:
            now = self.clock()
            if self.said is None or now - self.said >= self.every:
                self.said = now
                log.warning("out of open files (%s): new connections wait until some "
                            "close", exc.strerror or exc)
            return
        loop.default_exception_handler(context)


def ssl_context(certfile: str | None, keyfile: str | None) -> Any:
    """A TLS context for wss:// from a certificate chain and its key, or None."""
    if not certfile:
        return None
    import ssl
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.load_cert_chain(certfile, keyfile or None)
    return ctx


async def serve(host: str, port: int, folder: Path | None, ready: Any = None,
                announce: bool = False, limits: Limits | None = None,
                tls: Any = None) -> None:
    """Run until cancelled; ``ready(port)`` is told the port once listening.
    ``announce``: each room is announced on the local network (mDNS) as it opens."""
    from websockets.asyncio.server import serve as ws_serve
    asyncio.get_running_loop().set_exception_handler(QuietAccept())
    file_limit = raise_file_limit()
    asked = limits or Limits()
    limits = fitted(asked, file_limit)
    if limits.connections < asked.connections:
        log.warning("the open-file limit is %d: at most %d connections are admitted "
                    "(not %d)", file_limit, limits.connections, asked.connections)
    server = Server(folder, limits)
    server.attach()
    collector.tune()
    keeper = asyncio.ensure_future(server.keep())
    tender = asyncio.ensure_future(server.tend_memory())
    try:
        async with ws_serve(server.handler, host, port, ssl=tls,
                            **server.ws_options()) as ws_server:
            bound = next(iter(ws_server.sockets)).getsockname()[1]
            announcer = await _announcer(server, host, bound) if announce else None
            if ready is not None:
                ready(bound)
            try:
                await asyncio.get_running_loop().create_future()
            finally:
                if announcer is not None:
                    announcer.close()
    finally:
        keeper.cancel()
        tender.cancel()
        server.detach()
        server.close()


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
    except discovery.failures() as e:  # no multicast here
        log.warning("rooms not announced on the network: %s", e)
        return None

    def announce(room: Room) -> None:
        def register() -> None:
            try:
                announcer.add(", ".join(room.table.players), room.id,
                              list(room.table.players))
            except discovery.failures() as e:
                log.warning("room %s not announced: %s", room.id, e)
        loop.run_in_executor(None, register)
    for room in list(server.rooms.values()):
        announce(room)
    server.opened = announce
    return announcer


class EventLoop(StrEnum):
    """The event loops ``tabletop serve`` can run on (``--event-loop``)."""

    UVLOOP = "uvloop"  # libuv's (the uvloop package), where it is installed
    ASYNCIO = "asyncio"  # the standard library's


def loop_runner(wanted: EventLoop | None = None
                ) -> tuple[EventLoop, Callable[[Coroutine[Any, Any, None]], None]]:
    """The loop to serve on and the function that runs a coroutine on it. The default
    is uvloop where it is installed (not on Windows): the same server costs about a
    ninth fewer instructions an action on it (tests/benchmarks/bench_net_count.py), and
    a loaded server answers sooner (bench_net_load.py's capacity run)."""
    if wanted in (None, EventLoop.UVLOOP):
        try:
            import uvloop
        except ImportError:
            if wanted is EventLoop.UVLOOP:
                raise
        else:
            return EventLoop.UVLOOP, uvloop.run
    return EventLoop.ASYNCIO, asyncio.run


def main(host: str, port: int, folder: Path, announce: bool = False,
         limits: Limits | None = None, certfile: str | None = None,
         keyfile: str | None = None, event_loop: EventLoop | None = None) -> int:
    """``tabletop serve``: prints where it listens, runs until interrupted."""
    try:
        tls = ssl_context(certfile, keyfile)
    except (OSError, ValueError) as e:
        print(f"tabletop serve: cannot use the certificate {certfile}: "
              f"{getattr(e, 'strerror', None) or e}")
        return 2
    scheme = "wss" if tls is not None else "ws"
    try:
        used, run = loop_runner(event_loop)
    except ImportError:
        print("tabletop serve: --event-loop uvloop: the uvloop package is not installed",
              file=sys.stderr)
        return 2

    def ready(bound: int) -> None:
        print(f"tabletop server listening on {scheme}://{host}:{bound} "
              f"(rooms saved in {folder}; event loop: {used.value})", flush=True)
    try:
        run(serve(host, port, folder, ready, announce, limits, tls))
    except KeyboardInterrupt:
        pass
    except OSError as e:
        print(f"tabletop serve: cannot listen on {host}:{port}: {e.strerror or e}")
        return 2
    return 0


__all__ = ["JUDGE_SEAT", "SPECTATOR", "Disk", "EventLoop", "Limits", "Server", "loop_runner", "main",
           "serve"]
