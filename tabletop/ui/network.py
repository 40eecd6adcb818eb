"""Network play in the window: hosting a game, joining one, and the seat's connection.

The host's engine is the only one: a window at a networked table draws the view the
host sent its seat, as it came (the session's board, net/mirror.py), and each
intent made at it goes to the host as the protocol's ``act`` (the session's
``RemotePort``, ui/ports.py). The
connection runs the ``websockets`` client on a thread of its own; each message
reaches the window as a Qt signal, on the window's thread. A hosted game runs the
same server as ``tabletop serve`` on another thread, and the host's window joins it
like every other seat."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from PySide6.QtCore import QObject, QTimer, Signal

from tabletop.engine import Result, intents, views
from tabletop.engine.errors import InputError, TabletopError
from tabletop.engine.state import LogEntry
from tabletop.net import client, mirror, protocol
from tabletop.net.rooms import JUDGE_SEAT, SPECTATOR, Room
from tabletop.ui import gui_collector
from tabletop.ui.ports import RemotePort

DEFAULT_PORT = 8765
RETRIES = (1, 2, 4, 8, 15)  # seconds between attempts to rejoin after a drop


@dataclass(frozen=True)
class Invitation:
    """Where a game is and how to get in: ``ws://HOST:PORT/ROOM/CODE`` (``wss://`` for
    a server behind a TLS proxy), and for a player's or the judge's seat
    ``?seat=NAME&invite=XXXX-XXXX-XXXX``: that seat's own invitation."""

    url: str  # the WebSocket address
    room: str
    code: str
    seat: str = ""  # the seat this invitation is for ("": watch, or ask the host)
    invite: str = ""  # that seat's invitation

    def __str__(self) -> str:
        base = f"{self.url.rstrip('/')}/{self.room}/{self.code}"
        asked = {k: v for k, v in (("seat", self.seat), ("invite", self.invite)) if v}
        if asked:  # (an invitation without its seat's name: the server knows whose it is)
            from urllib.parse import urlencode
            base += "?" + urlencode(asked)
        return base

    @property
    def place(self) -> str:
        """The room, without a seat's invitation (what a seat's token is kept under)."""
        return f"{self.url.rstrip('/')}/{self.room}/{self.code}"

    def for_seat(self, seat: str, invite: str) -> Invitation:
        return Invitation(self.url, self.room, self.code, seat, invite)

    @classmethod
    def parse(cls, text: str, code: str = "") -> Invitation:
        """From ``ws://HOST:PORT/ROOM/CODE`` (with its seat's query, if any), or
        ``ws://HOST:PORT/ROOM`` and the code apart (a game found on the network comes
        without its code)."""
        from urllib.parse import parse_qs
        text = text.strip()
        code = "".join(code.split())
        text, _, query = text.partition("?")
        if code and text.rstrip("/").count("/") == 3:  # scheme://host/ROOM: add the code
            text = f"{text.rstrip('/')}/{code}"
        if "://" not in text:
            text = "ws://" + text
        try:
            parts = urlsplit(text)
            port = parts.port
        except ValueError:
            raise InputError(f"not an invitation: {text[:80]!r}") from None
        path = [p for p in parts.path.split("/") if p]
        if parts.scheme not in ("ws", "wss") or not parts.hostname or len(path) != 2:
            raise InputError("an invitation looks like ws://192.168.1.20:8765/ROOM/CODE "
                             "(the host's window shows it); a game found on the network "
                             "needs its room code too")
        host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
        where = f"{host}:{port}" if port else host
        asked = parse_qs(query)
        seat = (asked.get("seat") or [""])[0][:40]
        invite = (asked.get("invite") or [""])[0][:40]
        if seat == SPECTATOR and invite:  # (a spectator needs none: the invite's seat)
            seat = ""
        return cls(f"{parts.scheme}://{where}/", path[0], path[1], seat, invite)


class Connection(QObject):
    """One WebSocket connection, read on a thread of its own."""

    opened = Signal()
    received = Signal(object)  # a message (a dict)
    ended = Signal(str)  # why, when the connection ended without being closed here

    def __init__(self, url: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.url = url
        self.ws: Any = None
        self.closing = False
        self._thread: threading.Thread | None = None

    def open(self) -> None:
        gui_collector.on_gui_thread()
        self._thread = threading.Thread(target=self._run, name="tabletop-connection",
                                        daemon=True)
        self._thread.start()

    def _run(self) -> None:
        from websockets.sync.client import connect
        why = "the host closed the connection"
        try:
            # close_timeout: leaving never waits long on the window's thread for a host
            # that does not answer the closing handshake
            with connect(self.url, open_timeout=5, close_timeout=1, max_size=8 * 1024 * 1024,
                         compression=None, proxy=None) as ws:
                self.ws = ws
                self.opened.emit()
                for frame in ws:
                    try:
                        msg = json.loads(frame)
                    except ValueError:
                        continue
                    if isinstance(msg, dict):
                        self.received.emit(msg)
        except client.failures() as e:  # refused, unreachable, timed out, dropped
            why = _why(e)
        finally:
            self.ws = None
        if not self.closing:
            self.ended.emit(why)

    def send(self, kind: str, /, **fields: Any) -> bool:
        ws = self.ws
        if ws is None:
            return False
        try:
            ws.send(json.dumps({"v": protocol.VERSION, "type": kind, **fields}))
        except client.failures():
            return False
        return True

    def close(self) -> None:
        self.closing = True
        ws = self.ws
        if ws is not None:
            with contextlib.suppress(*client.failures()):  # closing a dropped connection
                ws.close()
        if self._thread is not None:
            self._thread.join(timeout=2)


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _why(e: BaseException) -> str:
    text = str(e) or type(e).__name__
    if isinstance(e, ConnectionRefusedError):
        return "nobody answers at that address (is the game still hosted?)"
    if isinstance(e, TimeoutError):
        return "the host did not answer in time"
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    return text[:200]


class Session(QObject):
    """This window's seat at a networked table: its connection, the newest view the
    host sent, and the intentions it sends."""

    changed = Signal()  # the view changed (chat, who is connected, an undo request)
    ended = Signal(str)  # the session is over for good (why)
    refused = Signal(str)  # the host refused an intention of this seat (its words)

    def __init__(self, controller: Any, invitation: Invitation, seat: str,
                 token: str | None = None, hosted: Host | None = None) -> None:
        super().__init__()
        self.c = controller
        self.invitation = invitation
        self.seat = seat
        self.token = token
        self.hosted = hosted
        self.view: dict[str, Any] | None = None
        self.board: mirror.SentBoard | None = None  # what the window draws: the view read
        self.journal: list[LogEntry] = []  # the log lines the host has sent so far
        self.connected = False
        self.joined = False  # seated on the connection open now
        self.ever_joined = False  # seated once: a drop is rejoined, not given up
        self._tries = 0
        self._shape: tuple[Any, ...] | None = None
        self.conn: Connection | None = None
        # called with (invitation, seat, token) when a seat is taken
        self.on_token: Callable[[Invitation, str, str], None] | None = None
        self.port = RemotePort(self)  # where the controller's intents go meanwhile
        # sent only the cards that change (join's ``changes``), unless the host is of a
        # version that does not know the field: it refuses the join, which is asked again
        self.card_changes = True

    # ---- the connection ---------------------------------------------------------------
    def start(self) -> None:
        self.conn = Connection(self.invitation.url, self)
        self.conn.opened.connect(self._opened)
        self.conn.received.connect(self._received)
        self.conn.ended.connect(self._lost)
        self.conn.open()

    def _opened(self) -> None:
        self.connected = True
        fields: dict[str, Any] = {"room": self.invitation.room, "code": self.invitation.code}
        if self.seat:  # (none: the seat the invitation is for, which `joined` names)
            fields["seat"] = self.seat
        if self.card_changes:  # each zone's order of ids and the cards that changed
            fields["changes"] = protocol.Changes.CARDS
        if self.token:
            fields["token"] = self.token
        elif self.invitation.invite and self.invitation.seat == self.seat:
            fields["invite"] = self.invitation.invite
        assert self.conn is not None
        self.conn.send("join", **fields)

    def _lost(self, why: str) -> None:
        self.connected = self.joined = False
        if not self.ever_joined:  # never got in: say why, and that is all
            self.stop()
            self.ended.emit(why)
            return
        if self._tries >= len(RETRIES):
            self.stop()
            self.ended.emit(f"the connection to the host is lost ({why})")
            return
        wait = RETRIES[self._tries]
        self._tries += 1
        self.c.message.emit(f"The connection to the host dropped ({why}): trying again in "
                            f"{wait} s…")
        self.changed.emit()
        QTimer.singleShot(wait * 1000, self._again)

    def _again(self) -> None:
        if self.c.session is self:
            self.start()

    def stop(self) -> None:
        conn, self.conn = self.conn, None
        if conn is not None:
            conn.close()
        self.connected = self.joined = False

    def leave(self) -> None:
        self.stop()
        if self.hosted is not None:
            self.hosted.stop()

    # ---- what the host sends --------------------------------------------------------------
    def _received(self, msg: dict[str, Any]) -> None:
        try:
            self._take(msg)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError,
                TabletopError) as e:  # a host that is not a Tabletop host, or a hostile one
            self.stop()
            self.ended.emit(f"the host sent what this window cannot read "
                            f"({type(e).__name__}: {str(e)[:100]})")

    def _take(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "joined":
            self.joined = self.ever_joined = True
            self._tries = 0
            self.seat = str(msg.get("seat", self.seat))
            if msg.get("token"):
                self.token = str(msg["token"])
                if self.on_token is not None:
                    self.on_token(self.invitation, self.seat, self.token)
        elif kind == "view":
            self.view = msg
            self.journal = [mirror.log_entry(line) for line in msg["log"]]
            self._draw()
        elif kind == "update" and self.view is not None:
            mirror.merge(self.view, msg)
            self.journal.extend(mirror.log_entry(line) for line in msg["log"])
            del self.journal[:-protocol.LOG_LINES * 5]  # (a long game's oldest go)
            self._draw()
            journal = self.journal
            if msg.get("log") and journal and self.board is not None:
                from tabletop.ui.inspector import said  # the newest line in the status bar
                last = journal[-1]
                text, cites, _ = last.told(self.c.viewer)
                if text:
                    self.c.message.emit(said(last, text, cites, self.board.edition))
        elif kind == "ended":  # the host stopped: no rejoining
            self.stop()
            self.ended.emit(str(msg.get("message", "the game ended")))
        elif kind == "error":
            text = str(msg.get("message", ""))
            if not self.ever_joined and self.card_changes and not self.joined \
                    and msg.get("code") == protocol.Code.BAD_FRAME:
                self.card_changes = False  # a host from before ``changes``: whole zones
                self._opened()
                return
            if not self.ever_joined:
                if not self.seat and msg.get("code") == protocol.Code.BAD_FRAME:
                    text = ("this host is of an earlier version, which needs your seat's "
                            "name with the invitation code: join again and choose your "
                            "seat (the host tells you which)")
                self.stop()
                self.ended.emit(text)
            else:
                self.c.message.emit(f"The host: {text}")
                self.refused.emit(text)

    def _draw(self) -> None:
        assert self.view is not None
        viewer = Room.viewer(self.seat)
        board = mirror.SentBoard(self.view, viewer, self.journal)
        shape = (board.players, board.edition.id, viewer)
        self.board = board
        self.c.viewer = viewer
        self.c.show_sent(first=shape != self._shape)
        self._shape = shape
        self.changed.emit()

    # ---- what this seat does ----------------------------------------------------------------
    # what the dock shows, read defensively: a host's view is checked where it is drawn
    @property
    def chat(self) -> list[tuple[str, str]]:
        lines = _list((self.view or {}).get("chat"))
        return [(str(x[0]), mirror.said(x[1])) for x in lines
                if isinstance(x, list) and len(x) == 2]

    @property
    def present(self) -> list[str]:
        return [str(s) for s in _list((self.view or {}).get("connected"))]

    @property
    def undo_request(self) -> dict[str, Any] | None:
        req = (self.view or {}).get("undo_request")
        if not isinstance(req, dict):
            return None
        return {"by": str(req.get("by", "")),
                "agreed": [str(a) for a in _list(req.get("agreed"))]}

    @property
    def shown(self) -> tuple[int, views.Shown] | None:
        """Cards the host says the last action revealed to this seat: (the action's
        number, what a reveal window draws), or None."""
        d = (self.view or {}).get("shown")
        got = mirror.shown_of(d)
        if got is None or not isinstance(d, dict):
            return None
        action = d.get("action")
        return (action if isinstance(action, int) else 0), got

    @property
    def look_request(self) -> dict[str, Any] | None:
        """A player asking to look through another's library: {by, whose, count}."""
        req = (self.view or {}).get("look_request")
        if not isinstance(req, dict):
            return None
        count = req.get("count")
        return {"by": str(req.get("by", "")), "whose": str(req.get("whose", "")),
                "count": count if isinstance(count, int) else None}

    def wait(self, done: Any, seconds: float = 10.0) -> bool:
        """Keep the window running until ``done()`` is true of the copy (the host's answer
        has come and been drawn), the host refuses, the session ends or the time is up;
        whether ``done()``. For a tool that goes on from what the host made (a mulligan's
        new hand)."""
        from PySide6.QtCore import QEventLoop
        if done():
            return True
        loop = QEventLoop()
        timer = QTimer()
        timer.setSingleShot(True)
        timer.timeout.connect(loop.quit)

        def check() -> None:
            if done():
                loop.quit()
        links = [(self.changed, check), (self.ended, loop.quit), (self.refused, loop.quit)]
        for signal, slot in links:
            signal.connect(slot)
        timer.start(int(seconds * 1000))
        loop.exec()
        timer.stop()
        for signal, slot in links:
            signal.disconnect(slot)
        return bool(done())

    def say(self, text: str) -> None:
        text = text.strip()[:protocol.MAX_TEXT]
        if text and not self._send("chat", text=text):
            self.c.message.emit("Not connected to the host: the line was not sent.")

    def answer_undo(self, agree: bool) -> None:
        self._act("agree_undo" if agree else "refuse_undo")

    def answer_look(self, agree: bool) -> None:
        """Let the player who asked look through this seat's library, or not."""
        self._act("agree_look" if agree else "refuse_look")

    def _send(self, kind: str, /, **fields: Any) -> bool:
        return self.conn is not None and self.joined and self.conn.send(kind, **fields)

    def _act(self, action: str, **fields: Any) -> Result:
        if self.seat == SPECTATOR:
            self.c.message.emit("A spectator watches: only the players act.")
        elif not self._send("act", action=action, **fields):
            self.c.message.emit("Not connected to the host: nothing was sent.")
        return Result(())  # the host answers with a new view

    def send_intent(self, intent: intents.Intent) -> Result:
        """An intent of this seat's, to the host as the protocol's ``act`` (its cards
        named by the ids the host sent: those of the copy on screen)."""
        fields = intent.encode()
        return self._act(fields.pop("action"), **fields)


class SeatRequests(QObject):
    """Requests to take a player's seat without its invitation, from the server's
    thread to the window's: each is (seat, address, answer), answer(True) lets them sit."""

    asked = Signal(object)
    # a request no longer waiting for an answer (its time ran out, or its client went):
    # the ``answer`` function of the request it was
    withdrawn = Signal(object)


class Host:
    """A game hosted from this window: the server of ``tabletop serve`` on a thread of
    its own, with one room holding the table the window had. A client asking for a
    player's seat without that seat's invitation waits for the host's answer."""

    def __init__(self, folder: Path | None) -> None:
        from tabletop.net.server import Server
        self.server = Server(folder)
        self.requests = SeatRequests()
        self.port = 0
        self.address = ""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Future[None] | None = None
        self._thread: threading.Thread | None = None
        self.error: str | None = None
        self.announcement: Any = None

    def start(self, address: str = "0.0.0.0", port: int = DEFAULT_PORT) -> int:
        """Listen on ``address``:``port`` (0: any free port); the port, or OSError."""
        ready = threading.Event()

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            try:
                loop.run_until_complete(self._serve(address, port, ready))
            except OSError as e:
                self.error = e.strerror or str(e)
            finally:
                ready.set()
                loop.close()
        gui_collector.on_gui_thread()
        # (taken back in stop: the server holding the host, the host the server, with
        # the host's Qt object for requests, would be a cycle for Python's collector)
        self.server.approver = self._approve
        self._thread = threading.Thread(target=run, name="tabletop-host", daemon=True)
        self._thread.start()
        ready.wait(10)
        if self.error is not None or not self.port:
            raise OSError(f"cannot listen on port {port}: {self.error or 'no answer'}")
        self.address = address
        return self.port

    async def _approve(self, room: Room, seat: str, address: str) -> bool:
        """Ask the window whether the client at ``address`` may take ``seat``."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[bool] = loop.create_future()

        def settle(yes: bool) -> None:
            if not answer.done():
                answer.set_result(yes)

        def reply(yes: bool) -> None:
            if not loop.is_closed():
                loop.call_soon_threadsafe(settle, bool(yes))
        self.requests.asked.emit((seat, address, reply))
        try:
            return await answer
        finally:
            if not answer.done() or answer.cancelled():  # nobody waits for it now
                self.requests.withdrawn.emit(reply)

    async def _serve(self, address: str, port: int, ready: threading.Event) -> None:
        from websockets.asyncio.server import serve as ws_serve
        self._stop = asyncio.get_running_loop().create_future()
        self.server.attach()  # frames leave as soon as the disk has their change
        keeper = asyncio.ensure_future(self.server.keep())
        async with ws_serve(self.server.handler, address, port,
                            **self.server.ws_options()) as ws_server:
            self.port = next(iter(ws_server.sockets)).getsockname()[1]
            ready.set()
            try:
                await self._stop
            finally:
                keeper.cancel()
                self.server.detach()

    def announce(self, title: str, room: Room) -> str | None:
        """Announce the game on the local network (mDNS); None, or why it could not."""
        from tabletop.net import discovery
        if not discovery.enabled():
            return None
        try:
            # announced where it is announced (all interfaces: this machine's addresses)
            addresses = discovery.interfaces() or local_addresses()
            self.announcement = discovery.Announcement(
                title, addresses, self.port, room.id, list(room.table.players))
        except discovery.failures() as e:  # no multicast here, no network at all
            return f"the game is not announced on the network ({_why(e)})"
        return None

    def stop(self) -> None:
        loop = self._loop
        if loop is not None and loop.is_running():  # the players are told it is over
            # a host that does not answer in time: the players learn it from the drop
            with contextlib.suppress(TimeoutError, concurrent.futures.CancelledError):
                asyncio.run_coroutine_threadsafe(
                    self.server.end_all("the host stopped hosting the game"), loop).result(5)
        if self.announcement is not None:
            from tabletop.net import discovery
            with contextlib.suppress(*discovery.failures()):
                self.announcement.close()
            self.announcement = None
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None and loop.is_running():
            def settle() -> None:
                if not stop.done():
                    stop.set_result(None)
            loop.call_soon_threadsafe(settle)
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._thread = None
        self.server.approver = None


def local_addresses() -> list[str]:
    """This machine's IPv4 addresses others on the network may reach, best first."""
    from PySide6.QtNetwork import QAbstractSocket, QNetworkInterface
    out = []
    for iface in QNetworkInterface.allInterfaces():
        flags = iface.flags()
        if not (flags & QNetworkInterface.InterfaceFlag.IsUp) \
                or flags & QNetworkInterface.InterfaceFlag.IsLoopBack:
            continue
        for entry in iface.addressEntries():
            ip = entry.ip()
            if ip.protocol() == QAbstractSocket.NetworkLayerProtocol.IPv4Protocol:
                out.append(ip.toString())
    return out or ["127.0.0.1"]


SEATS_HELP = (f"a player's name, {JUDGE_SEAT!r} (when the host allows it) or "
              f"{SPECTATOR!r}")


# ---- the window's parts --------------------------------------------------------------------
def _widgets() -> Any:
    from PySide6 import QtWidgets
    return QtWidgets


def _question(yes: str) -> tuple[Any, Any, Any, Any]:
    """A row asking the seat something: (the row, its words, yes, Refuse)."""
    W = _widgets()
    row = W.QWidget()
    lay = W.QHBoxLayout(row)
    lay.setContentsMargins(0, 0, 0, 0)
    text, agree, refuse = _label(), W.QPushButton(yes), W.QPushButton("Refuse")
    lay.addWidget(text, 1)
    lay.addWidget(agree)
    lay.addWidget(refuse)
    return row, text, agree, refuse


def _label(text: str = "") -> Any:
    """A label for text from the network: plain text (never markup), wrapped."""
    from PySide6.QtCore import Qt
    label = _widgets().QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    return label


class TableTalk(QObject):
    """The "Table talk" dock's contents: who is connected, the invitation (for the
    host), a request to undo shown to every player, and the chat. Everything from the
    network is shown as plain text."""

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        W = _widgets()
        from PySide6.QtCore import Qt
        self.window = window
        self.widget = W.QWidget()
        lay = W.QVBoxLayout(self.widget)
        lay.setContentsMargins(4, 4, 4, 4)
        self.where = _label()
        self.where.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.invite = W.QWidget()
        inv = W.QGridLayout(self.invite)  # the seat and Copy, then the whole link below
        inv.setContentsMargins(0, 0, 0, 0)
        self.invite_text = W.QLineEdit()
        self.invite_text.setReadOnly(True)
        self.invite_text.setToolTip("Give this to the other players: File > Join a game")
        self.copy = W.QPushButton("Copy")
        self.copy.clicked.connect(self._copy)
        self.invite_seat = W.QComboBox()
        self.invite_seat.setToolTip("Each seat has its own invitation: give each player "
                                    "theirs (spectator: anyone may watch)")
        self.invite_seat.currentIndexChanged.connect(lambda _i: self.refresh())
        self.invite_code = _label()  # the seat's secret alone, to read out
        self.invite_code.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        inv.addWidget(W.QLabel("Invitation for"), 0, 0)
        inv.addWidget(self.invite_seat, 0, 1)
        inv.addWidget(self.copy, 0, 2)
        inv.setColumnStretch(1, 1)
        inv.addWidget(self.invite_text, 1, 0, 1, 3)
        inv.addWidget(self.invite_code, 2, 0, 1, 3)
        self.who = _label()
        # a request to undo another's action, and one to look through a library (its
        # owner answers): each a line of words and its two buttons
        self.request, self.request_text, self.agree, self.refuse = _question("Agree")
        self.look, self.look_text, self.allow_look, self.refuse_look = _question("Allow")
        self.allow_look.clicked.connect(lambda: self._answer_look(True))
        self.refuse_look.clicked.connect(lambda: self._answer_look(False))
        self.lines = W.QListWidget()
        self.lines.setWordWrap(True)
        # two lines of chat at least (not the 70 pixels a list asks by default): on a
        # short screen (1024x600) the invitation and the entry line come first
        self.lines.setMinimumHeight(2 * self.lines.fontMetrics().lineSpacing() + 12)
        self.entry = W.QLineEdit()
        self.entry.setPlaceholderText("Say something to the table (Enter sends)")
        self.entry.setMaxLength(protocol.MAX_TEXT)
        for w in (self.where, self.invite, self.who, self.request, self.look, self.lines,
                  self.entry):
            lay.addWidget(w)
        self.entry.returnPressed.connect(self._say)
        self.agree.clicked.connect(lambda: self._answer(True))
        self.refuse.clicked.connect(lambda: self._answer(False))
        self.session: Session | None = None
        self.invitations: dict[str, str] = {}  # seat -> its invitation (the host's)
        self.refresh()

    @property
    def invitation(self) -> str:
        """The invitation of the seat picked in the dock."""
        return self.invitations.get(self.invite_seat.currentText(), "")

    def _copy(self) -> None:
        from PySide6.QtGui import QGuiApplication
        QGuiApplication.clipboard().setText(self.invitation)
        self.window.show_message(f"The invitation for {self.invite_seat.currentText()} is "
                                 f"copied: give it to that player only.")

    def _say(self) -> None:
        if self.session is not None:
            self.session.say(self.entry.text())
            self.entry.clear()

    def _answer(self, agree: bool) -> None:
        if self.session is not None:
            self.session.answer_undo(agree)

    def _answer_look(self, agree: bool) -> None:
        if self.session is not None:
            self.session.answer_look(agree)

    def refresh(self) -> None:
        s = self.session
        if s is None:
            self.where.setText("Not at a network table. File > Host a game opens this table "
                               "to the network; File > Join a game takes a seat at one.")
            self.who.setText("")
            self.invite.hide()
            self.request.hide()
            self.look.hide()
            self.lines.clear()
            self.entry.setEnabled(False)
            return
        state = "connected" if s.connected and s.joined else "not connected"
        self.where.setText(f"Your seat: {s.seat} ({state})"
                           + (" · you host this game" if s.hosted is not None else ""))
        seats = list(self.invitations)
        if [self.invite_seat.itemText(i) for i in range(self.invite_seat.count())] != seats:
            self.invite_seat.blockSignals(True)
            self.invite_seat.clear()
            self.invite_seat.addItems(seats)
            self.invite_seat.blockSignals(False)
        self.invite.setVisible(bool(self.invitations))
        if self.invite_text.text() != self.invitation:
            self.invite_text.setText(self.invitation)
            self.invite_text.setCursorPosition(0)  # the address first
            inv = Invitation.parse(self.invitation) if self.invitation else None
            # on lines of their own, the invitation unbroken (a non-breaking hyphen: the
            # server reads letters and digits only)
            self.invite_code.setText("" if inv is None else f"Room {inv.room} · code {inv.code}\n" + (
                f"{inv.seat}'s invitation: {inv.invite.replace('-', chr(0x2011))}"
                if inv.invite else "Anyone with the room code may watch"))
        present = set(s.present)
        seats = list((s.view or {}).get("players", []))
        self.who.setText("At the table: " + ", ".join(
            f"{p} {'●' if p in present else '○ (away)'}" for p in seats)
            + ("" if not ({"judge", SPECTATOR} & present) else
               " · also " + ", ".join(sorted({"judge", SPECTATOR} & present))))
        req = s.undo_request
        if req is not None and s.seat in seats:
            agreed = ", ".join(req.get("agreed", []))
            self.request_text.setText(f"{req.get('by')} asks to undo the last action "
                                      f"(agreed so far: {agreed or 'nobody'}).")
            mine = s.seat in req.get("agreed", [])
            self.agree.setEnabled(not mine)
            self.refuse.setEnabled(True)
            self.request.show()
        else:
            self.request.hide()
        look = s.look_request
        if look is not None:
            what = "all of" if look["count"] is None else f"the top {look['count']} of"
            mine = look["whose"] == s.seat
            whose = "your" if mine else f"{look['whose']}'s"
            self.look_text.setText(f"{look['by']} asks to look at {what} {whose} library"
                                   + ("." if mine else f" (waiting for {look['whose']})."))
            self.allow_look.setVisible(mine)
            self.refuse_look.setVisible(mine)
            self.look.show()
        else:
            self.look.hide()
        chat = s.chat
        if self.lines.count() != len(chat) or any(
                self.lines.item(i).text() != f"{who}: {text}"
                for i, (who, text) in enumerate(chat)):
            self.lines.clear()
            for who, text in chat:
                self.lines.addItem(f"{who}: {text}")  # a list item is plain text
            self.lines.scrollToBottom()
        self.entry.setEnabled(s.joined and s.connected)


def _buttons(dialog: Any, ok: str) -> Any:
    """OK (named ``ok``) and Cancel, closing ``dialog``."""
    W = _widgets()
    buttons = W.QDialogButtonBox(W.QDialogButtonBox.Ok | W.QDialogButtonBox.Cancel)
    buttons.button(W.QDialogButtonBox.Ok).setText(ok)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    return buttons


class HostDialog:
    """File > Host a game: which seat is yours, the port, whether a judge sees all."""

    def __init__(self, parent: Any, players: list[str], port: int) -> None:
        W = _widgets()
        self.dialog = d = W.QDialog(parent)
        d.setWindowTitle("Host a game")
        form = W.QFormLayout(d)
        intro = W.QLabel("The game opens to the network. Its engine stays on this "
                         "computer: every player sees only their own view of it.")
        intro.setWordWrap(True)
        form.addRow(intro)
        self.what = W.QComboBox()
        self.what.addItem("This table, as it stands", "table")
        self.what.addItem("A new game from decks…", "decks")
        form.addRow("Host:", self.what)
        self.seat = W.QComboBox()
        for p in players:
            self.seat.addItem(p, p)
        self.seat.addItem("None: I only host (spectator)", SPECTATOR)
        self.seat.setToolTip("A new game from decks: the player of the same place in it")
        form.addRow("Your seat:", self.seat)
        self.port = W.QSpinBox()
        self.port.setRange(1024, 65535)
        self.port.setValue(port)
        form.addRow("Port:", self.port)
        self.judge = W.QCheckBox("Open a judge's seat, which sees every card")
        form.addRow(self.judge)
        form.addRow(_buttons(d, "Host"))


class Games(QObject):
    """Games announced on the local network, for the Join dialog (mDNS)."""

    added = Signal(object)  # a discovery.Found
    removed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        from tabletop.net import discovery
        self.browser: Any = None
        self.error: str | None = None
        if not discovery.enabled():
            return
        try:
            self.browser = discovery.Browser(self.added.emit, self.removed.emit)
        except discovery.failures() as e:
            self.error = _why(e)

    def close(self) -> None:
        if self.browser is not None:
            self.browser.close()
            self.browser = None


class JoinDialog:
    """File > Join a game: a game found on the network or an invitation, its room
    code, and the seat to take."""

    def __init__(self, parent: Any, last: str, seat: str) -> None:
        W = _widgets()
        self.dialog = d = W.QDialog(parent)
        d.setWindowTitle("Join a game")
        d.setMinimumWidth(480)
        form = W.QFormLayout(d)
        self.games = W.QListWidget()
        self.games.setMaximumHeight(120)
        self.found: dict[str, Any] = {}
        form.addRow("On this network:", self.games)
        self.searching = _label("Looking for games on this network…")
        form.addRow(self.searching)
        self.invitation = W.QLineEdit(last)
        self.invitation.setPlaceholderText("ws://192.168.1.20:8765/ROOM/CODE")
        form.addRow("Invitation:", self.invitation)
        self.code = W.QLineEdit()
        self.code.setPlaceholderText("the room code, from the host (if not in the invitation)")
        form.addRow("Room code:", self.code)
        self.invite = W.QLineEdit()
        self.invite.setPlaceholderText("XXXX-XXXX-XXXX: your seat's invitation, from the host")
        self.invite.setToolTip("A player's seat needs its own invitation (none: watch as a "
                               "spectator, or ask the host to let you sit)")
        form.addRow("Invitation code:", self.invite)
        self.seat = W.QComboBox()
        self.seat.setEditable(True)
        for s in ([seat] if seat and seat not in (SPECTATOR, JUDGE_SEAT) else []) + [
                SPECTATOR, JUDGE_SEAT]:
            self.seat.addItem(s)
        self.seat.setCurrentText(seat or SPECTATOR)
        self.seat.setToolTip(f"Your seat: {SEATS_HELP}")
        form.addRow("Your seat:", self.seat)
        self.seat.lineEdit().setPlaceholderText("the seat your invitation is for")
        note = W.QLabel("Your seat is a player's name at that table, or spectator to "
                        "watch; with an invitation code it may be left empty (the code "
                        "is for one seat).")
        note.setWordWrap(True)
        form.addRow(note)
        form.addRow(_buttons(d, "Join"))
        self.browse = Games(d)
        if self.browse.error:
            self.searching.setText(f"Cannot look for games here: {self.browse.error}")
        elif self.browse.browser is None:
            self.searching.setText("Looking for games on this network is off.")
        self.browse.added.connect(self._added)
        self.browse.removed.connect(self._removed)
        self.games.currentItemChanged.connect(self._picked)
        d.finished.connect(lambda _r: self.browse.close())
        self.invitation.textChanged.connect(self._link_seat)
        self._link_seat(self.invitation.text())
        self.invite.textChanged.connect(self._code_seat)
        for field in (self.code, self.invite):  # a link pasted in the wrong field
            field.textChanged.connect(lambda text, f=field: self._link_pasted(f, text))

    def _link_pasted(self, field: Any, text: str) -> None:
        """A whole invitation (``ws://…``) pasted into the room code's or the invitation
        code's field goes where a link goes: the Invitation field."""
        if "://" in text:
            field.clear()
            self.invitation.setText(text.strip())

    def _code_seat(self, text: str) -> None:
        """An invitation code typed while the seat says spectator: the code decides the
        seat (it is one seat's), so the field is emptied; emptied of the code, the field
        says spectator again. A seat typed or chosen is kept."""
        seat = self.seat.currentText().strip()
        if text.strip() and seat == SPECTATOR:
            self.seat.setCurrentText("")
        elif not text.strip() and not seat:
            self.seat.setCurrentText(SPECTATOR)

    def _link_seat(self, text: str) -> None:
        """A seat's own invitation (``?seat=Bob&invite=…``) decides the seat taken: the
        seat field shows it and waits, as the invitation code's does, until the link
        names no seat (the field said "spectator" while the link sat Bob)."""
        try:
            link = Invitation.parse(text, self.code.text()) if text.strip() else None
        except InputError:
            link = None
        seat, invite = (link.seat, link.invite) if link is not None else ("", "")
        if seat:  # (its words only: a link typed letter by letter adds no seats to the list)
            self.seat.setCurrentText(seat)
        elif invite and self.seat.currentText().strip() == SPECTATOR:
            self.seat.setCurrentText("")  # the seat it is for, unless one is chosen
        elif not invite and not self.seat.currentText().strip() \
                and not self.invite.text().strip():
            self.seat.setCurrentText(SPECTATOR)  # no invitation left: watch, or name one
        self.seat.setEnabled(not seat)
        self.invite.setEnabled(not invite)

    def _added(self, game: Any) -> None:
        self._removed(game.name)
        self.found[game.name] = game
        players = ", ".join(game.players)
        item = _widgets().QListWidgetItem(f"{game.title} — {players} ({game.url})")
        item.setData(256, game.name)  # Qt.UserRole
        self.games.addItem(item)
        self.searching.setText("Pick a game, then type its room code.")

    def _removed(self, name: str) -> None:
        self.found.pop(name, None)
        for i in range(self.games.count()):
            if self.games.item(i).data(256) == name:
                self.games.takeItem(i)
                return

    def _picked(self, item: Any, _previous: Any = None) -> None:
        game = self.found.get(item.data(256)) if item is not None else None
        if game is not None:
            self.invitation.setText(f"{game.url}{game.room}")
            self.code.setFocus()
            # its players' seats to choose from (what the field says is kept)
            said = self.seat.currentText()
            self.seat.clear()
            self.seat.addItems([*game.players, SPECTATOR, JUDGE_SEAT])
            self.seat.setCurrentText(said)
