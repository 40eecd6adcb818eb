"""Card names as people and files write them, folded to one key for look-ups:
any case, with or without accents (Lim-Dûl, Lim-Dul; NFC or NFD), Æ as AE, a typeset
apostrophe as the plain one card data writes (Urza’s, Urza's), and any spelling of the
split-card separator (Fire/Ice, Fire // Ice)."""

from __future__ import annotations

import re
import unicodedata

_SPLIT = re.compile(r"\s*/+\s*")
_SPACES = re.compile(r"\s+")


def fold(name: str) -> str:
    text = unicodedata.normalize("NFKD", name)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = text.replace("Æ", "AE").replace("æ", "ae").replace("Œ", "OE").replace("œ", "oe")
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    text = text.casefold()
    text = _SPLIT.sub(" // ", text)
    return _SPACES.sub(" ", text).strip()
