"""Compact JSON text of plain data (lists, dicts with string keys, str, int, float,
bool, None), made by orjson, else by the json module's C encoder, built once; and
such text read back (``read``), by orjson where it can.

orjson writes a server's update of 340 bytes in about 1.2 us against 3.8 us, and
the same text but for a float's exponent ("1e-7", not "1e-07"); what it will not
write is written by the json module. ``json.dumps`` with its options builds an encoder
for every call: a save of 10,000 actions took about a fifth longer, and a server's
frame of 500 bytes half as long again (7.2 us, not 4.8)."""

from __future__ import annotations

import json
from typing import Any

_SEP = (",", ":")


class _NoOrjson:
    """Where orjson is not installed: what it would not write or read, so the json
    module does it all."""

    @staticmethod
    def dumps(value: Any) -> bytes:
        raise TypeError("orjson is not installed")

    @staticmethod
    def loads(text: str) -> Any:
        raise ValueError("orjson is not installed")


class _Later:
    """orjson, imported at its first use: with what it imports (dataclasses, uuid,
    platform, datetime) it cost the window's first frame 14 ms of 490, and the first
    frame writes and reads no JSON. The module then takes its place, so no later call
    pays for this."""

    def __getattr__(self, name: str) -> Any:
        global _orjson
        try:
            import orjson
        except ImportError:  # pragma: no cover - installed with tabletop
            _orjson = _NoOrjson()
        else:
            _orjson = orjson
        return getattr(_orjson, name)


_orjson: Any = _Later()

try:
    from json.encoder import (  # type: ignore[attr-defined]
        c_encode_basestring,
        c_make_encoder,
    )
    _c_encoder = c_make_encoder(None, None, c_encode_basestring, None, ":", ",", False, False,
                                True) if c_make_encoder and c_encode_basestring else None
except ImportError:  # pragma: no cover - a Python built without the json accelerator
    _c_encoder = None


def compact(value: Any) -> str:
    """``value`` as JSON: no spaces, text as it is (not escaped to ASCII)."""
    if _orjson is not None:
        try:
            return _orjson.dumps(value).decode()  # type: ignore[no-any-return]
        except TypeError:  # what it does not write (an int past 64 bits, a key that
            pass  # is not text, a lone surrogate): written as the json module does
    if _c_encoder is not None:
        return "".join(_c_encoder(value, 0))
    return json.dumps(value, separators=_SEP, ensure_ascii=False)


def no_constant(name: str) -> float:
    """``parse_constant`` for the json module: NaN, Infinity and -Infinity, which it
    reads though JSON has no such numbers, are refused (a file or a peer's frame)."""
    raise ValueError(f"{name} is not a number JSON allows")


def _finite(text: str) -> float:
    v = float(text)
    if v != v or v in (float("inf"), float("-inf")):
        raise ValueError(f"{text[:20]} is not a number JSON allows")
    return v


# orjson reads a text whole before it makes anything of it: a save of 43.5 MB (140,000
# actions) peaked at 330 MB read so, 216 MB by the json module, and no sooner (1.3 s
# against 1.1); a save of 3.7 MB (10,000 actions) it reads in 90 million instructions
# against 219. Texts longer than this are read by the json module.
READ_WHOLE_MAX = 8_000_000


def read(text: str) -> Any:
    """JSON text as data, with no NaN, Infinity or number past a float's range.

    orjson reads it where it can (an action of a save in about a fifth of the json
    module's time, a save of 10,000 actions in two fifths); what it will not read (a
    lone surrogate's escape, a bad text) or should not (past ``READ_WHOLE_MAX``) is read
    by the json module, which says what is wrong. (orjson reads an integer past 64 bits
    as a float: never an id or a count, which are checked as integers.) Raises
    ValueError or RecursionError."""
    if _orjson is not None and len(text) <= READ_WHOLE_MAX:
        try:
            return _orjson.loads(text)
        except ValueError:
            pass
    return json.loads(text, parse_constant=no_constant, parse_float=_finite)


def quote(text: str) -> str:
    """A text as a JSON string (what ``compact`` makes of a str, without its setup)."""
    return json.encoder.encode_basestring(text)
