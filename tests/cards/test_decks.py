"""Deck lists in every format; unknown names listed with file and line; bad files refused."""

import json

import pytest

from tabletop.cards import decks
from tabletop.engine import InputError
from tests.helpers import ROOT, run_cli

DECKS = ROOT / "tests" / "data" / "decks"


def entries(deck, section="main"):
    return [(e.count, e.name) for e in deck.sections[section]]


def test_plain_text_counts_x_comments_blank_line_and_sb():
    d = decks.load(DECKS / "burn.txt")
    assert entries(d) == [(4, "Lightning Bolt"), (4, "Shock"), (20, "Mountain")]
    assert entries(d, "sideboard") == [(3, "Pyroclasm"), (2, "Red Elemental Blast")]
    assert not d.unknown


def test_sideboard_header():
    d = decks.parse_text("4 Island\nSideboard\n2 Duress\n", "x.txt")
    assert entries(d, "sideboard") == [(2, "Duress")]


def test_arena_export_sections_set_codes_crlf_and_unknown():
    d = decks.load(DECKS / "arena.txt")
    assert d.name == "Mono Green Stompy"
    assert entries(d)[:3] == [(4, "Llanowar Elves"), (4, "Grizzly Bears"), (16, "Forest")]
    assert entries(d, "sideboard") == [(2, "Naturalize")]
    assert entries(d, "commander") == [(1, "Craw Wurm")]
    assert d.unknown == [(str(DECKS / "arena.txt"), 8, "Totally Unknown Card")]


def test_the_printing_a_line_names_is_kept_for_pictures():
    d = decks.load(DECKS / "arena.txt")
    assert d.printings()["Llanowar Elves"] == ("M19", "314")
    assert d.printings()["Naturalize"] == ("M19", "190")
    d = decks.parse_text("1 Sol Ring (CMR) 472 *F*\n1 [M10:146] Naturalize\n"
                         "2 Island (UST)\n1 Forest\n", "m.txt")
    assert d.printings() == {"Sol Ring": ("CMR", "472"), "Naturalize": ("M10", "146")}
    assert entries(d) == [(1, "Sol Ring"), (1, "Naturalize"), (2, "Island"), (1, "Forest")]


def test_arena_companion_section():
    d = decks.parse_text("Companion\n1 Lurrus of the Dream-Den\n\nDeck\n4 Island\n", "a.txt")
    assert entries(d, "companion") == [(1, "Lurrus of the Dream-Den")]
    assert entries(d) == [(4, "Island")]


def test_cockatrice_cod_and_round_trip(tmp_path):
    d = decks.load(DECKS / "control.cod")
    assert d.name == "UW Control"
    assert entries(d) == [(4, "Counterspell"), (2, "Wrath of God"), (10, "Island"), (10, "Plains")]
    assert entries(d, "sideboard") == [(3, "Disenchant")]
    out = tmp_path / "again.cod"
    decks.save(d, out)
    again = decks.load(out)
    assert entries(again) == entries(d) and entries(again, "sideboard") == entries(d, "sideboard")
    txt = tmp_path / "again.txt"
    decks.save(d, txt)
    assert entries(decks.load(txt), "sideboard") == [(3, "Disenchant")]


def test_mtgo_dek():
    d = decks.load(DECKS / "mtgo.dek")
    assert entries(d) == [(4, "Dark Ritual"), (20, "Swamp")]
    assert entries(d, "sideboard") == [(2, "Duress")]


@pytest.mark.parametrize("name", ["billion_laughs.cod", "external_entity.dek"])
def test_xml_cannot_expand_entities_or_reach_out(name):
    with pytest.raises(InputError, match="DOCTYPE"):
        decks.load(DECKS / name)


@pytest.mark.parametrize("content,needle", [
    (b"4 Lightning Bolt\nthis is not a card line at all\n", "line 2"),
    (b"", "no cards"), (b"\x00\x01\x02\x03binary", "binary"),
    (b"0 Island\n", "count of 0"), (b"<cockatrice_deck><zone name='main'><card", "XML"),
])
def test_bad_decks_name_the_file_and_line(tmp_path, content, needle):
    p = tmp_path / ("bad.cod" if content.startswith(b"<") else "bad.txt")
    p.write_bytes(content)
    with pytest.raises(InputError) as e:
        decks.load(p)
    assert str(p) in str(e.value) and needle in str(e.value)


def test_cli_deck_json_shape():
    r = run_cli("deck", "--json", DECKS / "arena.txt")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["name"] == "Mono Green Stompy"
    assert d["sections"]["main"][0] == {"count": 4, "name": "Llanowar Elves"}
    assert d["sections"]["sideboard"] == [{"count": 2, "name": "Naturalize"}]
    assert d["sections"]["commander"] == [{"count": 1, "name": "Craw Wurm"}]
    assert d["unknown"][0]["name"] == "Totally Unknown Card" and d["unknown"][0]["line"] == 8
    r = run_cli("deck", DECKS / "billion_laughs.cod")
    assert r.returncode == 2 and "billion_laughs.cod" in r.stderr and "Traceback" not in r.stderr


def test_a_deck_adds_up_its_cards_whatever_was_done_to_its_sections_between_adds():
    """Deck.add keeps a count of the cards and each section's entries by name, to read a
    list of thousands of lines in linear time: a section replaced or grown by other
    code between two adds (as readers do: a commander moved out of the sideboard,
    names merged) is counted afresh, never through what it held before."""
    from tabletop.cards.decks import MAX_CARDS, Deck, Entry
    d = Deck("t")
    d.add("main", 4, "Forest")
    d.add("main", 2, "Forest")
    d.add("sideboard", 1, "Shock")
    assert [(e.count, e.name) for e in d.sections["main"]] == [(6, "Forest")]
    d.sections["commander"], d.sections["sideboard"] = d.sections["sideboard"], []
    d.add("commander", 1, "Shock")  # the moved list: its Shock, not a new entry
    d.add("sideboard", 2, "Shock")  # the new, empty list: a new entry
    assert [(e.count, e.name) for e in d.sections["commander"]] == [(2, "Shock")]
    assert [(e.count, e.name) for e in d.sections["sideboard"]] == [(2, "Shock")]
    d.sections["main"].append(Entry(MAX_CARDS - 10, "Island"))  # grown elsewhere
    with pytest.raises(InputError, match="more than 10,000 cards"):
        d.add("main", 1, "Forest")  # 6 + 4 + 9,990 + 1: counted afresh
    d.add("main", 0, "Forest")
    assert d.sections["main"][0].count == 6
