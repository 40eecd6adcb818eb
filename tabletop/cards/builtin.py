"""The built-in card facts shipped in ``resources/cards/builtin.json``
(names, costs, types, power/toughness/loyalty, colours, layout, faces; no rules text)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from tabletop import resources
from tabletop.engine.model import Card


@cache
def _data() -> dict[str, dict[str, Any]]:
    """The cards by name (any case)."""
    with resources.path("cards", "builtin.json").open(encoding="utf-8") as f:
        data = json.load(f)
    cards: list[dict[str, Any]] = data["cards"]
    return {d["name"].casefold(): d for d in cards}


@cache
def _by_face() -> dict[str, dict[str, Any]]:
    """Made when a name is not found as written (folding every name takes a few ms,
    and the demo decks at start-up write their names exactly)."""
    from tabletop.cards.names import fold
    by_face: dict[str, dict[str, Any]] = {}
    for d in _data().values():
        by_face.setdefault(fold(d["name"]), d)
        for face in d.get("faces", ()):
            by_face.setdefault(face["name"].casefold(), d)
            by_face.setdefault(fold(face["name"]), d)
    return by_face


def info(name: str) -> dict[str, Any] | None:
    """A card's facts by name or face name, any case, accents or none."""
    key = name.casefold()
    found = _data().get(key)
    if found is not None:
        return found
    from tabletop.cards.names import fold
    by_face = _by_face()
    return by_face.get(key) or by_face.get(fold(name))


def lookup(name: str) -> Card | None:
    """The card of that name (case-insensitive, or a face's name), or None."""
    d = info(name)
    return _card(d["name"]) if d is not None else None


@cache
def _card(name: str) -> Card:
    return Card.from_json(_data()[name.casefold()])


def all_cards() -> list[dict[str, Any]]:
    """The built-in cards' facts (as the card database keeps a card's)."""
    return list(_data().values())


def names() -> list[str]:
    """The built-in cards' names."""
    return [d.get("name", n) for n, d in _data().items()]


def count() -> int:
    return len(_data())


def tokens() -> list[Card]:
    return [Card.from_json(d) for d in _data().values() if d.get("layout") == "token"]
