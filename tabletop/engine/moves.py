"""The move pipeline (400.6 in modern numbering), one for every action.

1. name the event; 2. redirect or refuse it (owner redirect, card types barred
from a zone); 3. replacement effects, each at most once, in the order the
affected object's controller (or owner) chooses, re-checking step 2 after
each; 4. the move: a new object with a new id, keeping only what the edition's
exceptions carry; 5. tokens outside the battlefield cease to exist; 6. events.

``plan_move`` decides without changing anything (the GUI calls it while a card
hovers over a zone); ``move`` and ``move_many`` decide and apply. The Table
(table.py) holds a ``MovePipeline`` and offers these as its own methods.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from tabletop.engine.errors import IllegalActionError
from tabletop.engine.model import (
    ANTE,
    BATTLEFIELD,
    CEASED,
    COMMAND,
    CONTROL_CHANGED,
    CONTROLLED,
    EXILE,
    GRAVEYARD,
    HAND,
    LIBRARY,
    MOVED,
    NEW_OBJECT,
    ORDERED,
    PHASED_OUT,
    REDIRECTED,
    REJECTED,
    REORDERED,
    REPLACED,
    STACK,
    UNCHANGED,
    ZONES,
    Card,
    CardId,
    Effect,
    Event,
    EventKind,
    LineageEntry,
    Obj,
    ObjId,
    Zone,
    ZoneKey,
    check_place,
    from_fields,
)
from tabletop.engine.state import Result, TableState, _Recording

Chooser = Callable[[Obj, list[Effect]], "Effect | None"]
Position = str | int  # "top", "bottom", or N-th from the top
Refusal = tuple[tuple[str, ...], str]  # (rules cited, why)
Kept = tuple[str, str]  # (what an object keeps or forgets, the rule)


class Plan:
    """Where a move will take an object, and why: worked out before anything changes."""

    __slots__ = (
        "applied",
        "cites",
        "controller",
        "declined",
        "dst",
        "headed",
        "kind",
        "notes",
        "obj",
        "src",
        "text",
    )

    def __init__(self, obj: Obj, src: ZoneKey | None, dst: ZoneKey | None,
                 controller: str | None, kind: EventKind = MOVED,
                 cites: list[str] | None = None, text: str = "") -> None:
        self.obj = obj
        self.src = src
        self.dst = dst  # the zone it ends up in (for a refusal: the zone it was aimed at)
        self.controller = controller
        self.kind = kind
        self.cites: list[str] = [] if cites is None else cites
        self.notes: list[str] = []
        self.applied: list[str] = []  # replacement effects' labels, in order
        self.declined = False  # an optional replacement effect was declined
        # where a commander was headed when the commander rule sent it to the command
        # zone instead: a merged permanent's other components still go there (903.9c)
        self.headed: Zone | None = None
        self.text = text

    @property
    def changes_zone(self) -> bool:
        return self.kind in (MOVED, REDIRECTED, REPLACED)


def chooser_from_labels(labels: Iterable[str]) -> Chooser:
    """A chooser applying the listed effects in that order; optional effects
    left out are declined (scenario key ``apply``)."""
    labels = list(labels)

    def choose(obj: Obj, candidates: list[Effect]) -> Effect | None:
        for label in labels:
            for e in candidates:
                if e.label == label:
                    return e
        return None
    return choose


def _first(obj: Obj, candidates: list[Effect]) -> Effect | None:
    return candidates[0]


def _move_params(cids: list[CardId], zone: Zone, player: str | None, position: Position,
                 order: Sequence[int] | None, face_down: bool, by: str | None,
                 pile: str | None, allowed_by: str | None,
                 plans: list[Plan]) -> dict[str, Any]:
    """What a move was asked to do, in full: a recording writes it back as a step."""
    d: dict[str, Any] = {"cids": cids, "zone": zone}
    if player is not None:
        d["player"] = player
    if by is not None:
        d["by"] = by
    if pile is not None:
        d["pile"] = pile
    if allowed_by is not None:
        d["allowed_by"] = allowed_by
    if position != "top":
        d["position"] = position
    if order:
        d["order"] = list(order)
    if face_down:
        d["face_down"] = True
    applied: list[str] = []
    declined = False
    for p in plans:
        if p.applied:
            applied += [x for x in p.applied if x not in applied]
        declined = declined or p.declined
    if applied or declined:
        d["apply"] = applied
    return d


def _checked_places(at: Mapping[int, Any] | None) -> dict[int, tuple[float, float]] | None:
    """Card id -> place on the battlefield, each checked (a peer or a file may lie)."""
    if not at:
        return None
    try:
        return {cid: check_place(p, "a place on the battlefield") for cid, p in at.items()}
    except ValueError as e:
        raise IllegalActionError(str(e)) from None


_VERBS = {REDIRECTED: "goes instead", REPLACED: "is put instead"}  # (describe) else "moves"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _add(lst: list[Any], items: Iterable[Any]) -> None:
    for i in items:
        if i not in lst:
            lst.append(i)


class MovePipeline:
    """The move pipeline: decides where an object really goes and carries the move out
    on the table's state, through its recorded changes. The Table holds one."""

    def __init__(self, t: TableState) -> None:
        self.t = t

    # ---- deciding ----------------------------------------------------------
    def _destination(self, obj: Obj, zone: Zone, player: str | None
                     ) -> tuple[ZoneKey, str | None, bool]:
        ed = self.t.edition
        if not ed.has_zone(zone):
            raise IllegalActionError(f"the {ed.id} edition has no {zone!r} zone")
        zone = ZONES[zone]  # the vocabulary's own member (a file's text names it too)
        if player is not None and player not in self.t.life:
            raise IllegalActionError(f"unknown player {player!r}")
        if zone in ed.per_player:
            target = player or obj.owner
            if target != obj.owner and zone in ed.redirect:
                return (obj.owner, zone), None, True
            return (target, zone), None, False
        if zone in CONTROLLED:
            return (None, zone), player or obj.owner, False
        return (None, zone), None, False

    def _refusal(self, obj: Obj, src: ZoneKey, zone: Zone, by: str | None,
                 allowed_by: str | None = None, face_down: bool = False) -> Refusal | None:
        """(cites, why) when the rules keep the object where it is. ``allowed_by``
        names the card whose text allows the move (an ante card, 407.3)."""
        ed = self.t.edition
        card = obj.card
        if zone == ANTE and src[1] != ANTE and not self.t.ante:
            return (ed.cite("ante_game"), "this game is not played for ante: nothing goes "
                    "into the ante zone")
        if src[1] == ANTE and zone != ANTE and not allowed_by and ed.cite("ante_cards"):
            return (ed.cite("ante_cards"), f"{card.name} stays in the ante zone: only a card "
                    f"whose text says so may take a card out of it")
        if zone == BATTLEFIELD and src[1] != BATTLEFIELD:
            if obj.kind in ("ability", "emblem"):
                return ed.cite("permanents_only"), f"{card.name} is not a card and cannot become a permanent"
            # face down, it is a 2/2 creature with no name where the edition has
            # face-down permanents: what it is does not keep it off the battlefield
            hidden_kind = face_down and bool(ed.cite("face_down_permanent"))
            if (card.is_type("Instant") or card.is_type("Sorcery")) and not hidden_kind \
                    and ed.cite("instant_sorcery"):
                return (ed.cite("instant_sorcery"),
                        f"{card.name} is an instant or sorcery: it stays in "
                        f"{ed.zone_name(src[1]).lower()}")
        if src[1] == COMMAND and zone != COMMAND:
            if obj.kind == "emblem":
                return ed.cite("command_zone"), "an emblem stays in the command zone"
            barred = [t for t in card.types if t in ed.command_stays]
            if barred:
                return (ed.cite("command_stays"),
                        f"a {barred[0].lower()} card cannot leave the command zone")
        if src[1] == PHASED_OUT and obj.attached_to is not None and ed.token_cite(PHASED_OUT):
            host = self.t.objs.get(obj.attached_to)
            if host is not None and host.token and host.zone is None:
                return (ed.token_cite(PHASED_OUT), f"{card.name} was attached to a token that "
                        f"ceased to exist while phased out: it stays phased out for the rest "
                        f"of the game")
        if zone == ANTE and by is not None and by != obj.owner and ed.cite("ante_owner_only"):
            return ed.cite("ante_owner_only"), f"only {obj.owner}, its owner, may ante {card.name}"
        return None

    def _affects(self, e: Effect, obj: Obj) -> bool:
        a = e.affects
        if a == "any":
            return True
        if a == "tokens":
            return obj.token
        if a == "nontokens":
            return not obj.token
        kind, _, arg = a.partition(":")
        if kind == "owner":
            return obj.owner == arg
        if kind == "opponents-of":
            return obj.owner != arg
        if kind == "cid":
            return obj.cid == int(arg)
        return False

    def plan_move(self, obj: Obj, zone: Zone, player: str | None = None,
                  chooser: Chooser | None = None, by: str | None = None,
                  allowed_by: str | None = None, face_down: bool = False) -> Plan:
        """Decide where a move ends, without changing anything. (Its options may be
        given in order: ``move``, on the hot path, does, as a call with keywords costs
        more.)"""
        ed = self.t.edition
        src = obj.zone
        if src is None:
            return Plan(obj, None, None, None, REJECTED,
                        list(ed.token_cite(BATTLEFIELD)) if obj.token else [],
                        text=f"{obj.card.name} no longer exists")
        dst, ctrl, redirected = self._destination(obj, zone, player)
        plan = Plan(obj, src, dst, ctrl)
        if obj.kind == "ability":
            if zone == STACK:
                plan.kind, plan.text = UNCHANGED, "the ability is already on the stack"
            else:
                plan.kind, plan.dst = CEASED, None
                plan.text = f"{obj.card.name} leaves the stack and ceases to exist"
                _add(plan.cites, ed.cite("stack_ability"))
            return plan
        choose = chooser or _first
        declined: set[str] = set()
        while True:
            refusal = self._refusal(obj, src, zone, by, allowed_by,
                                    face_down and zone == BATTLEFIELD)
            if refusal is not None:
                if redirected:
                    _add(plan.cites, ed.cite("owner_redirect"))
                _add(plan.cites, refusal[0])
                plan.kind, plan.text = REJECTED, refusal[1]
                return plan
            if face_down and zone == BATTLEFIELD and src[1] != BATTLEFIELD \
                    and ed.cite("face_down_permanent"):
                _add(plan.cites, ed.cite("face_down_permanent"))
            elif zone == BATTLEFIELD and src[1] != BATTLEFIELD and not ed.cite("instant_sorcery") \
                    and (obj.card.is_type("Instant") or obj.card.is_type("Sorcery")):
                _add(plan.notes, [ed.silence("instant_sorcery")])
            candidates = [e for e in self.t.effects
                          if e.label not in plan.applied and e.label not in declined
                          and e.watch == zone and e.origin in ("any", src[1])
                          and self._affects(e, obj)] if self.t.effects else []
            rule = self._commander_rule(obj, zone) if self.t.commanders \
                and zone in ed.commander_replace else None
            if rule is not None and rule.label not in plan.applied and rule.label not in declined:
                candidates.append(rule)  # the rules' own, after the effects in force
            if not candidates:
                break
            effect = choose(obj, candidates)
            if effect is None:
                mandatory = [e for e in candidates if not e.optional]
                if not mandatory:
                    declined.update(e.label for e in candidates)
                    plan.declined = True
                    plan.notes.append(f"{obj.owner} declines " + ", ".join(
                        e.source or e.label for e in candidates))
                    break
                effect = mandatory[0]
            plan.applied.append(effect.label)
            if effect is rule:
                _add(plan.cites, ed.cite("commander_replace"))
                plan.headed = zone
            plan.kind = REPLACED
            plan.notes.append(f"replaced by {effect.source or effect.label}: "
                              f"{ed.zone_name(effect.instead).lower()} instead of "
                              f"{ed.zone_name(effect.watch).lower()}")
            if ed.cite("replacement"):
                _add(plan.cites, ed.cite("replacement"))
            else:
                _add(plan.notes, [ed.silence("replacement")])
            zone = effect.instead
            dst, ctrl, redirected = self._destination(obj, zone, None)
            plan.dst, plan.controller = dst, ctrl
        if redirected:  # only where it really lands: a replacement may have sent it elsewhere
            plan.cites[:0] = [c for c in ed.cite("owner_redirect") if c not in plan.cites]
            if plan.kind == MOVED:
                plan.kind = REDIRECTED
        if dst == src and (zone not in CONTROLLED or ctrl == obj.controller):
            if zone == COMMAND and ed.command_new_object:
                plan.kind = NEW_OBJECT
                _add(plan.cites, ed.cite("command_again"))
                plan.text = f"{obj.card.name} is put into the command zone again: a new object"
            elif zone == EXILE and ed.same_zone == "exile-new-object":
                plan.kind = NEW_OBJECT
                _add(plan.cites, ed.cite("same_zone"))
                plan.text = f"{obj.card.name} is exiled again: a new object"
            else:
                plan.kind = UNCHANGED
                if ed.same_zone == "nothing":
                    if ed.cite("same_zone"):
                        _add(plan.cites, ed.cite("same_zone"))
                    else:
                        plan.notes.append(ed.silence("same_zone"))
                elif zone in ORDERED:
                    _add(plan.cites, ed.cite("order"))
                plan.text = f"{obj.card.name} is already there: nothing happens"
        elif dst == src:
            plan.kind = CONTROL_CHANGED
            plan.text = f"{ctrl} gains control of {obj.card.name}"
        return plan

    def _commander_rule(self, obj: Obj, zone: Zone) -> Effect | None:
        """The rules' own optional replacement for a commander headed for one of the zones
        the edition names (903.9b in 2025: hand or library; 903.9 in 2016: those, the
        graveyard and exile): the command zone instead, if its owner wishes. Its label
        is ``commander``, as a scenario's ``apply`` names it."""
        ed = self.t.edition
        parts = self.t.merged.get(obj.cid, ()) if obj.zone == (None, BATTLEFIELD) else ()
        if zone not in ed.commander_replace or obj.kind != "card" or not (
                obj.cid in self.t.commanders  # or one of its components (903.3c)
                or any(p[0] in self.t.commanders for p in parts)):
            return None
        number = (ed.cite("commander_replace") or ("903.9",))[0]
        return Effect("commander", zone, COMMAND, f"the commander rule ({number})",
                      affects=f"cid:{obj.cid}", optional=True)

    def can_move(self, cid: CardId, zone: Zone, player: str | None = None, *,
                 chooser: Chooser | None = None, by: str | None = None,
                 allowed_by: str | None = None) -> bool:
        """Check only: would this move be accepted (not refused by the rules)?"""
        obj = self.t.obj_of(cid)
        return self.plan_move(obj, zone, player, chooser=chooser, by=by,
                              allowed_by=allowed_by).kind != REJECTED

    # ---- applying ----------------------------------------------------------
    def move(self, cid: CardId, zone: Zone, player: str | None = None, *,
             position: Position = "top",
             face_down: bool = False, chooser: Chooser | None = None,
             by: str | None = None, pile: str | None = None,
             allowed_by: str | None = None,
             at: Mapping[int, tuple[float, float]] | None = None) -> Result:
        """Move one object, as a player dropping it on a zone; ``at``: card id -> the
        place it is let go at, kept if it lands on the battlefield."""
        if at:
            at = _checked_places(at)
        t = self.t
        plan = self.plan_move(t.obj_of(cid), zone, player, chooser, by, allowed_by, face_down)
        params = _move_params([cid], zone, player, position, None, face_down, by, pile,
                              allowed_by, [plan])
        with _Recording(t, "move", params) as box:
            box.extend(self._execute_move(plan, position, face_down, pile) if plan.changes_zone
                       else self._execute_in_place(plan, face_down, position))
            if at:
                self._put_at(box, at)
        return from_fields(Result, (tuple(box),))

    def move_many(self, cids: Iterable[CardId], zone: Zone, player: str | None = None, *,
                  position: Position = "top", order: Sequence[int] | None = None,
                  face_down: bool = False, chooser: Chooser | None = None,
                  by: str | None = None, pile: str | None = None, title: str | None = None,
                  allowed_by: str | None = None,
                  at: Mapping[int, tuple[float, float]] | None = None) -> Result:
        """Move objects simultaneously; ``order`` (cids, top first) arranges each
        ordered destination where the rules leave it to a player."""
        at = _checked_places(at)
        plans = [self.plan_move(self.t.obj_of(c), zone, player, chooser=chooser, by=by,
                                allowed_by=allowed_by, face_down=face_down) for c in cids]
        params = _move_params(list(cids), zone, player, position, order, face_down, by, pile,
                              allowed_by, plans)
        if title:
            params["title"] = title
        with self.t._action("move", params) as box:
            self._run_plans(plans, position, order, face_down, pile, box)
            if at:
                self._put_at(box, at)
        return Result(tuple(box))

    def _put_at(self, box: list[Event], at: Mapping[int, tuple[float, float]]) -> None:
        """The cards that landed on the battlefield stay where they were let go."""
        for e in box:
            place = at.get(e.cid) if e.cid is not None else None
            if place is None or e.obj is None or e.dst is None or e.dst[1] != BATTLEFIELD \
                    or e.kind not in (MOVED, REDIRECTED, REPLACED):
                continue
            obj = self.t.objs[e.obj]
            if obj.zone == e.dst:
                self.t._set(obj, "place", place)

    def _run_plans(self, plans: list[Plan], position: Position, order: Sequence[int] | None,
                   face_down: bool, pile: str | None, box: list[Event]) -> None:
        """Carry out decided plans; events come out in the order the objects were given."""
        if len(plans) == 1:  # the common case: one object
            p = plans[0]
            box.extend(self._execute_move(p, position, face_down, pile) if p.changes_zone
                       else self._execute_in_place(p, face_down, position))
            return
        out: dict[int, list[Event]] = {}
        groups: dict[ZoneKey, list[Plan]] = {}
        for i, p in enumerate(plans):
            if p.changes_zone:
                assert p.dst is not None  # a plan that changes zones has a destination
                groups.setdefault(p.dst, []).append(p)
            else:
                out[i] = self._execute_in_place(p, face_down)
        rank = {c: i for i, c in enumerate(order or ())}
        index_of = {id(p): i for i, p in enumerate(plans)}
        for key, group in groups.items():
            group.sort(key=lambda p: rank.get(p.obj.cid, len(rank)))  # stable: listed order after
            if key[1] in ORDERED and len(group) > 1:
                concept = {LIBRARY: "library_arrange", GRAVEYARD: "graveyard_arrange",
                           STACK: "stack_order"}[key[1]]
                for p in group:
                    _add(p.cites, self.t.edition.cite(concept))
                if key[1] == STACK:  # APNAP: the active player's objects lowest
                    seat = {pl: i for i, pl in enumerate(self.t.apnap())}
                    group.sort(key=lambda p: -seat[str(p.controller)])  # top first
            # to a library's bottom each goes under the last (top first); else each goes
            # on top of the last (bottom first)
            seq = group if key[1] == LIBRARY and position == "bottom" else group[::-1]
            for p in seq:
                out[index_of[id(p)]] = self._execute_move(p, position, face_down, pile)
        for i in sorted(out):
            box.extend(out[i])

    def _execute_in_place(self, plan: Plan, face_down: bool = False,
                          position: Position | None = None) -> list[Event]:
        obj = plan.obj
        name = obj.card.name
        if plan.kind == UNCHANGED and plan.src is not None and plan.src[1] == LIBRARY \
                and position is not None:
            moved = self._reorder_library(plan, position)
            if moved:
                return moved
        if plan.kind == CONTROL_CHANGED:
            self.t._set(obj, "controller", plan.controller)
            return [Event(CONTROL_CHANGED, obj.cid, obj.id, obj.id, plan.src, plan.dst,
                          tuple(plan.cites), tuple(plan.notes), plan.text)]
        if plan.kind == CEASED and plan.src is not None:  # an ability leaving the stack
            self.t._remove(plan.src, obj.id)
            self.t._set(obj, "zone", None)
            self.t._lineage(obj.cid, LineageEntry(obj.id, None, "ceased", tuple(plan.cites)))
            return [Event(CEASED, obj.cid, obj.id, None, plan.src, None,
                          tuple(plan.cites), tuple(plan.notes), plan.text)]
        if plan.kind == NEW_OBJECT:  # 400.8: exiled again
            return [self.t._renew(obj, plan.cites, plan.text, plan.notes,
                                self._forgotten(obj, keep_status=False),
                                face_down=bool(face_down), pile=obj.pile)]
        text = plan.text or f"{name} stays where it is"
        return [Event(plan.kind, obj.cid, obj.id, None, plan.src, plan.dst,
                      tuple(plan.cites), tuple(plan.notes), text)]

    def _forgotten(self, obj: Obj, keep_status: bool) -> tuple[Kept, ...]:
        ed = self.t.edition
        rule = (ed.cite("new_object") or ("",))[0]
        out = []
        if obj.tapped and not keep_status:
            out.append(("tapped", (ed.cite("tapped_only") or (rule,))[0]))
        if obj.counters and not keep_status:
            out.append(("counters " + ", ".join(f"{k} x{v}" for k, v in obj.counters.items()), rule))
        if obj.attached_to is not None and not keep_status:
            out.append(("attachment", rule))
        return tuple(out)

    def _execute_move(self, plan: Plan, position: Position, face_down: bool,
                      pile: str | None) -> list[Event]:
        t = self.t
        ed = t.edition
        obj, src, dst = plan.obj, plan.src, plan.dst
        assert src is not None and dst is not None, "only a plan that changes zones"
        cites, notes = plan.cites, plan.notes
        parts = t.merged.get(obj.cid) if src[1] == BATTLEFIELD else None
        if parts and plan.headed is not None and obj.cid not in t.commanders:
            # a merged commander the rule sends to the command zone: only its commander
            # card goes there; this card, and every other, goes where it was headed (903.9c)
            dst = self._destination(obj, plan.headed, None)[0]
            _add(cites, ed.cite("commander_merged"))
        events = []
        index = t._index_for(dst, position if dst[1] == LIBRARY else "top")
        if dst[1] == LIBRARY and isinstance(position, int) and len(t.zones[dst]) < position:
            _add(cites, ed.cite("nth_from_top") or ())
            if not ed.cite("nth_from_top"):
                notes.append(ed.silence("nth_from_top"))
        phasing = (PHASED_OUT in (src[1], dst[1])
                   and {src[1], dst[1]} == {BATTLEFIELD, PHASED_OUT})
        if phasing and ed.phased_keeps:
            _add(cites, ed.cite("phased_keeps"))
            rule = ed.cite("phased_keeps")[0]
            t._remove(src, obj.id)
            t._set(obj, "zone", dst)
            t._insert(dst, index, obj.id)
            if dst[1] == BATTLEFIELD and obj.attached_to is not None:
                host = t.objs.get(obj.attached_to)
                if host is None or host.zone is None:  # (a token that ceased while it
                    # was phased out, where no rule keeps it out: Z.7.2 of 1999) it returns
                    # attached to nothing
                    t._set(obj, "attached_to", None)
                    notes.append("what it was attached to no longer exists: it phases in "
                                 "attached to nothing")
            remembered = tuple((what, rule) for what, present in (
                ("tapped", obj.tapped), ("counters", obj.counters),
                ("attachment", obj.attached_to is not None),
                ("effects", obj.modifications), ("controller", obj.controller)) if present)
            t._lineage(obj.cid, LineageEntry(obj.id, dst, plan.kind, tuple(cites),
                                                remembered))
            text = plan.text
            if not text:  # from the state it keeps: the controller it phases in under
                text = f"{obj.card.name} phases out" if dst[1] == PHASED_OUT else (
                    f"{obj.card.name} phases in" + (f" under {obj.controller}'s control"
                                                     if obj.controller else ""))
            events.append(Event(plan.kind, obj.cid, obj.id, obj.id, src, dst, tuple(cites),
                                tuple(notes), text))
            events.extend(self._phase_attached(obj, dst[1] == PHASED_OUT))
            events.extend(self._token_check(obj, dst))
            return events
        if phasing:
            notes.append(ed.silence("phased_keeps"))
        cite = ed.cites.get
        new_rule = cite("new_object", ())
        for c in new_rule:  # (_add, inline: every move cites it)
            if c not in cites:
                cites.append(c)
        kept: list[Kept] = []
        mods: tuple[tuple[str, str], ...] = ()
        choices: tuple[Any, ...] = ()
        carry = src[1] == STACK and dst[1] == BATTLEFIELD
        if obj.modifications:
            if carry:
                mods = tuple(m for m in obj.modifications if m[1] in ("spell", "ability"))
            if mods and ed.cite("carry_mods"):
                _add(cites, ed.cite("carry_mods"))
                kept.append(("effects: " + "; ".join(m[0] for m in mods), ed.cite("carry_mods")[0]))
            else:
                mods = ()
            # 2025's 400.7b: what a static ability gave the permanent spell (an ability that
            # works on the battlefield) stays with the permanent it becomes
            grants = tuple(m for m in obj.modifications if m[1] == "static") \
                if carry and ed.carry_static_grants else ()
            if grants:
                mods += grants
                _add(cites, ed.cite("carry_static"))
                kept.append(("granted by a static ability: " + "; ".join(m[0] for m in grants),
                             ed.cite("carry_static")[0]))
        if obj.choices and carry and ed.carry_choices:
            choices = obj.choices
            _add(cites, ed.cite("carry_choices"))
            kept.append(("choices: " + "; ".join(map(str, choices)), ed.cite("carry_choices")[0]))
        own = next((p[1] for p in parts if p[0] == obj.cid), obj.card) if parts else obj.card
        if parts:  # a merged permanent: one permanent leaves, each component goes (728.3)
            _add(cites, ed.cite("merged_leaves"))
        stickers: tuple[str, ...] = ()
        # 2025: stickers go with it into a public zone (400.7m, 123.5), not into a hidden one
        if obj.stickers and ed.stickers_kept and dst[1] not in (LIBRARY, HAND):
            stickers = obj.stickers
            _add(cites, ed.cite("stickers_public"))
            kept.append(("stickers: " + "; ".join(stickers), ed.cite("stickers_public")[0]))
        forgotten: list[Kept] | tuple[Kept, ...] = ()
        if obj.stickers and not stickers:
            lost = (ed.cite("stickers_hidden") if ed.stickers_kept else ()) or new_rule
            _add(cites, lost)
            forgotten = [("stickers: " + "; ".join(obj.stickers), lost[0] if lost else "")]
        if obj.tapped or obj.counters or obj.attached_to is not None or obj.modifications \
                or obj.choices:
            forgotten = [*forgotten, *self._forgotten(obj, keep_status=False)]
            rule = new_rule[0] if new_rule else ""
            dropped = [m for m in obj.modifications if m not in mods]
            if dropped:
                forgotten.append(("effects: " + "; ".join(m[0] for m in dropped), rule))
            if obj.choices and not choices:
                forgotten.append(("choices made when cast", rule))
        dzone = dst[1]
        if dzone in ed.outside_zones:
            _add(cites, cite("outside_game", ()))
        if dzone == STACK:
            _add(cites, cite("stack_top", ()))
            if plan.controller is not None and plan.controller != obj.owner:
                _add(cites, cite("spell_controller", ()))  # who casts it controls it
        elif dzone == EXILE:
            if face_down:
                _add(cites, cite("exile_face_down", ()))
            if pile:
                _add(cites, cite("exile_piles", ()))
        controller = plan.controller if dst[1] in CONTROLLED else None
        old_top = self._revealed_top(dst) if t.revealed_tops else None
        new = t._successor(obj, own, controller,
                           bool(face_down) and dst[1] not in (LIBRARY, HAND), mods, choices,
                           stickers, pile if dst[1] == EXILE else None)
        if src[1] == BATTLEFIELD:
            for other in self._attached_to(obj.id):
                t._set(other, "attached_to", None)
        cited = tuple(cites)  # the lineage's entry and the event cite the same rules
        t._replace_obj(obj, new, dst, index, from_fields(LineageEntry, (
            new.id, dst, plan.kind, cited, tuple(kept), tuple(forgotten))))
        events.append(from_fields(Event, (plan.kind, obj.cid, new.id, obj.id, src, dst,
                                          cited, tuple(notes), plan.text, None)))
        if old_top is not None:
            events += self._covered(old_top, dst)
        if t.revealed_tops and src[1] == LIBRARY and src[0] in t.revealed_tops \
                and t.zones[src]:
            top = t.objs[t.zones[src][-1]]
            t._set(top, "revealed", True)
        if obj.token:
            events += self._token_check(new, dst)
        if parts:
            events += self._components_leave(obj.cid, parts, src, dst, position, plan.headed)
        return events

    def _components_leave(self, host: CardId, parts: tuple[tuple[CardId, Card, str, bool], ...],
                          src: ZoneKey, dst: ZoneKey, position: Position,
                          headed: Zone | None = None) -> list[Event]:
        """A merged permanent left the battlefield: each other component goes where it
        went (its owner's zone of that kind), each a new object (728.3); when the
        commander rule sent it to the command zone, only a commander card goes there and
        the others where the permanent was headed (903.9c)."""
        t, ed = self.t, self.t.edition
        out: list[Event] = []
        for cid, card, owner, token in parts:
            if cid == host:
                continue
            zone = dst[1] if headed is None else COMMAND if cid in t.commanders else headed
            cites = [*ed.cite("merged_leaves"), *ed.cite("new_object")]
            if headed is not None:
                _add(cites, ed.cite("commander_merged"))
            if zone in (GRAVEYARD, LIBRARY):
                _add(cites, ed.cite("merged_arrange"))
            key = (owner, zone) if zone in ed.per_player else (None, zone)
            old = t.current.get(cid)
            new = t._new_obj(cid, card, owner, kind="token" if token else "card", token=token,
                             prev=old, controller=None if key[1] not in CONTROLLED else owner)
            t._set(new, "zone", key)
            t._insert(key, t._index_for(key, position if key[1] == LIBRARY else "top"),
                      new.id)
            t._lineage(cid, LineageEntry(new.id, key, "moved", tuple(cites)))
            out.append(Event(MOVED, cid, new.id, old, src, key, tuple(cites), (),
                             f"{card.name}, a component of the merged permanent, goes "
                             f"{ed.toward(key[1], key[0])}"))
            if token:
                out += self._token_check(new, key)
        t._meta("merged", {h: p for h, p in t.merged.items() if h != host})
        return out

    def describe(self, e: Event) -> str:
        """A sentence for an event, in this edition's zone names."""
        if e.text:
            return e.text
        obj = self.t.objs.get(e.obj) if e.obj is not None else None
        name = obj.card.name if obj is not None else "it"
        if e.kind in (MOVED, REDIRECTED, REPLACED) and e.dst is not None:
            ed = self.t.edition
            toward = ed.toward(e.dst[1], e.dst[0])  # "into play", "to Bob's graveyard"
            if e.dst[0] is None and e.dst[1] in CONTROLLED and obj is not None \
                    and obj.controller:
                toward += f" under {obj.controller}'s control"
            verb = _VERBS.get(e.kind, "moves")
            if e.kind == REPLACED:
                toward = "into" + toward[4:] if toward.startswith("into") else \
                    "into " + toward[3:]
            return f"{name} {verb} {toward}"
        return f"{name}: {e.kind.replace('_', ' ')}"

    def _reorder_library(self, plan: Plan, position: Position) -> list[Event]:
        """An effect puts a library card elsewhere in the same library (on the bottom,
        N-th from the top): the order changes as the effect allows (400.5), and the
        card stays in its zone, the same object."""
        ed = self.t.edition
        obj, key = plan.obj, plan.src
        assert key is not None
        lst = self.t.zones[key]
        rest = [i for i in lst if i != obj.id]
        n = len(rest)
        cites, notes = list(ed.cite("library_order") or ed.cite("order")), []
        if position == "top":
            index, where = n, "on top of"
        elif position == "bottom":
            index, where = 0, "on the bottom of"
        else:
            nth = int(position)
            index, where = max(0, n - (nth - 1)), f"{_ordinal(nth)} from the top of"
            if nth > n + 1:
                where = "on the bottom of"
                if ed.cite("nth_from_top"):
                    _add(cites, ed.cite("nth_from_top"))
                else:
                    notes.append(ed.silence("nth_from_top"))
        if [*rest[:index], obj.id, *rest[index:]] == lst:
            return []
        self.t._reorder(key, [*rest[:index], obj.id, *rest[index:]])
        return [Event(REORDERED, obj.cid, obj.id, obj.id, key, key, tuple(cites),
                      tuple(notes), f"{obj.card.name} is put {where} "
                                    f"{ed.place(LIBRARY, key[0])}")]

    def _phase_attached(self, obj: Obj, out: bool) -> list[Event]:
        """Indirect phasing: what is attached to a permanent phases out and back in with
        it, still attached (Z.7.2 carries enchantments; 217.8c remembers the state). A
        token among them phases out as one phasing out itself would: it ceases to exist
        (217.8d), once everything attached has phased out with it."""
        ed = self.t.edition
        cites = ed.cite("phased_keeps")
        events = []
        tokens: list[Obj] = []
        todo = [obj]
        while todo:
            host = todo.pop(0)
            if out:
                riders = self._attached_to(host.id)
            else:
                riders = [o for k, lst in self.t.zones.items() if k[1] == PHASED_OUT
                          for o in (self.t.objs[i] for i in lst) if o.attached_to == host.id]
            for r in riders:
                src = r.zone
                assert src is not None
                dst = self._destination(r, PHASED_OUT if out else BATTLEFIELD, None)[0]
                self.t._remove(src, r.id)
                self.t._set(r, "zone", dst)
                self.t._insert(dst, self.t._index_for(dst, "top"), r.id)
                self.t._lineage(r.cid, LineageEntry(r.id, dst, "moved", cites,
                                                  (("attachment", cites[0]),) if cites else ()))
                verb = "phases out" if out else "phases in"
                events.append(Event(MOVED, r.cid, r.id, r.id, src, dst, cites,
                                    (f"indirect phasing: attached to {host.card.name}, it "
                                     f"{verb} with it",),
                                    f"{r.card.name} {verb} with {host.card.name}"))
                todo.append(r)
                if out and r.token:
                    tokens.append(r)
        for token in tokens:
            assert token.zone is not None
            events.extend(self._token_check(token, token.zone))
        return events

    def _attached_to(self, oid: ObjId) -> list[Obj]:
        if not self.t.may_host(oid):
            return []
        bf = self.t.zones.get((None, BATTLEFIELD), ())
        return [o for o in map(self.t.objs.__getitem__, bf) if o.attached_to == oid]

    def _token_check(self, obj: Obj, dst: ZoneKey) -> list[Event]:
        """State-based check that belongs to zones: a token off the battlefield ceases."""
        if not obj.token or dst[1] == BATTLEFIELD:
            return []
        ed = self.t.edition
        cites = ed.token_cite(dst[1])
        notes = () if cites else (ed.silence("token_ceases"),)
        self.t._remove(dst, obj.id)
        self.t._set(obj, "zone", None)
        self.t._lineage(obj.cid, LineageEntry(obj.id, None, "ceased", cites))
        events = [Event(CEASED, obj.cid, obj.id, None, dst, None, cites, notes,
                        f"the token {obj.card.name} ceases to exist")]
        if dst[1] == PHASED_OUT and cites:  # 217.8d: what was attached stays phased out
            for k, lst in self.t.zones.items():
                if k[1] == PHASED_OUT:
                    for r in [self.t.objs[i] for i in lst if self.t.objs[i].attached_to == obj.id]:
                        events.append(Event(UNCHANGED, r.cid, r.id, None, k, k, cites, (),
                                            f"{r.card.name}, phased out attached to the token, "
                                            f"stays phased out for the rest of the game"))
        return events

    # ---- 401.7: a revealed top card that gets covered --------------------------
    def _revealed_top(self, key: ZoneKey) -> Obj | None:
        if key[1] != LIBRARY or key[0] not in self.t.revealed_tops or not self.t.zones[key]:
            return None
        return self.t.objs[self.t.zones[key][-1]]

    def _covered(self, old_top: Obj, key: ZoneKey) -> list[Event]:
        lst = self.t.zones[key]
        if old_top.zone != key or lst[-1] == old_top.id:
            return []
        new_top = self.t.objs[lst[-1]]
        self.t._set(new_top, "revealed", True)
        return self._conceal(old_top)

    def _conceal(self, obj: Obj) -> list[Event]:
        """A revealed top card stops being revealed: a new object (401.7)."""
        ed = self.t.edition
        cites = ed.cite("revealed_top_new")
        self.t._set(obj, "revealed", False)
        if not cites:
            return []
        return [self.t._renew(obj, cites, "a card stops being revealed on top of the library: "
                                        "a new object")]
