"""Cosa Nostra's names, options and the readers of its state (docs/rules/cosanostra.md §2–§5, §16).

"rules §7.3" means ``docs/rules/cosanostra.md``; the board's data is ``board.py``.  The state is a
JSON dict (engine.py draws it); everything secret lies under ``state["secret"]``.
"""

from __future__ import annotations

from engines.base import PUBLIC, Event, Option, State, say
from engines.cosanostra import board

SLUG = "cosanostra"
TITLE = "Cosa Nostra"
MIN_PLAYERS, MAX_PLAYERS = 2, 4

# phases (the interface's names)
GATES, BEFORE_ROLL, CHOOSE_MOVE, OFFER, CHOOSE, ACTION, LIQUIDATION, OVER = (
    "gates", "before_roll", "choose_move", "offer", "choose", "action", "liquidation", "over")

OPTIONS = [
    # Rules §7.3, Q3: "the capo's hitman may go across the corner" — on every step, or never.
    Option("capo_diagonal", "all_steps", kind="choice", choices=("all_steps", "off")),
    # Rules §9.4, Q4: the rulebook removes a piece sold to the city from the game; or back to supply.
    Option("city_sale_piece", "out_of_game", kind="choice", choices=("out_of_game", "to_supply")),
    # Rules §9.6, §15.3, Q10: the first bankruptcy ends the game, or the family drops out.
    Option("bankruptcy_ends_game", True),
    # Rules §15.4: an optional round limit for an evening.
    Option("max_rounds", "off", kind="choice", choices=("off", "10", "20", "40", "70")),
    # Rules §11.4: FORTUNA throws the colour die instead of the number die.
    Option("fortuna_uses_colour_die", False),
    # Rules §14: each family's cash only on its own phone.
    Option("hidden_cash", False),
    # Rules §19.1: the action phase's time limit (T_action of §12).
    Option("turn_seconds", "180", kind="choice", choices=("off", "60", "120", "180")),
]

# The fixed limits of rules §19.1, in seconds.
GATE_SECONDS = 30
BEFORE_ROLL_SECONDS = 5
CHOOSE_SECONDS = 20          # where to stop, a square's offer, a black card's choice
LIQUIDATION_SECONDS = 120
TRADE_SECONDS = 60
ROLL_SECONDS = 4             # the die on the stage (rules §19.3): every turn has one

FRIEND_CARD = "R16-1"        # the one "Friend of the family" (rules §11.3): it may lie at a business
HISTORY = 8                  # public happenings the view keeps (the TV's short history)


# --- families --------------------------------------------------------------------------------

def families(state: State) -> list[dict]:
    return state["families"]


def family(state: State, seat: int) -> dict:
    return state["families"][seat]


def in_game(state: State) -> list[int]:
    """The seats still playing, in turn order."""
    return [seat for seat in state["order"] if not state["families"][seat]["out"]]


def opponents(state: State, seat: int) -> list[int]:
    return [other for other in in_game(state) if other != seat]


def tiles_of(state: State, seat: int) -> list[str]:
    return [cell for cell, owner in state["cells"].items() if owner == seat]


def tile_count(state: State, seat: int) -> int:
    return sum(1 for owner in state["cells"].values() if owner == seat)


def rank(state: State, seat: int) -> str:
    """Rules §5: the rank is a pure function of the current tile count."""
    count = tile_count(state, seat)
    return [name for name, lowest, _ in board.RANKS if count >= lowest][-1]


def rank_index(state: State, seat: int) -> int:
    """0 mafioso, 1 capiregime, 2 capo: the column of the rank tables of rules §2."""
    return [name for name, _, _ in board.RANKS].index(rank(state, seat))


def adjust(state: State, seat: int) -> int:
    return board.RANKS[rank_index(state, seat)][2]


def allowed_range(state: State, seat: int, die: int) -> list[int]:
    """Rules §5: ``max(1, d − adjust) ≤ m ≤ min(6, d + adjust)``."""
    bend = adjust(state, seat)
    return [max(1, die - bend), min(6, die + bend)]


def picciotti_of(state: State, seat: int) -> int:
    """A family's picciotti on the map and on its gate (B08)."""
    return family(state, seat)["gate_picciotti"] + sum(1 for owner in state["picciotti"].values() if owner == seat)


def owned_businesses(state: State, seat: int) -> list[int]:
    return [int(square) for square, business in state["businesses"].items() if business["owner"] == seat]


def fed_banned(state: State, seat: int) -> bool:
    """Rules §10: banned in the trigger turn and while turns are left."""
    return family(state, seat)["fed"] is not None


def option(state: State, key: str):
    return state["options"][key]


def deck_code(card: str) -> str:
    """A card instance's code ("R05-2" → "R05")."""
    return card.split("-")[0]


# --- public happenings ------------------------------------------------------------------------

def happen(state: State, events: list[Event], code: str, **params) -> None:
    """A public happening: an event of its own kind, a narration line, and a line of the
    TV's short history (the last ``HISTORY``)."""
    events.append(Event(code, dict(params), PUBLIC))
    say(state, code, **params)
    state["history"] = (state["history"] + [{"code": code, "params": dict(params)}])[-HISTORY:]


def push(state: State, *tasks: dict) -> None:
    """Put tasks at the front of the turn's queue (turns.run takes them in order)."""
    state["tasks"] = list(tasks) + state["tasks"]
