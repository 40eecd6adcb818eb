"""The Linux bundle builds, packs into .tar.gz and .deb, and its frozen binary
passes the self-test (slow: about a minute and a half)."""

import os
import shutil
import subprocess
import sys
import time

import pytest

from tests.helpers import ROOT

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not sys.platform.startswith("linux") or not shutil.which("dpkg-deb"),
                       reason="the Linux bundle is built on Linux with dpkg-deb"),
]


def test_linux_bundle_builds_and_passes_its_self_test(tmp_path):
    pytest.importorskip("PyInstaller")
    # built from the test's own Python (the venv), not whatever python3 the PATH finds
    env = dict(os.environ, TABLETOP_BUILD_DIR=str(tmp_path), PYTHON=sys.executable)
    r = subprocess.run(["bash", str(ROOT / "packaging" / "build_linux.sh")], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "self-test passed" in r.stdout
    bundle = tmp_path / "dist" / "tabletop"
    size = sum(f.stat().st_size for f in bundle.rglob("*") if f.is_file() and not f.is_symlink())
    # 100 MB before Qt's chart module (the deck editor's statistics: Charts, OpenGL and
    # OpenGLWidgets, 4 MB) came in
    assert size <= 105 * 1024 * 1024, f"bundle is {size / 2**20:.0f} MB unpacked"
    debs = list(tmp_path.glob("*.deb"))
    assert debs and list(tmp_path.glob("*.tar.gz"))
    listing = subprocess.run(["dpkg-deb", "-c", str(debs[0])], capture_output=True,
                             text=True).stdout
    assert "usr/share/applications/tabletop.desktop" in listing
    assert "usr/share/icons/hicolor/256x256/apps/tabletop.png" in listing
    assert "opt/tabletop/tabletop" in listing
    assert "usr/share/mime/packages/tabletop.xml" in listing
    control = subprocess.run(["dpkg-deb", "-f", str(debs[0]), "Depends"], capture_output=True,
                             text=True).stdout
    # measured from the bundle: the C library it needs, and no library it carries itself
    assert control.startswith("libc6 (>= 2."), control
    bundled = {p.name.split(".so")[0] for p in bundle.rglob("*.so*")}
    assert not [d for d in control.split(", ") if d.split(" ")[0] in bundled], control
    # the frozen app starts, draws its first frame and exits quickly
    out = tmp_path / "first-frame.png"
    start = time.perf_counter()
    r = subprocess.run([str(bundle / "tabletop"), "--screenshot", str(out)],
                       env=dict(env, QT_QPA_PLATFORM="offscreen"), capture_output=True, timeout=60)
    elapsed = time.perf_counter() - start
    assert r.returncode == 0 and out.read_bytes()[:4] == b"\x89PNG"
    print(f"frozen start to first frame and exit: {elapsed:.2f} s; bundle {size / 2**20:.0f} MB")
    # the frozen server starts on the event loop an installed one does (uvloop, which
    # the build's environment has), and answers a room's creation
    from tabletop.net import server as net_server
    data = tmp_path / "serve-data"
    serve = subprocess.Popen([str(bundle / "tabletop"), "--data-dir", str(data), "serve",
                              "--port", "0"], env=env, stdout=subprocess.PIPE, text=True)
    try:
        line = serve.stdout.readline()
        assert f"event loop: {net_server.loop_runner()[0].value})" in line, line
        from tabletop.net.client import Client
        c = Client(line.split("listening on ")[1].split()[0], timeout=10)
        room, code = c.create(["Ann", "Ben"])
        assert room and code and set(c.invites) >= {"Ann", "Ben"}
        c.close()
    finally:
        serve.kill()
        serve.wait()
        serve.stdout.close()
