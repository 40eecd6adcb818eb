"""A small blocking client of the protocol: scripted players in tests, and the
window's worker thread (which hands each message to the GUI thread)."""

from __future__ import annotations

import json
import time
from typing import Any

from tabletop.net import mirror, protocol


def failures() -> tuple[type[BaseException], ...]:
    """What opening, reading or sending on a connection may fail with: the system's
    errors (refused, unreachable, timed out, reset) and the WebSocket's own (a bad
    address, a refused handshake, a closed connection)."""
    from websockets.exceptions import WebSocketException
    return (OSError, WebSocketException)


class ClientError(Exception):
    """The server answered with an error frame (its message and ``code``), or did not
    answer (code "")."""

    def __init__(self, text: str, code: str = "") -> None:
        super().__init__(text)
        self.code = code


class Client:
    def __init__(self, url: str, timeout: float = 10.0, ssl: Any = None) -> None:
        from websockets.sync.client import connect
        # entered as a context manager, as websockets asks (left in close())
        # wss:// verifies the server's certificate against the system's authorities (or
        # ``ssl``, a context of the caller's)
        self.ws = connect(url, open_timeout=timeout, max_size=8 * 1024 * 1024,
                          compression=None, proxy=None, **({"ssl": ssl} if ssl else {})
                          ).__enter__()
        self.timeout = timeout
        self.frames: list[str] = []  # every frame received, as received
        self.view: dict[str, Any] | None = None  # the newest view
        self.token: str | None = None
        self.seat: str | None = None
        self.invites: dict[str, str] = {}  # each seat's invitation, from ``created``

    def close(self) -> None:
        self.ws.close()

    def send(self, kind: str, /, **fields: Any) -> None:
        self.ws.send(json.dumps({"v": protocol.VERSION, "type": kind, **fields}))

    def send_raw(self, frame: str | bytes) -> None:
        self.ws.send(frame)

    def recv(self, timeout: float | None = None) -> dict[str, Any]:
        raw = self.ws.recv(timeout=self.timeout if timeout is None else timeout)
        text = raw if isinstance(raw, str) else raw.decode("utf-8")
        self.frames.append(text)
        msg: dict[str, Any] = json.loads(text)
        if msg.get("type") == "view":
            self.view = msg
        elif msg.get("type") == "update" and self.view is not None:
            self._merge(msg)
        return msg

    def _merge(self, update: dict[str, Any]) -> None:
        assert self.view is not None
        mirror.merge(self.view, update)

    def drain(self, wait: float = 0.2) -> None:
        """Read what the server has sent so far (others' moves), keeping the newest view."""
        while True:
            try:
                self.recv(wait)
            except TimeoutError:
                return

    def until(self, *kinds: str, timeout: float | None = None) -> dict[str, Any]:
        """The next message of one of ``kinds`` (views before it are kept); an error
        frame raises ClientError."""
        end = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise ClientError(f"no {' or '.join(kinds)} from the server")
            try:
                msg = self.recv(left)
            except TimeoutError:
                raise ClientError(f"no {' or '.join(kinds)} from the server") from None
            if msg.get("type") == "error" and "error" not in kinds:
                raise ClientError(str(msg.get("message")), str(msg.get("code", "")))
            if msg.get("type") in kinds:
                return msg

    # ---- the conversation -----------------------------------------------------------------
    def create(self, players: list[str], **fields: Any) -> tuple[str, str]:
        self.send("create", players=players, **fields)
        msg = self.until("created")
        self.invites = {str(k): str(v) for k, v in dict(msg.get("invites") or {}).items()}
        return str(msg["room"]), str(msg["code"])

    def join(self, room: str, code: str, seat: str | None, token: str | None = None,
             invite: str | None = None, changes: str | None = None) -> dict[str, Any]:
        """Take ``seat`` (None: the one ``invite`` is for, which ``self.seat`` then
        names); the view the server sends."""
        fields: dict[str, Any] = {"room": room, "code": code}
        if seat is not None:
            fields["seat"] = seat
        if changes is not None:
            fields["changes"] = changes
        if token is not None:
            fields["token"] = token
        if invite is not None:
            fields["invite"] = invite
        self.send("join", **fields)
        joined = self.until("joined")
        self.token, self.seat = joined.get("token") or None, str(joined["seat"])
        return self.until("view")

    def act(self, action: str, /, **fields: Any) -> dict[str, Any]:
        """Send an intention; the view the server sends back (ClientError if refused)."""
        self.send("act", action=action, **fields)
        self.until("update")
        assert self.view is not None
        return self.view
