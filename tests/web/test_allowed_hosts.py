"""ALLOWED_HOSTS is derived (this machine's names, PUBLIC_URL's host, what the variable adds), not
"*": a page on a stranger's domain that resolves to the laptop (DNS rebinding) gets nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from django.test import Client

from mafiagames import addresses
from mafiagames.asgi import SameOriginValidator
from tests.e2e.conftest import ROOT

from .test_log_lines import log  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db   # /healthz asks the database


@pytest.fixture
def gamebox(monkeypatch):
    """This machine is "gamebox" at 10.0.0.7."""
    monkeypatch.setattr(addresses, "_interface_addresses", lambda: ["10.0.0.7"])
    monkeypatch.setattr(addresses, "lan_address", lambda: "10.0.0.7")
    monkeypatch.setattr(addresses.socket, "gethostname", lambda: "gamebox")


def status(host: str) -> int:
    return Client(raise_request_exception=False).get("/healthz", HTTP_HOST=host).status_code


def test_a_strangers_host_gets_400_and_one_line_in_the_log(log):  # noqa: F811
    assert status("evil.example") == 400
    assert status("evil.example:8000") == 400
    lines = log.getvalue().splitlines()
    assert len(lines) == 2 and all("DisallowedHost" in line for line in lines), lines


def test_this_machines_names_and_addresses_are_accepted(gamebox, settings):
    settings.ALLOWED_HOSTS = addresses.allowed_hosts("", "")
    for host in ("10.0.0.7:8000", "gamebox", "gamebox.local:8000", "GameBox:8000",
                 "localhost:8000", "127.0.0.1:8000", "[::1]:8000"):
        assert status(host) == 200, host
    assert status("evil.example:8000") == 400
    assert status("10.0.0.8:8000") == 400   # another machine's address


def test_the_variable_and_public_url_add_hosts(gamebox, settings):
    settings.ALLOWED_HOSTS = addresses.allowed_hosts("games.example, .party.lan", "http://[fd00::5]:8000")
    for host in ("games.example", "tv.party.lan:8000", "[fd00::5]:8000", "10.0.0.7:8000", "localhost"):
        assert status(host) == 200, host
    assert status("evil.example") == 400
    assert addresses.allowed_hosts("*", "http://games.lan") == ["*"]   # explicitly: anything (unsafe)


def test_a_new_address_is_accepted_once_looked_up_again(gamebox, monkeypatch):
    """A laptop that joins the Wi-Fi after the server started: its new address is accepted."""
    hosts, now = addresses.allowed_hosts("", ""), [1000.0]
    monkeypatch.setattr(addresses.time, "monotonic", lambda: now[0])
    assert "10.0.0.7" in list(hosts) and "192.168.1.20" not in list(hosts)
    monkeypatch.setattr(addresses, "_interface_addresses", lambda: ["192.168.1.20"])
    now[0] += addresses.AllowedHosts.REFRESH
    assert "192.168.1.20" in list(hosts)


def test_a_socket_to_a_strangers_host_is_refused_even_from_its_own_origin():
    def scope(host: bytes, origin: bytes) -> dict:
        return {"type": "websocket", "headers": [(b"host", host), (b"origin", origin)]}

    assert not SameOriginValidator.same_origin(scope(b"evil.example:8000", b"http://evil.example:8000"))
    assert SameOriginValidator.same_origin(scope(b"testserver", b"http://testserver"))
    assert SameOriginValidator.same_origin(scope(b"localhost:8000", b"http://localhost:8000"))


SHOW = "import django; from django.conf import settings; django.setup(); print(json.dumps(list(settings.ALLOWED_HOSTS)))"


def allowed_hosts_with(**env) -> list[str]:
    """settings.ALLOWED_HOSTS of a fresh process with these variables (as daphne would see it)."""
    clean = {k: v for k, v in os.environ.items() if k not in ("ALLOWED_HOSTS", "PUBLIC_URL")}
    out = subprocess.run([sys.executable, "-c", "import json; " + SHOW], cwd=ROOT, check=True, capture_output=True,
                         text=True, env={**clean, "DJANGO_SETTINGS_MODULE": "mafiagames.settings", "SECRET_KEY": "x", **env})
    return json.loads(out.stdout)


def test_settings_derive_allowed_hosts_from_the_machine_and_the_environment():
    default = allowed_hosts_with()
    assert "*" not in default and {"localhost", "127.0.0.1", "[::1]"} <= set(default)
    assert addresses.socket.gethostname().lower() in default
    widened = allowed_hosts_with(ALLOWED_HOSTS="games.example", PUBLIC_URL="http://mafia.lan:8000")
    assert {"games.example", "mafia.lan", "localhost"} <= set(widened)
    assert allowed_hosts_with(ALLOWED_HOSTS="*") == ["*"]
