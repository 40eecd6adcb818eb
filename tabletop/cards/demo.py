"""Built-in demo decks: a ready table with two players, shuffled, seven cards each."""

from __future__ import annotations

from tabletop.cards import builtin
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


def deck(name: str):
    out = []
    for n, card_name in DECKS[name]:
        card = builtin.lookup(card_name)
        if card is None:  # pragma: no cover - the built-in data ships these
            raise LookupError(card_name)
        out += [card] * n
    return out


def new_game(edition: str = "cr-2016", players=("Alice", "Bob"), seed: int = 1,
             hand: int = 7) -> Table:
    """A table with the demo decks (alternating for more players), shuffled, hands drawn."""
    t = Table(players, edition, seed=seed)
    names = list(DECKS)
    for i, p in enumerate(players):
        for card in deck(names[i % len(names)]):
            t.add_card(card, p, "library")
        t.shuffle(p)
        t.draw(p, hand)
    t.history.clear()  # the starting table is where undo stops
    return t
