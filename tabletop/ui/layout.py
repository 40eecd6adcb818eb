"""Where each zone sits on the table: plain geometry, no rules, no Qt.

The viewer's seat is at the bottom, the others above, the shared zones (stack,
and exile, command and ante where shared) in a strip between them. Each seat
is a band: its battlefield half faces the middle, its hand the table's edge,
and its piles (library, graveyard, and per-player zones of old editions) at
the right."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import NamedTuple

from tabletop.engine.model import ObjId, Zone

CARD_W, CARD_H = 90, 126
GAP = 12
PILE_W = CARD_W + 2 * GAP
WIDTH = 1500
HAND_H = CARD_H + 2 * GAP + 14
FIELD_H = 2 * CARD_H + 3 * GAP + 14
BAND_H = HAND_H + FIELD_H + GAP
STRIP_H = CARD_H + 2 * GAP + 22
PILE_ORDER = (Zone.LIBRARY, Zone.GRAVEYARD, Zone.EXILE, Zone.ANTE, Zone.PHASED_OUT)
PANEL_W = 124  # each seat's player panel (life, counters) at its left


class Rect(NamedTuple):
    x: float
    y: float
    w: float
    h: float

    def contains(self, px: float, py: float) -> bool:
        return self.x <= px < self.x + self.w and self.y <= py < self.y + self.h


class ZoneSpot(NamedTuple):
    # the engine's zone key; for the battlefield, (controller, "battlefield")
    key: tuple[str | None, Zone | str]  # or (player, "player"): the seat's panel
    rect: Rect
    mirrored: bool = False  # an opponent's side: hand at the top


def seats(players: Iterable[str], viewer: str | None) -> list[str]:
    """Players from the top of the table down, the viewer's seat last (bottom)."""
    seated = list(players)
    if viewer in seated:
        i = seated.index(viewer)
        order = seated[i + 1:] + seated[:i]
        return [*order, viewer]
    return seated[1:] + seated[:1]


def layout(zones: Sequence[Zone], per_player: Collection[Zone], players: Iterable[str],
           viewer: str | None) -> tuple[list[ZoneSpot], Rect]:
    """Zone spots for an edition's zones and the whole scene rect.

    ``zones``: the edition's zone ids; ``per_player``: those that exist per player."""
    order = seats(players, viewer)
    spots: list[ZoneSpot] = []
    shared = [z for z in (Zone.STACK, Zone.EXILE, Zone.COMMAND, Zone.ANTE, Zone.PHASED_OUT)
              if z in zones and z not in per_player]
    piles = [z for z in PILE_ORDER if z in zones and z in per_player]
    pile_cols = max(1, (len(piles) + 1) // 2)
    field_w = WIDTH - pile_cols * PILE_W - GAP
    opponents = order[:-1]
    y = 0.0
    if opponents:  # the opponents sit side by side across the top of the table
        k = len(opponents)
        band_w = (WIDTH - GAP * (k - 1)) / k
        for i, p in enumerate(opponents):
            x0 = i * (band_w + GAP)
            spots += _band(p, y, piles, band_w - pile_cols * PILE_W - GAP, mirrored=True, x0=x0)
        y += BAND_H
    # the shared strip
    if shared:
        weights = {Zone.STACK: 3, Zone.EXILE: 2, Zone.COMMAND: 2, Zone.ANTE: 1, Zone.PHASED_OUT: 1}
        total = sum(weights[z] for z in shared)
        x = 0.0
        for z in shared:
            w = (WIDTH - GAP * (len(shared) - 1)) * weights[z] / total
            spots.append(ZoneSpot((None, z), Rect(x, y + GAP / 2, w, STRIP_H - GAP)))
            x += w + GAP
        y += STRIP_H
    spots += _band(order[-1], y, piles, field_w, mirrored=False)
    y += BAND_H
    return spots, Rect(0, 0, WIDTH, y)


def _band(player: str, y: float, piles: Sequence[Zone], field_w: float, mirrored: bool,
          x0: float = 0.0) -> list[ZoneSpot]:
    out = [ZoneSpot((player, "player"), Rect(x0, y, PANEL_W, BAND_H - GAP), mirrored)]
    x0 += PANEL_W + GAP / 2
    field_w -= PANEL_W + GAP / 2
    if mirrored:
        hand_y, field_y = y, y + HAND_H + GAP / 2
    else:
        field_y, hand_y = y, y + FIELD_H + GAP / 2
    out.append(ZoneSpot((player, Zone.HAND), Rect(x0, hand_y, field_w, HAND_H), mirrored))
    out.append(ZoneSpot((player, Zone.BATTLEFIELD), Rect(x0, field_y, field_w, FIELD_H), mirrored))
    col_x = x0 + field_w + GAP
    pile_h = (BAND_H - GAP) / 2
    for i, z in enumerate(piles):
        col, row = divmod(i, 2)
        if mirrored:
            row = 1 - row
        out.append(ZoneSpot((player, z), Rect(col_x + col * PILE_W, y + row * (pile_h + GAP / 2),
                                              PILE_W - GAP / 2, pile_h), mirrored))
    return out


def _row(rect: Rect, n: int, y: float, centred: bool) -> list[tuple[float, float]]:
    """n cards in a row, overlapping more as the row fills; first card leftmost."""
    if n == 0:
        return []
    room = rect.w - 2 * GAP - CARD_W
    step = min(CARD_W + GAP / 2, room / max(1, n - 1)) if n > 1 else 0
    x0 = rect.x + GAP + (max(0.0, (room - step * (n - 1)) / 2) if centred else 0)
    return [(x0 + i * step, y) for i in range(n)]


def hand_positions(rect: Rect, n: int) -> list[tuple[float, float]]:
    """A hand: a centred fan."""
    return _row(rect, n, rect.y + 14 + GAP / 2, centred=True)


RIDE_X, RIDE_Y = 18, 9  # how far each attached card peeks out from behind its host


GRID_X, GRID_Y = CARD_W / 4, CARD_H / 6  # where a card dropped on the battlefield snaps


def snap(rect: Rect, x: float, y: float, mirrored: bool) -> tuple[float, float]:
    """A dropped card's place in its battlefield, as an offset from the zone's corner in
    the seat's own orientation (the near edge first): snapped to the grid and kept
    inside the zone, so it never overlaps another zone."""
    dx = min(max(x - rect.x, GAP / 2), rect.w - CARD_W - GAP / 2)
    dy = min(max(y - rect.y, 14.0), rect.h - CARD_H - GAP / 2)
    dx = round(dx / GRID_X) * GRID_X
    dy = round(dy / GRID_Y) * GRID_Y
    dx = min(max(dx, 0.0), rect.w - CARD_W)
    dy = min(max(dy, 0.0), rect.h - CARD_H)
    if mirrored:  # kept as the seat's owner sees it: the same place from either chair
        dy = rect.h - CARD_H - dy
    return dx, dy


def unsnap(rect: Rect, place: tuple[float, float], mirrored: bool) -> tuple[float, float]:
    dx, dy = place
    dx = min(max(dx, 0.0), max(0.0, rect.w - CARD_W))
    dy = min(max(dy, 0.0), max(0.0, rect.h - CARD_H))
    if mirrored:
        dy = rect.h - CARD_H - dy
    return rect.x + dx, rect.y + dy


def field_positions(rect: Rect, cards: Sequence[tuple[ObjId, bool, bool]], mirrored: bool,
                    riders: Mapping[ObjId, Sequence[tuple[ObjId, bool]]] | None = None,
                    placed: Mapping[ObjId, tuple[float, float]] | None = None
                    ) -> dict[ObjId, tuple[float, float]]:
    """Battlefield places: lands on the row nearer the player, the rest nearer the
    middle. ``cards``: (id, is_land, tapped) in order; ``riders``: host id -> [(id,
    tapped)] of the cards attached to it, which sit behind it, peeking out at its
    top left. Returns id -> (x, y)."""
    riders = riders or {}
    placed = placed or {}  # id -> (x, y): cards a player put somewhere; the rest flow
    rows: dict[bool, list[tuple[ObjId, bool]]] = {True: [], False: []}
    for cid, land, tapped in cards:
        if cid not in placed:
            rows[land].append((cid, tapped))
    _wrap(rows, rect.w - 2 * GAP, riders)
    blocks = [(x - RIDE_X * len(riders.get(cid, ())), y, x + CARD_W, y + CARD_H)
              for cid, (x, y) in placed.items()]
    front_y = rect.y + 14 + GAP / 2 if not mirrored else rect.y + rect.h - CARD_H - GAP
    # an attached card peeks out above its host (below, mirrored), but never over the
    # zone's heading nor past its edge: there it peeks out at the side only
    top, bottom = rect.y + 14, rect.y + rect.h - CARD_H

    def rise(y: float, back: int) -> float:
        return max(top, y - RIDE_Y * back) if not mirrored else \
            min(bottom, y + RIDE_Y * back)
    back_y = front_y + CARD_H + GAP if not mirrored else front_y - CARD_H - GAP
    out = {}
    turn = (CARD_H - CARD_W) / 2  # a tapped card turns about its centre
    for land, y in ((False, front_y), (True, back_y)):
        row = rows[land]
        if not row:
            continue
        lead = [RIDE_X * len(riders.get(cid, ())) for cid, _ in row]
        widths = [(CARD_H if tapped else CARD_W) + extra
                  for (_, tapped), extra in zip(row, lead, strict=True)]
        # every card but the last takes a step; the last must end inside the zone
        steps = sum(widths[:-1]) + GAP * (len(row) - 1)
        room = rect.w - 2 * GAP - widths[-1]
        xs = _around(rect, y, widths, blocks) if blocks else None
        squeeze = max(0.0, min(1.0, room / steps)) if steps else 1.0
        x = rect.x + GAP
        for k, ((cid, tapped), w, extra) in enumerate(zip(row, widths, lead, strict=True)):
            if xs is not None:
                x = xs[k]
            hx = x + extra
            out[cid] = (hx + turn, y) if tapped else (hx, y)
            mine = riders.get(cid, ())
            for j, (rid, rtapped) in enumerate(mine):
                back = len(mine) - j  # the first attached sits furthest back
                rx = hx - RIDE_X * back
                ry = rise(y, back)
                out[rid] = (rx + turn, ry) if rtapped else (rx, ry)
            x += (w + GAP) * squeeze
    for cid, (x, y) in placed.items():
        out[cid] = (x, y)
        mine = riders.get(cid, ())
        for j, (rid, rtapped) in enumerate(mine):
            back = len(mine) - j
            ry = rise(y, back)
            out[rid] = (x - RIDE_X * back + (turn if rtapped else 0), ry)
    return out


def _wrap(rows: dict[bool, list[tuple[ObjId, bool]]], room: float,
          riders: Mapping[ObjId, Sequence[tuple[ObjId, bool]]]) -> None:
    """A row that would overlap goes on into the other row where that one has room:
    into an empty one (a battlefield of creatures and no land yet) its own row filled
    first, or both alike when even two rows overlap; else after the other row's own
    cards, as many of its last as fit there without that row overlapping. One row is
    not squeezed beside room in the other."""
    def width(card: tuple[ObjId, bool]) -> float:
        return (CARD_H if card[1] else CARD_W) + RIDE_X * len(riders.get(card[0], ())) + GAP
    for full, other in ((False, True), (True, False)):
        row = rows[full]
        used = sum(width(c) for c in row) - GAP
        if not row or used <= room:
            continue
        if not rows[other]:
            used, fit = -GAP, 0  # how many cards fit side by side
            for card in row:
                used += width(card)
                if used > room:
                    break
                fit += 1
            k = max(fit, (len(row) + 1) // 2)
            rows[full], rows[other] = row[:k], row[k:]
            return
        free = room - (sum(width(c) for c in rows[other]) - GAP)  # left in the other
        k = len(row)
        while k > 1 and used > room and width(row[k - 1]) <= free:
            k -= 1
            used -= width(row[k])
            free -= width(row[k])
        rows[full], rows[other] = row[:k], rows[other] + row[k:]
        return


def _around(rect: Rect, y: float, widths: Sequence[float],
            blocks: Sequence[tuple[float, float, float, float]]) -> list[float] | None:
    """x for each card of a row, in order, stepping over the cards a player placed on
    the row; None when they do not all fit that way (then the row squeezes as usual)."""
    x = rect.x + GAP
    out = []
    for w in widths:
        moved = True
        while moved:
            moved = False
            for bx0, by0, bx1, by1 in blocks:
                if by0 < y + CARD_H and y < by1 and bx0 < x + w and x < bx1:
                    x = bx1 + GAP / 2
                    moved = True
        if x + w > rect.x + rect.w - GAP / 2:
            return None
        out.append(x)
        x += w + GAP
    return out


def strip_positions(rect: Rect, n: int) -> list[tuple[float, float]]:
    """The stack or a shared zone: a row from the left (the stack's top is rightmost)."""
    return _row(rect, n, rect.y + 20, centred=False)


def pile_position(rect: Rect) -> tuple[float, float]:
    return rect.x + (rect.w - CARD_W) / 2, rect.y + (rect.h - CARD_H) / 2 + 8


def pile_groups(rect: Rect, piles: list[str]) -> list[tuple[float, float]]:
    """A row of cards in groups (exile piles): each group a small fan, groups side
    by side; everything squeezed together when the zone is too narrow."""
    n = len(piles)
    if n == 0:
        return []
    fan = 26.0
    xs, x = [], 0.0
    for i, p in enumerate(piles):
        if i:
            x += fan if p == piles[i - 1] else CARD_W + GAP
        xs.append(x)
    room = rect.w - 2 * GAP - CARD_W
    squeeze = min(1.0, room / xs[-1]) if xs[-1] > 0 else 1.0
    return [(rect.x + GAP + v * squeeze, rect.y + 30) for v in xs]
