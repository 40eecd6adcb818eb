"""Issue 35, card search: Scryfall's syntax over the imported card database, offline.

The cards below are imported as Scryfall oracle cards; each expected answer is written
from what the query means (Scryfall's documented syntax) and the cards' facts here."""

from __future__ import annotations

import json

import pytest

from tabletop.cards.db import CardDB
from tabletop.cards.search import SearchError
from tests.helpers import run_cli


def _card(name, cost, type_line, cmc, colors, identity, text="", pt=None, loyalty=None,
          legal=None):
    d = {"object": "card", "name": name, "mana_cost": cost, "type_line": type_line,
         "cmc": cmc, "colors": colors, "color_identity": identity, "oracle_text": text,
         "layout": "normal",
         "legalities": legal or {"standard": "not_legal", "modern": "legal",
                                 "legacy": "legal", "vintage": "legal",
                                 "commander": "legal"}}
    if pt:
        d["power"], d["toughness"] = pt
    if loyalty:
        d["loyalty"] = loyalty
    return d


CARDS = [
    _card("Zephyr Angel", "{3}{W}{W}", "Creature — Angel", 5, ["W"], ["W"],
          "Flying, vigilance", ("4", "4")),
    _card("Grove Elf", "{G}", "Creature — Elf Druid", 1, ["G"], ["G"],
          "{T}: Add {G}.", ("1", "1")),
    _card("Ember Fiend", "{1}{R}", "Creature — Elemental", 2, ["R"], ["R"],
          "Haste", ("3", "1")),
    _card("Ruin Blast", "{R}{G}", "Sorcery", 2, ["R", "G"], ["R", "G"],
          "Destroy target artifact. Draw a card."),
    _card("Quick Thought", "{U}", "Instant", 1, ["U"], ["U"], "Draw a card."),
    _card("Warden Tomb", "", "Land", 0, [], ["W"], "{T}: Add {W}."),
    _card("Ashen Queen", "{2}{B}{R}", "Legendary Creature — Vampire Noble", 4, ["B", "R"],
          ["B", "R"], "Flying. Whenever you draw a card, each opponent loses 1 life.",
          ("3", "3"), legal={"commander": "legal", "legacy": "banned",
                             "vintage": "restricted"}),
    _card("Tala, Storm Seer", "{2}{U}{R}", "Legendary Planeswalker — Tala", 4, ["U", "R"],
          ["U", "R"], "Tala, Storm Seer can be your commander.", loyalty="4"),
    _card("Steel Golem", "{4}", "Artifact Creature — Golem", 4, [], [], "", ("3", "4")),
]


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("cards") / "oracle.json"
    path.write_text(json.dumps(CARDS), encoding="utf-8")
    d = CardDB(path.parent / "cards.sqlite3")
    assert d.import_file(path) == len(CARDS)
    return d


def mine(db, query):
    """The query's answer among this file's cards (the built-in ones are indexed too)."""
    names = {c["name"] for c in CARDS}
    return [n for n in db.search(query) if n in names]


@pytest.mark.parametrize("query, expected", [
    ("angel", ["Zephyr Angel"]),  # a word of the name
    ("t:creature", ["Ashen Queen", "Ember Fiend", "Grove Elf", "Steel Golem", "Zephyr Angel"]),
    ("t:legendary t:creature", ["Ashen Queen"]),
    ('t:"artifact creature"', ["Steel Golem"]),
    ("o:flying", ["Ashen Queen", "Zephyr Angel"]),
    ('o:"draw a card"', ["Ashen Queen", "Quick Thought", "Ruin Blast"]),
    ("c:r", ["Ashen Queen", "Ember Fiend", "Ruin Blast", "Tala, Storm Seer"]),  # at least red
    ("c=r", ["Ember Fiend"]),  # exactly red
    ("c<=rg", ["Ember Fiend", "Grove Elf", "Ruin Blast", "Steel Golem", "Warden Tomb"]),
    ("c:m", ["Ashen Queen", "Ruin Blast", "Tala, Storm Seer"]),  # multicoloured
    ("c:c", ["Ashen Queen", "Ember Fiend", "Grove Elf", "Quick Thought", "Ruin Blast",
             "Steel Golem", "Tala, Storm Seer", "Warden Tomb", "Zephyr Angel"]),  # >= none
    ("c=c", ["Steel Golem", "Warden Tomb"]),  # colourless
    ("id:w", ["Steel Golem", "Warden Tomb", "Zephyr Angel"]),  # identity within white
    ("id>=br", ["Ashen Queen"]),
    ("mv=2", ["Ember Fiend", "Ruin Blast"]),
    ("cmc>=4", ["Ashen Queen", "Steel Golem", "Tala, Storm Seer", "Zephyr Angel"]),
    ("pow>tou", ["Ember Fiend"]),
    ("tou>=4", ["Steel Golem", "Zephyr Angel"]),
    ("loy=4", ["Tala, Storm Seer"]),
    ("-t:creature -t:land", ["Quick Thought", "Ruin Blast", "Tala, Storm Seer"]),
    ("t:instant OR t:sorcery", ["Quick Thought", "Ruin Blast"]),
    ("(t:instant OR t:sorcery) c:g", ["Ruin Blast"]),
    ("f:standard", []),
    ("banned:legacy", ["Ashen Queen"]),
    ("restricted:vintage", ["Ashen Queen"]),
    ("legal:vintage t:legendary", ["Ashen Queen", "Tala, Storm Seer"]),  # restricted: legal
    ("f:legacy t:legendary", ["Tala, Storm Seer"]),  # the Queen is banned there
    ("is:commander", ["Ashen Queen", "Tala, Storm Seer"]),  # 903.3 and its own text
    ("ZEPHYR", ["Zephyr Angel"]),
    ('"storm seer"', ["Tala, Storm Seer"]),
])
def test_a_query_finds_what_it_means(db, query, expected):
    assert mine(db, query) == expected


@pytest.mark.parametrize("query, part", [
    ("zz:3", "'zz:3'"), ("mv>=x", "'mv>=x'"), ("c:purple", "'c:purple'"),
    ('o:"draw', "'o:\"draw'"), ("(t:land", "'('"), ("t:land)", "')'"),
    ("t:land OR", "'OR'"), ("pow:", "'pow:'"), ("t>3", "'t>3'"), ("is:funny", "'is:funny'"),
])
def test_a_query_it_cannot_read_names_the_part(db, query, part):
    with pytest.raises(SearchError) as e:
        db.search(query)
    assert part in str(e.value)


def test_the_command_line_prints_names_sorted_and_exits_2_on_a_bad_query(tmp_path):
    data = tmp_path / "data"
    cards = tmp_path / "oracle.json"
    cards.write_text(json.dumps(CARDS), encoding="utf-8")
    r = run_cli("--data-dir", data, "cards", "--import", cards)
    assert r.returncode == 0, r.stderr
    r = run_cli("--data-dir", data, "cards", "--search", "t:creature c:r")
    assert r.returncode == 0, r.stderr
    names = r.stdout.splitlines()
    assert names == sorted(names, key=str.casefold)
    assert "Ember Fiend" in names and "Ashen Queen" in names and "Grove Elf" not in names
    r = run_cli("--data-dir", data, "cards", "--search", "t:creature c:r", "--json")
    got = json.loads(r.stdout)
    assert r.returncode == 0 and [c["name"] for c in got] == names
    assert next(c for c in got if c["name"] == "Ember Fiend")["mv"] == 2.0
    r = run_cli("--data-dir", data, "cards", "--search", "t:nothing-like-this")
    assert r.returncode == 0 and r.stdout == ""
    r = run_cli("--data-dir", data, "cards", "--search", "mv>>2")
    assert r.returncode == 2 and "mv>>2" in r.stderr and r.stdout == ""


def test_without_imported_cards_the_built_in_ones_are_searched(tmp_path):
    db = CardDB(tmp_path / "none.sqlite3")
    assert "Serra Angel" in db.search("t:angel c:w")
    assert "Angel" not in db.search("angel")  # a token is made, not put in a deck
    assert not (tmp_path / "none.sqlite3").exists()  # searching writes nothing


def test_an_index_older_than_search_is_built_from_the_cards_the_database_holds(db, tmp_path):
    import sqlite3
    old = tmp_path / "old.sqlite3"
    src = sqlite3.connect(db.path)
    dst = sqlite3.connect(old)
    src.backup(dst)
    src.close()
    for table in ("search", "legal", "search_text"):
        dst.execute(f"DROP TABLE {table}")
    dst.execute("DELETE FROM meta WHERE key = 'search_index'")
    dst.commit()
    dst.close()
    assert mine(CardDB(old), "c=r") == ["Ember Fiend"]
