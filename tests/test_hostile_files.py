"""Hostile inputs (issue 12, items 3 and 5 to 10): each is refused with one message
naming the file and what is wrong, exit 2 on the command line, nothing changed.
Times and memory for the same files are measured in tests/benchmarks/bench_hostile.py."""

from __future__ import annotations

import gzip
import json
import sqlite3

import pytest

from tabletop.cards import decks
from tabletop.cards.db import CardDataError, CardDB, ImportCancelled
from tabletop.engine import InputError, rulestext
from tests.cards.test_db import MTGJSON
from tests.helpers import run_cli


# ---- decks (items 5 and 8) --------------------------------------------------------------
def test_a_cod_of_two_billion_forests_is_refused(tmp_path):
    p = tmp_path / "huge.cod"
    p.write_text('<?xml version="1.0"?><cockatrice_deck version="1"><deckname>x</deckname>'
                 '<zone name="main"><card number="2000000000" name="Forest"/></zone>'
                 '</cockatrice_deck>')
    r = run_cli("deck", p)
    assert r.returncode == 2 and f"{p}: more than 10,000 cards in one deck" in r.stderr


def test_deck_totals_are_capped_across_lines(tmp_path):
    p = tmp_path / "many.txt"
    p.write_text("".join(f"250 Card {i}\n" for i in range(41)))  # 10,250 cards in all
    with pytest.raises(InputError) as e:
        decks.load(p, known=lambda n: True)
    assert "more than 10,000 cards" in str(e.value) and "line 41" in str(e.value)


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-16-be"])
def test_xml_decks_with_entities_are_refused_in_any_encoding(tmp_path, encoding):
    body = (f'<?xml version="1.0" encoding="{encoding.upper()}"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa">'
            '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><Deck><Cards Quantity="1" '
            'Name="&b;" Sideboard="false"/></Deck>')
    p = tmp_path / "bomb.dek"
    p.write_bytes(body.encode(encoding))
    r = run_cli("deck", p)
    assert r.returncode == 2 and "DOCTYPE or entities is not accepted" in r.stderr
    assert "aaaa" not in r.stdout


def test_a_cod_sideboard_zone_is_the_sideboard(tmp_path):
    p = tmp_path / "d.cod"
    p.write_text('<?xml version="1.0"?><cockatrice_deck version="1"><deckname>d</deckname>'
                 '<zone name="main"><card number="4" name="Forest"/></zone>'
                 '<zone name="sideboard"><card number="2" name="Island"/></zone>'
                 '</cockatrice_deck>')
    d = decks.load(p, known=lambda n: True)
    assert d.count("main") == 4 and d.count("sideboard") == 2


# ---- rules texts (item 6) -----------------------------------------------------------------
def test_a_rules_text_full_of_brackets_imports_its_rules(tmp_path):
    p = tmp_path / "brackets.txt"
    p.write_text("100.1. A rule.\n100.2. Another rule.\n100.3. Third " + "[" * 80_000 + "\n")
    rt = rulestext.read(p)  # quadratic before: 58 s; bench_hostile.py times it
    assert len(rt.rules) == 3 and rt.effective is None


def test_a_long_continuation_list_is_joined(tmp_path):
    p = tmp_path / "zlist.txt"
    p.write_text("- Z.1.1 - start\n" + "more words\n" * 50_000 + "- Z.1.2 - b\n- Z.1.3 - c\n")
    rt = rulestext.read(p)
    assert rt.rules["Z.1.1"].count("more words") == 50_000


def test_a_contents_list_naming_the_glossary_does_not_stop_the_rules(tmp_path):
    p = tmp_path / "cr.txt"
    p.write_text("Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of "
                 "June 1, 2024.\n\nContents\n\n1. Game Concepts\n100. General\nGlossary\n"
                 "Credits\n\n1. Game Concepts\n\n100. General\n\n100.1. A first rule.\n\n"
                 "100.2. A second rule.\n\n100.3. A third rule.\n\nGlossary\n\nToken\nA marker."
                 "\n\nCredits\n\nPeople.\n")
    rt = rulestext.read(p)
    assert set(rt.rules) == {"100.1", "100.2", "100.3"} and rt.glossary == {"Token": "A marker."}


# ---- card data (items 3 and 7) ----------------------------------------------------------
def test_a_gzip_bomb_of_whitespace_is_refused(tmp_path):
    p = tmp_path / "bomb.json.gz"
    with gzip.open(p, "wb") as f:
        for _ in range(120):
            f.write(b" " * (1 << 20))
    db = CardDB(tmp_path / "cards.sqlite3")
    before = db.count()
    with pytest.raises(InputError) as e:
        db.import_file(p)
    assert "decompresses to far more than card data" in str(e.value)
    assert db.count() == before  # nothing of it was kept, and the database still takes a file
    good = tmp_path / "AtomicCards.json"
    good.write_text('{"data": {"Giant of Tests": [{"name": "Giant of Tests", "types": '
                    '["Creature"], "layout": "normal", "text": "A giant."}]}}')
    db.import_file(good)
    assert db.count() == before + 1 and db.card("Giant of Tests") is not None


def test_card_data_naming_a_card_with_a_lone_surrogate_is_refused_in_words(tmp_path):
    """A lone surrogate's escape in a name: the whole file is refused, saying so in
    words (it said "UnicodeEncodeError: 'utf-8' codec ..."), and nothing of it is kept."""
    p = tmp_path / "AtomicCards.json"
    p.write_text(json.dumps({"data": {
        "Good Card": [{"name": "Good Card", "types": ["Creature"], "layout": "normal"}],
        "Bad\ud800": [{"name": "Bad\ud800", "types": ["Creature"], "layout": "normal"}]}}))
    db = CardDB(tmp_path / "cards.sqlite3")
    with pytest.raises(InputError) as e:
        db.import_file(p)
    assert str(p) in str(e.value) and "not valid Unicode" in str(e.value)
    assert "Error" not in str(e.value)
    assert db.info("Good Card") is None


def test_a_json_error_mid_file_is_refused_at_once(tmp_path):
    p = tmp_path / "bad.json.gz"
    with gzip.open(p, "wb") as f:
        f.write(b'{"data": {"A": [{"name": "A", "types": ["Creature"]}], "B": xyz'
                + b" " * 3_000_000 + b"}}")
    db = CardDB(tmp_path / "cards.sqlite3")
    with pytest.raises(InputError) as e:
        db.import_file(p)
    assert "not valid JSON (Expecting value" in str(e.value)
    assert db.info("A") is None  # the card before the error was not kept


def test_cancel_leaves_the_database_as_before(tmp_path):
    data = {"meta": {}, "data": {f"Card {i}": [{"name": f"Card {i}", "types": ["Creature"]}]
                                  for i in range(3000)}}
    p = tmp_path / "AtomicCards.json"
    p.write_text(json.dumps(data))
    db = CardDB(tmp_path / "cards.sqlite3")
    db.import_file(tmp_path.joinpath("small.json") if False else _small(tmp_path))
    before = db.count()
    with pytest.raises(ImportCancelled):
        db.import_file(p, cancelled=lambda: True)
    assert db.count() == before and db.info("Card 5") is None


def _small(tmp_path):
    p = tmp_path / "small.json"
    p.write_text(json.dumps(MTGJSON))
    return p


def test_a_damaged_database_says_so_and_rebuild_keeps_it_aside(tmp_path):
    path = tmp_path / "cards.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    db = CardDB(path)
    assert db.info("Lightning Bolt") is not None  # the built-in cards need no database
    with pytest.raises(CardDataError) as e:
        db.info("No Such Card")
    assert "damaged (file is not a database)" in str(e.value) and "--rebuild" in str(e.value)
    aside = db.rebuild()
    assert aside.exists() and aside.read_bytes().startswith(b"this is not a database")
    assert db.info("No Such Card") is None and db.import_file(_small(tmp_path)) == 3


def test_a_locked_database_says_another_program_holds_it(tmp_path):
    path = tmp_path / "cards.sqlite3"
    CardDB(path).import_file(_small(tmp_path))
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(CardDataError) as e:
            CardDB(path).import_file(_small(tmp_path))
        assert "in use by another program" in str(e.value)
    finally:
        other.execute("ROLLBACK")
        other.close()


def test_cli_damaged_database_exits_2_and_rebuilds(tmp_path, monkeypatch):
    import os
    data = tmp_path / "data"
    (data / "tabletop").mkdir(parents=True)
    (data / "tabletop" / "cards.sqlite3").write_bytes(b"garbage" * 200)
    env = dict(os.environ, XDG_DATA_HOME=str(data))
    import subprocess
    import sys

    def cli(*args):
        return subprocess.run([sys.executable, "-m", "tabletop", *args], capture_output=True,
                              text=True, env=env, timeout=60)
    r = cli("cards", "No Such Card")
    assert r.returncode == 2 and "damaged" in r.stderr and "Traceback" not in r.stderr
    r = cli("cards", "--rebuild")
    assert r.returncode == 0 and "kept as" in r.stdout
    assert cli("cards", "Lightning Bolt").returncode == 0


# ---- shared output (item 10) ------------------------------------------------------------
SCENARIO = '''format = "tabletop-scenario/1"
title = "<img src=x onerror=alert(1)> \\u001b[2J\\u001b[1;1HPASSED"
players = ["Alice", "Bob"]

[cards.g]
name = "Hill *Giant* <b>x</b>"
types = ["Creature"]
owner = "Alice"
zone = "battlefield"

[[steps]]
say = "<script>alert(2)</script> `tick` [x](y)"
move = "g"
to = "graveyard"
'''


def test_terminal_output_shows_control_characters_as_escapes(tmp_path):
    p = tmp_path / "x.toml"
    p.write_text(SCENARIO)
    r = run_cli("ruling", p)
    assert r.returncode == 0
    assert "\x1b" not in r.stdout and "\\u001b[2J" in r.stdout
    r = run_cli("ruling", "--json", p)
    assert json.loads(r.stdout)["files"][0]["title"].startswith("<img")  # still valid JSON


def test_markdown_report_escapes_everything_from_the_file(tmp_path):
    p = tmp_path / "x.toml"
    p.write_text(SCENARIO)
    out = tmp_path / "r.md"
    r = run_cli("ruling", p, "--report", out)
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    assert "<img" not in text and "<script>" not in text and "<b>" not in text
    assert "&lt;img src=x onerror=alert\\(1\\)&gt;" in text and "\x1b" not in text
    assert "Hill \\*Giant\\*" in text and "\\`tick\\` \\[x\\]\\(y\\)" in text


def test_a_report_that_cannot_be_written_exits_2(tmp_path):
    p = tmp_path / "x.toml"
    p.write_text(SCENARIO)
    blocker = tmp_path / "file"
    blocker.write_text("a file, not a folder")
    r = run_cli("ruling", p, "--report", blocker / "r.md")
    assert r.returncode == 2 and "cannot write the report" in r.stderr


def test_subcommands_work_without_a_console(monkeypatch, capsys):
    """A windowed build has sys.stdout None: the subcommands still run (and exit 0)."""
    import sys

    from tabletop import cli
    monkeypatch.setattr(sys, "stdout", None)
    monkeypatch.setattr(sys, "stderr", None)
    try:
        assert cli.main(["editions"]) == 0
        assert cli.main(["rules", "cr-2016", "400.7"]) == 0
    finally:
        for stream in (sys.stdout, sys.stderr):  # the stand-in streams it opened
            getattr(stream, "stream", stream).close()


@pytest.mark.parametrize("name, data", [
    ("huge.txt", ("9" * 5000 + " Forest\n").encode()),
    ("huge.dek", ('<?xml version="1.0"?><Deck><Cards Quantity="' + "9" * 5000
                  + '" Sideboard="false" Name="Forest"/></Deck>').encode()),
    ("huge.cod", ('<?xml version="1.0"?><cockatrice_deck version="1"><zone name="main">'
                  '<card number="' + "9" * 5000 + '" name="Forest"/></zone>'
                  '</cockatrice_deck>').encode()),
    ("odd.cod", ('<?xml version="1.0"?><cockatrice_deck version="1"><zone name="maybe">'
                 '<card number="' + "9" * 5000 + '" name="Forest"/></zone>'
                 '</cockatrice_deck>').encode()),
])
def test_a_count_of_thousands_of_digits_is_one_clear_refusal(tmp_path, name, data):
    p = tmp_path / name
    p.write_bytes(data)
    r = run_cli("deck", p)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert str(p) in r.stderr and "5,000 digits" in r.stderr


def test_a_scenario_of_100000_steps_is_refused_before_it_runs(tmp_path):
    """Under the 4 MiB cap, but past the documented step limit: one message, exit 2,
    for a run and for a comparison alike."""
    lines = ['format = "tabletop-scenario/1"', 'title = "x"', 'edition = "cr-2016"',
             'players = ["A", "B"]']
    lines += ["[[steps]]\ndraw = \"A\""] * 100_000
    p = tmp_path / "long.toml"
    p.write_text("\n".join(lines) + "\n")
    assert p.stat().st_size < 4 * 1024 * 1024
    for extra in (["--json"], ["--compare", "cr-1999,cr-2016"]):
        r = run_cli("ruling", p, *extra)
        assert r.returncode == 2, r.stderr
        assert f"{p}: 100,000 steps; a scenario has at most 10,000" in r.stderr


def test_a_file_name_with_a_line_feed_is_shown_escaped(tmp_path):
    p = tmp_path / "two\nlines\x1b[31m.txt"
    p.write_text("not a deck line at all\n")
    r = run_cli("deck", p)
    assert r.returncode == 2
    line = r.stderr.strip()
    assert "\n" not in line and "\x1b" not in line  # one line, no escape sequence
    assert "two\\u000alines\\u001b[31m.txt" in line
