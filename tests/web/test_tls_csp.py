"""Issue 14: a Content-Security-Policy on every page, and Secure cookies + HSTS behind TLS."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest
from django.test import Client

from mafiagames import seating

from .helpers import host_client, player_client, room_with_players, started_game
from .test_admin import played_game

pytestmark = pytest.mark.django_db

HTTPS = {"HTTP_X_FORWARDED_PROTO": "https"}   # what a TLS proxy in front of daphne adds


def policy(response) -> dict[str, list[str]]:
    header = response.headers["Content-Security-Policy"]
    return {name: values for name, *values in (part.split() for part in header.split(";") if part.strip())}


class Inline(HTMLParser):
    """What a page has inline that a policy without 'unsafe-inline' / 'unsafe-eval' blocks."""

    def __init__(self, html: str):
        super().__init__()
        self.found: list[str] = []
        self.htmx_config: dict = {}
        self._script = False
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script" and "src" not in attrs:
            self._script = True
        if tag == "style":
            self.found.append("<style>")
        for name, value in attrs.items():
            if name == "style" or name.startswith("on") or name.startswith("hx-on"):
                self.found.append(f"<{tag} {name}=...>")
            if name in ("href", "src", "action") and (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}=javascript:...>")
        if tag == "meta" and attrs.get("name") == "htmx-config":
            self.htmx_config = json.loads(attrs["content"])

    def handle_data(self, data):
        if self._script and data.strip():
            self.found.append("inline <script>")

    def handle_endtag(self, tag):
        if tag == "script":
            self._script = False


def pages(admin_client) -> dict[str, tuple[Client, str]]:
    """Every kind of page: home, join, the TV (lobby and game), the phone (lobby and game), admin."""
    lobby, (waiting,) = room_with_players(1)
    room, players, _game = started_game()
    game = played_game()
    return {
        "home": (Client(), "/"),
        "join": (Client(), f"/j/{lobby.code}/"),
        "tv lobby": (host_client(lobby), f"/r/{lobby.code}/"),
        "phone lobby": (player_client(waiting), f"/p/{lobby.code}/"),
        "tv game": (host_client(room), f"/r/{room.code}/"),
        "phone game": (player_client(players[0]), f"/p/{room.code}/"),
        "admin login": (Client(), "/admin/login/"),
        "admin game": (admin_client, f"/admin/mafiagames/game/{game.pk}/change/"),
        "admin replay": (admin_client, f"/admin/mafiagames/game/{game.pk}/replay/?step=2"),
        "not found": (Client(), "/r/NOSUCHROOM/"),
    }


def test_every_page_allows_only_our_own_scripts_styles_and_sockets(admin_client):
    for name, (client, url) in pages(admin_client).items():
        response = client.get(url)
        assert response.status_code in (200, 404), name
        csp = policy(response)
        assert csp["script-src"] == ["'self'"], name        # no inline script, no eval
        assert csp["style-src"] == ["'self'"], name         # no <style>, no style="..."
        assert csp["connect-src"] == ["'self'"], name       # the websocket goes to the same host
        assert csp["default-src"] == ["'self'"] and csp["object-src"] == ["'none'"], name
        assert csp["base-uri"] == ["'none'"] and csp["frame-ancestors"] == ["'none'"], name
        assert not [v for values in csp.values() for v in values if "unsafe" in v], name


def test_no_page_has_anything_inline_the_policy_would_block(admin_client):
    for name, (client, url) in pages(admin_client).items():
        page = Inline(client.get(url).content.decode())
        assert page.found == [], name
        if page.htmx_config:
            # htmx 2 would otherwise add an indicator <style> to the page and eval hx-on / js: code
            assert page.htmx_config["includeIndicatorStyles"] is False, name
            assert page.htmx_config["allowEval"] is False, name


def test_every_cookie_is_secure_behind_tls():
    client = Client()
    client.get("/", **HTTPS)                                      # the CSRF cookie
    created = client.post("/", {"language": "en"}, **HTTPS)       # the host's cookie
    code = created.url.strip("/").split("/")[-1]
    joined = Client().post(f"/j/{code}/", {"name": "Alice"}, **HTTPS)  # a player's seat
    cookies = {**client.cookies, **joined.cookies}
    for name in ("csrftoken", seating.host_cookie_name(code), seating.player_cookie_name(code)):
        assert cookies[name]["secure"] is True, name
        assert cookies[name]["samesite"] == "Lax"


def test_cookies_still_work_over_plain_http_on_the_lan():
    client = Client()
    client.get("/")
    created = client.post("/", {"language": "en"})
    code = created.url.strip("/").split("/")[-1]
    assert not client.cookies["csrftoken"]["secure"]
    assert not created.cookies[seating.host_cookie_name(code)]["secure"]


def test_hsts_is_sent_only_over_https():
    secure = Client().get("/", **HTTPS)
    assert secure.headers["Strict-Transport-Security"].startswith("max-age=")
    assert int(secure.headers["Strict-Transport-Security"].split("=")[1].split(";")[0]) >= 60 * 60 * 24 * 180
    assert "Strict-Transport-Security" not in Client().get("/").headers


def test_a_form_posted_through_a_tls_proxy_passes_csrf(settings):
    """The browser's Origin is https://…; daphne sees http.  Without trusting the proxy's header
    Django compares it with http://… and refuses every form (403)."""
    settings.ALLOWED_HOSTS = ["mafia.example"]   # as PUBLIC_URL=https://mafia.example makes it
    client = Client(enforce_csrf_checks=True)
    client.get("/", HTTP_HOST="mafia.example", **HTTPS)
    response = client.post("/", {"language": "en", "csrfmiddlewaretoken": client.cookies["csrftoken"].value},
                           HTTP_HOST="mafia.example", HTTP_ORIGIN="https://mafia.example", **HTTPS)
    assert response.status_code == 302 and response.url.startswith("/r/")


def test_the_join_link_behind_tls_is_https():
    room, _ = room_with_players(0)
    html = host_client(room).get(f"/r/{room.code}/", **HTTPS).content.decode()
    assert re.search(r'class="url full">([^<]+)<', html).group(1).startswith("https://")
