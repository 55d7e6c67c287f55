"""The address phones use to join (DESIGN.md §4 "QR and addresses").

PUBLIC_URL if set; else the host the TV itself used, if it names this machine and is not a
loopback name (a phone cannot reach the laptop's "localhost"); else this machine's LAN address.
The Host header is the client's to write: a TV page fetched with `Host: evil.example` must not
print a QR code that sends every phone to evil.example.
"""

from __future__ import annotations

import ipaddress
import socket

import segno
from django.conf import settings

LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


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


def split_host(host: str) -> tuple[str, str | None]:
    if host.startswith("["):
        name, _, rest = host[1:].partition("]")
        return f"[{name}]", rest[1:] if rest.startswith(":") else None
    name, _, port = host.partition(":")
    return name, port or None


def base_url(request_host: str, scheme: str = "http") -> str:
    if settings.PUBLIC_URL:
        return settings.PUBLIC_URL
    name, port = split_host(request_host)
    if not _is_loopback(name) and name.strip("[]").lower() in own_names():
        return f"{scheme}://{request_host}"
    lan = lan_address() or "localhost"
    return f"{scheme}://{lan}:{port}" if port else f"{scheme}://{lan}"


def join_url(request_host: str, code: str, scheme: str = "http") -> str:
    return f"{base_url(request_host, scheme)}/j/{code}/"


def qr_svg(url: str) -> str:
    """An inline SVG QR code; the URL is ours, never user input."""
    return segno.make(url, error="m").svg_inline(scale=4, omitsize=True, light="#fff", border=2)
