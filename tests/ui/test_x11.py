"""A right-drag with a real pointer on a real X server (Xvfb, moved by xdotool): X11
sends the context-menu event as the right button goes down, which once opened the
card's menu instead of drawing the arrow. And the windows on a small screen (1024x600)
framed by a real window manager (openbox): the deck editor was sized to the screen
before its title bar was known, which pushed its bottom off the screen. Skipped, saying
why, where Xvfb, xdotool, openbox or Qt's xcb platform is missing (.ci/run installs them
where it can)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time

import pytest

from tests.helpers import ROOT

pytestmark = pytest.mark.timeout(120)


def _x_server(size: str):
    if not (shutil.which("Xvfb") and shutil.which("xdotool")):
        pytest.skip("Xvfb and xdotool are not installed: the real X server test is skipped")
    r, w = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", size,
                               "-nolisten", "tcp"], pass_fds=(w,), stderr=subprocess.DEVNULL)
    os.close(w)
    with os.fdopen(r) as f:
        number = f.readline().strip()
    env = dict(os.environ, DISPLAY=f":{number}", PYTHONPATH=str(ROOT))
    env.pop("QT_QPA_PLATFORM", None)
    check = subprocess.run([sys.executable, "-c", "import os; os.environ['QT_QPA_PLATFORM']"
                            "='xcb'\nfrom PySide6.QtWidgets import QApplication\n"
                            "QApplication([])"], env=env, capture_output=True, text=True,
                           timeout=30)
    if check.returncode != 0:
        server.kill()
        server.wait()
        pytest.skip("Qt's xcb platform cannot start here (its system libraries, as the "
                    "README lists them): the real X server test is skipped")
    return server, env


@pytest.fixture
def display():
    server, env = _x_server("1280x800x24")
    yield env
    server.kill()
    server.wait()


@pytest.fixture
def small_screen():
    """A 1024x600 X server whose windows a window manager (openbox) frames."""
    if not shutil.which("openbox"):
        pytest.skip("openbox is not installed: the test of windows framed by a window "
                    "manager is skipped")
    server, env = _x_server("1024x600x24")
    wm = subprocess.Popen(["openbox"], env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
    time.sleep(1)  # (it takes the screen's windows over)
    yield env
    wm.kill()
    wm.wait()
    server.kill()
    server.wait()


def _run(env, gesture) -> dict:
    app = subprocess.Popen([sys.executable, str(ROOT / "tests" / "ui" / "x11_app.py")],
                           env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                           cwd=ROOT)
    try:
        where = json.loads(app.stdout.readline())

        def xdo(*args):
            subprocess.run(["xdotool", *map(str, args)], env=env, check=True, timeout=10)
        gesture(xdo, where["from"], where["to"])
        time.sleep(0.5)
        app.stdin.write("done\n")
        app.stdin.flush()
        return json.loads(app.stdout.readline())
    finally:
        app.kill()
        app.wait()
        app.stdout.close()
        app.stdin.close()


def test_a_real_right_drag_draws_an_arrow_and_a_real_right_click_opens_the_menu(display):
    def drag(xdo, a, b):
        xdo("mousemove", *a)
        time.sleep(0.3)
        xdo("mousedown", 3)
        time.sleep(0.3)
        for i in range(1, 9):  # the pointer moves across, as a hand moves it
            xdo("mousemove", a[0] + (b[0] - a[0]) * i // 8, a[1] + (b[1] - a[1]) * i // 8)
            time.sleep(0.05)
        xdo("mouseup", 3)

    def click(xdo, a, _b):
        xdo("mousemove", *a)
        time.sleep(0.3)
        xdo("click", 3)

    dragged = _run(display, drag)
    assert dragged["arrows"] == [["Alice", 1, 2]] and dragged["menu"] is None
    clicked = _run(display, click)
    assert clicked["arrows"] == [] and clicked["menu"] and clicked["menu"][0] == "Tap"


def test_on_a_small_screen_every_window_stands_whole_inside_it(small_screen):
    """The main window and the deck editor (opened by its shortcut, Ctrl+Shift+K, on
    the real keyboard), title bars included, inside the screen's available area of a
    1024x600 screen."""
    app = subprocess.Popen([sys.executable, str(ROOT / "tests" / "ui" / "x11_windows.py")],
                           env=small_screen, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert json.loads(app.stdout.readline()) == {"ready": True}
        subprocess.run(["xdotool", "search", "--sync", "--name", "^Tabletop",
                        "windowactivate", "--sync", "key", "ctrl+shift+k"],
                       env=small_screen, check=True, timeout=20)
        got = json.loads(app.stdout.readline())
    finally:
        app.kill()
        app.wait()
        app.stdout.close()
    assert got["framed"] == [True, True]  # the window manager framed both
    sx, sy, sw, sh = got["screen"]
    for name in ("main", "editor"):
        x, y, w, h = got[name]
        assert sx <= x and sy <= y and x + w <= sx + sw and y + h <= sy + sh, (name, got)
