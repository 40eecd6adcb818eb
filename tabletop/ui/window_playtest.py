"""Playtesting commands of the main window: new games from decks, card data, recent
files, mulligans, searching, life and the next turn."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tabletop.engine.errors import TabletopError
from tabletop.engine.model import Zone
from tabletop.ui import settings

if TYPE_CHECKING:
    from tabletop.engine import Table
    from tabletop.ui.window_parts import Window


class PlaytestCommands:
    """The playtesting commands of a main window ``w``, which its menus call."""

    def __init__(self, w: Window) -> None:
        self.w = w
        self._sideboard: Any = None  # the sideboard window, kept open beside the table
        self.editor: Any = None  # the deck editor window, once opened
        self.playtested: str | None = None  # the seat playing the editor's deck

    def new_game(self) -> None:
        if not self.w.confirm_discard("start a new game"):
            return
        table = self.game_from_decks()
        if table is not None:
            self.w.path = None
            self.w.c.set_table(table)

    def game_from_decks(self) -> Table | None:
        """A new game from the decks a person picks (the New game dialog), or None."""
        from tabletop.cards.game import new_game
        from tabletop.ui.playtest import NewGameDialog, load_decks
        dlg = NewGameDialog(self.w.window(), self.w.c.board.edition.id)
        if not dlg.exec():
            return None
        decks = load_decks(self.w.window(), dlg.choices())
        if decks is None:
            return None
        try:
            return new_game(decks, edition=dlg.edition.currentData(), life=dlg.life.value(),
                            hand=dlg.hand.value(), ante=dlg.ante.isChecked(), seed=None)
        except TabletopError as e:
            self.w.error("Cannot start the game", str(e))
            return None

    # ---- the deck editor -----------------------------------------------------------------
    def deck_editor(self) -> Any:
        """File > Deck editor: the editor window (one, kept), shown and raised."""
        from tabletop.ui.deck_editor import DeckEditor
        if self.editor is None:
            self.editor = DeckEditor(self.w.window(), playtest=self.playtest_deck)
        self.editor.show()
        self.editor.raise_()
        self.editor.activateWindow()
        return self.editor

    def playtest_deck(self, deck: Any) -> bool:
        """The editor's Playtest: a game with this deck at once, alone or against a demo
        deck or a deck file; Next game then picks up the deck as edited."""
        from tabletop.cards import demo
        from tabletop.cards.decks import load
        from tabletop.cards.game import new_game
        from tabletop.ui import dialogs
        answer = dialogs.choose(self.w.window(), "Playtest",
                                f"Play “{deck.name[:60]}” alone, or against another deck?",
                                ["Alone", "Against a demo deck", "Against a deck file…"])
        if answer is None or not self.w.confirm_discard("start a playtest game"):
            return False
        you = "Player"  # (a name the log's sentences read well with: "Player draws")
        decks = [(you, deck)]
        if answer == "Against a demo deck":
            decks.append(("Opponent", demo.deck(next(iter(demo.DECKS)))))
        elif answer == "Against a deck file…":
            from PySide6.QtWidgets import QFileDialog
            path, _ = QFileDialog.getOpenFileName(self.w.window(), "The opponent's deck",
                                                  str(settings.documents()))
            if not path:
                return False
            try:
                decks.append(("Opponent", load(path)))
            except TabletopError as e:
                self.w.error("Cannot read the deck", str(e))
                return False
        try:
            table = new_game(decks, edition=self.w.c.board.edition.id, seed=None)
        except TabletopError as e:
            self.w.error("Cannot start the game", str(e))
            return False
        self.w.path = None
        self.w.c.set_table(table)
        self.playtested = you
        self.w.window().raise_()
        self.w.show_message(f"Playtesting “{deck.name[:60]}”: File › Next game, after "
                            f"sideboarding… picks up the deck as edited.")
        return True

    def _edited_decks(self, decks: dict[str, dict[str, list[Any]]]) -> None:
        """The deck being playtested, as edited since: for the next game."""
        editor, player = self.editor, self.playtested
        if editor is None or player is None or player not in decks:
            return
        from tabletop.cards.db import default
        from tabletop.engine import Card
        look = default().card
        for section in ("main", "commander", "sideboard"):
            decks[player][section] = [look(n) or Card(n, ()) for n, k in
                                      editor.entries(section) for _ in range(k)]

    def next_game(self) -> None:
        """The next game of a match: each player swaps cards between deck and sideboard,
        someone is chosen to play first, and a new game starts from the same cards."""
        from tabletop.ui.sideboard import SideboardingDialog
        decks = self.w.c.decks_in_play()
        self._edited_decks(decks)
        if not any(d["main"] or d["commander"] for d in decks.values()):
            self.w.error("No decks", "The cards of this table make no decks to play again.")
            return
        viewer = self.w.c.viewer
        players = list(self.w.c.board.players)
        editable = players if viewer is None or self.w.c.anyone else [viewer]
        dlg = SideboardingDialog(decks, players, editable, self.w.window())
        if not dlg.exec():
            return
        if not self.w.confirm_discard("start the next game"):
            return
        try:
            table = self.w.c.next_game(dlg.lists(), life=dlg.life.value())
        except TabletopError as e:
            self.w.error("Cannot start the next game", str(e))
            return
        self.w.path = None
        self.w.c.set_table(table)
        self.w.show_message(f"The next game: {table.players[0]} plays first.")

    def save_deck_as(self) -> None:
        """File > Save deck as…: the seat's deck as this game began (main, commander,
        sideboard), in the format the file dialog's choice or the name's suffix says."""
        from PySide6.QtWidgets import QFileDialog

        from tabletop.cards import decks as deckfiles
        player = self.w.seat()
        cards = self.w.c.decks_in_play().get(player, {})
        if not any(cards.values()):
            self.w.error("Save deck", f"{player} has no deck at this table.")
            return
        name = self.w.c.board.deck_names().get(player) or player
        deck = deckfiles.Deck(name, "")
        for section in ("main", "commander", "sideboard"):
            for card in cards.get(section, []):
                deck.add(section, 1, card.name)
        filters = {"Arena text (*.txt)": "arena", "MTGO (*.dek)": "mtgo",
                   "Cockatrice (*.cod)": "cockatrice", "Forge (*.dck)": "forge"}
        stem = "".join(ch for ch in name if ch.isalnum() or ch in " -_").strip() or "deck"
        path, chosen = QFileDialog.getSaveFileName(
            self.w.window(), f"Save {player}'s deck", str(settings.documents() / f"{stem}.txt"),
            ";;".join(filters))
        if not path:
            return
        fmt = filters.get(chosen)
        suffix = deckfiles.EXPORTS[fmt][0] if fmt else None
        p = Path(path)
        if suffix and p.suffix.lower() != suffix:
            p = p.with_suffix(suffix)
        try:
            deckfiles.save(deck, p, fmt)
        except (OSError, TabletopError) as e:
            self.w.error("Cannot save the deck", f"{p}: {getattr(e, 'strerror', None) or e}")
            return
        self.w.show_message(f"Saved {player}'s deck to {p}")

    def show_sideboard(self) -> None:
        from tabletop.ui.sideboard import SideboardDialog
        player = self.w.seat()
        dlg = SideboardDialog(self.w.c, player, self.w.window())
        dlg.show()
        self._sideboard = dlg  # kept open beside the table, like a zone viewer

    def get_card_data(self, url: str | None = None) -> None:
        """Download MTGJSON's card data (its SHA-256 checked) and import it."""
        from tabletop.cards.download import DEFAULT_URL
        from tabletop.ui.playtest import import_card_data
        url = url or str(settings.value("cards/url", "") or DEFAULT_URL)
        n = import_card_data(self.w.window(), "", url=url, import_instead=self.import_cards)
        if n is not None:
            self.w.show_message(f"Downloaded and imported {n:,} card{'s' * (n != 1)}.")

    def import_cards(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        from tabletop.ui.playtest import import_card_data
        path, _ = QFileDialog.getOpenFileName(
            self.w.window(), "Import card data", str(settings.documents()),
            "Card data (*.json *.json.gz *.json.xz *.gz *.xz);;All files (*)")
        if path:
            from tabletop.textsafe import names_from_outside
            names_from_outside([path])  # a line feed in its name is shown escaped
            n = import_card_data(self.w.window(), path)
            if n is not None:
                self.w.show_message(f"Imported {n:,} card{'s' * (n != 1)}.")

    def _fill_recent(self) -> None:
        self.w.recent_menu.clear()
        files = settings.recent_files()
        for p in files:
            self.w.recent_menu.addAction(p, self._opener(Path(p)))
        self.w.recent_menu.setEnabled(bool(files))

    def _opener(self, path: Path) -> Callable[[], object]:
        return lambda: self.w.load_game(path)

    def mulligan(self) -> None:
        from tabletop.ui import playtest
        ChooseCards = playtest.ChooseCards
        player = self.w.seat()
        session = self.w.c.session  # at a network table: the host deals the new hand
        taken = self.w.c.board.mulligans.get(player, 0)
        mark = self.w.c.mark()
        self.w.c.mulligan(player)
        if session is not None and not session.wait(
                lambda: self.w.c.board.mulligans.get(player, 0) > taken):
            return  # refused, or no answer: the status line says so
        t = self.w.c.board  # (at a network table, the view the host's answer made)
        n = t.mulligans.get(player, 0)  # counted by the game: new tables, saves and undo agree
        hand = t.choices((player, Zone.HAND), player)
        k = min(n, len(hand))
        dlg = ChooseCards(self.w.window(), "London mulligan",
                          f"{player} has taken {n} mulligan{'s' * (n != 1)}: choose {k} "
                          f"card{'s' * (k != 1)} to put on the bottom of the library.", hand, k)
        order = None
        if dlg.exec():
            chosen = [t.choice_of(c, player) for c in dlg.chosen()]
            order = playtest.arrange(self.w.window(), "Order on the bottom",
                                     ", ".join(t.edition.cite("library_arrange")) or "of the table",
                                     chosen)
        if order is None:  # cancelled: the game is exactly as before the mulligan
            if session is not None or mark is None:
                self.w.c.undo()  # the seat's own last action: the host takes it back
            else:
                self.w.c.take_back(mark)
            return
        self.w.c.move_many(order, Zone.LIBRARY, player, position="bottom", order=order)

    def search_library(self) -> None:
        """The searcher sees the library; the others see only a count. Then it is shuffled."""
        from tabletop.ui.playtest import ChooseCards
        player = self.w.seat()
        if self.w.c.session is not None:  # the host sends the library's faces to the searcher
            self.w.c.look(player, None)
            if not self.w.c.session.wait(lambda: all(
                    c.name != "a hidden card" for c in self.w.c.board.choices(
                        (player, Zone.LIBRARY), player, looking=True))):
                return
        lib = self.w.c.board.choices((player, Zone.LIBRARY), player, looking=True)
        dlg = ChooseCards(self.w.window(), f"Search {player}'s library",
                          "Choose a card to put into your hand (or none); the library is "
                          "shuffled afterwards.", lib, 1, exact=False)
        if not dlg.exec():
            return
        for cid in dlg.chosen():
            self.w.c.drop(cid, Zone.HAND, player)
        self.w.c.shuffle(player)

    def set_life(self) -> None:
        player = self.w.seat()
        from PySide6.QtWidgets import QInputDialog
        life, ok = QInputDialog.getInt(self.w.window(), "Life total", f"{player}'s life:",
                                       self.w.c.board.life[player], -999, 9999)
        if ok:
            self.w.c.set_life(player, life)

    def auto_untap(self) -> bool:
        return self.w.untap_action.isChecked()

    def auto_draw(self) -> bool:
        return self.w.draw_action.isChecked()

    def go_to_phase(self, phase: str) -> None:
        """A click on the phase bar: that step of this turn (cleanup discards first)."""
        if phase == "cleanup" and not self._discard_to_hand_size():
            self.w.phase_bar.refresh()
            return
        self.w.c.set_phase(phase, draw=self.auto_draw())
        self.w.phase_bar.refresh()

    def next_phase(self) -> None:
        """The next step; after the cleanup step, the next turn."""
        from tabletop.engine.actions import PHASES
        t = self.w.c.board
        i = PHASES.index(t.phase) if t.phase in PHASES else 0
        if i + 1 >= len(PHASES):
            self.next_turn()
            return
        self.go_to_phase(PHASES[i + 1])

    def _discard_to_hand_size(self) -> bool:
        """Cleanup: the active player discards down to the maximum hand size (402.2);
        False when the player cancels."""
        from tabletop.ui import playtest
        ChooseCards = playtest.ChooseCards
        t = self.w.c.board
        player = t.active
        hand = t.choices((player, Zone.HAND), player)
        excess = len(hand) - t.max_hand
        if excess > 0:
            dlg = ChooseCards(self.w.window(), "Cleanup", f"{player} holds {len(hand)} cards: discard "
                              f"{excess} (rule {', '.join(t.edition.cite('hand_max'))}).",
                              hand, excess)
            if not dlg.exec():
                return False
            chosen = [t.choice_of(c, player) for c in dlg.chosen()]
            order = playtest.arrange(self.w.window(), "Order in the graveyard",
                                     ", ".join(t.edition.cite("graveyard_arrange")) or
                                     "of the table", chosen)
            if order is None:
                return False
            self.w.c.cleanup(player, order)
        return True

    def next_turn(self) -> None:
        """Cleanup for the active player (discard to the maximum hand size, 402.2), then
        the next player's turn."""
        if not self._discard_to_hand_size():
            return
        self.w.c.next_turn(untap=self.auto_untap())
        self.w.phase_bar.refresh()

