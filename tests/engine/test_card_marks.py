"""Power/toughness as modified, set power/toughness, notes on cards and arrows (issue 16,
item 10): recorded, undone, saved and checked on load, forgotten with the object."""

from __future__ import annotations

import json

import pytest

from tabletop.cards import builtin
from tabletop.engine import IllegalActionError, InputError, Table, saves, views
from tabletop.engine.model import power_toughness


def _table():
    t = Table(("Alice", "Bob"), "cr-2016")
    giant = t.add_card(builtin.lookup("Hill Giant"), "Alice", "battlefield")
    elves = t.add_card(builtin.lookup("Llanowar Elves"), "Bob", "battlefield")
    t.start_here()
    return t, giant.cid, elves.cid


def test_counters_and_a_set_power_toughness_make_the_modified_one():
    t, giant, _ = _table()
    assert power_toughness(t.obj_of(giant)) == ("3", "3")
    t.add_counters(giant, {"+1/+1": 2, "-1/-1": 1, "+1/+0": 1})
    assert power_toughness(t.obj_of(giant)) == ("5", "4")
    t.set_pt(giant, "1/1")  # an effect sets it; counters still apply on top
    assert power_toughness(t.obj_of(giant)) == ("3", "2")
    assert views.face_of(t, t.obj_of(giant), "Bob").pt == ("3", "2")
    t.set_pt(giant, "*/4")
    assert power_toughness(t.obj_of(giant)) == ("*+2", "5")
    t.undo()
    t.undo()
    assert t.obj_of(giant).pt is None and power_toughness(t.obj_of(giant)) == ("5", "4")


def test_printed_power_toughness_reads_as_printed_and_no_card_data_fills_memory():
    from tabletop.engine import model
    from tabletop.engine.model import Card
    t = Table(("Alice", "Bob"), "cr-2016")
    odd = t.add_card(Card("Tarmogoyf", ("Creature",), power="*", toughness="1+*"),
                     "Alice", "battlefield").cid
    plain = t.add_card(Card("Bear", ("Creature",), power="02", toughness="2"), "Alice",
                       "battlefield").cid
    for _ in range(2):  # (the second time from what the first worked out)
        assert power_toughness(t.obj_of(odd)) == ("*", "1+*")
        assert power_toughness(t.obj_of(plain)) == ("2", "2")
    t.add_counters(odd, {"+1/+1": 1})
    assert power_toughness(t.obj_of(odd)) == ("*+1", "1+*+1")
    t.add_counters(odd, {"+1/+1": -1})
    assert power_toughness(t.obj_of(odd)) == ("*", "1+*")
    # card data a peer made up (a power no card has, on every card) is shown as it is,
    # and what is kept of it stays small
    for i in range(5000):
        c = Card(f"Made up {i}", ("Creature",), power=f"{i}x", toughness="1")
        o = t.add_card(c, "Bob", "hand")
        assert power_toughness(o) == (f"{i}x", "1")
    assert len(model._PRINTED) <= 4096


def test_set_power_toughness_is_refused_off_the_battlefield_and_when_malformed():
    t, giant, _ = _table()
    with pytest.raises(IllegalActionError):
        t.set_pt(giant, "three/3")
    t.move(giant, "graveyard")
    res = t.set_pt(giant, "5/5")
    assert res.events[0].kind == "rejected" and t.obj_of(giant).pt is None


def test_a_new_object_forgets_its_set_power_toughness_and_note():
    t, giant, _ = _table()
    t.set_pt(giant, "5/5")
    t.set_note(giant, "  copying   Shivan Dragon ")
    assert t.obj_of(giant).note == "copying Shivan Dragon"
    t.move(giant, "hand")
    t.move(giant, "battlefield")
    o = t.obj_of(giant)
    assert (o.pt, o.note) == (None, "") and power_toughness(o) == ("3", "3")


def test_a_note_and_counter_kinds_on_a_face_down_card_are_its_controllers_only():
    """A note ("morph: Exalted Angel") or a counter's name could say what a face-down
    card is: another player sees how many counters it has, nothing more."""
    t, giant, _ = _table()
    t.turn_face(giant, True)
    t.set_note(giant, "morph")
    t.add_counters(giant, {"Angel": 1, "+1/+1": 2})
    seen_by_bob = views.face_of(t, t.obj_of(giant), "Bob")
    assert isinstance(seen_by_bob, views.Hidden) and seen_by_bob.note == ""
    assert seen_by_bob.counters == (("counter", 3),)
    status = views.inspect(t, t.obj_of(giant), "Bob").status
    assert not any("morph" in s or "Angel" in s for s in status) and "3 counters" in status
    mine = views.face_of(t, t.obj_of(giant), "Alice")
    assert mine.note == "morph" and dict(mine.counters) == {"Angel": 1, "+1/+1": 2}
    with pytest.raises(IllegalActionError):
        t.set_note(giant, "x" * 301)


def test_arrows_point_at_cards_and_players_and_go_at_the_next_turn():
    t, giant, elves = _table()
    t.arrow("Alice", giant, "Bob")
    t.arrow("Bob", elves, giant)
    g, e = t.obj_of(giant).id, t.obj_of(elves).id
    assert views.arrows(t) == [views.Arrow("Alice", g, None, "Bob"),
                               views.Arrow("Bob", e, g)]
    t.next_turn()
    assert views.arrows(t) == []
    t.undo()
    assert len(views.arrows(t)) == 2
    t.clear_arrows("Bob")
    assert views.arrows(t) == [views.Arrow("Alice", g, None, "Bob")]
    t.clear_arrows()
    assert t.arrows == ()


def test_an_arrow_goes_with_its_card_when_it_leaves():
    t, giant, elves = _table()
    t.arrow("Bob", elves, giant)
    t.move(giant, "graveyard")
    assert views.arrows(t) == []
    t.move(giant, "battlefield")  # a new object: the old arrow is not its arrow
    assert views.arrows(t) == []
    res = t.arrow("Alice", giant, t.add_card(builtin.lookup("Shock"), "Alice", "hand").cid)
    assert res.events[0].kind == "rejected"


def test_marks_survive_a_save_and_its_history_replays():
    t, giant, elves = _table()
    t.set_pt(giant, "5/5")
    t.set_note(elves, "summoning sick")
    t.arrow("Alice", giant, elves)
    back = saves.loads(saves.dumps(t))
    assert back.obj_of(giant).pt == "5/5" and back.obj_of(elves).note == "summoning sick"
    assert views.arrows(back) == views.arrows(t)
    for _ in range(3):
        back.undo()
    assert back.obj_of(giant).pt is None and back.obj_of(elves).note == "" and not back.arrows


@pytest.mark.parametrize("tamper, words", [
    (lambda d: d["arrows"].append(["Mallory", 1, 2]), "arrow"),
    (lambda d: d["arrows"].append(["Alice", 1, 2.5]), "arrow"),
    (lambda d: d["objects"][0].extend([None] * (16 - len(d["objects"][0]) - 2) + ["3 / x", None]),
     "power/toughness"),
    (lambda d: d["objects"][0].extend([None] * (16 - len(d["objects"][0]) - 1) + ["n" * 400]),
     "note"),
    (lambda d: d["objects"][0].extend([None] * (17 - len(d["objects"][0]) - 1) + [[1, -2]]),
     "place on the battlefield"),
    (lambda d: d["objects"][0].extend([None] * (17 - len(d["objects"][0]) - 1) + ["1,2"]),
     "place on the battlefield"),
    (lambda d: d.__setitem__("screen", {"viewer": "Mallory"}), "viewpoint"),
    (lambda d: d.__setitem__("screen", {"zoom": 1e300}), "zoom"),
    (lambda d: d.__setitem__("screen", {"viewers": [["Alice", "sofa"]]}), "viewers"),
    (lambda d: d.__setitem__("screen", {"bots": 1}), "screen"),
])
def test_a_tampered_mark_is_refused_on_load(tamper, words):
    t, giant, elves = _table()
    t.arrow("Alice", giant, elves)
    d = json.loads(saves.dumps(t))
    tamper(d)
    with pytest.raises(InputError, match=words):
        saves.loads(json.dumps(d))


def test_a_place_survives_a_save_and_undo_takes_it_back():
    t, giant, elves = _table()
    t.place({giant: (120, 40)})
    hand = t.add_card(builtin.lookup("Llanowar Elves"), "Alice", "hand").cid
    t.move(hand, "battlefield", None, at={hand: (10.5, 80)})
    t.screen = {"viewer": None, "zoom": 1.5, "centre": [400, 300],
                "viewers": [["Alice", "graveyard"]]}
    back = saves.loads(saves.dumps(t))
    assert back.obj_of(giant).place == (120.0, 40.0)
    assert back.obj_of(hand).place == (10.5, 80.0)
    assert back.screen == t.screen
    back.undo()
    back.undo()  # the add_card
    back.undo()
    assert back.obj_of(giant).place is None
    n = len(t.history)
    with pytest.raises(IllegalActionError):
        t.place({giant: (float("nan"), 1)})
    with pytest.raises(IllegalActionError):
        t.move(elves, "graveyard", "Bob", at={elves: (1, 10**9)})
    assert len(t.history) == n and t.obj_of(elves).zone == (None, "battlefield")


def test_attaching_names_the_host_only_when_everyone_may_see_it():
    t, giant, elves = _table()
    aura = t.add_card(builtin.lookup("Rancor"), "Alice", "battlefield").cid
    t.start_here()
    t.attach(aura, giant)
    assert views.tell(t, t.history[-1].events[0], "Bob").text == \
        "Rancor is attached to Hill Giant"
    t.turn_face(elves, True)
    t.attach(aura, elves)
    told = views.tell(t, t.history[-1].events[0], "Alice").text
    assert "Llanowar" not in told and "attached to a face-down" in told


def test_printings_are_saved_and_checked():
    t, _, _ = _table()
    t.printings = {"Hill Giant": ("M11", "149")}
    back = saves.loads(saves.dumps(t))
    assert back.printings == {"Hill Giant": ("M11", "149")}
    assert views.face_of(back, back.objs[1], "Bob").printing == ("M11", "149")
    d = json.loads(saves.dumps(t))
    d["printings"]["Hill Giant"] = ["M11", 149]
    with pytest.raises(InputError, match="printing"):
        saves.loads(json.dumps(d))


def test_two_permanents_are_never_attached_to_each_other_and_the_game_still_saves():
    """Equipment A attached to B, then B to A (directly or through a third) made a loop
    the save's consistency check refuses: every later save and autosave failed. Now
    the attachment is refused, in words naming no card (either may be face down), and
    the game saves and opens as before."""
    t = Table(("Alice", "Bob"))
    sword, shield, helm = (t.add_card(builtin.lookup(n), "Alice", "battlefield").cid
                           for n in ("Rancor", "Hill Giant", "Llanowar Elves"))
    t.attach(sword, shield)
    t.attach(shield, helm)  # a chain is fine
    for host, rider in ((sword, shield), (sword, helm), (shield, helm)):
        why = t.attach_refusal(rider if host == sword else helm, host)
        assert why == "a permanent can't be attached to one that is attached to it"
    with pytest.raises(IllegalActionError, match="attached to it"):
        t.attach(helm, sword)  # helm <- shield <- sword: a loop through shield
    back = saves.loads(saves.dumps(t))
    assert back.obj_of(sword).attached_to == back.obj_of(shield).id
    assert back.obj_of(helm).attached_to is None


def test_what_was_attached_comes_off_when_its_host_leaves_after_undo_redo_and_a_load():
    """A permanent leaving the battlefield looks only at hosts some attachment named:
    an aura attached again by an undo after the game was saved and opened (its old
    object read from the save's history only then), by a redo, or by an undo, still
    comes off when its host leaves, and the table stays one a save may hold."""
    t = Table(("Alice", "Bob"))
    aura = t.add_card(builtin.lookup("Rancor"), "Alice", "battlefield").cid
    giant = t.add_card(builtin.lookup("Hill Giant"), "Bob", "battlefield").cid
    elves = t.add_card(builtin.lookup("Llanowar Elves"), "Bob", "battlefield").cid
    t.start_here()
    t.attach(aura, giant)
    t.move(aura, "graveyard")  # the aura attached to the Giant is an old object now
    for _ in range(saves.VERIFY_LAST):  # past what opening the save reads again
        t.set_life("Alice", t.life["Alice"] + 1)
    t = saves.loads(saves.dumps(t))
    t.move(elves, "hand")  # a permanent leaves before the old aura is read again
    for _ in range(saves.VERIFY_LAST + 2):
        t.undo()  # the aura is back on the battlefield, attached to the Hill Giant
    assert t.obj_of(aura).attached_to == t.obj_of(giant).id
    t.move(giant, "graveyard")
    assert t.obj_of(aura).attached_to is None
    saves.check(t)
    t.undo()
    t.redo()
    assert t.obj_of(aura).attached_to is None
    t.undo()
    t.attach(aura, elves)
    t.undo()
    t.redo()
    t.move(elves, "exile")
    assert t.obj_of(aura).attached_to is None
    saves.check(t)


def test_an_object_and_a_player_hold_a_bounded_number_of_counter_kinds():
    """A new kind of counter on the same card, again and again, grew the card, each
    update carrying it and each log line naming every kind, without end. Twenty kinds
    an object and twenty a player; more of a kind already there is always fine, and
    the refusal names no card (it may be face down)."""
    from tabletop.engine.actions import COUNTER_KINDS
    t, giant, _ = _table()
    for i in range(COUNTER_KINDS):
        t.add_counters(giant, {f"kind {i}": 1})
    with pytest.raises(IllegalActionError, match="at most 20 kinds") as e:
        t.add_counters(giant, {"one more": 1})
    assert "Hill Giant" not in str(e.value)
    t.add_counters(giant, {"kind 3": 5, "kind 4": -1})  # the kinds it has: fine
    assert len(t.obj_of(giant).counters) == COUNTER_KINDS - 1
    t.add_counters(giant, {"one more": 1})  # a kind gone leaves room for another
    for i in range(COUNTER_KINDS):
        t.set_player_counter("Alice", f"kind {i}", 2)
    with pytest.raises(IllegalActionError, match="as many kinds of counters"):
        t.set_player_counter("Alice", "one more", 1)
    t.set_player_counter("Alice", "kind 0", 7)
    t.set_player_counter("Alice", "kind 1", 0)
    t.set_player_counter("Alice", "one more", 1)
    assert len(t.player_counters["Alice"]) == COUNTER_KINDS
