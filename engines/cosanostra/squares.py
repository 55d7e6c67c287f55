"""The ring's squares (docs/rules/cosanostra.md §6) and a visitor at a business (§8.3):
what stopping on a square does, as tasks for the turn's queue.
"""

from __future__ import annotations

from engines import chance
from engines.base import Event, State
from engines.cosanostra import board
from engines.cosanostra.cards import pay, start_ban, use_reaction
from engines.cosanostra.state import deck_code, family, fed_banned, happen, option, push, rank_index, tile_count

# Rank-dependent amounts (rules §2): (mafioso, capiregime, capo).
NEUTRAL_GAIN = {"BANK": (200, 400, 800), "ARMS": (400, 600, 1000), "CASINO": (200, 400, 800)}
NEUTRAL_POLICE = (400, 600, 1000)
RIVAL_PAYS = {"BANK": (200, 400, 800), "ARMS": (400, 600, 1000), "CASINO": (400, 800, 1200),
              "POLICE": (800, 1200, 2400)}
OWN_GAIN = {"BANK": 3000, "ARMS": 5000, "CASINO": 2000, "POLICE": 0}


def visitor_state(state: State, seat: int, square: int) -> str:
    """Rules §8.3: OWN, FRIENDLY (an R16 of his lies there, or the business is CLOSED), OPPONENT
    or NEUTRAL."""
    business = state["businesses"][str(square)]
    if business["closed"] is not None or seat in business["friends"]:
        return "FRIENDLY"
    if business["owner"] == seat:
        return "OWN"
    return "NEUTRAL" if business["owner"] is None else "OPPONENT"


def business_visit(state: State, events: list[Event], seat: int, square: int) -> None:
    kind = board.RING[square][0]
    owner = state["businesses"][str(square)]["owner"]
    visit, column = visitor_state(state, seat, square), rank_index(state, seat)
    if visit == "FRIENDLY":
        return
    if visit == "OWN":
        gain = OWN_GAIN[kind]
        if gain:
            push(state, {"do": "bank_pays", "to": seat, "amount": gain, "why": kind})
        return
    if kind == "POLICE":
        amount = (NEUTRAL_POLICE if visit == "NEUTRAL" else RIVAL_PAYS["POLICE"])[column]
        if "B10" in map(deck_code, family(state, seat)["face_up"]):
            amount *= 2                                   # under surveillance (B10)
        if use_reaction(state, events, seat, "R13"):      # the alibi
            return
        push(state, pay(seat, owner, amount, kind))
    elif visit == "NEUTRAL":
        push(state, {"do": "bank_pays", "to": seat, "amount": NEUTRAL_GAIN[kind][column], "why": kind})
    else:
        push(state, pay(seat, owner, RIVAL_PAYS[kind][column], kind))


def fortuna(state: State, events: list[Event], seat: int) -> None:
    """Odd → black, even → red; or, with ``fortuna_uses_colour_die``, WHITE or his own colour
    draws red and anything else black (rules §11.4)."""
    record = state["secret"]["chance"]
    if option(state, "fortuna_uses_colour_die"):
        drawn = chance.pick(record, "colour", list(board.COLOUR_DIE))
        state["secret"]["chance"], state["colour_roll"] = drawn.chance, drawn.value
        events.append(drawn.event)
        red = drawn.value in ("WHITE", board.COLOURS[seat])
        happen(state, events, "colour_rolled", seat=seat, colour=drawn.value)
    else:
        drawn = chance.roll(record, "die")
        state["secret"]["chance"] = drawn.chance
        events.append(drawn.event)
        red = drawn.value[0] % 2 == 0
        happen(state, events, "fortuna", seat=seat, die=drawn.value[0])
    push(state, {"do": "draw", "seat": seat, "deck": "red" if red else "black"})


def offer(state: State, seat: int, kind: str, price: int) -> None:
    push(state, {"do": "offer", "kind": kind, "seat": seat, "price": price})


def resolve_task(state: State, events: list[Event], task: dict) -> bool:
    """RESOLVE_SQUARE (rules §6) for the family's figure where it stands."""
    seat = task["seat"]
    square = family(state, seat)["pos"]
    kind = board.RING[square][0]
    cash = family(state, seat)["cash"]
    if kind in board.BUSINESS_KINDS:
        business_visit(state, events, seat, square)
    elif kind == "FORTUNA":
        fortuna(state, events, seat)
    elif kind == "SPORTS":
        if state["supply"] and not fed_banned(state, seat) and cash >= board.PRICES["picciotto_sports_club"]:
            offer(state, seat, "SPORTS", board.PRICES["picciotto_sports_club"])
    elif kind == "SPICL":
        if state["secret"]["red"] and cash >= board.PRICES["spicl"]:
            offer(state, seat, "SPICL", board.PRICES["spicl"])
    elif kind == "YAKUZA":
        if state["picciotti"] and cash >= board.PRICES["yakuza"]:
            offer(state, seat, "YAKUZA", board.PRICES["yakuza"])
    elif kind == "BIG_CITY":
        tiles = tile_count(state, seat)
        if tiles:
            push(state, {"do": "bank_pays", "to": seat, "amount": board.PRICES["big_city_per_tile"] * tiles,
                         "why": kind})
    elif kind == "PROBLEM":
        push(state, {"do": "draw", "seat": seat, "deck": "black"})
    elif kind == "FEDERAL":
        start_ban(state, events, seat)
    return True


def accept_offer(state: State, events: list[Event], seat: int, cell: str | None) -> None:
    """The visitor takes a square's offer (rules §6): its price to the bank, then its good."""
    kind, price = state["offer"]["kind"], state["offer"]["price"]
    state["offer"] = None
    from engines.cosanostra.money import pay_now
    pay_now(state, events, seat, None, price, kind)
    if kind == "SPORTS":
        state["supply"] -= 1
        family(state, seat)["gate_picciotti"] += 1
        happen(state, events, "hire", seat=seat)
    elif kind == "SPICL":
        push(state, {"do": "draw", "seat": seat, "deck": "red"})
    else:
        owner = state["picciotti"].pop(cell)
        state["supply"] += 1
        happen(state, events, "yakuza", seat=seat, cell=cell, owner=owner)
