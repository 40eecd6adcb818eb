"""Card search over a large card database (by hand: python3 tests/benchmarks/bench_search.py
[CARDS]): CARDS cards (30,000) of varied names, types, costs, colours, texts and
legalities are imported as Scryfall oracle cards into a fresh database, then typed
queries are timed, each 20 times. Reports the import time, each query's median and
worst, and how many cards it found. Goal (issue 35): a typed query in at most 50 ms."""

from __future__ import annotations

import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

WORDS = ["angel", "ancient", "arc", "blade", "bolt", "call", "crypt", "dawn", "drake", "ember", "fang", "field", "flame", "frost", "gate", "ghost", "glade", "grove", "guard", "hollow", "horn", "knight", "lich", "lotus", "mage", "mire", "moon", "night", "oath", "path", "rage", "raven", "rift", "sage", "scale", "shade", "shard", "sky", "soul", "spire", "storm", "sun", "thorn", "tide", "titan", "tomb", "vale", "vine", "void", "ward", "wild", "wing", "wurm"]
TYPES = ("Creature", "Instant", "Sorcery", "Enchantment", "Artifact", "Land", "Planeswalker")
SUBTYPES = ("Angel", "Elf", "Goblin", "Wizard", "Dragon", "Zombie", "Human", "Beast")
TEXTS = ("Flying", "Draw a card.", "Destroy target creature.", "Trample", "Haste",
         "Counter target spell.", "You gain 3 life.", "Create a 1/1 white Soldier token.",
         "Whenever this creature attacks, draw a card.", "Exile target card from a graveyard.")
FORMATS = ("standard", "pioneer", "modern", "legacy", "vintage", "commander", "pauper")


def cards(n: int) -> list[dict[str, object]]:
    rnd = random.Random(35)
    out = []
    for i in range(n):
        name = " ".join(rnd.choice(WORDS).capitalize() for _ in range(rnd.randint(1, 3)))
        name = f"{name} {i}"
        t = rnd.choice(TYPES)
        colors = sorted(rnd.sample("WUBRG", rnd.choice((0, 1, 1, 1, 2, 3))))
        generic = rnd.randint(0, 6)
        cost = (f"{{{generic}}}" if generic else "") + "".join(f"{{{c}}}" for c in colors)
        legendary = rnd.random() < 0.08
        card: dict[str, object] = {
            "object": "card", "name": name, "layout": "normal", "mana_cost": cost,
            "cmc": generic + len(colors), "colors": colors, "color_identity": colors,
            "type_line": ("Legendary " if legendary else "") + t
            + (f" — {rnd.choice(SUBTYPES)}" if t == "Creature" else ""),
            "oracle_text": " ".join(rnd.sample(TEXTS, rnd.randint(0, 3))),
            "legalities": {f: rnd.choice(("legal", "legal", "not_legal", "banned"))
                           for f in FORMATS}}
        if t == "Creature":
            card["power"], card["toughness"] = str(rnd.randint(0, 8)), str(rnd.randint(1, 8))
        out.append(card)
    return out


QUERIES = ("angel", "t:creature", "t:creature c:w mv<=3", "o:flying t:dragon",
           'o:"draw a card" -t:creature', "c=rg", "id<=wu t:creature pow>=4",
           "t:instant OR t:sorcery", "f:modern mv>=5", "is:commander c:b",
           "storm OR tide", "pow>tou tou>=2", "-c:w -c:u -c:b t:creature f:pauper")


def main(n: int = 30_000) -> None:
    from tabletop.cards.db import CardDB
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "oracle.json"
        path.write_text(json.dumps(cards(n)), encoding="utf-8")
        db = CardDB(Path(tmp) / "cards.sqlite3")
        start = time.perf_counter()
        db.import_file(path)
        print(f"import of {n:,} cards, search index included: "
              f"{time.perf_counter() - start:.1f} s")
        db.search("angel")  # the database opened
        worst_median = 0.0
        for q in QUERIES:
            times = []
            for _ in range(20):
                t0 = time.perf_counter()
                found = db.search(q)
                times.append((time.perf_counter() - t0) * 1000)
            med = statistics.median(times)
            worst_median = max(worst_median, med)
            print(f"search {q!r:45} median {med:6.1f} ms, max {max(times):6.1f} ms, "
                  f"{len(found):6,} cards")
        print(f"slowest query median {worst_median:.1f} ms over {n:,} cards (goal: <= 50 ms)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30_000)
