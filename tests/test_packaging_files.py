"""Packaging metadata that needs no build: the AppStream file validates, the desktop
file opens files and names the MIME type the .deb registers."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.helpers import ROOT

LINUX = ROOT / "packaging" / "linux"


@pytest.mark.skipif(not shutil.which("appstreamcli"), reason="appstreamcli is not installed")
def test_appstream_metadata_validates():
    r = subprocess.run(["appstreamcli", "validate", "--no-net",
                        str(LINUX / "io.tabletop.Tabletop.metainfo.xml")],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr


def test_desktop_file_opens_saved_games():
    desktop = (LINUX / "tabletop.desktop").read_text()
    assert "Exec=tabletop %f" in desktop
    assert "MimeType=application/x-tabletop-game;" in desktop
    mime = (LINUX / "tabletop-mime.xml").read_text()
    assert 'type="application/x-tabletop-game"' in mime and '"*.tabletop"' in mime
    meta = (LINUX / "io.tabletop.Tabletop.metainfo.xml").read_text()
    assert "<content_rating" in meta and "application/x-tabletop-game" in meta
