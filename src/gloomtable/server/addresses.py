"""Which client a request counts for: the address every per-IP limit is keyed by.

An IPv4 address is one client. An IPv6 address is not: a home line or a rented
server is handed a whole /64 (often a /56 or /48), so one person can speak from
as many addresses as they like, and limits keyed by the full address would hold
nobody. So an IPv6 client counts by its network of ``--ipv6-prefix`` leading
bits (64 by default, the smallest block a site is given); an IPv4 address
written as IPv6 (``::ffff:203.0.113.7``, as a dual-stack socket reports it)
counts as that IPv4 address. Anything that is not an IP address (a test
client's name, a Unix socket) is its own key.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from starlette.requests import HTTPConnection

IPV6_PREFIX = 64
"""Leading bits of an IPv6 address that make one client (``--ipv6-prefix``)."""


@lru_cache(maxsize=4096)
def client_key(host: str, ipv6_prefix: int = IPV6_PREFIX) -> str:
    """The key of the client at ``host`` (the TCP peer, or the address a trusted
    proxy forwarded): see the module doc. Cached: the same few addresses ask again
    on every message, and the cache is bounded, so a flood of new ones cannot
    grow it."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, ipv6_prefix), strict=False))
    return str(ip)


def client_ip(request: HTTPConnection, ipv6_prefix: int = IPV6_PREFIX) -> str:
    """The client every per-IP limit counts this request or websocket for (an IPv6
    client by its network)."""
    return client_key(request.client.host, ipv6_prefix) if request.client else "unknown"
