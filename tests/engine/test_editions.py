"""Editions as data: zones and names, citations in each edition's numbers,
summaries in our own words, and pairs of scenarios whose outcome differs."""

import hashlib
import json
import re
import tomllib
from collections import defaultdict

import pytest

from tabletop.engine import editions
from tabletop.scenario import load, run
from tests.helpers import DATA, SCENARIOS, table

# facts about the five zone-rules texts, kept in the repository instead of the texts
SEED_NUMBERS = json.loads((DATA / "seed_numbers.json").read_text(encoding="utf-8"))["seeds"]
SEED_SHINGLES = {line.strip() for line in (DATA / "seed_shingles.txt").read_text().splitlines()
                 if line.strip() and not line.startswith("#")}


def test_six_editions_with_their_own_zone_names():
    eds = {e.id: e for e in editions.all_editions()}
    assert list(eds) == ["cr-1999", "cr-2004", "cr-2005", "cr-2012", "cr-2016", "cr-2025"]
    assert editions.NEWEST == "cr-2025"  # the rules in force: new tables follow them
    assert eds["cr-1999"].zone_name("battlefield") == "In Play"
    assert eds["cr-1999"].zone_name("exile") == "Removed from Game"
    assert eds["cr-2004"].zone_name("exile") == "Removed from the Game"
    assert eds["cr-2016"].zone_name("exile") == "Exile"
    assert "command" not in eds["cr-1999"].zones and "phased-out" not in eds["cr-2012"].zones


def test_z_1_2_every_zone_per_player_but_in_play_and_stack():
    t = table("cr-1999")
    per_player = {k[1] for k in t.zones if k[0] is not None}
    assert per_player == {"ante", "graveyard", "hand", "library", "phased-out", "exile"}
    assert {k[1] for k in t.zones if k[0] is None} == {"battlefield", "stack"}


@pytest.mark.parametrize("edition", editions.EDITION_IDS)
def test_every_cited_number_has_a_summary(edition):
    ed = editions.get(edition)
    cited = {n for nums in ed.cites.values() for n in nums}
    cited |= {n for nums in ed.token_cites.values() for n in nums}
    missing = sorted(n for n in cited if not ed.summary(n))
    assert not missing


@pytest.mark.parametrize("edition", editions.EDITION_IDS)
def test_cited_numbers_stand_in_the_seed(edition):
    """Every number an edition cites or summarises is in its own text, or is marked as
    taken from outside it (issue 14, item 2)."""
    ed = editions.get(edition)
    numbers = set(SEED_NUMBERS[ed.seed or ed.id])  # cr-2025: no seed; its numbers listed
    cited = {n for nums in ed.cites.values() for n in nums}
    cited |= {n for nums in ed.token_cites.values() for n in nums}
    for n in sorted(cited | set(ed.rules), key=ed.sort_key):
        # a number of the edition's own text, or one marked with where it comes from
        if n in numbers:
            assert ed.source(n) is None, f"{n} is in the {edition} text but marked outside"
        else:
            assert ed.source(n), f"{edition} cites {n}, which its text lacks, unmarked"
            assert ed.mark(n) == n + "†"


def test_events_list_outside_numbers_apart_and_say_where_they_come_from():
    from tabletop.engine import Card
    t = table("cr-2016")
    a = t.add_card(Card("Bears", ("Creature",)), "Alice", "battlefield")
    b = t.add_card(Card("Giant", ("Creature",)), "Bob", "battlefield")
    res = t.move_many([b.cid, a.cid], "stack")
    e = res.events[0]
    assert "405.3" in e.cites
    assert t.edition.split(e.cites) == (("400.7",), ("405.3", "405.2"))
    assert "405.3 and 405.2: as in the 2012 text (the January 2016 text here holds only " \
        "section 400)" in e.notes
    t.undo()
    t.redo()  # the note is not repeated
    assert sum("405.3" in n for n in t.history[-1].events[0].notes) == 1
    own = table("cr-2012")
    x = own.add_card(Card("Bears", ("Creature",)), "Alice", "battlefield")
    y = own.add_card(Card("Giant", ("Creature",)), "Bob", "battlefield")
    e = own.move_many([y.cid, x.cid], "stack").events[0]
    assert own.edition.split(e.cites)[1] == () and not e.notes


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower().replace("’", "'"))


def test_no_summary_copies_eight_words_from_any_seed():
    assert len(SEED_SHINGLES) > 5000  # the hashes are there

    def shingle(words) -> str:
        return hashlib.sha256(" ".join(words).encode()).hexdigest()[:12]
    for path in (SCENARIOS.parent / "rules").glob("*.toml"):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for number, summary in data.get("rules", {}).items():
            w = _words(summary)
            copied = [" ".join(w[i:i + 8]) for i in range(len(w) - 7)
                      if shingle(w[i:i + 8]) in SEED_SHINGLES]
            assert not copied, f"{path.name} {number}: {copied[0]!r}"


@pytest.mark.parametrize("edition", editions.EDITION_IDS)
def test_at_least_six_scenarios_per_edition(edition):
    assert len(list((SCENARIOS / edition).glob("*.toml"))) >= 6


def _table_part(path):
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    steps = [{k: v for k, v in s.items() if k not in ("say", "expect")} for s in data["steps"]]
    return (data["players"], data.get("cards"), data.get("effects"), data.get("seed"),
            data.get("ante"), steps)


def _outcome(path):
    r = run(load(path))
    return [[(e.kind, e.dst, e.cites) for e in rep.events] for rep in r.reports]


def test_pairs_same_table_different_outcome_or_citation():
    pairs = defaultdict(list)
    for p in SCENARIOS.glob("cr-*/pair-*.toml"):
        pairs[p.name].append(p)
    pairs = {k: v for k, v in pairs.items() if len(v) >= 2}
    assert len(pairs) >= 8, sorted(pairs)
    for name, paths in pairs.items():
        tables = {repr(_table_part(p)) for p in paths}
        assert len(tables) == 1, f"{name}: the tables differ between editions"
        outcomes = {repr(_outcome(p)) for p in paths}
        assert len(outcomes) >= 2, f"{name}: every edition gives the same outcome"


@pytest.mark.parametrize("edition", ["cr-2012", "cr-2016"])
def test_every_rule_of_the_2012_text_has_a_summary(edition):
    """Issue 14, item 4: 405.6a-h and 406.7 were missing."""
    ed = editions.get(edition)
    own = set(SEED_NUMBERS[editions.get("cr-2012").seed])
    headings = {n for n in own if re.fullmatch(r"40[0-8]\.\d+[a-z]?", n)}
    if edition == "cr-2016":
        headings = {n for n in headings if not n.startswith("400.")}  # its own 400 differs
    for n in ("405.6a", "405.6b", "405.6c", "405.6d", "405.6e", "405.6f", "405.6g",
              "405.6h", "406.7"):
        assert ed.summary(n), n
    missing = sorted(n for n in headings if not ed.summary(n))
    assert not missing


def test_summaries_keep_what_the_text_says_and_no_more():
    """Issue 14, item 3: the points a judge checks."""
    e12, e16 = editions.get("cr-2012"), editions.get("cr-2016")
    assert "tapped" not in e12.summary("403.3")
    assert "static abilities are not among them" in e12.summary("400.7a")
    assert "activated ability" in e16.summary("400.7g") and "triggered" not in \
        e16.summary("400.7g")
    assert "two destroy effects" in e12.summary("400.6")
    assert "delayed triggered ability" in e12.summary("405.4")
    assert "603.7d-f, outside this text" in e12.summary("405.4")
    assert "Aura on another player's permanent" in e12.summary("403.1")
    assert "local enchantments" in editions.get("cr-2004").summary("217.5a")


def test_rules_are_listed_in_rule_order():
    from tests.helpers import run_cli
    r = run_cli("rules", "cr-2012")
    numbers = [ln.split()[0].rstrip("†") for ln in r.stdout.splitlines()]
    assert numbers.index("400.4a") < numbers.index("400.5") < numbers.index("400.10")
    r = run_cli("rules", "cr-2004")
    numbers = [ln.split()[0] for ln in r.stdout.splitlines()]
    assert numbers.index("217.2e") < numbers.index("217.2.Ruling.1") < numbers.index("217.3a")


def _fresh_caches():
    from tabletop.engine import editions
    for f in (editions._all_data, editions.get, editions.titles):
        f.cache_clear()


def test_the_edition_data_copy_is_made_again_when_stale_damaged_or_unwritable(tmp_path):
    """The JSON copy of the edition files in the cache folder is only ever a faster
    read of the same data: a stale or damaged copy is made again, and none at all
    (a read-only folder) still gives the editions."""
    import json

    from tabletop import paths
    from tabletop.engine import editions
    paths.set_data_dir(tmp_path)
    try:
        _fresh_caches()
        truth = {e: editions.get(e) for e in editions.EDITION_IDS}
        copy = tmp_path / "cache" / "editions.json"
        kept = json.loads(copy.read_text())
        assert kept["stamps"] == editions._stamps()
        # stale: an edition file changed since (its stamp differs); the copy says lies
        kept["data"]["cr-2016"]["title"] = "a stale title"
        kept["stamps"]["cr-2016"][1] -= 1
        copy.write_text(json.dumps(kept))
        _fresh_caches()
        assert editions.get("cr-2016") == truth["cr-2016"]
        assert json.loads(copy.read_text())["stamps"] == editions._stamps()  # made again
        for damage in ("{not json", '{"format": 1}', '[]', ""):
            copy.write_text(damage)
            _fresh_caches()
            assert dict(editions.titles()) == {e: truth[e].title for e in truth}
            assert editions.get("cr-1999") == truth["cr-1999"]
        copy.unlink()
        copy.parent.rmdir()
        copy.parent.write_text("a file where the cache folder would be: nothing can be "
                               "written there (a read-only folder, even for root)")
        _fresh_caches()
        assert editions.get("cr-2012") == truth["cr-2012"]
        assert copy.parent.is_file()
    finally:
        paths.set_data_dir(None)
        _fresh_caches()
