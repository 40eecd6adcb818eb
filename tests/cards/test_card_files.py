"""MTGJSON in all its shapes and look-ups as people write names (issue 13, item 4).
The fixtures copy MTGJSON's layouts (meta, then data: AtomicCards' name -> faces,
AllPrintings' set code -> set, a set file's fields then its cards)."""

from __future__ import annotations

import gzip
import json
import lzma
import unicodedata

import pytest

from tabletop.cards.db import CardDB

LIMDUL = {"name": "Lim-Dûl the Necromancer", "manaCost": "{5}{B}{B}",
          "type": "Legendary Creature — Human Wizard", "types": ["Creature"],
          "supertypes": ["Legendary"], "subtypes": ["Human", "Wizard"], "power": "4",
          "toughness": "4", "colors": ["B"], "layout": "normal", "setCode": "TSP", "number": "1"}
FIRE_ICE = [
    {"name": "Fire // Ice", "faceName": "Ice", "side": "b", "manaCost": "{1}{U}",
     "types": ["Instant"], "colors": ["U"], "layout": "split", "setCode": "TSP"},
    {"name": "Fire // Ice", "faceName": "Fire", "side": "a", "manaCost": "{1}{R}",
     "types": ["Instant"], "colors": ["R"], "layout": "split", "setCode": "TSP"}]
SET = {"baseSetSize": 3, "block": "Time Spiral", "booster": {"default": {"boosters": []}},
       "cards": [LIMDUL, *FIRE_ICE, {"name": "Ætherling", "manaCost": "{4}{U}{U}",
                                      "types": ["Creature"], "layout": "normal"}],
       "code": "TSP", "name": "Time Spiral", "tokens": [{"name": "Saproling",
                                                          "types": ["Creature"]}],
       "totalSetSize": 3, "type": "expansion"}
META = {"date": "2026-01-01", "version": "5.2.2"}


def _write(tmp_path, name, doc, how):
    data = json.dumps(doc, ensure_ascii=False).encode()
    p = tmp_path / (name + {"plain": "", "gz": ".gz", "xz": ".xz"}[how])
    p.write_bytes({"plain": data, "gz": gzip.compress(data), "xz": lzma.compress(data)}[how])
    return p


@pytest.mark.parametrize("how", ["plain", "gz", "xz"])
def test_a_set_file_imports(tmp_path, how):
    db = CardDB(tmp_path / "cards.sqlite3")
    assert db.import_file(_write(tmp_path, "TSP.json", {"meta": META, "data": SET}, how)) == 3
    assert db.info("Lim-Dûl the Necromancer")["supertypes"] == ["Legendary"]
    faces = db.info("Fire // Ice")["faces"]
    assert [f["name"] for f in faces] == ["Fire", "Ice"]  # in side order
    assert db.info("Saproling") is None or db.info("Saproling")["name"] == "Saproling"


def test_all_printings_imports_each_card_once(tmp_path):
    m10 = {"code": "M10", "name": "Magic 2010", "cards": [
        {**LIMDUL, "setCode": "M10"}, {"name": "Lightning Bolt", "types": ["Instant"],
                                       "manaCost": "{R}"}]}
    doc = {"meta": META, "data": {"M10": m10, "TSP": SET}}
    db = CardDB(tmp_path / "cards.sqlite3")
    assert db.import_file(_write(tmp_path, "AllPrintings.json", doc, "gz")) == 4


@pytest.mark.parametrize("written", [
    "LIM-DÛL THE NECROMANCER", "Lim-Dul the Necromancer", "lim-dul the necromancer",
    unicodedata.normalize("NFD", "Lim-Dûl the Necromancer")])
def test_look_ups_ignore_case_and_accents(tmp_path, written):
    db = CardDB(tmp_path / "cards.sqlite3")
    db.import_file(_write(tmp_path, "TSP.json", {"meta": META, "data": SET}, "plain"))
    assert db.info(written)["name"] == "Lim-Dûl the Necromancer"


@pytest.mark.parametrize("written", ["Urza's Saga", "Urza\u2019s Saga", "urza\u2018s saga"])
def test_a_typeset_apostrophe_finds_the_card(tmp_path, written):
    """Card data writes the plain apostrophe; a deck list copied from a web page or a
    word processor often has the typeset one."""
    urza = {"name": "Urza's Saga", "types": ["Enchantment"], "subtypes": ["Urza's", "Saga"],
            "supertypes": [], "layout": "saga", "setCode": "MH2", "number": "259"}
    data = {**SET, "code": "MH2", "cards": [urza]}
    db = CardDB(tmp_path / "cards.sqlite3")
    db.import_file(_write(tmp_path, "MH2.json", {"meta": META, "data": data}, "plain"))
    assert db.info(written)["name"] == "Urza's Saga"


@pytest.mark.parametrize("written", ["Aetherling", "Ætherling", "ætherling", "AETHERLING"])
def test_ae_and_aether_find_the_same_card(tmp_path, written):
    db = CardDB(tmp_path / "cards.sqlite3")  # not a built-in card: the database answers
    db.import_file(_write(tmp_path, "TSP.json", {"meta": META, "data": SET}, "plain"))
    assert db.info(written)["name"] == "Ætherling"


@pytest.mark.parametrize("written", ["Fire/Ice", "Fire // Ice", "fire//ice", "Ice"])
def test_split_cards_by_any_separator_or_face(tmp_path, written):
    db = CardDB(tmp_path / "cards.sqlite3")
    db.import_file(_write(tmp_path, "TSP.json", {"meta": META, "data": SET}, "plain"))
    assert db.info(written)["name"] == "Fire // Ice"


def test_a_set_files_reprints_keep_the_cards_text_once(tmp_path):
    """A set prints a basic land four times: the card is one, its text said once."""
    mountains = [{"name": "Mountain", "number": str(n), "side": None, "layout": "normal",
                  "types": ["Land"], "supertypes": ["Basic"], "subtypes": ["Mountain"],
                  "text": "({T}: Add {R}.)", "setCode": "TSP"} for n in (298, 299, 300, 301)]
    doc = {"meta": META, "data": {**SET, "cards": [*SET["cards"], *mountains]}}
    db = CardDB(tmp_path / "cards.sqlite3")
    db.import_file(_write(tmp_path, "TSP.json", doc, "plain"))
    assert db.text("Mountain") == "({T}: Add {R}.)"
    assert "faces" not in db.info("Mountain")
    assert [f["name"] for f in db.info("Fire // Ice")["faces"]] == ["Fire", "Ice"]
