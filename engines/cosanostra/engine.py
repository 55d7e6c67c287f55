"""Cosa Nostra — setup, apply and the ruleset object (slug ``cosanostra``).

"rules §9.3" means ``docs/rules/cosanostra.md``; the Czech rulebook is the authority.  The
package reads top to bottom like the rulebook: ``board`` (data), ``state`` (names, options,
ranks), ``city`` (§7, §15.1), ``money`` (§9), ``cards`` (§11), ``squares`` (§6, §8.3),
``ending`` (§15), ``turns`` (§12: the turn as a queue of tasks), ``trades`` (§13), ``moves``
(what each actor may send), ``views`` (§14), ``bot`` (§17).

Phases::

    gates ── each family in reverse turn order picks a gate and places 3 tiles (§4.3)
      ▼
    before_roll ── roll | R10 ──► choose_move ── move m ──► (square: offer | choose |
    liquidation …) ──► action ── end_turn ──► next family's before_roll … ──► over

State (JSON; secrets under ``secret``)::

    {"ruleset", "players", "options", "turn", "phase", "narration", "clock", "clock_count",
     "order": [seat], "active": seat, "gate_queue": [seat], "round": int,
     "families": [{"cash", "pos", "gate", "pieces", "pieces_out", "markers", "gate_picciotti",
                   "face_up": [card], "fed": int|None, "fed_now": bool, "loan_shark": int|None,
                   "out": bool}],
     "cells": {cell: seat}, "acquired": {cell: n}, "acquired_count": n,
     "picciotti": {cell: seat}, "supply": int, "bank": int,
     "businesses": {"<square>": {"owner", "card", "closed": seat|None, "friends": [seat]}},
     "tasks": [task], "roll", "colour_roll", "offer", "choose", "liquidation",
     "trade": {"from", "to"} | None, "trades_made": [int per seat], "stepped": [pos], "night_run",
     "last_card", "history": [line], "result": {"end", "winners"} | None,
     "secret": {"chance", "red": [card], "black": [card], "hands": [[card]], "armed": [[card]],
                "trade": offer | None}}

Our decisions where the rulebook and the rules are silent (docs/rules/cosanostra.md §19):

* Each family chooses its gate and lays its start tiles with a 30 s clock of its own, started
  afresh for each family in turn: on timeout that family takes the first free gate (N, E, S, W)
  and the first connecting cells in reading order, and the next family's clock starts.
* A family may send two deal offers a turn (a counter-offer does not count), so a turn cannot be
  spent haggling; one offer is open in the whole game at a time (§19.2).
* A debtor who has no tile to sell to the city and no deal left to offer has found no buyer and
  goes bankrupt at once (§9.6).
* Without a round limit a game still ends after 100 rounds, as with the limit (§15.4): a
  locked-up city or families without pieces cannot hold the evening forever.
* After a card's payments in the action phase the clock runs on; after selling up or a deal
  the interrupted step's clock starts again in full (§19.1).
* R11's night run is given to a picciotto that has not stepped yet; R02/R03 on a business with
  a bribed director's card is refused as ``protected_by_card``.
"""

from __future__ import annotations

from engines import chance
from engines.base import (
    GAME_MASTER, HOST, PROXY, REMOVE_PLAYER, Engine, Event, IllegalAction, Outcome, Result, State,
    checked_options, handler_for, proxy_moves, start_clock, working_copy,
)
from engines.cosanostra import board
from engines.cosanostra.bot import bot_move
from engines.cosanostra.cards import shuffled_decks
from engines.cosanostra.ending import check_end
from engines.cosanostra.moves import (
    HANDLERS, PRIVATE_ACTIONS, awaited, bankrupt_without_buyer, legal_actions, no_way_out, public_choice, removable,
)
from engines.cosanostra.state import (
    GATE_SECONDS, GATES, MAX_PLAYERS, MIN_PLAYERS, OPTIONS, OVER, ROLL_SECONDS, SLUG, TITLE, happen,
)
from engines.cosanostra.turns import TIMEOUT


def _start_player(record: dict, players: int, events: list[Event]) -> tuple[int, dict]:
    """Rules §4.2: the colour die until it shows a colour in play (each throw public)."""
    while True:
        drawn = chance.pick(record, "colour", list(board.COLOUR_DIE))
        record = drawn.chance
        events.append(drawn.event)
        if drawn.value in board.COLOURS[:players]:
            return board.COLOURS.index(drawn.value), record


def setup(players: int, options: dict, seed: int, deal: dict | None = None) -> Result:
    """Rules §4.  ``deal`` may carry ``{"forced": {label: [outcome, ...]}}`` (tests, replays)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError("Cosa Nostra is played by 2–4 families")
    options = checked_options(OPTIONS, options or {}, TITLE, defaults=True)
    events: list[Event] = []
    record = chance.new(seed, (deal or {}).get("forced"))
    first, record = _start_player(record, players, events)
    red, black, shuffles, record = shuffled_decks(record)
    events += shuffles
    order = [(first + k) % players for k in range(players)]
    state: State = {
        "ruleset": SLUG, "players": players, "options": options, "turn": 0, "phase": GATES,
        "narration": [], "clock": None, "clock_count": 0,
        "order": order, "active": order[-1], "gate_queue": order[::-1], "round": 1,
        "families": [{"cash": board.START_CASH, "pos": 0, "gate": None, "pieces": board.PIECES,
                      "pieces_out": 0, "markers": board.MARKERS, "gate_picciotti": 0, "face_up": [],
                      "fed": None, "fed_now": False, "loan_shark": None, "out": False}
                     for _ in range(players)],
        "cells": {}, "acquired": {}, "acquired_count": 0, "picciotti": {}, "supply": board.PICCIOTTI,
        "bank": board.BANK_TOTAL - board.START_CASH * players,
        "businesses": {str(square): {"owner": None, "card": None, "closed": None, "friends": []}
                       for square in board.BUSINESSES},
        "tasks": [], "roll": None, "colour_roll": None, "offer": None, "choose": None,
        "liquidation": None, "trade": None, "trades_made": [0] * players, "stepped": [], "night_run": None,
        "last_card": None, "history": [], "result": None,
        "secret": {"chance": record, "red": red, "black": black, "hands": [[] for _ in range(players)],
                   "armed": [[] for _ in range(players)], "trade": None},
    }
    happen(state, events, "start_player", seat=first)
    start_clock(state, GATE_SECONDS, TIMEOUT)
    return Result(state, events)


def _check_actor(state: State, seat, action: dict) -> None:
    kind = action["type"]
    if seat is GAME_MASTER and kind != "timeout":
        raise IllegalAction("not_your_turn", "The game master only keeps the clock")
    if seat == HOST and kind not in (PROXY, REMOVE_PLAYER):
        raise IllegalAction("not_your_turn", "The host has no buttons here")
    if seat not in (GAME_MASTER, HOST) and kind in ("timeout", PROXY, REMOVE_PLAYER):
        raise IllegalAction("not_your_turn", "Not a player's move")


def apply(state: State, seat, action: dict) -> Result:
    handler = handler_for(HANDLERS, state, seat, action, over=state["phase"] == OVER)
    _check_actor(state, seat, action)
    new = working_copy(state)
    events: list[Event] = []
    if action["type"] not in PRIVATE_ACTIONS:
        new["narration"] = []
    handler(new, seat, action, events)
    if no_way_out(new):
        bankrupt_without_buyer(new, events)
    check_end(new, events)             # rules §15: after every change
    return Result(new, events)


def outcome(state: State) -> Outcome | None:
    result = state["result"]
    if not result:
        return None
    winners = tuple(result["winners"])
    return Outcome("family" if len(winners) == 1 else "shared", result["end"], winners)


def waiting_for(state: State) -> list[int]:
    return awaited(state)


def host_moves(state: State) -> list[dict]:
    return []


def host_proxy_moves(state: State) -> dict[int, list[dict]]:
    return proxy_moves(state, legal_actions, public_choice(state), waiting_for(state))


def roles(state: State) -> list[str]:
    return ["family"] * state["players"]


def _view(state, seat):
    from engines.cosanostra.views import view
    return view(state, seat)


RULESET = Engine(
    slug=SLUG, title=TITLE, min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
    options=lambda: list(OPTIONS), setup=setup, legal_actions=legal_actions, apply=apply, view=_view,
    outcome=outcome, waiting_for=waiting_for, host_moves=host_moves, proxy_moves=host_proxy_moves,
    removable=removable, roles=roles,
    # The die's throw takes the stage (rules §19.3), briefly: it comes every turn.
    moments=frozenset({"rolled"}), moment_seconds=ROLL_SECONDS,
    # Empty seats can be bot families playing the greedy way (rules §17, §19.4).
    bot=bot_move)

__all__ = ["RULESET"]
