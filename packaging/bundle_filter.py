"""What the frozen bundle leaves out: Python modules and Qt libraries and plugins the
app never loads. Read by packaging/tabletop.spec (PyInstaller) and tested without a
build (tests/test_packaging_files.py). Qt's libraries are named ``Qt6Network`` on
Linux (libQt6Network.so.6) and Windows (Qt6Network.dll), and ``QtNetwork.framework``
on macOS: each name here covers all three."""

from __future__ import annotations

# Kept on purpose: ssl, http, urllib.request and email (card data downloads over HTTPS),
# hashlib (their SHA-256 check), QtNetwork with its TLS plugin (card pictures). The
# frozen app's --self-test fails if one of them is missing.
UNUSED_MODULES = [
    "tkinter", "unittest", "pydoc", "doctest", "xmlrpc", "lib2to3", "pytest", "hypothesis",
    "ftplib", "smtplib", "sqlite3.test", "PySide6.QtQml",
    # websockets names its optional trio and werkzeug (router) parts lazily: where those
    # are installed, PyInstaller would pull in them and all they import (IPython, numpy)
    "trio", "werkzeug", "anyio", "IPython", "jedi", "numpy", "cryptography",
    "websockets.trio", "websockets.asyncio.router", "websockets.sync.router", "PySide6.QtQuick", "PySide6.QtQuickWidgets",
    "PySide6.QtSql", "PySide6.QtPdf", "PySide6.QtPdfWidgets", "PySide6.QtOpenGL",
    "PySide6.QtOpenGLWidgets", "PySide6.QtPrintSupport", "PySide6.QtSvg", "PySide6.QtSvgWidgets",
    "PySide6.QtXml", "PySide6.QtConcurrent", "PySide6.QtDesigner", "PySide6.QtHelp",
    "PySide6.QtUiTools", "PySide6.QtDBus", "PySide6.QtMultimedia", "PySide6.QtWebEngineCore",
]
# Qt libraries and plugins nothing here loads (the GUI needs Core, Gui, Widgets, Test,
# Charts (the deck editor's, which links OpenGL and OpenGLWidgets), Network and its TLS
# backends, the xcb/offscreen/wayland/windows/cocoa platforms and
# the PNG, JPEG and WebP image readers: Scryfall's pictures are JPEG, a player's folder
# may hold WebP).
UNUSED_FILES = [
    "Qt6Qml", "Qt6Quick", "Qt6Pdf", "Qt6Sql", "Qt6Svg", "Qt6Designer",
    "Qt6VirtualKeyboard", "Qt6Concurrent", "Qt6Help", "Qt6Multimedia",
    "/translations/", "/qml/", "plugins/imageformats/libqgif",
    "plugins/imageformats/libqico", "plugins/imageformats/libqsvg", "plugins/imageformats/libqtga",
    "plugins/imageformats/libqtiff", "plugins/imageformats/libqwbmp",
    "plugins/imageformats/libqpdf", "plugins/imageformats/libqicns", "plugins/iconengines",
    "plugins/networkinformation", "plugins/generic", "plugins/platforminputcontexts",
    "plugins/sqldrivers", "plugins/platforms/libqvnc", "plugins/platforms/libqlinuxfb",
    "plugins/platforms/libqminimal", "plugins/platforms/libqvkkhrdisplay", "plugins/platforms/libqeglfs",
    "plugins/egldeviceintegrations", "plugins/xcbglintegrations/libqxcb-egl-integration",
    # the GTK theme plugin pulls in GTK, cairo, pango and their kin; Qt's own style serves
    "plugins/platformthemes/libqgtk3", "libgtk-3", "libgdk-3", "libcairo", "libpango",
    "libgdk_pixbuf", "libatk", "libepoxy",
    # system libraries with a stable ABI that every desktop Linux has, left to the system
    # (the .deb's Depends names their packages, measured by debdeps.py): D-Bus, which
    # brings systemd's and gcrypt's libraries along, and Kerberos' GSSAPI, which Qt's
    # network library links for proxy sign-in
    "libdbus-1.so", "libgssapi_krb5.so",
]

# macOS ships Qt's libraries as frameworks (QtQml.framework/Versions/A/QtQml)
UNUSED_FRAMEWORKS = [n.replace("Qt6", "Qt", 1) + ".framework/" for n in UNUSED_FILES
                     if n.startswith("Qt6")]


# Windows names plugins without "lib" (plugins/imageformats/qgif.dll)
UNUSED_WINDOWS = [u.replace("/libq", "/q") for u in UNUSED_FILES if "/libq" in u]
LEFT_OUT = UNUSED_FILES + UNUSED_FRAMEWORKS + UNUSED_WINDOWS


def keep(entry) -> bool:
    """Whether a PyInstaller (destination, source, kind) entry stays in the bundle."""
    paths = (entry[0].replace("\\", "/"), str(entry[1]).replace("\\", "/"))
    return not any(u in path for path in paths for u in LEFT_OUT)
