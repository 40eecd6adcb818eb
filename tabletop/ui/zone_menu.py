"""The menus of the zones and of the players' panels, and the small dialogs they open
(how many to draw, mill, look at or reveal; a life total; a kind of counter). Built
from what the viewpoint may do (``may_act_for`` greys the rest); each command is one
controller call, so the engine decides and the log tells."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QInputDialog, QMenu

from tabletop.engine.model import Zone


def zone_actions(scene: Any, zone_item: Any) -> QMenu:  # a TableScene, its ZoneItem
    """A zone's menu. Commands that act for a player are greyed for a viewpoint that
    may not act for them; looking at a public pile is anyone's."""
    player, zone = zone_item.key
    ed = scene.c.board.edition
    menu = QMenu()
    acting: list[QAction] = []  # actions only the player (or the judge, or hot seat) may take

    def act(text: str, slot: Callable[[], object]) -> QAction:
        a = menu.addAction(text, slot)
        acting.append(a)
        return a

    def move_all(sources_menu: QMenu, src: str, targets: list[tuple[str, bool]]) -> None:
        sub = sources_menu.addMenu("Move all to")
        acting.append(sub.menuAction())
        for dst, shuffle in targets:
            if not ed.has_zone(dst):
                continue
            label = ed.zone_name(dst) + (" (then shuffle)" if shuffle else "")
            sub.addAction(label, _call(scene.c.move_all, player, src, dst, shuffle))

    if zone == Zone.LIBRARY and player:
        act("Draw", lambda: scene.c.draw(player, 1))
        act("Draw N…", lambda: draw_n(scene, player))
        act("Shuffle", lambda: scene.c.shuffle(player))
        menu.addSeparator()
        menu.addAction("Look at the top N (privately)…", lambda: look(scene, player))
        menu.addAction("Search the library…", lambda: scene.view_zone(zone_item.key,
                                                                  search=True))
        act("Reveal the top N to everyone…", lambda: reveal_top_n(scene, player))
        menu.addSeparator()
        act("Mill N (top cards into the graveyard)…", lambda: mill(scene, player))
        act("Put the top card on the bottom", lambda: scene.c.top_to_bottom(player))
        move_all(menu, Zone.LIBRARY, [(Zone.GRAVEYARD, False), (Zone.EXILE, False), (Zone.HAND, False)])
    if zone in (Zone.GRAVEYARD, Zone.EXILE) or (zone in (Zone.COMMAND, Zone.ANTE, Zone.STACK)):
        menu.addAction(f"View {ed.zone_name(zone).lower()}…",
                       lambda: scene.view_zone(zone_item.key))
        if player and zone == Zone.GRAVEYARD:
            move_all(menu, zone, [(Zone.LIBRARY, True), (Zone.LIBRARY, False), (Zone.HAND, False),
                                  (Zone.EXILE, False)])
    if zone == Zone.BATTLEFIELD and player:
        act("Create a token…", lambda: token(scene, player))
        act("Untap all", lambda: scene.c.untap_all(player))
        menu.addAction("Arrange (cards back into rows)",
                       lambda: scene.arrange(zone_item.key))
    if zone == Zone.HAND and player:
        reveal = menu.addMenu("Reveal the hand to")
        acting.append(reveal.menuAction())
        for other in scene.c.board.players:
            if other != player:
                reveal.addAction(other, _call(reveal_hand, scene, player, other))
        reveal.addAction("Everyone", lambda: reveal_hand(scene, player, None))
        act("Discard to hand size (cleanup)", lambda: scene.c.cleanup(player))
        move_all(menu, Zone.HAND, [(Zone.LIBRARY, True), (Zone.GRAVEYARD, False)])
    if player and not scene.c.may_act_for(player):  # greyed: only looking is anyone's
        for a in acting:
            a.setEnabled(False)
    return menu


def add_counter_menu(scene: Any, player: str) -> QMenu:
    menu = QMenu()
    have = dict(scene.player_items[player].seen.counters) if player in scene.player_items \
        else {}
    kinds = ["poison"] + [f"commander damage from {p}" for p in scene.c.board.players
                          if p != player] + ["energy", "experience"]
    for kind in kinds:
        menu.addAction(kind, _call(scene.c.player_counter, player, kind, have.get(kind, 0) + 1))
    menu.addSeparator()
    menu.addAction("Another kind…", lambda: other_counter(scene, player))
    if not scene.c.may_act_for(player):
        for a in menu.actions():
            a.setEnabled(False)
    return menu


def player_actions(scene: Any, player: str) -> QMenu:
    menu = QMenu()
    menu.addAction("Set life…", lambda: set_life(scene, player))
    add = add_counter_menu(scene, player)
    add.setTitle("Add a counter")
    menu.addMenu(add)
    menu._keep = add  # type: ignore[attr-defined]  # the submenu lives as long as its menu
    for kind, _n in scene.player_items[player].seen.counters:
        menu.addAction(f"Remove all {kind} counters",
                       _call(scene.c.player_counter, player, kind, 0))
    if not scene.c.may_act_for(player):
        for a in menu.actions():
            a.setEnabled(False)
    return menu

def set_life(scene: Any, player: str) -> None:
    life, ok = QInputDialog.getInt(None, "Life total", f"{player}'s life:",
                                   scene.player_items[player].seen.life, -999, 9999)
    if ok:
        scene.c.set_life(player, life)

def other_counter(scene: Any, player: str) -> None:
    kind, ok = QInputDialog.getText(None, "Add a counter", f"A kind of counter for {player}:")
    kind = " ".join(kind.split())
    if ok and kind:
        have = dict(scene.player_items[player].seen.counters)
        scene.c.player_counter(player, kind[:60], have.get(kind[:60], 0) + 1)


def look(scene: Any, player: str) -> None:
    """An effect lets the viewpoint look at the top N: the cards are shown to the one
    who looks, everyone is told that they looked, and the library does not change."""
    n, ok = QInputDialog.getInt(None, "Look at the top", "How many cards?", 3, 1, 99)
    if ok:
        scene.view_zone((player, Zone.LIBRARY), count=n)

def reveal_top_n(scene: Any, player: str) -> None:
    n, ok = QInputDialog.getInt(None, "Reveal the top", "How many cards?", 1, 1, 99)
    if ok:
        cids = scene.c.top_cids(player, n)
        if cids:
            scene.c.show(player, cids)

def reveal_hand(scene: Any, player: str, to: str | None) -> None:
    cids = [c.cid for c in scene.c.board.choices((player, Zone.HAND), scene.c.viewer)]
    if cids:
        scene.c.show(player, cids, to)

def mill(scene: Any, player: str) -> None:
    n, ok = QInputDialog.getInt(None, "Mill", "How many cards from the top?", 1, 1, 999)
    if ok:
        scene.c.mill(player, n)

def draw_n(scene: Any, player: str) -> None:
    n, ok = QInputDialog.getInt(None, "Draw", "How many cards?", 2, 1, 99)
    if ok:
        scene.c.draw(player, n)

def token(scene: Any, player: str) -> None:
    window = scene.views()[0].window() if scene.views() else None
    if window is not None and hasattr(window, "create_token"):
        window.create_token(player)


def _call(fn: Callable[..., object], *args: Any) -> Callable[[], None]:
    """A menu entry's action: ``fn(*args)``, its arguments fixed when the entry is made."""
    def act() -> None:
        fn(*args)
    return act
