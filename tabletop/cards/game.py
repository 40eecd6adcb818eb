"""Starting a game from deck lists: libraries shuffled, hands drawn, commanders in
the command zone, sideboards outside the game (400.10a), ante if played for."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from tabletop.engine import Card, Table, editions
from tabletop.engine.errors import InputError
from tabletop.engine.model import Zone

if TYPE_CHECKING:
    from tabletop.cards.decks import Deck


def new_game(decks: Sequence[tuple[str, Deck]], edition: str = editions.NEWEST,
             seed: int | None = 1, life: int = 20, hand: int = 7, max_hand: int = 7,
             ante: bool = False, lookup: Callable[[str], Card | None] | None = None) -> Table:
    """``decks``: (player, Deck) pairs, 1 to 4 of them, in turn order. A name the card
    database does not know enters as a placeholder card with the name as written and
    no characteristics (the caller has listed them already): never dropped."""
    if not 1 <= len(decks) <= 4:
        raise InputError(f"a game is for 1 to 4 decks, not {len(decks)}")
    if lookup is None:
        from tabletop.cards.db import default
        lookup = default().card
    lists = []
    for player, deck in decks:
        sections: dict[str, list[Card]] = {"main": [], "commander": [], "sideboard": []}
        for section in ("main", "commander", "sideboard", "companion"):
            for e in deck.sections[section]:
                card = lookup(e.name) or Card(e.name, ())
                where = section if section != "companion" else "sideboard"
                sections[where] += [card] * e.count
        if sections["commander"] and not editions_has_command(edition):
            raise InputError(f"{deck.path or deck.name}: a commander needs the command zone, "
                             f"which {edition} does not have")
        lists.append((player, sections))
    printings: dict[str, tuple[str, str]] = {}
    for _, deck in decks:
        for name, p in deck.printings().items():
            known = lookup(name)
            printings.setdefault(known.name if known is not None else name, p)
    return game_from_cards(lists, edition, seed, life, hand, max_hand, ante, printings,
                           names={p: d.name for p, d in decks if d.name})


def editions_has_command(edition: str) -> bool:
    from tabletop.engine import editions
    return editions.get(edition).has_zone(Zone.COMMAND)


def game_from_cards(lists: Sequence[tuple[str, dict[str, list[Card]]]],
                    edition: str = editions.NEWEST, seed: int | None = 1, life: int = 20,
                    hand: int = 7, max_hand: int = 7, ante: bool = False,
                    printings: dict[str, tuple[str, str]] | None = None,
                    names: dict[str, str] | None = None) -> Table:
    """A game from each player's cards: ``lists`` is (player, {"main": [Card],
    "commander": [Card], "sideboard": [Card]}) in turn order; ``printings``: card name
    -> (set code, collector number) the decks named (for pictures)."""
    if not 1 <= len(lists) <= 4:
        raise InputError(f"a game is for 1 to 4 decks, not {len(lists)}")
    players = [p for p, _ in lists]
    t = Table(players, edition, seed=seed, ante=ante, max_hand=max_hand, life=life)
    t.printings = dict(printings or {})
    t.deck_names = {p: str(n)[:200] for p, n in (names or {}).items() if n and p in players}
    t.decks = {player: {k: list(sections.get(k, ())) for k in ("main", "commander", "sideboard")}
               for player, sections in lists}
    for player, sections in lists:
        for card in sections.get("main", ()):
            t.add_card(card, player, Zone.LIBRARY)
        for card in sections.get("commander", ()):  # each its owner's commander (903.3)
            t.add_card(card, player, Zone.COMMAND, commander=True)
        for card in sections.get("sideboard", ()):
            t.add_to_sideboard(player, card)
        t.shuffle(player)
    if ante and t.edition.has_zone(Zone.ANTE):
        t.ante_start()
    for player in players:
        t.draw(player, hand)
    t.start_here()  # the starting table is where undo stops
    return t


def decks_in_play(table: Table) -> dict[str, dict[str, list[Card]]]:
    """Each player's cards for the next game of a match: "main" (every card that began
    this game in it, wherever it is now: library, hand, battlefield, graveyard...),
    "commander", and "sideboard" (outside the game, 400.10a, with the cards brought
    in from it, which go back). Tokens, abilities and emblems are not cards of a deck.
    A card won in a game played for ante belongs to its new owner.

    A game started from decks keeps them (``table.decks``): those are the cards, as the
    game began, whatever happened to the table since (a restore, a save and reload).
    Only a game played for ante, where cards change owners, is read from its cards."""
    if table.decks and not table.ante:
        return {p: {k: sorted(table.decks.get(p, {}).get(k, ()),
                              key=lambda c: c.name.casefold())
                    for k in ("main", "commander", "sideboard")} for p in table.players}
    out: dict[str, dict[str, list[Card]]] = {
        p: {"main": [], "commander": [], "sideboard": list(table.sideboards.get(p, []))}
        for p in table.players}
    for cid, entries in table.lineage.items():
        if not entries:
            continue
        first = table.objs.get(entries[0].obj)
        now = table.live(cid) or first
        if first is None or now is None or first.kind != "card" or first.token:
            continue
        mine = out[now.owner]
        if entries[0].event == "brought_in":
            mine["sideboard"].append(first.card)
        elif entries[0].zone is not None and entries[0].zone[1] == Zone.COMMAND:
            mine["commander"].append(first.card)
        else:
            mine["main"].append(first.card)
    for sections in out.values():
        for cards in sections.values():
            cards.sort(key=lambda c: c.name.casefold())
    return out
