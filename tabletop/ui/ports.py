"""Where the window's intents go: a table port.

The controller turns each gesture into an intent (engine/intents.py) and hands it to
its port. ``LocalPort`` carries it out on the table in this window (the viewpoint's
right to it checked first, as the engine's views say); at a network table the
session's ``RemotePort`` sends it to the host as the protocol's ``act`` message, and
the host's answer (a new view) is what changes the table on screen. One dispatch
each: a new action is one intent, one engine method and one case here."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from tabletop.engine import Card, IllegalActionError, Result, Table, chooser_from_labels, views
from tabletop.engine.model import CardId, Effect, Zone
from tabletop.engine.views import JUDGE
from tabletop.ui import later

if TYPE_CHECKING:
    from tabletop.engine import intents
else:  # loaded after the window's first frame (see controller.py)
    intents = later.module("tabletop.engine.intents")


class TablePort(Protocol):
    def perform(self, intent: intents.Intent) -> Result:
        """Carry the intent out (or send it); the result as far as it is known here."""

    def perform_all(self, many: list[intents.Intent]) -> Result:
        """Several intents a person makes as one gesture (untap all)."""


class Controller(Protocol):
    """What a local port needs of the window's controller."""

    table: Table
    viewer: str | None
    anyone: bool
    chooser: Callable[..., Any] | None
    pointed: tuple[Any, ...] | None  # the drop under way: (zone, player, mover)

    def actor(self, obj: Any) -> str: ...

    def may_handle(self, cid: int) -> bool: ...

    def top_cids(self, player: str, n: int) -> list[int]: ...

    def done(self, res: Result, *, replay: bool = False) -> Result: ...

    def placed(self, res: Result, changed: bool) -> Result: ...


class LocalPort:
    """The intents of this window's table, carried out here."""

    def __init__(self, controller: Controller) -> None:
        self.c = controller

    def perform(self, intent: intents.Intent) -> Result:
        c = self.c
        if isinstance(intent, intents.PlaceCards):  # nothing logged: told either way
            before = len(c.table.history)
            res = self._place(intent)
            return c.placed(res, len(c.table.history) != before)
        refused = self._refusal(intent)
        if refused is not None:
            return c.done(refused)
        if isinstance(intent, intents.Move | intents.MoveMany):
            return self._move(intent)
        return c.done(self._apply(intent))

    def perform_all(self, many: list[intents.Intent]) -> Result:
        events: list[Any] = []
        for intent in many:
            refused = self._refusal(intent)
            events += (refused or self._apply(intent)).events
        return self.c.done(Result(tuple(events)))

    # ---- whether this viewpoint may ----------------------------------------------------
    def _refusal(self, intent: intents.Intent) -> Result | None:
        """The table's answer when this viewpoint may not make the intent."""
        c, t = self.c, self.c.table
        if intent.SEAT == "card" and not isinstance(intent, intents.MoveMany):
            for cid in intent.handled():
                refused = self._card_refusal(cid)
                if refused is not None:
                    return refused
        player = getattr(intent, "player", None)
        if intent.SEAT == "own" and player is not None and not isinstance(
                intent, intents.Mulligan | intents.Roll):
            why = views.player_refusal(c.viewer, player, c.anyone)
            if why is not None:
                return t.refuse(None, why)
        return None

    def _card_refusal(self, cid: int) -> Result | None:
        # (an intent names a card here by its card id)
        t = self.c.table
        obj = t.obj_of(CardId(cid))
        why = views.move_refusal(t, obj, self.c.viewer, self.c.anyone)
        return None if why is None else t.refuse(obj, why)

    def _actor(self, cid: int) -> str:
        return self.c.actor(self.c.table.obj_of(CardId(cid)))

    def _player(self, intent: Any) -> str:
        """The player an intent of one's own is for (the viewpoint's, if not named)."""
        player = intent.player
        if player is None:
            player = self.c.viewer if self.c.viewer is not JUDGE else self.c.table.active
        return str(player)

    # ---- carrying out ------------------------------------------------------------------
    def _move(self, intent: intents.Move | intents.MoveMany) -> Result:
        """A drop: the engine decides where each card goes (asking this window's chooser
        when the rules give a choice); cards this viewpoint may not handle stay where
        they are, and the log says why."""
        c, t = self.c, self.c.table
        if isinstance(intent, intents.MoveMany):
            cids = list(intent.handled())
            refusals = [r for r in map(self._card_refusal, cids) if r is not None]
            allowed = [x for x in cids if c.may_handle(x)]
            if not allowed:
                return c.done(refusals[0]) if refusals else c.done(Result(()))
            at: dict[int, tuple[float, float]] = {
                x: a for x, a in zip(cids, intent.at or (), strict=False) if a is not None}
            if len(allowed) == 1:
                return self.perform(intents.Move(
                    intents.Ref(allowed[0]), intent.zone, intent.player, intent.position,
                    intent.face_down, at.get(allowed[0]), intent.apply))

            def choose(obj: Any, candidates: Any) -> Any:
                ask = c.chooser(obj) if c.chooser else None
                return ask(obj, candidates) if ask else candidates[0]
            chooser = chooser_from_labels(list(intent.apply)) if intent.apply is not None \
                else choose if c.chooser else None
            by = c.viewer if c.viewer is not JUDGE else None
            c.pointed = (intent.zone, intent.player, by or self._actor(allowed[0]))
            try:
                res = t.move_many([CardId(x) for x in allowed], intent.zone, intent.player,
                                  position=intent.position,
                                  order=allowed if intent.ordered else None,
                                  chooser=chooser, by=by,
                                  face_down=bool(intent.face_down), at=at or None)
            except BaseException:
                c.pointed = None
                raise
            return c.done(res)
        cid = intent.id
        obj = t.obj_of(CardId(cid))
        chooser = chooser_from_labels(list(intent.apply)) if intent.apply is not None \
            else c.chooser(obj) if c.chooser else None
        c.pointed = (intent.zone, intent.player, c.actor(obj))
        try:
            res = t.move(CardId(cid), intent.zone, intent.player, position=intent.position,
                         chooser=chooser, by=c.actor(obj), face_down=bool(intent.face_down),
                         at=None if intent.at is None else {CardId(cid): intent.at})
        except BaseException:
            c.pointed = None
            raise
        return c.done(res)

    def _place(self, intent: intents.PlaceCards) -> Result:
        """Permanents put elsewhere on their battlefield: those this viewpoint may handle."""
        mine: dict[CardId, Any] = {CardId(x): a for x, a in zip(intent.ids, intent.at, strict=True)
                                if self.c.may_handle(x)}
        return self.c.table.place(mine) if mine else Result(())

    def _apply(self, intent: intents.Intent) -> Result:
        """The engine's part of an intent the viewpoint may make."""
        c, t = self.c, self.c.table
        match intent:
            case intents.Tap(id=cid, tapped=tapped):
                return t.set_tapped(CardId(cid), tapped)
            case intents.Counters(id=cid, kind=kind, delta=delta):  # (kinds are few)
                return self._or_refused(lambda: t.add_counters(CardId(cid), {kind: delta}))
            case intents.Face(id=cid, down=down):
                return t.turn_face(CardId(cid), down)
            case intents.Reveal(id=cid, revealed=revealed):
                return t.reveal(CardId(cid), revealed)
            case intents.PT(id=cid, text=text):
                try:
                    return t.set_pt(CardId(cid), text or None)
                except IllegalActionError as e:
                    return t.refuse(t.obj_of(CardId(cid)), str(e))
            case intents.Note(id=cid, text=text):
                try:
                    return t.set_note(CardId(cid), text)
                except IllegalActionError as e:
                    return t.refuse(t.obj_of(CardId(cid)), str(e))
            case intents.Attach(id=cid, host=host):  # an Aura, an Equipment; or off
                why = t.attach_refusal(CardId(cid), None if host is None else CardId(host))
                if why is not None:
                    return t.refuse(t.obj_of(CardId(cid)), why)
                return t.attach(CardId(cid), None if host is None else CardId(host))
            case intents.Ability(id=cid, text=text):
                return t.put_ability(text, self._actor(cid), CardId(cid))
            case intents.Sticker(id=cid, text=text):  # its owner's (123.3b)
                by = None if c.viewer is JUDGE or c.anyone else c.viewer
                return t.add_sticker(CardId(cid), text, by=by)
            case intents.Merge(id=cid, onto=onto, on_top=on_top):  # mutate (728.2)
                return t.merge(CardId(cid), CardId(onto), on_top)
            case intents.CommanderReturns(id=cid):  # 903.9a: the owner's choice
                return t.commander_returns(CardId(cid))
            case intents.Arrow(id=cid, to=to):  # the judge draws it for the controller
                return t.arrow(self._actor(cid), CardId(cid), to if isinstance(to, str) else CardId(to))
            case intents.ClearArrows():  # the viewer's (the judge's: everyone's)
                return t.clear_arrows(None if c.viewer is JUDGE else c.viewer)
            case intents.Draw(count=count):
                return t.draw(self._player(intent), count)
            case intents.Shuffle():
                return t.shuffle(self._player(intent))
            case intents.Roll(sides=sides):
                return t.roll(self._player(intent), sides)
            case intents.Life(delta=delta):
                player = self._player(intent)
                return t.set_life(player, t.life[player] + delta)
            case intents.PlayerCounter(kind=kind, value=value):
                return self._or_refused(
                    lambda: t.set_player_counter(self._player(intent), kind, value))
            case intents.Token():
                card = intent.card or Card(
                    intent.name, intent.types or ("Creature",), intent.subtypes,
                    colors=intent.colors, power=intent.power, toughness=intent.toughness)
                return t.create_token(card, self._player(intent), tapped=intent.tapped,
                                      count=intent.count)
            case intents.BringIn(name=name, zone=zone):  # from the sideboard (400.10)
                player = self._player(intent)
                wished = next((x for x in t.sideboards.get(player, ()) if x.name == name),
                              None)
                if wished is None:
                    return t.refuse(None, f"no {name} in {player}'s sideboard")
                return t.bring_in(wished, player, zone)
            case intents.Mulligan():
                return t.mulligan(self._player(intent))
            case intents.Mill(count=count):
                player = self._player(intent)
                cids = c.top_cids(player, count)
                if not cids:
                    return t.refuse(None, f"{player}'s library is empty")
                return t.move_many([CardId(x) for x in cids], Zone.GRAVEYARD, player)
            case intents.MoveAll(src=src, zone=zone, shuffle=shuffle):
                return t.zone_to_zone(self._player(intent), src, zone, shuffle=shuffle)
            case intents.Show(ids=ids, to=to):
                return t.show(self._player(intent), [CardId(x) for x in ids], to)
            case intents.Cleanup(ids=ids):
                return t.cleanup(self._player(intent), [CardId(x) for x in ids] or None)
            case intents.Look(player=whose, count=count):  # logged; named to nobody
                whose = whose or self._player(intent)
                return t.look(c.viewer if c.viewer is not JUDGE else whose, whose, count)
            case intents.AddCard():  # a judge sets the table up
                return self._add_card(intent)
            case intents.RemoveCard(id=cid):
                return self._or_refused(lambda: t.remove_card(CardId(cid)))
            case intents.AddEffect():
                affects = intent.affects if intent.id is None else f"cid:{intent.id}"
                effect = Effect(intent.label, intent.watch, intent.instead, intent.source,
                                intent.src, affects, intent.optional)
                return self._or_refused(lambda: t.add_effect(effect))
            case intents.EndEffect(label=label):
                return self._or_refused(lambda: t.end_effect(label))
            case intents.Modify(id=cid, effect=effect, origin=origin):
                return t.modify(CardId(cid), effect, origin)
            case intents.NextTurn(untap=untap):
                return t.next_turn(untap=untap)
            case intents.Phase(phase=phase, draw=draw):
                return t.set_phase(phase, draw=draw)
        raise IllegalActionError(f"{intent.NAME} is not an action of this table")

    def _or_refused(self, act: Callable[[], Result]) -> Result:
        """The engine's answer, or what it refused (said in the log) as a refusal."""
        try:
            return act()
        except IllegalActionError as e:
            return self.c.table.refuse(None, str(e))

    def _add_card(self, intent: intents.AddCard) -> Result:
        """A named card put on the table (attached where asked): one action."""
        t = self.c.table

        def add() -> Result:  # what the rules refuse (an instant on the battlefield) is said
            t.add_card(intent.the_card(), intent.owner, intent.zone, player=intent.player,
                       controller=intent.controller, tapped=intent.tapped,
                       face_down=intent.face_down, counters=dict(intent.counters),
                       position=intent.position, commander=intent.commander,
                       attached_to=None if intent.host is None else CardId(intent.host))
            return Result(t.history[-1].events)
        return self._or_refused(add)


class RemotePort:
    """The intents of a network seat, sent to the host (nothing changes here until the
    host answers with a new view). Cards are named by the ids the host sent this seat,
    which are the ids of the copy on screen."""

    def __init__(self, session: Any) -> None:
        # the session holds its port: held back weakly, the two are freed when the
        # window lets the session go, not by Python's collector (a Qt object collected
        # on another thread once froze the window)
        self._session = weakref.ref(session)

    @property
    def s(self) -> Any:
        return self._session()

    def perform(self, intent: intents.Intent) -> Result:
        s = self.s
        if s is None:  # (the session is over)
            return Result(())
        if s.view is None:
            s.c.message.emit("Waiting for the host's table…")  # ids on screen are not yet
            return Result(())  # the host's
        player = getattr(intent, "player", None)
        if intent.SEAT == "own" and player not in (None, s.seat):
            s.c.message.emit("At a network table you act for your own seat only.")
            return Result(())
        if isinstance(intent, intents.MoveMany) and len(intent.ids) == 1:  # a move
            intent = intents.Move(intent.ids[0], intent.zone, intent.player,
                                  intent.position, intent.face_down,
                                  intent.at[0] if intent.at else None, intent.apply)
        s.send_intent(intent)
        return Result(())  # the host answers with a new view

    def perform_all(self, many: list[intents.Intent]) -> Result:
        for intent in many:
            self.perform(intent)
        return Result(())
