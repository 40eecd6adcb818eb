"""The arrows players draw (a right-drag from a permanent or spell to a card or a
player) and picking what is clicked next (Attach to…, Point an arrow…): a part of the
table scene, which hands it the scene's gestures. Arrows are drawn from the engine's
view (``views.arrows``) after every sync."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QGraphicsSceneMouseEvent

from tabletop.engine.model import Zone, ZoneKey
from tabletop.engine.views import Hidden, Seen
from tabletop.ui import layout as L
from tabletop.ui.items import ARROW_COLOURS, ArrowItem, CardItem, PlayerItem

Placement = tuple[ZoneKey, tuple[float, float], Seen | Hidden]  # (as scene.py's)


class Arrows:
    """``scene``: the TableScene it is part of (which makes it, and is not imported here:
    the two would import each other)."""

    def __init__(self, scene: Any) -> None:
        self.scene = scene
        self.picking: tuple[str, int] | None = None  # ("attach" or "arrow", card id): the next click
        self.line: ArrowItem | None = None  # the arrow a right-drag is drawing
        self.items: list[ArrowItem] = []

    def cleared(self) -> None:
        """The scene was emptied (a new table): nothing drawn, nothing being picked."""
        self.line = None
        self.items = []
        self.stop_pick()

    # ---- picking what is clicked next ----------------------------------------------------
    def start_pick(self, what: str, cid: int, name: str) -> None:
        """Attach a card to, or point an arrow at, what is clicked next (Escape cancels)."""
        self.picking = (what, cid)
        for v in self.scene.views():
            v.viewport().setCursor(Qt.CursorShape.CrossCursor)
        self.scene.c.message.emit(
            f"Click the permanent to attach {name} to (Escape cancels)" if what == "attach"
            else f"Click the permanent {name} merges with (Escape cancels)"
            if what in ("merge", "merge_top")
            else f"Click the card or player {name} points at (Escape cancels)")

    def stop_pick(self) -> None:
        self.picking = None
        for v in self.scene.views():
            v.viewport().unsetCursor()

    def target_at(self, pos: QPointF, source: int | None = None) -> int | str | None:
        """The card id (on the battlefield or the stack) or player under ``pos``."""
        scene = self.scene
        for it in scene.items(pos):
            if isinstance(it, CardItem) and it is not scene._preview and it.zone_key \
                    and it.zone_key[1] in (Zone.BATTLEFIELD, Zone.STACK) and it.view is not None:
                cid: int = scene.cid_of(it)
                if cid != source:
                    return cid
            elif isinstance(it, PlayerItem):
                return it.player
        return None

    def picked(self, event: QGraphicsSceneMouseEvent) -> bool:
        """A press while picking: what it lands on is the target. False when not picking
        (the press is the scene's as usual)."""
        if self.picking is None:
            return False
        c = self.scene.c
        what, cid = self.picking
        self.stop_pick()
        event.accept()
        if event.button() != Qt.MouseButton.LeftButton or not c.table_has(cid):
            c.message.emit("")
            return True
        target = self.target_at(event.scenePos(), cid)
        if target is None:
            c.message.emit("Nothing there to " + ("attach to" if what == "attach"
                                                  else "point at"))
        elif what == "arrow":
            c.arrow(cid, target)
        elif what in ("merge", "merge_top") and isinstance(target, int):
            c.merge(cid, target, on_top=what == "merge_top")
        elif isinstance(target, int):
            c.attach(cid, target)
        else:
            c.message.emit("Attaching to a player is not supported; point an arrow instead")
        return True

    # ---- a right-drag -------------------------------------------------------------------------
    def drag(self, item: CardItem, pos: QPointF) -> None:
        scene = self.scene
        start = item.sceneBoundingRect().center()
        if self.line is None or self.line.scene() is not scene:
            self.line = ArrowItem(start, pos, self.colour(scene.c.viewer))
            # (its ends move at every frame: a drawn copy would be drawn for nothing)
            self.line.setCacheMode(ArrowItem.CacheMode.NoCache)
            scene.addItem(self.line)
        else:
            self.line.set_ends(start, pos)

    def dropped(self, item: CardItem, pos: QPointF) -> None:
        scene = self.scene
        if self.line is not None and self.line.scene() is scene:
            scene.removeItem(self.line)
        self.line = None
        cid = scene.cid_of(item)
        if item.zone_key is None or item.zone_key[1] not in (Zone.BATTLEFIELD, Zone.STACK):
            scene.c.message.emit("Arrows start at a permanent or a spell")
            return
        target = self.target_at(pos, cid)
        if target is not None:
            scene.c.arrow(cid, target)
        else:  # let go over a zone or the cloth: said, as a pick that finds nothing is
            scene.c.message.emit("Nothing there to point at: an arrow ends on a card or "
                                 "a player")

    # ---- the arrows on the table ---------------------------------------------------------------
    def colour(self, player: str | None) -> str:
        players = list(self.scene.c.board.players)
        i = players.index(player) if player in players else len(players)
        return ARROW_COLOURS[i % len(ARROW_COLOURS)]

    def drawn_kb(self) -> int:
        """What the arrows' drawn copies take in Qt's pixmap cache, at the view's scale."""
        views = self.scene.views()
        k = views[0].transform().m11() if views else 1.0
        return int(sum(a.boundingRect().width() * a.boundingRect().height()
                       for a in self.items) * k * k * 4 / 1024)

    def draw(self, wanted: dict[Any, Placement]) -> None:
        """Every arrow of the engine's view, between where its ends are drawn."""
        scene = self.scene
        for a in self.items:
            if a.scene() is scene:
                scene.removeItem(a)
        self.items = []
        arrows = scene.c.board.arrows()
        if not arrows:  # (most of the time: no card's centre is needed)
            return
        centre = {face.id: QPointF(pos[0] + L.CARD_W / 2, pos[1] + L.CARD_H / 2)
                  for _spot, pos, face in wanted.values()}
        for arrow in arrows:
            start = centre.get(arrow.source)
            if arrow.target is not None:
                end = centre.get(arrow.target)
            else:
                panel = scene.player_items.get(arrow.target_player)
                end = QPointF(panel.spot.rect.x + panel.spot.rect.w / 2,
                              panel.spot.rect.y + 40) if panel is not None else None
            if start is None or end is None:
                continue
            item = ArrowItem(start, end, self.colour(arrow.player))
            scene.addItem(item)
            self.items.append(item)
