"""Render the store screenshot (packaging/screenshots/table.png) from a real game.

A two-player game with the demo decks, a few turns in: lands and creatures on the
battlefield, a stolen creature that dies and goes to its owner's graveyard (400.3),
and a sorcery dropped on the battlefield, refused (400.4a). The dead creature is
selected so the inspector shows its lineage and the rule. Run from the repository:

    QT_QPA_PLATFORM=offscreen python3 packaging/screenshots/make_screenshot.py [OUT.png]
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("TABLETOP_OFFLINE", "1")


def settle(app) -> None:
    """Let the scene's queued redraws and animations finish."""
    import time
    end = time.monotonic() + 0.6
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.02)


def main(out: str) -> int:
    from PySide6.QtWidgets import QApplication

    from tabletop.cards import demo
    from tabletop.ui.controller import TableController
    from tabletop.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    c = TableController()
    c.set_table(demo.new_game(seed=7))
    window = MainWindow(c)
    window.resize(1600, 1000)
    window.show()
    app.processEvents()
    t = c.table
    c.set_viewer(None)  # the judge's seat may move every player's cards

    def in_zone(player, zone, kind=None):
        return [o.cid for o in t.objects_in(t.zone_key(zone, player))
                if kind is None or kind in o.card.types]

    def play(player, kind, n=1):
        for cid in in_zone(player, "hand", kind)[:n]:
            c.drop(cid, "battlefield", player)

    for player in ("Alice", "Bob"):
        play(player, "Land", 2)
        play(player, "Creature", 1)
    # Alice steals Bob's creature, then it dies: it goes to Bob's graveyard (400.3)
    stolen = in_zone("Bob", "battlefield", "Creature")
    if stolen:
        c.drop(stolen[0], "battlefield", "Alice")
        c.drop(stolen[0], "graveyard", "Alice")
    sorcery = in_zone("Alice", "hand", "Sorcery")
    if sorcery:
        c.drop(sorcery[0], "battlefield", "Alice")  # refused: 400.4a
    c.set_viewer("Alice")
    settle(app)
    window.view.fit()
    graves = in_zone("Bob", "graveyard")
    if graves:
        window.inspector.show_object(graves[-1])
    settle(app)
    if not window.grab().save(out):
        print(f"cannot write {out}", file=sys.stderr)
        return 2
    log = window.log.list
    for i in range(log.count()):  # what the log shows, for the record
        print(log.item(i).text())
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1
                  else str(Path(__file__).with_name("table.png"))))
