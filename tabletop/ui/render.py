"""Pictures of a table without a window (reports, exports)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tabletop.engine.views import JUDGE

if TYPE_CHECKING:
    from PySide6.QtCore import QCoreApplication

    from tabletop.engine import Table
    from tabletop.engine.model import CardId
    from tabletop.scenario.model import Scenario, Step
    from tabletop.scenario.runner import Run, Session, StepReport


def ensure_app() -> QCoreApplication:
    """A QApplication, offscreen when there is no screen to draw on."""
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY") \
            and sys.platform.startswith("linux"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication
    return QApplication.instance() or QApplication(sys.argv[:1])


def table_png(table: Table, viewer: str | None = JUDGE, width: int = 1100,
              ruling: tuple[Scenario, dict[CardId, str], Step, StepReport] | None = None
              ) -> bytes:
    """The table as ``viewer`` sees it (the judge by default), as PNG bytes.
    ``ruling``: (scenario, names, step, report): a card the engine sent elsewhere is drawn
    with a ghost where the player pointed and an arrow to where it went."""
    ensure_app()
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, Qt
    from PySide6.QtGui import QImage, QPainter

    from tabletop.ui.controller import TableController
    from tabletop.ui.scene import TableScene

    controller = TableController(table)
    controller.viewer = viewer
    scene = TableScene(controller)
    scene.animations = False
    if ruling is not None:
        from tabletop.ui.presenter import ghost
        ghost(scene, *ruling)
    rect = scene.sceneRect()
    height = int(width * rect.height() / rect.width())
    img = QImage(width, height, QImage.Format.Format_RGB32)
    img.fill(Qt.GlobalColor.white)
    painter = QPainter(img)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    scene.render(painter, QRectF(0, 0, width, height), rect)
    painter.end()
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    # the format as a str: PySide6 takes no other at run time, though its stubs say bytes
    img.save(buf, "PNG")  # type: ignore[call-overload]
    buf.close()
    scene.clear()
    return bytes(data.data())


def write_pdf(path: Path | str, run: Run, pictures: dict[int, bytes] | None) -> None:
    """A ruling report as PDF (A4, pictures embedded), through Qt's PDF writer; written
    to a temporary file first, then put in place."""
    ensure_app()
    from PySide6.QtCore import QMarginsF, QUrl
    from PySide6.QtGui import QImage, QPageLayout, QPageSize, QPdfWriter, QTextDocument

    from tabletop.scenario.ruling_report import html_report
    path = Path(path)
    doc = QTextDocument()
    for i, png in (pictures or {}).items():
        img = QImage()
        img.loadFromData(png)
        doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(f"step-{i}.png"),
                        img.scaledToWidth(900))
    doc.setHtml(html_report(run, pictures, image=lambda i, _png: f"step-{i}.png"))
    tmp = path.with_name(path.name + ".tmp")
    writer = QPdfWriter(str(tmp))
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                     QMarginsF(15, 15, 15, 15), QPageLayout.Unit.Millimeter))
    writer.setTitle(run.scenario.title)
    writer.setCreator("Tabletop")
    doc.print_(writer)
    del writer  # the file is finished when the writer goes
    if not tmp.exists() or tmp.stat().st_size == 0:
        raise OSError(f"{path}: the PDF writer wrote nothing")
    os.replace(tmp, path)


def report_pictures(session: Session) -> dict[int, bytes]:
    """Play a session to its end, picturing the table at the start and after each step
    (with the ghost and arrow of a card the engine sent elsewhere)."""
    from tabletop.scenario.ruling_report import REPORT_PICTURES
    pictures = {0: table_png(session.run.table)}
    while (rep := session.advance()) is not None:
        if len(pictures) < REPORT_PICTURES:  # the rest are told in words only
            step = session.scenario.steps[rep.index - 1]
            pictures[rep.index] = table_png(
                session.run.table, ruling=(session.scenario, session.run.names, step, rep))
    return pictures
