"""The client's copy of the host's table (net/mirror.py): drawn through the engine's
views for the seat, it shows exactly what the host sent that seat, and no more."""

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
    """What the window draws of a face: the facts, not the ids (the copy's are its own)."""
    d = {"hidden": isinstance(f, views.Hidden), "tapped": f.tapped, "face_down": f.face_down,
         "counters": tuple(f.counters), "owner": f.owner, "controller": f.controller,
         "position": f.position, "note": f.note, "host": f.host is not None}
    if isinstance(f, views.Seen):
        card = f.card
        d.update(name=f.name, pt=f.pt, card=card.to_json() if card is not None else None)
    return d


@pytest.mark.parametrize("seat", ["Ann", "Ben", "Cid", "spectator"])
def test_the_copy_shows_the_seat_what_the_host_showed_it(seat):
    room = _room()
    view = json.loads(json.dumps(room.view(seat)))  # as it crosses the wire
    m = mirror.build(view)
    viewer = seat
    host_faces = views.view(room.table, room.viewer(seat), libraries=False)
    copy_faces = views.view(m.table, viewer, libraries=False)
    for key, faces in host_faces.items():
        assert [_public(f) for f in copy_faces[key]] == [_public(f) for f in faces], key
    assert m.table.life == room.table.life and m.table.last_roll == room.table.last_roll
    assert [e.text for e in m.table.journal] == [line["text"] for line in view["log"]]
    # every card of the copy has the id the host sent this seat, which its intentions name
    assert all(cid == sid for cid, sid in m.server_ids.items())
    assert sorted(m.server_ids.values()) == sorted(
        room.id_for(seat, oid) for ids in room.table.zones.values() for oid in ids)


def test_a_card_the_seat_may_not_see_is_nameless_in_the_copy():
    room = _room()
    m = mirror.build(json.loads(json.dumps(room.view("Ben"))))
    ann_hand = m.table.objects_in(("Ann", "hand"))
    assert ann_hand and all(o.card == mirror.UNSEEN for o in ann_hand)
    library = m.table.objects_in(("Ben", "library"))
    assert library and all(o.card == mirror.UNSEEN for o in library)
    face_down = [o for o in m.table.objects_in((None, "battlefield"))
                 if o.face_down and o.controller == "Cid"]
    assert face_down and face_down[0].card == mirror.UNSEEN  # Cid's; Ben may not see it


def test_an_update_merged_into_the_view_gives_the_copy_of_the_new_table():
    room = _room()
    view = json.loads(json.dumps(room.view("Ann")))
    card = room.table.objects_in(("Ann", "hand"))[0]
    zones = room.act("Ann", {"action": "move", "id": card.id, "zone": "graveyard",
                             "player": "Ann", "position": "top"})
    update = json.loads(json.dumps(room.update("Ann", zones, len(room.table.journal) - 1)))
    mirror.merge(view, update)
    fresh = json.loads(json.dumps(room.view("Ann")))
    assert sorted(map(json.dumps, view["zones"])) == sorted(map(json.dumps, fresh["zones"]))
    m = mirror.build(view)
    assert next(o.card.name for o in m.table.objects_in(("Ann", "graveyard"))) == card.card.name
