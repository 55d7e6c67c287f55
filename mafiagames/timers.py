"""The game master's own moves, made when their time has come (DESIGN.md §4: the app is the
game master).

An engine says what the server may do in a state (``legal_actions(state, None)``); today that
is closing a Plot Thickens reaction window once everyone asked has answered.  This module makes
that move through the one writer (``services.submit`` with the exact version, so a move can
never be made twice, by two processes or after a restart) at the earliest moment the rules
allow: a window closes ``PLOT_WINDOW_MIN_SECONDS`` after it opened, however quickly its
holders answered.

Each process watches the games its own taps change (``observe``, handed the committed game by
the writer) and, once after start, every running game (``resume``): a restart or a crashed
process only makes a window last a little longer, never stick.
"""

from __future__ import annotations

import asyncio
import logging

from django.conf import settings

from engines import registry
from engines.base import EngineError

from . import db

log = logging.getLogger(__name__)

_opened: dict[tuple[int, int], float] = {}   # (game id, window) → loop time this process saw it open
_armed: set[tuple[int, int]] = set()          # (game id, version) with a move scheduled
_resumed: set[asyncio.AbstractEventLoop] = set()


def after_commit(game) -> None:
    """From the writer thread, after a game changed: hand it to the event loop only if the game
    master may owe it a move now or soon (a reaction window is open) — not on every tap."""
    from .fanout import HUB
    from .tables import game_dict

    if (game.status != "running" or game.state.get("window")
            or registry.get(game.ruleset).legal_actions(game.state, None)):
        HUB.call_soon_threadsafe(observe, game_dict(game))


def observe(game: dict) -> None:
    """On the event loop, after a commit: note a window opening; schedule a due server move."""
    state, loop = game["state"], asyncio.get_running_loop()
    if game.get("status") != "running":   # over: forget its windows
        for key in [key for key in _opened if key[0] == game["id"]]:
            del _opened[key]
        return
    window = state.get("window")
    if window:
        _opened.setdefault((game["id"], window["opened"]), loop.time())
    moves = registry.get(game["ruleset"]).legal_actions(state, None)
    if not moves or (game["id"], game["version"]) in _armed:
        return
    opened = _opened.get((game["id"], window["opened"]), loop.time()) if window else loop.time()
    delay = max(0.0, opened + settings.PLOT_WINDOW_MIN_SECONDS - loop.time())
    _armed.add((game["id"], game["version"]))
    loop.call_later(delay, lambda: asyncio.ensure_future(_move(game["id"], game["version"], moves[0])))


async def _move(game_id: int, version: int, action: dict) -> None:
    from . import services
    from .tables import game_dict

    try:
        game = await db.write(services.submit, game_id, None, action, expected_version=version)
    except (services.ServiceError, EngineError):
        return   # someone (another process, a host who ended the game) got there first
    except Exception:  # noqa: BLE001 - a timer must not die silently; the next resume retries
        log.exception("server move %s on game %s failed", action, game_id)
        return
    finally:
        _armed.discard((game_id, version))
    observe(game_dict(game))


def resume() -> None:
    """Once per event loop (process start): schedule what running games are waiting for."""
    loop = asyncio.get_running_loop()
    if loop in _resumed:
        return
    _resumed.add(loop)
    asyncio.ensure_future(_resume())


async def _resume() -> None:
    for game in await db.read(_running_games):
        observe(game)


def _running_games() -> list[dict]:
    from .models import Game
    from .tables import game_dict

    return [game_dict(game) for game in Game.objects.filter(status=Game.Status.RUNNING)]
