"""Cosa Nostra: what each template gets — ``present`` (the TV's board, families and result), a
phone's kept fragments (``phone_fragments``: its family card with the secret hand, its panel of
the turn's choices) and the phones' board (``phone_board``), each a template and the only context
it reads (presenters/__init__.py).

Every button a phone shows is one of the seat's legal actions (``me["legal"]``, the engine's
``legal_actions``) with its fields as hidden inputs: the presenter groups and names them, it never
decides what is legal (tests/web/test_buttons_are_moves.py).  A phone of a seat that is not
acting shows the same panel as every other such phone, whatever its hand (the hand is folded on
the family card, alike on every phone: docs/rules/cosanostra.md §14).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from engines.cosanostra import board as B

from .. import narrated
from . import drawing
from .words import (
    CARD_HELP, CHOOSE_ASKS, COLOUR_NAMES, GATE_NAMES, OFFER_ASKS, PHASE_TITLES, RANK_HELP, RANK_NAMES, REASONS,
    REACTIONS, TIMING, card_code, card_name, card_timing, colour_name, family, gate_or_cell, money,
    goods_words, narrate, square_name, winners_text,
)

TEMPLATE_DIR = "engines/cosanostra"
TV_HISTORY = 6


# --- the TV -----------------------------------------------------------------------------------------

def present(view: dict, names: list[str]) -> dict:
    """The TV's context from the public view: the board, each family's row, the last roll, the
    history of moves and payments, the narration and, at the end, the result."""
    winners = set(view.get("winner") or [])
    rows = [_row(f, view, names, winners) for f in view["families"]]
    context = {
        "rows": rows,
        "phase_title": _phase_title(view, names),
        "narration": narrated(narrate, view.get("narration", []), names, view),
        "mood": "day",
        "roll": _roll(view, names),
        # The last happenings the TV has room for beside the board (the engine keeps 8).
        "history": narrated(narrate, view.get("history", [])[-TV_HISTORY:], names, view),
        "round": _round(view),
        "deal": _public_trade(view, names),
        "over": view["phase"] == "over",
    }
    context["board"] = drawing.board_context(view, names)
    if context["over"]:
        context["winner_line"] = winners_text(view.get("winner") or [], names)
        context["reason_text"] = str(REASONS.get(view.get("end") or "", ""))
    return context


def _row(f: dict, view: dict, names: list[str], winners: set) -> dict:
    """One family on the TV: colour, name, cash, rank, tiles, red cards, face-up cards, fed ban."""
    seat = f["seat"]
    return {
        "seat": seat, "name": names[seat], "colour": B.COLOURS[seat].lower(), "colour_name": colour_name(seat),
        "cash": money(f["cash"]) if f.get("cash") is not None else "",
        "rank": str(RANK_NAMES.get(f["rank"], f["rank"])), "tiles": f["tiles"],
        "red_cards": f["red_cards"], "face_up": [card_name(code) for code in f.get("face_up") or []],
        "fed": f.get("fed"), "out": bool(f.get("out")), "active": seat == view.get("active") and view["phase"] != "over",
        "winner": seat in winners,
    }


def _round(view: dict) -> str:
    """The round, and of how many when the round limit is on (rules §15.4)."""
    limit = (view.get("options") or {}).get("max_rounds", "off")
    if limit == "off":
        return _("Round %(n)s") % {"n": view.get("round", 1)}
    return _("Round %(n)s of %(of)s") % {"n": view.get("round", 1), "of": limit}


def _phase_title(view: dict, names: list[str]) -> str:
    phase = view["phase"]
    if phase == "over":
        return str(PHASE_TITLES["over"])
    who = family(view["active"], names) if isinstance(view.get("active"), int) else ""
    if phase == "liquidation" and view.get("liquidation"):
        who = family(view["liquidation"]["seat"], names)
    return _("%(who)s · %(step)s") % {"who": who, "step": PHASE_TITLES.get(phase, "")} if who else str(
        PHASE_TITLES.get(phase, ""))


def _roll(view: dict, names: list[str]) -> dict | None:
    """The current (or last) roll: the die and the range it allows (rules §5)."""
    roll = view.get("roll")
    if not roll:
        return None
    lo, hi = roll["allowed"]
    return {"die": roll["die"], "lo": lo, "hi": hi, "by": family(roll["by"], names),
            "colour": B.COLOURS[roll["by"]].lower(), "colour_die": str(COLOUR_NAMES.get(view.get("colour_roll") or "", ""))}


def _public_trade(view: dict, names: list[str]) -> str:
    """An open offer as everyone may know it: between whom (rules §14; its contents are the
    parties' only)."""
    trade = view.get("trade")
    if not trade:
        return ""
    return _("%(from)s and %(to)s are talking business.") % {"from": family(trade["from"], names),
                                                              "to": family(trade["to"], names)}


# --- a phone's buttons: legal actions with their fields ------------------------------------------------

def encode(value) -> str:
    """A move's field as a hidden input's value (forms.py reads it back)."""
    if value is True or value is False:
        return "true" if value else "false"
    return str(value)


def button(action: dict, label, *, note="", kind: str = "") -> dict:
    """A button that sends ``action`` (one of the seat's legal actions): its hidden fields."""
    fields = [("action", action["type"])] + [(key, encode(value)) for key, value in action.items() if key != "type"]
    return {"label": str(label), "note": str(note), "fields": fields, "kind": kind}


def _of(legal: list[dict], kind: str, **match) -> list[dict]:
    return [a for a in legal if a["type"] == kind and all(a.get(k) == v for k, v in match.items())]


def city_map(view: dict, sends: dict[str, dict] | None = None) -> list[list[dict]]:
    """The 7×7 city on a phone, row by row: each cell's owner and picciotto (colours), and the
    move it sends if tapped (``sends``: cell → legal action; others are greyed and send nothing)."""
    cells, picciotti, sends = view.get("cells", {}), view.get("picciotti", {}), sends or {}
    rows = []
    for y in B.ROWS:
        row = []
        for x in B.COLUMNS:
            cell = f"{x}{y}"
            owner, pic = cells.get(cell), picciotti.get(cell)
            action = sends.get(cell)
            row.append({"cell": cell, "owner": B.COLOURS[owner].lower() if owner is not None else "",
                        "pic": B.COLOURS[pic].lower() if pic is not None else "",
                        "fields": button(action, cell)["fields"] if action else None,
                        "gate": cell in B.GATES.values()})
        rows.append(row)
    return rows


def _target_label(code: str, target, names: list[str]) -> str:
    """A black card's choice (rules §11.3): a family for the Vendetta (B14), a ring square for the
    cards that take a business (B03, B12, B16), else a cell or the gate (a picciotto, a tile)."""
    if code == "B14" and isinstance(target, int):
        return family(target, names)
    if isinstance(target, int):
        return square_name(target)
    return gate_or_cell(target)


# --- the phone's panel, by phase -------------------------------------------------------------------------

def _gates(view: dict, legal: list[dict]) -> dict:
    gates = [button(a, GATE_NAMES[a["gate"]], note=B.GATES[a["gate"]], kind="gate") for a in _of(legal, "choose_gate")]
    starts = {a["cell"]: a for a in _of(legal, "place_start")}
    return {"gates": gates, "map": city_map(view, starts) if starts else None,
            "ask": str(_("Choose your gate: your first tile goes on its cell.") if gates else
                       _("Place a tile next to one of yours."))}


def _before_roll(legal: list[dict]) -> dict:
    fast = [a for a in _of(legal, "play_card") if card_code(a["card"]) == "R10"]
    return {"roll": [button(a, _("Roll the die"), kind="primary") for a in _of(legal, "roll")],
            "fast": [button(a, a["steps"]) for a in sorted(fast, key=lambda a: a["steps"])]}


def _choose_move(view: dict, legal: list[dict]) -> dict:
    pos = view["families"][view["active"]]["pos"]
    moves = sorted(_of(legal, "move"), key=lambda a: a["steps"])
    return {"moves": [button(a, a["steps"], note=square_name((pos + a["steps"]) % B.RING_SIZE)) for a in moves]}


def _offer(view: dict, legal: list[dict]) -> dict:
    offer = view.get("offer") or {}
    accepts = _of(legal, "accept")
    by_cell = {a["cell"]: a for a in accepts if "cell" in a}
    return {"ask": str(OFFER_ASKS.get(offer.get("kind"), "")), "price": money(offer.get("price")),
            "accept": [button(a, _("Yes"), kind="primary") for a in accepts if "cell" not in a],
            "map": city_map(view, by_cell) if by_cell else None,
            "decline": [button(a, _("No, thanks")) for a in _of(legal, "decline")]}


def _choose(view: dict, names: list[str], legal: list[dict]) -> dict:
    choose = view.get("choose") or {}
    code = choose.get("card", "")
    return {"ask": str(CHOOSE_ASKS.get(code, "")), "card": card_name(code), "help": str(CARD_HELP.get(code, "")),
            "targets": [button(a, _target_label(code, a["target"], names)) for a in _of(legal, "choose")]}


def _action(view: dict, me: dict, names: list[str], legal: list[dict]) -> dict:
    """The action phase (rules §12): maps to buy on and to step on, hire, businesses, cards, end."""
    buy = {a["cell"]: a for a in _of(legal, "buy_tile")}
    steps: dict = {}
    for a in _of(legal, "step"):
        steps.setdefault(a["from"], []).append(a)
    pickets = [{"from": gate_or_cell(start),
                "map": city_map(view, {a["to"]: a for a in moves if a["to"] != "gate"}),
                "home": [button(a, _("Back to the gate")) for a in moves if a["to"] == "gate"]}
               for start, moves in sorted(steps.items(), key=lambda item: (item[0] != "gate", item[0]))]
    return {
        "buy_map": city_map(view, buy) if buy else None,
        "pickets": pickets,
        "hire": [button(a, _("Hire a picciotto (2000 D)")) for a in _of(legal, "hire")],
        "businesses": [button(a, square_name(a["square"]), note=money(B.PRICES[B.RING[a["square"]][0]]))
                       for a in sorted(_of(legal, "buy_business"), key=lambda a: a["square"])],
        "cards": _card_plays(view, names, [a for a in _of(legal, "play_card") if card_code(a["card"]) != "R10"]),
        "end": [button(a, _("End turn"), kind="primary") for a in _of(legal, "end_turn")],
    }


def _card_plays(view: dict, names: list[str], plays: list[dict]) -> list[dict]:
    """Each red card the seat may play now, with its targets: squares, cells or a picciotto."""
    cards: dict = {}
    for a in plays:
        cards.setdefault(a["card"], []).append(a)
    out = []
    for card, actions in cards.items():
        code = card_code(card)
        entry = {"name": card_name(code), "help": str(CARD_HELP.get(code, "")), "plain": [], "choices": [], "map": None}
        with_cell = {a["cell"]: a for a in actions if "cell" in a}
        for a in actions:
            if "square" in a:
                entry["choices"].append(button(a, square_name(a["square"])))
            elif "from" in a:
                entry["choices"].append(button(a, gate_or_cell(a["from"])))
            elif "cell" not in a:
                entry["plain"].append(button(a, _("Play it"), kind="primary"))
        if with_cell:
            entry["map"] = city_map(view, with_cell)
        out.append(entry)
    return out


def _liquidation(view: dict, legal: list[dict]) -> dict:
    liq = view["liquidation"]
    return {"owed": money(liq["owed"]),
            "sell": [button(a, a["cell"], note="+" + money(B.PRICES["city_sale"])) for a in _of(legal, "sell_to_city")],
            "pay": [button(a, _("Pay %(amount)s") % {"amount": money(liq["owed"])}, kind="primary")
                    for a in _of(legal, "pay")]}


# --- trades (rules §13) ------------------------------------------------------------------------------------

def _goods(goods: dict, names: list[str]) -> dict:
    """One side of an offer as its two parties read it: cash, tiles, businesses, red cards with
    their texts (the parties' views alone carry them: interface, trade)."""
    cards = [{"name": card_name(c["code"]), "help": str(CARD_HELP.get(c["code"], ""))}
             for c in goods.get("red_cards") or [] if isinstance(c, dict)]
    return {"cash": money(goods["cash"]) if goods.get("cash") else "", "tiles": list(goods.get("tiles") or []),
            "businesses": [square_name(int(s)) for s in goods.get("businesses") or []], "cards": cards}


def _trade(view: dict, me: dict, names: list[str], legal: list[dict]) -> dict | None:
    trade = view.get("trade")
    if not trade or "give" not in trade or me["seat"] not in (trade["from"], trade["to"]):
        return None
    mine = trade["from"] == me["seat"]
    other = trade["to"] if mine else trade["from"]
    # What this phone's player gives and gets, whichever side of the offer he is on.
    give, get = (trade["give"], trade["take"]) if mine else (trade["take"], trade["give"])
    return {"mine": mine, "with": family(other, names), "give": _goods(give, names), "get": _goods(get, names),
            "accept": [button(a, _("Accept"), kind="primary") for a in _of(legal, "accept_trade")],
            "decline": [button(a, _("Decline")) for a in _of(legal, "decline_trade")],
            "withdraw": [button(a, _("Withdraw the offer")) for a in _of(legal, "withdraw_trade")],
            # A counter is a new offer of the recipient's (rules §13): offered while he may answer.
            "counter": _composer(view, me, names, [other]) if not mine and _may(legal, "decline_trade") else None}


def _may(legal: list[dict], kind: str) -> bool:
    return any(a["type"] == kind for a in legal)


def deal_fields(action: dict) -> list[tuple[str, str]]:
    """An offer's hidden fields as the composer names them (forms.goods reads them back)."""
    fields = [("action", action["type"])] + ([("to", str(action["to"]))] if "to" in action else [])
    for side in ("give", "take"):
        goods = action[side]
        fields.append((f"{side}_cash", str(goods.get("cash", 0))))
        fields += [(f"{side}_{key}", str(item)) for key in ("tiles", "businesses", "red_cards")
                   for item in goods.get(key) or []]
    return fields


def _quick_deals(legal: list[dict], names: list[str], hand: list[dict]) -> list[dict]:
    """The deals the engine suggests (``legal`` offers: a red card or a business for cash, a
    rival's tile beside the territory), each one tap: what you give, what you ask, and to whom."""
    cards = {c["id"]: c["code"] for c in hand}
    out = []
    for a in _of(legal, "offer_trade"):
        give = {**a["give"], "red_cards": [{"id": c, "code": cards.get(c, "")} for c in a["give"].get("red_cards") or []]}
        label = _("→ %(family)s: you give %(give)s, you get %(take)s") % {
            "family": family(a["to"], names), "give": goods_line(give), "take": goods_line(a["take"])}
        out.append({"label": label, "note": "", "fields": deal_fields(a), "kind": "deal"})
    return out


def goods_line(goods: dict) -> str:
    """One side of an offer on a button: its red cards by name (the proposer's own)."""
    cards = [card_name(c["code"]) for c in goods.get("red_cards") or [] if isinstance(c, dict)]
    words = goods_words({**goods, "red_cards": []})
    return ", ".join(([words] if words != str(_("nothing")) or not cards else []) + cards)


def _composer(view: dict, me: dict, names: list[str], partners: list[int]) -> dict:
    """The "Deal" form (rules §13 Phone UI): to whom; what you give and what you get — cash in
    100s, tiles, businesses, red cards (yours only: you cannot ask for a hidden card)."""
    seat = me["seat"]
    cells = view.get("cells", {})
    businesses = view.get("businesses", {})
    return {
        "partners": [{"seat": s, "name": family(s, names)} for s in partners],
        "my_tiles": sorted(c for c, owner in cells.items() if owner == seat),
        "their_tiles": sorted(c for c, owner in cells.items() if owner is not None and owner != seat
                              and (len(partners) > 1 or owner in partners)),
        "my_businesses": [{"square": int(s), "name": square_name(int(s))}
                          for s, b in sorted(businesses.items(), key=lambda i: int(i[0])) if b.get("owner") == seat],
        "their_businesses": [{"square": int(s), "name": square_name(int(s))}
                             for s, b in sorted(businesses.items(), key=lambda i: int(i[0]))
                             if b.get("owner") is not None and b["owner"] != seat
                             and (len(partners) > 1 or b["owner"] in partners)],
        "my_cards": [{"id": c["id"], "name": card_name(c["code"])} for c in me.get("hand") or []],
        "cash_max": me.get("cash") or 0,
    }


# --- the phone's fragments ----------------------------------------------------------------------------------

def _hand(me: dict, legal: list[dict]) -> list[dict]:
    """The secret hand with what each card does, and the arm toggle of a REACTION card (§11.2)."""
    hand = []
    for card in me.get("hand") or []:
        code = card["code"]
        arm = _of(legal, "arm", card=card["id"])
        hand.append({"name": card_name(code), "help": str(CARD_HELP.get(code, "")),
                     "when": str(TIMING[card_timing(code)]), "reaction": code in REACTIONS,
                     "armed": bool(card.get("armed")),
                     "toggle": button(arm[0], _("Disarm") if card.get("armed") else _("Arm")) if arm else None})
    return hand


def phone_fragments(view: dict, names: list[str], clock: dict) -> dict[str, tuple[str, dict]]:
    """A phone's family card (with the folded secret hand) and its panel (the turn's choices)."""
    me = view["me"]
    seat = me["seat"]
    # While a result is on the stage (engines/moments.py) nobody moves: no button sends.
    legal = [] if view.get("moment") else me.get("legal") or []
    fam = view["families"][seat]
    role = {"colour": B.COLOURS[seat].lower(), "colour_name": colour_name(seat), "name": names[seat],
            "cash": money(me.get("cash")), "rank": str(RANK_NAMES.get(fam["rank"], "")),
            "rank_help": str(RANK_HELP.get(fam["rank"], "")), "tiles": fam["tiles"],
            "pieces": fam.get("pieces_left"), "fed": fam.get("fed"), "out": bool(fam.get("out")),
            "hand": _hand(me, legal), "turn": view["turn"]}
    return {"role": (f"{TEMPLATE_DIR}/phone_role.html", role),
            "panel": (f"{TEMPLATE_DIR}/phone_panel.html", panel(view, names, clock, legal))}


def panel(view: dict, names: list[str], clock: dict, legal: list[dict]) -> dict:
    """The panel: what this seat may do now, else whom the table is following."""
    me, phase = view["me"], view["phase"]
    seat = me["seat"]
    context = {"turn": view["turn"], **clock, "heading": _phase_title(view, names), "step": phase}
    if phase == "over":
        winners = view.get("winner") or []
        return {**context, "over": True, "i_won": seat in winners, "winner_line": winners_text(winners, names),
                "reason_text": str(REASONS.get(view.get("end") or "", ""))}
    acting = _acting(view, seat)
    trade = _trade(view, me, names, legal)
    if trade:
        context["trade"] = trade
    if not acting:
        context["waiting"] = True
        return context
    context["acting"] = True
    context["heading"] = _("Your move · %(step)s") % {"step": PHASE_TITLES.get(phase, "")}
    if phase == "gates":
        context["gates"] = _gates(view, legal)
    elif phase == "before_roll":
        context["before_roll"] = _before_roll(legal)
    elif phase == "choose_move":
        context["choose_move"] = _choose_move(view, legal)
    elif phase == "offer":
        context["offer"] = _offer(view, legal)
    elif phase == "choose":
        context["choose"] = _choose(view, names, legal)
    elif phase == "action":
        context["action"] = _action(view, me, names, legal)
    elif phase == "liquidation":
        context["liquidation"] = _liquidation(view, legal)
    # Who may propose a deal (rules §13 [P]): the active seat in its action phase, a debtor in
    # liquidation; the engine says so in ``legal`` when it lists offers, else it refuses in words.
    if not view.get("trade") and (_may(legal, "offer_trade") or phase in ("action", "liquidation")):
        others = [f["seat"] for f in view["families"] if f["seat"] != seat and not f.get("out")]
        context["compose"] = {**_composer(view, me, names, others),
                              "quick": _quick_deals(legal, names, me.get("hand") or [])}
    return context


def _acting(view: dict, seat: int) -> bool:
    """Whether the phase asks this seat (the active seat; the debtor in a liquidation)."""
    if view["phase"] == "liquidation" and view.get("liquidation"):
        return view["liquidation"]["seat"] == seat
    if view["phase"] == "choose" and view.get("choose"):
        return view["choose"]["seat"] == seat
    if view["phase"] == "offer" and view.get("offer"):
        return view["offer"]["seat"] == seat
    return view.get("active") == seat


def phone_board(view: dict, names: list[str]) -> tuple[str, dict]:
    """Every phone's small public board: each family's cash, rank and tiles, the last roll."""
    rows = [{key: row[key] for key in ("name", "colour", "colour_name", "cash", "rank", "tiles", "active", "out")}
            for row in (_row(f, view, names, set()) for f in view["families"])]
    return f"{TEMPLATE_DIR}/phone_board.html", {
        "standing": rows, "last_roll": _roll(view, names),
        "recent": narrated(narrate, view.get("history", [])[-2:], names, view)}

