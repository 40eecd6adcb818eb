"""The bundled scenarios: listed by name (their path under resources/scenarios,
without ".toml"), so `tabletop scenarios` and `tabletop ruling NAME` work wherever
Tabletop was installed, not only from a copy of the repository."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from tabletop import resources
from tabletop.engine import editions


def folder() -> Path:
    return resources.path("scenarios")


def name_of(path: Path) -> str:
    return path.relative_to(folder()).with_suffix("").as_posix()


def bundled_scenarios() -> list[dict[str, Any]]:
    """Name, title, path, edition and the rule numbers each bundled scenario expects cited."""
    out = []
    for p in sorted(folder().rglob("*.toml")):
        try:
            d = tomllib.loads(p.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
            continue
        rules: set[str] = set()
        for st in d.get("steps", []):
            exp = st.get("expect", []) if isinstance(st, dict) else []
            for e in exp if isinstance(exp, list) else [exp]:
                if isinstance(e, dict):
                    rules.update(x for x in e.get("cites", []) if isinstance(x, str))
        title = d.get("title", p.stem)
        edition = d.get("edition", editions.NEWEST)
        out.append({"name": name_of(p), "path": p,
                    "title": title if isinstance(title, str) else p.stem,
                    "edition": edition if isinstance(edition, str) else "?",
                    "rules": sorted(rules)})
    return out


def resolve(arg: str) -> str:
    """A scenario argument as a path: an existing file as given, else a bundled
    scenario's name ("400_3_stolen_creature_dies", "cr-1999/pair-sorcery-into-play")."""
    if Path(arg).exists():
        return arg
    name = arg[:-5] if arg.endswith(".toml") else arg
    candidate = folder() / f"{name}.toml"
    try:
        inside = candidate.resolve().is_relative_to(folder().resolve())
    except (OSError, ValueError):
        inside = False
    if inside and candidate.is_file():
        return str(candidate)
    return arg
