"""Every bundled scenario (and the spec's examples) passes."""

import pytest

from tabletop.scenario import load, run
from tests.helpers import EXAMPLES as EXAMPLE_DIR
from tests.helpers import SCENARIOS

FILES = sorted(SCENARIOS.rglob("*.toml"))
EXAMPLES = sorted(EXAMPLE_DIR.glob("*.toml"))


@pytest.mark.parametrize("path", FILES + EXAMPLES, ids=lambda p: p.stem)
def test_scenario_passes(path):
    r = run(load(path))
    failed = [(rep.index, c.card, c.key, c.expected, c.actual)
              for rep in r.reports for c in rep.checks if not c.held]
    assert not failed
    assert all(rep.checks for rep in r.reports), "every step carries an expectation"


def test_enough_scenarios_for_the_newest_edition():
    top = [p for p in SCENARIOS.glob("*.toml")]
    assert len(top) >= 30


def test_examples_are_present():
    assert EXAMPLES, "the spec's examples should stand beside the project"
