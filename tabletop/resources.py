"""The one place that finds the bundled ``resources/`` folder.

It works from a checkout (``resources/`` beside the package), from an installed
wheel (``tabletop/resources``) and from a frozen bundle (``sys._MEIPASS``).
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path


@cache
def root() -> Path:
    here = Path(__file__).resolve().parent
    candidates = []
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        candidates.append(Path(frozen) / "resources")
    candidates += [here / "resources", here.parent / "resources"]
    for c in candidates:
        if (c / "rules").is_dir():
            return c
    raise FileNotFoundError("Tabletop's resources folder is missing; reinstall the application")


def path(*parts: str) -> Path:
    return root().joinpath(*parts)
