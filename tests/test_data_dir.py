"""One --data-dir covers every folder the app writes (issue 15, item 6)."""

from __future__ import annotations

import json

from tests.helpers import LAYOUTS, run_cli


def test_data_dir_holds_rules_texts_card_data_and_answers_from_there(tmp_path):
    data = tmp_path / "data"
    r = run_cli("--data-dir", data, "rules", "--import", LAYOUTS / "cr-full-layout.txt")
    assert r.returncode == 0, r.stderr
    assert len(list((data / "rules").glob("*.json"))) == 1
    r = run_cli("rules", "--imported", "--data-dir", data)
    assert r.returncode == 0 and "Comprehensive Rules, July 22, 2016" in r.stdout
    r = run_cli("rules", "--imported", f"--data-dir={tmp_path / 'other'}")
    assert "No rules text imported" in r.stdout
    cards = tmp_path / "AtomicCards.json"
    cards.write_text(json.dumps({"meta": {}, "data": {"Searing Spear": [
        {"name": "Searing Spear", "types": ["Instant"], "manaCost": "{1}{R}"}]}}))
    r = run_cli("--data-dir", data, "cards", "--import", cards)
    assert r.returncode == 0 and (data / "cards.sqlite3").exists(), r.stderr
    assert run_cli("cards", "Searing Spear", "--data-dir", data).returncode == 0
    assert run_cli("cards", "Searing Spear", "--data-dir", tmp_path / "other").returncode == 1


def test_every_folder_follows_the_one_setting(tmp_path):
    from tabletop import paths
    from tabletop.cards import db
    from tabletop.engine import rulestext
    from tabletop.ui import autosave, errors, settings
    paths.set_data_dir(tmp_path)
    assert autosave.data_dir() == tmp_path
    assert settings.config_dir() == tmp_path / "config"
    assert errors.log_path().parent == tmp_path / "logs"
    assert rulestext.store_dir() == tmp_path / "rules"
    assert db.default_path() == tmp_path / "cards.sqlite3"


def test_the_same_rules_text_imported_twice_is_listed_once(tmp_path):
    data = tmp_path / "data"
    copy = tmp_path / "elsewhere" / "same-rules.txt"
    copy.parent.mkdir()
    copy.write_bytes((LAYOUTS / "cr-full-layout.txt").read_bytes())
    for source in (LAYOUTS / "cr-full-layout.txt", copy, copy):
        assert run_cli("--data-dir", data, "rules", "--import", source).returncode == 0
    r = run_cli("rules", "--imported", "--data-dir", data)
    assert r.returncode == 0 and len(r.stdout.strip().splitlines()) == 1
    assert len(list((data / "rules").glob("*.json"))) == 1
