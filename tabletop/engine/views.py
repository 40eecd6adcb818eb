"""What a given player may see (400.2 and the hidden-zone rules), and the judge view.

A view is plain data: for each zone, its objects top first, each either seen
(its id, name and status) or hidden (only that a card is there). Counts are
always visible (401.3, 402.3). ``JUDGE`` sees everything."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from tabletop.engine.model import (
    ANTE,
    BATTLEFIELD,
    COMMAND,
    CONTROLLED,
    HAND,
    LIBRARY,
    ORDERED,
    REJECTED,
    SHOWN,
    STACK,
    UNCHANGED,
    Card,
    CardId,
    Effect,
    Event,
    Obj,
    ObjId,
    Zone,
    ZoneKey,
    from_fields,
    power_toughness,
)

if TYPE_CHECKING:
    from tabletop.engine.state import Action, TableState

JUDGE = None  # the judge's viewpoint: sees every face
HIDDEN_COUNTER = "counter"  # how a hidden card's counters are named: their kind is hidden


class Seen(NamedTuple):
    id: ObjId
    cid: CardId
    name: str
    face_down: bool
    tapped: bool
    counters: tuple[tuple[str, int], ...]
    token: bool
    controller: str | None
    owner: str
    card: Card | None = None  # the characteristics this viewer sees
    row: str = "others"  # on the battlefield: "lands" or "others"
    pile: str | None = None  # exile pile: what exiled it (public, 406.4)
    revealed: bool = False
    position: int | None = None  # place from the top in an ordered zone
    pt: tuple[str, str] | None = None  # power/toughness as modified (counters, effects)
    note: str = ""  # a player's note on it: public
    host: ObjId | None = None  # the object id of what it is attached to (public)
    printing: tuple[str, str] | None = None  # (set, number) the deck named: for pictures
    place: tuple[float, float] | None = None  # where a player put it on the battlefield
    commander: bool = False  # its owner's commander (903.3: public, kept in every zone)
    stickers: tuple[str, ...] = ()  # stickers on it (123): public, as it is


class Hidden(NamedTuple):
    """A card whose face this viewer may not see; the id is the only handle
    (ids change with every zone change, so they reveal nothing). What it carries
    is public: whose it is, its status on the battlefield, its exile pile, how many
    counters it has (not their kind, and not its note: words that could name it)."""

    id: ObjId
    face_down: bool = True
    tapped: bool = False  # status on the battlefield is public even for a hidden face
    owner: str | None = None
    controller: str | None = None
    counters: tuple[tuple[str, int], ...] = ()
    pile: str | None = None
    position: int | None = None
    row: str = "others"  # a face-down permanent is a nameless 2/2 creature: never a land row
    revealed: bool = False
    note: str = ""
    host: ObjId | None = None
    place: tuple[float, float] | None = None  # public, as a permanent's place is


def may_see(table: TableState, obj: Obj, viewer: str | None, libraries: bool = True) -> bool:
    """Whether ``viewer`` (a player, or JUDGE) may see this object's face.

    ``libraries=False`` draws libraries face down even for the judge, as a table
    does (401.2): the judge still sees every library card by asking for it."""
    if viewer is JUDGE or obj.zone is None:
        return viewer is JUDGE and (libraries or obj.zone is None or obj.zone[1] != LIBRARY
                                    or obj.revealed)
    zone = obj.zone[1]
    if zone == LIBRARY:
        return obj.revealed
    if zone == HAND:
        return obj.zone[0] == viewer or obj.revealed
    if obj.face_down:
        if zone in (BATTLEFIELD, STACK):
            return obj.controller == viewer
        if zone == COMMAND:
            return obj.owner == viewer
        return False  # exile, phased-out, graveyard, ante: nobody
    return True


def view(table: TableState, viewer: str | None, libraries: bool = True
         ) -> dict[ZoneKey, list[Seen | Hidden]]:
    """Zone key -> list of Seen or Hidden, top first."""
    out: dict[ZoneKey, list[Seen | Hidden]] = {}
    objs = table.objs
    for key, ids in table.zones.items():
        items = []
        ordered = key[1] in ORDERED
        for i, oid in enumerate(reversed(ids), 1):
            items.append(face_of(table, objs[oid], viewer, libraries, i if ordered else None))
        out[key] = items
    return out


def face_of(table: TableState, o: Obj, viewer: str | None, libraries: bool = True,
            position: int | None = None) -> Seen | Hidden:
    """One object as ``viewer`` may see it: a Seen, or a Hidden with only public facts
    (``position``: its place from the top of an ordered zone, which is public)."""
    h = _host(table, o) if o.attached_to is not None else None
    host = h.id if h is not None else None  # an object id: a card id would follow a
    # face-down host back to what it was
    if may_see(table, o, viewer, libraries):
        card = o.card
        land = not o.face_down and "Land" in card.types
        # (made from all its fields in order, without the class's call: a window draws
        # every card of the table from these, 1,000 and more on a large one)
        return from_fields(Seen, (o.id, o.cid, card.name, o.face_down, o.tapped,
                                  tuple(sorted(o.counters.items())) if o.counters else (),
                                  o.token, o.controller, o.owner, card,
                                  "lands" if land else "others", o.pile, o.revealed, position,
                                  power_toughness(o), o.note, host,
                                  table.printings.get(card.name), o.place,
                                  o.cid in table.commanders, o.stickers))
    # a note or a counter's name could say what the card is: only how many counters
    total = sum(o.counters.values())
    return Hidden(o.id, True, o.tapped, o.owner, o.controller,
                  ((HIDDEN_COUNTER, total),) if total else (), o.pile, position,
                  revealed=o.revealed, host=host, place=o.place)


class Arrow(NamedTuple):
    """An arrow a player drew, as everyone sees it: from a card to a card or a player."""

    player: str
    source: ObjId  # object id (as the view's entries carry; a card id would follow a
    # face-down card back to what it was)
    target: ObjId | None  # object id, or None when it points at a player
    target_player: str | None = None


def arrows(table: TableState) -> list[Arrow]:
    """The arrows whose ends are still where they were drawn (an object that left the
    battlefield or the stack is a new object, and its arrows are gone with it)."""
    out = []
    objs = table.objs
    for player, src, to in table.arrows:
        a = objs.get(src)
        if a is None or a.zone is None or table.current.get(a.cid) != a.id:
            continue
        if isinstance(to, str):
            out.append(Arrow(player, a.id, None, to))
            continue
        b = objs.get(to)
        if b is not None and b.zone is not None and table.current.get(b.cid) == b.id:
            out.append(Arrow(player, a.id, b.id))
    return out


def counts(table: TableState) -> dict[ZoneKey, int]:
    """How many objects each zone holds: public to everyone."""
    return {key: len(ids) for key, ids in table.zones.items()}


def top_cards(table: TableState, player: str, n: int) -> list[Obj]:
    """The top n cards of a player's library, for an effect that lets someone look."""
    return table.objects_in((player, LIBRARY))[:n]


def event_names_card(table: TableState, event: Event, viewer: str | None) -> bool:
    """Whether telling ``viewer`` about this event may name its card: the viewer may
    see the object now, or everyone saw it leave a public zone face up."""
    if viewer is JUDGE:
        return True
    if event.audience is not None:  # cards shown to some players only
        return viewer in event.audience
    obj = table.objs.get(event.obj) if event.obj is not None else None
    if obj is None:
        return True
    if may_see(table, obj, viewer):
        return True
    was = table.objs.get(event.prev) if event.prev is not None else None
    was = was or obj
    if event.src is not None and event.src[1] == HAND and not was.face_down \
            and (event.src[0] == viewer or was.revealed):
        return True  # it left a hand its viewer held (a mulligan), or one showing it
    return (event.src is not None and event.src[1] not in (LIBRARY, HAND)
            and not was.face_down)


def knowers(table: TableState, event: Event) -> tuple[str, ...]:
    """The players ``event_names_card`` lets name the event's card, in seat order:
    worked out once for all of them (the log asks it of every event)."""
    players = table.players
    if event.audience is None and event.obj is not None:
        obj = table.objs.get(event.obj)
        # a face-up object in a zone that is not a library or a hand: everyone sees it
        if obj is None or (obj.zone is not None and not obj.face_down
                           and obj.zone[1] not in (LIBRARY, HAND)):
            return players
        # or everyone saw it leave a public zone face up
        was = table.objs.get(event.prev) if event.prev is not None else None
        src = event.src
        was = was or obj
        if src is not None and src[1] not in (LIBRARY, HAND) and not was.face_down:
            return players
        # what is left of event_names_card for a player, worked out once: the player may
        # see the object where it is now (may_see), or held the hand it left face up,
        # or that hand showed it (a card moved into a library or a hand: most moves)
        if src is not None and src[1] == HAND and not was.face_down and was.revealed:
            return players
        held = src[0] if src is not None and src[1] == HAND and not was.face_down else None
        key = obj.zone
        if key is None:
            return (held,) if held in players else ()
        zone = key[1]
        if zone in (LIBRARY, HAND):
            if obj.revealed:
                return players
            seer = key[0] if zone == HAND else None
        elif zone in (BATTLEFIELD, STACK):  # (face down here: its controller sees it)
            seer = obj.controller
        elif zone == COMMAND:
            seer = obj.owner
        else:  # face down in exile, a graveyard, phased out, the ante: nobody
            seer = None
        # (one knower at most, most often: no walk through the seats, no name compared
        # with None, each of which costs the log's line more than the rest of it)
        if held is None or held == seer:
            return (seer,) if seer is not None and seer in players else ()
        if seer is None:
            return (held,) if held in players else ()
        return tuple(p for p in players if p in (seer, held))
    return tuple(p for p in players if event_names_card(table, event, p))


# ---- telling a viewer what happened ---------------------------------------------------
class Told(NamedTuple):
    """An event as one viewer may know it."""

    text: str
    cites: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    named: bool = True  # False: the card stayed hidden, so the words say nothing of it


HIDDEN_REFUSAL = "a hidden card can't go there"


def zone_label(table: TableState, key: ZoneKey | None) -> str:
    """A zone in words: "Bob's hand", "the battlefield"."""
    if key is None:
        return "nowhere"
    player, zone = key
    return table.edition.place(zone, player)


def tell(table: TableState, event: Event, viewer: str | None) -> Told:
    """The event in words for ``viewer``: the engine's sentence with its rules when the
    viewer may know the card, else a sentence that names no card and cites nothing
    (a rule number would say what kind of card it is)."""
    if event_names_card(table, event, viewer):
        return Told(table.describe(event), tuple(event.cites), tuple(event.notes))
    return Told(hidden_sentence(table, event), (), (), False)


def hidden_sentence(table: TableState, event: Event) -> str:
    kind = event.kind
    if kind == REJECTED:  # (the module's names: an enum's attribute costs ten times more)
        return HIDDEN_REFUSAL
    if kind == SHOWN and event.audience:  # who showed what to whom is public
        where = f" from {zone_label(table, event.src)}" if event.src is not None else ""
        return f"{event.audience[0]} reveals cards{where} to {event.audience[-1]}"
    if kind == UNCHANGED:
        return "a hidden card stays where it is"
    if event.src is not None and event.dst is not None and event.src != event.dst:
        return f"a card moves from {zone_label(table, event.src)} to {zone_label(table, event.dst)}"
    key = event.dst or event.src
    if key is None:
        return f"a hidden card: {kind.replace('_', ' ')}"
    where = zone_label(table, key)  # "on the battlefield", "in play", "in Bob's hand"
    on = key[1] in (BATTLEFIELD, STACK) and where.startswith("the ")
    return f"a hidden card {'on' if on else 'in'} {where}: {kind.replace('_', ' ')}"


# ---- what a viewer may do -------------------------------------------------------------
def move_refusal(table: TableState, obj: Obj, viewer: str | None,
                 anyone: bool = False) -> str | None:
    """Why ``viewer`` may not move or handle this object, or None. A player handles
    their own cards and what they control; the judge (and hot-seat play with
    ``anyone``) handles everything. This is table etiquette, not a rule number."""
    if obj.zone is None:
        return None
    return handling_refusal(viewer, handler_of(obj.zone, obj.controller, obj.owner), anyone)


def handling_refusal(viewer: str | None, whose: str, anyone: bool = False) -> str | None:
    """Why ``viewer`` may not handle a card that is ``whose`` to handle, or None."""
    if viewer is JUDGE or anyone or whose == viewer:
        return None
    return (f"{viewer} may not handle {whose}'s cards (Table > Allow moving anyone's cards "
            f"for hot-seat play)")


def handler(obj: Obj) -> str:
    """Whose the object is to handle: its controller on the battlefield or the stack,
    else its owner."""
    return handler_of(obj.zone, obj.controller, obj.owner)


def handler_of(zone: ZoneKey | None, controller: str | None, owner: str) -> str:
    """Whose a card in ``zone`` is to handle (as ``handler``, from its public facts)."""
    if controller and zone is not None and zone[1] in (BATTLEFIELD, STACK):
        return controller
    return owner


def player_refusal(viewer: str | None, player: str, anyone: bool = False) -> str | None:
    """Why ``viewer`` may not act on ``player``'s library, hand or permanents as a
    whole (draw, shuffle, untap all), or None."""
    if viewer is JUDGE or anyone or viewer == player:
        return None
    return (f"{viewer} may not act for {player} (Table > Allow moving anyone's cards "
            f"for hot-seat play)")


def drop_hint(table: TableState, obj: Obj, zone: Zone, player: str | None,
              viewer: str | None, by: str | None, anyone: bool = False) -> str:
    """How to light a zone while ``viewer`` drags this object over it: "accept",
    "refuse", or "unknown" for a card the viewer may not see (whether it could go
    there depends on what it is)."""
    if move_refusal(table, obj, viewer, anyone):
        return "refuse"
    if not may_see(table, obj, viewer):
        return "unknown"
    return "accept" if table.can_move(obj.cid, zone, player, by=by) else "refuse"


# ---- the inspector's object -----------------------------------------------------------
class Inspected(NamedTuple):
    """What the inspector may show of a card for one viewer."""

    hidden: bool
    zone: ZoneKey | None
    name: str = ""
    card: Card | None = None
    owner: str = ""
    controller: str | None = None
    oid: ObjId = ObjId(0)
    status: tuple[str, ...] = ()
    lineage: tuple[Any, ...] = ()  # LineageEntry, oldest first: only for a card the viewer sees
    exists: bool = True
    pt: tuple[str, str] | None = None  # as modified by counters and effects
    note: str = ""
    counters: tuple[tuple[str, int], ...] = ()  # (kind, count)


def replacement_chooser(obj: Obj) -> tuple[str, str]:
    """Who chooses the order of replacement effects on an object's zone change, and as
    what: its controller, or its owner when it has none (as the Comprehensive Rules'
    616.1 says it; the window cites the edition's own rule for the ordering)."""
    if obj.controller and obj.zone is not None and obj.zone[1] in CONTROLLED:
        return obj.controller, "controller"
    return obj.owner, "owner"


def hidden_status(tapped_on_field: bool, counters: int) -> tuple[str, ...]:
    """What anyone may say of a card they may not see: tapped on the battlefield, and
    how many counters (never their kind)."""
    public = ["tapped"] if tapped_on_field else []
    if counters:
        public.append(f"{counters} counter{'s' * (counters != 1)}")
    return tuple(public)


def status_words(commander_of: str | None, tapped: bool, face_down: bool, token: bool,
                 counters: Iterable[tuple[str, int]]) -> list[str]:
    """The first words of a seen card's status: whose commander, tapped, face down,
    token, its counters by kind."""
    status: list[str] = []
    if commander_of is not None:
        status.append(f"{commander_of}'s commander")
    if tapped:
        status.append("tapped")
    if face_down:
        status.append("face down")
    if token:
        status.append("token")
    said = ", ".join(f"{k} ×{v}" for k, v in counters)
    if said:
        status.append(said)
    return status


def inspect(table: TableState, obj: Obj, viewer: str | None) -> Inspected:
    """The selected object as ``viewer`` may know it."""
    gone_public = obj.zone is None and obj.token  # a token ceased where all saw it
    if not gone_public and not may_see(table, obj, viewer):
        on_field = obj.zone is not None and obj.zone[1] == BATTLEFIELD
        total = sum(obj.counters.values())
        return Inspected(True, obj.zone, status=hidden_status(obj.tapped and on_field, total),
                         counters=((HIDDEN_COUNTER, total),) if total else ())
    status = status_words(obj.owner if obj.cid in table.commanders else None, obj.tapped,
                          obj.face_down, obj.token, obj.counters.items())
    if obj.modifications:
        status.append("; ".join(f"{m[0]} ({m[1]})" for m in obj.modifications))
    if obj.pt:
        status.append(f"power/toughness set to {obj.pt}")
    host = _host(table, obj)
    if host is not None:
        known = may_see(table, host, viewer)
        status.append(f"attached to {host.card.name if known else 'a hidden card'}")
    if obj.note:
        status.append(f"note: {obj.note}")
    if obj.stickers:
        status.append("stickers: " + "; ".join(obj.stickers))
    if obj.cid in table.merged and obj.zone is not None and obj.zone[1] == BATTLEFIELD:
        status.append("merged, top first: "
                      + ", ".join(card.name for _, card, _, _ in table.merged[obj.cid]))
    if obj.zone is None:
        status.append("no longer exists")
    return Inspected(False, obj.zone, obj.card.name, obj.card, obj.owner, obj.controller,
                     obj.id, tuple(status), tuple(table.lineage.get(obj.cid, ())),
                     obj.zone is not None, power_toughness(obj), obj.note,
                     tuple(sorted(obj.counters.items())))


def _host(table: TableState, obj: Obj) -> Obj | None:
    h = table.objs.get(obj.attached_to) if obj.attached_to is not None else None
    return h if h is not None and h.zone is not None else None


def action_title(table: TableState, action: Action, viewer: str | None) -> str:
    """What the Edit menu calls an action for this viewer: a card it may not see is
    "a card"."""
    p = action.params
    if action.name == "move" and "title" not in p:
        names = []
        for c in p["cids"]:
            obj = table.objs[table.current[c]]
            names.append(obj.card.name if may_see(table, obj, viewer) else "a card")
        return f"Move {', '.join(names)} to {table.edition.zone_name(p['zone']).lower()}"
    title = action.title
    many = p.get("cids")
    cids: list[Any] = many if isinstance(many, list) else [p.get("cid")]
    for c in cids:  # a card this viewer may not see is "a card" here too (a face-down one)
        oid = table.current.get(CardId(c)) if isinstance(c, int) else None
        seen = table.objs.get(oid) if oid is not None else None
        if seen is not None and seen.card.name in title and not may_see(table, seen, viewer):
            title = title.replace(seen.card.name, "a card")
    return title


def undo_status(table: TableState, viewer: str | None) -> tuple[str | None, str | None]:
    """The titles of what undo and redo would take back or bring back, for this viewer."""
    return (action_title(table, table.history[-1], viewer) if table.history else None,
            action_title(table, table.redo_stack[-1], viewer) if table.redo_stack else None)


# ---- what the UI needs to act on, and to offer choices --------------------------------
class Handle(NamedTuple):
    """An object the window shows, as the window needs it to act on it: its card id and
    its public status (what any player at the table sees), never its face."""

    cid: CardId
    owner: str
    zone: ZoneKey | None
    tapped: bool
    face_down: bool
    revealed: bool
    counters: dict[str, int]


def handle(table: TableState, oid: ObjId) -> Handle | None:
    """The object now behind an item the window drew (by the id it was drawn with)."""
    old = table.objs.get(oid)
    if old is None:
        return None
    obj = table.obj_of(old.cid)
    return Handle(obj.cid, obj.owner, obj.zone, obj.tapped, obj.face_down, obj.revealed,
                  dict(obj.counters))


def current(table: TableState, selected: int | tuple[str, int]) -> Obj | None:
    """The object a selection stands for now: a card id, or ("o", object id) for a
    card picked while hidden (followed to what it is now). None when the table has no
    such card (another table's; at a network table, a card that has since moved)."""
    if isinstance(selected, tuple):
        obj = table.objs.get(ObjId(selected[1]))
        return table.obj_of(obj.cid) if obj is not None else None
    oid = table.current.get(CardId(selected))
    return table.objs.get(oid) if oid is not None else None


class Choice(NamedTuple):
    """A card offered in a dialog: its id and the name the viewer may read."""

    cid: CardId
    name: str


def choice_of(table: TableState, cid: CardId, viewer: str | None, looking: bool = False) -> Choice:
    """``looking``: an effect lets the viewer look at it (a search, the top cards)."""
    obj = table.obj_of(cid)
    known = looking or may_see(table, obj, viewer)
    return Choice(cid, obj.card.name if known else "a hidden card")


def choices(table: TableState, key: ZoneKey, viewer: str | None,
            looking: bool = False) -> list[Choice]:
    """The cards of a zone, top first, as the viewer may name them."""
    return [choice_of(table, o.cid, viewer, looking) for o in table.objects_in(key)]


class Shown(NamedTuple):
    """Cards a player has just revealed, as one who was shown them sees them."""

    by: str
    to: str | None  # one player, or None: everyone
    title: str  # "Alice reveals 3 cards to everyone"
    cards: tuple[Seen, ...]


def game_name(table: TableState) -> str:
    """The game in a few words, for a window's title: "Alice (Forest Fire) vs Bob
    (Islands)" from the decks' names, or "" when the decks had none."""
    if not table.deck_names:
        return ""
    return " vs ".join(f"{p} ({table.deck_names[p]})" if p in table.deck_names else p
                       for p in table.players)


def deck_names(table: TableState) -> dict[str, str]:
    return dict(table.deck_names)


def shown(table: TableState, viewer: str | None) -> Shown | None:
    """The cards the last action revealed (the top of a library, a hand), when it was a
    reveal this viewer was shown (a judge sees them all), each still where it was shown;
    None once anything else has happened. What a reveal window draws."""
    if not table.history or table.history[-1].name != "show":
        return None
    action = table.history[-1]
    p = action.params
    to = p.get("to")
    if viewer is not JUDGE and to is not None and viewer not in (p["player"], to):
        return None
    zone = action.events[0].src if action.events else None
    cards = []
    for i, cid in enumerate(p["cids"], 1):
        o = table.live(cid)
        if o is None or (zone is not None and o.zone != zone):
            continue
        f = face_of(table, o, JUDGE, True, i)
        if isinstance(f, Seen):
            cards.append(f)
    return Shown(p["player"], to, action.title, tuple(cards)) if cards else None


def pile(table: TableState, key: ZoneKey, viewer: str | None, looking: bool = False,
         count: int | None = None) -> list[Seen | Hidden]:
    """A zone's cards for a zone viewer, top first: ``Seen`` for what the viewer may see
    (or, ``looking``, what an effect lets them look at: a search, the top ``count``),
    ``Hidden`` for the rest (a face-down exiled card)."""
    objs = table.objects_in(key)
    if count is not None:
        objs = objs[:count]
    ordered = key[1] in ORDERED
    out = []
    for i, o in enumerate(objs, 1):
        f = face_of(table, o, viewer, True, i if ordered else None)
        if looking and isinstance(f, Hidden) and not o.face_down:
            f = face_of(table, o, JUDGE, True, i if ordered else None)
        out.append(f)
    return out


def top_choices(table: TableState, player: str, n: int, viewer: str | None) -> list[Choice]:
    """The top n cards of a library, for an effect that lets the viewer look at them."""
    return [choice_of(table, o.cid, viewer, True) for o in top_cards(table, player, n)]


class PlayerSeen(NamedTuple):
    """A player as everyone at the table sees them: all of it is public."""

    name: str
    life: int
    counters: tuple[tuple[str, int], ...]  # (kind, count), in the order they were first given
    active: bool
    hand: int  # cards in hand
    library: int


def effects_in_force(table: TableState) -> list[Effect]:
    """The replacement effects in force, as everyone at the table may know them: where
    each watches, what it does instead, its source. Which card one affects is said only
    as "a card" (its id would follow a hidden card)."""
    return [e if e.affects == "any" else e._replace(affects="card") for e in table.effects]


def player_view(table: TableState, player: str) -> PlayerSeen:
    return PlayerSeen(player, table.life[player],
                      tuple(table.player_counters.get(player, {}).items()),
                      table.active == player, len(table.zones.get((player, HAND), ())),
                      len(table.zones.get((player, LIBRARY), ())))


def sideboard(table: TableState, player: str, viewer: str | None) -> list[Card] | int:
    """A player's sideboard (outside the game, 400.10a): its cards for the player
    and the judge; for anyone else only how many there are."""
    cards = list(table.sideboards.get(player, ()))
    if viewer is JUDGE or viewer == player:
        return cards
    return len(cards)


def printings(table: TableState) -> dict[str, tuple[str, str]]:
    """The printings the decks named (card name -> (set, number)): public, for pictures."""
    return dict(table.printings)


def zones_on_the_table(table: TableState) -> list[Zone]:
    """The edition's zones the table shows: ante only in a game played for ante (407.1),
    or while a card is there (an older save)."""
    return [z for z in table.edition.zones if z != ANTE or table.ante
            or any(lst for k, lst in table.zones.items() if k[1] == ANTE)]
