"""Trim the ICU data library a frozen bundle carries (30 MB of the bundle's 120).

Qt Core links ICU, so the library must be there, but this app only ever needs the
root and English locale data: no collation, names, currencies or units in other
languages, and no legacy code-page converters (Python reads every file the app
opens). ICU's own tools do the work: the data package is copied out of the library
(``objcopy``), the items not needed are removed (``icupkg``), and the rest is built
back into a library of the same name and symbol (``genccode``, ``gcc``). Without
the tools (``icu-devtools``, ``binutils``, ``gcc``) the bundle is left as it is and
a warning says so.

Usage: python3 packaging/linux/trim_icu.py BUNDLE_DIR
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# a locale's own data file: "de", "pt_BR", "zh_Hant_TW", "sr_Latn", "en_US_POSIX"
LOCALE = re.compile(r"^[a-z]{2,3}(_[A-Z][a-z]{3})?(_([A-Z]{2}|[0-9]{3}))?(_[A-Za-z0-9]+)*$")
KEEP_LOCALES = {"root", "en", "en_001", "en_150", "en_GB", "en_US", "en_US_POSIX",
                "res_index"}
TOOLS = ("objcopy", "icupkg", "genccode", "gcc", "readelf")


def unneeded(items: list[str]) -> list[str]:
    """The data items to remove: other languages' locale data and code-page converters.
    Break-iterator dictionaries stay (the root rules name them)."""
    out = []
    for item in items:
        name, ext = os.path.splitext(os.path.basename(item))
        if ext == ".cnv" or (ext == ".res" and LOCALE.match(name) and name not in KEEP_LOCALES):
            out.append(item)
        elif item.startswith("coll/") and name.rstrip("_").split("__")[0].rstrip("_") \
                not in KEEP_LOCALES and name not in ("ucadata",):
            out.append(item)  # collation tailorings ("de_", "es__TRADITIONAL")
    return out


def trim(lib: Path) -> tuple[int, int]:
    """Replace ``lib`` (libicudataNN.so) with a trimmed one; (size before, after)."""
    before = lib.stat().st_size
    syms = subprocess.run(["readelf", "-Ws", "--dyn-syms", str(lib)], check=True,
                          capture_output=True, text=True).stdout
    m = re.search(r"\b(icudt(\d+)_dat)\b", syms)
    if m is None:
        raise SystemExit(f"{lib}: no icudtNN_dat symbol; not an ICU data library")
    symbol, version = m.group(1), m.group(2)
    soname = re.search(r"SONAME\)\s+Library soname: \[([^\]]+)\]",
                       subprocess.run(["readelf", "-d", str(lib)], check=True,
                                      capture_output=True, text=True).stdout)
    with tempfile.TemporaryDirectory(prefix="tabletop-icu-") as d:
        work = Path(d)
        whole = work / f"icudt{version}l.dat"
        subprocess.run(["objcopy", "-O", "binary", "--only-section=.rodata", str(lib),
                        str(whole)], check=True)
        items = subprocess.run(["icupkg", "-l", str(whole)], check=True,
                               capture_output=True, text=True).stdout.split()
        drop = work / "drop.txt"
        drop.write_text("\n".join(unneeded(items)) + "\n")
        (work / "out").mkdir()
        small = work / "out" / whole.name  # the package name comes from the file name
        subprocess.run(["icupkg", "-r", str(drop), str(whole), str(small)], check=True)
        subprocess.run(["genccode", "-a", "gcc", "-e", symbol[:-4], "-d", str(work / "out"),
                        str(small)], check=True, capture_output=True)
        asm = next((work / "out").glob("*.S"))
        built = work / "out" / lib.name
        subprocess.run(["gcc", "-shared", "-Wl,-soname," + (soname.group(1) if soname
                                                             else lib.name),
                        "-o", str(built), str(asm)], check=True)
        shutil.copymode(lib, built)
        os.replace(built, lib)
    return before, lib.stat().st_size


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    missing = [t for t in TOOLS if shutil.which(t) is None]
    libs = sorted(p for p in Path(argv[1]).rglob("libicudata.so*")
                  if p.is_file() and not p.is_symlink())
    if missing:
        print(f"warning: ICU data left whole ({', '.join(missing)} not found; "
              f"apt install icu-devtools binutils gcc)", file=sys.stderr)
        return 0
    for lib in libs:
        before, after = trim(lib)
        print(f"trimmed {lib.name}: {before / 2**20:.1f} MB -> {after / 2**20:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
