"""The engine contract (docs/design.md §3, §7), checked on every registered ruleset.

Seeded random playthroughs for every option combination and player count: they end with an
outcome, every awaited seat can act, every legal action applies, states survive JSON, replay
and reruns reproduce the game, and ``apply`` never touches its input.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import base, chance, registry
from engines.base import GAME_MASTER, HOST, NOBODY, PUBLIC, EngineError, Outcome, resolve_options
from engines.briefing import briefed
from engines.replay import replay
from tests import tiny
from tests.engines.playthrough import (
    CHECKED_STATE_STRIDE, MAX_STEPS, SEEDS, card_games, checked_apply, dump, option_combinations, pairwise,
    play_afresh, player_counts, playthroughs, snapshot,
)

# The registered rulesets, and the example of docs/adding-a-ruleset.md (tests/tiny), which the
# contract holds like any other.
RULESETS = [*registry.all(), tiny.RULESET]
# Every option combination, and the extended games not yet offered to hosts (GRANNA's cards).
CASES = [(ruleset, options) for ruleset in RULESETS
         for options in option_combinations(ruleset) + card_games(ruleset)]
CASE_IDS = [f"{r.slug}-" + "-".join(f"{k}={int(v) if isinstance(v, bool) else v}"
                                    for k, v in o.items()) for r, o in CASES]
ACTIONS_TRIED = 24      # legal actions applied per awaited seat and step (all if fewer)


# The per-state sweeps try every move of every state: over a pairwise covering set of each
# ruleset's option combinations (``pairwise``), while every combination plays its whole games in
# the tests marked ``cases``.
SWEPT = [(ruleset, options) for ruleset in RULESETS
         for options in pairwise(option_combinations(ruleset)) + card_games(ruleset)]


def cases(test):
    return pytest.mark.parametrize(("ruleset", "options"), CASES, ids=CASE_IDS)(test)


def swept(test):
    return pytest.mark.parametrize(("ruleset", "options"), SWEPT, ids=[CASE_IDS[CASES.index(case)] for case in SWEPT])(test)


def events_json(events):
    return [event.to_json() for event in events]


def test_every_ruleset_is_registered_once_with_its_metadata():
    slugs = [ruleset.slug for ruleset in RULESETS]
    assert len(slugs) == len(set(slugs)) and "mafie" in slugs
    for ruleset in RULESETS:
        assert ruleset is tiny.RULESET or registry.get(ruleset.slug) is ruleset
        assert ruleset.title and 1 <= ruleset.min_players <= ruleset.max_players
        assert resolve_options(ruleset, {}) == {o.key: o.default for o in ruleset.options()}


def test_an_option_requires_only_an_offered_bool_option_of_its_ruleset():
    """``Option.requires`` names the bool option it depends on: one the same ruleset offers,
    that depends on nothing itself (the settings show one level of dependants)."""
    seen = 0
    for ruleset in RULESETS:
        options = {o.key: o for o in ruleset.options()}
        for option in options.values():
            if option.requires is None:
                continue
            seen += 1
            parent = options.get(option.requires)
            assert parent is not None, f"{ruleset.slug}: {option.key} requires an unknown {option.requires}"
            assert parent.kind == "bool" and parent.offered and option.offered, (ruleset.slug, option.key)
            assert parent.requires is None and parent.key != option.key, (ruleset.slug, option.key)
    assert seen >= 4   # Mafie's plot deck; classic's doctor and small-game round 1


@cases
def test_random_games_end_with_an_outcome(ruleset, options):
    for play in playthroughs(ruleset, options):
        final = play.final
        result = ruleset.outcome(final)
        assert isinstance(result, Outcome), play
        assert len(play.steps) < MAX_STEPS
        assert result.winner and result.reason
        assert set(result.winners) <= set(range(play.players)), play
        assert ruleset.waiting_for(final) == [], play
        assert ruleset.host_moves(final) == [], play
        for seat in [None, HOST, *range(play.players)]:
            assert ruleset.legal_actions(final, seat) == [], (play, seat)


@swept
def test_awaited_seats_can_act_and_every_legal_action_applies(ruleset, options):
    chooser = random.Random(0)
    stride = CHECKED_STATE_STRIDE.get(ruleset.slug, 1)
    for play in playthroughs(ruleset, options):
        for state in play.states[:-1:stride]:
            seats = ruleset.waiting_for(state) or base.movers(ruleset, state)
            assert seats == sorted(set(seats)) or seats in ([GAME_MASTER], [HOST]), (play, seats)
            for seat in seats:
                actions = ruleset.legal_actions(state, seat)
                assert actions, (play, seat, state)
                if len(actions) > ACTIONS_TRIED:
                    actions = [actions[0], actions[-1]] + chooser.sample(actions, ACTIONS_TRIED)
                for action in actions:
                    checked_apply(ruleset, state, seat, action)   # raises if refused


@cases
def test_states_events_and_views_survive_a_json_round_trip(ruleset, options):
    for play in playthroughs(ruleset, options):
        for state in play.states:
            assert json.loads(json.dumps(state)) == state, play
            assert isinstance(state["turn"], int)
        for event in play.events:
            assert json.loads(json.dumps(event.to_json())) == event.to_json(), (play, event)
            assert isinstance(event.kind, str)
            assert event.audience in (PUBLIC, NOBODY) or (
                event.audience == sorted(set(event.audience))
                and set(event.audience) <= set(range(play.players))), (play, event)
        for seat in [None, *range(play.players)]:
            shown = ruleset.view(play.final, seat)
            assert json.loads(json.dumps(shown)) == shown, (play, seat)


@cases
def test_turn_never_goes_back(ruleset, options):
    for play in playthroughs(ruleset, options):
        turns = [state["turn"] for state in play.states]
        assert turns == sorted(turns), play


@cases
def test_one_replay_rebuilds_every_game_and_draws_what_it_drew(ruleset, options, monkeypatch):
    """One replay pass per game checks what a game's log promises (engines/replay.py,
    engines/chance.py): replaying its actions from its seed rebuilds the final state and every
    event; every draw the engine made is in the log, in order, and the replay draws exactly the
    same again.  And the same seed plays the same game: the monkey, given the seed of a game it
    played, chooses the same actions from the same legal moves and reaches the same end."""
    made = []
    draw = chance._draw

    def recorded(*args, **kwargs):
        result = draw(*args, **kwargs)
        made.append(result.event.to_json())
        return result

    monkeypatch.setattr(chance, "_draw", recorded)
    for play in playthroughs(ruleset, options):
        made.clear()
        state, events = replay(ruleset, play.players, options, play.seed, None, play.actions)
        assert state == play.final, play
        assert events_json(events) == events_json(play.events), play
        logged = [event for event in events_json(events) if event["kind"] == chance.CHANCE]
        assert made, f"{play}: a game of {ruleset.slug} draws at least its deal"
        assert logged == made, play            # every draw the engine made is in the log, in order
    monkeypatch.undo()
    for play in playthroughs(ruleset, options, seeds=SEEDS[:1]):
        again = play_afresh(ruleset, play.players, options, play.seed)
        assert again.actions == play.actions, play
        assert dump(again.final) == dump(play.final), play
        assert events_json(again.events) == events_json(play.events), play


@cases
def test_setup_is_deterministic_per_seed(ruleset, options):
    players = ruleset.min_players
    first = ruleset.setup(players, options, 123)
    second = ruleset.setup(players, options, 123)
    assert first.state == second.state
    assert events_json(first.events) == events_json(second.events)
    states = {dump(ruleset.setup(players, options, seed).state) for seed in range(20)}
    assert len(states) > 1, "the seed changes nothing"


@pytest.mark.parametrize("ruleset", [briefed(tiny.RULESET), registry.served(tiny.RULESET)],
                         ids=["briefed", "served"])
def test_a_game_that_ends_during_the_briefing_ends_the_briefing_too(ruleset):
    """Players may act while others still read their roles (engines/briefing.py): every seat
    calls before anyone has tapped "I have seen my role", and the coin is shown.  The finished
    game awaits nobody, offers nobody a move, and the host no "go on"."""
    options = resolve_options(ruleset, {})
    state, _ = ruleset.setup(3, options, 4)
    for seat in range(3):
        state = checked_apply(ruleset, state, seat, {"type": "call", "side": "heads"}).state
    while ruleset.outcome(state) is None:       # the coin on the stage (engines/moments.py)
        state = checked_apply(ruleset, state, GAME_MASTER, state["clock"]["move"]).state
    assert state["briefing"] is not None and not any(state["briefing"]["seen"])   # nobody looked
    assert ruleset.waiting_for(state) == [] and ruleset.host_moves(state) == []
    for actor in [GAME_MASTER, HOST, *range(3)]:
        assert ruleset.legal_actions(state, actor) == [], actor
    assert ruleset.view(state, 0)["briefing"] is None                 # no screen asks to look
    refused(ruleset, state, 0, {"type": "seen_role"})
    refused(ruleset, state, HOST, {"type": "go_on"})


# --------------------------------------------------------------------------------------------
# Fuzz: any action, well-formed or not, is applied or refused with an EngineError, and the
# input state is left alone either way.
# --------------------------------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                              max_size=3),
    max_leaves=8,
)


def _action_strategy(samples):
    """Garbage, legal actions seen in play, and legal actions with fields swapped for junk."""
    fields = sorted({key for action in samples for key in action})
    values = {key: [action[key] for action in samples if key in action] for key in fields}
    mangled = st.fixed_dictionaries(
        {"type": st.sampled_from(sorted({action["type"] for action in samples}))},
        optional={key: JSON | st.sampled_from(values[key]) for key in fields if key != "type"})
    return JSON | st.sampled_from(samples) | mangled


@pytest.mark.parametrize("ruleset", RULESETS, ids=[r.slug for r in RULESETS])
@settings(max_examples=300, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_action_is_applied_or_refused_without_side_effects(ruleset, data):
    options = data.draw(st.sampled_from(option_combinations(ruleset) + card_games(ruleset)))
    play = data.draw(st.sampled_from(playthroughs(ruleset, options, seeds=(0,))))
    step = data.draw(st.sampled_from(play.steps))
    samples = [s.action for s in play.steps]
    seat = data.draw(st.none() | st.just(HOST) | st.integers(-1, play.players))
    action = data.draw(_action_strategy(samples))
    try:
        state, events = checked_apply(ruleset, step.before, seat, action)
    except EngineError as refusal:
        assert refusal.code and refusal.message
    else:
        assert json.loads(json.dumps(state)) == state


@pytest.mark.parametrize("part", [*base.RULESET_VALUES, *base.RULESET_FUNCTIONS])
def test_a_ruleset_missing_a_part_of_the_contract_is_refused_at_registration_naming_it(part):
    """A new ruleset that forgot a part fails when it is registered, not on somebody's screen."""
    whole = registry.get("mafie")
    parts = {name: getattr(whole, name) for name in (*base.RULESET_VALUES, *base.RULESET_FUNCTIONS)}
    del parts[part]
    incomplete = type("Incomplete", (), {name: staticmethod(value) if callable(value) else value
                                         for name, value in parts.items()})()
    with pytest.raises(TypeError, match=rf"\b{part}\b"):
        registry.registered(incomplete)
    assert registry.registered(type("Whole", (), {name: staticmethod(value) if callable(value) else value
                                                    for name, value in {**parts, part: getattr(whole, part)}.items()})())


@cases
def test_every_view_carries_what_the_screens_read(ruleset, options):
    """The parts of a view the web layer reads for every ruleset (engines/base.py, "Every
    view"): the turn, the narration as codes, the seat's own part; the host's buttons, each
    one a move the host may make now; and the state's clock."""
    for play in playthroughs(ruleset, options):
        for state in play.states[::CHECKED_STATE_STRIDE.get(ruleset.slug, 1)]:
            for seat in [None, *range(play.players)]:
                view = ruleset.view(state, seat)
                assert view["turn"] == state["turn"] and isinstance(view["turn"], int)
                assert all(isinstance(item["code"], str) and isinstance(item["params"], dict)
                           for item in view["narration"]), (play, seat)
                assert (view["me"] is None) == (seat is None)
                if seat is not None:
                    assert view["me"]["seat"] == seat
            clock = state.get("clock")
            assert clock is None or set(clock) == {"id", "seconds", "move"}, play
            assert "host_moves" not in ruleset.view(state, None)   # the contract's, not the view's
            assert ruleset.host_moves(state) == ruleset.legal_actions(state, HOST), play
            for move in ruleset.host_moves(state):
                checked_apply(ruleset, state, HOST, move)


@swept
def test_the_host_and_the_game_masters_clock_are_different_actors(ruleset, options):
    """engines/base.py, "Who acts": the clock makes only its move, the host only its buttons,
    proxies and removals; neither makes the other's unless the ruleset offers it to both."""
    for play in playthroughs(ruleset, options):
        for state in play.states[::CHECKED_STATE_STRIDE.get(ruleset.slug, 1)]:
            clock, buttons = ruleset.legal_actions(state, GAME_MASTER), ruleset.host_moves(state)
            assert all(move["type"] not in (base.PROXY, base.REMOVE_PLAYER) for move in clock), play
            for move in clock:
                checked_apply(ruleset, state, GAME_MASTER, move)
                if move not in buttons:
                    refused(ruleset, state, HOST, move)
            for move in buttons:
                if move not in clock:
                    refused(ruleset, state, GAME_MASTER, move)
            for seat in ruleset.removable(state):
                refused(ruleset, state, GAME_MASTER, {"type": base.REMOVE_PLAYER, "seat": seat})
            for seat, moves in ruleset.proxy_moves(state).items():
                for move in moves[:2]:
                    refused(ruleset, state, GAME_MASTER, {"type": base.PROXY, "seat": seat, "action": move})
                    checked_apply(ruleset, state, HOST, {"type": base.PROXY, "seat": seat, "action": move})


def refused(ruleset, state, actor, action):
    before = snapshot(state)
    with pytest.raises(EngineError):
        ruleset.apply(state, actor, action)
    assert snapshot(state) == before


def words_of(ruleset):
    """The ruleset's presenter (tests/tiny's is its own module, registered only when hosted);
    None when the engine suites run without Django (``-p no:django``: no words to check)."""
    from django.conf import settings
    if not settings.configured:
        return None
    if ruleset is tiny.RULESET:
        from tests.tiny import presenter as tiny_presenter
        return tiny_presenter
    from mafiagames.presenters import presenter
    return presenter(ruleset.slug)


@cases
def test_a_finished_games_roles_are_one_per_seat_each_a_role_the_presenter_words(ruleset, options):
    """``roles`` (engines/base.py): what the evening's statistics read of a finished game — a
    role code per seat, plain JSON, each one the presenter has words for; and the outcome's
    winning side has words too (the TV's scoreboard)."""
    pres = words_of(ruleset)
    for play in playthroughs(ruleset, options):
        final = json.loads(json.dumps(play.final))
        roles = ruleset.roles(final)
        assert isinstance(roles, list) and len(roles) == play.players, play
        assert json.loads(json.dumps(roles)) == roles and final == play.final
        assert all(isinstance(code, str) and code for code in roles), play
        if pres is None:
            continue
        for code in roles:
            words = pres.role_words(code, ruleset.slug, options)
            assert isinstance(words, str) and words and words != code, (play, code)
        winner = ruleset.outcome(final).winner
        words = pres.side_words(winner, ruleset.slug, options)
        assert isinstance(words, str) and words and words != winner, (play, winner)


# --- bots (engines/base.py, "Bots") ------------------------------------------------------------
# Every ruleset that offers bot seats, as the app serves it (briefing and moments on: the bot
# passes through both) and as its rulebook plays it.
BOT_RULESETS = [ruleset for ruleset in [*RULESETS, registry.served(tiny.RULESET)] if ruleset.bot is not None]
BOT_IDS = [f"{r.slug}-{'served' if 'briefing' in {o.key for o in r.options()} else 'bare'}" for r in BOT_RULESETS]


def bot_turn(ruleset, state):
    """The first awaited bot seat's move and that seat, or None if no awaited seat has one."""
    for seat in ruleset.waiting_for(state):
        move = ruleset.bot(state, seat)
        if move is not None:
            return seat, move
    return None


def test_the_tiny_ruleset_and_its_served_form_offer_bots_and_a_ruleset_without_one_none():
    served = registry.served(tiny.RULESET)
    assert tiny.RULESET.bot is not None and served.bot is not None
    assert served.bot is not tiny.RULESET.bot   # the layers pass it through, each its own way
    without = [ruleset for ruleset in registry.all() if ruleset.slug in ("mafie", "granna", "mafia_pl", "mrakoslapi")]
    assert without and all(ruleset.bot is None for ruleset in without)


@pytest.mark.parametrize("ruleset", BOT_RULESETS, ids=BOT_IDS)
def test_bots_alone_finish_a_game_each_of_their_moves_applying(ruleset):
    """Every seat a bot: the bots (and the game master's clock while none has a move) play a
    game to its outcome, and the game applies each bot move (checked_apply raises if not)."""
    for players in player_counts(ruleset):
        for seed in SEEDS:
            options = resolve_options(ruleset, {})
            state, _events = ruleset.setup(players, options, seed)
            moves = 0
            for _step in range(MAX_STEPS):
                if ruleset.outcome(state) is not None:
                    break
                turn = bot_turn(ruleset, state)
                if turn is None:   # a moment, a clock: the game master's move, as the app makes it
                    clock = state.get("clock")
                    assert clock and clock["move"] in ruleset.legal_actions(state, GAME_MASTER), \
                        (ruleset.slug, players, seed, "no bot has a move and no clock runs")
                    turn = (GAME_MASTER, clock["move"])
                else:
                    moves += 1
                state = checked_apply(ruleset, state, *turn).state
            assert ruleset.outcome(state) is not None, (ruleset.slug, players, seed, "no end")
            assert moves >= players   # every seat played (the briefing's look at least)


@pytest.mark.parametrize("ruleset", [r for r in BOT_RULESETS if r in RULESETS], ids=lambda r: r.slug)
def test_a_bots_move_applies_in_every_state_of_random_games(ruleset):
    """Wherever random players took a game, a bot in any awaited seat makes a move the game
    accepts (a human offering it a trade, a seat it would never reach alone)."""
    for options in option_combinations(ruleset)[:4]:
        for play in playthroughs(ruleset, options):
            for state in play.states[:-1]:
                for seat in ruleset.waiting_for(state):
                    move = ruleset.bot(state, seat)
                    if move is not None:
                        checked_apply(ruleset, state, seat, move)   # raises if refused


def test_checked_apply_notices_an_apply_that_touches_its_input():
    """The check every tried action goes through (``playthrough.checked_apply``): a change deep in
    the state, or in the action, fails it; sharing parts of the input with the new state (which
    changes only reference counts) does not."""
    import dataclasses

    def sharing(state, seat, action):
        return base.Result({**state, "turn": state["turn"] + 1, "shared": state}, [])

    def deep(state, seat, action):
        state["players"][0]["scratch"] = True
        return base.Result(state, [])

    def on_action(state, seat, action):
        action["seen"] = True
        return base.Result(dict(state), [])

    start = {"turn": 0, "players": [{"name": "A"}], "clock": None}
    assert checked_apply(dataclasses.replace(tiny.RULESET, apply=sharing), start, 0, {"type": "x"}).state["turn"] == 1
    for touching in (deep, on_action):
        with pytest.raises(AssertionError, match="mutated"):
            checked_apply(dataclasses.replace(tiny.RULESET, apply=touching),
                          {"turn": 0, "players": [{"name": "A"}], "clock": None}, 0, {"type": "x"})


def test_the_sweeps_cover_every_pair_of_option_values():
    """``pairwise`` drops combinations, never a pair of values that some combination holds."""
    for ruleset in RULESETS:
        every = option_combinations(ruleset)
        chosen = pairwise(every)
        assert chosen[0] == every[0] and all(combo in every for combo in chosen)
        for combo in every:
            for a in combo.items():
                for b in combo.items():
                    assert any(c[a[0]] == a[1] and c[b[0]] == b[1] for c in chosen), (ruleset.slug, a, b)
    assert len(pairwise([{"a": x, "b": y, "c": z} for x in (0, 1) for y in (0, 1) for z in (0, 1)])) < 8
