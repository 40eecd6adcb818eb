"""Finding games on the local network without typing addresses: DNS-SD over
multicast DNS (mDNS/zeroconf), through the ``zeroconf`` library.

A hosted game announces itself as a ``_tabletop._tcp.local.`` service: its address,
port, room and players. The room code is never announced: a person still needs it
from the host to join. The Join dialog browses for these services and lists them."""

from __future__ import annotations

import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tabletop.textsafe import peer_text

SERVICE = "_tabletop._tcp.local."


@dataclass(frozen=True)
class Found:
    """A game announced on the network."""

    name: str  # the service's own name (unique on the network)
    title: str  # what the host called it
    url: str  # ws://ADDRESS:PORT/
    room: str
    players: tuple[str, ...]


def interfaces() -> list[str] | None:
    """The addresses to announce and browse on: every interface, unless TABLETOP_MDNS
    names some (``127.0.0.1`` in the tests: nothing leaves the machine) or is ``off``."""
    import os
    setting = os.environ.get("TABLETOP_MDNS", "").strip()
    if not setting:
        return None
    return [a.strip() for a in setting.split(",") if a.strip()]


def enabled() -> bool:
    return interfaces() != ["off"]


def failures() -> tuple[type[BaseException], ...]:
    """What announcing or browsing can fail with where there is no multicast (or no
    network at all): the system's errors and zeroconf's own."""
    from zeroconf import Error
    return (OSError, Error)


def _zeroconf(chosen: list[str] | None) -> Any:
    from zeroconf import InterfaceChoice, IPVersion, Zeroconf
    chosen = chosen if chosen is not None else interfaces()
    return Zeroconf(interfaces=chosen or InterfaceChoice.All, ip_version=IPVersion.V4Only)


def _service(title: str, addresses: list[str], port: int, room: str,
             players: list[str]) -> Any:
    """The mDNS record of one game: where it is, its room (never its code), who plays."""
    from zeroconf import ServiceInfo
    label = "".join(ch for ch in title if ch.isprintable() and ch != ".")[:40] or "Tabletop"
    return ServiceInfo(SERVICE, f"{label} ({room}).{SERVICE}",
                       addresses=[socket.inet_aton(a) for a in addresses], port=port,
                       properties={"v": "1", "room": room, "title": label,
                                   "players": ",".join(players)[:200]})


class Announcement:
    """A hosted game's announcement; ``close()`` withdraws it."""

    def __init__(self, title: str, addresses: list[str], port: int, room: str,
                 players: list[str], interfaces: list[str] | None = None) -> None:
        self.zc = _zeroconf(interfaces)
        self.info = _service(title, addresses, port, room, players)
        self.zc.register_service(self.info, allow_name_change=True)

    def close(self) -> None:
        try:
            self.zc.unregister_service(self.info)
        finally:
            self.zc.close()


class Announcer:
    """A dedicated server's rooms, each announced as it opens, on one responder;
    ``close()`` withdraws them all."""

    def __init__(self, addresses: list[str], port: int,
                 interfaces: list[str] | None = None) -> None:
        self.zc = _zeroconf(interfaces)
        self.addresses, self.port = addresses, port
        self.rooms: list[str] = []

    def add(self, title: str, room: str, players: list[str]) -> None:
        self.zc.register_service(_service(title, self.addresses, self.port, room, players),
                                 allow_name_change=True)
        self.rooms.append(room)

    def close(self) -> None:
        try:
            self.zc.unregister_all_services()
        finally:
            self.zc.close()


def host_addresses(host: str) -> list[str]:
    """The IPv4 addresses a server listening on ``host`` is reached at (0.0.0.0: this
    machine's, loopback last)."""
    if host not in ("0.0.0.0", ""):
        return [host]
    import ifaddr  # zeroconf's own dependency
    found = [str(ip.ip) for adapter in ifaddr.get_adapters() for ip in adapter.ips
             if isinstance(ip.ip, str)]
    return [a for a in found if not a.startswith("127.")] or ["127.0.0.1"]


def found_from(info: Any) -> Found | None:
    """A service's record as a Found game, or None when it is not one of ours."""
    props = {(k.decode("utf-8", "replace") if isinstance(k, bytes) else str(k)):
             (v.decode("utf-8", "replace") if isinstance(v, bytes) else "")
             for k, v in (info.properties or {}).items()}
    addresses = [socket.inet_ntoa(a) for a in info.addresses if len(a) == 4]
    room = props.get("room", "")
    if props.get("v") != "1" or not addresses or not room or not info.port:
        return None
    # another machine's words: no controls, no marks that turn the line around
    clean = "".join(ch for ch in peer_text(props.get("title", "")) if ch.isprintable())[:40]
    players = tuple(n for n in (peer_text(p).strip()[:40]
                                for p in props.get("players", "").split(",")) if n)[:8]
    return Found(str(info.name), clean or "Tabletop", f"ws://{addresses[0]}:{info.port}/",
                 "".join(ch for ch in room if ch.isalnum())[:40], players)


class Browser:
    """Games announced on the network as they come and go: ``added(Found)`` and
    ``removed(service name)`` are called on zeroconf's thread."""

    def __init__(self, added: Callable[[Found], None], removed: Callable[[str], None],
                 interfaces: list[str] | None = None) -> None:
        from zeroconf import ServiceBrowser, ServiceListener
        self.zc = _zeroconf(interfaces)

        class Listener(ServiceListener):
            def add_service(self, zc: Any, type_: str, name: str) -> None:
                info = zc.get_service_info(type_, name, timeout=2000)
                game = found_from(info) if info is not None else None
                if game is not None:
                    added(game)

            def update_service(self, zc: Any, type_: str, name: str) -> None:
                self.add_service(zc, type_, name)

            def remove_service(self, zc: Any, type_: str, name: str) -> None:
                removed(name)

        self.browser = ServiceBrowser(self.zc, SERVICE, Listener())

    def close(self) -> None:
        try:
            self.browser.cancel()
        finally:
            self.zc.close()
