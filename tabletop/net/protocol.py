"""The messages of network play: JSON objects with a version and a type.

Every message from a client is checked here before anything acts on it: its size,
that it is JSON, its version, its type, and each field's type and range. A message
that fails gets an error frame; nothing about the game changes."""

from __future__ import annotations

import json
from typing import Any

VERSION = 1
MAX_FRAME = 64 * 1024  # bytes: a client's message is small
MAX_TEXT = 500  # a chat line, a player name
LOG_LINES = 200  # the log lines a view carries (the newest)
CLOSE_TIMEOUT = 2  # seconds a closing connection is given to answer (a flood never does)

# type -> {field: (python type, required)}
CLIENT_MESSAGES: dict[str, dict[str, tuple[type | tuple[type, ...], bool]]] = {
    "create": {"players": (list, True), "edition": (str, False), "seed": (int, False),
               "judge_sees_all": (bool, False), "decks": (dict, False)},
    "join": {"room": (str, True), "code": (str, True), "seat": (str, True),
             "token": (str, False)},
    "act": {"action": (str, True), "id": (int, False), "zone": (str, False),
            "player": (str, False), "position": ((str, int), False), "count": (int, False),
            "tapped": (bool, False), "sides": (int, False), "delta": (int, False),
            "kind": (str, False), "value": (int, False), "text": (str, False),
            "down": (bool, False), "revealed": (bool, False), "host": (int, False),
            "name": (str, False), "types": (list, False), "subtypes": (list, False),
            "colors": (list, False), "power": (str, False), "toughness": (str, False),
            "phase": (str, False), "draw": (bool, False), "ids": (list, False),
            "ordered": (bool, False), "to": ((int, str), False), "from": (str, False),
            "shuffle": (bool, False)},
    "chat": {"text": (str, True)},
    "ping": {},
}
# the table's tools: on a card the seat may handle (as for a move), and a player's own
CARD_TOOLS = ("counters", "face", "reveal", "note", "pt", "attach", "ability")
SEAT_TOOLS = ("player_counter", "token", "mill", "mulligan", "move_all", "show", "cleanup",
              "bring_in")
ACTIONS = ("move", "move_many", "draw", "shuffle", "tap", "roll", "life", "undo",
           "agree_undo", "refuse_undo", "next_turn", "phase", "look", "arrow",
           "clear_arrows") + CARD_TOOLS + SEAT_TOOLS
LIST_FIELDS = ("types", "subtypes", "colors")  # a token's: short lists of short words


class ProtocolError(ValueError):
    """A message that is not one the protocol knows; said back as an error frame."""


def parse(frame: str | bytes) -> dict[str, Any]:
    """A client's frame as a checked message, or ProtocolError."""
    if isinstance(frame, bytes):
        if len(frame) > MAX_FRAME:
            raise ProtocolError(f"a message must be at most {MAX_FRAME} bytes")
        try:
            frame = frame.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("a message must be UTF-8 JSON text") from None
    if len(frame) > MAX_FRAME:
        raise ProtocolError(f"a message must be at most {MAX_FRAME} bytes")
    try:
        msg = json.loads(frame, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise ProtocolError("a message must be a JSON object") from None
    if not isinstance(msg, dict):
        raise ProtocolError("a message must be a JSON object")
    if msg.get("v") != VERSION:
        raise ProtocolError(f"this server speaks version {VERSION} of the protocol")
    kind = msg.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_MESSAGES:
        raise ProtocolError(f"unknown message type {str(kind)[:30]!r}")
    fields = CLIENT_MESSAGES[kind]
    for key in msg:
        if key not in ("v", "type") and key not in fields:
            raise ProtocolError(f"{kind}: unknown field {str(key)[:30]!r}")
    for key, (typ, required) in fields.items():
        if key not in msg:
            if required:
                raise ProtocolError(f"{kind}: field {key!r} is missing")
            continue
        value = msg[key]
        if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
            raise ProtocolError(f"{kind}: field {key!r} has the wrong type")
        if isinstance(value, str) and len(value) > MAX_TEXT:
            raise ProtocolError(f"{kind}: field {key!r} is too long")
        if isinstance(value, int) and not isinstance(value, bool) \
                and not -1_000_000 <= value <= 1_000_000:
            raise ProtocolError(f"{kind}: field {key!r} is out of range")
    if kind == "create":
        players = msg["players"]
        if not 1 <= len(players) <= 8 or not all(
                isinstance(p, str) and 0 < len(p) <= 40 for p in players) \
                or len(set(players)) != len(players):
            raise ProtocolError("create: players must be 1 to 8 distinct names")
        if any(p.lower() in ("judge", "spectator") for p in players):
            raise ProtocolError("create: 'judge' and 'spectator' are seats, not player names")
        if "decks" in msg:
            _check_decks(msg["decks"], players)
    if kind == "act" and msg["action"] not in ACTIONS:
        raise ProtocolError(f"act: unknown action {msg['action'][:30]!r}")
    ids = msg.get("ids")
    if ids is not None and not (0 < len(ids) <= 250 and all(
            isinstance(i, int) and not isinstance(i, bool) for i in ids)):
        raise ProtocolError(f"{kind}: field 'ids' must be 1 to 250 object ids")
    for key in LIST_FIELDS:
        words = msg.get(key)
        if words is not None and (len(words) > 8 or not all(
                isinstance(w, str) and 0 < len(w) <= 40 for w in words)):
            raise ProtocolError(f"{kind}: field {key!r} must be at most 8 words of 1 to "
                                f"40 characters")
    return msg


DECK_SECTIONS = ("main", "sideboard", "commander", "companion")
MAX_DECK_LINES = 300  # distinct names in one deck
MAX_DECK_CARDS = 500  # cards in one deck, all its sections (a server deals many tables)


def _check_decks(decks: dict[str, Any], players: list[str]) -> None:
    """``{player: {section: [[count, name], ...]}}``: a deck for every player, each
    named card once per section, counts of 1 to 250."""
    if set(decks) != set(players):
        raise ProtocolError("create: decks must be given for every player, or for none")
    for deck in decks.values():
        if not isinstance(deck, dict) or not set(deck) <= set(DECK_SECTIONS):
            raise ProtocolError(f"create: a deck has the sections {', '.join(DECK_SECTIONS)}")
        lines = [e for section in deck.values() if isinstance(section, list) for e in section]
        if any(not isinstance(section, list) for section in deck.values()) \
                or len(lines) > MAX_DECK_LINES or not all(
                isinstance(e, list) and len(e) == 2 and isinstance(e[0], int)
                and not isinstance(e[0], bool) and 1 <= e[0] <= 250
                and isinstance(e[1], str) and 0 < len(e[1]) <= 150 for e in lines):
            raise ProtocolError(f"create: a deck is at most {MAX_DECK_LINES} lines of "
                                f"[count, card name]")
        if sum(e[0] for e in lines) > MAX_DECK_CARDS:
            raise ProtocolError(f"create: a deck is at most {MAX_DECK_CARDS} cards")


def _no_constant(name: str) -> Any:
    raise ValueError(name)


def encode(kind: str, /, **fields: Any) -> str:
    """A server message as its frame."""
    return json.dumps({"v": VERSION, "type": kind, **fields}, ensure_ascii=False,
                      separators=(",", ":"))


def error(text: str) -> str:
    return encode("error", message=text)
