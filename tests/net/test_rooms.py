"""Room logic without a network: what a snapshot keeps, and what a replay redoes."""

from __future__ import annotations

import json

import pytest

from tabletop.cards import demo
from tabletop.net.protocol import Code
from tabletop.net.rooms import Room, RoomError


def test_an_undo_request_survives_a_snapshot_and_is_answered_after_it():
    room = Room("r", "CODE", demo.new_game(players=("Ann", "Ben")))
    room.act("Ann", {"action": "roll", "sides": 6})
    room.act("Ben", {"action": "undo"})  # asks: Ann's roll is not Ben's to undo
    assert room.undo_request == ("Ben", frozenset({"Ben"}))
    again = Room.from_json(json.loads(json.dumps(room.to_json())), "snapshot")
    assert again.undo_request == room.undo_request and again.actors == ["Ann"]
    again.act("Ann", {"action": "agree_undo"})
    assert again.table.history == [] and again.undo_request is None


def test_the_log_cites_the_rule_to_the_seats_told_the_whole_line():
    """A stolen creature that dies goes to its owner's graveyard: both players see it
    happen in public, and both read the rule; a card drawn is named only to its drawer."""
    from tabletop.engine import Table
    from tabletop.engine.model import Card
    t = Table(("Ann", "Ben"))
    bear = t.add_card(Card("Grizzly Bears", types=("Creature",)), "Ben", "battlefield",
                      controller="Ann")
    t.add_card(Card("Forest", types=("Land",)), "Ann", "library")
    room = Room("r", "CODE", t)
    room.act("Ann", {"action": "move", "id": bear.id, "zone": "graveyard", "player": "Ann",
                     "position": "top"})
    for seat in ("Ann", "Ben", "spectator"):
        line = room.view(seat)["log"][-1]
        assert line["tag"] == "done" and "Ben's graveyard" in line["text"]
        assert "400.3" in line["cites"], seat
    room.act("Ann", {"action": "draw", "count": 1})
    ann, ben = room.view("Ann")["log"][-1], room.view("Ben")["log"][-1]
    assert "Forest" in ann["text"] and "Forest" not in ben["text"]
    assert "cites" not in ben and "notes" not in ben


def _table_of_tools():
    """Ann has a Grizzly Bears and a Rancor on the battlefield, Ben a Forest; each has
    a library of ten."""
    from tabletop.cards import builtin
    from tabletop.engine import Table
    t = Table(("Ann", "Ben"))
    bears = t.add_card(builtin.lookup("Grizzly Bears"), "Ann", "battlefield")
    rancor = t.add_card(builtin.lookup("Rancor"), "Ann", "battlefield")
    forest = t.add_card(builtin.lookup("Forest"), "Ben", "battlefield")
    for p in ("Ann", "Ben"):
        for _ in range(10):
            t.add_card(builtin.lookup("Island"), p, "library")
    t.start_here()
    return Room("r", "CODE", t), bears, rancor, forest


def _card_in(view, name):
    return next(c for z in view["zones"] for c in z["cards"] if c.get("name") == name)


def test_the_tables_tools_go_through_the_room_and_each_seat_sees_their_outcome():
    """Counters, a set power/toughness, a note, attaching, face down and up, tokens,
    a player's counters, milling and the phase bar, as intentions; Ben sees each
    outcome, and a face-down card's name only its controller."""
    room, bears, rancor, _ = _table_of_tools()
    t = room.table
    room.act("Ann", {"action": "counters", "id": bears.id, "kind": "+1/+1", "delta": 2})
    room.act("Ann", {"action": "pt", "id": bears.id, "text": "4/4"})
    room.act("Ann", {"action": "note", "id": bears.id, "text": "copying Hill Giant"})
    room.act("Ann", {"action": "attach", "id": rancor.id, "host": bears.id})
    ben = room.view("Ben")
    seen = _card_in(ben, "Grizzly Bears")
    assert seen["counters"] == [["+1/+1", 2]] and seen["pt"] == ["6", "6"]
    assert seen["note"] == "copying Hill Giant"
    assert _card_in(ben, "Rancor")["host"] == seen["id"] == room.id_for("Ben", bears.id)
    room.act("Ann", {"action": "attach", "id": rancor.id})  # no host: unattach
    assert t.obj_of(rancor.cid).attached_to is None
    room.act("Ann", {"action": "face", "id": bears.id, "down": True})
    battlefield = _zone_of(room.view("Ben"), None, "battlefield")
    assert "Grizzly Bears" not in json.dumps(battlefield)
    down = next(c for c in battlefield if c["face_down"])
    # a note could name a face-down card: Ben sees that it is there, not what it says
    assert down["hidden"] and down["note"] == ""
    assert _card_in(room.view("Ann"), "Grizzly Bears")["face_down"]
    room.act("Ann", {"action": "face", "id": t.obj_of(bears.cid).id, "down": False})
    room.act("Ann", {"action": "token", "name": "Soldier", "types": ["Creature"],
                     "subtypes": ["Soldier"], "colors": ["W"], "power": "1",
                     "toughness": "1", "count": 3, "tapped": True})
    soldiers = [c for c in _zone_of(room.view("Ben"), None, "battlefield")
                if c.get("name") == "Soldier"]
    assert len(soldiers) == 3 and all(c["token"] and c["tapped"] for c in soldiers)
    assert soldiers[0]["printed"] == ["1", "1"] and soldiers[0]["controller"] == "Ann"
    room.act("Ann", {"action": "player_counter", "kind": "poison", "value": 3})
    assert room.view("Ben")["player_counters"] == {"Ann": [["poison", 3]]}
    room.act("Ann", {"action": "mill", "count": 4})
    assert len(_zone_of(room.view("Ben"), "Ann", "graveyard")) == 4
    assert len(_zone_of(room.view("Ben"), "Ann", "library")) == 6
    room.act("Ann", {"action": "phase", "phase": "combat"})
    assert room.view("Ben")["phase"] == "combat"
    assert room.actors == ["Ann"] * len(t.history)  # each the asker's, for undo


def _zone_of(view, player, name):
    return next(z["cards"] for z in view["zones"] if z["player"] == player and z["zone"] == name)


def test_the_tables_tools_are_refused_for_what_the_seat_may_not_touch():
    import pytest

    from tabletop.net.rooms import RoomError
    room, bears, rancor, forest = _table_of_tools()
    refused = [
        ("Ben", {"action": "counters", "id": bears.id, "kind": "+1/+1"}),  # Ann's card
        ("Ben", {"action": "face", "id": bears.id, "down": True}),
        ("Ann", {"action": "counters", "id": bears.id, "kind": "", "delta": 1}),
        ("Ann", {"action": "counters", "id": bears.id, "kind": "x", "delta": 5000}),
        ("Ann", {"action": "pt", "id": bears.id, "text": "five"}),
        ("Ann", {"action": "note", "id": bears.id, "text": "x" * 400}),
        ("Ann", {"action": "attach", "id": rancor.id, "host": 99999}),
        ("Ann", {"action": "token", "name": "Soldier", "count": 101}),
        ("Ann", {"action": "token", "name": "Soldier", "power": "1"}),  # no toughness
        ("Ann", {"action": "token", "name": " "}),
        ("Ann", {"action": "player_counter", "kind": "poison", "value": -1}),
        ("Ann", {"action": "mill", "count": 0}),
        ("Ben", {"action": "phase", "phase": "combat"}),  # Ann's turn
        ("Ann", {"action": "phase", "phase": "lunch"}),
        ("judge", {"action": "token", "name": "Soldier"}),
        ("spectator", {"action": "counters", "id": bears.id, "kind": "+1/+1"}),
    ]
    for seat, msg in refused:
        with pytest.raises(RoomError):
            room.act(seat, msg)
    with pytest.raises(RoomError, match="can't be attached to itself"):
        room.act("Ann", {"action": "attach", "id": rancor.id, "host": rancor.id})
    assert room.table.obj_of(rancor.cid).attached_to is None
    assert room.table.history == []  # nothing refused changed the game
    assert forest  # Ben's Forest: his own card, which he may handle
    room.act("Ben", {"action": "counters", "id": forest.id, "kind": "ice", "delta": 1})
    assert room.table.obj_of(forest.cid).counters == {"ice": 1}


def test_cards_moved_together_are_one_action_in_the_order_asked_for():
    """A group move: one action (one undo); ``ordered`` puts them in the order given,
    top first; a card of another seat in the group refuses the whole intention."""
    import pytest

    from tabletop.net.rooms import RoomError
    room = Room("r", "CODE", demo.new_game(players=("Ann", "Ben")))
    t = room.table
    hand = [t.objs[i] for i in reversed(t.zones[("Ann", "hand")])]
    ids = [hand[2].id, hand[0].id, hand[1].id]
    room.act("Ann", {"action": "move_many", "ids": ids, "zone": "library", "player": "Ann",
                     "position": "bottom", "ordered": True})
    assert len(t.history) == 1
    bottom = [t.objs[i].cid for i in t.zones[("Ann", "library")][:3]]  # bottom first
    assert bottom == [hand[1].cid, hand[0].cid, hand[2].cid]  # the last given is lowest
    bens = t.objs[t.zones[("Ben", "hand")][-1]].id
    mine = t.objs[t.zones[("Ann", "hand")][-1]].id
    with pytest.raises(RoomError, match="may not handle Ben's cards"):
        room.act("Ann", {"action": "move_many", "ids": [mine, bens], "zone": "graveyard"})
    with pytest.raises(RoomError, match="each card once"):
        room.act("Ann", {"action": "move_many", "ids": [mine, mine], "zone": "graveyard"})
    assert len(t.history) == 1
    room.act("Ann", {"action": "undo"})
    assert len(t.zones[("Ann", "hand")]) == 7 and t.history == []


def test_arrows_are_drawn_by_seats_and_sent_to_every_seat():
    import pytest

    from tabletop.net.rooms import RoomError
    room, bears, _rancor, forest = _table_of_tools()
    room.act("Ben", {"action": "arrow", "id": forest.id, "to": bears.id})  # any card's
    room.act("Ann", {"action": "arrow", "id": bears.id, "to": "Ben"})
    for seat in ("Ann", "Ben", "spectator"):
        f, b = room.id_for(seat, forest.id), room.id_for(seat, bears.id)
        assert room.view(seat)["arrows"] == [["Ben", f, b], ["Ann", b, "Ben"]]
    with pytest.raises(RoomError):
        room.act("Ann", {"action": "arrow", "id": bears.id, "to": "Cid"})
    with pytest.raises(RoomError):
        room.act("Ann", {"action": "arrow", "id": 4242, "to": "Ben"})
    with pytest.raises(RoomError):
        room.act("spectator", {"action": "arrow", "id": bears.id, "to": "Ben"})
    room.act("Ann", {"action": "clear_arrows"})  # Ann's own
    assert room.view("Ben")["arrows"] == [["Ben", room.id_for("Ben", forest.id),
                                           room.id_for("Ben", bears.id)]]


def test_abilities_whole_zones_showing_cards_and_cleanup_as_intentions():
    import pytest

    from tabletop.net.rooms import RoomError
    room = Room("r", "CODE", demo.new_game(players=("Ann", "Ben")))
    t = room.table
    hand = [t.objs[i] for i in reversed(t.zones[("Ann", "hand")])]
    # Ann shows two cards of her hand to Ben only: Ben's log names them, a spectator's not
    room.act("Ann", {"action": "show", "ids": [hand[0].id, hand[1].id], "to": "Ben"})
    told_ben = room.view("Ben")["log"][-1]["text"]
    told_spectator = room.view("spectator")["log"][-1]["text"]
    assert hand[0].card.name in told_ben and hand[0].card.name not in told_spectator
    bens = t.objs[t.zones[("Ben", "hand")][-1]]
    with pytest.raises(RoomError, match="own"):  # Ben's card is not Ann's to show
        room.act("Ann", {"action": "show", "ids": [bens.id]})
    # a land, then an ability of it on the stack (its controller's)
    land = next(o for o in hand if "Land" in o.card.types)
    room.act("Ann", {"action": "move", "id": land.id, "zone": "battlefield", "player": "Ann"})
    on_field = t.obj_of(land.cid)
    room.act("Ann", {"action": "ability", "id": on_field.id, "text": "Add one mana"})
    stack = _zone_of(room.view("Ben"), None, "stack")
    assert len(stack) == 1 and "Add one mana" in stack[0]["name"]
    with pytest.raises(RoomError):
        room.act("Ann", {"action": "ability", "id": on_field.id, "text": " "})
    # the whole hand into the library, shuffled: one action
    n = len(t.history)
    room.act("Ann", {"action": "move_all", "from": "hand", "zone": "library", "shuffle": True})
    assert len(t.history) == n + 1 and t.zones[("Ann", "hand")] == []
    assert len(_zone_of(room.view("Ben"), "Ann", "library")) == 40 - 1  # the land is out
    # cleanup: Ben draws to nine and discards the two he chooses
    room.act("Ben", {"action": "draw", "count": 2})
    two = [t.objs[i].id for i in t.zones[("Ben", "hand")][:2]]
    room.act("Ben", {"action": "cleanup", "ids": two})
    assert len(t.zones[("Ben", "hand")]) == 7
    assert len(_zone_of(room.view("Ann"), "Ben", "graveyard")) == 2


def test_looking_at_a_library_sends_its_faces_to_the_looker_only_until_shuffled():
    import pytest

    from tabletop.net.rooms import RoomError
    room = Room("r", "CODE", demo.new_game(players=("Ann", "Ben")))
    t = room.table
    lib = [t.objs[i] for i in reversed(t.zones[("Ann", "library")])]  # top first
    room.act("Ann", {"action": "look", "player": "Ann", "count": 3})
    ann = _zone_of(room.view("Ann"), "Ann", "library")
    assert [c.get("name") for c in ann[:3]] == [o.card.name for o in lib[:3]]
    assert all(c["looked"] for c in ann[:3]) and all(c["hidden"] for c in ann[3:])
    for seat in ("Ben", "spectator"):  # told that Ann looked, never what she saw
        theirs = _zone_of(room.view(seat), "Ann", "library")
        assert all(c["hidden"] and "name" not in c for c in theirs)
        assert "looks at the top 3" in room.view(seat)["log"][-1]["text"]
    # the knowledge survives a snapshot, and a card drawn is simply in hand
    again = Room.from_json(json.loads(json.dumps(room.to_json())), "snapshot")
    assert again.looked == room.looked
    room.act("Ann", {"action": "draw", "count": 1})
    ann = _zone_of(room.view("Ann"), "Ann", "library")
    assert [c.get("name") for c in ann[:2]] == [o.card.name for o in lib[1:3]]
    room.act("Ann", {"action": "shuffle"})  # shuffled: Ann no longer knows where they are
    assert all(c["hidden"] for c in _zone_of(room.view("Ann"), "Ann", "library"))
    # Ben searches Ann's library only with her leave (401.2: nobody looks at a library
    # unless something allows it): he asks, everyone sees the request, Ann answers
    room.act("Ben", {"action": "look", "player": "Ann"})  # a search: all of it
    assert all(c["hidden"] for c in _zone_of(room.view("Ben"), "Ann", "library"))
    assert room.view("spectator")["look_request"] == {"by": "Ben", "whose": "Ann",
                                                      "count": None}
    with pytest.raises(RoomError) as not_his:
        room.act("Ben", {"action": "agree_look"})  # only the library's owner answers
    assert not_his.value.code == "nothing"
    room.act("Ann", {"action": "refuse_look"})
    assert all(c["hidden"] for c in _zone_of(room.view("Ben"), "Ann", "library"))
    assert "does not let Ben look" in room.view("Ben")["log"][-1]["text"]
    room.act("Ben", {"action": "look", "player": "Ann"})
    room.act("Ann", {"action": "agree_look"})
    assert room.view("Ben")["look_request"] is None
    assert not any(c["hidden"] for c in _zone_of(room.view("Ben"), "Ann", "library"))
    assert all(c["hidden"] for c in _zone_of(room.view("Ann"), "Ann", "library"))
    with pytest.raises(RoomError):
        room.act("judge", {"action": "look", "player": "Ann"})
    with pytest.raises(RoomError):
        room.act("Ben", {"action": "look", "player": "Cid"})


def test_a_sideboard_is_its_players_and_a_card_of_it_comes_into_the_game():
    import pytest

    from tabletop.cards import builtin
    from tabletop.engine import Table, views
    from tabletop.net import mirror
    from tabletop.net.rooms import RoomError
    t = Table(("Ann", "Ben"))
    t.add_to_sideboard("Ann", builtin.lookup("Naturalize"))
    t.add_to_sideboard("Ann", builtin.lookup("Shock"))
    t.start_here()
    room = Room("r", "CODE", t)
    assert [c["name"] for c in room.view("Ann")["sideboards"]["Ann"]] == ["Naturalize", "Shock"]
    assert room.view("Ben")["sideboards"] == {"Ann": 2, "Ben": []}
    for seat, viewer in (("Ann", "Ann"), ("Ben", "Ben"), ("spectator", "x")):  # the boards
        sent = mirror.SentBoard(room.view(seat), room.viewer(seat), [])
        assert sent.sideboard("Ann", viewer) == views.sideboard(t, "Ann", viewer)
    with pytest.raises(RoomError, match="sideboard"):
        room.act("Ben", {"action": "bring_in", "name": "Shock"})  # not in Ben's
    room.act("Ann", {"action": "bring_in", "name": "Shock", "zone": "hand"})
    assert [c["name"] for c in room.view("Ann")["sideboards"]["Ann"]] == ["Naturalize"]
    assert [c["name"] for c in _zone_of(room.view("Ann"), "Ann", "hand")] == ["Shock"]
    assert room.view("Ben")["log"][-1]["text"] == "a hidden card in Ann's hand: brought in"
    assert room.view("Ben")["sideboards"] == {"Ann": 1, "Ben": []}
    room.act("Ann", {"action": "undo"})  # the sideboard as it was comes back, to each seat
    assert [c["name"] for c in room.view("Ann")["sideboards"]["Ann"]] == ["Naturalize", "Shock"]
    assert room.view("Ben")["sideboards"] == {"Ann": 2, "Ben": []}


def test_a_refused_card_in_a_group_does_not_send_its_zone_again():
    """Ann moves a creature from the battlefield and a sorcery from her hand onto the
    battlefield together: the sorcery stays (400.4a). Ben is sent the battlefield, not
    Ann's hand, which did not change: a hand sent again would tell him she tried."""
    from tabletop.engine import Table
    from tabletop.net.rooms import touched
    from tests.helpers import BEARS, PLOW
    t = Table(("Ann", "Ben"))
    plow = t.add_card(PLOW, "Ann", "hand")
    bears = t.add_card(BEARS, "Ann", "graveyard")
    t.start_here()
    room = Room("r", "CODE", t)
    zones = room.act("Ann", {"action": "move_many", "ids": [plow.id, bears.id],
                             "zone": "battlefield"})
    assert t.obj_of(plow.cid).zone == ("Ann", "hand")
    assert zones == {("Ann", "graveyard"), (None, "battlefield")}
    assert touched(t, ()) == set()


def test_a_place_on_the_battlefield_is_every_seats_and_undone_with_its_action():
    """Where Ann lets a card go (``at``) is kept by the host and sent to every seat;
    ``place`` moves Ann's permanents, never Ben's; undo puts them back."""
    room, bears, rancor, forest = _table_of_tools()
    t = room.table
    room.act("Ann", {"action": "place", "ids": [bears.id, rancor.id], "at": [[40, 20], None]})
    for seat in ("Ann", "Ben"):
        assert _card_in(room.view(seat), "Grizzly Bears")["place"] == [40.0, 20.0]
        assert _card_in(room.view(seat), "Rancor")["place"] is None
    assert not any("Grizzly" in str(line) for line in room.view("Ben")["log"])  # nothing said
    island = t.objects_in(("Ann", "library"))[0]
    room.act("Ann", {"action": "move", "id": island.id, "zone": "battlefield", "at": [300, 10]})
    new = t.obj_of(island.cid)
    assert new.zone == (None, "battlefield") and new.place == (300.0, 10.0)
    with pytest.raises(RoomError) as e:  # Ben's Forest is his to place
        room.act("Ann", {"action": "place", "ids": [forest.id], "at": [[0, 0]]})
    assert e.value.code == Code.NOT_YOUR_SEAT and forest.place is None
    room.act("Ann", {"action": "undo"})
    room.act("Ann", {"action": "undo"})
    assert t.obj_of(bears.cid).place is None


def test_cards_revealed_to_everyone_are_sent_to_every_seat_without_ids():
    room, _bears, _rancor, _forest = _table_of_tools()
    t = room.table
    top = t.objects_in(("Ann", "library"))[:2]
    room.act("Ann", {"action": "show", "ids": [o.id for o in top]})
    for seat in ("Ann", "Ben"):
        shown = room.view(seat)["shown"]
        assert shown["by"] == "Ann" and shown["to"] is None
        assert [c["name"] for c in shown["cards"]] == ["Island", "Island"]
        assert all(c["id"] == 0 for c in shown["cards"])  # no handle on the library card
    room.act("Ann", {"action": "shuffle"})
    assert room.view("Ben")["shown"] is None  # a reveal is of its moment


def _shown_to_ben(name):
    """Ann's room, after she showed Ben the card of that name from her hand."""
    from tabletop.cards import builtin
    room, *_ = _table_of_tools()
    t = room.table
    t.add_card(builtin.lookup(name), "Ann", "hand")
    t.start_here()
    card = t.objects_in(("Ann", "hand"))[0]
    room.act("Ann", {"action": "show", "ids": [card.id], "to": "Ben"})
    return room


def test_a_creature_shown_over_the_network_is_drawn_as_at_the_desk():
    """What a host shows a seat, the seat's window draws as the desk draws it: Hill
    Giant, a 3/3, with its power and toughness (the client's reveal window left them
    out, though the host sent them)."""
    from tabletop.engine import views
    from tabletop.net import mirror
    room = _shown_to_ben("Hill Giant")
    desk = views.shown(room.table, "Ben")
    client = mirror.shown_of(room.view("Ben")["shown"])
    assert desk is not None and client is not None
    assert [c.pt for c in client.cards] == [c.pt for c in desk.cards] == [("3", "3")]
    assert [c.name for c in client.cards] == ["Hill Giant"]


def test_a_hand_shown_to_one_seat_is_sent_to_that_seat_only():
    room = _shown_to_ben("Shock")
    assert [c["name"] for c in room.view("Ben")["shown"]["cards"]] == ["Shock"]
    assert room.view("judge")["shown"] is not None


def test_a_commander_over_the_network_is_known_to_all_and_returned_by_its_owner():
    """903.3: everyone knows a player's commander; 903.9a: only its owner puts it into
    the command zone, right after it died (cr-2025)."""
    from tabletop.engine import Table
    from tabletop.engine.model import Card
    t = Table(("Ann", "Ben"), edition="cr-2025")
    t.add_card(Card("Thalia, Guardian of Thraben", types=("Creature",)), "Ann",
               "battlefield", commander=True)
    room = Room("r", "CODE", t)

    def face(seat, zone):
        return next(z for z in room.view(seat)["zones"] if z["zone"] == zone)["cards"][0]
    def act(seat, **msg):  # as the server does: the seat's ids, then the room's
        return room.act(seat, room.resolve(seat, msg))
    assert face("Ben", "battlefield")["commander"] is True
    act("Ann", action="move", id=face("Ann", "battlefield")["id"], zone="graveyard")
    with pytest.raises(RoomError) as not_his:
        act("Ben", action="commander_returns", id=face("Ben", "graveyard")["id"])
    assert not_his.value.code == Code.NOT_YOUR_SEAT
    act("Ann", action="commander_returns", id=face("Ann", "graveyard")["id"])
    assert face("Ben", "command")["name"] == "Thalia, Guardian of Thraben"


def test_a_mover_may_decline_the_commanders_replacement_over_the_network():
    """903.9b is optional: `apply` says which replacements the mover applies (cr-2025)."""
    from tabletop.engine import Table
    from tabletop.engine.model import Card
    t = Table(("Ann", "Ben"), edition="cr-2025")
    cid = t.add_card(Card("Thalia, Guardian of Thraben", types=("Creature",)), "Ann",
                     "battlefield", commander=True).cid
    room = Room("r", "CODE", t)

    def sent(zone):
        return next(z for z in room.view("Ann")["zones"] if z["zone"] == zone)["cards"][0]
    room.act("Ann", room.resolve("Ann", {"action": "move", "id": sent("battlefield")["id"],
                                         "zone": "hand"}))
    assert t.obj_of(cid).zone == (None, "command")  # applied unless declined
    room.act("Ann", room.resolve("Ann", {"action": "move", "id": sent("command")["id"],
                                         "zone": "battlefield"}))
    room.act("Ann", room.resolve("Ann", {"action": "move", "id": sent("battlefield")["id"],
                                         "zone": "hand", "apply": []}))
    assert t.obj_of(cid).zone == ("Ann", "hand")
    with pytest.raises(RoomError) as bad:
        room.act("Ann", {"action": "move", "id": t.obj_of(cid).id, "zone": "graveyard",
                         "apply": ["x" * 61]})
    assert bad.value.code == Code.INVALID


def test_a_sticker_over_the_network_goes_only_on_what_the_seat_owns():
    from tabletop.engine import Table
    from tabletop.engine.model import Card
    t = Table(("Ann", "Ben"), edition="cr-2025")
    cid = t.add_card(Card("Grizzly Bears", types=("Creature",)), "Ann", "battlefield").cid
    room = Room("r", "CODE", t)

    def sent(seat):
        return next(z for z in room.view(seat)["zones"] if z["zone"] == "battlefield")[
            "cards"][0]
    with pytest.raises(RoomError) as not_his:
        room.act("Ben", room.resolve("Ben", {"action": "sticker", "id": sent("Ben")["id"],
                                             "text": "name: Dark"}))
    assert not_his.value.code == Code.REFUSED and t.obj_of(cid).stickers == ()
    room.act("Ann", room.resolve("Ann", {"action": "sticker", "id": sent("Ann")["id"],
                                         "text": "name:   Dark"}))
    assert sent("Ben")["stickers"] == ["name: Dark"]


def test_faces_made_once_a_broadcast_are_each_seats_own():
    """The server makes a public zone's faces once for every seat: each seat still gets
    exactly its own view (a face-down permanent named to its controller only, its own
    ids) as if made for it alone."""
    import json as _json

    from tabletop.engine import Table
    from tabletop.engine.model import Card
    t = Table(("Ann", "Ben"), edition="cr-2025")
    t.add_card(Card("Grizzly Bears", types=("Creature",)), "Ann", "battlefield")
    t.add_card(Card("Hill Giant", types=("Creature",)), "Ben", "battlefield", face_down=True)
    rancor = t.add_card(Card("Rancor", types=("Enchantment",), subtypes=("Aura",)), "Ann",
                        "battlefield")
    t.attach(rancor.cid, t.objs[1].cid)
    room = Room("r", "CODE", t)
    seats = ("Ann", "Ben", "spectator")
    alone = {s: room.view(s) for s in seats}
    public, faces = room.public_facts(), {}
    together = {s: room.view(s, public=public, faces=faces) for s in seats}
    # two public faces once; the face-down one per viewer (beside what else is alike)
    assert len([k for k in faces if isinstance(k[0], int)]) == 2 + 3
    for s in seats:
        assert _json.dumps(together[s], sort_keys=True) == _json.dumps(alone[s],
                                                                       sort_keys=True), s
    field = {s: next(z for z in together[s]["zones"] if z["zone"] == "battlefield")["cards"]
             for s in seats}
    assert any(c.get("name") == "Hill Giant" for c in field["Ben"])
    assert not any(c.get("name") == "Hill Giant" for c in field["Ann"] + field["spectator"])


def test_a_sticker_a_merge_or_a_return_aimed_at_a_hidden_card_names_nothing():
    """An attacker aims the new actions at cards hidden from them (another's hand, their
    own library): the refusal and the log lines name no hidden card, to anyone."""
    from tabletop.engine import Table
    from tabletop.engine.model import Card
    t = Table(("Ann", "Ben"), edition="cr-2025")
    t.add_card(Card("Secret Card", types=("Creature",)), "Ann", "hand")
    t.add_card(Card("Library Card", types=("Creature",)), "Ann", "library")
    t.add_card(Card("Grizzly Bears", types=("Creature",)), "Ben", "battlefield")
    room = Room("r", "CODE", t)

    def sent(seat, player, zone):
        return next(z for z in room.view(seat)["zones"] if z["player"] == player
                    and z["zone"] == zone)["cards"][0]["id"]
    hand, mine = sent("Ben", "Ann", "hand"), sent("Ben", None, "battlefield")
    library = sent("Ann", "Ann", "library")
    said = []
    for seat, msg in [("Ben", {"action": "sticker", "id": hand, "text": "x"}),
                      ("Ben", {"action": "merge", "id": mine, "onto": hand}),
                      ("Ann", {"action": "commander_returns", "id": library}),
                      ("Ann", {"action": "sticker", "id": library, "text": "x"})]:
        with pytest.raises(RoomError) as refused:
            room.act(seat, room.resolve(seat, msg))
        said.append(str(refused.value))
    for seat in ("Ann", "Ben", "spectator"):
        said += [line["text"] for line in room.view(seat)["log"]]
    assert said and not any("Secret" in x or "Library Card" in x for x in said), said


def test_the_faces_a_room_keeps_between_updates_are_those_of_objects_still_there():
    """Each zone change makes a new object, and a room keeps each public card's face
    from one update to the next: those of objects gone are let go, so a long game does
    not fill the server's memory with them."""
    import random

    from tabletop.engine import Card, Table
    from tabletop.net.rooms import FACES_KEPT
    t = Table(("Ann", "Ben"))
    cids = [t.add_card(Card(f"Bear {i}", ("Creature",)), "Ann", "battlefield").cid
            for i in range(40)]
    t.start_here()
    room = Room("r", "CODE", t)
    known: dict = {}
    rng = random.Random(1)
    most = 0
    for _ in range(6000):
        t.move(rng.choice(cids), rng.choice(("battlefield", "graveyard", "exile")))
        room.update("Ann", None, len(t.journal), public=room.public_facts(), faces={},
                    known=known, delta=True)
        most = max(most, len(room._faces))
    assert 40 <= most <= 2 * FACES_KEPT  # 6,000 objects made, the faces of 40 needed
    fresh = json.loads(json.dumps(room.view("Ann")))["zones"]
    assert {c["name"] for z in fresh for c in z["cards"]} == {f"Bear {i}" for i in range(40)}


def test_a_seats_ids_are_drawn_evenly_from_the_whole_range_and_never_alike():
    """Ids come from the system's random source a few hundred at a time: still every
    number from 1 to ID_SPACE, each as likely, and two seats never draw the same."""
    from tabletop.net.rooms import ID_SPACE, SeatIds
    ann, ben = SeatIds(), SeatIds()
    drawn = [ann._draw() for _ in range(100_000)]
    assert all(1 <= n <= ID_SPACE for n in drawn)
    tenths = [0] * 10
    for n in drawn:
        tenths[(n - 1) * 10 // ID_SPACE] += 1
    # 10,000 expected in each tenth, its standard deviation 95: 600 off is 6 of them
    assert all(abs(k - 10_000) < 600 for k in tenths), tenths
    assert [ben._draw() for _ in range(50)] != drawn[:50]
    assert len({ann.of(oid, False, False) for oid in range(5_000)}) == 5_000


def test_the_facts_an_update_compares_once_are_those_alike_for_every_seat():
    """An update carries only the facts that changed: those alike for every seat are
    compared once a broadcast, the seat's own (``Room.seat_facts``) for each seat.
    Together they are every fact a view has."""
    from tabletop.net.server import FACTS
    room = Room("r", "CODE", demo.new_game(players=("Ann", "Ben")))
    public = set(room.public_facts())
    own = set(room.seat_facts("Ann", None))
    assert public.isdisjoint(own)
    assert public | own == set(FACTS)
    assert set(FACTS) <= set(room.view("Ann"))


def _library(t, player):
    return [t.objs[i].card.name for i in t.zones[(player, "library")]]


def test_a_hosted_table_dealt_from_a_known_seed_shuffles_unforeseeably():
    """A table dealt from seed 1 (as the window's first table once was: a seed anyone
    with the app knows) is hosted. Bob deals the same table at home and shuffles
    Alice's library as she does: on a table nobody hosts his copy foretells her
    library card for card (the attack is sound), but once the table is a room it no
    longer does, shuffle after shuffle."""
    from tabletop.net.server import Server
    alone, at_home = demo.new_game(seed=1), demo.new_game(seed=1)
    alone.shuffle("Alice")
    at_home.shuffle("Alice")
    assert _library(alone, "Alice") == _library(at_home, "Alice")
    hosted, at_home = demo.new_game(seed=1), demo.new_game(seed=1)
    room = Server(None).add_room(hosted)
    foretold = 0
    for _ in range(3):
        room.act("Alice", {"action": "shuffle"})
        at_home.shuffle("Alice")
        foretold += _library(hosted, "Alice") == _library(at_home, "Alice")
    assert foretold == 0
    # a room asked for a fixed seed stays repeatable: every seat was told it
    fixed = demo.new_game(seed=1)
    Server(None).add_room(fixed, seed=1)
    fixed.shuffle("Alice")
    again = demo.new_game(seed=1)
    again.shuffle("Alice")
    assert _library(fixed, "Alice") == _library(again, "Alice")


def test_a_rooms_game_holds_a_bounded_log(monkeypatch):
    """A seat acting at its allowance grew its room's memory for as long as it cared to
    (every action, refusal, undo and redo is a line of the log, kept with its action).
    Past MAX_LINES lines the room refuses any more (`full`), undo too; chat goes on."""
    from tabletop.net import rooms
    monkeypatch.setattr(rooms, "MAX_LINES", 40)
    room = Room("r", "CODE", demo.new_game(players=("Ann", "Ben"), seed=2))
    done = 0
    with pytest.raises(RoomError) as full:
        for _ in range(100):  # bounded: the cap is 40 lines
            room.act("Ann", {"action": "roll", "sides": 6})
            done += 1
    assert full.value.code == Code.FULL and len(room.table.journal) == 40
    assert done == 40 - len(demo.new_game(players=("Ann", "Ben"), seed=2).journal)
    with pytest.raises(RoomError) as again:
        room.act("Ann", {"action": "undo"})
    assert again.value.code == Code.FULL
    room.say("Ben", "that is enough rolling")
    assert room.chat[-1] == ("Ben", "that is enough rolling")
