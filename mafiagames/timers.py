"""The game master's own timed moves (docs/design.md §4: the app is the game master).

An engine says when it owes a timed move with ``state["clock"]`` (engines/base.py): ``move``
is due ``seconds`` after the clock started.  The writer notes when each clock started
(``Game.clock_started``, wall time, so every process and a restarted one agree); this module
makes the move at that moment through the one writer (``services.submit`` with the exact
version, so a move can never be made twice, by two processes or after a restart), and only if
the engine still lists it among the game master's legal moves (a Plot Thickens window closes
only once everyone asked has answered, rules §A.3.3).

Each process watches the games its own taps change (``after_commit``: the writer tells it of
every committed game change through notify.py, apps.py connects the two) and, once as it starts, every running game (``start``/``resume``, asgi.py): a restart
or a crashed process only makes a step last a little longer, never stick — even if no screen
ever connects to the process again.
How far a clock has run is clock.py's arithmetic.

The same scheduler plays the bots (a seat the host filled with one: services.add_bot; the
ruleset's ``bot``, engines/base.py): when a game awaits a bot seat, the bot's move is made
``settings.BOT_SECONDS`` later — paced, so the table can follow it — as that seat, through the
writer a phone's tap goes through (``services.submit``), at exactly the version it was planned
at.  One bot at a time: each move (a bot's, a phone's, the clock's) is a new version, and each
new version plans afresh, so a bot that was overtaken simply plans again.  A bot's move the
engine refuses is a bug in that bot: it is logged and that bot stops (in this process; the host
can still remove its seat), rather than being tried again for ever.  A restarted process
resumes the bots of running games like their clocks.

The same scheduler paces the story told at a finished game's end (story.py): each step holds
the stage ``story.STEP_SECONDS`` after it was shown (``Game.story_moved``), then the writer
shows the next (``services.story_tick``, at exactly the step shown, so never twice), until the
last step, the host's All, or the next game.
"""

from __future__ import annotations

import asyncio
import logging

from django.conf import settings

from engines import registry
from engines.base import GAME_MASTER, EngineError

from . import db, services, story
from .clock import due_in, time_left
from .fanout import HUB
from .models import Game, game_dict

__all__ = ["after_commit", "bot_move", "due_in", "observe", "resume", "start", "time_left"]

log = logging.getLogger(__name__)

_armed: set[tuple] = set()   # (game id, version, clock start) with a move scheduled
_resumed: set[asyncio.AbstractEventLoop] = set()
_stopped: set[tuple[int, int]] = set()   # (game id, seat): a bot whose move was refused


def after_commit(game) -> None:
    """From the writer thread, after a game's change committed (notify.py): hand it to the
    event loop only if it has a clock running or bots (the game master may owe it a move) —
    not on every tap of every game."""
    if game.status == "running" and (game.state.get("clock") or game.bots) or game.story_moved is not None:
        HUB.call_soon_threadsafe(observe, game_dict(game))


def observe(game: dict) -> None:
    """On the event loop, after a commit: schedule a bot's move if the game awaits one, and
    the clock's move if it is legal now (a finished game: its story's next step)."""
    if game["status"] == "finished":
        _observe_story(game)
        return
    _observe_clock(game)
    _observe_bots(game)


def _observe_clock(game: dict) -> None:
    delay = due_in(game)
    # The clock's start is in the key: a resume moves it, and the move is armed anew for then.
    key = (game["id"], game["version"], game["clock_started"])
    if delay is None or key in _armed:
        return
    move = game["state"]["clock"]["move"]
    if move not in registry.get(game["ruleset"]).legal_actions(game["state"], GAME_MASTER):
        return   # not yet (someone still to answer): a later commit will bring it here again
    _armed.add(key)
    asyncio.get_running_loop().call_later(max(0.0, delay), lambda: asyncio.ensure_future(_move(key, move)))


async def _move(key: tuple, action: dict) -> None:
    game_id, version, _started = key
    await _write(key, f"server move {action}", services.clock_move, game_id, version, action)


async def _write(key: tuple, what: str, write, *args) -> None:
    """A scheduled write (a clock's move, the story's next step) on the writer, then whatever
    the game is owed next; a write that came too early (armed before a pause or the host's own
    step) is armed again for its new time."""
    try:
        game = await db.write(write, *args)
    except services.NotDue as early:
        _armed.discard(key)
        observe(game_dict(early.game))
        return
    except (services.ServiceError, EngineError):
        return   # someone (another process, the host who ended, paused or moved on) got there first
    except Exception:  # noqa: BLE001 - a timer must not die silently; the next resume retries
        log.exception("%s on game %s failed", what, args[0])   # every write takes the game first
        return
    finally:
        _armed.discard(key)
    observe(game_dict(game))


def _observe_bots(game: dict) -> None:
    """Arm the move of the first bot seat the game awaits, ``BOT_SECONDS`` from now, at this
    version (the module's docstring); nothing while the game is paused (resuming observes it
    again)."""
    if not game.get("bots") or game["status"] != "running" or game.get("paused_at") is not None:
        return
    key = ("bot", game["id"], game["version"])
    if key in _armed:
        return
    planned = bot_move(game)
    if planned is None:
        return
    _armed.add(key)
    seat, move = planned
    asyncio.get_running_loop().call_later(settings.BOT_SECONDS,
                                          lambda: asyncio.ensure_future(_play(key, seat, move)))


def bot_move(game: dict) -> tuple[int, dict] | None:
    """The seat and move of the first bot the game awaits that has a move now, or None."""
    ruleset = registry.get(game["ruleset"])
    if ruleset.bot is None:
        return None
    for seat in ruleset.waiting_for(game["state"]):
        if seat in game["bots"] and (game["id"], seat) not in _stopped:
            try:
                move = ruleset.bot(game["state"], seat)
            except Exception:  # noqa: BLE001 - a bot's bug must not stop the clock or the other bots
                _stopped.add((game["id"], seat))
                log.exception("the bot of seat %s in game %s stops: it failed to choose", seat, game["id"])
                continue
            if move is not None:
                return seat, move
    return None


async def _play(key: tuple, seat: int, move: dict) -> None:
    """A bot's move, as its seat, through the writer a phone's tap goes through; the scheduled
    writes' handling (``_write``): overtaken, paused or over, the next version plans afresh."""
    _bot, game_id, version = key
    await _write(key, f"bot move {move} of seat {seat}", _submit_as_bot, game_id, seat, move, version)


def _submit_as_bot(game_id: int, seat: int, move: dict, version: int):
    """On the writer: the bot's move at the version it was planned at.  A move the engine
    refuses is a bug in the bot: it stops rather than try again for ever."""
    try:
        return services.submit(game_id, seat, move, expected_version=version)
    except EngineError as refused:
        _stopped.add((game_id, seat))
        log.error("the bot of seat %s in game %s stops: its move %s was refused (%s: %s)",
                  seat, game_id, move, refused.code, refused.message)
        raise


def _observe_story(game: dict) -> None:
    delay = story.due_in(game)
    key = ("story", game["id"], game["story"]["step"], game["story"]["moved"])
    if delay is None or key in _armed:
        return
    _armed.add(key)
    asyncio.get_running_loop().call_later(max(0.0, delay), lambda: asyncio.ensure_future(_tell(key)))


async def _tell(key: tuple) -> None:
    _story, game_id, step, _moved = key
    await _write(key, f"story step {step}", services.story_tick, game_id, step)


def start() -> None:
    """On the server's event loop as it starts (asgi.py), before any screen connects: pings and
    timed moves run on this loop from now on, and running games get what they are owed — a
    clock that fell due while the server was down is served now, not when a screen connects."""
    HUB.adopt(asyncio.get_running_loop())
    resume()


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
    """Games the scheduler owes something: a running clock or bots, or a story still pacing itself."""
    return [game_dict(game) for game in [*Game.objects.running().exclude(clock_started=None, bots=[]),
                                         *Game.objects.finished().exclude(story_moved=None)]]
