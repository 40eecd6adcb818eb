"""Card data benchmark (run by hand: python3 tests/benchmarks/bench_cards.py).

Generates a 30,000-card MTGJSON AtomicCards file of the real shape and size
(rules text, foreign data, legalities, rulings: everything an import skips),
gzipped as downloaded, then measures the import (time and peak memory, in a
fresh process), name look-ups, and a new game with four 100-card decks."""

from __future__ import annotations

import gzip
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

WORDS = ["target", "creature", "player", "draw", "card", "damage", "flying", "trample",
         "until", "end", "of", "turn", "destroy", "exile", "graveyard", "library", "counter",
         "token", "sacrifice", "return", "hand", "battlefield"]


def make_file(path: Path, n: int = 30_000) -> None:
    rng = random.Random(1)
    types = [("Creature", ["Elf", "Warrior"]), ("Instant", []), ("Sorcery", []),
             ("Artifact", []), ("Enchantment", ["Aura"]), ("Land", [])]
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write('{"meta": {"date": "2026-11-01", "version": "5.3.0"}, "data": {')
        for i in range(n):
            t, sub = rng.choice(types)
            name = f"Generated Card {i:05d}"
            face = {
                "name": name, "manaCost": "{2}{G}", "manaValue": 3.0, "colors": ["G"],
                "colorIdentity": ["G"], "type": f"{t} — {' '.join(sub)}", "types": [t],
                "subtypes": sub, "supertypes": [], "layout": "normal",
                "text": " ".join(rng.choice(WORDS) for _ in range(40)),
                "power": "2" if t == "Creature" else None,
                "toughness": "3" if t == "Creature" else None,
                "legalities": {k: "Legal" for k in ("commander", "legacy", "modern", "vintage",
                                                     "pauper", "pioneer", "standard")},
                "foreignData": [{"language": lang, "name": f"{name} ({lang})",
                                 "text": " ".join(rng.choice(WORDS) for _ in range(40))}
                                for lang in ("German", "French", "Italian", "Spanish", "Japanese")],
                "rulings": [{"date": "2020-01-01", "text": " ".join(rng.choice(WORDS)
                                                                     for _ in range(30))}],
                "printings": ["LEA", "LEB", "2ED", "M21"], "identifiers": {"scryfallOracleId": "x" * 36},
            }
            f.write(("," if i else "") + json.dumps(name) + ":" + json.dumps([face]))
        f.write("}}")


IMPORT = """
import resource, sys, time
from pathlib import Path
sys.path.insert(0, {root!r})
from tabletop.cards.db import CardDB
db = CardDB(Path({db!r}))
s = time.perf_counter()
n = db.import_file({src!r})
print(n, time.perf_counter() - s, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def main():
    tmp = Path(tempfile.mkdtemp())
    src = tmp / "AtomicCards.json.gz"
    s = time.perf_counter()
    make_file(src)
    with gzip.open(src) as f:
        raw = len(f.read())
    print(f"generated {src.stat().st_size / 1e6:.0f} MB gzipped ({raw / 1e6:.0f} MB of JSON) "
          f"in {time.perf_counter() - s:.0f} s")
    out = subprocess.run([sys.executable, "-c", IMPORT.format(root=str(ROOT), db=str(tmp / "c.db"),
                                                               src=str(src))],
                         capture_output=True, text=True, check=True).stdout.split()
    print(f"import of {int(out[0]):,} cards: {float(out[1]):.1f} s, peak memory {float(out[2]):.0f} MB")
    from tabletop.cards.db import CardDB
    db = CardDB(tmp / "c.db")
    names = [f"generated card {i:05d}" for i in random.Random(2).sample(range(30_000), 2000)]
    lat = []
    for name in names:
        t0 = time.perf_counter()
        assert db.info(name) is not None
        lat.append((time.perf_counter() - t0) * 1e6)
    lat.sort()
    print(f"name look-up (imported, any case): median {statistics.median(lat):.0f} us, "
          f"p99 {lat[int(len(lat) * 0.99)]:.0f} us")
    from tabletop.cards import demo
    runs = []
    for _ in range(5):
        t0 = time.perf_counter()
        demo.new_game(players=("A", "B", "C", "D"), deck_size=100)
        runs.append((time.perf_counter() - t0) * 1000)
    print(f"new game with four 100-card decks: median {statistics.median(runs):.0f} ms")


if __name__ == "__main__":
    main()
