"""Issue 34: a judge sets a table up through the engine: a named card added (attached,
under another's control), a card taken off, replacement effects put in force and taken
out. Each is one action the history records, undo takes back and a save keeps; the
recorder writes the ones made before the first step as the file's setup, later ones as
steps; a network seat may do none of them."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from tabletop.engine import Card, Table, saves
from tabletop.engine.errors import IllegalActionError
from tabletop.engine.model import Effect, Zone

ANGEL = Card("Serra Angel", ("Creature",), ("Angel",))
LEYLINE = Effect("leyline", Zone.GRAVEYARD, Zone.EXILE, "Leyline of the Void",
                 affects="opponents-of:Alice")


def _table() -> Table:
    return Table(("Alice", "Bob"), "cr-2016", seed=1)


def test_an_effect_put_in_force_replaces_until_it_is_taken_out_and_undo_brings_it_back():
    t = _table()
    t.add_effect(LEYLINE)
    angel = t.add_card(ANGEL, "Bob", Zone.BATTLEFIELD, controller="Alice").cid
    t.move(angel, Zone.GRAVEYARD)
    # 400.6 / Leyline: a card an opponent of Alice owns goes to exile instead
    assert t.live(angel).zone == (None, Zone.EXILE)
    t.end_effect("leyline")
    assert t.effects == []
    again = t.add_card(ANGEL, "Bob", Zone.BATTLEFIELD, controller="Alice").cid
    t.move(again, Zone.GRAVEYARD)
    assert t.live(again).zone == ("Bob", Zone.GRAVEYARD)  # its owner's graveyard (400.3)
    for _ in range(3):
        t.undo()
    assert t.effects == [LEYLINE]
    with pytest.raises(IllegalActionError):
        t.add_effect(LEYLINE)  # one label, one effect
    with pytest.raises(IllegalActionError):
        t.end_effect("rest in peace")


def test_a_card_taken_off_the_table_unattaches_what_it_held_and_a_save_keeps_it_all():
    t = _table()
    bear = t.add_card(Card("Grizzly Bears", ("Creature",)), "Alice", Zone.BATTLEFIELD).cid
    aura = t.add_card(Card("Rancor", ("Enchantment",), ("Aura",)), "Alice",
                      Zone.BATTLEFIELD, attached_to=bear)
    assert aura.attached_to == t.live(bear).id
    t.add_effect(LEYLINE)
    t.end_effect("leyline")
    t.remove_card(bear)
    assert t.live(bear) is None and t.live(aura.cid).attached_to is None
    assert all(t.obj_of(bear).id not in ids for ids in t.zones.values())
    back = saves.from_json(json.loads(json.dumps(saves.to_json(t))), "game.json")
    back.undo()  # the card comes back, with the aura on it
    assert back.live(bear) is not None and back.live(aura.cid).attached_to == back.live(bear).id
    back.undo()
    assert back.effects == [LEYLINE]  # the effect taken out comes back in force
    with pytest.raises(IllegalActionError):
        t.add_card(Card("Bonesplitter", ("Artifact",), ("Equipment",)), "Alice", Zone.HAND,
                   attached_to=aura.cid)  # only on the battlefield


def test_setting_up_before_the_first_step_is_the_files_setup_and_after_it_a_step(tmp_path):
    from tabletop.scenario import Session, loader
    from tabletop.scenario.recorder import Recorder
    t = _table()
    rec = Recorder(t, "Leyline of the Void")
    t.add_effect(LEYLINE)
    angel = t.add_card(ANGEL, "Bob", Zone.BATTLEFIELD, controller="Alice").cid
    extra = t.add_card(Card("Forest", ("Land",), supertypes=("Basic",)), "Alice",
                       Zone.LIBRARY).cid
    t.remove_card(extra)  # taken off again before the first step: not in the file
    t.move(angel, Zone.GRAVEYARD)
    t.end_effect("leyline")
    t.add_card(ANGEL, "Bob", Zone.BATTLEFIELD, controller="Alice", tapped=True)
    text = rec.text()
    assert rec.problems == []
    data = tomllib.loads(text)
    assert list(data["cards"]) == ["serra_angel"]
    assert data["cards"]["serra_angel"]["controller"] == "Alice"
    assert [e["label"] for e in data["effects"]] == ["leyline"]
    kinds = [next(k for k in s if k not in ("expect", "say")) for s in data["steps"]]
    assert kinds == ["move", "end_effect", "add_card"]
    assert data["steps"][2]["tapped"] is True
    path = tmp_path / "leyline.toml"
    path.write_text(text, encoding="utf-8")
    session = Session(loader.load(Path(path)))
    while session.advance() is not None:
        pass
    assert session.run.passed and len(session.run.reports) == 3
    assert session.run.table.live(session.run.labels["serra_angel"]).zone == (None, Zone.EXILE)


def test_a_network_seat_may_not_set_the_table_up():
    from tabletop.net.protocol import Code
    from tabletop.net.rooms import Room, RoomError
    t = _table()
    bear = t.add_card(Card("Grizzly Bears", ("Creature",)), "Alice", Zone.BATTLEFIELD)
    room = Room("r", "CODE", t)
    asks = [{"action": "add_card", "name": "Black Lotus", "zone": "hand", "owner": "Alice",
             "types": ["Artifact"]},
            {"action": "remove_card", "id": bear.id},
            {"action": "add_effect", "label": "rip", "watch": "graveyard", "instead": "exile"},
            {"action": "modify", "id": bear.id, "effect": "gets +5/+5"}]
    for seat in ("Alice", "Bob", "judge"):
        for ask in asks:
            with pytest.raises(RoomError) as e:
                room.act(seat, ask)
            assert e.value.code == Code.NOT_YOUR_SEAT, (seat, ask)
    assert t.effects == [] and len(t.zones[(None, Zone.BATTLEFIELD)]) == 1
    assert t.live(bear.cid).modifications == ()


def test_a_card_added_attached_after_the_first_step_is_written_attached():
    from tabletop.scenario.recorder import Recorder
    t = _table()
    rec = Recorder(t, "Rancor")
    bear = t.add_card(Card("Grizzly Bears", ("Creature",)), "Alice", Zone.BATTLEFIELD).cid
    t.set_tapped(bear, True)  # the first step
    t.add_card(Card("Rancor", ("Enchantment",), ("Aura",)), "Alice", Zone.BATTLEFIELD,
               attached_to=bear)
    data = tomllib.loads(rec.text())
    assert rec.problems == []
    step = data["steps"][-1]
    assert step["add_card"] == "rancor" and step["attached_to"] == "grizzly_bears"
