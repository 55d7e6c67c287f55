"""The game master runs from process start (timers.start, asgi.py): a real daphne started on a
database holding a game whose timed move fell due while the server was down makes that move
although no screen ever connects to it."""

from __future__ import annotations

import time
from datetime import timedelta

from django.conf import settings

from mafiagames import services
from mafiagames.models import Game
from tests.e2e.conftest import HANG_GUARD, Daphne
from tests.web.test_timers import game_at_a_window


def test_an_overdue_clock_is_served_at_start_with_no_screen_connected(transactional_db, output_dir):
    room, players, game = game_at_a_window()
    game = services.submit(game.pk, 3, {"type": "pass_plot"})   # answered: the game master closes it
    assert game.state["phase"] == "plot_window" and game.state["window"]["queue"] == []
    Game.objects.filter(pk=game.pk).update(clock_started=game.clock_started - timedelta(hours=1))
    server = Daphne(settings.DATABASES["default"]["NAME"], output_dir / "daphne.log")
    server.start()   # it answers /healthz; no websocket is ever opened
    try:
        end = time.monotonic() + HANG_GUARD   # a guard against a hang, not a budget: we wait on the server
        while Game.objects.get(pk=game.pk).version == game.version:
            assert time.monotonic() < end, "the overdue clock was never served"
            time.sleep(0.05)
        after = Game.objects.get(pk=game.pk)
        assert after.version == game.version + 1   # exactly the one timed move
        assert after.state["phase"] == "team_selection" and after.state["window"] is None
        assert list(after.events.filter(kind="plot_window_closed").values_list("version", flat=True)) == [after.version]
    finally:
        server.stop()
        server.log.close()
