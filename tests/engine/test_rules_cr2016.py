"""Zone rules of cr-2016, through the engine's API; each test is named after its rule."""

import pytest

from tabletop.engine import Card, Effect, IllegalActionError, chooser_from_labels
from tests.helpers import BEARS, BOLT, FOREST, PLANE, PLOW, RANCOR, table


def test_400_1_zones_of_the_edition():
    t = table()
    assert (None, "command") in t.zones and ("Alice", "library") in t.zones
    assert not any(k[1] == "phased-out" for k in t.zones)
    with pytest.raises(IllegalActionError):
        t.add_card(BEARS, "Alice", "phased-out")


def test_400_3_aura_goes_to_owners_graveyard():
    t = table()
    aura = t.add_card(RANCOR, "Bob", "battlefield", controller="Alice")
    res = t.move(aura.cid, "graveyard", "Alice")
    (ev,) = res.events
    assert ev.kind == "redirected" and ev.dst == ("Bob", "graveyard")
    assert "400.3" in ev.cites and "400.7" in ev.cites
    assert t.zones[("Alice", "graveyard")] == [] and t.obj_of(aura.cid).zone == ("Bob", "graveyard")


def test_400_3_does_not_cover_exile():
    t = table()
    c = t.add_card(BEARS, "Bob", "battlefield", controller="Alice")
    (ev,) = t.move(c.cid, "exile", "Alice").events
    assert ev.kind == "moved" and "400.3" not in ev.cites and ev.dst == (None, "exile")


def test_400_4a_sorcery_stays_in_hand_and_nothing_changes():
    t = table()
    plow = t.add_card(PLOW, "Alice", "hand")
    before = (list(t.zones[("Alice", "hand")]), t.next_id, len(t.history))
    assert not t.can_move(plow.cid, "battlefield")
    res = t.move(plow.cid, "battlefield")
    assert res.rejected and res.cites == ("400.4a",)
    assert (list(t.zones[("Alice", "hand")]), len(t.history)) == (before[0], before[2])
    assert t.obj_of(plow.cid).id == plow.id


def test_400_4b_plane_cannot_leave_command_zone():
    t = table()
    plane = t.add_card(PLANE, "Alice", "command")
    res = t.move(plane.cid, "graveyard")
    assert res.rejected and "400.4b" in res.cites


def test_400_5_graveyard_order_kept():
    t = table()
    a = t.add_card(BEARS, "Alice", "graveyard")
    b = t.add_card(BOLT, "Alice", "graveyard")
    res = t.move(a.cid, "graveyard")
    assert res.events[0].kind == "unchanged" and "400.5" in res.cites
    assert [o.cid for o in t.objects_in(("Alice", "graveyard"))] == [b.cid, a.cid]


def test_400_6_each_effect_applies_once_and_order_is_chosen():
    t = table()
    c = t.add_card(BEARS, "Bob", "battlefield")
    t.effects += [Effect("ex", "graveyard", "exile"), Effect("lib", "graveyard", "library")]
    assert t.plan_move(c, "graveyard").dst == (None, "exile")
    plan = t.plan_move(c, "graveyard", chooser=chooser_from_labels(["lib"]))
    assert plan.dst == ("Bob", "library") and plan.applied == ["lib"]
    loop = table()
    d = loop.add_card(BEARS, "Bob", "battlefield")
    loop.effects += [Effect("a", "graveyard", "exile"), Effect("b", "exile", "graveyard")]
    plan = loop.plan_move(d, "graveyard")
    assert plan.applied == ["a", "b"] and plan.dst == ("Bob", "graveyard")


def test_400_6_optional_effect_declined_by_chooser():
    t = table()
    c = t.add_card(BEARS, "Alice", "battlefield")
    t.effects.append(Effect("may", "graveyard", "hand", optional=True))
    seen = []

    def decline(obj, candidates):
        seen.append([e.label for e in candidates])
        return None
    res = t.move(c.cid, "graveyard", chooser=decline)
    assert seen == [["may"]] and res.events[0].dst == ("Alice", "graveyard")
    assert "400.6" not in res.cites


def test_400_6_mandatory_effect_applies_even_if_chooser_declines():
    t = table()
    c = t.add_card(BEARS, "Alice", "battlefield")
    t.effects.append(Effect("must", "graveyard", "exile"))
    res = t.move(c.cid, "graveyard", chooser=lambda o, cands: None)
    assert res.events[0].kind == "replaced" and res.events[0].dst == (None, "exile")


def test_400_7_new_object_forgets_status():
    t = table()
    c = t.add_card(BEARS, "Alice", "battlefield", tapped=True, counters={"+1/+1": 2})
    (ev,) = t.move(c.cid, "hand").events
    new = t.obj_of(c.cid)
    assert ev.prev == c.id and ev.obj == new.id and new.id > c.id
    assert not new.tapped and new.counters == {}
    forgotten = dict(t.lineage[c.cid][-1].forgotten)
    assert forgotten["tapped"] == "400.7" and any(k.startswith("counters") for k in forgotten)


def test_400_7a_spell_modifications_carry_static_ones_do_not():
    t = table()
    c = t.add_card(BEARS, "Alice", "stack")
    t.modify(c.cid, "is blue", "spell")
    t.modify(c.cid, "gets +1/+1", "static")
    res = t.move(c.cid, "battlefield")
    assert "400.7a" in res.cites
    assert t.obj_of(c.cid).modifications == (("is blue", "spell"),)


def test_400_7c_cast_choices_carry_to_permanent():
    t = table()
    c = t.add_card(BEARS, "Alice", "stack")
    t.set_choices(c.cid, ["X=3"])
    res = t.move(c.cid, "battlefield")
    assert "400.7c" in res.cites and t.obj_of(c.cid).choices == ("X=3",)


def test_400_8_exile_to_exile_is_new_object():
    t = table()
    c = t.add_card(BEARS, "Alice", "exile")
    (ev,) = t.move(c.cid, "exile").events
    assert ev.kind == "new_object" and ev.cites == ("400.8",) and ev.obj != ev.prev


def test_400_9_face_down_in_command_is_new_object():
    t = table()
    c = t.add_card(PLANE, "Alice", "command")
    (ev,) = t.turn_face(c.cid, True).events
    assert ev.kind == "new_object" and "400.9" in ev.cites and t.obj_of(c.cid).face_down


def test_400_11_whole_zone_is_one_action():
    t = table()
    for _ in range(3):
        t.add_card(FOREST, "Alice", "hand")
    n = len(t.history)
    res = t.zone_to_zone("Alice", "hand", "library", shuffle=True)
    assert len(t.history) == n + 1 and "400.11" in res.cites
    assert len(t.zones[("Alice", "library")]) == 3 and not t.zones[("Alice", "hand")]
    t.undo()
    assert len(t.zones[("Alice", "hand")]) == 3


def test_401_4_owner_orders_cards_put_on_library_together():
    t = table()
    a = t.add_card(BEARS, "Alice", "hand")
    b = t.add_card(BOLT, "Alice", "hand")
    res = t.move_many([a.cid, b.cid], "library", order=[b.cid, a.cid])
    assert "401.4" in res.cites
    assert [o.cid for o in t.objects_in(("Alice", "library"))] == [b.cid, a.cid]


def test_401_8_nth_from_top_of_short_library_goes_to_bottom():
    t = table()
    t.add_card(FOREST, "Alice", "library")
    c = t.add_card(BEARS, "Alice", "hand")
    res = t.move(c.cid, "library", position=3)
    assert "401.8" in res.cites and t.position(t.obj_of(c.cid)) == 2


def test_402_2_cleanup_discards_to_maximum():
    t = table()
    for _ in range(9):
        t.add_card(FOREST, "Alice", "hand")
    res = t.cleanup("Alice")
    assert len(t.zones[("Alice", "hand")]) == 7 and "402.2" in res.cites
    t2 = table()
    extra = [t2.add_card(FOREST, "Alice", "hand") for _ in range(8)]
    with pytest.raises(IllegalActionError):  # one card over: discarding two is wrong
        t2.cleanup("Alice", [c.cid for c in extra[:2]])
    assert len(t2.zones[("Alice", "hand")]) == 8


def test_tapping_a_card_in_hand_is_refused_and_the_text_is_said_to_be_silent():
    """Issue 14, item 3: 403.3 says nothing about tapping; the 2016 text is silent."""
    t = table()
    c = t.add_card(BEARS, "Alice", "hand")
    res = t.set_tapped(c.cid, True)
    assert res.rejected and res.cites == () and not t.obj_of(c.cid).tapped
    (note,) = res.events[0].notes
    assert note.startswith("The cr-2016 text does not cover this; applying the full rules'")
    assert "110.5 there; not in this zone-rules text" in note
    assert "tapped" not in t.edition.summary("403.3")


def test_404_3_owner_orders_simultaneous_graveyard_entries():
    t = table()
    a = t.add_card(BEARS, "Alice", "battlefield")
    b = t.add_card(RANCOR, "Alice", "battlefield")
    res = t.move_many([a.cid, b.cid], "graveyard", order=[b.cid, a.cid])
    assert "404.3" in res.cites
    assert [o.cid for o in t.objects_in(("Alice", "graveyard"))] == [b.cid, a.cid]


def test_405_1_ability_has_no_card_and_ceases_when_it_leaves():
    t = table()
    src = t.add_card(BEARS, "Alice", "battlefield")
    res = t.put_ability("draw a card", "Alice", src.cid)
    cid = res.events[0].cid
    assert "405.1" in res.cites and t.obj_of(cid).kind == "ability"
    (ev,) = t.move(cid, "graveyard").events
    assert ev.kind == "ceased" and t.obj_of(cid).zone is None


def test_405_3_apnap_active_player_lowest():
    t = table(players=("Alice", "Bob", "Carol"))
    c = t.add_card(BEARS, "Carol", "hand")
    a = t.add_card(BEARS, "Alice", "hand")
    b = t.add_card(BEARS, "Bob", "hand")
    res = t.move_many([c.cid, a.cid, b.cid], "stack")
    assert "405.3" in res.cites
    assert [o.cid for o in t.objects_in((None, "stack"))] == [c.cid, b.cid, a.cid]


def test_406_4_exile_pile_recorded():
    t = table()
    c = t.add_card(BEARS, "Bob", "battlefield")
    res = t.move(c.cid, "exile", pile="Oblivion Ring")
    assert "406.4" in res.cites and t.obj_of(c.cid).pile == "Oblivion Ring"


def test_407_2_ante_a_random_card_and_winner_owns_it():
    t = table(seed=3, ante=True)
    for _ in range(5):
        t.add_card(FOREST, "Alice", "library")
        t.add_card(BEARS, "Bob", "library")
    res = t.ante_start()
    assert "407.2" in res.cites and len(t.zones[(None, "ante")]) == 2
    t.award_ante("Bob")
    assert {t.objs[i].owner for i in t.zones[(None, "ante")]} == {"Bob"}


def test_407_4_only_the_owner_antes():
    t = table(ante=True)
    c = t.add_card(BEARS, "Alice", "hand")
    assert t.move(c.cid, "ante", by="Bob").rejected
    assert not t.move(c.cid, "ante", by="Alice").rejected


def test_407_1_and_407_3_ante_only_when_playing_for_it_and_out_only_by_a_cards_text():
    t = table()
    c = t.add_card(BEARS, "Alice", "hand")
    res = t.move(c.cid, "ante", by="Alice")
    assert res.rejected and res.cites == ("407.1",) and t.obj_of(c.cid).zone[1] == "hand"
    assert t.ante_start().rejected
    t = table(ante=True)
    c = t.add_card(BEARS, "Alice", "hand")
    t.move(c.cid, "ante", by="Alice")
    res = t.move(c.cid, "hand")
    assert res.rejected and res.cites == ("407.3",)
    assert not t.move(c.cid, "hand", allowed_by="Darkpact").rejected


def test_408_2_emblem_in_command_zone_stays():
    t = table()
    cid = t.create_emblem("Emblem", "Alice").events[0].cid
    assert t.obj_of(cid).zone == (None, "command")
    assert t.move(cid, "graveyard").rejected


def test_704_5d_token_reaches_graveyard_then_ceases_and_never_returns():
    t = table()
    cid = t.create_token(Card("Soldier", ("Creature",)), "Alice").events[0].cid
    kinds = [e.kind for e in t.move(cid, "graveyard").events]
    assert kinds == ["moved", "ceased"]
    assert t.live(cid) is None and not t.zones[("Alice", "graveyard")]
    assert t.move(cid, "battlefield").rejected


def test_unknown_player_or_zone_is_an_error_not_a_rejection():
    t = table()
    c = t.add_card(BEARS, "Alice", "hand")
    with pytest.raises(IllegalActionError):
        t.move(c.cid, "graveyard", "Zed")
    with pytest.raises(IllegalActionError):
        t.move(c.cid, "phased-out")


def test_london_mulligan_is_one_action_and_draws_seven():
    t = table(seed=4)
    for _ in range(20):
        t.add_card(FOREST, "Alice", "library")
    t.draw("Alice", 7)
    n = len(t.history)
    res = t.mulligan("Alice")
    assert len(t.history) == n + 1 and len(t.zones[("Alice", "hand")]) == 7
    assert any(e.kind == "shuffled" for e in res.events)
    t.undo()
    assert len(t.zones[("Alice", "hand")]) == 7 and len(t.history) == n


def test_dice_are_seeded_and_replay():
    a, b = table(seed=11), table(seed=11)
    rolls_a = [a.roll("Alice", 20).events[0].text for _ in range(5)]
    rolls_b = [b.roll("Alice", 20).events[0].text for _ in range(5)]
    assert rolls_a == rolls_b and a.last_roll[1] == 20
    with pytest.raises(IllegalActionError):
        a.roll("Alice", 1)


def test_400_7d_an_ability_finds_the_new_object_in_a_public_zone():
    t = table()
    rancor = t.add_card(RANCOR, "Alice", "battlefield")
    t.move(rancor.cid, "graveyard")
    new, cites = t.find_new(rancor.id)
    assert new is t.obj_of(rancor.cid) and new.zone == ("Alice", "graveyard")
    assert cites == ("400.7d", "400.7g")
    t.move(rancor.cid, "hand")
    assert t.find_new(rancor.id) == (None, ())  # the trail ends in a hidden zone
