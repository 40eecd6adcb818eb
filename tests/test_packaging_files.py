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


def _script(name):
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, LINUX / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_icu_trim_keeps_root_and_english_and_what_they_name():
    trim = _script("trim_icu")
    items = ["root.res", "en.res", "en_GB.res", "de.res", "pt_BR.res", "zh_Hant_TW.res",
             "sr_Latn.res", "res_index.res", "pool.res", "supplementalData.res",
             "likelySubtags.res", "plurals.res", "zoneinfo64.res", "nfkc.nrm",
             "unames.icu", "ibm-1047_P100-1995.cnv", "cnvalias.icu",
             "coll/root.res", "coll/en.res", "coll/de.res", "coll/de__PHONEBOOK.res",
             "coll/es_.res", "coll/ucadata.icu", "brkitr/root.res", "brkitr/word.brk",
             "brkitr/cjdict.dict", "brkitr/ja.res", "lang/en.res", "lang/fr.res",
             "lang/pool.res", "zone/en_001.res", "zone/tzdbNames.res", "curr/it.res"]
    gone = set(trim.unneeded(items))
    assert gone == {"de.res", "pt_BR.res", "zh_Hant_TW.res", "sr_Latn.res",
                    "ibm-1047_P100-1995.cnv", "coll/de.res", "coll/de__PHONEBOOK.res",
                    "coll/es_.res", "brkitr/ja.res", "lang/fr.res", "curr/it.res"}


@pytest.mark.skipif(not shutil.which("readelf"), reason="readelf (binutils) is not installed")
def test_pruning_keeps_every_library_something_loads(tmp_path):
    """On the Qt libraries of this very install: a library nothing needs goes, the ones
    linked from a plugin or an extension module stay, and so do dlopened ones."""
    import os

    import PySide6
    prune = _script("prune_libs")
    qt = os.path.join(os.path.dirname(PySide6.__file__), "Qt")
    bundle = tmp_path / "bundle"
    (bundle / "plugins" / "platforms").mkdir(parents=True)
    (bundle / "lib").mkdir()
    plugin = os.path.join(qt, "plugins", "platforms", "libqoffscreen.so")
    shutil.copy(plugin, bundle / "plugins" / "platforms")
    for lib in ("libQt6Gui.so.6", "libQt6Core.so.6", "libQt6Sql.so.6"):
        src = os.path.join(qt, "lib", lib)
        if not os.path.exists(src):
            pytest.skip(f"{lib} is not in this Qt")
        shutil.copy(src, bundle / "lib")
    (bundle / "lib" / "libssl.so.3").write_bytes(b"\x7fELF not really")
    gone = {p.name for p in prune.unused(bundle)}
    assert gone == {"libQt6Sql.so.6"}


def test_the_bundle_filter_leaves_out_unused_qt_on_linux_windows_and_macos():
    import sys
    sys.path.insert(0, str(ROOT / "packaging"))
    try:
        import bundle_filter as f
    finally:
        sys.path.remove(str(ROOT / "packaging"))
    gone = ["PySide6/Qt/lib/libQt6Qml.so.6", "PySide6/Qt6Qml.dll",
            "PySide6/Qt/lib/QtQml.framework/Versions/A/QtQml",
            "PySide6/Qt/lib/QtQuick.framework/Resources/Info.plist",
            "PySide6/Qt/plugins/imageformats/libqtiff.dylib",
            "PySide6\\plugins\\imageformats\\qgif.dll",
            "libdbus-1.so.3", "libgssapi_krb5.so.2"]  # the system's: the .deb depends on them
    kept = ["PySide6/Qt/lib/libQt6Network.so.6", "PySide6/Qt/lib/QtNetwork.framework/QtNetwork",
            "PySide6/Qt/lib/QtGui.framework/Versions/A/QtGui", "PySide6/Qt6Widgets.dll",
            "PySide6/Qt/plugins/imageformats/libqjpeg.so",
            "PySide6/Qt/plugins/tls/libqopensslbackend.so", "lib-dynload/_ssl.cpython-311.so",
            "PySide6\\plugins\\imageformats\\qjpeg.dll", "PySide6\\plugins\\tls\\qopensslbackend.dll",
            "zeroconf/_dns.cpython-311-x86_64-linux-gnu.so", "libssl.so.3", "libcrypto.so.3"]
    assert [p for p in gone if f.keep((p, p, "BINARY"))] == []
    assert [p for p in kept if not f.keep((p, p, "BINARY"))] == []
    for needed in ("ssl", "http", "urllib.request", "email", "_hashlib", "PySide6.QtNetwork"):
        assert needed not in f.UNUSED_MODULES


def test_the_installed_metadata_names_the_screenshot_of_the_commit_built():
    meta = _script("metainfo")
    env = {"GITHUB_REPOSITORY": "someone/tabletop", "GITHUB_SHA": "0123abcd"}
    assert meta.addresses(env) == ("https://github.com/someone/tabletop",
                                   "https://raw.githubusercontent.com/someone/tabletop/0123abcd/")
    text = meta.build(env)
    shot = ("https://raw.githubusercontent.com/someone/tabletop/0123abcd/"
            "packaging/screenshots/table.png")
    assert f">{shot}</image>" in text
    assert '<url type="homepage">https://github.com/someone/tabletop</url>' in text
    assert (ROOT / meta.SCREENSHOT).is_file()  # the address points at a file that exists
    # no repository known (a local build): no made-up address, the file as it is
    assert meta.addresses({}) is None and "<screenshots>" not in meta.build({})
    assert meta.addresses({"TABLETOP_REPO_URL": "http://example.org/x", "TABLETOP_REF": "v1"}) \
        is None  # not https: AppStream refuses it, so the build leaves it out


@pytest.mark.skipif(not shutil.which("appstreamcli"), reason="appstreamcli is not installed")
def test_the_installed_metadata_with_its_screenshot_validates(tmp_path):
    meta = _script("metainfo")
    out = tmp_path / "io.tabletop.Tabletop.metainfo.xml"
    out.write_text(meta.build({"TABLETOP_REPO_URL": "https://github.com/someone/tabletop",
                               "TABLETOP_REF": "v0.1.0"}))
    r = subprocess.run(["appstreamcli", "validate", "--no-net", str(out)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "screenshot" not in (r.stdout + r.stderr)  # no warning about it


def test_the_store_screenshot_script_renders_a_game(tmp_path):
    """packaging/screenshots/make_screenshot.py, which made table.png, still runs."""
    import os
    import struct
    import sys
    out = tmp_path / "shot.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", TABLETOP_OFFLINE="1",
               TABLETOP_DATA_DIR=str(tmp_path / "data"))
    r = subprocess.run([sys.executable, str(ROOT / "packaging" / "screenshots" /
                                            "make_screenshot.py"), str(out)],
                       capture_output=True, text=True, timeout=120, cwd=ROOT, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    head = out.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", head[16:24]) == (1600, 1000)  # the size the metadata states
    assert "Savannah Lions goes instead to Bob's graveyard" in r.stdout
