"""Card pictures: from the user's picture folder (one file per card name, as
Cockatrice's custom pictures folder keeps them), else from a disk cache filled on demand
from Scryfall's image service. A card without a picture keeps its drawn frame.

Downloads go through Qt's network classes, asynchronously on the GUI thread's event
loop: a request never blocks a drag, one goes out at a time (Scryfall asks for a pause
between requests), each answer is size-capped and must be an image before it is cached,
and the cache is trimmed to its size limit, oldest first. Only names the viewer may
see are ever asked for. Settings: ``pictures/download`` (on unless switched off, and off
whenever TABLETOP_OFFLINE is set), ``pictures/folder``, ``pictures/cache_mb``,
``pictures/url`` (the image service)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QImage, QPixmap

from tabletop import paths
from tabletop.ui import settings

# a picture asked for: (card name, its printing or None)
Key = tuple[str, tuple[str, str] | None]

SCRYFALL = "https://api.scryfall.com"
EXTENSIONS = (".jpg", ".jpeg", ".png", ".webp")
MAX_PICTURE = 4 << 20  # a "normal" Scryfall image is about 100 KB
PAUSE_MS = 100  # between requests, as Scryfall asks
DEFAULT_CACHE_MB = 300
_UNSAFE = re.compile(r'[\\/:*?"<>|\x00-\x1f]')


def file_stem(name: str) -> str:
    """A card name as a file name: "Fire // Ice" -> "Fire  Ice" (no path characters)."""
    return _UNSAFE.sub("", name).strip(" .")[:150] or "card"


def cache_stem(name: str, printing: tuple[str, str]) -> str:
    """The cache's file name for one printing: "Lightning Bolt (M11) 149"."""
    return file_stem(f"{name} ({printing[0]}) {printing[1]}")


def user_folder() -> Path:
    chosen = settings.value("pictures/folder", "")
    return Path(str(chosen)) if chosen else paths.data_dir() / "pictures"


def cache_folder() -> Path:
    return paths.data_dir() / "picture-cache"


def downloading() -> bool:
    if os.environ.get("TABLETOP_OFFLINE"):
        return False
    return str(settings.value("pictures/download", "true")).lower() == "true"


def cache_limit() -> int:
    try:
        mb = int(settings.value("pictures/cache_mb", DEFAULT_CACHE_MB))
    except (TypeError, ValueError):
        mb = DEFAULT_CACHE_MB
    return max(0, mb) << 20


class Pictures(QObject):
    ready = Signal(str)  # a card name whose picture just arrived

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.nam: Any = None  # Qt's network classes load with the first download, not at start
        # (name, printing) -> picture; None: looked for, none there
        self.memory: dict[Key, QPixmap | None] = {}
        self.queue: list[Key] = []
        self.busy = False
        self.failed: set[Key] = set()  # asked once this session and not found
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self._next)

    def forget(self) -> None:
        """Look again (the folder or the download setting changed)."""
        self.memory.clear()
        self.failed.clear()

    def get(self, name: str, printing: tuple[str, str] | None = None) -> QPixmap | None:
        """The card's picture if one is at hand; else None, and (downloads on) it is
        asked for: ``ready`` tells when it arrives. ``printing``: (set code, collector
        number) when the deck named one; the user's own picture of the name comes first."""
        key = (name, printing)
        if key in self.memory:
            return self.memory[key]  # None: looked for already (ready says if it comes)
        pix = self._from_disk(name, printing)
        if pix is not None:
            self.memory[key] = pix
            return pix
        if downloading() and key not in self.failed and key not in self.queue:
            self.queue.append(key)
            if not self.busy and not self.timer.isActive():
                self.timer.start(0)
        self.memory[key] = None
        return None

    def _from_disk(self, name: str, printing: tuple[str, str] | None = None
                   ) -> QPixmap | None:
        places = [(user_folder(), file_stem(name))]
        if printing is not None:
            places.append((cache_folder(), cache_stem(name, printing)))
        places.append((cache_folder(), file_stem(name)))
        for folder, stem in places:
            for ext in EXTENSIONS:
                for candidate in (stem, stem.lower()):
                    p = folder / f"{candidate}{ext}"
                    if p.is_file() and p.stat().st_size <= MAX_PICTURE:
                        pix = QPixmap(str(p))
                        if not pix.isNull():
                            return pix
        return None

    # ---- downloading ------------------------------------------------------------------
    def url_for(self, name: str, printing: tuple[str, str] | None = None) -> str:
        base = str(settings.value("pictures/url", "") or SCRYFALL).rstrip("/")
        if printing is not None:  # the very printing the deck names
            return (f"{base}/cards/{quote(printing[0].lower(), safe='')}/"
                    f"{quote(printing[1], safe='')}?format=image&version=normal")
        return f"{base}/cards/named?exact={quote(name)}&format=image&version=normal"

    def _next(self) -> None:
        if self.busy or not self.queue or not downloading():
            return
        from PySide6.QtNetwork import QNetworkAccessManager, QNetworkRequest
        if self.nam is None:
            self.nam = QNetworkAccessManager(self)
        key = self.queue.pop(0)
        self.busy = True
        from PySide6.QtCore import QUrl
        req = QNetworkRequest(QUrl(self.url_for(*key)))
        req.setHeader(QNetworkRequest.KnownHeaders.UserAgentHeader, "Tabletop (card pictures)")
        req.setAttribute(QNetworkRequest.Attribute.RedirectPolicyAttribute,
                         QNetworkRequest.RedirectPolicy.NoLessSafeRedirectPolicy)
        req.setTransferTimeout(20000)
        reply = self.nam.get(req)
        reply.downloadProgress.connect(
            lambda got, _total, r=reply: r.abort() if got > MAX_PICTURE else None)
        reply.finished.connect(lambda r=reply, k=key: self._arrived(r, k))

    def _arrived(self, reply: Any, key: Key) -> None:
        from PySide6.QtNetwork import QNetworkReply
        self.busy = False
        try:
            if reply.error() != QNetworkReply.NetworkError.NoError:
                self.failed.add(key)
                return
            data = reply.readAll()
            image = QImage()
            if data.size() > MAX_PICTURE or not image.loadFromData(data):
                self.failed.add(key)  # not a picture (an error page): keep the frame
                return
            name, printing = key
            self._store(cache_stem(name, printing) if printing else file_stem(name),
                        bytes(data), image)
            self.memory[key] = QPixmap.fromImage(image)
            self.ready.emit(name)
        finally:
            reply.deleteLater()
            if self.queue:
                self.timer.start(PAUSE_MS)

    def _store(self, stem: str, data: bytes, image: QImage) -> None:
        folder = cache_folder()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            ext = ".png" if data[:8] == b"\x89PNG\r\n\x1a\n" else ".jpg"
            final = folder / f"{stem}{ext}"
            tmp = final.with_suffix(ext + ".tmp")
            tmp.write_bytes(data)
            os.replace(tmp, final)
            self._trim(folder, keep=final)
        except OSError:
            pass  # a full or read-only disk: the picture is still shown this session

    @staticmethod
    def _trim(folder: Path, keep: Path) -> None:
        """Oldest pictures go until the cache is within its size limit."""
        limit = cache_limit()
        files = [p for p in folder.iterdir() if p.is_file() and p.suffix in EXTENSIONS]
        total = sum(p.stat().st_size for p in files)
        for p in sorted(files, key=lambda p: p.stat().st_mtime):
            if total <= limit:
                break
            if p == keep:
                continue
            total -= p.stat().st_size
            p.unlink(missing_ok=True)


_store: Pictures | None = None


def store() -> Pictures:
    """The application's picture store (made on first use, with the QApplication)."""
    global _store
    if _store is None:
        _store = Pictures()
    return _store
