"""Autosave after every change, and restore after a crash.

A running app holds an OS lock on a *session slot* in the user data folder
(``session.lock``; a second app on the same folder takes the next slot, with
its own autosave). While a game has changes not saved to a file, it is written
atomically (temporary file, flush, fsync, rename) to the slot's autosave after
each action, so no completed action is lost. A marker file (``session.running``)
says the session is open: finding it at start, with an autosave beside it,
means the last session ended without the player closing the game, and the
window offers to restore it. The marker is removed when the player closes the
app; it stays when the app is interrupted (SIGTERM, logout) with a game worth
restoring. A full disk or a read-only folder is reported and the app goes on;
the last good autosave stays."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path

from tabletop.engine import Table, files, saves
from tabletop.engine.errors import TabletopError

SLOTS = 8


def data_dir() -> Path:
    from tabletop import paths
    return paths.data_dir()


def _lock(fd: int) -> bool:
    """Take an exclusive, non-blocking OS lock on an open file (released by the OS
    when the process ends, however it ends)."""
    try:
        if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
            import msvcrt
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


class Autosave:
    def __init__(self, folder: Path | None = None):
        self.folder = Path(folder) if folder else data_dir()
        self.slot = 0
        self.error: str | None = None
        self.active = False  # begun: changes are being autosaved
        self._fd: int | None = None
        self._name(0)

    def _name(self, slot: int) -> None:
        self.slot = slot
        suffix = "" if slot == 0 else f"-{slot + 1}"
        self.path = self.folder / f"autosave{suffix}.tabletop"
        self.lock = self.folder / f"session{suffix}.lock"
        self.marker = self.folder / f"session{suffix}.running"

    # ---- the session slot ------------------------------------------------------------
    def claim(self) -> bool:
        """Lock the first free session slot. False (with ``error`` set) when none can be
        locked: the app then runs without autosave rather than overwrite another's."""
        if self._fd is not None:
            return True
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            self.error = f"cannot write in {self.folder}: {e.strerror or e}"
            return False
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)  # never through a symlink
        for slot in range(SLOTS):
            self._name(slot)
            try:
                fd = os.open(self.lock, flags, 0o600)
            except OSError as e:
                self.error = f"cannot use the lock file {self.lock}: {e.strerror or e}"
                continue
            if _lock(fd):
                self._fd = fd
                try:
                    os.ftruncate(fd, 0)
                    os.write(fd, str(os.getpid()).encode())
                except OSError:
                    pass
                self.error = None
                return True
            os.close(fd)
        self._name(0)
        self.error = self.error or f"{SLOTS} Tabletop windows already use {self.folder}"
        return False

    @property
    def shared(self) -> bool:
        """Another running app holds the first slot."""
        return self._fd is not None and self.slot > 0

    def crashed_before(self) -> bool:
        """The last session in this slot did not end with the player closing it, and
        left a game to restore."""
        return self.claim() and self.marker.exists() and self.path.exists()

    def begin(self) -> None:
        """Start autosaving in the claimed slot; leftover temporary files go."""
        if not self.claim():
            return
        try:
            for tmp in self.folder.glob(f".{self.path.name}.*.tmp"):
                tmp.unlink(missing_ok=True)
            self.marker.write_text(str(os.getpid()))
        except OSError as e:
            self.error = f"cannot write in {self.folder}: {e.strerror or e}"
            return
        self.active = True

    def end(self, keep: bool = False) -> None:
        """The session ends. ``keep``: the app was interrupted (SIGTERM, logout) with a
        game worth restoring, so the next start offers it."""
        if self.active and not keep:
            with contextlib.suppress(OSError):
                self.marker.unlink(missing_ok=True)
        self.active = False
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)  # releases the lock
            self._fd = None

    # ---- the game ---------------------------------------------------------------------
    def save(self, table: Table) -> bool:
        try:
            files.atomic_write(self.path, saves.utf8(saves.dumps(table)))
        except OSError as e:
            self.error = f"Autosave failed ({e.strerror or e}); the last good autosave is kept"
            return False
        except TabletopError as e:  # a table that fails its check is never written
            self.error = f"Autosave skipped: {e}; the last good autosave is kept"
            return False
        self.error = None
        return True

    def clear(self) -> None:
        """The game has no unsaved changes: there is nothing to restore."""
        with contextlib.suppress(OSError):
            self.path.unlink(missing_ok=True)

    def set_aside(self) -> Path | None:
        """Keep the last autosave under a dated name (the player chose not to restore
        it now); returns the new path."""
        stamp = time.strftime("%Y-%m-%d %H.%M.%S")
        target = self.folder / f"{self.path.stem} {stamp}.tabletop"
        n = 2
        while target.exists():
            target = self.folder / f"{self.path.stem} {stamp} ({n}).tabletop"
            n += 1
        try:
            os.replace(self.path, target)
        except OSError as e:
            self.error = f"cannot keep the old autosave: {e.strerror or e}"
            return None
        return target

    def restore(self) -> Table:
        return saves.load(self.path)
