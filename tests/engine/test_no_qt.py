import subprocess
import sys


def test_engine_and_scenario_do_not_import_qt():
    code = ("import sys, tabletop.engine, tabletop.scenario, tabletop.engine.saves, "
            "tabletop.engine.views, tabletop.scenario.report; "
            "bad = [m for m in sys.modules if m.startswith(('PySide6', 'shiboken6'))]; "
            "print(bad); sys.exit(1 if bad else 0)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
