"""The Mrakošlapi engine (engines/mrakoslapi/engine.py): contract checks on fixed option sets
(beside the generic test_contract.py, which samples option combinations) and a no-leak check on
its views with the oracle of knowledge.py.  The scripted game is in
test_mrakoslapi_engine_game.py."""

from __future__ import annotations

import json
import random
from functools import lru_cache

import pytest

from engines.base import NOBODY, PUBLIC, EngineError, Outcome, resolve_options
from engines.mrakoslapi.engine import RULESET
from engines.replay import replay
from tests.engines.knowledge import mrakoslapi_variants
from tests.engines.playthrough import MAX_STEPS, checked_apply, dump, random_playthrough

ALT = {"gunman_nights": "odd", "atheist_blocks_tunnel_from": True, "votes_per_player": "unlimited",
       "max_rounds": "1", "astronom_can_save_others": False, "night_deadline_seconds": "30"}
OPTION_SETS = {"default": {}, "alt": ALT}
GAMES = [(players, name, seed) for players in (6, 7, 8) for name in OPTION_SETS
         for seed in (0, 1, 2)]
IDS = [f"{p}-{n}-{s}" for p, n, s in GAMES]


@lru_cache(maxsize=None)
def play(players: int, name: str, seed: int):
    return random_playthrough(RULESET, players, dict(OPTION_SETS[name]), seed)


def events_json(events):
    return [event.to_json() for event in events]


def test_metadata_and_options():
    assert (RULESET.slug, RULESET.title) == ("mrakoslapi", "Mrakošlapi")
    assert (RULESET.min_players, RULESET.max_players) == (6, 8)
    defaults = resolve_options(RULESET, {})
    assert defaults == {o.key: o.default for o in RULESET.options()}
    assert defaults["night_deadline_seconds"] == "60" and defaults["floor_auto_seconds"] == "300"
    with pytest.raises(ValueError):
        RULESET.setup(6, {"nonsense": 1}, 0)
    with pytest.raises(ValueError):
        RULESET.setup(5, {}, 0)


@pytest.mark.parametrize(("players", "name", "seed"), GAMES, ids=IDS)
def test_random_game_ends_with_an_outcome_and_survives_json(players, name, seed):
    game = play(players, name, seed)
    final = game.final
    result = RULESET.outcome(final)
    assert isinstance(result, Outcome) and result.winner and result.reason
    assert set(result.winners) <= set(range(players)) and result.winners
    assert len(game.steps) < MAX_STEPS
    assert RULESET.waiting_for(final) == []
    for seat in [None, *range(players)]:
        assert RULESET.legal_actions(final, seat) == []
        shown = RULESET.view(final, seat)
        assert json.loads(json.dumps(shown)) == shown
    turns = [state["turn"] for state in game.states]
    assert turns == sorted(turns)
    for state in game.states[:: 7]:
        assert json.loads(json.dumps(state)) == state
    for event in game.events:
        assert json.loads(json.dumps(event.to_json())) == event.to_json()
        assert event.audience in (PUBLIC, NOBODY) or (
            event.audience == sorted(set(event.audience))
            and set(event.audience) <= set(range(players)))
    # the reveal at game end has every played night's trace
    reveal = RULESET.view(final, None)["reveal"]
    assert [t["night"] for t in reveal["traces"]] == list(range(1, final["number"] + 1)) \
        or [t["night"] for t in reveal["traces"]] == list(range(1, final["number"]))


@pytest.mark.parametrize(("players", "name", "seed"), GAMES, ids=IDS)
def test_awaited_seats_can_act_and_legal_actions_apply(players, name, seed):
    game = play(players, name, seed)
    chooser = random.Random(seed)
    for state in game.states[:-1:5]:
        seats = RULESET.waiting_for(state) or [None]
        assert seats == sorted(set(seats)) or seats == [None]
        for seat in seats + ([None] if state["clock"] and None not in seats else []):
            actions = RULESET.legal_actions(state, seat)
            assert actions or seat is None
            sample = actions if len(actions) <= 3 else [actions[0], actions[-1],
                                                        chooser.choice(actions)]
            for action in sample:
                checked_apply(RULESET, state, seat, action)


@pytest.mark.parametrize(("players", "name", "seed"), GAMES[::3], ids=IDS[::3])
def test_replay_and_rerun_reproduce_the_game(players, name, seed):
    game = play(players, name, seed)
    options = dict(OPTION_SETS[name])
    state, events = replay(RULESET, players, options, seed, None, game.actions)
    assert state == game.final
    assert events_json(events) == events_json(game.events)
    again = random_playthrough(RULESET, players, options, seed)
    assert dump(again.final) == dump(game.final)


def test_setup_depends_on_the_seed_only():
    assert dump(RULESET.setup(7, {}, 5).state) == dump(RULESET.setup(7, {}, 5).state)
    assert len({dump(RULESET.setup(7, {}, seed).state) for seed in range(6)}) > 1


def test_junk_actions_are_refused_without_side_effects():
    game = play(6, "default", 0)
    chooser = random.Random(1)
    junk = [None, 3, {}, {"type": 7}, {"type": "nope"}, {"type": "vote"},
            {"type": "vote", "candidate": "x"}, {"type": "accuse", "target": 1, "claim": 5},
            {"type": "tunnel", "no": 1, "from": 0, "to": 0}, {"type": "timeout"},
            {"type": "close_window", "candidate": 99}, {"type": "done"},
            {"type": "mafia_target", "target": 99}, {"type": "pass", "card": "MAG", "no": 9},
            {"type": "defend", "how": "timeout"}, {"type": "medik", "use": "yes"}]
    for step in chooser.sample(game.steps, 40):
        for seat in (None, -1, 0, 3, 9):
            for action in junk + [step.action]:
                try:
                    state, _ = checked_apply(RULESET, step.before, seat, action)
                except EngineError as refusal:
                    assert refusal.code and refusal.message
                else:
                    assert json.loads(json.dumps(state)) == state


# --------------------------------------------------------------------------------------------
# No leaks: a view must not change when secrets its viewer may not know change (rules §3)
# --------------------------------------------------------------------------------------------

def _states():
    for players, name, seed in GAMES[::3]:
        game = play(players, name, seed)
        for state in game.states[:-1:5]:
            if state["phase"] != "over":
                yield state


def test_views_do_not_depend_on_secrets_the_viewer_may_not_know():
    rnd = random.Random(42)
    checked = 0
    for state in _states():
        for viewer in [None, *range(state["players"])]:
            shown = RULESET.view(state, viewer)
            for variant in mrakoslapi_variants(state, viewer, rnd):
                assert variant != state
                assert RULESET.view(variant, viewer) == shown, \
                    (viewer, state["phase"], state["number"])
            checked += 1
    assert checked > 150


LEAKY = {
    "every hand": lambda state, seat: [p["cards"] for p in state["secret"]["table"]["players"]],
    "who is dead and who fake-dead": lambda state, seat: [
        p["status"] for p in state["secret"]["table"]["players"]],
    "the night-1 Mafián holders": lambda state, seat: state["secret"]["mafia_met"],
    "how many have confirmed": lambda state, seat: state["secret"]["night"] and len(
        state["secret"]["night"]["confirmed"]),
    "the mafia picks": lambda state, seat: state["secret"]["night"] and [
        picks.get("MAFIAN:1") for picks in state["secret"]["night"]["picks"]],
    "the pending Duch Bobo": lambda state, seat: state["secret"]["table"]["pending_bobo"],
    "the others' notices": lambda state, seat: state["secret"]["notices"],
}


@pytest.mark.parametrize("secret", LEAKY)
def test_the_oracle_catches_a_view_that_shows(secret):
    game = play(6, "default", 1)
    rnd = random.Random(0)
    for state in game.states:
        for viewer in [None, *range(state["players"])]:
            shown = {**RULESET.view(state, viewer), "spy": LEAKY[secret](state, viewer)}
            for variant in mrakoslapi_variants(state, viewer, rnd):
                spied = {**RULESET.view(variant, viewer), "spy": LEAKY[secret](variant, viewer)}
                if spied != shown:
                    return
    pytest.fail(f"no variant changes {secret}")


def test_no_variants_at_game_over():
    final = play(6, "default", 0).final
    assert final["phase"] == "over"
    assert all(mrakoslapi_variants(final, viewer, random.Random(0)) == []
               for viewer in [None, *range(6)])


def test_views_before_the_end_hold_no_reveal_and_dead_phones_hold_no_cards():
    for state in _states():
        for viewer in [None, *range(state["players"])]:
            shown = RULESET.view(state, viewer)
            assert shown["reveal"] is None and shown["outcome"] is None
            assert "move" not in (shown["clock"] or {})
            if viewer is None:
                assert shown["me"] is None
                continue
            player = state["secret"]["table"]["players"][viewer]
            if player["status"] == "DEAD":
                assert shown["me"]["cards"] is None and shown["me"]["fellow_mafia"] is None
            else:
                assert shown["me"]["cards"] == player["cards"]
            assert shown["me"]["moves"] == RULESET.legal_actions(state, viewer)
