"""Table actions besides moving one object: drawing, shuffling, status,
counters, tokens, abilities, whole-zone actions, cleanup, ante, turns.

Each is one recorded action returning a ``Result`` of events."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from tabletop.engine.errors import IllegalActionError
from tabletop.engine.model import (
    ANTE,
    BATTLEFIELD,
    COMMAND,
    GRAVEYARD,
    HAND,
    LIBRARY,
    STACK,
    Card,
    CardId,
    Event,
    EventKind,
    LineageEntry,
    Obj,
    ObjId,
    Zone,
    ZoneKey,
    check_place,
    split_pt,
)
from tabletop.engine.moves import Chooser, MovePipeline
from tabletop.engine.state import Result, TableState

# kinds of counters one object, or one player, may have at once (a game has a few;
# a seat adding a new kind 30 times a second grew each card, update and log line
# without end)
COUNTER_KINDS = 20


def check_pt(text: str) -> str:
    """A power/toughness as the table keeps it ("3/3"), or IllegalActionError."""
    parts = split_pt(text)
    if parts is None:
        raise IllegalActionError(f"power/toughness must read like 3/3 or */4, not {text!r}")
    return "/".join(parts)


class Actions:
    """Every action besides a move, on the table's state (``t``), moving objects
    through its move pipeline (``p``). The Table holds one."""

    def __init__(self, t: TableState, p: MovePipeline) -> None:
        self.t, self.p = t, p

    def _player(self, player: str) -> str:
        if player not in self.t.life:
            raise IllegalActionError(f"unknown player {player!r}")
        return player

    # ---- following an object ------------------------------------------------
    def find_new(self, oid: ObjId) -> tuple[Obj | None, tuple[str, ...]]:
        """The object an older object became, if an ability or resolving spell may find
        it (400.7d, 400.7g): it went on to a public zone. Returns (object, cites) or
        (None, ()) when the trail ends in a hidden zone or nowhere."""
        old = self.t.objs.get(oid)
        if old is None:
            raise IllegalActionError(f"there is no object {oid}")
        obj = self.t.objs[self.t.current[old.cid]]
        if obj.zone is None or obj.zone[1] in (LIBRARY, HAND) or obj.face_down:
            return None, ()
        ed = self.t.edition
        return obj, ed.cite("find_new") + ed.cite("resolving_finds")

    # ---- library -----------------------------------------------------------
    def draw(self, player: str, count: int = 1, chooser: Chooser | None = None) -> Result:
        """The player draws ``count`` cards, one at a time, through the pipeline."""
        self._player(player)
        key = self.t.zone_key(LIBRARY, player)
        with self.t._action("draw", {"player": player, "count": count,
                                   "title": f"{player} draws {count}"}) as box:
            for _ in range(count):
                if not self.t.zones[key]:
                    cites = self.t.edition.cite("empty_library")
                    box.append(Event(EventKind.EMPTY_LIBRARY, None, None, None, key, None, cites,
                                     () if cites else (self.t.edition.silence("empty_library"),),
                                     f"{player} cannot draw: the library is empty"))
                    break
                obj = self.t.objs[self.t.zones[key][-1]]
                plan = self.p.plan_move(obj, HAND, player, chooser=chooser)
                self.p._run_plans([plan], "top", None, False, None, box)
        return Result(tuple(box))

    def _chance(self, seed: int | None) -> tuple[random.Random, int]:
        """The random source of one action: seeded from the table's generator, or from
        ``seed`` (a recorded action replayed). Its seed is kept in the action's
        parameters, so a recording replays the same shuffle whatever came before."""
        if seed is None:
            seed = self.t.chance_seed()
        return random.Random(seed), seed

    def shuffle(self, player: str, seed: int | None = None) -> Result:
        self._player(player)
        key = self.t.zone_key(LIBRARY, player)
        chance, seed = self._chance(seed)
        with self.t._action("shuffle", {"player": player, "seed": seed,
                                      "title": f"Shuffle {player}'s library"}) as box:
            self._shuffle(key, box, chance)
        return Result(tuple(box))

    def _shuffle(self, key: ZoneKey, box: list[Event], chance: random.Random) -> None:
        order = list(self.t.zones[key])
        chance.shuffle(order)
        self.t._reorder(key, order)
        for oid in order:
            self.t._set(self.t.objs[oid], "revealed", False)
        box.append(Event(EventKind.SHUFFLED, None, None, None, key, key, (), (),
                         f"{key[0]}'s library is shuffled"))

    def reveal_top(self, player: str, on: bool = True) -> Result:
        """Play with the top card of the library revealed, or stop (401.7)."""
        key = self.t.zone_key(LIBRARY, self._player(player))
        with self.t._action("reveal_top", {"player": player, "on": on,
                                         "title": ("Reveal" if on else "Stop revealing")
                                         + f" {player}'s top card"}) as box:
            tops = set(self.t.revealed_tops)
            top = self.t.objs[self.t.zones[key][-1]] if self.t.zones[key] else None
            if on:
                tops.add(player)
                if top is not None:
                    self.t._set(top, "revealed", True)
            else:
                tops.discard(player)
                if top is not None and top.revealed:
                    box.extend(self.p._conceal(top))
            self.t._meta("revealed_tops", frozenset(tops))
            box.append(Event(EventKind.REVEALED if on else EventKind.CONCEALED, top.cid if top else None,
                             top.id if top else None, None, key, key))
        return Result(tuple(box))

    # ---- status --------------------------------------------------------------
    def set_tapped(self, cid: CardId, tapped: bool) -> Result:
        obj = self.t.obj_of(cid)
        ed = self.t.edition
        verb = "tap" if tapped else "untap"
        with self.t._action(verb, {"cid": cid, "title": f"{verb.title()} {obj.card.name}"}) as box:
            if obj.zone is None or obj.zone[1] != BATTLEFIELD:
                cites = ed.cite("tapped_only")  # 2012/2016: their text is silent
                box.append(Event(EventKind.REJECTED, cid, obj.id, None, obj.zone, obj.zone, cites,
                                 () if cites else (ed.silence("tapped_only"),),
                                 f"only permanents {ed.within(BATTLEFIELD)} can be "
                                 f"{verb}ped"))
            elif obj.tapped == tapped:
                box.append(Event(EventKind.UNCHANGED, cid, obj.id, None, obj.zone, obj.zone, (), (),
                                 f"{obj.card.name} is already {verb}ped"))
            else:
                self.t._set(obj, "tapped", tapped)
                kind = EventKind.TAPPED if tapped else EventKind.UNTAPPED
                box.append(Event(kind, cid, obj.id, obj.id, obj.zone, obj.zone, (), (),
                                 f"{obj.card.name} is {verb}ped"))
        return Result(tuple(box))

    def add_counters(self, cid: CardId, changes: dict[str, int]) -> Result:
        obj = self.t.obj_of(cid)
        kinds = obj.counters.keys() | {k for k, n in changes.items() if int(n) > 0}
        if len(kinds) > COUNTER_KINDS and len(kinds) > len(obj.counters):
            # (no name: the card may be face down, and the seat asking not its owner)
            raise IllegalActionError(f"an object holds at most {COUNTER_KINDS} kinds of "
                                     f"counters")
        with self.t._action("counters", {"cid": cid, "changes": dict(changes),
                                       "title": f"Counters on {obj.card.name}"}) as box:
            if obj.zone is None:
                box.append(Event(EventKind.REJECTED, cid, obj.id, None, None, None, (), (),
                                 f"{obj.card.name} no longer exists"))
            else:
                counters = dict(obj.counters)
                for kind, n in changes.items():
                    left = counters.get(kind, 0) + int(n)
                    if left > 0:
                        counters[kind] = left
                    else:
                        counters.pop(kind, None)
                self.t._set(obj, "counters", counters)
                now = ", ".join(f"{k} ×{v}" for k, v in counters.items()) or "none"
                box.append(Event(EventKind.COUNTERS, cid, obj.id, obj.id, obj.zone, obj.zone, (), (),
                                 f"{obj.card.name}: counters now {now}"))
        return Result(tuple(box))

    def turn_face(self, cid: CardId, face_down: bool) -> Result:
        """Turn an object face down or up; in the command zone, face down makes a new object (400.9)."""
        obj = self.t.obj_of(cid)
        ed = self.t.edition
        with self.t._action("face", {"cid": cid, "face_down": face_down,
                                        "title": f"Turn {obj.card.name} face "
                                        + ("down" if face_down else "up")}) as box:
            if obj.zone is None:
                box.append(Event(EventKind.REJECTED, cid, obj.id, None, None, None, (), (),
                                 f"{obj.card.name} no longer exists"))
            elif obj.face_down == face_down:
                box.append(Event(EventKind.UNCHANGED, cid, obj.id, None, obj.zone, obj.zone, (), (),
                                 "it is already that way"))
            elif face_down and obj.zone[1] == COMMAND and ed.cite("command_face_down"):
                box.append(self.t._renew(obj, ed.cite("command_face_down"),
                                       f"{obj.card.name} turned face down in the command "
                                       f"zone: a new object", face_down=True))
            else:
                self.t._set(obj, "face_down", face_down)
                box.append(Event(EventKind.TURNED, cid, obj.id, obj.id, obj.zone, obj.zone, (), (),
                                 f"{obj.card.name} is turned face {'down' if face_down else 'up'}"))
        return Result(tuple(box))

    def reveal(self, cid: CardId, revealed: bool = True) -> Result:
        """Show a card in a hand to everyone, or stop showing it."""
        obj = self.t.obj_of(cid)
        verb = "Reveal" if revealed else "Stop revealing"
        with self.t._action("reveal", {"cid": cid, "on": revealed,
                                     "title": f"{verb} {obj.card.name}"}) as box:
            if obj.zone is None or obj.zone[1] != HAND:
                box.append(Event(EventKind.REJECTED, cid, obj.id, None, obj.zone, obj.zone,
                                 self.t.edition.cite("hand_hidden"), (),
                                 "only a card in a hand is revealed this way"))
            else:
                self.t._set(obj, "revealed", revealed)
                box.append(Event(EventKind.REVEALED if revealed else EventKind.CONCEALED, cid, obj.id, obj.id,
                                 obj.zone, obj.zone, (), (),
                                 f"{obj.owner} {'reveals' if revealed else 'hides'} "
                                 f"{obj.card.name}"))
        return Result(tuple(box))

    def modify(self, cid: CardId, effect: str, origin: str = "spell") -> Result:
        """An effect changing the object's characteristics (origin: spell, ability, static)."""
        if origin not in ("spell", "ability", "static"):
            raise IllegalActionError(f"origin must be spell, ability or static, not {origin!r}")
        obj = self.t.obj_of(cid)
        with self.t._action("modify", {"cid": cid, "effect": effect, "origin": origin,
                                     "title": f"Modify {obj.card.name}"}) as box:
            if obj.zone is None:
                box.append(Event(EventKind.REJECTED, cid, obj.id, None, None, None, (), (),
                                 f"{obj.card.name} no longer exists"))
            else:
                self.t._set(obj, "modifications", (*obj.modifications, (effect, origin)))
                box.append(Event(EventKind.MODIFIED, cid, obj.id, obj.id, obj.zone, obj.zone, (), (),
                                 f"{obj.card.name}: {effect} (from a {origin})"))
        return Result(tuple(box))

    def set_choices(self, cid: CardId, choices: Iterable[Any]) -> Result:
        """Record choices made while a spell was cast (carried by 400.7c)."""
        obj = self.t.obj_of(cid)
        with self.t._action("choices", {"cid": cid, "values": [str(c) for c in choices],
                                      "title": f"Choices for {obj.card.name}"}) as box:
            self.t._set(obj, "choices", tuple(choices))
            box.append(Event(EventKind.CHOICES, cid, obj.id, obj.id, obj.zone, obj.zone, (), (),
                             "; ".join(map(str, choices))))
        return Result(tuple(box))

    def attach_refusal(self, cid: CardId, target_cid: CardId | None) -> str | None:
        """Why a table tool may not attach this object to that one (None: take it off
        what it is attached to), or None: an Aura or Equipment is attached to another
        permanent on the battlefield (301.5 and 303.4 of the full 2016 rules: numbers from
        outside the zone rules the editions carry), and only a permanent is taken off."""
        obj = self.t.obj_of(cid)
        if target_cid is None:
            # (a card phased out stays as it phased out, 217.8c; one that ceased is gone)
            if obj.zone is None or obj.zone[1] != BATTLEFIELD:
                return "only a permanent on the battlefield is taken off what it is attached to"
            return None
        target = self.t.obj_of(target_cid)
        if cid == target_cid:
            return "a permanent can't be attached to itself"
        if any(o.zone is None or o.zone[1] != BATTLEFIELD for o in (obj, target)):
            return "only a permanent on the battlefield is attached to another one"
        at, seen = target, {target.id}  # what the target is attached to, and so on up
        while at.attached_to is not None and at.attached_to not in seen:
            if at.attached_to == obj.id:
                # (no names: the table's refusal is everyone's to read, and either
                # may be face down)
                return "a permanent can't be attached to one that is attached to it"
            seen.add(at.attached_to)
            nxt = self.t.objs.get(at.attached_to)
            if nxt is None:
                break
            at = nxt
        return None

    def attach(self, cid: CardId, target_cid: CardId | None) -> Result:
        obj = self.t.obj_of(cid)
        why = self.attach_refusal(cid, target_cid)
        if why is not None:  # (the window and the rooms ask first, and say it)
            raise IllegalActionError(why)
        target = self.t.obj_of(target_cid).id if target_cid is not None else None
        with self.t._action("attach", {"cid": cid, "to": target_cid,
                                     "title": f"Attach {obj.card.name}"}) as box:
            self.t._set(obj, "attached_to", target)
            host = self.t.objs[target] if target is not None else None
            public = host is not None and not host.face_down and host.zone is not None \
                and host.zone[1] in (BATTLEFIELD, STACK)  # else its name is not for all
            text = (f"{obj.card.name} is no longer attached" if host is None else
                    f"{obj.card.name} is attached to "
                    f"{host.card.name if public else 'a face-down or hidden card'}")
            box.append(Event(EventKind.ATTACHED, cid, obj.id, obj.id, obj.zone, obj.zone, text=text))
        return Result(tuple(box))

    def set_pt(self, cid: CardId, pt: str | None) -> Result:
        """An effect sets the permanent's power and toughness ("3/3"; None: back to the
        printed ones). Counters still apply on top; the object forgets it when it
        changes zones (400.7)."""
        obj = self.t.obj_of(cid)
        if pt is not None:
            pt = check_pt(pt)
        with self.t._action("pt", {"cid": cid, "pt": pt,
                                              "title": f"Power/toughness of {obj.card.name}"}
                          ) as box:
            if obj.zone is None or obj.zone[1] != BATTLEFIELD:
                box.append(Event(EventKind.REJECTED, cid, obj.id, None, obj.zone, obj.zone, (), (),
                                 "only a permanent's power and toughness are set this way"))
            else:
                self.t._set(obj, "pt", pt)
                now = pt if pt is not None else "as printed"
                box.append(Event(EventKind.POWER_TOUGHNESS, cid, obj.id, obj.id, obj.zone, obj.zone,
                                 (), (), f"{obj.card.name}'s power/toughness: {now}"))
        return Result(tuple(box))

    def set_note(self, cid: CardId, text: str) -> Result:
        """A note on a card (what it is copying, a chosen creature type...), seen by
        everyone; "" removes it."""
        obj = self.t.obj_of(cid)
        text = " ".join(str(text).split())
        if len(text) > 300:
            raise IllegalActionError("a note is at most 300 characters")
        with self.t._action("note", {"cid": cid, "text": text,
                                   "title": f"Note on {obj.card.name}"}) as box:
            if obj.zone is None:
                box.append(Event(EventKind.REJECTED, cid, obj.id, None, None, None, (), (),
                                 f"{obj.card.name} no longer exists"))
            else:
                self.t._set(obj, "note", text)
                box.append(Event(EventKind.NOTED, cid, obj.id, obj.id, obj.zone, obj.zone, (), (),
                                 f"note on {obj.card.name}: {text}" if text
                                 else f"the note on {obj.card.name} is removed"))
        return Result(tuple(box))

    def place(self, places: dict[CardId, Any]) -> Result:
        """Put permanents somewhere else on the battlefield (card id -> place, an offset
        from the corner of the controller's half as that player sees it; None: back in
        the rows). No rule is involved and the log says nothing; undo puts them back,
        and a save keeps where they are."""
        checked: dict[CardId, tuple[float, float] | None] = {}
        for cid, p in places.items():
            try:
                checked[cid] = None if p is None else check_place(p, "a place")
            except ValueError as e:
                raise IllegalActionError(str(e)) from None
        objs = [o for o in (self.t.live(c) for c in checked)
                if o is not None and o.zone is not None and o.zone[1] == BATTLEFIELD]
        if len(objs) == 1:  # (a face-down permanent is not named: the title is everyone's)
            name = "a face-down permanent" if objs[0].face_down else objs[0].card.name
            title = f"Move {name} on the battlefield"
        else:
            title = ("Arrange the battlefield" if all(checked[o.cid] is None for o in objs)
                     else f"Move {len(objs)} permanents on the battlefield")
        with self.t._action("place", {"cids": [o.cid for o in objs], "title": title}):
            for o in objs:
                self.t._set(o, "place", checked[o.cid])
        return Result(())

    def arrow(self, player: str, cid: CardId, to: CardId | str) -> Result:
        """``player`` points from a permanent or spell to another one (``to`` a card id)
        or to a player (``to`` a name): an attack, a target. Arrows go at the next turn."""
        self._player(player)
        obj = self.t.obj_of(cid)
        aim: Obj | str
        if isinstance(to, str):
            target: int | str = self._player(to)
            aim = to
        else:
            tobj = self.t.obj_of(CardId(int(to)))
            target, aim = tobj.id, tobj
        with self.t._action("arrow", {"player": player, "cid": cid, "to": to,
                                    "title": f"{player} points from {obj.card.name}"}) as box:
            ends = [obj] + ([aim] if isinstance(aim, Obj) else [])
            if any(o.zone is None or o.zone[1] not in (BATTLEFIELD, STACK) for o in ends):
                box.append(Event(EventKind.REJECTED, cid, obj.id, None, obj.zone, obj.zone, (), (),
                                 "arrows go between permanents, spells and players"))
            elif len(self.t.arrows) >= 200:
                box.append(Event(EventKind.REJECTED, cid, obj.id, None, obj.zone, obj.zone, (), (),
                                 "the table already has 200 arrows"))
            else:
                self.t._meta("arrows", (*self.t.arrows, (player, obj.id, target)))
                box.append(Event(EventKind.ARROWS, cid, obj.id, obj.id, obj.zone, obj.zone, (), (),
                                 f"{player} points from {obj.card.name} to "
                                 f"{aim if isinstance(aim, str) else aim.card.name}"))
        return Result(tuple(box))

    def clear_arrows(self, player: str | None = None) -> Result:
        """Take away ``player``'s arrows, or everyone's (None)."""
        keep = tuple(a for a in self.t.arrows if player is not None and a[0] != player)
        who = "all" if player is None else f"{self._player(player)}'s"
        with self.t._action("clear_arrows", {"player": player,
                                           "title": f"Clear {who} arrows"}) as box:
            if keep != self.t.arrows:
                self.t._meta("arrows", keep)
            box.append(Event(EventKind.ARROWS, text=f"{who} arrows are cleared".capitalize()))
        return Result(tuple(box))

    # ---- new objects -------------------------------------------------------
    def create_token(self, card: Card, owner: str, controller: str | None = None, *,
                     tapped: bool = False, counters: dict[str, int] | None = None,
                     face_down: bool = False, count: int = 1) -> Result:
        """``count`` tokens (1 to 100) of one kind, as one action."""
        self._player(owner)
        controller = self._player(controller or owner)
        count = int(count)
        if not 1 <= count <= 100:
            raise IllegalActionError("create 1 to 100 tokens at a time")
        params = {"name": card.name, "card": card.to_json(), "owner": owner,
                  "controller": controller, "tapped": tapped, "counters": dict(counters or {}),
                  "face_down": face_down,
                  "title": f"Create a {card.name} token" if count == 1 else
                  f"Create {count} {card.name} tokens"}
        if count > 1:
            params["count"] = count
        with self.t._action("token", params) as box:
            for _ in range(count):
                box.append(self.t._spawn(card, owner, (None, BATTLEFIELD), EventKind.CREATED,
                                       text=f"{controller} creates a {card.name} token",
                                       kind="token", token=True, controller=controller,
                                       tapped=tapped, counters=dict(counters or {}),
                                       face_down=face_down))
        return Result(tuple(box))

    def bring_in(self, card: Card, owner: str, zone: Zone = HAND,
                 player: str | None = None) -> Result:
        """A card comes into the game from outside it (a sideboard: 400.10a-b)."""
        self._player(owner)
        ed = self.t.edition
        key: ZoneKey
        if zone in (BATTLEFIELD, STACK):
            key, controller = (None, zone), self._player(player or owner)
        else:
            key, controller = self.t.zone_key(zone, owner), None
        cites = ed.cite("outside_game") + ed.cite("brought_in")
        notes = () if cites else (ed.silence("outside_game"),)
        with self.t._action("bring_in", {"card": card.to_json(), "owner": owner, "zone": zone,
                                       "player": player,
                                       "title": f"Bring {card.name} into the game"}) as box:
            side = self.t.sideboards.get(owner, [])
            if card in side:
                self.t._meta("sideboards", {**self.t.sideboards,
                                          owner: [c for i, c in enumerate(side)
                                                  if i != side.index(card)]})
            box.append(self.t._spawn(card, owner, key, EventKind.BROUGHT_IN, cites, notes,
                                   f"{card.name} comes into the game from outside it",
                                   controller=controller))
        return Result(tuple(box))

    def put_ability(self, text: str, controller: str,
                    source_cid: CardId | None = None) -> Result:
        """An activated or triggered ability goes on the stack with no card (405.1)."""
        self._player(controller)
        source = self.t.obj_of(source_cid).card.name if source_cid else None
        card = Card(name=f"{source}: {text}" if source else text, types=("Ability",))
        with self.t._action("ability", {"text": text, "controller": controller,
                                      "source": source_cid,
                                      "title": f"Put {card.name} on the stack"}) as box:
            cites = self.t.edition.cite("stack_ability") + self.t.edition.cite("stack_top")
            box.append(self.t._spawn(card, controller, (None, STACK), EventKind.CREATED, cites, (),
                                   f"{card.name} goes on the stack", kind="ability",
                                   controller=controller))
        return Result(tuple(box))

    def create_emblem(self, name: str, owner: str) -> Result:
        """Emblems are created in the command zone (408.2)."""
        self._player(owner)
        key = self.t.zone_key(COMMAND, None)
        card = Card(name=name, types=("Emblem",))
        with self.t._action("emblem", {"name": name, "owner": owner,
                                     "title": f"Create the emblem {name}"}) as box:
            box.append(self.t._spawn(card, owner, key, EventKind.CREATED, self.t.edition.cite("emblem"), (),
                                   f"{owner} gets the emblem {name}", kind="emblem"))
        return Result(tuple(box))

    # ---- stickers (123) --------------------------------------------------------
    def add_sticker(self, cid: CardId, text: str, by: str | None = None) -> Result:
        """A sticker put on an object (a name, an ability, a power and toughness, art):
        only by its owner (123.3b), and never on an object in a hidden zone, which keeps
        none (123.5). ``text`` says what the sticker is."""
        t, ed = self.t, self.t.edition
        obj = t.obj_of(cid)
        text = " ".join(str(text).split())
        if not 0 < len(text) <= 60:
            raise IllegalActionError("a sticker says what it is in 1 to 60 characters")
        if len(obj.stickers) >= 20:
            raise IllegalActionError(f"{obj.card.name} has as many stickers as it may hold")
        why = None
        if obj.zone is None or obj.zone[1] in (LIBRARY, HAND):
            # no name: the log is read by everyone, and the card is hidden from some
            why = "a sticker goes only on a card in a public zone"
        elif by is not None and by != obj.owner:
            why = f"only {obj.owner}, its owner, may put a sticker on {obj.card.name}"
        cites = ed.cite("stickers")
        with t._action("sticker", {"cid": cid, "text": text,
                                   "title": f"Sticker on {obj.card.name}: {text}"}) as box:
            if why is not None:
                box.append(Event(EventKind.REJECTED, cid, obj.id, None, obj.zone, obj.zone, cites, (),
                                 why))
            else:
                t._set(obj, "stickers", (*obj.stickers, text))
                box.append(Event(EventKind.STICKER, cid, obj.id, obj.id, obj.zone, obj.zone, cites,
                                 (), f"a sticker on {obj.card.name}: {text}"))
        return Result(tuple(box))

    # ---- merging (728) -------------------------------------------------------
    def merge(self, cid: CardId, onto: CardId, on_top: bool = False) -> Result:
        """An object merges with a permanent (mutate, 728.2): it leaves its zone without
        entering the battlefield, and the permanent, the same object still, is now
        represented by both cards; on top, it has that card's characteristics (728.2a).
        Refused in editions whose rules have no merged permanents (728 is 2020's)."""
        t, ed = self.t, self.t.edition
        obj, host = t.obj_of(cid), t.obj_of(onto)
        cites = ed.cite("merge")
        why = None
        if not cites:
            why = f"the {ed.id} rules have no merged permanents (728 came with mutate in 2020)"
        elif host.zone is None or host.zone[1] != BATTLEFIELD:
            why = "only a permanent on the battlefield can be merged with"
        elif cid == onto or obj.zone is None or cid in t.merged:
            why = f"{_public_name(obj)} cannot merge with {host.card.name}"
        where = "on top of" if on_top else "under"
        with t._action("merge", {"cid": cid, "onto": onto, "on_top": on_top,
                                 "title": f"{_public_name(obj)} merges {where} "
                                          f"{_public_name(host)}"}) as box:
            if why is not None:
                box.append(Event(EventKind.REJECTED, cid, obj.id, None, obj.zone, obj.zone, cites, (),
                                 why))
            else:
                src, host_name = obj.zone, host.card.name
                assert src is not None and host.zone is not None
                parts = t.merged.get(onto) or ((onto, host.card, host.owner, host.token),)
                mine = (cid, obj.card, obj.owner, obj.token)
                parts = (mine, *parts) if on_top else (*parts, mine)
                t._remove(src, obj.id)
                t._set(obj, "zone", None)
                t._lineage(cid, LineageEntry(host.id, host.zone, "merged", cites))
                t._meta("merged", {**t.merged, onto: parts})
                if on_top:  # the topmost component's characteristics (728.2a)
                    t._set(host, "card", obj.card)
                box.append(Event(EventKind.MERGED, cid, host.id, obj.id, src, host.zone, cites, (),
                                 f"{obj.card.name} merges {where} {host_name}"))
        return Result(tuple(box))

    # ---- the commander's return (903.9a) -------------------------------------
    def commander_returns(self, cid: CardId) -> Result:
        """Its owner puts a commander from a graveyard or exile into the command zone, as
        the state-based action of 2025's 903.9a allows: only one put there since
        state-based actions were last checked (at this table: by the last action). Not a
        replacement: the commander went to the graveyard or exile first, and leaves it now
        as a new object. Refused in editions without the rule."""
        t, ed = self.t, self.t.edition
        obj = t.obj_of(cid)
        name, cites = _public_name(obj), ed.cite("commander_returns")
        title = f"{obj.owner} puts {name} into the command zone"
        why = None
        if not ed.commander_returns and ed.commander_replace:
            number = (ed.cite("commander_replace") or ("903.9",))[0]
            why = (f"{ed.id} has no state-based action that returns a commander: its "
                   f"commander rule is a replacement, applied as the commander moves "
                   f"({ed.mark(number)})")
        elif not ed.commander_returns:
            why = f"the {ed.id} text here has no commander rules"
        elif cid not in t.commanders:
            why = f"{name} is not a commander"
        elif obj.zone is None or obj.zone[1] not in ed.commander_returns:
            why = f"{name} is neither in a graveyard nor in exile"
        elif not self._arrived_last(obj):
            why = (f"{name} has been {ed.within(obj.zone[1])} since state-based actions were "
                   f"last checked: it stays there")
        with t._action("commander_returns", {"cid": cid, "title": title}) as box:
            if why is not None:
                box.append(Event(EventKind.REJECTED, cid, obj.id, None, obj.zone, obj.zone,
                                 cites if ed.commander_returns else (), (), why))
            else:
                plan = self.p.plan_move(obj, COMMAND, None)
                _cite_first(plan.cites, cites)
                self.p._run_plans([plan], "top", None, False, None, box)
        return Result(tuple(box))

    def _arrived_last(self, obj: Obj) -> bool:
        """Whether the object came to its zone by the last action (state-based actions are
        checked between actions: an object that arrived earlier was there at a check)."""
        if not self.t.history:
            return False
        return any(e.obj == obj.id and e.dst == obj.zone
                   for e in self.t.history[-1].events)

    # ---- whole zones, cleanup, ante, turns ----------------------------------
    def zone_to_zone(self, player: str, src_zone: Zone, dst_zone: Zone, *,
                     shuffle: bool = False, position: str="top", seed: int | None = None) -> Result:
        """Act on a whole zone as one action (400.11), e.g. shuffle a hand into a library."""
        src = self.t.zone_key(src_zone, self._player(player))
        ed = self.t.edition
        title = f"{player}: {ed.zone_name(src_zone)} into {ed.zone_name(dst_zone).lower()}"
        chance, seed = self._chance(seed) if shuffle else (None, None)
        with self.t._action("move_all", {"player": player, "from": src_zone, "to": dst_zone,
                                   "shuffle": shuffle, "position": position, "seed": seed,
                                   "title": title}) as box:
            plans = [self.p.plan_move(self.t.objs[i], dst_zone, player)
                     for i in reversed(self.t.zones[src])]
            for p in plans:
                if ed.cite("whole_zone"):
                    p.cites.insert(0, ed.cite("whole_zone")[0])
            self.p._run_plans(plans, position, None, False, None, box)
            if chance is not None and dst_zone == LIBRARY:
                self._shuffle(self.t.zone_key(LIBRARY, player), box, chance)
        return Result(tuple(box))

    def cleanup(self, player: str, discard: Iterable[CardId] | None = None) -> Result:
        """Cleanup: discard down to the maximum hand size (402.2). ``discard``:
        the cids to discard; by default the cards most recently put in the hand."""
        key = self.t.zone_key(HAND, self._player(player))
        excess = len(self.t.zones[key]) - self.t.max_hand
        ed = self.t.edition
        with self.t._action("cleanup", {"player": player,
                                      "discard": list(discard) if discard else None,
                                      "title": f"{player} discards to hand size"}) as box:
            if excess <= 0:
                box.append(Event(EventKind.UNCHANGED, None, None, None, key, key, ed.cite("hand_max"), (),
                                 f"{player} holds no more than {self.t.max_hand} "
                                 f"card{'s' * (self.t.max_hand != 1)}"))
            else:
                ids = [self.t.obj_of(c).id for c in discard] if discard else \
                    list(reversed(self.t.zones[key]))[:excess]
                if len(ids) != excess or any(self.t.objs[i].zone != key for i in ids):
                    raise IllegalActionError(f"{player} must discard exactly {excess} "
                                             f"card{'s' * (excess != 1)} from hand")
                plans = [self.p.plan_move(self.t.objs[i], GRAVEYARD, player) for i in ids]
                for p in plans:
                    _cite_first(p.cites, ed.cite("hand_max"))
                self.p._run_plans(plans, "top", None, False, None, box)
        return Result(tuple(box))

    def ante_start(self, seed: int | None = None) -> Result:
        """Each player antes: the top card after shuffling (cr-1999), else a random card."""
        ed = self.t.edition
        chance, seed = self._chance(seed)
        with self.t._action(ANTE, {"seed": seed, "title": "Each player antes"}) as box:
            if not self.t.ante:
                cites = ed.cite("ante_game")
                box.append(Event(EventKind.REJECTED, None, None, None, None, None, cites,
                                 () if cites else (ed.silence("ante_game"),),
                                 "this game is not played for ante"))
            for p in self.t.apnap() if self.t.ante else ():
                lib = self.t.zone_key(LIBRARY, p)
                if not self.t.zones[lib]:
                    continue
                if ed.ante_pick == "top":
                    self._shuffle(lib, box, chance)
                    oid = self.t.zones[lib][-1]
                else:
                    oid = chance.choice(self.t.zones[lib])
                plan = self.p.plan_move(self.t.objs[oid], ANTE, p, by=p)
                if ed.cite("ante_start"):
                    _cite_first(plan.cites, ed.cite("ante_start"))
                else:
                    plan.notes.append(ed.silence("ante_start"))
                self.p._run_plans([plan], "top", None, False, None, box)
        return Result(tuple(box))

    def award_ante(self, winner: str) -> Result:
        """The winner becomes the owner of every card in the ante zone."""
        self._player(winner)
        ed = self.t.edition
        with self.t._action("award_ante", {"winner": winner,
                                         "title": f"{winner} wins the ante"}) as box:
            for key in [k for k in self.t.zones if k[1] == ANTE]:
                for oid in list(self.t.zones[key]):
                    obj = self.t.objs[oid]
                    self.t._set(obj, "owner", winner)
                    box.append(Event(EventKind.OWNER_CHANGED, obj.cid, oid, oid, key, key,
                                     ed.cite("ante_winner"),
                                     () if ed.cite("ante_winner") else (ed.silence("ante_winner"),),
                                     f"{winner} now owns {obj.card.name}"))
        return Result(tuple(box))

    def mulligan(self, player: str, hand: int = 7, seed: int | None = None) -> Result:
        """London mulligan, first part: the hand is shuffled into the library and a new
        hand of seven is drawn (one action). The caller then puts as many cards on the
        bottom as mulligans taken, with ``move_many(..., position="bottom")``."""
        self._player(player)
        lib = self.t.zone_key(LIBRARY, player)
        chance, seed = self._chance(seed)
        with self.t._action("mulligan", {"player": player, "hand": hand, "seed": seed,
                                       "title": f"{player} mulligans"}) as box:
            self.t._meta("mulligans", {**self.t.mulligans, player: self.t.mulligans.get(player, 0) + 1})
            plans = [self.p.plan_move(self.t.objs[i], LIBRARY, player)
                     for i in reversed(self.t.zones[(player, HAND)])]
            self.p._run_plans(plans, "top", None, False, None, box)
            self._shuffle(lib, box, chance)
            for _ in range(hand):
                if not self.t.zones[lib]:
                    break
                plan = self.p.plan_move(self.t.objs[self.t.zones[lib][-1]], HAND, player)
                self.p._run_plans([plan], "top", None, False, None, box)
        return Result(tuple(box))

    def roll(self, player: str, sides: int = 6, seed: int | None = None) -> Result:
        """Roll a die (sides >= 2) or, with sides=2, flip a coin; seeded, so it replays."""
        self._player(player)
        if sides < 2:
            raise IllegalActionError("a die has at least two sides")
        chance, seed = self._chance(seed)
        value = chance.randint(1, sides)
        what = ("heads" if value == 1 else "tails") if sides == 2 else str(value)
        verb = "flips a coin" if sides == 2 else f"rolls a d{sides}"
        with self.t._action("roll", {"player": player, "sides": sides, "seed": seed,
                                   "value": value, "title": f"{player} {verb}"}) as box:
            self.t._meta("last_roll", (player, sides, value))
            box.append(Event(EventKind.ROLLED, text=f"{player} {verb}: {what}"))
        return Result(tuple(box))

    def next_turn(self, untap: bool = False) -> Result:
        """The next player's turn begins, at its untap step; ``untap``: their permanents
        untap (the table does it for the player)."""
        nxt = self.t.apnap()[1 % len(self.t.players)]
        params: dict[str, object] = {"title": f"{nxt}'s turn"}
        if untap:
            params["untap"] = True
        with self.t._action("next_turn", params) as box:
            self.t._meta("active", nxt)
            self.t._meta("turn", self.t.turn + 1)
            self.t._meta("phase", "untap")
            if self.t.arrows:
                self.t._meta("arrows", ())
            box.append(Event(EventKind.TURN, text=f"{nxt} is now the active player (turn {self.t.turn})"))
            if untap:
                self._untap_all(nxt, box)
        return Result(tuple(box))

    def _untap_all(self, player: str, box: list[Event]) -> None:
        for o in self.t.objects_in((None, BATTLEFIELD)):
            if o.controller == player and o.tapped:
                self.t._set(o, "tapped", False)
                box.append(Event(EventKind.UNTAPPED, o.cid, o.id, None, o.zone, o.zone,
                                 text=f"{o.card.name} untaps"))

    def set_phase(self, phase: str, draw: bool = False) -> Result:
        """The turn moves to a step or phase (the phase bar). ``draw``: entering the draw
        step, the active player draws a card (the table does it for them)."""
        if phase not in PHASES:
            raise IllegalActionError(f"unknown step {phase!r} (steps: {', '.join(PHASES)})")
        params: dict[str, object] = {"phase": phase,
                                     "title": f"{PHASE_NAMES[phase]} ({self.t.active})"}
        if draw:
            params["draw"] = True
        with self.t._action("phase", params) as box:
            self.t._meta("phase", phase)
            box.append(Event(EventKind.PHASE, text=f"{self.t.active}'s turn {self.t.turn}: "
                                           f"{PHASE_NAMES[phase].lower()}"))
            if draw and phase == "draw":
                lib = self.t.zone_key(LIBRARY, self.t.active)
                if self.t.zones[lib]:
                    plan = self.p.plan_move(self.t.objs[self.t.zones[lib][-1]], HAND, self.t.active)
                    self.p._run_plans([plan], "top", None, False, None, box)
                else:
                    box.append(Event(EventKind.EMPTY_LIBRARY, None, None, None, lib, lib,
                                     text=f"{self.t.active} can't draw: the library is empty"))
        return Result(tuple(box))

    def next_phase(self, draw: bool = False) -> Result:
        """The next step of the turn; after the cleanup step, use next_turn."""
        i = PHASES.index(self.t.phase) if self.t.phase in PHASES else 0
        if i + 1 >= len(PHASES):
            raise IllegalActionError("the cleanup step is the last: the next turn comes next")
        return self.set_phase(PHASES[i + 1], draw=draw)

    def set_life(self, player: str, life: int) -> Result:
        with self.t._action("life", {"player": player, "life": int(life),
                                   "title": f"{player}'s life: {life}"}) as box:
            self.t._life(self._player(player), int(life))
            box.append(Event(EventKind.LIFE, text=f"{player} is at {life} life"))
        return Result(tuple(box))


    # ---- players' counters, looking and showing ------------------------------
    def set_player_counter(self, player: str, kind: str, value: int) -> Result:
        """A player's counters of one kind (poison, "commander damage from Bob", energy):
        set to ``value`` (0 removes the kind)."""
        self._player(player)
        kind = " ".join(str(kind).split())
        if not kind or len(kind) > 60:
            raise IllegalActionError("a player counter needs a name of 1 to 60 characters")
        value = int(value)
        if abs(value) > 10 ** 9:
            raise IllegalActionError("that is too many counters")
        mine = dict(self.t.player_counters.get(player, {}))
        if value and kind not in mine and len(mine) >= COUNTER_KINDS:
            raise IllegalActionError(f"{player} has as many kinds of counters as a player "
                                     f"may have ({COUNTER_KINDS})")
        if value:
            mine[kind] = value
        else:
            mine.pop(kind, None)
        new = {p: c for p, c in self.t.player_counters.items() if p != player}
        if mine:
            new[player] = mine
        with self.t._action("player_counter", {"player": player, "kind": kind, "value": value,
                                              "title": f"{player}'s {kind} counters: {value}"}
                          ) as box:
            self.t._meta("player_counters", new)
            if kind.startswith("commander damage"):
                text = f"{player} has taken {value} {kind}"
            else:
                text = f"{player} has {value} {kind} counter{'s' * (value != 1)}"
            box.append(Event(EventKind.PLAYER_COUNTERS, text=text))
        return Result(tuple(box))

    def look(self, player: str, whose: str, count: int | None = None) -> Result:
        """``player`` looks at the top ``count`` cards of ``whose`` library, or searches
        it all (``count`` None). Everyone is told that they looked, not what they saw."""
        self._player(player)
        key = self.t.zone_key(LIBRARY, self._player(whose))
        their = "their" if whose == player else f"{whose}'s"
        if count is None:
            text = f"{player} searches {their} library"
        else:
            count = max(0, min(int(count), len(self.t.zones[key])))
            text = f"{player} looks at the top {count} card{'s' * (count != 1)} of " \
                   f"{their} library"
        with self.t._action("look", {"player": player, "whose": whose, "count": count,
                                   "title": text}) as box:
            box.append(Event(EventKind.LOOKED, src=key, dst=key, text=text))
        return Result(tuple(box))

    def show(self, player: str, cids: Iterable[CardId], to: str | None = None) -> Result:
        """``player`` reveals cards (the top of a library, a hand) to one player, or to
        everyone (``to`` None); the cards stay where they are."""
        self._player(player)
        if to is not None:
            self._player(to)
        objs = [self.t.obj_of(c) for c in cids]
        if not objs:
            raise IllegalActionError("nothing to reveal")
        for o in objs:
            if o.zone is None:
                raise IllegalActionError(f"{o.card.name} is in no zone")
        if all(o.zone is not None and o.zone[1] == HAND for o in objs):
            # a hand shown in its order would tell which card came into it when (the one
            # drawn last): named in the order of their names (a library's, top first, is
            # the order it shows)
            objs.sort(key=lambda o: o.card.name)
        names = [o.card.name for o in objs]
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        zones = {o.zone for o in objs if o.zone is not None}
        where, key = "", None
        if len(zones) == 1:
            key = next(iter(zones))
            where = " from " + views_place(self.t, key)
        who = "everyone" if to is None else to
        text = f"{player} reveals {listed}{where} to {who}"
        audience = None if to is None else (player, to)  # who showed, who saw
        with self.t._action("show", {"player": player, "cids": [o.cid for o in objs], "to": to,
                                   "title": f"{player} reveals {len(objs)} card"
                                            f"{'s' * (len(objs) != 1)} to {who}"}) as box:
            box.append(Event(EventKind.SHOWN, src=key, dst=key, text=text, audience=audience))
        return Result(tuple(box))


# the steps and phases of a turn, in order, with their names on the phase bar
PHASE_NAMES = {"untap": "Untap", "upkeep": "Upkeep", "draw": "Draw", "main1": "Main 1",
               "combat": "Beginning of combat", "attackers": "Declare attackers",
               "blockers": "Declare blockers", "damage": "Combat damage",
               "end_combat": "End of combat", "main2": "Main 2", "end": "End step",
               "cleanup": "Cleanup"}
PHASES = tuple(PHASE_NAMES)


def _public_name(obj: Obj) -> str:
    """A card's name for a line everyone reads: "a card" where some may not see it."""
    if obj.zone is None or obj.zone[1] in (LIBRARY, HAND) or obj.face_down:
        return "a card"
    return obj.card.name


def views_place(table: TableState, key: ZoneKey) -> str:
    """A zone in words ("Bob's hand")."""
    return table.edition.place(key[1], key[0])


def _cite_first(cites: list[str], numbers: Sequence[str]) -> None:
    for n in reversed(numbers):
        if n not in cites:
            cites.insert(0, n)
