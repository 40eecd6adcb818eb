"""Which client a connection is, for the limits of one address: the peer, or behind
proxies named with --trusted-proxy, the last address of X-Forwarded-For that is not a
trusted proxy's; an IPv6 client by its /64 network."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tabletop.net.server import Limits, Server
from tests.helpers import run_cli


def conn(peer: str, forwarded: str | None = None) -> SimpleNamespace:
    headers = {} if forwarded is None else {"X-Forwarded-For": forwarded}
    return SimpleNamespace(remote_address=(peer, 50000),
                           request=SimpleNamespace(headers=headers))


def address(peer, forwarded=None, trusted=()):
    return Server(None, Limits(trusted_proxies=tuple(trusted))).address(conn(peer, forwarded))


@pytest.mark.parametrize("peer, forwarded, trusted, client", [
    # no proxy trusted: a header is anyone's word
    ("198.51.100.7", "10.0.0.1", (), "198.51.100.7"),
    # one proxy: the address it saw
    ("127.0.0.1", "10.0.0.1", ("127.0.0.1",), "10.0.0.1"),
    ("127.0.0.1", "spoofed, 10.0.0.1", ("127.0.0.1",), "10.0.0.1"),
    # a network of proxies, two deep: the first address from the right that is not theirs
    ("10.1.0.2", "203.0.113.9, 10.1.0.3", ("10.1.0.0/16",), "203.0.113.9"),
    ("10.1.0.2", "1.2.3.4, 203.0.113.9, 10.1.0.3", ("10.1.0.0/16",), "203.0.113.9"),
    # what the proxy wrote is not an address: the proxy's own, nothing the client wrote
    ("127.0.0.1", "10.0.0.1, nonsense", ("127.0.0.1",), "127.0.0.1"),
    ("127.0.0.1", "", ("127.0.0.1",), "127.0.0.1"),
    # an IPv4 peer of a dual-stack socket is that IPv4 address, trusted as such
    ("::ffff:127.0.0.1", "10.0.0.1", ("127.0.0.1",), "10.0.0.1"),
    ("::ffff:198.51.100.7", None, (), "198.51.100.7"),
    # IPv6: the /64 network, whichever address of it the client sends from
    ("2001:db8:1:2::5", None, (), "2001:db8:1:2::/64"),
    ("2001:db8:1:2:ffff::9", None, (), "2001:db8:1:2::/64"),
    ("::1", "2001:db8:1:3::77", ("::1",), "2001:db8:1:3::/64"),
])
def test_the_client_address_counted(peer, forwarded, trusted, client):
    assert address(peer, forwarded, trusted) == client


def test_a_trusted_proxy_that_is_not_an_address_stops_the_server_at_start(tmp_path):
    r = run_cli("--data-dir", tmp_path, "serve", "--port", "0", "--trusted-proxy", "10.0.0.1",
                "--trusted-proxy", "proxy.local")
    assert r.returncode == 2
    assert "--trusted-proxy 'proxy.local' is not an IP address or network" in r.stderr


@pytest.mark.parametrize("option, value", [("--rooms-per-hour", "-1"), ("--room-idle", "0"),
                                           ("--address-rate", "nan"), ("--spectators", "0")])
def test_a_limit_that_is_not_positive_is_named_and_stops_the_server_at_start(tmp_path, option,
                                                                              value):
    r = run_cli("--data-dir", tmp_path, "serve", "--port", "0", option, value)
    assert r.returncode == 2
    assert r.stderr.strip().splitlines()[-1].startswith(f"tabletop serve: {option} must be "
                                                        f"positive, not ")
