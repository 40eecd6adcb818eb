"""Searching the card database offline, in the syntax players know from Scryfall.

A query is words of the name, quoted phrases, and terms ``key:value`` (or a comparison
``key>=value``), joined by spaces (and), ``OR``, ``-`` (not) and parentheses:

  t: / type:         words of the type line          t:creature t:"legendary angel"
  o: / oracle:       words or a phrase of the text    o:flying o:"draw a card"
  c: / color:        colours (w u b r g, names, c for colourless, m for multicoloured)
                     ``c:rg`` at least red and green; ``c=rg`` exactly; ``c<=rg`` within
  id: / identity:    colour identity (``id:wu`` within white and blue, as Scryfall)
  mv / cmc, pow / power, tou / toughness, loy / loyalty: numbers, = != < <= > >=, or
                     another of these (``pow>tou``)
  f: / format: / legal:, banned:, restricted:   legality in a format (the card data's)
  is:commander       a card that can be a commander
  name: / n:         words of the name (as bare words)

The facts a query needs are indexed columns and an FTS5 index of the card database,
built as cards are imported (``index_cards``); the built-in cards are in the index too.
A query that cannot be read raises ``SearchError`` naming the part."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from tabletop.engine.errors import InputError

COLOR_BITS = {"W": 1, "U": 2, "B": 4, "R": 8, "G": 16}
COLOR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G",
               "colorless": "", "colourless": "", "c": ""}
INDEX_VERSION = "1"
NOT_CARDS = frozenset({"token", "double_faced_token", "emblem", "art_series"})
INDEX_SCHEMA = """
CREATE TABLE IF NOT EXISTS search (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    mv REAL, colors INTEGER NOT NULL DEFAULT 0, identity INTEGER NOT NULL DEFAULT 0,
    pow REAL, tou REAL, loy REAL, commander INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS search_mv ON search(mv);
CREATE INDEX IF NOT EXISTS search_colors ON search(colors);
CREATE INDEX IF NOT EXISTS search_identity ON search(identity);
CREATE TABLE IF NOT EXISTS legal (id INTEGER NOT NULL, format TEXT NOT NULL, status TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS legal_format ON legal(format, status, id);
CREATE INDEX IF NOT EXISTS legal_id ON legal(id);
CREATE VIRTUAL TABLE IF NOT EXISTS search_text USING fts5(name, type_line, text,
    tokenize = 'unicode61 remove_diacritics 2');
"""
NUMERIC = {"mv": "mv", "cmc": "mv", "manavalue": "mv", "pow": "pow", "power": "pow",
           "tou": "tou", "toughness": "tou", "loy": "loy", "loyalty": "loy"}
KEYS = ("t", "type", "o", "oracle", "c", "color", "colour", "id", "identity", "ci",
        *NUMERIC, "f", "format", "legal", "banned", "restricted", "is", "name", "n")
OPS = ("<=", ">=", "!=", ":", "=", "<", ">")


class SearchError(InputError):
    """A query that cannot be read; the message names the part."""


# ---- the index --------------------------------------------------------------------------
def colors_mask(letters: Iterable[str]) -> int:
    mask = 0
    for x in letters:
        mask |= COLOR_BITS.get(str(x).upper(), 0)
    return mask


def _number(v: Any) -> float | None:
    if isinstance(v, int | float) and not isinstance(v, bool):
        return float(v)
    if isinstance(v, str):
        try:
            return float(v)
        except ValueError:
            return None  # "*", "1+*": no number
    return None


def mana_value(cost: str) -> float:
    """A mana cost's mana value (202.3), where the card data does not give it."""
    mv = 0.0
    for sym in re.findall(r"\{([^}]*)\}", cost or ""):
        if sym.isdigit():
            mv += int(sym)
        elif sym.upper() in ("X", "Y", "Z"):
            continue
        elif sym.startswith("2/"):
            mv += 2
        else:
            mv += 1
    return mv


def index_row(d: dict[str, Any]) -> tuple[tuple[Any, ...], str, str, list[tuple[str, str]]]:
    """A card's indexed facts: (columns), its type line, its text, its legalities."""
    faces = d.get("faces") or []
    first = faces[0] if faces else d
    mv = _number(d.get("mv"))
    if mv is None:
        mv = mana_value(str(d.get("mana_cost") or first.get("mana_cost") or ""))
    colors = set(d.get("colors") or [])
    for f in faces:
        colors |= set(f.get("colors") or [])
    identity = d.get("identity")
    if identity is None:  # the data lacks it: the colours and the cost's symbols
        identity = list(colors) + re.findall(r"[WUBRG]", str(d.get("mana_cost") or ""))
    type_line = " // ".join(_type_line(f) for f in (faces or [d]))
    text = "\n".join(str(f.get("text") or "") for f in (faces or [d])) or ""
    legal = [(str(k).lower(), str(v).lower()) for k, v in (d.get("legal") or {}).items()]
    commander = bool(d.get("commander")) or _can_command(d)
    cols = (d["name"], mv, colors_mask(colors), colors_mask(identity),
            _number(first.get("power")), _number(first.get("toughness")),
            _number(first.get("loyalty")), int(commander))
    return cols, type_line, text, legal


def _type_line(d: dict[str, Any]) -> str:
    left = " ".join([*(d.get("supertypes") or []), *(d.get("types") or [])])
    sub = " ".join(d.get("subtypes") or [])
    return f"{left} — {sub}" if sub else left


def _can_command(d: dict[str, Any]) -> bool:
    """903.3: a legendary creature, or a card whose text says it can be your commander."""
    first = (d.get("faces") or [d])[0]
    if "Legendary" in (first.get("supertypes") or []) and "Creature" in (
            first.get("types") or []):
        return True
    return "can be your commander" in str(d.get("text") or first.get("text") or "")


def index_cards(db: sqlite3.Connection, cards: Iterable[dict[str, Any]]) -> None:
    """Put these cards in the search index (replacing what it had for their names); the
    caller holds the transaction. Done a batch at a time: an import indexes 30,000."""
    batch: dict[str, dict[str, Any]] = {}
    for d in cards:
        if d.get("layout") in NOT_CARDS:
            continue  # tokens and emblems are made, not put in decks: not found by search
        batch[d["name"].casefold()] = d
        if len(batch) >= 2000:
            _index_batch(db, list(batch.values()))
            batch.clear()
    if batch:
        _index_batch(db, list(batch.values()))


def _index_batch(db: sqlite3.Connection, cards: list[dict[str, Any]]) -> None:
    names = [d["name"] for d in cards]
    old: list[int] = []
    for k in range(0, len(names), 500):
        part = names[k:k + 500]
        marks = ", ".join("?" for _ in part)
        old += [r[0] for r in db.execute(
            f"SELECT id FROM search WHERE name IN ({marks})", part)]
    if old:
        db.executemany("DELETE FROM search_text WHERE rowid = ?", [(i,) for i in old])
        db.executemany("DELETE FROM legal WHERE id = ?", [(i,) for i in old])
        db.executemany("DELETE FROM search WHERE id = ?", [(i,) for i in old])
    first = db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM search").fetchone()[0]
    rows, texts, legal = [], [], []
    for rid, d in enumerate(cards, first):
        cols, type_line, text, legalities = index_row(d)
        rows.append((rid, *cols))
        texts.append((rid, d["name"], type_line, text))
        legal += [(rid, f, st) for f, st in legalities]
    db.executemany("INSERT INTO search (id, name, mv, colors, identity, pow, tou, loy, "
                   "commander) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    db.executemany("INSERT INTO search_text (rowid, name, type_line, text) "
                   "VALUES (?, ?, ?, ?)", texts)
    db.executemany("INSERT INTO legal VALUES (?, ?, ?)", legal)


def ensure_index(db: sqlite3.Connection, imported: Iterator[dict[str, Any]] | None,
                 builtins: Iterable[dict[str, Any]]) -> None:
    """The index, made (once) from the cards the database holds and the built-in ones
    it lacks, if it is not there or is of an older version."""
    for statement in INDEX_SCHEMA.split(";"):  # (executescript would end a transaction)
        if statement.strip():
            db.execute(statement)
    row = db.execute("SELECT value FROM meta WHERE key = 'search_index'").fetchone() \
        if _has_meta(db) else None
    if row is not None and row[0] == INDEX_VERSION:
        return
    began = not db.in_transaction
    if began:
        db.execute("BEGIN")
    try:
        for table in ("search", "legal", "search_text"):
            db.execute(f"DELETE FROM {table}")  # names of our own tables
        index_cards(db, imported or ())
        known = {r[0].casefold() for r in db.execute("SELECT name FROM search")}
        index_cards(db, (d for d in builtins if d["name"].casefold() not in known))
        if _has_meta(db):
            db.execute("INSERT OR REPLACE INTO meta VALUES ('search_index', ?)",
                       (INDEX_VERSION,))
        if began:
            db.execute("COMMIT")
    except BaseException:
        if began and db.in_transaction:
            db.execute("ROLLBACK")
        raise


def _has_meta(db: sqlite3.Connection) -> bool:
    return db.execute("SELECT 1 FROM sqlite_master WHERE name = 'meta'").fetchone() is not None


# ---- reading a query -----------------------------------------------------------------------
@dataclass(frozen=True)
class Token:
    kind: str  # "word", "phrase", "term", "or", "not", "(", ")"
    text: str  # as written
    key: str = ""
    op: str = ""
    value: str = ""


_TERM = re.compile(r"([A-Za-z]+)(<=|>=|!=|:|=|<|>)")


def tokens(query: str) -> list[Token]:
    out: list[Token] = []
    i, n = 0, len(query)
    while i < n:
        ch = query[i]
        if ch.isspace():
            i += 1
            continue
        if ch in "()":
            out.append(Token(ch, ch))
            i += 1
            continue
        if ch == "-" and i + 1 < n and not query[i + 1].isspace():
            out.append(Token("not", "-"))
            i += 1
            continue
        if ch == '"':
            end = query.find('"', i + 1)
            if end < 0:
                raise SearchError(f"the query's part {query[i:]!r} has no closing quote")
            out.append(Token("phrase", query[i:end + 1], value=query[i + 1:end]))
            i = end + 1
            continue
        m = _TERM.match(query, i)
        if m is not None:
            start, i = i, m.end()
            if i < n and query[i] == '"':
                end = query.find('"', i + 1)
                if end < 0:
                    raise SearchError(f"the query's part {query[start:]!r} has no closing "
                                      f"quote")
                value, i = query[i + 1:end], end + 1
            else:
                j = i
                while j < n and not query[j].isspace() and query[j] not in "()":
                    j += 1
                value, i = query[i:j], j
            out.append(Token("term", query[start:i], m.group(1).lower(), m.group(2), value))
            continue
        j = i
        while j < n and not query[j].isspace() and query[j] not in '()"':
            j += 1
        word = query[i:j]
        out.append(Token("or", word) if word in ("OR", "or") else Token("word", word,
                                                                        value=word))
        i = j
    return out


Sql = tuple[str, list[Any]]


class _Parser:
    def __init__(self, toks: list[Token]) -> None:
        self.toks, self.i = toks, 0

    def peek(self) -> Token | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def any(self) -> Sql:
        parts = [self.all()]
        while (t := self.peek()) is not None and t.kind == "or":
            self.i += 1
            if self.peek() is None or self.peek().kind in ("or", ")"):  # type: ignore[union-attr]
                raise SearchError("the query's part 'OR' has nothing after it")
            parts.append(self.all())
        if len(parts) == 1:
            return parts[0]
        return "(" + " OR ".join(p for p, _ in parts) + ")", [x for _, a in parts for x in a]

    def all(self) -> Sql:
        parts: list[Sql] = []
        while (t := self.peek()) is not None and t.kind not in ("or", ")"):
            parts.append(self.one())
        if not parts:
            t = self.peek()
            raise SearchError(f"the query's part {t.text!r} has nothing before it" if t
                              else "the query is empty")
        return "(" + " AND ".join(p for p, _ in parts) + ")", [x for _, a in parts for x in a]

    def one(self) -> Sql:
        t = self.peek()
        assert t is not None
        self.i += 1
        if t.kind == "not":
            if self.peek() is None or self.peek().kind in ("or", ")"):  # type: ignore[union-attr]
                raise SearchError("the query's part '-' negates nothing")
            sql, args = self.one()
            return f"NOT {sql}", args
        if t.kind == "(":
            inner = self.any()
            closing = self.peek()
            if closing is None or closing.kind != ")":
                raise SearchError("the query's part '(' is never closed")
            self.i += 1
            return inner
        if t.kind == ")":
            raise SearchError("the query's part ')' closes nothing")
        if t.kind in ("word", "phrase"):
            return _text("name", t.value, t.text, prefix=t.kind == "word")
        return _term(t)


def _fts(value: str) -> str:
    return '"' + value.replace('"', '""') + '"'


def _text(column: str, value: str, part: str, prefix: bool) -> Sql:
    words = re.findall(r"\w+", value, re.UNICODE)
    if not words:
        raise SearchError(f"the query's part {part!r} has no words to look for")
    phrase = _fts(" ".join(words)) + ("*" if prefix else "")
    return ("s.id IN (SELECT rowid FROM search_text WHERE search_text MATCH ?)",
            [f"{column} : {phrase}"])


def _colors(value: str, part: str) -> int | None:
    """A colour value as a mask (None: multicoloured)."""
    v = value.lower()
    if v in ("m", "multicolor", "multicolour", "multicolored", "multicoloured"):
        return None
    if v in COLOR_WORDS:
        return colors_mask(COLOR_WORDS[v])
    if not v or any(ch not in "wubrg" for ch in v):
        raise SearchError(f"the query's part {part!r}: {value!r} is not colours (w, u, b, r, "
                          f"g, their names, c for colourless or m for multicoloured)")
    return colors_mask(v)


def _term(t: Token) -> Sql:
    key, op, value, part = t.key, t.op, t.value, t.text
    if key not in KEYS:
        raise SearchError(f"the query's part {part!r}: unknown key {key!r} (keys: t, o, c, "
                          f"id, mv, pow, tou, loy, f, banned, restricted, is, name)")
    if not value:
        raise SearchError(f"the query's part {part!r} gives no value")
    if key in ("t", "type"):
        _only(part, op, (":", "="))
        return _text("type_line", value, part, prefix=True)
    if key in ("o", "oracle"):
        _only(part, op, (":", "="))
        return _text("text", value, part, prefix=False)
    if key in ("name", "n"):
        _only(part, op, (":", "="))
        return _text("name", value, part, prefix=True)
    if key in ("c", "color", "colour", "id", "identity", "ci"):
        column = "s.colors" if key in ("c", "color", "colour") else "s.identity"
        mask = _colors(value, part)
        if mask is None:  # multicoloured: two colours or more
            _only(part, op, (":", "="))
            return f"({column} & ({column} - 1)) != 0", []
        if op == ":":
            op = ">=" if column == "s.colors" else "<="
        sub = f"({column} & ?) = ?"  # it has every one of these
        within = f"({column} & ~?) = 0"  # it has none but these
        sql = {"=": f"{column} = ?", "!=": f"{column} != ?",
               ">=": sub, "<=": within,
               ">": f"({sub} AND {column} != ?)", "<": f"({within} AND {column} != ?)"}[op]
        args = {"=": [mask], "!=": [mask], ">=": [mask, mask], "<=": [mask],
                ">": [mask, mask, mask], "<": [mask, mask]}[op]
        return sql, args
    if key in NUMERIC:
        column = f"s.{NUMERIC[key]}"
        sql_op = {":": "=", "=": "=", "!=": "!=", "<": "<", "<=": "<=", ">": ">",
                  ">=": ">="}[op]
        other = NUMERIC.get(value.lower())
        if other is not None:
            return f"({column} {sql_op} s.{other})", []
        number = _number(value)
        if number is None:
            raise SearchError(f"the query's part {part!r}: {value!r} is not a number")
        return f"({column} {sql_op} ?)", [number]
    if key in ("f", "format", "legal", "banned", "restricted"):
        _only(part, op, (":", "="))
        statuses = {"banned": ("banned",), "restricted": ("restricted",)}.get(
            key, ("legal", "restricted"))
        marks = ", ".join("?" for _ in statuses)
        return (f"s.id IN (SELECT id FROM legal WHERE format = ? AND status IN ({marks}))",
                [value.lower(), *statuses])
    # is:
    _only(part, op, (":", "="))
    if value.lower() != "commander":
        raise SearchError(f"the query's part {part!r}: Tabletop knows is:commander only")
    return "s.commander = 1", []


def _only(part: str, op: str, allowed: tuple[str, ...]) -> None:
    if op not in allowed:
        raise SearchError(f"the query's part {part!r}: {op!r} does not compare this key "
                          f"(use {' or '.join(allowed)})")


def compile_query(query: str) -> Sql:
    """The query as an SQL condition on the index (``s``), with its parameters."""
    if len(query) > 1000:
        raise SearchError("the query is longer than 1,000 characters")
    toks = tokens(query)
    if not toks:
        raise SearchError("the query is empty")
    p = _Parser(toks)
    sql, args = p.any()
    rest = p.peek()
    if rest is not None:
        raise SearchError(f"the query's part {rest.text!r} closes nothing" if rest.kind == ")"
                          else f"the query's part {rest.text!r} cannot be read there")
    return sql, args


def search(db: sqlite3.Connection, query: str, limit: int | None = None) -> list[str]:
    """The names of the cards the query finds, sorted by name."""
    sql, args = compile_query(query)
    tail = f" LIMIT {int(limit)}" if limit is not None else ""
    try:
        rows = db.execute(f"SELECT s.name FROM search s WHERE {sql} "
                          f"ORDER BY s.name COLLATE NOCASE{tail}", args).fetchall()
    except sqlite3.OperationalError as e:  # an FTS query the index cannot read
        raise SearchError(f"the query cannot be read ({e})") from None
    return [r[0] for r in rows]
