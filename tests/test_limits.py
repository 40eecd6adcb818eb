"""Every input has a size limit with a clear message past it."""

import pytest

from tabletop.cards import decks
from tabletop.engine import InputError, rulestext, saves
from tabletop.scenario import loader


@pytest.mark.parametrize("module,read,name", [
    (loader, loader.load, "s.toml"), (saves, saves.load, "g.tabletop"),
    (decks, decks.load, "d.txt"), (rulestext, rulestext.read, "r.txt")])
def test_oversized_inputs_are_refused_with_a_message(tmp_path, monkeypatch, module, read, name):
    monkeypatch.setattr(module, "MAX_BYTES", 64)
    p = tmp_path / name
    p.write_text("x" * 100)
    with pytest.raises(InputError, match="larger than"):
        read(p)


def test_no_loader_can_run_code():
    """No pickle, marshal, eval or object-building YAML anywhere in the package."""
    import re

    from tests.helpers import ROOT
    bad = re.compile(r"\b(pickle|marshal|shelve|yaml)\b|(?<![\w.])eval\(|(?<![\w.])exec\(")
    for path in (ROOT / "tabletop").rglob("*.py"):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("#")[0]
            assert not bad.search(code), f"{path.name}:{n}: {line.strip()}"
