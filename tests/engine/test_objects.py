"""A new object gets every field it is given, each in its own place (the table makes
objects with Obj's fields in their order, for speed)."""

from __future__ import annotations

import inspect

from tabletop.engine import Card, Table
from tabletop.engine.model import Obj


def test_a_new_object_holds_each_field_it_was_given():
    t = Table(("Ann", "Ben"))
    t._ops = []  # as inside an action
    fields = [p for p in inspect.signature(Obj).parameters if p not in ("id", "cid", "card",
                                                                         "owner", "zone")]
    given = {name: f"value of {name}" for name in fields}
    card = Card("Bear", ("Creature",))
    obj = t._new_obj(7, card, "Ann", **given)  # type: ignore[arg-type]
    assert (obj.cid, obj.card, obj.owner, obj.zone) == (7, card, "Ann", None)
    for name in fields:
        assert getattr(obj, name) == given[name], name
