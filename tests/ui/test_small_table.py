"""The table on a small screen (1024x600): the table is drawn at under half its size
there, and the words on it (zone titles, the player panels) must still read. Measured
on the picture the view draws, as a person sees it."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tabletop.cards import demo
from tabletop.engine.model import Zone


def _small(make_window, qtbot):
    t = demo.new_game()
    w = make_window(t)
    w.resize(1022, 575)  # (a 1024x600 screen's window, inside its frame)
    qtbot.waitUntil(lambda: w.view.transform().m11() < 0.5, timeout=3000)
    QApplication.processEvents()
    return t, w


def light_rows(w, item, rect: QRectF) -> int:
    """How many pixel rows of the view's picture hold light (word) pixels inside ``rect``
    of ``item``: the height the words are drawn at on the screen."""
    view = w.view
    img = view.viewport().grab().toImage()
    box = view.mapFromScene(item.mapToScene(rect)).boundingRect()
    rows = 0
    for y in range(max(0, box.top()), min(img.height(), box.bottom() + 1)):
        for x in range(max(0, box.left()), min(img.width(), box.right() + 1)):
            c = img.pixelColor(x, y)
            if min(c.red(), c.green(), c.blue()) > 150:
                rows += 1
                break
    return rows


def test_on_a_small_screen_zone_titles_and_player_panels_read(make_window, qtbot):
    _t, w = _small(make_window, qtbot)
    scale = w.view.transform().m11()
    assert scale < 0.5  # the case at issue: the table drawn at under half its size
    hand = w.scene.zone_items[("Alice", Zone.HAND)]
    # "Hand — Alice · 7": its letters stand at least 5 pixels tall on the screen (a
    # scene font drawn at this scale stands 3, too small to read), in the zone's top 20
    # scene pixels, above where its cards are drawn
    assert light_rows(w, hand, QRectF(4, 0, 120, 20)) >= 5
    panel = w.scene.player_items["Alice"]
    g = panel._grow
    assert g > 1  # the panel's lines spaced out for the larger words
    assert light_rows(w, panel, QRectF(6, 2, 100, 28 * g)) >= 7  # "Alice"
    assert light_rows(w, panel, QRectF(6, 110 * g, 100, 22 * g)) >= 6  # "hand 7"


def test_at_a_table_of_four_on_a_small_screen_the_titles_stand_above_the_cards(
        make_window, qtbot):
    """Four players: an opponent's hand is narrow and its cards begin at its left, under
    its title; the title's letters end above them (a title grown larger was hidden
    behind the cards, but for its top)."""
    t = demo.new_game(players=("Alice", "Bob", "Carol", "Dave"), deck_size=40)
    w = make_window(t)
    w.resize(1022, 575)
    qtbot.waitUntil(lambda: w.view.transform().m11() < 0.6, timeout=3000)
    QApplication.processEvents()
    hand = w.scene.zone_items[("Bob", Zone.HAND)]
    cards_top = min(i.sceneBoundingRect().top() for i in w.scene.cards.values()
                    if hand.sceneBoundingRect().contains(i.sceneBoundingRect().center()))
    # the title's band: from the zone's top to its first card's (nothing covers it)
    band = QRectF(4, 0, 120, cards_top - hand.sceneBoundingRect().top())
    assert band.height() >= 14
    seen = light_rows(w, hand, band)
    assert seen >= 5
    # nothing of it is behind the cards: with them out of sight, no more of it shows
    for item in w.scene.cards.values():
        item.setVisible(False)
    QApplication.processEvents()
    assert light_rows(w, hand, QRectF(4, 0, 120, 60)) == seen


def test_on_a_small_screen_the_player_panel_buttons_still_work(make_window, qtbot):
    """The life buttons are where they are drawn at the larger spacing: the + is on the
    picture where the panel's regions say (its light pixels), a click there raises the
    life total, and the picture shows the new one."""
    t, w = _small(make_window, qtbot)
    panel = w.scene.player_items["Alice"]
    plus = next(r for r, what in panel.regions() if what == ("life", 1))
    # the + circle is drawn: light pixels at its centre row
    assert light_rows(w, panel, plus) >= 4
    p = w.view.mapFromScene(panel.mapToScene(plus.center()))
    life = w.view.mapFromScene(panel.mapToScene(panel.life_rect())).boundingRect()
    before = w.view.viewport().grab(life).toImage()
    QTest.mouseClick(w.view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
    QApplication.processEvents()
    assert t.life["Alice"] == 21
    # and the panel (drawn once until it changes) shows the new total
    qtbot.waitUntil(lambda: w.view.viewport().grab(life).toImage() != before, timeout=2000)


def test_on_a_small_screen_the_effects_in_force_read(make_window, qtbot):
    """A replacement effect's pill by the zone it watches keeps a least size on the
    screen: drawn at the scene's scale it was 9 pixels tall, its words 6."""
    from tabletop.engine import Table
    from tabletop.engine.model import Effect
    from tabletop.ui.items import EffectMarker
    t = Table(("Alice", "Bob"), edition="cr-2016")
    t.add_effect(Effect("rip", Zone.GRAVEYARD, Zone.EXILE, source="Rest in Peace"))
    t.start_here()
    w = make_window(t)
    w.resize(1022, 575)
    qtbot.waitUntil(lambda: w.view.transform().m11() < 0.5, timeout=3000)
    view = w.view
    zone = w.scene.zone_items[("Alice", Zone.GRAVEYARD)]
    marker = next(m for m in w.scene.items() if isinstance(m, EffectMarker)
                  and m.sceneBoundingRect().contains(zone.sceneBoundingRect().bottomRight()
                                                     - QPointF(8, 8)))

    def on_screen():
        return view.mapFromScene(marker.sceneBoundingRect()).boundingRect()

    # one line: a font of 10 pixels on the screen, and its pill (settled after a paint)
    qtbot.waitUntil(lambda: on_screen().height() >= 14, timeout=3000)
    # its bottom right corner is the zone's, on the screen too
    corner = view.mapFromScene(zone.sceneBoundingRect().bottomRight())
    assert abs(on_screen().right() - corner.x()) <= 6
    assert abs(on_screen().bottom() - corner.y()) <= 6


def test_on_a_small_screen_a_panel_with_many_counters_keeps_them_all_inside(
        make_window, qtbot):
    """Commander damage from three opponents and poison: four counters. The panel's lines
    spaced out for a small screen still hold every counter's − and +, and "+ counter…",
    inside the panel, where a click on them lands."""
    t = demo.new_game(players=("Alice", "Bob", "Carol", "Dave"), deck_size=40)
    for kind in ("poison", "commander damage from Bob", "commander damage from Carol",
                 "commander damage from Dave"):
        t.set_player_counter("Alice", kind, 1)
    w = make_window(t)
    w.resize(1022, 575)
    qtbot.waitUntil(lambda: w.view.transform().m11() < 0.6, timeout=3000)
    panel = w.scene.player_items["Alice"]
    qtbot.waitUntil(lambda: len(panel.seen.counters) == 4, timeout=2000)
    w.view.viewport().grab()  # painted at this size
    assert panel._grow > 1  # spaced out, as far as the panel holds them
    inside = panel.boundingRect()
    for rect, _what in panel.regions():
        assert inside.contains(rect), (rect, inside)
    add = next(r for r, what in panel.regions() if what == ("add",))
    p = w.view.mapFromScene(panel.mapToScene(add.center()))
    assert w.view.itemAt(p) is panel


def test_a_title_cut_short_keeps_the_count_of_a_hand_or_battlefield(qapp):
    """A narrow zone's title is narrowed (a condensed font), then cut short before its
    count where the count is not shown elsewhere (how many cards are in a hand, how many
    permanents and tokens are on a battlefield); a pile's count is on its top card's
    badge, so its title goes whole, narrowed if need be."""
    from PySide6.QtGui import QFont, QFontMetrics

    from tabletop.ui.items import counted
    f = QFont()
    f.setPixelSize(18)
    m = QFontMetrics(f)
    narrow = m.horizontalAdvance("Battlefield — Ca… · 23") * 0.7
    font, kept = counted("Battlefield — Carol", 23, f, narrow, keep_count=True)
    assert kept.endswith(" · 23") and kept.startswith("Bat") and "…" in kept
    assert QFontMetrics(font).horizontalAdvance(kept) <= narrow
    font, pile = counted("Graveyard", 23, f, m.horizontalAdvance("Graveyard") + 2,
                         keep_count=False)
    assert (pile, font) == ("Graveyard", f)  # whole, as it is
    font, pile = counted("Graveyard", 23, f, m.horizontalAdvance("Graveyard") * 0.9,
                         keep_count=False)
    # narrowed rather than cut, where the font has a condensed face to narrow it with
    assert pile == "Graveyard" or pile.endswith("…")
    assert QFontMetrics(font).horizontalAdvance(pile) <= m.horizontalAdvance("Graveyard") * 0.9
    assert counted("Battlefield — Carol", 23, f, 1000, keep_count=True) == (
        f, "Battlefield — Carol · 23")


def test_a_line_says_most_that_fits_narrowed_before_it_says_less(qapp):
    """A panel's line is narrowed (a condensed face) before it drops a word: at a width
    80% of "hand 7 · library 33" it still says the library's count."""
    from PySide6.QtGui import QFont, QFontMetrics

    from tabletop.ui.items import _first_fitting
    f = QFont()
    f.setPixelSize(15)
    full, short = "hand 7 · library 33", "hand 7"
    width = QFontMetrics(f).horizontalAdvance(full) * 0.8
    font, text = _first_fitting([full, short], f, width)
    assert text == full and font.stretch() < 100
    assert QFontMetrics(font).horizontalAdvance(text) <= width
    # too narrow for it even narrowed: the shorter form
    font, text = _first_fitting([full, short], f, width * 0.6)
    assert text == short


def test_a_narrow_window_keeps_the_viewpoint_on_its_toolbar(make_window, qtbot):
    """A window 820 pixels wide (half a wide screen, a small laptop's window): the
    edition's box gives up width, its title cut short (whole in its list), and the
    viewpoint's box stays on the toolbar, where it went behind the toolbar's » when the
    edition's long title kept its whole width. A wide window shows the whole title."""
    w = make_window(demo.new_game())
    bar = w.edition_box.parentWidget()
    w.resize(820, 560)
    qtbot.waitUntil(lambda: w.width() <= 820, timeout=3000)
    QApplication.processEvents()
    box = w.viewpoint_box
    assert box.isVisible() and box.parentWidget() is bar
    assert bar.rect().contains(box.geometry())
    assert w.edition_box.width() < w.edition_box.maximumWidth()
    w.resize(1900, 1000)
    qtbot.waitUntil(lambda: w.width() >= 1900, timeout=3000)
    QApplication.processEvents()
    full = w.edition_box.fontMetrics().horizontalAdvance(w.edition_box.currentText())
    assert w.edition_box.width() == w.edition_box.maximumWidth() > full
    assert box.isVisible()


def test_a_narrow_window_keeps_next_step_and_next_turn_on_the_phase_bar(make_window,
                                                                        qtbot):
    """At 800 pixels wide the phase bar's steps take shorter words (each whole in its
    tooltip), so that Next step and Next turn stay on the bar, where they went behind
    its »; a click on the shortened Next turn still passes the turn. Wide again, the
    whole words come back."""
    from tabletop.ui.phase_bar import SHORT
    t = demo.new_game()
    w = make_window(t)
    bar = w.phase_bar
    w.resize(800, 560)
    qtbot.waitUntil(lambda: bar.width() <= 800, timeout=3000)
    QApplication.processEvents()
    for b in (bar.next_step, bar.next_turn_button, *bar.buttons.values()):
        assert b.isVisible() and bar.rect().contains(b.geometry()), b.text()
    assert bar.buttons["upkeep"].text() != SHORT["upkeep"]
    assert bar.buttons["blockers"].toolTip() == "Declare blockers"  # (its whole name)
    turn = t.turn
    QTest.mouseClick(bar.next_turn_button, Qt.MouseButton.LeftButton)
    assert t.turn == turn + 1
    w.resize(1900, 1000)
    qtbot.waitUntil(lambda: bar.width() >= 1800, timeout=3000)
    QApplication.processEvents()
    assert [b.text() for b in bar.buttons.values()] == list(SHORT.values())


def test_a_window_made_narrow_gives_its_width_to_the_table_first(make_window, qtbot):
    """Snapped to half of a small screen (640 pixels), the docks beside the table hold
    at most 30% of the window, and made wide again, the width goes to the table."""
    w = make_window(demo.new_game(seed=2))
    docks = w.inspector_dock, w.log_dock
    w.resize(640, 560)
    qtbot.waitUntil(lambda: w.width() <= 640, timeout=3000)
    QApplication.processEvents()
    assert all(d.width() <= 0.3 * w.width() + 1 for d in docks), [d.width() for d in docks]
    assert w.view.width() >= 0.6 * w.width()
    narrow = w.inspector_dock.width()
    w.resize(1000, 560)
    qtbot.waitUntil(lambda: w.width() >= 1000, timeout=3000)
    QApplication.processEvents()
    assert w.inspector_dock.width() == narrow


def test_a_piles_count_leaves_the_name_of_its_top_card_whole(make_window, qtbot):
    """A graveyard's count sits on its face-up top card under the card's name (in the
    top right corner it covered the end of the name: "Llanowa4"); on a library's back,
    which shows no name, it stays in the corner."""
    from tabletop.cards import builtin
    from tabletop.engine import Table
    t = Table(("Alice", "Bob"))
    for name in ("Forest", "Shock", "Llanowar Elves"):
        t.add_card(builtin.lookup(name), "Alice", Zone.GRAVEYARD)
    for _ in range(3):
        t.add_card(builtin.lookup("Forest"), "Alice", Zone.LIBRARY)
    t.start_here()
    w = make_window(t)
    w.resize(1022, 575)
    qtbot.waitUntil(lambda: w.view.transform().m11() < 0.5, timeout=3000)
    w.view.viewport().grab()  # painted: the name's height is known at this size

    def top(zone):
        return next(i for i in w.scene.cards.values()
                    if i.zone_key == ("Alice", zone) and i.badge)
    grave, library = top(Zone.GRAVEYARD), top(Zone.LIBRARY)
    assert grave.badge == "3" and grave.face is not None and not grave.face.face_down
    assert grave._title_bottom > 10  # the name's strip, as the face was drawn
    name_strip = QRectF(0, 0, grave.boundingRect().width(), grave._title_bottom)
    assert not grave.badge_place()[1].intersects(name_strip)
    assert library.badge == "3" and (library.face is None or library.face.face_down)
    assert library.badge_place()[1].top() < 0  # its back's top right corner
