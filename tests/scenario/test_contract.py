"""The scenario contract on the command line: exit statuses, messages, JSON shape."""

import json

import pytest

from tests.helpers import EXAMPLES, run_cli

GOOD = '''format = "tabletop-scenario/1"
title = "t"
players = ["Alice", "Bob"]

[cards.x]
name = "Grizzly Bears"
types = ["Creature"]
owner = "Alice"
zone = "hand"

[[steps]]
move = "x"
to = "graveyard"
expect = { zone = "graveyard" }
'''


def write(tmp_path, text, name="s.toml"):
    p = tmp_path / name
    p.write_text(text) if isinstance(text, str) else p.write_bytes(text)
    return p


def test_passing_file_exits_0(tmp_path):
    r = run_cli("ruling", write(tmp_path, GOOD))
    assert r.returncode == 0, r.stderr
    assert "held" in r.stdout


def test_failed_expectation_exits_1(tmp_path):
    r = run_cli("ruling", write(tmp_path, GOOD.replace('zone = "graveyard" }', 'zone = "exile" }')))
    assert r.returncode == 1
    assert "FAILED" in r.stdout


BAD = {
    "toml syntax": (GOOD.replace("[[steps]]", "[[steps]"), "TOML"),
    "unknown label": (GOOD.replace('move = "x"', 'move = "y"'), "step 1"),
    "unknown player": (GOOD.replace('owner = "Alice"', 'owner = "Zed"'), "Zed"),
    "unknown edition": (GOOD.replace('title = "t"', 'title = "t"\nedition = "cr-1066"'), "cr-1066"),
    "unknown zone": (GOOD.replace('to = "graveyard"', 'to = "attic"'), "attic"),
    "zone not in edition": (GOOD.replace('title = "t"', 'title = "t"\nedition = "cr-1999"')
                            .replace('to = "graveyard"', 'to = "command"'), "command"),
    "sorcery on battlefield": (GOOD.replace('types = ["Creature"]', 'types = ["Sorcery"]')
                               .replace('zone = "hand"', 'zone = "battlefield"'), "400.4a"),
    "controller in hand": (GOOD.replace('zone = "hand"', 'zone = "hand"\ncontroller = "Bob"'),
                           "controller"),
    "token in hand": (GOOD.replace('zone = "hand"', 'zone = "hand"\ntoken = true'), "token"),
    "wrong type": (GOOD.replace('to = "graveyard"', 'to = 3'), "to"),
    "unknown format": (GOOD.replace("tabletop-scenario/1", "tabletop-scenario/9"), "format"),
    "two actions": (GOOD.replace('move = "x"', 'move = "x"\ntap = "x"'), "step 1"),
    "unknown key": (GOOD.replace('to = "graveyard"', 'to = "graveyard"\nwhere = 1'), "where"),
    "undo too far": (GOOD + "\n[[steps]]\nundo = 2\n", "step 2"),
    "unknown expect key": (GOOD.replace('expect = { zone', 'expect = { color = "red", zone'),
                           "color"),
    "binary junk": (b"\x00\xff\xfe\x89PNG\x1a\n", "not a text file"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_exits_2_with_one_clear_message(tmp_path, case):
    text, needle = BAD[case]
    p = write(tmp_path, text)
    r = run_cli("ruling", p)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout
    assert str(p) in r.stderr and needle in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_missing_file_exits_2(tmp_path):
    r = run_cli("ruling", tmp_path / "nope.toml")
    assert r.returncode == 2 and "nope.toml" in r.stderr and "Traceback" not in r.stderr


def test_json_shape_follows_the_spec():
    r = run_cli("ruling", "--json", EXAMPLES / "basics.toml")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    (f,) = doc["files"]
    assert {"file", "title", "edition", "passed", "steps"} <= set(f)
    assert f["edition"] == "cr-2016" and f["passed"] is True
    step = f["steps"][4]
    assert step["index"] == 5 and step["action"] == "move"
    (ev,) = step["events"]
    assert ev["kind"] == "redirected" and ev["card"] == "ogre"
    assert isinstance(ev["object"], int) and isinstance(ev["previous_object"], int)
    assert ev["from"] == {"zone": "battlefield", "player": None}
    assert ev["to"] == {"zone": "graveyard", "player": "Bob"}
    assert ev["cites"] == ["400.3", "400.7"]
    exp = step["expectations"][0]
    assert set(exp) == {"card", "key", "expected", "actual", "held"}


def test_json_reports_a_bad_file_and_exits_2(tmp_path):
    p = write(tmp_path, "not toml [")
    r = run_cli("ruling", "--json", p)
    assert r.returncode == 2
    doc = json.loads(r.stdout)
    assert doc["files"][0]["error"] and doc["files"][0]["passed"] is False


def test_edition_override_reruns_a_file(tmp_path):
    r = run_cli("ruling", "--edition", "cr-1999", EXAMPLES / "basics.toml")
    # under cr-1999 the sorcery is not refused (the text is silent), so step 4 fails
    assert r.returncode == 1
    assert "cr-1999" in r.stdout


def test_the_step_registry_holds_the_contracts_steps_and_documents_the_rest():
    """Every step kind is declared once (steps.py); the contract's kinds are exactly
    those it lists, and each kind the project adds is described in docs/scenarios.md."""
    from tabletop.scenario import steps
    from tests.helpers import ROOT
    contract = {"move", "draw", "shuffle", "turn_face", "tap", "untap", "counters", "modify",
                "create_token", "undo", "commander_returns"}
    assert {k for k, v in steps.REGISTRY.items() if not v.project} == contract
    doc = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    missing = [k for k, v in steps.REGISTRY.items() if v.project and f"`{k}`" not in doc]
    assert not missing, missing
