"""Fuzzed inputs for every parser: generated and mutated inputs never raise anything
but the clear-error path (TabletopError), and the corpus of nasty files in
tests/data/nasty/ all end there too."""

import contextlib
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.cards import decks
from tabletop.cards.db import CardDB
from tabletop.engine import TabletopError, rulestext, saves
from tabletop.scenario import load as load_scenario
from tabletop.scenario import run
from tests.helpers import EXAMPLES as SPEC_EXAMPLES
from tests.helpers import LAYOUTS, ROOT, SCENARIOS

SOAK = bool(os.environ.get("TABLETOP_SOAK"))
EXAMPLES = 2000 if SOAK else 120
NASTY = ROOT / "tests" / "data" / "nasty"
FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.data_too_large])


def scenario_file(tmp: Path, data: bytes) -> None:
    p = tmp / "s.toml"
    p.write_bytes(data)
    with contextlib.suppress(TabletopError):
        run(load_scenario(p))


def save_file(tmp: Path, data: bytes) -> None:
    p = tmp / "g.tabletop"
    p.write_bytes(data)
    try:
        t = saves.load(p)
        while t.undo():  # the lazily decoded history must fail cleanly too
            pass
    except TabletopError:
        pass


def deck_file(tmp: Path, data: bytes, suffix: str) -> None:
    p = tmp / f"d{suffix}"
    p.write_bytes(data)
    with contextlib.suppress(TabletopError):
        decks.load(p, known=lambda n: True)


def card_file(tmp: Path, data: bytes) -> None:
    p = tmp / "cards.json"
    p.write_bytes(data)
    db = CardDB(tmp / "c.sqlite3")
    try:
        db.import_file(p)
    except TabletopError:
        pass
    finally:
        db.close()


def rules_file(tmp: Path, data: bytes) -> None:
    p = tmp / "rules.txt"
    p.write_bytes(data)
    with contextlib.suppress(TabletopError):
        rulestext.read(p)


def mutate(data: bytes, ops) -> bytes:
    b = bytearray(data)
    for kind, pos, byte in ops:
        if not b:
            b = bytearray(b"x")
        i = pos % len(b)
        if kind == 0:
            b[i] = byte
        elif kind == 1:
            del b[i:i + byte % 16 + 1]
        elif kind == 2:
            b[i:i] = bytes([byte]) * (byte % 5 + 1)
        else:
            b = b[:i]
    return bytes(b)


OPS = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 10**6), st.integers(0, 255)),
               min_size=1, max_size=6)
SEED_SCENARIOS = [p.read_bytes() for p in sorted(SCENARIOS.glob("*.toml"))[:12]] + \
    [p.read_bytes() for p in SPEC_EXAMPLES.glob("*.toml")]
DECK_SEEDS = [(p.read_bytes(), p.suffix) for p in sorted((ROOT / "tests/data/decks").rglob("*"))
              if p.is_file() and p.suffix != ".md"]
RULE_SEEDS = [p.read_bytes() for p in sorted(LAYOUTS.glob("*.txt"))]


def _save_seed() -> bytes:
    from tabletop.cards import demo
    t = demo.new_game()
    for o in t.objects_in(("Alice", "hand"))[:3]:
        t.move(o.cid, "graveyard")
    t.undo()
    return saves.dumps(t).encode()


SAVE_SEED = _save_seed()
CARD_SEED = b'{"meta": {"v": 1}, "data": {"A": [{"name": "A", "types": ["Creature"], ' \
            b'"power": "1"}], "B // C": [{"name": "B // C", "faceName": "B"}, {"faceName": "C"}]}}'


@FUZZ
@given(seed=st.sampled_from(SEED_SCENARIOS), ops=OPS)
def test_mutated_scenarios_end_in_clear_errors(tmp_path, seed, ops):
    scenario_file(tmp_path, mutate(seed, ops))


@FUZZ
@given(st.binary(max_size=400) | st.text(max_size=400).map(str.encode))
def test_random_scenarios_end_in_clear_errors(tmp_path, data):
    scenario_file(tmp_path, b'format = "tabletop-scenario/1"\n' + data)


@FUZZ
@given(ops=OPS)
def test_mutated_saves_end_in_clear_errors(tmp_path, ops):
    save_file(tmp_path, mutate(SAVE_SEED, ops))


@FUZZ
@given(seed=st.sampled_from(DECK_SEEDS), ops=OPS)
def test_mutated_decks_end_in_clear_errors(tmp_path, seed, ops):
    deck_file(tmp_path, mutate(seed[0], ops), seed[1])


@FUZZ
@given(data=st.text(max_size=300), suffix=st.sampled_from([".txt", ".cod", ".dek"]))
def test_random_decks_end_in_clear_errors(tmp_path, data, suffix):
    deck_file(tmp_path, data.encode("utf-8", "surrogatepass"), suffix)


@FUZZ
@given(ops=OPS)
def test_mutated_card_data_ends_in_clear_errors(tmp_path, ops):
    card_file(tmp_path, mutate(CARD_SEED, ops))


@FUZZ
@given(seed=st.sampled_from(RULE_SEEDS), ops=OPS)
def test_mutated_rules_text_ends_in_clear_errors(tmp_path, seed, ops):
    rules_file(tmp_path, mutate(seed, ops))


@pytest.mark.parametrize("path", sorted(NASTY.iterdir()), ids=lambda p: p.name)
def test_nasty_corpus(tmp_path, path):
    data = path.read_bytes()
    name = path.name
    if name.endswith(".toml"):
        scenario_file(tmp_path, data)
    elif name.endswith(".tabletop"):
        save_file(tmp_path, data)
    elif name.startswith("cards") or name.endswith((".json", ".gz")):
        card_file(tmp_path, data)
        save_file(tmp_path, data)
    elif name.startswith("rules"):
        rules_file(tmp_path, data)
    else:
        deck_file(tmp_path, data, path.suffix)


def _paths(d, prefix=()):
    if isinstance(d, dict):
        for k, v in d.items():
            yield (*prefix, k)
            yield from _paths(v, (*prefix, k))
    elif isinstance(d, list):
        for i, v in enumerate(d[:6]):
            yield (*prefix, i)
            yield from _paths(v, (*prefix, i))


SAVE_DOC = __import__("json").loads(SAVE_SEED)
SAVE_PATHS = [p for p in _paths(SAVE_DOC) if p[0] not in ("format",)]
JSONISH = st.recursive(st.none() | st.booleans() | st.integers(-3, 10**6) | st.text(max_size=8),
                       lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=4), c,
                                                                           max_size=3),
                       max_leaves=6)


@FUZZ
@given(path=st.sampled_from(SAVE_PATHS), value=JSONISH)
def test_saves_with_a_wrong_value_anywhere_end_in_clear_errors(tmp_path, path, value):
    import copy
    import json
    doc = copy.deepcopy(SAVE_DOC)
    node = doc
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    save_file(tmp_path, json.dumps(doc).encode())


@FUZZ
@given(index=st.integers(0, 10**6), ops=OPS)
def test_saves_with_damaged_history_entries_end_in_clear_errors(tmp_path, index, ops):
    import copy
    import json
    doc = copy.deepcopy(SAVE_DOC)
    if doc["history"]:
        i = index % len(doc["history"])
        doc["history"][i] = mutate(doc["history"][i].encode(), ops).decode("utf-8", "replace")
    save_file(tmp_path, json.dumps(doc).encode())
