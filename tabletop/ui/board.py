"""What the window is shown of a table: the one thing the scene, the inspector, the
log and the dialogs read.

A ``Board`` answers in the engine's view types (Seen, Hidden, PlayerSeen, Arrow,
Inspected, Told...), for one viewer. At this desk it is ``LocalBoard``: the engine's
views of the table being played. At a network table it is ``net.mirror.SentBoard``:
the view the host sent this seat, read as it came, never rebuilt into a table. So
what the window draws is what the viewer may see, wherever the table is."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from tabletop.engine import views
from tabletop.engine.editions import Edition
from tabletop.engine.model import Card, CardId, Effect, Event, ObjId, Zone, ZoneKey
from tabletop.engine.state import LogEntry, TableState
from tabletop.engine.views import (
    Arrow,
    Choice,
    Handle,
    Hidden,
    Inspected,
    PlayerSeen,
    Seen,
    Shown,
    Told,
)

Face = Seen | Hidden
Selected = int | tuple[str, int]  # a card id, or ("o", object id) for one picked hidden


class Board(Protocol):
    """A table as its viewer is shown it."""

    @property
    def viewer(self) -> str | None: ...
    @property
    def players(self) -> tuple[str, ...]: ...
    @property
    def edition(self) -> Edition: ...
    @property
    def active(self) -> str: ...
    @property
    def turn(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def life(self) -> Mapping[str, int]: ...
    @property
    def mulligans(self) -> Mapping[str, int]: ...
    @property
    def journal(self) -> Sequence[LogEntry]: ...
    @property
    def max_hand(self) -> int: ...
    @property
    def last_roll(self) -> tuple[str, int, int] | None: ...

    def zones(self) -> dict[ZoneKey, list[Face]]:
        """Each zone's cards, top first (libraries face down, even for the judge)."""
    def counts(self) -> dict[ZoneKey, int]: ...
    def zones_on_the_table(self) -> list[Zone]: ...
    def player_view(self, player: str) -> PlayerSeen: ...
    def effects(self) -> list[Effect]:
        """The replacement effects in force (public)."""
    def arrows(self) -> list[Arrow]: ...
    def handle(self, oid: int) -> Handle | None:
        """The card behind an item drawn with object id ``oid`` (its public status)."""
    def face(self, cid: int) -> Face | None:
        """A card as the viewer sees it, None when it is not on this table."""
    def inspect(self, selected: Selected) -> tuple[int, Inspected] | None:
        """The selected card now (its card id) as the viewer may know it."""
    def choice_of(self, cid: int, viewer: str | None, looking: bool = False) -> Choice: ...
    def choices(self, key: ZoneKey, viewer: str | None,
                looking: bool = False) -> list[Choice]: ...
    def top_cids(self, player: str, n: int) -> list[int]: ...
    def pile(self, key: ZoneKey, viewer: str | None, looking: bool = False,
             count: int | None = None) -> list[Face]: ...
    def sideboard(self, player: str, viewer: str | None) -> list[Card] | int: ...
    def shown(self) -> Shown | None: ...
    def drop_hint(self, cid: int, zone: Zone, player: str | None, by: str | None,
                  anyone: bool) -> str: ...
    def move_refusal(self, cid: int, anyone: bool) -> str | None: ...
    def tell(self, event: Event) -> Told: ...
    def zone_label(self, key: ZoneKey | None) -> str: ...
    def deck_names(self) -> dict[str, str]: ...
    def game_name(self) -> str: ...
    def printings(self) -> dict[str, tuple[str, str]]: ...


class LocalBoard:
    """The table played at this desk, through the engine's views for ``viewer``."""

    __slots__ = ("_t", "viewer")

    def __init__(self, table: TableState, viewer: str | None) -> None:
        self._t = table
        self.viewer = viewer

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self._t.players)

    @property
    def edition(self) -> Edition:
        return self._t.edition

    @property
    def active(self) -> str:
        return self._t.active

    @property
    def turn(self) -> int:
        return self._t.turn

    @property
    def phase(self) -> str:
        return self._t.phase

    @property
    def life(self) -> Mapping[str, int]:
        return self._t.life

    @property
    def mulligans(self) -> Mapping[str, int]:
        return self._t.mulligans

    @property
    def journal(self) -> Sequence[LogEntry]:
        return self._t.journal

    @property
    def max_hand(self) -> int:
        return self._t.max_hand

    @property
    def last_roll(self) -> tuple[str, int, int] | None:
        return self._t.last_roll

    def zones(self) -> dict[ZoneKey, list[Face]]:
        return views.view(self._t, self.viewer, libraries=False)

    def counts(self) -> dict[ZoneKey, int]:
        return views.counts(self._t)

    def zones_on_the_table(self) -> list[Zone]:
        return views.zones_on_the_table(self._t)

    def player_view(self, player: str) -> PlayerSeen:
        return views.player_view(self._t, player)

    def effects(self) -> list[Effect]:
        return views.effects_in_force(self._t)

    def arrows(self) -> list[Arrow]:
        return views.arrows(self._t)

    def handle(self, oid: int) -> Handle | None:
        return views.handle(self._t, ObjId(oid))

    def face(self, cid: int) -> Face | None:
        obj = self._t.live(CardId(cid))
        return None if obj is None else views.face_of(self._t, obj, self.viewer)

    def inspect(self, selected: Selected) -> tuple[int, Inspected] | None:
        obj = views.current(self._t, selected)
        return None if obj is None else (obj.cid, views.inspect(self._t, obj, self.viewer))

    def choice_of(self, cid: int, viewer: str | None, looking: bool = False) -> Choice:
        return views.choice_of(self._t, CardId(cid), viewer, looking)

    def choices(self, key: ZoneKey, viewer: str | None, looking: bool = False) -> list[Choice]:
        return views.choices(self._t, key, viewer, looking)

    def top_cids(self, player: str, n: int) -> list[int]:
        return [c.cid for c in views.top_choices(self._t, player, n, views.JUDGE)]

    def pile(self, key: ZoneKey, viewer: str | None, looking: bool = False,
             count: int | None = None) -> list[Face]:
        return views.pile(self._t, key, viewer, looking, count)

    def sideboard(self, player: str, viewer: str | None) -> list[Card] | int:
        return views.sideboard(self._t, player, viewer)

    def shown(self) -> Shown | None:
        return views.shown(self._t, self.viewer)

    def drop_hint(self, cid: int, zone: Zone, player: str | None, by: str | None,
                  anyone: bool) -> str:
        return views.drop_hint(self._t, self._t.obj_of(CardId(cid)), zone, player, self.viewer, by,
                               anyone)

    def move_refusal(self, cid: int, anyone: bool) -> str | None:
        return views.move_refusal(self._t, self._t.obj_of(CardId(cid)), self.viewer, anyone)

    def tell(self, event: Event) -> Told:
        return views.tell(self._t, event, self.viewer)

    def zone_label(self, key: ZoneKey | None) -> str:
        return views.zone_label(self._t, key)

    def deck_names(self) -> dict[str, str]:
        return views.deck_names(self._t)

    def game_name(self) -> str:
        return views.game_name(self._t)

    def printings(self) -> dict[str, tuple[str, str]]:
        return views.printings(self._t)
