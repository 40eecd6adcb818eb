"""Deck files in the layouts real tools write (tests/data/decks/real_layouts):
right counts in the right sections, clean names (issue 13, item 2)."""

from __future__ import annotations

import pytest

from tabletop.cards import decks
from tabletop.engine import InputError
from tests.helpers import DATA

REAL = DATA / "decks" / "real_layouts"


def counts(d) -> dict:
    return {s: d.count(s) for s in decks.SECTIONS if d.count(s)}


def names(d, section="main") -> list[str]:
    return [e.name for e in d.sections[section]]


def load(name):
    return decks.load(REAL / name, known=lambda n: True)


@pytest.mark.parametrize("name,expected", [
    ("mtgtop8.dec", {"main": 60, "sideboard": 15}),
    ("mtgo.txt", {"main": 60, "sideboard": 15}),
    ("moxfield.txt", {"main": 35, "commander": 1}),
    ("commander-groups.txt", {"main": 35, "commander": 1}),
    ("mws.mwDeck", {"main": 28, "sideboard": 2}),
    ("xmage.dck", {"main": 28, "sideboard": 2}),
    ("text-named.dek", {"main": 24}),
    ("split-names.txt", {"main": 10}),
])
def test_each_layout_gives_the_right_counts(name, expected):
    assert counts(load(name)) == expected


def test_names_are_clean_of_set_codes_numbers_finishes_and_tags():
    d = load("moxfield.txt")
    assert names(d) == ["Sol Ring", "Arcane Signet", "Goblin Lackey", "Skirk Prospector",
                        "Fire // Ice", "Mountain"]
    assert names(d, "commander") == ["Krenko, Mob Boss"]
    assert names(load("mtgtop8.dec"))[:2] == ["Lightning Bolt", "Goblin Guide"]
    assert names(load("xmage.dck"), "sideboard") == ["Path to Exile"]
    assert load("xmage.dck").name == "Burn"


def test_split_cards_written_with_one_slash_resolve():
    assert names(load("split-names.txt")) == ["Fire // Ice", "Wear // Tear", "Lightning Bolt"]
    from tabletop.cards.db import default
    assert default().info("Fire // Ice") is not None


def test_blank_lines_that_group_a_list_do_not_start_a_sideboard():
    text = "4 Goblin Guide\n4 Lightning Bolt\n\n4 Lava Spike\n4 Rift Bolt\n\n20 Mountain\n"
    assert counts(decks.parse_text(text, "groups.txt")) == {"main": 36}
    two = "40 Lightning Bolt\n\n20 Mountain\n"  # a big last block is no sideboard either
    assert counts(decks.parse_text(two, "two.txt")) == {"main": 60}


def test_the_newer_mtgo_dek_without_names_says_so():
    with pytest.raises(InputError) as e:
        load("mtgo-catid.dek")
    assert "catalogue number only" in str(e.value)


def test_a_cod_with_an_unknown_zone_is_reported_not_merged(tmp_path):
    p = tmp_path / "d.cod"
    p.write_text('<?xml version="1.0"?><cockatrice_deck version="1"><deckname>d</deckname>'
                 '<zone name="main"><card number="4" name="Forest"/></zone>'
                 '<zone name="maybeboard"><card number="2" name="Island"/></zone>'
                 '</cockatrice_deck>')
    d = decks.load(p, known=lambda n: True)
    assert counts(d) == {"main": 4}
    assert d.notes and "zone 'maybeboard' (2 cards)" in d.notes[0]
