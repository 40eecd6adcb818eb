"""The scenario dock and the log read each step as a sentence (issue 17, item 2): a step
without `say` shows its generated sentence, and the log heads each step's events with
it for the judge (a player reads only "Step N", which names no card)."""

from __future__ import annotations

from tabletop.engine import Table

FILE = """
format = "tabletop-scenario/1"
title = "Two steps, no say"
edition = "cr-2016"
seed = 1
players = ["Alice", "Bob"]

[cards.giant]
name = "Hill Giant"
types = ["Creature"]
owner = "Alice"
zone = "hand"

[[steps]]
move = "giant"
to = "battlefield"

[[steps]]
say = "The Giant dies."
move = "giant"
to = "graveyard"
"""


def test_the_dock_and_the_log_read_the_steps(make_window, tmp_path):
    p = tmp_path / "two.toml"
    p.write_text(FILE)
    w = make_window(Table(("Alice", "Bob")))
    panel = w.scenario_panel
    panel.open(p)
    texts = [panel.steps.item(i).text() for i in range(panel.steps.count())]
    assert texts == ["1. Alice moves Hill Giant to the battlefield", "2. The Giant dies."]
    from PySide6.QtGui import QTextDocumentFragment
    tip = QTextDocumentFragment.fromHtml(panel.steps.item(1).toolTip()).toPlainText()
    assert tip == "Alice moves Hill Giant to Alice's graveyard"  # shown as plain text
    w.c.set_viewer(None)  # the judge
    panel.step()
    panel.step()
    lines = w.log.lines()
    assert lines[0] == "▸ Step 1: Alice moves Hill Giant to the battlefield"
    assert "▸ Step 2: The Giant dies." in lines
    w.c.set_viewer("Bob")
    assert w.log.lines()[0] == "▸ Step 1"
