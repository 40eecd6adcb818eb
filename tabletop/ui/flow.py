"""A row of buttons that wraps onto more rows when its dock is narrow (Qt has no flow
layout of its own; this is its documented FlowLayout example's idea, with each row's
buttons sharing its width as a box layout's do). A dock of five buttons in one box
layout cannot be narrower than the five side by side: at 1024x600 that took the
table's room."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QWidget


class FlowLayout(QLayout):
    def __init__(self, parent: QWidget | None = None, spacing: int = 6) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self.setContentsMargins(0, 0, 0, 0)
        self.setSpacing(spacing)

    # ---- QLayout's interface --------------------------------------------------------------
    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._lay_out(QRect(0, 0, width, 0), apply=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._lay_out(rect, apply=True)

    def sizeHint(self) -> QSize:
        """All on one row."""
        shown = self._shown()
        m = self.contentsMargins()
        w = sum(i.sizeHint().width() for i in shown) + self.spacing() * max(0, len(shown) - 1)
        h = max((i.sizeHint().height() for i in shown), default=0)
        return QSize(w + m.left() + m.right(), h + m.top() + m.bottom())

    def minimumSize(self) -> QSize:
        """As narrow as its widest button."""
        shown = self._shown()
        m = self.contentsMargins()
        w = max((i.minimumSize().width() for i in shown), default=0)
        h = max((i.sizeHint().height() for i in shown), default=0)
        return QSize(w + m.left() + m.right(), h + m.top() + m.bottom())

    # ---- the rows -------------------------------------------------------------------------
    def _shown(self) -> list[QLayoutItem]:
        return [i for i in self._items if not i.isEmpty()]  # (a hidden button takes no room)

    def _rows(self, width: int) -> list[list[QLayoutItem]]:
        rows: list[list[QLayoutItem]] = []
        used = 0
        for item in self._shown():
            w = item.sizeHint().width()
            if rows and used + self.spacing() + w <= width:
                rows[-1].append(item)
                used += self.spacing() + w
            else:
                rows.append([item])
                used = w
        return rows

    def _lay_out(self, rect: QRect, apply: bool) -> int:
        """Each row's buttons side by side, sharing the row's width in proportion to
        their own; the height it takes."""
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        gap = self.spacing()
        y = area.y()
        for row in self._rows(area.width()):
            height = max(i.sizeHint().height() for i in row)
            if apply:
                wanted = [i.sizeHint().width() for i in row]
                spare = area.width() - sum(wanted) - gap * (len(row) - 1)
                x = area.x()
                for n, (item, w) in enumerate(zip(row, wanted, strict=True)):
                    extra = spare // len(row) + (1 if n < spare % len(row) else 0)
                    width = max(item.minimumSize().width(), w + max(0, extra))
                    item.setGeometry(QRect(QPoint(x, y), QSize(width, height)))
                    x += width + gap
            y += height + gap
        return y - gap - area.y() + m.top() + m.bottom() if y > area.y() else 0
