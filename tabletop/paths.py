"""The user's folders, in one place (no Qt here: the engine and the command line use
it too). ``tabletop --data-dir DIR`` (or TABLETOP_DATA_DIR) puts everything the app
writes under DIR: the autosave and session files, the card database, imported rules
texts, settings and logs. Without it, the platform's usual folders (platformdirs)."""

from __future__ import annotations

import os
from pathlib import Path

APP = "tabletop"
_override: Path | None = None


def set_data_dir(path: str | Path | None) -> None:
    """Everything the app keeps goes under ``path`` (None: the usual folders)."""
    global _override
    _override = Path(path).expanduser() if path else None


def _root() -> Path | None:
    if _override is not None:
        return _override
    env = os.environ.get("TABLETOP_DATA_DIR")
    return Path(env).expanduser() if env else None


def data_dir() -> Path:
    root = _root()
    if root is not None:
        return root
    import platformdirs
    return Path(platformdirs.user_data_dir(APP, appauthor=False))


def config_dir() -> Path:
    root = _root()
    if root is not None:
        return root / "config"
    import platformdirs
    return Path(platformdirs.user_config_dir(APP, appauthor=False))


def log_dir() -> Path:
    root = _root()
    if root is not None:
        return root / "logs"
    import platformdirs
    return Path(platformdirs.user_log_dir(APP, appauthor=False))


def cache_dir() -> Path:
    """What can be made again from the app's own files (a copy of its data that reads
    faster); deleting it loses nothing."""
    root = _root()
    if root is not None:
        return root / "cache"
    import platformdirs
    return Path(platformdirs.user_cache_dir(APP, appauthor=False))


def documents() -> Path:
    import platformdirs
    return Path(platformdirs.user_documents_dir())


def rules_dir() -> Path:
    """Imported rules texts, each under its effective date."""
    return data_dir() / "rules"


def card_database() -> Path:
    return data_dir() / "cards.sqlite3"
