"""Cosa Nostra's gates at the start (docs/rules/cosanostra.md §4.3, §19.1): each family chooses
its gate and lays its start tiles with a 30 s clock of its own, started afresh when its turn to
choose comes; a timeout places only the family whose turn it is."""

from __future__ import annotations

import pytest

from engines.base import GAME_MASTER
from engines.cosanostra.state import BEFORE_ROLL, GATE_SECONDS, GATES
from tests.engines.cosanostra_helpers import ENGINE, START

TIMEOUT = {"type": "timeout"}


def started(players: int):
    state, _ = ENGINE.setup(players, {}, 5)
    assert state["phase"] == GATES and len(state["gate_queue"]) == players
    return state


def placed(state) -> list[int]:
    return [seat for seat, fam in enumerate(state["families"]) if fam["gate"] is not None]


@pytest.mark.parametrize("players", [3, 4])
def test_each_timeout_places_only_the_family_whose_turn_it_is_and_the_next_gets_a_fresh_clock(players):
    state = started(players)
    clocks = [state["clock"]]
    for turn, seat in enumerate(list(state["gate_queue"])):
        assert state["active"] == seat and len(placed(state)) == turn
        assert state["clock"]["seconds"] == GATE_SECONDS and state["clock"]["move"] == TIMEOUT
        assert ENGINE.waiting_for(state) == [seat]
        state, _ = ENGINE.apply(state, GAME_MASTER, TIMEOUT)
        assert seat in placed(state) and len(placed(state)) == turn + 1       # that family alone
        if turn < players - 1:
            assert state["phase"] == GATES and state["active"] != seat
            clocks.append(state["clock"])
    assert state["phase"] == BEFORE_ROLL
    ids = [clock["id"] for clock in clocks]
    assert len(ids) == players == len(set(ids))           # a new clock for every family


@pytest.mark.parametrize("players", [3, 4])
def test_a_slow_family_takes_no_time_from_the_next(players):
    """The first family chooses by hand (however long it took, its clock was its own); the
    next family's clock is a new one, in full."""
    state = started(players)
    first, second = state["gate_queue"][:2]
    before = state["clock"]
    gate, *cells = START[first]
    state, _ = ENGINE.apply(state, first, {"type": "choose_gate", "gate": gate})
    assert state["clock"] == before                       # still the first family's own clock
    for cell in cells:      # the gate cell is the first of the three start tiles
        state, _ = ENGINE.apply(state, first, {"type": "place_start", "cell": cell})
    assert state["active"] == second and placed(state) == [first]
    assert state["clock"]["id"] != before["id"] and state["clock"]["seconds"] == GATE_SECONDS
