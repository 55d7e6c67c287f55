"""Issue 14's small ones: foreign form charsets, tracebacks in the log, the key file, the Host header."""

from __future__ import annotations

import io
import logging
import os
import re
import stat

import pytest
from django.test import Client, override_settings
from django.urls import path

from mafiagames import addresses, settings as project_settings
from mafiagames.models import Player

from .helpers import host_client, player_client, room_with_players


def boom(request):
    raise ZeroDivisionError("a view that fails")


urlpatterns = [path("boom/", boom)]   # for the logging test (pytest.mark.urls)

UTF16_FORM = "name=Bob&command=start&action=vote".encode("utf-16")


@pytest.mark.django_db
@pytest.mark.parametrize("charset", ["utf-16", "UTF-16LE", "latin-1", "no-such-charset"])
def test_a_form_in_another_charset_gets_400_before_csrf_and_changes_nothing(charset):
    room, players = room_with_players(2)
    rooms_before, players_before = type(room).objects.count(), Player.objects.count()
    content_type = f"application/x-www-form-urlencoded; charset={charset}"
    # enforce_csrf_checks: without the charset check, CSRF reads the form first and fails with 500
    for client, url in ((Client(enforce_csrf_checks=True), "/"), (Client(enforce_csrf_checks=True), f"/j/{room.code}/"),
                        (host_client(room), f"/r/{room.code}/host"), (player_client(players[0]), f"/p/{room.code}/act")):
        client.raise_request_exception = False
        response = client.generic("POST", url, UTF16_FORM, content_type=content_type)
        assert response.status_code == 400, url
        assert "UTF-8" in response.content.decode()
    multipart = Client(raise_request_exception=False).generic(
        "POST", f"/j/{room.code}/", b"--x\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nBob\r\n--x--\r\n",
        content_type=f"multipart/form-data; boundary=x; charset={charset}")
    assert multipart.status_code == 400
    assert (type(room).objects.count(), Player.objects.count()) == (rooms_before, players_before)


@pytest.mark.django_db
def test_a_utf8_form_still_goes_through():
    room, _ = room_with_players(0)
    response = Client().post(f"/j/{room.code}/", "name=Bob".encode(),
                             content_type="application/x-www-form-urlencoded; charset=UTF-8")
    assert response.status_code in (200, 302, 303)
    assert room.players.filter(name="Bob").exists()


@pytest.mark.urls(__name__)
def test_a_view_error_is_logged_with_its_traceback_when_debug_is_off(settings, monkeypatch):
    settings.DEBUG = False
    handler = logging.getLogger("django.request").handlers[0]
    stream = io.StringIO()
    monkeypatch.setattr(handler, "stream", stream)
    assert Client(raise_request_exception=False).get("/boom/").status_code == 500
    logged = stream.getvalue()
    assert "Traceback" in logged and "ZeroDivisionError: a view that fails" in logged


def test_a_new_secret_key_file_is_readable_by_its_owner_only(tmp_path, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.setenv("SECRET_KEY_FILE", str(tmp_path / "key"))
    key = project_settings._secret_key()
    assert stat.S_IMODE(os.stat(tmp_path / "key").st_mode) == 0o600
    assert project_settings._secret_key() == key and len(key) > 40   # kept across restarts


def test_an_old_world_readable_key_file_is_tightened(tmp_path, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    (tmp_path / "key").write_text("an-old-key")
    os.chmod(tmp_path / "key", 0o644)
    monkeypatch.setenv("SECRET_KEY_FILE", str(tmp_path / "key"))
    assert project_settings._secret_key() == "an-old-key"
    assert stat.S_IMODE(os.stat(tmp_path / "key").st_mode) == 0o600


def join_url_on_tv(host_header: str, server_port: str = "8000") -> str:
    room, _ = room_with_players(0)
    html = host_client(room).get(f"/r/{room.code}/", HTTP_HOST=host_header, SERVER_PORT=server_port).content.decode()
    return re.search(r'class="url full">([^<]+)<', html).group(1)


@pytest.mark.django_db
@override_settings(PUBLIC_URL="", ALLOWED_HOSTS=["*"])   # the unsafe setting: any Host reaches the view
def test_a_foreign_host_header_never_reaches_the_join_url_or_qr(monkeypatch):
    monkeypatch.setattr(addresses, "lan_address", lambda: "192.168.1.20")
    room, _ = room_with_players(0)
    html = host_client(room).get(f"/r/{room.code}/", HTTP_HOST="evil.example:8000", SERVER_PORT="8000").content.decode()
    assert "evil.example" not in html
    assert f'class="url full">http://192.168.1.20:8000/j/{room.code}/<' in html


@pytest.fixture
def gamebox(monkeypatch, settings):
    """This machine is "gamebox" at 10.0.0.7, and ALLOWED_HOSTS is derived as by default."""
    monkeypatch.setattr(addresses, "_interface_addresses", lambda: ["10.0.0.7"])
    monkeypatch.setattr(addresses, "lan_address", lambda: "10.0.0.7")
    monkeypatch.setattr(addresses.socket, "gethostname", lambda: "gamebox")
    settings.ALLOWED_HOSTS = addresses.allowed_hosts("", "")
    settings.PUBLIC_URL = ""


@pytest.mark.django_db
def test_a_host_header_naming_this_machine_is_kept(gamebox):
    assert join_url_on_tv("10.0.0.7:8000").startswith("http://10.0.0.7:8000/j/")
    assert join_url_on_tv("gamebox.local:8000").startswith("http://gamebox.local:8000/j/")
    assert join_url_on_tv("GameBox:8000").startswith("http://GameBox:8000/j/")


@pytest.mark.django_db
def test_the_join_url_has_the_port_the_server_listens_on_not_the_host_headers(gamebox):
    """The Host header is the client's to write, port included: the server's own port is known."""
    assert join_url_on_tv("10.0.0.7:9999", server_port="8000").startswith("http://10.0.0.7:8000/j/")
    assert join_url_on_tv("localhost:9999", server_port="8000").startswith("http://10.0.0.7:8000/j/")
    assert join_url_on_tv("10.0.0.7", server_port="8000").startswith("http://10.0.0.7:8000/j/")
    assert join_url_on_tv("10.0.0.7:9999", server_port="80").startswith("http://10.0.0.7/j/")


@pytest.mark.django_db
@override_settings(PUBLIC_URL="http://games.lan:9000")
def test_public_url_still_wins_over_the_servers_port():
    assert join_url_on_tv("localhost:9999", server_port="8000").startswith("http://games.lan:9000/j/")


def test_the_server_port_comes_from_the_asgi_scope():
    """What request.get_port() reads under daphne: ASGIRequest takes SERVER_PORT from scope["server"]."""
    from django.core.handlers.asgi import ASGIRequest
    scope = {"type": "http", "method": "GET", "path": "/", "query_string": b"", "headers": [(b"host", b"x:9999")],
             "server": ("0.0.0.0", 8000), "client": ("10.0.0.9", 5555)}
    assert ASGIRequest(scope, io.BytesIO()).get_port() == "8000"


def test_an_accusation_loses_controls_and_bidi_overrides():
    from mafiagames.presenters import mrakoslapi
    hostile = "Bob\x00 is\u202e lying\u200b\n\tsee\u2066 it\ue000"
    action = mrakoslapi.parse_action({"action": "accuse", "target": "1", "claim": "x", "text": hostile})
    assert action["text"] == "Bob is lying see it"
    assert mrakoslapi.parse_action({"action": "accuse", "target": "1", "text": "\u202e\x00 "})["text"] is None


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["Eve\u202e", "A\x00B", "Zero\u200bWidth", "\u2066Iso"])
def test_a_name_with_unshowable_characters_is_refused_with_a_message(name):
    room, _ = room_with_players(0)
    response = Client().post(f"/j/{room.code}/", {"name": name})
    assert "characters we cannot show" in response.content.decode()
    assert not room.players.exists()
