"""Importing a published rules text, to show its verbatim wording beside our summaries.

Reads the Comprehensive Rules .txt file (and the four other layouts of the seed
texts: the 1999 Z.x list, the 2004 rulings list, the wiki page, reStructuredText),
decoding UTF-8 (with or without BOM), UTF-16 or Windows-1252 with any line ends.
An import is stored as JSON in the user data folder under its effective date."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tabletop.engine.errors import InputError
from tabletop.engine.files import read_bounded

if TYPE_CHECKING:
    from tabletop.engine.editions import Edition

# a layout's reading of a text: (number -> rule text, number -> its examples)
Layout = tuple[dict[str, str], dict[str, list[str]]]

MAX_BYTES = 32 * 1024 * 1024
MIN_RULES = 3
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december"]


@dataclass(slots=True)
class RulesText:
    layout: str
    effective: str | None
    rules: dict[str, str] = field(default_factory=dict)  # number -> verbatim text
    examples: dict[str, list[str]] = field(default_factory=dict)  # number -> [example, ...]
    glossary: dict[str, str] = field(default_factory=dict)  # term -> definition
    source: str = ""

    def describe(self) -> str:
        """What was found: "2,931 rules and 687 glossary entries of the Comprehensive
        Rules, effective July 22, 2016"."""
        name = LAYOUT_NAMES.get(self.layout, "rules text")
        when = (f"effective {_date_words(self.effective)}" if self.effective
                else "its effective date not found")
        return (f"{len(self.rules):,} rules and {len(self.glossary):,} glossary entries "
                f"({name}), {when}")

    def to_json(self) -> dict[str, Any]:
        return {"format": "tabletop-rules/1", "layout": self.layout, "effective": self.effective,
                "source": self.source, "rules": self.rules, "examples": self.examples,
                "glossary": self.glossary}


def decode(raw: bytes) -> str:
    """Text of a rules file in any of the usual encodings, with \\n line ends."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = raw.decode("utf-16")
    elif raw.startswith(b"\xef\xbb\xbf"):
        text = raw[3:].decode("utf-8", errors="replace")
    elif len(raw) >= 4 and raw[1:4:2] == b"\x00\x00" and raw[0] != 0:
        text = raw.decode("utf-16-le", errors="replace")
    elif len(raw) >= 4 and raw[0:4:2] == b"\x00\x00" and raw[1] != 0:  # UTF-16 BE, no BOM
        text = raw.decode("utf-16-be", errors="replace")
    else:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("cp1252", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n")


# ---- the five layouts -------------------------------------------------------------
Z_RULE = re.compile(r"^- (Z\.\d+\.(?:\d+|Ruling\.\d+)) - (.*)$")
Z_BREAK = re.compile(r"^(?:- |Z\.\d+ - |Z - )")
BULLET_DASH = re.compile(r"^\s*•\s*(\d{3}\.\d+[a-z]?(?:\.Ruling\.\d+)?) - (.*)$")
BULLET = re.compile(r"^\s*•\s*(\d{3}\.\d+[a-z]?)\.?\s+(.*)$")
PLAIN = re.compile(r"^[ \t]*(\d{3}\.\d+[a-z]?)\.?\s+(\S.*)$")  # users' copies may indent
HEADING = re.compile(r"^\s*(?:\d{1,3}\.\s|glossary\s*$|credits\s*$)", re.I)  # "401. Library"
RST_NUMBER = re.compile(r"^(\d{3}\.\d+)\s*$")
RST_SUB = re.compile(r"^\s+([a-z])\.\s+(.*)$")


def _z_list(lines: list[str]) -> Layout:
    parts: dict[str, list[str]] = {}
    cur: str | None = None  # continuation lines gathered in lists: joined once, linear
    for line in lines:
        m = Z_RULE.match(line)
        if m:
            cur = m.group(1)
            parts[cur] = [m.group(2).strip()]
        elif cur and line.strip() and not Z_BREAK.match(line):
            parts[cur].append(line.strip())
        else:
            cur = None
    return {k: " ".join(v) for k, v in parts.items()}, {}


def _bullets(lines: list[str], pattern: re.Pattern[str]) -> Layout:
    rules: dict[str, str] = {}
    for line in lines:
        m = pattern.match(line)
        if m:
            rules[m.group(1)] = m.group(2).strip()
    return rules, {}


def _plain(lines: list[str]) -> Layout:
    parts: dict[str, list[str]] = {}
    examples: dict[str, list[str]] = {}
    cur: str | None = None
    joined = False
    for line in lines:
        if parts and line.strip().lower() == "glossary":
            break  # the glossary after the rules (a Contents list names it before them)
        m = PLAIN.match(line)
        if m:
            cur = m.group(1)
            parts[cur] = [m.group(2).strip()]
        elif cur and line.lstrip().startswith("Example:"):
            examples.setdefault(cur, []).append(line.lstrip()[len("Example:"):].strip())
        elif not line.strip():
            joined = False
            continue
        elif cur and cur not in examples and not HEADING.match(line) and (
                line[:1] in (" ", "\t") or joined):
            parts[cur].append(line.strip())  # a rule wrapped onto the next lines
        else:
            cur = None if not line.startswith(" ") else cur
        joined = bool(m) or (joined and cur is not None)
    return {k: " ".join(v) for k, v in parts.items()}, examples


def _rst(lines: list[str]) -> Layout:
    parts: dict[str, list[str]] = {}
    cur: str | None = None
    base: str | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        m = RST_NUMBER.match(line)
        if m and i + 1 < len(lines) and set(lines[i + 1].strip()) == {"-"}:
            base = cur = m.group(1)
            parts[cur] = []
            i += 2
            continue
        sub = RST_SUB.match(line)
        if base and sub:
            cur = base + sub.group(1)
            parts[cur] = [sub.group(2).strip()]
        elif cur and line.strip() and not line.startswith(("..", "*", "=", "-")):
            if set(line.strip()) <= set("=-*"):
                pass
            elif lines[i + 1:i + 2] and set(lines[i + 1].strip() or "x") <= set("=-*"):
                cur = base = None  # a section title
            else:
                parts[cur].append(line.strip())
        i += 1
    rules = {k: " ".join(v).strip() for k, v in parts.items()}
    return {k: v for k, v in rules.items() if v}, {}


def _glossary(text: str) -> dict[str, str]:
    start = text.rfind("\nGlossary\n")  # the last: a Contents list names it first
    if start < 0:
        return {}
    start += len("\nGlossary\n")
    end = text.find("\nCredits\n", start)
    body = text[start:end if end >= 0 else len(text)]
    out = {}
    for block in re.split(r"\n[ \t]*\n", body.strip()):
        parts = block.strip().split("\n", 1)
        if len(parts) == 2 and parts[0].strip():
            out[parts[0].strip()] = " ".join(parts[1].split())
    return out


def _effective(text: str) -> str | None:
    months = "|".join(MONTHS)
    m = re.search(rf"\b({months})\s+(\d{{1,2}}),\s*(\d{{4}})", text, re.I)
    if m:
        month = MONTHS.index(m.group(1).lower()) + 1
        return f"{int(m.group(3)):04d}-{month:02d}-{int(m.group(2)):02d}"
    # a source marker "[CompRules 2003/07/01]": bounded, so a file of brackets stays linear
    dates = re.findall(r"\[[^\[\]\n]{0,80}?(\d{4})/(\d{2})/(\d{2})\]", text)
    if dates:
        y, mo, d = max(dates)
        return f"{y}-{mo}-{d}"
    return None


def parse(text: str, source: str = "") -> RulesText:
    """Parse rules text in whichever known layout yields the most rules."""
    lines = text.split("\n")
    best: tuple[str, dict[str, str], dict[str, list[str]]] = ("", {}, {})
    layouts: tuple[tuple[str, Callable[[list[str]], Layout]], ...] = (
        ("z-list", _z_list), ("rulings-list", lambda ls: _bullets(ls, BULLET_DASH)),
        ("wiki", lambda ls: _bullets(ls, BULLET)), ("rst", _rst),
        ("comprehensive-rules", _plain))
    for layout, fn in layouts:
        rules, examples = fn(lines)
        if len(rules) > len(best[1]):
            best = (layout, rules, examples)
    layout, rules, examples = best
    if len(rules) < MIN_RULES:
        raise InputError(f"{source}: not a rules text (found no numbered rules)")
    return RulesText(layout, _effective(text), rules, examples, _glossary(text), source)


def read(path: str | Path) -> RulesText:
    path = Path(path)
    raw = read_bounded(path, MAX_BYTES)
    if b"\x00\x00\x00" in raw[:4096] and not raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError(f"{path}: not a rules text (binary data)")
    return parse(decode(raw), str(path))


# ---- the store in the user data folder ---------------------------------------------
def store_dir() -> Path:
    from tabletop import paths
    return paths.rules_dir()


def import_file(path: str | Path, store: Path | None = None) -> tuple[RulesText, Path]:
    """Parse and store a rules file; nothing is stored when it is not a rules text."""
    from tabletop.engine.files import atomic_write
    rt = read(path)
    doc = rt.to_json()
    data = json.dumps(doc, ensure_ascii=False, indent=0).encode("utf-8")
    # named by what the text says, not where it came from: the same rules text
    # imported twice, from any file, is kept (and listed) once
    said = {k: v for k, v in doc.items() if k != "source"}
    digest = hashlib.sha256(json.dumps(said, ensure_ascii=False, sort_keys=True)
                            .encode("utf-8")).hexdigest()[:8]
    store = store or store_dir()
    dest = store / f"{rt.effective or 'undated'}-{digest}.json"
    atomic_write(dest, data)
    _cache.clear()
    return rt, dest


_cache: dict[str, list[dict[str, Any]]] = {}


def imported(store: Path | None = None) -> list[tuple[Path, str]]:
    """The rules texts kept in the store, oldest first: (file, what it is)."""
    store = store or store_dir()
    out = []
    said: set[str] = set()  # a text kept twice by an older version is listed once
    for p in sorted(store.glob("*.json")) if store.is_dir() else ():
        d = next((d for d in _imports(store) if d.get("_file") == str(p)), None)
        if d is None:
            continue
        key = json.dumps({k: v for k, v in d.items() if k not in ("source", "_file")},
                         ensure_ascii=False, sort_keys=True)
        if key in said:
            continue
        said.add(key)
        eff = d.get("effective") if isinstance(d.get("effective"), str) else None
        name = LAYOUT_NAMES.get(str(d.get("layout")), "Imported rules text")
        out.append((p, f"{name}, {_date_words(eff)}: {len(d['rules']):,} rules"))
    return out


def _imports(store: Path | None = None) -> list[dict[str, Any]]:
    store = store or store_dir()
    key = str(store)
    if key not in _cache:
        found = []
        if store.is_dir():
            for p in sorted(store.glob("*.json")):
                try:
                    d = json.loads(p.read_text(encoding="utf-8"))
                except (OSError, ValueError):
                    continue
                if isinstance(d, dict) and isinstance(d.get("rules"), dict):
                    d["_file"] = str(p)
                    found.append(d)
        _cache[key] = found
    return _cache[key]


_imports.cache_clear = _cache.clear  # type: ignore[attr-defined]


LAYOUT_NAMES = {"comprehensive-rules": "Comprehensive Rules", "wiki": "Comprehensive Rules",
                "rst": "Comprehensive Rules", "rulings-list": "Rulings summary",
                "z-list": "Rulings summary"}


# ---- does an imported number mean the same rule as the edition's? -------------------
# Rule numbers are reused: 400.7g of the 2012 text and of a July 2016 text are different
# rules. Each edition ships a fingerprint of its own wording (a bottom-k sketch of hashed
# three-word runs, resources/rules/wording.json, made by tools/rules_fingerprints.py from
# the edition's text; it holds no words). An imported rule whose wording contains too
# little of the edition's is a different rule under the same number.
SHINGLE = 3
SKETCH = 24
SAME_RULE = 0.4  # share of the edition's sketch found in the imported wording


def _hashes(text: str) -> set[int]:
    import unicodedata
    t = unicodedata.normalize("NFKD", text.replace("\u2019", "'"))
    words = re.findall(r"[a-z0-9]+", "".join(c for c in t if not unicodedata.combining(c)).lower())
    runs = [" ".join(words[i:i + SHINGLE]) for i in range(max(1, len(words) - SHINGLE + 1))]
    return {int.from_bytes(hashlib.blake2b(r.encode(), digest_size=4).digest(), "big")
            for r in runs if r}


def sketch(text: str) -> list[int]:
    return sorted(_hashes(text))[:SKETCH]


@lru_cache(maxsize=1)
def _fingerprints() -> dict[str, dict[str, list[int]]]:
    from tabletop import resources
    try:
        d = json.loads(resources.path("rules", "wording.json").read_text(encoding="utf-8"))
        return {ed: {n: [int(h, 16) for h in v.split()] for n, v in rules.items()}
                for ed, rules in d["editions"].items()}
    except (OSError, ValueError, KeyError, AttributeError):
        return {}


def same_rule(edition_id: str | None, number: str, imported: str) -> bool | None:
    """Whether an imported rule's wording is the edition's rule of that number; None
    when the edition's wording of that number is not known."""
    mine = _fingerprints().get(edition_id or "", {}).get(number)
    if not mine:
        return None
    found = _hashes(imported)
    return sum(h in found for h in mine) / len(mine) >= SAME_RULE


@dataclass(frozen=True)
class Verbatim:
    """An imported rule's wording and where it comes from."""

    number: str
    text: str
    source: str  # "Comprehensive Rules, July 22, 2016"
    effective: str | None
    same_year: bool  # the import is from the edition's own year
    same_rule: bool | None  # its wording is the edition's rule (None: cannot tell)
    edition_year: int | None = None

    @property
    def shown(self) -> bool:
        """Whether the wording belongs beside the edition's summary."""
        return self.same_rule is not False

    def label(self, edition_year: int | None = None) -> str:
        """How to present it: the edition's own wording, the same rule as worded in
        another year, or a different rule under the same number, each said so."""
        year = edition_year or self.edition_year
        when = f"the {self.effective[:4]} text" if self.effective else "an undated text"
        if self.same_rule is False:
            return (f"{self.source} uses {self.number} for a different rule: it means "
                    f"something else than this edition's {year} rule {self.number}, so its "
                    f"wording is not shown beside our summary")
        if self.same_year:
            return self.source
        if self.same_rule:
            return f"{self.source} ({when}; the same rule as in this edition's {year} text)"
        return (f"{self.source} ({when}, not this edition's {year}: its rule of this "
                f"number may say something else)")


def _date_words(effective: str | None) -> str:
    if not effective:
        return "undated"
    y, m, d = effective.split("-")
    return f"{MONTHS[int(m) - 1].title()} {int(d)}, {y}"


def verbatim_entry(number: str, year: int | None = None, store: Path | None = None,
                   edition_id: str | None = None) -> Verbatim | None:
    """The imported wording of a rule, with its source: from an import whose rule of
    that number is the edition's rule, nearest the edition's year. Each import stays
    stored under its own effective date."""
    best, best_key = None, None
    for d in _imports(store):
        text = d["rules"].get(number)
        if not text or not isinstance(text, str):
            continue
        eff = d.get("effective") if isinstance(d.get("effective"), str) else None
        gap = abs(int(eff[:4]) - year) if (year and eff and eff[:4].isdigit()) else 999
        same = same_rule(edition_id, number, text)
        key = (same is False, gap)
        if best_key is None or key < best_key:
            name = LAYOUT_NAMES.get(str(d.get("layout")), "Imported rules text")
            best = Verbatim(number, text, f"{name}, {_date_words(eff)}", eff, gap == 0, same,
                            year)
            best_key = key
    return best


def for_edition(number: str, ed: Edition, store: Path | None = None) -> Verbatim | None:
    """The imported wording of an edition's rule (see verbatim_entry)."""
    return verbatim_entry(number, ed.year, store, ed.id)


def verbatim(number: str, year: int | None = None, store: Path | None = None) -> str | None:
    """The imported wording of a rule, preferring the import nearest the edition's year."""
    v = verbatim_entry(number, year, store)
    return v.text if v else None
