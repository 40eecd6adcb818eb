"""One intent per table action (issue 31): the registry in engine/intents.py is the one
vocabulary, from the controller's gesture to the wire and the host's room."""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.engine import intents
from tabletop.engine.model import Zone
from tabletop.net import protocol

WIRE_TYPES = {int: int, str: str, bool: bool, float: (int, float), intents.Ref: int, Zone: str}


def _strategy(hint: Any) -> st.SearchStrategy[Any]:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return st.one_of(*(_strategy(a) for a in typing.get_args(hint)))
    if hint is type(None):
        return st.none()
    if hint is bool:
        return st.booleans()
    if hint in (int, intents.Ref):
        return st.integers(1, 1000)
    if hint is float:
        return st.floats(0, 20000)
    if hint is str:
        return st.text("abcXYZ/+1", min_size=1, max_size=8)  # as a check leaves it
    if hint is Zone:
        return st.sampled_from(list(Zone))
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return st.lists(_strategy(args[0]), max_size=3, unique=True).map(tuple)
        return st.tuples(*(_strategy(a) for a in args))
    raise AssertionError(hint)


def _intents() -> st.SearchStrategy[intents.Intent]:
    def build(cls: type[intents.Intent]) -> st.SearchStrategy[intents.Intent]:
        hints = typing.get_type_hints(cls)
        fields = {f.name: _strategy(hints[f.name]) for f in dataclasses.fields(cls)
                  if f.name not in cls.LOCAL}
        return st.fixed_dictionaries(fields).map(lambda d: cls(**d))
    return st.sampled_from(list(intents.INTENTS.values())).flatmap(build)


def test_one_name_each():
    names = [c.NAME for c in intents.INTENTS.values()]
    assert len(names) == len(set(names)) == len(intents.INTENTS)
    assert all(name == cls.NAME for name, cls in intents.INTENTS.items())
    assert set(protocol.ACTIONS) == set(intents.INTENTS)


def test_every_field_of_every_intent_is_a_field_the_protocol_reads():
    act = protocol.CLIENT_MESSAGES["act"]
    for cls in intents.INTENTS.values():
        for f in dataclasses.fields(cls):
            if f.name in cls.LOCAL:
                continue
            key = cls.WIRE.get(f.name, f.name)
            assert key in act, (cls.NAME, key)


@given(_intents())
def test_an_intent_read_back_from_the_wire_is_the_same_intent(intent):
    fields = intent.encode()
    try:
        again = intents.decode(fields)
    except intents.IntentError:
        with pytest.raises(intents.IntentError):
            intent.check()  # only a value out of range is refused
        return
    assert again == intent
    assert fields["action"] == intent.NAME
    # and the protocol's own check lets the frame through
    protocol.parse(protocol.json.dumps({"v": 1, "type": "act", **fields}))


@given(_intents(), _intents())
def test_intents_are_values(a, b):
    """Two intents are equal when they are the same action with the same fields (and
    then hash alike), whichever they are; none can be changed once made; each reads as
    its class and fields."""
    same = type(a) is type(b) and all(getattr(a, f.name) == getattr(b, f.name)
                                      for f in dataclasses.fields(a))
    assert (a == b) is same and (a != b) is not same
    assert a == type(a)(**{f.name: getattr(a, f.name) for f in dataclasses.fields(a)})
    assert hash(a) == hash(type(a)(**{f.name: getattr(a, f.name)
                                      for f in dataclasses.fields(a)}))
    assert a != (a.NAME,) and a != dataclasses.astuple(a)
    name = next(iter(f.name for f in dataclasses.fields(a)), None)
    if name is not None:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(a, name, None)
    assert repr(a) == f"{type(a).__name__}(" + ", ".join(
        f"{f.name}={getattr(a, f.name)!r}" for f in dataclasses.fields(a)) + ")"


@pytest.mark.parametrize("fields, says", [
    ({"action": "tap", "id": True}, "field 'id' has the wrong type"),
    ({"action": "draw", "count": 0}, "1 to 100"),
    ({"action": "move", "id": 3}, "field 'zone' is needed"),
    ({"action": "move", "id": 3, "zone": "attic"}, "field 'zone' names no zone"),
    ({"action": "move_all", "from": "Hand", "zone": "exile"}, "field 'from' names no zone"),
    ({"action": "move_many", "ids": [3, 3], "zone": "hand"}, "each card once"),
    ({"action": "place", "ids": [1], "at": [[1e9, 0]]}, "place"),
    ({"action": "token", "name": "Bear", "power": "2"}, "a power and a toughness"),
    ({"action": "arrow", "id": 1, "to": [1]}, "field 'to' has the wrong type"),
    ({"action": "fly"}, "unknown action"),
])
def test_a_wrong_intent_is_refused_with_its_field_named(fields, says):
    with pytest.raises(intents.IntentError, match=says) as e:
        intents.decode(fields)
    assert e.value.code == "invalid"


def test_a_zone_read_from_the_wire_is_the_zone_vocabulary():
    move = intents.decode({"action": "move", "id": 3, "zone": "graveyard"})
    assert isinstance(move, intents.Move) and move.zone is Zone.GRAVEYARD


def test_life_is_a_change_everywhere():
    assert "delta" in intents.Life().encode() and "life" not in intents.Life().encode()


def _a_table_for_every_intent():
    from tabletop.cards import demo
    from tabletop.engine import Card
    t = demo.new_game(edition="cr-2025", players=("Alice", "Bob"))
    hand = [o.cid for o in t.objects_in(("Alice", "hand"))]
    bears = t.add_card(Card("Grizzly Bears", ("Creature",)), "Alice", "battlefield").cid
    giant = t.add_card(Card("Hill Giant", ("Creature",)), "Alice", "battlefield").cid
    aura = t.add_card(Card("Rancor", ("Enchantment",), ("Aura",)), "Alice", "battlefield").cid
    commander = t.add_card(Card("Thalia", ("Creature",)), "Alice", "battlefield",
                           commander=True).cid
    spell = t.add_card(Card("Gemrazer", ("Creature",)), "Alice", "stack").cid
    t.add_to_sideboard("Alice", Card("Naturalize", ("Instant",)))
    return t, hand, bears, giant, aura, commander, spell


def test_one_registry_names_each_action_in_every_layer():
    """Each intent's names in the engine's history and in scenario steps are declared
    in the registry, and are what the engine records and what the recorder writes."""
    from tabletop.engine import Card
    from tabletop.scenario import steps
    from tabletop.ui.controller import TableController
    I, R = intents, intents.Ref
    t, hand, bears, giant, aura, commander, spell = _a_table_for_every_intent()
    c = TableController(t)
    c.viewer, c.anyone = "Alice", True
    made = {
        "move": I.Move(R(hand[0]), "battlefield"),
        "move_many": I.MoveMany((R(hand[1]), R(hand[2])), "graveyard"),
        "place": I.PlaceCards((R(bears),), ((10.0, 20.0),)),
        "tap": I.Tap(R(bears), True), "counters": I.Counters(R(bears), "+1/+1", 1),
        "reveal": I.Reveal(R(hand[3]), True), "note": I.Note(R(bears), "attacking"),
        "pt": I.PT(R(bears), "3/3"), "attach": I.Attach(R(aura), R(giant)),
        "sticker": I.Sticker(R(bears), "name: Dark"),
        "merge": I.Merge(R(spell), R(giant), True),
        "ability": I.Ability(R(bears), "draw a card"),
        "arrow": I.Arrow(R(bears), "Bob"), "clear_arrows": I.ClearArrows(),
        "draw": I.Draw(5, "Alice"), "shuffle": I.Shuffle("Alice"), "roll": I.Roll(6, "Alice"),
        "life": I.Life(-2, "Alice"), "player_counter": I.PlayerCounter("poison", 1, "Alice"),
        "token": I.Token.of(Card("Goblin", ("Creature",)), "Alice"),
        "mill": I.Mill(1, "Alice"), "show": I.Show((R(hand[4]),), None, "Alice"),
        "bring_in": I.BringIn("Naturalize", "hand", "Alice"),
        "look": I.Look("Alice", 2), "phase": I.Phase("combat", False),
        "move_all": I.MoveAll("graveyard", "exile", False, "Alice"),
        "cleanup": I.Cleanup((), "Alice"), "face": I.Face(R(giant), True),
        "mulligan": I.Mulligan("Alice"), "next_turn": I.NextTurn(True),
        "add_card": I.AddCard("Leyline of the Void", "battlefield", "Alice",
                              ("Enchantment",)),
        "add_effect": I.AddEffect("leyline", "graveyard", "exile", "Leyline of the Void",
                                  "any", "opponents-of:Alice"),
        "end_effect": I.EndEffect("leyline"),
        "modify": I.Modify(R(giant), "gets +2/+2", "spell"),
        "remove_card": I.RemoveCard(R(giant)),
    }
    for name, intent in made.items():
        before = len(t.history)
        res = c.perform(intent)
        assert not res.rejected and len(t.history) > before, name
        assert t.history[-1].name in type(intent).history_names(), name
    t.move(commander, "graveyard")
    c.perform(I.CommanderReturns(R(commander)))
    assert t.history[-1].name in I.CommanderReturns.history_names()
    assert c.undo() and t.history[-1].name != "commander_returns"
    local = set(made) | {"commander_returns", "undo"}
    answers = {n for n, cls in I.INTENTS.items() if cls.SEAT == "answer"}
    assert local | answers == set(I.INTENTS)  # every intent was carried out above
    recorded = steps.by_engine_action()
    for name, cls in I.INTENTS.items():
        for step in cls.step_names():
            assert step in steps.REGISTRY, (name, step)
        for history, step in zip(cls.history_names(), cls.step_names(), strict=False):
            assert recorded[history].name == step, (name, history, step)


def test_a_save_written_before_the_intents_reads_its_actions_by_their_names_now():
    import json

    from tabletop.engine import Card, Table, saves
    t = Table(("Ann", "Ben"))
    cid = t.add_card(Card("Grizzly Bears", ("Creature",)), "Ann", "battlefield").cid
    t.set_pt(cid, "3/3")
    t.set_player_counter("Ann", "poison", 2)
    d = saves.to_json(t)
    old = {"pt": "power_toughness", "player_counter": "player_counters"}
    d["history"] = [json.dumps([old.get(a[0], a[0]), *a[1:]]) for a in map(json.loads,
                                                                        d["history"])]
    again = saves.from_json(json.loads(json.dumps(d)), "old.json")
    assert [a.name for a in again.history][-2:] == ["pt", "player_counter"]
    again.undo()
    assert again.player_counters.get("Ann", {}) == {}
