"""The briefing every game opens with, as the screens serve it (engines/briefing.py): each phone
taps "I have seen my role" (a form every ruleset's phone reads alike), the TV counts, the host
may start without waiting, and the first night's clock starts only then."""

from __future__ import annotations

import pytest

from mafiagames import services, taps
from mafiagames.models import Game

from .helpers import NINE, host_client, player_client, room_with_players

pytestmark = pytest.mark.django_db


def polish_night():
    room, players = room_with_players(9)
    services.configure(room, "mafia_pl", {"doctor": True})
    game = services.start_game(room, seed=3, deal={"roles": NINE})
    return room, players, game


def tap(player, fields: dict):
    """A phone's tap as its socket sends it (consumers.py: taps.tap_by_id)."""
    return taps.tap_by_id(player.pk, player.token, taps.form_from_json(fields))


def test_the_first_nights_clock_starts_when_the_last_phone_has_seen_its_role():
    room, players, game = polish_night()
    assert game.state["phase"] == "agent" and game.state["clock"] is None and game.clock_started is None
    tv = host_client(room).get(f"/r/{room.code}/").content.decode()
    assert "The clock starts when 9 more players have seen their role." in tv
    assert "Start without waiting" in tv
    for player in players:
        phone = player_client(player)
        page = phone.get(f"/p/{room.code}/").content.decode()
        assert 'name="action" value="seen_role"' in page
        turn = str(Game.objects.get(pk=game.pk).state["turn"])
        assert tap(player, {"action": "seen_role", "turn": turn}).status == 204
        # A second tap is refused and changes nothing.
        before = Game.objects.get(pk=game.pk).version
        assert tap(player, {"action": "seen_role", "turn": turn}).status == 409
        assert Game.objects.get(pk=game.pk).version == before
    game = Game.objects.get(pk=game.pk)
    assert game.state["briefing"] is None and game.state["clock"] is not None and game.clock_started is not None
    assert "Start without waiting" not in host_client(room).get(f"/r/{room.code}/").content.decode()


def test_the_host_starts_without_waiting_and_the_clock_runs():
    room, players, game = polish_night()
    assert tap(players[0], {"action": "seen_role", "turn": str(game.state["turn"])}).status == 204
    host = host_client(room)
    assert host.post(f"/r/{room.code}/host", {"command": "move", "move": "go_on",
                                              "turn": game.state["turn"]}).status_code == 204
    game = Game.objects.get(pk=game.pk)
    assert game.state["briefing"] is None and game.clock_started is not None
    page = player_client(players[1]).get(f"/p/{room.code}/").content.decode()
    assert "seen_role" not in page and "countdown" in page
    # A phone may not start the clock for the others.
    room2, players2, game2 = polish_night()
    assert tap(players2[0], {"action": "go_on", "turn": str(game2.state["turn"])}).status == 400
    assert Game.objects.get(pk=game2.pk).state["briefing"] is not None
