"""Hostile-file benchmark (run by hand: python3 tests/benchmarks/bench_hostile.py).

Each hostile input of issue 12 is fed to its reader; the wall time of refusing (or
reading) it, and in a second run the peak of the memory it traced, are printed. Targets: every case under
2 s and 100 MB here; none grows faster than the file does."""

from __future__ import annotations

import gzip
import json
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tabletop.cards import decks
from tabletop.cards.db import CardDB
from tabletop.engine import rulestext, saves
from tabletop.engine.errors import TabletopError


def _run(fn) -> str:
    try:
        fn()
        return "read"
    except TabletopError as e:
        return "refused: " + str(e).split(": ", 1)[-1][:60]


def measure(label: str, fn) -> None:
    """The wall time of reading (or refusing) an input, then, in a second run, the peak
    of the memory it traced: tracing every allocation slows Python down by two to
    four times, so a time taken while tracing is not the time a person waits."""
    start = time.perf_counter()
    outcome = _run(fn)
    wall = time.perf_counter() - start
    tracemalloc.start()
    _run(fn)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"{label:<44} {wall:7.2f} s {peak / 1e6:8.1f} MB  {outcome}")


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="tabletop-bench-"))
    p = tmp / "brackets.txt"
    p.write_text("100.1. A rule.\n100.2. Another.\n100.3. Third " + "[" * 80_000 + "\n")
    measure("rules text: 3 rules + 80,000 '['", lambda: rulestext.read(p))
    p2 = tmp / "brackets-1mb.txt"
    p2.write_text("100.1. A rule.\n100.2. Another.\n100.3. Third " + "[" * 1_000_000 + "\n")
    measure("rules text: 3 rules + 1,000,000 '['", lambda: rulestext.read(p2))
    p3 = tmp / "zlist.txt"
    p3.write_text("- Z.1.1 - start\n" + "more words\n" * 200_000 + "- Z.1.2 - b\n- Z.1.3 - c\n")
    measure("rules text: a 200,000-line continuation", lambda: rulestext.read(p3))
    bomb = tmp / "bomb.json.gz"
    with gzip.open(bomb, "wb") as f:
        for _ in range(1024):
            f.write(b" " * (1 << 20))
    print(f"  (the bomb: {bomb.stat().st_size / 1e6:.1f} MB of gzip, 1 GiB inside)")
    measure("card import: gzip of 1 GiB of spaces", lambda: CardDB(tmp / "c.db").import_file(bomb))
    bad = tmp / "bad.json.gz"
    with gzip.open(bad, "wb") as f:
        f.write(b'{"data": {"A": [{"name": "A"}], "B": xyz' + b" " * 30_000_000 + b"}}")
    measure("card import: a JSON error then 30 MB", lambda: CardDB(tmp / "c.db").import_file(bad))
    cod = tmp / "huge.cod"
    cod.write_text('<?xml version="1.0"?><cockatrice_deck version="1"><deckname>x</deckname>'
                   '<zone name="main"><card number="2000000000" name="Forest"/></zone>'
                   '</cockatrice_deck>')
    measure("deck: .cod of 2,000,000,000 Forests", lambda: decks.load(cod, known=lambda n: True))
    many = tmp / "many.txt"  # one line a card, each of another name, to the deck's cap
    many.write_text("".join(f"1 Card number {i}\n" for i in range(decks.MAX_CARDS + 1)))
    measure("deck: 10,001 lines of different cards", lambda: decks.load(many, known=lambda n: True))
    many_csv = tmp / "many.csv"
    many_csv.write_text("Count,Name\n" + "".join(f"1,Card number {i}\n"
                                                 for i in range(decks.MAX_CARDS)))
    measure("deck: a CSV table of 10,000 rows", lambda: decks.load(many_csv, known=lambda n: True))
    dek = tmp / "bomb.dek"
    dek.write_bytes(('<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa">'
                     '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><Deck><Cards Quantity="1" '
                     'Name="&b;"/></Deck>').encode("utf-16"))
    measure("deck: UTF-16 .dek with entities", lambda: decks.load(dek, known=lambda n: True))
    measure("save: /dev/zero", lambda: saves.load("/dev/zero"))
    big = tmp / "big.tabletop"
    with open(big, "wb") as f:
        f.truncate(100 * 1024 * 1024)
    measure("save: a 100 MB file", lambda: saves.load(big))
    from tabletop.cards import demo
    t = demo.new_game()
    for _ in range(30):
        t.draw("Alice")
        t.shuffle("Alice")
    d = saves.to_json(t)
    d["history"][-1] = d["history"][0]
    tampered = tmp / "tampered.tabletop"
    tampered.write_text(json.dumps(d))
    measure("save: a history that does not replay", lambda: saves.load(tampered))


if __name__ == "__main__":
    main()
