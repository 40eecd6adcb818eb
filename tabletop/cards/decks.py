"""Deck lists: plain text, MTG Arena, MTGO, MTGGoldfish, Moxfield, Archidekt, TappedOut,
deckstats, mtgtop8 .dec, MWS .mwDeck and XMage .dck exports, Forge .dck (INI-like
sections), MTGJSON deck files, Cockatrice .cod, MTGO .dek and OCTGN .o8d, and the CSV
tables card sites and collection apps export (Moxfield, Deckbox, Archidekt, ManaBox...).

Reading never fails silently: a name the card database does not know is listed
with its file and line, and a malformed file raises one ``InputError`` naming
the file (and line). XML decks are parsed with no DOCTYPE allowed, so they can
neither expand entities nor reach the network."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabletop import jsontext
from tabletop.engine.errors import InputError

MAX_BYTES = 4 * 1024 * 1024
MAX_CARDS = 10_000  # in one deck, all sections together
SECTIONS = ("main", "sideboard", "commander", "companion", "maybeboard")
HEADERS = {"deck": "main", "main": "main", "maindeck": "main", "main deck": "main",
           "sideboard": "sideboard", "side": "sideboard", "commander": "commander",
           "companion": "companion", "maybeboard": "maybeboard", "maybe": "maybeboard"}
LINE = re.compile(r"^(?:(SB|sb|Sb):\s*)?(\d+)\s*[xX]?\s+(.+?)\s*$")
SET_SUFFIX = re.compile(r"\s+\(([A-Za-z0-9_]{2,8})\)(?:\s+([A-Za-z0-9★-]+))?\s*$")
XMAGE_SET = re.compile(r"^\[([A-Za-z0-9_]{2,8}):([A-Za-z0-9★*+-]+)\]")


@dataclass(slots=True)
class Entry:
    count: int
    name: str
    line: int | None = None
    printing: tuple[str, str] | None = None  # (set code, collector number) when it says


@dataclass(slots=True)
class Deck:
    name: str
    path: str = ""
    sections: dict[str, list[Entry]] = field(default_factory=lambda: {s: [] for s in SECTIONS})
    unknown: list[tuple[str, int | None, str]] = field(default_factory=list)  # file, line, name
    notes: list[str] = field(default_factory=list)  # what was read but left out, in words
    # what add() knows, so that a list of thousands of lines is read in linear time (it
    # summed every count and looked through the section at each line: 10,000 lines took
    # 3 s): the cards counted, and each section's entries by name, each kept with the
    # lists it was made from and their lengths (a list replaced or grown elsewhere: made
    # anew; the lists are held, so that another cannot take an id of theirs)
    _counted: tuple[tuple[tuple[list[Entry], int], ...], int] | None = field(
        default=None, repr=False, compare=False)
    _by_name: dict[str, tuple[list[Entry], int, dict[str, Entry]]] = field(
        default_factory=dict, repr=False, compare=False)

    def _as_counted(self, shape: tuple[tuple[list[Entry], int], ...]) -> bool:
        return len(shape) == len(self.sections) and all(
            kept is now and n == len(now)
            for (kept, n), now in zip(shape, self.sections.values(), strict=True))

    def add(self, section: str, count: int, name: str, line: int | None = None,
            printing: tuple[str, str] | None = None) -> None:
        counted = self._counted
        total = (counted[1] if counted is not None and self._as_counted(counted[0]) else
                 sum(e.count for entries in self.sections.values() for e in entries)) + count
        if count > MAX_CARDS or total > MAX_CARDS:
            where = f"line {line}: " if line else ""
            raise InputError(f"{self.path}: {where}more than {MAX_CARDS:,} cards in one deck "
                             f"(Tabletop deals at most {MAX_CARDS:,})")
        entries = self.sections[section]
        held = self._by_name.get(section)
        if held is None or held[0] is not entries or held[1] != len(entries):
            held = (entries, len(entries),
                    {e.name: e for e in reversed(entries)})  # (the first of a name)
        found = held[2].get(name)
        if found is not None:
            found.count += count
            found.printing = found.printing or printing
        else:
            entry = Entry(count, name, line, printing)
            entries.append(entry)
            held[2][name] = entry
        self._by_name[section] = (entries, len(entries), held[2])
        self._counted = (tuple((v, len(v)) for v in self.sections.values()), total)

    def printings(self) -> dict[str, tuple[str, str]]:
        """Card name -> (set code, collector number), for the cards whose lines say."""
        out: dict[str, tuple[str, str]] = {}
        for entries in self.sections.values():
            for e in entries:
                if e.printing and e.name not in out:
                    out[e.name] = e.printing
        return out

    def count(self, section: str = "main") -> int:
        return sum(e.count for e in self.sections[section])

    def to_json(self) -> dict[str, Any]:
        d = {"name": self.name, "sections": {
            s: [{"count": e.count, "name": e.name} for e in entries]
            for s, entries in self.sections.items() if entries or s in ("main", "sideboard", "commander")},
            "unknown": [{"file": f, "line": ln, "name": n} for f, ln, n in self.unknown]}
        return d


def _read(path: Path) -> bytes:
    from tabletop.engine.files import read_bounded
    return read_bounded(path, MAX_BYTES)


def _text(raw: bytes, path: Path) -> str:
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return raw.decode("utf-16")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("cp1252", errors="replace")
    if "\x00" in text:
        raise InputError(f"{path}: not a deck list (binary data)")
    return text.replace("\r\n", "\n").replace("\r", "\n")


FINISH = re.compile(r"\s+\*(?:F|E|Foil|Etched)\*\s*$", re.I)
TAG = re.compile(r"\s+#!?([\w-]+)")  # Moxfield's "#ramp", deckstats' "#!Commander"
# a comment after a card: its "!" words are tags (deckstats' "# !Commander", "# !Foil")
COMMENT = re.compile(r"\s+#\s.*$")
COMMENT_TAG = re.compile(r"!([\w-]+)")
CMDR = re.compile(r"\s+\*CMDR\*(?=\s|$)", re.I)  # TappedOut's mark of a commander
BRACKET = re.compile(r"^\[[^\]]*\]\s*|\s*\[[^\]]*\]$")
# Archidekt's export: "1x Sol Ring (cmm) 647 [Ramp,Commander{top}] ^Have,#37d67a^", the
# card's categories (a flag such as {noDeck} in braces after one) and its labels
CATEGORIES = re.compile(r"\s+\[([^\[\]]*)\](?:\s+\^[^^]*\^)?\s*$")
LABELS = re.compile(r"\s+\^[^^]*\^\s*$")
FLAG = re.compile(r"\{(\w+)\}")
# MTGGoldfish's "exact card versions": "1 Flusterstorm <buy-a-box> [MH3] (F)", a
# printing's variant between angle brackets, its set in square ones, a foil's (F)
VARIANT = re.compile(r"\s*<[^<>]*>")
FOIL_MARK = re.compile(r"\s+\((?:F|E|Foil|Etched)\)\s*$", re.I)
SPLIT = re.compile(r"\s*(?<!/)/(?!/)\s*")
LABEL = re.compile(r"^(?:[A-Za-z][\w'&/-]*(?:\s+[A-Za-z][\w'&/-]*){0,3}:?)(?:\s*\(\d+\))?$")
HEADER_COUNT = re.compile(r"\s*\(\d+\)$")  # a section header's count of cards
SIDEBOARD_BLOCK = 15  # a blank-separated last block this small is an export's sideboard


def clean_name(name: str) -> tuple[str, set[str]]:
    """A card name as deck exports write it, cleaned: set code and collector number
    (" (SLD) 1659"), finish markers ("*F*"), MWS/XMage "[SET:123]" markers, tags
    ("#commander") returned apart; "Fire/Ice" written as "Fire // Ice"."""
    name, tags, _ = clean_line(name)
    return name, tags


def clean_line(name: str) -> tuple[str, set[str], tuple[str, str] | None]:
    """As ``clean_name``, with the printing the line names: (set code, collector
    number) from " (M11) 149" or "[M11:149]", else None."""
    m = COMMENT.search(name)
    tags = {t.lower() for t in COMMENT_TAG.findall(m.group())} if m else set()
    name = name[:m.start()] if m else name
    tags |= {t.lower() for t in TAG.findall(name)}
    name = TAG.sub("", name)
    if CMDR.search(name):
        tags.add("commander")
        name = CMDR.sub("", name)
    printing = None
    name = VARIANT.sub("", FOIL_MARK.sub("", name))
    m = CATEGORIES.search(name)
    if m:  # each category a tag, and each flag ("nodeck": a maybeboard's)
        for category in m.group(1).split(","):
            tags |= {f.lower() for f in FLAG.findall(category)}
            tags.add(FLAG.sub("", category).strip().lower())
        name = name[:m.start()]
    name = LABELS.sub("", name)
    m = XMAGE_SET.match(name.strip())
    if m:
        printing = (m.group(1).upper(), m.group(2))
    for _ in range(3):  # markers may come in any order
        name = FINISH.sub("", name)
        m = SET_SUFFIX.search(name)
        if m and m.group(2) and printing is None:
            printing = (m.group(1).upper(), m.group(2))
        name = SET_SUFFIX.sub("", name)
        name = BRACKET.sub("", name).strip()
    if "/" in name:
        name = SPLIT.sub(" // ", name)
    return name.strip(), tags, printing


def _count(text: str | None, what: str) -> int:
    """A card count as a file writes it: a whole number (one of thousands of digits is
    refused here, before Python would refuse to read it; a large one, by the deck's cap)."""
    t = (text or "").strip()
    if not t.isdigit() or not t.isascii():
        raise InputError(f"{what} has a count that is not a number ({t[:20]!r})")
    if len(t) > 18:
        raise InputError(f"{what} has a count of {len(t):,} digits: not a deck")
    return int(t)


def parse_text(text: str, path: str = "deck.txt") -> Deck:
    """Plain text (`4 Name`, `4x Name`, `SB: 2 Name`, section headers, // and #
    comments) and MTG Arena, MTGO, MTGGoldfish, Moxfield, Archidekt, TappedOut, deckstats
    and MWS exports. A blank line starts the sideboard only where an export means it:
    one blank line before a last block of at most 15 cards, in a list with no headers,
    markers or comments; blank lines that group a list (commander decks by category,
    "# 20 lands") mean nothing."""
    deck = Deck(Path(path).stem, str(path))
    lines = text.split("\n")
    entries = []  # (line number, section or None, count, name, block)
    section: str | None = None  # None: not set by any marker yet
    block, seen_cards, about, marked = 0, False, False, False
    xmage = False  # NAME: or LAYOUT lines: an XMage .dck
    one_by_one = False  # XMage drew its sideboard as one pile of one: a commander
    labels: list[tuple[int, str]] = []
    for n, raw in enumerate(lines, 1):
        ln = raw.strip()
        if not ln:
            if seen_cards:
                block += 1
            if section in ("commander", "companion") and seen_cards:
                section = None  # a commander or companion section is its own block
            continue
        comment = ln.startswith(("//", "#")) and not LINE.match(ln)
        low = ln.lstrip("/#").strip().lower().rstrip(":") if comment else ln.lower().rstrip(":")
        if low == "about":
            about = True
            continue
        if comment and low.startswith("name:"):  # deckstats: "//NAME: Elves from deckstats.net"
            deck.name = re.sub(r"\s+from deckstats\.net$", "", ln.lstrip("/#").strip()[5:]
                               .strip()) or deck.name
            continue
        if ln.upper().startswith("NAME:"):  # XMage .dck
            deck.name = ln[5:].strip() or deck.name
            xmage = True
            continue
        if ln.upper().startswith("AUTHOR:"):  # XMage .dck: who made it
            xmage = True
            continue
        if ln.upper().startswith("LAYOUT "):  # XMage .dck: where its editor drew the cards
            xmage = True
            if ln.upper().startswith("LAYOUT SIDEBOARD:(1,1)"):
                one_by_one = True
            continue
        if about and low.startswith("name "):
            deck.name = ln[5:].strip()
            continue
        low = HEADER_COUNT.sub("", low)  # "Sideboard (15)": exports by category count them
        if low in HEADERS:
            section, about, marked = HEADERS[low], False, True
            continue
        if comment:
            if seen_cards:  # a comment among the cards heads a group ("# 20 lands"):
                marked = True  # then blank lines only group the list
            continue
        m = LINE.match(ln)
        if not m:
            if about:
                continue
            if not LABEL.match(ln):
                raise InputError(f"{path}: line {n}: not a card line ({ln[:60]!r}); expected "
                                 "'4 Card Name'")
            labels.append((n, ln))  # a group label ("Creatures (25)"), or not a deck
            if seen_cards:
                marked = True
            if section in ("commander", "companion"):  # (a group of its own, ended by
                section = None  # the next group's label as by a blank line)
            continue
        count = _count(m.group(2), f"{path}: line {n}")
        if count <= 0 or count > 250:
            raise InputError(f"{path}: line {n}: a count of {count} is not possible")
        name, tags, printing = clean_line(m.group(3))
        if not name:
            raise InputError(f"{path}: line {n}: a card line without a name")
        where = section
        if m.group(1):
            where = "sideboard"  # "SB:" marks its own line only
        elif "commander" in tags:
            where, marked = "commander", True
        elif "companion" in tags:
            where = "companion"
        elif tags & {"sideboard", "side"}:
            where, marked = "sideboard", True
        elif tags & {"nodeck", "maybeboard", "maybe", "considering"}:
            where = "maybeboard"  # Archidekt's cards flagged {noDeck}: not in the deck
        entries.append((n, where, count, name, block, printing))
        seen_cards = True
    if labels and (not entries or len(labels) > max(5, len(entries) // 4)):
        n, ln = labels[0]
        raise InputError(f"{path}: line {n}: not a card line ({ln[:60]!r}); expected "
                         "'4 Card Name'")
    blocks = sorted({b for _, where, _, _, b, _ in entries if where is None})
    side_block = None
    if not marked and len(blocks) == 2:
        last = sum(c for _, where, c, _, b, _ in entries if where is None and b == blocks[-1])
        first = sum(c for _, where, c, _, b, _ in entries if where is None and b == blocks[0])
        if last <= SIDEBOARD_BLOCK and first > last:
            side_block = blocks[-1]
    for n, where, count, name, b, printing in entries:
        if where is None:
            where = "sideboard" if b == side_block else "main"
        deck.add(where, count, name, n, printing)
    if not any(deck.sections.values()):
        raise InputError(f"{path}: no cards found: not a deck list")
    side = deck.sections["sideboard"]
    in_side = sum(e.count for e in side)
    if xmage and not deck.sections["commander"] and 1 <= in_side <= 2 and (
            sum(e.count for e in deck.sections["main"]) + in_side == 100
            or (one_by_one and in_side == 1)):
        # XMage keeps a Commander deck's commander (or two partners) on SB: lines: a
        # hundred cards with one or two "in the sideboard" are a commander deck
        deck.sections["commander"], deck.sections["sideboard"] = side, []
        two = len(side) > 1
        deck.notes.append(f"{path}: the SB: card{'s' * two} of this XMage Commander deck "
                          f"go{'' if two else 'es'} to the command zone")
    return deck


MTGJSON_SECTIONS = {"mainBoard": "main", "sideBoard": "sideboard", "commander": "commander"}


# a CSV export's columns, by the words its header row names them with
CSV_COUNT = ("count", "quantity", "qty", "amount", "copies", "number of copies")
CSV_NAME = ("name", "card name", "card", "cardname", "card_name")
CSV_SET = ("edition code", "set code", "set", "edition", "setcode")
CSV_NUMBER = ("collector number", "card number", "collector #", "collector_number", "number",
              "cn")
CSV_SECTION = ("board", "section", "category", "categories", "zone", "deck")
CSV_SIDEBOARDED = ("sideboarded", "sideboard", "in sideboard")  # MTGO's: Yes or No
YES = ("yes", "y", "true", "1")
SET_CODE = re.compile(r"^[A-Za-z0-9]{2,8}$")
SEP_HINT = re.compile(r'^"?sep=(.)"?$', re.I)  # a first line telling Excel the delimiter


def _csv_header(text: str) -> tuple[str, dict[str, int], int] | None:
    """A CSV export's delimiter, columns (count, name, and set, number, section where
    it has them) and how many rows come before its cards (the header, and a first
    "sep=," line that tells Excel the delimiter, as Dragon Shield writes); None: not a
    CSV export."""
    lines = (ln.strip() for ln in text.split("\n") if ln.strip())
    first = next(lines, "")
    if LINE.match(first):
        return None
    hint = SEP_HINT.match(first)
    header = next(lines, "") if hint else first
    found = _csv_columns(header, (hint.group(1),) if hint else (",", ";", "\t"))
    return None if found is None else (*found, 2 if hint else 1)


def _csv_columns(line: str, delimiters: tuple[str, ...]) -> tuple[str, dict[str, int]] | None:
    """The delimiter and columns a CSV export's header row names; None: not one."""
    import csv
    for delimiter in delimiters:
        if delimiter not in line:
            continue
        cells = [c.strip().strip('"').strip().lower()
                 for c in next(csv.reader([line], delimiter=delimiter))]
        found: dict[str, int] = {}
        for role, words in (("count", CSV_COUNT), ("name", CSV_NAME), ("set", CSV_SET),
                            ("number", CSV_NUMBER), ("section", CSV_SECTION),
                            ("sideboarded", CSV_SIDEBOARDED)):
            for word in words:  # (the first spelling found: "edition code" over "edition")
                at = cells.index(word) if word in cells else -1
                if at >= 0 and at not in found.values():
                    found[role] = at
                    break
        if "count" in found and "name" in found:
            return delimiter, found
    return None


def parse_csv(text: str, path: str, delimiter: str, columns: dict[str, int],
              before: int = 1) -> Deck:
    """A CSV export: a header row naming the columns (Count or Quantity, Name or Card
    Name; the set and collector number and the section, Board or Category, or MTGO's
    Sideboarded, Yes or No, where it has them), one row a card. A row's section is the
    first of its words that names one (Archidekt's "Sideboard, Removal"); none: the main
    deck. ``before``: the rows before the cards (the header, and Excel's "sep=," line
    where there is one)."""
    import csv
    import io
    deck = Deck(Path(path).stem, str(path))
    rows = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        read = [(rows.line_num, row) for row in rows]
    except csv.Error as e:
        raise InputError(f"{path}: line {rows.line_num}: not a CSV table ({e})") from None
    for n, row in read:
        if not any(c.strip() for c in row):
            continue
        if before:  # (the header row, the columns' names, and a "sep=," line)
            before -= 1
            continue
        if len(row) <= max(columns["count"], columns["name"]):
            raise InputError(f"{path}: line {n}: {len(row)} columns, where the header names "
                             f"{max(columns.values()) + 1} or more")
        count = _count(row[columns["count"]], f"{path}: line {n}")
        name, _tags, printing = clean_line(row[columns["name"]])
        if not name:
            raise InputError(f"{path}: line {n}: a row without a card's name")
        code = row[columns["set"]].strip() if "set" in columns and len(row) > columns["set"] \
            else ""
        number = row[columns["number"]].strip() \
            if "number" in columns and len(row) > columns["number"] else ""
        number = number.split("/")[0].strip()  # (MTGO's "116/350": of the set's 350)
        if SET_CODE.match(code) and number and printing is None:  # (a set's name: no code)
            printing = (code.upper(), number[:12])
        section = "main"
        if "section" in columns and len(row) > columns["section"]:
            for word in re.split(r"[,;/|]", row[columns["section"]]):
                if word.strip().lower() in HEADERS:
                    section = HEADERS[word.strip().lower()]
                    break
        elif "sideboarded" in columns and len(row) > columns["sideboarded"] \
                and row[columns["sideboarded"]].strip().lower() in YES:
            section = "sideboard"
        if count:
            deck.add(section, count, name, n, printing)
    if not any(deck.sections.values()):
        raise InputError(f"{path}: a CSV table with no cards in it")
    return deck


def parse_mtgjson(raw: bytes, path: Path) -> Deck:
    """An MTGJSON deck file: {"data": {"name", "mainBoard", "sideBoard", "commander"}},
    each a list of cards with "name" and "count" (the rest of each card is left)."""
    import json
    try:
        doc = json.loads(raw.decode("utf-8-sig"), parse_constant=jsontext.no_constant)
    except (ValueError, RecursionError) as e:
        raise InputError(f"{path}: not readable JSON ({str(e)[:80]})") from None
    data = doc.get("data") if isinstance(doc, dict) else None
    if not isinstance(data, dict) or not set(MTGJSON_SECTIONS) & data.keys():
        raise InputError(f"{path}: not an MTGJSON deck file (no data with mainBoard, "
                         f"sideBoard or commander)")
    name = data.get("name")
    if isinstance(name, str) and not _whole_unicode(name):
        raise InputError(f"{path}: the deck's name is not valid Unicode text (a lone "
                         f"surrogate)")
    deck = Deck(name.strip() if isinstance(name, str) and name.strip() else path.stem,
                str(path))
    for key, section in MTGJSON_SECTIONS.items():
        cards = data.get(key, [])
        if not isinstance(cards, list):
            raise InputError(f"{path}: {key} must be a list of cards")
        for i, card in enumerate(cards, 1):
            if not isinstance(card, dict) or not isinstance(card.get("name"), str) \
                    or not card["name"].strip():
                raise InputError(f"{path}: {key} card {i} has no name")
            if not _whole_unicode(card["name"]):
                raise InputError(f"{path}: {key} card {i} has a name that is not valid "
                                 f"Unicode text (a lone surrogate)")
            count = card.get("count", 1)
            if type(count) is not int or not 1 <= count <= 250:
                raise InputError(f"{path}: {key} card {i} ({card['name'][:60]!r}) has a "
                                 f"count that is not 1 to 250")
            deck.add(section, count, card["name"].strip())
    if not any(deck.sections.values()):
        raise InputError(f"{path}: no cards found in the MTGJSON deck")
    return deck


def _whole_unicode(text: str) -> bool:
    """False for a text holding a lone surrogate (a JSON escape can write one; no file,
    save or screen can hold it)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


FORGE_HEADER = re.compile(r"^\[([^\[\]]{1,40})\]$")
FORGE_SECTIONS = {"main": "main", "sideboard": "sideboard", "commander": "commander"}
FORGE_LINE = re.compile(r"^(\d+)\s+(.+?)\s*$")


def _is_forge(text: str) -> bool:
    """A Forge deck begins with a section header ([metadata], [Main]...)."""
    for raw in text.split("\n", 50)[:50]:
        ln = raw.strip()
        if ln and not ln.startswith(("#", "//")):
            return bool(FORGE_HEADER.match(ln))
    return False


def parse_forge(text: str, path: str) -> Deck:
    """Forge .dck: [metadata] (Name=...), then [Main], [Sideboard] and [Commander]
    (any case), each card `4 Name` or `1 Island|C13|2` (set and art after the name).
    Other sections ([shop], [Planes]...) are left out, and said so."""
    deck = Deck(Path(path).stem, str(path))
    section: str | None = None
    left_out: list[str] = []
    for n, raw in enumerate(text.split("\n"), 1):
        ln = raw.strip()
        if not ln or ln.startswith(("#", "//")):
            continue
        m = FORGE_HEADER.match(ln)
        if m:
            key = m.group(1).strip().lower()
            section = FORGE_SECTIONS.get(key) or ("metadata" if key == "metadata" else "")
            if not section:
                left_out.append(m.group(1).strip())
            continue
        if section == "metadata":
            key, _, value = ln.partition("=")
            if key.strip().lower() == "name" and value.strip():
                deck.name = value.strip()
            continue
        if section == "":
            continue  # a section that is no part of the deck
        if section is None:
            raise InputError(f"{path}: line {n}: a card line before any [section]")
        cm = FORGE_LINE.match(ln)
        if not cm:
            raise InputError(f"{path}: line {n}: not a card line ({ln[:60]!r}); expected "
                             "'4 Card Name' or '4 Card Name|SET'")
        count = _count(cm.group(1), f"{path}: line {n}")
        if count <= 0 or count > 250:
            raise InputError(f"{path}: line {n}: a count of {count} is not possible")
        name = cm.group(2).split("|", 1)[0].strip()
        if not name:
            raise InputError(f"{path}: line {n}: a card line without a name")
        deck.add(section, count, name, n)
    for name in left_out:
        deck.notes.append(f"{path}: section [{name}] is not a main deck, sideboard or "
                          f"commander: left out")
    if not any(deck.sections.values()):
        raise InputError(f"{path}: no cards found in the Forge deck")
    return deck


def _xml(raw: bytes, path: Path, converted: bool = False) -> Any:
    """Parse XML with no DTD and no entities, whatever the file's encoding (defusedxml
    refuses them after decoding, so a UTF-16 file cannot hide one)."""
    import xml.etree.ElementTree as ET

    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import fromstring
    try:
        return fromstring(raw, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException:
        raise InputError(f"{path}: a deck file with a DOCTYPE or entities is not accepted") \
            from None
    except ET.ParseError as e:
        line = e.position[0] if getattr(e, "position", None) else "?"
        raise InputError(f"{path}: line {line}: not well-formed XML ({e})") from None
    except ValueError as e:  # expat takes no multi-byte encoding: UTF-16 or UTF-32, read
        if converted:  # as UTF-8 once (still refusing DTDs and entities), else refused
            raise InputError(f"{path}: not readable XML ({e})") from None
        return _xml(_as_utf8(raw, path), path, converted=True)
    except (LookupError, RecursionError) as e:  # e.g. an unknown declared encoding
        raise InputError(f"{path}: not readable XML ({e})") from None


def _xml_root(raw: bytes, path: Path, tag: str, what: str) -> Any:
    """The XML deck's root element, which must be ``tag`` (else: not ``what``)."""
    root = _xml(raw, path)
    if root.tag != tag:
        raise InputError(f"{path}: not {what} (root element <{root.tag}>)")
    return root


def _as_utf8(raw: bytes, path: Path) -> bytes:
    """XML in a multi-byte encoding expat will not take, as UTF-8 with its declaration
    rewritten; the result goes through the same refusal of DTDs and entities."""
    import re
    for enc in ("utf-16-be", "utf-16-le", "utf-32-be", "utf-32-le"):
        try:
            text = raw.decode(enc)
        except UnicodeDecodeError:
            continue
        if text.lstrip("\ufeff").startswith("<"):
            text = re.sub(r"^\ufeff?<\?xml[^>]*\?>", '<?xml version="1.0" encoding="UTF-8"?>',
                          text.lstrip("\ufeff"), count=1)
            return text.encode("utf-8")
    raise InputError(f"{path}: not readable XML (an encoding Tabletop cannot read)")


def parse_cod(raw: bytes, path: Path) -> Deck:
    """Cockatrice: <cockatrice_deck><deckname/><zone name="main|side"><card number name/>."""
    root = _xml_root(raw, path, "cockatrice_deck", "a Cockatrice deck")
    deck = Deck((root.findtext("deckname") or "").strip() or path.stem, str(path))
    for zone in root.findall("zone"):
        zname = zone.get("name", "").strip()
        section = {"main": "main", "side": "sideboard", "sideboard": "sideboard",
                   "commander": "commander", "command": "commander",
                   "tokens": None}.get(zname.lower(), "unknown")
        if section is None:  # the table makes tokens as they are created
            n = len(zone.findall("card"))
            if n:
                deck.notes.append(f"{path}: zone {zname!r} ({n} token{'s' * (n != 1)}) "
                                  f"is not part of the deck: left out")
            continue
        if section == "unknown":  # reported, never merged into the main deck
            cards = sum(_count(c.get("number", "1"), f"{path}: zone {zname!r}")
                        for c in zone.findall("card"))
            deck.notes.append(f"{path}: zone {zname!r} ({cards} cards) is not a main deck "
                              f"or sideboard: left out")
            continue
        for card in zone.findall("card"):
            name = (card.get("name") or "").strip()
            count = _count(card.get("number", "1"), f"{path}: card {name!r}")
            if not name or count <= 0:
                raise InputError(f"{path}: a <card> needs a name and a positive number")
            deck.add(section, count, name)
    if not any(deck.sections.values()):
        raise InputError(f"{path}: no cards found in the Cockatrice deck")
    return deck


OCTGN_SECTIONS = {"main": "main", "sideboard": "sideboard", "command zone": "commander",
                  "commander": "commander"}


def parse_o8d(raw: bytes, path: Path) -> Deck:
    """OCTGN: <deck game=...><section name="Main|Sideboard|Command Zone"><card qty id>
    Name</card>; other sections (Planes/Schemes) are left out, and said so."""
    root = _xml_root(raw, path, "deck", "an OCTGN deck")
    deck = Deck(path.stem, str(path))
    for sec in root.findall("section"):
        sname = (sec.get("name") or "").strip()
        section = OCTGN_SECTIONS.get(sname.lower())
        cards = sec.findall("card")
        if section is None:
            if cards:
                deck.notes.append(f"{path}: section {sname!r} ({len(cards)} cards) is not a "
                                  f"main deck, sideboard or command zone: left out")
            continue
        for card in cards:
            name = (card.text or "").strip()
            if not name:
                raise InputError(f"{path}: a <card> in section {sname!r} has no name")
            count = _count(card.get("qty", "1"), f"{path}: card {name!r}")
            if count <= 0:
                raise InputError(f"{path}: card {name!r} has a count of 0")
            deck.add(section, count, name)
    if not any(deck.sections.values()):
        raise InputError(f"{path}: no cards found in the OCTGN deck")
    return deck


def parse_dek(raw: bytes, path: Path) -> Deck:
    """MTGO: <Deck><Cards Quantity Sideboard Name/>."""
    root = _xml_root(raw, path, "Deck", "an MTGO deck")
    deck = Deck(path.stem, str(path))
    for card in root.findall("Cards"):
        name = (card.get("Name") or "").strip()
        count = _count(card.get("Quantity", "1"), f"{path}: card {name!r}")
        if not name and card.get("CatID"):
            raise InputError(f"{path}: this MTGO deck lists cards by catalogue number only, "
                             f"without names; export it from MTGO as a text deck instead")
        if not name or count <= 0:
            raise InputError(f"{path}: a <Cards> entry needs a Name and a positive Quantity")
        section = "sideboard" if card.get("Sideboard", "false").lower() == "true" else "main"
        for marked in ("commander", "companion"):  # Tabletop's own marks (to_dek)
            if (card.get(marked.title()) or "").lower() == "true":
                section = marked
        deck.add(section, count, name)
    if not any(deck.sections.values()):
        raise InputError(f"{path}: no cards found in the MTGO deck")
    return deck


def _name_as_the_cards_are(deck: Deck, canonical: Callable[[str], str | None]) -> None:
    """Every entry under its card's own name; entries that name one card are one."""
    for section, entries in deck.sections.items():
        merged: list[Entry] = []
        by_name: dict[str, Entry] = {}
        for e in entries:
            name = canonical(e.name) or e.name
            if name in by_name:
                by_name[name].count += e.count
                by_name[name].printing = by_name[name].printing or e.printing
                continue
            e.name = name
            by_name[name] = e
            merged.append(e)
        deck.sections[section] = merged


def load(path: str | Path, known: Callable[[str], bool] | None = None,
         canonical: Callable[[str], str | None] | None = None) -> Deck:
    """Read a deck in any supported format; names ``known`` does not know (a
    callable name -> bool) are listed in ``deck.unknown``. Each name becomes the one
    ``canonical`` (name -> the card's name, or None) gives, so a split, adventure or
    double-faced card written by a face or another spelling ("Fire", "Fire/Ice") is
    one entry, named as the card database names it ("Fire // Ice")."""
    path = Path(path)
    raw = _read(path)
    suffix = path.suffix.lower()
    stripped = raw.lstrip(b"\xef\xbb\xbf \t\r\n")
    if suffix == ".cod" or (stripped.startswith(b"<?xml") and b"cockatrice_deck" in raw[:2048]):
        deck = parse_cod(raw, path)
    elif suffix == ".o8d" or (stripped.startswith(b"<?xml") and b"<deck " in raw[:4096]):
        deck = parse_o8d(raw, path)
    elif stripped.startswith((b"<?xml", b"<Deck")) or (
            suffix == ".dek" and raw.lstrip(b"\xef\xbb\xbf\xff\xfe\x00 \t\r\n").startswith(b"<")):
        deck = parse_dek(raw, path)
    elif stripped.startswith(b"{"):
        deck = parse_mtgjson(raw, path)
    else:
        text = _text(raw, path)
        csv_header = _csv_header(text)
        if csv_header is not None:
            deck = parse_csv(text, str(path), *csv_header)
        elif _is_forge(text):
            deck = parse_forge(text, str(path))
        else:
            deck = parse_text(text, str(path))
    if known is None:
        from tabletop.cards.db import default
        known = lambda name: default().info(name) is not None
        if canonical is None:
            def canonical(name: str) -> str | None:
                d = default().info(name)
                return str(d["name"]) if d is not None and d.get("name") else None
    if canonical is not None:
        _name_as_the_cards_are(deck, canonical)
    for entries in deck.sections.values():
        for e in entries:
            if not known(e.name):
                deck.unknown.append((str(path), e.line, e.name))
    return deck


def to_text(deck: Deck) -> str:
    out = []
    for section in SECTIONS:
        entries = deck.sections[section]
        if not entries:
            continue
        if section != "main":
            out += ["", section.title()]
        out += [f"{e.count} {e.name}" for e in entries]
    return "\n".join(out).lstrip("\n") + "\n"


def to_arena(deck: Deck) -> str:
    """MTG Arena's export: Commander, Companion, Deck and Sideboard headings."""
    out: list[str] = []
    for section, heading in (("commander", "Commander"), ("companion", "Companion"),
                             ("main", "Deck"), ("sideboard", "Sideboard")):
        entries = deck.sections[section]
        if entries:
            out += ["", heading] + [f"{e.count} {e.name}" for e in entries]
    return "\n".join(out).lstrip("\n") + "\n"


def to_forge(deck: Deck) -> str:
    """Forge's .dck: [metadata] with the name, then [Commander], [Main], [Sideboard] (a
    companion is in the sideboard, where Forge keeps it)."""
    out = ["[metadata]", f"Name={' '.join(deck.name.split())}"]
    for section, heading in (("commander", "Commander"), ("main", "Main")):
        if deck.sections[section]:
            out += [f"[{heading}]"] + [f"{e.count} {e.name}" for e in deck.sections[section]]
    side = deck.sections["sideboard"] + deck.sections["companion"]
    if side:
        out += ["[Sideboard]"] + [f"{e.count} {e.name}" for e in side]
    return "\n".join(out) + "\n"


def to_dek(deck: Deck) -> str:
    """MTGO's .dek: each card a <Cards> with Quantity, Sideboard and Name (a commander or
    companion in the sideboard, marked with Tabletop's own attribute, which MTGO leaves)."""
    import xml.etree.ElementTree as ET
    root = ET.Element("Deck")
    ET.SubElement(root, "NetDeckID").text = "0"
    ET.SubElement(root, "PreconstructedDeckID").text = "0"
    for section in SECTIONS:
        for e in deck.sections[section]:
            attrs = {"CatID": "0", "Quantity": str(e.count),
                     "Sideboard": "false" if section == "main" else "true", "Name": e.name}
            if section in ("commander", "companion"):
                attrs[section.title()] = "true"
            ET.SubElement(root, "Cards", attrs)
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") \
        + "\n"


def to_cod(deck: Deck) -> str:
    """Cockatrice's .cod: zones main and side, and commander for a commander."""
    import xml.etree.ElementTree as ET
    root = ET.Element("cockatrice_deck", version="1")
    ET.SubElement(root, "deckname").text = deck.name
    for section, zone_name in (("main", "main"), ("sideboard", "side"),
                               ("commander", "commander"), ("companion", "side")):
        entries = deck.sections[section]
        if not entries:
            continue
        zone = root.find(f"zone[@name='{zone_name}']")
        if zone is None:
            zone = ET.SubElement(root, "zone", name=zone_name)
        for e in entries:
            ET.SubElement(zone, "card", number=str(e.count), name=e.name)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


# the formats a deck is written in: name -> (the file's suffix, the writer)
EXPORTS = {"arena": (".txt", to_arena), "mtgo": (".dek", to_dek),
           "cockatrice": (".cod", to_cod), "forge": (".dck", to_forge),
           "text": (".txt", to_text)}


def export_format(path: str | Path, wanted: str | None = None) -> str:
    """The format to write: the one asked for, else the file's suffix's (.txt: Arena's)."""
    if wanted is not None:
        if wanted not in EXPORTS:
            raise InputError(f"unknown deck format {wanted!r} (formats: "
                             f"{', '.join(EXPORTS)})")
        return wanted
    suffix = Path(path).suffix.lower()
    for name, (ext, _) in EXPORTS.items():
        if ext == suffix:
            return name
    raise InputError(f"{path}: a deck is written as .txt, .dek, .cod or .dck")


def export(deck: Deck, fmt: str) -> str:
    return EXPORTS[fmt][1](deck)


def save(deck: Deck, path: str | Path, fmt: str | None = None) -> None:
    """Write the deck atomically, in ``fmt`` or the format its suffix says."""
    from tabletop.engine.files import atomic_write
    text = export(deck, export_format(path, fmt))
    atomic_write(Path(path), text.encode("utf-8"))
