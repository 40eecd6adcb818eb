"""Issue 35, legality: a deck checked against a format, as the rules (100.2a, 100.4a,
903.5a-c) and the card data's legalities say; each problem names the card and the rule.
The expected problems are worked out from those rules and the cards below."""

from __future__ import annotations

import json

import pytest

from tabletop.cards import legality
from tabletop.cards.db import CardDB
from tabletop.cards.decks import parse_text
from tests.helpers import run_cli

EVERYWHERE = {f: "legal" for f in ("standard", "modern", "legacy", "vintage", "commander")}


def _card(name, type_line, identity=(), text="", legal=None, cost=""):
    return {"object": "card", "name": name, "type_line": type_line, "layout": "normal",
            "mana_cost": cost, "colors": list(identity), "color_identity": list(identity),
            "oracle_text": text, "legalities": legal or EVERYWHERE}


CARDS = [
    _card("Forest", "Basic Land — Forest", ()),
    _card("Mountain", "Basic Land — Mountain", ()),
    _card("Grove Elf", "Creature — Elf", "G", cost="{G}"),
    _card("Ember Fiend", "Creature — Elemental", "R", cost="{1}{R}"),
    _card("Plague Rats", "Creature — Rat", "B",
          "A deck can have any number of cards named Plague Rats."),
    _card("Time Tutor", "Sorcery", "U", legal={**EVERYWHERE, "vintage": "restricted",
                                                "legacy": "banned"}),
    _card("Old Relic", "Artifact", (), legal={"vintage": "legal", "legacy": "legal"}),
    _card("Kessa, Grove Warden", "Legendary Creature — Elf Druid", "G"),
]


@pytest.fixture(scope="module")
def info(tmp_path_factory):
    d = tmp_path_factory.mktemp("legal")
    (d / "cards.json").write_text(json.dumps(CARDS), encoding="utf-8")
    db = CardDB(d / "cards.sqlite3")
    db.import_file(d / "cards.json")
    return db.info


def deck(text):
    return parse_text(text, "deck.txt")


def problems(text, fmt, info):
    return [(p.card, p.rule.split(",")[0], p.text) for p in legality.check(deck(text), fmt,
                                                                            info)]


def test_a_sixty_card_deck_of_four_ofs_and_basics_is_legal(info):
    text = "24 Forest\n4 Grove Elf\n4 Ember Fiend\n20 Mountain\n8 Plague Rats\n"
    assert problems(text, "modern", info) == []


def test_a_fifth_copy_is_a_problem_naming_the_card_and_100_2a(info):
    text = "24 Forest\n5 Grove Elf\n31 Mountain\n"
    assert problems(text, "modern", info) == [("Grove Elf", "100.2a", "5 copies; at most 4")]
    # the sideboard counts with the main deck
    text = "24 Forest\n4 Grove Elf\n32 Mountain\n\nSideboard\n1 Grove Elf\n"
    assert [p[0] for p in problems(text, "modern", info)] == ["Grove Elf"]


def test_deck_and_sideboard_sizes(info):
    found = problems("30 Forest\n29 Mountain\n\nSideboard\n16 Plague Rats\n", "modern", info)
    rules = sorted(p[1] for p in found)
    assert rules == ["100.2a", "100.4a"]
    assert any("59 cards" in p[2] for p in found)
    # one card is "1 card" (it said "1 cards")
    found = problems("1 Forest\n", "modern", info)
    assert [p[2] for p in found if p[1] == "100.2a"] == [
        "the main deck has 1 card; a constructed deck has at least 60"]


def test_the_card_datas_legalities(info):
    text = "28 Forest\n28 Mountain\n2 Time Tutor\n2 Old Relic\n"
    assert problems(text, "vintage", info) == [
        ("Time Tutor", "the card data", "restricted in vintage: at most 1, the deck has 2")]
    assert sorted(problems(text, "legacy", info)) == [
        ("Time Tutor", "the card data", "banned in legacy")]
    assert ("Old Relic", "the card data", "not legal in modern") in problems(text, "modern",
                                                                             info)


def test_commander_is_exactly_100_singleton_within_the_commanders_identity(info):
    legal = "Commander\n1 Kessa, Grove Warden\n\nDeck\n98 Forest\n1 Grove Elf\n"
    assert problems(legal, "commander", info) == []
    assert problems(legal.replace("98 Forest", "97 Forest"), "commander", info) == [
        (None, "903.5a", "the deck has 99 cards with its commander; a Commander deck has "
                         "exactly 100")]
    two = legal.replace("98 Forest\n1 Grove Elf", "96 Forest\n2 Grove Elf\n1 Ember Fiend")
    assert problems(two, "commander", info) == [
        ("Grove Elf", "903.5b", "2 copies; at most 1 (a Commander deck is singleton)"),
        ("Ember Fiend", "903.5c", "its colour identity (R) is outside the commander's (G)")]


def test_the_command_line_says_each_problem_and_exits_1(tmp_path):
    data = tmp_path / "data"
    (tmp_path / "cards.json").write_text(json.dumps(CARDS), encoding="utf-8")
    assert run_cli("--data-dir", data, "cards", "--import", tmp_path / "cards.json"
                   ).returncode == 0
    good = tmp_path / "good.txt"
    good.write_text("24 Forest\n4 Grove Elf\n32 Mountain\n", encoding="utf-8")
    r = run_cli("--data-dir", data, "deck", good, "--check", "modern")
    assert r.returncode == 0 and "legal in modern" in r.stdout, r.stdout + r.stderr
    bad = tmp_path / "bad.txt"
    bad.write_text("24 Forest\n5 Grove Elf\n31 Mountain\n", encoding="utf-8")
    r = run_cli("--data-dir", data, "deck", bad, "--check", "modern")
    assert r.returncode == 1
    assert "Grove Elf: 5 copies; at most 4 (100.2a" in r.stdout
