"""The hover preview: the whole card, large and at a fixed size on screen whatever the
table's zoom: name, cost, type line, the oracle text (from the card database when the
user has imported card data), power/toughness as modified, counters by kind, the note.

It draws only what the viewer's view entry says (a ``Seen``); a hidden card has none."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPen, QPixmap, QTextOption
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsObject,
    QGraphicsView,
    QStyleOptionGraphicsItem,
    QWidget,
)

from tabletop.engine.views import Seen
from tabletop.ui.items import TEXT_DARK, _pt_colour, draw_picture, frame_color, picture

W, H = 270.0, 378.0  # pixels on screen
SIDE = 250.0  # the text beside a picture
NO_TEXT = ("No card text here: File › Get card data (download)… brings every card's "
           "text, or File › Import card data… reads it from a file.")


def oracle_text(name: str) -> str | None:
    """The card's text from the user's card database, or None."""
    from tabletop.cards.db import default
    from tabletop.engine.errors import TabletopError
    try:
        return default().text(name)
    except TabletopError:  # a damaged or locked database: the preview goes without
        return None


class CardPreview(QGraphicsObject):
    def __init__(self, face: Seen, parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self.face = face
        self.card = face.card
        self.text = oracle_text(face.name) if face.card is not None else None
        self.pix = picture(face.name, face.printing) if not face.face_down else None
        # a picture has the card's words beside it: its text, counters and note
        self.side = self.pix is not None and bool(self.text or _marks(face))
        self.width = W + SIDE if self.side else W
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setAcceptHoverEvents(False)
        self.setZValue(5000)

    def boundingRect(self) -> QRectF:
        return QRectF(-2, -2, self.width + 4, H + 4)

    def text_items(self) -> list[str]:
        """Every string it shows (for hidden-information tests)."""
        c = self.card
        out = [self.face.name, self.text or ""]
        if c is not None:
            out += [c.type_line, c.mana_cost]
        out.append(getattr(self.face, "note", ""))
        return [s for s in out if s]

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setRenderHint(painter.RenderHint.Antialiasing, True)
        face, card = self.face, self.card
        rect = QRectF(0, 0, W, H)
        pix = self.pix
        if pix is not None:
            self._paint_picture(painter, rect, pix)
            if self.side:
                self._paint_side(painter, QRectF(W + 6, 0, SIDE - 6, H))
            return
        frame = frame_color(card)
        painter.setPen(QPen(QColor(0, 0, 0, 160), 2))
        painter.setBrush(frame)
        painter.drawRoundedRect(rect, 12, 12)
        inner = rect.adjusted(10, 10, -10, -10)
        paper = QColor(255, 255, 255, 235)
        # the name and cost
        title_font = QFont()
        title_font.setPointSizeF(11.5)
        title_font.setBold(True)
        cost = (card.mana_cost if card else "").replace("}{", " ").strip("{}")
        fm = QFontMetrics(title_font)
        cost_w = fm.horizontalAdvance(cost) + 12 if cost else 0
        name_w = inner.width() - cost_w - 12
        name_lines = 2 if fm.horizontalAdvance(face.name) > name_w else 1
        title = QRectF(inner.x(), inner.y(), inner.width(), 10 + fm.height() * name_lines)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(paper)
        painter.drawRoundedRect(title, 6, 6)
        painter.setPen(TEXT_DARK)
        painter.setFont(title_font)
        painter.drawText(title.adjusted(8, 0, -cost_w - 4, 0),
                         Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap, face.name)
        if cost:
            painter.drawText(title.adjusted(0, 0, -8, 0), Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, cost)
        y = title.bottom() + 6
        # the type line
        small = QFont()
        small.setPointSizeF(9.5)
        small.setBold(True)
        sm = QFontMetrics(small)
        type_line = card.type_line if card else ""
        if face.face_down:
            type_line += " (face down)" if type_line else "Face down"
        if face.token:
            type_line = f"Token {type_line}".strip()
        lines = 2 if sm.horizontalAdvance(type_line) > inner.width() - 16 else 1
        tl = QRectF(inner.x(), y, inner.width(), 8 + sm.height() * lines)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(paper)
        painter.drawRoundedRect(tl, 6, 6)
        painter.setPen(TEXT_DARK)
        painter.setFont(small)
        painter.drawText(tl.adjusted(8, 0, -8, 0), Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextWordWrap, type_line)
        y = tl.bottom() + 6
        # the text box: oracle text, then counters and the note
        bottom = inner.bottom() - 34
        box = QRectF(inner.x(), y, inner.width(), bottom - y)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(255, 255, 255, 245))
        painter.drawRoundedRect(box, 6, 6)
        body = QFont()
        body.setPointSizeF(9.5)
        extra = _marks(face)
        opt = QTextOption()
        opt.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        text_rect = box.adjusted(8, 6, -8, -6)
        marks_h = 0.0
        if extra:
            mark_font = QFont(body)
            mark_font.setBold(True)
            painter.setFont(mark_font)
            mm = QFontMetrics(mark_font)
            marks_h = sum(mm.boundingRect(QRectF(text_rect).toRect(), Qt.TextFlag.TextWordWrap, e)
                          .height() for e in extra) + 4
            marks = QRectF(text_rect.x(), text_rect.bottom() - marks_h, text_rect.width(),
                           marks_h)
            painter.setPen(QColor("#6b4e00"))
            painter.drawText(marks, Qt.AlignmentFlag.AlignBottom | Qt.TextFlag.TextWordWrap, "\n".join(extra))
        painter.setFont(body)
        words = self.text
        if words is None:
            painter.setPen(QColor("#666"))
            body.setItalic(True)
            painter.setFont(body)
            words = NO_TEXT if card is not None and "Token" not in type_line else ""
        else:
            painter.setPen(TEXT_DARK)
        room = text_rect.adjusted(0, 0, 0, -marks_h)
        painter.drawText(room, words, opt)
        self._paint_pt(painter, inner, frame, small)

    def _paint_side(self, painter: QPainter, rect: QRectF) -> None:
        """Beside a picture: the name and type line, the card's text, then its counters and
        note, on paper that reads against any table."""
        face, card = self.face, self.card
        painter.setPen(QPen(QColor(0, 0, 0, 160), 1.5))
        painter.setBrush(QColor(255, 255, 255))
        painter.drawRoundedRect(rect, 10, 10)
        inner = rect.adjusted(10, 8, -10, -8)
        head = QFont()
        head.setPointSizeF(11)
        head.setBold(True)
        painter.setFont(head)
        painter.setPen(TEXT_DARK)
        title = f"{face.name}  {card.mana_cost}" if card is not None and card.mana_cost \
            else face.name
        used = painter.boundingRect(inner, Qt.TextFlag.TextWordWrap, title).height()
        painter.drawText(inner, Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap, title)
        y = inner.y() + used + 4
        body = QFont()
        body.setPointSizeF(9.5)
        if card is not None:
            body.setBold(True)
            painter.setFont(body)
            r = QRectF(inner.x(), y, inner.width(), inner.bottom() - y)
            used = painter.boundingRect(r, Qt.TextFlag.TextWordWrap, card.type_line).height()
            painter.drawText(r, Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap, card.type_line)
            y += used + 8
            body.setBold(False)
        painter.setFont(body)
        opt = QTextOption()
        opt.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        extra = _marks(face)
        marks_h = 0.0
        if extra:
            bold = QFont(body)
            bold.setBold(True)
            painter.setFont(bold)
            joined = "\n".join(extra)
            marks_h = painter.boundingRect(inner, Qt.TextFlag.TextWordWrap, joined).height()
            painter.setPen(QColor("#6b4e00"))
            painter.drawText(QRectF(inner.x(), inner.bottom() - marks_h, inner.width(),
                                    marks_h), Qt.AlignmentFlag.AlignBottom | Qt.TextFlag.TextWordWrap, joined)
            painter.setFont(body)
        words = self.text
        if words is None:  # say where the words come from
            painter.setPen(QColor("#666"))
            body.setItalic(True)
            painter.setFont(body)
            words = NO_TEXT if card is not None and not face.token else ""
        else:
            painter.setPen(TEXT_DARK)
        painter.drawText(QRectF(inner.x(), y, inner.width(), inner.bottom() - marks_h - 6 - y),
                         words, opt)

    def _paint_picture(self, painter: QPainter, rect: QRectF, pix: QPixmap) -> None:
        """The card's picture, large; counters, the note and power/toughness as modified
        over its lower part (and beside it with the card's text, when it has some)."""
        draw_picture(painter, rect, pix, 12)
        inner = rect.adjusted(10, 10, -10, -10)
        extra = _marks(self.face)
        if extra and not self.side:
            f = QFont()
            f.setPointSizeF(9.5)
            f.setBold(True)
            painter.setFont(f)
            fm = QFontMetrics(f)
            h = fm.height() * len(extra) + 10
            box = QRectF(inner.x(), inner.bottom() - 34 - h, inner.width(), h)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(255, 248, 220, 235))
            painter.drawRoundedRect(box, 6, 6)
            painter.setPen(QColor("#6b4e00"))
            painter.drawText(box.adjusted(8, 5, -8, -5), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                             "\n".join(extra))
        small = QFont()
        small.setPointSizeF(9.5)
        small.setBold(True)
        self._paint_pt(painter, inner, QColor("#333"), small)

    def _paint_pt(self, painter: QPainter, inner: QRectF, frame: QColor, small: QFont) -> None:
        """Power/toughness as modified (and as printed, when it differs)."""
        face, card = self.face, self.card
        pt = face.pt if not face.face_down else None
        if pt is not None:
            f = QFont()
            f.setPointSizeF(13)
            f.setBold(True)
            label = f"{pt[0]}/{pt[1]}"
            w = max(64.0, QFontMetrics(f).horizontalAdvance(label) + 20)
            r = QRectF(inner.right() - w, inner.bottom() - 28, w, 28)
            painter.setPen(QPen(QColor("#222"), 1.2))
            painter.setBrush(_pt_colour(card, pt))
            painter.drawRoundedRect(r, 6, 6)
            painter.setPen(TEXT_DARK)
            painter.setFont(f)
            painter.drawText(r, Qt.AlignmentFlag.AlignCenter, label)
            if card is not None and (card.power, card.toughness) != pt:
                small.setBold(False)
                painter.setFont(small)
                painter.setPen(QColor(255, 255, 255, 230) if frame.lightness() < 140
                               else TEXT_DARK)
                painter.drawText(QRectF(inner.x(), r.y(), r.x() - inner.x() - 8, r.height()),
                                 Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight,
                                 f"printed {card.power}/{card.toughness}")


def _marks(face: Seen) -> list[str]:
    out = [f"{n} × {kind} counter{'s' * (n != 1)}" for kind, n in face.counters]
    if face.note:
        out.append(f"Note: {face.note}")
    return out


def place(preview: CardPreview, item_rect: QRectF, view: QGraphicsView) -> QPointF:
    """Beside the card (right if there is room, else left), inside the visible table."""
    scale = view.transform().m11() or 1.0
    w, h = preview.width / scale, H / scale
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    gap = 12 / scale
    x = item_rect.right() + gap
    if x + w > visible.right():
        x = item_rect.left() - gap - w
    x = max(visible.left(), x)
    y = min(max(visible.top(), item_rect.center().y() - h / 2), visible.bottom() - h)
    return QPointF(x, max(visible.top(), y))
