"""The window draws and offers choices only from the engine's views (issue 15, item 4):
outside the controller and its port (the UI's one way in to act), no UI module reads the table's
objects or zone lists directly. A face-down land once leaked its row this way."""

from __future__ import annotations

import ast
from pathlib import Path

UI = Path(__file__).resolve().parents[2] / "tabletop" / "ui"
# the controller and its local port act on the table; app.py's scripted session and
# selftest.py are tools
ALLOWED = {"controller.py", "ports.py", "app.py", "selftest.py"}
ENGINE_READS = {"objs", "obj_of", "objects_in", "live", "current", "zones", "lineage"}


def _reads(path: Path) -> list[str]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr in ENGINE_READS:
            base = ast.unparse(node.value)
            if base == "t" or base.endswith("table"):
                out.append(f"{path.name}:{node.lineno}: {base}.{node.attr}")
    return out


def test_the_ui_reads_the_table_only_through_views():
    found = [r for p in sorted(UI.glob("*.py")) if p.name not in ALLOWED for r in _reads(p)]
    assert not found, "read engine objects outside views: " + "; ".join(found)


def test_the_check_finds_a_direct_read(tmp_path):
    p = tmp_path / "bad.py"
    p.write_text("def f(self):\n    return self.c.table.objs[1].card.name\n")
    assert _reads(p) == ["bad.py:2: self.c.table.objs"]
