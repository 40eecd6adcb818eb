"""The built-in card facts shipped in ``resources/cards/builtin.json``
(names, costs, types, power/toughness/loyalty, colours, layout, faces; no rules text)."""

from __future__ import annotations

import json
from functools import cache

from tabletop import resources
from tabletop.cards.names import fold
from tabletop.engine.model import Card


@cache
def _data() -> tuple[dict, dict]:
    with resources.path("cards", "builtin.json").open(encoding="utf-8") as f:
        data = json.load(f)
    by_name, by_face = {}, {}
    for d in data["cards"]:
        by_name[d["name"].casefold()] = d
        by_face.setdefault(fold(d["name"]), d)
        for face in d.get("faces", ()):
            by_face.setdefault(face["name"].casefold(), d)
            by_face.setdefault(fold(face["name"]), d)
    return by_name, by_face


def info(name: str) -> dict | None:
    """A card's facts by name or face name, any case, accents or none."""
    by_name, by_face = _data()
    key = name.casefold()
    return by_name.get(key) or by_face.get(key) or by_face.get(fold(name))


def lookup(name: str) -> Card | None:
    """The card of that name (case-insensitive, or a face's name), or None."""
    d = info(name)
    return _card(d["name"]) if d is not None else None


@cache
def _card(name: str) -> Card:
    return Card.from_json(_data()[0][name.casefold()])


def count() -> int:
    return len(_data()[0])


def tokens() -> list[Card]:
    return [Card.from_json(d) for d in _data()[0].values() if d.get("layout") == "token"]
