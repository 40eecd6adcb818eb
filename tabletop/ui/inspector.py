"""The inspector dock and the log dock: what the selected object is, what it has
been (its lineage) and which rules applied; every event in order."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QRect, QSize, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QGuiApplication, QPalette
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSizePolicy,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from tabletop.engine import Result, editions
from tabletop.engine.editions import Edition
from tabletop.engine.model import Card, ZoneKey
from tabletop.engine.state import LogEntry
from tabletop.engine.views import Inspected
from tabletop.textsafe import html_text

if TYPE_CHECKING:
    from tabletop.ui.board import Board, Selected
    from tabletop.ui.controller import TableController

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
.cost { font-weight: normal; color: #555; font-size: 10pt; }
.oracle { margin: 6px 0; padding: 6px; background: #f6f3ea; border: 1px solid #ddd; }
.marks { color: #6b4e00; font-weight: bold; margin: 2px 0; }
</style>
"""


HOW = {"added": "on the table at the start", "moved": "moved here", "redirected":
       "redirected here", "replaced": "sent here by a replacement effect", "created": "created",
       "new_object": "became a new object here", "ceased": "ceased to exist"}


def _zone(table: Board, key: ZoneKey | None) -> str:
    if key is None:  # (taken off the table while setting it up)
        return "off the table"
    player, zone = key
    name = table.edition.zone_name(zone)
    return f"{name} ({player})" if player else name


def rule_html(table: Board, number: str) -> str:
    """A rule of the table's edition as the inspector, the log and the banner show it."""
    from tabletop.ui.rules_browser import rule_block
    return rule_block(table.edition, number)


def card_html(card: Card, seen: Inspected) -> str:
    """The whole card: name and cost, type line, power/toughness as modified (and as
    printed when they differ), the oracle text of imported card data, counters, note."""
    from tabletop.ui.preview import oracle_text
    out = (f"<h2>{html_text(card.name)}"
           + (f" <span class='cost'>{html_text(card.mana_cost)}</span>"
              if card.mana_cost else "") + "</h2>"
           f"<div class='sub'>{html_text(card.type_line)}")
    if seen.pt is not None:
        now = f"{seen.pt[0]}/{seen.pt[1]}"
        printed = f"{card.power}/{card.toughness}"
        out += f" — <b>{html_text(now)}</b>"
        if card.power is not None and now != printed:
            out += f" (printed {html_text(printed)})"
    out += "</div>"
    text = oracle_text(card.name)
    if text:
        out += "<div class='oracle'>" + "<br>".join(html_text(line)
                                                    for line in text.splitlines()) + "</div>"
    if seen.counters:
        out += ("<div class='marks'>Counters: " + ", ".join(
            f"{n} × {html_text(k)}" for k, n in seen.counters) + "</div>")
    if seen.note:
        out += f"<div class='marks'>Note: {html_text(seen.note)}</div>"
    return out


OWN_DECKS = ("<p><b>Your own decks:</b> this table deals the built-in demo decks. "
             "<i>File › New game from decks…</i> (Ctrl+Shift+N) deals yours, from a "
             "deck list (Arena or MTGO text), an MTGO .dek, a Cockatrice .cod or a Forge "
             "or XMage .dck file. <i>File › Get card data (download)…</i> brings every card's "
             "details and text.</p>")


def _opening(t: Board) -> str:
    from tabletop.cards.demo import DECKS
    names = t.deck_names()
    demo = bool(names) and set(names.values()) <= set(DECKS)
    return (f"<p>Select a card to see what it is, what it has been and which rule "
            f"applied.</p>{OWN_DECKS if demo else ''}<p class='sub'>Rules edition: "
            f"{t.edition.id} — {html_text(t.edition.title)}</p>")


def opening_words(t: Board) -> QLabel:
    """What the inspector says before anything is selected, as a label: the window's
    first frame shows it while the inspector itself is made just after."""
    label = QLabel(_opening(t).replace("<p class='sub'>", "<p style='color:#666'>"))
    label.setTextFormat(Qt.TextFormat.RichText)  # our own words; the edition's title is escaped
    label.setWordWrap(True)
    label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
    label.setContentsMargins(3, 1, 3, 3)  # where the browser puts its text
    # laid out as the browser that replaces it is, so the docks do not move
    label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
    label.setAutoFillBackground(True)
    label.setBackgroundRole(QPalette.ColorRole.Base)
    label.setFrameShape(QLabel.Shape.StyledPanel)
    label.setFrameShadow(QLabel.Shadow.Sunken)
    return label


class Inspector(QTextBrowser):
    """Shows the selected object; rule numbers are links that open the rule."""

    rule_clicked = Signal(str)  # a rule number was clicked: the window opens it

    def __init__(self, controller: TableController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.c = controller
        self.selected: Selected | None = None
        self.rule_shown: str | None = None
        self.setOpenLinks(False)
        self.anchorClicked.connect(self._clicked)
        controller.selection.connect(self.show_object)
        controller.changed.connect(lambda _r: self.refresh())
        controller.reset.connect(lambda: self.show_object(None))
        self.refresh()

    def _clicked(self, url: QUrl) -> None:
        if url.scheme() == "rule":
            self.rule_shown = url.path() or url.toString()[len("rule:"):]
            self.refresh()
            self.rule_clicked.emit(self.rule_shown)

    def show_object(self, sel: Selected | None) -> None:
        self.selected = sel
        self.rule_shown = None
        self.refresh()

    def refresh(self) -> None:
        self.setHtml(CSS + self.html())

    def html(self) -> str:
        t = self.c.board
        parts = []
        if self.rule_shown:
            parts.append(f"<h3>Rule {html_text(self.rule_shown)} ({t.edition.id})</h3>"
                         + rule_html(t, self.rule_shown))
        sel = self.selected
        if sel is None:
            parts.append(_opening(t))
            return "".join(parts)
        got = t.inspect(sel)  # a hidden card picked earlier: followed to where it is
        if got is None:  # (gone from this view: at a network table a card that moved
            # is a new object with a new id) what it says when nothing is selected
            parts.append(_opening(t))
            return "".join(parts)
        sel, seen = got
        if seen.hidden:
            extra = f" · {', '.join(seen.status)}" if seen.status else ""
            where = _zone(t, seen.zone)
            where = where if seen.zone is None else f"in {where}"
            parts.append(f"<h2>A hidden card</h2><div class='sub'>"
                         f"{html_text(where + extra)}</div>")
            return "".join(parts)
        card = seen.card
        if card is None:  # (a card seen has its characteristics)
            return "".join(parts)
        parts.append(card_html(card, seen))
        rows = [("Owner", seen.owner), ("Controller", seen.controller or "—"),
                ("Zone", _zone(t, seen.zone)), ("Object id", str(seen.oid)),
                ("Status", ", ".join(seen.status) or "—")]
        parts.append("<table>" + "".join(f"<tr><th>{k}</th><td>{html_text(v)}</td></tr>"
                                         for k, v in rows) + "</table>")
        parts.append("<h3>Lineage</h3>")
        if not seen.lineage and self.c.session is not None:
            parts.append("<p class='note'>A network table sends each card as it is now: "
                         "what it was before stays with the host (a card's past could "
                         "tell what a hidden card is).</p>")
        parts.append("<ol class='lineage'>")
        for e in seen.lineage:
            cites = " ".join(f'<a href="rule:{c}">{t.edition.mark(c)}</a>' for c in e.cites)
            where = "ceased to exist" if e.zone is None else _zone(t, e.zone)
            how = HOW.get(e.event, e.event.replace("_", " "))
            line = (f"<li><b>object {e.obj}</b> · {html_text(where)} — {html_text(how)}"
                    + (f" ({cites})" if cites else ""))
            for w, r in e.kept:
                line += (f"<br>&nbsp;&nbsp;kept: {html_text(w)} "
                         f"(<a href='rule:{r}'>{t.edition.mark(r)}</a>)")
            for w, r in e.forgotten:
                line += (f"<br>&nbsp;&nbsp;forgot: {html_text(w)} "
                         f"(<a href='rule:{r}'>{t.edition.mark(r)}</a>)")
            parts.append(line + "</li>")
        parts.append("</ol>")
        events = self.c.last_events.get(sel)
        if events:
            parts.append("<h3>The last event</h3>")
            numbers = []
            for e in events:
                told = t.tell(e)
                if e.cid == sel:
                    parts.append(f"<p>{html_text(told.text)}</p>")
                    for n in told.notes:
                        parts.append(f"<p class='note'>{html_text(n)}</p>")
                for c in told.cites:
                    if c not in numbers:
                        numbers.append(c)
            parts.extend(rule_html(t, n) for n in numbers)
        return "".join(parts)


def said(entry: LogEntry, text: str, cites: Sequence[str], edition: Edition) -> str:
    """A journal line as the log shows it: refused or not, the words, the rules."""
    mark = "refused: " if entry.tag == "refused" else ""
    rules = f"  [{edition.marks(cites)}]" if cites else ""
    return f"{mark}{text}{rules}"


# A line's text inside its row of the list, from each side: the style's focus frame
# margin (PM_FocusFrameHMargin, 2 in Qt's own styles) and one more, as Qt's item views
# lay text out. Asking the style for it made Qt build QStyle's enumerations (about 40 ms,
# just after the window's first frame, for this number alone).
LINE_MARGIN = 3


class LogView(QWidget):
    """Every event of the table's history in order, as the viewer may know it."""

    def __init__(self, controller: TableController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.c = controller
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter by card or rule (e.g. Rancor, 400.3)")
        self.list = QListWidget()
        self.list.setWordWrap(True)
        # Each line is given its height, wrapped at the list's width: left to measure
        # them itself, the list measures every line again for each line added (50 ms a
        # line in a log of 5,000). Measured again, all of them, when the width changes.
        self._hint_width = -1  # the width the lines' heights were measured at
        self._box = QRect()  # and the text's box inside a line at that width
        self._rehint = QTimer(self, singleShot=True, interval=80)
        self._rehint.timeout.connect(self._measure_all)
        self._watching = False  # the list's width watched (from the first line: not at start)
        copy = QPushButton("Copy")
        copy.clicked.connect(self.copy)
        top = QHBoxLayout()
        top.addWidget(self.filter)
        top.addWidget(copy)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(top)
        lay.addWidget(self.list)
        # (the journal, its lines shown, events numbered)
        self._done: tuple[Sequence[LogEntry] | None, int, int] = (None, 0, 0)
        self._sources_told: set[str] = set()
        self.filter.textChanged.connect(self.refresh)
        controller.changed.connect(self._changed)
        controller.reset.connect(self.refresh)
        self.refresh()

    def _lines(self, entries: Sequence[LogEntry], n: int) -> tuple[list[str], int]:
        """Journal entries as numbered lines, as this viewer may read them. A note that
        says where an edition's number comes from ("as in the 2012 text") is said the
        first time that source is met in the game, not on every line citing it."""
        out = []
        viewer = self.c.viewer
        ed = self.c.board.edition
        if n == 0:
            self._sources_told = set()
        for entry in entries:
            text, cites, notes = entry.told(viewer)
            if not text:  # a line this viewer is not told at all (another's refusal)
                continue
            if entry.tag == "step":  # a scenario step's heading: not an event
                out.append(f"▸ {text}")
                continue
            line = said(entry, text, cites, ed)
            if entry.sub:  # a line of an entry with several (a group of cards moved)
                if entry.lead:
                    n += 1
                    out.append(f"{n}. {entry.lead}:")
                out.append(f"     – {line}")
            else:
                n += 1
                out.append(f"{n}. {line}")
            outside = set(editions.outside_notes(ed, cites)) if ed.outside else set()
            for note in notes:
                if note in outside:
                    source = note.partition(": ")[2]
                    if source in self._sources_told:
                        continue
                    self._sources_told.add(source)
                out.append(f"     note: {note}")
        return out, n

    def lines(self) -> list[str]:
        return self._lines(self.c.board.journal, 0)[0]

    def _changed(self, result: Result | None) -> None:
        """The journal only grows: add the lines written since last time."""
        journal = self.c.board.journal
        seen, shown, n = self._done
        if seen is not None and seen is journal and len(journal) >= shown:
            lines, n = self._lines(journal[shown:], n)
            self._add(lines)
            self._done = (journal, len(journal), n)
            self.list.scrollToBottom()
        else:
            self.refresh()

    def _add(self, lines: list[str]) -> None:
        needle = self.filter.text().strip().lower()
        for line in lines:
            if not needle or needle in line.lower():
                item = QListWidgetItem(line)
                item.setSizeHint(self._size(line))
                self.list.addItem(item)

    def _size(self, line: str) -> QSize:
        """A line's size in the list, as the list itself would measure it: the width of
        its viewport, the height of the text wrapped inside the item's margins."""
        self.ready()
        height = self.list.fontMetrics().boundingRect(self._box, Qt.TextFlag.TextWordWrap,
                                                      line).height()
        return QSize(self._hint_width, height)

    def ready(self) -> None:
        """Measure lines at the list's width from now on (done just after the first
        frame: the first line added would otherwise begin it); the lines already there
        are measured again soon when that width is another."""
        if self._fit_width() and self.list.count():
            self._rehint.start()

    def _fit_width(self) -> bool:
        """Lines are measured at the list's width now: True when it was another."""
        width = self.list.viewport().width()
        if width == self._hint_width:
            return False
        if not self._watching:
            self.list.viewport().installEventFilter(self)
            self._watching = True
        self._hint_width = width
        self._box = QRect(0, 0, max(1, width - 2 * LINE_MARGIN), 1 << 20)
        return True

    def _measure_all(self) -> None:
        self._fit_width()
        for i in range(self.list.count()):
            item = self.list.item(i)
            item.setSizeHint(self._size(item.text()))

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and obj is self.list.viewport() \
                and self.list.viewport().width() != self._hint_width:
            self._rehint.start()  # (once the width settles: a dock dragged wider)
        return False

    def refresh(self) -> None:
        journal = self.c.board.journal
        self.list.clear()
        lines, n = self._lines(journal, 0)
        self._add(lines)
        self._done = (journal, len(journal), n)
        self.list.scrollToBottom()

    def copy(self) -> None:
        text = "\n".join(self.list.item(i).text() for i in range(self.list.count()))
        QGuiApplication.clipboard().setText(text)
