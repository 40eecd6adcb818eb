"""Playtesting commands of the main window: new games from decks, card data, recent
files, mulligans, searching, life and the next turn."""

from __future__ import annotations

from pathlib import Path

from tabletop.engine.errors import TabletopError
from tabletop.ui import settings


class PlaytestCommands:
    """Mixed into MainWindow."""

    def new_game(self) -> None:
        if not self.confirm_discard("start a new game"):
            return
        table = self.game_from_decks()
        if table is not None:
            self.path = None
            self.c.set_table(table)

    def game_from_decks(self):
        """A new game from the decks a person picks (the New game dialog), or None."""
        from tabletop.cards.game import new_game
        from tabletop.ui.playtest import NewGameDialog, load_decks
        dlg = NewGameDialog(self, self.c.board.edition.id)
        if not dlg.exec():
            return None
        decks = load_decks(self, dlg.choices())
        if decks is None:
            return None
        try:
            return new_game(decks, edition=dlg.edition.currentData(), life=dlg.life.value(),
                            hand=dlg.hand.value(), ante=dlg.ante.isChecked(), seed=None)
        except TabletopError as e:
            self.error("Cannot start the game", str(e))
            return None

    def next_game(self) -> None:
        """The next game of a match: each player swaps cards between deck and sideboard,
        someone is chosen to play first, and a new game starts from the same cards."""
        from tabletop.ui.sideboard import SideboardingDialog
        decks = self.c.decks_in_play()
        if not any(d["main"] or d["commander"] for d in decks.values()):
            self.error("No decks", "The cards of this table make no decks to play again.")
            return
        viewer = self.c.viewer
        players = list(self.c.board.players)
        editable = players if viewer is None or self.c.anyone else [viewer]
        dlg = SideboardingDialog(decks, players, editable, self)
        if not dlg.exec():
            return
        if not self.confirm_discard("start the next game"):
            return
        try:
            table = self.c.next_game(dlg.lists(), life=dlg.life.value())
        except TabletopError as e:
            self.error("Cannot start the next game", str(e))
            return
        self.path = None
        self.c.set_table(table)
        self.show_message(f"The next game: {table.players[0]} plays first.")

    def save_deck_as(self) -> None:
        """File > Save deck as…: the seat's deck as this game began (main, commander,
        sideboard), in the format the file dialog's choice or the name's suffix says."""
        from PySide6.QtWidgets import QFileDialog

        from tabletop.cards import decks as deckfiles
        player = self.seat()
        cards = self.c.decks_in_play().get(player, {})
        if not any(cards.values()):
            self.error("Save deck", f"{player} has no deck at this table.")
            return
        name = self.c.board.deck_names().get(player) or player
        deck = deckfiles.Deck(name, "")
        for section in ("main", "commander", "sideboard"):
            for card in cards.get(section, []):
                deck.add(section, 1, card.name)
        filters = {"Arena text (*.txt)": "arena", "MTGO (*.dek)": "mtgo",
                   "Cockatrice (*.cod)": "cockatrice", "Forge (*.dck)": "forge"}
        stem = "".join(ch for ch in name if ch.isalnum() or ch in " -_").strip() or "deck"
        path, chosen = QFileDialog.getSaveFileName(
            self, f"Save {player}'s deck", str(settings.documents() / f"{stem}.txt"),
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
            self.error("Cannot save the deck", f"{p}: {getattr(e, 'strerror', None) or e}")
            return
        self.show_message(f"Saved {player}'s deck to {p}")

    def show_sideboard(self) -> None:
        from tabletop.ui.sideboard import SideboardDialog
        player = self.seat()
        dlg = SideboardDialog(self.c, player, self)
        dlg.show()
        self._sideboard = dlg  # kept open beside the table, like a zone viewer

    def get_card_data(self, url: str | None = None) -> None:
        """Download MTGJSON's card data (its SHA-256 checked) and import it."""
        from tabletop.cards.download import DEFAULT_URL
        from tabletop.ui.playtest import import_card_data
        url = url or str(settings.value("cards/url", "") or DEFAULT_URL)
        n = import_card_data(self, "", url=url)
        if n is not None:
            self.show_message(f"Downloaded and imported {n:,} card{'s' * (n != 1)}.")

    def import_cards(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        from tabletop.ui.playtest import import_card_data
        path, _ = QFileDialog.getOpenFileName(
            self, "Import card data", str(settings.documents()),
            "Card data (*.json *.json.gz *.json.xz *.gz *.xz);;All files (*)")
        if path:
            from tabletop.textsafe import names_from_outside
            names_from_outside([path])  # a line feed in its name is shown escaped
            n = import_card_data(self, path)
            if n is not None:
                self.show_message(f"Imported {n:,} cards.")

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        files = settings.recent_files()
        for p in files:
            self.recent_menu.addAction(p, lambda _=False, path=p: self.load_game(Path(path)))
        self.recent_menu.setEnabled(bool(files))

    def mulligan(self) -> None:
        from tabletop.ui import playtest
        ChooseCards = playtest.ChooseCards
        player = self.seat()
        session = self.c.session  # at a network table: the host deals the new hand
        taken = self.c.board.mulligans.get(player, 0)
        mark = self.c.mark()
        self.c.mulligan(player)
        if session is not None and not session.wait(
                lambda: self.c.board.mulligans.get(player, 0) > taken):
            return  # refused, or no answer: the status line says so
        t = self.c.board  # (at a network table, the view the host's answer made)
        n = t.mulligans.get(player, 0)  # counted by the game: new tables, saves and undo agree
        hand = t.choices((player, "hand"), player)
        dlg = ChooseCards(self, "London mulligan",
                          f"{player} has taken {n} mulligan(s): choose {min(n, len(hand))} "
                          "card(s) to put on the bottom of the library.", hand, min(n, len(hand)))
        order = None
        if dlg.exec():
            chosen = [t.choice_of(c, player) for c in dlg.chosen()]
            order = playtest.arrange(self, "Order on the bottom",
                                     ", ".join(t.edition.cite("library_arrange")) or "of the table",
                                     chosen)
        if order is None:  # cancelled: the game is exactly as before the mulligan
            if session is not None or mark is None:
                self.c.undo()  # the seat's own last action: the host takes it back
            else:
                self.c.take_back(mark)
            return
        self.c.move_many(order, "library", player, position="bottom", order=order)

    def search_library(self) -> None:
        """The searcher sees the library; the others see only a count. Then it is shuffled."""
        from tabletop.ui.playtest import ChooseCards
        player = self.seat()
        if self.c.session is not None:  # the host sends the library's faces to the searcher
            self.c.look(player, None)
            if not self.c.session.wait(lambda: all(
                    c.name != "a hidden card" for c in self.c.board.choices(
                        (player, "library"), player, looking=True))):
                return
        lib = self.c.board.choices((player, "library"), player, looking=True)
        dlg = ChooseCards(self, f"Search {player}'s library",
                          "Choose a card to put into your hand (or none); the library is "
                          "shuffled afterwards.", lib, 1, exact=False)
        if not dlg.exec():
            return
        for cid in dlg.chosen():
            self.c.drop(cid, "hand", player)
        self.c.shuffle(player)

    def set_life(self) -> None:
        player = self.seat()
        from PySide6.QtWidgets import QInputDialog
        life, ok = QInputDialog.getInt(self, "Life total", f"{player}'s life:",
                                       self.c.board.life[player], -999, 9999)
        if ok:
            self.c.set_life(player, life)

    def auto_untap(self) -> bool:
        return self.untap_action.isChecked()

    def auto_draw(self) -> bool:
        return self.draw_action.isChecked()

    def go_to_phase(self, phase: str) -> None:
        """A click on the phase bar: that step of this turn (cleanup discards first)."""
        if phase == "cleanup" and not self._discard_to_hand_size():
            self.phase_bar.refresh()
            return
        self.c.set_phase(phase, draw=self.auto_draw())
        self.phase_bar.refresh()

    def next_phase(self) -> None:
        """The next step; after the cleanup step, the next turn."""
        from tabletop.engine.actions import PHASES
        t = self.c.board
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
        t = self.c.board
        player = t.active
        hand = t.choices((player, "hand"), player)
        excess = len(hand) - t.max_hand
        if excess > 0:
            dlg = ChooseCards(self, "Cleanup", f"{player} holds {len(hand)} cards: discard "
                              f"{excess} (rule {', '.join(t.edition.cite('hand_max'))}).",
                              hand, excess)
            if not dlg.exec():
                return False
            chosen = [t.choice_of(c, player) for c in dlg.chosen()]
            order = playtest.arrange(self, "Order in the graveyard",
                                     ", ".join(t.edition.cite("graveyard_arrange")) or
                                     "of the table", chosen)
            if order is None:
                return False
            self.c.cleanup(player, order)
        return True

    def next_turn(self) -> None:
        """Cleanup for the active player (discard to the maximum hand size, 402.2), then
        the next player's turn."""
        if not self._discard_to_hand_size():
            return
        self.c.next_turn(untap=self.auto_untap())
        self.phase_bar.refresh()

