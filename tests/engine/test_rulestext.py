"""Importing the published rules text, in every layout of the seeds."""

import pytest

from tabletop.engine import InputError, rulestext
from tests.helpers import LAYOUTS, run_cli

# synthetic texts in the layouts of the five zone-rules texts (tests/data/rules_layouts)
WANTED = {
    "dangelo-zones.txt": ("Z.1.Ruling.4", "nothing happens"),
    "rulings-2004.txt": ("217.8d", "stops existing as a state-based effect"),
    "numbered-1999.txt": ("216.3", "ceases to exist"),
    "rst-2012.txt": ("400.7f", "lets it be cast"),
    "wiki-2016.txt": ("400.7g", "A resolving spell or activated ability"),
}


@pytest.mark.parametrize("seed", sorted(WANTED))
def test_imports_every_seed_layout(tmp_path, seed):
    rt, dest = rulestext.import_file(LAYOUTS / seed, store=tmp_path)
    number, words = WANTED[seed]
    assert words in rt.rules[number]
    assert dest.parent == tmp_path and dest.exists()
    assert words in rulestext.verbatim(number, store=tmp_path)


def test_2016_wiki_page_has_both_new_subrules(tmp_path):
    rt, _ = rulestext.import_file(LAYOUTS / "wiki-2016.txt", store=tmp_path)
    assert rt.effective == "2016-01-16" and "400.7f" in rt.rules


CR = """Magic: The Gathering Comprehensive Rules

These rules are effective as of February 5, 2016.

400. General

400.1. A zone is a place.

400.7a Effects from spells carry.
Example: A creature spell is made blue.

400.8. Exiled again means new.

Glossary

Ante
A zone used in old variants.

Token
A marker used to represent a permanent.

Credits
"""


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "cp1252"])
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_decodes_published_text_robustly(tmp_path, encoding, newline):
    p = tmp_path / "MagicCompRules.txt"
    p.write_bytes(CR.replace("\n", newline).replace("place.", "place – é.").encode(encoding))
    rt = rulestext.read(p)
    assert rt.layout == "comprehensive-rules" and rt.effective == "2016-02-05"
    assert rt.rules["400.1"] == "A zone is a place – é."
    assert rt.examples["400.7a"] == ["A creature spell is made blue."]
    assert rt.glossary["Token"] == "A marker used to represent a permanent."


@pytest.mark.parametrize("content", [b"", b"\x00\x00\x00\x01binary", b"hello world\nnothing here\n",
                                     b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"])
def test_not_a_rules_text_is_refused_and_nothing_stored(tmp_path, content):
    p = tmp_path / "junk.txt"
    p.write_bytes(content)
    store = tmp_path / "store"
    with pytest.raises(InputError) as e:
        rulestext.import_file(p, store=store)
    assert str(p) in str(e.value)
    assert not store.exists()


def test_cli_import_then_rules_shows_verbatim_text_or_says_the_number_means_another_rule(
        tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # a data folder of its own
    r = run_cli("rules", "--import", LAYOUTS / "cr-full-layout.txt")  # July 22, 2016
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("Imported 6 rules and 2 glossary entries (Comprehensive Rules), "
                               "effective July 22, 2016 into ")
    assert run_cli("rules", "--import", LAYOUTS / "rulings-2004.txt").returncode == 0
    r = run_cli("rules", "--imported")
    lines = r.stdout.splitlines()
    assert r.returncode == 0 and len(lines) == 2
    assert lines[0].startswith("Rulings summary, January 15, 2004: ")
    assert lines[1].startswith("Comprehensive Rules, July 22, 2016: 6 rules  (")
    r = run_cli("rules", "cr-2016", "401.1")
    assert r.returncode == 0, r.stderr
    assert "imported text: When a game begins, each player's deck becomes" in r.stdout
    assert "source: Comprehensive Rules, July 22, 2016" in r.stdout
    # 400.7g of the January 2016 text (the edition's) is another rule in July 2016
    r = run_cli("rules", "cr-2016", "400.7g")
    assert r.returncode == 0, r.stderr
    assert "Comprehensive Rules, July 22, 2016 uses 400.7g for a different rule" in r.stdout
    assert "nonland card" not in r.stdout


def _worded_like(monkeypatch, edition_id, layout_file):
    """Let a synthetic text stand in for an edition's own wording."""
    own = rulestext.read(LAYOUTS / layout_file).rules
    monkeypatch.setattr(rulestext, "_fingerprints", lambda: {
        edition_id: {n: rulestext.sketch(t) for n, t in own.items()}})


def test_a_number_that_means_another_rule_in_the_import_is_said_not_shown(tmp_path,
                                                                          monkeypatch):
    from tabletop.engine import editions
    _worded_like(monkeypatch, "cr-2016", "wiki-2016.txt")
    ed = editions.get("cr-2016")
    rulestext.import_file(LAYOUTS / "cr-full-layout.txt", store=tmp_path)  # July 22, 2016
    moved = rulestext.for_edition("400.7g", ed, store=tmp_path)
    assert moved.same_rule is False and not moved.shown
    assert moved.label() == ("Comprehensive Rules, July 22, 2016 uses 400.7g for a different "
                             "rule: it means something else than this edition's 2016 rule "
                             "400.7g, so its wording is not shown beside our summary")
    # with the January text kept too, its 400.7g (the edition's rule) is the one shown
    rulestext.import_file(LAYOUTS / "wiki-2016.txt", store=tmp_path)
    v = rulestext.for_edition("400.7g", ed, store=tmp_path)
    assert v.shown and v.same_rule and v.effective == "2016-01-16"
    assert "A resolving spell or activated ability" in v.text
    # a number the edition's text does not have cannot be compared: shown, said so
    v = rulestext.for_edition("401.1", ed, store=tmp_path)
    assert v.same_rule is None and v.shown and "may say something else" not in v.label()


def test_the_same_rule_worded_in_another_year_is_shown_and_said_so(tmp_path, monkeypatch):
    from tabletop.engine import editions
    _worded_like(monkeypatch, "cr-2012", "rst-2012.txt")
    rulestext.import_file(LAYOUTS / "wiki-2016.txt", store=tmp_path)
    v = rulestext.for_edition("400.7f", editions.get("cr-2012"), store=tmp_path)
    assert v.shown and v.same_rule and not v.same_year
    assert v.label() == ("Comprehensive Rules, January 16, 2016 (the 2016 text; the same rule "
                         "as in this edition's 2012 text)")


def test_each_edition_ships_a_fingerprint_of_its_own_texts_rules():
    import json

    from tabletop import resources
    from tabletop.engine import editions
    numbers = json.loads((LAYOUTS.parent / "seed_numbers.json").read_text())
    data = json.loads(resources.path("rules", "wording.json").read_text())
    assert "shingle" in data and data["sketch"] == rulestext.SKETCH
    for ed_id in editions.EDITION_IDS:
        ed = editions.get(ed_id)
        if not ed.seed:  # cr-2025: no seed text to take a fingerprint from; an import of
            assert ed_id not in data["editions"]  # its text is shown beside it (can't tell)
            assert rulestext.same_rule(ed_id, "400.10", "any words at all") is None
            continue
        printed = set(data["editions"][ed_id])
        assert len(printed) >= 20 and printed <= set(numbers["seeds"][ed.seed]), ed_id
        assert all(len(v.split()) <= rulestext.SKETCH for v in data["editions"][ed_id].values())
        assert set(rulestext._fingerprints()[ed_id]) == printed


def test_cli_import_bad_file_exits_2(tmp_path):
    p = tmp_path / "x.txt"
    p.write_text("just words")
    r = run_cli("rules", "--import", p)
    assert r.returncode == 2 and "not a rules text" in r.stderr and "Traceback" not in r.stderr


FULL = (LAYOUTS / "cr-full-layout.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("variant", ["as-published", "utf-16-be-no-bom", "utf-8-bom-bare-cr",
                                     "indented", "utf-16-le-crlf"])
def test_the_published_layout_with_a_contents_list_in_every_encoding(tmp_path, variant):
    text = FULL
    if variant == "indented":
        text = "\n".join("    " + ln if ln[:1].isdigit() else ln for ln in text.split("\n"))
    raw = {"as-published": lambda t: t.encode("utf-8"),
           "utf-16-be-no-bom": lambda t: t.encode("utf-16-be"),
           "utf-8-bom-bare-cr": lambda t: b"\xef\xbb\xbf" + t.replace("\n", "\r").encode(),
           "indented": lambda t: t.encode("utf-8"),
           "utf-16-le-crlf": lambda t: t.replace("\n", "\r\n").encode("utf-16-le")}[variant](text)
    p = tmp_path / "MagicCompRules.txt"
    p.write_bytes(raw)
    rt = rulestext.read(p)
    assert rt.effective == "2016-07-22"
    assert set(rt.rules) == {"100.1", "100.1a", "400.1", "400.7", "400.7g", "401.1"}
    assert rt.rules["400.7g"].startswith("An ability granted to a nonland card")
    assert rt.rules["400.7g"].endswith("the object it becomes on the stack.")  # wrapped line
    assert set(rt.glossary) == {"Abandon", "Token"}
    assert rt.examples["400.7"] == ["A permanent that is exiled and returned is a new object."]


def test_an_imported_rule_says_where_its_words_come_from(tmp_path):
    rulestext.import_file(LAYOUTS / "wiki-2016.txt", store=tmp_path)
    rulestext.import_file(LAYOUTS / "rulings-2004.txt", store=tmp_path)  # several are kept
    assert len(list(tmp_path.glob("*.json"))) == 2
    assert sorted(p.name[:10] for p in tmp_path.glob("*.json")) == ["2004-01-15", "2016-01-16"]
    v = rulestext.verbatim_entry("400.7g", 2016, store=tmp_path)
    assert v.source == "Comprehensive Rules, January 16, 2016" and v.same_year
    assert v.label(2016) == "Comprehensive Rules, January 16, 2016"
    older = rulestext.verbatim_entry("400.7g", 2012, store=tmp_path)
    assert not older.same_year
    assert "the 2016 text, not this edition's 2012" in older.label(2012)
    assert rulestext.verbatim_entry("217.8d", 2004, store=tmp_path).source == \
        "Rulings summary, January 15, 2004"


def test_a_copy_with_rules_subrules_and_examples_indented_at_three_depths():
    rt = rulestext.read(LAYOUTS / "cr-2020-indented.txt")
    assert rt.layout == "comprehensive-rules" and rt.effective == "2020-06-01"
    assert list(rt.rules) == ["100.1", "100.1a", "100.1b", "101.2", "101.2a", "400.1"]
    assert rt.rules["101.2"] == "A can't beats a can."  # its example is not part of it
    assert rt.examples == {"101.2": ["One effect says you may; another says you can't. "
                                     "The can't wins."]}
    assert rt.glossary == {"Abandon": "To turn a scheme face down."}
