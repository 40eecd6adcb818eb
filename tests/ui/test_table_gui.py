"""The table in a real window, driven by real drags on the view's viewport."""

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QColor
from PySide6.QtTest import QTest

from tabletop.cards import builtin
from tabletop.engine import Card, Table
from tabletop.ui.items import CardItem
from tabletop.ui.selftest import drag, zone_center
from tests.helpers import run_cli


def card(name):
    return builtin.lookup(name)


def positions(w):
    return {k: (round(i.pos().x()), round(i.pos().y()), i.zone_key, i.rotation())
            for k, i in w.scene.cards.items()}


def test_400_3_stolen_aura_dropped_on_controllers_graveyard_lands_in_owners(make_window):
    t = Table(("Alice", "Bob"))
    aura = t.add_card(card("Rancor"), "Bob", "battlefield", controller="Alice")
    t.history.clear()
    w = make_window(t)
    drag(w.view, w.scene.item_for_cid(aura.cid), zone_center(w.scene, ("Alice", "graveyard")))
    assert t.obj_of(aura.cid).zone == ("Bob", "graveyard")
    item = w.scene.item_for_cid(aura.cid)
    assert item.zone_key == ("Bob", "graveyard")
    assert "400.3" in w.message()


def test_400_4a_sorcery_dropped_on_battlefield_is_back_in_hand(make_window):
    t = Table(("Alice", "Bob"))
    plow = t.add_card(card("Plow Under"), "Alice", "hand")
    t.add_card(card("Forest"), "Alice", "hand")
    t.history.clear()
    w = make_window(t)
    hand_before = list(t.zones[("Alice", "hand")])
    before = positions(w)
    drag(w.view, w.scene.item_for_cid(plow.cid), zone_center(w.scene, ("Alice", "battlefield")))
    assert t.zones[("Alice", "hand")] == hand_before and not t.history
    assert positions(w) == before
    assert "400.4a" in w.message()


def test_token_dropped_on_graveyard_is_gone_from_the_scene(make_window):
    t = Table(("Alice", "Bob"))
    cid = t.create_token(Card("Soldier", ("Creature",)), "Alice").events[0].cid
    t.history.clear()
    w = make_window(t)
    drag(w.view, w.scene.item_for_cid(cid), zone_center(w.scene, ("Alice", "graveyard")))
    assert t.live(cid) is None
    assert w.scene.item_for_cid(cid) is None
    assert not any(isinstance(i, CardItem) and i.face and i.face.name == "Soldier"
                   for i in w.scene.items())


def test_undo_puts_every_item_back(make_window, qtbot):
    from tabletop.cards import demo
    t = demo.new_game()
    w = make_window(t)
    before = positions(w)
    hand = [o for o in t.objects_in(("Alice", "hand"))]
    drag(w.view, w.scene.item_for_cid(hand[0].cid), zone_center(w.scene, ("Alice", "battlefield")))
    drag(w.view, w.scene.item_for_cid(hand[1].cid), zone_center(w.scene, ("Alice", "graveyard")))
    assert positions(w) != before
    QTest.keyClick(w, Qt.Key_Z, Qt.ControlModifier)
    QTest.keyClick(w, Qt.Key_Z, Qt.ControlModifier)
    assert positions(w) == before
    QTest.keyClick(w, Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
    assert positions(w) != before


def test_inspector_shows_lineage_after_two_moves(make_window):
    t = Table(("Alice", "Bob"))
    bears = t.add_card(card("Grizzly Bears"), "Alice", "hand")
    t.history.clear()
    w = make_window(t)
    drag(w.view, w.scene.item_for_cid(bears.cid), zone_center(w.scene, ("Alice", "battlefield")))
    drag(w.view, w.scene.item_for_cid(bears.cid), zone_center(w.scene, ("Alice", "graveyard")))
    w.c.selection.emit(bears.cid)
    text = w.inspector.toPlainText()
    assert "Lineage" in text and "Hand (Alice)" in text and "Battlefield" in text \
        and "Graveyard (Alice)" in text
    assert "400.7" in text and "Grizzly Bears" in text
    ids = [e.obj for e in t.lineage[bears.cid]]
    assert len(ids) == 3 and all(str(i) in text for i in ids)


def test_clicking_a_rule_number_shows_the_rule(make_window):
    t = Table(("Alice", "Bob"))
    aura = t.add_card(card("Rancor"), "Bob", "battlefield", controller="Alice")
    w = make_window(t)
    w.c.drop(aura.cid, "graveyard", "Alice")
    w.c.selection.emit(aura.cid)
    w.inspector.anchorClicked.emit(__import__("PySide6.QtCore", fromlist=["QUrl"]).QUrl("rule:400.3"))
    assert "Rule 400.3" in w.inspector.toPlainText()
    assert t.edition.summary("400.3") in w.inspector.toPlainText()


def test_player_viewpoint_never_names_hidden_cards(make_window):
    t = Table(("Alice", "Bob"))
    secrets = ["Ancestral Recall", "Demonic Tutor", "Sol Ring", "Time Walk Secret"]
    for name in secrets[:2]:
        t.add_card(Card(name, ("Sorcery",)), "Bob", "hand")
    t.add_card(Card(secrets[2], ("Artifact",)), "Alice", "library")
    t.add_card(Card(secrets[3], ("Sorcery",)), "Bob", "library")
    t.add_card(card("Forest"), "Alice", "hand")
    t.draw("Bob")
    w = make_window(t, viewer="Alice")
    texts = []
    for item in w.scene.items():
        texts.append(item.toolTip())
        if isinstance(item, CardItem):
            texts += item.text_items()
        else:
            texts.append(getattr(item, "title", ""))
    texts += w.log.lines()
    blob = "\n".join(texts)
    for name in secrets:
        assert name not in blob
    assert "Forest" in blob  # Alice's own hand is shown


def _pixel(w, scene_point) -> QColor:
    img = w.view.viewport().grab().toImage()
    p = w.view.mapFromScene(scene_point)
    return QColor(img.pixel(p.x(), p.y()))


def test_zone_lights_green_or_red_during_a_drag(make_window):
    t = Table(("Alice", "Bob"))
    bolt = t.add_card(card("Lightning Bolt"), "Alice", "hand")
    forest = t.add_card(card("Forest"), "Alice", "hand")
    w = make_window(t)
    r = w.scene.zone_items[("Alice", "battlefield")].spot.rect
    probe = QPointF(r.x + 20, r.y + r.h - 12)  # inside the zone, away from cards
    base = _pixel(w, probe)
    vp = w.view.viewport()
    for cid, expect in ((forest.cid, "green"), (bolt.cid, "red")):
        item = w.scene.item_for_cid(cid)
        start = w.view.mapFromScene(item.sceneBoundingRect().center())
        end = w.view.mapFromScene(zone_center(w.scene, ("Alice", "battlefield")))
        QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, start)
        for i in range(1, 5):
            p = start + (end - start) * (i / 4)
            QTest.mouseMove(vp, QPoint(int(p.x()), int(p.y())))
        lit = _pixel(w, probe)
        if expect == "green":
            assert lit.green() > base.green() + 15 and lit.green() > lit.red()
        else:
            assert lit.red() > base.red() + 15 and lit.red() > lit.green()
        QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, start)
        assert _pixel(w, probe) == base  # the light goes out with the drop


def test_tapped_card_is_drawn_turned(make_window):
    t = Table(("Alice", "Bob"))
    land = t.add_card(card("Forest"), "Alice", "battlefield")
    w = make_window(t)
    item = w.scene.item_for_cid(land.cid)
    assert item.rotation() == 0
    tall = item.sceneBoundingRect()
    assert tall.height() > tall.width()
    QTest.mouseDClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier,
                      w.view.mapFromScene(item.sceneBoundingRect().center()))
    assert t.obj_of(land.cid).tapped
    item = w.scene.item_for_cid(land.cid)
    wide = item.sceneBoundingRect()
    assert item.rotation() == 90 and wide.width() > wide.height()
    # drawn turned, not rotated as an item: Qt keeps its drawn copy (DeviceCoordinateCache)
    # only while the item's transformation on screen is a plain scale (issue 36: a
    # rotated card was drawn anew at every frame of a drag)
    from PySide6.QtGui import QTransform
    shown = item.deviceTransform(w.view.viewportTransform())
    assert shown.type().value <= QTransform.TransformationType.TxScale.value
    assert item.cacheMode() == item.CacheMode.DeviceCoordinateCache


def test_self_test_and_screenshot_commands(tmp_path):
    r = run_cli("--self-test")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "self-test passed" in r.stdout
    assert "parts loaded when needed (HTTPS, pictures, PDF, decks, network): ok" in r.stdout
    out = tmp_path / "table.png"
    r = run_cli("--screenshot", out, "--viewpoint", "judge")
    assert r.returncode == 0, r.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    r = run_cli("--screenshot", out, "--viewpoint", "Zed")
    assert r.returncode == 2 and "Zed" in r.stderr


def test_card_menu_shortcuts_act_on_the_selected_card(make_window):
    t = Table(("Alice", "Bob"))
    land = t.add_card(card("Forest"), "Alice", "battlefield")
    w = make_window(t)
    item = w.scene.item_for_cid(land.cid)
    QTest.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier,
                     w.view.mapFromScene(item.sceneBoundingRect().center()))
    QTest.keyClick(w, Qt.Key_Space, Qt.ControlModifier)
    assert t.obj_of(land.cid).tapped
    QTest.keyClick(w, Qt.Key_Up, Qt.AltModifier)
    assert t.obj_of(land.cid).counters == {"+1/+1": 1}
    QTest.keyClick(w, Qt.Key_Down, Qt.AltModifier)
    assert t.obj_of(land.cid).counters == {}


def test_hovering_shows_a_large_preview_but_not_of_hidden_cards(make_window):
    t = Table(("Alice", "Bob"))
    bolt = t.add_card(card("Lightning Bolt"), "Alice", "hand")
    secret = t.add_card(card("Counterspell"), "Bob", "hand")
    w = make_window(t)
    item = w.scene.item_for_cid(bolt.cid)
    w.scene.hover(item, True)
    from tabletop.ui.preview import W
    on_screen = w.view.mapFromScene(item.sceneBoundingRect()).boundingRect().width()
    assert w.scene._preview is not None and 2 * on_screen < W  # large, whatever the zoom
    assert w.scene._preview.face.name == "Lightning Bolt"
    hidden = next(i for k, i in w.scene.cards.items() if k[0] == "o")
    w.scene.hover(hidden, True)
    assert w.scene._preview is None
    assert secret.cid not in [k[1] for k in w.scene.cards if k[0] == "c"]


def test_log_added_to_action_by_action_matches_a_full_redraw(make_window):
    from tabletop.cards import demo
    t = demo.new_game()
    w = make_window(t)
    land, other = sorted(t.objects_in(("Alice", "hand")), key=lambda o: "Land" not in o.card.types)[:2]
    w.c.drop(land.cid, "battlefield", "Alice")
    w.c.draw("Alice", 2)
    w.c.drop(other.cid, "graveyard", "Alice")
    w.c.undo()
    w.c.shuffle("Bob")
    shown = [w.log.list.item(i).text() for i in range(w.log.list.count())]
    assert shown == w.log.lines() and len(shown) >= 4


def test_log_lines_are_measured_with_the_styles_own_text_margin(make_window):
    """The log measures each line's height at the width its text gets in the list; the
    margin it takes off (not asked of the style at start-up: that built QStyle's
    enumerations, 40 ms) is the one the style lays item text out with."""
    from PySide6.QtWidgets import QStyle

    from tabletop.ui.inspector import LINE_MARGIN
    w = make_window(Table(("Alice", "Bob")))
    lst = w.log.list
    margin = lst.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, lst) + 1
    assert margin == LINE_MARGIN
    assert w.log._box.width() == lst.viewport().width() - 2 * margin


def test_inspector_shows_an_imported_rule_only_where_it_is_the_editions_rule(
        make_window, monkeypatch, tmp_path):
    from PySide6.QtCore import QUrl

    from tabletop.engine import rulestext
    from tests.helpers import LAYOUTS
    monkeypatch.setattr(rulestext, "store_dir", lambda: tmp_path)
    own = rulestext.read(LAYOUTS / "wiki-2016.txt").rules  # stands in for cr-2016's wording
    monkeypatch.setattr(rulestext, "_fingerprints", lambda: {
        "cr-2016": {n: rulestext.sketch(x) for n, x in own.items()}})
    rulestext.import_file(LAYOUTS / "cr-full-layout.txt")  # July 22, 2016
    try:
        t = Table(("Alice", "Bob"), edition="cr-2016")
        w = make_window(t)
        w.inspector.anchorClicked.emit(QUrl("rule:400.7g"))
        text = w.inspector.toPlainText()
        assert t.edition.summary("400.7g") in text
        assert "uses 400.7g for a different rule" in text and "nonland card" not in text
        w.inspector.anchorClicked.emit(QUrl("rule:401.1"))
        text = w.inspector.toPlainText()
        assert "When a game begins, each player's deck becomes" in text
        assert "Comprehensive Rules, July 22, 2016" in text
    finally:
        rulestext._imports.cache_clear()


def test_inspector_says_where_an_outside_number_comes_from(make_window):
    """Issue 14, item 2: a number the edition's text lacks is marked and explained."""
    from PySide6.QtCore import QUrl

    from tabletop.engine import Table
    w = make_window(Table(("Alice", "Bob"), edition="cr-2016"))
    w.inspector.anchorClicked.emit(QUrl("rule:405.3"))
    text = w.inspector.toPlainText()
    assert "405.3† is not in this edition's text: as in the 2012 text" in text


def test_the_ante_zone_is_on_the_table_only_in_a_game_played_for_ante(make_window):
    """Issue 14, item 7 (407.1): no ante zone to drop on unless the game is for ante."""
    w = make_window(Table(("Alice", "Bob"), edition="cr-2016"))
    assert not any(k[1] == "ante" for k in w.scene.zone_items)
    w = make_window(Table(("Alice", "Bob"), edition="cr-2016", ante=True))
    assert (None, "ante") in w.scene.zone_items


def test_the_self_test_finds_a_part_a_packaged_build_left_out(qapp, monkeypatch):
    """A frozen build without ssl (or Qt's JPEG reader) must fail its self-test."""
    import sys

    from PySide6.QtGui import QImageReader

    from tabletop.ui import selftest
    monkeypatch.setitem(sys.modules, "ssl", None)  # import ssl raises ImportError
    monkeypatch.setattr(QImageReader, "supportedImageFormats", lambda: [b"png", b"webp"])
    missing = selftest.later_parts()
    assert any(m.startswith("ssl (") for m in missing)
    assert "JPEG pictures (no image reader)" in missing


def test_the_pixmap_cache_holds_a_drawn_copy_of_every_card_of_a_large_table(make_window):
    """Issue 36: each card keeps a drawn copy of itself in Qt's pixmap cache; with the
    default 10 MB a table of several hundred cards evicted every copy before its next
    use, so each paint drew every card anew."""
    from PySide6.QtGui import QPixmapCache

    from tabletop.ui import scene as scene_module
    QPixmapCache.setCacheLimit(10 * 1024)  # Qt's default (an earlier test may have grown it)
    t = Table(("Alice", "Bob"))
    for i in range(400):
        t.add_card(card("Forest"), "Alice" if i % 2 else "Bob", "battlefield")
    make_window(t)
    assert QPixmapCache.cacheLimit() >= scene_module.CARD_COPY_KB * 400


def test_a_drop_draws_the_table_once_and_a_card_no_one_moved_goes_back(make_window):
    """A drop draws the table anew once (the action's own redraw), not twice: a table
    of a thousand permanents feels each one. A card the table does not let this
    viewpoint move is still put back where it was."""
    t = Table(("Alice", "Bob"))
    bear = t.add_card(card("Grizzly Bears"), "Alice", "hand")
    plow = t.add_card(card("Plow Under"), "Alice", "hand")
    theirs = t.add_card(card("Forest"), "Bob", "battlefield")
    t.history.clear()
    w = make_window(t)
    w.c.set_viewer("Alice")
    drawn = []
    original = w.scene.sync
    w.scene.sync = lambda *a, **k: (drawn.append(1), original(*a, **k))
    for cid in (bear.cid, plow.cid):  # accepted; refused by the rules (400.4a)
        drawn.clear()
        drag(w.view, w.scene.item_for_cid(cid), zone_center(w.scene, ("Alice", "battlefield")))
        assert len(drawn) == 1
    assert t.obj_of(bear.cid).zone == (None, "battlefield")
    assert t.obj_of(plow.cid).zone == ("Alice", "hand")
    item = w.scene.item_for_cid(theirs.cid)
    before = (item.pos(), item.zone_key)
    drawn.clear()
    drag(w.view, item, zone_center(w.scene, ("Bob", "graveyard")))
    assert t.obj_of(theirs.cid).zone == (None, "battlefield")  # not Alice's to move
    assert len(drawn) == 1 and (item.pos(), item.zone_key) == before
