"""Save and load: exact round trip, versioning, damaged files, atomic writes."""

import json

import pytest

from tabletop.engine import InputError, files, saves
from tests.engine.test_history import _random_game


def test_save_then_load_reproduces_state_and_history(tmp_path):
    t = _random_game(3, 120)
    for _ in range(10):
        t.undo()
    path = tmp_path / "game.tabletop"
    saves.save(t, path)
    u = saves.load(path)
    assert saves.to_json(u) == saves.to_json(t)
    # the loaded game goes on exactly as the original would
    t.redo(), u.redo()
    t.shuffle("Alice"), u.shuffle("Alice")
    assert saves.to_json(u) == saves.to_json(t)
    while u.undo():
        pass
    while t.undo():
        pass
    assert saves.to_json(u) == saves.to_json(t)


def test_newer_version_is_refused(tmp_path):
    d = saves.to_json(_random_game(1, 5))
    d["version"] = saves.VERSION + 1
    p = tmp_path / "new.tabletop"
    p.write_text(json.dumps(d))
    with pytest.raises(InputError, match="newer"):
        saves.load(p)


@pytest.mark.parametrize("content", [b"", b"\x00\x01\x02garbage", b"{}", b"[1,2]",
                                     b'{"format": "tabletop-save", "version": 1}',
                                     b'{"format": "tabletop-save", "version": "x"}'])
def test_damaged_saves_give_one_clear_error(tmp_path, content):
    p = tmp_path / "bad.tabletop"
    p.write_bytes(content)
    with pytest.raises(InputError) as e:
        saves.load(p)
    assert str(p) in str(e.value)


def test_save_with_inconsistent_zones_is_refused(tmp_path):
    d = saves.to_json(_random_game(2, 20))
    d["zones"][0].append(999999)
    p = tmp_path / "bad.tabletop"
    p.write_text(json.dumps(d))
    with pytest.raises(InputError, match="damaged"):
        saves.load(p)


def test_atomic_write_keeps_the_old_file_when_writing_fails(tmp_path, monkeypatch):
    p = tmp_path / "game.tabletop"
    p.write_text("old")

    def boom(fd):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(files.os, "fsync", boom)
    with pytest.raises(OSError):
        files.atomic_write(p, b"new")
    assert p.read_text() == "old"
    assert [f.name for f in tmp_path.iterdir()] == ["game.tabletop"]


def test_a_version_1_save_with_its_log_in_full_still_opens():
    """Version 2 writes the log's lines in short forms; a version 1 save (every line in
    full) opens to the same log."""
    from tabletop.cards import demo
    t = demo.new_game(seed=3)
    t.draw("Alice", 2)
    t.move(t.objects_in(("Alice", "hand"))[0].cid, "graveyard", "Alice")
    d = saves.to_json(t)
    assert d["version"] == 2 and any(line[3] == 1 and line[6] == 0 for line in d["journal"])
    d["version"] = 1
    d["journal"] = [[e.tag, e.kind, e.text, e.public, list(e.cites), list(e.notes),
                     list(e.knowers)] + ([e.lead, True] if e.sub else []) for e in t.journal]
    back = saves.loads(json.dumps(d))
    assert back.journal == t.journal
    assert saves.loads(saves.dumps(t)).journal == t.journal


def test_the_log_saved_is_the_log_as_it_stands_after_lines_were_taken_back():
    """Each log line is made into its saved form once; a line taken back (a dialog that
    followed its action was cancelled), or a log begun again, is never saved as it was."""
    from tabletop.cards import demo
    t = demo.new_game()
    t.draw("Alice")
    saves.dumps(t)  # every line made into its saved form
    mark = t.mark()
    t.draw("Alice", 2)
    saves.dumps(t)
    t.take_back(mark)  # its lines go
    t.draw("Bob")
    back = saves.loads(saves.dumps(t))
    assert [(e.tag, e.text) for e in back.journal] == [(e.tag, e.text) for e in t.journal]
    assert "Bob" in back.journal[-1].text
    t.start_here()  # a log begun again
    assert saves.loads(saves.dumps(t)).journal == []


def test_a_game_just_opened_saves_its_history_as_it_was_read(monkeypatch):
    """Opening a game replays its latest actions (and its redo list) to check them; the
    table is then as it was saved, so each action's text is still the one read. The
    first save after opening encodes none of them again, and writes the file it read."""
    t = _random_game(3, 200)
    for _ in range(15):
        t.undo()
    text = saves.dumps(t)
    opened = saves.loads(text)
    assert len(opened.history) == len(t.history) and len(opened.redo_stack) == 15
    encoded = []
    real = saves._Codec.action

    def counted(codec, action, done=True):
        if action.raw is None and action.quoted is None:
            encoded.append(action)
        return real(codec, action, done)
    monkeypatch.setattr(saves._Codec, "action", counted)
    assert saves.dumps(opened) == text
    assert encoded == []
    # and the opened game's actions still undo and redo as the original's
    for _ in range(20):
        t.undo(), opened.undo()
    for _ in range(30):
        t.redo(), opened.redo()
    assert saves.to_json(opened) == saves.to_json(t)
