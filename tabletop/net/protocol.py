"""The messages of network play: JSON objects with a version and a type.

Every message from a client is checked here before anything acts on it: its size,
that it is JSON, its version, its type, and each field's type and range. A message
that fails gets an error frame; nothing about the game changes."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Any

import orjson as _orjson

from tabletop.engine import intents
from tabletop.engine.model import MAX_PLACE, check_place
from tabletop.jsontext import compact, no_constant
from tabletop.textsafe import peer_text

VERSION = 1
MAX_FRAME = 64 * 1024  # bytes: a client's message is small
MAX_TEXT = 500  # a chat line, a player name
LOG_LINES = 200  # the log lines a view carries (the newest)
CLOSE_TIMEOUT = 2  # seconds a closing connection is given to answer (a flood never does)

MAX_RID = 64  # characters of a request id


class Changes(StrEnum):
    """How a connection is sent a zone that changed (``join``'s ``changes``)."""

    ZONES = "zones"  # every card of the zone again (the default)
    CARDS = "cards"  # the zone's order of ids, and only the cards new to it or changed


class Code(StrEnum):
    """The stable codes of error frames: clients match these, never the words."""

    BAD_FRAME = "bad-frame"  # not a message of the protocol: size, JSON, type, a field
    NOT_JOINED = "not-joined"  # a table message before taking a seat
    ALREADY_JOINED = "already-joined"  # create or join on a connection that has a seat
    NO_ROOM = "no-room"  # no such room, or a wrong room code (the same answer)
    NO_SEAT = "no-seat"  # the table has no such seat
    INVITE_NEEDED = "invite-needed"  # a player's or the judge's seat needs its invitation
    SEAT_TAKEN = "seat-taken"  # the seat is held: rejoin it with its token
    DECLINED = "declined"  # the host did not let this client sit
    NOT_YOUR_SEAT = "not-your-seat"  # a card, a library or a turn that is another's
    SPECTATOR = "spectator"  # spectators watch; they do not act
    HIDDEN = "hidden"  # what the seat may not look at (an opponent's library)
    GONE = "gone"  # an id this seat was never sent, or whose card has moved since
    INVALID = "invalid"  # a value out of what the action allows
    REFUSED = "refused"  # the rules keep the card where it is (the message names the rule)
    NOTHING = "nothing"  # nothing to undo, no request to answer
    RATE_LIMITED = "rate-limited"  # too many messages, rooms or wrong codes from here
    FULL = "full"  # the server holds as many rooms or connections as it may (the table
    # as many tokens and abilities, the game as many log lines)
    UNKNOWN_CARDS = "unknown-cards"  # a deck names cards the server does not know


# type -> {field: (python type, required)}; every message may carry ``rid`` (a request
# id of the client's, int or string), said back in the answer to it
CLIENT_MESSAGES: dict[str, dict[str, tuple[type | tuple[type, ...], bool]]] = {
    "create": {"players": (list, True), "edition": (str, False), "seed": (int, False),
               "judge_sees_all": (bool, False), "decks": (dict, False)},
    "join": {"room": (str, True), "code": (str, True), "seat": (str, False),
             "token": (str, False), "invite": (str, False), "changes": (str, False)},
    "act": {"action": (str, True), "id": (int, False), "zone": (str, False),
            "player": (str, False), "position": ((str, int), False), "count": (int, False),
            "tapped": (bool, False), "sides": (int, False), "delta": (int, False),
            "kind": (str, False), "value": (int, False), "text": (str, False),
            "down": (bool, False), "revealed": (bool, False), "host": (int, False),
            "name": (str, False), "types": (list, False), "subtypes": (list, False),
            "colors": (list, False), "power": (str, False), "toughness": (str, False),
            "phase": (str, False), "draw": (bool, False), "ids": (list, False),
            "ordered": (bool, False), "to": ((int, str), False), "from": (str, False),
            "shuffle": (bool, False), "face_down": (bool, False), "at": (list, False),
            "untap": (bool, False), "apply": (list, False), "onto": (int, False),
            "on_top": (bool, False),
            # setting the table up (refused at a network table: see docs/protocol.md)
            "owner": (str, False), "supertypes": (list, False), "controller": (str, False),
            "counters": (list, False), "commander": (bool, False), "label": (str, False),
            "source": (str, False), "watch": (str, False), "instead": (str, False),
            "affects": (str, False), "optional": (bool, False), "effect": (str, False),
            "origin": (str, False)},
    "chat": {"text": (str, True)},
    "ping": {},
}
# the actions of ``act``: the table's intents, one name each (engine/intents.py)
ACTIONS = tuple(intents.INTENTS)
LIST_FIELDS = ("types", "subtypes", "supertypes", "colors")  # short lists of short words


class ProtocolError(ValueError):
    """A message that is not one the protocol knows; said back as an error frame."""

    code = Code.BAD_FRAME

    def __init__(self, text: str, rid: Any = None) -> None:
        super().__init__(text)
        self.rid = rid  # the request id of the message, when it could be read


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
    try:  # orjson reads most frames; the json module says what is wrong with the rest
        msg = _orjson.loads(frame)
    except ValueError:
        try:
            msg = json.loads(frame, parse_constant=no_constant)
        except RecursionError:
            raise ProtocolError("a message must be a JSON object: this one nests too "
                                "deeply to read") from None
        except ValueError as e:  # what is wrong with it, and where (the sender's text)
            raise ProtocolError(f"a message must be a JSON object: this one cannot be read "
                                f"({str(e)[:80]})") from None
    if not isinstance(msg, dict):
        raise ProtocolError("a message must be a JSON object")
    # ASCII with no \u escape holds no lone surrogate, and nine brackets nest no
    # deeper than _all_text allows: most frames need not be walked for either
    plain = frame.isascii() and "\\u" not in frame \
        and frame.count("{") + frame.count("[") <= 9
    # nor any control character or mark peer_text takes out, without an escape or DEL
    clean = plain and "\\" not in frame and "\x7f" not in frame
    try:
        return _check(msg, plain, clean)
    except ProtocolError as e:
        if _rid_ok(msg.get("rid")) and _all_text(msg.get("rid")):
            e.rid = msg["rid"]
        raise


def rid_of(frame: str | bytes) -> Any:
    """The request id of a frame not otherwise read (one refused for its rate), or None."""
    try:
        msg = json.loads(frame, parse_constant=no_constant) if len(frame) <= MAX_FRAME \
            else None
    except (ValueError, RecursionError, UnicodeDecodeError):
        return None
    rid = msg.get("rid") if isinstance(msg, dict) else None
    return rid if _rid_ok(rid) and _all_text(rid) else None


def name_key(name: str) -> str:
    """A player's name as a person reads it: in one case and one form (NFKC), without
    spaces or the invisible joiners a peer's text keeps. Two names with the same key
    look alike at the table (chat and the log name seats), so a room has at most one;
    a name whose key is empty shows nothing."""
    import unicodedata  # (only where a room is made)
    return "".join(ch for ch in unicodedata.normalize("NFKC", name).casefold()
                   if not ch.isspace() and ch not in "\u200c\u200d\u034f\u00ad")


def _rid_ok(rid: Any) -> bool:
    """A request id: a number, or a string of at most MAX_RID characters."""
    return (isinstance(rid, str) and len(rid) <= MAX_RID) or (isinstance(
        rid, int) and not isinstance(rid, bool) and abs(rid) <= 2**53)


def _check(msg: dict[str, Any], plain: bool = False, clean: bool = False) -> dict[str, Any]:
    """``msg`` checked (``plain``: its text is known to be ASCII with no \\u escape and
    its brackets few: ``_all_text`` is true of it; ``clean``: nor has it an escape or a
    DEL: ``peer_text`` changes none of its text), its text as the table keeps it."""
    v = msg.get("v")
    if type(v) is not int or v != VERSION:  # (1.0 and true are equal to 1: not it)
        raise ProtocolError(f"this server speaks version {VERSION} of the protocol")
    kind = msg.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_MESSAGES:
        raise ProtocolError(f"unknown message type {str(kind)[:30]!r}")
    fields = CLIENT_MESSAGES[kind]
    if "rid" in msg and not _rid_ok(msg["rid"]):
        raise ProtocolError(f"{kind}: field 'rid' is a number or a string of at most "
                            f"{MAX_RID} characters")
    if not plain and not _all_text(msg):
        raise ProtocolError(f"{kind}: text that is not valid Unicode (a lone surrogate), "
                            f"or nested deeper than any message")
    if not clean:  # what a peer's text may not carry, taken out before it is checked
        msg = {k: v if k == "rid" else _peer_texts(v) for k, v in msg.items()}
    if not _fields_ok(msg, fields, _REQUIRED[kind]):  # then said here: what is wrong
        _fields_wrong(kind, msg, fields)
    if kind == "create":
        players = msg["players"]
        if not 1 <= len(players) <= 8 or not all(
                isinstance(p, str) and 0 < len(p) <= 40 and name_key(p) for p in players) \
                or len({name_key(p) for p in players}) != len(players):
            raise ProtocolError("create: players must be 1 to 8 distinct names, each of "
                                "1 to 40 characters, not only spaces, and not two that "
                                "differ only in case, spacing or an invisible joiner")
        if any(name_key(p) in ("judge", "spectator") for p in players):
            raise ProtocolError("create: 'judge' and 'spectator' are seats, not player names")
        if "decks" in msg:
            _check_decks(msg["decks"], players)
    if kind == "join" and "seat" not in msg and "invite" not in msg:
        raise ProtocolError("join: give a 'seat', or the 'invite' of the seat to take")
    if kind == "join" and msg.get("changes", Changes.ZONES) not in tuple(Changes):
        raise ProtocolError(f"join: field 'changes' is one of "
                            f"{', '.join(repr(str(c)) for c in Changes)}")
    if kind == "act" and msg["action"] not in ACTIONS:
        raise ProtocolError(f"act: unknown action {msg['action'][:30]!r}")
    ids = msg.get("ids")
    if ids is not None and not (0 < len(ids) <= 250 and all(
            isinstance(i, int) and not isinstance(i, bool) for i in ids)):
        raise ProtocolError(f"{kind}: field 'ids' must be 1 to 250 object ids")
    at = msg.get("at")
    if at is not None and not (_is_place(at) if ids is None else len(at) == len(ids) and all(
            a is None or _is_place(a) for a in at)):
        raise ProtocolError(f"{kind}: field 'at' must be [x, y] (with 'ids': one [x, y] or "
                            f"null a card), numbers from 0 to {MAX_PLACE:g}")
    for key in LIST_FIELDS:
        words = msg.get(key)
        if words is not None and (len(words) > 8 or not all(
                isinstance(w, str) and 0 < len(w) <= 40 for w in words)):
            raise ProtocolError(f"{kind}: field {key!r} must be at most 8 words of 1 to "
                                f"40 characters")
    return msg


_ENVELOPE = ("v", "type", "rid")
# each message's required fields
_REQUIRED = {kind: tuple(k for k, (_, required) in fields.items() if required)
             for kind, fields in CLIENT_MESSAGES.items()}


def _fields_ok(msg: dict[str, Any], fields: dict[str, tuple[Any, bool]],
               required: tuple[str, ...]) -> bool:
    """Whether each of the message's fields is one its type has, of its type and size,
    and each required one is there: a look at the fields it has, not at every field
    ``act`` may have (``_fields_wrong`` then says what is wrong)."""
    for key in required:
        if key not in msg:
            return False
    for key, value in msg.items():
        spec = fields.get(key)
        if spec is None:
            if key in _ENVELOPE:
                continue
            return False
        typ = spec[0]
        if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
            return False
        if isinstance(value, str):
            if len(value) > MAX_TEXT:
                return False
        elif isinstance(value, int) and not isinstance(value, bool) \
                and not -1_000_000 <= value <= 1_000_000:
            return False
    return True


def _fields_wrong(kind: str, msg: dict[str, Any],
                  fields: dict[str, tuple[Any, bool]]) -> None:
    """ProtocolError naming the first field that is not as the message's type has it."""
    for key in msg:
        if key not in _ENVELOPE and key not in fields:
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


def _is_place(v: Any) -> bool:
    """A place as the engine takes it (model.check_place), sent as a JSON list."""
    try:
        return isinstance(v, list) and bool(check_place(v, "a place"))
    except ValueError:
        return False


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


def _all_text(value: Any, depth: int = 0) -> bool:
    """Every string in ``value`` (keys too) is text UTF-8 can carry: JSON lets a client
    escape a lone surrogate ("\\ud800"), which no frame sent back could hold."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if depth > 8:
        return False  # deeper than any message of the protocol goes
    if isinstance(value, dict):
        return all(_all_text(k, depth + 1) and _all_text(v, depth + 1)
                   for k, v in value.items())
    if isinstance(value, list):
        return all(_all_text(v, depth + 1) for v in value)
    return True


def _peer_texts(value: Any) -> Any:
    """``value`` with each of its strings as ``peer_text`` keeps it (keys too)."""
    if isinstance(value, str):
        return peer_text(value)
    if isinstance(value, list):
        return [_peer_texts(v) for v in value]
    if isinstance(value, dict):
        return {peer_text(k): _peer_texts(v) for k, v in value.items()}
    return value


def encode(kind: str, /, **fields: Any) -> str:
    """A server message as its frame."""
    return compact({"v": VERSION, "type": kind, **fields})


def error(text: str, code: Code = Code.BAD_FRAME, rid: Any = None) -> str:
    """An error frame: the words, a stable code, and the request id it answers."""
    fields: dict[str, Any] = {"message": text, "code": str(code)}
    if rid is not None:
        fields["rid"] = rid
    return encode("error", **fields)
