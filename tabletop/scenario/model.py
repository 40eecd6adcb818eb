"""The plain data of a scenario, and what a step kind (steps.py) may use of the
layers above it, said as protocols: a file's steps (``Step``, ``Scenario``), an
expectation checked (``Check``), the checker, the runner's context and the recorder a
step kind is handed. Nothing here imports the rest of the package, so steps.py sits
under the loader, the runner and the recorder that use it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from tabletop.engine.editions import Edition
from tabletop.engine.model import Card, CardId
from tabletop.engine.table import Table


@dataclass(slots=True)
class Step:
    index: int
    action: str
    subject: Any  # what the file's step key names, checked by its kind: a label, labels,
    # a player...
    args: dict[str, Any]
    say: str
    expect: list[dict[str, Any]]


@dataclass(slots=True)
class Scenario:
    path: Path
    title: str
    edition: str
    summary: str
    seed: int
    players: list[str]
    ante: bool
    cards: dict[str, dict[str, Any]]  # label -> dict of the card keys
    effects: list[dict[str, Any]]
    steps: list[Step] = field(default_factory=list)


@dataclass(slots=True)
class Check:
    card: str | None
    key: str
    expected: Any  # values as a file gives them
    actual: Any
    cited: list[str] | None = None  # for cites / not_cites: every number the step cited
    held: bool = field(init=False)

    def __post_init__(self) -> None:
        # held means exactly this, for every key: what was expected is what is there
        self.held = type(self.expected) is type(self.actual) and self.expected == self.actual

    def seen(self) -> str:
        """What was there, for a failed expectation's message."""
        if self.cited is None:
            return repr(self.actual)
        return f"{self.actual!r}; the step cited {', '.join(self.cited) or 'nothing'}"

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"card": self.card, "key": self.key, "expected": self.expected,
             "actual": self.actual, "held": self.held}
        if self.cited is not None:
            d["cited"] = self.cited
        return d


class StepChecker(Protocol):
    """What a step kind's ``validate`` may use to check a step (the loader's)."""

    c: Any  # the file's checker: typed, strings, fail, unknown...
    labels: set[str]
    effect_labels: set[str]
    ed: Edition

    def zone_id(self, where: str, key: str, value: Any) -> str: ...

    def player(self, where: str, key: str, value: Any) -> str: ...

    def label_ref(self, where: str, value: Any, key: str = "label") -> str: ...

    def card_spec(self, where: str, spec: dict[str, Any], with_zone: bool
                  ) -> dict[str, Any]: ...

    def effect(self, where: str, e: dict[str, Any]) -> None: ...


class Context(Protocol):
    """What a step kind's ``perform`` may use (the runner's)."""

    table: Table
    labels: dict[str, CardId]
    path: Path
    marks: list[int]
    redo_marks: list[int]

    def card(self, spec: dict[str, Any], where: str) -> Card: ...

    def name(self, label: str, cid: CardId) -> None: ...


class Recording(Protocol):
    """What a step kind's ``recover`` may use to write an action back (the recorder's)."""

    labels: dict[int, str]

    def label(self, cid: int) -> str: ...

    def new_label(self, cid: int, name: str) -> str: ...
