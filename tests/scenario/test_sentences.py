"""Every step reads as a sentence even without `say` (issue 17, item 2): generated from
the step, in the edition's zone names, and the same sentence in `tabletop ruling`'s
text, its JSON, the reports and the scenario dock."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from tabletop.scenario import loader, sentences, steps
from tests.helpers import run_cli

FILE = """
format = "tabletop-scenario/1"
title = "Every kind of step"
edition = "cr-2016"
seed = 1
players = ["Alice", "Bob"]

[cards.giant]
name = "Hill Giant"
types = ["Creature"]
owner = "Alice"
zone = "battlefield"

[cards.elves]
name = "Llanowar Elves"
types = ["Creature"]
owner = "Alice"
zone = "hand"

[cards.shock]
name = "Shock"
types = ["Instant"]
owner = "Alice"
zone = "hand"

[cards.rancor]
name = "Rancor"
types = ["Enchantment"]
subtypes = ["Aura"]
owner = "Alice"
zone = "battlefield"

[cards.ogre]
name = "Gray Ogre"
types = ["Creature"]
owner = "Bob"
zone = "battlefield"

[[steps]]
create_token = "t"
name = "Soldier"
types = ["Creature"]
owner = "Alice"

[[steps]]
move = ["giant", "elves", "shock", "t"]
to = "graveyard"

[[steps]]
move = "elves"
to = "library"
position = 2

[[steps]]
draw = "Alice"
count = 2

[[steps]]
shuffle = "Bob"

[[steps]]
tap = "ogre"

[[steps]]
counters = "ogre"
add = { "+1/+1" = 2, charge = -1 }

[[steps]]
attach = "rancor"
to = "ogre"

[[steps]]
set_pt = "ogre"
pt = "5/5"

[[steps]]
note = "ogre"
text = "copying a Wurm"

[[steps]]
arrow = "ogre"
by = "Bob"
to_player = "Alice"

[[steps]]
life = "Bob"
total = 17

[[steps]]
roll = "Alice"
sides = 2

[[steps]]
phase = "draw"
then_draw = true

[[steps]]
look = "Alice"
library = "Bob"
count = 3

[[steps]]
undo = 2
"""

EXPECTED = [
    "Alice creates a Soldier token",
    "Alice moves Hill Giant, Llanowar Elves, Shock and a Soldier token to Alice's graveyard",
    "Alice puts Llanowar Elves second from the top of Alice's library",
    "Alice draws two cards",
    "Bob shuffles Bob's library",
    "Bob taps Gray Ogre",
    "Bob puts two +1/+1 counters on and removes a charge counter from Gray Ogre",
    "Alice attaches Rancor to Gray Ogre",
    "An effect sets Gray Ogre's power and toughness to 5/5",
    "Bob notes on Gray Ogre: copying a Wurm",
    "Bob points from Gray Ogre to Alice",
    "Bob's life total becomes 17",
    "Alice flips a coin",
    "The turn moves to the draw step, and the active player draws a card",
    "Alice looks at the top three cards of Bob's library",
    "Take back the last two steps",
]


def _scenario(tmp_path):
    p = tmp_path / "every.toml"
    p.write_text(FILE)
    return p, loader.parse(tomllib.loads(FILE), p)


def test_steps_read_as_sentences(tmp_path):
    _, s = _scenario(tmp_path)
    assert sentences.sentences(s) == EXPECTED


def test_every_kind_of_step_has_words():
    missing = [k for k, v in steps.REGISTRY.items() if v.words is None]
    assert not missing


def test_the_bundled_scenarios_read_without_a_raw_step(tmp_path):
    root = Path(__file__).resolve().parents[2] / "resources" / "scenarios"
    for path in sorted(root.rglob("*.toml")):
        s = loader.load(path)
        for st, text in zip(s.steps, sentences.sentences(s), strict=True):
            raw = f"{st.action.replace('_', ' ')} {st.subject}"
            assert "['" not in text and "{'" not in text and text != raw, \
                (path.name, st.index, text)


def test_ruling_text_json_and_report_carry_the_sentences(tmp_path):
    p, _ = _scenario(tmp_path)
    r = run_cli("ruling", p)
    assert r.returncode == 0, r.stderr
    assert "step 2: Alice moves Hill Giant, Llanowar Elves, Shock and a Soldier token to " \
        "Alice's graveyard" in r.stdout
    r = run_cli("ruling", "--json", p)
    data = json.loads(r.stdout)
    assert data["files"][0]["steps"][3]["sentence"] == "Alice draws two cards"
    out = tmp_path / "report.md"
    r = run_cli("ruling", "--report", out, p)
    assert r.returncode == 0, r.stderr
    assert "## Step 5. Bob shuffles Bob's library" in out.read_text()
