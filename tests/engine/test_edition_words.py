"""Event texts use each edition's words (issue 14, item 5): "in play" and "removed from
the game" before 2009, "the battlefield" and "exile" after."""

from __future__ import annotations

import pytest

from tabletop.engine import Card, Effect, Table, views

BEARS = Card("Grizzly Bears", ("Creature",))
BOLT = Card("Lightning Bolt", ("Instant",))


def _sentences(edition):
    t = Table(("Alice", "Bob"), edition=edition)
    c = t.add_card(BEARS, "Alice", "battlefield")
    h = t.add_card(BOLT, "Alice", "hand")
    events = []
    for zone in ("exile", "graveyard", "battlefield", "hand", "battlefield"):
        events += t.move(c.cid, zone).events
    events += t.set_tapped(h.cid, True).events
    events += t.move(h.cid, "battlefield").events
    t.add_effect(Effect("rfg", "graveyard", "exile", source="a replacement"))
    events += t.move(c.cid, "graveyard", "Bob").events
    out = []
    for e in events:
        out += [t.describe(e), views.hidden_sentence(t, e)]
    return out


@pytest.mark.parametrize("edition", ["cr-1999", "cr-2004", "cr-2005"])
def test_old_editions_say_in_play_and_removed_from_the_game(edition):
    text = " / ".join(_sentences(edition)).lower()
    assert "battlefield" not in text and "exile" not in text, text
    assert "into play" in text and "from play" in text and "only permanents in play" in text
    assert "removed-from" in text and "the in play" not in text


@pytest.mark.parametrize("edition", ["cr-2012", "cr-2016"])
def test_modern_editions_say_battlefield_and_exile(edition):
    text = " / ".join(_sentences(edition)).lower()
    assert "in play" not in text and "removed" not in text, text
    assert "to the battlefield" in text and "moves to exile" in text
    assert "the exile" not in text and "is put instead into exile" in text
