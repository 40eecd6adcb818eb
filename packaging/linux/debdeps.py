"""The .deb's Depends line, measured from the bundle rather than written by hand.

For every ELF file in the bundle: the GLIBC_x.y symbol versions it needs (the
highest becomes "libc6 (>= x.y)": a system with an older C library would install
the package and then fail to start it) and the shared libraries it loads. Those
the bundle carries itself are left out; the others are looked up with ldconfig
and `dpkg -S` to find the Debian package that provides them.

    python3 packaging/linux/debdeps.py BUNDLE_DIR   ->   prints the Depends value
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

GLIBC_LIBS = re.compile(r"^(libc|libm|libdl|libpthread|librt|libutil|libresolv|ld-linux[^.]*)"
                        r"\.so")
# always needed by Qt's window even if loaded only at run time (dlopen): X11 and fonts
ALWAYS = ["libfontconfig1", "libfreetype6", "libxkbcommon0", "libxkbcommon-x11-0",
          "libegl1", "libgl1", "libxcb-cursor0", "libxcb-icccm4", "libxcb-keysyms1"]


def elf_files(root: Path):
    for p in root.rglob("*"):
        if p.is_file() and not p.is_symlink():
            with open(p, "rb") as f:
                if f.read(4) == b"\x7fELF":
                    yield p


def version_key(v: str) -> tuple:
    return tuple(int(x) for x in v.split("."))


def main(bundle: str) -> str:
    root = Path(bundle)
    bundled = {p.name for p in root.rglob("*.so*")}
    glibc = "2.17"
    needed: set[str] = set()
    for f in elf_files(root):
        dyn = subprocess.run(["objdump", "-T", str(f)], capture_output=True, text=True).stdout
        for v in re.findall(r"GLIBC_(\d+\.\d+(?:\.\d+)?)", dyn):
            if version_key(v) > version_key(glibc):
                glibc = v
        head = subprocess.run(["objdump", "-p", str(f)], capture_output=True, text=True).stdout
        needed.update(re.findall(r"^\s*NEEDED\s+(\S+)", head, re.M))
    paths = {}
    cache = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True).stdout
    for line in cache.splitlines():
        m = re.match(r"\s*(\S+) \(([^)]*)\) => (\S+)", line)
        if m and "64" in m.group(2):
            paths.setdefault(m.group(1), m.group(3))
    packages = set()
    for lib in sorted(needed):
        if lib in bundled or GLIBC_LIBS.match(lib):
            continue
        path = paths.get(lib)
        if path is None:
            continue  # not on the build machine: a bundled library's optional dependency
        out = subprocess.run(["dpkg", "-S", str(Path(path).resolve())], capture_output=True,
                             text=True).stdout or subprocess.run(
            ["dpkg", "-S", path], capture_output=True, text=True).stdout
        if out:
            packages.add(out.split(":", 1)[0])
    packages.update(ALWAYS)
    return ", ".join([f"libc6 (>= {glibc})", *sorted(packages)])


if __name__ == "__main__":
    print(main(sys.argv[1]))
