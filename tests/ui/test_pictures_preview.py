"""Pictures at the table (issue 30): choosing a pictures folder from the menu draws
every card's picture at once; the hover preview shows the picture with the card's text,
counters and note beside it; no tooltip covers the preview; a menu closes it."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QTimer
from PySide6.QtGui import QColor, QHelpEvent, QImage
from PySide6.QtWidgets import QApplication, QFileDialog, QToolTip

from tabletop.cards import builtin
from tabletop.engine import Table
from tabletop.ui import preview as P
from tabletop.ui import settings
from tests.ui.test_card_view import TEXT, imported  # noqa: F401  (a fixture)

COLOURS = {"Hill Giant": "#ff00ff", "Llanowar Elves": "#00ffff", "Grizzly Bears": "#ffff00"}


def _pictures(folder):
    folder.mkdir()
    for name, colour in COLOURS.items():
        img = QImage(244, 340, QImage.Format_RGB32)
        img.fill(QColor(colour))
        assert img.save(str(folder / f"{name}.png"))


def _table():
    t = Table(("Alice", "Bob"), "cr-2016")
    cids = {n: t.add_card(builtin.lookup(n), "Alice", "battlefield").cid for n in COLOURS}
    t.add_card(builtin.lookup("Hill Giant"), "Alice", "hand")
    t.start_here()
    return t, cids


def _colour_at(w, item):
    """The colour the window shows a little below the middle of a card."""
    image = w.view.viewport().grab().toImage()
    r = item.sceneBoundingRect()
    p = w.view.mapFromScene(r.center().x(), r.top() + r.height() * 0.62)
    return image.pixelColor(p).name()


def _choose_folder(w, folder, monkeypatch):
    monkeypatch.setattr(QFileDialog, "getExistingDirectory",
                        lambda *a, **k: str(folder))
    action = next(a for a in w.findChildren(type(w.undo_action))
                  if a.text() == "Your &pictures folder…")
    action.trigger()
    QApplication.processEvents()


def test_a_pictures_folder_draws_every_card_at_once(make_window, tmp_path, monkeypatch,
                                                    dialogs):
    t, _cids = _table()
    w = make_window(t)
    items = [i for i in w.scene.cards.values() if i.face is not None]
    assert len(items) == 4
    assert not any(_colour_at(w, i) in COLOURS.values() for i in items)
    viewer = w.scene.view_zone(("Alice", "hand"))  # an open viewer's cards as well
    before = viewer.cards.item(0).icon().pixmap(40, 56).toImage().pixelColor(20, 34).name()
    _pictures(tmp_path / "pics")
    try:
        _choose_folder(w, tmp_path / "pics", monkeypatch)
        for i in items:  # every one, the hand's too, without a move or a hover
            assert _colour_at(w, i) == COLOURS[i.face.name], i.face.name
        after = viewer.cards.item(0).icon().pixmap(40, 56).toImage().pixelColor(20, 34)
        assert before != COLOURS["Hill Giant"] and after.name() == COLOURS["Hill Giant"]
    finally:
        settings.set_value("pictures/folder", "")
        from tabletop.ui import pictures
        pictures.store().forget()


def test_the_preview_has_the_picture_with_text_counters_and_note_beside_it(
        make_window, tmp_path, monkeypatch, dialogs, imported):  # noqa: F811
    t, cids = _table()
    w = make_window(t)
    _pictures(tmp_path / "pics")
    try:
        _choose_folder(w, tmp_path / "pics", monkeypatch)
        giant = cids["Hill Giant"]
        w.c.counters(giant, "+1/+1", 2)
        w.c.note(giant, "blocking")
        item = w.scene.item_for_cid(giant)
        w.scene.hover(item, True)
        p = w.scene._preview
        assert p.pix is not None and p.side and p.width == P.W + P.SIDE
        assert TEXT in p.text_items() and "blocking" in p.text_items()
        # it is drawn: the picture at the left, the words on paper at the right
        image = w.view.viewport().grab().toImage()
        origin = w.view.mapFromScene(p.scenePos())
        assert image.pixelColor(origin + QPoint(60, 190)).name() == COLOURS["Hill Giant"]
        assert image.pixelColor(origin + QPoint(int(P.W + P.SIDE / 2), 8)).lightness() > 240
        # inside the visible table
        shown = w.view.mapToScene(w.view.viewport().rect()).boundingRect()
        assert shown.contains(p.sceneBoundingRect().adjusted(3, 3, -3, -3))
        # no tooltip over it: the help event the platform sends is met by nothing
        at = w.view.mapFromScene(item.sceneBoundingRect().center())
        QApplication.sendEvent(w.view.viewport(), QHelpEvent(
            QEvent.ToolTip, at, w.view.viewport().mapToGlobal(at)))
        QApplication.processEvents()
        assert not QToolTip.isVisible()
        # the mouse leaves the card: the preview goes
        w.scene.hover(w.scene.item_for_cid(cids["Llanowar Elves"]), False)
        assert w.scene._preview is None
    finally:
        settings.set_value("pictures/folder", "")
        from tabletop.ui import pictures
        pictures.store().forget()


def test_a_menu_opening_closes_the_preview(make_window, dialogs):
    t, cids = _table()
    w = make_window(t)
    item = w.scene.item_for_cid(cids["Hill Giant"])
    w.scene.hover(item, True)
    assert w.scene._preview is not None
    seen = {}

    def while_open():
        seen["menu"] = QApplication.activePopupWidget() is not None
        seen["preview"] = w.scene._preview
        QApplication.activePopupWidget().close()
    QTimer.singleShot(100, while_open)
    at = w.view.mapFromScene(item.sceneBoundingRect().center())
    w.scene.card_menu(item, w.view.viewport().mapToGlobal(at))
    assert seen == {"menu": True, "preview": None}
