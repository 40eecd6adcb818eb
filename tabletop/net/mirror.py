"""A client's copy of the host's table, built from the view the host sent it.

The window draws a table through the engine's views; over the network it draws this
copy instead. The copy holds only what the seat was sent: a card the seat may not see
is a card with no name and no characteristics, so nothing the host kept back can show.
It is never played: the seat's intentions go to the host, and the host's next view
replaces the copy. Each object of the copy has the id the host gave it, as its object
id and its card id (``server_ids`` maps one to the other): an intention names it, and
a card that stays where it is keeps its id, and its place on the screen, from one
view to the next."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

from tabletop.engine import Table
from tabletop.engine.errors import TabletopError
from tabletop.engine.model import Card, check_place, counter_bonus, power_toughness
from tabletop.engine.state import LogEntry
from tabletop.net import protocol

UNSEEN = Card("")  # a card this seat may not see: no name, no characteristic


@dataclass
class Mirror:
    table: Table
    server_ids: dict[int, int]  # card id in the copy -> the host's object id


def merge(view: dict[str, Any], update: dict[str, Any]) -> None:
    """An ``update`` into the ``view`` it follows: its zones replace the view's, its log
    lines are added, and its small facts (life, turn, who is connected) replace them."""
    zones = {(z["player"], z["zone"]): z for z in update["zones"]}
    view["zones"] = [zones.pop((z["player"], z["zone"]), z)
                     for z in view["zones"]] + list(zones.values())
    view["log"] = (view["log"] + update["log"])[-protocol.LOG_LINES:]
    # the chat lines said since the last message (an update never repeats old ones)
    view["chat"] = (list(view.get("chat") or []) + list(update.get("chat") or []))[-200:]
    for k, v in update.items():
        if k not in ("zones", "log", "chat", "type", "v", "log_from", "chat_from", "rid"):
            view[k] = v


def card_of(face: dict[str, Any]) -> Card:
    """A card's printed facts as the host sent them (UNSEEN for a hidden one)."""
    return _card(face)


def _card(face: dict[str, Any]) -> Card:
    if face.get("hidden"):
        return UNSEEN
    printed = face.get("printed") or (None, None)
    return Card(str(face.get("name", "")), types=tuple(face.get("types", ())),
                subtypes=tuple(face.get("subtypes", ())),
                supertypes=tuple(face.get("supertypes", ())),
                colors=tuple(face.get("colors", ())),
                mana_cost=str(face.get("mana_cost", "")), power=printed[0],
                toughness=printed[1])


def _set_pt(obj: Any, face: dict[str, Any]) -> None:
    """The power and toughness an effect set, when the host's (counters included)
    differ from what the copy works out from the printed ones and the counters."""
    sent = face.get("pt")
    if not sent or face.get("hidden") or tuple(sent) == power_toughness(obj):
        return
    base = []
    for part, d in zip(sent, counter_bonus(obj.counters), strict=True):
        try:
            base.append(str(int(part) - d))
        except ValueError:
            base.append(str(part))
    obj.pt = "/".join(base)


def build(view: dict[str, Any]) -> Mirror:
    """The copy of the table a ``view`` describes (a view merged with its updates)."""
    players = [str(p) for p in view["players"]]
    t = Table(players, edition=str(view["edition"]), seed=None)
    t.quiet = True
    ids: dict[int, int] = {}
    objects: dict[int, int] = {}  # the host's object id -> the copy's
    hosts: list[tuple[int, int]] = []  # (card id, the host's id of what it is attached to)
    for zone in view["zones"]:
        player, name = zone["player"], str(zone["zone"])
        for face in reversed(zone["cards"]):  # sent top first; added bottom first
            owner = str(face.get("owner") or player)
            where = player if player is not None else owner
            on_battlefield = name in ("battlefield", "stack")
            sid = int(face["id"])
            t.next_id = t.next_cid = sid  # the copy's ids are the host's: an object that
            # stays where it is keeps its id from one view to the next, and its place
            try:
                obj = t.add_card(_card(face), owner, name, player=where,
                                 controller=face.get("controller") if on_battlefield else None,
                                 token=bool(face.get("token")) and name == "battlefield",
                                 tapped=bool(face.get("tapped")) and name == "battlefield",
                                 face_down=bool(face.get("face_down")),
                                 counters={str(k): int(n) for k, n in face.get("counters", [])},
                                 commander=face.get("commander") is True)
            except TabletopError:  # the copy refuses what the host allowed: keep the card
                t.next_id = t.next_cid = sid
                obj = t.add_card(UNSEEN, owner, name, player=where,
                                 controller=face.get("controller") if on_battlefield else None)
            obj.revealed = bool(face.get("revealed"))
            obj.note = str(face.get("note") or "")
            place = face.get("place")
            if name == "battlefield" and isinstance(place, list):
                # the host's answer is checked there; a bad one is drawn in a row
                with contextlib.suppress(ValueError):
                    obj.place = check_place(place, "a place")
            _set_pt(obj, face)
            ids[obj.cid] = sid
            objects[sid] = obj.id
            if face.get("host") is not None:
                hosts.append((obj.cid, int(face["host"])))
    for cid, host in hosts:
        if host in objects:
            t.obj_of(cid).attached_to = objects[host]
    t.start_here()  # nothing to undo in a copy: undo is the host's
    t.life = {str(p): int(n) for p, n in view["life"].items()}
    t.player_counters = {str(p): {str(k): int(n) for k, n in kinds}
                         for p, kinds in view.get("player_counters", {}).items()}
    t.mulligans = {str(p): int(n) for p, n in view.get("mulligans", {}).items()}
    t.sideboards = {str(p): [UNSEEN] * min(int(side), 1000) if isinstance(side, int)
                    else [Card.from_json(dict(c)) for c in side]
                    for p, side in view.get("sideboards", {}).items()}
    t.arrows = tuple((str(p), objects[int(a)], b if isinstance(b, str) else objects[int(b)])
                     for p, a, b in view.get("arrows", ())
                     if int(a) in objects and (isinstance(b, str) or int(b) in objects))
    t.active = str(view["active"])
    t.turn = int(view["turn"])
    t.phase = str(view["phase"])
    roll = view.get("last_roll")
    t.last_roll = (str(roll[0]), int(roll[1]), int(roll[2])) if roll else None
    t.journal.extend(LogEntry(str(line.get("tag", "done")), "", str(line.get("text", "")),
                              str(line.get("text", "")), tuple(line.get("cites", ())),
                              tuple(line.get("notes", ())), (), str(line.get("lead", "")),
                              bool(line.get("sub")))
                     for line in view["log"])
    return Mirror(t, ids)
