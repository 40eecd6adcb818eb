"""A network seat's board (net/mirror.py): the view the host sent, read into the
engine's view types. It shows exactly what the host sent that seat, and no more."""

from __future__ import annotations

import json

import pytest

from tabletop.cards import demo
from tabletop.engine import views
from tabletop.net import mirror
from tabletop.net.rooms import Room


def _room() -> Room:
    t = demo.new_game(players=("Ann", "Ben", "Cid"), seed=3)
    for p in t.players:  # lands and creatures down, some tapped, one face down
        for o in list(t.objects_in((p, "hand")))[:3]:
            t.move(o.cid, "battlefield", p)
    def battlefield(p):
        return [o for o in t.objects_in((None, "battlefield")) if o.controller == p]
    bf = battlefield("Ben")
    t.set_tapped(bf[0].cid, True)
    t.add_counters(bf[-1].cid, {"+1/+1": 2})
    t.turn_face(battlefield("Cid")[0].cid, True)
    creature = next((o for o in battlefield("Ann")
                     if o.card.power is not None), None)
    if creature is not None:
        t.set_pt(creature.cid, "5/5")
    t.roll("Ann", 6)
    return Room("r", "CODE", t)


def _public(f):
    """What the window draws of a face: the facts, not the ids (the seat's are its own)."""
    d = {"hidden": isinstance(f, views.Hidden), "tapped": f.tapped, "face_down": f.face_down,
         "counters": tuple(f.counters), "owner": f.owner, "controller": f.controller,
         "position": f.position, "note": f.note, "host": f.host is not None}
    if isinstance(f, views.Seen):
        card = f.card
        d.update(name=f.name, pt=f.pt, card=card.to_json() if card is not None else None)
    return d


@pytest.mark.parametrize("seat", ["Ann", "Ben", "Cid", "spectator"])
def test_the_board_shows_the_seat_what_the_host_showed_it(seat):
    room = _room()
    view = json.loads(json.dumps(room.view(seat)))  # as it crosses the wire
    viewer = room.viewer(seat)
    b = mirror.SentBoard(view, viewer, [mirror.log_entry(line) for line in view["log"]])
    host_faces = views.view(room.table, viewer, libraries=False)
    sent_faces = b.zones()
    for key, faces in host_faces.items():
        assert [_public(f) for f in sent_faces[key]] == [_public(f) for f in faces], key
    assert b.counts() == views.counts(room.table)
    assert dict(b.life) == room.table.life and b.turn == room.table.turn
    assert [b.player_view(p) for p in b.players] == [views.player_view(room.table, p)
                                                     for p in room.table.players]
    assert [e.text for e in b.journal] == [line["text"] for line in view["log"]]
    # every card has the id the host sent this seat, which its intentions name
    assert sorted(f.id for faces in sent_faces.values() for f in faces) == sorted(
        room.id_for(seat, oid) for ids in room.table.zones.values() for oid in ids)
    # the inspector's answer for each card the seat sees is the host's, but for lineage
    for key, faces in host_faces.items():
        for face, sent in zip(faces, sent_faces[key], strict=True):
            if isinstance(face, views.Seen) and key[1] != "library":
                _, got = b.inspect(sent.id)
                want = views.inspect(room.table, room.table.objs[face.id], viewer)
                assert (got.name, got.zone, got.owner, got.pt, got.counters) == (
                    want.name, want.zone, want.owner, want.pt, want.counters)


def test_a_card_the_seat_may_not_see_is_hidden_on_the_board():
    room = _room()
    b = mirror.SentBoard(json.loads(json.dumps(room.view("Ben"))), "Ben", [])
    zones = b.zones()
    ann_hand = zones[("Ann", "hand")]
    assert ann_hand and all(isinstance(f, views.Hidden) for f in ann_hand)
    library = zones[("Ben", "library")]
    assert library and all(isinstance(f, views.Hidden) for f in library)
    face_down = [f for f in zones[(None, "battlefield")] if f.face_down and f.controller == "Cid"]
    assert face_down and isinstance(face_down[0], views.Hidden)  # Cid's; Ben may not see it
    assert b.inspect(face_down[0].id)[1].hidden
    assert b.choice_of(ann_hand[0].id, "Ben").name == "a hidden card"


def test_an_update_merged_into_the_view_gives_the_board_of_the_new_table():
    room = _room()
    view = json.loads(json.dumps(room.view("Ann")))
    card = room.table.objects_in(("Ann", "hand"))[0]
    zones = room.act("Ann", {"action": "move", "id": card.id, "zone": "graveyard",
                             "player": "Ann", "position": "top"})
    update = json.loads(json.dumps(room.update("Ann", zones, len(room.table.journal) - 1)))
    mirror.merge(view, update)
    fresh = json.loads(json.dumps(room.view("Ann")))
    assert sorted(map(json.dumps, view["zones"])) == sorted(map(json.dumps, fresh["zones"]))
    b = mirror.SentBoard(view, "Ann", [])
    assert b.zones()[("Ann", "graveyard")][0].name == card.card.name


def test_the_effects_in_force_reach_every_seat_without_the_card_they_affect():
    from tabletop.engine.model import Effect, Zone
    room = _room()
    secret = room.table.objects_in(("Ann", "hand"))[0]
    room.table.add_effect(Effect("rip", Zone.GRAVEYARD, Zone.EXILE, source="Rest in Peace"))
    room.table.add_effect(Effect("one", Zone.GRAVEYARD, Zone.HAND, source="a return",
                                 affects=f"cid:{secret.cid}"))
    for seat in ("Ann", "Ben", "spectator"):
        view = json.loads(json.dumps(room.view(seat)))
        assert f"cid:{secret.cid}" not in json.dumps(view["effects"])
        b = mirror.SentBoard(view, room.viewer(seat), [])
        assert [(e.source, e.watch, e.instead, e.affects) for e in b.effects()] == [
            ("Rest in Peace", Zone.GRAVEYARD, Zone.EXILE, "any"),
            ("a return", Zone.GRAVEYARD, Zone.HAND, "card")]


def test_a_seat_handles_only_its_own_cards_and_the_host_judges_the_rest():
    room = _room()
    b = mirror.SentBoard(json.loads(json.dumps(room.view("Ben"))), "Ben", [])
    zones = b.zones()
    anns, bens = zones[("Ann", "hand")][0].id, zones[("Ben", "hand")][0].id
    assert b.move_refusal(anns, anyone=False) and b.drop_hint(anns, "graveyard", None, "Ben",
                                                              anyone=False) == "refuse"
    assert b.move_refusal(bens, anyone=False) is None
    # whether the rules let it go there is the host's to say: the zone is not lit for it
    assert b.drop_hint(bens, "battlefield", None, "Ben", anyone=False) == "unknown"
    assert b.move_refusal(anns, anyone=True) is None  # hot-seat play


def test_a_hostile_hosts_words_lose_controls_and_reordering_marks():
    """The host is another machine: a card's name, a note, a counter's kind, a sticker
    and a log line it sends are shown without control characters or the marks that turn
    a line around (a client's words lose them at the host; a host that is not Tabletop's
    own may send anything)."""
    room = _room()
    view = json.loads(json.dumps(room.view("Ann")))
    battlefield = next(z for z in view["zones"] if z["zone"] == "battlefield")
    card = next(c for c in battlefield["cards"] if not c["hidden"])
    card.update(name="\u202eLlanowar\x1b[2J Elves", note="tap\x07 me\u2066",
                counters=[["+1/+1\u202e", 1]], stickers=["\u200bHat"], pt=["2\u202e", "2"])
    view["log"].append({"tag": "done", "text": "Ann\u202e draws\r\n", "cites": ["400.7\x00"],
                        "notes": ["\u2067n"], "lead": "x\u202d", "sub": False})
    b = mirror.SentBoard(view, room.viewer("Ann"),
                         [mirror.log_entry(line) for line in view["log"]])
    face = b.face(card["id"])
    assert isinstance(face, views.Seen)
    assert (face.name, face.note, face.counters, face.stickers, face.pt) == (
        "Llanowar[2J Elves", "tap me", (("+1/+1", 1),), ("Hat",), ("2", "2"))
    last = b.journal[-1]
    assert (last.text, last.cites, last.notes, last.lead) == ("Ann draws  ", ("400.7",),
                                                              ("n",), "x")
