"""The game master's own timed moves (engines/base.py "clock", timers.py): a Plot Thickens
reaction window that everyone has answered is closed by the server — not before its minimum
time, exactly once, and after a restart at the time it was due, not later."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from engines import mafie
from engines.mafie import plot_cards
from mafiagames import db, screens, services, taps, timers
from mafiagames.tables import game_dict
from mafiagames.fanout import HUB
from mafiagames.models import Game, Room

from .helpers import room_with_players, start_after_briefing

pytestmark = pytest.mark.django_db(transaction=True)
MIN_SECONDS = 0.3
SCALE = MIN_SECONDS / mafie.PLOT_WINDOW_SECONDS


def game_at_a_window():
    """7 players, plot cards on; Strong Leader to seat 3; a crew rejected: seat 3 is asked."""
    room, players = room_with_players(7)
    options = {"targeting": False, "blind_detectives": False, "plot_cards": True, "plot_distribution": "cz"}
    Room.objects.filter(pk=room.pk).update(options=options)   # not offered to hosts yet
    room.refresh_from_db()
    deck = ["strong_leader", "opinion_maker"]
    rest = list(plot_cards.deck(7))
    for card in deck:
        rest.remove(card)
    game = start_after_briefing(room, seed=5, deal={"kmotr": 0, "plot_deck": deck + rest})
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


def test_a_clock_starts_when_its_id_changes_and_keeps_its_start_while_it_stays():
    started = timezone.now() - timedelta(seconds=30)
    clock = {"id": 3, "seconds": 4, "move": {"type": "close_window"}}
    assert services.clock_started({"clock": None}, {"clock": clock}, None) is not None
    assert services.clock_started({"clock": clock}, {"clock": {**clock, "seconds": 8}}, started) == started
    renewed = services.clock_started({"clock": clock}, {"clock": {**clock, "id": 4}}, started)
    assert renewed > started
    assert services.clock_started({"clock": clock}, {"clock": None}, started) is None
    assert services.clock_started({}, {}, None) is None   # an engine without clocks


def test_a_window_opening_starts_its_clock_in_the_database_and_due_in_counts_from_it():
    room, players, game = game_at_a_window()
    assert game.state["clock"] == {"id": game.state["window"]["opened"], "seconds": mafie.PLOT_WINDOW_SECONDS,
                                   "move": {"type": "close_window"}}
    stored = Game.objects.get(pk=game.pk)
    assert stored.clock_started == game.clock_started is not None
    start = stored.clock_started.timestamp()
    assert timers.due_in(game_dict(stored), now=start) == mafie.PLOT_WINDOW_SECONDS
    assert timers.due_in(game_dict(stored), now=start + 10) == mafie.PLOT_WINDOW_SECONDS - 10
    passed = services.submit(game.pk, 3, {"type": "pass_plot"})   # same window: same clock
    assert Game.objects.get(pk=game.pk).clock_started == stored.clock_started
    assert timers.due_in({**game_dict(passed), "status": "finished"}) is None


async def test_an_answered_window_is_closed_by_the_server_after_its_minimum_time(settings):
    settings.CLOCK_SCALE = SCALE
    room, players, game = await database_sync_to_async(game_at_a_window)()
    screen = Screen()
    await HUB.register(room.code, screen)
    try:
        form = taps.form_from_json({"action": "pass_plot", "turn": str(game.state["turn"])})
        result = await db.write(taps.tap_by_id, players[3].pk, players[3].token, form)   # the only holder passes at once
        assert result.status == 204
        closed_version = result.room_version + 1
        await until(screen, lambda: closed_version in screen.versions)
        after = await database_sync_to_async(Game.objects.get)(pk=game.pk)
        assert after.state["phase"] == "team_selection" and after.state["window"] is None
        assert after.state["clock"] is None and after.clock_started is None
        assert after.version == game.version + 2   # the pass, then exactly one close
        events = await database_sync_to_async(lambda: list(after.events.values_list("kind", "created")))()
        closes = [created for kind, created in events if kind == "plot_window_closed"]
        assert len(closes) == 1
        assert (closes[0] - game.clock_started).total_seconds() >= MIN_SECONDS   # not before its time
    finally:
        await HUB.unregister(room.code, screen)
        screens.forget(room.code)


async def test_after_a_restart_a_clock_that_fell_due_meanwhile_is_served_at_once(settings):
    """A process that starts finds running games the game master owes a move (timers.resume),
    due when their clock says — the clock's start is in the database, not in a process."""
    room, players, game = await database_sync_to_async(game_at_a_window)()
    game = await database_sync_to_async(services.submit)(game.pk, 3, {"type": "pass_plot"})
    assert game.state["window"]["queue"] == []   # answered, waiting for the game master
    long_ago = game.clock_started - timedelta(seconds=60)   # the process was down meanwhile
    await database_sync_to_async(Game.objects.filter(pk=game.pk).update)(clock_started=long_ago)
    stored = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert timers.due_in(game_dict(stored)) < 0   # so resume makes the move without waiting
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
