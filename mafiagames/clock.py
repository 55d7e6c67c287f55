"""How far the game master's clock has run: pure arithmetic on a game's snapshot (``game_dict``).

An engine's ``state["clock"]`` says a move is due ``seconds`` after the clock started
(engines/base.py); the writer notes when it started (``Game.clock_started``) and when the host
paused (``Game.paused_at``).  The screens count down with this (rendering.py), the writer
checks a timed move is due with it (services.clock_move) and the scheduler arms the move
with it (timers.py).  ``CLOCK_SCALE`` (settings) shortens every clock for tests and demos.
"""

from __future__ import annotations

import time

from django.conf import settings


def time_left(game: dict, now: float | None = None) -> float | None:
    """Seconds the game's clock has left (≤ 0: due), None without a clock.  A paused clock
    stands still: its time left is what it had when the host paused."""
    clock = game["state"].get("clock") if game.get("status") == "running" else None
    if not clock or game.get("clock_started") is None:
        return None
    if game.get("paused_at") is not None:
        now = game["paused_at"]
    elif now is None:
        now = time.time()
    return game["clock_started"] + clock["seconds"] * settings.CLOCK_SCALE - now


def due_in(game: dict, now: float | None = None) -> float | None:
    """Seconds until the game's clock is due (≤ 0: now), None without a running clock (none,
    or the game is paused: nothing is due until it resumes)."""
    return None if game.get("paused_at") is not None else time_left(game, now)
