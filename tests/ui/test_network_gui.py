"""Network play from the window (issue 18), against a real `tabletop serve` process on
127.0.0.1 and scripted clients: File > Join a game and File > Host a game through
their dialogs, real drags on the view, the seat's own view only, chat, an undo
asked of everyone, and a rejoin after the server is killed and started again."""

from __future__ import annotations

import contextlib
from collections import Counter

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialogButtonBox

from tabletop.engine import Table
from tabletop.engine.views import Hidden
from tabletop.ui.selftest import drag, zone_center
from tests.ui.menus import card_menu_action as _card_menu

pytestmark = pytest.mark.timeout(120)


def _zone(view, player, name):
    return next(z["cards"] for z in view["zones"] if z["player"] == player and z["zone"] == name)


def objects_in(w, key):
    """The cards a window's board shows in a zone, top first (what it draws)."""
    return w.c.board.pile(key, w.c.viewer)


def _press_ok(dialog):
    dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.Ok).click()


def _join(bot, w, invitation: str, seat: str):
    """File > Join a game, the dialog filled in as a person would."""
    from tabletop.ui.network import JoinDialog  # noqa: F401 (the dialog the menu opens)

    def fill(d):
        from PySide6.QtWidgets import QComboBox, QLineEdit
        d.findChild(QLineEdit).setText(invitation)
        d.findChild(QComboBox).setCurrentText(seat)
        _press_ok(d)
    bot.answer("Join a game", fill)
    _menu(w, "Join a").trigger()


def _menu(w, starts: str):
    """A menu command of the window, by the start of its words."""
    return next(a for a in w.actions() if a.text().replace("&", "").startswith(starts))


def _host(dialogs, qtbot, w, port: int, seat: str = "Alice"):
    """File > Host a game on ``port``, this table, as a person would."""
    def fill(d):
        from PySide6.QtWidgets import QSpinBox
        d.findChild(QSpinBox).setValue(port)
        _press_ok(d)
    dialogs.answer("Host a game", fill)
    _menu(w, "Host a").trigger()
    _seated(qtbot, w, seat)


def _seated(qtbot, w, seat):
    qtbot.waitUntil(lambda: w.c.session is not None and w.c.session.view is not None
                    and w.c.session.seat == seat, timeout=10000)


INVITES: dict[str, dict[str, str]] = {}  # room -> its seats' invitations


def _room(clients, url, players=("Alice", "Bob")):
    maker = clients(url)
    room, code = maker.create(list(players), seed=3)
    INVITES[room] = maker.invites
    return room, code


def _invited(url, room, code, seat):
    """The invitation the host gives ``seat``: the room and the seat's own secret."""
    from tabletop.ui.network import Invitation
    return str(Invitation(url.rstrip("/") + "/", room, code, seat, INVITES[room][seat]))


def _alice_joins(server, clients, make_window, dialogs, qtbot):
    """A room on the server, Bob a scripted client, and a window that joins as Alice
    through File > Join a game: (the window, Bob)."""
    room, code = _room(clients, server.url)
    bob = clients(server.url)
    bob.join(room, code, "Bob", invite=INVITES[room]["Bob"])
    w = make_window(Table(("Zed",)), viewer="Zed")
    _join(dialogs, w, _invited(server.url, room, code, "Alice"), "Alice")
    _seated(qtbot, w, "Alice")
    return w, bob


def test_a_player_joins_plays_by_dragging_and_sees_only_their_own_view(
        server, clients, make_window, dialogs, qtbot):
    w, bob = _alice_joins(server, clients, make_window, dialogs, qtbot)
    assert w.c.board.players == ("Alice", "Bob") and w.c.viewer == "Alice"
    # Bob's hand and both libraries: hidden cards on the seat's board, backs on the view
    bobs = objects_in(w, ("Bob", "hand"))
    assert len(bobs) == 7 and all(isinstance(o, Hidden) for o in bobs)
    for o in bobs:
        assert w.scene.item_for_cid(o.id) is None  # drawn as a back, by object id only
        assert isinstance(w.scene.cards[("o", o.id)].view, Hidden)
    mine = objects_in(w, ("Alice", "hand"))
    assert all(o.card.name for o in mine)
    # a real drag of a land from Alice's hand onto her battlefield
    land = next(o for o in mine if "Land" in o.card.types)
    item = w.scene.item_for_cid(land.cid)
    drag(w.view, item, zone_center(w.scene, ("Alice", "battlefield")))
    qtbot.waitUntil(lambda: any(o.card.name == land.card.name
                                for o in objects_in(w, (None, "battlefield"))),
                    timeout=10000)
    bob.drain(0.5)
    assert [c["name"] for c in _zone(bob.view, None, "battlefield")] == [land.card.name]
    # the inspector had the land in hand, an object the host's view no longer has (a new
    # object, a new id): it says what it says with nothing selected, not nothing
    qtbot.waitUntil(lambda: "Select a card" in w.inspector.toPlainText(), timeout=5000)
    # a click on the land: the inspector says why its lineage is not here
    field = next(o for o in objects_in(w, (None, "battlefield"))
                 if o.card.name == land.card.name)
    at = w.view.mapFromScene(w.scene.item_for_cid(field.cid).sceneBoundingRect().center())
    QTest.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier, at)
    qtbot.waitUntil(lambda: land.card.name in w.inspector.toPlainText(), timeout=5000)
    assert "what it was before stays with the host" in w.inspector.toPlainText()
    # a sorcery dropped on the battlefield: the host refuses it and the window says why
    sorcery = next((o for o in objects_in(w, ("Alice", "hand"))
                    if "Sorcery" in o.card.types or "Instant" in o.card.types), None)
    assert sorcery is not None  # the seed deals Alice one
    drag(w.view, w.scene.item_for_cid(sorcery.cid),
         zone_center(w.scene, ("Alice", "battlefield")))
    qtbot.waitUntil(lambda: "400.4a" in w.message(), timeout=10000)
    assert sorcery.cid in {o.cid for o in objects_in(w, ("Alice", "hand"))}
    # Bob draws: Alice's log says a card was drawn, never which
    before = len(w.c.board.journal)
    bob.act("draw", count=1)
    qtbot.waitUntil(lambda: len(w.c.board.journal) > before, timeout=10000)
    line = w.c.board.journal[-1]
    new = {c["name"] for c in _zone(bob.view, "Bob", "hand")}
    assert "Bob" in line.text and not any(name in line.text for name in new), line.text
    assert line.cites == ()


def test_chat_and_an_undo_every_player_agrees_to(server, clients, make_window, dialogs,
                                                 qtbot):
    w, bob = _alice_joins(server, clients, make_window, dialogs, qtbot)
    talk = w.network.talk
    # Alice types a line (markup is shown as it is typed) and Bob's says hello
    talk.entry.setFocus()
    QTest.keyClicks(talk.entry, "hi <b>Bob</b>")
    QTest.keyClick(talk.entry, Qt.Key_Return)
    bob.send("chat", text="hello Alice")
    qtbot.waitUntil(lambda: talk.lines.count() == 2, timeout=10000)
    assert [talk.lines.item(i).text() for i in range(2)] == [
        "Alice: hi <b>Bob</b>", "Bob: hello Alice"]
    assert "Alice ●" in talk.who.text() and "Bob ●" in talk.who.text()
    # Bob rolls; Alice asks to undo it: Bob sees the request, agrees, and it is undone
    bob.act("roll", sides=6)
    qtbot.waitUntil(lambda: w.c.board.last_roll is not None, timeout=10000)
    w.undo_action.trigger()
    bob.until("update")
    qtbot.waitUntil(lambda: w.c.session.undo_request is not None, timeout=10000)
    assert talk.request.isVisible() and "Alice asks to undo" in talk.request_text.text()
    assert not talk.agree.isEnabled()  # who asks has agreed already
    bob.send("act", action="agree_undo")
    qtbot.waitUntil(lambda: w.c.board.last_roll is None and w.c.session.undo_request is None,
                    timeout=10000)
    assert not talk.request.isVisible()


def test_the_window_rejoins_its_seat_after_the_server_is_killed_and_restarted(
        server, clients, make_window, dialogs, qtbot):
    room, code = _room(clients, server.url)
    w = make_window(Table(("Zed",)), viewer="Zed")
    _join(dialogs, w, _invited(server.url, room, code, "Alice"), "Alice")
    _seated(qtbot, w, "Alice")
    hand = [o.card.name for o in objects_in(w, ("Alice", "hand"))]
    port = server.port
    server.kill()
    qtbot.waitUntil(lambda: not w.c.session.connected, timeout=10000)
    assert "dropped" in w.message()
    server.start(port)  # restored from its autosave, on the same port
    qtbot.waitUntil(lambda: w.c.session is not None and w.c.session.connected
                    and w.c.session.joined, timeout=20000)
    qtbot.waitUntil(lambda: [o.card.name for o in objects_in(w, ("Alice", "hand"))]
                    == hand, timeout=10000)
    # someone else may not take the seat: its token is the window's
    other = clients(server.url)
    with pytest.raises(Exception, match="taken"):
        other.join(room, code, "Alice", invite=INVITES[room]["Alice"])


def test_hosting_the_table_and_getting_it_back_whole(clients, make_window, dialogs, qtbot,
                                                     tmp_path, monkeypatch):
    from tabletop import paths
    from tabletop.cards import demo
    paths.set_data_dir(tmp_path / "data")
    w = make_window(demo.new_game(players=("Alice", "Bob"), seed=4), viewer="Alice")
    bob_hand = [o.card.name for o in w.c.table.objects_in(("Bob", "hand"))]  # the engine's
    monkeypatch.setattr("tabletop.ui.network.local_addresses", lambda: ["127.0.0.1"])
    w.resize(1024, 600)  # a small screen
    _host(dialogs, qtbot, w, 18765)
    invitation = w.network.talk.invitation
    assert invitation.startswith("ws://127.0.0.1:18765/")
    assert w.network.talk.invite.isVisible() and w.network.talk.invite_text.text() == invitation
    w.network.talk.copy.click()
    from PySide6.QtGui import QGuiApplication
    assert QGuiApplication.clipboard().text() == invitation
    # the host's own window sees Bob's hand as backs only
    assert all(isinstance(o, Hidden) for o in objects_in(w, ("Bob", "hand")))
    from tabletop.ui.network import Invitation
    inv = Invitation.parse(invitation)
    assert inv.seat == "Bob" and inv.invite  # the dock shows each seat's own
    # on the small screen every line of the dock is read whole: none is given less
    # height than its words need, and the entry line is there
    talk = w.network.talk

    def whole() -> bool:
        return all(label.isVisible() and label.text()
                   and label.height() >= label.heightForWidth(label.width())
                   for label in (talk.where, talk.invite_code, talk.who))
    qtbot.waitUntil(whole, timeout=3000)
    assert talk.entry.isVisible() and talk.entry.height() >= talk.entry.sizeHint().height()
    assert talk.widget.rect().contains(talk.entry.geometry())
    assert w.windowTitle() == "Tabletop — hosting game, as Alice — cr-2025"
    bob = clients(inv.url)
    bob.join(inv.room, inv.code, "Bob", invite=inv.invite)
    qtbot.waitUntil(lambda: "Bob ●" in w.network.talk.who.text(), timeout=10000)
    land = next(c for c in _zone(bob.view, "Bob", "hand") if "Land" in c.get("types", []))
    bob.act("move", id=land["id"], zone="battlefield", player="Bob")
    qtbot.waitUntil(lambda: any(o.card.name == land["name"]
                                for o in objects_in(w, (None, "battlefield"))),
                    timeout=10000)
    # Leave: the game comes back to the host's window, every card named
    dialogs.expect("Stop hosting", "Yes")
    w.leave_action.trigger()
    assert w.c.session is None and w.c.dirty
    back = w.c.table
    left = Counter(bob_hand)
    left[land["name"]] -= 1
    assert Counter(o.card.name for o in back.objects_in(("Bob", "hand"))) == +left
    assert any(o.card.name == land["name"] for o in back.objects_in((None, "battlefield")))


def test_a_hosted_game_is_found_on_the_network_and_joined_without_its_address(
        make_window, dialogs, qtbot, tmp_path):
    """mDNS on the loopback interface only (TABLETOP_MDNS=127.0.0.1, tests/conftest.py):
    the Join dialog lists the game the other window hosts; a pick and the room code
    are all a player types."""
    from tabletop import paths
    from tabletop.cards import demo
    paths.set_data_dir(tmp_path / "data")
    host = make_window(demo.new_game(players=("Alice", "Bob"), seed=4), viewer="Alice")

    _host(dialogs, qtbot, host, 18766)
    from tabletop.ui.network import Invitation
    code = Invitation.parse(host.network.talk.invitation).code
    guest = make_window(Table(("Zed",)), viewer="Zed")
    listed = []

    def join_found(d):
        from PySide6.QtWidgets import QComboBox, QLineEdit, QListWidget
        games = d.findChild(QListWidget)
        qtbot.waitUntil(lambda: games.count() > 0, timeout=15000)
        listed.append(games.item(0).text())
        games.setCurrentRow(0)
        edits = {e.placeholderText()[:5]: e for e in d.findChildren(QLineEdit)}
        assert edits["ws://"].text().startswith("ws://127.0.0.1:18766/")
        edits["the r"].setText(code)
        seat = d.findChild(QComboBox)  # the listed game's seats, to pick from
        seats.extend(seat.itemText(i) for i in range(seat.count()))
        seat.setCurrentIndex(seats.index("Bob"))
        _press_ok(d)
    seats: list[str] = []
    dialogs.answer("Join a game", join_found)
    # no invitation: the host is asked, in a dialog of the hosting window
    dialogs.expect("A request to sit", "Yes")
    _menu(guest, "Join a").trigger()
    _seated(qtbot, guest, "Bob")
    asked = [text for title, text, button in dialogs.seen if title == "A request to sit"]
    assert len(asked) == 1 and "Bob's seat" in asked[0]
    assert "Alice, Bob" in listed[0] and code not in listed[0]  # the code is never announced
    assert seats == ["Alice", "Bob", "spectator", "judge"]
    assert all(isinstance(o, Hidden) for o in objects_in(guest, ("Alice", "hand")))
    dialogs.expect("Stop hosting", "Yes")
    host.leave_action.trigger()
    qtbot.waitUntil(lambda: guest.c.session is None, timeout=30000)  # the game ended for Bob


def test_a_dropped_window_rejoins_and_its_log_holds_what_happened_meanwhile(
        server, clients, make_window, dialogs, qtbot):
    w, bob = _alice_joins(server, clients, make_window, dialogs, qtbot)
    w.c.session.conn.ws.close()  # the network goes: the window did not ask for it
    qtbot.waitUntil(lambda: not w.c.session.connected, timeout=10000)
    land = next(c for c in _zone(bob.view, "Bob", "hand") if "Land" in c.get("types", []))
    bob.act("move", id=land["id"], zone="battlefield", player="Bob")
    qtbot.waitUntil(lambda: w.c.session.connected and w.c.session.joined
                    and any(o.card.name == land["name"]
                            for o in objects_in(w, (None, "battlefield"))),
                    timeout=20000)
    assert any(land["name"] in e.text for e in w.c.board.journal)
    assert w.c.session.seat == "Alice"  # the same seat, by its token


def test_a_host_that_crashed_resumes_hosting_and_the_players_rejoin(
        clients, make_window, dialogs, qtbot, tmp_path, monkeypatch):
    from tabletop import paths
    from tabletop.cards import demo
    from tabletop.ui.network import Invitation
    paths.set_data_dir(tmp_path / "data")
    monkeypatch.setattr("tabletop.ui.network.local_addresses", lambda: ["127.0.0.1"])
    w = make_window(demo.new_game(players=("Alice", "Bob"), seed=4), viewer="Alice")

    _host(dialogs, qtbot, w, 18767)
    inv = Invitation.parse(w.network.talk.invitation)
    bob = clients(inv.url)
    bob.join(inv.room, inv.code, "Bob", invite=inv.invite)
    bob_token = bob.token
    land = next(c for c in _zone(bob.view, "Bob", "hand") if "Land" in c.get("types", []))
    bob.act("move", id=land["id"], zone="battlefield", player="Bob")
    # the host's app dies: its server thread stops, nothing is ended or forgotten
    session = w.c.session
    w.c.session = None
    session.stop()
    session.hosted.stop()
    bob.close()
    # started again: Host a game offers the game back, and hosts it on the same port
    again = make_window(demo.new_game(players=("Carl", "Dana"), seed=1), viewer="Carl")
    dialogs.expect("Resume hosting", "Resume it")
    _menu(again, "Host a").trigger()
    _seated(qtbot, again, "Alice")
    assert again.c.board.players == ("Alice", "Bob")
    assert any(o.card.name == land["name"] for o in objects_in(again, (None, "battlefield")))
    back = clients(inv.url)  # Bob's window rejoins his seat with his token
    view = back.join(inv.room, inv.code, "Bob", token=bob_token)
    assert [c["name"] for c in _zone(view, None, "battlefield")] == [land["name"]]
    dialogs.expect("Stop hosting", "Yes")
    again.leave_action.trigger()
    assert not list((tmp_path / "data" / "hosted").glob("room-*"))  # over: nothing left


@pytest.mark.parametrize("frames", [
    ['{"v":1,"type":"joined","room":"r","seat":"Alice","token":"t"}',
     '{"v":1,"type":"view","players":"not a list"}'],
    ['{"v":1,"type":"joined","room":"r","seat":"Alice","token":"t"}',
     '{"v":1,"type":"view","players":["Alice"],"edition":"cr-2016","zones":'
     '[{"player":"Alice","zone":"hand","cards":[{"id":"x"}]}],"life":{},"active":"Alice",'
     '"turn":1,"phase":"main1","log":[]}'],
    ['{"v":1,"type":"joined","room":"r","seat":"Alice","token":"t"}',
     '{"v":1,"type":"view","players":["<b>Alice</b>"],"edition":"no-such-edition",'
     '"zones":[],"life":{},"active":"x","turn":1,"phase":"main1","log":[]}'],
    ['{"v":1,"type":"joined","room":"r","seat":"Alice","token":"t"}',  # odd extras
     '{"v":1,"type":"view","players":["Alice"],"edition":"cr-2016","zones":[],'
     '"life":{"Alice":20},"active":"Alice","turn":1,"phase":"main1","log":[],'
     '"chat":"x","connected":5,"undo_request":{"by":1,"agreed":"Alice"}}',
     '{"v":1,"type":"update","players":["Alice"],"zones":[],"log":[{"text":7}]}',
     '{"v":1,"type":"view","players":["Alice"]}'],
])
def test_a_host_that_sends_nonsense_ends_the_game_with_a_message_not_a_crash(
        frames, make_window, dialogs, qtbot):
    """A game found on the network may be anyone's: what it sends is checked."""
    import threading

    from websockets.sync.server import serve

    def handler(ws):
        ws.recv(timeout=5)  # the join
        for f in frames:
            ws.send(f)
        with contextlib.suppress(Exception):
            ws.recv(timeout=5)
    with serve(handler, "127.0.0.1", 0) as fake:
        port = fake.socket.getsockname()[1]
        threading.Thread(target=fake.serve_forever, daemon=True).start()
        before = Table(("Zed",))
        w = make_window(before, viewer="Zed")
        _join(dialogs, w, f"ws://127.0.0.1:{port}/r/CODE", "Alice")
        qtbot.waitUntil(lambda: any("cannot read" in text for _, text, _ in dialogs.seen),
                        timeout=10000)
        fake.shutdown()
    assert w.c.session is None and w.c.table is before  # back to the table it had


def test_hosting_a_new_game_from_decks(clients, make_window, dialogs, qtbot, tmp_path,
                                       monkeypatch):
    """Host: "A new game from decks…" asks for the decks, and the new game is the one
    hosted; the window's own table is left as it was asked (the guard)."""
    from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit, QSpinBox

    from tabletop import paths
    from tabletop.cards import demo
    from tabletop.ui.network import Invitation
    paths.set_data_dir(tmp_path / "data")
    monkeypatch.setattr("tabletop.ui.network.local_addresses", lambda: ["127.0.0.1"])
    w = make_window(demo.new_game(players=("Alice", "Bob"), seed=4), viewer="Alice")

    def host(d):
        boxes = d.findChildren(QComboBox)
        boxes[0].setCurrentIndex(1)  # what to host: a new game from decks
        boxes[1].setCurrentIndex(1)  # my seat: the second player
        d.findChild(QSpinBox).setValue(18768)
        _press_ok(d)

    def decks(d):
        names = d.findChildren(QLineEdit)
        names[0].setText("Hana")
        names[1].setText("Ivo")
        d.findChildren(QCheckBox)[2].setChecked(True)  # a third player
        names[2].setText("Jun")
        d.findChild(QSpinBox).setValue(17)  # starting life
        _press_ok(d)
    dialogs.answer("Host a game", host)
    dialogs.answer("New game", decks)
    _menu(w, "Host a").trigger()
    _seated(qtbot, w, "Ivo")
    assert w.c.board.players == ("Hana", "Ivo", "Jun") and w.c.board.life["Jun"] == 17
    inv = Invitation.parse(w.network.talk.invitations["Jun"])
    jun = clients(inv.url)
    assert jun.join(inv.room, inv.code, "Jun", invite=inv.invite)["players"] == [
        "Hana", "Ivo", "Jun"]


def test_the_tables_tools_work_at_a_network_table(server, clients, make_window, dialogs,
                                                   qtbot):
    """Counters, a note and a face-down card from the card's menu, a player's counter
    from the panel's menu, a token, milling and the phase bar: each goes to the host,
    and Bob's view and Alice's own copy show what the host made of it."""
    from tabletop.engine.model import Card
    w, bob = _alice_joins(server, clients, make_window, dialogs, qtbot)
    land = next(o for o in objects_in(w, ("Alice", "hand")) if "Land" in o.card.types)

    def mine():
        return [o for o in objects_in(w, (None, "battlefield"))
                if o.controller == "Alice"]
    w.c.drop(land.cid, "battlefield", "Alice")
    qtbot.waitUntil(lambda: bool(mine()), timeout=10000)
    cid = mine()[0].cid
    _card_menu(w, cid, "Counters", "Add a +1/+1 counter")
    qtbot.waitUntil(lambda: dict(mine()[0].counters) == {"+1/+1": 1}, timeout=10000)
    dialogs.expect("Note on a card", "Bob's land now")
    _card_menu(w, mine()[0].cid, "Note…")
    qtbot.waitUntil(lambda: mine()[0].note == "Bob's land now", timeout=10000)
    _card_menu(w, mine()[0].cid, "Turn face down")
    qtbot.waitUntil(lambda: mine()[0].face_down, timeout=10000)
    menu = w.scene.add_counter_menu("Alice")
    next(a for a in menu.actions() if a.text() == "poison").trigger()
    qtbot.waitUntil(lambda: dict(w.c.board.player_view("Alice").counters) == {"poison": 1},
                    timeout=10000)
    assert w.scene.player_items["Alice"].seen.counters == (("poison", 1),)
    w.c.create_tokens(Card("Soldier", ("Creature",), ("Soldier",), colors=("W",),
                           power="1", toughness="1"), "Alice", 2)
    qtbot.waitUntil(lambda: len(mine()) == 3, timeout=10000)
    w.c.mill("Alice", 2)
    qtbot.waitUntil(lambda: len(objects_in(w, ("Alice", "graveyard"))) == 2,
                    timeout=10000)
    w.c.set_phase("combat")
    qtbot.waitUntil(lambda: w.c.board.phase == "combat", timeout=10000)
    bob.drain(0.5)
    field = _zone(bob.view, None, "battlefield")
    down = next(c for c in field if c["face_down"])
    assert down["hidden"] and land.card.name not in str(down)
    # how many counters, not their kind, and not the note: words that could name it
    assert down["counters"] == [["counter", 1]] and down["note"] == ""
    soldiers = [c for c in field if c.get("name") == "Soldier"]
    assert len(soldiers) == 2 and soldiers[0]["printed"] == ["1", "1"]
    assert bob.view["player_counters"] == {"Alice": [["poison", 1]]}
    assert len(_zone(bob.view, "Alice", "graveyard")) == 2 and bob.view["phase"] == "combat"
    # and what this seat may not touch stays refused, with the host's word for it
    bobs = objects_in(w, ("Bob", "hand"))[0].id  # by the id Alice's window has
    w.c.turn_face(bobs, True)
    qtbot.waitUntil(lambda: "may not handle Bob's cards" in w.message(), timeout=10000)
    bob.drain(0.5)
    assert not any(c["face_down"] for c in _zone(bob.view, "Bob", "hand"))


def test_tools_made_of_other_actions_send_those_at_a_network_table(
        server, clients, make_window, dialogs, qtbot):
    """Setting counters to a number, copying a card as a token and the top card to the
    bottom read the copy, then send the intentions they are made of."""
    w, bob = _alice_joins(server, clients, make_window, dialogs, qtbot)

    def mine():
        return [o for o in objects_in(w, (None, "battlefield"))
                if o.controller == "Alice"]
    land = next(o for o in objects_in(w, ("Alice", "hand"))
                    if "Land" in o.card.types)
    w.c.drop(land.cid, "battlefield", "Alice")
    qtbot.waitUntil(lambda: bool(mine()), timeout=10000)
    w.c.counters(mine()[0].cid, "charge", 2)
    qtbot.waitUntil(lambda: dict(mine()[0].counters) == {"charge": 2}, timeout=10000)
    w.c.set_counters(mine()[0].cid, "charge", 5)
    qtbot.waitUntil(lambda: dict(mine()[0].counters) == {"charge": 5}, timeout=10000)
    w.c.copy_as_token(mine()[0].cid)
    qtbot.waitUntil(lambda: len(mine()) == 2, timeout=10000)
    assert {o.card.name for o in mine()} == {land.card.name}
    assert sum(o.token for o in mine()) == 1
    bob.drain(0.3)
    before = [c["id"] for c in _zone(bob.view, "Alice", "library")]
    w.c.top_to_bottom("Alice")

    def moved():
        bob.drain(0.1)
        return [c["id"] for c in _zone(bob.view, "Alice", "library")] != before
    qtbot.waitUntil(moved, timeout=10000)
    after = [c["id"] for c in _zone(bob.view, "Alice", "library")]
    # a library put in another order is sent with new ids: no card can be followed
    assert len(after) == len(before) and not set(after) & set(before)
    qtbot.waitUntil(lambda: "library: reordered" in w.c.board.journal[-1].text, timeout=10000)


def test_a_mulligan_at_a_network_table_and_cards_moved_together(
        server, clients, make_window, dialogs, qtbot):
    """Table > Mulligan: the host deals the new hand, then the window asks which cards go
    to the bottom and sends them as one move; cancelling takes the mulligan back. Two
    cards dropped together are one action at the host too."""
    from PySide6.QtWidgets import QDialogButtonBox
    w, bob = _alice_joins(server, clients, make_window, dialogs, qtbot)

    def hand():
        return objects_in(w, ("Alice", "hand"))
    bob.drain(0.3)
    lines = len(bob.view["log"])
    dialogs.answer("London mulligan", lambda d: d.reject())  # cancelled
    _menu(w, "Mulligan").trigger()
    qtbot.waitUntil(lambda: not w.c.board.mulligans and any(
        "undo" in (line.lead + line.text).lower() for line in w.c.board.journal), timeout=10000)

    def bottom_two(dlg):  # the second mulligan: two cards on the bottom
        dlg.list.item(0).setCheckState(Qt.Checked)
        dlg.list.item(1).setCheckState(Qt.Checked)
        dlg.box.button(QDialogButtonBox.Ok).click()
    arranged = {}

    def keep_order(dlg):  # the order on the bottom, as the player leaves it
        arranged["order"] = dlg.order()
        dlg.findChild(QDialogButtonBox).button(QDialogButtonBox.Ok).click()
    dialogs.answer("London mulligan", lambda d: (d.list.item(0).setCheckState(Qt.Checked),
                                                 d.box.button(QDialogButtonBox.Ok).click()))
    _menu(w, "Mulligan").trigger()
    qtbot.waitUntil(lambda: w.c.board.mulligans == {"Alice": 1} and len(hand()) == 6,
                    timeout=10000)
    dialogs.answer("London mulligan", bottom_two)
    dialogs.answer("Order on the bottom", keep_order)
    _menu(w, "Mulligan").trigger()
    qtbot.waitUntil(lambda: w.c.board.mulligans == {"Alice": 2} and len(hand()) == 5,
                    timeout=10000)
    assert len(arranged["order"]) == 2
    bob.drain(0.5)
    assert bob.view["mulligans"] == {"Alice": 2}
    assert len(_zone(bob.view, "Alice", "hand")) == 5
    assert len(_zone(bob.view, "Alice", "library")) == 35
    leads = [line.get("lead", "") for line in bob.view["log"][lines:] if line.get("lead")]
    assert leads.count("Alice moves 2 cards to Alice's library") == 1  # the two, one move
    assert leads.count("Alice mulligans") == 3, leads  # the first one taken back
    # two cards dropped together: one action at the host (one undo takes both back)
    two = [o.cid for o in hand()][:2]
    w.c.drop_many(two, "graveyard", "Alice")
    qtbot.waitUntil(lambda: len(objects_in(w, ("Alice", "graveyard"))) == 2,
                    timeout=10000)
    w.c.undo()
    qtbot.waitUntil(lambda: not objects_in(w, ("Alice", "graveyard")), timeout=10000)
    assert len(hand()) == 5


def test_an_arrow_right_dragged_at_a_network_table_reaches_the_others(
        server, clients, make_window, dialogs, qtbot):
    """A right-drag from Alice's permanent onto Bob's panel: the host keeps the arrow and
    Bob is sent it; Alice's copy draws it; Table > Clear arrows takes it away."""
    from PySide6.QtWidgets import QApplication

    from tabletop.ui.items import ArrowItem
    w, bob = _alice_joins(server, clients, make_window, dialogs, qtbot)
    w.scene.animations = False
    land = next(o for o in objects_in(w, ("Alice", "hand")) if "Land" in o.card.types)
    w.c.drop(land.cid, "battlefield", "Alice")
    qtbot.waitUntil(lambda: any(o.controller == "Alice" for o in
                                objects_in(w, (None, "battlefield"))), timeout=10000)
    mine = next(o for o in objects_in(w, (None, "battlefield")))
    vp = w.view.viewport()
    start = w.view.mapFromScene(w.scene.item_for_cid(mine.cid).sceneBoundingRect().center())
    panel = w.scene.player_items["Bob"]
    end = w.view.mapFromScene(panel.sceneBoundingRect().center())
    QTest.mousePress(vp, Qt.RightButton, Qt.NoModifier, start)
    QTest.mouseMove(vp, (start + end) / 2)
    QTest.mouseMove(vp, end)
    QTest.mouseRelease(vp, Qt.RightButton, Qt.NoModifier, end)
    QApplication.processEvents()
    qtbot.waitUntil(lambda: len(w.c.board.arrows()) == 1, timeout=10000)
    arrow = w.c.board.arrows()[0]
    assert arrow.player == "Alice" and arrow.target_player == "Bob"
    qtbot.waitUntil(lambda: any(isinstance(i, ArrowItem) for i in w.scene.items()),
                    timeout=10000)
    bob.drain(0.5)
    assert [a[0] for a in bob.view["arrows"]] == ["Alice"] and bob.view["arrows"][0][2] == "Bob"
    _menu(w, "Clear").trigger()
    qtbot.waitUntil(lambda: not w.c.board.arrows(), timeout=10000)
    bob.drain(0.5)
    assert bob.view["arrows"] == []


def test_revealing_a_hand_and_an_ability_at_a_network_table(
        server, clients, make_window, dialogs, qtbot):
    """The hand's menu, Reveal the hand to Bob: Bob's log names the cards; the card's
    menu, an ability on the stack; the hand's menu, the whole hand into the library."""
    w, bob = _alice_joins(server, clients, make_window, dialogs, qtbot)
    names = sorted(o.card.name for o in objects_in(w, ("Alice", "hand")))
    hand_zone = w.scene.zone_items[("Alice", "hand")]
    menu = w.scene.zone_actions(hand_zone)
    reveal = next(a for a in menu.actions() if a.text() == "Reveal the hand to").menu()
    next(a for a in reveal.actions() if a.text() == "Bob").trigger()
    bob.drain(1.0)
    told = bob.view["log"][-1]["text"]
    assert told.startswith("Alice reveals") and all(n in told for n in names), told
    land = next(o for o in objects_in(w, ("Alice", "hand")) if "Land" in o.card.types)
    w.c.drop(land.cid, "battlefield", "Alice")
    qtbot.waitUntil(lambda: bool(objects_in(w, (None, "battlefield"))), timeout=10000)
    on_field = objects_in(w, (None, "battlefield"))[0]
    dialogs.expect("Ability", "Add one green mana")
    _card_menu(w, on_field.cid, "Put an ability of it on the stack…")
    qtbot.waitUntil(lambda: bool(objects_in(w, (None, "stack"))), timeout=10000)
    assert "Add one green mana" in objects_in(w, (None, "stack"))[0].card.name
    menu = w.scene.zone_actions(hand_zone)
    into = next(a for a in menu.actions() if a.text().startswith("Move all to")).menu()
    next(a for a in into.actions() if "library" in a.text().lower()).trigger()
    qtbot.waitUntil(lambda: not objects_in(w, ("Alice", "hand")), timeout=10000)
    bob.drain(0.5)
    assert _zone(bob.view, "Alice", "hand") == [] and len(_zone(bob.view, "Alice", "library")) == 39


def test_a_card_dropped_at_a_network_table_stays_where_it_was_let_go(
        server, clients, make_window, dialogs, qtbot):
    """The host answers with a new object; the window puts it where the card was
    dropped, not back in the rows, as at a table of one's own."""
    from PySide6.QtCore import QPointF
    w, _bob = _alice_joins(server, clients, make_window, dialogs, qtbot)
    w.scene.animations = False
    r = w.scene.zone_items[("Alice", "battlefield")].spot.rect
    target = QPointF(r.x + r.w * 0.8, r.y + r.h * 0.55)  # far right: not where rows begin
    land = next(o for o in objects_in(w, ("Alice", "hand")) if "Land" in o.card.types)
    drag(w.view, w.scene.item_for_cid(land.cid), target)
    qtbot.waitUntil(lambda: bool(objects_in(w, (None, "battlefield"))), timeout=10000)
    qtbot.waitUntil(lambda: w.scene.item_for_cid(
        objects_in(w, (None, "battlefield"))[0].cid) is not None, timeout=10000)
    item = w.scene.item_for_cid(objects_in(w, (None, "battlefield"))[0].cid)
    at = item.sceneBoundingRect().center()
    assert abs(at.x() - target.x()) < 30 and abs(at.y() - target.y()) < 30, (at, target)


def test_looking_at_and_searching_a_library_at_a_network_table(
        server, clients, make_window, dialogs, qtbot):
    """The library's menu, Look at the top N: the viewer shows the three cards once the
    host sends their faces (to Alice only); Table > Search your library: a card chosen
    from the whole library comes to hand and the library is shuffled."""
    from tabletop.cards import builtin
    w, bob = _alice_joins(server, clients, make_window, dialogs, qtbot)
    lib_zone = w.scene.zone_items[("Alice", "library")]
    dialogs.expect("Look at the top", "3")
    menu = w.scene.zone_actions(lib_zone)
    next(a for a in menu.actions() if a.text().startswith("Look at the top")).trigger()
    qtbot.waitUntil(lambda: bool(getattr(w.scene, "viewers", [])), timeout=10000)
    viewer = w.scene.viewers[-1]
    qtbot.waitUntil(lambda: viewer.cards.count() == 3 and all(builtin.lookup(
        viewer.cards.item(i).data(Qt.AccessibleTextRole)) is not None for i in range(3)),
        timeout=10000)
    bob.drain(0.5)
    assert all(c["hidden"] for c in _zone(bob.view, "Alice", "library"))
    assert "looks at the top 3" in bob.view["log"][-1]["text"]
    viewer.close()
    picked = {}

    def pick_first(dlg):
        picked["name"] = dlg.list.item(0).text()
        dlg.list.item(0).setCheckState(Qt.Checked)
        dlg.box.button(QDialogButtonBox.Ok).click()
    dialogs.answer("Search Alice's library", pick_first)
    _menu(w, "Search your library").trigger()
    qtbot.waitUntil(lambda: len(objects_in(w, ("Alice", "hand"))) == 8, timeout=10000)
    assert picked["name"] in [o.card.name for o in objects_in(w, ("Alice", "hand"))]
    qtbot.waitUntil(lambda: "shuffled" in w.c.board.journal[-1].text, timeout=10000)
    qtbot.waitUntil(lambda: all(isinstance(o, Hidden)  # shuffled: no face known any more
                                for o in objects_in(w, ("Alice", "library"))),
                    timeout=10000)


def test_a_card_from_the_sideboard_at_a_hosted_table(clients, make_window, dialogs, qtbot,
                                                       tmp_path, monkeypatch):
    """The host's window hosts a table with sideboards: Table > Your sideboard shows
    Alice's own cards (sent to her seat alone) and brings one into her hand."""
    from tabletop import paths
    from tabletop.cards import builtin, demo
    paths.set_data_dir(tmp_path / "data")
    t = demo.new_game(players=("Alice", "Bob"), seed=4)
    t.add_to_sideboard("Alice", builtin.lookup("Naturalize"))
    t.add_to_sideboard("Bob", builtin.lookup("Shock"))
    t.start_here()
    w = make_window(t, viewer="Alice")
    monkeypatch.setattr("tabletop.ui.network.local_addresses", lambda: ["127.0.0.1"])
    _host(dialogs, qtbot, w, 18766)
    _menu(w, "Your sideboard").trigger()
    dlg = w.playtest._sideboard  # kept open beside the table
    assert [dlg.list.item(i).data(Qt.UserRole) for i in range(dlg.list.count())] == \
        ["Naturalize"]
    dlg.list.setCurrentRow(0)
    dlg.bring.click()
    qtbot.waitUntil(lambda: "Naturalize" in [o.card.name for o in
                                             objects_in(w, ("Alice", "hand"))],
                    timeout=10000)
    qtbot.waitUntil(lambda: dlg.list.count() == 0, timeout=10000)
    dlg.reject()
    dialogs.expect("Stop hosting", "Yes")
    _menu(w, "Leave").trigger()


def test_a_seat_is_joined_with_its_invitation_typed_apart_and_not_without_it(
        server, clients, make_window, dialogs, qtbot):
    """File > Join a game as a person would who had the invitation read out: the room's
    address and code, the seat, and the invitation typed in its own field (any case,
    spaces); a seat asked for without it is refused with the server's reason."""
    room, code = _room(clients, server.url)

    def fill(invite):
        def answer(d):
            from PySide6.QtWidgets import QComboBox, QLineEdit
            edits = {e.placeholderText()[:5]: e for e in d.findChildren(QLineEdit)}
            edits["ws://"].setText(f"{server.url}/{room}/{code}")
            edits["XXXX-"].setText(invite)
            d.findChild(QComboBox).setCurrentText("Alice")
            _press_ok(d)
        return answer
    w = make_window(Table(("Zed",)), viewer="Zed")
    dialogs.expect("Network game", "OK")
    dialogs.answer("Join a game", fill(""))
    _menu(w, "Join a").trigger()
    qtbot.waitUntil(lambda: w.c.session is None and any(
        t == "Network game" for t, _, _ in dialogs.seen), timeout=10000)
    said = next(text for t, text, _ in dialogs.seen if t == "Network game")
    assert "needs its invitation" in said
    dialogs.answer("Join a game", fill(" ".join(INVITES[room]["Alice"].lower().split("-"))))
    _menu(w, "Join a").trigger()
    _seated(qtbot, w, "Alice")
    assert w.c.board.players == ("Alice", "Bob")


def test_an_invitation_code_alone_takes_its_seat_though_the_seat_said_spectator(
        server, clients, make_window, dialogs, qtbot):
    """A person read out the room and their invitation code types both and leaves
    "Your seat" as the dialog opened it (spectator): the code is one seat's, so the
    field empties itself as the code is typed, and the window sits at the code's seat
    (it sat them as a spectator, the invitation unused). Opened again, the dialog
    names that seat."""
    from PySide6.QtWidgets import QComboBox, QLineEdit
    room, code = _room(clients, server.url)
    seen = {}

    def answer(d):
        edits = {e.placeholderText()[:5]: e for e in d.findChildren(QLineEdit)}
        seat = d.findChild(QComboBox)
        seen["before"] = seat.currentText()
        edits["ws://"].setText(f"{server.url}/{room}")
        edits["the r"].setText(code)
        QTest.keyClicks(edits["XXXX-"], INVITES[room]["Bob"].lower().replace("-", " "))
        seen["after"] = seat.currentText()
        _press_ok(d)
    w = make_window(Table(("Zed",)), viewer="Zed")
    dialogs.answer("Join a game", answer)
    _menu(w, "Join a").trigger()
    _seated(qtbot, w, "Bob")
    assert seen == {"before": "spectator", "after": ""}
    assert w.c.viewer == "Bob" and w.c.board.players == ("Alice", "Bob")
    assert all(not isinstance(o, Hidden) for o in objects_in(w, ("Bob", "hand")))
    dialogs.expect("Leave the network game", "Yes")
    w.leave_action.trigger()
    qtbot.waitUntil(lambda: w.c.session is None, timeout=10000)

    def look(d):
        seen["again"] = d.findChild(QComboBox).currentText()
        d.reject()
    dialogs.answer("Join a game", look)
    _menu(w, "Join a").trigger()
    assert seen["again"] == "Bob"


def test_a_mistyped_invitation_code_is_refused_and_not_kept_for_next_time(
        server, clients, make_window, dialogs, qtbot):
    """A code typed wrong: the join is refused with the server's reason, and File > Join
    a game opens next time with the room's link but not the wrong code, its field open
    to type it again (it came back inside the link, with the code's field shut)."""
    from PySide6.QtWidgets import QComboBox, QLineEdit
    room, code = _room(clients, server.url)
    seen = {}

    def answer(d):
        edits = {e.placeholderText()[:5]: e for e in d.findChildren(QLineEdit)}
        edits["ws://"].setText(f"{server.url}/{room}/{code}")
        QTest.keyClicks(edits["XXXX-"], "AAAA-BBBB-CCCC")
        _press_ok(d)
    w = make_window(Table(("Zed",)), viewer="Zed")
    dialogs.expect("Network game", "OK")
    dialogs.answer("Join a game", answer)
    _menu(w, "Join a").trigger()
    qtbot.waitUntil(lambda: w.c.session is None and any(
        t == "Network game" for t, _, _ in dialogs.seen), timeout=10000)
    said = next(text for t, text, _ in dialogs.seen if t == "Network game")
    assert "no seat at this table has that invitation" in said

    def look(d):
        edits = {e.placeholderText()[:5]: e for e in d.findChildren(QLineEdit)}
        seen.update(link=edits["ws://"].text(), code_open=edits["XXXX-"].isEnabled(),
                    seat=d.findChild(QComboBox).currentText())
        d.reject()
    dialogs.answer("Join a game", look)
    _menu(w, "Join a").trigger()
    assert seen == {"link": f"{server.url}/{room}/{code}", "code_open": True,
                    "seat": "spectator"}


def test_an_opponent_looks_through_a_library_only_when_its_owner_allows_it(
        server, clients, make_window, dialogs, qtbot):
    """Bob asks to search Alice's library: Alice's Table talk dock asks her, with Allow
    and Refuse; a real click on Refuse keeps her library hidden from him, a click on
    Allow sends him its faces (and only him)."""
    from PySide6.QtTest import QTest
    w, bob = _alice_joins(server, clients, make_window, dialogs, qtbot)
    talk = w.network.talk
    bob.act("look", player="Alice")
    qtbot.waitUntil(lambda: talk.look.isVisible(), timeout=10000)
    assert talk.look_text.text() == "Bob asks to look at all of your library."
    assert talk.allow_look.isVisible() and talk.refuse_look.isVisible()
    QTest.mouseClick(talk.refuse_look, Qt.LeftButton)
    qtbot.waitUntil(lambda: not talk.look.isVisible(), timeout=10000)
    bob.drain(0.3)
    assert all(c["hidden"] for c in _zone(bob.view, "Alice", "library"))
    bob.act("look", player="Alice", count=2)
    qtbot.waitUntil(lambda: talk.look.isVisible(), timeout=10000)
    assert "the top 2 of your library" in talk.look_text.text()
    QTest.mouseClick(talk.allow_look, Qt.LeftButton)

    def faces():
        bob.drain(0.1)
        return [c.get("looked") for c in _zone(bob.view, "Alice", "library")[:3]]
    qtbot.waitUntil(lambda: faces() == [True, True, None], timeout=10000)
    # Alice's own window still shows her library face down: looking was Bob's
    assert all(isinstance(o, Hidden) for o in objects_in(w, ("Alice", "library")))


def test_cards_another_seat_reveals_open_in_a_window_and_places_are_shared(
        server, clients, make_window, dialogs, qtbot):
    """Bob reveals the top two of his library to everyone: Alice's window opens them,
    by name, from the host's view. A card Alice lets go on the battlefield is where
    Bob's view says it is."""
    from PySide6.QtCore import QPointF
    w, bob = _alice_joins(server, clients, make_window, dialogs, qtbot)
    bob.drain(0.5)
    top = _zone(bob.view, "Bob", "library")[:2]
    bob.act("show", ids=[c["id"] for c in top])
    qtbot.waitUntil(lambda: w.reveal_window is not None and w.reveal_window.isVisible(),
                    timeout=10000)
    names = w.reveal_window.names()
    assert len(names) == 2 and all(names) and "Bob reveals 2 cards" in \
        w.reveal_window.windowTitle()
    w.reveal_window.close()
    w.scene.animations = False
    r = w.scene.zone_items[("Alice", "battlefield")].spot.rect
    land = next(o for o in objects_in(w, ("Alice", "hand")) if "Land" in o.card.types)
    drag(w.view, w.scene.item_for_cid(land.cid), QPointF(r.x + r.w * 0.8, r.y + r.h * 0.5))
    qtbot.waitUntil(lambda: bool(objects_in(w, (None, "battlefield"))), timeout=10000)
    bob.drain(0.5)
    placed = _zone(bob.view, None, "battlefield")
    assert len(placed) == 1 and placed[0]["place"] is not None
    assert placed[0]["place"][0] > r.w * 0.6  # far to the right, for Bob too


def test_a_revealed_creature_is_drawn_in_a_clients_window_as_the_desk_draws_it(
        server, clients, make_window, dialogs, qtbot):
    """Bob reveals his library to everyone: in Alice's window (a network client, drawing
    what the host sent) each creature is drawn with its power and toughness, pixel for
    pixel as a table at the desk draws the same card (the window drew them without)."""
    from PySide6.QtGui import QImage

    from tabletop.cards import builtin
    from tabletop.engine import views
    from tabletop.ui.zone_viewer import card_pixmap
    w, bob = _alice_joins(server, clients, make_window, dialogs, qtbot)
    bob.drain(0.5)
    bob.act("show", ids=[c["id"] for c in _zone(bob.view, "Bob", "library")])
    qtbot.waitUntil(lambda: w.reveal_window is not None and w.reveal_window.isVisible(),
                    timeout=10000)
    shown = w.reveal_window.cards
    names = w.reveal_window.names()
    creatures = [i for i, name in enumerate(names) if builtin.lookup(name).is_type("Creature")]
    assert creatures, names  # (a demo deck: its creatures are among the cards revealed)
    for i in creatures:
        desk = Table(("Bob",))
        desk.add_card(builtin.lookup(names[i]), "Bob", "hand")
        face = views.face_of(desk, desk.objects_in(("Bob", "hand"))[0], views.JUDGE)
        assert face.card.power is not None and face.card.toughness is not None
        drawn = card_pixmap(face, 1.2).toImage().convertToFormat(QImage.Format.Format_ARGB32)
        icon = shown.item(i).icon().pixmap(drawn.size()).toImage()
        assert icon.convertToFormat(QImage.Format.Format_ARGB32) == drawn, names[i]
    w.reveal_window.close()


def test_a_host_from_before_card_changes_is_joined_with_whole_zones(qapp):
    """A host whose protocol does not know join's ``changes`` refuses the join as a bad
    frame: the window asks again without it, once; any other refusal ends the session."""
    from tabletop.ui.network import Invitation, Session

    class Conn:
        def __init__(self) -> None:
            self.sent: list[tuple[str, dict]] = []

        def send(self, kind: str, **fields) -> None:
            self.sent.append((kind, fields))

        def close(self) -> None:
            pass

    class Controller:
        class message:  # (the controller's signal)
            @staticmethod
            def emit(text: str) -> None:
                pass

    s = Session(Controller(), Invitation("ws://127.0.0.1:1", "r", "c", "Ann", "INV"), "Ann")
    ended: list[str] = []
    s.ended.connect(ended.append)
    s.conn = conn = Conn()
    s._opened()
    assert conn.sent[-1] == ("join", {"room": "r", "code": "c", "seat": "Ann",
                                      "changes": "cards", "invite": "INV"})
    s._received({"v": 1, "type": "error", "code": "bad-frame",
                 "message": "join: unknown field 'changes'"})
    assert conn.sent[-1] == ("join", {"room": "r", "code": "c", "seat": "Ann",
                                      "invite": "INV"})
    assert ended == []
    s._received({"v": 1, "type": "error", "code": "bad-frame", "message": "still no"})
    assert len(conn.sent) == 2 and ended == ["still no"]


def test_a_stranger_with_the_code_puts_one_question_at_a_time_to_the_host(
        make_window, dialogs, qtbot, tmp_path):
    """Someone with only the room code asks for Bob's seat from six connections at
    once: the host sees one question, and the others are told to ask again later
    (rate-limited), not six questions stacked on the screen. Left unanswered, the
    question leaves the screen when its time runs out; the asker is declined, and
    counted against its address like a wrong invitation."""
    import asyncio
    import json
    import threading

    import websockets

    from tabletop import paths
    from tabletop.cards import demo
    from tabletop.ui.network import Invitation
    paths.set_data_dir(tmp_path / "data")
    w = make_window(demo.new_game(players=("Alice", "Bob"), seed=4), viewer="Alice")
    dialogs.leave("A request to sit")  # the host looks away: nobody answers it
    _host(dialogs, qtbot, w, 18768)
    host = w.c.session.hosted
    host.server.limits.approve_timeout = 1.5
    asked = []
    host.requests.asked.connect(asked.append)
    invitation = Invitation.parse(w.network.talk.invitation)
    answers: list[dict] = []

    async def strangers():
        async def ask(i):
            async with websockets.connect("ws://127.0.0.1:18768/") as ws:
                await ws.send(json.dumps({"v": 1, "type": "join", "room": invitation.room,
                                          "code": invitation.code, "seat": "Bob", "rid": i}))
                answers.append(json.loads(await asyncio.wait_for(ws.recv(), 20)))
        await asyncio.gather(*(ask(i) for i in range(6)))
    thread = threading.Thread(target=lambda: asyncio.run(strangers()))
    thread.start()
    qtbot.waitUntil(lambda: len(answers) == 6, timeout=20000)
    thread.join(5)
    codes = sorted(a.get("code") for a in answers)
    assert codes == ["declined"] + ["rate-limited"] * 5, answers
    assert len(asked) == 1 and "Bob" in asked[0][0]
    qtbot.waitUntil(lambda: not w.network._asking, timeout=5000)
    from PySide6.QtWidgets import QApplication, QMessageBox
    assert not [b for b in QApplication.topLevelWidgets() if isinstance(b, QMessageBox)
                and b.isVisible() and b.windowTitle() == "A request to sit"]
    assert len(host.server.guesses.seen[asked[0][1]]) == 1  # the declined one
    dialogs.expect("Stop hosting", "Yes")
    w.leave_action.trigger()


def test_the_join_dialog_shows_the_seat_a_links_invitation_takes(qtbot):
    """A player pastes the link the host gave them (``?seat=Bob&invite=…``): the seat
    field says Bob, as the link decides, and waits with the invitation code's field;
    a link without a seat gives the field back (the last seat chosen stays there)."""
    from tabletop.ui.network import JoinDialog
    dlg = JoinDialog(None, "", "spectator")
    qtbot.addWidget(dlg.dialog)
    assert dlg.seat.currentText() == "spectator" and dlg.seat.isEnabled()
    dlg.invitation.setText("ws://10.0.0.5:8765/ab12cd34/528Y4E6Z?seat=Bob&invite=PE2W-UZ54-9K2X")
    assert dlg.seat.currentText() == "Bob"
    assert not dlg.seat.isEnabled() and not dlg.invite.isEnabled()
    dlg.invitation.setText("ws://10.0.0.5:8765/ab12cd34/528Y4E6Z")
    assert dlg.seat.isEnabled() and dlg.invite.isEnabled()
    dlg.invitation.setText("not a link at all")
    assert dlg.seat.isEnabled()
    # typed letter by letter, the link's seat is shown as it grows, and the list of seats
    # to choose from gains none of its beginnings
    items = [dlg.seat.itemText(i) for i in range(dlg.seat.count())]
    dlg.invitation.clear()
    for ch in "ws://10.0.0.5:8765/ab12cd34/528Y4E6Z?seat=Carol":
        dlg.invitation.insert(ch)
    assert dlg.seat.currentText() == "Carol"
    assert [dlg.seat.itemText(i) for i in range(dlg.seat.count())] == items
    # opened again with the last link used, the seat it names is shown at once
    again = JoinDialog(None, "ws://10.0.0.5:8765/ab12cd34/528Y4E6Z?seat=Alice&invite=X",
                       "spectator")
    qtbot.addWidget(again.dialog)
    assert again.seat.currentText() == "Alice" and not again.seat.isEnabled()


def test_a_host_of_an_earlier_version_is_asked_for_the_seat_by_name(make_window):
    """A host from before a join could leave out the seat refuses the join as a bad
    frame: the window says what to do (name the seat), not the frame's words."""
    from tabletop.net import protocol
    from tabletop.ui.network import Invitation, Session
    w = make_window(Table(("Zed",)), viewer="Zed")
    s = Session(w.c, Invitation("ws://127.0.0.1:9/", "r", "c", "", "AAAA-BBBB-CCCC"), "")
    said = []
    s.ended.connect(said.append)
    s.card_changes = False  # (its retry without `changes` made)
    s._take({"type": "error", "code": protocol.Code.BAD_FRAME,
             "message": "join: field 'seat' is missing"})
    assert len(said) == 1 and "earlier version" in said[0] and "choose your seat" in said[0]


def test_a_link_pasted_into_a_code_field_goes_where_links_go(qtbot):
    """The whole invitation pasted into the invitation code's field (or the room
    code's), as people paste into the first box that asks for a code: it moves to the
    Invitation field, whose seat the seat field then shows."""
    from PySide6.QtGui import QGuiApplication

    from tabletop.ui.network import JoinDialog
    link = "ws://10.0.0.5:8765/ab12cd34/528Y4E6Z?seat=Bob&invite=PE2W-UZ54-9K2X"
    for field in ("invite", "code"):
        dlg = JoinDialog(None, "", "spectator")
        qtbot.addWidget(dlg.dialog)
        QGuiApplication.clipboard().setText(link)
        target = getattr(dlg, field)
        target.setFocus()
        target.paste()  # (Ctrl+V: the field's own paste)
        assert dlg.invitation.text() == link and target.text() == ""
        assert dlg.seat.currentText() == "Bob" and not dlg.invite.isEnabled()
