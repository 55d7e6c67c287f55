"""Rebuild a game from its seed and action log (DESIGN.md §3, §5)."""

from __future__ import annotations

from collections.abc import Iterable

from engines.base import Result, Ruleset


def replay(ruleset: Ruleset, players: int, options: dict, seed: int, deal: dict | None,
           actions: Iterable[tuple[int | None, dict]]) -> Result:
    """The state after applying ``actions`` (seat, action) to a fresh setup, and all events."""
    state, events = ruleset.setup(players, options, seed, deal)
    events = list(events)
    for seat, action in actions:
        state, new = ruleset.apply(state, seat, action)
        events.extend(new)
    return Result(state, events)
