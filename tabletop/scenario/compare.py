"""Comparing one scenario under several editions, step by step.

A step's outcome differs when its events differ in kind, destination or
existence. Its rules differ when the rules cited are not the same rules: a
number of one edition matches a number of the other when both name a common
concept of the engine (400.3 in cr-2016 and Z.1.5 in cr-1999 are both the owner
redirect), so a renumbering alone does not count as a difference."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tabletop.engine import editions
from tabletop.engine.editions import Edition
from tabletop.engine.errors import InputError, NoSuchZoneError
from tabletop.engine.model import EventKind
from tabletop.scenario.loader import load
from tabletop.scenario.runner import Run, run


def concepts(ed: Edition, number: str) -> set[str]:
    out = {c for c, nums in ed.cites.items() if number in nums}
    if any(number in nums for nums in ed.token_cites.values()):
        out.add("token_ceases")
    return out or {f"#{number}"}


def outcome(r: Run, index: int) -> tuple[tuple[str | None, str, str | None], ...]:
    rep = r.reports[index]
    return tuple((r.names.get(e.cid) if e.cid is not None else None, e.kind, e.dst[1] if e.dst else None)
                 for e in rep.events if e.kind not in (EventKind.UNDONE, EventKind.REDONE))


def cites(r: Run, index: int) -> list[str]:
    seen = []
    for e in r.reports[index].events:
        for c in e.cites:
            if c not in seen:
                seen.append(c)
    return seen


def same_rules(a: Run, b: Run, index: int) -> bool:
    ea, eb = a.table.edition, b.table.edition
    ca = [concepts(ea, n) for n in cites(a, index)]
    cb = [concepts(eb, n) for n in cites(b, index)]
    return all(any(x & y for y in cb) for x in ca) and all(any(x & y for x in ca) for y in cb)


@dataclass(slots=True)
class StepComparison:
    index: int
    action: str
    say: str  # the step's `say`, else its sentence
    outcomes: dict[str, str]  # edition -> text
    outcome_differs: bool
    rules_differ: bool
    renumbered: bool = False  # the same rules, cited under other numbers


@dataclass(slots=True)
class Comparison:
    path: str
    title: str
    editions: list[str]
    runs: dict[str, Run | str]  # edition -> Run, or the error message when it cannot run there
    steps: list[StepComparison]


def compare(path: str | Path, edition_ids: Sequence[str]) -> Comparison:
    for e in edition_ids:
        if e not in editions.EDITION_IDS:
            raise InputError(f"unknown edition {e!r} (editions: {', '.join(editions.EDITION_IDS)})")
    if len(edition_ids) < 2:
        raise InputError("--compare needs two or more editions, e.g. cr-1999,cr-2016")
    runs: dict[str, Run | str] = {}
    title = str(path)
    for e in edition_ids:
        try:
            r = run(load(path, e))
            runs[e] = r
            title = r.scenario.title
        except NoSuchZoneError as err:  # written for editions with a zone this one lacks
            runs[e] = str(err)
    good = {e: r for e, r in runs.items() if isinstance(r, Run)}
    ok = [e for e in edition_ids if e in good]
    if not ok:
        raise InputError(f"{path}: cannot run under any of {', '.join(edition_ids)}")
    first = good[ok[0]]
    from tabletop.scenario.sentences import sentences
    words = sentences(first.scenario)
    steps = []
    for i, step in enumerate(first.scenario.steps):
        texts = {}
        for e in edition_ids:
            texts[e] = describe(good[e], i) if e in good else "cannot run here"
        outs = {outcome(good[e], i) for e in ok}
        rules = all(same_rules(first, good[e], i) for e in ok[1:])
        numbers = {tuple(sorted(cites(good[e], i))) for e in ok}
        steps.append(StepComparison(step.index, step.action, step.say or words[i], texts,
                                    len(outs) > 1 or len(ok) < len(edition_ids), not rules,
                                    rules and len(numbers) > 1))
    return Comparison(str(path), title, list(edition_ids), runs, steps)


def describe(r: Run, index: int) -> str:
    parts = []
    for e in r.reports[index].events:
        if e.kind in (EventKind.UNDONE, EventKind.REDONE):
            continue
        text = r.table.describe(e)
        if e.cites:
            text += f" [{r.table.edition.marks(e.cites)}]"
        parts.append(text)
    return "; ".join(parts) or "nothing happens"


def text(c: Comparison) -> str:
    width = max(len(e) for e in c.editions)
    out = [f"{c.path}: {c.title}", f"  comparing {', '.join(c.editions)}"]
    for s in c.steps:
        marks = []
        if s.outcome_differs:
            marks.append("outcome")
        if s.rules_differ:
            marks.append("rules")
        flag = f"   <-- DIFFERS: {' and '.join(marks)}" if marks else (
            "   (the same rules, renumbered)" if s.renumbered else "")
        out.append(f"  step {s.index} ({s.action})" + (f": {s.say}" if s.say else "") + flag)
        for e in c.editions:
            out.append(f"    {e:<{width}}  {s.outcomes[e]}")
    n = sum(1 for s in c.steps if s.outcome_differs or s.rules_differ)
    renumbered = sum(1 for s in c.steps if s.renumbered and not s.outcome_differs)
    out.append(f"  {n} of {len(c.steps)} step{'s' * (len(c.steps) != 1)} "
               f"{'differs' if n == 1 else 'differ'}"
               + (f"; {renumbered} cite the same rules under new numbers" if renumbered else ""))
    return "\n".join(out)
