"""GUI robustness: 1,000 seeded random drags across zones, with random viewpoint
changes and undos. After each, the scene and the engine agree: every object the
viewer is shown has exactly one item, inside its zone's area."""

import os
import random

from PySide6.QtCore import QPointF

from tabletop.cards import demo
from tabletop.engine.views import Seen
from tabletop.ui.selftest import drag

DRAGS = 5000 if os.environ.get("TABLETOP_SOAK") else 1000
PILES = {"library", "graveyard"}


def agree(w):
    t = w.c.table
    scene = w.scene
    shown = {}
    for key, items in w.c.view().items():
        zone = key[1]
        pile = zone in PILES or (zone in t.edition.per_player and zone != "hand")
        for it in (items[:1] if pile else items):
            k = ("c", it.cid) if isinstance(it, Seen) else ("o", it.id)
            shown[k] = t.objs[it.id]
    assert set(scene.cards) == set(shown), "items and the engine's view differ"
    for k, item in scene.cards.items():
        obj = shown[k]
        spot_key = (obj.controller, "battlefield") if obj.zone[1] == "battlefield" else obj.zone
        r = scene.zone_items[spot_key].spot.rect
        c = item.sceneBoundingRect().center()
        assert r.contains(c.x(), c.y()), (obj.card.name, spot_key)
        assert item.oid == obj.id


def test_thousand_random_drags(make_window):
    rng = random.Random(1234)
    t = demo.new_game(players=("Alice", "Bob", "Carol"))
    w = make_window(t)
    viewers = [*list(t.players), None]
    for _ in range(DRAGS):
        roll = rng.random()
        if roll < 0.05:
            w.c.set_viewer(rng.choice(viewers))
            w.c.anyone = rng.random() < 0.7  # hot-seat, or each player their own cards
            w.view.fit()
        elif roll < 0.15:
            w.c.undo()
        else:
            items = list(w.scene.cards.values())
            if items:
                item = rng.choice(items)
                zone = rng.choice(list(w.scene.zone_items.values()))
                r = zone.spot.rect
                target = QPointF(r.x + rng.random() * r.w, r.y + rng.random() * r.h)
                drag(w.view, item, target, steps=2)
        agree(w)
