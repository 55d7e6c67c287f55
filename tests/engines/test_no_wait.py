"""No table waits for nothing: wherever a game could stall, the host has a button that goes on.

A state stalls the table when the game is not over and either its clock (``state["clock"]``,
engines/base.py) runs longer than ``LONG_CLOCK`` seconds (minutes of a table looking at a
countdown), or nobody is awaited and no clock runs (the game would sit there for good).  In
such a state ``host_moves`` must offer at least one move, and one of them must move the game on
(its application changes the state).  A short clock with nobody awaited (a moment on the stage, a
silence before a vote) is no stall: it ends by itself in seconds.

Cheap on purpose: random games of every registered ruleset, as the contract suite plays them
(tests/engines/playthrough.py, memoised: run with the contract suite, these games are already
played), for a spread of each ruleset's option sets.
"""

from __future__ import annotations

import pytest

from engines import registry
from engines.base import GAME_MASTER
from tests import tiny
from tests.engines.playthrough import checked_apply, dump, option_combinations, playthroughs

LONG_CLOCK = 200        # seconds: longer than this, the host may go on without waiting it out
OPTION_SETS = 3         # option sets per ruleset, spread over its combinations

RULESETS = [*registry.all(), registry.served(tiny.RULESET)]


def spread(combinations: list[dict], count: int = OPTION_SETS) -> list[dict]:
    """``count`` option sets from first to last of ``combinations`` (the first is the defaults)."""
    if len(combinations) <= count:
        return combinations
    return [combinations[index * (len(combinations) - 1) // (count - 1)] for index in range(count)]


def stalls(ruleset, state) -> str | None:
    """Why ``state`` would keep the table waiting without a host's button, or None."""
    if ruleset.outcome(state) is not None:
        return None
    clock = state.get("clock")
    if clock and clock["seconds"] > LONG_CLOCK:
        return f"a clock of {clock['seconds']} s"
    if not ruleset.waiting_for(state) and not ruleset.legal_actions(state, GAME_MASTER):
        return "nobody awaited and no clock"
    return None


def goes_on(ruleset, state, move) -> bool:
    return dump(checked_apply(ruleset, state, "host", move).state) != dump(state)


def test_spread_takes_the_first_and_the_last_option_set():
    assert spread([{"a": 1}, {"a": 2}, {"a": 3}, {"a": 4}, {"a": 5}]) == [{"a": 1}, {"a": 3}, {"a": 5}]
    assert spread([{"a": 1}]) == [{"a": 1}]


def test_a_state_with_a_long_clock_or_nobody_to_move_stalls():
    ruleset = registry.engine("mrakoslapi")
    state = {**ruleset.setup(6, {}, 1).state}
    assert stalls(ruleset, state) is None                       # a night: a minute at most
    assert stalls(ruleset, {**state, "clock": {**state["clock"], "seconds": 600}}) == "a clock of 600 s"


@pytest.mark.parametrize("ruleset", RULESETS, ids=[r.slug for r in RULESETS])
def test_wherever_the_table_could_wait_the_host_can_go_on(ruleset):
    checked = 0
    for options in spread(option_combinations(ruleset)):
        for play in playthroughs(ruleset, options):
            for state in play.states:
                why = stalls(ruleset, state)
                if why is None:
                    continue
                checked += 1
                moves = ruleset.host_moves(state)
                assert moves, (str(play), why, state.get("phase"), state.get("day"))
                assert any(goes_on(ruleset, state, move) for move in moves), (str(play), why, moves)
    if ruleset.slug == "mrakoslapi":
        assert checked, "every Mrakošlapi day opens with a floor of minutes"
