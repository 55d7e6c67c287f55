"""Full random games per second for every ruleset in engines.registry, on one core.

Each game: ``setup`` with a fresh seed, then until ``outcome`` says it is over: a random seat
from ``engines.base.movers`` (the awaited seats, and the game master when its clock may fire)
plays a random action from its ``legal_actions``.  10 players where the ruleset allows it, else its
maximum.  Rows for the default options and, if the ruleset has on/off options, with all of
them on.  No Django, no database: this is the engine alone, and it bounds how many random
playthroughs the contract suite can afford.

    .venv/bin/python bench/engines.py [--seconds 10] [--json]

``--seconds`` is the total budget, split evenly over the rows.  The process pins itself to one
CPU.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines import registry  # noqa: E402
from engines.base import movers, resolve_options  # noqa: E402

MAX_ACTIONS_PER_GAME = 100_000  # a game longer than this is reported as stuck


def players_for(ruleset) -> int:
    return 10 if ruleset.min_players <= 10 <= ruleset.max_players else ruleset.max_players


def option_variants(ruleset) -> list[tuple[str, dict]]:
    variants = [("defaults", {})]
    switches = [o.key for o in ruleset.options() if o.kind == "bool"]
    if switches:
        variants.append(("all on: " + ", ".join(switches), {key: True for key in switches}))
    return variants


def play_one(ruleset, players: int, options: dict, seed: int) -> int:
    """One random game to its end; returns the number of actions applied."""
    rng = random.Random(f"bench:{seed}")
    state, _events = ruleset.setup(players, options, seed)
    for count in range(MAX_ACTIONS_PER_GAME):
        if ruleset.outcome(state) is not None:
            return count
        seat = rng.choice(movers(ruleset, state))
        actions = ruleset.legal_actions(state, seat)
        if not actions:
            raise RuntimeError(f"{ruleset.slug} seed {seed}: seat {seat} is waited for but has no legal action")
        state, _events = ruleset.apply(state, seat, rng.choice(actions))
    raise RuntimeError(f"{ruleset.slug} seed {seed}: no outcome after {MAX_ACTIONS_PER_GAME} actions")


def measure(ruleset, players: int, options: dict, seconds: float) -> dict:
    games = actions = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall0 < seconds:
        actions += play_one(ruleset, players, options, seed=games)
        games += 1
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    return {"games": games, "actions": actions, "seconds": wall, "cpu_seconds": cpu,
            "games_per_s": games / wall, "actions_per_s": actions / wall,
            "actions_per_game": actions / games if games else 0.0}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="total time budget")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    rows = [(ruleset, label, options) for ruleset in registry.all() for label, options in option_variants(ruleset)]
    results = []
    for ruleset, label, raw in rows:
        players = players_for(ruleset)
        figures = measure(ruleset, players, resolve_options(ruleset, raw), args.seconds / len(rows))
        results.append({"ruleset": ruleset.slug, "options": label, "players": players, **figures})
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"{'ruleset':12}{'options':40}{'players':>8}{'games/s':>10}{'actions/s':>11}{'actions/game':>14}{'games':>8}")
    for r in results:
        print(f"{r['ruleset']:12}{r['options']:40}{r['players']:>8}{r['games_per_s']:>10.1f}"
              f"{r['actions_per_s']:>11.0f}{r['actions_per_game']:>14.1f}{r['games']:>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
