"""Helpers shared by the tests (one module, as qutebrowser keeps them)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tabletop.engine import Card, Table

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
EXAMPLES = DATA / "spec_examples"  # the scenario contract's example files
LAYOUTS = DATA / "rules_layouts"  # synthetic rules texts in each published layout
SCENARIOS = ROOT / "resources" / "scenarios"

BEARS = Card("Grizzly Bears", ("Creature",), ("Bear",), mana_cost="{1}{G}", power="2", toughness="2")
RANCOR = Card("Rancor", ("Enchantment",), ("Aura",), mana_cost="{G}")
PLOW = Card("Plow Under", ("Sorcery",), mana_cost="{3}{G}{G}")
BOLT = Card("Lightning Bolt", ("Instant",), mana_cost="{R}")
FOREST = Card("Forest", ("Land",), ("Forest",), ("Basic",))
PLANE = Card("Naya", ("Plane",), ("Alara",))


def table(edition: str = "cr-2016", players=("Alice", "Bob"), **kw) -> Table:
    return Table(players, edition, **kw)


def run_cli(*args, cwd=ROOT, input_bytes=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tabletop", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=120)
