"""Pictures of a table without a window (reports, exports)."""

from __future__ import annotations

import os
import sys

from tabletop.engine.views import JUDGE


def ensure_app():
    """A QApplication, offscreen when there is no screen to draw on."""
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY") \
            and sys.platform.startswith("linux"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication
    return QApplication.instance() or QApplication(sys.argv[:1])


def table_png(table, viewer=JUDGE, width: int = 1100) -> bytes:
    """The table as ``viewer`` sees it (the judge by default), as PNG bytes."""
    ensure_app()
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, Qt
    from PySide6.QtGui import QImage, QPainter

    from tabletop.ui.controller import TableController
    from tabletop.ui.scene import TableScene

    controller = TableController(table)
    controller.viewer = viewer
    scene = TableScene(controller)
    scene.animations = False
    rect = scene.sceneRect()
    height = int(width * rect.height() / rect.width())
    img = QImage(width, height, QImage.Format_RGB32)
    img.fill(Qt.white)
    painter = QPainter(img)
    painter.setRenderHint(QPainter.Antialiasing)
    painter.setRenderHint(QPainter.TextAntialiasing)
    scene.render(painter, QRectF(0, 0, width, height), rect)
    painter.end()
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.WriteOnly)
    img.save(buf, "PNG")
    buf.close()
    scene.clear()
    return bytes(data)
