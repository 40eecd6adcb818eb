"""Headless commands: editions, rules, version."""

from tests.helpers import run_cli


def test_editions_lists_the_five():
    r = run_cli("editions")
    assert r.returncode == 0
    for e in ("cr-1999", "cr-2004", "cr-2005", "cr-2012", "cr-2016"):
        assert e in r.stdout
    assert "Removed from Game" in r.stdout and "In Play" in r.stdout


def test_rules_answers_a_number():
    r = run_cli("rules", "cr-1999", "Z.1.5")
    assert r.returncode == 0 and r.stdout.startswith("Z.1.5")


def test_rules_lists_all_in_order():
    r = run_cli("rules", "cr-2016")
    lines = r.stdout.splitlines()
    assert r.returncode == 0 and any(ln.startswith("400.7g") for ln in lines)
    assert lines.index(next(ln for ln in lines if ln.startswith("400.10 "))) > \
        lines.index(next(ln for ln in lines if ln.startswith("400.9 ")))


def test_rules_unknown_edition_or_number_exits_2():
    assert run_cli("rules", "cr-1066").returncode == 2
    r = run_cli("rules", "cr-2016", "999.9")
    assert r.returncode == 2 and "999.9" in r.stderr


def test_version():
    r = run_cli("--version")
    assert r.returncode == 0 and "tabletop" in r.stdout


def test_scenarios_finds_by_words_and_counts_them_in_words_that_fit():
    r = run_cli("scenarios", "rest", "in", "peace")
    lines = r.stdout.splitlines()
    assert r.returncode == 0 and lines[0].startswith("400_6_rest_in_peace")
    assert lines[-1].startswith("(1 scenario;")  # it said "(1 scenarios;"
    r = run_cli("scenarios", "exile")
    shown = [ln for ln in r.stdout.splitlines() if not ln.startswith("(")]
    assert len(shown) > 1 and r.stdout.splitlines()[-1].startswith(f"({len(shown)} scenarios;")
    r = run_cli("scenarios", "no-such-word-anywhere")
    assert r.returncode == 1 and "none matches" in r.stderr
