"""A card's context menu: what the viewer may do with it, built from its view entry.

Every entry calls the controller, which asks the engine; the menu decides nothing
about the rules (a card the viewer may not handle gets one greyed line saying why)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QInputDialog, QMenu

from tabletop.engine.model import Zone

if TYPE_CHECKING:
    from tabletop.ui.controller import TableController

COUNTER_KINDS = {Zone.BATTLEFIELD: ("+1/+1", "-1/-1", "loyalty", "charge"),
                 Zone.EXILE: ("time",)}


def card_actions(scene: Any, item: Any) -> QMenu:  # a TableScene, its CardItem
    v = item.view
    c = scene.c
    cid = scene.cid_of(item)
    zone = item.zone_key[1] if item.zone_key else None
    menu = QMenu()
    if v is None or zone is None:
        return menu
    _zone_tools(scene, item, menu)
    if not c.may_handle(cid):
        owner = getattr(v, "controller", None) if zone in (Zone.BATTLEFIELD, Zone.STACK) \
            else getattr(v, "owner", None)
        a = menu.addAction(f"Only {owner or 'its owner'} handles this card")
        a.setEnabled(False)
        if zone in (Zone.BATTLEFIELD, Zone.STACK):  # pointing at something is anyone's
            menu.addAction("Point an arrow from it…",
                           lambda: scene.start_pick("arrow", cid, _name(item)))
        return menu
    name = _name(item)
    if zone == Zone.BATTLEFIELD:
        menu.addAction("Untap" if v.tapped else "Tap", lambda: c.tap(cid, not v.tapped))
    if zone in COUNTER_KINDS:
        _counters_menu(menu, c, cid, v, name, COUNTER_KINDS[zone])
    if zone == Zone.BATTLEFIELD:
        if item.face is not None and not v.face_down:
            menu.addAction("Set power/toughness…", lambda: _set_pt(c, cid, item))
        if v.host is not None:
            menu.addAction("Unattach", lambda: c.attach(cid, None))
        else:
            menu.addAction("Attach to…", lambda: scene.start_pick("attach", cid, name))
    if zone in (Zone.BATTLEFIELD, Zone.STACK):
        menu.addAction("Point an arrow from it…", lambda: scene.start_pick("arrow", cid, name))
    if zone == Zone.STACK and item.face is not None:  # mutate: a spell merges with a permanent
        menu.addAction("Merge under a permanent…",
                       lambda: scene.start_pick("merge", cid, name))
        menu.addAction("Merge on top of a permanent…",
                       lambda: scene.start_pick("merge_top", cid, name))
    if zone not in (Zone.LIBRARY, Zone.HAND):
        menu.addAction("Note…" if not v.note else "Change the note…",
                       lambda: _note(c, cid, name, v.note))
        if item.face is not None:
            menu.addAction("Put a sticker on it…", lambda: _sticker(c, cid, name))
        menu.addSeparator()
        menu.addAction("Turn face up" if v.face_down else "Turn face down",
                       lambda: c.turn_face(cid, not v.face_down))
    if zone == Zone.HAND and item.face is not None:
        menu.addAction("Stop revealing" if v.revealed else "Reveal to everyone",
                       lambda: c.reveal(cid, not v.revealed))
    if zone in (Zone.GRAVEYARD, Zone.EXILE) and getattr(v, "commander", False):
        menu.addAction("Put into the command zone (commander)",
                       lambda: c.commander_returns(cid))
    owner = getattr(v, "owner", None)
    menu.addAction("Put into library, Nth from the top…", lambda: ask_nth(c, cid, owner))
    if item.face is not None:
        menu.addAction("Put an ability of it on the stack…", lambda: ask_ability(c, cid))
        menu.addAction("Copy it as a token", lambda: c.copy_as_token(cid))
    return menu


def _zone_tools(scene: Any, item: Any, menu: QMenu) -> None:
    """On a pile's top card (a library, a graveyard...), the pile's own tools too, as a
    submenu first: a right-click on the deck draws, shuffles, reveals."""
    if not scene._pile(item.zone_key[1]):
        return
    spot = scene.zone_items.get(item.zone_key)
    if spot is None:
        return
    tools = scene.zone_actions(spot)
    if tools.isEmpty():
        return
    tools.setTitle(spot.title)
    menu.addMenu(tools)
    menu._zone_tools = tools  # type: ignore[attr-defined]  # kept alive with the menu
    menu.addSeparator()


def _sticker(c: TableController, cid: int, name: str) -> None:
    text, ok = QInputDialog.getText(None, "Sticker",
                                    f"A sticker on {name} (a name, an ability, 3/3…):")
    if ok and text.strip():
        c.add_sticker(cid, text)


def _name(item: Any) -> str:
    return item.face.name if item.face is not None else "this card"


def _counters_menu(menu: QMenu, c: TableController, cid: int, v: Any, name: str,
                   kinds: tuple[str, ...]) -> None:
    sub = menu.addMenu("Counters")
    for kind in kinds:
        sub.addAction(f"Add a {kind} counter", _counting(c, cid, kind, 1))
    sub.addAction("Add counters of another kind…", lambda: _other_kind(c, cid, name))
    if v.counters:
        sub.addSeparator()
    for kind, n in v.counters:
        sub.addAction(f"Remove a {kind} counter", _counting(c, cid, kind, -1))
        sub.addAction(f"Set {kind} counters…", _setting(c, cid, name, kind, n))


def _counting(c: TableController, cid: int, kind: str, n: int) -> Callable[[], None]:
    """A menu entry's action: ``n`` counters of ``kind`` on (or off) the card."""
    def act() -> None:
        c.counters(cid, kind, n)
    return act


def _setting(c: TableController, cid: int, name: str, kind: str, n: int
             ) -> Callable[[], None]:
    return lambda: _set_count(c, cid, name, kind, n)


def _other_kind(c: TableController, cid: int, name: str) -> None:
    kind, ok = QInputDialog.getText(None, "Add counters",
                                    f"A kind of counter to put on {name} (e.g. shield, "
                                    f"+1/+0, page):")
    kind = " ".join(kind.split())[:60]
    if not (ok and kind):
        return
    n, ok = QInputDialog.getInt(None, "Add counters", f"How many {kind} counters?", 1, 1, 999)
    if ok:
        c.counters(cid, kind, n)


def _set_count(c: TableController, cid: int, name: str, kind: str, n: int) -> None:
    value, ok = QInputDialog.getInt(None, "Set counters", f"{kind} counters on {name}:",
                                    n, 0, 9999)
    if ok:
        c.set_counters(cid, kind, value)


def _set_pt(c: TableController, cid: int, item: Any) -> None:
    face = item.face
    now = f"{face.pt[0]}/{face.pt[1]}" if face.pt else ""
    text, ok = QInputDialog.getText(
        None, "Set power/toughness",
        f"{face.name}'s power/toughness, before counters (e.g. 4/4 or */3);\n"
        f"leave it empty for the printed ones:", text=now)
    if ok:
        c.set_pt(cid, text.strip() or None)


def _note(c: TableController, cid: int, name: str, note: str) -> None:
    text, ok = QInputDialog.getText(None, "Note on a card",
                                    f"A note on {name}, for everyone at the table\n"
                                    f"(leave it empty to remove it):", text=note)
    if ok:
        c.note(cid, text)


def ask_nth(c: TableController, cid: int, owner: str | None) -> None:
    n, ok = QInputDialog.getInt(None, "Put into library",
                                "Position from the top (1 is the top):", 1, 1, 999)
    if ok:
        c.drop(cid, Zone.LIBRARY, owner, n)


def ask_ability(c: TableController, cid: int) -> None:
    text, ok = QInputDialog.getText(None, "Ability", "What the ability does:")
    if ok and text.strip():
        c.put_ability(cid, text.strip())
