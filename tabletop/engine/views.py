"""What a given player may see (400.2 and the hidden-zone rules), and the judge view.

A view is plain data: for each zone, its objects top first, each either seen
(its id, name and status) or hidden (only that a card is there). Counts are
always visible (401.3, 402.3). ``JUDGE`` sees everything."""

from __future__ import annotations

from dataclasses import dataclass

from tabletop.engine.model import Obj

JUDGE = None  # the judge's viewpoint: sees every face


@dataclass(slots=True, frozen=True)
class Seen:
    id: int
    cid: int
    name: str
    face_down: bool
    tapped: bool
    counters: tuple
    token: bool
    controller: str | None
    owner: str


@dataclass(slots=True, frozen=True)
class Hidden:
    """A card whose face this viewer may not see; the id is the only handle
    (ids change with every zone change, so they reveal nothing)."""

    id: int
    face_down: bool = True
    tapped: bool = False  # status on the battlefield is public even for a hidden face


def may_see(table, obj: Obj, viewer: str | None, libraries: bool = True) -> bool:
    """Whether ``viewer`` (a player, or JUDGE) may see this object's face.

    ``libraries=False`` draws libraries face down even for the judge, as a table
    does (401.2): the judge still sees every library card by asking for it."""
    if viewer is JUDGE or obj.zone is None:
        return viewer is JUDGE and (libraries or obj.zone is None or obj.zone[1] != "library"
                                    or obj.revealed)
    zone = obj.zone[1]
    if zone == "library":
        return obj.revealed
    if zone == "hand":
        return obj.zone[0] == viewer or obj.revealed
    if obj.face_down:
        if zone in ("battlefield", "stack"):
            return obj.controller == viewer
        if zone == "command":
            return obj.owner == viewer
        return False  # exile, phased-out, graveyard, ante: nobody
    return True


def view(table, viewer: str | None, libraries: bool = True) -> dict:
    """Zone key -> list of Seen or Hidden, top first."""
    out = {}
    for key, ids in table.zones.items():
        items = []
        for i in reversed(ids):
            o = table.objs[i]
            if may_see(table, o, viewer, libraries):
                items.append(Seen(o.id, o.cid, o.card.name, o.face_down, o.tapped,
                                  tuple(sorted(o.counters.items())), o.token, o.controller,
                                  o.owner))
            else:
                items.append(Hidden(o.id, True, o.tapped))
        out[key] = items
    return out


def counts(table) -> dict:
    """How many objects each zone holds: public to everyone."""
    return {key: len(ids) for key, ids in table.zones.items()}


def top_cards(table, player: str, n: int) -> list[Obj]:
    """The top n cards of a player's library, for an effect that lets someone look."""
    return table.objects_in((player, "library"))[:n]


def event_names_card(table, event, viewer) -> bool:
    """Whether telling ``viewer`` about this event may name its card: the viewer may
    see the object now, or everyone saw it leave a public zone."""
    if viewer is JUDGE:
        return True
    obj = table.objs.get(event.obj) if event.obj is not None else None
    if obj is None:
        return True
    if may_see(table, obj, viewer):
        return True
    return event.src is not None and event.src[1] not in ("library", "hand")
