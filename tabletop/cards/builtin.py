"""The built-in card facts shipped in ``resources/cards/builtin.json``
(names, costs, types, power/toughness, colours; no rules text)."""

from __future__ import annotations

import json
from functools import cache

from tabletop import resources
from tabletop.engine.model import Card


@cache
def _index() -> dict[str, Card]:
    with resources.path("cards", "builtin.json").open(encoding="utf-8") as f:
        data = json.load(f)
    out = {}
    for d in data["cards"]:
        out[d["name"].casefold()] = Card.from_json(d)
    return out


def lookup(name: str) -> Card | None:
    """The card of that name (case-insensitive), or None."""
    return _index().get(name.casefold())


def tokens() -> list[Card]:
    with resources.path("cards", "builtin.json").open(encoding="utf-8") as f:
        data = json.load(f)
    return [Card.from_json(d) for d in data["cards"] if d.get("token")]
