"""Pause and resume (issue 14): the host stops a running game and every clock with it; nothing
moves while it is paused — taps, the host's buttons, the game master's timed moves — though the
host can still end it; resuming goes on with the time the clock had left, also after a restart
(the pause is in the database); the log records both; the screens say so plainly."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from mafiagames import screens, services, timers
from mafiagames.fanout import HUB
from mafiagames.models import Event, Game
from mafiagames.tables import game_dict

from .helpers import NINE, host_client, player_client, polish_discussion, room_with_players, start_after_briefing, started_game
from .test_timers import SCALE, Screen, game_at_a_window, until

pytestmark = pytest.mark.django_db(transaction=True)


def host_says(room, command: str, **data):
    return host_client(room).post(f"/r/{room.code}/host", {"command": command, **data})


def test_while_paused_nobody_moves_the_host_can_end_it_and_the_log_says_so():
    room, players, game = started_game(5)
    assert host_says(room, "pause").status_code == 204
    tap = player_client(players[3]).post(f"/p/{room.code}/act", {"action": "ready", "turn": game.state["turn"]})
    assert tap.status_code == 409 and "The game is paused." in tap.content.decode()
    paused = Game.objects.get(pk=game.pk)
    assert paused.state == game.state and paused.version == game.version and paused.paused_at is not None
    with pytest.raises(services.Conflict, match="The game is paused."):
        services.submit(game.pk, None, {"type": "ready"})   # the game master's seat too
    refused = host_says(room, "pause")
    assert refused.status_code == 409 and "The game is paused." in refused.content.decode()
    assert host_says(room, "resume").status_code == 204
    assert player_client(players[3]).post(
        f"/p/{room.code}/act", {"action": "ready", "turn": game.state["turn"]}).status_code == 204
    assert host_says(room, "resume").status_code == 409   # not paused
    assert host_says(room, "pause").status_code == 204
    assert host_says(room, "abandon").status_code == 204  # End game still works
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABANDONED
    log = list(Event.objects.filter(game=game, kind__startswith="game_").values_list("kind", "version", "audience"))
    # Events of the log at the version they happened (no action was applied: replay is unchanged).
    assert log == [("game_paused", 0, "public"), ("game_resumed", 0, "public"), ("game_paused", 1, "public")]


def test_only_the_host_pauses_and_resumes():
    room, players, game = started_game(5)
    assert player_client(players[0]).post(f"/r/{room.code}/host", {"command": "pause"}).status_code == 403
    assert Game.objects.get(pk=game.pk).paused_at is None
    assert host_says(room, "pause").status_code == 204
    assert player_client(players[0]).post(f"/r/{room.code}/host", {"command": "resume"}).status_code == 403
    assert Game.objects.get(pk=game.pk).paused_at is not None


def test_the_host_buttons_of_the_game_are_refused_while_paused():
    room, players, game = polish_discussion()
    assert host_says(room, "pause").status_code == 204
    tv = host_client(room).get(f"/r/{room.code}/").content.decode()
    assert 'value="end_discussion"' not in tv and 'value="resume"' in tv
    refused = host_says(room, "move", move="end_discussion", turn=game.state["turn"])
    assert refused.status_code == 409 and "The game is paused." in refused.content.decode()
    assert Game.objects.get(pk=game.pk).version == game.version


def test_the_screens_say_it_is_paused_and_the_countdown_stands_still():
    room, players = room_with_players(9)
    services.configure(room, "mafia_pl", {"doctor": True})
    game = start_after_briefing(room, seed=3, deal={"roles": NINE})   # the agent's night step: a clock
    assert game.state["clock"] is not None
    before = {p.pk: player_client(p).get(f"/p/{room.code}/").content.decode() for p in players}
    assert all("data-deadline" in html and "The game is paused." not in html for html in before.values())
    assert host_says(room, "pause").status_code == 204
    tv = host_client(room).get(f"/r/{room.code}/").content.decode()
    assert 'class="paused-banner"' in tv and ">Paused<" in tv and "data-deadline" not in tv
    assert "(paused)" in tv                                  # the time left, frozen
    for player in players:
        html = player_client(player).get(f"/p/{room.code}/").content.decode()
        assert "The game is paused." in html and "data-deadline" not in html and "(paused)" in html
    assert host_says(room, "resume").status_code == 204
    html = player_client(players[0]).get(f"/p/{room.code}/").content.decode()
    assert "The game is paused." not in html and "data-deadline" in html


def test_resume_goes_on_with_the_time_the_clock_had_left(monkeypatch):
    room, players, game = game_at_a_window()
    started = game.clock_started
    now = {"t": started + timedelta(seconds=10)}
    monkeypatch.setattr(services.timezone, "now", lambda: now["t"])
    paused = services.pause_game(room)
    left = timers.time_left(game_dict(paused))
    assert timers.due_in(game_dict(paused)) is None   # nothing is due while paused
    now["t"] = started + timedelta(minutes=30)        # whatever happens meanwhile (a restart…)
    stored = Game.objects.get(pk=game.pk)
    assert timers.time_left(game_dict(stored), now=now["t"].timestamp()) == left   # frozen, from the database
    resumed = services.resume_game(room)
    assert resumed.clock_started == started + timedelta(minutes=30) - timedelta(seconds=10)
    assert timers.due_in(game_dict(Game.objects.get(pk=game.pk)), now=now["t"].timestamp()) == left


def test_a_timed_move_is_neither_made_while_paused_nor_before_it_is_due():
    room, players, game = game_at_a_window()
    game = services.submit(game.pk, 3, {"type": "pass_plot"})   # answered: the game master closes it
    move = game.state["clock"]["move"]
    with pytest.raises(services.NotDue):      # a timer armed before a pause and an early resume
        services.clock_move(game.pk, game.version, move)
    Game.objects.filter(pk=game.pk).update(clock_started=game.clock_started - timedelta(hours=1))   # overdue
    services.pause_game(room)
    with pytest.raises(services.Conflict, match="The game is paused."):
        services.clock_move(game.pk, game.version, move)
    assert Game.objects.get(pk=game.pk).version == game.version


async def test_paused_across_a_restart_the_move_waits_for_resume_and_its_time_left(settings):
    settings.CLOCK_SCALE = SCALE
    room, players, game = await database_sync_to_async(game_at_a_window)()
    game = await database_sync_to_async(services.submit)(game.pk, 3, {"type": "pass_plot"})
    await database_sync_to_async(services.pause_game)(room)
    # A restart: the process forgets every armed timer, then looks at the running games again.
    timers._armed.clear()
    await timers._resume()
    assert not any(key[0] == game.pk for key in timers._armed)   # paused: nothing is armed
    version = (await database_sync_to_async(lambda: room.__class__.objects.get(pk=room.pk).version)())
    screen = Screen()
    await HUB.register(room.code, screen)
    try:
        resumed = await database_sync_to_async(services.resume_game)(room)   # the writer re-arms the clock
        await until(screen, lambda: version + 2 in screen.versions)   # the resume, then the close
        after = await database_sync_to_async(Game.objects.get)(pk=game.pk)
        assert after.state["phase"] == "team_selection" and after.version == game.version + 1
        closed = await database_sync_to_async(
            lambda: Event.objects.get(game=after, kind="plot_window_closed").created)()
        due = resumed.clock_started + timedelta(seconds=game.state["clock"]["seconds"] * SCALE)
        assert closed >= due   # not before the time it had left when it was paused
    finally:
        await HUB.unregister(room.code, screen)
        screens.forget(room.code)
