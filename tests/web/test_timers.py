"""The game master's own moves: a Plot Thickens reaction window that everyone has answered is
closed by the server — not before its minimum time, and exactly once (timers.py)."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async

from engines import mafie_plot
from mafiagames import db, screens, services, taps, timers
from mafiagames.fanout import HUB
from mafiagames.models import Game, Room

from .helpers import room_with_players

pytestmark = pytest.mark.django_db(transaction=True)
MIN_SECONDS = 0.3


def game_at_a_window():
    """7 players, plot cards on; Strong Leader to seat 3; a crew rejected: seat 3 is asked."""
    room, players = room_with_players(7)
    options = {"targeting": False, "blind_detectives": False, "plot_cards": True, "plot_distribution": "cz"}
    Room.objects.filter(pk=room.pk).update(options=options)   # not offered to hosts yet
    room.refresh_from_db()
    deck = ["strong_leader", "opinion_maker"]
    rest = list(mafie_plot.deck(7))
    for card in deck:
        rest.remove(card)
    game = services.start_game(room, seed=5, deal={"kmotr": 0, "plot_deck": deck + rest})
    for seat in range(7):
        game = services.submit(game.pk, seat, {"type": "ready"})
    game = services.submit(game.pk, 0, {"type": "assign_plot_card", "card": 1, "to": 3})
    game = services.submit(game.pk, 0, {"type": "assign_plot_card", "card": 2, "to": 5})
    game = services.submit(game.pk, 0, {"type": "propose_team", "team": [0, 1]})
    for seat in [5, 0, 1, 2, 3, 4, 6]:   # the Opinion Maker first
        game = services.submit(game.pk, seat, {"type": "vote", "approve": False})
    assert game.state["phase"] == "plot_window" and game.state["window"]["queue"] == [3]
    return room, players, game


class Screen:
    """Stands in for a socket: notes every version it is told about."""

    def __init__(self):
        self.versions: list[int] = []
        self.changed = asyncio.Event()

    def refresh_soon(self, version):
        self.versions.append(version)
        self.changed.set()


async def until(screen: Screen, done, timeout: float = 10.0) -> None:
    async def wait():
        while not done():
            screen.changed.clear()
            await screen.changed.wait()
    await asyncio.wait_for(wait(), timeout)


async def test_an_answered_window_is_closed_by_the_server_after_its_minimum_time(settings):
    settings.PLOT_WINDOW_MIN_SECONDS = MIN_SECONDS
    room, players, game = await database_sync_to_async(game_at_a_window)()
    screen = Screen()
    await HUB.register(room.code, screen)
    try:
        loop = asyncio.get_running_loop()
        timers.observe({"id": game.pk, "ruleset": game.ruleset, "state": game.state, "version": game.version,
                        "status": game.status})   # the window opened: this process saw it
        opened = loop.time()
        form = taps.form_from_json({"action": "pass_plot", "turn": str(game.state["turn"])})
        result = await db.write(taps.tap_by_id, players[3].pk, form)   # the only holder passes at once
        assert result.status == 204
        closed_version = result.room_version + 1
        await until(screen, lambda: closed_version in screen.versions)
        assert loop.time() - opened >= MIN_SECONDS   # not before its minimum time
        after = await database_sync_to_async(Game.objects.get)(pk=game.pk)
        assert after.state["phase"] == "team_selection" and after.state["window"] is None
        assert after.version == game.version + 2   # the pass, then exactly one close
        kinds = await database_sync_to_async(lambda: list(after.events.values_list("kind", flat=True)))()
        assert kinds.count("plot_window_closed") == 1
        assert any(key[0] == game.pk for key in timers._opened)
        timers.observe({"id": game.pk, "ruleset": game.ruleset, "state": after.state, "version": after.version,
                        "status": "finished"})
        assert not any(key[0] == game.pk for key in timers._opened)   # a game over is forgotten
    finally:
        await HUB.unregister(room.code, screen)
        screens.forget(room.code)


async def test_after_a_restart_waiting_windows_are_closed_too(settings):
    """A process that starts finds running games the game master owes a move (timers.resume)."""
    settings.PLOT_WINDOW_MIN_SECONDS = 0.05
    room, players, game = await database_sync_to_async(game_at_a_window)()
    game = await database_sync_to_async(services.submit)(game.pk, 3, {"type": "pass_plot"})
    assert game.state["window"]["queue"] == []   # answered, waiting for the game master
    version = (await database_sync_to_async(Room.objects.get)(pk=room.pk)).version
    screen = Screen()
    await HUB.register(room.code, screen)
    try:
        timers._resumed.discard(asyncio.get_running_loop())   # as if this process had just started
        timers.resume()
        await until(screen, lambda: version + 1 in screen.versions)
        after = await database_sync_to_async(Game.objects.get)(pk=game.pk)
        assert after.state["phase"] == "team_selection" and after.version == game.version + 1
    finally:
        await HUB.unregister(room.code, screen)
        screens.forget(room.code)
