"""Phasing and what is attached (issue 14, item 1): Z.7.2 (1999) and 217.8c-d (2004)."""

from __future__ import annotations

import pytest

from tabletop.engine import Card, Table

BEARS = Card("Grizzly Bears", ("Creature",))
AURA = Card("Rancor", ("Enchantment",), ("Aura",))
EQUIP = Card("Bonesplitter", ("Artifact",), ("Equipment",))


def _setup(edition, token=False):
    t = Table(("Alice", "Bob"), edition=edition)
    host = t.add_card(BEARS, "Alice", "battlefield", controller="Bob", token=token)
    aura = t.add_card(AURA, "Bob", "battlefield", controller="Bob")
    t.objs[t.current[aura.cid]].attached_to = t.current[host.cid]
    eq = t.add_card(EQUIP, "Alice", "battlefield")
    t.objs[t.current[eq.cid]].attached_to = t.current[aura.cid]  # something on the Aura too
    return t, host.cid, aura.cid, eq.cid


@pytest.mark.parametrize("edition", ["cr-1999", "cr-2004"])
def test_attached_permanents_phase_out_and_in_with_it_still_attached(edition):
    t, host, aura, eq = _setup(edition)
    before = {c: t.current[c] for c in (host, aura, eq)}
    res = t.move(host, "phased-out")
    assert [e.cid for e in res.events] == [host, aura, eq]
    assert all(t.obj_of(c).zone[1] == "phased-out" for c in (host, aura, eq))
    assert {c: t.current[c] for c in before} == before  # the same objects
    t.move(host, "battlefield")
    assert all(t.obj_of(c).zone == (None, "battlefield") for c in (host, aura, eq))
    assert t.obj_of(aura).attached_to == t.current[host]
    assert t.obj_of(eq).attached_to == t.current[aura]
    assert t.obj_of(host).controller == "Bob" and t.obj_of(aura).controller == "Bob"
    t.undo()
    assert all(t.obj_of(c).zone[1] == "phased-out" for c in (host, aura, eq))
    t.undo()
    assert all(t.obj_of(c).zone == (None, "battlefield") for c in (host, aura, eq))


def test_217_8c_the_phase_in_text_names_the_controller_the_state_has():
    t, host, _, _ = _setup("cr-2004")
    t.move(host, "phased-out")
    res = t.move(host, "battlefield", "Alice")  # dropped on the owner's side
    assert t.obj_of(host).controller == "Bob"
    assert t.describe(res.events[0]) == "Grizzly Bears phases in under Bob's control"


def test_217_8d_an_aura_on_a_token_stays_phased_out_for_the_rest_of_the_game():
    t, host, aura, eq = _setup("cr-2004", token=True)
    res = t.move(host, "phased-out")
    kinds = [(e.kind, e.cid) for e in res.events]
    assert ("ceased", host) in kinds and ("unchanged", aura) in kinds
    assert t.live(host) is None and t.obj_of(aura).zone[1] == "phased-out"
    refused = t.move(aura, "battlefield")
    assert refused.rejected and refused.cites == ("217.8d",)
    assert t.obj_of(aura).zone[1] == "phased-out"
    # what is attached to the Aura is not attached to a token: it may phase in
    assert not t.move(eq, "battlefield").rejected


def test_z_7_2_in_1999_no_rule_keeps_a_tokens_aura_phased_out():
    t, host, aura, _ = _setup("cr-1999", token=True)
    t.move(host, "phased-out")
    assert t.live(host) is None
    assert not t.move(aura, "battlefield").rejected  # the 1999 text has no 217.8d
