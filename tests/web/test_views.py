"""HTTP views: strangers get 404, bad input a message, names are escaped (docs/design.md §7)."""

from __future__ import annotations

import re

import pytest
from django.core import signing
from django.test import Client, override_settings

from mafiagames import addresses, seating, services
from mafiagames.models import Game, Player, Room

from .helpers import everyone_ready, host_client, player_client, room_with_players, started_game

# transaction=True: phone taps run on the writer thread (mafiagames/db.py), on its own connection.
pytestmark = pytest.mark.django_db(transaction=True)
HOSTILE = '<script>alert("x")</script>'


def test_healthz_answers_ok(client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.content == b"ok"


def test_home_creates_a_room_in_the_chosen_language_and_makes_this_browser_the_host(client):
    response = client.post("/", {"language": "cs"})
    room = Room.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/r/{room.code}/"
    assert room.language == "cs"
    assert seating.is_host(room, {k: v.value for k, v in response.cookies.items()})


def test_home_refuses_an_unknown_language(client):
    response = client.post("/", {"language": "xx"})
    assert response.status_code == 400 and b"Unknown language" in response.content
    assert not Room.objects.exists()


@pytest.mark.parametrize("url", ["/r/QQQQ/", "/j/QQQQ/", "/p/QQQQ/", "/r/TOOLONG/", "/j/x/"])
def test_unknown_room_is_404(client, url):
    assert client.get(url).status_code == 404


def test_unknown_room_posts_are_404(client):
    assert client.post("/p/QQQQ/act", {"action": "ready", "turn": 0}).status_code == 404
    assert client.post("/r/QQQQ/host", {"command": "start"}).status_code == 404


def test_join_seats_the_phone_and_a_reload_keeps_the_seat(client):
    room, _ = room_with_players(0)
    response = client.post(f"/j/{room.code}/", {"name": "  Zoe "})
    assert response.status_code == 302 and response["Location"] == f"/p/{room.code}/"
    player = Player.objects.get(room=room)
    assert player.name == "Zoe"
    # The browser keeps the signed token: the join page now sends it straight back to its seat.
    assert client.get(f"/j/{room.code}/")["Location"] == f"/p/{room.code}/"
    page = client.get(f"/p/{room.code}/")
    assert page.status_code == 200 and b"Zoe" in page.content


def test_join_with_bad_names_shows_a_message_and_seats_nobody(client):
    room, _ = room_with_players(1)
    for name, message in [("", b"Please type a name"), ("x" * 30, b"at most 24"), ("alice", b"already uses")]:
        response = client.post(f"/j/{room.code}/", {"name": name})
        assert response.status_code == 400 and message in response.content
    assert room.players.count() == 1


def test_hostile_names_are_escaped_on_every_screen(client):
    room, _ = room_with_players(4)
    response = client.post(f"/j/{room.code}/", {"name": HOSTILE[:24]})
    assert response.status_code == 302
    hostile = Player.objects.get(room=room, name=HOSTILE[:24])
    pages = [host_client(room).get(f"/r/{room.code}/"), player_client(hostile).get(f"/p/{room.code}/")]
    services.start_game(room, seed=3)
    pages += [host_client(room).get(f"/r/{room.code}/"), player_client(hostile).get(f"/p/{room.code}/")]
    for page in pages:
        html = page.content.decode()
        assert "<script>alert" not in html
        assert "&lt;script&gt;alert(&quot;x&quot;)" in html
    # An over-long hostile name is refused, and the refusal echoes it escaped.
    response = Client().post(f"/j/{room.code}/", {"name": HOSTILE * 3})
    assert response.status_code == 400 and "<script>alert" not in response.content.decode()


def test_phone_page_without_a_token_sends_the_browser_to_join(client):
    room, _ = room_with_players(1)
    assert client.get(f"/p/{room.code}/")["Location"] == f"/j/{room.code}/"


def test_a_forged_or_foreign_token_never_reaches_a_seat():
    room, players = room_with_players(2)
    other, other_players = room_with_players(2)
    alice = players[0]
    forged = signing.dumps({"r": room.code, "p": alice.pk, "t": "guess"}, salt=seating.PLAYER_SALT)
    tampered = seating.player_token(alice)[:-3] + "abc"
    unsigned = signing.dumps({"r": room.code, "p": alice.pk, "t": alice.token}, salt="other")
    for value in [forged, tampered, unsigned, "garbage"]:
        client = Client()
        client.cookies[seating.player_cookie_name(room.code)] = value
        assert client.get(f"/p/{room.code}/")["Location"] == f"/j/{room.code}/"
        assert client.post(f"/p/{room.code}/act", {"action": "ready", "turn": 0}).status_code == 403
    # A valid token for another room, copied under this room's cookie name, is refused too.
    client = Client()
    client.cookies[seating.player_cookie_name(room.code)] = seating.player_token(other_players[0])
    assert client.get(f"/p/{room.code}/")["Location"] == f"/j/{room.code}/"


def test_act_applies_the_phones_action_for_its_own_seat_only():
    room, players, game = started_game()
    response = player_client(players[3]).post(f"/p/{room.code}/act", {"action": "ready", "turn": game.state["turn"]})
    assert response.status_code == 204
    game.refresh_from_db()
    assert game.state["ready"] == [3]


@pytest.mark.parametrize("data, message", [
    ({"action": "ready"}, b"malformed"),
    ({"action": "ready", "turn": "x"}, b"malformed"),
    ({"action": "dance", "turn": "1"}, b"Unknown action"),
    ({"action": "vote", "choice": "maybe", "turn": "1"}, b"approve or reject"),
    ({"action": "propose_team", "team": ["a"], "turn": "1"}, b"Not a player"),
])
def test_malformed_input_gets_400_with_a_message_and_changes_nothing(data, message):
    room, players, game = started_game()
    response = player_client(players[0]).post(f"/p/{room.code}/act", data)
    assert response.status_code == 400
    assert message in response.content
    assert b'id="flash"' in response.content
    assert Game.objects.get(pk=game.pk).version == game.version


def test_out_of_turn_action_gets_409_with_a_message_and_changes_nothing():
    room, players, game = started_game()
    game = everyone_ready(game)
    response = player_client(players[1]).post(
        f"/p/{room.code}/act", {"action": "propose_team", "team": ["0", "1"], "turn": game.state["turn"]})
    assert response.status_code == 409 and b"Only the Godfather" in response.content
    stale = player_client(players[0]).post(f"/p/{room.code}/act", {"action": "ready", "turn": "0"})
    assert stale.status_code == 409 and b"out of date" in stale.content
    assert Game.objects.get(pk=game.pk).version == game.version


def test_messages_are_in_the_rooms_language():
    room, players, game = started_game(language="cs")
    response = player_client(players[0]).post(f"/p/{room.code}/act", {"action": "ready"})
    assert response.status_code == 400
    assert "požadavek" in response.content.decode()


def test_only_the_host_may_use_host_controls():
    room, players = room_with_players(5)
    assert player_client(players[0]).post(f"/r/{room.code}/host", {"command": "start"}).status_code == 403
    assert Client().post(f"/r/{room.code}/host", {"command": "start"}).status_code == 403
    assert not Game.objects.exists()
    assert host_client(room).post(f"/r/{room.code}/host", {"command": "start"}).status_code == 204
    assert Game.objects.filter(room=room, status="running").count() == 1


def test_host_configures_reorders_and_kicks_in_the_lobby():
    room, players = room_with_players(5)
    host = host_client(room)
    assert host.post(f"/r/{room.code}/host", {"command": "configure", "ruleset": "mafie",
                                              "opt-targeting": "on"}).status_code == 204
    room.refresh_from_db()
    assert room.options == {"targeting": True, "blind_detectives": False,
                            "plot_cards": False, "plot_distribution": "cz",
                            "briefing": True,   # not the host's choice: how every game opens (engines/briefing.py)
                            "moments": True}    # nor this: the settings decide it as a game starts (engines/moments.py)
    assert host.post(f"/r/{room.code}/host", {"command": "configure", "ruleset": "mafie", "opt-plot_cards": "on",
                                              "opt-plot_distribution": "ultraboardgames"}).status_code == 204
    room.refresh_from_db()
    assert room.options["plot_cards"] is True and room.options["plot_distribution"] == "ultraboardgames"
    refused = host.post(f"/r/{room.code}/host", {"command": "configure", "ruleset": "mafie",
                                                 "opt-plot_distribution": "twenty"})
    assert refused.status_code == 400
    room.refresh_from_db()
    assert room.options["plot_distribution"] == "ultraboardgames"
    assert host.post(f"/r/{room.code}/host", {"command": "configure", "ruleset": "chess"}).status_code == 400
    assert host.post(f"/r/{room.code}/host", {"command": "down", "player": players[0].pk}).status_code == 204
    assert [p.name for p in room.players.all()][:2] == ["Bob", "Alice"]
    assert host.post(f"/r/{room.code}/host", {"command": "kick", "player": players[4].pk}).status_code == 204
    assert room.players.count() == 4
    assert host.post(f"/r/{room.code}/host", {"command": "kick", "player": "x"}).status_code == 400
    assert host.post(f"/r/{room.code}/host", {"command": "explode"}).status_code == 400


def test_host_cannot_kick_during_a_game_and_can_start_the_next_with_the_same_players():
    room, players, game = started_game()
    host = host_client(room)
    assert host.post(f"/r/{room.code}/host", {"command": "kick", "player": players[1].pk}).status_code == 409
    assert host.post(f"/r/{room.code}/host", {"command": "abandon"}).status_code == 204
    assert Game.objects.get(pk=game.pk).status == "abandoned"
    assert host.post(f"/r/{room.code}/host", {"command": "start"}).status_code == 204
    new = room.current_game()
    assert new.pk != game.pk and new.seats == game.seats


@override_settings(PUBLIC_URL="")
def test_qr_join_url_never_points_at_localhost(monkeypatch, settings):
    monkeypatch.setattr(addresses, "_interface_addresses", lambda: ["192.168.1.20"])
    settings.ALLOWED_HOSTS = addresses.allowed_hosts("", "")   # as by default: this machine's names
    room, _ = room_with_players(0)
    html = host_client(room).get(f"/r/{room.code}/", HTTP_HOST="localhost:8000", SERVER_PORT="8000").content.decode()
    url = re.search(r'class="url full">([^<]+)<', html).group(1)
    assert url.endswith(f"/j/{room.code}/") and "localhost" not in url and "127.0.0.1" not in url
    assert "<svg" in html
    lan = host_client(room).get(f"/r/{room.code}/", HTTP_HOST="192.168.1.20:8000",
                                SERVER_PORT="8000").content.decode()
    assert f'class="url full">http://192.168.1.20:8000/j/{room.code}/<' in lan


@override_settings(PUBLIC_URL="http://games.lan:9000")
def test_public_url_wins_for_the_join_link():
    room, _ = room_with_players(0)
    html = Client().get(f"/r/{room.code}/").content.decode()
    assert f"http://games.lan:9000/j/{room.code}/" in html


def test_tv_shows_no_host_controls_to_other_browsers():
    room, _ = room_with_players(5)
    assert b"Host controls" in host_client(room).get(f"/r/{room.code}/").content
    assert b"Host controls" not in Client().get(f"/r/{room.code}/").content


def test_an_option_not_offered_to_hosts_is_neither_shown_nor_accepted(monkeypatch):
    """An option whose screens are still being built (``Option.offered = False``) stays hidden."""
    import dataclasses

    from engines import mafie

    hidden = [dataclasses.replace(o, offered=False) if o.key == "plot_cards" else o for o in mafie.OPTIONS]
    monkeypatch.setattr(mafie, "OPTIONS", hidden)
    room, _players = room_with_players(5)
    host = host_client(room)
    assert "Plot Thickens" not in host.get(f"/r/{room.code}/").content.decode()
    refused = host.post(f"/r/{room.code}/host", {"command": "configure", "ruleset": "mafie", "opt-plot_cards": "on"})
    assert refused.status_code == 400 and "plot_cards" in refused.content.decode()
    room.refresh_from_db()
    assert room.options.get("plot_cards", False) is False


def test_every_template_is_compiled_when_the_server_starts():
    """asgi.py compiles them up front: no player waits for a template's first parse mid-game."""
    from pathlib import Path

    from django.conf import settings
    from django.template import engines

    import mafiagames.asgi  # noqa: F401 - importing it is the server start

    loader = engines["django"].engine.template_loaders[0]
    cached = set(loader.get_template_cache)
    folder = Path(settings.TEMPLATES[0]["DIRS"][0])
    assert {str(path.relative_to(folder)) for path in folder.rglob("*.html")} <= cached
