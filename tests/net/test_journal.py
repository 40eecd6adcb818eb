"""The server's journal: every room's intentions in one log, synced once a batch. A
server started again from its folder has every room as it was told, however the
journal's segments were cut and removed; a forgotten room's lines never come back."""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import Any

import pytest

from tabletop.cards import demo
from tabletop.net import server as server_mod
from tabletop.net.rooms import RoomError
from tabletop.net.server import Server, _Conn


class Socket:
    def __init__(self) -> None:
        self.remote_address = ("127.0.0.1", 1)
        self.frames: list[dict[str, Any]] = []

    async def send(self, frame: str) -> None:
        self.frames.append(json.loads(frame))

    async def close(self, code: int = 1000, reason: str = "") -> None:
        pass


def state(server: Server, room_id: str) -> Any:
    """A room as a restored server must have it: its table's zones, life and log."""
    t = server.rooms[room_id].table
    return ({k: [t.objs[o].card.name for o in ids] for k, ids in t.zones.items()},
            dict(t.life), [e.text for e in t.journal], server.rooms[room_id].applied)


async def seated(server: Server, seat: str, room_id: str) -> _Conn:
    room = server.rooms[room_id]
    conn = _Conn(Socket(), "127.0.0.1")
    await server._handle(conn, {"type": "join", "room": room.id, "code": room.code,
                                "seat": seat, "invite": room.invites[seat]}, None)
    return conn


async def play(server: Server, conn: _Conn, turns: int) -> None:
    for i in range(turns):
        msg = ({"action": "roll", "sides": 6}, {"action": "life", "delta": -1},
               {"action": "draw", "count": 1})[i % 3]
        with contextlib.suppress(RoomError):  # an empty library
            await server._handle(conn, {"type": "act", "rid": i, **msg}, i)


async def settle(server: Server) -> None:
    assert server.disk is not None
    await server.disk.idle()


async def one_room(folder: Path, turns: int) -> tuple[Any, str]:
    """A server with one room played ``turns`` times, stopped as a killed one is
    (nothing more written): the room as it was, and its id."""
    s = Server(folder)
    a = await s.open_table(demo.new_game(players=("Ann", "Ben"), seed=1))
    await play(s, await seated(s, "Ann", a.id), turns)
    await settle(s)
    was = state(s, a.id)
    s.close()
    return was, a.id


def test_rooms_share_one_journal_and_come_back_from_it(tmp_path: Path) -> None:
    folder = tmp_path / "server"

    async def run() -> tuple[Any, Any]:
        s = Server(folder)
        a = await s.open_table(demo.new_game(players=("Ann", "Ben"), seed=1))
        b = await s.open_table(demo.new_game(players=("Cat", "Dan"), seed=2))
        ann, cat = await seated(s, "Ann", a.id), await seated(s, "Cat", b.id)
        await asyncio.gather(play(s, ann, 40), play(s, cat, 25))
        await settle(s)
        return state(s, a.id), state(s, b.id), a.id, b.id, s
    before_a, before_b, a_id, b_id, s = asyncio.run(run())
    s.close()  # (the thread stopped: as a killed process, nothing more is written)
    assert sorted(p.name for p in folder.glob("journal-*.log")) == ["journal-000001.log"]
    lines = [json.loads(x) for x in (folder / "journal-000001.log").read_text().splitlines()]
    assert {x["room"] for x in lines} == {a_id, b_id}
    again = Server(folder)
    try:
        assert state(again, a_id) == before_a and state(again, b_id) == before_b
    finally:
        again.close()
    # restored rooms were written whole again, and the old journal went
    assert not (folder / "journal-000001.log").exists()


def test_a_journal_cut_mid_line_is_read_to_its_last_whole_line(tmp_path: Path) -> None:
    folder = tmp_path / "server"
    before, a_id = asyncio.run(one_room(folder, 10))
    journal = folder / "journal-000001.log"
    whole = journal.read_bytes()
    journal.write_bytes(whole + b'{"room": "' + a_id.encode() + b'", "n": 11, "se')
    again = Server(folder)
    try:
        assert state(again, a_id) == before
    finally:
        again.close()


def test_a_forgotten_rooms_lines_never_come_back(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "server"
    ids = iter(["feedbeef", "feedbeef"])  # the next room is given the same id
    monkeypatch.setattr(server_mod.secrets, "token_hex", lambda n: next(ids))

    async def run() -> tuple[Any, Server]:
        s = Server(folder)
        a = await s.open_table(demo.new_game(players=("Ann", "Ben"), seed=1))
        await play(s, await seated(s, "Ann", a.id), 12)
        await s.forget(a.id)
        b = await s.open_table(demo.new_game(players=("Ann", "Ben"), seed=1))
        assert b.id == a.id
        await play(s, await seated(s, "Ann", b.id), 2)
        await settle(s)
        return state(s, b.id), s
    before, s = asyncio.run(run())
    s.close()
    again = Server(folder)
    try:
        assert state(again, "feedbeef") == before
    finally:
        again.close()


def test_full_segments_are_removed_once_their_rooms_are_written_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_mod, "SEGMENT_BYTES", 1200)
    folder = tmp_path / "server"

    async def run() -> tuple[Any, Any, Any, Server]:
        s = Server(folder)
        a = await s.open_table(demo.new_game(players=("Ann", "Ben"), seed=1))
        b = await s.open_table(demo.new_game(players=("Cat", "Dan"), seed=2))
        ann, cat = await seated(s, "Ann", a.id), await seated(s, "Cat", b.id)
        await play(s, cat, 3)  # room b then goes quiet: its lines keep segment 1
        await play(s, ann, 60)
        await settle(s)
        segments = sorted(p.name for p in folder.glob("journal-*.log"))
        assert len(segments) >= 3, segments
        assert "journal-000001.log" in segments
        assert s.disk is not None and b.id in s.disk.pinning()
        await s.sweep()  # the quiet room is written again, and no segment is pinned
        await play(s, ann, 1)
        await settle(s)
        assert s.disk.pinning() == []
        left = sorted(p.name for p in folder.glob("journal-*.log"))
        assert left == [f"journal-{s.disk.segment:06d}.log"], left
        return state(s, a.id), state(s, b.id), (a.id, b.id), s
    before_a, before_b, (a_id, b_id), s = asyncio.run(run())
    s.close()
    again = Server(folder)
    try:
        assert state(again, a_id) == before_a and state(again, b_id) == before_b
    finally:
        again.close()


def test_a_rooms_own_log_from_an_older_server_is_read(tmp_path: Path) -> None:
    """A folder written before the journal: a snapshot and the room's own log."""
    folder = tmp_path / "server"
    before, a_id = asyncio.run(one_room(folder, 9))
    journal = folder / "journal-000001.log"
    own = [json.loads(x) for x in journal.read_text().splitlines()]
    (folder / f"room-{a_id}.log").write_text("".join(
        json.dumps({k: v for k, v in x.items() if k != "room"}) + "\n" for x in own))
    journal.unlink()
    again = Server(folder)
    try:
        assert state(again, a_id) == before
    finally:
        again.close()
    assert not (folder / f"room-{a_id}.log").exists()  # written whole since


def test_an_old_journal_goes_only_once_its_rooms_are_written_whole(tmp_path: Path) -> None:
    """The journal a server started from is removed only after every room replayed
    from it is in a snapshot (a snapshot that failed to be written keeps it)."""
    folder = tmp_path / "server"
    folder.mkdir()
    old = folder / "journal-000001.log"
    old.write_text('{"room": "r", "n": 5, "seat": "Ann", "msg": {"text": "hi"}}\n')
    disk = server_mod.Disk(folder, fsync=False, segment=2)
    try:
        async def run() -> None:
            await disk.write("drop", "", (2, {"r": 5}))  # room r not written yet: kept
            assert old.exists()
            await disk.write("snapshot", "r", (b"{}", 4))  # written, but not up to 5
            await disk.write("drop", "", (2, {"r": 5}))
            assert old.exists()
            await disk.write("snapshot", "r", (b"{}", 5))
            await disk.write("drop", "", (2, {"r": 5}))
            assert not old.exists()
        asyncio.run(run())
    finally:
        disk.close()


def test_a_snapshot_being_written_holds_up_no_rooms_answers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rooms are written whole now and then, by a thread of their own: while one room's
    snapshot is on its way to the disk (held here), every room's actions are still
    answered once their lines are in the journal; killed then, the server comes back
    with every answered action, and once the snapshot is written, with it too."""
    import threading

    from tabletop.engine import files
    monkeypatch.setattr(server_mod, "SNAPSHOT_EVERY", 4)
    folder = tmp_path / "server"
    release, holding = threading.Event(), threading.Event()
    real = files.atomic_write

    def held(path: Path, data: bytes) -> None:
        if path.name.startswith("room-") and data and b'"applied":0' not in data:
            holding.set()  # a snapshot after actions: held until the test lets it go
            release.wait(10)
        real(path, data)
    monkeypatch.setattr(files, "atomic_write", held)

    async def run() -> tuple[Any, Any, str, str, Server]:
        s = Server(folder)
        a = await s.open_table(demo.new_game(players=("Ann", "Ben"), seed=1))
        b = await s.open_table(demo.new_game(players=("Cat", "Dan"), seed=2))
        ann, cat = await seated(s, "Ann", a.id), await seated(s, "Cat", b.id)
        await play(s, ann, 8)  # past SNAPSHOT_EVERY: room a's snapshot is asked for
        assert await asyncio.to_thread(holding.wait, 10)
        answered = len(cat.ws.frames)
        await asyncio.wait_for(play(s, cat, 6), 5)  # answered while it is held
        await asyncio.wait_for(play(s, ann, 3), 5)
        assert len(cat.ws.frames) > answered
        await s.disk.wait(s.disk.seq)
        return state(s, a.id), state(s, b.id), a.id, b.id, s
    before_a, before_b, a_id, b_id, s = asyncio.run(run())
    # killed with the snapshot still held: the journal has every answered action
    killed = tmp_path / "killed"
    import shutil
    shutil.copytree(folder, killed, ignore=shutil.ignore_patterns(".*.tmp"))
    release.set()
    asyncio.run(s.disk.idle())
    s.close()
    for where in (killed, folder):
        again = Server(where)
        try:
            assert state(again, a_id) == before_a and state(again, b_id) == before_b, where
        finally:
            again.close()
