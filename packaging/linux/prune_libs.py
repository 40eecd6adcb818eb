"""Remove the shared libraries a frozen bundle carries but nothing in it loads.

PyInstaller collects each library's dependencies before the spec leaves a plugin out
(the GTK theme plugin, EGLFS), so their dependencies stay behind: pixman, fribidi,
libthai, gio and the like, about 6 MB nothing needs. Starting from what runs (the
executable, Python's extension modules, Qt's plugins, libpython), this follows each
ELF file's DT_NEEDED entries (``readelf -d``) and deletes the libraries never reached.
Libraries loaded with dlopen rather than linked are kept by name (``DLOPENED``).

Usage: python3 packaging/linux/prune_libs.py BUNDLE_DIR
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

# opened at run time by name, not linked: Qt's TLS backend opens OpenSSL
DLOPENED = ("libssl.so", "libcrypto.so")


def needed(path: Path) -> list[str]:
    out = subprocess.run(["readelf", "-d", str(path)], capture_output=True, text=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)


def is_elf(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def unused(bundle: Path) -> list[Path]:
    """The library files (not symlinks) nothing in the bundle loads."""
    files = [p for p in bundle.rglob("*") if p.is_file() and is_elf(p)]
    by_name: dict[str, Path] = {}
    for p in files:  # a symlink's name leads to the file it points at
        by_name.setdefault(p.name, p.resolve())
    roots = {p.resolve() for p in files
             if p.parent == bundle or ".cpython-" in p.name or ".abi3." in p.name
             or "/plugins/" in p.resolve().as_posix() or p.name.startswith("libpython")
             or p.name.startswith(DLOPENED)}
    seen: set[Path] = set()
    stack = list(roots)
    while stack:
        r = stack.pop()
        if r in seen:
            continue
        seen.add(r)
        stack += [by_name[n] for n in needed(r) if n in by_name]
    return sorted({p.resolve() for p in files if not p.is_symlink()} - seen)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    bundle = Path(argv[1]).resolve()
    gone = unused(bundle)
    size = sum(p.stat().st_size for p in gone)
    for p in gone:
        p.unlink()
    for q in list(bundle.rglob("*")):
        if q.is_symlink() and not q.exists():  # it led to a library just removed
            q.unlink()
    print(f"removed {len(gone)} libraries nothing loads ({size / 2**20:.1f} MB): "
          + ", ".join(p.name for p in gone))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
