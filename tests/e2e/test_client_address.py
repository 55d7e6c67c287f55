"""The client address every limit keys on, against daphne started as `make run` starts it.

A phone on the Wi-Fi can send any header: ``X-Forwarded-For: 127.0.0.1`` must not switch its
limits off, and naming another phone's address must not aim them at that phone
(mafiagames/clients.py).  Strangers here are loopback addresses other than the server's own
127.0.0.1 (127.0.0.5, 127.0.0.6, …): the server binds 127.0.0.1 and sees each as its peer."""

from __future__ import annotations

import http.client
import re
import socket

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from mafiagames import limits, services
from tests.make_run import make_run_flags

from .conftest import Daphne

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def make_run_daphne(transactional_db, output_dir):
    server = Daphne(__import__("django.conf").conf.settings.DATABASES["default"]["NAME"],
                    output_dir / "daphne.log", flags=make_run_flags())
    server.start()
    yield server
    server.stop()
    server.log.close()


def get(server: Daphne, source: str, path: str, headers: dict | None = None) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30, source_address=(source, 0))
    try:
        connection.request("GET", path, headers=headers or {})
        return connection.getresponse().status
    finally:
        connection.close()


def socket_status(server: Daphne, source: str, code: str, headers: dict | None = None) -> str:
    """"open", or how the handshake or the first frame refused it."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=30, source_address=(source, 0))
    try:
        with connect(f"ws://127.0.0.1:{server.port}/ws/r/{code}/", sock=sock, origin=f"http://127.0.0.1:{server.port}",
                     additional_headers=headers or {}, open_timeout=30) as ws:
            frame = ws.recv(timeout=30)
            return "open" if 'id="sv"' in frame else "no screen"
    except InvalidStatus as exc:
        return f"refused {exc.response.status_code}"
    except Exception as exc:   # closed at once with one of our codes
        found = re.search(r"44\d\d", str(exc))
        return f"closed {found.group(0)}" if found else f"failed {type(exc).__name__}"


def test_make_run_believes_no_forwarding_header():
    assert "--proxy-headers" not in make_run_flags()


def test_forwarding_headers_from_a_peer_that_is_no_proxy_change_nothing(make_run_daphne):
    server = make_run_daphne
    room = services.create_room("en")
    misses = limits.MISSES.count
    # "I am the server itself": no exemption, the limit hits the real peer, 127.0.0.5.
    statuses = [get(server, "127.0.0.5", "/j/QQQQ/", {"X-Forwarded-For": "127.0.0.1"}) for _ in range(misses + 1)]
    assert statuses == [404] * misses + [429]
    assert get(server, "127.0.0.5", f"/j/{room.code}/") == 429            # with or without the header
    assert socket_status(server, "127.0.0.5", room.code, {"X-Forwarded-For": "127.0.0.1"}) == "refused 403"   # closed before accepting
    # "I am 127.0.0.7": 127.0.0.6 uses up its own limit, and 127.0.0.7 is untouched.
    statuses = [get(server, "127.0.0.6", "/j/QQQQ/", {"X-Forwarded-For": "127.0.0.7", "X-Real-IP": "127.0.0.7"})
                for _ in range(misses + 1)]
    assert statuses == [404] * misses + [429]
    assert get(server, "127.0.0.7", f"/j/{room.code}/") == 200
    assert socket_status(server, "127.0.0.7", room.code) == "open"
    # The server's own machine, asked directly, is not limited…
    assert [get(server, "127.0.0.1", "/j/QQQQ/") for _ in range(misses + 5)] == [404] * (misses + 5)
    # …but a request forwarded through it by a proxy nobody named is.
    statuses = [get(server, "127.0.0.1", "/j/QQQQ/", {"Forwarded": "for=127.0.0.9"}) for _ in range(misses + 1)]
    assert statuses[-1] == 429
    assert get(server, "127.0.0.1", f"/j/{room.code}/") == 200
