"""Phasing and what is attached (issue 14, item 1): Z.7.2 (1999) and 217.8c-d (2004)."""

from __future__ import annotations

import pytest

from tabletop.engine import Card, IllegalActionError, Table, saves

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


TOKEN_AURA = Card("Spirit Aura", ("Enchantment",), ("Aura",))


@pytest.mark.parametrize("edition", ["cr-1999", "cr-2004"])
def test_a_token_attached_to_a_permanent_that_phases_out_ceases_as_if_it_phased_out_itself(
        edition):
    """Indirect phasing is phasing: a token attached to the permanent goes to the
    phased-out zone with it, and there a token ceases to exist (217.8d of 2004; the
    table does the same in 1999, as for a token phased out itself)."""
    t = Table(("Alice", "Bob"), edition=edition)
    host = t.add_card(BEARS, "Alice", "battlefield").cid
    token = t.add_card(TOKEN_AURA, "Alice", "battlefield", token=True).cid
    t.objs[t.current[token]].attached_to = t.current[host]
    res = t.move(host, "phased-out")
    assert ("ceased", token) in [(e.kind, e.cid) for e in res.events]
    assert t.live(token) is None and t.obj_of(host).zone[1] == "phased-out"
    saves.check(t)  # no token left anywhere but the battlefield
    back = saves.loads(saves.dumps(t))
    assert back.live(token) is None and back.obj_of(host).zone[1] == "phased-out"
    t.move(host, "battlefield")  # the host phases in alone
    assert t.obj_of(host).zone == (None, "battlefield") and t.live(token) is None
    t.undo(), t.undo()
    assert t.obj_of(token).attached_to == t.current[host]  # undo brings the token back


def test_217_8d_a_table_with_an_aura_kept_out_by_its_ceased_token_saves_and_opens():
    t, host, aura, _ = _setup("cr-2004", token=True)
    t.move(host, "phased-out")
    saves.check(t)
    back = saves.loads(saves.dumps(t))
    assert back.obj_of(aura).zone[1] == "phased-out"
    refused = back.move(aura, "battlefield")
    assert refused.rejected and refused.cites == ("217.8d",)


def test_in_1999_an_aura_whose_token_ceased_phases_in_attached_to_nothing():
    t, host, aura, _ = _setup("cr-1999", token=True)
    t.move(host, "phased-out")
    res = t.move(aura, "battlefield")
    assert t.obj_of(aura).zone == (None, "battlefield") and t.obj_of(aura).attached_to is None
    assert any("attached to nothing" in n for n in res.events[0].notes)
    saves.check(t)
    t.undo()
    assert t.obj_of(aura).zone[1] == "phased-out" and t.obj_of(aura).attached_to is not None


@pytest.mark.parametrize("edition", ["cr-1999", "cr-2004"])
def test_only_a_permanent_is_taken_off_what_it_is_attached_to(edition):
    """A card phased out stays as it phased out (217.8c), attachment included; one that
    ceased to exist is gone: the table tool that takes a card off refuses both, and
    changes nothing."""
    t, host, aura, eq = _setup(edition, token=True)
    t.move(host, "phased-out")  # the token ceases; the Aura and what is on it phase out
    actions = len(t.history)
    for cid in (host, aura, eq):
        before = t.obj_of(cid).attached_to
        assert t.attach_refusal(cid, None) is not None
        with pytest.raises(IllegalActionError):
            t.attach(cid, None)
        assert t.obj_of(cid).attached_to == before
    assert len(t.history) == actions
    saves.check(t)
