"""One intent per table action (issue 31): the registry in engine/intents.py is the one
vocabulary, from the controller's gesture to the wire and the host's room."""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.engine import intents
from tabletop.net import protocol

WIRE_TYPES = {int: int, str: str, bool: bool, float: (int, float), intents.Ref: int}


def _strategy(hint: Any) -> st.SearchStrategy[Any]:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return st.one_of(*(_strategy(a) for a in typing.get_args(hint)))
    if hint is type(None):
        return st.none()
    if hint is bool:
        return st.booleans()
    if hint in (int, intents.Ref):
        return st.integers(1, 1000)
    if hint is float:
        return st.floats(0, 20000)
    if hint is str:
        return st.text("abcXYZ/+1", min_size=1, max_size=8)  # as a check leaves it
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return st.lists(_strategy(args[0]), max_size=3, unique=True).map(tuple)
        return st.tuples(*(_strategy(a) for a in args))
    raise AssertionError(hint)


def _intents() -> st.SearchStrategy[intents.Intent]:
    def build(cls: type[intents.Intent]) -> st.SearchStrategy[intents.Intent]:
        hints = typing.get_type_hints(cls)
        fields = {f.name: _strategy(hints[f.name]) for f in dataclasses.fields(cls)
                  if f.name not in cls.LOCAL}
        return st.fixed_dictionaries(fields).map(lambda d: cls(**d))
    return st.sampled_from(list(intents.INTENTS.values())).flatmap(build)


def test_one_name_each():
    names = [c.NAME for c in intents.INTENTS.values()]
    assert len(names) == len(set(names)) == len(intents.INTENTS)
    assert all(name == cls.NAME for name, cls in intents.INTENTS.items())
    assert set(protocol.ACTIONS) == set(intents.INTENTS)


def test_every_field_of_every_intent_is_a_field_the_protocol_reads():
    act = protocol.CLIENT_MESSAGES["act"]
    for cls in intents.INTENTS.values():
        for f in dataclasses.fields(cls):
            if f.name in cls.LOCAL:
                continue
            key = cls.WIRE.get(f.name, f.name)
            assert key in act, (cls.NAME, key)


@given(_intents())
def test_an_intent_read_back_from_the_wire_is_the_same_intent(intent):
    fields = intent.encode()
    try:
        again = intents.decode(fields)
    except intents.IntentError:
        with pytest.raises(intents.IntentError):
            intent.check()  # only a value out of range is refused
        return
    assert again == intent
    assert fields["action"] == intent.NAME
    # and the protocol's own check lets the frame through
    protocol.parse(protocol.json.dumps({"v": 1, "type": "act", **fields}))


@pytest.mark.parametrize("fields, says", [
    ({"action": "tap", "id": True}, "field 'id' has the wrong type"),
    ({"action": "draw", "count": 0}, "1 to 100"),
    ({"action": "move", "id": 3}, "field 'zone' is needed"),
    ({"action": "move_many", "ids": [3, 3], "zone": "hand"}, "each card once"),
    ({"action": "place", "ids": [1], "at": [[1e9, 0]]}, "place"),
    ({"action": "token", "name": "Bear", "power": "2"}, "a power and a toughness"),
    ({"action": "arrow", "id": 1, "to": [1]}, "field 'to' has the wrong type"),
    ({"action": "fly"}, "unknown action"),
])
def test_a_wrong_intent_is_refused_with_its_field_named(fields, says):
    with pytest.raises(intents.IntentError, match=says) as e:
        intents.decode(fields)
    assert e.value.code == "invalid"


def test_life_is_a_change_everywhere():
    assert "delta" in intents.Life().encode() and "life" not in intents.Life().encode()
