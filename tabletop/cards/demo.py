"""Built-in demo decks: a ready table with two players, shuffled, seven cards each."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tabletop.engine.editions import NEWEST

if TYPE_CHECKING:
    from tabletop.cards.decks import Deck
    from tabletop.engine import Table

DECKS = {
    "Forest Fire": [
        (8, "Forest"), (7, "Mountain"), (3, "Llanowar Elves"), (3, "Grizzly Bears"),
        (2, "Giant Spider"), (2, "Hill Giant"), (2, "Craw Wurm"), (1, "Shivan Dragon"),
        (2, "Lightning Bolt"), (2, "Shock"), (2, "Giant Growth"), (2, "Rancor"),
        (1, "Fireball"), (1, "Plow Under"), (1, "Naturalize"), (1, "Regrowth"),
    ],
    "Skies and Tides": [
        (8, "Plains"), (7, "Island"), (3, "Savannah Lions"), (3, "White Knight"),
        (2, "Serra Angel"), (2, "Air Elemental"), (2, "Phantom Monster"),
        (1, "Merfolk of the Pearl Trident"), (2, "Counterspell"), (2, "Swords to Plowshares"),
        (2, "Pacifism"), (1, "Wrath of God"), (1, "Control Magic"), (2, "Unsummon"),
        (1, "Disenchant"), (1, "Brainstorm"),
    ],
}


def deck(name: str, size: int | None = None) -> Deck:
    """A demo deck as a Deck; ``size`` repeats it up to that many cards (benchmarks)."""
    from tabletop.cards.decks import Deck
    d = Deck(name, f"demo:{name}")
    entries = list(DECKS[name])
    total, i = 0, 0
    target = size or sum(n for n, _ in entries)
    while total < target:
        n, card_name = entries[i % len(entries)]
        n = min(n, target - total)
        d.add("main", n, card_name)
        total += n
        i += 1
    return d


def new_game(edition: str = NEWEST, players: Sequence[str] = ("Alice", "Bob"),
             seed: int | None = 1, hand: int = 7, deck_size: int | None = None) -> Table:
    """A table with the demo decks (alternating for more players), shuffled, hands drawn."""
    from tabletop.cards import builtin
    names = list(DECKS)
    if deck_size is None:  # the window's first table: its cards straight from the lists
        from tabletop.cards.game import game_from_cards
        lists = []
        for i, p in enumerate(players):
            main = []
            for n, card_name in DECKS[names[i % len(names)]]:
                card = builtin.lookup(card_name)
                assert card is not None, card_name  # the demo decks use built-in cards
                main += [card] * n
            lists.append((p, {"main": main}))
        return game_from_cards(lists, edition, seed, hand=hand,
                               names={p: names[i % len(names)] for i, p in enumerate(players)})
    from tabletop.cards.game import new_game as start
    decks = [(p, deck(names[i % len(names)], deck_size)) for i, p in enumerate(players)]
    return start(decks, edition=edition, seed=seed, hand=hand, lookup=builtin.lookup)
