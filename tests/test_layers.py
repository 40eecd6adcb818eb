"""The package's layers point one way (issue 31): engine < cards < scenario < net < ui
< cli, every import counted (those inside functions and under TYPE_CHECKING too); the
engine's and the scenario's modules each have an order of their own; no modules import
each other in a loop anywhere in the package."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "tabletop"
BASE = ("tabletop", "tabletop.collector", "tabletop.jsontext", "tabletop.paths",
        "tabletop.resources", "tabletop.textsafe")
LAYERS = ("engine", "cards", "scenario", "net", "ui", "cli")
ORDERS = {  # within a layer, a module imports only those before it
    "engine": ("errors", "model", "files", "editions", "rulestext", "ops", "state", "views",
               "moves", "actions", "table", "intents", "saves", ""),
    "scenario": ("model", "sentences", "steps", "loader", "runner", "recorder", "editing", "report",
                 "ruling_report", "compare", "replay", "library", ""),
}


def modules() -> dict[str, Path]:
    out = {}
    for f in ROOT.rglob("*.py"):
        name = ".".join(("tabletop", *f.relative_to(ROOT).with_suffix("").parts))
        out[name.removesuffix(".__init__")] = f
    return out


def imports(mods: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the package's modules it imports, anywhere in its file. ``from pkg
    import sub`` imports the submodule (and the package's __init__ only for a name
    that is not a module)."""
    out: dict[str, set[str]] = {}
    for name, path in mods.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                assert node.level == 0, f"{path}: a relative import"
                subs = [f"{node.module}.{a.name}" for a in node.names]
                found.update(s for s in subs if s in mods)
                if any(s not in mods for s in subs):
                    found.add(node.module)
        out[name] = {m for m in found if m in mods and m != name}
    return out


def layer(name: str) -> int:
    if name in BASE:
        return -1
    part = name.split(".")[1]
    return LAYERS.index("cli" if part == "__main__" else part)


def test_every_import_points_down_the_layers():
    mods = modules()
    upward = [f"{a} imports {b}" for a, bs in imports(mods).items() for b in bs
              if layer(b) > layer(a)]
    assert not upward, upward


def test_the_engine_and_the_scenario_layer_keep_their_order():
    mods = modules()
    wrong = []
    for a, bs in imports(mods).items():
        for part, order in ORDERS.items():
            prefix = f"tabletop.{part}"
            if not (a == prefix or a.startswith(prefix + ".")):
                continue
            me = a[len(prefix) + 1:]
            assert me in order, f"{a} has no place in the {part} layer's order"
            for b in bs:
                if b == prefix or b.startswith(prefix + "."):
                    other = b[len(prefix) + 1:]
                    assert other in order, f"{b} has no place in the {part} layer's order"
                    if order.index(other) >= order.index(me) and me:
                        wrong.append(f"{a} imports {b}")
    assert not wrong, wrong


def loops(edges: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other in a loop (Tarjan's strongly
    connected components of more than one module)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))
    for v in edges:
        if v not in index:
            visit(v)
    return found


def test_no_modules_import_each_other_in_a_loop():
    assert not loops(imports(modules()))


def test_the_loop_finder_finds_loops():
    assert loops({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert loops({"a": {"b"}, "b": set()}) == []
