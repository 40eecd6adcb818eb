"""The inspector dock and the log dock: what the selected object is, what it has
been (its lineage) and which rules applied; every event in order."""

from __future__ import annotations

import html

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (QHBoxLayout, QLineEdit, QListWidget, QPushButton, QTextBrowser,
                               QVBoxLayout, QWidget)

from tabletop.engine import rulestext
from tabletop.engine.views import event_names_card, may_see

CSS = """
<style>
body { font-family: sans-serif; font-size: 10pt; }
h2 { margin: 0 0 2px 0; }
.sub { color: #555; margin-bottom: 6px; }
table { border-collapse: collapse; }
td, th { padding: 2px 6px; border-bottom: 1px solid #ddd; vertical-align: top; text-align: left; }
.rule { margin: 4px 0 8px 0; }
.num { font-weight: bold; }
.verbatim { color: #333; font-style: italic; margin-left: 12px; }
.note { color: #8a5a00; }
</style>
"""


HOW = {"added": "on the table at the start", "moved": "moved here", "redirected":
       "redirected here", "replaced": "sent here by a replacement effect", "created": "created",
       "new_object": "became a new object here", "ceased": "ceased to exist"}


def _zone(table, key) -> str:
    if key is None:
        return "gone"
    player, zone = key
    name = table.edition.zone_name(zone)
    return f"{name} ({player})" if player else name


def rule_html(table, number: str) -> str:
    ed = table.edition
    summary = ed.summary(number) or "(no summary for this number)"
    out = (f'<div class="rule"><a class="num" href="rule:{html.escape(number)}">'
           f'{html.escape(number)}</a> — {html.escape(summary)}')
    verbatim = rulestext.verbatim(number, ed.year)
    if verbatim:
        out += f'<div class="verbatim">“{html.escape(verbatim)}”</div>'
    return out + "</div>"


class Inspector(QTextBrowser):
    """Shows the selected object; rule numbers are links that open the rule."""

    def __init__(self, controller, parent=None):
        super().__init__(parent)
        self.c = controller
        self.selected = None
        self.rule_shown: str | None = None
        self.setOpenLinks(False)
        self.anchorClicked.connect(self._clicked)
        controller.selection.connect(self.show_object)
        controller.changed.connect(lambda _r: self.refresh())
        controller.reset.connect(lambda: self.show_object(None))
        self.refresh()

    def _clicked(self, url) -> None:
        if url.scheme() == "rule":
            self.rule_shown = url.path() or url.toString()[len("rule:"):]
            self.refresh()

    def show_object(self, sel) -> None:
        self.selected = sel
        self.rule_shown = None
        self.refresh()

    def refresh(self) -> None:
        self.setHtml(CSS + self.render())

    def render(self) -> str:
        t = self.c.table
        parts = []
        if self.rule_shown:
            parts.append(f"<h3>Rule {html.escape(self.rule_shown)} ({t.edition.id})</h3>"
                         + rule_html(t, self.rule_shown))
        sel = self.selected
        if sel is None:
            parts.append(f"<p>Select a card to see what it is, what it has been and which rule "
                         f"applied.</p><p class='sub'>Rules edition: {t.edition.id} — "
                         f"{html.escape(t.edition.title)}</p>")
            return "".join(parts)
        if isinstance(sel, tuple):  # a hidden card: nothing but where it is
            obj = t.objs.get(sel[1])
            where = _zone(t, obj.zone) if obj is not None else "?"
            parts.append(f"<h2>A hidden card</h2><div class='sub'>in {html.escape(where)}</div>")
            return "".join(parts)
        obj = t.obj_of(sel)
        if obj.zone is not None and not may_see(t, obj, self.c.viewer):
            parts.append(f"<h2>A hidden card</h2><div class='sub'>in "
                         f"{html.escape(_zone(t, obj.zone))}</div>")
            return "".join(parts)
        card = obj.card
        status = []
        if obj.tapped:
            status.append("tapped")
        if obj.face_down:
            status.append("face down")
        if obj.token:
            status.append("token")
        if obj.counters:
            status.append(", ".join(f"{k} ×{v}" for k, v in obj.counters.items()))
        if obj.modifications:
            status.append("; ".join(f"{m[0]} ({m[1]})" for m in obj.modifications))
        if obj.zone is None:
            status.append("no longer exists")
        pt = f" — {card.power}/{card.toughness}" if card.power is not None else ""
        parts.append(f"<h2>{html.escape(card.name)}</h2><div class='sub'>"
                     f"{html.escape(card.type_line)} {html.escape(card.mana_cost)}{pt}</div>")
        rows = [("Owner", obj.owner), ("Controller", obj.controller or "—"),
                ("Zone", _zone(t, obj.zone)), ("Object id", str(obj.id)),
                ("Status", ", ".join(status) or "—")]
        parts.append("<table>" + "".join(f"<tr><th>{k}</th><td>{html.escape(v)}</td></tr>"
                                         for k, v in rows) + "</table>")
        parts.append("<h3>Lineage</h3><ol class='lineage'>")
        for e in t.lineage.get(sel, ()):
            cites = " ".join(f'<a href="rule:{c}">{c}</a>' for c in e.cites)
            where = "ceased to exist" if e.zone is None else _zone(t, e.zone)
            how = HOW.get(e.event, e.event.replace("_", " "))
            line = (f"<li><b>object {e.obj}</b> · {html.escape(where)} — {html.escape(how)}"
                    + (f" ({cites})" if cites else ""))
            for w, r in e.kept:
                line += f"<br>&nbsp;&nbsp;kept: {html.escape(w)} (<a href='rule:{r}'>{r}</a>)"
            for w, r in e.forgotten:
                line += f"<br>&nbsp;&nbsp;forgot: {html.escape(w)} (<a href='rule:{r}'>{r}</a>)"
            parts.append(line + "</li>")
        parts.append("</ol>")
        events = self.c.last_events.get(sel)
        if events:
            parts.append("<h3>The last event</h3>")
            numbers = []
            for e in events:
                if e.cid == sel:
                    parts.append(f"<p>{html.escape(t.describe(e))}</p>")
                    for n in e.notes:
                        parts.append(f"<p class='note'>{html.escape(n)}</p>")
                for c in e.cites:
                    if c not in numbers:
                        numbers.append(c)
            parts.extend(rule_html(t, n) for n in numbers)
        return "".join(parts)


class LogView(QWidget):
    """Every event of the table's history in order, as the viewer may know it."""

    def __init__(self, controller, parent=None):
        super().__init__(parent)
        self.c = controller
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter by card or rule (e.g. Rancor, 400.3)")
        self.list = QListWidget()
        self.list.setWordWrap(True)
        copy = QPushButton("Copy")
        copy.clicked.connect(self.copy)
        top = QHBoxLayout()
        top.addWidget(self.filter)
        top.addWidget(copy)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(top)
        lay.addWidget(self.list)
        self._done = (None, 0, 0)  # (history list, actions shown, events numbered)
        self.filter.textChanged.connect(self.refresh)
        controller.changed.connect(self._changed)
        controller.reset.connect(self.refresh)
        self.refresh()

    def _lines(self, actions, n: int) -> tuple[list[str], int]:
        out = []
        for action in actions:
            for e in action.events:
                if e.kind in ("added",):
                    continue
                n += 1
                text = self._text(e)
                cites = f"  [{', '.join(e.cites)}]" if e.cites else ""
                out.append(f"{n}. {text}{cites}")
                out.extend(f"     note: {note}" for note in e.notes)
        return out, n

    def lines(self) -> list[str]:
        return self._lines(self.c.table.history, 0)[0]

    def _changed(self, result) -> None:
        """After one new action, add its lines; anything else (undo, redo) redraws."""
        history = self.c.table.history
        seen, shown, n = self._done
        if result is not None and seen is history and len(history) == shown + 1:
            lines, n = self._lines(history[shown:], n)
            self._add(lines)
            self._done = (history, len(history), n)
            self.list.scrollToBottom()
        else:
            self.refresh()

    def _text(self, e) -> str:
        """The event as this viewer may know it: no name of a card they may not see."""
        t = self.c.table
        if event_names_card(t, e, self.c.viewer):
            return t.describe(e)
        src = _zone(t, e.src) if e.src else "?"
        dst = _zone(t, e.dst) if e.dst else "nowhere"
        return f"a card: {e.kind.replace('_', ' ')} from {src} to {dst}"

    def _add(self, lines) -> None:
        needle = self.filter.text().strip().lower()
        for line in lines:
            if not needle or needle in line.lower():
                self.list.addItem(line)

    def refresh(self) -> None:
        history = self.c.table.history
        self.list.clear()
        lines, n = self._lines(history, 0)
        self._add(lines)
        self._done = (history, len(history), n)
        self.list.scrollToBottom()

    def copy(self) -> None:
        text = "\n".join(self.list.item(i).text() for i in range(self.list.count()))
        QGuiApplication.clipboard().setText(text)
