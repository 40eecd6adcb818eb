"""Comparing the 2016 and the 2025 rules as a judge explains them (issue 33): a changed
rule is a difference of outcome or rules; a rule that only moved is said to be the same
rule renumbered, not silently the same and not a difference."""

from __future__ import annotations

from tabletop import resources
from tabletop.scenario import compare

SET = resources.path("scenarios", "cr-2025")


def test_the_commanders_death_differs_in_outcome_and_rules():
    c = compare.compare(SET / "903_9a_commander_dies_then_returns.toml", ["cr-2016", "cr-2025"])
    dies = c.steps[0]
    assert dies.outcome_differs and dies.rules_differ
    assert "command zone" in dies.outcomes["cr-2016"] and "903.9" in dies.outcomes["cr-2016"]
    assert "graveyard" in dies.outcomes["cr-2025"]


def test_a_renumbered_rule_is_said_to_be_the_same_rule():
    c = compare.compare(SET / "400_11a_wish_from_the_sideboard.toml", ["cr-2016", "cr-2025"])
    (wish,) = c.steps
    assert not wish.outcome_differs and not wish.rules_differ and wish.renumbered
    assert "renumbered" in compare.text(c)
    same = compare.compare(SET / "400_11a_wish_from_the_sideboard.toml",
                           ["cr-2025", "cr-2025"])
    assert not same.steps[0].renumbered
