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

from tabletop.engine import rulestext
from tabletop.scenario.runner import Run


def _rules(run: Run, rep) -> list[tuple[str, str, str | None]]:
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
"""


def html_report(run: Run, pictures: dict[int, bytes] | None = None) -> str:
    s = run.scenario
    ed = run.table.edition
    pictures = pictures or {}
    out = ["<!DOCTYPE html>", "<html lang='en'><head><meta charset='utf-8'>",
           f"<title>{html.escape(s.title)}</title><style>{CSS}</style></head><body>",
           f"<h1>{html.escape(s.title)}</h1>",
           f"<p class='meta'>Rules edition {html.escape(ed.id)} — {html.escape(ed.title)}. "
           f"Players: {html.escape(', '.join(s.players))}.</p>"]
    if s.summary:
        out.append(f"<p>{html.escape(s.summary)}</p>")
    if 0 in pictures:
        out.append(f"<p><img alt='The table at the start' src='{_img(pictures[0])}'></p>")
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
            for c in rep.checks:
                cls = "held" if c.held else "failed"
                word = "held" if c.held else f"failed (actually {html.escape(c.seen())})"
                who = f"{html.escape(c.card)} " if c.card else ""
                out.append(f"<li class='{cls}'>Expected {who}{html.escape(c.key)} = "
                           f"{html.escape(repr(c.expected))}: {word}</li>")
            out.append("</ul>")
        for number, summary, verbatim in _rules(run, rep):
            block = f"<div class='rule'><b>{html.escape(number)}</b> — {html.escape(summary)}"
            if verbatim:
                block += f"<div class='verbatim'>“{html.escape(verbatim)}”</div>"
            out.append(block + "</div>")
        if rep.index in pictures:
            out.append(f"<img alt='The table after step {rep.index}' "
                       f"src='{_img(pictures[rep.index])}'>")
        out.append("</section>")
    passed = "every expectation held" if run.passed else "some expectations FAILED"
    out.append(f"<section><p><b>Result:</b> {passed}.</p>"
               f"<p class='meta'>Made with Tabletop. Rule summaries are Tabletop's own words.</p>"
               "</section></body></html>")
    return "\n".join(out)


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#!|~])")


def md(text) -> str:
    """Text from a file, made inert in Markdown: one line, HTML escaped (a card name
    with <img onerror=...> stays text), Markdown's marks escaped."""
    from tabletop.textsafe import terminal
    text = " ".join(terminal(str(text)).split())  # control characters shown as \\uXXXX
    return _MD_SPECIAL.sub(r"\\\1", html.escape(text, quote=False))


def markdown_report(run: Run, pictures: dict[int, bytes] | None = None) -> str:
    s = run.scenario
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
        for c in rep.checks:
            word = "held" if c.held else f"**failed** (actually {md(repr(c.actual))})"
            who = f"{md(c.card)} " if c.card else ""
            out.append(f"- Expected {who}{md(c.key)} = {md(repr(c.expected))}: {word}")
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


def write_report(path, run, pictures) -> None:
    """Write a run's report, HTML or Markdown by the file's suffix, atomically."""
    from pathlib import Path

    from tabletop.engine.saves import atomic_write
    p = Path(path)
    text = (markdown_report if p.suffix.lower() in (".md", ".markdown")
            else html_report)(run, pictures)
    atomic_write(p, text.encode("utf-8"))
