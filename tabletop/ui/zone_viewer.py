"""The zone viewer: a window onto one pile the viewer may see (a graveyard, exile, or a
library while an effect lets them search it or look at its top cards).

Cards are listed from the engine's view for the current viewer only, as a grid of
drawn cards or a list of names and type lines, filtered by name or type. A card is
dragged out of the viewer onto the table like any other: the table asks the engine,
and the engine decides where it goes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QMimeData, QSize, Qt
from PySide6.QtGui import QCloseEvent, QDrag, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QCheckBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QStyleOptionGraphicsItem,
    QVBoxLayout,
    QWidget,
)

from tabletop.engine import Result, views
from tabletop.engine.model import Zone, ZoneKey
from tabletop.engine.views import Hidden, Seen
from tabletop.ui.items import CardItem
from tabletop.ui.layout import CARD_H, CARD_W

if TYPE_CHECKING:
    from tabletop.ui.controller import TableController

MIME = "application/x-tabletop-card"  # a card id dragged out of a viewer


def card_mime(cid: int) -> QMimeData:
    m = QMimeData()
    m.setData(MIME, QByteArray(str(cid).encode("ascii")))
    return m


def cid_from_mime(mime: QMimeData) -> int | None:
    if not mime.hasFormat(MIME):
        return None
    raw = bytes(mime.data(MIME).data())
    return int(raw) if raw.isdigit() and len(raw) < 19 else None


def card_pixmap(face: Seen | None, scale: float = 1.0) -> QPixmap:
    """A card drawn as the table draws it (a Seen, or None for its back)."""
    item = CardItem(("viewer",), face.id if face is not None else 0, face)
    pm = QPixmap(int(CARD_W * scale) + 4, int(CARD_H * scale) + 4)
    pm.fill(Qt.GlobalColor.transparent)
    p = QPainter(pm)
    p.translate(2, 2)
    p.scale(scale, scale)
    item.paint(p, QStyleOptionGraphicsItem())
    p.end()
    return pm


class CardList(QListWidget):
    """The viewer's cards; dragging one out carries only its card id."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setDragEnabled(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)

    def mimeData(self, items: Sequence[QListWidgetItem]) -> QMimeData:
        cid = items[0].data(Qt.ItemDataRole.UserRole) if items else None
        return card_mime(cid) if cid is not None else QMimeData()

    def startDrag(self, actions: Qt.DropAction) -> None:
        item = self.currentItem()
        if item is None or item.data(Qt.ItemDataRole.UserRole) is None:
            return
        drag = QDrag(self)
        drag.setMimeData(self.mimeData([item]))
        icon = item.icon()
        if not icon.isNull():
            drag.setPixmap(icon.pixmap(QSize(CARD_W, CARD_H)))
        drag.exec(Qt.DropAction.MoveAction)


class ZoneViewer(QDialog):
    """``key``: the zone (player, zone id). ``looking``: an effect lets the viewer see a
    library (a search, or the top ``count`` cards); the engine logs that they looked."""

    def __init__(self, controller: TableController, key: ZoneKey,
                 parent: QWidget | None = None, looking: bool = False,
                 count: int | None = None, shuffle_after: bool = False) -> None:
        super().__init__(parent)
        self.c = controller
        self.key = key
        self.looking = looking
        self.count = count
        self.viewer = controller.viewer
        self.game = controller.game()  # the table (or network game) it looks at
        self._finished = False  # its end (_finish) has run
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        self.setModal(False)
        self.resize(560, 460)
        lay = QVBoxLayout(self)
        top = QHBoxLayout()
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter by name or type (e.g. Giant, Instant)")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._apply_filter)
        top.addWidget(self.filter, 1)
        self.grid_button = QPushButton("Grid")
        self.list_button = QPushButton("List")
        group = QButtonGroup(self)
        for b in (self.grid_button, self.list_button):
            b.setCheckable(True)
            group.addButton(b)
            top.addWidget(b)
        self.grid_button.setChecked(True)
        self.grid_button.clicked.connect(lambda: self.set_mode("grid"))
        self.list_button.clicked.connect(lambda: self.set_mode("list"))
        lay.addLayout(top)
        self.cards = CardList(self)
        lay.addWidget(self.cards, 1)
        order = "Top card first. " if key[1] in (Zone.LIBRARY, Zone.GRAVEYARD, Zone.STACK) else ""
        self.hint = QLabel(order + "Drag a card onto the table to move it (Shift: to the "
                           "bottom of a library); the rules decide where it goes.")
        self.hint.setWordWrap(True)
        lay.addWidget(self.hint)
        self.shuffle_box = QCheckBox("Shuffle the library when I close this")
        self.shuffle_box.setChecked(shuffle_after)
        self.searching = key[1] == Zone.LIBRARY and count is None
        self.shuffle_box.setVisible(self.searching)
        lay.addWidget(self.shuffle_box)
        self.mode = "grid"
        self.set_mode("grid")
        controller.changed.connect(self.refresh)
        controller.reset.connect(self._table_replaced)
        controller.viewpoint_leaving.connect(self.close)  # ends as the one who opened it
        self.refresh()

    # ---- what it shows --------------------------------------------------------------
    def title(self) -> str:
        b = self.c.board
        player, zone = self.key
        name = b.edition.place(zone, player)
        n = b.counts().get(self.key, 0)
        if self.looking and self.count is not None:
            return f"The top {min(self.count, n)} of {name}"
        return f"{name[0].upper()}{name[1:]} · {n} card{'s' * (n != 1)}"

    def faces(self) -> list[Seen | Hidden]:
        return self.c.board.pile(self.key, self.viewer, self.looking, self.count)

    def refresh(self, _result: Result | None = None) -> None:
        if self.c.viewer != self.viewer:  # the viewpoint changed: a viewer is per person
            self.close()
            return
        self.setWindowTitle(self.title())
        keep = self.cards.currentItem().data(Qt.ItemDataRole.UserRole) if self.cards.currentItem() else None
        self.cards.clear()
        for face in self.faces():
            shown = face if isinstance(face, Seen) and not (
                face.face_down and face.card is None) else None
            seen = shown is not None
            if shown is not None:
                text = shown.name
                type_line = shown.card.type_line if shown.card is not None else ""
            else:
                text, type_line = "a face-down card", ""
            # the grid's drawn card shows its name; the list reads "name — type line"
            item = QListWidgetItem("" if self.mode == "grid" else
                                   f"{text} — {type_line}" if type_line else text)
            item.setData(Qt.ItemDataRole.AccessibleTextRole, text)
            item.setData(Qt.ItemDataRole.UserRole, face.cid if isinstance(face, Seen) else None)
            item.setData(Qt.ItemDataRole.UserRole + 1, f"{text}\n{type_line}".casefold())
            item.setIcon(QIcon(card_pixmap(shown, 0.8 if self.mode == "grid" else 0.3)))
            item.setToolTip(f"{text}\n{type_line}".strip())
            if not seen:
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsDragEnabled)
            self.cards.addItem(item)
            if keep is not None and item.data(Qt.ItemDataRole.UserRole) == keep:
                self.cards.setCurrentItem(item)
        self._apply_filter()

    def set_mode(self, mode: str) -> None:
        self.mode = mode
        lw = self.cards
        if mode == "grid":
            lw.setViewMode(QListWidget.ViewMode.IconMode)
            lw.setIconSize(QSize(int(CARD_W * 0.8) + 4, int(CARD_H * 0.8) + 4))
            lw.setGridSize(QSize(int(CARD_W * 0.8) + 14, int(CARD_H * 0.8) + 14))
            lw.setResizeMode(QListWidget.ResizeMode.Adjust)
            lw.setWordWrap(True)
        else:
            lw.setViewMode(QListWidget.ViewMode.ListMode)
            lw.setIconSize(QSize(int(CARD_W * 0.3) + 4, int(CARD_H * 0.3) + 4))
            lw.setGridSize(QSize())
        lw.setMovement(QListWidget.Movement.Static)
        lw.setDragEnabled(True)
        (self.grid_button if mode == "grid" else self.list_button).setChecked(True)
        if hasattr(self, "viewer"):
            self.refresh()

    def _apply_filter(self) -> None:
        words = self.filter.text().casefold().split()
        for i in range(self.cards.count()):
            item = self.cards.item(i)
            hay = item.data(Qt.ItemDataRole.UserRole + 1) or ""
            item.setHidden(not all(w in hay for w in words))

    def visible_names(self) -> list[str]:
        return [self.cards.item(i).toolTip().split("\n")[0] for i in range(self.cards.count())
                if not self.cards.item(i).isHidden()]

    def _finish(self) -> None:
        """The viewer's end, however it closes: no longer told of changes, and a library
        searched is shuffled (once: a close comes back here through ``done``)."""
        if self._finished:
            return
        self._finished = True
        try:
            self.c.changed.disconnect(self.refresh)
            self.c.reset.disconnect(self._table_replaced)
            self.c.viewpoint_leaving.disconnect(self.close)
        except (RuntimeError, TypeError):
            pass
        if self.searching and self.shuffle_box.isChecked() and self.key[0] is not None:
            self.c.shuffle(self.key[0])

    def _table_replaced(self) -> None:
        """A new table or game: the library searched is gone with its table, and the
        new one is not shuffled for it. (Another viewpoint closes the viewer first, as
        its person: viewpoint_leaving.)"""
        if self.c.game() is not self.game:
            self.shuffle_box.setChecked(False)
        self.close()

    def closeEvent(self, event: QCloseEvent) -> None:  # the title bar's ×, close()
        self._finish()
        super().closeEvent(event)

    def done(self, result: int) -> None:  # Escape: a dialog's reject, which sends no
        self._finish()  # close event (the library searched was left unshuffled)
        super().done(result)


class RevealWindow(QDialog):
    """Cards a player has just revealed ("Reveal the top N to everyone", a hand shown),
    drawn from what the viewer was shown (``views.shown``, or the host's ``shown`` at a
    network table). It stays until closed, so a player can read them at leisure; a
    viewpoint that was not shown them closes it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        self.setModal(False)
        self.resize(520, 300)
        lay = QVBoxLayout(self)
        self.heading = QLabel()
        self.heading.setTextFormat(Qt.TextFormat.PlainText)  # names come from files and peers
        self.heading.setWordWrap(True)
        lay.addWidget(self.heading)
        self.cards = QListWidget()
        self.cards.setViewMode(QListWidget.ViewMode.IconMode)
        self.cards.setIconSize(QSize(int(CARD_W * 1.2) + 4, int(CARD_H * 1.2) + 4))
        self.cards.setGridSize(QSize(int(CARD_W * 1.2) + 14, int(CARD_H * 1.2) + 14))
        self.cards.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.cards.setMovement(QListWidget.Movement.Static)
        lay.addWidget(self.cards, 1)
        close = QPushButton("Close")
        close.clicked.connect(self.close)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(close)
        lay.addLayout(row)
        self.shown: views.Shown | None = None

    def show_cards(self, shown: views.Shown) -> None:
        self.shown = shown
        self.setWindowTitle(shown.title)
        self.heading.setText(shown.title + (" (top card first)" if len(shown.cards) > 1
                                            else ""))
        self.cards.clear()
        for face in shown.cards:
            item = QListWidgetItem()
            item.setIcon(QIcon(card_pixmap(face, 1.2)))
            type_line = face.card.type_line if face.card is not None else ""
            item.setToolTip(f"{face.name}\n{type_line}".strip())
            item.setData(Qt.ItemDataRole.AccessibleTextRole, face.name)
            self.cards.addItem(item)
        width = min(900, 40 + len(shown.cards) * (int(CARD_W * 1.2) + 14))
        self.resize(max(360, width), self.height())

    def names(self) -> list[str]:
        return [self.cards.item(i).data(Qt.ItemDataRole.AccessibleTextRole)
                for i in range(self.cards.count())]
