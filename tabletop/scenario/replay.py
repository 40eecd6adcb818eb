"""The game at the table as a scenario, to run it again under other editions: the
position before the first action that can be undone, and every action since as steps
(through the recorder and the step registry), with the attempts the rules refused
in their places. Nothing here changes the table: it works
on a copy read back from the table's own save."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tabletop.engine import Table
    from tabletop.scenario.compare import Comparison


def history_scenario(table: Table, title: str = "The game at the table"
                     ) -> tuple[str, list[str]]:
    """(scenario text, problems): problems say what a scenario file cannot hold."""
    from tabletop.engine import saves
    from tabletop.scenario.recorder import Recorder
    scratch = saves.loads(saves.dumps(table))
    scratch.quiet = True
    n = len(scratch.history)
    for _ in range(n):
        scratch.undo()
    rec = Recorder(scratch, title)
    scratch.refused = list(table.refused)  # not saved: what the rules refused is kept too
    for _ in range(n):
        scratch.redo()
    return rec.text(), list(rec.problems)


def compare_history(table: Table, edition_ids: Sequence[str],
                    title: str = "The game at the table") -> tuple[Comparison, list[str]]:
    """The table's game under each of ``edition_ids``: a ``compare.Comparison`` (each
    edition's table is in ``runs``), and the problems of writing it as a scenario."""
    from tabletop.scenario import compare
    text, problems = history_scenario(table, title)
    with tempfile.TemporaryDirectory(prefix="tabletop-replay-") as d:
        path = Path(d) / "game.toml"
        path.write_text(text, encoding="utf-8")
        return compare.compare(path, list(edition_ids)), problems
