"""Autosave after every action, and restore after a crash.

The game is written atomically (temporary file, flush, fsync, rename) to the user
data folder after each change, so no completed action is lost. A lock file marks
a running session; finding it at start means the last session did not end
cleanly, and the window offers to restore the autosave. A full disk or a
read-only folder is reported and the app goes on; the last good autosave stays."""

from __future__ import annotations

import os
from pathlib import Path

from tabletop.engine import saves


def data_dir() -> Path:
    import platformdirs
    return Path(platformdirs.user_data_dir("tabletop", appauthor=False))


class Autosave:
    def __init__(self, folder: Path | None = None):
        self.folder = Path(folder) if folder else data_dir()
        self.path = self.folder / "autosave.tabletop"
        self.lock = self.folder / "session.lock"
        self.error: str | None = None

    def crashed_before(self) -> bool:
        """The last session did not end cleanly and left a game to restore."""
        return self.lock.exists() and self.path.exists()

    def begin(self) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            self.lock.write_text(str(os.getpid()))
        except OSError as e:
            self.error = f"cannot write in {self.folder}: {e.strerror or e}"

    def end(self) -> None:
        try:
            self.lock.unlink(missing_ok=True)
        except OSError:
            pass

    def save(self, table) -> bool:
        try:
            saves.atomic_write(self.path, saves.dumps(table).encode("utf-8"))
        except OSError as e:
            self.error = f"Autosave failed ({e.strerror or e}); the last good autosave is kept"
            return False
        self.error = None
        return True

    def restore(self):
        return saves.load(self.path)
