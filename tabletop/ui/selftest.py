"""`tabletop --self-test`: one accepted and one refused drop, made with real
mouse events on the view, checked against the engine, and the parts the app loads
only when first needed (downloads over HTTPS, pictures, PDF reports, XML decks), so a
packaged build that left one out fails here rather than in a player's hands. Also the
drag helper the GUI tests use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QGraphicsItem, QGraphicsView

from tabletop.cards import builtin
from tabletop.engine import Card, Table
from tabletop.engine.model import Zone, ZoneKey

if TYPE_CHECKING:
    from tabletop.ui.main_window import MainWindow
    from tabletop.ui.scene import TableScene


def drag(view: QGraphicsView, item: QGraphicsItem | None, to_scene: QPointF,
         modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,
         steps: int = 6) -> None:
    """Press on an item, move in steps, release over a scene point."""
    assert item is not None, "nothing to drag"
    vp = view.viewport()
    start = view.mapFromScene(item.sceneBoundingRect().center())
    end = view.mapFromScene(to_scene)
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, modifiers, start)
    for i in range(1, steps + 1):
        p = start + (end - start) * (i / steps)
        QTest.mouseMove(vp, QPoint(int(p.x()), int(p.y())))
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, modifiers, end)
    QApplication.processEvents()


def double_click(view: QGraphicsView, at_scene: QPointF) -> None:
    """A real mouse's double click: press, release, double-click, release."""
    vp = view.viewport()
    p = view.mapFromScene(at_scene)
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
    QTest.mouseDClick(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
    QApplication.processEvents()


def zone_center(scene: TableScene, key: ZoneKey) -> QPointF:
    r = scene.zone_items[key].spot.rect
    return QPointF(r.x + r.w / 2, r.y + r.h / 2)


def later_parts() -> list[str]:
    """What is missing of the parts loaded when first needed (empty: all there)."""
    import importlib
    missing = []
    for name in ("ssl", "http.client", "urllib.request", "hashlib", "sqlite3", "gzip",
                 "defusedxml.ElementTree", "tabletop.cards.download", "tabletop.cards.decks",
                 "tabletop.scenario.runner", "tabletop.scenario.ruling_report",
                 "tabletop.ui.pictures", "tabletop.ui.presenter", "tabletop.ui.rules_browser",
                 "tabletop.net.server", "websockets.asyncio.server", "PySide6.QtNetwork",
                 "websockets.sync.client", "tabletop.ui.network", "tabletop.net.discovery",
                 "zeroconf", "PySide6.QtCharts", "tabletop.ui.deck_editor",
                 "tabletop.cards.search"):
        try:
            importlib.import_module(name)
        except ImportError as e:
            missing.append(f"{name} ({e})")
    try:
        import hashlib
        hashlib.sha256(b"")
    except (ImportError, ValueError) as e:
        missing.append(f"SHA-256 ({e})")
    try:
        from PySide6.QtNetwork import QSslSocket
        if not QSslSocket.supportsSsl():
            missing.append("HTTPS in Qt (no TLS backend: card pictures cannot download)")
    except ImportError:
        pass  # said above
    try:
        from PySide6.QtGui import QPdfWriter  # noqa: F401
    except ImportError as e:
        missing.append(f"PDF writer ({e})")
    from PySide6.QtCore import QByteArray
    from PySide6.QtGui import QImageReader
    formats = {(bytes(f.data()) if isinstance(f, QByteArray) else bytes(f)).decode()
               for f in QImageReader.supportedImageFormats()}
    missing += [f"{f.upper()} pictures (no image reader)" for f in ("png", "jpeg", "webp")
                if f not in formats]
    return missing


def _card(name: str) -> Card:
    card = builtin.lookup(name)
    assert card is not None, f"the built-in cards have no {name}"
    return card


def self_test(window: MainWindow) -> tuple[bool, str]:
    t = Table(("Alice", "Bob"), seed=1)
    land = t.add_card(_card("Forest"), "Alice", Zone.HAND)
    bolt = t.add_card(_card("Lightning Bolt"), "Alice", Zone.HAND)
    t.start_here()
    c = window.c
    c.set_table(t)
    c.set_viewer("Alice")
    window.resize(1400, 900)
    window.show()
    window.scene.animations = False
    QApplication.processEvents()
    window.view.fit()
    QApplication.processEvents()
    scene, view = window.scene, window.view
    lines = []
    ok = True
    drag(view, scene.item_for_cid(land.cid), zone_center(scene, ("Alice", Zone.BATTLEFIELD)))
    obj = t.obj_of(land.cid)
    item = scene.item_for_cid(land.cid)
    accepted = obj.zone == (None, Zone.BATTLEFIELD) and item is not None \
        and item.zone_key == ("Alice", Zone.BATTLEFIELD)
    lines.append(f"accepted drop (Forest to the battlefield): {'ok' if accepted else 'FAILED'}")
    ok &= accepted
    drag(view, scene.item_for_cid(bolt.cid), zone_center(scene, ("Alice", Zone.BATTLEFIELD)))
    obj = t.obj_of(bolt.cid)
    item = scene.item_for_cid(bolt.cid)
    refused = obj.zone == ("Alice", Zone.HAND) and obj.id == bolt.id and item is not None \
        and item.zone_key == ("Alice", Zone.HAND) and "400.4a" in window.status.text()
    lines.append(f"refused drop (Lightning Bolt to the battlefield, 400.4a): "
                 f"{'ok' if refused else 'FAILED'}")
    ok &= refused
    missing = later_parts()
    lines.append("parts loaded when needed (HTTPS, pictures, PDF, decks, network): "
                 + ("ok" if not missing else "MISSING " + "; ".join(missing)))
    ok &= not missing
    lines.append("self-test passed" if ok else "self-test FAILED")
    return ok, "\n".join(lines)
