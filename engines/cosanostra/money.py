"""Money (docs/rules/cosanostra.md §9): payments between families and the bank, the bank paying
(with the city tax when it runs dry, §9.5), selling up (§9.3, §9.4) and bankruptcy (§9.6).

A payment is a *task* of the turn's queue (turns.py): when the debtor's cash does not cover
it, the queue stops in the phase "liquidation" — whoever the debtor is, even a family whose
turn it is not (R06) — and goes on where it stopped once he has paid or gone bankrupt.
"""

from __future__ import annotations

from engines.base import Event, State
from engines.cosanostra import board
from engines.cosanostra.city import lose_cell, set_owner
from engines.cosanostra.state import (
    FRIEND_CARD, LIQUIDATION, family, happen, in_game, option, owned_businesses, tiles_of,
)


def cash(state: State, seat: int | None) -> int:
    return state["bank"] if seat is None else family(state, seat)["cash"]


def transfer(state: State, payer: int | None, payee: int | None, amount: int) -> None:
    """Money moves; nothing is created or destroyed (rules §9.1).  None is the bank."""
    if payer is None:
        state["bank"] -= amount
    else:
        family(state, payer)["cash"] -= amount
    if payee is None:
        state["bank"] += amount
    else:
        family(state, payee)["cash"] += amount


def pay_now(state: State, events: list[Event], payer: int, payee: int | None, amount: int, why: str) -> None:
    """A payment the payer's cash covers (checked by the caller)."""
    transfer(state, payer, payee, amount)
    happen(state, events, "pay", **{"from": payer, "to": payee, "amount": amount, "why": why})


def bank_pays(state: State, events: list[Event], seat: int, amount: int, why: str) -> None:
    """Rules §9.5 BANK_PAYS: short of money the bank raises the city tax first — every family in
    turn order from the active one pays half its cash, rounded down to 100, unless its Swiss
    account (R14) is armed — and then pays what it has."""
    if state["bank"] < amount:
        city_tax(state, events)
    paid = min(amount, state["bank"])
    transfer(state, None, seat, paid)
    happen(state, events, "pay", **{"from": None, "to": seat, "amount": paid, "why": why})


def city_tax(state: State, events: list[Event]) -> None:
    from engines.cosanostra.cards import use_reaction   # cards pay through this module

    seats = in_game(state)
    start = seats.index(state["active"]) if state["active"] in seats else 0
    happen(state, events, "city_tax")
    for seat in seats[start:] + seats[:start]:
        if use_reaction(state, events, seat, "R14"):
            continue
        tax = family(state, seat)["cash"] // 2 // 100 * 100
        if tax:
            pay_now(state, events, seat, None, tax, "city_tax")


# --- the payment task (rules §9.3) ------------------------------------------------------------

def pay_task(state: State, events: list[Event], task: dict) -> bool:
    """PAY(debtor, creditor, amount): paid at once if the cash covers it; else selling up, or
    bankruptcy when there is nothing to sell.  True when the queue may go on."""
    payer, payee, amount = task["from"], task["to"], task["amount"]
    if family(state, payer)["out"] or (payee is not None and family(state, payee)["out"]) or amount <= 0:
        return True
    if family(state, payer)["cash"] >= amount:
        pay_now(state, events, payer, payee, amount, task["why"])
        return True
    state["liquidation"] = {"seat": payer, "owed": amount, "to": payee, "why": task["why"]}
    if not has_anything_to_sell(state, payer):
        bankrupt(state, events, payer, payee)
        return not state["result"]
    happen(state, events, "liquidation", seat=payer, owed=amount, to=payee)
    from engines.cosanostra.turns import enter
    enter(state, LIQUIDATION)
    return False


def has_anything_to_sell(state: State, seat: int) -> bool:
    """Rules §9.6: tiles for the city; businesses and red cards for another family."""
    return bool(tiles_of(state, seat) or owned_businesses(state, seat) or state["secret"]["hands"][seat])


def sell_to_city(state: State, events: list[Event], cell: str) -> None:
    """Rules §9.4: 1000 from the bank; the cell empties; the piece leaves the game or goes back
    to the supply (option ``city_sale_piece``)."""
    seat = state["cells"][cell]
    lose_cell(state, cell, out_of_game=option(state, "city_sale_piece") == "out_of_game")
    happen(state, events, "city_sale", seat=seat, cell=cell)
    bank_pays(state, events, seat, board.PRICES["city_sale"], "city_sale")


def settle(state: State, events: list[Event]) -> None:
    """The debtor pays what he owes (his cash covers it now): the liquidation is over."""
    debt = state["liquidation"]
    state["liquidation"] = None
    pay_now(state, events, debt["seat"], debt["to"], debt["owed"], debt["why"])


def auto_liquidate(state: State, events: list[Event]) -> None:
    """Rules §9.3 AUTO_LIQUIDATE: tiles to the city, the most recently acquired first, until the
    cash covers the debt; then pay, or go bankrupt."""
    debt = state["liquidation"]
    seat = debt["seat"]
    while family(state, seat)["cash"] < debt["owed"] and tiles_of(state, seat):
        sell_to_city(state, events, max(tiles_of(state, seat), key=lambda cell: state["acquired"][cell]))
    if family(state, seat)["cash"] >= debt["owed"]:
        settle(state, events)
    else:
        bankrupt(state, events, seat, debt["to"])


# --- bankruptcy (rules §9.6) -------------------------------------------------------------------

def bankrupt(state: State, events: list[Event], seat: int, creditor: int | None) -> None:
    """The family pays all its cash to the creditor and drops out.  With
    ``bankruptcy_ends_game`` the game ends (rules §15.3); otherwise its tiles leave the map, its
    businesses become neutral, its picciotti go to the supply and its cards under their decks."""
    from engines.cosanostra.ending import finish_by_power

    fam = family(state, seat)
    state["liquidation"] = None
    if fam["cash"]:
        pay_now(state, events, seat, creditor, fam["cash"], "bankruptcy")
    fam["out"] = True
    happen(state, events, "bankruptcy", seat=seat)
    _clear_out(state, seat)
    if option(state, "bankruptcy_ends_game") or len(in_game(state)) <= 1:
        finish_by_power(state, events, "bankruptcy")
    elif seat == state["active"]:
        state["tasks"] = [{"do": "end_turn"}]       # the rest of his turn is gone with him


def _clear_out(state: State, seat: int) -> None:
    fam, secret = family(state, seat), state["secret"]
    for cell in tiles_of(state, seat):
        lose_cell(state, cell, out_of_game=True)
    state["supply"] += fam["gate_picciotti"]
    fam["gate_picciotti"] = 0
    for square in owned_businesses(state, seat):
        secret["red"] += set_owner(state, square, None)
    for business in state["businesses"].values():
        if seat in business["friends"]:
            business["friends"] = [s for s in business["friends"] if s != seat]
            secret["red"].append(FRIEND_CARD)
        if business["closed"] == seat:
            business["closed"] = None
    secret["red"] += secret["hands"][seat]
    secret["hands"][seat], secret["armed"][seat] = [], []
    secret["black"] += fam["face_up"]
    fam["face_up"], fam["loan_shark"], fam["fed"], fam["fed_now"] = [], None, None, False
    if state["trade"] and seat in (state["trade"]["from"], state["trade"]["to"]):
        state["trade"], secret["trade"] = None, None


