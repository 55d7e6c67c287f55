"""Rebuild a game from its seed and action log (DESIGN.md §3, §5).

One way to replay, for the tests and for the admin's step-by-step review: set up with the
game's seed and deal, then apply each logged (seat, action) in order.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from engines.base import Result, Ruleset, State


def states(ruleset: Ruleset, players: int, options: dict, seed: int, deal: dict | None,
           actions: Iterable[tuple[int | None, dict]]) -> Iterator[Result]:
    """The fresh setup, then the state and new events after each action in turn."""
    result = ruleset.setup(players, options, seed, deal)
    yield result
    state = result.state
    for seat, action in actions:
        state, new = ruleset.apply(state, seat, action)
        yield Result(state, new)


def replay(ruleset: Ruleset, players: int, options: dict, seed: int, deal: dict | None,
           actions: Iterable[tuple[int | None, dict]]) -> Result:
    """The state after applying ``actions`` (seat, action) to a fresh setup, and all events."""
    state: State = {}
    events: list = []
    for state, new in states(ruleset, players, options, seed, deal, actions):
        events.extend(new)
    return Result(state, events)
