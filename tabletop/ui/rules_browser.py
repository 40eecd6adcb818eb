"""The rules browser dock: an edition's rule summaries in rule order, searchable by
number or words, with the imported published wording beside a summary when it is the
same rule (its source and date said), and every rule number in the text a link.

Every rule number elsewhere in the window (inspector, log, status bar, scenario dock,
compare) opens here: ``open_rule(number)``."""

from __future__ import annotations

import html
import re
from collections.abc import Collection
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer, QUrl
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLineEdit, QTextBrowser, QVBoxLayout, QWidget

from tabletop.engine import editions
from tabletop.engine.editions import Edition

if TYPE_CHECKING:
    from tabletop.ui.controller import TableController

# 400.7a (the modern numbering) or Z.1.3, Z.1.Ruling.1 (the 1999 rulings summary)
NUMBER = re.compile(r"\b(\d{3}\.\d+[a-z]?|[A-Z]\.\d+\.(?:Ruling\.)?\d+)\b")
CSS = """<style>
body { font-family: sans-serif; font-size: 10pt; }
.rule { margin: 0 0 8px 0; }
.num { font-weight: bold; }
.hit { background: #fff1c2; }
.verbatim { color: #333; font-style: italic; margin-left: 14px; }
.sub { color: #666; font-size: 9pt; }
</style>"""


def linked(text: str, known: Collection[str]) -> str:
    """Escaped text whose rule numbers (those ``known``) are links."""
    out, last = [], 0
    for m in NUMBER.finditer(text):
        out.append(html.escape(text[last:m.start()]))
        n = m.group(1)
        out.append(f'<a href="rule:{n}">{n}</a>' if n in known else html.escape(n))
        last = m.end()
    out.append(html.escape(text[last:]))
    return "".join(out)


def rule_block(ed: Edition, number: str, known: Collection[str] | None = None,
               hit: bool = False,
               note_different: bool = True) -> str:
    """One rule as HTML: its number (a link), our summary, where a number the edition's
    own text lacks comes from, and the published wording when an imported text has the
    same rule. ``known``: rule numbers in the texts become links too; ``hit``: marked
    as the rule looked for; ``note_different``: say so when an imported text uses the
    number for another rule."""
    from tabletop.engine import rulestext  # only when a rule is shown: not at start-up
    words = ed.summary(number)
    summary = (linked(words, known) if known is not None else html.escape(words)) \
        if words is not None else "(no summary for this number)"
    number_html = html.escape(number)
    out = (f'<div class="{"rule hit" if hit else "rule"}"><a name="r{number_html}"></a>'
           f'<a class="num" href="rule:{number_html}">{html.escape(ed.mark(number))}</a>'
           f' — {summary}')
    src = ed.source(number)
    if src:
        out += (f'<div class="sub">{html.escape(ed.mark(number))} is not in this edition\'s '
                f'text: {html.escape(src)}.</div>')
    v = rulestext.for_edition(number, ed)
    if v is not None and v.shown:
        text = linked(v.text, known) if known is not None else html.escape(v.text)
        out += (f'<div class="verbatim">“{text}”<br>'
                f'<span class="sub">— {html.escape(v.label())}</span></div>')
    elif v is not None and note_different:
        out += f'<div class="verbatim"><span class="sub">{html.escape(v.label())}</span></div>'
    return out + "</div>"


class RulesBrowser(QWidget):
    def __init__(self, controller: TableController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.c = controller
        self.current: str | None = None  # the rule last opened
        self.edition = QComboBox()
        self.edition.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.edition.setMinimumContentsLength(14)  # the dock stays narrow beside the table
        for edition_id, title in editions.titles():
            self.edition.addItem(f"{edition_id} — {title}", edition_id)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search by number or words (e.g. 400.7, owner)")
        self.search.setClearButtonEnabled(True)
        self.text = QTextBrowser()
        self.text.setOpenLinks(False)
        self.text.anchorClicked.connect(self._clicked)
        top = QHBoxLayout()
        top.addWidget(self.edition, 1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(top)
        lay.addWidget(self.search)
        lay.addWidget(self.text, 1)
        self.search.textChanged.connect(lambda _t: self.refresh())
        self.edition.currentIndexChanged.connect(lambda _i: self.refresh())
        controller.reset.connect(self._follow_table)
        # the text is built when first shown (or asked for), not at start-up: the dock
        # starts behind the scenario dock's tab
        self._built = False
        i = self.edition.findData(self.c.board.edition.id)
        self.edition.blockSignals(True)
        self.edition.setCurrentIndex(max(i, 0))
        self.edition.blockSignals(False)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._built:  # not before the table's first frame
            later = getattr(self.window(), "after_first_frame", None)
            if later is not None:
                later(self._build_if_shown)
            else:
                QTimer.singleShot(0, self._build_if_shown)

    def _build_if_shown(self) -> None:
        if not self._built and self.isVisible():
            self.refresh()

    def _follow_table(self) -> None:
        """Show the table's edition."""
        i = self.edition.findData(self.c.board.edition.id)
        if i >= 0 and i != self.edition.currentIndex():
            self.edition.blockSignals(True)
            self.edition.setCurrentIndex(i)
            self.edition.blockSignals(False)
        if self._built or self.isVisible():
            self.refresh()

    def ed(self) -> Edition:
        return editions.get(self.edition.currentData() or self.c.board.edition.id)

    def numbers(self) -> list[str]:
        """The rules shown now: every rule of the edition, or those the search finds."""
        ed = self.ed()
        q = self.search.text().strip().casefold()
        found = sorted(ed.rules, key=ed.sort_key)
        if not q:
            return found
        if re.fullmatch(r"\d{1,3}(\.\d*[a-z]?)?|[a-z]\.[\w.]*", q):  # a number
            return [n for n in found if n.casefold().startswith(q)]
        from tabletop.engine import rulestext
        out = []
        for n in found:
            if n.startswith(q) or q in ed.rules[n].casefold():
                out.append(n)
                continue
            v = rulestext.for_edition(n, ed)
            if v is not None and v.shown and q in v.text.casefold():
                out.append(n)
        return out

    def refresh(self) -> None:
        self._built = True
        ed = self.ed()
        known = set(ed.rules)
        parts = [CSS, f"<p class='sub'>{html.escape(ed.id)} — {html.escape(ed.title)}. "
                      f"Summaries in our own words; the published wording beside them "
                      f"when an imported rules text has the same rule.</p>"]
        shown = self.numbers()
        if not shown:
            parts.append("<p>No rule matches.</p>")
        parts += [rule_block(ed, n, known, hit=n == self.current, note_different=False)
                  for n in shown]
        self.text.setHtml("".join(parts))
        if self.current:
            self.text.scrollToAnchor(f"r{self.current}")

    def open_rule(self, number: str, edition: str | None = None) -> None:
        """Show this rule of the table's edition (or ``edition``), highlighted; the
        search is cleared."""
        number = number.strip()
        self.current = number
        i = self.edition.findData(edition or self.c.board.edition.id)
        self.edition.blockSignals(True)
        self.edition.setCurrentIndex(i)
        self.edition.blockSignals(False)
        self.search.blockSignals(True)
        self.search.clear()
        self.search.blockSignals(False)
        self.refresh()

    def _clicked(self, url: QUrl) -> None:
        if url.scheme() == "rule":
            self.current = url.path() or url.toString()[len("rule:"):]
            self.refresh()


def first_number(text: str) -> str | None:
    m = NUMBER.search(text)
    return m.group(1) if m else None

