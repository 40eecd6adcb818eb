"""A deck's statistics, as a deck editor shows them: mana curve, colours, card types,
land count, average mana value; the exact odds of drawing cards of a group
(hypergeometric); a sample opening hand with London mulligans (103.5: draw seven,
then put one card on the bottom for each mulligan taken)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from typing import Any

from tabletop.cards.search import mana_value

TYPE_ORDER = ("Creature", "Planeswalker", "Instant", "Sorcery", "Artifact", "Enchantment",
              "Battle", "Land")
COLOR_ORDER = ("W", "U", "B", "R", "G")
CURVE_TOP = 7  # 7 or more share the last column


@dataclass
class Stats:
    cards: int = 0
    lands: int = 0
    curve: dict[int, int] = field(default_factory=dict)  # mana value (7: 7+) -> nonland cards
    colors: dict[str, int] = field(default_factory=dict)  # colour -> nonland cards of it
    colorless: int = 0
    types: dict[str, int] = field(default_factory=dict)  # card type -> cards
    average_mv: float = 0.0  # of the nonland cards the card database knows
    unknown: int = 0  # cards the card database does not know: in no chart


def _facts(info: dict[str, Any] | None) -> tuple[list[str], float, list[str]]:
    info = info or {}
    first = (info.get("faces") or [info])[0]
    types = [str(t) for t in (first.get("types") or info.get("types") or [])]
    mv = info.get("mv")
    if not isinstance(mv, int | float) or isinstance(mv, bool):
        mv = mana_value(str(info.get("mana_cost") or first.get("mana_cost") or ""))
    colors = [str(c) for c in (info.get("colors") or first.get("colors") or [])]
    return types, float(mv), colors


def deck_stats(entries: Iterable[tuple[str, int]],
               info: Callable[[str], dict[str, Any] | None]) -> Stats:
    """``entries``: (card name, count) of the cards played (main deck and commander)."""
    s = Stats(curve={i: 0 for i in range(CURVE_TOP + 1)},
              colors={c: 0 for c in COLOR_ORDER}, types={t: 0 for t in TYPE_ORDER})
    total_mv = 0.0
    for name, n in entries:
        known = info(name)
        s.cards += n
        if not known:
            s.unknown += n
            continue
        types, mv, colors = _facts(known)
        for t in types:
            s.types[t] = s.types.get(t, 0) + n
        if "Land" in types:
            s.lands += n
            continue
        s.curve[min(int(mv), CURVE_TOP)] += n
        total_mv += mv * n
        for c in colors:
            if c in s.colors:
                s.colors[c] += n
        if not colors:
            s.colorless += n
    nonland = s.cards - s.lands - s.unknown
    s.average_mv = total_mv / nonland if nonland else 0.0
    return s


def at_least(k: int, successes: int, population: int, drawn: int) -> Fraction:
    """The exact probability of at least ``k`` of the ``successes`` among ``drawn`` cards
    taken from ``population`` (hypergeometric)."""
    if k <= 0:
        return Fraction(1)
    drawn = min(drawn, population)
    total = comb(population, drawn)
    if total == 0:
        return Fraction(0)
    hits = sum(comb(successes, i) * comb(population - successes, drawn - i)
               for i in range(k, min(successes, drawn) + 1))
    return Fraction(hits, total)


def cards_seen(turn: int, on_the_play: bool, hand: int = 7) -> int:
    """Cards seen by ``turn`` (0: the opening hand): the player on the play skips the
    first turn's draw (103.8a of the full rules, a number from outside the zone rules)."""
    if turn <= 0:
        return hand
    return hand + turn - (1 if on_the_play else 0)


@dataclass
class Odds:
    opening: Fraction
    play: Fraction  # by the turn asked, on the play
    draw: Fraction  # on the draw


def odds(k: int, group: int, deck: int, turn: int) -> Odds:
    return Odds(at_least(k, group, deck, cards_seen(0, True)),
                at_least(k, group, deck, cards_seen(turn, True)),
                at_least(k, group, deck, cards_seen(turn, False)))


class SampleHand:
    """A sample opening hand from a deck's cards, with London mulligans: each mulligan
    shuffles the hand back and draws seven again; then as many cards as mulligans go to
    the bottom (the player chooses which)."""

    def __init__(self, cards: list[str], seed: int | None = None) -> None:
        self.cards = list(cards)
        self.rng = random.Random(seed)
        self.mulligans = 0
        self.hand: list[str] = []
        self.deal()

    def deal(self) -> None:
        library = list(self.cards)
        self.rng.shuffle(library)
        self.hand, self.library = library[:7], library[7:]

    def mulligan(self) -> None:
        self.mulligans += 1
        self.deal()

    @property
    def to_bottom(self) -> int:
        return min(self.mulligans, len(self.hand))

    def keep(self, bottom: Iterable[int]) -> list[str]:
        """Keep the hand, putting the cards at these places on the bottom (as many as
        mulligans taken); the hand kept."""
        chosen = sorted(set(bottom))
        if len(chosen) != self.to_bottom or any(not 0 <= i < len(self.hand) for i in chosen):
            raise ValueError(f"put exactly {self.to_bottom} "
                             f"card{'s' * (self.to_bottom != 1)} on the bottom")
        kept = [c for i, c in enumerate(self.hand) if i not in chosen]
        self.library += [self.hand[i] for i in chosen]
        self.hand = kept
        return kept


def counted(entries: Iterable[tuple[str, int]]) -> list[str]:
    """The names of the cards, one per copy."""
    out: list[str] = []
    for name, n in entries:
        out += [name] * n
    return out


def groups(entries: Iterable[tuple[str, int]]) -> Counter[str]:
    c: Counter[str] = Counter()
    for name, n in entries:
        c[name] += n
    return c
