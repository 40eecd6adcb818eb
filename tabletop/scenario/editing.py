"""Editing a scenario file in the window: change a step's narration, delete a step,
move one; each edit is checked by the loader (a step another one needs cannot go) and
the file written back. The file is edited as the data it holds: writing an unchanged
file back keeps every key, step and expectation."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

from tabletop.engine.errors import InputError
from tabletop.scenario import loader
from tabletop.scenario.model import Scenario
from tabletop.scenario.recorder import _toml, _toml_key, toml_steps

FIRST = ("format", "title", "summary", "edition", "seed", "players", "ante")
TABLES = ("cards", "effects", "steps")


def read(path: Path) -> dict[str, Any]:
    """The file's data (InputError when it is not TOML)."""
    try:
        return tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise InputError(f"{path}: cannot read the scenario ({e})") from None


def dump(data: dict[str, Any]) -> str:
    """The scenario's data as a file: the top level first, then ``[cards.LABEL]``,
    ``[[effects]]`` and ``[[steps]]``, each key as it was."""
    out = [f"{_toml_key(k)} = {_toml(data[k])}" for k in FIRST if k in data]
    out += [f"{_toml_key(k)} = {_toml(v)}" for k, v in data.items()
            if k not in FIRST and k not in TABLES]
    for label, card in data.get("cards", {}).items():
        out += ["", f"[cards.{_toml_key(label)}]"]
        out += [f"{_toml_key(k)} = {_toml(v)}" for k, v in card.items()]
    for e in data.get("effects", []):
        out += ["", "[[effects]]"] + [f"{_toml_key(k)} = {_toml(v)}" for k, v in e.items()]
    out += toml_steps(data.get("steps", []))
    return "\n".join(out) + "\n"


def checked(data: dict[str, Any], path: Path, edition: str | None = None) -> Scenario:
    """The edited data as a scenario (under ``edition``, when it was opened under
    another than its own), or InputError saying what the edit broke."""
    return loader.parse(copy.deepcopy(data), Path(path), edition)


def with_say(data: dict[str, Any], i: int, text: str) -> dict[str, Any]:
    """Step ``i`` (0 the first) with this narration ("" removes it)."""
    new = copy.deepcopy(data)
    step = new["steps"][i]
    text = " ".join(text.split())
    if text:
        # narration goes after the action key and its keys, before the expectations
        expect = step.pop("expect", None)
        step["say"] = text
        if expect is not None:
            step["expect"] = expect
    else:
        step.pop("say", None)
    return new


def without_step(data: dict[str, Any], i: int) -> dict[str, Any]:
    new = copy.deepcopy(data)
    del new["steps"][i]
    return new


def with_step_moved(data: dict[str, Any], i: int, by: int) -> dict[str, Any]:
    """Step ``i`` moved ``by`` places (-1: up one)."""
    new = copy.deepcopy(data)
    steps = new["steps"]
    j = i + by
    if not 0 <= j < len(steps):
        raise InputError("the step cannot move further")
    steps.insert(j, steps.pop(i))
    return new
