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


def test_cli_import_then_rules_shows_verbatim_text(tmp_path):
    r = run_cli("rules", "--import", LAYOUTS / "dangelo-zones.txt")
    assert r.returncode == 0, r.stderr
    r = run_cli("rules", "cr-1999", "Z.1.Ruling.4")
    assert r.returncode == 0 and "imported text:" in r.stdout and "no ability notices" in r.stdout


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
    assert set(rt.rules) == {"100.1", "100.1a", "400.1", "400.7", "400.7g"}
    assert rt.rules["400.7g"].startswith("A resolving spell or ability")
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
