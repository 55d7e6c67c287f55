"""Who is at the other end: the client's real address, the one thing every limit keys on.

A phone on the Wi-Fi writes whatever headers it likes.  If ``X-Forwarded-For`` were believed
from anyone, a phone could pick its own address: ``127.0.0.1`` to escape every limit, or another
phone's address to lock that phone out (docs/design.md, "Trust").  So the address is the TCP
peer's, and a forwarding header is read only when that peer is a proxy the deployment names in
``TRUSTED_PROXIES`` (empty by default: ``make run`` serves phones directly).  daphne runs
without ``--proxy-headers``; this module is the one place that reads forwarding headers.

Only the server's own machine asking directly (a loopback peer with no forwarding header: the
host's laptop) is exempt from the limits.  A loopback peer that forwards someone else's request
(a proxy on the same machine that the deployment did not name) is limited like anyone.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from functools import lru_cache

from django.conf import settings

# The server's own machine, asked directly.  Not the whole 127/8: tests play strangers from
# 127.0.0.5 and 127.0.0.6, and the host's browser uses 127.0.0.1 or ::1 ("localhost").
OWN_MACHINE = frozenset({"127.0.0.1", "::1"})
# Headers by which a proxy says whom it forwards; their presence alone ends the exemption.
FORWARDING = ("x-forwarded-for", "forwarded", "x-real-ip")


@dataclass(frozen=True)
class Client:
    address: str | None
    exempt: bool = False   # the server's own machine: no limit applies

    @property
    def limited(self) -> bool:
        return not self.exempt


@lru_cache(maxsize=8)
def _networks(names: tuple[str, ...]) -> tuple:
    return tuple(ipaddress.ip_network(name.strip(), strict=False) for name in names if name.strip())


def trusted(address: str | None) -> bool:
    """Whether ``address`` is one of the proxies the deployment named (settings.TRUSTED_PROXIES)."""
    if not address:
        return False
    try:
        ip = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return False
    return any(ip in network for network in _networks(tuple(settings.TRUSTED_PROXIES)))


def resolve(peer: str | None, headers: dict[str, str]) -> Client:
    """The client behind ``peer`` (the TCP peer's address) given the request's ``headers``
    (lower-case names).  Forwarded addresses are walked from the right, past every trusted
    proxy: the first one not trusted is the client (what a trusted proxy appended is true,
    what the client wrote to the left of it is not)."""
    forwarded = any(headers.get(name) for name in FORWARDING)
    if not forwarded:
        return Client(peer, exempt=peer in OWN_MACHINE)
    if not trusted(peer):
        return Client(peer)
    address = peer
    for hop in reversed([hop.strip() for hop in headers.get("x-forwarded-for", "").split(",")]):
        try:
            hop = str(ipaddress.ip_address(hop))
        except ValueError:
            break   # a hop we cannot read: trust stops at the last proxy that wrote it
        address = hop
        if not trusted(hop):
            break
    return Client(address)


def of_request(request) -> Client:
    meta = request.META
    return resolve(meta.get("REMOTE_ADDR"), {name: meta.get("HTTP_" + name.upper().replace("-", "_"), "")
                                             for name in FORWARDING})


def of_scope(scope: dict) -> Client:
    """For a websocket handshake (or any ASGI scope)."""
    headers = {}
    for name, value in scope.get("headers", ()):
        name = name.decode("latin-1").lower()
        if name in FORWARDING:
            headers[name] = value.decode("latin-1")
    return resolve((scope.get("client") or [None])[0], headers)
