"""The table a game is played on, composed of three parts:

- its state and history (``state.py``, ``TableState``): plain data (objects, zone
  lists, life, effects), every change recorded as an op inside an action, undo and
  redo by those ops, and the log;
- the move pipeline (``moves.py``, ``MovePipeline``): where an object really goes,
  and the move itself;
- every other action (``actions.py``, ``Actions``): drawing, shuffling, status,
  counters, tokens, turns...

``Table`` is the state, holding the pipeline and the actions; their public methods
are the Table's own (``t.move(...)``, ``t.draw(...)``), so the rest of the program
sees one object. Neither part keeps state of its own: they change the table only
through its recorded changes."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar

from tabletop.engine import editions, views
from tabletop.engine.actions import Actions
from tabletop.engine.model import Event
from tabletop.engine.moves import MovePipeline
from tabletop.engine.state import (  # what readers import from here, too
    TOLD_ONLY,
    Action,
    Decoder,
    LogEntry,
    Mark,
    Result,
    TableState,
)

__all__ = [
    "TOLD_ONLY",
    "Action",
    "Decoder",
    "LogEntry",
    "Mark",
    "Result",
    "Table",
    "TableState",
]

P = ParamSpec("P")
R = TypeVar("R")


class _Part(Generic[P, R]):
    """A Table method that is one of its parts' methods, with that method's signature."""

    __slots__ = ("name", "part")

    def __init__(self, part: str, fn: Callable[Concatenate[Any, P], R]) -> None:
        self.part, self.name = part, fn.__name__

    def __get__(self, table: object, owner: type | None = None) -> Callable[P, R]:
        method: Callable[P, R] = getattr(getattr(table, self.part), self.name)
        return method


class Table(TableState):
    """The whole table: state and history, the move pipeline, the actions."""

    def __init__(self, players: Iterable[str], edition: str = editions.NEWEST,
                 seed: int | None = 0, ante: bool = False, max_hand: int = 7,
                 life: int = 20) -> None:
        super().__init__(players, edition, seed, ante, max_hand, life)
        self.pipeline = MovePipeline(self)
        self.actions = Actions(self, self.pipeline)
        # each part's method bound once, here: a call then skips _Part.__get__
        for name, part, method in _PARTS:
            self.__dict__[name] = getattr(getattr(self, part), method)

    # ---- moving (moves.py) ----------------------------------------------------------
    plan_move = _Part("pipeline", MovePipeline.plan_move)
    can_move = _Part("pipeline", MovePipeline.can_move)
    move = _Part("pipeline", MovePipeline.move)
    move_many = _Part("pipeline", MovePipeline.move_many)
    describe = _Part("pipeline", MovePipeline.describe)

    # ---- what each player knows of an event (views.py) ------------------------------
    def knowers(self, e: Event) -> tuple[str, ...]:
        return views.knowers(self, e)

    def unnamed(self, e: Event) -> str:
        return views.hidden_sentence(self, e)

    # ---- every other action (actions.py) ----------------------------------------------
    find_new = _Part("actions", Actions.find_new)
    draw = _Part("actions", Actions.draw)
    shuffle = _Part("actions", Actions.shuffle)
    reveal_top = _Part("actions", Actions.reveal_top)
    set_tapped = _Part("actions", Actions.set_tapped)
    add_counters = _Part("actions", Actions.add_counters)
    turn_face = _Part("actions", Actions.turn_face)
    reveal = _Part("actions", Actions.reveal)
    modify = _Part("actions", Actions.modify)
    set_choices = _Part("actions", Actions.set_choices)
    attach_refusal = _Part("actions", Actions.attach_refusal)
    attach = _Part("actions", Actions.attach)
    set_pt = _Part("actions", Actions.set_pt)
    set_note = _Part("actions", Actions.set_note)
    place = _Part("actions", Actions.place)
    arrow = _Part("actions", Actions.arrow)
    clear_arrows = _Part("actions", Actions.clear_arrows)
    create_token = _Part("actions", Actions.create_token)
    bring_in = _Part("actions", Actions.bring_in)
    put_ability = _Part("actions", Actions.put_ability)
    create_emblem = _Part("actions", Actions.create_emblem)
    zone_to_zone = _Part("actions", Actions.zone_to_zone)
    cleanup = _Part("actions", Actions.cleanup)
    ante_start = _Part("actions", Actions.ante_start)
    award_ante = _Part("actions", Actions.award_ante)
    mulligan = _Part("actions", Actions.mulligan)
    roll = _Part("actions", Actions.roll)
    next_turn = _Part("actions", Actions.next_turn)
    set_phase = _Part("actions", Actions.set_phase)
    next_phase = _Part("actions", Actions.next_phase)
    set_life = _Part("actions", Actions.set_life)
    set_player_counter = _Part("actions", Actions.set_player_counter)
    look = _Part("actions", Actions.look)
    show = _Part("actions", Actions.show)
    commander_returns = _Part("actions", Actions.commander_returns)
    add_sticker = _Part("actions", Actions.add_sticker)
    merge = _Part("actions", Actions.merge)


# (name on the Table, the part holding it, its name there), for Table.__init__
_PARTS = tuple((name, p.part, p.name) for name, p in vars(Table).items() if isinstance(p, _Part))
