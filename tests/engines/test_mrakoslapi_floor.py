"""The Mrakošlapi floor through the engine (rules §5.2, §11.3 "Closing the floor", "Ending the
discussion"): an accusation and a "ready" majority close it in either order, and the host's
button ends the discussion now, doing what the floor's clock would do at that point."""

from __future__ import annotations

import pytest

from engines.base import GAME_MASTER, HOST, IllegalAction
from engines.mrakoslapi import cards as C
from engines.mrakoslapi.engine import RULESET

END_DISCUSSION = {"type": "end_discussion"}
# Six players, nobody with a night card: night 1 has no meaning (rules §4.1), day 1 starts at once.
DEAL = {"hands": [[{"type": C.MRAKOSLAP, "no": seat + 1}] for seat in range(6)]}


def day_one():
    """Day 1 on the floor, six players alive, nobody accused or ready."""
    state, _ = RULESET.setup(6, {}, 3, DEAL)
    assert state["phase"] == "day" and state["day"]["state"] == "FLOOR"
    return state


def play(state, *moves):
    for seat, move in moves:
        state, _ = RULESET.apply(state, seat, move)
    return state


def ready(seat):
    return seat, {"type": "ready"}


def accuse(seat, target):
    return seat, {"type": "accuse", "target": target, "claim": C.SLINA}


def test_the_floor_closes_at_whichever_comes_last_an_accusation_or_a_ready_majority():
    # A majority ready (4 of 6), then the first accusation: it closes the floor.
    state = play(day_one(), ready(0), ready(1), ready(2), ready(3))
    assert state["day"]["state"] == "FLOOR" and state["clock"]["move"] == {"type": "close_floor"}
    state = play(state, accuse(4, 5))
    assert state["day"]["state"] == "DEFENCE" and state["day"]["candidates"] == [5]
    assert state["clock"]["move"] == {"type": "defence_timeout", "seat": 5}
    # An accusation, then the ready majority: the last "ready" closes it.
    state = play(day_one(), accuse(4, 5), ready(0), ready(1))
    assert state["day"]["state"] == "FLOOR"                     # 2 of 6
    state = play(state, ready(2))
    assert state["day"]["state"] == "FLOOR"                     # 3 of 6: half is no majority
    state = play(state, ready(3))
    assert state["day"]["state"] == "DEFENCE" and state["day"]["candidates"] == [5]


def test_the_host_can_end_the_discussion_on_the_floor_only():
    state = day_one()
    assert RULESET.host_moves(state) == [END_DISCUSSION] == RULESET.legal_actions(state, HOST)
    with pytest.raises(IllegalAction):              # the clock keeps to its own move
        RULESET.apply(state, GAME_MASTER, END_DISCUSSION)
    with pytest.raises(IllegalAction):              # a player has no such button
        RULESET.apply(state, 0, END_DISCUSSION)
    defence, _ = RULESET.apply(state, HOST, END_DISCUSSION)
    assert RULESET.host_moves(defence) == []
    with pytest.raises(IllegalAction):
        RULESET.apply(defence, HOST, END_DISCUSSION)


def test_ending_the_discussion_without_an_accusation_accuses_everyone_as_the_clock_would():
    state = day_one()
    assert state["clock"]["seconds"] == 300                     # T_floor_auto
    by_host, _ = RULESET.apply(state, HOST, END_DISCUSSION)
    by_clock, _ = RULESET.apply(state, GAME_MASTER, state["clock"]["move"])
    assert by_host == by_clock
    assert by_host["day"]["state"] == "DEFENCE" and by_host["day"]["candidates"] == [0, 1, 2, 3, 4, 5]
    assert RULESET.host_moves(by_host) == []


def test_ending_the_discussion_with_an_accusation_closes_the_floor_as_the_clock_would():
    state = play(day_one(), accuse(4, 5), accuse(0, 2), ready(1))
    assert state["clock"]["seconds"] == 600                     # T_floor_max
    by_host, _ = RULESET.apply(state, HOST, END_DISCUSSION)
    by_clock, _ = RULESET.apply(state, GAME_MASTER, state["clock"]["move"])
    assert by_host == by_clock
    assert by_host["day"]["state"] == "DEFENCE" and by_host["day"]["candidates"] == [5, 2]
