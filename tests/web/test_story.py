"""The story told at a finished game's end (issue 16, "a reveal worth watching"; mafiagames/story.py):
every screen shows the step the server is at; the host steps through it (Back / Next / All) with
clear refusals; the server's clock paces it, also after a restart; the next game ends it; and
nothing of it reaches any screen while the game runs."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import timezone

from engines import registry
from mafiagames import screens, services, story, timers
from mafiagames.fanout import HUB
from mafiagames.models import Game, Room, game_dict
from mafiagames.rendering import phone_screen, tv_screen
from mafiagames.tables import load_table

from .helpers import FIVE_ROLES, host_client, room_with_players
from .test_timers import Screen, until

MAFIE = registry.get("mafie")
DAVE = 3   # a detective: he plays Fail on every crew he is on


def play_to_the_end(game: Game, stop_before_end: bool = False) -> Game:
    """Mafie, five players (Alice, Bob, Carol the mafia; Dave, Erin the detectives): every crew
    has Dave on it and is approved, and Dave plays Fail: three jobs foiled."""
    for _step in range(300):
        if game.status != Game.Status.RUNNING:
            return game
        state = game.state
        seat = MAFIE.waiting_for(state)[0]
        moves = MAFIE.legal_actions(state, seat)
        if state["phase"] == "team_vote":
            move = {"type": "vote", "approve": True}
        elif state["phase"] == "action_play":
            move = {"type": "play_action_card", "card": "fail" if seat == DAVE else "success"}
        elif state["phase"] == "team_selection":
            move = next(m for m in moves if m["type"] == "propose_team" and DAVE in m["team"])
        else:
            move = moves[0]   # ready
        if stop_before_end and state["phase"] == "action_play" and [r["result"] for r in state["track"] if r].count("fail") == 2:
            return game
        game = services.submit(game.pk, seat, move)
    raise AssertionError("the game did not end")


def finished_game():
    room, players = room_with_players(5)
    game = play_to_the_end(services.start_game(room, seed=1, deal={"roles": FIVE_ROLES, "kmotr": 0}))
    return room, players, Game.objects.get(pk=game.pk)


def host(room: Room, command: str, step) -> tuple[int, str]:
    response = host_client(room).post(f"/r/{room.code}/host", {"command": command, "step": str(step)})
    return response.status_code, response.content.decode()


def screens_of(room: Room) -> tuple[str, list[str]]:
    table = load_table(room)
    tv = "".join(tv_screen(table, host=True).values())
    return tv, ["".join(phone_screen(table, p["id"]).values()) for p in table.players]


@pytest.mark.django_db
def test_a_finished_game_tells_its_story_from_the_first_step_on_every_screen():
    room, players, game = finished_game()
    assert game.status == "finished" and game.outcome["winner"] == "detectives"
    assert (game.story_step, game.story_all) == (0, False) and game.story_moved == game.finished
    tv, phones = screens_of(room)
    assert 'data-story-step="0"' in tv and "Who was who" in tv
    assert 'value="story_next"' in tv   # the host's Next
    assert all('data-story-step="0"' in phone for phone in phones)
    # Each phone marks its own line: Dave's is the detectives' line, Alice's the mafia's.
    assert '<li class="mine">The detectives: Dave, Erin <span class="you">you</span></li>' in phones[DAVE]
    assert '<li class="mine">The Mafia: Alice, Bob, Carol <span class="you">you</span></li>' in phones[0]
    assert '<li class="mine">' not in tv


@pytest.mark.django_db
def test_the_host_steps_through_the_story_and_shows_it_all():
    room, players, game = finished_game()
    count = len(story.steps(game_dict(game), story.events_of(game.pk)))
    assert count == 4   # who was who, then three foiled jobs
    assert host(room, "story_next", 0)[0] == 204
    assert Game.objects.get(pk=game.pk).story_moved is not None   # paced on from there
    tv, phones = screens_of(room)
    assert 'data-story-step="1"' in tv and "Job 1: foiled" in tv and "Played Fail: Dave" in tv
    assert '<li class="mine">Played Fail: Dave <span class="you">you</span></li>' in phones[DAVE]
    assert "Who was who" in tv   # an earlier step, compact above the current one
    assert host(room, "story_back", 1)[0] == 204
    stored = Game.objects.get(pk=game.pk)
    assert (stored.story_step, stored.story_moved) == (0, None)   # back: it waits there for the host
    assert host(room, "story_next", 0)[0] == 204
    assert Game.objects.get(pk=game.pk).story_moved is not None   # next: paced on again
    assert host(room, "story_back", 1)[0] == 204
    assert host(room, "story_all", 0)[0] == 204
    stored = Game.objects.get(pk=game.pk)
    assert (stored.story_step, stored.story_all, stored.story_moved) == (count - 1, True, None)   # the pace stops
    tv, phones = screens_of(room)
    assert 'data-story-all="1"' in tv and all(f"Job {n}: foiled" in tv for n in (1, 2, 3))
    assert all('data-story-all="1"' in phone for phone in phones)


@pytest.mark.django_db
def test_the_story_refuses_what_cannot_be_done_and_changes_nothing():
    room, players, game = finished_game()
    version = Room.objects.get(pk=room.pk).version
    assert host(room, "story_back", 0) == (409, host(room, "story_back", 0)[1])
    assert "This is the first step of the story." in host(room, "story_back", 0)[1]
    assert "out of date" in host(room, "story_next", 2)[1]             # a stale screen
    assert host(room, "story_next", "x")[0] == 400                     # forged
    assert Client().post(f"/r/{room.code}/host", {"command": "story_next", "step": "0"}).status_code == 403
    for step in range(3):
        assert host(room, "story_next", step)[0] == 204
    status, message = host(room, "story_next", 3)
    assert status == 409 and "This is the last step of the story." in message
    assert host(room, "story_all", 3)[0] == 204
    assert "The whole story is shown already." in host(room, "story_all", 3)[1]
    assert Game.objects.get(pk=game.pk).story_step == 3
    assert Room.objects.get(pk=room.pk).version == version + 4   # three Nexts and one All, nothing else


@pytest.mark.django_db
def test_no_story_while_a_game_runs_and_nothing_of_it_on_any_screen():
    room, players = room_with_players(5)
    game = play_to_the_end(services.start_game(room, seed=1, deal={"roles": FIVE_ROLES, "kmotr": 0}),
                           stop_before_end=True)
    assert game.status == "running"
    status, message = host(room, "story_next", 0)
    assert status == 409 and "There is no finished game" in message
    table = load_table(room)
    assert table.story is None   # the log is not even read
    # Even handed the whole log, a running game's screens tell none of it.
    table.story = story.events_of(game.pk)
    for html in [*tv_screen(table, host=True).values(),
                 *(html for p in table.players for html in phone_screen(table, p["id"]).values())]:
        assert "data-story" not in html and "Played Fail" not in html and "story_next" not in html


@pytest.mark.django_db
def test_the_next_game_ends_the_story():
    room, players, game = finished_game()
    services.start_game(room, seed=2, deal={"roles": FIVE_ROLES, "kmotr": 0})
    assert Game.objects.get(pk=game.pk).story_moved is None   # not paced on
    with pytest.raises(services.Conflict):
        services.story_tick(game.pk, 0)
    status, message = host(room, "story_next", 0)
    assert status == 409 and "There is no finished game" in message
    tv, phones = screens_of(room)
    assert "data-story" not in tv and not any("data-story" in phone for phone in phones)


@pytest.mark.django_db(transaction=True)
async def test_the_server_paces_the_story_to_its_last_step_and_stops(settings):
    settings.CLOCK_SCALE = 0.02 / story.STEP_SECONDS   # each step holds the stage 20 ms
    room, players, game = await database_sync_to_async(finished_game)()
    last = 3
    screen = Screen()
    await HUB.register(room.code, screen)
    try:
        timers.observe(game_dict(game))   # as after the finishing tap's commit (notify.py)
        await until(screen, lambda: len(screen.versions) >= last)
        stored = await database_sync_to_async(Game.objects.get)(pk=game.pk)
        assert stored.story_step == last and stored.story_moved is None and not stored.story_all
        moved = await database_sync_to_async(lambda: stored.room.version)()
        assert moved == screen.versions[-1]
        # Told to the end: nothing more is owed (a step past the last is never shown).
        assert story.due_in(game_dict(stored)) is None
    finally:
        await HUB.unregister(room.code, screen)
        screens.forget(room.code)


@pytest.mark.django_db(transaction=True)
async def test_after_a_restart_the_story_goes_on_from_its_stored_step():
    room, players, game = await database_sync_to_async(finished_game)()
    await database_sync_to_async(services.story_move)(room, "next", expected_step=0)
    await database_sync_to_async(services.story_move)(room, "next", expected_step=1)
    long_ago = timezone.now() - timedelta(minutes=5)   # the process was down meanwhile
    await database_sync_to_async(Game.objects.filter(pk=game.pk).update)(story_moved=long_ago)
    version = (await database_sync_to_async(Room.objects.get)(pk=room.pk)).version
    screen = Screen()
    await HUB.register(room.code, screen)
    try:
        timers._resumed.discard(asyncio.get_running_loop())   # as if this process had just started
        timers.resume()
        await until(screen, lambda: version + 1 in screen.versions)
        stored = await database_sync_to_async(Game.objects.get)(pk=game.pk)
        assert stored.story_step == 3   # from step 2 on, not from the start
        assert stored.story_moved is None   # the last step: it stands
    finally:
        await HUB.unregister(room.code, screen)
        screens.forget(room.code)
