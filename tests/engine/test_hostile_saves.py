"""Damaged and tampered saves (issue 12, items 1, 2 and 9): every field is checked on
load, the history is replayed in a scratch table before the game is accepted, a
failed undo changes nothing, and no save is written from a table that fails its
consistency check. Each case asserts the message, not only "no crash"."""

from __future__ import annotations

import copy
import json
import os

import pytest

from tabletop.cards import demo
from tabletop.engine import Card, InputError, saves
from tabletop.engine.ops import DeleteOp


def _game():
    t = demo.new_game()
    t.draw("Alice")
    hand = t.objects_in(("Alice", "hand"))
    t.move(hand[0].cid, "graveyard")
    t.draw("Bob")
    return t


BASE = saves.to_json(_game())


def _owner_index() -> int:
    return 3


CASES = [
    ("life is infinite", lambda d: d["life"].update(Alice=float("inf")), "not a number"),
    ("life is 1e999", lambda d: d["life"].update(Alice=1e999), "not a number"),
    ("life has 4,000 digits", lambda d: d["life"].update(Alice=int("9" * 4000)), "Alice's life"),
    ("life is a text", lambda d: d["life"].update(Alice="20"), "Alice's life"),
    ("life of a stranger", lambda d: d["life"].update(Zed=20), "life must give each player"),
    ("next id is infinite", lambda d: d.update(next_id=float("inf")), "not a number"),
    ("next id is a fraction", lambda d: d.update(next_id=5.5), "next object id"),
    ("next id below the objects", lambda d: d.update(next_id=2), "below the next object id"),
    ("random state word of 2**70", lambda d: d["rng"][1].__setitem__(0, 2 ** 70),
     "random generator"),
    ("random state word of -1", lambda d: d["rng"][1].__setitem__(5, -1), "random generator"),
    ("random state too short", lambda d: d["rng"].__setitem__(1, [1, 2, 3]), "random generator"),
    ("card name is a number", lambda d: d["cards"][0].update(name=5), "card 0's name"),
    ("card types is a text", lambda d: d["cards"][0].update(types="Creature"), "card 0's types"),
    ("card name of a megabyte", lambda d: d["cards"][0].update(name="x" * 1_000_000),
     "card 0's name"),
    ("object owned by a stranger", lambda d: d["objects"][0].__setitem__(3, "Zed"),
     "who is not at the table"),
    ("object controlled by a stranger", lambda d: d["objects"][0].__setitem__(6, "Zed"),
     "who is not at the table"),
    ("two players of one name", lambda d: d.update(players=["Alice", "Alice"]), "same name"),
    ("nine players", lambda d: d.update(players=[f"P{i}" for i in range(9)]), "1 to 8"),
    ("seed of 4,000 digits", lambda d: d.update(seed=int("9" * 4000)), "the seed"),
    ("negative hand size", lambda d: d.update(max_hand=-5), "maximum hand size"),
    ("ante is a text", lambda d: d.update(ante="yes"), "ante"),
    ("a roll of a thousand-sided coin", lambda d: d.update(last_roll=["Alice", 2, 1000]),
     "the last roll"),
    ("a sideboard for a stranger", lambda d: d.update(sideboards={"Zed": []}),
     "not at the table"),
    ("a deck for a stranger", lambda d: d.update(decks={"Zed": {"main": []}}),
     "not at the table"),
    ("a deck with a maybeboard", lambda d: d.update(decks={"Alice": {"maybe": []}}),
     "sections"),
    ("a deck of numbers", lambda d: d.update(decks={"Alice": {"main": [7]}}), "card 0"),
    ("a history that does not replay", lambda d: d["history"].__setitem__(-1, d["history"][0]),
     "does not replay"),
    ("a history of garbage", lambda d: d["history"].__setitem__(0, "[1,2,3]"), "does not replay"),
    ("a redo list that does not replay", lambda d: d["redo"].append(d["history"][0]),
     "does not replay"),
    ("a journal line with a stranger", lambda d: d["journal"][0].__setitem__(6, ["Zed"]),
     "not at the table"),
    ("a journal line of 8 fields", lambda d: d["journal"][0].append(""), "7 or 9 fields"),
    ("a journal line that is a text", lambda d: d["journal"].__setitem__(0, "done"),
     "7 or 9 fields"),
    ("a journal heading not marked", lambda d: d["journal"][0].extend(["Alice draws", False]),
     "heading"),
    ("a journal heading of a number", lambda d: d["journal"][0].extend([7, True]), "heading"),
    ("a journal line of an unknown tag", lambda d: d["journal"][0].__setitem__(0, "zapped"),
     "unknown journal tag"),
    ("a journal line's words a number", lambda d: d["journal"][0].__setitem__(2, 5),
     "short strings"),
    ("a journal line's public words 2", lambda d: d["journal"][1].__setitem__(3, 2),
     "short strings"),
    ("a journal line's players a text", lambda d: d["journal"][0].__setitem__(6, "Alice"),
     "knowers"),
    ("a journal line's players 1", lambda d: d["journal"][1].__setitem__(6, 1), "knowers"),
    ("a journal line's rules with a number", lambda d: d["journal"][0].__setitem__(4, [400]),
     "cites"),
    ("a journal line's notes true", lambda d: d["journal"][0].__setitem__(5, True), "notes"),
]


@pytest.mark.parametrize("name,tamper,words", CASES, ids=[c[0] for c in CASES])
def test_a_tampered_save_is_refused_with_a_clear_message(tmp_path, name, tamper, words):
    d = copy.deepcopy(BASE)
    tamper(d)
    p = tmp_path / "game.tabletop"
    p.write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(InputError) as e:
        saves.load(p)
    msg = str(e.value)
    assert msg.startswith(str(p)) and words in msg, msg
    assert "Traceback" not in msg and len(msg) < 400


@pytest.mark.parametrize("literal", ["Infinity", "-Infinity", "NaN", "1e999"])
def test_json_numbers_no_game_holds_are_refused(tmp_path, literal):
    text = json.dumps(BASE).replace('"Alice": 20', f'"Alice": {literal}', 1)
    assert literal in text
    p = tmp_path / "game.tabletop"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as e:
        saves.load(p)
    assert "not a number JSON allows" in str(e.value) or "Alice's life" in str(e.value)


@pytest.mark.parametrize("literal", ["Infinity", "NaN", "1e999"])
def test_json_numbers_no_game_holds_are_refused_inside_an_action_too(tmp_path, literal):
    """An action's own text is read as strictly as the save around it: a game holding
    such a number could only be written as a save no Tabletop opens."""
    d = copy.deepcopy(BASE)
    d["history"][-1] = d["history"][-1].replace("{", '{"n":' + literal + ",", 1)
    p = tmp_path / "game.tabletop"
    p.write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(InputError) as e:
        saves.load(p)
    assert str(e.value).startswith(str(p)) and "not a number JSON allows" in str(e.value)


def test_5000_digit_integers_are_refused(tmp_path):
    p = tmp_path / "game.tabletop"
    p.write_text(json.dumps(BASE).replace('"next_id":', '"next_id": 1' + "0" * 5000 + ', "x":', 1))
    with pytest.raises(InputError) as e:
        saves.load(p)
    assert str(p) in str(e.value)


def test_a_name_orjson_will_not_read_still_opens(tmp_path):
    """A lone surrogate's escape (a name that came from a broken file) is read by the
    json module where orjson will not: the game opens as it was saved."""
    t = _game()
    t.add_card(Card("Broken \ud800 name", ("Creature",)), "Alice", "hand")
    p = tmp_path / "game.tabletop"
    saves.save(t, p)
    back = saves.load(p)
    assert {c: back.objs[o].card.name for c, o in back.current.items()} == {
        c: t.objs[o].card.name for c, o in t.current.items()}
    assert saves.dumps(back) == saves.dumps(t)


@pytest.mark.parametrize("where", ["object", "action"])
def test_an_id_past_64_bits_is_refused(tmp_path, where):
    """orjson reads an integer past 64 bits as a float: an id so large is refused all
    the same, in the state and in an action's own text."""
    d = copy.deepcopy(BASE)
    if where == "object":
        d["objects"][0][0] = 2 ** 70
    else:
        action = json.loads(d["history"][-1])
        action[3][0][1] = 2 ** 70
        d["history"][-1] = json.dumps(action)
    p = tmp_path / "game.tabletop"
    p.write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(InputError) as e:
        saves.load(p)
    assert str(e.value).startswith(str(p))


def test_a_failed_undo_leaves_the_table_exactly_as_before():
    t = _game()
    before = saves.to_json(t)
    action = t.history[-1]
    ops = list(action.ops)
    ops.append(DeleteOp("del", ("Nobody", "hand"), 0, 12345))  # one that cannot be undone
    action._ops = ops
    with pytest.raises(InputError):
        t.undo()
    after = saves.to_json(t)
    assert after == before  # zones, objects, history, journal: all as they were


@pytest.mark.parametrize("bad_last", [True, False])
@pytest.mark.parametrize("way", ["undo", "redo"])
def test_a_change_that_does_not_fit_takes_back_the_ones_made_before_it(way, bad_last):
    """Undo takes an action's changes back last first, redo makes them first first; a
    change that does not fit, met after good ones, takes those back too."""
    t = _game()
    t.draw("Alice", 3)  # one action of three changes
    if way == "redo":
        t.undo()
    action = (t.history if way == "undo" else t.redo_stack)[-1]
    ops = list(action.ops)
    assert len(ops) > 1
    bad = DeleteOp("del", ("Nobody", "hand"), 0, 12345)
    met_last_at_end = way == "redo"  # where the change met last stands in the list
    ops.insert(len(ops) if bad_last == met_last_at_end else 0, bad)
    action._ops = ops
    before = saves.to_json(t)
    with pytest.raises(InputError):
        getattr(t, way)()
    assert saves.to_json(t) == before


def test_no_save_is_written_from_a_table_that_fails_its_check(tmp_path):
    t = _game()
    p = tmp_path / "game.tabletop"
    saves.save(t, p)
    good = p.read_bytes()
    t.zones[("Alice", "hand")].append(99999)  # an object in no table
    with pytest.raises(InputError) as e:
        saves.save(t, p)
    assert "consistency check" in str(e.value)
    assert p.read_bytes() == good
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="a Unix device")
def test_devices_pipes_and_folders_are_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.tabletop"
    os.mkfifo(fifo)
    for path, words in (("/dev/zero", "not a regular file"), (fifo, "not a regular file"),
                        (tmp_path, "is a folder")):
        with pytest.raises(InputError) as e:
            saves.load(path)
        assert words in str(e.value)


def test_a_save_over_the_size_limit_is_refused_before_reading(tmp_path, monkeypatch):
    p = tmp_path / "big.tabletop"
    with open(p, "wb") as f:
        f.truncate(saves.MAX_BYTES + 1)  # sparse: nothing is really written or read
    with pytest.raises(InputError) as e:
        saves.load(p)
    assert "larger than" in str(e.value)


def test_a_good_save_still_loads_and_replays():
    t = saves.from_json(copy.deepcopy(BASE))
    assert t.undo() is not None and t.redo() is not None


def _attached_game():
    from tabletop.cards import builtin
    from tabletop.engine import Card, Table
    t = Table(("Alice", "Bob"), "cr-2016")
    giant = t.add_card(builtin.lookup("Hill Giant"), "Alice", "battlefield")
    rancor = t.add_card(builtin.lookup("Rancor"), "Alice", "battlefield")
    forest = t.add_card(builtin.lookup("Forest"), "Alice", "library")
    soldier = t.create_token(Card("Soldier", ("Creature",)), "Alice").events[0].obj
    t.attach(rancor.cid, giant.cid)
    return t, giant.id, rancor.id, forest.id, soldier


def _row(d, oid):
    row = next(r for r in d["objects"] if r[0] == oid)
    row.extend([None] * (17 - len(row)))
    return row


@pytest.mark.parametrize("tamper, words", [
    (lambda d, g, r, f, s: _row(d, r).__setitem__(10, r), "Rancor (object {r}, the battlefield) "
     "is attached to itself"),
    (lambda d, g, r, f, s: _row(d, g).__setitem__(10, r), "in a loop of cards attached"),
    (lambda d, g, r, f, s: _row(d, r).__setitem__(10, f), "is attached to Forest"),
    (lambda d, g, r, f, s: _row(d, r).__setitem__(10, 99999), "not on the table"),
])
def test_an_impossible_attachment_is_refused_in_words(tamper, words):
    t, g, r, f, s = _attached_game()
    d = json.loads(saves.dumps(t))
    d["history"], d["redo"], d["journal"] = [], [], []  # the table as it stands only
    tamper(d, g, r, f, s)
    with pytest.raises(InputError) as e:
        saves.loads(json.dumps(d))
    assert words.format(r=r) in str(e.value)
    assert "ValueError" not in str(e.value)


def test_a_token_off_the_battlefield_is_refused_in_words():
    t, *_, s = _attached_game()
    d = json.loads(saves.dumps(t))
    d["history"], d["redo"], d["journal"] = [], [], []
    bf = d["zone_keys"].index([None, "battlefield"])
    gy = d["zone_keys"].index(["Alice", "graveyard"])
    d["zones"][bf].remove(s)
    d["zones"][gy].append(s)
    _row(d, s)[5] = gy
    with pytest.raises(InputError) as e:
        saves.loads(json.dumps(d))
    assert "the token Soldier" in str(e.value) and "ceases to exist" in str(e.value)


def test_a_real_game_with_attachments_still_opens():
    t, giant, rancor, _, _ = _attached_game()
    back = saves.loads(saves.dumps(t))
    assert back.objs[rancor].attached_to == giant


@pytest.mark.parametrize("tamper", [
    lambda d: d.pop("current"),  # a part every save has
    lambda d: d["zones"].pop(),  # fewer zone lists than zones
    lambda d: d.__setitem__("objects", [[1, 1, 999, "Alice", None, 0, None]]),  # no such card
    lambda d: d.__setitem__("life", {"Alice": "twenty", "Bob": 20}),
])
def test_a_damaged_save_is_told_in_words(tamper):
    d = json.loads(saves.dumps(_game()))
    tamper(d)
    with pytest.raises(InputError) as e:
        saves.loads(json.dumps(d))
    said = str(e.value)
    assert "the save is damaged" in said or "does not fit" in said
    assert not any(word in said for word in ("KeyError", "IndexError", "TypeError",
                                             "ValueError", "AttributeError"))
