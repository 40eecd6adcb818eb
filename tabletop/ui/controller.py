"""The one bridge between the Qt table and the engine.

Gestures become engine calls here; the engine's answer (events) is announced
with ``changed`` and the scene redraws from the engine's state. Nothing here
decides a rule: every question goes to the engine."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from tabletop.cards import demo
from tabletop.engine import Card, Event, Obj, Result, Table, views
from tabletop.engine.model import CardId, Zone, ZoneKey
from tabletop.engine.state import Mark
from tabletop.engine.views import JUDGE
from tabletop.ui import later
from tabletop.ui.board import Board, Face, LocalBoard
from tabletop.ui.ports import LocalPort, TablePort

if TYPE_CHECKING:
    from pathlib import Path

    from tabletop.engine import intents
    from tabletop.scenario.compare import Comparison
    from tabletop.ui.autosave import Autosave
else:  # 36 dataclasses cost the first frame 25 ms: made after it (MainWindow)
    intents = later.module("tabletop.engine.intents")


class TableController(QObject):
    changed = Signal(object)  # a Result (events) or None after undo/redo/new table
    reset = Signal()  # a new table: lay everything out again
    # another viewpoint is about to be taken (hot seat): what the one leaving has open
    # ends first, as that person (a library searched is shuffled by its searcher)
    viewpoint_leaving = Signal()
    message = Signal(str)
    selection = Signal(object)  # cid or None
    # an action done at this table (not a scenario step replayed): its Result, and what
    # the person pointed at when it was a drop, ``(zone, player, mover)``, else None
    acted = Signal(object, object)

    def __init__(self, table: Table | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.table = table or demo.new_game()
        self.viewer: str | None = self.table.players[0]  # your seat, at the bottom
        self.labels: dict[CardId, str] = {}
        # cid -> events of the last action touching it
        self.last_events: dict[int, tuple[Event, ...]] = {}
        # set by the window: asks a person when the rules give a choice
        self.chooser: Callable[..., Any] | None = None
        self.recorder: Any = None  # a scenario Recorder while recording (it reads the history)
        self.dirty = False  # changes not yet saved to a file (the unsaved-changes guard asks)
        self._dirty_before = False
        self.anyone = False  # hot-seat play: every viewpoint handles every card
        self.pointed: tuple[Any, ...] | None = None  # the drop under way: (zone, player, mover)
        # network play (ui/network.py): while a Session is set, the window draws the
        # host's view (the session's board) and every intent goes to the host instead
        self.session: Any = None  # a ui.network.Session (which imports this module)
        self._local = LocalPort(self)

    # ---- tables --------------------------------------------------------------
    def _networked(self) -> bool:
        """At a network table the table is the host's: it is left first, not replaced."""
        if self.session is None:
            return False
        self.message.emit("You are at a network table: leave it first "
                          "(File > Leave the network game).")
        return True

    def set_table(self, table: Table, labels: dict[CardId, str] | None = None,
                  dirty: bool = False) -> None:
        if self._networked():
            return
        self.table = table
        self.dirty = dirty
        self.labels = dict(labels or {})
        self.last_events.clear()
        if "viewer" in table.screen:  # a saved game: seen as it was left
            self.viewer = table.screen["viewer"]
        if self.viewer is not JUDGE and self.viewer not in table.players:
            self.viewer = table.players[0]
        self.reset.emit()

    def new_table(self, edition: str | None = None, players: Iterable[str] | None = None,
                  seed: int | None = None, empty: bool = False) -> None:
        """A new table with the demo decks dealt, or (``empty``) with no card at all,
        for a judge to set a demonstration up; shuffled from the system's randomness
        unless given a ``seed`` (a deal from a seed anyone knows is a deal anyone
        can read, should the table be hosted)."""
        if self._networked():
            return
        ed = edition or self.table.edition.id
        who = tuple(players or self.table.players)
        self.set_table(Table(who, ed, seed=seed) if empty else
                       demo.new_game(edition=ed, players=who, seed=seed))

    def set_viewer(self, viewer: str | None) -> None:
        if self._networked():
            return
        if viewer != self.viewer:
            self.viewpoint_leaving.emit()
        self.viewer = viewer
        self.reset.emit()

    def game(self) -> object:
        """What identifies the game being played (the table, or the network session
        whose copies of the host's table replace one another)."""
        return self.session if self.session is not None else self.table

    def show_sent(self, first: bool) -> None:
        """Network play: draw the host's new view (the session's board; ``first``: lay
        it out afresh, else only what changed moves)."""
        self.dirty = False
        self.last_events.clear()
        if first:
            self.reset.emit()
        else:
            self.changed.emit(None)

    # ---- the table played here (a network table's is the host's) ------------------------
    def screen(self) -> dict[str, Any]:
        """How the game is shown (viewpoint, zoom, open viewers), as its save keeps it."""
        return self.table.screen if self.session is None else {}

    def keep_screen(self, screen: dict[str, Any]) -> None:
        if self.session is None:
            self.table.screen = screen

    def history_length(self) -> int:
        """How many actions the game played here has (0 at a network table)."""
        return len(self.table.history) if self.session is None else 0

    def undo_status(self) -> tuple[str | None, str | None]:
        """What Undo and Redo would take back or bring back, for this viewer."""
        if self.session is not None:
            return None, None
        return views.undo_status(self.table, self.viewer)

    def last_title(self, rejected: bool) -> str:
        """The last action done (or, ``rejected``, refused) here, as the viewer may know it."""
        t = self.table
        if rejected:
            action = t.refused[-1][1] if t.refused else None
        else:
            action = t.history[-1] if t.history else None
        return views.action_title(t, action, self.viewer) if action is not None else ""

    def hand_over(self) -> Table:
        """The table played here, whole: to host it (a room takes it over) or to keep it
        while this window sits at another's table. The window never reads it."""
        return self.table

    def card_ids(self) -> list[int]:
        """Every card of the game played here, by card id (the scripted session's)."""
        t = self.table
        return [cid for cid in t.current if t.live(cid) is not None]

    def mark(self) -> Mark | None:
        """Where the game played here stands (for take_back); None at a network table."""
        return self.table.mark() if self.session is None else None

    def decks_in_play(self) -> dict[str, dict[str, list[Card]]]:
        """Each player's deck as this game began (main, commander, sideboard); none at a
        network table (the host deals)."""
        from tabletop.cards.game import decks_in_play
        return decks_in_play(self.table) if self.session is None else {}

    def next_game(self, lists: Sequence[tuple[str, dict[str, list[Card]]]], life: int) -> Table:
        """The next game of the match from these lists, under this game's settings."""
        from tabletop.cards.game import game_from_cards
        t = self.table
        return game_from_cards(lists, edition=t.edition.id, seed=None, life=life,
                               max_hand=t.max_hand, ante=t.ante,
                               printings=views.printings(t), names=views.deck_names(t))

    def compare(self, editions: list[str]) -> tuple[Comparison, list[str]]:
        """The game played here replayed under each edition, side by side (and what in
        its history could not be replayed)."""
        from tabletop.scenario.replay import compare_history
        return compare_history(self.table, editions)

    def start_recording(self) -> None:
        """Record the game played here from now on, each action a scenario step."""
        from tabletop.scenario.recorder import Recorder
        self.recorder = Recorder(self.table, title="Recorded at the table")

    def save_to(self, path: Path) -> None:
        """The game played here into a file (atomic; TabletopError when it is not whole)."""
        from tabletop.engine import saves
        saves.save(self.table, path)

    def autosave_to(self, autosave: Autosave) -> bool:
        return autosave.save(self.table)

    @property
    def board(self) -> Board:
        """The table as this viewer is shown it: the host's view at a network table, else
        the engine's views of this one. What the window reads."""
        if self.session is not None and self.session.board is not None:
            return self.session.board  # type: ignore[no-any-return]
        return LocalBoard(self.table, self.viewer)

    def view(self) -> dict[ZoneKey, list[Face]]:
        """What the table shows this viewer: libraries face down even for the judge."""
        return self.board.zones()

    def actor(self, face: Face | Obj | None) -> str:
        """Who is doing it: the viewer, or for the judge the card's controller or owner."""
        if self.viewer is not None:  # (the judge's viewpoint is None)
            return self.viewer
        return "" if face is None else face.controller or face.owner or ""

    # ---- asking ----------------------------------------------------------------
    def can_drop(self, cid: int, zone: Zone, player: str | None) -> bool:
        return self.drop_hint(cid, zone, player) == "accept"

    def drop_hint(self, cid: int, zone: Zone, player: str | None) -> str:
        """"accept", "refuse" or "unknown" (a card this viewer may not see)."""
        board = self.board
        return board.drop_hint(cid, zone, player, self.actor(board.face(cid)), self.anyone)

    def _cid(self, face: Face) -> int:
        """The card id of a face the board drew (a hidden one carries only its object's)."""
        if isinstance(face, views.Seen):
            return face.cid
        handle = self.board.handle(face.id)
        return face.id if handle is None else handle.cid

    def table_has(self, cid: object) -> bool:
        """Whether a card id (from a drag that may have outlived its table) is this table's."""
        return isinstance(cid, int) and self.board.face(cid) is not None

    def may_handle(self, cid: int) -> bool:
        return self.board.move_refusal(cid, self.anyone) is None

    def may_act_for(self, player: str) -> bool:
        return views.player_refusal(self.viewer, player, self.anyone) is None

    def _player_refusal(self, player: str) -> Result | None:
        why = views.player_refusal(self.viewer, player, self.anyone)
        if why is None:
            return None
        if self.session is not None:  # the host's log is not written from here
            self.message.emit(why)
            return Result(())
        return self.table.refuse(None, why)

    # ---- doing: each action an intent, carried out by the port -------------------------
    @property
    def port(self) -> TablePort:
        """Where intents go: the network seat's host, or this table."""
        return self.session.port if self.session is not None else self._local

    def perform(self, intent: intents.Intent) -> Result:
        return self.port.perform(intent)

    def done(self, res: Result, *, replay: bool = False) -> Result:
        self._dirty_before = self.dirty
        if not replay and res.events and not res.rejected:
            self.dirty = True
        for e in res.events:
            if e.cid is not None:
                self.last_events[e.cid] = res.events
        pointed, self.pointed = self.pointed, None
        self.changed.emit(res)
        if not replay and res.events:
            self.acted.emit(res, pointed)
        return res

    def placed(self, res: Result, changed: bool) -> Result:
        """Permanents put elsewhere on the battlefield: nothing to log, but the game
        changed when ``changed``; told either way (the scene draws from it, putting back
        a card this viewpoint may not handle)."""
        self._dirty_before = self.dirty
        if changed:
            self.dirty = True
        self.changed.emit(res)
        return res

    def show_result(self, res: Result) -> None:
        """Show events that happened elsewhere (a scenario step) as if just done; they
        come from a file, so they leave nothing unsaved."""
        self.done(res, replay=True)

    def drop(self, cid: int, zone: Zone, player: str | None, position: str | int = "top",
             at: dict[int, Any] | None = None) -> Result:
        """``at``: card id -> where it was let go on a battlefield (it stays there)."""
        place = (at or {}).get(cid)
        return self.perform(intents.Move(intents.Ref(cid), zone, player, position,
                                         at=None if place is None else tuple(place)))

    def drop_many(self, cids: Iterable[int], zone: Zone, player: str | None,
                  position: str | int = "top", at: dict[int, Any] | None = None) -> Result:
        """Several cards dropped together: the engine decides for each (some land, one is
        redirected, one is refused), as one action. Cards this viewpoint may not handle
        stay where they are, and the log says why."""
        cids = list(cids)
        places = _places(cids, at)
        return self.perform(intents.MoveMany(tuple(intents.Ref(c) for c in cids), zone, player,
                                             position, at=places))

    def move_many(self, cids: Iterable[int], zone: Zone, player: str | None = None,
                  order: Iterable[int] | None = None, position: str | int = "top") -> Result:
        """Several cards as one action; ``order``: these cards in the order they go,
        top first."""
        ids = list(order) if order is not None else list(cids)
        return self.perform(intents.MoveMany(tuple(intents.Ref(c) for c in ids), zone, player,
                                             position, ordered=order is not None or None))

    def place(self, places: dict[int, Any]) -> Result:
        """Permanents put elsewhere on their battlefield (card id -> place, None: back in
        the rows): only those this viewpoint may handle move."""
        return self.perform(intents.PlaceCards(
            tuple(intents.Ref(c) for c in places),
            tuple(None if p is None else tuple(p) for p in places.values())))

    def tap(self, cid: int, tapped: bool) -> Result:
        return self.perform(intents.Tap(intents.Ref(cid), bool(tapped)))

    def counters(self, cid: int, kind: str, n: int) -> Result:
        return self.perform(intents.Counters(intents.Ref(cid), kind, int(n)))

    def set_counters(self, cid: int, kind: str, value: int) -> Result:
        """Counters of one kind set to ``value`` (the engine records the difference)."""
        face = self.board.face(cid)
        have = dict(face.counters).get(kind, 0) if face is not None else 0
        return self.counters(cid, kind, int(value) - have)

    def set_pt(self, cid: int, pt: str | None) -> Result:
        return self.perform(intents.PT(intents.Ref(cid), pt or ""))

    def note(self, cid: int, text: str) -> Result:
        return self.perform(intents.Note(intents.Ref(cid), str(text)))

    def attach(self, cid: int, host: int | None) -> Result:
        """Attach a permanent to another (an Aura, an Equipment), or unattach it."""
        return self.perform(intents.Attach(intents.Ref(cid),
                                           None if host is None else intents.Ref(host)))

    def add_sticker(self, cid: int, text: str) -> Result:
        """A sticker on an object the viewer owns (123.3b)."""
        return self.perform(intents.Sticker(intents.Ref(cid), str(text)))

    def merge(self, cid: int, onto: int, on_top: bool = False) -> Result:
        """A spell merges with a permanent (mutate, 728.2)."""
        return self.perform(intents.Merge(intents.Ref(cid), intents.Ref(onto), bool(on_top)))

    def commander_returns(self, cid: int) -> Result:
        """A commander from a graveyard or exile into the command zone (903.9a)."""
        return self.perform(intents.CommanderReturns(intents.Ref(cid)))

    def arrow(self, cid: int, to: int | str) -> Result:
        """An arrow from a card to a card (a card id) or a player (a name), drawn by the
        viewer (the judge draws it for the card's controller)."""
        target = to if isinstance(to, str) else intents.Ref(to)
        return self.perform(intents.Arrow(intents.Ref(cid), target))

    def clear_arrows(self) -> Result:
        """The viewer's arrows (the judge's: everyone's)."""
        return self.perform(intents.ClearArrows())

    def turn_face(self, cid: int, down: bool) -> Result:
        return self.perform(intents.Face(intents.Ref(cid), bool(down)))

    def reveal(self, cid: int, revealed: bool) -> Result:
        return self.perform(intents.Reveal(intents.Ref(cid), bool(revealed)))

    def draw(self, player: str, n: int = 1) -> Result:
        return self.perform(intents.Draw(int(n), player))

    def shuffle(self, player: str) -> Result:
        return self.perform(intents.Shuffle(player))

    def untap_all(self, player: str) -> Result:
        """Untap each of the player's permanents (one untap action each, so undo and a
        recording see them one by one)."""
        refused = self._player_refusal(player)
        if refused is not None:
            return self.done(refused)
        return self.port.perform_all([
            intents.Tap(intents.Ref(self._cid(f)), False)
            for f in self.board.zones().get((None, Zone.BATTLEFIELD), ())
            if f.controller == player and f.tapped])

    def create_token(self, name: str, player: str, types: Iterable[str] = ("Creature",),
                     subtypes: Iterable[str] = ()) -> Result:
        """A token from the card database's tokens when it knows the name, else a custom one."""
        from tabletop.cards.db import default
        known = next((c for c in default().tokens() if c.name.casefold() == name.casefold()), None)
        return self.create_tokens(known or Card(name, tuple(types), tuple(subtypes)), player)

    def create_tokens(self, card: Card, player: str, count: int = 1,
                      tapped: bool = False) -> Result:
        return self.perform(intents.Token.of(card, player, int(count), bool(tapped)))

    def token_kinds(self) -> list[Card]:
        """The card database's tokens (for the token dialog)."""
        from tabletop.cards.db import default
        return list(default().tokens())

    def bring_in(self, player: str, card: Card, zone: Zone = Zone.HAND) -> Result:
        """A card from the player's sideboard comes into the game (a wish, 400.10)."""
        return self.perform(intents.BringIn(card.name, zone, player))

    def copy_as_token(self, cid: int) -> Result:
        """A token that copies a card this viewer can see, for the viewer's seat (or, for
        the judge, the card's controller)."""
        face = self.board.face(cid)
        if not isinstance(face, views.Seen) or face.card is None:
            why = "a card you can't see can't be copied"
            if self.session is not None:
                self.message.emit(why)
                return Result(())
            return self.done(self.table.refuse(None, why))
        return self.create_tokens(face.card, self.actor(face))

    def put_ability(self, cid: int, text: str) -> Result:
        return self.perform(intents.Ability(intents.Ref(cid), str(text)))

    def mulligan(self, player: str) -> Result:
        return self.perform(intents.Mulligan(player))

    def roll(self, player: str, sides: int) -> Result:
        return self.perform(intents.Roll(int(sides), player))

    def set_life(self, player: str, life: int) -> Result:
        """A life total set: the change from the total on screen."""
        return self.add_life(player, int(life) - self.board.life[player])

    def player_counter(self, player: str, kind: str, value: int) -> Result:
        return self.perform(intents.PlayerCounter(str(kind), int(value), player))

    def add_life(self, player: str, delta: int) -> Result:
        return self.perform(intents.Life(int(delta), player))

    def look(self, whose: str, count: int | None = None) -> Result:
        """The viewer looks at the top ``count`` of a library (or searches it all):
        logged for everyone, the cards named to nobody."""
        return self.perform(intents.Look(whose, None if count is None else int(count)))

    def show(self, player: str, cids: Iterable[int], to: str | None = None) -> Result:
        return self.perform(intents.Show(tuple(intents.Ref(c) for c in cids), to, player))

    def top_cids(self, player: str, n: int) -> list[int]:
        """The card ids of the top n cards of a library (ids, never faces)."""
        return self.board.top_cids(player, n)

    def mill(self, player: str, n: int) -> Result:
        """The top n cards of a library into its owner's graveyard, one action."""
        return self.perform(intents.Mill(int(n), player))

    def top_to_bottom(self, player: str) -> Result:
        cids = self.top_cids(player, 1)
        if not cids:
            return self.done(Result(()))
        return self.drop(cids[0], Zone.LIBRARY, player, "bottom")

    def move_all(self, player: str, src: Zone, dst: Zone, shuffle: bool = False) -> Result:
        return self.perform(intents.MoveAll(src, dst, bool(shuffle), player))

    def next_turn(self, untap: bool = False) -> Result:
        return self.perform(intents.NextTurn(bool(untap)))

    def set_phase(self, phase: str, draw: bool = False) -> Result:
        return self.perform(intents.Phase(str(phase), bool(draw)))

    def cleanup(self, player: str, discard: Iterable[int] | None = None) -> Result:
        return self.perform(intents.Cleanup(tuple(intents.Ref(c) for c in discard or ()), player))

    # ---- the history (at a network table, the host's: an undo is asked of it) ----------
    def undo(self) -> bool:
        if self.session is not None:
            self.session.port.perform(intents.Undo())
            return False  # the host answers (the log says what was undone, or asked)
        action = self.table.undo()
        if action is None:
            return False
        self.dirty = True
        self.changed.emit(None)
        return True

    def take_back(self, mark: Mark | None = None) -> bool:
        """Forget the last action (a dialog that followed it was cancelled): the game,
        its redo list and its unsaved state are exactly as before it (`mark`: the
        table's mark() taken just before the action)."""
        if self.session is not None:
            self.message.emit("At a network table, what is undone stays undone.")
            return False
        action = self.table.take_back(mark)
        if action is None:
            return False
        self.dirty = self._dirty_before
        self.changed.emit(None)
        return True

    def redo(self) -> bool:
        if self.session is not None:
            self.message.emit("At a network table, what is undone stays undone.")
            return False
        if self.table.redo() is None:
            return False
        self.dirty = True
        self.changed.emit(None)
        return True


def _places(cids: list[int], at: dict[int, Any] | None
            ) -> tuple[tuple[float, float] | None, ...] | None:
    """Each card's place where it was let go (None for the others), or None for none."""
    if not at:
        return None
    return tuple(None if at.get(c) is None else (float(at[c][0]), float(at[c][1]))
                 for c in cids)
