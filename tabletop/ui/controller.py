"""The one bridge between the Qt table and the engine.

Gestures become engine calls here; the engine's answer (events) is announced
with ``changed`` and the scene redraws from the engine's state. Nothing here
decides a rule: every question goes to the engine."""

from __future__ import annotations

import functools

from PySide6.QtCore import QObject, Signal

from tabletop.cards import demo
from tabletop.engine import Card, IllegalActionError, Result, Table, chooser_from_labels, views
from tabletop.engine.views import JUDGE, view


class TableController(QObject):
    changed = Signal(object)  # a Result (events) or None after undo/redo/new table
    reset = Signal()  # a new table: lay everything out again
    message = Signal(str)
    selection = Signal(object)  # cid or None
    # an action done at this table (not a scenario step replayed): its Result, and what
    # the person pointed at when it was a drop, ``(zone, player, mover)``, else None
    acted = Signal(object, object)

    def __init__(self, table: Table | None = None, parent=None):
        super().__init__(parent)
        self.table = table or demo.new_game()
        self.viewer: str | None = self.table.players[0]  # your seat, at the bottom
        self.labels: dict[int, str] = {}
        self.last_events: dict[int, tuple] = {}  # cid -> events of the last action touching it
        self.chooser = None  # set by the window: asks a person when the rules give a choice
        self.recorder = None  # a scenario Recorder while recording (it reads the history)
        self.dirty = False  # changes not yet saved to a file (the unsaved-changes guard asks)
        self._dirty_before = False
        self.anyone = False  # hot-seat play: every viewpoint handles every card
        self._pointed = None  # the drop under way: (zone, player, mover)
        # network play (ui/network.py): while a Session is set, the table is a copy of the
        # host's and every action below goes to the host as an intention instead
        self.session = None

    # ---- tables --------------------------------------------------------------
    def set_table(self, table: Table, labels: dict | None = None, dirty: bool = False) -> None:
        self.table = table
        self.dirty = dirty
        self.labels = dict(labels or {})
        self.last_events.clear()
        if "viewer" in table.screen:  # a saved game: seen as it was left
            self.viewer = table.screen["viewer"]
        if self.viewer is not JUDGE and self.viewer not in table.players:
            self.viewer = table.players[0]
        self.reset.emit()

    def new_table(self, edition: str | None = None, players=None, seed: int | None = None):
        ed = edition or self.table.edition.id
        self.set_table(demo.new_game(edition=ed, players=players or self.table.players,
                                     seed=seed if seed is not None else 1))

    def set_viewer(self, viewer: str | None) -> None:
        self.viewer = viewer
        self.reset.emit()

    def game(self) -> object:
        """What identifies the game being played (the table, or the network session
        whose copies of the host's table replace one another)."""
        return self.session if self.session is not None else self.table

    def show_copy(self, table: Table, first: bool) -> None:
        """Network play: draw a new copy of the host's table (``first``: lay it out
        afresh; else only what changed moves)."""
        self.table = table
        self.dirty = False
        self.last_events.clear()
        if first:
            self.reset.emit()
        else:
            self.changed.emit(None)

    def view(self) -> dict:
        """What the table shows this viewer: libraries face down even for the judge."""
        return view(self.table, self.viewer, libraries=False)

    def actor(self, obj) -> str:
        """Who is doing it: the viewer, or for the judge the object's controller or owner."""
        if self.viewer is not JUDGE:
            return self.viewer
        return obj.controller or obj.owner

    # ---- asking ----------------------------------------------------------------
    def can_drop(self, cid: int, zone: str, player: str | None) -> bool:
        return self.drop_hint(cid, zone, player) == "accept"

    def drop_hint(self, cid: int, zone: str, player: str | None) -> str:
        """"accept", "refuse" or "unknown" (a card this viewer may not see)."""
        obj = self.table.obj_of(cid)
        return views.drop_hint(self.table, obj, zone, player, self.viewer, self.actor(obj),
                               self.anyone)

    def table_has(self, cid) -> bool:
        """Whether a card id (from a drag that may have outlived its table) is this table's."""
        return isinstance(cid, int) and self.table.live(cid) is not None

    def may_handle(self, cid: int) -> bool:
        return views.move_refusal(self.table, self.table.obj_of(cid), self.viewer,
                                  self.anyone) is None

    def may_act_for(self, player: str) -> bool:
        return views.player_refusal(self.viewer, player, self.anyone) is None

    def _player_refusal(self, player: str) -> Result | None:
        why = views.player_refusal(self.viewer, player, self.anyone)
        return None if why is None else self.table.refuse(None, why)

    def _refusal(self, cid: int) -> Result | None:
        """The table's answer when this viewpoint may not handle the card."""
        obj = self.table.obj_of(cid)
        why = views.move_refusal(self.table, obj, self.viewer, self.anyone)
        return None if why is None else self.table.refuse(obj, why)

    # ---- doing -----------------------------------------------------------------
    def _done(self, res: Result, *, replay: bool = False) -> Result:
        self._dirty_before = self.dirty
        if not replay and res.events and not res.rejected:
            self.dirty = True
        for e in res.events:
            if e.cid is not None:
                self.last_events[e.cid] = res.events
        pointed, self._pointed = self._pointed, None
        self.changed.emit(res)
        if not replay and res.events:
            self.acted.emit(res, pointed)
        return res

    def show_result(self, res: Result) -> None:
        """Show events that happened elsewhere (a scenario step) as if just done; they
        come from a file, so they leave nothing unsaved."""
        self._done(res, replay=True)

    def drop(self, cid: int, zone: str, player: str | None, position="top",
             at: dict | None = None) -> Result:
        """``at``: card id -> where it was let go on a battlefield (it stays there)."""
        refused = self._refusal(cid)
        if refused is not None:
            return self._done(refused)
        t = self.table
        obj = t.obj_of(cid)
        chooser = self.chooser(obj) if self.chooser else None
        self._pointed = (zone, player, self.actor(obj))
        try:
            res = t.move(cid, zone, player, position=position, chooser=chooser,
                         by=self.actor(obj), at=at)
        except BaseException:
            self._pointed = None
            raise
        return self._done(res)

    def drop_many(self, cids, zone: str, player: str | None, position="top",
                  at: dict | None = None) -> Result:
        """Several cards dropped together: the engine decides for each (some land, one is
        redirected, one is refused), as one action. Cards this viewpoint may not handle
        stay where they are, and the log says why."""
        refusals = [r for r in (self._refusal(c) for c in cids) if r is not None]
        allowed = [c for c in cids if self._refusal(c) is None]
        if not allowed:
            return self._done(refusals[0]) if refusals else self._done(Result(()))
        if len(allowed) == 1:
            return self.drop(allowed[0], zone, player, position, at)

        def choose(obj, candidates):
            ask = self.chooser(obj) if self.chooser else None
            return ask(obj, candidates) if ask else candidates[0]

        by = self.viewer if self.viewer is not JUDGE else None
        t = self.table
        self._pointed = (zone, player, by or self.actor(t.obj_of(allowed[0])))
        try:
            res = t.move_many(allowed, zone, player, position=position,
                              chooser=choose if self.chooser else None, by=by, at=at)
        except BaseException:
            self._pointed = None
            raise
        return self._done(res)

    def move_many(self, cids, zone, player=None, order=None, apply=None,
                  position="top") -> Result:
        chooser = chooser_from_labels(apply) if apply is not None else None
        return self._done(self.table.move_many(cids, zone, player, order=order, chooser=chooser,
                                               position=position))

    def place(self, places: dict) -> Result:
        """Permanents put elsewhere on their battlefield (card id -> place, None: back in
        the rows): only those this viewpoint may handle move."""
        mine = {c: p for c, p in places.items() if self.may_handle(c)}
        before = len(self.table.history)
        res = self.table.place(mine) if mine else Result(())  # (told either way: the scene
        # draws from it, putting back a card this viewpoint may not handle)
        self._dirty_before = self.dirty
        if len(self.table.history) != before:
            self.dirty = True  # nothing to log, but the game changed
        self.changed.emit(res)
        return res

    def tap(self, cid: int, tapped: bool) -> Result:
        refused = self._refusal(cid)
        if refused is not None:
            return self._done(refused)
        return self._done(self.table.set_tapped(cid, tapped))

    def counters(self, cid: int, kind: str, n: int) -> Result:
        refused = self._refusal(cid)
        if refused is not None:
            return self._done(refused)
        return self._done(self.table.add_counters(cid, {kind: n}))

    def set_counters(self, cid: int, kind: str, value: int) -> Result:
        """Counters of one kind set to ``value`` (the engine records the difference)."""
        have = dict(self.table.obj_of(cid).counters).get(kind, 0)
        return self.counters(cid, kind, int(value) - have)

    def set_pt(self, cid: int, pt: str | None) -> Result:
        refused = self._refusal(cid)
        if refused is not None:
            return self._done(refused)
        try:
            return self._done(self.table.set_pt(cid, pt))
        except IllegalActionError as e:
            return self._done(self.table.refuse(self.table.obj_of(cid), str(e)))

    def note(self, cid: int, text: str) -> Result:
        refused = self._refusal(cid)
        if refused is not None:
            return self._done(refused)
        try:
            return self._done(self.table.set_note(cid, text))
        except IllegalActionError as e:
            return self._done(self.table.refuse(self.table.obj_of(cid), str(e)))

    def attach(self, cid: int, host: int | None) -> Result:
        """Attach a permanent to another (an Aura, an Equipment), or unattach it."""
        refused = self._refusal(cid)
        if refused is not None:
            return self._done(refused)
        t = self.table
        why = t.attach_refusal(cid, host) if host is not None else None
        if why is not None:
            return self._done(t.refuse(t.obj_of(cid), why))
        return self._done(t.attach(cid, host))

    def arrow(self, cid: int, to) -> Result:
        """An arrow from a card to a card (a card id) or a player (a name), drawn by the
        viewer (the judge draws it for the card's controller)."""
        obj = self.table.obj_of(cid)
        return self._done(self.table.arrow(self.actor(obj), cid, to))

    def clear_arrows(self) -> Result:
        """The viewer's arrows (the judge's: everyone's)."""
        who = None if self.viewer is JUDGE else self.viewer
        return self._done(self.table.clear_arrows(who))

    def turn_face(self, cid: int, down: bool) -> Result:
        refused = self._refusal(cid)
        if refused is not None:
            return self._done(refused)
        return self._done(self.table.turn_face(cid, down))

    def reveal(self, cid: int, revealed: bool) -> Result:
        refused = self._refusal(cid)
        if refused is not None:
            return self._done(refused)
        return self._done(self.table.reveal(cid, revealed))

    def draw(self, player: str, n: int = 1) -> Result:
        refused = self._player_refusal(player)
        if refused is not None:
            return self._done(refused)
        return self._done(self.table.draw(player, n))

    def shuffle(self, player: str) -> Result:
        refused = self._player_refusal(player)
        if refused is not None:
            return self._done(refused)
        return self._done(self.table.shuffle(player))

    def untap_all(self, player: str) -> Result:
        """Untap each of the player's permanents (one untap action each, so undo and a
        recording see them one by one)."""
        refused = self._player_refusal(player)
        if refused is not None:
            return self._done(refused)
        t = self.table
        events = []
        for o in t.objects_in((None, "battlefield")):
            if o.controller == player and o.tapped:
                events += t.set_tapped(o.cid, False).events
        return self._done(Result(tuple(events)))

    def create_token(self, name: str, player: str, types=("Creature",), subtypes=()) -> Result:
        """A token from the card database's tokens when it knows the name, else a custom one."""
        refused = self._player_refusal(player)
        if refused is not None:
            return self._done(refused)
        from tabletop.cards.db import default
        known = next((c for c in default().tokens() if c.name.casefold() == name.casefold()), None)
        card = known or Card(name, tuple(types), tuple(subtypes))
        return self._done(self.table.create_token(card, player))

    def create_tokens(self, card: Card, player: str, count: int = 1,
                      tapped: bool = False) -> Result:
        refused = self._player_refusal(player)
        if refused is not None:
            return self._done(refused)
        return self._done(self.table.create_token(card, player, tapped=tapped, count=count))

    def token_kinds(self) -> list:
        """The card database's tokens (for the token dialog)."""
        from tabletop.cards.db import default
        return list(default().tokens())

    def bring_in(self, player: str, card: Card, zone: str = "hand") -> Result:
        """A card from the player's sideboard comes into the game (a wish, 400.10)."""
        refused = self._player_refusal(player)
        if refused is not None:
            return self._done(refused)
        return self._done(self.table.bring_in(card, player, zone))

    def copy_as_token(self, cid: int) -> Result:
        """A token that copies a card this viewer can see, for the viewer's seat (or, for
        the judge, the card's controller)."""
        obj = self.table.obj_of(cid)
        face = views.face_of(self.table, obj, self.viewer)
        if not isinstance(face, views.Seen) or face.card is None:
            return self._done(self.table.refuse(None, "a card you can't see can't be copied"))
        return self.create_tokens(face.card, self.actor(obj))

    def put_ability(self, cid: int, text: str) -> Result:
        refused = self._refusal(cid)
        if refused is not None:
            return self._done(refused)
        obj = self.table.obj_of(cid)
        return self._done(self.table.put_ability(text, self.actor(obj), cid))

    def mulligan(self, player: str) -> Result:
        return self._done(self.table.mulligan(player))

    def roll(self, player: str, sides: int) -> Result:
        return self._done(self.table.roll(player, sides))

    def set_life(self, player: str, life: int) -> Result:
        return self._done(self.table.set_life(player, life))

    def player_counter(self, player: str, kind: str, value: int) -> Result:
        refused = self._player_refusal(player)
        if refused is not None:
            return self._done(refused)
        return self._done(self.table.set_player_counter(player, kind, value))

    def add_life(self, player: str, delta: int) -> Result:
        refused = self._player_refusal(player)
        if refused is not None:
            return self._done(refused)
        return self.set_life(player, self.table.life[player] + delta)

    def look(self, whose: str, count: int | None = None) -> Result:
        """The viewer looks at the top ``count`` of a library (or searches it all):
        logged for everyone, the cards named to nobody."""
        who = self.viewer if self.viewer is not JUDGE else whose
        return self._done(self.table.look(who, whose, count))

    def show(self, player: str, cids, to: str | None = None) -> Result:
        refused = self._player_refusal(player)
        if refused is not None:
            return self._done(refused)
        return self._done(self.table.show(player, cids, to))

    def top_cids(self, player: str, n: int) -> list[int]:
        """The card ids of the top n cards of a library (ids, never faces)."""
        return [c.cid for c in views.top_choices(self.table, player, n, JUDGE)]

    def mill(self, player: str, n: int) -> Result:
        """The top n cards of a library into its owner's graveyard, one action."""
        refused = self._player_refusal(player)
        if refused is not None:
            return self._done(refused)
        cids = self.top_cids(player, n)
        if not cids:
            return self._done(self.table.refuse(None, f"{player}'s library is empty"))
        return self._done(self.table.move_many(cids, "graveyard", player))

    def top_to_bottom(self, player: str) -> Result:
        cids = self.top_cids(player, 1)
        if not cids:
            return self._done(Result(()))
        return self.drop(cids[0], "library", player, "bottom")

    def move_all(self, player: str, src: str, dst: str, shuffle: bool = False) -> Result:
        refused = self._player_refusal(player)
        if refused is not None:
            return self._done(refused)
        return self._done(self.table.zone_to_zone(player, src, dst, shuffle=shuffle))

    def next_turn(self, untap: bool = False) -> Result:
        return self._done(self.table.next_turn(untap=untap))

    def set_phase(self, phase: str, draw: bool = False) -> Result:
        return self._done(self.table.set_phase(phase, draw=draw))

    def cleanup(self, player: str, discard=None) -> Result:
        refused = self._player_refusal(player)
        if refused is not None:
            return self._done(refused)
        return self._done(self.table.cleanup(player, discard))

    def undo(self) -> bool:
        action = self.table.undo()
        if action is None:
            return False
        self.dirty = True
        self.changed.emit(None)
        return True

    def take_back(self, mark: tuple | None = None) -> bool:
        """Forget the last action (a dialog that followed it was cancelled): the game,
        its redo list and its unsaved state are exactly as before it (`mark`: the
        table's mark() taken just before the action)."""
        action = self.table.take_back(mark)
        if action is None:
            return False
        self.dirty = self._dirty_before
        self.changed.emit(None)
        return True

    def redo(self) -> bool:
        if self.table.redo() is None:
            return False
        self.dirty = True
        self.changed.emit(None)
        return True


# Every action a person takes at the table: at a networked table each goes to the host
# (Session.perform), which answers with a new view; nothing is changed here. Actions made
# of these (set_counters, copy_as_token, top_to_bottom) only read the table, then call
# them.
NETWORKED = ("set_table", "new_table", "set_viewer", "drop", "drop_many", "move_many",
             "place", "tap", "counters", "set_pt", "note", "attach", "arrow",
             "clear_arrows", "turn_face", "reveal", "draw", "shuffle", "untap_all",
             "create_token", "create_tokens", "bring_in", "put_ability",
             "mulligan", "roll", "set_life", "player_counter", "add_life", "look", "show",
             "mill", "move_all", "next_turn", "set_phase", "cleanup", "undo",
             "take_back", "redo")


def _networked(name: str):
    local = getattr(TableController, name)

    @functools.wraps(local)
    def action(self, *args, **kwargs):
        if self.session is not None:
            return self.session.perform(name, *args, **kwargs)
        return local(self, *args, **kwargs)
    return action


for _name in NETWORKED:
    setattr(TableController, _name, _networked(_name))
