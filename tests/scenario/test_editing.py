"""Issue 34: a scenario is edited as the data its file holds; an unchanged file written
back keeps every key, step and expectation, and an edit the loader refuses is said."""

from __future__ import annotations

import tomllib

import pytest

from tabletop.engine.errors import InputError
from tabletop.scenario import Session, editing
from tests.helpers import SCENARIOS

FILES = sorted(SCENARIOS.glob("*.toml"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_an_unchanged_scenario_written_back_is_the_same_file(path):
    data = editing.read(path)
    again = tomllib.loads(editing.dump(data))
    assert again == data
    assert editing.checked(again, path).steps == editing.checked(data, path).steps


def _passes(data, path) -> bool:
    s = Session(editing.checked(data, path))
    while s.advance() is not None:
        pass
    return s.run.passed


def test_narration_deleting_and_moving_steps():
    path = SCENARIOS / "400_6_rest_in_peace.toml"
    data = editing.read(path)
    n = len(data["steps"])
    said = editing.with_say(data, 0, "  The Knight   dies ")
    assert said["steps"][0]["say"] == "The Knight dies"
    assert list(said["steps"][0])[-1] == "expect"  # expectations stay last
    assert data["steps"][0].get("say") != "The Knight dies"  # the original is untouched
    assert "say" not in editing.with_say(data, 0, "")["steps"][0]
    fewer = editing.without_step(data, 0)
    assert len(fewer["steps"]) == n - 1 and fewer["steps"][0] == data["steps"][1]
    moved = editing.with_step_moved(data, 0, 1)
    assert moved["steps"][1] == data["steps"][0] and moved["steps"][0] == data["steps"][1]
    with pytest.raises(InputError):
        editing.with_step_moved(data, 0, -1)
    assert _passes(said, path)


def test_a_step_that_later_steps_need_cannot_be_deleted():
    path = SCENARIOS / "704_5d_token_dies_and_ceases.toml"
    data = editing.read(path)
    first = next(i for i, s in enumerate(data["steps"]) if "create_token" in s)
    with pytest.raises(InputError, match="unknown label"):
        editing.checked(editing.without_step(data, first), path)
