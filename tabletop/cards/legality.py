"""Whether a deck is legal in a format, as the rules and the card data say.

The rules checked, in our own words (their numbers are the Comprehensive Rules', from
outside the zone rules Tabletop carries, and said so):
- 100.2a: a constructed deck has at least 60 cards, and no more than four of a card
  with one English name, except basic lands and a card whose own text lets a deck have
  any number of it.
- 100.4a: a constructed sideboard has at most 15 cards.
- 903.5a: a Commander deck is exactly 100 cards, the commander included.
- 903.5b: besides basic lands (and a card whose text allows any number), no two cards
  of a Commander deck have the same English name.
- 903.5c: every card's colour identity is within the commander's.
- The card data's legalities: a card banned in the format, not legal in it, or
  restricted (at most one) there."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from tabletop.cards.decks import Deck

OUTSIDE = "a number of the full Comprehensive Rules, outside the zone rules Tabletop carries"
ANY_NUMBER = "a deck can have any number of cards named"
COMMANDER_FORMATS = frozenset({"commander", "edh", "brawl", "oathbreaker", "duel"})


@dataclass(frozen=True)
class Problem:
    """One reason the deck is not legal: the card it is about (None: the deck), the rule
    (or the card data) that says so, and the words."""

    card: str | None
    rule: str
    text: str

    def line(self) -> str:
        where = f"{self.card}: " if self.card else ""
        rule = f" ({self.rule})" if self.rule else ""
        return f"{where}{self.text}{rule}"


def _facts(info: dict[str, Any] | None) -> dict[str, Any]:
    info = info or {}
    first = (info.get("faces") or [info])[0]
    text = " ".join(str(f.get("text") or "") for f in (info.get("faces") or [info]))
    return {"basic": "Basic" in (first.get("supertypes") or []) and "Land" in (
                first.get("types") or []),
            "any_number": ANY_NUMBER in text.lower(),
            "identity": set(info.get("identity") or info.get("colors") or []),
            "legal": info.get("legal"), "known": bool(info)}


def check(deck: Deck, fmt: str, info: Any) -> list[Problem]:
    """The problems that keep ``deck`` from being legal in ``fmt`` (none: legal).
    ``info(name)`` gives a card's facts from the card database (None: unknown)."""
    fmt = fmt.strip().lower()
    commander = fmt in COMMANDER_FORMATS
    main = Counter[str]()
    for e in deck.sections.get("main", []):
        main[e.name] += e.count
    side = Counter[str]()
    for e in deck.sections.get("sideboard", []):
        side[e.name] += e.count
    leaders = [e.name for e in deck.sections.get("commander", []) for _ in range(e.count)]
    facts = {n: _facts(info(n)) for n in set(main) | set(side) | set(leaders)}
    out: list[Problem] = []
    size = sum(main.values()) + len(leaders)
    if commander:
        if size != 100:
            out.append(Problem(None, f"903.5a, {OUTSIDE}",
                               f"the deck has {size} card{'s' * (size != 1)} with its "
                               f"commander; a Commander deck has exactly 100"))
        if not leaders:
            out.append(Problem(None, f"903.3, {OUTSIDE}", "the deck names no commander"))
    else:
        if size < 60:
            out.append(Problem(None, f"100.2a, {OUTSIDE}",
                               f"the main deck has {size} card{'s' * (size != 1)}; a "
                               f"constructed deck has at least 60"))
        n_side = sum(side.values())
        if n_side > 15:
            out.append(Problem(None, f"100.4a, {OUTSIDE}",
                               f"the sideboard has {n_side} cards; at most 15"))
    together = main + side if not commander else main + Counter(leaders)
    most = 1 if commander else 4
    rule = "903.5b" if commander else "100.2a"
    for name, n in sorted(together.items()):
        f = facts[name]
        if n > most and not f["basic"] and not f["any_number"]:
            out.append(Problem(name, f"{rule}, {OUTSIDE}",
                               f"{n} copies; at most {most}" + (
                                   " (a Commander deck is singleton)" if commander else "")))
    for name in sorted(together):
        f = facts[name]
        legal = f["legal"]
        if not f["known"]:
            out.append(Problem(name, "", "not in the card database, so its legality cannot "
                                         "be checked: import card data"))
            continue
        if not isinstance(legal, dict):
            if f["basic"]:
                continue  # basic lands are legal everywhere
            out.append(Problem(name, "", "no legality in the card data: import MTGJSON or "
                                         "Scryfall card data"))
            continue
        status = legal.get(fmt)
        if status == "banned":
            out.append(Problem(name, "the card data", f"banned in {fmt}"))
        elif status == "restricted" and together[name] > 1:
            out.append(Problem(name, "the card data",
                               f"restricted in {fmt}: at most 1, the deck has "
                               f"{together[name]}"))
        elif status is None:
            out.append(Problem(name, "the card data", f"not legal in {fmt}"))
    if commander and leaders:
        allowed: set[str] = set()
        for leader in leaders:
            allowed |= facts[leader]["identity"]
        for name in sorted(set(main)):
            outside = facts[name]["identity"] - allowed
            if outside:
                out.append(Problem(name, f"903.5c, {OUTSIDE}",
                                   f"its colour identity ({''.join(sorted(outside))}) is "
                                   f"outside the commander's "
                                   f"({''.join(sorted(allowed)) or 'colourless'})"))
    return out
