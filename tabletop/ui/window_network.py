"""Network play commands of the main window: File > Host a game, Join a game and Leave
the network game, and the Table talk dock (ui/network.py does the work)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from tabletop.ui import settings

if TYPE_CHECKING:
    from tabletop.ui.window_parts import Window
    from tabletop.ui.window_playtest import PlaytestCommands


class NetworkCommands:
    """The network commands of a main window ``w``, which its menus call."""

    def __init__(self, w: Window, playtest: PlaytestCommands) -> None:
        self.w = w
        self.playtest = playtest  # a new game from decks, to host
        self._talk_part: Any = None
        self._before_session: Any = None  # the local game to come back to: (table, viewer, path)
        self._hosted_room: Any = None
        self._asking: dict[int, Any] = {}  # requests to sit on screen: their questions
        self.talk_dock: Any = None  # made with the dock's contents
        self._talk_need = 0  # the height the dock's lines last needed (_room_for_talk)

    # ---- the dock ------------------------------------------------------------------------
    @property
    def talk(self) -> Any:
        """The Table talk dock's contents, made the first time network play is used."""
        if self._talk_part is None:
            from PySide6.QtCore import Qt

            from tabletop.ui.network import TableTalk
            self._talk_part = TableTalk(self.w)
            self.talk_dock = self.w._dock("Table talk", self._talk_part.widget,
                                        Qt.DockWidgetArea.RightDockWidgetArea)
            self.w.tabifyDockWidget(self.w.log_dock, self.talk_dock)
        return self._talk_part

    # ---- hosting and joining --------------------------------------------------------------
    def host_game(self) -> None:
        from tabletop import paths
        from tabletop.ui import dialogs
        from tabletop.ui.network import DEFAULT_PORT, Host, HostDialog
        if self.w.c.session is not None:
            self.w.show_message("You are at a network table already.")
            return
        host = Host(paths.data_dir() / "hosted")  # with any game a crash left hosted
        port = int(settings.value("net/port", DEFAULT_PORT) or DEFAULT_PORT)
        for left in list(host.server.rooms.values()):
            t = left.table
            answer = dialogs.choose(
                self.w.window(), "Resume hosting?",
                f"A game you hosted did not end: {', '.join(t.players)}, turn {t.turn}. "
                f"Resume it on port {port}? The players rejoin with the invitation they "
                f"have.", ["Resume it", "Discard it"])
            if answer is None:
                return
            if answer == "Resume it":
                seat = str(settings.value(f"net/host_seat/{left.id}", "") or t.players[0])
                self._host(host, left, seat, port)
                return
            host.server.forget_now(left.id)
        dlg = HostDialog(self.w.window(), list(self.w.c.board.players), port)
        if not dlg.dialog.exec():
            return
        table, seat = self.w.c.hand_over(), dlg.seat.currentData()
        if dlg.what.currentData() == "decks":
            if not self.w.confirm_discard("host a new game"):
                return
            dealt = self.playtest.game_from_decks()
            if dealt is None:
                return
            table = dealt
            if seat != "spectator":  # the seat of the same place at the new table
                seat = table.players[min(dlg.seat.currentIndex(), len(table.players) - 1)]
        room = host.server.open_table_now(table, dlg.judge.isChecked())  # the host's from now
        settings.set_value(f"net/host_seat/{room.id}", seat)
        self._host(host, room, seat, dlg.port.value())

    def _host(self, host: Any, room: Any, seat: str, port: int) -> None:
        """Listen, announce, and take ``seat`` at ``room`` like any other player."""
        import socket

        from tabletop.ui.network import Invitation, local_addresses
        try:
            port = host.start("0.0.0.0", port)
        except OSError as e:
            self.w.error("Cannot host the game", f"{e}\n\nAnother program may use that port: "
                                               f"try another one.")
            return
        settings.set_value("net/port", port)
        self._hosted_room = room
        self._before_session = None
        shown = Invitation(f"ws://{local_addresses()[0]}:{port}/", room.id, room.code)
        here = Invitation(f"ws://127.0.0.1:{port}/", room.id, room.code)
        if seat in room.invites:
            here = here.for_seat(seat, room.invites[seat])
        invitations = {s: str(shown.for_seat(s, i)) for s, i in room.invites.items()
                       if s != seat}
        invitations["spectator"] = str(shown)
        host.requests.asked.connect(self._seat_request)
        host.requests.withdrawn.connect(self._seat_request_withdrawn)
        self._sit(here, seat, token=_tokens().get(f"{here.place}|{seat}"), hosted=host,
                  shown=invitations)
        unannounced = host.announce(f"{socket.gethostname()}'s table", room)
        self.w.show_message("Hosting: give each player their own invitation (Table talk, "
                          "Invitation for…)" + (f" ({unannounced})" if unannounced else ""))

    def _seat_request(self, request: Any) -> None:
        """Someone asks for a player's seat without its invitation: the host says yes or
        no (a dialog that does not stop the game)."""
        from PySide6.QtCore import Qt
        from PySide6.QtWidgets import QMessageBox
        seat, address, reply = request
        box = QMessageBox(QMessageBox.Icon.Question, "A request to sit",
                          f"Someone at {address} asks to take {seat}'s seat without its "
                          f"invitation. Let them sit?", QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self.w.window())
        box.setTextFormat(Qt.TextFormat.PlainText)  # the seat's name came from the network
        box.setDefaultButton(QMessageBox.StandardButton.No)
        box.finished.connect(lambda result: reply(result == QMessageBox.StandardButton.Yes))
        box.finished.connect(lambda _result: self._asking.pop(id(reply), None))
        self._asking[id(reply)] = box
        box.open()

    def _seat_request_withdrawn(self, reply: Any) -> None:
        """A request to sit no longer waits (its time ran out, its client left): its
        question leaves the host's screen."""
        box = self._asking.pop(id(reply), None)
        if box is not None:
            box.reject()

    def join_game(self) -> None:
        from tabletop.engine.errors import TabletopError
        from tabletop.net.rooms import SPECTATOR
        from tabletop.ui.network import Invitation, JoinDialog
        if self.w.c.session is not None:
            self.w.show_message("You are at a network table already: leave it first.")
            return
        if not self.w.confirm_discard("join a network game"):
            return
        dlg = JoinDialog(self.w.window(), str(settings.value("net/invitation", "") or ""),
                         str(settings.value("net/seat", "") or ""))
        if not dlg.dialog.exec():
            return
        try:
            invitation = Invitation.parse(dlg.invitation.text(), dlg.code.text())
        except TabletopError as e:
            self.w.error("Cannot join the game", str(e))
            return
        # a seat's own invitation names its seat
        seat = invitation.seat or dlg.seat.currentText().strip()
        typed = "".join(dlg.invite.text().split())
        if typed and not invitation.invite:  # the invitation read out, typed apart
            invitation = invitation.for_seat(invitation.seat, typed)
        if invitation.invite and not invitation.seat:
            if seat == SPECTATOR:  # (a spectator needs none: the invitation's seat is meant)
                seat = ""
            invitation = invitation.for_seat(seat, invitation.invite)
        if not seat and not invitation.invite:
            self.w.error("Cannot join the game", "Which seat? A player's name, or spectator "
                         "(or give your seat's invitation code).")
            return
        # kept for next time: a code typed here only once it has seated someone (a
        # mistyped one, kept in the link, would come back with its field shut)
        settings.set_value("net/invitation", str(invitation.for_seat(invitation.seat, "")
                                                 if typed else invitation))
        settings.set_value("net/seat", seat)
        self._before_session = (self.w.c.hand_over(), self.w.c.viewer, self.w.path)
        self._hosted_room = None
        self._sit(invitation, seat, token=_tokens().get(f"{invitation.place}|{seat}")
                  if seat else None)
        self.w.show_message(f"Joining {invitation.url} as "
                            f"{seat or 'the seat of your invitation'}…")

    def _sit(self, invitation: Any, seat: str, token: str | None = None, hosted: Any = None,
             shown: dict[str, str] | None = None) -> None:
        from tabletop.ui.network import Session
        s = Session(self.w.c, invitation, seat, token, hosted)
        s.on_token = _keep_token if hosted is None else _keep_host_token
        talk = self.talk
        talk.session = s
        talk.invitations = dict(shown or {})
        s.changed.connect(talk.refresh)
        s.changed.connect(self.w._update_undo)
        s.ended.connect(self._session_ended)
        self.w.c.session = s
        self.w.path = None
        s.start()
        self.talk_dock.show()
        self.talk_dock.raise_()
        self._network_controls()
        talk.refresh()
        from PySide6.QtCore import QTimer
        self._talk_need = 0
        # (timers that go with the window if it goes first)
        s.changed.connect(lambda: QTimer.singleShot(0, self.w.window(), self._room_for_talk))
        QTimer.singleShot(0, self.w.window(), self._room_for_talk)

    def _room_for_talk(self) -> None:
        """On a short screen, the Table talk dock is given the height its lines need (the
        seat, the invitation, who is at the table, a request, the entry line), the chat
        list keeping what is left, two lines at least; only as its lines grow (a seat
        taken, a request): a dock the person made shorter is not made taller again at
        each change."""
        dock, part = self.talk_dock, self._talk_part
        if dock is None or part is None or not dock.isVisible():
            return
        need = self.w.dock_room(dock, part.lines)
        grew, self._talk_need = need > self._talk_need, need
        if grew:
            self.w.give_room(dock, need)

    def leave_game(self) -> None:
        from tabletop.ui import dialogs
        s = self.w.c.session
        if s is None:
            self.w.show_message("You are not at a network table.")
            return
        if s.hosted is not None and not dialogs.ask(
                self.w.window(), "Stop hosting?", "The other players lose the table. The game comes "
                "back to this window as it stands, every card in it."):
            return
        self._end_session()
        self.w.show_message("You left the network table.")

    def _session_ended(self, why: str) -> None:
        joined = self.w.c.session is not None and self.w.c.session.ever_joined
        self._end_session()
        self.w.error("Network game", ("The network game ended: " if joined else
                                    "Cannot join the game: ") + why)

    def _end_session(self) -> None:
        s, self.w.c.session = self.w.c.session, None
        if s is None:
            return
        s.leave()
        self.talk.session = None
        self.talk.invitations = {}
        room, before = self._hosted_room, self._before_session
        self._hosted_room = self._before_session = None
        if room is not None:  # the host gets the game back, whole; the server forgets it
            if s.hosted is not None:
                s.hosted.server.forget_now(room.id)
                s.hosted.server.close()
            self.w.c.viewer = room.table.players[0] if s.seat not in room.table.players \
                else s.seat
            self.w.c.set_table(room.table, dirty=True)
        elif before is not None:
            table, viewer, path = before
            self.w.c.viewer = viewer
            self.w.c.set_table(table)
            self.w.path = path
        self._network_controls()
        self.talk.refresh()

    def _network_controls(self) -> None:
        """At a network table the seat is fixed and the host's edition rules."""
        local = self.w.c.session is None
        self.w.edition_box.setEnabled(local)
        self.w.viewpoint_box.setEnabled(local)
        if self.w._menus_built:  # else the menus are made with these set
            self.w.viewpoint_menu.setEnabled(local)
            self.w.leave_action.setEnabled(not local)


def _tokens() -> dict[str, str]:
    try:
        d = json.loads(str(settings.value("net/tokens", "{}") or "{}"))
    except ValueError:
        return {}
    return {str(k): str(v) for k, v in d.items()} if isinstance(d, dict) else {}


def _keep_host_token(invitation: Any, seat: str, token: str) -> None:
    """A seat's token, kept so that this computer rejoins the seat after a crash."""
    tokens = _tokens()
    tokens[f"{invitation.place}|{seat}"] = token
    settings.set_value("net/tokens", json.dumps(dict(list(tokens.items())[-50:])))


def _keep_token(invitation: Any, seat: str, token: str) -> None:
    """As ``_keep_host_token``, and the invitation that seated this computer, with its
    seat, for File > Join a game to offer next time."""
    _keep_host_token(invitation, seat, token)
    if invitation.invite:
        settings.set_value("net/invitation", str(invitation.for_seat(seat, invitation.invite)))
        settings.set_value("net/seat", seat)
