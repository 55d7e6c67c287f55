"""Rebuild a game from its seed and action log (docs/design.md §3, §5).

One way to replay, for the tests and for the admin's step-by-step review: set up with the
game's seed and deal, then apply each logged (actor, action) in order.  Chance draws replay
by themselves (engines/chance.py: each is seeded by the seed and its number in the game).

How an action is logged is decided here too (``logged``), so the log and its replay agree:
who acted — a seat, the game master's clock or the host (engines/base.py) — and what.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from engines.base import GAME_MASTER, HOST, Action, Actor, Result, Ruleset, State

# How the actors besides the seats are written in the log.
_ACTOR_WORDS = {GAME_MASTER: "game_master", HOST: "host"}
_ACTORS = {word: actor for actor, word in _ACTOR_WORDS.items()}
# A log written before the host and the clock were told apart (both were seat None).
UNTOLD = "untold"


def logged(actor: Actor, action: Action) -> dict[str, Any]:
    """What the log keeps of one action: the seat (None if not a seat's), the action, and for
    an action that is no seat's, who made it."""
    if type(actor) is int:
        return {"seat": actor, "action": action}
    return {"seat": None, "actor": _ACTOR_WORDS[actor], "action": action}


def actor_of(data: dict[str, Any]) -> Actor:
    """Who made a logged action (``logged``'s ``data``); ``UNTOLD`` for an old log's None."""
    if data["seat"] is not None:
        return data["seat"]
    return _ACTORS.get(data.get("actor"), UNTOLD)


def states(ruleset: Ruleset, players: int, options: dict, seed: int, deal: dict | None,
           actions: Iterable[tuple[Actor, dict]]) -> Iterator[Result]:
    """The fresh setup, then the state and new events after each action in turn."""
    result = ruleset.setup(players, options, seed, deal)
    yield result
    state = result.state
    for actor, action in actions:
        if actor == UNTOLD:
            # Logs from before the actors were told apart: the clock's move if it was that, else
            # the host's (the only other non-seat actor).
            actor = GAME_MASTER if action in ruleset.legal_actions(state, GAME_MASTER) else HOST
        state, new = ruleset.apply(state, actor, action)
        yield Result(state, new)


def replay(ruleset: Ruleset, players: int, options: dict, seed: int, deal: dict | None,
           actions: Iterable[tuple[Actor, dict]]) -> Result:
    """The state after applying ``actions`` (actor, action) to a fresh setup, and all events."""
    state: State = {}
    events: list = []
    for state, new in states(ruleset, players, options, seed, deal, actions):
        events.extend(new)
    return Result(state, events)
