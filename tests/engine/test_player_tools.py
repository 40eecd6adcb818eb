"""Players' counters, looking at a library and revealing cards (issue 16, items 3, 4, 8):
engine actions in the history, the log, saves and undo; what each viewer reads."""

from __future__ import annotations

import json

import pytest

from tabletop.engine import Card, Table, saves, views
from tabletop.engine.errors import IllegalActionError, InputError


def _table(players=("Alice", "Bob", "Carol")) -> Table:
    t = Table(players, "cr-2016", seed=3)
    for p in players:
        for name in ("Forest", "Hill Giant", "Shock"):
            t.add_card(Card(name, ("Land",) if name == "Forest" else ("Creature",)), p,
                       "library")
        t.add_card(Card("Llanowar Elves", ("Creature",)), p, "hand")
    t.start_here()
    return t


def test_player_counters_are_set_logged_undone_and_saved():
    t = _table()
    t.set_player_counter("Alice", "poison", 3)
    t.set_player_counter("Alice", "commander damage from Bob", 7)
    assert t.player_counters == {"Alice": {"poison": 3, "commander damage from Bob": 7}}
    assert t.journal[-1].text == "Alice has taken 7 commander damage from Bob"
    back = saves.loads(saves.dumps(t))
    assert back.player_counters == t.player_counters
    t.set_player_counter("Alice", "poison", 0)  # 0 removes the kind
    assert t.player_counters == {"Alice": {"commander damage from Bob": 7}}
    t.undo()
    assert t.player_counters["Alice"]["poison"] == 3
    t.undo()
    t.undo()
    assert t.player_counters == {}
    t.redo()
    assert t.player_counters == {"Alice": {"poison": 3}}


def test_player_counters_refuse_nonsense():
    t = _table()
    with pytest.raises(IllegalActionError):
        t.set_player_counter("Zed", "poison", 1)
    with pytest.raises(IllegalActionError):
        t.set_player_counter("Alice", "  ", 1)
    assert t.history == []


def test_a_tampered_save_with_bad_player_counters_is_refused():
    t = _table()
    t.set_player_counter("Alice", "poison", 2)
    d = json.loads(saves.dumps(t))
    for bad in ({"Alice": {"poison": 1e300}}, {"Alice": {"poison": "x"}},
                {"Zed": {"poison": 1}}, {"Alice": [1]}):
        d["player_counters"] = bad
        with pytest.raises(InputError):
            saves.loads(json.dumps(d))


def test_looking_tells_everyone_that_not_what():
    t = _table()
    res = t.look("Alice", "Alice", 2)
    assert res.events[0].text == "Alice looks at the top 2 cards of their library"
    t.look("Bob", "Alice")
    line = t.journal[-1]
    assert line.text == line.public == "Bob searches Alice's library"
    assert all(n not in line.text for n in ("Forest", "Hill Giant", "Shock"))
    assert [a.name for a in t.history] == ["look", "look"]
    t.undo()
    assert len(t.history) == 1 and t.journal[-1].tag == "undone"


def test_cards_shown_to_one_player_are_named_only_to_them():
    t = _table()
    hand = [o.cid for o in t.objects_in(("Alice", "hand"))]
    res = t.show("Alice", hand, "Bob")
    e = res.events[0]
    assert views.tell(t, e, "Bob").text == "Alice reveals Llanowar Elves from Alice's hand to Bob"
    assert views.tell(t, e, "Alice").named
    carol = views.tell(t, e, "Carol")
    assert not carol.named and "Llanowar" not in carol.text
    assert carol.text == "Alice reveals cards from Alice's hand to Bob"
    assert t.journal[-1].told("Carol")[0] == carol.text
    assert t.journal[-1].told(None)[0].endswith("to Bob")  # the judge reads it all
    back = saves.loads(saves.dumps(t))
    assert back.history[-1].events[0].audience == ("Alice", "Bob")


def test_a_hand_shown_says_nothing_of_the_order_its_cards_came_in():
    """Alice shows Bob her whole hand, its ids in the order her window lists them (the
    order the cards came into her hand). Two hands of the same cards that came in other
    orders are shown alike, in the log and in what Bob's reveal window draws: he does
    not learn which card she drew last."""
    told, drawn = set(), set()
    for order in (("Shock", "Forest", "Hill Giant"), ("Hill Giant", "Shock", "Forest"),
                  ("Forest", "Hill Giant", "Shock")):
        t = Table(("Alice", "Bob"))
        for name in order:
            t.add_card(Card(name, ("Creature",)), "Alice", "hand")
        t.show("Alice", [o.cid for o in reversed(t.objects_in(("Alice", "hand")))], "Bob")
        told.add(t.journal[-1].told("Bob")[0])
        shown = views.shown(t, "Bob")
        assert shown is not None
        drawn.add(tuple(f.name for f in shown.cards))
    assert len(told) == 1 and len(drawn) == 1, (told, drawn)


def test_cards_shown_to_the_other_player_of_two_are_not_a_spectators():
    """At a table of two, both players know the cards Alice shows Bob; someone watching
    (a spectator of a network game) still reads only that cards were shown."""
    t = Table(("Alice", "Bob"))
    elves = t.add_card(Card("Llanowar Elves", ("Creature",)), "Alice", "hand")
    t.show("Alice", [elves.cid], "Bob")
    line = t.journal[-1]
    assert "Llanowar" in line.told("Bob")[0] and "Llanowar" in line.told("Alice")[0]
    assert line.told("a spectator")[0] == "Alice reveals cards from Alice's hand to Bob"
    assert "Llanowar" not in line.public


def test_cards_revealed_to_everyone_are_named_to_everyone():
    t = _table()
    top = [o.cid for o in t.objects_in(("Bob", "library"))[:2]]
    t.show("Bob", top)
    line = t.journal[-1]
    assert line.text == line.public == \
        "Bob reveals Shock and Hill Giant from Bob's library to everyone"
    assert [o.cid for o in t.objects_in(("Bob", "library"))[:2]] == top  # nothing moved


def test_turns_and_steps_untap_draw_undo_and_save():
    t = _table(("Alice", "Bob"))
    bears = t.add_card(Card("Grizzly Bears", ("Creature",)), "Bob", "battlefield", tapped=True)
    t.start_here()
    assert (t.turn, t.phase, t.active) == (1, "main1", "Alice")
    t.next_turn(untap=True)
    assert (t.turn, t.phase, t.active) == (2, "untap", "Bob")
    assert t.obj_of(bears.cid).tapped is False
    assert t.journal[-2].text == "Bob is now the active player (turn 2)"
    t.next_phase()
    hand = len(t.zones[("Bob", "hand")])
    t.next_phase(draw=True)
    assert t.phase == "draw" and len(t.zones[("Bob", "hand")]) == hand + 1
    back = saves.loads(saves.dumps(t))
    assert (back.turn, back.phase, back.active) == (2, "draw", "Bob")
    t.undo()
    assert t.phase == "upkeep" and len(t.zones[("Bob", "hand")]) == hand
    t.set_phase("cleanup")
    with pytest.raises(IllegalActionError):
        t.next_phase()
    with pytest.raises(IllegalActionError):
        t.set_phase("second breakfast")
    t.undo()
    t.undo()
    t.undo()
    assert (t.turn, t.phase, t.active) == (1, "main1", "Alice")
    assert t.obj_of(bears.cid).tapped is True


def test_a_tampered_turn_or_step_is_refused():
    t = _table(("Alice", "Bob"))
    d = json.loads(saves.dumps(t))
    for key, bad in (("turn", 0), ("turn", "3"), ("phase", "lunch")):
        d2 = dict(d)
        d2[key] = bad
        with pytest.raises(InputError):
            saves.loads(json.dumps(d2))


def test_a_mulligan_and_a_whole_zone_are_one_entry_in_the_log_under_a_heading():
    """The other players read "Bob mulligans" over the lines that name no card, not
    fifteen loose lines of cards moving."""
    from tabletop.cards import demo
    t = demo.new_game(players=("Alice", "Bob"))
    n = len(t.journal)
    t.mulligan("Bob")
    lines = t.journal[n:]
    assert lines[0].lead == "Bob mulligans" and all(x.sub for x in lines)
    assert [x.lead for x in lines[1:]] == [""] * (len(lines) - 1)
    n = len(t.journal)
    t.zone_to_zone("Bob", "hand", "graveyard")
    assert t.journal[n].lead.startswith("Bob: ") and len(t.journal) - n == 7
