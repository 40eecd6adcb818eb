"""The engine's closed vocabularies (issue 15, item 2): event kinds, zone ids and op
kinds are enums, and the engine produces nothing outside them."""

from __future__ import annotations

import random

from tabletop.engine import Card, Table
from tabletop.engine.errors import IllegalActionError
from tabletop.engine.model import ZONE_IDS, EventKind, OpKind, Zone
from tabletop.scenario import load, run
from tests.helpers import SCENARIOS


def test_zone_ids_are_the_zone_enum_in_the_contracts_order():
    assert ZONE_IDS == ("library", "hand", "battlefield", "graveyard", "stack", "exile",
                        "command", "ante", "phased-out")
    assert Zone("phased-out") is Zone.PHASED_OUT and Zone.EXILE == "exile"


def _one_action(t: Table, cards: list, rng: random.Random) -> set:
    what = rng.randrange(7)
    try:
        if what == 0:
            res = t.move(rng.choice(cards), rng.choice(t.edition.zones),
                         position=rng.choice(["top", "bottom", 2]))
        elif what == 1:
            res = t.draw(rng.choice(t.players))
        elif what == 2:
            res = t.shuffle(rng.choice(t.players))
        elif what == 3:
            res = t.set_tapped(rng.choice(cards), rng.random() < 0.5)
        elif what == 4:
            res = t.roll("Alice")
        elif what == 5:
            res = t.next_turn()
        else:
            res = t.set_life("Bob", 7)
    except IllegalActionError:
        return set()
    return {e.kind for e in res.events}


def test_every_event_and_op_the_engine_makes_is_in_its_vocabulary():
    kinds, ops = set(), set()
    for path in sorted(SCENARIOS.rglob("*.toml")):
        r = run(load(path))
        for rep in r.reports:
            kinds.update(e.kind for e in rep.events)
        for action in r.table.history:
            ops.update(op[0] for op in action.ops)
    rng = random.Random(5)
    for edition in ("cr-1999", "cr-2004", "cr-2016"):
        t = Table(("Alice", "Bob"), edition, ante=True)
        cards = [t.add_card(Card(f"C{i}", ("Creature",)), rng.choice(t.players), "library").cid
                 for i in range(12)]
        for _ in range(300):
            kinds.update(_one_action(t, cards, rng))
        for action in t.history:
            ops.update(op[0] for op in action.ops)
    assert kinds and kinds <= {k.value for k in EventKind}, kinds - set(EventKind)
    assert ops and ops <= {o.value for o in OpKind}, ops - set(OpKind)
    assert {"moved", "rejected", "new_object", "ceased", "reordered"} <= kinds


def test_every_recorded_change_is_a_typed_op_that_applies_and_reverts_itself():
    from tabletop.engine import ops as opmod
    from tabletop.engine import saves
    classes = (opmod.MoveOp, opmod.SetOp, opmod.InsertOp, opmod.DeleteOp, opmod.OrderOp,
               opmod.CurrentOp, opmod.LineageOp, opmod.EffectOp, opmod.MetaOp, opmod.LifeOp)
    assert all(c._fields[0] == "kind" and hasattr(c, "apply") and hasattr(c, "revert")
               for c in classes)
    t = Table(("Alice", "Bob"), "cr-2016")
    cards = [t.add_card(Card(f"C{i}", ("Creature",)), "Alice", "library").cid for i in range(6)]
    t.move(cards[0], "battlefield")
    t.shuffle("Alice")
    t.set_life("Bob", 3)
    seen = {type(op) for a in t.history for op in a.ops}
    assert seen and all(issubclass(c, classes) for c in seen)
    back = saves.loads(saves.dumps(t))  # decoded from a save: typed too
    assert {type(op) for a in back.history for op in a.ops} == seen
    while back.undo():
        pass
    assert back.life["Bob"] == 20 and not back.zones[(None, "battlefield")]
