import subprocess
import sys


def test_engine_scenario_and_server_do_not_import_qt():
    code = ("import sys, tabletop.engine, tabletop.scenario, tabletop.engine.saves, "
            "tabletop.engine.views, tabletop.scenario.report, tabletop.net.server, "
            "tabletop.net.rooms, tabletop.net.client, tabletop.cards.demo; "
            "from tabletop.net.server import Server; s = Server(None); "
            "s.add_room(s.make_table(['A', 'B'], 'cr-2016', 1)); "
            "bad = [m for m in sys.modules if m.startswith(('PySide6', 'shiboken6'))]; "
            "print(bad); sys.exit(1 if bad else 0)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
