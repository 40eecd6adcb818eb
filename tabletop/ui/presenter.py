"""Presenter mode: the judge's stage. Only the table, the steps and the inspector, in
large type; after each scenario step (or each action done by hand at the table; undo
clears it) the table zooms to the cards it touched, a ghost
of the card shows where the player pointed and an arrow where the engine put it, and a
banner readable from the back of a room gives the step, each event, each rule cited
with its summary (and the imported wording when it matches the edition) and each
expectation as a plain sentence with a tick. Leaving restores every font and dock."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractAnimation, QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QGraphicsItem, QLabel

from tabletop.engine.model import CardId, EventKind, Zone
from tabletop.scenario.sentences import expectation_lines, expectation_words  # noqa: F401
from tabletop.ui import layout as L
from tabletop.ui.items import ArrowItem, CardItem

if TYPE_CHECKING:
    from tabletop.engine import Event, Result
    from tabletop.scenario.model import Scenario, Step
    from tabletop.scenario.runner import StepReport
    from tabletop.ui.scene import TableScene
    from tabletop.ui.window_parts import Window

BANNER_CSS = ("QLabel { background: rgba(250, 248, 240, 236); color: #1d1d1d; "
              "border: 2px solid #6b4e00; border-radius: 10px; padding: 10px 16px; }")
MOVED = {"redirected", "replaced", "rejected"}


def settled(item: CardItem) -> QRectF:
    """Where an item will be once the slide it may be in has ended (scene coordinates)."""
    r = item.sceneBoundingRect()
    anim = item._slide
    if anim is not None and anim.state() == QAbstractAnimation.State.Running:
        end = anim.endValue()
        if isinstance(end, QPointF):
            r = r.translated(end - item.pos())
    return r


def ghost(scene: TableScene, scenario: Scenario, names: dict[CardId, str], step: Step,
          rep: StepReport) -> tuple[list[QGraphicsItem], str | None]:
    """For a scenario's move the engine sent elsewhere (or refused): a ghost of the card
    where the player pointed and an arrow to where it went, added to ``scene``; returns
    the items and the words for them ("Alice pointed at Alice's graveyard → it went to
    Bob's")."""
    if step.action != "move":
        return [], None
    event = next((e for e in rep.events if e.kind in MOVED and e.cid is not None), None)
    if event is None or event.cid is None:
        return [], None
    label = names.get(event.cid)
    spec = scenario.cards.get(label, {}) if label else {}
    mover = step.args.get("by") or spec.get("controller") or spec.get("owner")
    # who pointed is named only where the step says (``by``): a step without it may be
    # narrated as anyone's drag (its controller's side places the ghost)
    return ghost_at(scene, event, step.args["to"], step.args.get("player"), mover,
                    named=bool(step.args.get("by")))


def came_from(scene: TableScene, event: Event, mover: str | None) -> list[QGraphicsItem]:
    """For a card a step moved: a ghost of it where it was (on the battlefield, on the
    side of ``mover``, who controlled it), and an arrow to where it is now (the Scenario
    dock's picture of a step, outside presenter mode)."""
    if event.src is None or event.dst is None or event.src == event.dst:
        return []
    items, _ = ghost_at(scene, event, event.src[1], event.src[0], mover or event.src[0])
    return items


def ghost_at(scene: TableScene, event: Event, zone: Zone, player: str | None,
             mover: str | None, named: bool = True) -> tuple[list[QGraphicsItem], str | None]:
    """The ghost of ``event``'s card in ``zone`` (``player``'s, else the mover's when the
    zone is a player's) where it was pointed at, and an arrow to where the card is."""
    t = scene.c.board
    per = zone in t.edition.per_player
    player = player or (mover if per else None)
    key = (player if per else None, zone)
    # the battlefield is drawn as one part per controller: the mover's
    spot = scene._spot_for(key, player or mover) if zone == Zone.BATTLEFIELD \
        else scene.zone_items.get(key)
    actual = scene.item_for_cid(event.cid) if event.cid is not None else None
    if spot is None or actual is None:
        return [], None
    r = spot.spot.rect
    at = QPointF(*L.pile_position(r)) if zone not in (Zone.BATTLEFIELD, Zone.HAND, Zone.STACK) \
        else QPointF(r.x + r.w / 2 - L.CARD_W / 2, r.y + r.h / 2 - L.CARD_H / 2)
    g = CardItem(("ghost",), actual.oid, actual.view)
    g.turn(False)
    g.setOpacity(0.45)
    g.setPos(at)
    g.setZValue(3900)
    g.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
    g.setAcceptHoverEvents(False)
    g.setFlag(CardItem.GraphicsItemFlag.ItemIsSelectable, False)
    g.setData(0, "ghost")
    scene.addItem(g)
    arrow = ArrowItem(g.sceneBoundingRect().center(), settled(actual).center(), "#f0b429")
    arrow.setData(0, "ghost-arrow")
    scene.addItem(arrow)
    pointed = t.zone_label(key)
    said = f"{mover} pointed at {pointed}" if mover and named else f"Pointed at {pointed}"
    if event.kind == EventKind.REJECTED:
        return [g, arrow], f"{said} → refused, it stays where it was"
    return [g, arrow], f"{said} → it went to {t.zone_label(event.dst)}"


class Presenter(QObject):
    def __init__(self, window: Window) -> None:
        super().__init__(window.window())
        self.w = window
        self.on = False
        self.saved: dict[str, Any] = {}
        self.extras: list[QGraphicsItem] = []  # the ghost and its arrow
        # a child of the view, not of its viewport: scrolling the table moves the
        # viewport's children with it
        self.banner = QLabel(window.view)
        self.banner.setTextFormat(Qt.TextFormat.RichText)
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet(BANNER_CSS)
        self.banner.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents, True)
        self.banner.hide()
        window.scenario_panel.stepped.connect(self._stepped)
        window.c.acted.connect(self._acted)
        window.c.reset.connect(self._cleared)
        window.c.changed.connect(lambda res: self._cleared() if res is None else None)

    # ---- entering and leaving -------------------------------------------------------------
    def enter(self) -> None:
        w = self.w
        # text sized for a room, and for the screen it is on: 17 pt on a 1080-line
        # projector, 13 on a 1280x800 one, so the steps and the table both fit
        screen = w.window().screen()
        lines = screen.availableGeometry().height() if screen is not None else 1080
        lines = min(lines, max(w.window().height(), 600))
        points = max(13.0, min(17.0, lines / 1080 * 17))
        big = QFont(w.font())
        big.setPointSizeF(points)
        self.saved = {
            "state": w.saveState(),
            "menu": w.menuBar().isVisible(),
            "status": w.statusBar().isVisible(),
            "bars": {b: b.isVisible() for b in w.toolbars()},
            "fonts": {x: (QFont(x.font()), x.styleSheet())
                      for x in (w.scenario_panel, w.inspector)},
        }
        self.on = True
        w.menuBar().setVisible(False)
        for bar in self.saved["bars"]:
            bar.setVisible(False)
        w.statusBar().setVisible(False)
        w.log_dock.setVisible(False)
        w.scenario_dock.show()
        w.inspector_dock.show()
        w.scenario_dock.raise_()
        self.saved["scroll"] = (w.view.horizontalScrollBarPolicy(),
                                w.view.verticalScrollBarPolicy())
        w.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        w.view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        for x in (w.scenario_panel, w.inspector):
            x.setFont(big)
        w.scenario_panel.setStyleSheet(f"font-size: {points:.0f}pt;")
        w.inspector.setStyleSheet(f"font-size: {points:.0f}pt;")
        # the banner over the table says what the step's detail would: the dock keeps
        # its room for the list of steps
        w.scenario_panel.detail_hidden = True
        w.scenario_panel.show_player()
        height = w.window().height()
        w.resizeDocks([w.inspector_dock, w.scenario_dock],
                      [int(height * 0.34), int(height * 0.66)], Qt.Orientation.Vertical)
        sess = w.scenario_panel.session
        self._stepped(sess.run.reports[-1] if sess is not None and sess.run.reports else None)

    def leave(self) -> None:
        w = self.w
        self.on = False
        self._clear()
        self.banner.hide()
        s = self.saved
        for x, (font, sheet) in s.get("fonts", {}).items():
            x.setStyleSheet(sheet)
            x.setFont(font)
        w.scenario_panel.detail_hidden = False
        w.scenario_panel.show_player()
        w.menuBar().setVisible(s.get("menu", True))
        w.statusBar().setVisible(s.get("status", True))
        for bar, vis in s.get("bars", {}).items():
            bar.setVisible(vis)
        w.view.setSceneRect(QRectF())  # the scene's own rect again
        if "scroll" in s:
            w.view.setHorizontalScrollBarPolicy(s["scroll"][0])
            w.view.setVerticalScrollBarPolicy(s["scroll"][1])
        if "state" in s:
            w.restoreState(s["state"])
        w.view.fit()

    # ---- after each step ------------------------------------------------------------------
    def _clear(self) -> None:
        scene = self.w.scene
        for item in self.extras:
            if item.scene() is scene:
                scene.removeItem(item)
        self.extras = []

    def _cleared(self) -> None:
        """A new table (or undo to the start): nothing of the last ruling stays drawn."""
        if self.on:
            self._clear()
            self.banner.hide()

    def _stepped(self, rep: StepReport | None) -> None:
        if not self.on:
            return
        self._clear()
        if rep is None:
            self.banner.hide()
            self.w.view.setSceneRect(QRectF())
            self.w.view.fit()
            return
        ghost = self._ghost(rep)
        sess = self.w.scenario_panel.session
        scenario = sess.scenario if sess is not None else None
        names = {lab: spec.get("name", lab) for lab, spec in scenario.cards.items()} \
            if scenario is not None else {}
        checks = expectation_lines(rep.checks, names, self.w.c.board.edition)
        # then zooms, leaving room for the banner
        self._show_banner(f"Step {rep.index}. {rep.line}", ghost, rep.events, checks,
                          rep.subjects)

    def _acted(self, res: Result, pointed: tuple[Zone, str | None, str | None] | None
               ) -> None:
        """Something done at the table in presenter mode (a judge showing a ruling by
        hand): the same banner, ghost and zoom as a scenario step."""
        if not self.on:
            return
        self._clear()
        ghost = None
        if pointed is not None:
            event = next((e for e in res.events if e.kind in MOVED and e.cid is not None),
                         None)
            if event is not None:
                self.extras, ghost = ghost_at(self.w.scene, event, *pointed)
        title = self.w.c.last_title(res.rejected)
        if res.rejected and title:
            title = f"Tried: {title}"
        subjects = [e.cid for e in res.events if e.cid is not None]
        self._show_banner(title, ghost, res.events, [], subjects)

    def _ghost(self, rep: StepReport) -> str | None:
        sess = self.w.scenario_panel.session
        if sess is None:
            return None
        self.extras, words = ghost(self.w.scene, sess.scenario, sess.run.names,
                                   sess.scenario.steps[rep.index - 1], rep)
        return words

    def _zoom(self, subjects: Sequence[int], below: int = 0) -> None:
        """The cards the step touched (and the ghost) fill the view above the banner
        (``below`` pixels at the bottom)."""
        scene, view = self.w.scene, self.w.view
        rect = QRectF()
        for cid in subjects:
            card = scene.item_for_cid(cid)
            if card is not None:
                rect = rect.united(settled(card))
        for extra in self.extras:
            rect = rect.united(extra.sceneBoundingRect())
        if rect.isNull():
            view.fit()
            return
        whole = scene.sceneRect()
        w = max(rect.width(), whole.width() * 0.45)
        h = max(rect.height(), whole.height() * 0.45)
        c = rect.center()
        w, h = w + 80, h + 80
        vp = view.viewport()
        free_h = max(vp.height() * 0.3, vp.height() - below)  # the view above the banner
        k = min(vp.width() / w, free_h / h)
        # room around the table, so its edge can sit above the banner too
        view.setSceneRect(whole.adjusted(-whole.width(), -whole.height(), whole.width(),
                                         whole.height()))
        view.resetTransform()
        view.scale(k, k)
        # no cloth beyond the table's edge where the table can fill the view instead
        seen_w, seen_h = vp.width() / k, free_h / k
        cx, cy = c.x(), c.y()
        cx = min(max(cx, whole.left() + seen_w / 2), whole.right() - seen_w / 2) \
            if seen_w < whole.width() else whole.center().x()
        cy = min(max(cy, whole.top() + seen_h / 2), whole.bottom() - seen_h / 2) \
            if seen_h < whole.height() else whole.center().y()
        view.centerOn(cx, cy + (vp.height() - free_h) / 2 / k)
        view.fit_on_resize = False

    def _show_banner(self, heading: str, ghost: str | None, events: Sequence[Event],
                     checks: Sequence[tuple[bool, str]], subjects: Sequence[int]) -> None:
        """``checks``: (held, sentence) of each expectation."""
        from tabletop.ui.inspector import rule_html
        t = self.w.c.board
        parts = [f"<div style='font-size:22pt; font-weight:bold'>{html.escape(heading)}</div>"]
        if ghost:
            parts.append(f"<div style='font-size:19pt; color:#8a5a00'>{html.escape(ghost)}"
                         f"</div>")
        numbers: list[str] = []
        for e in events:
            told = t.tell(e)
            parts.append(f"<div style='font-size:19pt'>{html.escape(told.text)}</div>")
            numbers += [n for n in told.cites if n not in numbers]
        for n in numbers:
            parts.append(f"<div style='font-size:16pt'>{rule_html(t, n)}</div>")
        for held, words in checks:
            mark, colour = ("✔", "#1c7c3a") if held else ("✘", "#b3261e")
            parts.append(f"<div style='font-size:18pt; color:{colour}'>{mark} "
                         f"{html.escape(words)}</div>")
        vp = self.w.view.viewport()
        # large in a large window, smaller in a small one: sizes scale with the table
        scale = max(0.55, min(1.0, vp.height() / 900))
        text = "".join(parts)
        for size in ("22pt", "19pt", "18pt", "16pt"):
            text = text.replace(f"font-size:{size}",
                                f"font-size:{float(size[:-2]) * scale:.1f}pt")
        self.banner.setText(text)
        width = max(300, vp.width() - 40)
        self.banner.setFixedWidth(width)
        self.banner.adjustSize()
        height = min(self.banner.sizeHint().height(), int(vp.height() * 0.55))
        self.banner.setFixedHeight(height)
        self.banner.move(vp.x() + 20, vp.y() + vp.height() - height - 20)
        self.banner.show()
        self.banner.raise_()
        self._zoom(subjects, height + 40)
