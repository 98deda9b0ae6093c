"""Per-IP limits hold against a client who changes address within its own network:
an IPv6 client counts by its /64 (``--ipv6-prefix``), an IPv4 address written as
IPv6 as that IPv4 address (docs/security.md, "Rates per client").

Every test client here is 127.0.0.1, so the addresses come the way a reverse proxy
brings them: ``X-Forwarded-For`` from a proxy named by ``--forwarded-allow-ips``
(uvicorn's own handling, as in production). A server that trusts no proxy ignores
the header, so a client cannot pick its own address."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection

from gloomtable.server.addresses import client_key
from gloomtable.server.limits import ServerLimits
from gloomtable.server.testing import LiveServer, ServerThread
from server_support import PEOPLE, open_ws, post_table


def create_from(server: LiveServer, address: str) -> int:
    """The status of one table creation by the client at ``address``."""
    return post_table(server, seats=PEOPLE, headers={"X-Forwarded-For": address}).status_code


def serve(tmp_path: Path, name: str, *args: str) -> LiveServer:
    """A server with the per-IP limits a public one has, behind a proxy on 127.0.0.1."""
    return ServerThread(tmp_path / f"{name}.db", shared_loopback=False,
                        args=["--forwarded-allow-ips", "127.0.0.1", *args])


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with serve(tmp_path_factory.mktemp("addresses"), "proxied",
               "--create-rate", "2/hour", "--sockets-per-ip", "2") as srv:
        yield srv


def test_client_keys() -> None:
    """IPv6 by network, IPv4-mapped as IPv4, anything else as itself."""
    assert client_key("2001:db8:7:1::1") == client_key("2001:db8:7:1:ffff:0:0:9") == "2001:db8:7:1::/64"
    assert client_key("2001:db8:7:2::1") != client_key("2001:db8:7:1::1")
    assert client_key("2001:db8:7:1::1", 128) != client_key("2001:db8:7:1::2", 128)
    assert client_key("2001:db8:7:1::1", 48) == client_key("2001:db8:7:ff::1", 48)
    assert client_key("::ffff:203.0.113.7") == client_key("203.0.113.7") == "203.0.113.7"
    assert client_key("203.0.113.8") != client_key("203.0.113.7")
    assert client_key("unknown") == "unknown"


def test_an_ipv6_network_is_one_client_for_the_http_rates(proxied: LiveServer) -> None:
    """Three addresses of one /64 share its two creations an hour; the next /64 has
    its own, and so does an IPv4 client, however its address is written."""
    assert create_from(proxied, "2001:db8:7:1::1") == 201
    assert create_from(proxied, "2001:db8:7:1::2") == 201
    assert create_from(proxied, "2001:db8:7:1:abcd::3") == 429  # the same network, a new address
    assert create_from(proxied, "2001:db8:7:2::1") == 201  # the next network
    assert create_from(proxied, "::ffff:198.51.100.4") == 201
    assert create_from(proxied, "198.51.100.4") == 201
    assert create_from(proxied, "::ffff:198.51.100.4") == 429


def test_an_ipv6_network_is_one_client_for_open_sockets(proxied: LiveServer) -> None:
    """``--sockets-per-ip 2``: a third socket from another address of the same /64 is
    refused before the handshake (429); one from another network is not."""
    r = post_table(proxied, seats=PEOPLE, headers={"X-Forwarded-For": "203.0.113.50"})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]

    def open_from(address: str) -> AbstractContextManager[ClientConnection]:
        """A spectator's socket from ``address``."""
        return open_ws(proxied, tid, None, additional_headers={"X-Forwarded-For": address})

    with open_from("2001:db8:9:1::a"), open_from("2001:db8:9:1::b"):
        with pytest.raises(InvalidStatus) as refused, open_from("2001:db8:9:1::c"):
            pass
        assert refused.value.response.status_code == 429
        assert b"too_many_sockets" in refused.value.response.body
        with open_from("2001:db8:9:2::a") as other:
            assert json.loads(other.recv(timeout=20))["type"] == "welcome"


@pytest.mark.slow
def test_the_prefix_is_a_flag(tmp_path: Path) -> None:
    """``--ipv6-prefix 128`` counts every IPv6 address alone (a site that knows its
    clients share no networks); a prefix longer than an address is refused at start."""
    with serve(tmp_path, "per-address", "--create-rate", "1/hour", "--ipv6-prefix", "128") as srv:
        assert create_from(srv, "2001:db8:7:1::1") == 201
        assert create_from(srv, "2001:db8:7:1::2") == 201
        assert create_from(srv, "2001:db8:7:1::1") == 429
    with pytest.raises(ValueError, match="--ipv6-prefix must be at most 128"):
        ServerLimits(ipv6_prefix=129)


@pytest.mark.slow
def test_without_a_trusted_proxy_the_header_is_ignored(tmp_path: Path) -> None:
    """No ``--forwarded-allow-ips``: every request counts for its TCP peer, whatever
    ``X-Forwarded-For`` claims, so a client cannot pick its own address."""
    with ServerThread(tmp_path / "direct.db", shared_loopback=False,
                      args=["--create-rate", "2/hour"]) as srv:
        assert create_from(srv, "2001:db8:1::1") == 201
        assert create_from(srv, "2001:db8:2::1") == 201
        assert create_from(srv, "2001:db8:3::1") == 429
