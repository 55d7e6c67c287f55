"""The briefing every game opens with (engines/briefing.py): the first clock waits until every
player has seen their role, or until the host goes on; the engine underneath plays as before."""

from __future__ import annotations

import copy

import pytest

from engines import classic, registry
from engines.base import GAME_MASTER, HOST, PUBLIC, IllegalAction, MalformedAction, resolve_options
from engines.briefing import GO_ON, SEEN, briefed

SLUGS = [ruleset.slug for ruleset in registry.all()]


def started(slug: str, players: int | None = None):
    ruleset = registry.get(slug)
    players = players or ruleset.min_players
    state, events = ruleset.setup(players, resolve_options(ruleset, {}), 7)
    return ruleset, state, players


@pytest.mark.parametrize("slug", SLUGS)
def test_every_ruleset_opens_with_a_briefing_that_holds_its_clock(slug):
    ruleset, state, players = started(slug)
    assert state["clock"] is None and state["briefing"]["seen"] == [False] * players
    assert ruleset.legal_actions(state, GAME_MASTER) == []       # time stands still
    for seat in (*range(players), None):     # who has looked is public
        assert ruleset.view(state, seat)["briefing"] == {"waiting": players, "seen": [False] * players}
    for seat in range(players):
        assert SEEN in ruleset.legal_actions(state, seat)
    assert GO_ON in ruleset.host_moves(state) and GO_ON in ruleset.legal_actions(state, HOST)
    assert set(ruleset.waiting_for(state)) == set(range(players))


@pytest.mark.parametrize("slug", SLUGS)
def test_the_last_player_to_see_their_role_starts_the_engines_own_clock(slug):
    ruleset, state, players = started(slug)
    inner_clock = state["briefing"]["clock"]
    for seat in range(players):
        before = copy.deepcopy(state)
        state, events = ruleset.apply(state, seat, SEEN)
        assert events[0].kind == "role_seen" and events[0].data == {"seat": seat} and events[0].audience == PUBLIC
        if seat < players - 1:
            assert state["clock"] is None and state["briefing"]["seen"].count(True) == seat + 1
            with pytest.raises(IllegalAction):      # nobody confirms twice
                ruleset.apply(state, seat, SEEN)
        assert before == copy.deepcopy(before)
    assert [event.kind for event in events] == ["role_seen", "briefing_over"]
    assert state["briefing"] is None and state["clock"] == inner_clock
    assert SEEN not in ruleset.legal_actions(state, 0) and GO_ON not in ruleset.host_moves(state)
    assert ruleset.view(state, 0)["briefing"] is None


@pytest.mark.parametrize("slug", SLUGS)
def test_the_host_goes_on_without_waiting(slug):
    ruleset, state, players = started(slug)
    state, _ = ruleset.apply(state, 0, SEEN)
    with pytest.raises(IllegalAction, match="host"):
        ruleset.apply(state, 1, GO_ON)
    state, events = ruleset.apply(state, HOST, GO_ON)
    assert [(e.kind, e.data) for e in events] == [("briefing_over", {"by_host": True})]
    assert state["briefing"] is None
    with pytest.raises(IllegalAction):
        ruleset.apply(state, 1, SEEN)


def test_players_act_during_the_briefing_and_a_clock_started_meanwhile_waits_too():
    """GRANNA's first night: the Agent checks before everyone has looked; the night goes on to
    its next step, whose clock is held in turn and is the one that runs once the briefing ends
    (rules B.2.5: a night step's clock)."""
    ruleset, state, players = started("granna", 8)
    first = state["briefing"]["clock"]
    assert first is not None
    seat, action = next((seat, move) for seat in range(players) for move in ruleset.legal_actions(state, seat)
                        if move != SEEN)
    state, _ = ruleset.apply(state, seat, action)
    assert state["clock"] is None and state["briefing"]["seen"] == [False] * players
    with pytest.raises(IllegalAction, match="role"):
        ruleset.apply(state, GAME_MASTER, first["move"])
    held = state["briefing"]["clock"]
    state, _ = ruleset.apply(state, HOST, GO_ON)
    assert state["clock"] == held


def test_bad_briefing_actions_are_refused_and_change_nothing():
    ruleset, state, players = started("mafie")
    for actor, action, error in ((0, {"type": "seen_role", "x": 1}, MalformedAction),
                                 (HOST, SEEN, MalformedAction), (players, SEEN, MalformedAction),
                                 (GAME_MASTER, SEEN, MalformedAction)):
        before = copy.deepcopy(state)
        with pytest.raises(error):
            ruleset.apply(state, actor, action)
        assert state == before


@pytest.mark.parametrize("slug", SLUGS)
def test_a_game_stored_before_briefings_replays_without_one(slug):
    """A new game's options are complete (resolve_options adds ``briefing``); a stored game's
    options from before have no such key, and its log's first clock move must still apply."""
    ruleset = registry.get(slug)
    # (and before moments: engines/moments.py, which came later)
    options = {key: value for key, value in resolve_options(ruleset, {}).items() if key not in ("briefing", "moments")}
    state, _ = ruleset.setup(ruleset.min_players, options, 7)
    assert "briefing" not in state and state == registry.engine(slug).setup(ruleset.min_players, options, 7).state
    assert ruleset.view(state, None)["briefing"] is None


def test_only_an_engine_wrapped_in_base_engine_can_be_briefed():
    assert briefed(classic.GRANNA).slug == "granna"
    with pytest.raises(TypeError, match="Engine"):
        briefed(object())
