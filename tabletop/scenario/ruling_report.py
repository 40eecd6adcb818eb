"""Ruling reports a judge can send: HTML (self-contained, pictures embedded as
data:image/png) or Markdown. For each step: the narration, what happened, the
expectations, the cited rules with our summaries (and the verbatim text when a
rules file was imported), and a picture of the table after the step.

Pictures come from a callable the caller passes (the Qt renderer), so this
module stays free of Qt."""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Callable
from pathlib import Path

from tabletop.engine import rulestext
from tabletop.engine.model import EventKind
from tabletop.scenario.runner import Run, StepReport


def _rules(run: Run, rep: StepReport) -> list[tuple[str, str, str | None]]:
    ed = run.table.edition
    seen = []
    for e in rep.events:
        for c in e.cites:
            if c not in seen:
                seen.append(c)
    out = []
    for n in seen:
        v = rulestext.for_edition(n, ed)
        text = (f"{v.text} ({v.label()})" if v.shown else v.label()) if v else None
        src = ed.source(n)
        summary = ed.summary(n) or ""
        if src:
            summary += f" [not in this edition's text: {src}]"
        out.append((n, summary, text))
    return out


def _img(png: bytes | None) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode() if png else ""


CSS = """
body { font-family: system-ui, sans-serif; max-width: 980px; margin: 2em auto; padding: 0 1em;
       color: #1d1d1d; line-height: 1.45; }
h1 { margin-bottom: 0.2em; } .meta { color: #555; }
section { border-top: 1px solid #ddd; padding-top: 0.8em; margin-top: 1.4em; }
.say { font-style: italic; font-size: 1.1em; }
.events li { margin: 0.2em 0; } .note { color: #8a5a00; }
.held { color: #1c7c3a; } .failed { color: #b3261e; font-weight: bold; }
.rule { background: #f4f6fa; border-left: 4px solid #3f7cc4; padding: 0.4em 0.8em; margin: 0.4em 0; }
.verbatim { color: #444; font-style: italic; margin-top: 0.3em; }
img { max-width: 100%; border: 1px solid #ccc; border-radius: 6px; margin-top: 0.6em; }
.ruling { background: #fbf8ee; border: 1px solid #e3d9b8; border-radius: 8px; padding: 0.6em 1.2em; }
.ruling li { margin: 0.35em 0; } .outcome { color: #444; }
a.num { color: #1d4f91; text-decoration: none; font-weight: bold; }
@page { margin: 15mm; }
@media print {
  body { max-width: none; margin: 0; font-size: 10.5pt; }
  section { page-break-inside: avoid; break-inside: avoid; }
  img { max-height: 11cm; page-break-inside: avoid; }
  a { color: inherit; }
}
"""


def _num(n: str, mark: str) -> str:
    return f"<a class='num' href='#rule-{html.escape(n)}'>{html.escape(mark)}</a>"


def _outcome(run: Run, rep: StepReport) -> str:
    """What the engine made of a step, in one line with its rules linked."""
    ed = run.table.edition
    bits = []
    for e in rep.events:
        if e.kind in (EventKind.UNDONE, EventKind.REDONE):
            continue
        line = html.escape(run.table.describe(e))
        if e.cites:
            line += " (" + ", ".join(_num(c, ed.mark(c)) for c in e.cites) + ")"
        bits.append(line)
    return "; ".join(bits) or "nothing happens"


def html_report(run: Run, pictures: dict[int, bytes] | None = None,
                image: Callable[[int, bytes], str] | None = None) -> str:
    """``image(index, png) -> src``: how a picture is referred to (data: URLs by default;
    the PDF writer gives its own resource names)."""
    from tabletop.scenario.sentences import expectation_lines
    s = run.scenario
    ed = run.table.edition
    pictures = pictures or {}
    image = image or (lambda _i, png: _img(png))
    names = {lab: spec.get("name", lab) for lab, spec in s.cards.items()}
    out = ["<!DOCTYPE html>", "<html lang='en'><head><meta charset='utf-8'>",
           f"<title>{html.escape(s.title)}</title><style>{CSS}</style></head><body>",
           f"<h1>{html.escape(s.title)}</h1>",
           f"<p class='meta'>Rules edition {html.escape(ed.id)} — {html.escape(ed.title)}. "
           f"Players: {html.escape(', '.join(s.players))}.</p>"]
    if s.summary:
        out.append(f"<p>{html.escape(s.summary)}</p>")
    # the ruling first: one sentence per step, and what the engine made of it
    out.append("<section class='ruling'><h2>The ruling</h2><ol>")
    for rep in run.reports:
        out.append(f"<li>{html.escape(rep.line)}<br><span class='outcome'>→ "
                   f"{_outcome(run, rep)}</span></li>")
    passed = "every expectation held" if run.passed else "some expectations FAILED"
    out.append(f"</ol><p><b>Result:</b> {passed}.</p></section>")
    if 0 in pictures:
        out.append(f"<p><img alt='The table at the start' src='{image(0, pictures[0])}'></p>")
    for rep in run.reports:
        out.append(f"<section><h2>Step {rep.index}. {html.escape(rep.sentence)}</h2>")
        if rep.say:
            out.append(f"<p class='say'>{html.escape(rep.say)}</p>")
        out.append("<ul class='events'>")
        for e in rep.events:
            line = html.escape(run.table.describe(e))
            if e.cites:
                line += f" <small>({html.escape(run.table.edition.marks(e.cites))})</small>"
            for n in e.notes:
                line += f"<br><span class='note'>{html.escape(n)}</span>"
            out.append(f"<li>{line}</li>")
        out.append("</ul>")
        if rep.checks:
            out.append("<ul>")
            for held, words in expectation_lines(rep.checks, names, ed):
                cls, mark = ("held", "✔") if held else ("failed", "✘")
                out.append(f"<li class='{cls}'>{mark} {html.escape(words)}</li>")
            for c in rep.checks:
                if not c.held:
                    who = f"{html.escape(c.card)} " if c.card else ""
                    out.append(f"<li class='failed'>{who}{html.escape(c.key)}: expected "
                               f"{html.escape(repr(c.expected))}, actually "
                               f"{html.escape(c.seen())}</li>")
            out.append("</ul>")
        for number, summary, verbatim in _rules(run, rep):
            block = f"<div class='rule'>{_num(number, number)} — {html.escape(summary)}"
            if verbatim:
                block += f"<div class='verbatim'>“{html.escape(verbatim)}”</div>"
            out.append(block + "</div>")
        if rep.index in pictures:
            out.append(f"<img alt='The table after step {rep.index}' "
                       f"src='{image(rep.index, pictures[rep.index])}'>")
        out.append("</section>")
    # every rule the ruling cites, once, for the links above
    cited: list[str] = []
    for rep in run.reports:
        for e in rep.events:
            cited += [c for c in e.cites if c not in cited]
    if cited:
        out.append("<section><h2>The rules cited</h2>")
        for n in sorted(cited, key=ed.sort_key):
            src = ed.source(n)
            where = f" <i>(not in this edition's text: {html.escape(src)})</i>" if src else ""
            out.append(f"<div class='rule' id='rule-{html.escape(n)}'><a name='rule-"
                       f"{html.escape(n)}'></a><b>{html.escape(ed.mark(n))}</b> — "
                       f"{html.escape(ed.summary(n) or '(no summary)')}{where}</div>")
        out.append("</section>")
    out.append("<section><p class='meta'>Made with Tabletop. Rule summaries are Tabletop's "
               "own words.</p></section></body></html>")
    return "\n".join(out)


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#!|~])")


def md(text: object) -> str:
    """Text from a file, made inert in Markdown: one line, HTML escaped (a card name
    with <img onerror=...> stays text), Markdown's marks escaped."""
    from tabletop.textsafe import terminal
    text = " ".join(terminal(str(text)).split())  # control characters shown as \\uXXXX
    return _MD_SPECIAL.sub(r"\\\1", html.escape(text, quote=False))


def markdown_report(run: Run, pictures: dict[int, bytes] | None = None) -> str:
    from tabletop.scenario.sentences import expectation_lines
    s = run.scenario
    names = {lab: spec.get("name", lab) for lab, spec in s.cards.items()}
    ed = run.table.edition
    pictures = pictures or {}
    out = [f"# {md(s.title)}", "", f"Rules edition **{md(ed.id)}** — {md(ed.title)}. "
           f"Players: {md(', '.join(s.players))}.", ""]
    if s.summary:
        out += [md(s.summary), ""]
    if 0 in pictures:
        out += [f"![The table at the start]({_img(pictures[0])})", ""]
    for rep in run.reports:
        out += [f"## Step {rep.index}. {md(rep.sentence)}", ""]
        if rep.say:
            out += [f"*{md(rep.say)}*", ""]
        for e in rep.events:
            line = f"- {md(run.table.describe(e))}"
            if e.cites:
                line += f" ({md(run.table.edition.marks(e.cites))})"
            out.append(line)
            out += [f"  - note: {md(n)}" for n in e.notes]
        out.append("")
        for held, words in expectation_lines(rep.checks, names, ed):
            out.append(f"- {'✔' if held else '✘ **failed:**'} {md(words)}")
        for c in rep.checks:
            if not c.held:
                out.append(f"  - {md(c.key)}: expected {md(repr(c.expected))}, actually "
                           f"{md(repr(c.actual))}")
        if rep.checks:
            out.append("")
        for number, summary, verbatim in _rules(run, rep):
            out.append(f"> **{md(number)}** — {md(summary)}")
            if verbatim:
                out.append(f">\n> “{md(verbatim)}”")
            out.append("")
        if rep.index in pictures:
            out += [f"![The table after step {rep.index}]({_img(pictures[rep.index])})", ""]
    out.append(f"**Result:** {'every expectation held' if run.passed else 'some expectations FAILED'}.")
    return "\n".join(out) + "\n"


REPORT_SUFFIXES = (".html", ".htm", ".md", ".markdown", ".pdf")
REPORT_PICTURES = 60  # pictures of the table: the start and the first steps

PdfWriter = Callable[[Path, Run, "dict[int, bytes] | None"], None]


def write_report(path: str | Path, run: Run, pictures: dict[int, bytes] | None,
                 pdf: PdfWriter | None = None) -> None:
    """Write a run's report, HTML, Markdown or PDF by the file's suffix, atomically (a
    PDF through ``pdf``, the caller's writer: Qt's own, which this layer does not
    import)."""
    from tabletop.engine.files import atomic_write
    p = Path(path)
    if p.suffix.lower() == ".pdf":
        if pdf is None:
            raise OSError(f"{p}: no PDF writer here; write .html or .md")
        pdf(p, run, pictures)
        return
    text = (markdown_report if p.suffix.lower() in (".md", ".markdown")
            else html_report)(run, pictures)
    atomic_write(p, text.encode("utf-8"))
