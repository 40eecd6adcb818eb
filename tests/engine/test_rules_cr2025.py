"""The 2025 zone rules (issue 33), each oracle written from the text of the Comprehensive
Rules of 4 April 2025, against the 2016 rules where they part."""

from __future__ import annotations

import json

import pytest

from tabletop.engine import Card, InputError, Table, chooser_from_labels, saves

THALIA = Card("Thalia, Guardian of Thraben", ("Creature",), ("Human", "Soldier"),
              supertypes=("Legendary",))


def _table(edition: str, zone: str = "battlefield") -> tuple[Table, int]:
    t = Table(("Ann", "Ben"), edition=edition)
    cid = t.add_card(THALIA, "Ann", zone, commander=True).cid
    return t, cid


def test_903_9a_a_dying_commander_reaches_the_graveyard_then_may_return():
    t, cid = _table("cr-2025")
    died = t.move(cid, "graveyard").events[0]
    assert t.obj_of(cid).zone == ("Ann", "graveyard") and "903.9b" not in died.cites
    back = t.commander_returns(cid).events[0]
    assert t.obj_of(cid).zone == (None, "command")
    assert back.cites[0] == "903.9a" and back.obj != died.obj  # a new object (400.7)


def test_903_9a_only_since_state_based_actions_were_last_checked():
    t, cid = _table("cr-2025")
    t.move(cid, "exile")
    t.roll("Ben", 6)  # another action: state-based actions were checked in between
    res = t.commander_returns(cid)
    assert res.rejected and t.obj_of(cid).zone == (None, "exile")
    assert "903.9a" in res.events[0].cites
    assert t.refused[-1][1].name == "commander_returns"  # the attempt is part of the story


def test_a_card_that_is_not_a_commander_never_returns():
    t = Table(("Ann", "Ben"), edition="cr-2025")
    cid = t.add_card(THALIA, "Ann", "battlefield").cid
    t.move(cid, "graveyard")
    assert t.commander_returns(cid).rejected and t.obj_of(cid).zone == ("Ann", "graveyard")


def test_903_9b_hand_or_library_is_a_replacement_its_owner_may_decline():
    t, cid = _table("cr-2025")
    res = t.move(cid, "library")
    assert t.obj_of(cid).zone == (None, "command")
    assert {"903.9b", "400.6"} <= set(res.events[0].cites)
    t.move(cid, "battlefield")
    declined = t.move(cid, "hand", chooser=chooser_from_labels([]))
    assert t.obj_of(cid).zone == ("Ann", "hand") and "903.9b" not in declined.events[0].cites


@pytest.mark.parametrize("zone", ["graveyard", "exile", "hand", "library"])
def test_in_2016_every_one_of_the_four_zones_is_replaced(zone):
    """The January 2016 rules' 903.9: hand, graveyard, library or exile, the command zone
    instead; and no state-based action to ask for afterwards."""
    t, cid = _table("cr-2016")
    res = t.move(cid, zone)
    assert t.obj_of(cid).zone == (None, "command") and "903.9" in res.events[0].cites
    assert t.commander_returns(cid).rejected


def test_editions_without_commander_rules_move_a_commander_like_any_card():
    t, cid = _table("cr-2012")
    t.move(cid, "graveyard")
    assert t.obj_of(cid).zone == ("Ann", "graveyard")
    assert t.commander_returns(cid).rejected


def test_400_10_into_the_command_zone_from_it_is_a_new_object_in_2025_only():
    t, cid = _table("cr-2025", "command")
    before = t.obj_of(cid).id
    e = t.move(cid, "command").events[0]
    assert e.kind == "new_object" and e.cites == ("400.10",) and t.obj_of(cid).id != before
    old, cid = _table("cr-2016", "command")
    before = old.obj_of(cid).id
    assert old.move(cid, "command").events[0].kind == "unchanged"
    assert old.obj_of(cid).id == before


def test_the_sideboard_and_a_zone_instruction_are_cited_by_their_2025_numbers():
    t = Table(("Ann", "Ben"), edition="cr-2025")
    t.add_to_sideboard("Ann", THALIA)
    e = t.bring_in(THALIA, "Ann", "hand").events[0]
    assert {"400.11", "400.11b"} <= set(e.cites) and "400.10" not in e.cites
    t.add_card(Card("Forest", ("Land",)), "Ann", "hand")
    moved = t.zone_to_zone("Ann", "hand", "library").events
    assert all(ev.cites[0] == "400.12" for ev in moved)


def test_400_7b_a_static_grant_carries_in_2025_not_in_2016():
    for edition, carried in (("cr-2025", True), ("cr-2016", False)):
        t = Table(("Ann", "Ben"), edition=edition)
        cid = t.add_card(Card("Grizzly Bears", ("Creature",)), "Ann", "stack").cid
        t.modify(cid, "has flying", "static")
        e = t.move(cid, "battlefield").events[0]
        assert (("has flying", "static") in t.obj_of(cid).modifications) is carried, edition
        assert ("400.7b" in e.cites) is carried


def test_commanders_are_kept_by_a_save_and_by_undo():
    t, cid = _table("cr-2025")
    again = saves.from_json(json.loads(json.dumps(saves.to_json(t))), "test")
    assert again.commanders == {cid}
    again.move(cid, "hand")
    assert again.obj_of(cid).zone == (None, "command")
    fresh = Table(("Ann", "Ben"), edition="cr-2025")
    other = fresh.add_card(THALIA, "Ann", "battlefield", commander=True).cid
    fresh.undo()
    assert other not in fresh.commanders


def test_a_deck_with_a_commander_section_deals_its_commander_as_one():
    from tabletop.cards.game import game_from_cards
    forest = Card("Forest", ("Land",), supertypes=("Basic",))
    t = game_from_cards([("Ann", {"main": [forest] * 10, "commander": [THALIA]}),
                         ("Ben", {"main": [forest] * 10})], hand=0)
    (cid,) = t.commanders
    assert t.obj_of(cid).zone == (None, "command") and t.edition.id == "cr-2025"


def test_a_save_that_lies_about_its_commanders_is_refused():
    t, _ = _table("cr-2025")
    d = saves.to_json(t)
    d["commanders"] = ["one"]
    with pytest.raises(InputError, match="commanders"):
        saves.from_json(d, "lying.json")


def test_123_5_stickers_stay_into_public_zones_and_go_into_hidden_ones():
    t = Table(("Ann", "Ben"), edition="cr-2025")
    cid = t.add_card(Card("Grizzly Bears", ("Creature",)), "Ann", "battlefield").cid
    assert t.add_sticker(cid, "name: Dark", by="Ann").events[0].kind == "sticker"
    assert t.add_sticker(cid, "3/3", by="Ben").rejected  # 123.3b: only on what you own
    e = t.move(cid, "exile").events[0]
    assert t.obj_of(cid).stickers == ("name: Dark",) and {"400.7m", "123.5"} <= set(e.cites)
    again = saves.from_json(json.loads(json.dumps(saves.to_json(t))), "test")
    assert again.obj_of(cid).stickers == ("name: Dark",)
    t.move(cid, "hand")
    assert t.obj_of(cid).stickers == ()
    assert t.add_sticker(cid, "name: Dark").rejected  # none in a hidden zone
    t.undo()
    assert t.obj_of(cid).stickers == ("name: Dark",)


def test_before_2025_a_new_object_keeps_no_sticker():
    t = Table(("Ann", "Ben"), edition="cr-2016")
    cid = t.add_card(Card("Grizzly Bears", ("Creature",)), "Ann", "battlefield").cid
    t.add_sticker(cid, "name: Dark")
    t.move(cid, "graveyard")
    assert t.obj_of(cid).stickers == ()
    assert any("stickers" in what for what, _ in t.lineage[cid][-1].forgotten)


def test_728_3_each_component_goes_to_its_owners_zone_as_a_new_object():
    t = Table(("Ann", "Ben"), edition="cr-2025")
    host = t.add_card(Card("Grizzly Bears", ("Creature",)), "Ann", "battlefield").cid
    mutate = t.add_card(Card("Hill Giant", ("Creature",)), "Ben", "stack").cid
    before = t.obj_of(host).id
    e = t.merge(mutate, host).events[0]
    assert e.kind == "merged" and t.obj_of(host).id == before  # the same object (728.2c)
    assert t.obj_of(host).card.name == "Grizzly Bears"  # under it: still the Bears
    again = saves.from_json(json.loads(json.dumps(saves.to_json(t))), "test")
    assert again.merged == t.merged
    events = t.move(host, "graveyard").events
    assert t.obj_of(host).zone == ("Ann", "graveyard")
    assert t.obj_of(mutate).zone == ("Ben", "graveyard")  # its owner's graveyard (400.3)
    assert all("728.3" in ev.cites for ev in events) and not t.merged
    t.undo()
    assert t.obj_of(host).zone == (None, "battlefield") and t.live(mutate) is None
    assert mutate in {c for c, *_ in t.merged[host]}


def test_merging_is_refused_before_2025():
    t = Table(("Ann", "Ben"), edition="cr-2016")
    host = t.add_card(Card("Grizzly Bears", ("Creature",)), "Ann", "battlefield").cid
    mutate = t.add_card(Card("Hill Giant", ("Creature",)), "Ann", "stack").cid
    assert t.merge(mutate, host).rejected and t.obj_of(mutate).zone == (None, "stack")


def test_903_9c_only_the_commander_card_of_a_merged_commander_goes_to_the_command_zone():
    t = Table(("Ann", "Ben"), edition="cr-2025")
    host = t.add_card(Card("Grizzly Bears", ("Creature",)), "Ann", "battlefield").cid
    commander = t.add_card(THALIA, "Ann", "stack", commander=True).cid
    t.merge(commander, host, on_top=True)
    events = t.move(host, "library").events  # 903.9b, applied by default
    assert t.obj_of(commander).zone == (None, "command")
    assert t.obj_of(host).zone == ("Ann", "library")  # where the permanent was headed
    assert all("903.9c" in e.cites for e in events)
    t.undo()
    t.move(host, "library", chooser=chooser_from_labels([]))  # declined: both go
    assert t.obj_of(commander).zone == t.obj_of(host).zone == ("Ann", "library")
