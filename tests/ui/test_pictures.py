"""Card pictures (issue 16, item 2): from the user's picture folder, else from a disk
cache filled on demand from the image service (a server on 127.0.0.1 here), with
downloads switchable off and a size limit on the cache; a card without a picture keeps
its drawn frame, and a hidden card's picture is never asked for."""

from __future__ import annotations

from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QColor, QImage, QPainter

from tabletop.cards import builtin
from tabletop.engine import Table
from tabletop.ui import pictures, settings
from tests.net_server import LocalServer


def _png(colour: str, w: int = 244, h: int = 340) -> bytes:
    img = QImage(w, h, QImage.Format_RGB32)
    img.fill(QColor(colour))
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.WriteOnly)
    img.save(buf, "PNG")
    return bytes(data)


def _colour_at_card(w, cid) -> QColor:
    """The colour drawn a little below the middle of the card (below its name strip,
    above its power/toughness)."""
    item = w.scene.item_for_cid(cid)
    img = QImage(w.view.viewport().size(), QImage.Format_RGB32)
    painter = QPainter(img)
    w.view.render(painter)
    painter.end()
    r = w.view.mapFromScene(item.sceneBoundingRect()).boundingRect()
    return img.pixelColor(r.center().x(), r.top() + int(r.height() * 0.6))


def _close(a: QColor, b: str) -> bool:
    c = QColor(b)
    return abs(a.red() - c.red()) + abs(a.green() - c.green()) + abs(a.blue() - c.blue()) < 20


def _fresh(monkeypatch, tmp_path):
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path))
    store = pictures.Pictures()
    monkeypatch.setattr(pictures, "_store", store)
    return store


def _table():
    t = Table(("Alice", "Bob"), "cr-2016")
    giant = t.add_card(builtin.lookup("Hill Giant"), "Alice", "battlefield").cid
    elves = t.add_card(builtin.lookup("Llanowar Elves"), "Alice", "battlefield").cid
    secret = t.add_card(builtin.lookup("Counterspell"), "Bob", "hand").cid
    t.start_here()
    return t, giant, elves, secret


def test_a_picture_from_the_users_folder(make_window, monkeypatch, tmp_path):
    _fresh(monkeypatch, tmp_path)
    folder = tmp_path / "pictures"
    folder.mkdir()
    (folder / "Hill Giant.png").write_bytes(_png("#2a9d8f"))
    t, giant, elves, _ = _table()
    w = make_window(t)
    assert _close(_colour_at_card(w, giant), "#2a9d8f")
    assert not _close(_colour_at_card(w, elves), "#2a9d8f")  # no picture: the frame


def test_pictures_download_once_into_the_cache(make_window, monkeypatch, tmp_path, qtbot):
    store = _fresh(monkeypatch, tmp_path)
    monkeypatch.delenv("TABLETOP_OFFLINE")
    with LocalServer() as srv:
        srv.files["/cards/named?exact=Hill%20Giant&format=image&version=normal"] = \
            _png("#e76f51")
        srv.files["/cards/named?exact=Llanowar%20Elves&format=image&version=normal"] = \
            b"<html>not a picture</html>"
        settings.set_value("pictures/url", srv.url(""))
        try:
            t, giant, _elves, _secret = _table()
            w = make_window(t)
            qtbot.waitUntil(lambda: (tmp_path / "picture-cache" / "Hill Giant.png").exists()
                            and ("Llanowar Elves", None) in store.failed, timeout=5000)
            w.view.viewport().repaint()
            assert _close(_colour_at_card(w, giant), "#e76f51")
            assert not (tmp_path / "picture-cache" / "Llanowar Elves.jpg").exists()
            asked = list(srv.hits)
            assert not any("Counterspell" in h for h in asked)  # Bob's hidden card
            w.scene.sync(None)  # drawing again asks for nothing more
            assert srv.hits == asked
            fresh = pictures.Pictures()  # a later session reads the disk cache
            assert fresh.get("Hill Giant") is not None and srv.hits == asked
        finally:
            settings.set_value("pictures/url", "")


def test_downloads_off_ask_for_nothing(make_window, monkeypatch, tmp_path):
    store = _fresh(monkeypatch, tmp_path)
    monkeypatch.delenv("TABLETOP_OFFLINE")
    settings.set_value("pictures/download", "false")
    try:
        with LocalServer() as srv:
            settings.set_value("pictures/url", srv.url(""))
            t, _giant, _, _ = _table()
            make_window(t)
            assert store.queue == [] and srv.hits == []
    finally:
        settings.set_value("pictures/download", "true")
        settings.set_value("pictures/url", "")


def test_the_cache_keeps_to_its_size_limit(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path))
    settings.set_value("pictures/cache_mb", 0)
    try:
        store = pictures.Pictures()
        folder = pictures.cache_folder()
        folder.mkdir(parents=True)
        old = folder / "Old Card.png"
        old.write_bytes(_png("#000000", 20, 20))
        data = _png("#ffffff", 20, 20)
        img = QImage()
        img.loadFromData(data)
        store._store("New Card", data, img)
        assert (folder / "New Card.png").exists() and not old.exists()
    finally:
        settings.set_value("pictures/cache_mb", pictures.DEFAULT_CACHE_MB)


def test_file_names_hold_no_path():
    assert pictures.file_stem("Fire // Ice") == "Fire  Ice"
    assert pictures.file_stem("../../etc/passwd") == "etcpasswd"
    assert "/" not in pictures.file_stem("a/b\\c:d")


def test_the_printing_a_deck_names_is_the_picture_asked_for(make_window, monkeypatch,
                                                          tmp_path, qtbot):
    from tabletop.cards import decks
    from tabletop.cards.game import new_game
    _fresh(monkeypatch, tmp_path)
    monkeypatch.delenv("TABLETOP_OFFLINE")
    deck = decks.parse_text("Deck\n1 Hill Giant (M11) 149\n1 Llanowar Elves\n")
    t = new_game([("Alice", deck)], seed=2, hand=2)
    assert t.printings == {"Hill Giant": ("M11", "149")}
    with LocalServer() as srv:
        srv.files["/cards/m11/149?format=image&version=normal"] = _png("#264653")
        settings.set_value("pictures/url", srv.url(""))
        try:
            w = make_window(t)
            qtbot.waitUntil(lambda: (tmp_path / "picture-cache" / "Hill Giant (M11) 149.png")
                            .exists(), timeout=5000)
            giant = next(o.cid for o in t.objects_in(("Alice", "hand"))
                         if o.card.name == "Hill Giant")
            w.view.viewport().repaint()
            assert _close(_colour_at_card(w, giant), "#264653")
            assert "/cards/m11/149?format=image&version=normal" in srv.hits
            assert not any("Hill%20Giant" in h for h in srv.hits)  # not by name
        finally:
            settings.set_value("pictures/url", "")
