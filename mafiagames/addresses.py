"""The address phones use to join (docs/design.md §4 "QR and addresses").

PUBLIC_URL if set; else the host the TV itself used, if it names this machine and is not a
loopback name (a phone cannot reach the laptop's "localhost"); else this machine's LAN address.
The Host header is the client's to write: a TV page fetched with `Host: evil.example` must not
print a QR code that sends every phone to evil.example.
"""

from __future__ import annotations

import ipaddress
import socket
import time
from urllib.parse import urlsplit

import segno
from django.conf import settings

LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}
# The names the host's own browser uses for this machine (ALLOWED_HOSTS' form: IPv6 in brackets).
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")


def _is_loopback(host: str) -> bool:
    host = host.strip("[]").lower()
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback or ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False


def _interface_addresses() -> list[str]:
    """IPv4 addresses of the network interfaces (Linux ioctl; reads local config only)."""
    try:
        import fcntl
        import struct
    except ImportError:  # not Linux/Unix
        return []
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _index, name in socket.if_nameindex():
            try:
                packed = fcntl.ioctl(sock.fileno(), 0x8915, struct.pack("256s", name[:15].encode()))  # SIOCGIFADDR
            except OSError:
                continue
            found.append(socket.inet_ntoa(packed[20:24]))
    return found


def lan_address() -> str | None:
    """A private (or else any non-loopback) IPv4 address of this machine; sends nothing."""
    candidates = _interface_addresses()
    try:
        candidates += [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    except OSError:
        pass
    usable = [a for a in candidates if not _is_loopback(a)]
    private = [a for a in usable if ipaddress.ip_address(a).is_private]
    return (private or usable or [None])[0]


def own_names() -> set[str]:
    """The names a phone may use to reach this machine: its interface addresses and its host name
    (also as name.local, the mDNS name laptops announce). Reads local configuration only."""
    names = set(_interface_addresses())
    lan = lan_address()
    if lan:
        names.add(lan)
    host = socket.gethostname().lower()
    if host:
        short = host.split(".")[0]
        names |= {host, short, f"{short}.local"}
    return names


def _url_host(url: str) -> str | None:
    """The host of ``url`` as ALLOWED_HOSTS spells it (an IPv6 address in brackets)."""
    host = urlsplit(url).hostname if url else None
    return f"[{host}]" if host and ":" in host else host


class AllowedHosts(list):
    """settings.ALLOWED_HOSTS by default: this machine's names as they are now (own_names() and
    the loopback names) plus ``extra``.  A Host header naming anything else gets 400, so a page
    on a stranger's domain that resolves to this laptop (DNS rebinding) cannot read our pages
    or open a TV's socket (asgi.py checks the same list).

    A list, since Django refuses any other type, but read through iteration only (all Django does
    with it), and looked up again every REFRESH seconds: a laptop that joins the Wi-Fi after the
    server started has a new address, which the QR code then shows and phones then use.
    """

    REFRESH = 30.0   # seconds; own_names() reads interfaces and resolves the host name

    def __init__(self, extra=()):
        super().__init__()
        self.extra = tuple(extra)
        self._names: tuple[str, ...] = ()
        self._until = float("-inf")

    def _current(self) -> tuple[str, ...]:
        now = time.monotonic()
        if now >= self._until:
            self._names = (*LOOPBACK_HOSTS, *sorted(own_names()), *self.extra)
            self._until = now + self.REFRESH
        return self._names

    def __iter__(self):
        return iter(self._current())

    def __len__(self) -> int:
        return len(self._current())

    def __contains__(self, name) -> bool:
        return name in self._current()

    def __repr__(self) -> str:
        return f"AllowedHosts({list(self._current())!r})"


def allowed_hosts(setting: str, public_url: str) -> list[str]:
    """settings.ALLOWED_HOSTS from the ``ALLOWED_HOSTS`` variable (comma-separated names added
    to this machine's own, or ``*``: any Host at all, unsafe) and PUBLIC_URL, whose host phones use."""
    extra = [name.strip() for name in setting.split(",") if name.strip()]
    if "*" in extra:
        return ["*"]
    public = _url_host(public_url)
    return AllowedHosts([*extra, public] if public else extra)


def split_host(host: str) -> tuple[str, str | None]:
    if host.startswith("["):
        name, _, rest = host[1:].partition("]")
        return f"[{name}]", rest[1:] if rest.startswith(":") else None
    name, _, port = host.partition(":")
    return name, port or None


DEFAULT_PORTS = {"http": "80", "https": "443"}


def base_url(request_host: str, scheme: str = "http", server_port: str | None = None) -> str:
    """Where phones reach this server.  The host name is the request's Host if it names this
    machine, else the LAN address.  The port is ``server_port``, the one this server listens on
    (the request's SERVER_PORT, from the ASGI scope's "server"), never the Host header's, which
    the client writes; the Host's port serves only where the server's is unknown (None or "0":
    a Unix socket, the start-up hint of show_urls_hint).  Behind a proxy the port phones use is
    the proxy's, which only PUBLIC_URL can say."""
    if settings.PUBLIC_URL:
        return settings.PUBLIC_URL
    name, host_port = split_host(request_host)
    port = server_port if server_port and server_port != "0" else host_port
    if _is_loopback(name) or name.strip("[]").lower() not in own_names():
        name = lan_address() or "localhost"
    return f"{scheme}://{name}:{port}" if port and port != DEFAULT_PORTS.get(scheme) else f"{scheme}://{name}"


def join_url(request_host: str, code: str, scheme: str = "http", server_port: str | None = None) -> str:
    return f"{base_url(request_host, scheme, server_port)}/j/{code}/"


def qr_svg(url: str) -> str:
    """An inline SVG QR code; the URL is ours, never user input."""
    return segno.make(url, error="m").svg_inline(scale=4, omitsize=True, light="#fff", border=2)
