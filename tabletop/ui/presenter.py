"""Presenter mode: the judge's stage. Only the table, the steps and the inspector, in
large type; after each scenario step the table zooms to the cards it touched, a ghost
of the card shows where the player pointed and an arrow where the engine put it, and a
banner readable from the back of a room gives the step, each event, each rule cited
with its summary (and the imported wording when it matches the edition) and each
expectation as a plain sentence with a tick. Leaving restores every font and dock."""

from __future__ import annotations

import html

from PySide6.QtCore import QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QToolBar

from tabletop.engine import views
from tabletop.ui import layout as L
from tabletop.ui.items import ArrowItem, CardItem

BANNER_CSS = ("QLabel { background: rgba(250, 248, 240, 236); color: #1d1d1d; "
              "border: 2px solid #6b4e00; border-radius: 10px; padding: 10px 16px; }")
MOVED = {"redirected", "replaced", "rejected"}


def expectation_words(check, name: str, place) -> str:
    """An expectation as a plain sentence: "Hill Giant is in Bob's graveyard"."""
    k, v = check.key, check.expected
    it = name or "it"
    if k == "zone":
        return f"{it} is in {place(v)}"
    if k == "player":
        return f"{it} is on {v}'s side of the table"
    if k == "exists":
        return f"{it} still exists" if v else f"{it} no longer exists"
    if k == "new_object":
        return f"{it} is a new object" if v else f"{it} is the same object as before"
    if k == "rejected":
        return "the move is refused" if v else "the move is not refused"
    if k == "position":
        return f"{it} is number {v} from the top"
    if k == "cites":
        return f"the step cites {', '.join(map(str, v))}" if v else "the step cites no rule"
    if k == "not_cites":
        return f"the step does not cite {', '.join(map(str, v))}"
    if k in ("tapped", "face_down"):
        words = {"tapped": ("tapped", "untapped"), "face_down": ("face down", "face up")}[k]
        return f"{it} is {words[0] if v else words[1]}"
    if k == "counters":
        if not v:
            return f"{it} has no counters"
        return f"{it} has " + ", ".join(f"{n} × {kind}" for kind, n in dict(v).items())
    if k == "lineage":
        return f"{it} has been in " + " → ".join(map(str, v))
    if k == "counts":
        return "the zones hold " + ", ".join(f"{n} in {z}" for z, n in dict(v).items())
    if k == "outside_game":
        return f"{it} is outside the game" if v else f"{it} is in the game"
    return f"{it}: {k} is {v}"


def expectation_lines(checks, names: dict, edition) -> list[tuple[bool, str]]:
    """Each expectation of a step as (held, sentence); a card's zone and whose zone it is
    read as one sentence ("Hill Giant is in Bob's graveyard")."""
    owners = {c.card: c for c in checks if c.key == "player"}
    out = []
    for c in checks:
        name = names.get(c.card, c.card or "")
        if c.key == "player" and any(x.card == c.card and x.key == "zone" for x in checks):
            continue  # said with the zone
        if c.key == "zone":
            who = owners.get(c.card)
            zone = str(c.expected)
            per = zone in edition.per_player and who is not None
            where = edition.place(zone, str(who.expected)) if per else edition.place(zone)
            held = c.held and (who is None or who.held)
            if who is not None and not per:  # the battlefield: whose side
                where += f", on {who.expected}'s side"
            out.append((held, f"{name or 'it'} is in {where}"))
            continue
        out.append((c.held, expectation_words(c, name, lambda z: edition.place(str(z)))))
    return out


class Presenter(QObject):
    def __init__(self, window):
        super().__init__(window)
        self.w = window
        self.on = False
        self.saved: dict = {}
        self.extras: list = []  # the ghost and its arrow
        # a child of the view, not of its viewport: scrolling the table moves the
        # viewport's children with it
        self.banner = QLabel(window.view)
        self.banner.setTextFormat(Qt.RichText)
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet(BANNER_CSS)
        self.banner.setAttribute(Qt.WA_TransparentForMouseEvents, True)
        self.banner.hide()
        window.scenario_panel.stepped.connect(self._stepped)

    # ---- entering and leaving -------------------------------------------------------------
    def enter(self) -> None:
        w = self.w
        big = QFont(w.font())
        big.setPointSizeF(17)
        self.saved = {
            "state": w.saveState(),
            "menu": w.menuBar().isVisible(),
            "status": w.statusBar().isVisible(),
            "bars": {b: b.isVisible() for b in w.findChildren(QToolBar)},
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
        w.view.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        w.view.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        for x in (w.scenario_panel, w.inspector):
            x.setFont(big)
        w.scenario_panel.setStyleSheet("font-size: 17pt;")
        w.inspector.setStyleSheet("font-size: 17pt;")
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

    def _stepped(self, rep) -> None:
        if not self.on:
            return
        self._clear()
        if rep is None:
            self.banner.hide()
            self.w.view.setSceneRect(QRectF())
            self.w.view.fit()
            return
        ghost = self._ghost(rep)
        self._show_banner(rep, ghost)  # then zooms, leaving room for the banner

    def _step(self, rep):
        sess = self.w.scenario_panel.session
        return sess.scenario.steps[rep.index - 1] if sess is not None else None

    def _ghost(self, rep) -> str | None:
        """For a move the engine sent elsewhere (or refused): a ghost of the card where
        the player pointed and an arrow to where it went. Returns the words for it."""
        step = self._step(rep)
        if step is None or step.action != "move":
            return None
        t, scene = self.w.c.table, self.w.scene
        event = next((e for e in rep.events if e.kind in MOVED and e.cid is not None), None)
        if event is None:
            return None
        sess = self.w.scenario_panel.session
        label = sess.run.names.get(event.cid)
        spec = sess.scenario.cards.get(label, {}) if label else {}
        zone = step.args["to"]
        mover = step.args.get("by") or spec.get("controller") or spec.get("owner")
        player = step.args.get("player") or (mover if zone in t.edition.per_player else None)
        key = (player if zone in t.edition.per_player else None, zone)
        spot = scene._spot_for(key, player) if zone == "battlefield" else \
            scene.zone_items.get(key)
        actual = scene.item_for_cid(event.cid)
        if spot is None or actual is None:
            return None
        r = spot.spot.rect
        at = QPointF(*L.pile_position(r)) if zone not in ("battlefield", "hand", "stack") \
            else QPointF(r.x + r.w / 2 - L.CARD_W / 2, r.y + r.h / 2 - L.CARD_H / 2)
        g = CardItem(("ghost",), actual.oid, actual.view)
        g.setRotation(0)
        g.setOpacity(0.45)
        g.setPos(at)
        g.setZValue(3900)
        g.setAcceptedMouseButtons(Qt.NoButton)
        g.setAcceptHoverEvents(False)
        g.setFlag(CardItem.ItemIsSelectable, False)
        g.setData(0, "ghost")
        scene.addItem(g)
        arrow = ArrowItem(g.sceneBoundingRect().center(), actual.sceneBoundingRect().center(),
                          "#f0b429")
        arrow.setData(0, "ghost-arrow")
        scene.addItem(arrow)
        self.extras = [g, arrow]
        pointed = views.zone_label(t, (player, zone) if zone in t.edition.per_player
                                   else (None, zone))
        went = views.zone_label(t, event.dst) if event.kind != "rejected" else \
            "nowhere: it stays where it was"
        who = mover or "The player"
        return f"{who} pointed at {pointed} → it went to {went}" if event.kind != "rejected" \
            else f"{who} pointed at {pointed} → refused, it stays where it was"

    def _zoom(self, rep, below: int = 0) -> None:
        """The cards the step touched (and the ghost) fill the view above the banner
        (``below`` pixels at the bottom)."""
        scene, view = self.w.scene, self.w.view
        rect = QRectF()
        for cid in rep.subjects:
            item = scene.item_for_cid(cid)
            if item is not None:
                rect = rect.united(item.sceneBoundingRect())
        for item in self.extras:
            rect = rect.united(item.sceneBoundingRect())
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
        view.centerOn(c.x(), c.y() + (vp.height() - free_h) / 2 / k)
        view.fit_on_resize = False

    def _show_banner(self, rep, ghost: str | None) -> None:
        from tabletop.ui.inspector import rule_html
        t = self.w.c.table
        sess = self.w.scenario_panel.session
        names = {lab: spec.get("name", lab) for lab, spec in sess.scenario.cards.items()}
        parts = [f"<div style='font-size:22pt; font-weight:bold'>Step {rep.index}. "
                 f"{html.escape(rep.line)}</div>"]
        if ghost:
            parts.append(f"<div style='font-size:19pt; color:#8a5a00'>{html.escape(ghost)}"
                         f"</div>")
        numbers: list[str] = []
        for e in rep.events:
            told = views.tell(t, e, self.w.c.viewer)
            parts.append(f"<div style='font-size:19pt'>{html.escape(told.text)}</div>")
            numbers += [n for n in told.cites if n not in numbers]
        for n in numbers:
            parts.append(f"<div style='font-size:16pt'>{rule_html(t, n)}</div>")
        for held, words in expectation_lines(rep.checks, names, t.edition):
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
        self._zoom(rep, height + 40)
