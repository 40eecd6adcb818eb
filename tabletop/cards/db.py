"""The card database: the built-in set plus imported card data, in SQLite in the
user data folder: names, costs, types, power/toughness/loyalty, colours, layout and
faces, and the oracle text of cards the user imported (the built-in cards carry no
card text: Tabletop ships none).

Imports read MTGJSON (AtomicCards, AllPrintings, a set file; plain, .gz or .xz) or Scryfall's
Oracle or Default Cards bulk JSON as a stream, a card at a time, inside one transaction:
a file that turns out to be bad leaves the database as it was."""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import lzma
import sqlite3
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

from tabletop.cards import builtin
from tabletop.cards.names import fold
from tabletop.engine.errors import InputError, TabletopError
from tabletop.engine.model import Card

SUPERTYPES = {"Basic", "Legendary", "Snow", "World", "Ongoing", "Host", "Elite", "Token"}
CHUNK = 1 << 20
MAX_FILE = 2 << 30
MAX_TEXT = 6 << 30  # decompressed: AllPrintings is about 1.5 GB today
MAX_RATIO = 40  # card JSON compresses about 10:1; a bomb of whitespace, 1000:1
MAX_VALUE = 32 << 20  # one card (or one set of AllPrintings) as JSON text
MAX_CARDS = 1_000_000
MAX_CARD_TEXT = 4000  # the longest oracle texts are about 1,000 characters


class CardDataError(TabletopError):
    """The card database itself cannot be used (damaged, or locked by another program)."""


class ImportCancelled(TabletopError):
    """The person pressed Cancel: the database is as it was."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS cards (name TEXT PRIMARY KEY COLLATE NOCASE, data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS faces (face TEXT NOT NULL COLLATE NOCASE, name TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS faces_face ON faces(face);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS folds (fold TEXT NOT NULL, name TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS folds_fold ON folds(fold);
"""


def default_path() -> Path:
    from tabletop import paths
    return paths.card_database()


def split_type_line(line: str) -> tuple[list[str], list[str], list[str]]:
    left, _, right = line.partition("—")
    words = left.split()
    sup = [w for w in words if w in SUPERTYPES and w != "Token"]
    types = [w for w in words if w not in SUPERTYPES]
    return sup, types, right.split()


class CardDB:
    def __init__(self, path: Path | None = None):
        self.path = Path(path) if path else default_path()
        self._conn: sqlite3.Connection | None = None
        self._indexed = False  # the search index is known to be there, on this connection

    def _db(self, create: bool = False) -> sqlite3.Connection | None:
        if self._conn is None:
            if not self.path.exists() and not create:
                return None
            self.path.parent.mkdir(parents=True, exist_ok=True)
            try:
                conn = sqlite3.connect(self.path, isolation_level=None, timeout=5)  # we say BEGIN
                conn.executescript(SCHEMA)
            except sqlite3.Error as e:
                raise self._problem(e) from None
            self._conn = conn
        return self._conn

    def _problem(self, e: Exception) -> CardDataError:
        text = str(e)
        if "locked" in text or "busy" in text:
            return CardDataError(f"{self.path}: the card database is in use by another "
                                 f"program ({text}); close it and try again")
        return CardDataError(f"{self.path}: the card database is damaged ({text}). "
                             f"Rebuild it (tabletop cards --rebuild, or File > Import card "
                             f"data): the damaged file is kept aside and the built-in cards "
                             f"are always there")

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> Any:
        db = self._db()
        if db is None:
            return None
        try:
            return db.execute(sql, args).fetchone()
        except sqlite3.Error as e:
            raise self._problem(e) from None

    def rebuild(self) -> Path | None:
        """Set a damaged database aside (a dated file beside it) and start an empty one;
        the built-in cards need no database. Returns where the old file went."""
        import time
        self.close()
        aside = None
        if self.path.exists():
            aside = self.path.with_name(f"{self.path.stem} damaged "
                                        f"{time.strftime('%Y-%m-%d %H.%M.%S')}{self.path.suffix}")
            self.path.replace(aside)
        for extra in ("-journal", "-wal", "-shm"):
            side = self.path.with_name(self.path.name + extra)
            if side.exists():
                side.replace(aside.with_name(aside.name + extra) if aside else side)
        self._db(create=True)
        return aside

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self._indexed = False

    # ---- looking up ----------------------------------------------------------------------
    def info(self, name: str) -> dict[str, Any] | None:
        """A card's facts by its name or a face's name, any case."""
        d = builtin.info(name)
        if d is not None:
            return d
        return self._imported(name)

    def _imported(self, name: str) -> dict[str, Any] | None:
        if self._db() is None:
            return None
        row = self._query("SELECT data FROM cards WHERE name = ?", (name,))
        if row is None:
            row = self._query("SELECT c.data FROM faces f JOIN cards c ON c.name = f.name "
                              "WHERE f.face = ? LIMIT 1", (name,))
        if row is None:  # without accents, in NFD, Aether for Æther, Fire/Ice
            row = self._query("SELECT c.data FROM folds f JOIN cards c ON c.name = f.name "
                              "WHERE f.fold = ? LIMIT 1", (fold(name),))
        return json.loads(row[0]) if row else None

    def text(self, name: str) -> str | None:
        """A card's oracle text (each face's, for a card with faces), when imported card
        data has it; None otherwise."""
        d = self._imported(name)  # the built-in cards carry no text
        if d is None:
            return None
        faces = d.get("faces") or []
        if faces and any(f.get("text") for f in faces):
            return "\n\n".join(f"{f.get('name', '')}: {f.get('text', '')}".strip()
                               for f in faces if isinstance(f, dict))
        text = d.get("text")
        return text if isinstance(text, str) else None

    def card(self, name: str) -> Card | None:
        d = self.info(name)
        return Card.from_json(d) if d is not None else None

    def names_like(self, typed: str, limit: int = 30) -> list[str]:
        """Card names for a name being typed: those that start with it first, then those
        with it inside, sorted; built-in and imported cards, any case."""
        typed = typed.strip()
        if not typed:
            return []
        low = typed.casefold()
        found = {n for n in builtin.names() if low in n.casefold()}
        db = self._db()
        if db is not None:
            pattern = "%" + typed.replace("\\", "\\\\").replace("%", "\\%").replace(
                "_", "\\_") + "%"
            try:
                rows = db.execute("SELECT name FROM cards WHERE name LIKE ? ESCAPE '\\' "
                                  "ORDER BY name LIMIT ?", (pattern, limit * 4)).fetchall()
            except sqlite3.Error as e:
                raise self._problem(e) from None
            found.update(r[0] for r in rows)
        ranked = sorted(found, key=lambda n: (not n.casefold().startswith(low), n.casefold()))
        return ranked[:limit]

    def search(self, query: str, limit: int | None = None) -> list[str]:
        """The names of the cards a Scryfall-style query finds (search.py), sorted; a
        query it cannot read raises SearchError naming the part."""
        from tabletop.cards import search
        search.compile_query(query)  # a query it cannot read: said before any work
        db = self._db()
        if db is None:  # no imported cards: the built-in ones, indexed in memory
            db = _builtin_index()
        elif not self._indexed:  # once a connection (an import keeps it up to date)
            try:
                search.ensure_index(db, self._all_imported(db), builtin.all_cards())
            except sqlite3.Error as e:
                raise self._problem(e) from None
            self._indexed = True
        try:
            return search.search(db, query, limit)
        except sqlite3.DatabaseError as e:
            raise self._problem(e) from None

    @staticmethod
    def _all_imported(db: sqlite3.Connection) -> Iterator[dict[str, Any]]:
        for (data,) in db.execute("SELECT data FROM cards"):
            yield json.loads(data)

    def count(self) -> int:
        row = self._query("SELECT COUNT(*) FROM cards")
        return (row[0] if row else 0) + builtin.count()

    def tokens(self) -> list[Card]:
        return builtin.tokens()

    # ---- importing -------------------------------------------------------------------------
    def import_file(self, path: str | Path, progress: Callable[[int, int, int], Any] | None = None,
                    cancelled: Callable[[], bool] | None = None) -> int:
        """Import MTGJSON AtomicCards or Scryfall oracle cards; returns the number of
        cards. ``progress(cards, bytes_read, total_bytes)`` is called as it goes;
        ``cancelled()`` returning True stops it, leaving the database as it was."""
        path = Path(path)
        from tabletop.engine.files import check_regular
        total = check_regular(path, MAX_FILE)
        db = self._db(create=True)
        assert db is not None  # made when missing
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
                from tabletop.cards import search
                search.ensure_index(db, self._all_imported(db), builtin.all_cards())
                for rec in records:
                    batch.append(rec)
                    n += 1
                    if n > MAX_CARDS:
                        raise InputError(f"{path}: more than {MAX_CARDS:,} cards: not card "
                                         f"data Tabletop takes")
                    if cancelled is not None and n % 500 == 0 and cancelled():
                        raise ImportCancelled(f"{path}: the import was cancelled; the card "
                                              f"database is as it was")
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
        except (InputError, ImportCancelled):
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        except sqlite3.Error as e:
            if db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
            raise self._problem(e) from None
        except UnicodeEncodeError:  # a lone surrogate's escape: no database holds it
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise InputError(f"{path}: not valid card data (a text in it is not valid "
                             f"Unicode: a lone surrogate)") from None
        except (OSError, EOFError, lzma.LZMAError, gzip.BadGzipFile, UnicodeDecodeError,
                ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError) as e:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise InputError(f"{path}: not valid card data ({type(e).__name__}: {e})") from None
        if progress is not None:
            progress(n, total, total)
        return n


def _insert(db: sqlite3.Connection, batch: list[dict[str, Any]]) -> None:
    from tabletop.cards import search
    search.index_cards(db, batch)
    db.executemany("INSERT OR REPLACE INTO cards VALUES (?, ?)",
                   [(d["name"], json.dumps(d, separators=(",", ":"))) for d in batch])
    db.executemany("DELETE FROM faces WHERE name = ?", [(d["name"],) for d in batch])
    db.executemany("INSERT INTO faces VALUES (?, ?)",
                   [(face["name"], d["name"]) for d in batch for face in d.get("faces", ())
                    if face.get("name") and face["name"].casefold() != d["name"].casefold()])
    db.executemany("DELETE FROM folds WHERE name = ?", [(d["name"],) for d in batch])
    db.executemany("INSERT INTO folds VALUES (?, ?)",
                   [(k, d["name"]) for d in batch
                    for k in {fold(d["name"]), *(fold(f["name"]) for f in d.get("faces", ())
                                                  if f.get("name"))}])


class _open_text:
    """Open plain, gzip or xz JSON as text (UTF-8, with or without BOM); knows the
    compressed bytes read so far, for progress."""

    def __init__(self, path: Path):
        self.path = path

    def __enter__(self) -> Any:
        from tabletop.engine.files import open_regular
        self.raw = open_regular(self.path)
        magic = self.raw.read(6)
        self.raw.seek(0)
        stream: Any
        if magic[:2] == b"\x1f\x8b":
            stream = io.BufferedReader(_Bounded(gzip.GzipFile(fileobj=self.raw), self.raw,
                                                self.path), CHUNK)
        elif magic == b"\xfd7zXZ\x00":
            stream = io.BufferedReader(_Bounded(lzma.LZMAFile(self.raw), self.raw, self.path),
                                       CHUNK)
        else:
            stream = self.raw
        self.text = io.TextIOWrapper(stream, encoding="utf-8-sig")
        return self.text, self.raw

    def __exit__(self, *exc: object) -> None:
        self.text.close()
        self.raw.close()


class _Bounded(io.RawIOBase):
    """A decompressing stream that stops a bomb: never more than MAX_TEXT bytes, and
    never far more than MAX_RATIO times the compressed bytes read so far."""

    def __init__(self, stream: Any, raw: Any, path: Path) -> None:
        super().__init__()
        self.stream, self.raw, self.path, self.out = stream, raw, path, 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = 0) -> int:
        pos = int(self.stream.seek(offset, whence))
        self.out = pos
        return pos

    def tell(self) -> int:
        return int(self.stream.tell())

    def readinto(self, b: Any) -> int:
        n = int(self.stream.readinto(b))
        self.out += n
        if self.out > MAX_TEXT or self.out > (64 << 20) + MAX_RATIO * max(1, self.raw.tell()):
            raise InputError(f"{self.path}: it decompresses to far more than card data "
                             f"would (a compressed bomb?): not imported")
        return n

    def close(self) -> None:
        self.stream.close()
        super().close()


class _Stream:
    """Reads JSON values one at a time from a text stream (raw_decode over a buffer)."""

    def __init__(self, f: Any, path: Path) -> None:
        self.f, self.path = f, path
        self.buf, self.pos = "", 0
        self.dec = json.JSONDecoder()

    def read_so_far(self, pos: int) -> str:
        return f"near {self.buf[max(0, pos - 10):pos + 10]!r}"

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

    def value(self) -> Any:
        self.skip_ws()
        while True:
            try:
                v, end = self.dec.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as e:
                cut = e.msg.startswith("Unterminated string") or e.pos >= len(self.buf) - 40
                if not cut:  # a real error, not a value cut at the end of the chunk
                    raise InputError(f"{self.path}: not valid JSON ({e.msg}, "
                                     f"{self.read_so_far(e.pos)})") from None
                if len(self.buf) - self.pos > MAX_VALUE:
                    raise InputError(f"{self.path}: one entry is larger than "
                                     f"{MAX_VALUE >> 20} MiB: not card data") from None
                if not self._more():
                    raise InputError(f"{self.path}: the JSON ends in the middle of a value") from None
                continue
            if end == len(self.buf) and self._more():  # a number may go on in the next chunk
                continue
            self.pos = end
            return v


def _peek(f: Any) -> str:
    """The first character that is not white space (read in chunks, not one by one)."""
    while True:
        chunk = f.read(CHUNK)
        if not chunk:
            return ""
        text = chunk.lstrip(" \t\r\n")
        if text:
            f.seek(0)
            return str(text[0])


TAKES = ("Tabletop takes MTGJSON AtomicCards, AllPrintings or a set file, or Scryfall "
         "Oracle Cards or Default Cards")
TOKEN_LAYOUTS = {"token", "double_faced_token", "emblem"}
SKIP_LAYOUTS = {"art_series"}  # Scryfall's art cards share real cards' names


def _keys(d: dict[str, Any], most: int = 6) -> str:
    keys = [str(k)[:30] for k in list(d)[:most]]
    return ", ".join(keys) + (", ..." if len(d) > most else "")


def _not_cards(path: Path, what: str) -> InputError:
    return InputError(f"{path}: {what}: not card data. {TAKES}.")


def _mtgjson(f: Any, path: Path) -> Iterator[dict[str, Any]]:
    """A JSON object: MTGJSON in its three card shapes (AtomicCards: data is name ->
    faces; AllPrintings: set code -> set, each with its cards; one set's file: the set)
    or a Scryfall list or card. Anything else is named for what it looks like."""
    s = _Stream(f, path)
    if not f.seekable():  # pragma: no cover - text wrappers over files are seekable
        raise InputError(f"{path}: cannot read the file as a stream")
    s.expect("{")
    found = False
    seen: set[str] = set()
    top: dict[str, Any] = {}
    while s.skip_ws() not in ("}", ""):
        key = s.value()
        s.expect(":")
        if key != "data":
            value = s.value()
            if len(top) < 64 and isinstance(key, str):
                keep = top.get("object") == "card" or not isinstance(value, (dict, list))
                top[key] = value if keep else type(value)()
        else:
            found = True
            if top.get("object") == "list":  # a Scryfall list (a search result, bulk index)
                yield from _scryfall_items(s, path, seen)
            elif s.skip_ws() == "[":
                raise _not_cards(path, _describe_list(_first_of_list(s)))
            else:
                yield from _mtgjson_data(s, path, seen)
        if s.skip_ws() == ",":
            s.pos += 1
    if found:
        return
    if top.get("object") == "card" and isinstance(top.get("name"), str):
        yield from _scryfall_cards([top], seen)  # one Scryfall card
        return
    raise _not_cards(path, _describe_object(top))


def _mtgjson_data(s: Any, path: Path, seen: set[str]) -> Iterator[dict[str, Any]]:
    s.expect("{")
    kind: str | None = None
    keys: list[str] = []
    n = 0
    while s.skip_ws() != "}":
        name = s.value()
        s.expect(":")
        value = s.value()
        if not isinstance(name, str):
            raise InputError(f"{path}: a key of \"data\" is not a text")
        if len(keys) < 7:
            keys.append(name[:30])
        if kind is None:
            kind = _mtgjson_kind(name, value, path)
        if kind == "atomic":
            if not isinstance(value, list) or not all(isinstance(x, dict) for x in value):
                raise InputError(f"{path}: card {name!r} is not a list of faces")
            if value:
                n += 1
                yield _from_mtgjson(name, value)
        elif kind == "printings" and isinstance(value, dict):
            for rec in _printings(value.get("cards"), seen, path):
                n += 1
                yield rec
        elif kind == "set" and name == "cards":
            for rec in _printings(value, seen, path):
                n += 1
                yield rec
        if s.skip_ws() == ",":
            s.pos += 1
    s.pos += 1
    if n == 0 and kind == "set":
        raise _not_cards(path, _describe_data(keys))


def _mtgjson_kind(name: str, value: Any, path: Path) -> str:
    if isinstance(value, list):
        if all(isinstance(x, dict) for x in value):
            return "atomic"
        raise _not_cards(path, f"MTGJSON data whose \"{name[:30]}\" is a list of words (it "
                               f"looks like Keywords.json or CardTypes.json)")
    if isinstance(value, dict):
        if isinstance(value.get("cards"), list):
            return "printings"
        if "uuid" in value and "name" in value:
            raise _not_cards(path, "MTGJSON cards by identifier (it looks like AllIdentifiers."
                                   "json; import AtomicCards or AllPrintings instead)")
        if {"paper", "mtgo"} & value.keys() or {"retail", "buylist"} & value.keys():
            raise _not_cards(path, "MTGJSON prices (it looks like AllPrices.json)")
        if {"subTypes", "superTypes"} & value.keys():
            raise _not_cards(path, "MTGJSON card types (it looks like CardTypes.json)")
    return "set"  # one set's file: its fields (baseSetSize, name...) then "cards"


def _describe_data(keys: list[str]) -> str:
    k = set(keys)
    if {"date", "version"} >= k:
        return "MTGJSON's Meta.json (the data's date and version, no cards)"
    if k & {"mainBoard", "commander", "sideBoard"}:
        return "an MTGJSON deck file (open it as a deck)"
    return f"MTGJSON data with no cards (its data holds {', '.join(keys)})"


def _describe_list(first: Any) -> str:
    if isinstance(first, dict):
        if first.get("object") == "ruling":
            return "Scryfall rulings (rulings.json)"
        if first.get("object") == "bulk_data":
            return ("Scryfall's list of bulk data files: download Oracle Cards or Default "
                    "Cards from it")
        if first.get("object") == "set" or {"code", "releaseDate"} <= first.keys():
            return "a list of sets (like MTGJSON's SetList.json or Scryfall's sets)"
        if "fileName" in first:
            return "MTGJSON's DeckList.json (a list of decks)"
        return f"a list of objects with the keys {_keys(first)}"
    if first is None:
        return "an empty list"
    return f"a list of {type(first).__name__ if not isinstance(first, str) else 'texts'}"


def _describe_object(top: dict[str, Any]) -> str:
    if top.get("object") == "error":
        detail = str(top.get("details") or top.get("code") or "")[:120]
        return f"a Scryfall error response ({detail})"
    if isinstance(top.get("format"), str) and top["format"].startswith("tabletop"):
        return "a Tabletop file (open it with File > Open)"
    if {"boards", "mainboard", "commanders"} & top.keys():
        return "a deck (it looks like a Moxfield deck; import it as a deck list)"
    if "meta" in top:
        return "MTGJSON with no \"data\""
    if not top:
        return "an empty JSON object"
    return f"a JSON object with the keys {_keys(top)} and no card data"


def _first_of_list(s: Any) -> Any:
    """Read a list's first element, leaving the stream after the list."""
    s.expect("[")
    first = None
    if s.skip_ws() != "]":
        first = s.value()
        while s.skip_ws() == ",":
            s.pos += 1
            s.value()
    s.expect("]")
    return first


def _printings(cards: Any, seen: set[str], path: Path) -> Iterator[dict[str, Any]]:
    """Cards of one set, printing by printing: each card once (its faces together)."""
    if not isinstance(cards, list):
        return
    groups: dict[str, Any] = {}  # name -> side -> the first printing's face on that side
    for c in cards:
        if isinstance(c, dict) and isinstance(c.get("name"), str) and c["name"] not in seen:
            # a set prints a card many times (four Mountains): one face a side, so its
            # text is kept once; a split or double-faced card has a face on each side
            groups.setdefault(c["name"], {}).setdefault(str(c.get("side") or ""), c)
    for name, sides in groups.items():
        seen.add(name)
        yield _from_mtgjson(name, [sides[k] for k in sorted(sides)])


def _scryfall(f: Any, path: Path) -> Iterator[dict[str, Any]]:
    """A JSON array: Scryfall Oracle Cards (one per card) or Default Cards (one per
    printing: each name once, art cards skipped, a token never replacing a card)."""
    yield from _scryfall_items(_Stream(f, path), path, set())


def _scryfall_items(s: Any, path: Path, seen: set[Any]) -> Iterator[dict[str, Any]]:
    s.expect("[")
    first = True
    while s.skip_ws() not in ("]", ""):
        card = s.value()
        if not isinstance(card, dict) or "name" not in card or card.get("object") not in (
                None, "card"):
            if first:
                raise _not_cards(path, _describe_list(card))
            raise InputError(f"{path}: an entry is not a Scryfall card object")
        first = False
        yield from _scryfall_cards([card], seen)
        if s.skip_ws() == ",":
            s.pos += 1
    s.expect("]")


def _scryfall_cards(cards: Any, seen: set[Any]) -> Iterator[dict[str, Any]]:
    for card in cards:
        name = card.get("name")
        if not isinstance(name, str) or card.get("layout") in SKIP_LAYOUTS:
            continue
        token = card.get("layout") in TOKEN_LAYOUTS
        key = name.casefold()
        if key in seen or (token and ("token", key) in seen):
            continue
        seen.add(("token", key) if token else key)
        yield _from_scryfall(card)


def _face_mtgjson(face: dict[str, Any]) -> dict[str, Any]:
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
    _text(d, face.get("text"))
    return d


def _text(d: dict[str, Any], text: Any) -> None:
    """The card's oracle text, kept for the card preview and the inspector."""
    if isinstance(text, str) and text.strip():
        d["text"] = text[:MAX_CARD_TEXT]


def _search_facts(d: dict[str, Any], mv: Any, identity: Any, legalities: Any,
                  commander: Any) -> None:
    """What card search reads (search.py): mana value, colour identity, the formats the
    card is legal, banned or restricted in, and whether it can be a commander."""
    if isinstance(mv, int | float) and not isinstance(mv, bool) and 0 <= mv < 1e6:
        d["mv"] = float(mv)
    if isinstance(identity, list):
        d["identity"] = [str(x) for x in identity if str(x) in ("W", "U", "B", "R", "G")]
    if isinstance(legalities, dict):
        legal = {str(f)[:40].lower(): str(v).lower() for f, v in list(legalities.items())[:60]
                 if str(v).lower() in ("legal", "banned", "restricted")}
        if legal:
            d["legal"] = legal
    if commander is True:
        d["commander"] = True


def _from_mtgjson(name: str, faces: list[dict[str, Any]]) -> dict[str, Any]:
    first = faces[0]
    d = {**_face_mtgjson(first), "name": name, "layout": first.get("layout", "normal")}
    if len(faces) > 1:
        d["faces"] = [_face_mtgjson(f) for f in faces]
    skills = first.get("leadershipSkills")
    _search_facts(d, first.get("manaValue", first.get("convertedManaCost")),
                  first.get("colorIdentity"), first.get("legalities"),
                  skills.get("commander") if isinstance(skills, dict) else None)
    return d


def _face_scryfall(face: dict[str, Any]) -> dict[str, Any]:
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
    _text(d, face.get("oracle_text"))
    return d


def _from_scryfall(card: dict[str, Any]) -> dict[str, Any]:
    faces = card.get("card_faces") or []
    base = _face_scryfall(faces[0] if faces and "type_line" not in card else card)
    if faces and "type_line" in card and " // " in card.get("type_line", ""):
        base = _face_scryfall({**faces[0], "name": card["name"]})
    d = {**base, "name": card["name"], "layout": card.get("layout", "normal")}
    if faces:
        d["faces"] = [_face_scryfall(f) for f in faces]
        if not d.get("colors") and card.get("colors"):
            d["colors"] = list(card["colors"])
    _search_facts(d, card.get("cmc"), card.get("color_identity"), card.get("legalities"),
                  None)
    return d


@cache
def _builtin_index() -> sqlite3.Connection:
    """The built-in cards' search index, in memory (while no card data is imported)."""
    from tabletop.cards import search
    db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    db.executescript(SCHEMA)
    search.ensure_index(db, None, builtin.all_cards())
    return db


@cache
def default() -> CardDB:
    return CardDB()
