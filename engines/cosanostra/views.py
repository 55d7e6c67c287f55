"""What each screen may know (docs/rules/cosanostra.md §14): the TV's view and each phone's,
built field by field — never by copying secret parts of the state.
"""

from __future__ import annotations

from engines.base import State
from engines.cosanostra import board
from engines.cosanostra.state import deck_code, option, owned_businesses, rank, tile_count


def _fed(fam: dict) -> int | None:
    """Turns of the ban left, this one included (rules §10)."""
    return None if fam["fed"] is None else fam["fed"] + (1 if fam["fed_now"] else 0)


def _family(state: State, seat: int, viewer: int | None) -> dict:
    fam = state["families"][seat]
    shown_cash = not option(state, "hidden_cash") or viewer == seat
    return {
        "seat": seat, "colour": board.COLOURS[seat], "cash": fam["cash"] if shown_cash else None,
        "rank": rank(state, seat), "tiles": tile_count(state, seat), "pieces_left": fam["pieces"],
        "markers_left": fam["markers"], "pos": fam["pos"], "gate": fam["gate"],
        "red_cards": len(state["secret"]["hands"][seat]), "armed": None,
        "face_up": [deck_code(card) for card in fam["face_up"]], "fed": _fed(fam),
        "loan_shark": fam["loan_shark"], "out": fam["out"], "gate_picciotti": fam["gate_picciotti"],
        "businesses": len(owned_businesses(state, seat)),
    }


def _businesses(state: State) -> dict:
    return {square: {"owner": b["owner"], "card": deck_code(b["card"]) if b["card"] else None,
                     "closed": b["closed"] is not None, "friends": list(b["friends"])}
            for square, b in state["businesses"].items()}


def _trade(state: State, viewer: int | None) -> dict | None:
    from engines.cosanostra.trades import offer_codes
    trade = state["trade"]
    if not trade:
        return None
    if viewer in (trade["from"], trade["to"]):
        return offer_codes(state["secret"]["trade"])
    return {"from": trade["from"], "to": trade["to"], "state": "SENT"}


def _me(state: State, seat: int) -> dict:
    from engines.cosanostra.moves import legal_actions
    armed = state["secret"]["armed"][seat]
    return {"seat": seat, "cash": state["families"][seat]["cash"],
            "hand": [{"id": card, "code": deck_code(card), "armed": card in armed}
                     for card in state["secret"]["hands"][seat]],
            "legal": legal_actions(state, seat)}


def view(state: State, seat: int | None) -> dict:
    result = state["result"]
    liquidation = state["liquidation"]
    return {
        "turn": state["turn"], "narration": list(state["narration"]),
        "me": None if seat is None else _me(state, seat),
        "phase": state["phase"], "active": state["active"], "order": list(state["order"]),
        "round": state["round"],
        "families": [_family(state, other, seat) for other in range(state["players"])],
        "cells": dict(state["cells"]), "picciotti": dict(state["picciotti"]),
        "businesses": _businesses(state), "supply": state["supply"],
        "decks": {"red": len(state["secret"]["red"]), "black": len(state["secret"]["black"])},
        "bank": state["bank"],
        "roll": dict(state["roll"]) if state["roll"] else None,
        "colour_roll": state["colour_roll"],
        "offer": dict(state["offer"]) if state["offer"] else None,
        "choose": ({"card": deck_code(state["choose"]["card"]), "seat": state["choose"]["seat"],
                    "targets": list(state["choose"]["targets"])} if state["choose"] else None),
        "liquidation": ({"seat": liquidation["seat"], "owed": liquidation["owed"], "to": liquidation["to"],
                         "cells": sorted(c for c, o in state["cells"].items() if o == liquidation["seat"])}
                        if liquidation else None),
        "trade": _trade(state, seat),
        "stepped": list(state["stepped"]),
        "last_card": dict(state["last_card"]) if state["last_card"] else None,
        "history": list(state["history"]),
        "options": dict(state["options"]),
        "winner": list(result["winners"]) if result else None,
        "end": result["end"] if result else None,
    }

