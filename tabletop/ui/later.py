"""A module loaded when first used, not when imported: for what the window needs only
after its first frame (the standard library's importlib.util.LazyLoader)."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def module(name: str) -> ModuleType:
    """``name`` as a module whose code runs at the first access to one of its
    attributes (at once when it is loaded already)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.loader is not None, f"no module {name}"
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    lazy = importlib.util.module_from_spec(spec)
    sys.modules[name] = lazy
    loader.exec_module(lazy)
    return lazy
