"""Shared test setup: no screen, and user folders in a temporary place."""

import os
import sys
import tempfile
from pathlib import Path

os.environ["QT_QPA_PLATFORM"] = "offscreen"
os.environ["TABLETOP_OFFLINE"] = "1"  # no card pictures from the internet: a test that
# downloads starts its own server on 127.0.0.1 and says so
os.environ["TABLETOP_MDNS"] = "127.0.0.1"  # games announced and found on loopback only
_tmp = tempfile.mkdtemp(prefix="tabletop-tests-")
for var in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
    os.environ[var] = os.path.join(_tmp, var.lower())

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


from hypothesis import settings as _hyp

# CI explores the same examples every run (main stays green on what it saw); the
# opt-in soak profile (TABLETOP_SOAK=1) explores new ones each time, many more.
_hyp.register_profile("ci", derandomize=True)
_hyp.register_profile("soak", derandomize=False)
_hyp.load_profile("soak" if os.environ.get("TABLETOP_SOAK") else "ci")


def pytest_sessionfinish(session, exitstatus):
    """Leave nothing behind: the user folders (and any build cache under them) go."""
    import shutil
    shutil.rmtree(_tmp, ignore_errors=True)


import pytest


@pytest.fixture(autouse=True)
def _usual_folders():
    """A test that starts the app in-process with --data-dir leaves no override behind."""
    yield
    from tabletop import paths
    paths.set_data_dir(None)
