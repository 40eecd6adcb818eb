"""What a client may send: each field's type and size is checked before anything acts."""

from __future__ import annotations

import json

import pytest

from tabletop.net.protocol import ProtocolError, parse


def act(**fields):
    return json.dumps({"v": 1, "type": "act", **fields})


def test_a_token_intention_with_its_facts_is_read():
    msg = parse(act(action="token", name="Soldier", types=["Creature"], subtypes=["Soldier"],
                    colors=["W"], power="1", toughness="1", count=3, tapped=True))
    assert msg["types"] == ["Creature"] and msg["count"] == 3


@pytest.mark.parametrize("fields, says", [
    ({"action": "token", "name": "X", "types": ["Creature", 7]}, "'types'"),
    ({"action": "token", "name": "X", "types": "Creature"}, "wrong type"),
    ({"action": "token", "name": "X", "subtypes": ["a"] * 9}, "'subtypes'"),
    ({"action": "token", "name": "X", "colors": ["x" * 41]}, "'colors'"),
    ({"action": "token", "name": "X", "colors": [""]}, "'colors'"),
    ({"action": "counters", "id": 1, "kind": "+1/+1", "delta": True}, "wrong type"),
    ({"action": "face", "id": 1, "down": "yes"}, "wrong type"),
    ({"action": "note", "id": 1, "text": "x" * 501}, "too long"),
    ({"action": "sideboard", "id": 1}, "unknown action"),
    ({"action": "arrow", "id": 1, "to": [1]}, "wrong type"),
    ({"action": "phase", "phase": "combat", "turn": 3}, "unknown field"),
    ({"action": "move", "id": 1, "zone": "battlefield", "at": [1]}, "'at'"),
    ({"action": "move", "id": 1, "zone": "battlefield", "at": [1, -5]}, "'at'"),
    ({"action": "move", "id": 1, "zone": "battlefield", "at": [1, 1e9]}, "'at'"),
    ({"action": "move", "id": 1, "zone": "battlefield", "at": [True, 3]}, "'at'"),
    ({"action": "move", "id": 1, "zone": "battlefield", "at": ["1", 3]}, "'at'"),
    ({"action": "move_many", "ids": [1, 2], "zone": "battlefield", "at": [[1, 2]]}, "'at'"),
    ({"action": "place", "ids": [1], "at": [[1, 2, 3]]}, "'at'"),
])
def test_malformed_table_tools_are_refused(fields, says):
    with pytest.raises(ProtocolError, match=says):
        parse(act(**fields))


def create(**fields):
    return json.dumps({"v": 1, "type": "create", "players": ["Ann", "Ben"], **fields})


@pytest.mark.parametrize("decks", [
    {"Ann": {"main": [[4, "Forest"]]}},  # not every player
    {"Ann": {"main": [[4, "Forest"]]}, "Ben": {"maybe": [[1, "Shock"]]}},
    {"Ann": {"main": [[0, "Forest"]]}, "Ben": {}},
    {"Ann": {"main": [[4, ""]]}, "Ben": {}},
    {"Ann": {"main": [["4", "Forest"]]}, "Ben": {}},
    {"Ann": {"main": [[True, "Forest"]]}, "Ben": {}},
    {"Ann": {"main": [[1, f"Card {i}"] for i in range(301)]}, "Ben": {}},
    {"Ann": {"main": "4 Forest"}, "Ben": {}},
    {"Ann": {"main": [[250, f"Card {i}"] for i in range(3)]}, "Ben": {}},  # 750 cards
])
def test_malformed_decks_are_refused(decks):
    with pytest.raises(ProtocolError, match="create: "):
        parse(create(decks=decks))


def test_decks_for_every_player_are_read():
    msg = parse(create(decks={"Ann": {"main": [[20, "Forest"]], "sideboard": [[2, "Shock"]]},
                              "Ben": {"main": [[20, "Mountain"]]}}))
    assert msg["decks"]["Ann"]["sideboard"] == [[2, "Shock"]]


@pytest.mark.parametrize("frame", [
    '{"v":1,"type":"chat","text":"a\\ud800b"}',  # an escaped lone surrogate, all ASCII
    '{"v":1,"type":"chat","text":"\u00e9\\udfff"}',  # and in text that is not ASCII
    '{"v":1,"type":"chat","text":"\\udbff"}',
])
def test_text_that_cannot_be_sent_back_is_refused(frame):
    with pytest.raises(ProtocolError) as e:
        parse(frame)
    assert str(e.value.code) == "bad-frame"


def test_a_plain_frame_and_a_frame_with_harmless_escapes_are_read():
    assert parse('{"v":1,"type":"chat","text":"caf\\u00e9 \\ud83d\\ude00"}')["text"] \
        == "caf\u00e9 \U0001F600"  # a surrogate pair is one character, not two
    assert parse('{"v":1,"type":"chat","text":"[[[[{{{{"}')["text"] == "[[[[{{{{"
    assert parse(act(action="tap", id=3, tapped=True))["id"] == 3


@pytest.mark.parametrize("version", ["1.0", "true", '"1"', "2", "null"])
def test_the_version_is_the_number_1_only(version):
    with pytest.raises(ProtocolError) as e:  # 1.0 and true compare equal to 1 in Python
        parse(f'{{"v":{version},"type":"ping"}}')
    assert str(e.value.code) == "bad-frame"


# (escaped in the frame as JSON lets a client escape them, or sent as they are)
RLO, LRI, PDI, ZWSP, BOM, ZWJ = "\u202e", "\u2066", "\u2069", "\u200b", "\ufeff", "\u200d"


@pytest.mark.parametrize("escaped", [True, False])
def test_a_peers_text_loses_controls_and_the_marks_that_reorder_a_line(escaped):
    """A token named with a right-to-left override would turn the rest of every log
    line naming it around ("Bob's token ... " read backwards: a line that lies to the
    judge); a NUL, a bell or an escape sequence has no business in a name. Each text
    field is read without them; a line break or a tab is a space; joiners stay (an
    emoji sequence needs them)."""
    fields = {"action": "token", "name": f"a\x00b\x07c\x1b[2J{RLO}d{LRI}e{PDI}{ZWSP}f{BOM}",
              "types": [f"Crea{RLO}ture"], "subtypes": ["x\ny"]}
    frame = act(**fields) if escaped else json.dumps({"v": 1, "type": "act", **fields},
                                                       ensure_ascii=False)
    msg = parse(frame)
    assert msg["name"] == "abc[2Jdef"
    assert msg["types"] == ["Creature"] and msg["subtypes"] == ["x y"]
    family = f"\U0001F468{ZWJ}\U0001F469{ZWJ}\U0001F467"
    assert parse(json.dumps({"v": 1, "type": "chat", "text": f"{family}\x85\x9fok"},
                            ensure_ascii=escaped))["text"] == f"{family} ok"
    # a player's name loses them before it is checked: nothing left is no name
    with pytest.raises(ProtocolError, match="1 to 8 distinct names"):
        parse(json.dumps({"v": 1, "type": "create", "players": ["Ann", f"{RLO}{ZWSP}"]}))
    with pytest.raises(ProtocolError, match="1 to 8 distinct names"):  # nor two alike
        parse(json.dumps({"v": 1, "type": "create", "players": ["Ann", f"A{RLO}nn"]}))
    # nor two a person cannot tell apart at the table (chat and the log name seats):
    # another case, a space, a joiner, a full-width letter; nor a name of spaces
    for twin in ("ann", "Ann ", "A n n", f"A{ZWJ}nn", "\uff21nn", "A\u00adnn"):
        with pytest.raises(ProtocolError, match="differ only in case"):
            parse(json.dumps({"v": 1, "type": "create", "players": ["Ann", twin]}))
    with pytest.raises(ProtocolError, match="not only spaces"):
        parse(json.dumps({"v": 1, "type": "create", "players": ["Ann", "   "]}))
    # nor a name that reads as a seat's ("Judge" at the table is the judge's word)
    for seat in ("judge", "Judge", "JUDGE ", "Spec tator", "\uff4a\uff55\uff44\uff47\uff45"):
        with pytest.raises(ProtocolError, match="are seats, not player names"):
            parse(json.dumps({"v": 1, "type": "create", "players": ["Ann", seat]}))
    # names that differ as a person reads them are seats of their own
    assert parse(json.dumps({"v": 1, "type": "create", "players": ["Ann", "Anna", "Åsa",
                                                                   "Ann-Marie"]}))
    # the request id comes back as it was sent: the client matches it
    assert parse(json.dumps({"v": 1, "type": "ping", "rid": f"r{RLO}1"}))["rid"] == f"r{RLO}1"


def test_the_servers_text_frames_are_framed_as_websockets_frames_them():
    """The server writes its updates' frames itself (RFC 6455 5.2): byte for byte what
    websockets writes with no extension agreed, at each size the length is told in
    7, 16 or 64 bits, for text of one byte a letter and of several."""
    from websockets.frames import Frame, Opcode

    from tabletop.net.server import text_frame
    for n in (0, 1, 125, 126, 127, 65535, 65536, 70_000):
        for text in ("a" * n, "é" * (n // 2) + "a" * (n % 2), "🂡" * (n // 4)):
            want = Frame(Opcode.TEXT, text.encode()).serialize(mask=False, extensions=[])
            assert text_frame(text) == want, (n, len(text.encode()))


@pytest.mark.parametrize(("frame", "words"), [
    ('{"v":1,"type":"ping",', "line 1 column 22"),
    ('{"v":1,"seed":' + "9" * 5000 + "}", "4300 digits"),
    ('{"v":1,"a":NaN}', "NaN is not a number JSON allows"),
    ("[" * 60_000, "nests too deeply"),
])
def test_a_frame_that_cannot_be_read_says_why(frame, words):
    """A client's developer reads why a frame was refused: where its JSON breaks, or
    what in it cannot be read, not only that it is not a JSON object."""
    from tabletop.net.protocol import Code
    with pytest.raises(ProtocolError) as e:
        parse(frame)
    assert e.value.code == Code.BAD_FRAME and words in str(e.value)
