"""The table comes back as it was (issue 30): where each permanent was put, what is
attached to what, the viewpoint, the zoom and the open zone viewers, after a crash
restore through the app's real start-up, after a save and reload, and after undo."""

import shutil
import sys

import pytest
from PySide6.QtCore import QPointF

from tabletop.cards import builtin
from tabletop.engine import Table, saves
from tabletop.ui import layout as L
from tabletop.ui.autosave import Autosave
from tabletop.ui.controller import TableController
from tabletop.ui.main_window import MainWindow
from tabletop.ui.selftest import drag
from tests.ui.test_sessions import run_app


def _table():
    t = Table(("Alice", "Bob"), "cr-2016")
    giants = [t.add_card(builtin.lookup("Hill Giant"), "Alice", "battlefield").cid
              for _ in range(3)]
    elves = t.add_card(builtin.lookup("Llanowar Elves"), "Alice", "hand").cid
    aura = t.add_card(builtin.lookup("Pacifism"), "Alice", "battlefield").cid
    t.add_card(builtin.lookup("Shock"), "Bob", "graveyard")
    t.start_here()
    return t, giants, elves, aura


def _places(w):
    """Each permanent's card id -> where it is drawn (scene coordinates)."""
    out = {}
    for item in w.scene.cards.values():
        if item.zone_key is not None and item.zone_key[1] == "battlefield":
            p = item.pos()
            out[w.scene.cid_of(item)] = (round(p.x(), 1), round(p.y(), 1))
    return out


def _play(w, giants, elves, aura):
    """Put cards where a player would: one from the hand to a place, one moved within
    the battlefield, an Aura on a giant."""
    r = w.scene.zone_items[("Alice", "battlefield")].spot.rect
    drag(w.view, w.scene.item_for_cid(elves), QPointF(r.x + r.w * 0.7, r.y + r.h * 0.45))
    drag(w.view, w.scene.item_for_cid(giants[1]), QPointF(r.x + r.w * 0.45, r.y + r.h * 0.3))
    w.c.attach(aura, giants[1])
    assert w.c.table.obj_of(elves).zone == (None, "battlefield")
    assert w.c.table.obj_of(giants[1]).place is not None


def _in_rows(t, giants):
    """Where the cards would be without the places: a giant left in the rows."""
    return t.obj_of(giants[0]).place is None


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals in run_app")
def test_a_crash_restore_brings_back_places_viewpoint_zoom_and_viewers(
        tmp_path, make_window, dialogs, qtbot):
    t, giants, elves, aura = _table()
    first = tmp_path / "first"
    a = Autosave(first)
    a.begin()
    w = MainWindow(TableController(t), autosave=a)
    qtbot.addWidget(w)
    w.scene.animations = False
    w.resize(1400, 900)
    w.show()
    qtbot.waitExposed(w)
    qtbot.waitUntil(lambda: w.first_painted and not w._after_first_frame, timeout=5000)
    _play(w, giants, elves, aura)
    w.c.set_viewer("Bob")  # seen from Bob's chair
    w.scene.view_zone(("Bob", "graveyard"))  # a zone viewer left open
    w.view.zoom(1.6)  # zoomed in: the autosave follows within a moment
    qtbot.waitUntil(lambda: "zoom" in saves.load(a.path).screen, timeout=3000)
    before = _places(w)
    zoom = w.view.transform().m11()
    assert _in_rows(t, giants) and len(before) == 5
    # the app dies here: its autosave and its marker are what the next start finds
    after = tmp_path / "after"
    after.mkdir()
    for name in (a.path.name, a.marker.name):
        shutil.copy(first / name, after / name)
    w.ending = True  # (this window goes, or the next app's loop would wait for it)
    w.close()
    seen = {}

    def check(win):
        seen["viewer"] = win.c.viewer
        seen["places"] = _places(win)
        seen["zoom"] = win.view.transform().m11()
        seen["viewers"] = [v.key for v in win.scene.viewers]
        seen["hosts"] = win.c.table.obj_of(aura).attached_to == \
            win.c.table.obj_of(giants[1]).id
        win.ending = True
        win.close()
    dialogs.expect("Restore the last game?", "Yes")
    code, _ = run_app(["--data-dir", str(after)], check)
    assert code == 0
    assert seen["viewer"] == "Bob"
    assert seen["places"] == before  # every permanent, the Aura behind its giant included
    assert seen["zoom"] == pytest.approx(zoom, rel=1e-3)
    assert seen["viewers"] == [("Bob", "graveyard")]
    assert seen["hosts"]


def test_a_save_and_reload_brings_back_every_place(tmp_path, make_window, dialogs):
    t, giants, elves, aura = _table()
    w = make_window(t)
    _play(w, giants, elves, aura)
    before = _places(w)
    path = tmp_path / "game.tabletop"
    assert w._write(path)
    w2 = make_window(Table(("Carol",)))
    assert w2.load_game(path, asked=True)
    assert _places(w2) == before
    assert w2.c.viewer == "Alice"


def test_undo_puts_a_card_back_in_its_place(make_window, dialogs):
    t, giants, elves, aura = _table()
    w = make_window(t)
    _play(w, giants, elves, aura)
    before = _places(w)
    # to the graveyard and back by undo: it returns to where it was put, not to a row
    w.c.drop(elves, "graveyard", "Alice")
    assert elves not in _places(w)
    assert w.c.undo()
    assert _places(w) == before
    # undo of a move within the battlefield puts it back where it was
    r = w.scene.zone_items[("Alice", "battlefield")].spot.rect
    drag(w.view, w.scene.item_for_cid(elves), QPointF(r.x + r.w * 0.2, r.y + r.h * 0.3))
    assert _places(w)[elves] != before[elves]
    assert w.c.undo() and _places(w) == before
    # Arrange puts every card back in the rows, as one action undo takes back
    menu = w.scene.zone_actions(w.scene.zone_items[("Alice", "battlefield")])
    next(a for a in menu.actions() if a.text().startswith("Arrange")).trigger()
    assert all(t.obj_of(c).place is None for c in (*giants, elves))
    assert w.c.undo() and _places(w) == before


def test_places_are_the_same_from_either_chair(make_window, dialogs):
    """A place is kept as its controller sees it: from the other chair the card is in
    the same spot of that player's half, turned round."""
    t, giants, elves, aura = _table()
    w = make_window(t)
    _play(w, giants, elves, aura)
    spot = w.scene.zone_items[("Alice", "battlefield")].spot
    item = w.scene.item_for_cid(elves)
    dx = item.pos().x() - spot.rect.x
    dy_near = spot.rect.y + spot.rect.h - (item.pos().y() + L.CARD_H)  # from the far edge
    w.c.set_viewer("Bob")
    spot = w.scene.zone_items[("Alice", "battlefield")].spot
    item = w.scene.item_for_cid(elves)
    assert item.pos().x() - spot.rect.x == pytest.approx(dx)
    assert item.pos().y() - spot.rect.y == pytest.approx(dy_near)
