"""Running a scenario on a Table and checking its expectations."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tabletop.engine import Card, Effect, Table
from tabletop.engine.errors import IllegalActionError, InputError
from tabletop.engine.model import CONTROLLED, ORDERED, CardId, Event, EventKind, Obj, Zone
from tabletop.scenario import steps
from tabletop.scenario.model import Check, Scenario, Step

__all__ = ["Check", "Run", "Session", "StepReport", "build", "run"]


@dataclass(slots=True)
class StepReport:
    index: int
    action: str
    say: str
    events: list[Event]
    checks: list[Check] = field(default_factory=list)
    subjects: list[CardId] = field(default_factory=list)  # cids of the objects the step acted on
    sentence: str = ""  # what the step does, in words (sentences.py), with or without say

    @property
    def line(self) -> str:
        """The step as a person reads it: its `say`, else its sentence."""
        return self.say or self.sentence


@dataclass(slots=True)
class Run:
    scenario: Scenario
    table: Table
    labels: dict[str, CardId]  # label -> cid
    names: dict[CardId, str]  # cid -> label
    reports: list[StepReport] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(c.held for r in self.reports for c in r.checks)

    def event_json(self, e: Event) -> dict[str, Any]:
        d = e.to_json()
        d.pop("cid", None)
        d["text"] = self.table.describe(e)
        ed = self.table.edition
        own, outside = ed.split(e.cites)
        d["cites"] = list(own)
        if outside:  # applied from outside the edition's own text (the contract)
            d["cites_outside"] = list(outside)
        d["rules"] = [{"number": n, "summary": ed.summary(n), "source": ed.source(n)}
                      for n in e.cites]
        card = self.names.get(e.cid) if e.cid is not None else None
        return {"kind": d.pop("kind"), "card": card, **d}

    def to_json(self) -> dict[str, Any]:
        s = self.scenario
        return {"file": str(s.path), "title": s.title, "edition": self.table.edition.id,
                "passed": self.passed,
                "steps": [{"index": r.index, "action": r.action, "say": r.say,
                           "sentence": r.sentence,
                           "events": [self.event_json(e) for e in r.events],
                           "expectations": [c.to_json() for c in r.checks]}
                          for r in self.reports]}


def card_from_spec(spec: dict[str, Any], where: str) -> Card:
    """The card's facts: from the file, completed by the card database."""
    from tabletop.cards.db import default
    known = default().card(spec["name"])
    if "types" not in spec and known is None:
        raise InputError(f"{where}: key 'types' is required for {spec['name']!r}, "
                         "which the card database does not know")

    def pick(key: str, default: Any = ()) -> Any:
        if key in spec:
            v = spec[key]
            return tuple(v) if isinstance(v, list) else str(v)
        return getattr(known, key) if known is not None else default
    return Card(name=spec["name"], types=pick("types"), subtypes=pick("subtypes"),
                supertypes=pick("supertypes"), mana_cost=pick("mana_cost", ""),
                power=pick("power", None), toughness=pick("toughness", None),
                colors=pick("colors"))


def build(scenario: Scenario) -> Run:
    """Set the table up as the file lists it (the setup itself is not undoable)."""
    s = scenario
    table = Table(s.players, s.edition, seed=s.seed, ante=s.ante)
    labels: dict[str, CardId] = {}
    names: dict[CardId, str] = {}

    def where_of(label: str) -> str:
        return f"{s.path}: card {label!r}"
    for label, spec in s.cards.items():
        card = card_from_spec(spec, where_of(label))
        try:  # through the engine's own setup, which refuses what the rules refuse
            obj = table.add_card(
                card, spec["owner"], spec["zone"], controller=spec.get("controller"),
                token=spec.get("token", False), tapped=spec.get("tapped", False),
                face_down=spec.get("face_down", False), counters=spec.get("counters"),
                position="bottom", pile=spec.get("pile") or None,
                modifications=tuple((m["effect"], m.get("origin", "spell"))
                                    for m in spec.get("modifications", ())),
                choices=tuple(spec.get("choices", ())),
                commander=bool(spec.get("commander", False)),
                stickers=tuple(" ".join(x.split()) for x in spec.get("stickers", ())))
        except IllegalActionError as refused:
            raise InputError(f"{where_of(label)}: {refused}") from None
        labels[label], names[obj.cid] = obj.cid, label
    for label, spec in s.cards.items():
        if spec.get("attached_to"):
            table.attach(labels[label], labels[spec["attached_to"]])
    for e in s.effects:
        affects = e.get("affects", "any")
        if affects.startswith("card:"):
            affects = f"cid:{labels[affects[5:]]}"
        table.add_effect(Effect(label=e["label"], watch=Zone(e["watch"]),
                                instead=Zone(e["instead"]),
                                source=e.get("source", ""), origin=e.get("from", "any"),
                                affects=affects, optional=e.get("optional", False)))
    table.start_here()  # the setup is the starting point
    return Run(s, table, labels, names)


class Session:
    """A scenario being played one step at a time (the GUI's Step button, reports).

    ``advance()`` performs the next step and returns its report; ``run()`` plays
    every step. Going back is replaying from the start: scenarios are small and
    seeded, so the replay is exact."""

    def __init__(self, scenario: Scenario) -> None:
        from tabletop.scenario.sentences import sentences
        self.scenario = scenario
        self.sentences = sentences(scenario)
        self.run = build(scenario)
        self.marks: list[int] = []  # history length before each step undo can take back
        self.redo_marks: list[int] = []

    @property
    def done(self) -> int:
        return len(self.run.reports)

    @property
    def finished(self) -> bool:
        return self.done >= len(self.scenario.steps)

    def advance(self) -> StepReport | None:
        if self.finished:
            return None
        r, step = self.run, self.scenario.steps[self.done]
        r.table.log_step(f"Step {step.index}: {step.say or self.sentences[self.done]}",
                         f"Step {step.index}")
        before = len(r.table.history)
        try:
            events, subjects = _perform(r, step, self.marks, self.redo_marks)
        except IllegalActionError as e:
            raise InputError(f"{self.scenario.path}: step {step.index}: {e}") from None
        if step.action not in ("undo", "redo"):
            self.marks.append(before)
            self.redo_marks.clear()
        rep = StepReport(step.index, step.action, step.say, events, subjects=list(subjects),
                         sentence=self.sentences[self.done])
        for exp in step.expect:
            rep.checks.extend(_check(r, step, exp, events, subjects))
        r.reports.append(rep)
        return rep


def run(scenario: Scenario,
        after_step: Callable[[Run, StepReport], None] | None = None) -> Run:
    """Play every step; ``after_step(run, report)`` is called after each one."""
    session = Session(scenario)
    while (rep := session.advance()) is not None:
        if after_step is not None:
            after_step(session.run, rep)
    return session.run


class _Context:
    """What a step kind's ``perform`` may use (steps.py)."""

    def __init__(self, r: Run, marks: list[int], redo_marks: list[int]) -> None:
        self.run, self.table, self.labels = r, r.table, r.labels
        self.path, self.marks, self.redo_marks = r.scenario.path, marks, redo_marks

    def card(self, spec: dict[str, Any], where: str) -> Card:
        return card_from_spec(spec, where)

    def name(self, label: str, cid: CardId) -> None:
        """A label for an object the step made."""
        self.labels[label], self.run.names[cid] = cid, label


def _perform(r: Run, step: Step, marks: list[int],
             redo_marks: list[int]) -> tuple[list[Event], list[CardId]]:
    t, subj, L = r.table, step.subject, r.labels
    named = subj if isinstance(subj, list) else [subj]
    if step.action in ("attach", "arrow") and "to" in step.args:
        named = [*named, step.args["to"]]  # what it points at can be gone too
    gone = [x for x in named if isinstance(x, str) and x in L and L[x] not in t.current]
    if gone and step.action in steps.ON_AN_OBJECT:
        # an object whose creation was undone: there is nothing to act on
        return [Event(EventKind.REJECTED, L[x], None, None, None, None, (), (),
                      f"{x} does not exist (its creation was undone)") for x in gone], \
            [L[x] for x in gone]
    return steps.perform(_Context(r, marks, redo_marks), step)


# ---- expectations -------------------------------------------------------------
def zone_members(table: Table, key: str) -> tuple[list[Obj], bool]:
    """Objects (top first) of 'PLAYER:ZONE' or 'ZONE', and whether order is meaningful."""
    who, _, named = key.rpartition(":")
    zone = Zone(named)  # (the loader checked it names a zone)
    ed = table.edition
    if zone in ed.per_player:
        if who:
            return table.objects_in((who, zone)), zone in ORDERED
        objs = [o for p in table.players for o in table.objects_in((p, zone))]
        return objs, zone in ORDERED and len(table.players) == 1
    objs = table.objects_in((None, zone))
    if who:
        if zone in CONTROLLED:
            objs = [o for o in objs if o.controller == who]
        else:
            objs = [o for o in objs if o.owner == who]
    return objs, zone in ORDERED


def _check(r: Run, step: Step, exp: dict[str, Any], events: list[Event],
           subjects: list[CardId]) -> list[Check]:
    t = r.table
    label = exp.get("card")
    if label is None and subjects:
        label = r.names.get(subjects[0])
    card_keys = [k for k in exp if k not in ("card", "zones", "counts")]
    if card_keys and label is None:
        raise InputError(f"{r.scenario.path}: step {step.index}: expect: key 'card' is needed "
                         f"for {card_keys[0]!r} (this step has no object of its own)")
    out = []
    cid = r.labels.get(label) if label else None
    if cid is None and card_keys:
        raise InputError(f"{r.scenario.path}: step {step.index}: expect: {label!r} does not "
                         "exist yet at this step")
    # None: never made, or undone. Any: every read below is guarded by ``live``
    oid = t.current.get(cid) if cid is not None else None
    obj: Any = t.objs.get(oid) if oid is not None else None
    live = obj is not None and obj.zone is not None
    mine = [e for e in events if e.cid == cid]
    step_cites = {c for e in events for c in e.cites}  # cites_outside included (the contract)
    extra = {}
    have: Any  # what the table shows for the key: a zone's id, a bool, a count, a list...
    for key in card_keys:
        want = exp[key]
        if key == "zone":
            have = str(obj.zone[1]) if live else "none"  # as the file says it
        elif key == "outside_game":  # 217.1e (2004/2005): also the removed-from-game zone
            have = not live or obj.zone[1] in t.edition.outside_zones
        elif key == "player":
            have = t.player_of(obj) if live else None
            if live and have is None and obj.zone[1] not in t.edition.per_player:
                have = obj.owner  # a shared zone (exile, command): its owner
        elif key == "exists":
            have = live
        elif key == "new_object":
            have = any((e.prev is not None and e.obj != e.prev) or e.kind == EventKind.CREATED
                       for e in mine)  # a token created is a new object too
        elif key == "rejected":
            pool = mine or events
            have = bool(pool) and all(e.kind == EventKind.REJECTED for e in pool)
        elif key == "position":
            have = t.position(obj) if live else None
        elif key == "cites":  # actual: the listed numbers the step did cite
            have = [c for c in want if c in step_cites]
            extra[key] = sorted(step_cites, key=t.edition.sort_key)
        elif key == "not_cites":  # actual: the listed numbers it did not cite
            cited = {c for e in (mine or events) for c in e.cites}
            have = [c for c in want if c not in cited]
            extra[key] = sorted(cited, key=t.edition.sort_key)
        elif key in ("tapped", "face_down"):
            have = getattr(obj, key) if live else False
        elif key == "counters":
            have = dict(obj.counters) if live else {}
        elif key == "lineage":
            have = [e.zone[1] for e in (t.lineage.get(cid, ()) if cid is not None else ())
                    if e.zone is not None]
        else:  # pragma: no cover - the loader allows only the keys above
            raise InputError(f"unknown expectation {key!r}")
        out.append(Check(label, key, want, have, extra.get(key)))
    for key in ("zones", "counts"):
        for zk, want in exp.get(key, {}).items():
            objs, ordered = zone_members(t, zk)
            if key == "counts":
                have = len(objs)
            else:
                have = [r.names[o.cid] for o in objs if o.cid in r.names]
                if not ordered and sorted(have) == sorted(want):
                    have = list(want)  # any order: the same labels are the same zone
            out.append(Check(None, f"{key}.{zk}", want, have))
    return out
