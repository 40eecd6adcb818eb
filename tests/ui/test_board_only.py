"""The window draws what the viewer is shown, never a table (issue 31): every module of
the window reads the board (ui/board.py: the engine's views here, the host's view at a
network table); only the controller and its ports reach the table itself."""

from __future__ import annotations

import ast
from pathlib import Path

UI = Path(__file__).resolve().parents[2] / "tabletop" / "ui"
TABLE_KEEPERS = {"controller.py", "ports.py"}


def _reaches_the_table(tree: ast.AST) -> list[int]:
    """Lines where the controller's table is named: ``<anything>.c.table``,
    ``controller.table``, or ``self.table`` of a module that is handed a controller."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "table":
            owner = node.value
            if (isinstance(owner, ast.Attribute) and owner.attr in ("c", "controller")) or \
                    (isinstance(owner, ast.Name) and owner.id in ("c", "controller")):
                lines.append(node.lineno)
    return lines


def test_no_window_module_but_the_controller_and_its_ports_reads_the_table():
    found = {}
    for path in sorted(UI.glob("*.py")):
        if path.name in TABLE_KEEPERS:
            continue
        lines = _reaches_the_table(ast.parse(path.read_text(encoding="utf-8")))
        if lines:
            found[path.name] = lines
    assert found == {}


def test_the_check_finds_a_table_read_where_there_is_one():
    code = "def f(w, scene, controller):\n    w.c.table.life\n    scene.c.table\n" \
           "    controller.table.players\n    x.table_has(1)\n"
    assert sorted(_reaches_the_table(ast.parse(code))) == [2, 3, 4]


def test_no_client_module_forges_an_engine_table_from_a_view():
    """The network seat's board is read from the view: neither the client's reading of
    it (net/mirror.py, net/client.py) nor the window's network seat makes a Table."""
    for path in (UI.parent / "net" / "mirror.py", UI.parent / "net" / "client.py",
                 UI / "network.py", UI / "board.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        made = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Call)
                and getattr(n.func, "id", getattr(n.func, "attr", "")) == "Table"]
        assert made == [], path.name
