"""Moments (engines/moments.py): a result the table waits for takes the stage for the game
master's few seconds; nobody moves meanwhile; then the engine's own clock comes back.  Checked
on random games of every ruleset (the example ruleset, tests/tiny, included), and on replay."""

from __future__ import annotations

import copy
import random

import pytest

from engines import registry
from engines.base import GAME_MASTER, HOST, PUBLIC, IllegalAction, MalformedAction, movers, resolve_options
from engines.briefing import briefed
from engines.moments import HISTORY, MOMENT_OVER, MOMENT_SECONDS, MOMENTS, paced
from engines.replay import replay
from tests import tiny

# Each ruleset as the app serves it, and the engine underneath its moments (briefing included).
INNER = {**{ruleset.slug: briefed(registry.engine(ruleset.slug)) for ruleset in registry.all()},
         "tiny": briefed(tiny.RULESET)}
RULESETS = [*registry.all(), paced(INNER["tiny"])]
IDS = [ruleset.slug for ruleset in RULESETS]


def play_until_moments(ruleset, seed: int, wanted: int = 4):
    """A random game with moments on, to its end or until ``wanted`` moments have ended: the
    log of (actor, action), and every (state before, actor, action, state after, events)."""
    players = ruleset.min_players + seed % (ruleset.max_players - ruleset.min_players + 1)
    options = {**resolve_options(ruleset, {}), MOMENTS.key: True}
    chooser = random.Random(f"moments:{ruleset.slug}:{seed}")
    state, _ = ruleset.setup(players, options, seed)
    log, steps = [], []
    while ruleset.outcome(state) is None and len(log) < 3000:
        seats = movers(ruleset, state)
        seat = chooser.choice(seats)
        action = chooser.choice(ruleset.legal_actions(state, seat))
        after, events = ruleset.apply(state, seat, action)
        log.append((seat, action))
        steps.append((state, seat, action, after, events))
        state = after
        if after["moments"]["past"] and after["moments"]["past"][-1]["n"] >= wanted:
            break
    return players, options, log, steps


def test_a_die_thrown_every_turn_stays_on_the_stage_shorter_than_a_vote():
    """Cosa Nostra's throw comes every turn (docs/rules/cosanostra.md §19.3): four seconds, not
    the eight a revealed vote needs; the layers the app serves it through keep its length."""
    assert registry.engine("cosanostra").moment_seconds == 4 < MOMENT_SECONDS
    assert registry.get("cosanostra").moment_seconds == 4
    assert all(registry.get(slug).moment_seconds is None for slug in ("mafie", "granna", "mafia_pl", "mrakoslapi"))


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_a_result_takes_the_stage_until_the_game_masters_clock_ends_it(ruleset):
    seen = 0
    for seed in range(3):
        players, _options, _log, steps = play_until_moments(ruleset, seed)
        for before, seat, action, after, events in steps:
            shown = [e for e in events if e.audience == PUBLIC and e.kind in ruleset.moments]
            if not before["moments"]["on"] and shown:
                seen += 1
                on = after["moments"]["on"]
                # The stage holds the public payload of exactly those events, for every screen.
                assert on["events"] == [{"kind": e.kind, "data": e.data} for e in shown]
                # For the engine's own length if it has one (Cosa Nostra's die), else the app's.
                seconds = ruleset.moment_seconds or MOMENT_SECONDS
                assert after["clock"] == {"id": -on["n"], "seconds": seconds, "move": MOMENT_OVER}
                # The engine's own clock, as the engine underneath left it, is held meanwhile.
                assert on["clock"] == INNER[ruleset.slug].apply(before, seat, action).state["clock"]
                for viewer in (None, *range(players)):
                    view = ruleset.view(after, viewer)
                    assert view["moment"] == {"n": on["n"], "events": on["events"]}
                _check_nobody_moves(ruleset, after, players)
                ended, over = ruleset.apply(after, GAME_MASTER, MOMENT_OVER)
                assert [(e.kind, e.audience) for e in over] == [("moment_over", PUBLIC)]
                assert ended["clock"] == on["clock"]          # the engine's clock comes back
                assert ended["moments"]["on"] is None
                assert ended["moments"]["past"][-1] == {"n": on["n"], "events": on["events"]}
                assert len(ended["moments"]["past"]) <= HISTORY
                assert ruleset.view(ended, None)["moments_past"] == ended["moments"]["past"]
    assert seen, f"{ruleset.slug}: no moment in three random games"


def _check_nobody_moves(ruleset, state, players):
    frozen = copy.deepcopy(state)
    assert ruleset.legal_actions(state, GAME_MASTER) == [MOMENT_OVER]
    assert ruleset.waiting_for(state) == [] and ruleset.host_moves(state) == []
    assert ruleset.proxy_moves(state) == {} and ruleset.removable(state) == []
    assert ruleset.outcome(state) is None                # even the game's last result has its moment
    for seat in range(players):
        assert ruleset.legal_actions(state, seat) == []
        with pytest.raises(IllegalAction, match="watching") as refused:
            ruleset.apply(state, seat, {"type": "seen_role"})
        assert refused.value.code == "moment"
    for actor, action in ((HOST, {"type": "go_on"}), (0, MOMENT_OVER), (HOST, MOMENT_OVER)):
        with pytest.raises(IllegalAction, match="watching"):
            ruleset.apply(state, actor, action)
    with pytest.raises(MalformedAction):
        ruleset.apply(state, GAME_MASTER, {**MOMENT_OVER, "n": 1})
    assert state == frozen                               # refusals change nothing


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_no_moment_no_moment_over(ruleset):
    state, _ = ruleset.setup(ruleset.min_players, {**resolve_options(ruleset, {}), MOMENTS.key: True}, 3)
    assert state["moments"] == {"on": None, "past": [], "count": 0}
    with pytest.raises(IllegalAction):
        ruleset.apply(state, GAME_MASTER, MOMENT_OVER)


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_a_game_with_moments_replays_to_the_same_states(ruleset):
    players, options, log, steps = play_until_moments(ruleset, 5)
    state, events = replay(ruleset, players, options, 5, None, log)
    assert state == steps[-1][3]
    assert any(e.kind == "moment_over" for e in events)


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_a_game_stored_without_moments_plays_without_them(ruleset):
    """Like a game stored before moments existed (its options lack the key): no stage, no
    history, and the views say so."""
    options = {key: value for key, value in resolve_options(ruleset, {}).items() if key != MOMENTS.key}
    state, _ = ruleset.setup(ruleset.min_players, options, 1)
    assert "moments" not in state
    view = ruleset.view(state, None)
    assert view["moment"] is None and view["moments_past"] == []


def test_moments_are_a_frozenset_of_event_kinds():
    with pytest.raises(TypeError, match="moments"):
        tiny.RULESET.__class__(**{**tiny.RULESET.__dict__, "moments": ["shown"]})
