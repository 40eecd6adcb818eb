"""Make resources/rules/wording.json: a fingerprint of each edition's own wording of
every rule, so an imported rules text can tell whether its rule of a number is the
edition's rule (see tabletop/engine/rulestext.py, "same_rule").

    python tools/rules_fingerprints.py cr-2012=path/to/text cr-2016=path/to/text ...

Each path is the edition's rules text (the file its TOML names as ``seed``). The output
holds no words: only the smallest hashes of three-word runs of each rule."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tabletop.engine import rulestext

OUT = Path(__file__).resolve().parent.parent / "resources" / "rules" / "wording.json"


def main(argv: list[str]) -> int:
    editions = {}
    for arg in argv:
        ed, _, path = arg.partition("=")
        rt = rulestext.read(path)
        editions[ed] = {n: " ".join(f"{h:08x}" for h in rulestext.sketch(t))
                        for n, t in rt.rules.items()}
    data = {"format": "tabletop-wording/1", "shingle": rulestext.SHINGLE,
            "sketch": rulestext.SKETCH, "editions": dict(sorted(editions.items()))}
    OUT.write_text(json.dumps(data, indent=0, sort_keys=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT}: " + ", ".join(f"{k} {len(v)} rules" for k, v in editions.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
