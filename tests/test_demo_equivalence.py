"""The window's first table is dealt straight from the demo lists (no deck parser at
start-up); it must be the very game the deck path deals."""

import json

import pytest

from tabletop.cards import builtin, demo
from tabletop.cards.game import new_game
from tabletop.engine import saves


@pytest.mark.parametrize("players,seed", [(("Alice", "Bob"), 1), (("A", "B", "C"), 3),
                                          (("A", "B", "C", "D"), 7)])
def test_the_demo_table_is_the_game_the_deck_path_deals(players, seed):
    names = list(demo.DECKS)
    decks = [(p, demo.deck(names[i % len(names)])) for i, p in enumerate(players)]
    direct = demo.new_game(players=players, seed=seed)
    dealt = new_game(decks, seed=seed, lookup=builtin.lookup)
    assert json.dumps(saves.to_json(direct), sort_keys=True) == \
        json.dumps(saves.to_json(dealt), sort_keys=True)
