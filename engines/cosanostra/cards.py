"""The fraud cards (docs/rules/cosanostra.md §11): both decks as data, the draw, the reactions,
what each red card does when played and what each black card does when drawn.

A card *instance* is ``"<code>-<k>"``.  Deck order and hands are secret
(``state["secret"]``); the top of a deck is its first card, and a used card goes under it
(§11.1: never reshuffled).  Effects that move money or ask for a choice push tasks onto the
turn's queue (turns.py), so a payment can stop for selling up and go on afterwards.
"""

from __future__ import annotations

from engines import chance
from engines.base import Event, IllegalAction, State
from engines.cosanostra import board
from engines.cosanostra.city import (
    adjacent_to_territory, check_buyable_cell, gain_cell, picciotto_positions, set_owner, step_targets,
    may_step_from, step_kind,
)
from engines.cosanostra.state import (
    deck_code, family, fed_banned, happen, in_game, opponents, owned_businesses, push,
    rank_index, tile_count, tiles_of,
)

# --- the decks (rules §11.3): code → (copies, timing class) -----------------------------------
RED = {
    "R01": (3, "LONG_TERM"), "R02": (2, "LONG_TERM"), "R03": (1, "LONG_TERM"), "R04": (2, "ACTION"),
    "R05": (2, "ACTION"), "R06": (1, "ACTION"), "R07": (1, "ACTION"), "R08": (2, "ACTION"),
    "R09": (2, "ACTION"), "R10": (1, "BEFORE_ROLL"), "R11": (1, "ACTION"), "R12": (2, "REACTION"),
    "R13": (1, "REACTION"), "R14": (1, "REACTION"), "R15": (1, "ACTION"), "R16": (1, "LONG_TERM"),
}
BLACK = {
    "B01": 2, "B02": 2, "B03": 1, "B04": 2, "B05": 3, "B06": 2, "B07": 2, "B08": 1, "B09": 1,
    "B10": 1, "B11": 1, "B12": 1, "B13": 1, "B14": 2, "B15": 1, "B16": 1,
}
# Red cards blocked by the federal ban (rules §10): they gain control or move picciotti.
FED_BLOCKED = {"R01", "R02", "R03", "R04", "R08", "R09", "R11"}
REACTIONS = tuple(code for code, (_, timing) in RED.items() if timing == "REACTION")


def instances(table: dict) -> list[str]:
    return [f"{code}-{k}" for code, copies in table.items()
            for k in range(1, (copies[0] if isinstance(copies, tuple) else copies) + 1)]


def timing(card: str) -> str:
    return RED[deck_code(card)][1]


def shuffled_decks(record: dict) -> tuple[list[str], list[str], list[Event], dict]:
    """Rules §4.5: both decks shuffled face down (draws of the chance kit, to nobody)."""
    red = chance.shuffle(record, "red_deck", instances(RED))
    black = chance.shuffle(red.chance, "black_deck", instances(BLACK))
    return red.value, black.value, [red.event, black.event], black.chance


def to_bottom(state: State, card: str) -> None:
    state["secret"]["red" if card.startswith("R") else "black"].append(card)


def from_hand(state: State, seat: int, card: str) -> None:
    secret = state["secret"]
    secret["hands"][seat] = [c for c in secret["hands"][seat] if c != card]
    secret["armed"][seat] = [c for c in secret["armed"][seat] if c != card]


def use_reaction(state: State, events: list[Event], seat: int, code: str) -> bool:
    """Rules §11.2 REACTION: an armed card of ``code`` fires by itself and goes under the deck."""
    armed = [card for card in state["secret"]["armed"][seat] if deck_code(card) == code]
    if not armed:
        return False
    from_hand(state, seat, armed[0])
    to_bottom(state, armed[0])
    state["last_card"] = {"code": code, "seat": seat}
    happen(state, events, "card_played", seat=seat, card=code)
    return True


# --- drawing (rules §11.1) --------------------------------------------------------------------

def draw_task(state: State, events: list[Event], task: dict) -> bool:
    seat, deck = task["seat"], task["deck"]
    cards = state["secret"][deck]
    if not cards:
        happen(state, events, "deck_empty", seat=seat, deck=deck)
        return True
    card, state["secret"][deck] = cards[0], cards[1:]
    if deck == "red":
        state["secret"]["hands"][seat] = state["secret"]["hands"][seat] + [card]
        events.append(Event("red_card", {"seat": seat, "card": card}, [seat]))
        happen(state, events, "drew_red", seat=seat)
        return True
    code = deck_code(card)
    state["last_card"] = {"code": code, "seat": seat}
    happen(state, events, "drew_black", seat=seat, card=code)
    if use_reaction(state, events, seat, "R12"):       # the lawyer cancels it
        to_bottom(state, card)
        return True
    BLACK_EFFECTS[code](state, events, seat, card)
    return True


def pay(seat: int, to: int | None, amount: int, why: str) -> dict:
    return {"do": "pay", "from": seat, "to": to, "amount": amount, "why": why}


def start_ban(state: State, events: list[Event], seat: int) -> None:
    """Rules §10: the rest of this turn plus the family's next three; a new trigger resets it."""
    fam = family(state, seat)
    fam["fed"], fam["fed_now"] = 3, True
    happen(state, events, "federal_ban", seat=seat)


# --- black cards: resolved at once (rules §11.3) ----------------------------------------------

def _simple(amount_of):
    def effect(state, events, seat, card):
        to_bottom(state, card)
        amount = amount_of(state, seat)
        if amount:
            push(state, pay(seat, None, amount, deck_code(card)))
    return effect


def _choice(targets_of, fallback: int = 0):
    """A black card that asks its drawer to pick among ``targets_of``; with none, pay
    ``fallback`` (or nothing)."""
    def effect(state, events, seat, card):
        targets = targets_of(state, seat)
        if targets:
            push(state, {"do": "choose", "seat": seat, "card": card, "targets": targets})
            return
        to_bottom(state, card)
        if fallback:
            push(state, pay(seat, None, fallback, deck_code(card)))
    return effect


def _police_of(state, seat):
    return [s for s in owned_businesses(state, seat) if board.RING[s][0] == "POLICE"]


def _turf_war_tiles(state, seat):
    return sorted(cell for cell in tiles_of(state, seat) if state["picciotti"].get(cell) != seat
                  and any(state["cells"].get(n) not in (None, seat) for n in board.neighbours(cell)))


def _arson_targets(state, seat):
    return [s for s in owned_businesses(state, seat) if not state["businesses"][str(s)]["card"]]


def _b04(state, events, seat, card):
    to_bottom(state, card)
    start_ban(state, events, seat)


def _face_up(state, events, seat, card):
    """B10, B11: the card lies face up before its drawer (rules §11.3)."""
    fam = family(state, seat)
    fam["face_up"] = fam["face_up"] + [card]
    if deck_code(card) == "B11":
        fam["loan_shark"] = 3


def _b09(state, events, seat, card):
    to_bottom(state, card)
    push(state, *[pay(seat, other, 500, "B09") for other in opponents(state, seat)])


def _b13(state, events, seat, card):
    """Summoned for questioning: forward to the next police station and resolve it."""
    to_bottom(state, card)
    pos = family(state, seat)["pos"]
    steps = next(k for k in range(1, board.RING_SIZE + 1) if board.RING[(pos + k) % board.RING_SIZE][0] == "POLICE")
    push(state, {"do": "move", "seat": seat, "steps": steps}, {"do": "resolve", "seat": seat})


def _b14(state, events, seat, card):
    """Vendetta: the colour die (rules §11.4)."""
    to_bottom(state, card)
    drawn = chance.pick(state["secret"]["chance"], "colour", list(board.COLOUR_DIE))
    state["secret"]["chance"], colour = drawn.chance, drawn.value
    events.append(drawn.event)
    state["colour_roll"] = colour
    happen(state, events, "colour_rolled", seat=seat, colour=colour)
    owner = board.COLOURS.index(colour) if colour in board.COLOURS else None
    if colour == "BLACK":
        return
    if colour == "WHITE":
        push(state, {"do": "choose", "seat": seat, "card": card, "targets": opponents(state, seat)})
    elif owner is not None and owner in opponents(state, seat):
        push(state, pay(seat, owner, 1000, "B14"))
    else:
        push(state, pay(seat, None, 1000, "B14"))


def _b15(state, events, seat, card):
    to_bottom(state, card)
    counts = {other: tile_count(state, other) for other in in_game(state)}
    best = max(counts.values())
    leaders = [other for other, count in counts.items() if count == best]
    push(state, pay(seat, leaders[0] if leaders != [seat] and len(leaders) == 1 else None, 1000, "B15"))


BLACK_EFFECTS = {
    "B01": _simple(lambda state, seat: (1000, 2000, 3000)[rank_index(state, seat)]),
    "B02": _choice(picciotto_positions, 1000),
    "B03": _choice(_police_of, 1000),
    "B04": _b04,
    "B05": _simple(lambda state, seat: 2000),
    "B06": _simple(lambda state, seat: 200 * tile_count(state, seat)),
    "B07": _choice(_turf_war_tiles),
    "B08": _simple(lambda state, seat: 500 * (family(state, seat)["gate_picciotti"]
                                              + list(state["picciotti"].values()).count(seat))),
    "B09": _b09,
    "B10": _face_up,
    "B11": _face_up,
    "B12": _choice(_arson_targets, 1000),
    "B13": _b13,
    "B14": _b14,
    "B15": _b15,
    "B16": _choice(owned_businesses, 500),
}


def chosen(state: State, events: list[Event], seat: int, card: str, target) -> None:
    """A black card's choice made (the drawer's, or the clock's first target)."""
    code = deck_code(card)
    if code == "B16":
        state["businesses"][str(target)]["closed"] = seat
        fam = family(state, seat)
        fam["face_up"] = fam["face_up"] + [card]
        happen(state, events, "closed", seat=seat, square=target)
        return
    to_bottom(state, card)
    if code == "B02":
        if target == "gate":
            family(state, seat)["gate_picciotti"] -= 1
        else:
            del state["picciotti"][target]
        state["supply"] += 1
        happen(state, events, "picciotto_lost", seat=seat, at=target)
    elif code == "B03":
        state["secret"]["red"] += set_owner(state, target, None)
        happen(state, events, "business_lost", seat=seat, square=target)
    elif code == "B07":
        from engines.cosanostra.city import lose_cell
        lose_cell(state, target)
        happen(state, events, "tile_lost", seat=seat, cell=target)
    elif code == "B12":
        state["secret"]["red"] += set_owner(state, target, None)
        happen(state, events, "business_lost", seat=seat, square=target)
    elif code == "B14":
        push(state, pay(seat, target, 1000, "B14"))


# --- red cards: what each one may be played on now (rules §11.3) -------------------------------

def _takeover(kind: str, price: int):
    """R02/R03: a neutral business free, an opponent's for ``price`` to the bank, never one with a
    card lying at it."""
    def options(state, seat):
        cash, markers = family(state, seat)["cash"], family(state, seat)["markers"]
        if not markers:
            return []
        return [{"square": s} for s in board.BUYABLE if board.RING[s][0] == kind
                and not state["businesses"][str(s)]["card"] and state["businesses"][str(s)]["owner"] != seat
                and (state["businesses"][str(s)]["owner"] is None or cash >= price)]
    return options


def _police_dossier(state, seat):
    if not family(state, seat)["markers"]:
        return []
    return [{"square": s} for s in board.BUSINESSES if board.RING[s][0] == "POLICE"
            and state["businesses"][str(s)]["owner"] is None]


def _betrayal(state, seat):
    if not family(state, seat)["pieces"]:
        return []
    return [{"cell": cell} for cell in sorted(state["picciotti"])
            if state["cells"].get(cell) not in (None, seat) and state["picciotti"][cell] == state["cells"][cell]
            and adjacent_to_territory(state, seat, cell)]


def _councillor(state, seat):
    cells = []
    for cell in board.CELLS:
        try:
            check_buyable_cell(state, seat, cell)
        except IllegalAction:
            continue
        cells.append({"cell": cell})
    return cells


def _night_run(state, seat):
    if state["night_run"]:
        return []
    return [{"from": at} for at in picciotto_positions(state, seat) if may_step_from(state, seat, at)
            and any(step_kind(state, seat, to) not in ("occupied", "protected")
                    for to in step_targets(state, seat, at))]


def _friend(state, seat):
    return [{"square": s} for s in board.BUSINESSES
            if state["businesses"][str(s)]["owner"] not in (None, seat) and not state["businesses"][str(s)]["friends"]]


PLAY_OPTIONS = {
    "R01": _police_dossier,
    "R02": _takeover("BANK", board.PRICES["bank_takeover_with_card"]),
    "R03": _takeover("ARMS", board.PRICES["arms_takeover_with_card"]),
    "R04": _betrayal,
    "R05": lambda state, seat: [{}],
    "R06": lambda state, seat: [{}] if opponents(state, seat) else [],
    "R07": lambda state, seat: [{}],
    "R08": lambda state, seat: [{}] if state["supply"] else [],
    "R09": _councillor,
    "R10": lambda state, seat: [{"steps": steps} for steps in range(1, 7)],
    "R11": _night_run,
    "R15": lambda state, seat: [{"cell": cell} for cell in sorted(state["picciotti"])],
    "R16": _friend,
}


def play_options(state: State, seat: int, card: str) -> list[dict]:
    """The parameters ``card`` may be played with now ([] when it cannot be played)."""
    code = deck_code(card)
    if code not in PLAY_OPTIONS or (code in FED_BLOCKED and fed_banned(state, seat)):
        return []
    return PLAY_OPTIONS[code](state, seat)


def play(state: State, events: list[Event], seat: int, card: str, params: dict) -> None:
    """Play ``card`` with ``params`` (checked by the caller against ``play_options``)."""
    code = deck_code(card)
    from_hand(state, seat, card)
    state["last_card"] = {"code": code, "seat": seat}
    happen(state, events, "card_played", seat=seat, card=code, **params)
    lies = False
    if code == "R01" or code in ("R02", "R03"):
        square = params["square"]
        owner = state["businesses"][str(square)]["owner"]
        if owner is not None:
            push(state, pay(seat, None, board.PRICES["bank_takeover_with_card" if code == "R02"
                                                      else "arms_takeover_with_card"], code))
        state["secret"]["red"] += set_owner(state, square, seat, card)
        lies = True
    elif code == "R04":
        cell = params["cell"]
        del state["picciotti"][cell]
        state["supply"] += 1
        gain_cell(state, cell, seat)
    elif code == "R05":
        push(state, {"do": "bank_pays", "to": seat, "amount": 3000, "why": code})
    elif code == "R06":
        push(state, *[pay(other, seat, 500, code) for other in opponents(state, seat)])
    elif code == "R07":
        push(state, {"do": "bank_pays", "to": seat, "why": code,
                     "amount": min(5000, 1000 * len(owned_businesses(state, seat)))})
    elif code == "R08":
        state["supply"] -= 1
        family(state, seat)["gate_picciotti"] += 1
    elif code == "R09":
        gain_cell(state, params["cell"], seat)
    elif code == "R10":
        push(state, {"do": "move", "seat": seat, "steps": params["steps"]}, {"do": "resolve", "seat": seat})
    elif code == "R11":
        state["night_run"] = {"at": params["from"], "left": 3}
    elif code == "R15":
        del state["picciotti"][params["cell"]]
        state["supply"] += 1
    elif code == "R16":
        state["businesses"][str(params["square"])]["friends"] = [seat]
        lies = True
    if not lies:
        to_bottom(state, card)
