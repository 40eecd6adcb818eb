"""tabletop.jsontext.compact: the JSON text every save, snapshot and frame is made of.

It is written by orjson when that is installed, else by the json module. Either way a
reader must get back exactly the value written, and the text must be the json module's
own (compact, text not escaped to ASCII) but for how a float's exponent is spelled."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop import jsontext
from tabletop.jsontext import compact

TEXT = st.text(st.characters(blacklist_categories=("Cs",)))  # any text UTF-8 can hold
SCALARS = st.none() | st.booleans() | st.integers(-2**63, 2**63 - 1) | TEXT | st.floats(
    allow_nan=False, allow_infinity=False)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=5)
                      | st.dictionaries(TEXT, inner, max_size=5), max_leaves=30)


def stdlib(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@given(VALUES)
def test_what_is_written_reads_back_as_it_was(value):
    assert json.loads(compact(value)) == value


@given(st.recursive(st.none() | st.booleans() | st.integers(-2**63, 2**63 - 1) | TEXT,
                    lambda inner: st.lists(inner, max_size=5)
                    | st.dictionaries(TEXT, inner, max_size=5), max_leaves=30))
def test_with_no_floats_the_text_is_the_json_modules(value):
    assert compact(value) == stdlib(value)


@pytest.mark.parametrize("value", [
    2**70,  # past 64 bits
    {1: "a", "b": 2},  # a key that is not text: the json module writes it as text
    ["\ud800"],  # a lone surrogate (a save cannot hold it; the caller finds out)
])
def test_what_orjson_will_not_write_is_written_as_the_json_module_does(value):
    assert compact(value) == stdlib(value)


def test_a_tuple_is_a_list():
    assert compact({"place": (1.5, 2)}) == '{"place":[1.5,2]}'


def test_orjson_writes_when_installed():
    """The dependency is declared: a fresh install writes with it (the speed of every
    frame and save rests on it), imported at the first text made or read."""
    import orjson
    compact([1])
    assert jsontext._orjson is orjson


@given(VALUES | st.lists(st.text(min_size=1), max_size=3))
def test_read_gives_back_what_was_written(value):
    """``read`` (orjson where it can, the json module for the rest: a lone surrogate's
    escape among them) gives back any value ``compact`` wrote."""
    assert jsontext.read(compact(value)) == value


@pytest.mark.parametrize("text", ["NaN", "[Infinity]", "[-Infinity]", '{"a":1e999}'])
def test_read_refuses_numbers_no_save_holds(text):
    with pytest.raises(ValueError, match="not a number JSON allows"):
        jsontext.read(text)


@pytest.mark.parametrize("text", ["[1,", "[1] 2", "", '{"a" 1}'])
def test_read_says_what_is_wrong_as_the_json_module_does(text):
    with pytest.raises(json.JSONDecodeError):
        jsontext.read(text)


def test_a_long_text_is_read_by_the_json_module(monkeypatch):
    """orjson reads a whole text before making anything of it: a save of 140,000 actions
    peaked a third higher (tests/benchmarks/bench_saves.py). Past READ_WHOLE_MAX the json
    module reads it; below, orjson."""
    asked: list[int] = []
    small, long = compact(["x" * 10]), compact(["y" * 200])

    class Counting:
        @staticmethod
        def loads(text):
            asked.append(len(text))
            import orjson
            return orjson.loads(text)
    monkeypatch.setattr(jsontext, "_orjson", Counting)
    assert jsontext.read(small) == ["x" * 10] and asked == [len(small)]
    monkeypatch.setattr(jsontext, "READ_WHOLE_MAX", 100)
    assert jsontext.read(long) == ["y" * 200] and asked == [len(small)]
