"""Deals between families (docs/rules/cosanostra.md §13, §19.2): offers of cash, tiles,
businesses and red cards, checked when sent and again, atomically, when accepted.

Our simplification: one open offer in the whole game at a time.  Its contents are the two
parties' secret (``state["secret"]["trade"]``); everyone sees that a deal is open and between
whom, and a closed deal in full except the red cards' identities.
"""

from __future__ import annotations

from engines.base import Event, IllegalAction, MalformedAction, State
from engines.cosanostra import board
from engines.cosanostra.cards import from_hand
from engines.cosanostra.city import adjacent_to_territory, gain_cell, lose_cell, set_owner
from engines.cosanostra.money import transfer
from engines.cosanostra.state import deck_code, family, fed_banned, happen, in_game

KINDS = ("cash", "tiles", "businesses", "red_cards")
MAX_OFFERS_PER_TURN = 2      # ours, per family and turn: a turn cannot be spent haggling


def goods(raw) -> dict:
    """A GOODS object of the interface, normalised; MalformedAction if it cannot be one."""
    if not isinstance(raw, dict) or set(raw) - set(KINDS):
        raise MalformedAction("bad_action", "Goods are cash, tiles, businesses and red cards")
    cash = raw.get("cash", 0)
    lists = {kind: raw.get(kind, []) for kind in KINDS[1:]}
    if type(cash) is not int or cash < 0 or cash % 100 \
            or not all(isinstance(items, list) for items in lists.values()):
        raise MalformedAction("bad_action", "Cash in hundreds, the rest as lists")
    if not all(isinstance(c, str) for c in lists["tiles"] + lists["red_cards"]) \
            or not all(type(s) is int for s in lists["businesses"]):
        raise MalformedAction("bad_action", "Cells and cards by name, businesses by square")
    if any(len(set(items)) != len(items) for items in lists.values()):
        raise MalformedAction("bad_action", "An item twice")
    return {"cash": cash, **{kind: sorted(items) for kind, items in lists.items()}}


def empty(side: dict) -> bool:
    return not side["cash"] and not any(side[kind] for kind in KINDS[1:])


def _check_side(state: State, owner: int, receiver: int, side: dict, owner_cash: bool) -> None:
    """What ``owner`` hands to ``receiver`` is his, and the receiver may take it (rules §13)."""
    if owner_cash and side["cash"] > family(state, owner)["cash"]:
        raise IllegalAction("no_cash", "Not that much cash")
    for cell in side["tiles"]:
        if state["cells"].get(cell) != owner:
            raise IllegalAction("trade_invalid", "A tile is not his")
    for square in side["businesses"]:
        if state["businesses"].get(str(square), {}).get("owner") != owner:
            raise IllegalAction("trade_invalid", "A business is not his")
    for card in side["red_cards"]:
        if card not in state["secret"]["hands"][owner]:
            raise IllegalAction("trade_invalid", "A card is not his")
    if (side["tiles"] or side["businesses"]) and fed_banned(state, receiver):
        raise IllegalAction("fed_ban", "A family under the federal ban gains nothing")
    if any(not adjacent_to_territory(state, receiver, cell) for cell in side["tiles"]):
        raise IllegalAction("not_adjacent", "A tile does not border the buyer's territory")
    if len(side["tiles"]) > family(state, receiver)["pieces"]:
        raise IllegalAction("no_piece", "Not enough pieces")
    if len(side["businesses"]) > family(state, receiver)["markers"]:
        raise IllegalAction("no_marker", "Not enough markers")


def check_offer(state: State, offer: dict, accepting: bool) -> None:
    """Validation at send and at accept (rules §13).  At send the proposer's own cash only: the
    other side's cash is checked when he accepts (it may be hidden, §14)."""
    frm, to = offer["from"], offer["to"]
    if to == frm or to not in in_game(state):
        raise IllegalAction("trade_invalid", "No such partner")
    if empty(offer["give"]) and empty(offer["take"]):
        raise IllegalAction("trade_invalid", "An empty deal")
    _check_side(state, frm, to, offer["give"], owner_cash=True)
    _check_side(state, to, frm, offer["take"], owner_cash=accepting)


def public(offer: dict) -> dict:
    """A closed deal as everyone sees it: red cards as a count (rules §14)."""
    return {side: {**offer[side], "red_cards": len(offer[side]["red_cards"])} for side in ("give", "take")}


def open_offer(state: State, events: list[Event], offer: dict, counter: bool = False) -> None:
    """An offer is sent (a counter-offer does not count toward the proposer's offers this turn)."""
    from engines.cosanostra.turns import restart_clock

    state["trade"] = {"from": offer["from"], "to": offer["to"]}
    state["secret"]["trade"] = offer
    if not counter:
        state["trades_made"] = [n + (seat == offer["from"]) for seat, n in enumerate(state["trades_made"])]
    events.append(Event("trade_offer", offer, sorted([offer["from"], offer["to"]])))
    happen(state, events, "trade_sent", **{"from": offer["from"], "to": offer["to"]})
    restart_clock(state)


def close(state: State, events: list[Event], code: str) -> None:
    """The open offer ends (accepted, declined, withdrawn, expired); the step it interrupted gets
    its clock back in full (rules §19.1)."""
    from engines.cosanostra.turns import restart_clock

    trade = state["trade"]
    state["trade"], state["secret"]["trade"] = None, None
    if code != "trade_done":
        happen(state, events, code, **{"from": trade["from"], "to": trade["to"]})
    restart_clock(state)


def execute(state: State, events: list[Event], offer: dict) -> None:
    """The deal, atomically: cash both ways, tiles (the seller's piece home, the buyer's on it),
    businesses with any card lying at them, red cards from hand to hand."""
    for side, owner, receiver in (("give", offer["from"], offer["to"]), ("take", offer["to"], offer["from"])):
        goods_ = offer[side]
        transfer(state, owner, receiver, goods_["cash"])
        for cell in goods_["tiles"]:
            lose_cell(state, cell)
            gain_cell(state, cell, receiver)
        for square in goods_["businesses"]:
            card = state["businesses"][str(square)]["card"]
            state["secret"]["red"] += set_owner(state, square, receiver)
            state["businesses"][str(square)]["card"] = card
        for card in goods_["red_cards"]:
            from_hand(state, owner, card)
            state["secret"]["hands"][receiver] = state["secret"]["hands"][receiver] + [card]
            events.append(Event("red_card", {"seat": receiver, "card": card}, [receiver]))
    happen(state, events, "trade_done", **{"from": offer["from"], "to": offer["to"]}, **public(offer))
    close(state, events, "trade_done")


def offer_codes(offer: dict) -> dict:
    """An offer as its parties' views show it: red cards as ``{"id", "code"}``."""
    return {"from": offer["from"], "to": offer["to"],
            **{side: {**offer[side], "red_cards": [{"id": c, "code": deck_code(c)} for c in offer[side]["red_cards"]]}
               for side in ("give", "take")}}


def business_price(square: int) -> int:
    return board.PRICES.get(board.RING[square][0], 4000)
