"""`held` means expected == actual, for every expectation key (issue 14, item 8): each
right expectation below holds, and the same expectation made wrong fails."""

from __future__ import annotations

import copy
import tomllib

import pytest

from tabletop.scenario import loader, runner

SCENARIO = """
format = "tabletop-scenario/1"
edition = "cr-2004"
players = ["Alice", "Bob"]

[cards.angel]
name = "Serra Angel"
types = ["Creature"]
owner = "Bob"
zone = "battlefield"
counters = { "+1/+1" = 1 }

[cards.elves]
name = "Llanowar Elves"
types = ["Creature"]
owner = "Alice"
zone = "battlefield"

[cards.a]
name = "Forest"
types = ["Land"]
owner = "Alice"
zone = "library"

[cards.b]
name = "Island"
types = ["Land"]
owner = "Alice"
zone = "library"

[[steps]]
move = "angel"
to = "exile"
player = "Alice"

[[steps.expect]]
zone = "exile"
outside_game = true
exists = true
new_object = true
rejected = false
tapped = false
face_down = false
counters = {}
cites = ["217.1e"]
not_cites = ["217.1a"]
lineage = ["battlefield", "exile"]

[[steps.expect]]
card = "elves"
player = "Alice"
zone = "battlefield"
outside_game = false

[[steps.expect]]
zones = { "Alice:library" = ["a", "b"], "Alice:battlefield" = ["elves"] }
counts = { "exile" = 1, "Alice:library" = 2 }

[[steps]]
move = "a"
to = "graveyard"
expect = { card = "a", zone = "graveyard", position = 1, player = "Alice" }
"""


def _wrong(key, value, actual_cites=()):
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if key in ("zone",):
        return "hand" if value != "hand" else "library"
    if key == "player":
        return "Bob" if value != "Bob" else "Alice"
    if key == "not_cites":
        return [*value, *actual_cites]  # a number the step does cite
    if isinstance(value, list):
        return [*value, "999.9"] if key == "cites" else [*value, value[0] if value else "x"]
    if isinstance(value, dict):
        return {**value, "charge": 5}
    raise AssertionError(key)


def _checks(data):
    sc = loader.parse(data, loader.Path("strict.toml"))
    return [c for rep in runner.run(sc).reports for c in rep.checks]


def _all_keys(data):
    for si, step in enumerate(data["steps"]):
        exps = step["expect"] if isinstance(step["expect"], list) else [step["expect"]]
        for ei, exp in enumerate(exps):
            for key, value in exp.items():
                if key == "card":
                    continue
                if key in ("zones", "counts"):
                    for zk in value:
                        yield si, ei, key, zk
                else:
                    yield si, ei, key, None


DATA = tomllib.loads(SCENARIO)
CASES = list(_all_keys(DATA))


def test_every_right_expectation_holds_and_reports_what_it_saw():
    checks = _checks(DATA)
    assert checks and all(c.held for c in checks), [c for c in checks if not c.held]
    assert all(c.expected == c.actual for c in checks)
    keys = {c.key.split(".")[0] for c in checks}
    assert keys == loader.EXPECT_KEYS - {"card"}  # the test covers every key


@pytest.mark.parametrize("si,ei,key,zk", CASES, ids=[f"{k}{'.' + z if z else ''}-{s}"
                                                     for s, _, k, z in CASES])
def test_a_wrong_expectation_fails(si, ei, key, zk):
    data = copy.deepcopy(DATA)
    step = data["steps"][si]
    exp = step["expect"][ei] if isinstance(step["expect"], list) else step["expect"]
    cited = ["217.1e"]
    if zk is None:
        exp[key] = _wrong(key, exp[key], cited)
        want = exp[key]
    else:
        exp[key][zk] = _wrong(key, exp[key][zk])
        want = exp[key][zk]
    name = key if zk is None else f"{key}.{zk}"
    failed = [c for c in _checks(data) if not c.held]
    assert [c.key for c in failed] == [name]
    c = failed[0]
    assert c.expected == want and c.actual != c.expected
    assert c.to_json()["held"] is False


def test_zone_none_never_holds_for_a_card_in_exile():
    data = copy.deepcopy(DATA)
    data["steps"][0]["expect"][0]["zone"] = "none"  # removed from the game is a zone
    failed = [c for c in _checks(data) if not c.held]
    assert [(c.key, c.expected, c.actual) for c in failed] == [("zone", "none", "exile")]
