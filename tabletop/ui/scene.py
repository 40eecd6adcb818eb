"""The table scene: zones laid out for the edition and viewpoint, cards placed
from the engine's state as the viewer may see it, and drags turned into moves.

A drag asks the engine (through the controller) whether the zone under the
card would accept it, and lights the zone green or red; a drop asks the
engine to move, then animates exactly what the engine answered."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QTransform
from PySide6.QtWidgets import QGraphicsScene, QMenu  # dialogs: where they open

from tabletop.engine.model import EventKind, Zone, ZoneKey
from tabletop.engine.views import Hidden, Seen
from tabletop.ui import layout as L
from tabletop.ui.items import CardItem, PlayerItem, Region, ZoneItem

if TYPE_CHECKING:  # (a Qt class a module names is made at start-up: types only here)
    from PySide6.QtCore import QObject, QPoint
    from PySide6.QtGui import QKeyEvent
    from PySide6.QtWidgets import (
        QGraphicsSceneDragDropEvent,
        QGraphicsSceneHelpEvent,
        QGraphicsSceneMouseEvent,
    )

    from tabletop.engine import Result
    from tabletop.ui.controller import TableController
    from tabletop.ui.preview import CardPreview
    from tabletop.ui.zone_viewer import ZoneViewer

Face = Seen | Hidden
ItemKey = tuple[Any, ...]  # ("c", card id) for a card seen, ("o", object id) for a back
Placement = tuple[ZoneKey, tuple[float, float], Face]  # where an item goes, and what

PILES = {Zone.LIBRARY, Zone.GRAVEYARD}


STACK_FROM = 3  # identical tokens stack from this many on (fewer stand side by side)
DRAGGED_Z = 2000  # the cards a drag carries: over every card (a zone's count from 1)


def _stacks(lst: list[Face], riders: dict[int, list[Face]]
            ) -> tuple[list[Face], dict[int, list[Face]]]:
    """Identical tokens in the rows (same name, status, counters and marks, nothing
    attached, not put anywhere by a player): of each kind with STACK_FROM or more, the
    first stands for all. Returns the cards the rows lay out, and top id -> the others
    of its stack (a card dragged off the top leaves the rest where they are)."""
    kinds: dict[tuple[Any, ...], list[Face]] = {}
    for it in lst:
        if isinstance(it, Seen) and it.token and it.place is None and it.host is None \
                and not riders.get(it.id):
            kinds.setdefault((it.name, it.card, it.tapped, it.face_down, it.counters, it.pt,
                              it.note, it.owner), []).append(it)
    under: dict[int, list[Face]] = {}
    stacked: set[int] = set()
    for same in kinds.values():
        if len(same) >= STACK_FROM:
            under[same[0].id] = same[1:]
            stacked.update(o.id for o in same[1:])
    if not stacked:
        return lst, under
    return [it for it in lst if it.id not in stacked], under


# Each card keeps a drawn copy of itself (DeviceCoordinateCache) in Qt's pixmap cache,
# about 60 KB at most at the sizes a table is drawn; the cache's default 10 MB holds some
# 170, and a larger table evicted every copy before it was used again, drawing every card
# anew on every paint. The cache grows with the table (never past 256 MB).
CARD_COPY_KB = 60
PIXMAP_CACHE_MAX_KB = 256 * 1024


def _room_for_drawn_cards(cards: int, arrows_kb: int = 0) -> None:
    """``arrows_kb``: the arrows' drawn copies too (each as big as the box its curve
    spans on the screen)."""
    from PySide6.QtGui import QPixmapCache
    wanted = min(PIXMAP_CACHE_MAX_KB, 10 * 1024 + CARD_COPY_KB * cards + arrows_kb)
    if QPixmapCache.cacheLimit() < wanted:
        QPixmapCache.setCacheLimit(wanted)


class TableScene(QGraphicsScene):
    viewers_changed = Signal()  # a zone viewer opened or closed

    def __init__(self, controller: TableController, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.c = controller
        # the judge's workbench (workbench.SetupCommands): its entries on the menus
        self.setup: Any = None
        self.zone_items: dict[ZoneKey, ZoneItem] = {}
        self.player_items: dict[str, PlayerItem] = {}
        self.cards: dict[ItemKey, CardItem] = {}
        self.viewers: list[ZoneViewer] = []  # the zone viewers open now
        self._hover_zone: ZoneItem | None = None
        self._preview: CardPreview | None = None  # the hover preview
        self._dragging: CardItem | None = None
        self._group: list[CardItem] = []  # the cards a drag carries (the selection)
        self._syncs = 0  # how many times the table has been drawn anew (sync)
        # each card's place and drawing order as sync last set them, and the cards a press
        # has moved since (their place and order are Qt's to say until sync sets them)
        self._placed: dict[ItemKey, tuple[tuple[float, float], int]] = {}
        self._handled: set[ItemKey] = set()
        # each controller's battlefield as last laid out: (what the layout read, where
        # each card went, the stacks' counts), laid out again when what it reads changes
        self._fields: dict[str | None, tuple[Any, dict[ItemKey, Placement],
                                             dict[ItemKey, str]]] = {}
        from tabletop.ui.arrows import Arrows
        self.arrows = Arrows(self)  # the players' arrows, and picking what is clicked next
        self.animations = True
        self.setBackgroundBrush(QBrush(QColor("#1f4a3a")))
        controller.reset.connect(self.rebuild)
        controller.changed.connect(self.sync)
        from tabletop.ui.pictures import store
        store().ready.connect(self._picture_arrived)
        self.rebuild()

    # ---- layout --------------------------------------------------------------------
    def rebuild(self) -> None:
        self.clear()
        self.zone_items.clear()
        self.player_items.clear()
        self.cards.clear()
        self._placed.clear()
        self._handled.clear()
        self._fields.clear()
        self._hover_zone = None
        self._preview = None
        self._dragging = None
        self.arrows.cleared()
        b = self.c.board
        ed = b.edition
        spots, rect = L.layout(b.zones_on_the_table(), ed.per_player, list(b.players),
                               self.c.viewer)
        self.setSceneRect(-10, -10, rect.w + 20, rect.h + 20)
        for spot in spots:
            player, named = spot.key
            if named == "player" and player is not None:  # the seat's panel: life, counters
                panel = PlayerItem(spot, b.player_view(player))
                self.addItem(panel)
                self.player_items[player] = panel
                continue
            zone = Zone(named)
            name = ed.zone_name(zone)
            pile = zone not in (Zone.HAND, Zone.BATTLEFIELD) and player is not None
            title = name if (pile or not player) else f"{name} — {player}"
            item = ZoneItem(spot, (player, zone), title)
            self.addItem(item)
            self.zone_items[item.key] = item
        self.sync(None, animate=False)

    def _pile(self, zone: Zone) -> bool:
        return zone in PILES or (zone in self.c.board.edition.per_player and zone != Zone.HAND)

    def _placements(self) -> tuple[dict[ItemKey, Placement], list[int], dict[ItemKey, str]]:
        """item key -> (spot key, position, view item), in the order they are drawn, from
        the viewer's view only: what is drawn, and where, never depends on what the viewer
        may not see; where each zone's cards begin among them (a battlefield's: each
        controller's, with what is attached to them); and the count on the top card of
        each stack of tokens ("×N")."""
        b = self.c.board
        v = b.zones()
        out: dict[ItemKey, Placement] = {}
        starts: list[int] = []
        counts: dict[ZoneKey, int] = {}
        badges: dict[ItemKey, str] = {}
        for key, items in v.items():
            player, zone = key
            if zone == Zone.BATTLEFIELD:
                self._place_field(items, out, starts, counts, badges)
                continue
            spot = self.zone_items.get(key)
            if spot is None:
                continue
            counts[key] = len(items)
            starts.append(len(out))
            r = spot.spot.rect
            if self._pile(zone):
                if items:
                    it = items[0]
                    out[self._key(it)] = (key, L.pile_position(r), it)
                continue
            ordered = list(reversed(items))  # bottom (or oldest) first
            captions: list[tuple[float, str]] = []
            if zone == Zone.EXILE:  # piles by what exiled them (406.4)
                ordered.sort(key=lambda it: it.pile or "")
                piles = [it.pile or "" for it in ordered]
                place = L.pile_groups(r, piles)
                for i, name in enumerate(piles):
                    if name and (i == 0 or piles[i - 1] != name):
                        captions.append((place[i][0] - r.x, name))
            elif zone == Zone.HAND:
                place = L.hand_positions(r, len(ordered))
            else:
                place = L.strip_positions(r, len(ordered))
            spot.set_captions(captions)
            for it, p in zip(ordered, place, strict=False):
                out[self._key(it)] = (key, p, it)
        for key in self.zone_items:
            if key[1] != Zone.BATTLEFIELD or key in counts:
                continue
            counts[key] = 0
        for player, panel in self.player_items.items():  # life and counters: public
            panel.set_seen(b.player_view(player), self.c.may_act_for(player))
        effects = b.effects()
        for key, zone_item in self.zone_items.items():  # what watches each zone (public)
            zone_item.set_effects([
                f"⟲ {e.source or e.label} → {b.edition.zone_name(e.instead).lower()}"
                + (" (may)" if e.optional else "") for e in effects if e.watch == key[1]])
        for key, n in counts.items():
            if key in self.zone_items:
                self.zone_items[key].set_count(n)
        for key, item in self.zone_items.items():
            if key not in counts:
                item.set_count(0)
        return out, starts, badges

    def pictures_changed(self) -> None:
        """Another pictures folder, or downloads turned on or off: every card is drawn
        again now (each keeps a drawn copy of itself, which a scene update leaves)."""
        for item in self.cards.values():
            item.update()
        if self._preview is not None:
            self._show_preview(None)
        for viewer in self.viewers:  # their cards are drawn pictures too
            viewer.refresh()

    def _picture_arrived(self, name: str) -> None:
        for item in self.cards.values():
            if item.face is not None and item.face.name == name:
                item.update()
        if self._preview is not None and self._preview.face.name == name:
            self._preview.update()

    def _place_field(self, items: list[Face], out: dict[ItemKey, Placement],
                     starts: list[int], counts: dict[ZoneKey, int],
                     badges: dict[ItemKey, str]) -> None:
        """The battlefield: each controller's cards in their half; a card attached to
        another sits behind its host, wherever the host is, and follows it; identical
        tokens in the rows stack, with how many on the top one (into ``badges``)."""
        by_id = {it.id: it for it in items}

        def root(it: Face) -> Face:  # the permanent a chain of attachments ends on
            seen = {it.id}
            while it.host is not None and it.host in by_id and it.host not in seen:
                seen.add(it.host)
                it = by_id[it.host]
            return it

        by_ctrl: dict[str | None, list[Face]] = {}
        riders: dict[int, list[Face]] = {}
        held: dict[str | None, int] = {}  # how many each controller has
        for it in reversed(items):
            ctrl = it.controller
            held[ctrl] = held.get(ctrl, 0) + 1
            if it.host is not None and it.host in by_id:  # (most are attached to nothing)
                r = root(it)
                if r is not it:
                    riders.setdefault(r.id, []).append(it)
                    continue
            by_ctrl.setdefault(ctrl, []).append(it)
        for ctrl, n in held.items():
            key = (ctrl, Zone.BATTLEFIELD)
            counts[key] = counts.get(key, 0) + n
        for ctrl, lst in by_ctrl.items():
            spot = self.zone_items.get((ctrl, Zone.BATTLEFIELD))
            if spot is None:
                continue
            starts.append(len(out))  # (what it attaches goes in its block)
            rect, mirrored = spot.spot.rect, spot.spot.mirrored
            # A controller's cards are laid out again only when something the layout reads
            # changed: its cards as this viewer sees them, what each carries, the zone's
            # place (a tap on one of four battlefields of 250 laid out all four).
            given = (rect, mirrored, lst, [riders.get(it.id) for it in lst])
            kept = self._fields.get(ctrl)
            if kept is None or kept[0] != given:
                kept = self._fields[ctrl] = (given, *self._lay_field(ctrl, lst, riders, rect,
                                                                     mirrored))
            out.update(kept[1])
            badges.update(kept[2])

    def _lay_field(self, ctrl: str | None, lst: list[Face], riders: dict[int, list[Face]],
                   rect: L.Rect, mirrored: bool
                   ) -> tuple[dict[ItemKey, Placement], dict[ItemKey, str]]:
        """One controller's battlefield: where each card goes, in the order they are
        drawn, and the count on each stack's top card."""
        out: dict[ItemKey, Placement] = {}
        badges: dict[ItemKey, str] = {}
        lst, under = _stacks(lst, riders)
        # what is attached to each permanent that has anything attached
        mine = {h.id: [(r.id, r.tapped) for r in riders[h.id]] for h in lst
                if riders.get(h.id)}
        placed = {it.id: L.unsnap(rect, it.place, mirrored)  # where a player put it
                  for it in lst if it.place is not None}
        pos = L.field_positions(rect, [
            (it.id, it.row == "lands", it.tapped) for it in lst], mirrored, mine, placed)
        for it in lst:
            for r in riders.get(it.id, ()):  # behind their host: placed (and drawn) first
                out[self._key(r)] = ((r.controller, Zone.BATTLEFIELD), pos[r.id], r)
            x, y = pos[it.id]
            same = under.get(it.id, ())
            for k, o in enumerate(reversed(same)):  # the stack, under its top card
                depth = min(len(same) - k, 2) * 3.0
                out[self._key(o)] = ((ctrl, Zone.BATTLEFIELD), (x - depth, y - depth), o)
            if same:
                badges[self._key(it)] = f"×{len(same) + 1}"
            out[self._key(it)] = ((ctrl, Zone.BATTLEFIELD), (x, y), it)
        return out, badges

    @staticmethod
    def _key(it: Face) -> ItemKey:
        return ("c", it.cid) if isinstance(it, Seen) else ("o", it.id)

    # ---- drawing the engine's state --------------------------------------------------
    def sync(self, result: Result | None = None, animate: bool | None = None) -> None:
        self._syncs += 1
        animate = self.animations if animate is None else animate
        wanted, starts_at, stack_badges = self._placements()
        events = result.events if result is not None else ()
        start_at: dict[int, ZoneKey] = {}  # object id -> spot key it came from (new items
        # start there)
        ceased = []
        for e in events:
            if e.obj is not None and e.src is not None and e.dst is not None:
                start_at[e.obj] = e.src
            if e.kind == EventKind.CEASED and e.src is not None:
                ceased.append(e)
        for key in list(self.cards):
            if key not in wanted:
                old = self.cards.pop(key)
                self._placed.pop(key, None)
                gone = next((e for e in ceased if key == ("c", e.cid)), None)
                if gone is not None and gone.src is not None and animate:
                    self._fade_out(old, gone.src)
                else:
                    self.removeItem(old)
        piles: dict[Zone, bool] = {}  # each zone drawn as a pile or not (_pile)
        # Each card's place in the order it is drawn in counts from the start of its own
        # zone's cards (a battlefield's: its controller's and what is attached to them),
        # not from the table's first card: cards of different zones never overlap, and a
        # card that changes zones then re-stacks only the cards of those two zones (on a
        # table of 1,000 permanents, a land played re-stacked some 300 cards, and so
        # drew most of the table again).
        # (each card's place and order as last set here: a card set there before and not
        # moved by a hand since (a press) is left as it is, without asking Qt, 5 us a card)
        last, handled = self._placed, self._handled
        starts = iter([*starts_at[1:], len(wanted)])
        block, block_end = 0, next(starts)
        for i, (key, (spot_key, pos, face)) in enumerate(wanted.items()):
            while i >= block_end:
                block, block_end = block_end, next(starts, len(wanted))
            z = i - block + 1
            item = self.cards.get(key)
            if item is None:
                target = QPointF(*pos)
                item = CardItem(key, face.id, face)
                src = start_at.get(face.id)
                start = self._spot_for(src, face.controller) if src is not None else None
                if start is not None and animate:
                    item.setPos(QPointF(*L.pile_position(start.spot.rect)))
                else:
                    item.setPos(target)
                self.addItem(item)
                self.cards[key] = item
            else:
                if item.oid != face.id:
                    item.oid = face.id
                item.set_face(face)
            if item.zone_key != spot_key:
                item.zone_key = spot_key
            zone = spot_key[1]
            pile = piles.get(zone)
            if pile is None:
                pile = piles[zone] = self._pile(zone)
            count = self.zone_items[spot_key].count if spot_key in self.zone_items else 0
            badge = str(count) if pile else (
                str(face.position or "") if zone == Zone.STACK else
                stack_badges.get(key, "") if zone == Zone.BATTLEFIELD else "")
            if item.badge != badge:
                item.badge = badge
                item.update()
            home = (pos, z)
            if key not in handled and last.get(key) == home:
                continue  # where this put it last, and nothing has moved it since
            last[key] = home
            target = QPointF(*pos)
            if item.zValue() != z:
                item.setZValue(z)
            item.stop_sliding()
            if item.pos() != target:
                if animate:
                    item.slide_to(target)
                else:
                    item.setPos(target)
        handled.clear()  # (but the cards a drag still carries: the hand moves them yet)
        handled.update(it.key for it in self._group)
        self.arrows.draw(wanted)
        _room_for_drawn_cards(len(self.cards), self.arrows.drawn_kb())
        for e in events:
            if e.kind in (EventKind.REDIRECTED, EventKind.REPLACED) and e.dst is not None:
                placed = next((w for w in wanted.values() if w[2].id == e.obj), None)
                spot = self._spot_for(e.dst, placed[2].controller if placed else None)
                if spot is not None and animate:
                    spot.flash()

    def _spot_for(self, zone_key: ZoneKey, controller: str | None = None) -> ZoneItem | None:
        if zone_key[1] == Zone.BATTLEFIELD:
            return self.zone_items.get((controller, Zone.BATTLEFIELD))
        return self.zone_items.get(zone_key)

    def _fade_out(self, item: CardItem, at_zone: ZoneKey) -> None:
        spot = self._spot_for(at_zone) or self.zone_items.get(at_zone)
        if spot is not None:
            item.setPos(QPointF(*L.pile_position(spot.spot.rect)))
        from PySide6.QtCore import QPropertyAnimation
        anim = QPropertyAnimation(item, b"opacity", item)
        anim.setDuration(700)
        anim.setStartValue(1.0)
        anim.setEndValue(0.0)
        anim.finished.connect(lambda: self.removeItem(item) if item.scene() is self else None)
        anim.start()

    # ---- gestures from items ---------------------------------------------------------
    def cid_of(self, item: CardItem) -> int:
        handle = self.c.board.handle(item.oid)
        return item.oid if handle is None else handle.cid

    def zone_at(self, pos: QPointF) -> ZoneItem | None:
        for z in self.zone_items.values():
            if z.spot.rect.contains(pos.x(), pos.y()):
                return z
        return None

    @staticmethod
    def target_of(zone_item: ZoneItem) -> tuple[Zone, str | None]:
        player, zone = zone_item.key
        return zone, player

    def selected_cards(self) -> list[CardItem]:
        return [i for i in self.selectedItems() if isinstance(i, CardItem)]

    def dragged_with(self, item: CardItem) -> list[CardItem]:
        return self._group if item in self._group else [item]

    def select_zone(self, key: ZoneKey) -> int:
        """Select every card drawn in a zone (Ctrl+A); returns how many."""
        self.clearSelection()
        items = [i for i in self.cards.values() if i.zone_key == key]
        for i in items:
            i.setSelected(True)
        return len(items)

    def card_pressed(self, item: CardItem) -> None:
        self._show_preview(None)
        self._dragging = item
        group = self.selected_cards() if item.isSelected() else [item]
        self._group = group if len(group) > 1 else [item]
        for i, it in enumerate(self._group):
            it.stop_sliding()
            it._origin = it.pos()
            it.setZValue(DRAGGED_Z + i)
            self._handled.add(it.key)
        self.c.selection.emit(self.cid_of(item) if item.face is not None
                              else ("hidden", item.oid))

    def drag_moved(self, item: CardItem, pos: QPointF) -> None:
        zone_item = self.zone_at(pos)
        if zone_item is self._hover_zone:
            return
        if self._hover_zone is not None:
            self._hover_zone.set_state(None)
        self._hover_zone = zone_item
        if zone_item is not None:
            zone, player = self.target_of(zone_item)
            zone_item.set_state(self.c.drop_hint(self.cid_of(item), zone, player))

    def _end_drag(self) -> None:
        self._dragging = None
        self._group = []
        if self._hover_zone is not None:
            self._hover_zone.set_state(None)
            self._hover_zone = None

    def _send_home(self, group: list[CardItem]) -> None:
        """Cards let go where they cannot go, or clicked without moving: back where the
        table last put them, in their zone's order. Nothing about the table changed, so
        it is not drawn anew (a click on a card of a 1,000-permanent table did that:
        30 ms)."""
        if not all(it.key in self._placed and self.cards.get(it.key) is it for it in group):
            self.sync(None)
            return
        for it in group:
            pos, z = self._placed[it.key]
            target = QPointF(*pos)
            it.stop_sliding()
            if it.pos() != target:
                it.setPos(target)
            if it.zValue() != z:
                it.setZValue(z)
            self._handled.discard(it.key)

    def dropped(self, item: CardItem, pos: QPointF, modifiers: Qt.KeyboardModifier,
                moved: bool) -> None:
        group = self.dragged_with(item)
        self._end_drag()
        zone_item = self.zone_at(pos) if moved else None
        if zone_item is None:
            self._send_home(group)  # back where it belongs
            return
        zone, player = self.target_of(zone_item)
        position = "bottom" if modifiers & (Qt.KeyboardModifier.ShiftModifier | Qt.KeyboardModifier.AltModifier) else "top"
        offsets: dict[int, tuple[float, float]] = {}
        if zone == Zone.BATTLEFIELD:  # where each card was let go: it stays there
            r, mirrored = zone_item.spot.rect, zone_item.spot.mirrored
            offsets = {self.cid_of(i): L.snap(r, i.pos().x(), i.pos().y(), mirrored)
                       for i in group}
            if all(i.zone_key == zone_item.key for i in group):
                # moved within its own battlefield: only its place changes (no rule is
                # involved and the log says nothing; undo puts it back)
                self.c.place(offsets)  # the table says it changed: the scene follows
                if self.c.session is not None:
                    self.sync(None)  # the host answers later: meanwhile, as it stands
                return
        drawn = self._syncs
        if len(group) > 1:  # the engine checks each card; one action, one undo
            self.c.drop_many([self.cid_of(i) for i in group], zone, player, position,
                             at=offsets or None)
        else:
            self.c.drop(self.cid_of(item), zone, player, position, at=offsets or None)
        if self._syncs == drawn:  # nothing drawn anew: a card no one moved (refused by
            self.sync(None)  # etiquette, or a host yet to answer) goes back

    def arrange(self, key: ZoneKey) -> None:
        """Tidy a battlefield: every card back in the rows (one action, undone as one)."""
        self.c.place({self.cid_of(item): None for item in self.cards.values()
                      if item.zone_key == key and item.view is not None
                      and item.view.place is not None})

    def cancel_drag(self) -> bool:
        """Escape: the dragged card goes home and nothing moves."""
        item = self._dragging
        if item is None or item.scene() is not self or not item.cancel_drag():
            return False
        for other in self._group:
            other.setPos(other._origin)
        self._end_drag()
        self.sync(None, animate=False)
        return True

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape and self.arrows.picking is not None:
            self.arrows.stop_pick()
            self.c.message.emit("")
            event.accept()
            return
        if event.key() == Qt.Key.Key_Escape and self.cancel_drag():
            event.accept()
            return
        super().keyPressEvent(event)

    # ---- cards dragged in from a zone viewer -----------------------------------------------
    def _viewer_cid(self, event: QGraphicsSceneDragDropEvent) -> int | None:
        from tabletop.ui.zone_viewer import cid_from_mime
        return cid_from_mime(event.mimeData())

    def dragEnterEvent(self, event: QGraphicsSceneDragDropEvent) -> None:
        if self._viewer_cid(event) is None:
            super().dragEnterEvent(event)
            return
        event.setDropAction(Qt.DropAction.MoveAction)
        event.accept()

    def dragMoveEvent(self, event: QGraphicsSceneDragDropEvent) -> None:
        cid = self._viewer_cid(event)
        if cid is None:
            super().dragMoveEvent(event)
            return
        zone_item = self.zone_at(event.scenePos())
        if zone_item is not self._hover_zone:
            if self._hover_zone is not None:
                self._hover_zone.set_state(None)
            self._hover_zone = zone_item
            if zone_item is not None:
                zone, player = self.target_of(zone_item)
                zone_item.set_state(self.c.drop_hint(cid, zone, player))
        event.setDropAction(Qt.DropAction.MoveAction)
        event.accept()

    def dragLeaveEvent(self, event: QGraphicsSceneDragDropEvent) -> None:
        if self._hover_zone is not None:
            self._hover_zone.set_state(None)
            self._hover_zone = None
        super().dragLeaveEvent(event)

    def dropEvent(self, event: QGraphicsSceneDragDropEvent) -> None:
        cid = self._viewer_cid(event)
        if cid is None:
            super().dropEvent(event)
            return
        self._end_drag()
        zone_item = self.zone_at(event.scenePos())
        event.setDropAction(Qt.DropAction.MoveAction)
        event.accept()
        if zone_item is None or not self.c.table_has(cid):
            return
        zone, player = self.target_of(zone_item)
        position = "bottom" if event.modifiers() & (Qt.KeyboardModifier.ShiftModifier | Qt.KeyboardModifier.AltModifier) \
            else "top"
        offsets: dict[int, tuple[float, float]] = {}
        if zone == Zone.BATTLEFIELD:
            p = event.scenePos()
            offsets[cid] = L.snap(zone_item.spot.rect, p.x() - L.CARD_W / 2,
                                  p.y() - L.CARD_H / 2, zone_item.spot.mirrored)
        self.c.drop(cid, zone, player, position, at=offsets or None)
        self.sync(None)

    def card_double_clicked(self, item: CardItem) -> None:
        """Tap or untap; the engine refuses (and says why) for a card off the battlefield.
        On a library, draw its top card."""
        if item.zone_key and item.zone_key[1] == Zone.LIBRARY and item.zone_key[0]:
            self.c.draw(item.zone_key[0], 1)
            return
        if item.view is not None:
            self.c.tap(self.cid_of(item), not item.tapped)

    def mouseDoubleClickEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if isinstance(self.itemAt(event.scenePos(), QTransform()), CardItem):
            super().mouseDoubleClickEvent(event)  # the card handles it
            return
        zone_item = self.zone_at(event.scenePos())
        if zone_item is not None and zone_item.key[1] == Zone.LIBRARY and zone_item.key[0]:
            self.c.draw(zone_item.key[0], 1)  # an empty library: the engine says so
            event.accept()
            return
        super().mouseDoubleClickEvent(event)

    def hover(self, item: CardItem, entering: bool) -> None:
        if entering and item.face is not None and item.card is not None and item.zone_key \
                and item.zone_key[1] != Zone.LIBRARY:
            self._show_preview(item)
        else:
            self._show_preview(None)

    def _show_preview(self, item: CardItem | None) -> None:
        if self._preview is not None:
            if self._preview.scene() is self:
                self.removeItem(self._preview)
            self._preview = None
        if item is None or item.face is None:
            return
        from tabletop.ui.preview import CardPreview, place
        p = CardPreview(item.face)
        self.addItem(p)
        if self.views():
            p.setPos(place(p, item.sceneBoundingRect(), self.views()[0]))
        else:
            p.setPos(item.sceneBoundingRect().topRight())
        self._preview = p

    # ---- menus ------------------------------------------------------------------------
    def card_menu(self, item: CardItem, screen_pos: QPoint) -> None:
        menu = self.card_actions(item)
        if not menu.isEmpty():
            self._show_preview(None)  # a menu opens: the preview goes
            menu.exec(screen_pos)
        if self.cards.get(item.key) is item and item.key in self._handled:
            # raised when the menu's press selected it: back in its place in its zone's
            # order (it stayed over its neighbours until the table next changed)
            self._send_home([item])

    def helpEvent(self, event: QGraphicsSceneHelpEvent) -> None:
        """A card's tooltip, but never over its preview: the preview says all it would."""
        if self._preview is not None:
            event.accept()
            return
        super().helpEvent(event)

    def card_actions(self, item: CardItem) -> QMenu:
        """The card's menu, from what this viewer may know of it (its view entry)."""
        from tabletop.ui.card_menu import card_actions
        menu = card_actions(self, item)
        if self.setup is not None and item.view is not None and item.zone_key is not None:
            self.setup.card_menu(menu, self.cid_of(item))
        return menu

    # ---- arrows and picking a target (arrows.py) ------------------------------------------
    def start_pick(self, what: str, cid: int, name: str) -> None:
        self.arrows.start_pick(what, cid, name)

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if not self.arrows.picked(event):
            super().mousePressEvent(event)

    def arrow_drag(self, item: CardItem, pos: QPointF) -> None:
        self.arrows.drag(item, pos)

    def arrow_dropped(self, item: CardItem, pos: QPointF) -> None:
        self.arrows.dropped(item, pos)

    def zone_menu(self, zone_item: ZoneItem, screen_pos: QPoint) -> None:
        menu = self.zone_actions(zone_item)
        if not menu.isEmpty():
            self._show_preview(None)
            menu.exec(screen_pos)

    def zone_actions(self, zone_item: ZoneItem) -> QMenu:
        """A zone's menu (zone_menu.py)."""
        from tabletop.ui import zone_menu
        menu = zone_menu.zone_actions(self, zone_item)
        if self.setup is not None:
            self.setup.zone_menu(menu, zone_item.key[1], zone_item.key[0])
        return menu

    # ---- players' panels: life and counters ----------------------------------------------
    def player_clicked(self, panel: PlayerItem, what: Region,
                       screen_pos: QPoint | None) -> None:
        player = panel.player
        if what[0] == "life":
            self.c.add_life(player, what[1])
        elif what[0] == "counter":
            n = dict(panel.seen.counters).get(what[1], 0)
            self.c.player_counter(player, what[1], n + what[2])
        elif what[0] == "add":
            menu = self.add_counter_menu(player)
            if screen_pos is not None:
                menu.exec(screen_pos)

    def add_counter_menu(self, player: str) -> QMenu:
        from tabletop.ui import zone_menu
        return zone_menu.add_counter_menu(self, player)

    def player_menu(self, panel: PlayerItem, screen_pos: QPoint) -> None:
        menu = self.player_actions(panel.player)
        menu.exec(screen_pos)

    def player_actions(self, player: str) -> QMenu:
        from tabletop.ui import zone_menu
        return zone_menu.player_actions(self, player)

    # ---- zone viewers ---------------------------------------------------------------------
    def view_zone(self, key: ZoneKey, search: bool = False,
                  count: int | None = None) -> ZoneViewer:
        """Open a viewer on a zone. Searching a library, or looking at its top cards, is
        logged for everyone (the engine's look action); the cards are shown only here."""
        from tabletop.ui.zone_viewer import ZoneViewer
        looking = key[1] == Zone.LIBRARY
        if looking and key[0] is not None:
            self.c.look(key[0], None if search else count)
        parent = self.views()[0].window() if self.views() else None
        dlg = ZoneViewer(self.c, key, parent, looking=looking,
                         count=None if search else count, shuffle_after=search)
        dlg.show()
        # the viewers open now: a closed one is deleted with its window (WA_DeleteOnClose),
        # and leaves the list as Qt destroys it, never to be asked anything again
        self.viewers = [*self.viewers, dlg]
        dlg.destroyed.connect(lambda _=None, d=dlg: self._viewer_closed(d))
        self.viewers_changed.emit()
        return dlg

    def _viewer_closed(self, viewer: ZoneViewer) -> None:
        self.viewers = [v for v in self.viewers if v is not viewer]
        from shiboken6 import isValid
        if isValid(self):  # not when the window closing takes its viewers with it
            self.viewers_changed.emit()

    # ---- for tests and the self-test ---------------------------------------------------
    def item_for_cid(self, cid: int) -> CardItem | None:
        return self.cards.get(("c", cid))
