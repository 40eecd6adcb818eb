"""Graphics items: cards and zones. Items draw and report gestures; they never
change the table themselves (the scene turns gestures into controller calls)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, cast

from PySide6.QtCore import Property, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QLinearGradient, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsObject, QStyleOptionGraphicsItem

from tabletop.engine.model import Card, Zone, ZoneKey
from tabletop.engine.views import Hidden, PlayerSeen, Seen
from tabletop.ui.dialogs import plain_tooltip
from tabletop.ui.layout import CARD_H, CARD_W, ZoneSpot

if TYPE_CHECKING:  # these classes are met when first used, not at start-up (each Qt class
    # a module names is made when it is first read: 14 ms for some sixty at start-up)
    from PySide6.QtCore import QPoint, QPropertyAnimation
    from PySide6.QtGui import QPainter, QPixmap, QTransform
    from PySide6.QtWidgets import (
        QGraphicsSceneContextMenuEvent,
        QGraphicsSceneHoverEvent,
        QGraphicsSceneMouseEvent,
        QGraphicsSceneWheelEvent,
        QWidget,
    )

Region = tuple[Any, ...]  # what a click on a player's panel does: ("life", -1)...


class TableHost(Protocol):
    """What the items tell the scene they are on (scene.TableScene)."""

    def selected_cards(self) -> list[CardItem]: ...
    def card_pressed(self, item: CardItem) -> None: ...
    def card_double_clicked(self, item: CardItem) -> None: ...
    def card_menu(self, item: CardItem, screen_pos: QPoint) -> None: ...
    def hover(self, item: CardItem, entered: bool) -> None: ...
    def dragged_with(self, item: CardItem) -> list[CardItem]: ...
    def drag_moved(self, item: CardItem, pos: QPointF) -> None: ...
    def dropped(self, item: CardItem, pos: QPointF, modifiers: Qt.KeyboardModifier,
                moved: bool) -> None: ...
    def _end_drag(self) -> None: ...
    def arrow_drag(self, item: CardItem, pos: QPointF) -> None: ...
    def arrow_dropped(self, item: CardItem, pos: QPointF) -> None: ...
    def zone_menu(self, zone_item: ZoneItem, screen_pos: QPoint) -> None: ...
    def player_clicked(self, panel: PlayerItem, what: Region,
                       screen_pos: QPoint | None) -> None: ...
    def player_menu(self, panel: PlayerItem, screen_pos: QPoint) -> None: ...
    def clearSelection(self) -> None: ...
    def mouseGrabberItem(self) -> QGraphicsItem | None: ...


def _host(item: QGraphicsItem) -> TableHost:
    """The table scene an item is on."""
    return cast(TableHost, item.scene())

COLORS = {
    "W": QColor("#efe6c8"), "U": QColor("#3f7cc4"), "B": QColor("#4a4453"),
    "R": QColor("#c8503a"), "G": QColor("#3f8c4e"),
}
GOLD, ARTIFACT, LAND = QColor("#c9a94a"), QColor("#9aa3ab"), QColor("#a88b62")
BACK = QColor("#2b3a67")
TEXT_DARK, TEXT_LIGHT = QColor("#1d1d1d"), QColor("#fafafa")


_pictures: Callable[[], Any] | None = None  # pictures.store, imported when first used


def picture(name: str, printing: tuple[str, str] | None = None) -> QPixmap | None:
    """The card's picture (a QPixmap) when one is at hand, else None."""
    global _pictures
    if _pictures is None:  # (kept: PySide6 runs every import statement through Python
        from tabletop.ui.pictures import store  # code of its own, 20 us, and this is
        _pictures = store  # asked at every card's paint)
    return _pictures().get(name, printing)


def draw_picture(painter: QPainter, rect: QRectF, pix: QPixmap, radius: float) -> None:
    """A picture filling ``rect``, its corners rounded like a card's."""
    painter.save()
    path = QPainterPath()
    path.addRoundedRect(rect, radius, radius)
    painter.setClipPath(path)
    painter.setRenderHint(painter.RenderHint.SmoothPixmapTransform, True)
    painter.drawPixmap(rect, pix, QRectF(pix.rect()))
    painter.restore()


def _token_tag(painter: QPainter, tag: QRectF, font: QFont) -> None:
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor("#222"))
    painter.drawRoundedRect(tag, 3, 3)
    painter.setPen(TEXT_LIGHT)
    font.setBold(True)
    painter.setFont(font)
    painter.drawText(tag, Qt.AlignmentFlag.AlignCenter, "TOKEN")


# Text on a card, in pixels of the scene, and the least it may be on the screen: at the
# table's size on a 1280x800 screen a card is drawn at about 0.6 of the scene's size, so
# the words grow with the zoom going down and a type line never reads under 9 pixels.
NAME_PX, MIN_NAME_PX = 11.5, 10.5
TYPE_PX, MIN_TYPE_PX = 9.3, 9.0
COST_PX, MIN_SMALL_PX = 9.9, 9.0
TITLE_MOST_PX = 18  # a zone's title: the largest whose letters end above its cards
ABBREVIATED = {"Legendary": "Legend.", "Enchantment": "Enchant.", "Artifact": "Artif.",
               "Planeswalker": "Planesw.", "Creature": "Creat.", "Kindred": "Kindr.",
               "Sorcery": "Sorc.", "Instant": "Inst."}


def _font(px: float, least_on_screen: float, lod: float, bold: bool = False) -> QFont:
    """A font of ``px`` scene pixels, or larger where the zoom would draw it under
    ``least_on_screen`` pixels on the screen."""
    f = QFont()
    size = max(px, least_on_screen / max(lod, 0.05))
    f.setPixelSize(max(1, math.ceil(size - 1e-6)))
    f.setBold(bold)
    return f


def _lod(painter: QPainter) -> float:
    """How large the painter draws the scene (1: a scene pixel to a screen pixel)."""
    return QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())


def counted(title: str, count: int, font: QFont, width: float, keep_count: bool
            ) -> tuple[QFont, str]:
    """"title · count" in ``width``, and the font to draw it in; where that is too long,
    the words narrowed (a condensed font), then the title cut short before the count
    where ``keep_count`` (a hand, a battlefield: how many tokens), else the title alone
    (a pile's count is on its top card's badge), cut short if it must be."""
    whole = f"{title} · {count}"
    f, text = _first_fitting([whole, title] if not keep_count else [whole], font, width)
    if not keep_count or text == whole:
        return f, text
    tail = f" · {count}"
    m = QFontMetrics(f)
    room = int(width - m.horizontalAdvance(tail))
    return f, m.elidedText(title, Qt.TextElideMode.ElideRight, max(0, room)) + tail


_STRETCHES = (100, 87, 75)  # a font as it is, then narrowed (condensed, then more so)


def _stretched(font: QFont, stretch: int) -> QFont:
    """The font narrowed to ``stretch`` percent (a condensed face where it has one)."""
    if stretch == 100:
        return font
    f = QFont(font)
    f.setStretch(stretch)
    return f


def _first_fitting(forms: list[str], font: QFont, width: float) -> tuple[QFont, str]:
    """The first of the forms (the one that says most first) that fits, narrowed (a
    condensed font) if need be, and the font to draw it in; else the last cut short."""
    fonts: list[tuple[QFont, QFontMetrics]] = []

    def narrowed(i: int) -> tuple[QFont, QFontMetrics]:  # (made only when needed: most
        while len(fonts) <= i:  # lines fit as they are, at every paint)
            f = _stretched(font, _STRETCHES[len(fonts)])
            fonts.append((f, QFontMetrics(f)))
        return fonts[i]
    for text in forms:
        for i in range(len(_STRETCHES)):
            f, m = narrowed(i)
            if m.horizontalAdvance(text) <= width:
                return f, text
    f, m = narrowed(len(_STRETCHES) - 1)
    return f, m.elidedText(forms[-1], Qt.TextElideMode.ElideRight, int(width))



# text centred in its line, drawn whole where a font grown for a small screen is
# taller than the line
_LEFT_DONT_CLIP = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextDontClip
_CENTRE_DONT_CLIP = Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextDontClip


def _narrowed(fit: Callable[..., list[str]], text: str, font: QFont, width: float, most: int
              ) -> tuple[QFont, list[str]]:
    """Lines ``fit`` makes of the text, narrowing the font (condensed, then more so)
    before any word is cut short; the font they are drawn in, and the lines."""
    lines: list[str] = []
    for short in (0, 1, 2):  # whole words first (a type line's may lose its dash, then
        if short and fit is not _type_lines:  # be abbreviated)
            break
        for stretch in _STRETCHES:
            f = _stretched(font, stretch)
            lines = fit(text, f, width, most, short) if short else fit(text, f, width, most)
            if not any(line.endswith("…") for line in lines):
                return f, lines
    return f, lines


def _wrap(text: str, font: QFont, width: float, most: int) -> list[str]:
    """Words on at most ``most`` lines of ``width``; the last one cut short with an
    ellipsis if they do not all fit."""
    m = QFontMetrics(font)
    if m.horizontalAdvance(text) <= width:
        return [text]
    if most <= 1:  # (cut short where it no longer fits, not after its first word)
        return [m.elidedText(text, Qt.TextElideMode.ElideRight, int(width))]
    lines: list[str] = []
    words = text.split()
    current = ""
    for i, word in enumerate(words):
        trial = f"{current} {word}".strip()
        if m.horizontalAdvance(trial) <= width or not current:
            current = trial
            continue
        lines.append(current)
        current = word
        if len(lines) == most - 1:
            current = " ".join(words[i:])
            break
    lines.append(current)
    return [m.elidedText(x, Qt.TextElideMode.ElideRight, int(width)) for x in lines[:most]]


def _type_lines(type_line: str, font: QFont, width: float, most: int,
                short: int = 0) -> list[str]:
    """The type line on one line, else the types over the subtypes; ``short`` 1: the
    types without their dash, 2: abbreviated too (Creat., Enchant.). What still does
    not fit is cut short."""
    m = QFontMetrics(font)
    if m.horizontalAdvance(type_line) <= width:
        return [type_line]
    left, _, right = type_line.partition(" — ")
    if short == 2:
        left = " ".join(ABBREVIATED.get(w, w) for w in left.split())
    if most == 1:
        one = f"{left} — {right}" if right else left
        return [m.elidedText(one, Qt.TextElideMode.ElideRight, int(width))]
    lines = [left + (" —" if right and not short else ""), right] if right else [left]
    return [m.elidedText(text, Qt.TextElideMode.ElideRight, int(width)) for text in lines]


class FaceLayout(NamedTuple):
    """Where a card's face drawn without a picture puts its words (``face_layout``)."""

    name_font: QFont
    names: list[str]  # the name's lines
    line: float  # a name line's height
    title: QRectF  # the name's box
    type_font: QFont
    types: list[str]  # the type line's lines
    type_box: QRectF
    row_top: float  # where the bottom row (power/toughness, else the cost) begins


def face_layout(name: str, type_line: str, inner: QRectF, lod: float) -> FaceLayout:
    """The name on as many lines as it needs (two at most) at a size a person reads, and
    the type line below it (one line, or the types over the subtypes, abbreviated if need
    be), above the bottom row, in ``inner`` drawn at ``lod``."""
    name_font = _font(NAME_PX, MIN_NAME_PX, lod, bold=True)
    f, names = _narrowed(_wrap, name, name_font, inner.width() - 4, 2)
    line = QFontMetrics(f).height()
    title = QRectF(inner.x(), inner.y(), inner.width(), max(24.0, line * len(names) + 4))
    f3 = _font(TYPE_PX, MIN_TYPE_PX, lod, bold=True)
    tline = QFontMetrics(f3).height()
    # the bottom row is power/toughness's (and the cost's when the art has no room)
    row = max(20.0, QFontMetrics(_font(8 / 0.75, MIN_SMALL_PX + 1, lod)).height() + 3)
    room = inner.bottom() - row - (title.bottom() + 2)
    if len(names) > 1 and room < tline + 4:  # a card drawn small (a small screen): the
        # name on one line, cut short, rather than a type line under the bottom row's
        f, names = _narrowed(_wrap, name, name_font, inner.width() - 4, 1)
        line = QFontMetrics(f).height()
        title.setHeight(max(24.0, line + 4))
        room = inner.bottom() - row - (title.bottom() + 2)
    f3, types = _narrowed(_type_lines, type_line, f3, inner.width() - 4,
                          2 if room >= 2 * tline + 4 else 1)
    tb = min(max(26.0, tline * len(types) + 4), max(tline + 2, room))
    type_y = min(max(inner.y() + 58, title.bottom() + 4), inner.bottom() - row - tb)
    type_box = QRectF(inner.x(), max(type_y, title.bottom() + 2), inner.width(), tb)
    return FaceLayout(f, names, line, title, f3, types, type_box, inner.bottom() - row)


def _pt_colour(card: Card | None, pt: tuple[str, str]) -> QColor:
    """Green when bigger than printed, red when smaller, white as printed."""
    try:
        if card is None or card.power is None or card.toughness is None:
            raise ValueError("no printed power and toughness")
        d = (int(pt[0]) + int(pt[1])) - (int(card.power) + int(card.toughness))
    except ValueError:
        return QColor("#fafafa") if card is not None and pt == (card.power, card.toughness) \
            else QColor("#ffe9a8")
    return QColor("#c8f0c0") if d > 0 else QColor("#f7c6bd") if d < 0 else QColor("#fafafa")


def frame_color(card: Card | None) -> QColor:
    if not card:
        return BACK
    if len(card.colors) > 1:
        return GOLD
    if card.colors:
        return COLORS.get(card.colors[0], ARTIFACT)
    if "Land" in card.types:
        return LAND
    return ARTIFACT


_UNSET = object()  # a card item not yet given a face
# faces drawn once for the screen's pixels, shared by every card that looks the same
# (CardItem._paint_drawn_face), by what was drawn and the painter's stance: (the copy,
# where its title ends, where the copy's corner is from the drawing's origin in pixels)
_DRAWN: dict[tuple[Any, ...], tuple[QPixmap, float, float, float]] = {}
_DRAWN_BYTES = 48 * 1024 * 1024  # at most this much of them (a zoomed-in card is large)
_drawn_bytes = 0
_MARGIN = 2.0  # scene units drawn around a face (its frame's pen reaches past it)
_SCALES = (0.05, 16.0)  # the sizes faces and marks are drawn once for, then set down
_UNTURNED: Any = None  # (a QTransform that does nothing, made with the first copy)


def _drawn_once(painter: QPainter, key: tuple[Any, ...], area: QRectF,
                draw: Callable[[QPainter], float], t: QTransform, ratio: float) -> float:
    """What ``draw`` paints in ``area`` (a face, a card's marks), drawn once for the
    screen's pixels as the painter now stands (its size, and its quarter turn: a tapped
    card) and kept in ``_DRAWN`` by ``key`` and that stance, then set down on whole
    pixels with nothing to turn or stretch (the quickest copy Qt makes: a blend per
    pixel, where a copy turned or scaled at every paint was a third of a 1,000-card
    table's first frame). Returns what ``draw`` returned when it drew (where a face's
    title ends). A stance no table is drawn at (a turn but by quarters, a size out of
    ``_SCALES``) is drawn as it is. ``t``: the painter's transformation (it is left so),
    ``ratio``: its device's pixels to a unit."""
    m11, m12, m21, m22 = t.m11() * ratio, t.m12() * ratio, t.m21() * ratio, t.m22() * ratio
    scale = math.hypot(m11, m12)
    if not (_SCALES[0] <= scale <= _SCALES[1] and (abs(m12) + abs(m21) < 1e-9
                                                  or abs(m11) + abs(m22) < 1e-9)):
        return draw(painter)
    stance = (m11, m12, m21, m22)  # (every card of a table shares the same numbers)
    drawn = _DRAWN.get((key, stance))
    if drawn is None:  # (a copy is drawn before any is set down: the first paint)
        from PySide6.QtGui import QPainter as Painter
        from PySide6.QtGui import QPixmap as Pixmap
        from PySide6.QtGui import QTransform
        global _UNTURNED
        if _UNTURNED is None:
            _UNTURNED = QTransform()
        turn = QTransform(m11, m12, m21, m22, 0.0, 0.0)
        spot = turn.mapRect(area.adjusted(-_MARGIN, -_MARGIN, _MARGIN, _MARGIN))
        size = (math.ceil(spot.width()), math.ceil(spot.height()))
        copy = Pixmap(*size)
        copy.fill(Qt.GlobalColor.transparent)
        p = Painter(copy)
        p.setRenderHint(p.RenderHint.Antialiasing, True)
        p.setWorldTransform(turn * QTransform.fromTranslate(-spot.x(), -spot.y()))
        kept = draw(p)
        p.end()
        copy.setDevicePixelRatio(ratio)
        global _drawn_bytes
        _drawn_bytes += size[0] * size[1] * 4
        if _drawn_bytes > _DRAWN_BYTES:  # (a zoom changes every size: begin again)
            _DRAWN.clear()
            _drawn_bytes = size[0] * size[1] * 4
        drawn = _DRAWN[(key, stance)] = (copy, kept, spot.x(), spot.y())
    copy, kept, x, y = drawn
    # where the copy's corner falls, in the screen's pixels, rounded to a whole one
    x = round(t.dx() * ratio + x) / ratio
    y = round(t.dy() * ratio + y) / ratio
    painter.setWorldTransform(_UNTURNED)
    painter.drawPixmap(QPointF(x, y), copy)
    painter.setWorldTransform(t)
    return kept


_UPRIGHT_RECT = QRectF(-2, -2, CARD_W + 4, CARD_H + 4)
_TURNED_RECT = QRectF(CARD_W / 2 - CARD_H / 2 - 2, CARD_H / 2 - CARD_W / 2 - 2, CARD_H + 4,
                      CARD_W + 4)


class CardItem(QGraphicsObject):
    """One card (or token, or ability) as the viewer may see it.

    ``face`` is a ``Seen`` (name and status) or ``None`` for a card whose face
    this viewer may not see: then the item carries no name, text or tooltip."""

    # what an item starts with, kept by the class until the item sets its own (setting
    # an attribute of a Qt object costs a microsecond or two: a thousand cards at once)
    face: Seen | None = None
    view: Seen | Hidden | None = None  # the view entry
    card: Card | None = None
    _slide: QPropertyAnimation | None = None  # the running slide animation
    zone_key: ZoneKey | None = None
    badge = ""  # e.g. the count of a pile, or the order on the stack
    _press: QPointF | None = None
    _rpress: QPointF | None = None  # a right-button press: an arrow if it moves, else
    # the menu
    _lod = 1.0
    _title_bottom = 0.0
    _rmoved = False
    _menu_at = 0.0
    _origin = QPointF()  # (only ever replaced, never changed in place)
    _turned = False  # drawn turned sideways (tapped): see turn()
    _face_look: tuple[Any, ...] | None = None  # what the face shows (see _looks)
    _marks_look: tuple[Any, ...] | None = None  # and the marks: None, none to draw

    def __init__(self, key: tuple[Any, ...], oid: int, face: Seen | Hidden | None,
                 card: Card | None = None, tapped: bool = False,
                 parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self.key = key
        self.oid = oid
        self.setAcceptHoverEvents(True)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, True)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.set_face(face, card, tapped)

    # ---- what it shows ---------------------------------------------------------
    def set_face(self, face: Seen | Hidden | None, card: Card | None = None,
                 tapped: bool = False) -> None:
        """``face``: the view's entry for this card (a Seen, or a Hidden with only
        public facts), or None for a plain back."""
        if card is None and getattr(self, "view", _UNSET) == face and face is not None:
            return  # nothing it shows has changed: no repaint (a network update redraws all)
        self.view = face
        seen = face if isinstance(face, Seen) else None
        if face is not None and seen is None:
            tapped = face.tapped
        self.face = seen
        self.card = (card or seen.card) if seen is not None else None
        tapped = bool(seen.tapped) if seen is not None else tapped
        face = seen
        self.turn(tapped)
        note = getattr(self.view, "note", "") if self.view is not None else ""
        self._looks(face, note)
        if face is not None and not (face.face_down and self.card is None):
            c = self.card
            tip = face.name if c is None else f"{face.name}\n{c.type_line}"
            if face.pt is not None and not face.face_down:
                tip += f"\n{face.pt[0]}/{face.pt[1]}"
            if face.face_down:
                tip += "\n(face down)"
            if note:
                tip += f"\nNote: {note}"
            self.setToolTip(plain_tooltip(tip))
        else:
            self.setToolTip(plain_tooltip(f"Note: {note}") if note else "")
        self.update()

    def _looks(self, face: Seen | None, note: str) -> None:
        """What the face and the marks show, as the keys of their copies drawn once
        (``_drawn_once``): worked out as the card changes, not at every paint."""
        card = self.card
        self._face_look = None if face is None else (
            face.name, face.printing, None if card is None else (
                card.type_line, card.mana_cost, card.colors, card.types),
            face.pt, face.token)
        v = self.view
        pt = face.pt if face is not None and not face.face_down else None
        if v is None or not (v.counters or pt or note):
            self._marks_look = None
            return
        self._marks_look = (pt, None if pt is None else _pt_colour(card, pt).rgba(),
                            v.counters, bool(note), face is None or face.face_down,
                            card.mana_cost if card is not None else "")

    def turn(self, on: bool) -> None:
        """Draw the card turned a quarter (tapped), about its centre. It is drawn turned
        in paint(), not by rotating the item: Qt keeps a drawn copy of an item for the
        screen only while the item's transformation is a plain scale (a quarter turn at
        any zoom but 1:1 is not), so a rotated card was drawn again at every frame of a
        drag and wherever an arrow crossed it."""
        if on != self._turned:
            self.prepareGeometryChange()
            self._turned = on
            self.update()

    def rotation(self) -> float:
        """How far the card is drawn turned: 90 (tapped) or 0."""
        return 90.0 if self._turned else 0.0

    @property
    def tapped(self) -> bool:
        return bool(self.view is not None and self.view.tapped)

    def text_items(self) -> list[str]:
        """Every string this item could show (for hidden-information tests)."""
        out = [self.toolTip(), self.badge, getattr(self.view, "note", "")]
        if self.face is not None:
            out.append(self.face.name)
            if self.card is not None:
                out += [self.card.type_line, self.card.mana_cost]
        return [s for s in out if s]

    def boundingRect(self) -> QRectF:
        # (the same two rectangles every time, not copies: Qt copies what it is given,
        # and asks nine times a card as a table opens; nothing here changes them)
        return _TURNED_RECT if self._turned else _UPRIGHT_RECT

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setRenderHint(painter.RenderHint.Antialiasing, True)
        upright = turned = painter.worldTransform()
        device = painter.device()
        ratio = device.devicePixelRatioF() if device is not None else 1.0
        if self._turned:
            painter.translate(CARD_W / 2, CARD_H / 2)
            painter.rotate(90)
            painter.translate(-CARD_W / 2, -CARD_H / 2)
            turned = painter.worldTransform()
        rect = QRectF(0, 0, CARD_W, CARD_H)
        # how large the scene is drawn: the words grow as it shrinks (see _font)
        self._lod = QStyleOptionGraphicsItem.levelOfDetailFromTransform(upright)
        self._title_bottom = rect.y() + 29
        selected = self.isSelected()
        face = self.face
        if face is None or face.face_down:  # face down: its back, named for who may know
            def back(p: QPainter) -> float:
                self._paint_back(p, rect)
                return 0.0
            # (drawn once for every back that looks the same: a hand, a library)
            _drawn_once(painter, ("back", None if face is None else face.name), rect, back,
                        turned, ratio)
        else:
            self._paint_drawn_face(painter, rect, face, turned, ratio)
        if self._marks_look is not None:
            self._paint_marks(painter, rect, upright, ratio)
            if self._turned:
                painter.setWorldTransform(turned)
        if selected:
            painter.setPen(QPen(QColor("#ffd54a"), 3))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(rect.adjusted(-1, -1, 1, 1), 7, 7)
        if self.badge:
            self._paint_badge(painter, rect)

    def _paint_drawn_face(self, painter: QPainter, rect: QRectF, face: Seen, t: QTransform,
                          ratio: float) -> None:
        """The face as ``_paint_face`` draws it, from a copy drawn once for every card
        that looks the same at this size (forty Forests, two hundred Soldier tokens):
        drawn for the screen's pixels, then set down on them one to one."""
        pix = picture(face.name, face.printing)
        key = (self._face_look, 0 if pix is None else pix.cacheKey(), round(self._lod, 4))
        def draw(p: QPainter) -> float:
            self._paint_face(p, rect, face)
            return self._title_bottom
        self._title_bottom = _drawn_once(painter, key, rect, draw, t, ratio)

    def _paint_back(self, painter: QPainter, rect: QRectF) -> None:
        grad = QLinearGradient(rect.topLeft(), rect.bottomRight())
        grad.setColorAt(0, BACK.lighter(130))
        grad.setColorAt(1, BACK.darker(140))
        painter.setPen(QPen(QColor("#10172e"), 1.5))
        painter.setBrush(QBrush(grad))
        painter.drawRoundedRect(rect, 6, 6)
        painter.setPen(QPen(QColor(255, 255, 255, 70), 2))
        painter.drawEllipse(rect.center(), CARD_W * 0.3, CARD_H * 0.22)
        painter.setPen(QColor(255, 255, 255, 160))
        f = QFont()
        f.setPointSizeF(7)
        f.setBold(True)
        painter.setFont(f)
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, "TABLETOP")
        if self.face is not None and self.face.face_down:  # a face-down card its viewer may see
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(0, 0, 0, 120))
            painter.drawRoundedRect(QRectF(rect.x() + 4, rect.y() + 4, rect.width() - 8, 30), 4, 4)
            painter.setPen(TEXT_LIGHT)
            f.setPointSizeF(6.5)
            painter.setFont(f)
            painter.drawText(QRectF(rect.x() + 6, rect.y() + 5, rect.width() - 12, 28),
                             Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap, self.face.name)
            f.setBold(False)
            f.setPointSizeF(5.5)
            painter.setFont(f)
            painter.drawText(rect.adjusted(4, 0, -4, -6), Qt.AlignmentFlag.AlignBottom | Qt.AlignmentFlag.AlignHCenter,
                             "face down")

    def _paint_face(self, painter: QPainter, rect: QRectF, face: Seen) -> None:
        pix = picture(face.name, face.printing)
        if pix is not None:
            self._paint_picture(painter, rect, face, pix)
            return
        card = self.card
        lod = self._lod
        frame = frame_color(card)
        painter.setPen(QPen(frame.darker(170), 1.5))
        painter.setBrush(frame)
        painter.drawRoundedRect(rect, 6, 6)
        inner = rect.adjusted(5, 5, -5, -5)
        light = frame.lightness() > 150
        box = QColor(255, 255, 255, 215) if not light else QColor(255, 255, 255, 235)
        fl = face_layout(face.name, card.type_line if card else "", inner, lod)
        f, names, line, title = fl.name_font, fl.names, fl.line, fl.title
        f3, types, type_box = fl.type_font, fl.types, fl.type_box
        self._title_bottom = title.bottom()
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(box)
        painter.drawRoundedRect(title, 3, 3)
        painter.drawRoundedRect(type_box, 3, 3)
        art = QRectF(inner.x() + 2, title.bottom() + 3, inner.width() - 4,
                     type_box.top() - title.bottom() - 6)
        if art.height() >= 6:
            painter.setBrush(QColor(0, 0, 0, 40))
            painter.drawRect(art)
        painter.setPen(TEXT_DARK)
        painter.setFont(f)
        for i, text in enumerate(names):
            painter.drawText(QRectF(title.x() + 2, title.y() + 2 + i * line, title.width() - 4,
                                    line), Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, text)
        cost = (card.mana_cost if card else "").replace("{", "").replace("}", "")
        f2 = _font(COST_PX, MIN_SMALL_PX, lod, bold=True)
        cost_h = QFontMetrics(f2).height() + 2
        w = QFontMetrics(f2).horizontalAdvance(cost) + 8 if cost else 0.0
        if cost and art.height() < cost_h and face.pt is not None:  # the bottom row: only
            ptf = _font(8 / 0.75, MIN_SMALL_PX + 1, lod, bold=True)  # beside power/toughness
            pt_w = max(32.0, QFontMetrics(ptf).horizontalAdvance(f"{face.pt[0]}/{face.pt[1]}")
                       + 10)
            if w + 3 > inner.width() - pt_w:
                cost = ""  # no room: the hover preview and the inspector show it
        if cost:  # in the art box; where it has no room, at the bottom left
            painter.setFont(f2)
            pill = QRectF(inner.right() - w, art.y() + 1, w, cost_h) \
                if art.height() >= cost_h else QRectF(inner.x(), inner.bottom() - cost_h, w,
                                                      cost_h)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(255, 255, 255, 225))
            painter.drawRoundedRect(pill, cost_h / 2, cost_h / 2)
            painter.setPen(TEXT_DARK)
            painter.drawText(pill, Qt.AlignmentFlag.AlignCenter, cost)
        painter.setFont(f3)
        painter.setPen(TEXT_DARK)
        th = type_box.height() / len(types)
        for i, text in enumerate(types):
            painter.drawText(QRectF(type_box.x() + 2, type_box.y() + i * th,
                                    type_box.width() - 4, th),
                             Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, text)
        if face.token:
            ft = _font(7 / 0.75, MIN_SMALL_PX, lod, bold=True)
            tag_h = QFontMetrics(ft).height()
            tag = QRectF(inner.x() + 4, art.y() + 1, QFontMetrics(ft).horizontalAdvance("TOKEN")
                         + 8, tag_h)
            if art.height() < tag_h:  # no room for the art: over the type line's corner
                tag.moveTop(type_box.top() - tag_h / 2)
            _token_tag(painter, tag, ft)

    def _paint_picture(self, painter: QPainter, rect: QRectF, face: Seen, pix: QPixmap) -> None:
        """The card's picture, with its name in a strip across the top, large enough
        to read at the table's size."""
        draw_picture(painter, rect, pix, 6)
        painter.setPen(QPen(QColor(0, 0, 0, 170), 1.2))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(rect, 6, 6)
        f, names = _narrowed(_wrap, face.name, _font(NAME_PX, MIN_NAME_PX, self._lod, bold=True),
                             rect.width() - 10, 2)
        line = QFontMetrics(f).height()
        strip = QRectF(rect.x() + 3, rect.y() + 3, rect.width() - 6,
                       max(21.0, line * len(names) + 4))
        self._title_bottom = strip.bottom()
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(255, 255, 255, 215))
        painter.drawRoundedRect(strip, 3, 3)
        painter.setPen(TEXT_DARK)
        painter.setFont(f)
        for i, text in enumerate(names):
            painter.drawText(QRectF(strip.x() + 2, strip.y() + 2 + i * line, strip.width() - 4,
                                    line), Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, text)
        if face.token:
            ft = _font(7 / 0.75, MIN_SMALL_PX, self._lod, bold=True)
            m = QFontMetrics(ft)
            _token_tag(painter, QRectF(rect.x() + 6, strip.bottom() + 3,
                                       m.horizontalAdvance("TOKEN") + 8, m.height()), ft)

    def _paint_marks(self, painter: QPainter, rect: QRectF, upright: QTransform,
                     ratio: float) -> None:
        """Power/toughness as modified, counters and the note marker (``_marks_look``):
        drawn upright even on a tapped card, so they read the same from the player's
        chair. ``upright``: the item's transformation before the card was turned."""
        look = self._marks_look
        assert look is not None
        area = rect
        if self._turned:  # the card is drawn turned about its centre: the marks are not
            painter.setWorldTransform(upright)
            c = rect.center()
            area = QRectF(c.x() - CARD_H / 2, c.y() - CARD_W / 2, CARD_H, CARD_W)
        # drawn once for every card whose marks look the same at this size (two hundred
        # 1/1 tokens), as the faces are (_paint_drawn_face), then set down one to one
        key = ("marks", look, self._turned, round(self._title_bottom, 4),
               round(self._lod, 4))
        def draw(p: QPainter) -> float:
            self._draw_marks(p, area, look[0], look[3])
            return self._title_bottom
        _drawn_once(painter, key, area, draw, upright, ratio)

    def _draw_marks(self, painter: QPainter, area: QRectF, pt: tuple[str, str] | None,
                    note: bool) -> None:
        """The marks of ``_paint_marks``, drawn in ``area`` (the card upright)."""
        v = self.view
        assert v is not None
        face = self.face
        inner = area.adjusted(5, 5, -5, -5)
        f = QFont()
        f.setBold(True)
        right = inner.right()
        lod = getattr(self, "_lod", 1.0)
        if pt is not None:
            f = _font(8 / 0.75, MIN_SMALL_PX + 1, lod, bold=True)
            painter.setFont(f)
            text = f"{pt[0]}/{pt[1]}"
            bh = max(18.0, QFontMetrics(f).height() + 2)
            w = max(32.0, QFontMetrics(f).horizontalAdvance(text) + 10)
            box = QRectF(inner.right() - w, inner.bottom() - bh, w, bh)
            painter.setPen(QPen(QColor("#222"), 1))
            painter.setBrush(_pt_colour(self.card, pt))
            painter.drawRoundedRect(box, 4, 4)
            painter.setPen(TEXT_DARK)
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
            right = box.left() - 3
        f = _font(6.8 / 0.75, MIN_SMALL_PX, lod, bold=True)
        painter.setFont(f)
        metrics = QFontMetrics(f)
        ch = max(15.0, metrics.height() + 1)  # a counter's chip
        x, y = inner.x(), inner.bottom() - ch - 1
        down = not self._turned and face is not None and not face.face_down
        if down:  # over the art box, leaving the name and type line readable
            cost = self.card.mana_cost if self.card is not None else ""
            y, step = self._title_bottom + 2, ch + 2
            right = inner.right() - (len(cost.replace("{", "").replace("}", "")) * 6 + 12
                                     if cost else 0)
        else:  # from the bottom up; power/toughness has the bottom row to itself
            step = -(ch + 2)
            if pt is not None:
                y, right = inner.bottom() - 20 - ch - 2, inner.right()
        for kind, n in v.counters:
            label = f"{kind} ×{n}" if n > 1 else kind
            w = min(inner.width(), metrics.horizontalAdvance(label) + 10)
            if x + w > right + 0.5 and x > inner.x():
                x, y, right = inner.x(), y + step, inner.right()
            r = QRectF(x, y, w, ch)
            painter.setPen(QPen(QColor("#222"), 1))
            painter.setBrush(QColor("#ffe08a"))
            painter.drawRoundedRect(r, ch / 2, ch / 2)
            painter.setPen(TEXT_DARK)
            painter.drawText(r, Qt.AlignmentFlag.AlignCenter, metrics.elidedText(label, Qt.TextElideMode.ElideRight,
                                                                   int(w - 6)))
            x += w + 2
        if note:
            r = QRectF(inner.right() - 18, inner.y() + 20, 18, 16)
            painter.setPen(QPen(QColor("#222"), 1))
            painter.setBrush(QColor("#fff7c2"))
            painter.drawRoundedRect(r, 3, 3)
            painter.setPen(TEXT_DARK)
            painter.drawText(r, Qt.AlignmentFlag.AlignCenter, "✎")

    def badge_place(self, rect: QRectF | None = None) -> tuple[QFont, QRectF]:
        """The badge's font and its place on the card (``rect``: the card upright). A
        token stack's count goes bottom left; a pile's count or a spell's place on the
        stack at the right, under the name of a face-up card (the name stays whole),
        in the top right corner of a card's back."""
        rect = QRectF(0, 0, CARD_W, CARD_H) if rect is None else rect
        f = _font(7 / 0.75, MIN_SMALL_PX + 1, getattr(self, "_lod", 1.0), bold=True)
        m = QFontMetrics(f)
        w = max(30.0, m.horizontalAdvance(self.badge) + 10)
        h = max(18.0, m.height() + 2)
        if self.badge.startswith("×"):
            return f, QRectF(rect.left() + 3, rect.bottom() - 3 - h, w, h)
        if self.face is not None and not self.face.face_down:
            return f, QRectF(rect.right() + 2 - w, self._title_bottom + 1, w, h)
        return f, QRectF(rect.right() + 2 - w, rect.top() - 2, w, h)

    def _paint_badge(self, painter: QPainter, rect: QRectF) -> None:
        f, r = self.badge_place(rect)
        painter.setPen(QPen(QColor("#111"), 1))
        painter.setBrush(QColor("#fafafa"))
        painter.drawRoundedRect(r, r.height() / 2, r.height() / 2)
        painter.setFont(f)
        painter.setPen(TEXT_DARK)
        painter.drawText(r, Qt.AlignmentFlag.AlignCenter, self.badge)

    # ---- gestures ----------------------------------------------------------------
    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if event.button() == Qt.MouseButton.RightButton:  # a right-drag draws an arrow; a click, the menu
            self._rpress = event.scenePos()
            self._rmoved = False
            event.accept()
            return
        if event.button() == Qt.MouseButton.LeftButton:
            scene = _host(self) if self.scene() is not None else None
            if event.modifiers() & Qt.KeyboardModifier.ControlModifier:  # add to or take from the selection
                self.setSelected(not self.isSelected())
                self._press = None
                event.accept()
                return
            self.stop_sliding()
            self._press = event.scenePos()
            group = scene is not None and self.isSelected() and len(scene.selected_cards()) > 1
            if not group:  # a press on a card of a selection keeps it: a group drag
                if scene is not None:
                    scene.clearSelection()
                self.setSelected(True)
            if scene is not None:
                scene.card_pressed(self)
            event.accept()
        else:
            super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self._rpress is not None:
            if (event.scenePos() - self._rpress).manhattanLength() > 6:
                self._rmoved = True
            if self._rmoved:
                _host(self).arrow_drag(self, event.scenePos())
            return
        if self._press is None:
            return
        delta = event.scenePos() - self._press
        scene = _host(self)
        for item in scene.dragged_with(self):
            item.setPos(item._origin + delta)
        scene.drag_moved(self, event.scenePos())

    def cancel_drag(self) -> bool:
        """Escape during a drag: forget it (the scene puts the card back)."""
        if self._press is None:
            return False
        self._press = None
        self.ungrabMouse()
        return True

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if event.button() == Qt.MouseButton.RightButton and self._rpress is not None:
            moved, self._rpress = self._rmoved, None
            self._menu_at = time.monotonic()
            scene = _host(self)
            if moved:
                scene.arrow_dropped(self, event.scenePos())
            else:
                self._open_menu(event.screenPos())
            return
        if self._press is None:  # the end of a double click, or a cancelled drag
            if self.scene() is not None and self.scene().mouseGrabberItem() is self:
                self.ungrabMouse()  # else the next press, anywhere, would come here
            return
        moved = (event.scenePos() - self._press).manhattanLength() > 6
        self._press = None
        _host(self).dropped(self, event.scenePos(), event.modifiers(), moved)

    def mouseDoubleClickEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        self._press = None  # a double click is not the start of a drag
        event.accept()
        scene = _host(self)
        if scene.mouseGrabberItem() is self:
            self.ungrabMouse()
        scene.card_double_clicked(self)

    def contextMenuEvent(self, event: QGraphicsSceneContextMenuEvent) -> None:
        # a scene's context-menu event has reasons of its own type: the QtGui one's never
        # equal them (so X11's event on the right button's press opened the menu)
        from PySide6.QtWidgets import QGraphicsSceneContextMenuEvent
        if event.reason() == QGraphicsSceneContextMenuEvent.Reason.Mouse and (
                self._rpress is not None or time.monotonic() - self._menu_at < 0.5):
            event.accept()  # the right button's press and release handle it (arrows)
            return
        self._open_menu(event.screenPos())

    def _open_menu(self, screen_pos: QPoint) -> None:
        scene = _host(self)
        if not self.isSelected():  # the menu acts on this card: show it selected
            scene.clearSelection()
            self.setSelected(True)
            scene.card_pressed(self)
            scene._end_drag()
        scene.card_menu(self, screen_pos)

    def hoverEnterEvent(self, event: QGraphicsSceneHoverEvent) -> None:
        _host(self).hover(self, True)

    def hoverLeaveEvent(self, event: QGraphicsSceneHoverEvent) -> None:
        _host(self).hover(self, False)

    # ---- animation ---------------------------------------------------------------
    def stop_sliding(self) -> None:
        """Stop a slide still running, so it cannot carry the card off after a new
        position was set (rapid drags)."""
        if self._slide is not None:
            self._slide.stop()

    def slide_to(self, pos: QPointF, ms: int = 220) -> QPropertyAnimation:
        if self._slide is None:  # one animation per card, reused
            from PySide6.QtCore import QEasingCurve, QPropertyAnimation
            self._slide = QPropertyAnimation(self, b"pos", self)
            self._slide.setEasingCurve(QEasingCurve.Type.OutCubic)
        anim = self._slide
        anim.stop()
        anim.setDuration(ms)
        anim.setStartValue(self.pos())
        anim.setEndValue(pos)
        anim.start()
        return anim


ARROW_COLOURS = ("#e8463a", "#3aa0e8", "#f0b429", "#9b59b6", "#2ecc71", "#ecf0f1")


class ArrowItem(QGraphicsItem):
    """An arrow from a card to a card or a player: a curve with a head."""

    def __init__(self, start: QPointF, end: QPointF, colour: str,
                 parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self.colour = QColor(colour)
        self.set_ends(start, end)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(4000)
        # drawn once and kept while its ends stay (a long curve stroked twice,
        # antialiased, was a third of a frame that moved other cards past it)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def set_ends(self, start: QPointF, end: QPointF) -> None:
        self.prepareGeometryChange()
        self.start, self.end = QPointF(start), QPointF(end)
        d = self.end - self.start
        bend = QPointF(-d.y(), d.x()) * 0.15
        self.ctrl = (self.start + self.end) / 2 + bend
        path = QPainterPath(self.start)
        path.quadTo(self.ctrl, self.end)
        self.path = path

    def boundingRect(self) -> QRectF:
        return self.path.boundingRect().adjusted(-16, -16, 16, 16)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setRenderHint(painter.RenderHint.Antialiasing, True)
        shadow = QPen(QColor(0, 0, 0, 110), 8, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
        painter.setPen(shadow)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(self.path)
        painter.setPen(QPen(self.colour, 5, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        painter.drawPath(self.path)
        # the head points along the curve's last stretch
        d = self.end - self.ctrl
        angle = math.atan2(d.y(), d.x())
        head = QPainterPath(self.end)
        for a in (angle + 2.7, angle - 2.7):
            head.lineTo(self.end + QPointF(math.cos(a), math.sin(a)) * 18)
        head.closeSubpath()
        painter.setPen(QPen(QColor(0, 0, 0, 140), 1.5))
        painter.setBrush(self.colour)
        painter.drawPath(head)


class ZoneItem(QGraphicsObject):
    """A zone's area: its name in the edition's words, its count, and a highlight."""

    def __init__(self, spot: ZoneSpot, key: ZoneKey, title: str,
                 parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self.spot = spot
        self.key = key
        self.title = title
        self.count = 0
        self.state: str | None = None  # "accept", "refuse", "unknown" (a card the viewer
        # can't see)
        self.captions: list[tuple[float, str]] = []
        self.effects: list[str] = []  # replacement effects watching this zone, in words
        self._marker: EffectMarker | None = None  # (x, text) labels of groups inside the zone (exile piles)
        self._flash = 0.0
        self.setZValue(-10)
        self.setPos(spot.rect.x, spot.rect.y)
        self.setAcceptedMouseButtons(Qt.MouseButton.RightButton)
        # a panel's rounded, translucent fill is slow to draw at the size of a crowded
        # battlefield (10 ms for a table's panels): drawn once, until it changes
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def boundingRect(self) -> QRectF:
        r = self.spot.rect
        return QRectF(0, 0, r.w, r.h)

    def set_state(self, state: str | None) -> None:
        if state != self.state:
            self.state = state
            self.update()

    def set_title(self, title: str) -> None:
        if title != self.title:
            self.title = title
            self.update()

    def set_captions(self, captions: list[tuple[float, str]]) -> None:
        if captions != self.captions:
            self.captions = captions
            self.update()

    def set_effects(self, effects: list[str]) -> None:
        """The replacement effects watching this zone, in words: drawn as markers at its
        bottom right, above the cards (they stretch left over the table when long)."""
        if effects == self.effects:
            return
        self.effects = effects
        self.setToolTip(plain_tooltip("In force here:\n" + "\n".join(effects))
                        if effects else "")
        scene = self.scene()
        if self._marker is not None and scene is not None:
            scene.removeItem(self._marker)
        self._marker = None
        if effects and scene is not None:
            r = self.spot.rect
            self._marker = EffectMarker(effects, QPointF(r.x + r.w - 4, r.y + r.h - 4))
            scene.addItem(self._marker)

    def set_count(self, n: int) -> None:
        if n != self.count:
            self.count = n
            self.update()

    def _get_flash(self) -> float:
        return self._flash

    def _set_flash(self, v: float) -> None:
        self._flash = v
        self.update()

    flash_level = Property(float, _get_flash, _set_flash)

    def flash(self) -> None:
        from PySide6.QtCore import QPropertyAnimation
        anim = QPropertyAnimation(self, b"flash_level", self)
        anim.setDuration(900)
        anim.setKeyValueAt(0, 0.0)
        anim.setKeyValueAt(0.25, 1.0)
        anim.setKeyValueAt(1, 0.0)
        anim.start(QPropertyAnimation.DeletionPolicy.DeleteWhenStopped)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setRenderHint(painter.RenderHint.Antialiasing, True)
        rect = self.boundingRect().adjusted(1, 1, -1, -1)
        path = QPainterPath()
        path.addRoundedRect(rect, 10, 10)
        base = QColor(255, 255, 255, 22)
        border = QColor(255, 255, 255, 60)
        if self.state == "accept":
            base, border = QColor(80, 220, 120, 70), QColor(80, 230, 120)
        elif self.state == "refuse":
            base, border = QColor(230, 70, 70, 70), QColor(240, 80, 80)
        elif self.state == "unknown":  # neither yes nor no: that would tell what the card is
            base, border = QColor(255, 255, 255, 45), QColor(200, 215, 255)
        painter.fillPath(path, base)
        if self._flash > 0:
            painter.fillPath(path, QColor(255, 214, 90, int(150 * self._flash)))
        painter.setPen(QPen(border, 2 if self.state else 1))
        painter.drawPath(path)
        # the title grows as the table is drawn smaller (a small screen), so it reads
        # there too, up to the size that still ends above the cards (the zone's top 20
        # scene pixels are the title's: cards are drawn over the zone)
        lod = _lod(painter)
        f = _font(8 / 0.75, MIN_SMALL_PX, lod, bold=True)
        if f.pixelSize() > TITLE_MOST_PX:
            f.setPixelSize(TITLE_MOST_PX)
        painter.setPen(QColor(255, 255, 255, 190))
        r = rect.adjusted(8, 0 if f.pixelSize() > 12 else 2, -8, 0)
        f, title = counted(self.title, self.count, f, r.width(),
                           self.key[1] in (Zone.HAND, Zone.BATTLEFIELD))
        painter.setFont(f)
        painter.drawText(r, Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft, title)
        f = _font(7 / 0.75, MIN_SMALL_PX - 1, lod)
        painter.setFont(f)
        for x, text in self.captions:
            painter.drawText(QRectF(x, 16, 140, 14), _LEFT_DONT_CLIP,
                             QFontMetrics(f).elidedText(text, Qt.TextElideMode.ElideRight, 140))

    def contextMenuEvent(self, event: QGraphicsSceneContextMenuEvent) -> None:
        _host(self).zone_menu(self, event.screenPos())


class EffectMarker(QGraphicsItem):
    """The replacement effects watching a zone, as amber pills whose bottom right corner
    is ``corner`` (a zone's bottom right), one a line, above the cards; hover says all.
    Their words grow as the table is drawn smaller (a small screen) so they still read;
    the size is settled after a paint at a new scale, on the event loop's next turn."""

    PX = 15.0  # scene pixels: about 9 on the screen of a table fitted to 1280x800
    LEAST = 10.0  # pixels on the screen

    def __init__(self, lines: list[str], corner: QPointF) -> None:
        super().__init__()
        self.lines = lines
        self.corner = corner
        self._refit_pending = False
        self.setZValue(3500)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setToolTip(plain_tooltip("In force here:\n" + "\n".join(lines)))
        self._fit(self.PX)

    def _fit(self, px: float) -> None:
        self.prepareGeometryChange()
        f = QFont()
        f.setPixelSize(max(1, math.ceil(px - 1e-6)))
        f.setBold(True)
        self.font = f
        m = QFontMetrics(f)
        self.line_h = m.height() + 4
        self.width = min(420.0 * px / self.PX, max(m.horizontalAdvance(x) for x in self.lines) + 18.0)
        self.setPos(self.corner.x() - self.width, self.corner.y() - self.line_h * len(self.lines))

    def _refit(self, px: float) -> None:
        self._refit_pending = False
        try:
            if self.scene() is not None:
                self._fit(px)
        except RuntimeError:  # (the table was drawn again meanwhile: the item is gone)
            pass

    def boundingRect(self) -> QRectF:
        return QRectF(0, 0, self.width, self.line_h * len(self.lines))

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        px = max(self.PX, self.LEAST / max(_lod(painter), 0.05))
        if abs(math.ceil(px - 1e-6) - self.font.pixelSize()) >= 1 and not self._refit_pending:
            from PySide6.QtCore import QTimer
            self._refit_pending = True  # (a size is not changed while being painted)
            QTimer.singleShot(0, lambda: self._refit(px))
        painter.setRenderHint(painter.RenderHint.Antialiasing, True)
        painter.setFont(self.font)
        m = QFontMetrics(self.font)
        for i, text in enumerate(self.lines):
            w = min(self.width, m.horizontalAdvance(text) + 18.0)
            pill = QRectF(self.width - w, i * self.line_h + 1, w, self.line_h - 2)
            painter.setPen(QPen(QColor("#6b4e00"), 1))
            painter.setBrush(QColor(255, 214, 90, 235))
            painter.drawRoundedRect(pill, 5, 5)
            painter.setPen(TEXT_DARK)
            painter.drawText(pill.adjusted(6, 0, -6, 0),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                             m.elidedText(text, Qt.TextElideMode.ElideRight, int(w - 10)))


class PlayerItem(QGraphicsObject):
    """A seat's player panel: name, life with − and + (and the mouse wheel), the player's
    counters (poison, commander damage...) each with − and +, and "Add a counter".
    It draws a ``PlayerSeen`` (public facts) and reports clicks to the scene."""

    ROW = 42  # a counter: its kind on one line, its count and − + below
    # the lines' spacing grows with their words on a table drawn small (a small screen):
    # at about this scale and below the words are larger than the scene's own (see paint)
    FULL_LOD = 0.62
    _grow = 1.0

    def __init__(self, spot: ZoneSpot, seen: PlayerSeen,
                 parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self.spot = spot
        self.player = str(spot.key[0])
        self.seen = seen
        self.enabled = True  # this viewpoint may change this player's life and counters
        self.setZValue(-5)
        self.setPos(spot.rect.x, spot.rect.y)
        self.setAcceptHoverEvents(True)
        # its rounded, translucent panel and a dozen lines of words take a millisecond
        # to draw: drawn once, until it changes (a card dragged over it is not a change)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setAcceptedMouseButtons(Qt.MouseButton.LeftButton | Qt.MouseButton.RightButton)

    def set_seen(self, seen: PlayerSeen, enabled: bool) -> None:
        if seen != self.seen or enabled != self.enabled:
            self.seen, self.enabled = seen, enabled
            self.update()
        tip = f"{seen.name}: {seen.life} life"
        for kind, n in seen.counters:
            tip += f"\n{kind}: {n}"
        self.setToolTip(plain_tooltip(tip + "\nClick − or +, or turn the mouse wheel over "
                                            "the life total; right-click for more."))

    def boundingRect(self) -> QRectF:
        r = self.spot.rect
        return QRectF(0, 0, r.w, r.h)

    # ---- geometry: paint and clicks use the same rectangles ------------------------
    def life_rect(self) -> QRectF:
        g = self._grow
        return QRectF(0, 44 * g, self.spot.rect.w, 56 * g)

    def regions(self) -> list[tuple[QRectF, Region]]:
        """(rectangle, what a click there does) in item coordinates."""
        w = self.spot.rect.w
        g = self._grow
        out: list[tuple[QRectF, Region]] = [(QRectF(6, 73 * g - 15, 30, 30), ("life", -1)),
                                            (QRectF(w - 36, 73 * g - 15, 30, 30), ("life", 1))]
        y = self._counters_top()
        for kind, _n in self.seen.counters:
            out.append((QRectF(w - 58, y + 18 * g, 24, 22 * g), ("counter", kind, -1)))
            out.append((QRectF(w - 30, y + 18 * g, 24, 22 * g), ("counter", kind, 1)))
            y += self.ROW * g
        out.append((QRectF(6, y + 6 * g, w - 12, 24 * g), ("add",)))
        return out

    def _counters_top(self) -> float:
        return 142.0 * self._grow

    def region_at(self, pos: QPointF) -> Region | None:
        for rect, what in self.regions():
            if rect.contains(pos):
                return what
        return None

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setRenderHint(painter.RenderHint.Antialiasing, True)
        s = self.seen
        rect = self.boundingRect().adjusted(1, 1, -1, -1)
        path = QPainterPath()
        path.addRoundedRect(rect, 10, 10)
        painter.fillPath(path, QColor(0, 0, 0, 60) if not s.active else QColor(255, 214, 90, 40))
        painter.setPen(QPen(QColor("#ffd54a") if s.active else QColor(255, 255, 255, 60),
                            2 if s.active else 1))
        painter.drawPath(path)
        w = rect.width()
        # each line grows as the table is drawn smaller (a small screen), so it reads
        # there too; a line too long for the panel then says less
        lod = _lod(painter)
        # (no more than the panel holds with its counters and "+ counter…" below them)
        holds = (self.spot.rect.h - 4) / (172 + self.ROW * len(s.counters))
        g = self._grow = max(1.0, min(1.6, holds, self.FULL_LOD / max(lod, 0.05)))
        f = _font(10 / 0.75, 10, lod, bold=True)
        painter.setFont(f)
        painter.setPen(TEXT_LIGHT)
        painter.drawText(QRectF(8, 6 * g, w - 14, 20), _LEFT_DONT_CLIP,
                         QFontMetrics(f).elidedText(s.name, Qt.TextElideMode.ElideRight, int(w - 14)))
        f = _font(8 / 0.75, MIN_SMALL_PX - 1, lod)
        painter.setPen(QColor("#ffd54a"))
        if s.active:
            ff, text = _first_fitting(["active player", "active"], f, w - 14)
            painter.setFont(ff)
            painter.drawText(QRectF(8, 26 * g, w - 14, 16), _LEFT_DONT_CLIP, text)
        # life: − big number +
        big = _font(24 / 0.75, 15, lod, bold=True)
        painter.setFont(big)
        painter.setPen(TEXT_LIGHT if s.life > 0 else QColor("#ff8a80"))
        painter.drawText(QRectF(36, 50 * g, w - 72, 44 * g), _CENTRE_DONT_CLIP, str(s.life))
        painter.setFont(f)
        painter.setPen(QColor(255, 255, 255, 170))
        painter.drawText(QRectF(0, 96 * g, w, 14), _CENTRE_DONT_CLIP, "life")
        for rect_, what in self.regions()[:2]:
            self._button(painter, rect_, "−" if what[1] < 0 else "+", 14 / 0.75, 12, lod)
        painter.setPen(QColor(255, 255, 255, 190))
        f, text = _first_fitting([f"hand {s.hand} · library {s.library}",
                                  f"hand {s.hand} · lib. {s.library}",
                                  f"hand {s.hand}"], _font(8 / 0.75, MIN_SMALL_PX, lod), w - 14)
        painter.setFont(f)
        painter.drawText(QRectF(8, 114 * g, w - 14, 16), _LEFT_DONT_CLIP, text)
        painter.setPen(QPen(QColor(255, 255, 255, 50), 1))
        painter.drawLine(QPointF(8, 134 * g), QPointF(w - 6, 134 * g))
        y = self._counters_top()
        label_font = _font(8 / 0.75, MIN_SMALL_PX - 1, lod)
        count_font = _font(13 / 0.75, 11, lod, bold=True)
        for kind, n in s.counters:
            painter.setFont(label_font)
            painter.setPen(QColor("#ffe08a") if kind == "poison" else TEXT_LIGHT)
            label = kind
            if kind.startswith("commander damage from "):  # the tooltip says it whole
                label = "commander: " + kind[len("commander damage from "):]
            painter.drawText(QRectF(8, y, w - 12, 16), _LEFT_DONT_CLIP,
                             QFontMetrics(label_font).elidedText(label, Qt.TextElideMode.ElideRight,
                                                                 int(w - 12)))
            painter.setFont(count_font)
            painter.drawText(QRectF(8, y + 16 * g, w - 70, 26 * g), _LEFT_DONT_CLIP, str(n))
            y += self.ROW * g
        for rect_, what in self.regions()[2:]:
            if what[0] == "counter":
                self._button(painter, rect_, "−" if what[2] < 0 else "+", 10 / 0.75, 10, lod)
            else:
                self._button(painter, rect_, "+ counter…", 9 / 0.75, MIN_SMALL_PX - 1, lod,
                             pill=True)

    def _button(self, painter: QPainter, rect: QRectF, text: str, px: float,
                least_on_screen: float, lod: float, pill: bool = False) -> None:
        painter.setPen(QPen(QColor(255, 255, 255, 120 if self.enabled else 50), 1))
        painter.setBrush(QColor(255, 255, 255, 40 if self.enabled else 12))
        if pill:
            painter.drawRoundedRect(rect, 8, 8)
        else:
            painter.drawEllipse(rect)
        f, text = _first_fitting([text], _font(px, least_on_screen, lod, bold=True),
                                 rect.width() - 4)
        painter.setFont(f)
        painter.setPen(QColor(255, 255, 255, 230 if self.enabled else 90))
        painter.drawText(rect, _CENTRE_DONT_CLIP, text)

    # ---- gestures ----------------------------------------------------------------
    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        what = self.region_at(event.pos())
        if event.button() == Qt.MouseButton.LeftButton and what is not None:
            event.accept()
            _host(self).player_clicked(self, what, event.screenPos())
            return
        if event.button() == Qt.MouseButton.LeftButton:
            event.accept()  # a click on the panel itself does nothing
            return
        super().mousePressEvent(event)

    def wheelEvent(self, event: QGraphicsSceneWheelEvent) -> None:
        if not self.life_rect().contains(event.pos()):
            event.ignore()
            return
        event.accept()
        _host(self).player_clicked(self, ("life", 1 if event.delta() > 0 else -1), None)

    def contextMenuEvent(self, event: QGraphicsSceneContextMenuEvent) -> None:
        _host(self).player_menu(self, event.screenPos())
