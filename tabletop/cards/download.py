"""Card data in one step: download a card data file (by default MTGJSON's compressed
AtomicCards), check it against the SHA-256 its publisher puts beside it (``URL.sha256``),
and import it. Nothing here knows Qt: the command line and the GUI's worker thread use it.

Bounded: a size cap on the download, a timeout on every read, a Cancel that is checked
between chunks. A failed or mismatched download changes nothing: the file goes to a
temporary name in the data folder and the card database imports it in one transaction."""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tabletop.engine.errors import InputError, TabletopError

DEFAULT_URL = "https://mtgjson.com/api/v5/AtomicCards.json.gz"
MAX_DOWNLOAD = 1 << 30  # AtomicCards.json.gz is about 40 MB; AllPrintings.json.xz ~ 100 MB
CHUNK = 1 << 16
TIMEOUT = 30  # seconds without a byte before giving up
_HEX = re.compile(r"\b[0-9a-fA-F]{64}\b")


class DownloadError(TabletopError):
    """The download could not be made: offline, refused, or cut short."""


class Offline(DownloadError):
    """No connection to the server at all (DNS, refused, unreachable)."""


def _open(url: str) -> Any:
    if not re.match(r"https?://", url):
        raise InputError(f"{url}: only http:// and https:// addresses are downloaded")
    req = urllib.request.Request(url, headers={"User-Agent": "Tabletop (card data)"})
    try:
        return urllib.request.urlopen(req, timeout=TIMEOUT)
    except urllib.error.HTTPError as e:
        raise DownloadError(f"{url}: the server answered {e.code} {e.reason}") from None
    except urllib.error.URLError as e:
        raise Offline(f"{url}: cannot reach the server ({e.reason}); are you offline?") \
            from None
    except (TimeoutError, OSError) as e:
        raise Offline(f"{url}: cannot reach the server ({e})") from None


def published_sha256(url: str) -> str:
    """The SHA-256 published beside the file (``URL.sha256``), in lower case."""
    with _open(url + ".sha256") as r:
        text = r.read(4096).decode("ascii", "replace")
    m = _HEX.search(text)
    if m is None:
        raise DownloadError(f"{url}.sha256: holds no SHA-256 (64 hexadecimal digits)")
    return m.group(0).lower()


def fetch(url: str, dest: Path, progress: Callable[[int, int], Any] | None = None,
          cancelled: Callable[[], bool] | None = None, limit: int = MAX_DOWNLOAD) -> str:
    """Download ``url`` to ``dest``; returns the SHA-256 of what arrived.
    ``progress(read, total)`` (total 0 when the server does not say)."""
    from tabletop.cards.db import ImportCancelled
    digest = hashlib.sha256()
    with _open(url) as r:
        total = int(r.headers.get("Content-Length") or 0)
        if total > limit:
            raise DownloadError(f"{url}: {total:,} bytes is more than the {limit:,} allowed")
        read = 0
        with open(dest, "wb") as out:
            while True:
                if cancelled is not None and cancelled():
                    raise ImportCancelled("the download was cancelled; nothing changed")
                try:
                    chunk = r.read(CHUNK)
                except (TimeoutError, OSError) as e:
                    raise DownloadError(f"{url}: the download was cut short ({e})") from None
                if not chunk:
                    break
                read += len(chunk)
                if read > limit:
                    raise DownloadError(f"{url}: more than the {limit:,} bytes allowed")
                digest.update(chunk)
                out.write(chunk)
                if progress is not None:
                    progress(read, total)
        if total and read != total:
            raise DownloadError(f"{url}: the download was cut short ({read:,} of {total:,} "
                                f"bytes)")
    return digest.hexdigest()


def download_and_import(db: Any, url: str = DEFAULT_URL,
                        progress: Callable[[str, int, int], Any] | None = None,
                        cancelled: Callable[[], bool] | None = None,
                        check: bool = True) -> int:
    """Download card data, check its SHA-256 against ``URL.sha256``, import it into
    ``db``; returns the number of cards. ``progress(stage, done, total)``: stage is
    "download" (bytes) or "import" (bytes read of the file). Any failure leaves the
    card database as it was."""
    want = published_sha256(url) if check else None
    folder = db.path.parent
    folder.mkdir(parents=True, exist_ok=True)
    name = url.rstrip("/").rsplit("/", 1)[-1] or "cards.json"
    suffix = "".join(Path(name).suffixes[-2:]) or ".json"
    fd, tmp = tempfile.mkstemp(prefix="download-", suffix=suffix, dir=folder)
    os.close(fd)
    path = Path(tmp)
    try:
        got = fetch(url, path, (lambda r, t: progress("download", r, t)) if progress else None,
                    cancelled)
        if want is not None and got != want:
            raise DownloadError(f"{url}: the file's SHA-256 is {got}, but the publisher's "
                                f"is {want}; the download is damaged or not the published "
                                f"file. Nothing was imported")
        imported: int = db.import_file(path, (lambda n, r, t: progress("import", r, t))
                                       if progress else None, cancelled)
        return imported
    finally:
        path.unlink(missing_ok=True)
