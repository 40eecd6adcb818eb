"""Text taken from files, made safe for where it is shown.

On a terminal, control characters (escape sequences that move the cursor or
rewrite a line, bidirectional overrides that reorder it) are written as visible
``\\uXXXX`` escapes, which are also valid inside JSON strings, so `--json` output
stays parseable and means the same."""

from __future__ import annotations

import io
import os
import re
import sys
from collections.abc import Iterable
from functools import cache
from typing import Any

# C0 and C1 controls except tab and newline; DEL; bidirectional and invisible format marks
_UNSAFE = ("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069"
           "\ufeff\ufff9-\ufffb]")


@cache
def _unsafe() -> re.Pattern[str]:
    return re.compile(_UNSAFE)  # when first needed: compiling it takes a millisecond


# What a peer's text (a chat line, a player's or a token's name, a counter's kind, a
# note) is made of once read: no control character, a line break or a tab becoming a
# space, and none of the marks that reorder or hide the text after them in a line of the
# log (bidirectional embeddings, overrides and isolates, zero-width spaces, byte order
# marks). The joiners (U+200C, U+200D) stay: emoji sequences and some scripts need them.
_PEER_SPACES = "\t\n\x0b\x0c\r\x85\u2028\u2029"
_PEER_DROPS = [*range(0x20), *range(0x7F, 0xA0), 0x200B, 0x200E, 0x200F,
               *range(0x202A, 0x202F), *range(0x2060, 0x206A), 0xFEFF, 0xFFF9, 0xFFFA, 0xFFFB]
_PEER = {**dict.fromkeys(_PEER_DROPS), **{ord(ch): " " for ch in _PEER_SPACES}}


def peer_text(text: str) -> str:
    """``text`` from another machine, as the table keeps it: see ``_PEER_SPACES``."""
    return text.translate(_PEER)


def html_text(text: str) -> str:
    """Text escaped for HTML, as ``html.escape`` does it and the same way (a replace for
    each mark, the ampersand's first: a quarter of the time of a translation table, and
    every card's tooltip is escaped as a table opens); here because the window's first
    frame escapes a few names, and the html module brings a large table of entities."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") \
        .replace('"', "&quot;").replace("'", "&#x27;")


def terminal(text: str) -> str:
    """Text with every control character shown as an escape."""
    return _unsafe().sub(lambda m: f"\\u{ord(m.group()):04x}", text)


# names from outside (the command line's file names) with a line feed, tab or carriage
# return in them, and how they are written: a message naming one stays on its line
_NAMES: list[tuple[str, str]] = []
_BREAKS = str.maketrans({"\n": "\\u000a", "\t": "\\u0009", "\r": "\\u000d"})


def names_from_outside(values: Iterable[object]) -> None:
    """Write these names (a file name given on the command line, as given and as a path
    makes it) with their line breaks escaped too, wherever a message names them."""
    from pathlib import Path
    for v in values:
        if isinstance(v, str) and any(ch in v for ch in "\n\t\r"):
            for raw in {v, str(Path(v)), os.path.abspath(v), Path(v).name}:
                _NAMES.append((raw, raw.translate(_BREAKS)))
    _NAMES.sort(key=lambda pair: -len(pair[0]))  # the longest first: a path before its name


def escape_names(text: str) -> str:
    """``text`` with the names from outside that hold a line break written escaped."""
    for raw, escaped in _NAMES:
        if raw in text:
            text = text.replace(raw, escaped)
    return text


class SafeWriter(io.TextIOBase):
    """A stream that passes text on with its control characters escaped."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(terminal(escape_names(text)))
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    @property
    def encoding(self) -> str:  # type: ignore[override]  # the stream's, read-only
        return str(getattr(self.stream, "encoding", "utf-8"))

    def isatty(self) -> bool:
        return bool(self.stream.isatty())

    def fileno(self) -> int:  # faulthandler and subprocesses may ask for the real stream
        return int(self.stream.fileno())


def _console(name: str) -> Any:
    """A windowed Windows build starts with no console (sys.stdout is None): write to
    the console of the terminal that started it, if there is one."""
    if sys.platform != "win32":
        return None
    try:
        import ctypes
        if not getattr(_console, "attached", False):
            _console.attached = bool(ctypes.windll.kernel32.AttachConsole(-1))  # the parent's
        if _console.attached:
            return open("CONOUT$", "w", encoding="utf-8", errors="replace")
    except (OSError, AttributeError):
        pass
    return None


def install() -> None:
    """Escape control characters in everything the command line prints. A windowed
    build with no console to attach to writes nowhere, safely."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None:
            # the process's own stream from now on: never closed
            stream = _console(name) or open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
        if not isinstance(stream, SafeWriter):
            setattr(sys, name, SafeWriter(stream))
