"""Reading users' files safely: a regular file only (never a device such as
/dev/zero, a FIFO that blocks, or a directory), its size checked before reading,
and never more than the limit read even if it grows meanwhile."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path
from typing import BinaryIO

from tabletop.engine.errors import InputError


def size_text(n: int) -> str:
    if n >= 1 << 30:
        return f"{n / (1 << 30):.0f} GiB"
    if n >= 1 << 20:
        return f"{n / (1 << 20):.0f} MiB"
    return f"{n / 1024:.0f} KiB"


def check_regular(path: Path, limit: int | None = None) -> int:
    """The size of a regular file, or InputError naming the file and the problem."""
    try:
        st = os.stat(path)
    except OSError as e:
        raise InputError(f"{path}: cannot read the file: {e.strerror or e}") from None
    if stat.S_ISDIR(st.st_mode):
        raise InputError(f"{path}: is a folder, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"{path}: not a regular file (a device, pipe or socket)")
    if limit is not None and st.st_size > limit:
        raise InputError(f"{path}: the file is larger than {size_text(limit)}")
    return st.st_size


def open_regular(path: str | Path, limit: int | None = None) -> BinaryIO:
    """Open a regular file for reading in binary; refuses anything else."""
    path = Path(path)
    check_regular(path, limit)
    try:  # O_NONBLOCK: were it swapped for a FIFO since the check, opening cannot block
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as e:
        raise InputError(f"{path}: cannot read the file: {e.strerror or e}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InputError(f"{path}: not a regular file (a device, pipe or socket)")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bounded(path: str | Path, limit: int) -> bytes:
    """The whole of a regular file of at most ``limit`` bytes."""
    path = Path(path)
    with open_regular(path, limit) as f:
        try:
            data: bytes = f.read(limit + 1)
        except OSError as e:
            raise InputError(f"{path}: cannot read the file: {e.strerror or e}") from None
    if len(data) > limit:
        raise InputError(f"{path}: the file is larger than {size_text(limit)}")
    return data


def atomic_write(path: Path, data: bytes) -> None:
    """Write a file so that it is either the old one or the whole new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = path.stat().st_mode & 0o777  # keep the permissions of the file it replaces
    except OSError:
        mode = 0o644
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    try:
        dfd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)
