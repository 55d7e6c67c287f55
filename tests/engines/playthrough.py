"""Seeded random playthroughs of any registered ruleset (the contract and no-leak suites).

The player is a monkey: it picks a random awaited seat (the server, seat ``None``, when no
seat is awaited, or as one more candidate when the server's clock may fire now: a night step's
deadline) and a uniformly random action among that seat's ``legal_actions``.  Every ``apply``
is checked not to touch its input.
"""

from __future__ import annotations

import itertools
import json
import marshal
import math
import random
from dataclasses import dataclass, field
from functools import lru_cache

from engines.base import GAME_MASTER, HOST, Action, Event, Ruleset, State, movers

MAX_STEPS = 5000    # any game of any ruleset must end well within this many actions
SEEDS = (0, 1, 2)


@dataclass
class Step:
    before: State
    seat: int | None
    action: Action
    after: State
    events: list[Event]


@dataclass
class Playthrough:
    ruleset: Ruleset
    players: int
    options: dict
    seed: int
    start: State
    setup_events: list[Event]
    steps: list[Step] = field(default_factory=list)

    @property
    def final(self) -> State:
        return self.steps[-1].after if self.steps else self.start

    @property
    def states(self) -> list[State]:
        return [self.start] + [step.after for step in self.steps]

    @property
    def actions(self) -> list[tuple[int | None, Action]]:
        return [(step.seat, step.action) for step in self.steps]

    @property
    def events(self) -> list[Event]:
        return self.setup_events + [event for step in self.steps for event in step.events]

    def __str__(self) -> str:
        return f"{self.ruleset.slug} players={self.players} options={self.options} seed={self.seed}"


def dump(state: State) -> str:
    return json.dumps(state, sort_keys=True)


COMBINATIONS_LIMIT = 64     # more combinations than this: a deterministic sample
SAMPLED_COMBINATIONS = 9    # seeded random combinations in the sample, besides the fixed ones
# Fewer sampled combinations for rulesets whose games are long: Mrakošlapi's random games run to
# hundreds of actions with every living seat awaited, and 9 of its 14 options are timers that
# change no move of the random player (only the clock's seconds), so more samples replay the
# same games (test_mrakoslapi_engine.py plays the defaults and every rule option changed).
SAMPLED_COMBINATIONS_OF = {"mrakoslapi": 1, "cosanostra": 2}
# Player counts for rulesets whose big tables are slow to check at every step (classic Mafia
# plays up to 21; test_classic_scenarios.py checks 20–21 players on sampled steps; Mrakošlapi's
# 7 players, a 5-card deal like 8, are played by test_mrakoslapi_engine.py).
PLAYER_COUNTS = {"granna": (6, 7, 13), "mafia_pl": (5, 8, 11), "mrakoslapi": (6, 8), "cosanostra": (2, 4)}
# The contract tries the legal actions of every awaited seat on every ``n``-th state only for
# rulesets with long games and many awaited seats, each with dozens of actions (Mrakošlapi: at
# night and on the floor every living seat, with up to 56 tunnels or 160 accusations).
CHECKED_STATE_STRIDE = {"mrakoslapi": 8, "cosanostra": 16}
# The no-leak suite looks at every viewer's view of every ``n``-th state of such games: a Cosa
# Nostra game runs to some 2,000 moves, and every phase, deals included, comes back many times
# in a game, so every 4th state still meets each of them.
LEAK_STATE_STRIDE = {"cosanostra": 4}


# GRANNA's extended version (rules B.3.4, B.3.5): its options are not in the host's list yet
# (engines/classic/editions.py, EXTENDED_OPTIONS), so option_combinations never switches them
# on.  The engine suites (contract, chance, no leak) play these games besides: each set of cards
# at the player counts that let them in (at most one action card per 4 players; the New Gang
# from 14, counting 3).
_ALL_CARDS = ("vest", "bandage", "recruitment", "leader", "turncoat", "role_swap", "wiretap", "hideout",
              "safe_conduct", "arrest", "corner_shot", "capture", "last_shot")


def _cards(*chosen: str) -> dict:
    return {"action_cards": True, **{f"card_{card}": card in chosen for card in _ALL_CARDS}}


CARD_GAMES = {
    "granna": [
        (_cards("vest", "bandage", "leader", "wiretap", "arrest", "last_shot"), (8, 13)),   # recommended
        (_cards("vest", "bandage", "leader", "corner_shot"), (12, 16)),
        (_cards("recruitment", "turncoat", "role_swap", "last_shot"), (12, 16)),
        (_cards("wiretap", "hideout", "safe_conduct", "arrest", "capture"), (12, 16)),
        ({**_cards(*_ALL_CARDS), "new_gang": True, "kids_single_vote": True}, (15, 20)),
    ],
}


def card_games(ruleset: Ruleset) -> list[dict]:
    """The extended games of ``ruleset`` the engine suites play (``CARD_GAMES``), as complete
    option sets: the host's defaults (``option_combinations``' first) with the cards on."""
    base = option_combinations(ruleset)[0]
    return [{**base, **extended} for extended, _counts in CARD_GAMES.get(ruleset.slug, [])]


def _card_game_counts(ruleset: Ruleset, options: dict) -> tuple[int, ...] | None:
    for extended, counts in CARD_GAMES.get(ruleset.slug, []):
        if options.get("action_cards") and all(options.get(key) == value for key, value in extended.items()):
            return counts
    return None


def option_combinations(ruleset: Ruleset, offered_only: bool = False) -> list[dict]:
    """Every combination of the ruleset's options (bools on/off, every choice), or, past
    ``COMBINATIONS_LIMIT`` of them, a deterministic sample: all defaults, every bool on, every
    bool off (choices at their defaults), then seeded random combinations.

    ``offered_only``: only those hosts can choose (the others at their defaults), for the tests
    of screens, which are built only for those.
    """
    options = [option for option in ruleset.options() if option.key not in LAYERED_WITH]
    values = [([False, True] if option.kind == "bool" else list(option.choices))
              if option.offered or not offered_only else [option.default]
              for option in options]
    keys = [option.key for option in options]
    if math.prod(len(choices) for choices in values) <= COMBINATIONS_LIMIT:
        return [_layered(ruleset, dict(zip(keys, combo))) for combo in itertools.product(*values)]
    defaults = [option.default for option in options]
    fixed = [defaults]
    for flag in (True, False):
        fixed.append([flag if option.kind == "bool" and len(choices) > 1 else default
                      for option, choices, default in zip(options, values, defaults)])
    chooser = random.Random(f"options:{ruleset.slug}:{offered_only}")
    sample = [[chooser.choice(choices) for choices in values]
              for _ in range(SAMPLED_COMBINATIONS_OF.get(ruleset.slug, SAMPLED_COMBINATIONS))]
    combos = []
    for combo in fixed + sample:
        if combo not in combos:
            combos.append(combo)
    return [_layered(ruleset, dict(zip(keys, combo))) for combo in combos]


def pairwise(combinations: list[dict]) -> list[dict]:
    """A subset of ``combinations`` that still holds every pair of option values found together in
    them (a pairwise covering set, chosen greedily: each next combination is the one that holds
    the most pairs not yet held; ties go to the earliest, so the host's defaults come first).

    The per-state sweeps (every legal action of every awaited seat, every clock and host move
    of every state) run over these; every combination still plays whole games in the other
    contract tests.  A rule that goes wrong only with three options together is left to those."""
    def pairs(combo: dict) -> set:
        items = sorted(combo.items(), key=lambda item: item[0])
        return {(a, b) for i, a in enumerate(items) for b in items[i:]}   # each value alone too

    wanted = set().union(*(pairs(combo) for combo in combinations)) if combinations else set()
    chosen: list[dict] = []
    while wanted:
        best = max(combinations, key=lambda combo: len(pairs(combo) & wanted))
        chosen.append(best)
        wanted -= pairs(best)
    return chosen or combinations[:1]


# The app's layers over every engine (engines/briefing.py, engines/moments.py) are on together in
# a new game and off together in a replay of an old one or the rulebook's own engine: the moments
# follow the briefing, rather than doubling every ruleset's combinations.
LAYERED_WITH = {"moments": "briefing"}


def _layered(ruleset: Ruleset, combo: dict) -> dict:
    keys = {option.key for option in ruleset.options()}
    return {**combo, **{key: combo[follows] for key, follows in LAYERED_WITH.items() if key in keys and follows in combo}}


def player_counts(ruleset: Ruleset, most: int = 6) -> list[int]:
    """All player counts, or ``most`` of them spread from min to max (``PLAYER_COUNTS``
    chooses them for long games)."""
    if ruleset.slug in PLAYER_COUNTS:
        return list(PLAYER_COUNTS[ruleset.slug])
    low, high = ruleset.min_players, ruleset.max_players
    if high - low < most:
        return list(range(low, high + 1))
    return sorted({low + (high - low) * index // (most - 1) for index in range(most)})


def random_playthrough(ruleset: Ruleset, players: int, options: dict, seed: int) -> Playthrough:
    """One game played to its end with random legal actions, once per test process: every test
    that asks for the same game (ruleset, players, options, seed) gets the same playthrough,
    which no test may change (tests/conftest.py keeps a ruleset's engine tests on one worker).
    ``play_afresh`` plays it again."""
    return _cached(ruleset, players, tuple(sorted(options.items())), seed)


def play_afresh(ruleset: Ruleset, players: int, options: dict, seed: int) -> Playthrough:
    """Play one game to its end with random legal actions."""
    chooser = random.Random(f"monkey:{ruleset.slug}:{players}:{seed}")
    state, events = ruleset.setup(players, options, seed)
    play = Playthrough(ruleset, players, options, seed, state, list(events))
    while ruleset.outcome(state) is None:
        assert len(play.steps) < MAX_STEPS, f"{play}: no end after {MAX_STEPS} actions"
        seats = movers(ruleset, state)
        seat = chooser.choice(seats) if seats not in ([GAME_MASTER], [HOST]) else seats[0]
        actions = ruleset.legal_actions(state, seat)
        assert actions, f"{play}: seat {seat} is awaited but has no legal action"
        action = chooser.choice(actions)
        after, new = checked_apply(ruleset, state, seat, action)
        play.steps.append(Step(state, seat, action, after, list(new)))
        state = after
    return play


def snapshot(value) -> bytes:
    """``value`` (JSON-like data) as bytes that change whenever anything in it changes: marshal,
    some six times faster than ``json.dumps(sort_keys=True)`` and called twice per tried action.
    Dicts are written in their insertion order, so an ``apply`` that only reorders its input's
    keys counts as touching it too (it did)."""
    return marshal.dumps(value, 2)   # version 2: no back-references, which follow refcounts, not content


def checked_apply(ruleset: Ruleset, state: State, seat: int | None, action: Action):
    """``apply``, asserting it leaves its input (state and action) exactly as it was."""
    state_before, action_before = snapshot(state), snapshot(action)
    try:
        return ruleset.apply(state, seat, action)
    finally:
        assert snapshot(state) == state_before, f"apply({seat}, {action}) mutated its input state"
        assert snapshot(action) == action_before, "apply mutated the action"


@lru_cache(maxsize=None)
def _cached(ruleset: Ruleset, players: int, options: tuple, seed: int) -> Playthrough:
    return play_afresh(ruleset, players, dict(options), seed)


def playthroughs(ruleset: Ruleset, options: dict, seeds=SEEDS) -> list[Playthrough]:
    """Random games of ``ruleset`` with ``options`` for every player count (memoised)."""
    key = tuple(sorted(options.items()))
    counts = _card_game_counts(ruleset, options) or player_counts(ruleset)
    return [_cached(ruleset, players, key, seed) for players in counts for seed in seeds]
