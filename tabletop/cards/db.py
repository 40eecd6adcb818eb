"""The card database: the built-in set plus imported card data, in SQLite in the
user data folder. Facts only: names, costs, types, power/toughness/loyalty,
colours, layout and faces; never rules text.

Imports read MTGJSON ``AtomicCards.json`` (plain, .gz or .xz) or Scryfall's
oracle-cards bulk JSON as a stream, a card at a time, inside one transaction:
a file that turns out to be bad leaves the database as it was."""

from __future__ import annotations

import gzip
import json
import lzma
import sqlite3
from functools import cache
from pathlib import Path

from tabletop.cards import builtin
from tabletop.engine.errors import InputError
from tabletop.engine.model import Card

SUPERTYPES = {"Basic", "Legendary", "Snow", "World", "Ongoing", "Host", "Elite", "Token"}
CHUNK = 1 << 20
MAX_FILE = 2 << 30

SCHEMA = """
CREATE TABLE IF NOT EXISTS cards (name TEXT PRIMARY KEY COLLATE NOCASE, data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS faces (face TEXT NOT NULL COLLATE NOCASE, name TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS faces_face ON faces(face);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
"""


def default_path() -> Path:
    import platformdirs
    return Path(platformdirs.user_data_dir("tabletop", appauthor=False)) / "cards.sqlite3"


def to_card(d: dict) -> Card:
    return Card.from_json(d)


def split_type_line(line: str) -> tuple[list, list, list]:
    left, _, right = line.partition("—")
    words = left.split()
    sup = [w for w in words if w in SUPERTYPES and w != "Token"]
    types = [w for w in words if w not in SUPERTYPES]
    return sup, types, right.split()


class CardDB:
    def __init__(self, path: Path | None = None):
        self.path = Path(path) if path else default_path()
        self._conn: sqlite3.Connection | None = None

    def _db(self, create: bool = False) -> sqlite3.Connection | None:
        if self._conn is None:
            if not self.path.exists() and not create:
                return None
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(self.path, isolation_level=None)  # we say BEGIN
            self._conn.executescript(SCHEMA)
        return self._conn

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    # ---- looking up ----------------------------------------------------------------------
    def info(self, name: str) -> dict | None:
        """A card's facts by its name or a face's name, any case."""
        d = builtin.info(name)
        if d is not None:
            return d
        db = self._db()
        if db is None:
            return None
        row = db.execute("SELECT data FROM cards WHERE name = ?", (name,)).fetchone()
        if row is None:
            row = db.execute("SELECT c.data FROM faces f JOIN cards c ON c.name = f.name "
                             "WHERE f.face = ? LIMIT 1", (name,)).fetchone()
        return json.loads(row[0]) if row else None

    def card(self, name: str) -> Card | None:
        d = self.info(name)
        return to_card(d) if d is not None else None

    def count(self) -> int:
        db = self._db()
        return (db.execute("SELECT COUNT(*) FROM cards").fetchone()[0] if db else 0) \
            + builtin.count()

    def tokens(self) -> list[Card]:
        return builtin.tokens()

    # ---- importing -------------------------------------------------------------------------
    def import_file(self, path, progress=None) -> int:
        """Import MTGJSON AtomicCards or Scryfall oracle cards; returns the number of
        cards. ``progress(cards, bytes_read, total_bytes)`` is called as it goes."""
        path = Path(path)
        from tabletop.engine.files import check_regular
        total = check_regular(path, MAX_FILE)
        db = self._db(create=True)
        n = 0
        try:
            with _open_text(path) as (f, raw):
                first = _peek(f)
                if first == "{":
                    records = _mtgjson(f, path)
                elif first == "[":
                    records = _scryfall(f, path)
                else:
                    raise InputError(f"{path}: not MTGJSON or Scryfall card data (it does not "
                                     "start with a JSON object or array)")
                batch = []
                db.execute("BEGIN")
                for rec in records:
                    batch.append(rec)
                    n += 1
                    if len(batch) >= 2000:
                        _insert(db, batch)
                        batch.clear()
                        if progress is not None:
                            progress(n, raw.tell(), total)
                _insert(db, batch)
                if n == 0:
                    raise InputError(f"{path}: no cards found")
                db.execute("INSERT OR REPLACE INTO meta VALUES ('last_import', ?)", (str(path),))
                db.execute("COMMIT")
        except InputError:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        except (OSError, EOFError, lzma.LZMAError, gzip.BadGzipFile, UnicodeDecodeError,
                ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError) as e:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise InputError(f"{path}: not valid card data ({type(e).__name__}: {e})") from None
        if progress is not None:
            progress(n, total, total)
        return n


def _insert(db, batch) -> None:
    db.executemany("INSERT OR REPLACE INTO cards VALUES (?, ?)",
                   [(d["name"], json.dumps(d, separators=(",", ":"))) for d in batch])
    db.executemany("DELETE FROM faces WHERE name = ?", [(d["name"],) for d in batch])
    db.executemany("INSERT INTO faces VALUES (?, ?)",
                   [(face["name"], d["name"]) for d in batch for face in d.get("faces", ())
                    if face.get("name") and face["name"].casefold() != d["name"].casefold()])


class _open_text:
    """Open plain, gzip or xz JSON as text (UTF-8, with or without BOM); knows the
    compressed bytes read so far, for progress."""

    def __init__(self, path: Path):
        self.path = path

    def __enter__(self):
        from tabletop.engine.files import open_regular
        self.raw = open_regular(self.path)
        magic = self.raw.read(6)
        self.raw.seek(0)
        if magic[:2] == b"\x1f\x8b":
            stream = gzip.GzipFile(fileobj=self.raw)
        elif magic == b"\xfd7zXZ\x00":
            stream = lzma.LZMAFile(self.raw)
        else:
            stream = self.raw
        import io
        self.text = io.TextIOWrapper(stream, encoding="utf-8-sig")
        return self.text, self.raw

    def __exit__(self, *exc):
        self.text.close()
        self.raw.close()
        return False


class _Stream:
    """Reads JSON values one at a time from a text stream (raw_decode over a buffer)."""

    def __init__(self, f, path):
        self.f, self.path = f, path
        self.buf, self.pos = "", 0
        self.dec = json.JSONDecoder()

    def _more(self) -> bool:
        chunk = self.f.read(CHUNK)
        if not chunk:
            return False
        self.buf = self.buf[self.pos:] + chunk
        self.pos = 0
        return True

    def skip_ws(self) -> str:
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] in " \t\r\n":
                self.pos += 1
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if not self._more():
                return ""

    def expect(self, ch: str) -> None:
        if self.skip_ws() != ch:
            got = self.buf[self.pos:self.pos + 20]
            raise InputError(f"{self.path}: not valid card data (expected {ch!r}, found {got!r})")
        self.pos += 1

    def value(self):
        self.skip_ws()
        while True:
            try:
                v, end = self.dec.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError:
                if not self._more():
                    raise InputError(f"{self.path}: the JSON ends in the middle of a value") from None
                continue
            if end == len(self.buf) and self._more():  # a number may go on in the next chunk
                continue
            self.pos = end
            return v


def _peek(f) -> str:
    while True:
        ch = f.read(1)
        if not ch:
            return ""
        if ch not in " \t\r\n":
            f.seek(0)
            return ch


def _mtgjson(f, path):
    s = _Stream(f, path)
    if not f.seekable():  # pragma: no cover - text wrappers over files are seekable
        raise InputError(f"{path}: cannot read the file as a stream")
    s.expect("{")
    found = False
    while s.skip_ws() not in ("}", ""):
        key = s.value()
        s.expect(":")
        if key != "data":
            s.value()
        else:
            found = True
            s.expect("{")
            while s.skip_ws() != "}":
                name = s.value()
                s.expect(":")
                faces = s.value()
                if not isinstance(name, str) or not isinstance(faces, list):
                    raise InputError(f"{path}: card {name!r} is not a list of faces")
                yield _from_mtgjson(name, faces)
                if s.skip_ws() == ",":
                    s.pos += 1
            s.pos += 1
        if s.skip_ws() == ",":
            s.pos += 1
    if not found:
        raise InputError(f"{path}: no \"data\" object: not MTGJSON AtomicCards")


def _scryfall(f, path):
    s = _Stream(f, path)
    s.expect("[")
    while s.skip_ws() not in ("]", ""):
        card = s.value()
        if not isinstance(card, dict) or "name" not in card:
            raise InputError(f"{path}: an entry is not a Scryfall card object")
        yield _from_scryfall(card)
        if s.skip_ws() == ",":
            s.pos += 1


def _face_mtgjson(face: dict) -> dict:
    d = {"name": face.get("faceName") or face["name"]}
    if face.get("manaCost"):
        d["mana_cost"] = face["manaCost"]
    for ours, theirs in (("types", "types"), ("subtypes", "subtypes"), ("supertypes", "supertypes"),
                         ("colors", "colors")):
        if face.get(theirs):
            d[ours] = [str(x) for x in face[theirs]]
    for key in ("power", "toughness", "loyalty"):
        if face.get(key) is not None:
            d[key] = str(face[key])
    return d


def _from_mtgjson(name: str, faces: list) -> dict:
    first = faces[0]
    d = {**_face_mtgjson(first), "name": name, "layout": first.get("layout", "normal")}
    if len(faces) > 1:
        d["faces"] = [_face_mtgjson(f) for f in faces]
    return d


def _face_scryfall(face: dict) -> dict:
    sup, types, sub = split_type_line(face.get("type_line", ""))
    d = {"name": face["name"]}
    if face.get("mana_cost"):
        d["mana_cost"] = face["mana_cost"]
    if types:
        d["types"] = types
    if sub:
        d["subtypes"] = sub
    if sup:
        d["supertypes"] = sup
    if face.get("colors"):
        d["colors"] = list(face["colors"])
    for key in ("power", "toughness", "loyalty"):
        if face.get(key) is not None:
            d[key] = str(face[key])
    return d


def _from_scryfall(card: dict) -> dict:
    faces = card.get("card_faces") or []
    base = _face_scryfall(faces[0] if faces and "type_line" not in card else card)
    if faces and "type_line" in card and " // " in card.get("type_line", ""):
        base = _face_scryfall({**faces[0], "name": card["name"]})
    d = {**base, "name": card["name"], "layout": card.get("layout", "normal")}
    if faces:
        d["faces"] = [_face_scryfall(f) for f in faces]
        if not d.get("colors") and card.get("colors"):
            d["colors"] = list(card["colors"])
    return d


@cache
def default() -> CardDB:
    return CardDB()
