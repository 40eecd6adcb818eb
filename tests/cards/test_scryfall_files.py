"""Scryfall's bulk files (Oracle Cards: one entry per card; Default Cards: one per
printing) and JSON that is not card data (issue 13, item 4). The entries copy
Scryfall's card object layout (object, ids, layout, image_uris, type_line,
card_faces...); their rules text is a stand-in, not the cards' own."""

from __future__ import annotations

import gzip
import json

import pytest

from tabletop.cards.db import CardDB
from tabletop.engine import InputError
from tests.helpers import run_cli

TEXT = "(stand-in rules text)"


def printing(name, set_code, number, layout="normal", **fields):
    cid = f"{abs(hash((name, set_code, number))) % 10**8:08d}-0000-4000-8000-000000000000"
    card = {"object": "card", "id": cid, "oracle_id": f"oracle-{name}",
            "multiverse_ids": [], "name": name, "lang": "en", "released_at": "2009-07-17",
            "uri": f"https://api.scryfall.com/cards/{cid}",
            "scryfall_uri": f"https://scryfall.com/card/{set_code}/{number}",
            "layout": layout, "highres_image": True, "image_status": "highres_scan",
            "cmc": 1.0, "color_identity": [], "keywords": [],
            "legalities": {"standard": "not_legal", "vintage": "legal"},
            "games": ["paper"], "reserved": False, "foil": False, "nonfoil": True,
            "set": set_code, "set_name": set_code.upper(), "collector_number": str(number),
            "rarity": "common", "prices": {"usd": "0.50", "eur": None}}
    if "card_faces" not in fields:
        card["image_uris"] = {"small": f"https://cards.scryfall.io/small/{cid}.jpg"}
    card.update(fields)
    return card


BOLT = dict(mana_cost="{1}{R}", type_line="Instant", oracle_text=TEXT, colors=["R"])
DEFAULT_CARDS = [
    printing("Searing Spear", "lea", 161, **BOLT),
    printing("Searing Spear", "m10", 146, **BOLT),
    # an art card: the same name twice, type line "Card // Card"; never a card to play
    printing("Searing Spear // Searing Spear", "am10", 9, layout="art_series",
             type_line="Card // Card", card_faces=[
                 {"object": "card_face", "name": "Searing Spear", "type_line": "Card"},
                 {"object": "card_face", "name": "Searing Spear", "type_line": "Card"}]),
    # a token named like a card comes first in the file: the card still wins
    printing("Keldon Marauders", "tzen", 3, layout="token", type_line="Token Creature — Human Warrior",
             power="1", toughness="1", colors=["R"]),
    printing("Keldon Marauders", "zen", 126, mana_cost="{R}", type_line="Creature — Human Warrior",
             oracle_text=TEXT, power="2", toughness="2", colors=["R"]),
    printing("Scout", "tm10", 4, layout="token", type_line="Token Creature — Scout",
             power="1", toughness="1", colors=["R"]),
    printing("Kessig Prowler // Sinuous Predator", "isd", 51, layout="transform",
             type_line="Creature — Wolf // Creature — Eldrazi Wolf", card_faces=[
                 {"object": "card_face", "name": "Kessig Prowler", "mana_cost": "{U}",
                  "type_line": "Creature — Wolf", "oracle_text": TEXT,
                  "colors": ["U"], "power": "1", "toughness": "1"},
                 {"object": "card_face", "name": "Sinuous Predator", "mana_cost": "",
                  "type_line": "Creature — Eldrazi Wolf", "oracle_text": TEXT,
                  "colors": ["U"], "power": "3", "toughness": "2"}]),
    printing("Wear // Tear", "mh2", 290, layout="split", mana_cost="{1}{R} // {1}{U}",
             type_line="Instant // Instant", colors=["R", "U"], card_faces=[
                 {"object": "card_face", "name": "Wear", "mana_cost": "{1}{R}",
                  "type_line": "Instant", "oracle_text": TEXT},
                 {"object": "card_face", "name": "Tear", "mana_cost": "{1}{U}",
                  "type_line": "Instant", "oracle_text": TEXT}]),
    # a reversible card: no type line at the top, each face has its own
    printing("Zndrsplt, Eye of Wisdom // Zndrsplt, Eye of Wisdom", "sld", 379,
             layout="reversible_card", card_faces=[
                 {"object": "card_face", "name": "Zndrsplt, Eye of Wisdom",
                  "mana_cost": "{4}{U}", "type_line": "Legendary Creature — Homunculus",
                  "power": "1", "toughness": "4", "colors": ["U"]},
                 {"object": "card_face", "name": "Zndrsplt, Eye of Wisdom",
                  "mana_cost": "{4}{U}", "type_line": "Legendary Creature — Homunculus",
                  "power": "1", "toughness": "4", "colors": ["U"]}]),
]


def _file(tmp_path, name, doc, gz=False):
    data = json.dumps(doc, ensure_ascii=False, indent=None).encode()
    p = tmp_path / name
    p.write_bytes(gzip.compress(data) if gz else data)
    return p


@pytest.mark.parametrize("gz", [False, True])
def test_default_cards_imports_each_card_once(tmp_path, gz):
    db = CardDB(tmp_path / "cards.sqlite3")
    p = _file(tmp_path, "default-cards-20261122.json" + (".gz" if gz else ""), DEFAULT_CARDS, gz)
    # Searing Spear (two printings, counted once; its art card skipped), the token named
    # Keldon Marauders and then the card that replaces it, Scout, Kessig Prowler,
    # Wear // Tear and Zndrsplt
    assert db.import_file(p) == 7
    assert db.count() >= 6
    bolt = db.info("searing spear")
    assert bolt["types"] == ["Instant"] and bolt["layout"] == "normal"
    guide = db.info("Keldon Marauders")
    assert guide["types"] == ["Creature"] and guide["power"] == "2"  # the card, not the token
    assert db.info("Scout")["layout"] == "token" and db.info("Scout")["types"] == ["Creature"]
    prowler = db.info("Sinuous Predator")
    assert prowler["name"] == "Kessig Prowler // Sinuous Predator"
    assert [f["name"] for f in prowler["faces"]] == ["Kessig Prowler", "Sinuous Predator"]
    assert db.info("wear/tear")["name"] == "Wear // Tear"
    z = db.info("Zndrsplt, Eye of Wisdom")
    assert z["supertypes"] == ["Legendary"] and z["types"] == ["Creature"]


def test_an_art_card_never_replaces_the_card(tmp_path):
    db = CardDB(tmp_path / "cards.sqlite3")
    art_last = [DEFAULT_CARDS[0], DEFAULT_CARDS[2]]
    assert db.import_file(_file(tmp_path, "d.json", art_last)) == 1
    assert db.info("Searing Spear")["types"] == ["Instant"]
    assert db.info("Searing Spear // Searing Spear") is None


def test_a_scryfall_search_result_and_a_single_card_import(tmp_path):
    db = CardDB(tmp_path / "cards.sqlite3")
    page = {"object": "list", "total_cards": 2, "has_more": False,
            "data": [DEFAULT_CARDS[0], DEFAULT_CARDS[4]]}
    assert db.import_file(_file(tmp_path, "search.json", page)) == 2
    assert db.info("Keldon Marauders")["power"] == "2"
    db2 = CardDB(tmp_path / "other.sqlite3")
    assert db2.import_file(_file(tmp_path, "card.json", DEFAULT_CARDS[6])) == 1
    assert db2.info("Kessig Prowler")["layout"] == "transform"


META = {"date": "2026-11-20", "version": "5.2.2+20261120"}
NOT_CARDS = {
    "rulings.json": ([{"object": "ruling", "oracle_id": "x", "source": "wotc",
                       "published_at": "2004-10-04", "comment": "A stand-in ruling."}],
                     "Scryfall rulings"),
    "bulk-data.json": ({"object": "list", "has_more": False, "data": [
        {"object": "bulk_data", "type": "oracle_cards", "name": "Oracle Cards",
         "download_uri": "https://data.scryfall.io/oracle-cards/x.json"}]},
        "Scryfall's list of bulk data files"),
    "sets.json": ({"object": "list", "has_more": False, "data": [
        {"object": "set", "code": "tsp", "name": "Time Spiral"}]}, "a list of sets"),
    "error.json": ({"object": "error", "code": "not_found", "status": 404,
                    "details": "No card found with the given ID"},
                   "a Scryfall error response (No card found with the given ID)"),
    "SetList.json": ({"meta": META, "data": [{"baseSetSize": 301, "code": "TSP",
                                              "name": "Time Spiral",
                                              "releaseDate": "2006-10-06"}]},
                     "a list of sets"),
    "Keywords.json": ({"meta": META, "data": {"abilityWords": ["Adamant", "Addendum"],
                                              "keywordAbilities": ["Flying"]}},
                      "looks like Keywords.json or CardTypes.json"),
    "CardTypes.json": ({"meta": META, "data": {"artifact": {"subTypes": ["Equipment"],
                                                            "superTypes": ["Legendary"]}}},
                       "MTGJSON card types"),
    "Meta.json": ({"meta": META, "data": META}, "MTGJSON's Meta.json"),
    "AllIdentifiers.json": ({"meta": META, "data": {
        "00010d56-fe38-5e35-8aed-518019aa36a5": {"name": "Searing Spear",
                                                 "uuid": "00010d56-fe38-5e35-8aed-518019aa36a5",
                                                 "types": ["Instant"]}}},
                            "AllIdentifiers"),
    "AllPrices.json": ({"meta": META, "data": {"00010d56-fe38-5e35-8aed-518019aa36a5": {
        "paper": {"tcgplayer": {"retail": {"normal": {"2026-11-20": 0.5}}}}}}},
        "MTGJSON prices"),
    "DeckList.json": ({"meta": META, "data": [{"code": "C21", "fileName": "x_C21",
                                               "name": "X", "releaseDate": "2021-04-23",
                                               "type": "Commander Deck"}]},
                      "DeckList.json"),
    "deck.json": ({"meta": META, "data": {"code": "C21", "commander": [], "mainBoard": [],
                                          "name": "Lorehold Legacies", "sideBoard": []}},
                  "an MTGJSON deck file"),
    "moxfield.json": ({"id": "abc", "name": "My deck", "format": "commander",
                       "boards": {"mainboard": {"count": 1, "cards": {}}}},
                      "looks like a Moxfield deck"),
    "game.tabletop": ({"format": "tabletop-save/3", "table": {}}, "a Tabletop file"),
    "numbers.json": ([1, 2, 3], "a list of int"),
    "other.json": ({"colour": "blue", "size": 3}, "the keys colour, size"),
}


@pytest.mark.parametrize("name", sorted(NOT_CARDS))
def test_json_that_is_not_card_data_says_what_it_looks_like(tmp_path, name):
    doc, says = NOT_CARDS[name]
    db = CardDB(tmp_path / "cards.sqlite3")
    db.import_file(_file(tmp_path, "before.json", DEFAULT_CARDS[:1]))
    p = _file(tmp_path, name, doc)
    with pytest.raises(InputError) as e:
        db.import_file(p)
    msg = str(e.value)
    assert msg.startswith(f"{p}: ") and says in msg, msg
    assert "not card data" in msg and "Scryfall Oracle Cards or Default Cards" in msg
    assert db.count() >= 1 and db.info("Searing Spear")  # nothing changed


def test_cli_names_what_a_wrong_json_file_looks_like(tmp_path):
    p = _file(tmp_path, "rulings-20261122.json", NOT_CARDS["rulings.json"][0])
    r = run_cli("cards", "--import", p)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"{p}: Scryfall rulings (rulings.json): not card data" in r.stderr
