"""Starting a game from deck lists: libraries shuffled, hands drawn, commanders in
the command zone, sideboards outside the game (400.10a), ante if played for."""

from __future__ import annotations

from tabletop.engine import Card, Table
from tabletop.engine.errors import InputError


def new_game(decks, edition: str = "cr-2016", seed: int | None = 1, life: int = 20,
             hand: int = 7, max_hand: int = 7, ante: bool = False, lookup=None) -> Table:
    """``decks``: (player, Deck) pairs, 1 to 4 of them, in turn order. A name the card
    database does not know enters as a placeholder card with the name as written and
    no characteristics (the caller has listed them already): never dropped."""
    if not 1 <= len(decks) <= 4:
        raise InputError(f"a game is for 1 to 4 decks, not {len(decks)}")
    if lookup is None:
        from tabletop.cards.db import default
        lookup = default().card
    players = [p for p, _ in decks]
    t = Table(players, edition, seed=seed, ante=ante, max_hand=max_hand, life=life)
    for player, deck in decks:
        if deck.sections["commander"] and not t.edition.has_zone("command"):
            raise InputError(f"{deck.path or deck.name}: a commander needs the command zone, "
                             f"which {t.edition.id} does not have")
        for section in ("main", "commander", "sideboard", "companion"):
            for e in deck.sections[section]:
                card = lookup(e.name) or Card(e.name, ())
                for _ in range(e.count):
                    if section == "main":
                        t.add_card(card, player, "library")
                    elif section == "commander":
                        t.add_card(card, player, "command")
                    else:
                        t.add_to_sideboard(player, card)
        t.shuffle(player)
    if ante and t.edition.has_zone("ante"):
        t.ante_start()
    for player in players:
        t.draw(player, hand)
    t.start_here()  # the starting table is where undo stops
    return t
