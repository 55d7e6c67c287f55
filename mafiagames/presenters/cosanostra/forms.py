"""Cosa Nostra: a phone's submitted form turned into an engine action (``parse_action``); the
engine validates everything (legal moves, cash, adjacency, turn), this only reads the fields.

Every button is a legal action with its fields as hidden inputs (context.button): one reading per
field.  The "Deal" composer (rules §13) is the one form with the player's own choices.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from engines.cosanostra import board as B

from .. import FormError, Maybe, button_action, form_seat


def cell(raw) -> str:
    """A city cell ("a1".."g7"), or a clear refusal."""
    if raw not in B.CELLS:
        raise FormError(_("There is no such cell: %(value)s") % {"value": raw})
    return raw


def place(raw) -> str:
    """Where a picciotto stands or goes: a cell or "gate"."""
    return "gate" if raw == "gate" else cell(raw)


def square(raw) -> int:
    """A ring square (0..23)."""
    try:
        value = int(raw)
    except (TypeError, ValueError):
        value = -1
    if not 0 <= value < B.RING_SIZE:
        raise FormError(_("There is no such square: %(value)s") % {"value": raw})
    return value


def steps(raw) -> int:
    try:
        value = int(raw)
    except (TypeError, ValueError):
        value = 0
    if not 1 <= value <= 6:
        raise FormError(_("Move 1 to 6 squares."))
    return value


def gate(raw) -> str:
    if raw not in B.GATES:
        raise FormError(_("There is no such gate."))
    return raw


def card(raw) -> str:
    """A card instance ("R05-1")."""
    if not raw or "-" not in raw or len(raw) > 12:
        raise FormError(_("There is no such card."))
    return raw


def on(raw) -> bool:
    if raw not in ("true", "false"):
        raise FormError(_("That request was malformed."))
    return raw == "true"


def target(raw):
    """A black card's choice (interface, ``choose``): a number is a ring square or a seat, the
    gate is "gate", anything else a cell."""
    if raw and raw.isascii() and raw.isdigit():   # "²" is a digit to str.isdigit, not to int()
        return int(raw)
    return place(raw)


# The buttons whose hidden fields are a move's (presenters.button_action; context.button).
BUTTONS = {
    **{kind: {} for kind in ("roll", "decline", "hire", "end_turn", "pay", "accept_trade", "decline_trade",
                             "withdraw_trade")},
    "choose_gate": {"gate": gate}, "place_start": {"cell": cell},
    "move": {"steps": steps},
    "accept": {"cell": Maybe(cell)},
    "choose": {"target": target},
    "buy_tile": {"cell": cell}, "buy_business": {"square": square},
    "step": {"from": place, "to": place},
    "play_card": {"card": card, "steps": Maybe(steps), "square": Maybe(square), "cell": Maybe(cell),
                  "from": Maybe(place)},
    "sell_to_city": {"cell": cell},
    "arm": {"card": card, "on": on},
}


def cash(raw) -> int:
    """An amount of a deal: whole hundreds of D (rules §9.1)."""
    try:
        value = int(raw or 0)
    except (TypeError, ValueError):
        raise FormError(_("Name an amount in hundreds of D.")) from None
    if value < 0 or value % 100:
        raise FormError(_("Name an amount in hundreds of D."))
    return value


def goods(post, side: str) -> dict:
    """One side of a deal from the composer's fields (``give_*`` or ``take_*``): the interface's
    GOODS.  Red cards only on the giving side: nobody asks for a hidden card (rules §13)."""
    return {"cash": cash(post.get(f"{side}_cash")),
            "tiles": [cell(raw) for raw in post.getlist(f"{side}_tiles")],
            "businesses": [square(raw) for raw in post.getlist(f"{side}_businesses")],
            "red_cards": [card(raw) for raw in post.getlist(f"{side}_red_cards")] if side == "give" else []}


def parse_action(post) -> dict:
    """Form fields of a phone's tap → an engine action (the engine validates everything)."""
    action = button_action(post, BUTTONS)
    if action is not None:
        return action
    kind = post.get("action")
    if kind in ("offer_trade", "counter_trade"):
        deal = {"type": kind, "give": goods(post, "give"), "take": goods(post, "take")}
        if kind == "offer_trade":
            deal["to"] = form_seat(post.get("to"))
        return deal
    raise FormError(_("Unknown action."))
