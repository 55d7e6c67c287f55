"""Properties of seeded random legal play (docs/rules/cosanostra.md §2, §7, §9, §15): money,
pieces, picciotti and markers are conserved after every action, ranks follow tile counts, a
round limit holds, and bot families finish their games."""

from __future__ import annotations

import random

import pytest

from engines.base import movers
from engines.cosanostra import board
from engines.cosanostra.bot import bot_move
from engines.cosanostra.cards import RED, instances
from tests.engines.cosanostra_helpers import ENGINE
from tests.engines.playthrough import random_playthrough

# These games are played where the tests run, once (playthrough.py memoises them): on one worker.
pytestmark = pytest.mark.xdist_group("cosanostra-properties")

GAMES = [(players, seed, options) for players in (2, 3, 4) for seed in (11, 12)
         for options in ({}, {"max_rounds": "10", "city_sale_piece": "to_supply", "bankruptcy_ends_game": False,
                              "capo_diagonal": "off", "fortuna_uses_colour_die": True})]


def _id(game) -> str:
    players, seed, options = game
    return f"players={players} options={options} seed={seed}"


def _play(game):
    """The game, played when a test first asks for it (not as the module is collected: every
    worker collects it, and only the one that runs these tests needs the games)."""
    players, seed, options = game
    return random_playthrough(ENGINE, players, options, seed)


def _rank_of(tiles: int) -> str:
    return [name for name, lowest, _ in board.RANKS if tiles >= lowest][-1]


@pytest.mark.parametrize("game", GAMES, ids=_id)
def test_money_pieces_picciotti_markers_and_red_cards_are_conserved_after_every_action(game):
    play = _play(game)
    for state in play.states:
        assert state["bank"] + sum(f["cash"] for f in state["families"]) == board.BANK_TOTAL
        assert state["bank"] >= 0 and all(f["cash"] >= 0 for f in state["families"])
        on_map = list(state["picciotti"].values())
        assert len(on_map) + sum(f["gate_picciotti"] for f in state["families"]) + state["supply"] == board.PICCIOTTI
        for seat, fam in enumerate(state["families"]):
            tiles = list(state["cells"].values()).count(seat)
            assert tiles + fam["pieces"] + fam["pieces_out"] == board.PIECES
            owned = sum(1 for b in state["businesses"].values() if b["owner"] == seat)
            assert owned + fam["markers"] == board.MARKERS
        assert all(state["cells"].get(cell) == owner for cell, owner in state["picciotti"].items())
        cards = (state["secret"]["red"] + [c for hand in state["secret"]["hands"] for c in hand]
                 + [b["card"] for b in state["businesses"].values() if b["card"]]
                 + (["R16-1"] if any(b["friends"] for b in state["businesses"].values()) else []))
        assert sorted(cards) == sorted(instances(RED))          # every red card somewhere, once


@pytest.mark.parametrize("game", GAMES, ids=_id)
def test_rank_always_matches_the_tile_count(game):
    play = _play(game)
    for state in play.states[::5]:
        for family in ENGINE.view(state, None)["families"]:
            assert family["rank"] == _rank_of(family["tiles"])


@pytest.mark.parametrize("game", [g for g in GAMES if g[2].get("max_rounds") == "10"], ids=_id)
def test_games_with_a_round_limit_end_within_it(game):
    play = _play(game)
    assert all(state["round"] <= 10 for state in play.states)
    assert ENGINE.outcome(play.final) is not None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_playing_every_seat_finish_a_game(players):
    state, _ = ENGINE.setup(players, {}, 5)
    for _ in range(5000):
        if ENGINE.outcome(state):
            break
        seat = ENGINE.waiting_for(state)[0]
        action = bot_move(state, seat)
        assert action in ENGINE.legal_actions(state, seat)
        state, _ = ENGINE.apply(state, seat, action)
    assert ENGINE.outcome(state) is not None


def test_the_bot_is_deterministic_and_pure():
    state, _ = ENGINE.setup(3, {}, 9)
    rng = random.Random(3)
    for _ in range(300):
        if ENGINE.outcome(state):
            break
        seat = rng.choice(movers(ENGINE, state))
        if seat is not None:
            before = repr(state)
            assert bot_move(state, seat) == bot_move(state, seat) and repr(state) == before
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
