"""Presenter mode tells the ruling (issue 17, item 1): the table zooms to the step's
cards, a ghost of the card where the player pointed with an arrow to where the engine
put it, a banner with the step, the event, the rule and each expectation as a plain
sentence with a tick; leaving restores every font and dock exactly."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QToolBar

from tabletop.engine import Table
from tabletop.ui.items import ArrowItem, CardItem

FILE = """
format = "tabletop-scenario/1"
title = "Into the owner's graveyard"
edition = "cr-2016"
seed = 1
players = ["Alice", "Bob"]

[cards.giant]
name = "Hill Giant"
types = ["Creature"]
owner = "Bob"
controller = "Alice"
zone = "battlefield"

[[steps]]
move = "giant"
to = "graveyard"
player = "Alice"
by = "Alice"
expect = { card = "giant", zone = "graveyard", player = "Bob", new_object = true }
"""


def _looks(w):
    """Everything presenter mode changes: bars, fonts, style sheets, and each dock's
    place, size and visibility (the raw saveState also holds minimum sizes, which the
    steps' own text changes)."""
    docks = (w.log_dock, w.scenario_dock, w.inspector_dock)
    return (w.menuBar().isVisible(), w.statusBar().isVisible(),
            [b.isVisible() for b in w.findChildren(QToolBar)],
            [(x.font().toString(), x.styleSheet()) for x in (w.scenario_panel, w.inspector)],
            [(d.isVisible(), d.isFloating(), w.dockWidgetArea(d), d.geometry().getRect())
             for d in docks],
            [[x.windowTitle() for x in w.tabifiedDockWidgets(d)] for d in docks],
            w.view.geometry().getRect())


def test_presenter_shows_the_ruling_and_leaves_everything_as_it_was(make_window, tmp_path):
    p = tmp_path / "owner.toml"
    p.write_text(FILE)
    w = make_window(Table(("Alice", "Bob")))
    w.judges.open_scenario(p)
    QApplication.processEvents()
    before = _looks(w)
    fitted = w.view.transform().m11()
    QTest.keyClick(w, Qt.Key_F5)
    assert w.presenting and not w.menuBar().isVisible()
    QTest.keyClick(w, Qt.Key_Space)
    scene = w.scene
    ghosts = [i for i in scene.items() if isinstance(i, CardItem) and i.data(0) == "ghost"]
    arrows = [i for i in scene.items() if isinstance(i, ArrowItem)
              and i.data(0) == "ghost-arrow"]
    assert len(ghosts) == 1 and len(arrows) == 1
    pointed = scene.zone_items[("Alice", "graveyard")].spot.rect
    c = ghosts[0].sceneBoundingRect().center()
    assert pointed.contains(c.x(), c.y())  # the ghost is where Alice pointed
    went = scene.zone_items[("Bob", "graveyard")].spot.rect
    assert went.contains(arrows[0].end.x(), arrows[0].end.y())  # the arrow ends where it went
    text = w.presenter.banner.text()
    assert w.presenter.banner.isVisible()
    assert "Alice pointed at Alice&#x27;s graveyard → it went to Bob&#x27;s graveyard" in text
    assert "400.3" in text and "✔ Hill Giant is in Bob&#x27;s graveyard" in text
    assert "✔ Hill Giant is a new object" in text
    # the view shows the step's cards and the ghost above the banner
    top_of_banner = w.presenter.banner.geometry().top() - w.view.viewport().y()
    for item in (ghosts[0], w.scene.item_for_cid(w.scenario_panel.session.run.labels["giant"])):
        r = w.view.mapFromScene(item.sceneBoundingRect()).boundingRect()
        assert r.top() >= 0 and r.bottom() <= top_of_banner and r.left() >= 0 \
            and r.right() <= w.view.viewport().width(), r
    QTest.keyClick(w, Qt.Key_Escape)
    QApplication.processEvents()
    assert not w.presenting and not w.presenter.banner.isVisible()
    assert not [i for i in scene.items() if i.data(0) in ("ghost", "ghost-arrow")]
    assert _looks(w) == before
    assert abs(w.view.transform().m11() - fitted) < 1e-6


def test_presenter_tells_the_ruling_of_a_drag_at_the_table(make_window):
    """A judge showing a ruling by hand, without a scenario: the same ghost, arrow and
    banner after a real drag; undo clears them."""
    from tabletop.cards import builtin
    from tabletop.ui.selftest import drag, zone_center
    t = Table(("Alice", "Bob"), "cr-2016")
    giant = t.add_card(builtin.lookup("Hill Giant"), "Bob", "battlefield", controller="Alice")
    plow = t.add_card(builtin.lookup("Plow Under"), "Alice", "hand")
    t.start_here()
    w = make_window(t)
    QTest.keyClick(w, Qt.Key_F5)
    assert w.presenting
    scene = w.scene
    drag(w.view, scene.item_for_cid(giant.cid), zone_center(scene, ("Alice", "graveyard")))
    assert t.obj_of(giant.cid).zone == ("Bob", "graveyard")
    ghosts = [i for i in scene.items() if i.data(0) == "ghost"]
    arrows = [i for i in scene.items() if i.data(0) == "ghost-arrow"]
    assert len(ghosts) == 1 and len(arrows) == 1
    pointed = scene.zone_items[("Alice", "graveyard")].spot.rect
    c = ghosts[0].sceneBoundingRect().center()
    assert pointed.contains(c.x(), c.y())
    text = w.presenter.banner.text()
    assert w.presenter.banner.isVisible()
    assert "Move Hill Giant to graveyard" in text
    assert "Alice pointed at Alice&#x27;s graveyard → it went to Bob&#x27;s graveyard" in text
    assert "400.3" in text and t.edition.summary("400.3")[:30] in text.replace("&#x27;", "'")
    w.undo()
    QApplication.processEvents()
    assert not [i for i in scene.items() if i.data(0) in ("ghost", "ghost-arrow")]
    assert not w.presenter.banner.isVisible()
    # a refused drop: the ghost where it was pointed, the rule that refused it
    w.c.drop(plow.cid, "battlefield", None)
    text = w.presenter.banner.text()
    assert "Tried: Move Plow Under to battlefield" in text and "400.4a" in text
    assert "refused, it stays where it was" in text
    QTest.keyClick(w, Qt.Key_Escape)
    assert not w.presenting
    assert not [i for i in scene.items() if i.data(0) in ("ghost", "ghost-arrow")]


def test_a_step_that_does_not_say_who_moved_names_nobody(make_window, tmp_path):
    """A scenario's move without ``by`` says where the card was pointed at, not who
    pointed: its narration may be anyone's drag (the card's owner was once named)."""
    p = tmp_path / "s.toml"
    p.write_text(FILE.replace('by = "Alice"\n', "").replace('controller = "Alice"\n', ""))
    w = make_window(Table(("Alice", "Bob")))
    assert w.judges.open_scenario(p)
    QTest.keyClick(w, Qt.Key_F5)
    QTest.keyClick(w, Qt.Key_Space)
    text = w.presenter.banner.text()
    assert "Pointed at Alice&#x27;s graveyard → it went to Bob&#x27;s graveyard" in text
    assert "Bob pointed" not in text and "Alice pointed" not in text
