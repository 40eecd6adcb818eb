"""A property of the server: whatever JSON values a seat puts in whatever fields of
whatever message (lone surrogates too), it is answered, and the valid action it sends
next is still carried out and answered with its request id."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.cards import demo
from tabletop.net import protocol
from tabletop.net.server import Server

TEXT = st.one_of(st.text(max_size=20), st.sampled_from(["\ud800", "a\udfffb", "", "x" * 600]))
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70),
                    st.floats(allow_nan=False), TEXT)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(TEXT, inner, max_size=4)), max_leaves=12)


@st.composite
def messages(draw: Any) -> dict[str, Any]:
    kind = draw(st.sampled_from(sorted(protocol.CLIENT_MESSAGES)))
    names = sorted(protocol.CLIENT_MESSAGES[kind])
    chosen = draw(st.lists(st.sampled_from(names), unique=True)) if names else []
    msg: dict[str, Any] = {"v": 1, "type": kind}
    for name in chosen:
        msg[name] = draw(VALUES)
    if kind == "act" and draw(st.booleans()):
        msg["action"] = draw(st.sampled_from(protocol.ACTIONS))
    if draw(st.booleans()):
        msg["rid"] = draw(VALUES)
    return msg


class FakeSocket:
    """What the server's handler needs of a connection: frames in, frames out."""

    made = 0

    def __init__(self, frames: list[str]) -> None:
        FakeSocket.made += 1  # each a client of its own (limits are per address)
        self.remote_address = (f"10.{FakeSocket.made >> 16 & 255}.{FakeSocket.made >> 8 & 255}."
                               f"{FakeSocket.made & 255}", 40000)
        self.frames = frames
        self.sent: list[dict[str, Any]] = []

    def __aiter__(self) -> Any:
        return self._frames()

    async def _frames(self) -> Any:
        for frame in self.frames:
            yield frame

    async def send(self, frame: str) -> None:
        frame.encode("utf-8")  # what a real socket does: a lone surrogate could not go
        self.sent.append(json.loads(frame))

    async def close(self, code: int = 1000, reason: str = "") -> None:
        pass


SERVER = Server(None)
ROOM = SERVER.add_room(demo.new_game(players=("Ann", "Ben"), seed=1))
TOKEN = ROOM.join("Ann", ROOM.code, invite=ROOM.invites["Ann"])[1]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messages())
def test_any_values_in_any_fields_are_answered_and_the_room_keeps_working(msg):
    join = json.dumps({"v": 1, "type": "join", "room": ROOM.id, "code": ROOM.code,
                       "seat": "Ann", "token": TOKEN})
    roll = json.dumps({"v": 1, "type": "act", "action": "roll", "sides": 6, "rid": "last"})
    ws = FakeSocket([join, json.dumps(msg), roll])
    asyncio.run(SERVER.handler(ws))
    kinds = [m["type"] for m in ws.sent]
    assert kinds[:2] == ["joined", "view"]
    answers = [m for m in ws.sent[2:] if m.get("rid") == "last"]
    assert answers and answers[-1]["type"] == "update", ws.sent[-3:]
    assert all("code" in m for m in ws.sent if m["type"] == "error")



def near(typ: Any) -> Any:
    """Values on either side of what a field of type ``typ`` takes: at and past its
    length and range, a bool where a number goes, another type."""
    kinds = typ if isinstance(typ, tuple) else (typ,)
    edges: list[Any] = [None, True, 1.5, [], {}, "x"]
    for k in kinds:
        if k is str:
            edges += ["", "x" * 500, "x" * 501]
        elif k is int:
            edges += [0, -1_000_000, 1_000_000, -1_000_001, 1_000_001, False]
        elif k is list:
            edges += [["a"], [1]]
        elif k is dict:
            edges.append({"a": 1})
    return st.sampled_from(edges)


RIGHT = {str: "x", int: 1, bool: True, list: ["a"], dict: {"a": 1}}


@st.composite
def near_messages(draw: Any) -> dict[str, Any]:
    """A message right but for at most one field (or one missing, or one unknown)."""
    kind = draw(st.sampled_from(sorted(protocol.CLIENT_MESSAGES)))
    fields = protocol.CLIENT_MESSAGES[kind]
    msg: dict[str, Any] = {"v": 1, "type": kind}
    for name in draw(st.lists(st.sampled_from(sorted(fields)), unique=True, max_size=3)) \
            if fields else []:
        typ = fields[name][0]
        msg[name] = RIGHT[typ[0] if isinstance(typ, tuple) else typ]
    for name, (typ, required) in fields.items():
        if required:
            msg[name] = RIGHT[typ]  # type: ignore[index]
    flaw = draw(st.integers(0, 9))
    if flaw == 0:
        msg["unknown"] = 1
    elif flaw == 1 and any(required for _, required in fields.values()):
        del msg[draw(st.sampled_from([n for n, (_, r) in fields.items() if r]))]
    elif flaw > 1 and fields:
        name = draw(st.sampled_from(sorted(fields)))
        msg[name] = draw(near(fields[name][0]))
    return msg


@settings(max_examples=400, deadline=None)
@given(near_messages())
def test_the_quick_look_at_a_messages_fields_agrees_with_the_whole_check(msg):
    """The server looks only at the fields a message has; whenever that finds nothing
    wrong, the field-by-field check of every field its type may have finds nothing
    either, and whenever it finds something, that check names it."""
    kind = msg["type"]
    fields = protocol.CLIENT_MESSAGES[kind]
    quick = protocol._fields_ok(msg, fields, protocol._REQUIRED[kind])
    try:
        protocol._fields_wrong(kind, msg, fields)
    except protocol.ProtocolError:
        assert not quick, msg
    else:
        assert quick, msg
