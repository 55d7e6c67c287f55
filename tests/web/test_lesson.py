""""How to play" (issue 16): the host steps through the lesson of the room's ruleset on the TV,
every phone reads along; the room keeps the slide (Room.lesson), so a reload or a restart of the
server shows the same one; only the host moves it, never during a game, never past either end;
the lobby offers it prominently until the room has played a game of its ruleset."""

from __future__ import annotations

import re

import pytest

from mafiagames import screens, services
from mafiagames.models import Game, Room
from mafiagames.rendering import lesson_slides

from .helpers import host_client, player_client, room_with_players

pytestmark = pytest.mark.django_db(transaction=True)


def host_says(room, command: str, **data):
    return host_client(room).post(f"/r/{room.code}/host", {"command": command, **data})


def lesson_of(room) -> dict | None:
    return Room.objects.get(pk=room.pk).lesson


def tv_page(room) -> str:
    return host_client(room).get(f"/r/{room.code}/").content.decode()


def test_the_host_starts_steps_back_and_ends_the_lesson_and_every_screen_shows_the_slide():
    room, players = room_with_players(5)
    slides = lesson_slides("mafie", {})
    assert host_says(room, "lesson_start").status_code == 204
    assert lesson_of(room) == {"ruleset": "mafie", "slide": 0}
    assert host_says(room, "lesson_next", slide=0).status_code == 204
    assert lesson_of(room)["slide"] == 1
    page = tv_page(room)
    assert 'class="main lesson' in page and f"2 / {len(slides)}" in page
    # The TV shows the slide's title as its main line, and reads the whole slide once per slide.
    assert f'<p class="line main-line">{slides[1]["title"]}</p>' in page
    assert 'data-speak-key="lesson:mafie:1"' in page
    for line in slides[1]["lines"]:
        assert line in page
    phone = player_client(players[2]).get(f"/p/{room.code}/").content.decode()
    assert "lesson-slide" in phone and slides[1]["title"] in phone and f"2 / {len(slides)}" in phone
    assert host_says(room, "lesson_back", slide=1).status_code == 204
    assert lesson_of(room)["slide"] == 0
    assert host_says(room, "lesson_end").status_code == 204
    assert lesson_of(room) is None
    assert "lesson-slide" not in tv_page(room)


def test_bounds_stale_slides_and_no_lesson_are_refused_and_change_nothing():
    room, _players = room_with_players(5)
    count = len(lesson_slides("mafie", {}))
    refused = host_says(room, "lesson_next", slide=0)
    assert refused.status_code == 409 and "How to play" in refused.content.decode()   # no lesson running
    assert host_says(room, "lesson_end").status_code == 409
    host_says(room, "lesson_start")
    back = host_says(room, "lesson_back", slide=0)
    assert back.status_code == 409 and "There is no slide that way." in back.content.decode()
    for index in range(count - 1):
        assert host_says(room, "lesson_next", slide=index).status_code == 204
    assert host_says(room, "lesson_next", slide=count - 1).status_code == 409
    # A second tap on Next from a screen still at the old slide does not move it twice.
    stale = host_says(room, "lesson_back", slide=count - 2)
    assert stale.status_code == 409 and "out of date" in stale.content.decode()
    assert host_says(room, "lesson_next", slide="x").status_code == 400
    assert lesson_of(room)["slide"] == count - 1


def test_only_the_host_moves_the_lesson():
    room, players = room_with_players(5)
    assert player_client(players[0]).post(f"/r/{room.code}/host", {"command": "lesson_start"}).status_code == 403
    assert lesson_of(room) is None
    host_says(room, "lesson_start")
    for command in ("lesson_next", "lesson_end"):
        assert player_client(players[0]).post(f"/r/{room.code}/host",
                                              {"command": command, "slide": 0}).status_code == 403
    assert lesson_of(room) == {"ruleset": "mafie", "slide": 0}


def test_no_lesson_while_a_game_runs_and_starting_a_game_ends_it():
    room, _players = room_with_players(5)
    host_says(room, "lesson_start")
    host_says(room, "lesson_next", slide=0)
    assert host_says(room, "start").status_code == 204
    assert lesson_of(room) is None
    refused = host_says(room, "lesson_start")
    assert refused.status_code == 409 and "A game is running" in refused.content.decode()
    assert lesson_of(room) is None


def test_switching_the_game_ends_the_lesson_changing_its_options_keeps_it():
    room, _players = room_with_players(5)
    host_says(room, "lesson_start")
    services.configure(room, "mafie", {"plot_cards": True})
    assert lesson_of(room) == {"ruleset": "mafie", "slide": 0}
    services.configure(room, "mafia_pl", {})
    assert lesson_of(room) is None


def test_a_restart_keeps_the_slide(monkeypatch):
    room, players = room_with_players(5)
    host_says(room, "lesson_start")
    host_says(room, "lesson_next", slide=0)
    host_says(room, "lesson_next", slide=1)
    screens.forget(room.code)   # the process's caches are gone: what is shown comes from the database
    table = screens._load(room.code).table
    assert table.lesson == {"ruleset": "mafie", "slide": 2}
    page = tv_page(room)
    assert 'data-speak-key="lesson:mafie:2"' in page
    assert lesson_slides("mafie", {})[2]["title"] in player_client(players[0]).get(f"/p/{room.code}/").content.decode()


def offer(room) -> str:
    """The class of the lobby's "How to play" button on the host's TV."""
    match = re.search(r'class="lesson-offer (\w+)"', tv_page(room))
    return match and match.group(1)


def test_the_offer_is_prominent_until_a_game_of_the_ruleset_was_played_in_the_room():
    room, _players = room_with_players(5)
    assert offer(room) == "first"
    services.start_game(room)
    services.abandon_game(room)
    assert offer(room) == "again"
    services.configure(room, "mafia_pl", {})
    assert offer(room) == "first"      # another game: not played here yet
    assert Game.objects.filter(room=room).count() == 1
    # Nobody but the host sees the button.
    assert "lesson-offer" not in player_client(room.players.first()).get(f"/p/{room.code}/").content.decode()


def test_every_phone_reads_the_same_slide_whoever_it_is():
    """The slide is public: every phone's panel during the lesson is one and the same fragment,
    whatever the seat played in the game before (here one the host ended)."""
    room, players = room_with_players(5)
    services.start_game(room)
    services.abandon_game(room)
    host_says(room, "lesson_start")
    panels = set()
    for player in players:
        page = player_client(player).get(f"/p/{room.code}/").content.decode()
        panels.add(re.search(r'<section id="ph-panel".*?</section>', page, re.S).group(0))
    assert len(panels) == 1 and "lesson-slide" in panels.pop()
