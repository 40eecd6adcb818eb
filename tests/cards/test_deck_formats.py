"""Deck files players keep (issue 32): Forge .dck with its sections, an XMage Commander
deck whose commander is on an SB: line, MTGJSON deck files, and split cards written by
one face or another spelling read as one entry. The fixtures copy each program's
layout (section headers, set and art after the name, the layout lines), not its lists."""

from __future__ import annotations

import json

import pytest

from tabletop.cards import decks
from tabletop.cards.db import CardDB
from tabletop.engine import InputError
from tests.helpers import run_cli

FORGE = """[metadata]
Name=Elves of the Wood
Description=Green, small and many
[Main]
4 Llanowar Elves|M10
20 Forest|C13|2
4 Giant Growth
[Sideboard]
2 Naturalize|M10
[shop]
1 Black Lotus|LEA
"""

FORGE_COMMANDER = """[metadata]
Name=Kavu Tribal
[Commander]
1 Llanowar Elves|M19
[main]
99 Forest
"""


def _known(_name):
    return True


def test_a_forge_deck_reads_its_sections_and_leaves_the_rest_out(tmp_path):
    p = tmp_path / "elves.dck"
    p.write_text(FORGE)
    deck = decks.load(p, known=_known)
    assert deck.name == "Elves of the Wood"
    assert [(e.count, e.name) for e in deck.sections["main"]] == [
        (4, "Llanowar Elves"), (20, "Forest"), (4, "Giant Growth")]
    assert [(e.count, e.name) for e in deck.sections["sideboard"]] == [(2, "Naturalize")]
    assert not any(e.name == "Black Lotus" for s in deck.sections.values() for e in s)
    assert any("[shop]" in n for n in deck.notes)


def test_a_forge_commander_deck_puts_its_commander_in_the_command_zone(tmp_path):
    p = tmp_path / "kavu.dck"
    p.write_text(FORGE_COMMANDER)
    deck = decks.load(p, known=_known)
    assert [(e.count, e.name) for e in deck.sections["commander"]] == [(1, "Llanowar Elves")]
    assert deck.count("main") == 99


def test_a_forge_deck_with_a_line_before_any_section_is_refused(tmp_path):
    p = tmp_path / "odd.dck"
    p.write_text("[metadata]\nName=x\n[Main]\nfour Forest\n")
    with pytest.raises(InputError, match=r"line 4: not a card line"):
        decks.load(p, known=_known)


def _xmage(main_cards: int, commanders: list[str]) -> str:
    lines = ["NAME:Vampire Lords", ""]
    lines += [f"1 [C17:{i}] Card {i}" for i in range(main_cards - 30)]
    lines += ["30 [C17:300] Swamp"]
    lines += [f"SB: 1 [C17:{40 + i}] {name}" for i, name in enumerate(commanders)]
    lines += ["LAYOUT MAIN:(1,6)(CMC,false,50)|([C17:1])",
              "LAYOUT SIDEBOARD:(1,1)(NONE,false,50)|([C17:40])"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("main, commanders", [(99, ["Edgar Markov"]),
                                              (98, ["Akiri", "Bruse Tarl"])])
def test_an_xmage_commander_deck_puts_its_sb_card_in_the_command_zone(tmp_path, main,
                                                                      commanders):
    p = tmp_path / "vampires.dck"
    p.write_text(_xmage(main, commanders))
    deck = decks.load(p, known=_known)
    assert [e.name for e in deck.sections["commander"]] == commanders
    assert not deck.sections["sideboard"] and deck.count("main") == main


def test_an_xmage_sixty_card_deck_keeps_its_sideboard(tmp_path):
    p = tmp_path / "constructed.dck"
    p.write_text("NAME:Burn\n56 [M10:1] Mountain\nSB: 4 [M10:2] Shock\n"
                 "LAYOUT MAIN:(1,1)(NONE,false,50)|([M10:1])\n")
    deck = decks.load(p, known=_known)
    assert [e.name for e in deck.sections["sideboard"]] == ["Shock"]
    assert not deck.sections["commander"]


def test_an_xmage_deck_with_its_author_and_starred_numbers_opens(tmp_path):
    """XMage's own reader takes NAME: and AUTHOR: lines and # comments; a collector
    number may carry a star or a plus (a promo's, an alternate art's)."""
    p = tmp_path / "mortals.dck"
    p.write_text("NAME: Wrath of the Mortals\nAUTHOR: Someone\n# from a site\n"
                 "LAYOUT MAIN:(1,1)(A)|\n40 [A25:141] Mountain\n2 [WAR:2*] Shock\n"
                 "1 [ODY:72+] Forest\nSB: 15 [ZEN:125] Grizzly Bears\n")
    deck = decks.load(p, known=_known)
    assert deck.name == "Wrath of the Mortals"
    assert [(e.count, e.name, e.printing) for e in deck.sections["main"]] == [
        (40, "Mountain", ("A25", "141")), (2, "Shock", ("WAR", "2*")),
        (1, "Forest", ("ODY", "72+"))]
    assert [(e.count, e.name) for e in deck.sections["sideboard"]] == [(15, "Grizzly Bears")]


def test_an_archidekt_export_reads_its_categories_and_its_maybeboard(tmp_path):
    """Archidekt writes each card's categories in brackets after it (a flag in braces:
    {top}, {noDeck}) and its labels between carets: the Commander and Sideboard
    categories are those sections, a category flagged {noDeck} (the maybeboard) is the
    maybeboard, not the deck, and the rest (Ramp, Burn, Land) only group the list."""
    p = tmp_path / "krenko.txt"
    p.write_text("1x Shock (m21) 159 [Sideboard] ^Have^\n"
                 "4x Grizzly Bears (m10) 155 [Creature,Beaters] ^Have,#37d67a^\n"
                 "1x Llanowar Elves (m19) 314 [Commander{top}]\n"
                 "2x Naturalize (m19) 190 [Maybeboard{noDeck}{noPrice},Removal]\n"
                 "20x Forest (ktk) 262 [Land]\n")
    deck = decks.load(p, known=_known)
    assert [(e.count, e.name) for e in deck.sections["main"]] == [(4, "Grizzly Bears"),
                                                                   (20, "Forest")]
    assert [e.name for e in deck.sections["sideboard"]] == ["Shock"]
    assert [e.name for e in deck.sections["commander"]] == ["Llanowar Elves"]
    assert deck.sections["main"][0].printing == ("M10", "155")
    assert [(e.count, e.name) for e in deck.sections["maybeboard"]] == [(2, "Naturalize")]


def test_tappedout_and_deckstats_marks_of_a_commander(tmp_path):
    """TappedOut marks a commander's line with *CMDR*, deckstats with "# !Commander"
    (or "#!Commander") and names the deck in a "//NAME:" comment; a "#!Foil" is a tag,
    and the rest of a line after " # " a comment."""
    p = tmp_path / "t.txt"
    p.write_text("1 Llanowar Elves *CMDR*\n4 grizzly bears\n30 Forest\n")
    deck = decks.load(p, known=_known)
    assert [e.name for e in deck.sections["commander"]] == ["Llanowar Elves"]
    assert deck.count("main") == 34
    p = tmp_path / "elves.dec"
    p.write_text("//NAME: Elf Ball from deckstats.net\n//Main\n1 Llanowar Elves # !Commander\n"
                 "30 Forest # the lands\n1 Giant Spider #!Foil\n//Sideboard\nSB: 2 Shock\n")
    deck = decks.load(p, known=_known)
    assert deck.name == "Elf Ball"
    assert [e.name for e in deck.sections["commander"]] == ["Llanowar Elves"]
    assert [(e.count, e.name) for e in deck.sections["main"]] == [(30, "Forest"),
                                                                   (1, "Giant Spider")]
    assert [(e.count, e.name) for e in deck.sections["sideboard"]] == [(2, "Shock")]


def test_an_mtggoldfish_export_with_exact_card_versions(tmp_path):
    """MTGGoldfish writes a printing's variant between angle brackets, its set in square
    ones (a promo's with a dash) and a foil's (F) after the name."""
    p = tmp_path / "goldfish.txt"
    p.write_text("4 Grizzly Bears <extended> [DSK]\n2 Llanowar Elves <borderless> [LTC] (F)\n"
                 "1 Giant Spider [PRM-PRE] (F)\n1 Serra Angel <Benedikta Harman> [M10]\n"
                 "20 Forest [KTK]\n\n2 Shock [M21]\n")
    deck = decks.load(p, known=_known)
    assert [(e.count, e.name) for e in deck.sections["main"]] == [
        (4, "Grizzly Bears"), (2, "Llanowar Elves"), (1, "Giant Spider"), (1, "Serra Angel"),
        (20, "Forest")]
    assert [(e.count, e.name) for e in deck.sections["sideboard"]] == [(2, "Shock")]


MTGJSON_DECK = {"meta": {"date": "2025-01-01", "version": "5.2.2"},
                "data": {"name": "Elf Ball", "code": "XYZ", "type": "Commander Deck",
                         "commander": [{"name": "Llanowar Elves", "count": 1,
                                        "uuid": "0000"}],
                         "mainBoard": [{"name": "Forest", "count": 30},
                                       {"name": "Grizzly Bears", "count": 4}],
                         "sideBoard": [{"name": "Naturalize", "count": 2}]}}


def test_an_mtgjson_deck_file_opens_as_a_deck(tmp_path):
    p = tmp_path / "ElfBall_XYZ.json"
    p.write_text(json.dumps(MTGJSON_DECK))
    r = run_cli("deck", p, "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["name"] == "Elf Ball"
    got = {s: [(e["count"], e["name"]) for e in entries] for s, entries in d["sections"].items()}
    assert got["commander"] == [(1, "Llanowar Elves")]
    assert got["main"] == [(30, "Forest"), (4, "Grizzly Bears")]
    assert got["sideboard"] == [(2, "Naturalize")]


@pytest.mark.parametrize("data, says", [
    ({"data": {"mainBoard": [{"name": "Forest", "count": 0}]}}, "count that is not 1 to 250"),
    ({"data": {"mainBoard": [{"count": 4}]}}, "has no name"),
    ({"data": {"mainBoard": "4 Forest"}}, "must be a list"),
    ({"data": {"cards": []}}, "not an MTGJSON deck file"),
    # a lone surrogate's escape: no save, file or screen could hold the name
    ({"data": {"mainBoard": [{"name": "Forest\ud800", "count": 4}]}}, "not valid Unicode"),
    ({"data": {"name": "\udfffElves", "mainBoard": [{"name": "Forest"}]}},
     "not valid Unicode"),
])
def test_an_mtgjson_deck_that_lies_is_refused(tmp_path, data, says):
    p = tmp_path / "deck.json"
    p.write_text(json.dumps(data))
    r = run_cli("deck", p)
    assert r.returncode == 2 and says in r.stderr and str(p) in r.stderr


def test_a_split_card_written_three_ways_is_one_entry_named_as_the_database_names_it(
        tmp_path):
    atomic = {"data": {"Fire // Ice": [
        {"name": "Fire // Ice", "faceName": "Fire", "layout": "split", "types": ["Instant"],
         "manaCost": "{1}{R}", "text": "Our words for Fire."},
        {"name": "Fire // Ice", "faceName": "Ice", "layout": "split", "types": ["Instant"],
         "manaCost": "{1}{U}", "text": "Our words for Ice."}]}}
    src = tmp_path / "AtomicCards.json"
    src.write_text(json.dumps(atomic))
    db = CardDB(tmp_path / "cards.sqlite3")
    db.import_file(src)

    def canonical(name):
        d = db.info(name)
        return d["name"] if d else None
    p = tmp_path / "list.txt"
    p.write_text("2 Fire // Ice\n1 Fire/Ice\n1 Fire\n20 Mountain\n")
    deck = decks.load(p, known=lambda n: db.info(n) is not None, canonical=canonical)
    assert [(e.count, e.name) for e in deck.sections["main"]] == [(4, "Fire // Ice"),
                                                                  (20, "Mountain")]
    assert not deck.unknown
    db.close()


OCTGN = """<?xml version="1.0" encoding="utf-8" standalone="yes"?>
<deck game="a6c8d2e8-7cd8-11dd-8f94-e62b56d89593">
  <section name="Main" shared="False">
    <card qty="4" id="00000000-0000-4000-8000-000000000001">Llanowar Elves</card>
    <card qty="30" id="00000000-0000-4000-8000-000000000002">Forest</card>
  </section>
  <section name="Sideboard" shared="False">
    <card qty="2" id="00000000-0000-4000-8000-000000000003">Naturalize</card>
  </section>
  <section name="Command Zone" shared="False">
    <card qty="1" id="00000000-0000-4000-8000-000000000004">Grizzly Bears</card>
  </section>
  <section name="Planes/Schemes" shared="True">
    <card qty="1" id="00000000-0000-4000-8000-000000000005">Some Plane</card>
  </section>
  <notes><![CDATA[]]></notes>
</deck>
"""


def test_an_octgn_deck_reads_its_sections(tmp_path):
    p = tmp_path / "elves.o8d"
    p.write_text(OCTGN)
    deck = decks.load(p, known=_known)
    got = {s: [(e.count, e.name) for e in es] for s, es in deck.sections.items() if es}
    assert got == {"main": [(4, "Llanowar Elves"), (30, "Forest")],
                   "sideboard": [(2, "Naturalize")], "commander": [(1, "Grizzly Bears")]}
    assert any("Planes/Schemes" in n for n in deck.notes)


def test_an_octgn_deck_with_a_doctype_is_refused(tmp_path):
    p = tmp_path / "evil.o8d"
    p.write_text('<?xml version="1.0"?><!DOCTYPE deck [<!ENTITY x "Forest">]>'
                 '<deck><section name="Main"><card qty="1">&x;</card></section></deck>')
    with pytest.raises(InputError, match="DOCTYPE"):
        decks.load(p, known=_known)


def test_a_cockatrice_deck_with_commander_and_tokens_zones(tmp_path):
    p = tmp_path / "cmdr.cod"
    p.write_text('<?xml version="1.0" encoding="UTF-8"?><cockatrice_deck version="1">'
                 '<deckname>Elves</deckname>'
                 '<zone name="main"><card number="99" name="Forest"/></zone>'
                 '<zone name="commander"><card number="1" name="Llanowar Elves"/></zone>'
                 '<zone name="tokens"><card number="1" name="Elf Warrior"/></zone>'
                 '</cockatrice_deck>')
    deck = decks.load(p, known=_known)
    assert [(e.count, e.name) for e in deck.sections["commander"]] == [(1, "Llanowar Elves")]
    assert deck.count("main") == 99 and not deck.sections["sideboard"]
    assert any("tokens" in n for n in deck.notes)


def _full_deck():
    d = decks.Deck("Elf Ball", "")
    for section, count, name in (("main", 4, "Llanowar Elves"), ("main", 30, "Forest"),
                                 ("main", 1, "Fire // Ice"), ("sideboard", 2, "Naturalize"),
                                 ("commander", 1, "Grizzly Bears"),
                                 ("companion", 1, "Giant Spider")):
        d.add(section, count, name)
    return d


def _sections(deck):
    return {s: sorted((e.count, e.name) for e in es) for s, es in deck.sections.items() if es}


@pytest.mark.parametrize("fmt, suffix, companion_in", [
    ("arena", ".txt", "companion"), ("mtgo", ".dek", "companion"),
    ("cockatrice", ".cod", "sideboard"), ("forge", ".dck", "sideboard")])
def test_an_export_round_trip_keeps_every_count_and_section(tmp_path, fmt, suffix,
                                                            companion_in):
    deck = _full_deck()
    p = tmp_path / f"out{suffix}"
    decks.save(deck, p)  # the suffix says the format
    back = decks.load(p, known=_known)
    want = _sections(deck)
    if companion_in != "companion":  # the format has no companion: it is sideboard
        want["sideboard"] = sorted(want["sideboard"] + want.pop("companion"))
    assert _sections(back) == want
    assert decks.export(deck, fmt) == p.read_text()


def test_the_command_line_exports_in_each_format(tmp_path):
    src = tmp_path / "elves.o8d"
    src.write_text(OCTGN)
    r = run_cli("deck", src, "--export", "forge")
    assert r.returncode == 0 and r.stdout.startswith("[metadata]\nName=elves\n")
    out = tmp_path / "elves.dek"
    r = run_cli("deck", src, "--write", out)
    assert r.returncode == 0 and "<Deck>" in out.read_text()
    assert _sections(decks.load(out, known=_known)) == _sections(decks.load(src, known=_known))
    r = run_cli("deck", src, "--export", "wizards")
    assert r.returncode == 2 and "unknown deck format 'wizards'" in r.stderr


def test_an_xmage_deck_whose_sideboard_is_one_pile_of_one_has_a_commander(tmp_path):
    """As XMage writes a Commander deck it is still building: one card on an SB: line,
    laid out as a sideboard of one pile of one."""
    p = tmp_path / "elfstorm.dck"
    p.write_text("NAME:ElfStorm\n1 [2X2:298] Aether Vial\n"
                 "SB: 1 [CMM:320] Selvala, Heart of the Wilds\n"
                 "LAYOUT SIDEBOARD:(1,1)(NONE,false,50)|([CMM:320])\n")
    deck = decks.load(p, known=_known)
    assert [e.name for e in deck.sections["commander"]] == ["Selvala, Heart of the Wilds"]


def test_csv_tables_of_card_sites_and_collection_apps_open_as_decks(tmp_path):
    """A CSV export (Moxfield's and Deckbox's collection tables, a ManaBox-like one with
    semicolons and a category column): the header row names the count and name columns
    in its own words, a quoted name keeps its comma, a set code and collector number
    are the card's printing (a set's name in Edition is not a code), and a category
    that names a section puts the card there."""
    mox = tmp_path / "mox.csv"
    mox.write_text("Count,Tradelist Count,Name,Edition,Condition,Language,Foil,Tags,"
                   "Last Modified,Collector Number,Alter,Proxy,Purchase Price\n"
                   "4,0,Lightning Bolt,2xm,Near Mint,English,,,2024-01-01,129,False,False,\n"
                   '\n1,0,"Fire // Ice",mh2,Near Mint,English,foil,,,290,False,False,\n')
    deck = decks.load(mox, known=_known)
    assert [(e.count, e.name, e.printing) for e in deck.sections["main"]] == [
        (4, "Lightning Bolt", ("2XM", "129")), (1, "Fire // Ice", ("MH2", "290"))]
    box = tmp_path / "box.csv"
    box.write_text("Count,Tradelist Count,Name,Edition,Edition Code,Card Number,Condition\n"
                   "2,0,Counterspell,Modern Horizons 2,mh2,267,Near Mint\n"
                   '1,0,"Aragorn, the Uniter",The Lord of the Rings,ltr,741,Near Mint\n')
    deck = decks.load(box, known=_known)
    assert [(e.count, e.name, e.printing) for e in deck.sections["main"]] == [
        (2, "Counterspell", ("MH2", "267")), (1, "Aragorn, the Uniter", ("LTR", "741"))]
    by_set_name = tmp_path / "names.csv"  # a set's name, no code: no printing
    by_set_name.write_text("Quantity,Card Name,Edition,Collector Number\n"
                           "3,Shock,Core Set 2021,159\n")
    assert decks.load(by_set_name, known=_known).sections["main"][0].printing is None
    shield = tmp_path / "shield.csv"  # Excel's "sep=," line first, as Dragon Shield writes
    shield.write_text('"sep=,"\nFolder Name,Quantity,Trade Quantity,Card Name,Set Code,'
                      'Set Name,Card Number,Condition,Printing,Language\n'
                      'Binder,3,0,Shock,M21,Core Set 2021,159,NearMint,Normal,English\n')
    assert [(e.count, e.name, e.printing) for e in
            decks.load(shield, known=_known).sections["main"]] == [(3, "Shock", ("M21", "159"))]
    mtgo = tmp_path / "mtgo.csv"  # MTGO's own: its sideboard a Yes in a column
    mtgo.write_text("Card Name,Quantity,ID #,Rarity,Set,Collector #,Premium,Sideboarded,"
                    'Annotation\n"Dark Ritual",4,6893,Common,MI,116/350,No,No,0\n'
                    '"Stone Rain",2,7333,Common,MI,194/350,Yes,Yes,0\n')
    deck = decks.load(mtgo, known=_known)
    assert [(e.count, e.name, e.printing) for e in deck.sections["main"]] == [
        (4, "Dark Ritual", ("MI", "116"))]
    assert [(e.count, e.name) for e in deck.sections["sideboard"]] == [(2, "Stone Rain")]
    semi = tmp_path / "semi.csv"
    semi.write_text("Quantity;Name;Categories\n1;Sol Ring;Ramp\n2;Naturalize;Sideboard\n"
                    "1;Llanowar Elves;Commander, Elves\n1;Shock;Maybeboard\n")
    deck = decks.load(semi, known=_known)
    assert {s: [(e.count, e.name) for e in deck.sections[s]]
            for s in ("main", "sideboard", "commander", "maybeboard")} == {
        "main": [(1, "Sol Ring")], "sideboard": [(2, "Naturalize")],
        "commander": [(1, "Llanowar Elves")], "maybeboard": [(1, "Shock")]}


@pytest.mark.parametrize("text,says", [
    ("Count,Name\n4,Forest\nfour,Island\n", "line 3 has a count that is not a number"),
    ("Count,Tradelist Count,Name\n4,0,Forest\n2\n", "line 3: 1 columns"),
    ("Quantity,Name\n3,\n", "line 2: a row without a card's name"),
    ("Count,Name,Edition\n", "a CSV table with no cards"),
    ('Count,Name\n1,"Forest\n', "line 2"),
])
def test_a_csv_table_that_lies_is_refused_naming_its_line(tmp_path, text, says):
    p = tmp_path / "bad.csv"
    p.write_text(text)
    with pytest.raises(InputError, match=r"bad\.csv") as e:
        decks.load(p, known=_known)
    assert says in str(e.value)
    r = run_cli("deck", str(p))
    assert r.returncode == 2 and says in r.stderr


def test_a_text_list_whose_first_card_has_a_comma_is_not_a_csv_table(tmp_path):
    p = tmp_path / "list.txt"
    p.write_text("1 Aragorn, the Uniter\n2 Counterspell\n")
    deck = decks.load(p, known=_known)
    assert [(e.count, e.name) for e in deck.sections["main"]] == [
        (1, "Aragorn, the Uniter"), (2, "Counterspell")]


@pytest.mark.parametrize("gap", ["\n", ""])
def test_a_list_by_category_with_counted_section_headers(tmp_path, gap):
    """Exports grouped by category count each group in its heading: "Commander (1)" and
    "Sideboard (1)" are still those sections ("Creatures (2)" only a group of the deck),
    with a blank line between groups or none; the commander's group ends at the next
    group's heading."""
    p = tmp_path / "by_category.txt"
    p.write_text(f"Commander (1)\n1 Llanowar Elves\n{gap}Creatures (2)\n1 Grizzly Bears\n"
                 f"1 Giant Spider\n{gap}Lands (20)\n20 Forest\n{gap}Sideboard (1)\n1 Shock\n")
    deck = decks.load(p, known=_known)
    assert {s: [(e.count, e.name) for e in deck.sections[s]] for s in
            ("main", "sideboard", "commander")} == {
        "main": [(1, "Grizzly Bears"), (1, "Giant Spider"), (20, "Forest")],
        "sideboard": [(1, "Shock")], "commander": [(1, "Llanowar Elves")]}
