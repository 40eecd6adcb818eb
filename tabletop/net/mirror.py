"""The view the host sent a seat, read as the window reads a table: ``SentBoard``.

The window draws a table through a board (ui/board.py): at this desk the engine's
views of the table played here; over the network this one, made from what the host
sent the seat and nothing else. It is never a table and is never played: its cards
are the engine's view types (Seen, Hidden), each with the id the host gave it for
this seat, as its object id and its card id; a card the seat may not see is a Hidden
with only its public facts. The seat's intentions go to the host, and the host's next
view replaces this one. A card that stays where it is keeps its id, and so its place
on the screen, from one view to the next."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tabletop.engine import editions, views
from tabletop.engine.editions import Edition
from tabletop.engine.model import (
    ORDERED,
    Card,
    CardId,
    Effect,
    Event,
    ObjId,
    Zone,
    ZoneKey,
    counter_bonus,
)
from tabletop.engine.state import LogEntry
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
from tabletop.net import protocol
from tabletop.textsafe import peer_text

Face = Seen | Hidden


def merge(view: dict[str, Any], update: dict[str, Any]) -> None:
    """An ``update`` into the ``view`` it follows: its zones replace the view's, its log
    lines are added, and its small facts (life, turn, who is connected) replace them."""
    if update["zones"]:  # (most updates change no zone: a life total, a roll, a line)
        changed = {(z["player"], z["zone"]): z for z in update["zones"]}
        zones = view["zones"] = list(view["zones"])  # (a new list: the old one is kept
        for i, z in enumerate(zones):  # by whoever drew from it) with the changed zones
            new = changed.pop((z["player"], z["zone"]), None)  # in their places
            if new is not None:
                zones[i] = new if "order" not in new else whole_zone(z, new)
                if not changed:
                    break
        zones.extend(z if "order" not in z else whole_zone(None, z)
                     for z in changed.values())
    if update["log"]:  # (added in place: the view's own list, a few lines at a time)
        log = view["log"]
        log += update["log"]
        if len(log) > protocol.LOG_LINES:
            del log[:len(log) - protocol.LOG_LINES]
    if update.get("chat"):  # the lines said since the last message (never old ones)
        view["chat"] = (list(view.get("chat") or []) + list(update["chat"]))[-200:]
    for k, v in update.items():
        if k not in _MERGED:
            view[k] = v


_MERGED = frozenset(("zones", "log", "chat", "type", "v", "log_from", "chat_from", "rid"))


def whole_zone(before: dict[str, Any] | None, changed: dict[str, Any]) -> dict[str, Any]:
    """A zone sent as its changes (a connection that joined with ``changes: "cards"``):
    its ``order`` of ids, top first, each card the one in ``cards`` or else as the zone
    had it; in an ordered zone each card's ``position`` is its place in the order."""
    order = changed["order"]
    was = (before or {}).get("cards", ())
    if len(was) == len(order) and [c["id"] for c in was] == order:
        # the same cards in the same order (a card tapped, a counter added): the changed
        # ones put in their places
        new = {c["id"]: c for c in changed["cards"]}
        cards = list(was) if not new else [new.get(c["id"], c) for c in was]
        if changed.get("ordered"):
            cards = [c if c.get("position") == i else {**c, "position": i}
                     for i, c in enumerate(cards, 1)]
        return {"player": changed["player"], "zone": changed["zone"], "cards": cards}
    faces = {c["id"]: c for c in was}
    faces.update((c["id"], c) for c in changed["cards"])
    cards = []
    for i, cid in enumerate(order, 1):
        face = faces.get(cid)
        if face is None:
            raise ValueError(f"an update's zone {changed['zone']} names card {cid}, "
                             f"which was never sent")
        if changed.get("ordered") and face.get("position") != i:
            face = {**face, "position": i}
        cards.append(face)
    return {"player": changed["player"], "zone": changed["zone"], "cards": cards}


def said(value: Any) -> str:
    """Words the host sent, to be shown (a card's name, a note, a log line): the host is
    another machine, so they lose control characters and the marks that turn a line
    around, as a client's words do at the host (docs/protocol.md)."""
    return peer_text(str(value))


def card_of(face: dict[str, Any]) -> Card | None:
    """A card's printed facts as the host sent them (None for a hidden one)."""
    if face.get("hidden"):
        return None
    printed = face.get("printed") or (None, None)
    return Card(said(face.get("name", "")), types=tuple(said(t) for t in face.get("types", ())),
                subtypes=tuple(said(t) for t in face.get("subtypes", ())),
                supertypes=tuple(said(t) for t in face.get("supertypes", ())),
                colors=tuple(str(c) for c in face.get("colors", ())),
                mana_cost=said(face.get("mana_cost", "")),
                power=None if printed[0] is None else str(printed[0]),
                toughness=None if printed[1] is None else str(printed[1]))


def pt_of(face: dict[str, Any]) -> tuple[str, str] | None:
    """A card's power and toughness as the host sent them (``pt``: as modified), if any."""
    pt = face.get("pt")
    return (said(pt[0]), said(pt[1])) if isinstance(pt, list) and len(pt) == 2 else None


def face_of(face: dict[str, Any], position: int | None) -> Face:
    """One card of a zone as the host sent it: a Seen, or a Hidden."""
    fid = ObjId(int(face["id"]))
    host = None if face.get("host") is None else ObjId(int(face["host"]))
    place_sent = face.get("place")
    place = None
    if isinstance(place_sent, list) and len(place_sent) == 2:
        place = (float(place_sent[0]), float(place_sent[1]))
    counters = tuple((said(k), int(n)) for k, n in face.get("counters", ()))
    owner = str(face.get("owner") or "")
    controller = None if face.get("controller") is None else str(face["controller"])
    card = card_of(face)
    if card is None:
        return Hidden(fid, True, bool(face.get("tapped")), owner or None, controller,
                      counters, None, position, revealed=bool(face.get("revealed")),
                      note=said(face.get("note") or ""), host=host, place=place)
    face_down = bool(face.get("face_down"))
    land = not face_down and "Land" in card.types
    return Seen(fid, CardId(fid), card.name, face_down, bool(face.get("tapped")), counters,
                bool(face.get("token")), controller, owner, card,
                "lands" if land else "others", None, bool(face.get("revealed")), position,
                pt_of(face), said(face.get("note") or ""), host, None, place,
                face.get("commander") is True,
                tuple(said(s) for s in face.get("stickers", ())))


def log_entry(line: dict[str, Any]) -> LogEntry:
    """A line of the host's log as the seat was told it (only the seat's own words)."""
    text = said(line.get("text", ""))
    return LogEntry(str(line.get("tag", "done")), "", text, text,
                    tuple(said(c) for c in line.get("cites", ())),
                    tuple(said(n) for n in line.get("notes", ())), (),
                    said(line.get("lead", "")), bool(line.get("sub")))


class SentBoard:
    """A network seat's table, as the host's view (merged with its updates) says it.
    ``journal``: the log lines received so far (kept by the session, which adds to it)."""

    def __init__(self, view: dict[str, Any], viewer: str | None,
                 journal: Sequence[LogEntry]) -> None:
        self.viewer = viewer
        self.players = tuple(str(p) for p in view["players"])
        self.edition: Edition = editions.get(str(view["edition"]))
        self.active = str(view["active"])
        self.turn = int(view["turn"])
        self.phase = str(view["phase"])
        self.life: Mapping[str, int] = {str(p): int(n) for p, n in view["life"].items()}
        self.mulligans: Mapping[str, int] = {str(p): int(n)
                                             for p, n in view.get("mulligans", {}).items()}
        self.journal = journal
        roll = view.get("last_roll")
        self.last_roll = (str(roll[0]), int(roll[1]), int(roll[2])) if roll else None
        self.max_hand = 7  # the host's maximum hand size is not sent: the rules' (402.2)
        self._counters = {str(p): tuple((str(k), int(n)) for k, n in kinds)
                          for p, kinds in view.get("player_counters", {}).items()}
        self._zones: dict[ZoneKey, list[Face]] = {}
        self._where: dict[int, ZoneKey] = {}
        self._by_id: dict[int, Face] = {}
        self._looked: set[int] = set()
        for zone in view["zones"]:
            player = None if zone["player"] is None else str(zone["player"])
            key: ZoneKey = (player, Zone(str(zone["zone"])))
            ordered = key[1] in ORDERED
            faces = []
            for i, sent in enumerate(zone["cards"], 1):  # top first
                f = face_of(sent, i if ordered else None)
                faces.append(f)
                self._where[f.id] = key
                self._by_id[f.id] = f
                if sent.get("looked"):
                    self._looked.add(f.id)
            self._zones[key] = faces
        self._arrows = []
        for p, a, b in view.get("arrows", ()):
            if int(a) not in self._by_id:
                continue
            if isinstance(b, str):
                self._arrows.append(Arrow(str(p), ObjId(int(a)), None, b))
            elif int(b) in self._by_id:
                self._arrows.append(Arrow(str(p), ObjId(int(a)), ObjId(int(b))))
        self._sideboards: dict[str, list[Card] | int] = {
            str(p): min(int(side), 1000) if isinstance(side, int)
            else [Card.from_json(dict(c)) for c in side]
            for p, side in view.get("sideboards", {}).items()}
        self._shown = shown_of(view.get("shown"))
        self._effects = [Effect(str(e.get("label", "")), Zone(str(e["watch"])),
                                Zone(str(e["instead"])), str(e.get("source", "")),
                                str(e.get("from", "any")), str(e.get("affects", "any")),
                                e.get("optional") is True)
                         for e in view.get("effects") or () if isinstance(e, dict)]

    # ---- the table -------------------------------------------------------------------
    def zones(self) -> dict[ZoneKey, list[Face]]:
        """Each zone's cards, top first (a library's face down, as it was sent: a card
        the seat looked at is seen only in the viewer that looks)."""
        out = {}
        for key, faces in self._zones.items():
            if key[1] == Zone.LIBRARY:
                faces = [_back(f) if isinstance(f, Seen) else f for f in faces]
            out[key] = faces
        return out

    def counts(self) -> dict[ZoneKey, int]:
        return {key: len(faces) for key, faces in self._zones.items()}

    def zones_on_the_table(self) -> list[Zone]:
        return [z for z in self.edition.zones if z != Zone.ANTE
                or any(faces for k, faces in self._zones.items() if k[1] == Zone.ANTE)]

    def player_view(self, player: str) -> PlayerSeen:
        return PlayerSeen(player, self.life.get(player, 0), self._counters.get(player, ()),
                          self.active == player, len(self._zones.get((player, Zone.HAND), ())),
                          len(self._zones.get((player, Zone.LIBRARY), ())))

    def arrows(self) -> list[Arrow]:
        return list(self._arrows)

    def effects(self) -> list[Effect]:
        return list(self._effects)

    def printings(self) -> dict[str, tuple[str, str]]:
        return {}

    def deck_names(self) -> dict[str, str]:
        return {}

    def game_name(self) -> str:
        return ""

    # ---- one card --------------------------------------------------------------------
    def face(self, cid: int) -> Face | None:
        return self._by_id.get(cid)

    def handle(self, oid: int) -> Handle | None:
        f = self._by_id.get(oid)
        if f is None:
            return None
        return Handle(CardId(f.id), f.owner or "", self._where[oid], f.tapped, f.face_down,
                      f.revealed, {k: n for k, n in f.counters if k != views.HIDDEN_COUNTER})

    def inspect(self, selected: int | tuple[str, int]) -> tuple[int, Inspected] | None:
        fid = selected[1] if isinstance(selected, tuple) else selected
        f = self._by_id.get(fid)
        if f is None:  # moved since (a hidden card's id is new in each zone)
            return None
        zone = self._where[fid]
        if isinstance(f, Hidden):
            total = sum(n for _, n in f.counters)
            return fid, Inspected(True, zone, status=views.hidden_status(
                f.tapped and zone[1] == Zone.BATTLEFIELD, total), counters=f.counters)
        return fid, Inspected(False, zone, f.name, f.card, f.owner, f.controller, ObjId(fid),
                              self._status(f), (), True, f.pt, f.note, f.counters)

    def _status(self, f: Seen) -> tuple[str, ...]:
        status = views.status_words(f.owner if f.commander else None, f.tapped, f.face_down,
                                    f.token, f.counters)
        if f.pt is not None and f.card is not None:
            bonus = counter_bonus(dict(f.counters))
            if list(f.pt) != [_plus(f.card.power, bonus[0]), _plus(f.card.toughness, bonus[1])]:
                base = "/".join(_plus(v, -d) for v, d in zip(f.pt, bonus, strict=True))
                status.append(f"power/toughness set to {base}")  # by an effect
        host = None if f.host is None else self._by_id.get(f.host)
        if host is not None:
            status.append("attached to " + (host.name if isinstance(host, Seen)
                                            else "a hidden card"))
        if f.note:
            status.append(f"note: {f.note}")
        if f.stickers:
            status.append("stickers: " + "; ".join(f.stickers))
        return tuple(status)

    def move_refusal(self, cid: int, anyone: bool) -> str | None:
        f = self._by_id.get(cid)
        if f is None:
            return None
        whose = views.handler_of(self._where[cid], f.controller, f.owner or "")
        return views.handling_refusal(self.viewer, whose, anyone)

    def drop_hint(self, cid: int, zone: Zone, player: str | None, by: str | None,
                  anyone: bool) -> str:
        """"refuse" for a card the seat may not handle, else "unknown": at a network
        table the host's engine judges the drop, and the zone is not lit for it."""
        return "refuse" if self.move_refusal(cid, anyone) else "unknown"

    # ---- choices and piles ---------------------------------------------------------------
    def choice_of(self, cid: int, viewer: str | None, looking: bool = False) -> Choice:
        f = self._by_id.get(cid)
        return Choice(CardId(cid), f.name if isinstance(f, Seen) else "a hidden card")

    def choices(self, key: ZoneKey, viewer: str | None, looking: bool = False) -> list[Choice]:
        return [self.choice_of(f.id, viewer, looking) for f in self._zones.get(key, ())]

    def top_cids(self, player: str, n: int) -> list[int]:
        return [f.id for f in self._zones.get((player, Zone.LIBRARY), ())[:max(0, n)]]

    def pile(self, key: ZoneKey, viewer: str | None, looking: bool = False,
             count: int | None = None) -> list[Face]:
        faces = list(self._zones.get(key, ()))
        return faces if count is None else faces[:max(0, count)]

    def sideboard(self, player: str, viewer: str | None) -> list[Card] | int:
        side = self._sideboards.get(player, 0)
        return list(side) if isinstance(side, list) else side

    def shown(self) -> Shown | None:
        return self._shown

    # ---- words ------------------------------------------------------------------------------
    def tell(self, event: Event) -> Told:
        return Told(event.text or event.kind.replace("_", " "), (), (), False)

    def zone_label(self, key: ZoneKey | None) -> str:
        if key is None:
            return "nowhere"
        return self.edition.place(key[1], key[0])


def _plus(printed: str | None, d: int) -> str:
    try:
        return str(int(printed or "") + d)
    except ValueError:
        return str(printed)


def _back(f: Seen) -> Hidden:
    """A library card the seat was shown (looked at), as the table draws it: face down."""
    return Hidden(f.id, True, f.tapped, f.owner, f.controller, f.counters, None, f.position)


def shown_of(d: Any) -> Shown | None:
    """The cards the host says the last action revealed to this seat, or None."""
    if not isinstance(d, dict):
        return None
    cards = []
    for i, face in enumerate(d.get("cards") or ()):
        card = card_of(face) if isinstance(face, dict) else None
        if card is not None:
            cards.append(Seen(ObjId(0), CardId(-1 - i), card.name, False, False, (),
                              bool(face.get("token")), None, str(face.get("owner") or ""),
                              card, pt=pt_of(face)))
    if not cards:
        return None
    to = d.get("to")
    return Shown(str(d.get("by", "")), to if isinstance(to, str) else None,
                 str(d.get("title", "")), tuple(cards))
