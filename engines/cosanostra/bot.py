"""A bot family (docs/rules/cosanostra.md §17, §19.4): a pure, deterministic, greedy choice
among the family's legal moves.

In order: take a square's offer when it pays, play money cards at once, arm every reaction,
buy a neutral business keeping a reserve, buy the cheapest cell toward a side it still lacks,
hire a picciotto and step picciotti onto empty cells (captures), accept a deal that pays at
least the item's price, sell up the tiles farthest from its main group first, end the turn.
Each purchase is paid for, so a turn ends: the cash runs out or nothing is left to buy.
"""

from __future__ import annotations

from engines.base import State
from engines.cosanostra import board
from engines.cosanostra.moves import legal_actions
from engines.cosanostra.state import deck_code, family, tiles_of

RESERVE = 2000               # cash a bot keeps after a purchase
MONEY_CARDS = ("R05", "R06", "R07", "R08", "R09", "R01", "R02", "R03", "R04", "R16")


def _first(actions: list[dict], **match) -> dict | None:
    return next((a for a in actions if all(a.get(k) == v for k, v in match.items())), None)


def _missing_sides(state: State, seat: int) -> set[str]:
    touched = set().union(*(board.sides_of(cell) for cell in tiles_of(state, seat))) if tiles_of(state, seat) else set()
    return set(board.SIDES) - touched


def _toward(state: State, seat: int, cell: str) -> tuple:
    """How far ``cell`` is from the nearest side the family still lacks (smaller is better)."""
    x, y = board.cell_xy(cell)
    distance = {"N": y, "S": 6 - y, "W": x, "E": 6 - x}
    missing = _missing_sides(state, seat) or set(board.SIDES)
    return (min(distance[side] for side in missing), cell)


def _centre(state: State, seat: int) -> tuple[float, float]:
    cells = tiles_of(state, seat) or ["d4"]
    xs, ys = zip(*(board.cell_xy(cell) for cell in cells))
    return sum(xs) / len(xs), sum(ys) / len(ys)


def _trade_worth(state: State, seat: int) -> bool:
    """A deal is worth it when what it brings in cash covers the price of what it costs."""
    offer = state["secret"]["trade"]
    if offer["to"] != seat:
        return False
    gets, gives = offer["give"], offer["take"]
    price = (board.PRICES["tile"] * len(gives["tiles"]) + 4000 * len(gives["businesses"])
             + 2000 * len(gives["red_cards"]))
    value = gets["cash"] + board.PRICES["tile"] * len(gets["tiles"]) + 2000 * len(gets["red_cards"])
    return price > 0 and value >= price + gives["cash"] or (price == 0 and gives["cash"] == 0)


def bot_move(state: State, seat: int) -> dict:
    """The bot's move: always one of ``legal_actions(state, seat)``."""
    actions = legal_actions(state, seat)
    if not actions:
        raise ValueError("the bot has nothing to do")
    cash = family(state, seat)["cash"]
    arm = _first(actions, type="arm", on=True)
    if arm:
        return arm
    choices = [a for a in actions if a["type"] != "arm"]
    kinds = {a["type"] for a in choices}
    if "accept_trade" in kinds:
        worth = _trade_worth(state, seat)
        return _first(choices, type="accept_trade" if worth else "decline_trade")
    if "withdraw_trade" in kinds or "decline_trade" in kinds:
        return _first(choices, type="decline_trade") or _first(choices, type="withdraw_trade")
    if "choose_gate" in kinds or "place_start" in kinds:
        return choices[0]
    if "roll" in kinds:
        return _first(choices, type="roll")
    if "move" in kinds:
        return _first(choices, type="move", steps=state["roll"]["die"]) or choices[0]
    if "decline" in kinds:
        accept = [a for a in choices if a["type"] == "accept"]
        if accept and cash - state["offer"]["price"] >= RESERVE:
            if state["offer"]["kind"] != "YAKUZA":
                return accept[0]
            rivals = [a for a in accept if state["picciotti"][a["cell"]] != seat]
            if rivals:
                return rivals[0]
        return _first(choices, type="decline")
    if "choose" in kinds:
        return choices[0]
    if state["phase"] == "liquidation":
        return _liquidate(state, seat, choices)
    return _act(state, seat, choices, cash)


def _liquidate(state: State, seat: int, choices: list[dict]) -> dict:
    pay = _first(choices, type="pay")
    if pay:
        return pay
    sells = [a for a in choices if a["type"] == "sell_to_city"]
    if sells:
        cx, cy = _centre(state, seat)

        def far(action):
            x, y = board.cell_xy(action["cell"])
            return (-(abs(x - cx) + abs(y - cy)), action["cell"])
        return min(sells, key=far)
    return choices[0]


def _act(state: State, seat: int, choices: list[dict], cash: int) -> dict:
    for code in MONEY_CARDS:
        card = next((a for a in choices if a["type"] == "play_card" and deck_code(a["card"]) == code), None)
        if card:
            return card
    captures = [a for a in choices if a["type"] == "step" and a["to"] != "gate"
                and state["cells"].get(a["to"]) is None]
    if captures:
        return min(captures, key=lambda a: _toward(state, seat, a["to"]))
    businesses = [a for a in choices if a["type"] == "buy_business"
                  and cash - board.PRICES[board.RING[a["square"]][0]] >= RESERVE]
    if businesses:
        return businesses[0]
    tiles = [a for a in choices if a["type"] == "buy_tile"]
    if tiles and cash - board.PRICES["tile"] >= RESERVE:
        return min(tiles, key=lambda a: _toward(state, seat, a["cell"]))
    out = [a for a in choices if a["type"] == "step" and a["from"] == "gate"]
    if out:
        return out[0]
    if _first(choices, type="hire") and cash - board.PRICES["picciotto"] >= 2 * RESERVE \
            and family(state, seat)["gate_picciotti"] == 0 and not any(
                owner == seat for owner in state["picciotti"].values()):
        return _first(choices, type="hire")
    return _first(choices, type="end_turn") or choices[0]
