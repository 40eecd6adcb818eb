"""Render packaging/icons/tabletop.svg to the usual PNG sizes (run by hand after
changing the SVG; the PNGs are committed)."""

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

HERE = Path(__file__).resolve().parent / "icons"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def main() -> int:
    app = QGuiApplication(sys.argv[:1])  # noqa: F841
    renderer = QSvgRenderer(str(HERE / "tabletop.svg"))
    if not renderer.isValid():
        print("the SVG does not parse", file=sys.stderr)
        return 1
    for size in SIZES:
        img = QImage(size, size, QImage.Format_ARGB32)
        img.fill(Qt.transparent)
        p = QPainter(img)
        p.setRenderHint(QPainter.Antialiasing)
        renderer.render(p)
        p.end()
        img.save(str(HERE / f"tabletop-{size}.png"))
        if size == 256 and not img.save(str(HERE / "tabletop.ico")):
            print("could not write the .ico (no ico image plugin)", file=sys.stderr)
    print(f"wrote {len(SIZES)} PNGs and an .ico to {HERE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
