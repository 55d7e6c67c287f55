"""After a game, the TV's player list and the host's seat rows include players who joined since (issue 14)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from .helpers import host_client, started_game

pytestmark = pytest.mark.django_db


def section(html: str, fragment: str) -> str:
    return re.search(rf'<section id="{fragment}".*?</section>', html, re.S).group(0)


@pytest.mark.parametrize("end", ["abandon"])
def test_players_who_join_after_a_game_appear_on_the_tv_and_in_the_host_controls(end):
    room, players, game = started_game()
    host = host_client(room)
    assert host.post(f"/r/{room.code}/host", {"command": end}).status_code == 204
    assert Client().post(f"/j/{room.code}/", {"name": "Zed"}).status_code in (200, 302, 303)
    for html in (Client().get(f"/r/{room.code}/").content.decode(), host.get(f"/r/{room.code}/").content.decode()):
        roster = section(html, "tv-players")
        assert "Zed" in roster and all(p.name in roster for p in players)
    assert "Zed" in section(host.get(f"/r/{room.code}/").content.decode(), "tv-host")   # the host's seat rows
