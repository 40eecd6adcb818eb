"""Plain-text reports of scenario runs (what `tabletop ruling` prints)."""

from __future__ import annotations

from tabletop.engine.model import Event, ZoneKey
from tabletop.scenario.runner import Run


def _where(run: Run, z: ZoneKey | None) -> str:
    if z is None:
        return "nowhere"
    player, zone = z
    name = run.table.edition.zone_name(zone)
    return f"{player}'s {name}" if player else name


def event_line(run: Run, e: Event) -> str:
    label = run.names.get(e.cid) if e.cid is not None else None
    who = f" {label}" if label else ""
    text = run.table.describe(e)
    route = ""
    if e.src is not None or e.dst is not None:
        route = f" [{_where(run, e.src)} -> {_where(run, e.dst)}]"
    cites = f" (rules {run.table.edition.marks(e.cites)})" if e.cites else ""
    line = f"    {e.kind}{who}: {text}{route}{cites}"
    for n in e.notes:
        line += f"\n      note: {n}"
    return line


def text_report(run: Run) -> str:
    s = run.scenario
    ed = run.table.edition
    out = [f"{s.path}: {s.title}", f"  edition {ed.id}: {ed.title}"]
    for rep in run.reports:
        out.append(f"  step {rep.index}: {rep.sentence}")
        if rep.say:
            out.append(f"    “{rep.say}”")
        out.extend(event_line(run, e) for e in rep.events)
        numbers = []
        for e in rep.events:
            numbers += [c for c in e.cites if c not in numbers]
        for n in numbers:
            src = ed.source(n)
            where = f" (not in this edition's text: {src})" if src else ""
            out.append(f"    rule {n}{where}: {ed.summary(n) or '(no summary)'}")
        for c in rep.checks:
            mark = "held" if c.held else "FAILED"
            who = f"{c.card} " if c.card else ""
            detail = "" if c.held else f" (actual: {c.seen()})"
            out.append(f"    expect {who}{c.key} = {c.expected!r}: {mark}{detail}")
    checks = [c for r in run.reports for c in r.checks]
    failed = sum(not c.held for c in checks)
    out.append(f"  {'PASSED' if not failed else 'FAILED'}: {len(checks) - failed} of "
               f"{len(checks)} expectations held")
    return "\n".join(out)
