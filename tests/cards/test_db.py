"""Card database: built-in facts, imports of MTGJSON and Scryfall data (plain, .gz,
.xz), look-ups by name and face name, and bad files that change nothing."""

import gzip
import json
import lzma

import pytest

from tabletop.cards import builtin
from tabletop.cards.db import CardDB
from tabletop.engine import InputError
from tests.helpers import SCENARIOS, run_cli

KINDS = {"Instant", "Sorcery", "Plane", "Phenomenon", "Scheme", "Vanguard", "Conspiracy", "Emblem"}


def test_builtin_set_has_300_cards_and_every_special_kind():
    assert builtin.count() >= 300
    types = {t for d in builtin._data().values() for t in d["types"]}
    assert types >= KINDS
    layouts = {d.get("layout") for d in builtin._data().values()}
    assert {"transform", "split", "token"} <= layouts
    assert len(builtin.tokens()) >= 10
    for d in builtin._data().values():
        assert not {"text", "oracle_text", "rules"} & set(d), d["name"]  # facts only


def test_builtin_covers_demo_decks_and_scenarios():
    import tomllib

    from tabletop.cards import demo
    for deck in demo.DECKS.values():
        for _, name in deck:
            assert builtin.lookup(name) is not None, name
    for path in SCENARIOS.rglob("*.toml"):
        for spec in tomllib.loads(path.read_text()).get("cards", {}).values():
            assert builtin.lookup(spec["name"]) is not None, (path.name, spec["name"])


def test_lookup_by_name_and_face_any_case():
    assert builtin.lookup("LIGHTNING bolt").name == "Lightning Bolt"
    assert builtin.lookup("insectile aberration").name == "Delver of Secrets"
    assert builtin.lookup("Ice").name == "Fire // Ice"


MTGJSON = {
    "meta": {"date": "2026-01-01", "version": "5.2.2"},
    "data": {
        "Zap Gun": [{"name": "Zap Gun", "manaCost": "{2}", "type": "Artifact",
                     "types": ["Artifact"], "subtypes": [], "supertypes": [], "colors": [],
                     "layout": "normal", "text": "{T}: Tap target gadget.\nZap!",
                     "legalities": {"vintage": "Legal"}}],
        "Night // Day": [
            {"name": "Night // Day", "faceName": "Night", "manaCost": "{B}", "types": ["Instant"],
             "colors": ["B"], "layout": "split", "side": "a"},
            {"name": "Night // Day", "faceName": "Day", "manaCost": "{2}{W}", "types": ["Instant"],
             "colors": ["W"], "layout": "split", "side": "b"}],
        "Sunlit Hoplite": [{"name": "Sunlit Hoplite", "manaCost": "{W}", "types": ["Creature"],
                            "subtypes": ["Human", "Soldier"], "power": "1", "toughness": "1",
                            "colors": ["W"], "layout": "normal"}],
    },
}

SCRYFALL = [
    {"object": "card", "name": "Glade Watcher", "layout": "normal", "mana_cost": "{1}{G}",
     "type_line": "Creature — Elemental", "power": "3", "toughness": "3", "colors": ["G"],
     "oracle_text": "Whenever a watcher watches, draw a glade."},
    {"object": "card", "name": "Kruin Outlaw // Terror of Kruin Pass", "layout": "transform",
     "type_line": "Creature — Human Rogue Werewolf // Creature — Werewolf",
     "card_faces": [
         {"name": "Kruin Outlaw", "mana_cost": "{1}{R}{R}", "type_line": "Creature — Human Rogue Werewolf",
          "power": "2", "toughness": "2", "colors": ["R"]},
         {"name": "Terror of Kruin Pass", "mana_cost": "", "type_line": "Creature — Werewolf",
          "power": "3", "toughness": "3", "colors": ["R"]}]},
    {"object": "card", "name": "Garruk Relentless", "layout": "transform",
     "type_line": "Legendary Planeswalker — Garruk", "loyalty": "3", "card_faces": [
         {"name": "Garruk Relentless", "mana_cost": "{3}{G}", "type_line": "Legendary Planeswalker — Garruk",
          "loyalty": "3"},
         {"name": "Garruk, the Veil-Cursed", "type_line": "Legendary Planeswalker — Garruk", "loyalty": "3"}]},
]


def _write(tmp_path, name, data: bytes, how: str):
    p = tmp_path / (name + {"plain": "", "gz": ".gz", "xz": ".xz"}[how])
    p.write_bytes({"plain": data, "gz": gzip.compress(data), "xz": lzma.compress(data)}[how])
    return p


@pytest.mark.parametrize("how", ["plain", "gz", "xz"])
def test_import_mtgjson_atomic_cards(tmp_path, how):
    db = CardDB(tmp_path / "cards.sqlite3")
    p = _write(tmp_path, "AtomicCards.json", json.dumps(MTGJSON).encode(), how)
    seen = []
    assert db.import_file(p, lambda n, r, t: seen.append((n, r, t))) == 3
    assert seen and seen[-1][1] == seen[-1][2]
    assert db.card("zap gun").types == ("Artifact",)
    assert db.info("Day")["name"] == "Night // Day"
    assert db.card("sunlit hoplite").power == "1"
    # the user's own imported data keeps its card text, for the preview and inspector
    assert db.text("Zap Gun") == "{T}: Tap target gadget.\nZap!"
    assert db.text("Sunlit Hoplite") is None and db.text("No Such Card") is None


def test_imported_text_is_found_for_a_built_in_card_too(tmp_path):
    data = {"data": {"Hill Giant": [{"name": "Hill Giant", "types": ["Creature"],
                                     "layout": "normal", "text": "Our words for a giant."}]}}
    p = tmp_path / "AtomicCards.json"
    p.write_text(json.dumps(data))
    db = CardDB(tmp_path / "cards.sqlite3")
    assert db.text("Hill Giant") is None
    db.import_file(p)
    assert db.text("hill giant") == "Our words for a giant."
    assert db.card("Hill Giant") == builtin.lookup("Hill Giant")  # facts: the built-in ones


@pytest.mark.parametrize("how", ["plain", "gz", "xz"])
def test_import_scryfall_oracle_cards(tmp_path, how):
    db = CardDB(tmp_path / "cards.sqlite3")
    p = _write(tmp_path, "oracle-cards.json", ("\ufeff" + json.dumps(SCRYFALL)).encode(), how)
    assert db.import_file(p) == 3
    c = db.card("Glade Watcher")
    assert (c.types, c.subtypes, c.power) == (("Creature",), ("Elemental",), "3")
    assert db.text("glade watcher") == "Whenever a watcher watches, draw a glade."
    assert db.info("terror of kruin pass")["name"] == "Kruin Outlaw // Terror of Kruin Pass"
    assert db.info("Garruk Relentless")["loyalty"] == "3"
    assert db.card("garruk relentless").supertypes == ("Legendary",)


@pytest.mark.parametrize("content", [b"", b"\x00\x01junk", b"{\"meta\": {}}", b"[1, 2, 3]",
                                     b"{\"data\": {\"X\": [{\"name\": \"X\"", b"not json at all",
                                     gzip.compress(b"[{\"name\": \"A\"}, oops]")])
def test_bad_card_file_changes_nothing(tmp_path, content):
    db = CardDB(tmp_path / "cards.sqlite3")
    good = _write(tmp_path, "good.json", json.dumps(MTGJSON).encode(), "plain")
    db.import_file(good)
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    with pytest.raises(InputError) as e:
        db.import_file(bad)
    assert str(bad) in str(e.value)
    assert db.card("Zap Gun") is not None and db.info("Glade Watcher") is None
    assert db._db().execute("SELECT COUNT(*) FROM cards").fetchone()[0] == 3


def test_cli_cards_lookup_and_import(tmp_path):
    r = run_cli("cards", "fire")
    assert r.returncode == 0 and "Fire // Ice" in r.stdout and "face: Ice" in r.stdout
    assert run_cli("cards", "no such card").returncode == 1
    p = _write(tmp_path, "AtomicCards.json", json.dumps(MTGJSON).encode(), "gz")
    r = run_cli("cards", "--import", p)
    assert r.returncode == 0 and "Imported 3 cards" in r.stdout
    r = run_cli("cards", "--json", "night")
    assert r.returncode == 0 and json.loads(r.stdout)["layout"] == "split"
    bad = tmp_path / "bad.json"
    bad.write_text("[{]")
    r = run_cli("cards", "--import", bad)
    assert r.returncode == 2 and "bad.json" in r.stderr and "Traceback" not in r.stderr
