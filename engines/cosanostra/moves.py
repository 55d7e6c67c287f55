"""What the families, the clock and the host may send (docs/rules/cosanostra.md §12, §13, §19):
each move checked, then taken into a working copy of the state; and the legal moves of each.

Refusal codes are the rules' §12 list in lower case plus the interface's own.
"""

from __future__ import annotations

from engines import chance
from engines.base import (
    HOST, IllegalAction, MalformedAction, State, next_turn, parse_proxy, parse_removal, proxied,
)
from engines.cosanostra import board
from engines.cosanostra.cards import FED_BLOCKED, REACTIONS, chosen, play, play_options, timing
from engines.cosanostra.city import (
    check_buyable_cell, check_cell, check_square, gain_cell, may_step_from, picciotto_positions, step_kind,
    step_targets, territory_cells,
)
from engines.cosanostra.money import auto_liquidate, bankrupt, pay_now, sell_to_city, settle
from engines.cosanostra.squares import accept_offer
from engines.cosanostra.state import (
    ACTION, BEFORE_ROLL, CHOOSE, CHOOSE_MOVE, GATES, LIQUIDATION, OFFER, OVER, allowed_range, deck_code,
    family, fed_banned, happen, in_game, owned_businesses, tiles_of,
)
from engines.cosanostra.trades import (
    MAX_OFFERS_PER_TURN, check_offer, close, execute, goods, open_offer,
)
from engines.cosanostra.turns import end_turn, enter, run, start_turn

TRADE_ACTIONS = ("accept_trade", "decline_trade", "counter_trade", "withdraw_trade")
PRIVATE_ACTIONS = ("arm",)      # nobody else may notice them: no new turn, no narration


def awaited(state: State) -> list[int]:
    """Whose input the game awaits: the open deal's recipient, else the phase's family."""
    if state["phase"] == OVER:
        return []
    if state["trade"]:
        return [state["trade"]["to"]]
    phase = state["phase"]
    if phase == OFFER:
        return [state["offer"]["seat"]]
    if phase == CHOOSE:
        return [state["choose"]["seat"]]
    if phase == LIQUIDATION:
        return [state["liquidation"]["seat"]]
    return [state["active"]]


def _require(state: State, seat, *phases: str) -> None:
    if state["trade"]:
        raise IllegalAction("not_allowed_now", "A deal is open")
    if seat not in awaited(state):
        raise IllegalAction("not_your_turn", "Not your turn")
    if state["phase"] not in phases:
        raise IllegalAction("not_allowed_now", "Not now")


def _no_ban(state: State, seat: int) -> None:
    if fed_banned(state, seat):
        raise IllegalAction("fed_ban", "Under the federal ban")


def _cash(state: State, seat: int, amount: int) -> None:
    if family(state, seat)["cash"] < amount:
        raise IllegalAction("no_cash", "Not enough cash")


# --- setup (rules §4.3) --------------------------------------------------------------------------

def _placed(state: State, seat: int) -> int:
    return len(tiles_of(state, seat))


def start_cells(state: State, seat: int) -> list[str]:
    """Empty cells orthogonally adjacent to a tile the family placed (rules §4.3)."""
    near = {n for cell in tiles_of(state, seat) for n in board.neighbours(cell)}
    return [cell for cell in board.CELLS if cell in near and cell not in state["cells"]]


def free_gates(state: State) -> list[str]:
    taken = {fam["gate"] for fam in state["families"]}
    return [gate for gate in board.SIDES if gate not in taken]


def choose_gate(state, seat, action, events):
    _require(state, seat, GATES)
    if family(state, seat)["gate"]:
        raise IllegalAction("not_allowed_now", "Your gate is chosen")
    if action["gate"] not in free_gates(state):
        raise IllegalAction("occupied", "That gate is taken")
    family(state, seat)["gate"] = action["gate"]
    gain_cell(state, board.GATES[action["gate"]], seat)
    happen(state, events, "gate", seat=seat, gate=action["gate"])
    next_turn(state)


def place_start(state, seat, action, events):
    _require(state, seat, GATES)
    cell = check_cell(action["cell"])
    if not family(state, seat)["gate"]:
        raise IllegalAction("not_allowed_now", "Choose your gate first")
    if cell in state["cells"]:
        raise IllegalAction("occupied", "The cell is taken")
    if cell not in start_cells(state, seat):
        raise IllegalAction("not_adjacent", "Start tiles must connect")
    gain_cell(state, cell, seat)
    happen(state, events, "start_tile", seat=seat, cell=cell)
    if _placed(state, seat) < 3:
        next_turn(state)
        return
    queue = state["gate_queue"][1:]
    state["gate_queue"] = queue
    if queue:
        # Each family chooses with a clock of its own, in full (rules §19.1): a new clock, so a
        # slow family before it takes none of its time and its timeout places it alone.
        state["active"] = queue[0]
        enter(state, GATES)
    else:
        start_turn(state, events, state["order"][0])


def _gates_timeout(state, events):
    """Rules §19.1: the family whose turn it is to choose takes the first free gate and the first
    cells that connect; the next family then chooses with its own clock (``place_start``)."""
    seat = state["active"]
    if not family(state, seat)["gate"]:
        choose_gate(state, seat, {"gate": free_gates(state)[0]}, events)
    while state["phase"] == GATES and state["active"] == seat:
        place_start(state, seat, {"cell": start_cells(state, seat)[0]}, events)


# --- the turn (rules §12) ------------------------------------------------------------------------

def roll(state, seat, action, events):
    _require(state, seat, BEFORE_ROLL)
    drawn = chance.roll(state["secret"]["chance"], "die")
    state["secret"]["chance"] = drawn.chance
    events.append(drawn.event)
    die = drawn.value[0]
    state["roll"] = {"die": die, "allowed": allowed_range(state, seat, die), "by": seat}
    happen(state, events, "rolled", seat=seat, die=die, allowed=state["roll"]["allowed"])
    enter(state, CHOOSE_MOVE)


def move(state, seat, action, events):
    _require(state, seat, CHOOSE_MOVE)
    low, high = state["roll"]["allowed"]
    if type(action["steps"]) is not int or not low <= action["steps"] <= high:
        raise IllegalAction("out_of_range", "Not within the allowed range")
    state["tasks"] = [{"do": "move", "seat": seat, "steps": action["steps"]}, {"do": "resolve", "seat": seat},
                      {"do": "phase", "phase": ACTION}]
    run(state, events)


def accept(state, seat, action, events):
    _require(state, seat, OFFER)
    cell = action.get("cell")
    if state["offer"]["kind"] == "YAKUZA" and (not isinstance(cell, str) or cell not in state["picciotti"]):
        raise IllegalAction("bad_cell", "Name a picciotto on the map")
    _cash(state, seat, state["offer"]["price"])
    accept_offer(state, events, seat, cell)
    run(state, events)


def decline(state, seat, action, events):
    _require(state, seat, OFFER)
    state["offer"] = None
    run(state, events)


def choose(state, seat, action, events):
    _require(state, seat, CHOOSE)
    pick = state["choose"]
    if action["target"] not in pick["targets"] or type(action["target"]) is bool:
        raise IllegalAction("not_allowed_now", "Not one of the choices")
    state["choose"] = None
    chosen(state, events, seat, pick["card"], action["target"])
    run(state, events)


def buy_tile(state, seat, action, events):
    _require(state, seat, ACTION)
    _no_ban(state, seat)
    cell = check_buyable_cell(state, seat, action["cell"])
    _cash(state, seat, board.PRICES["tile"])
    pay_now(state, events, seat, None, board.PRICES["tile"], "tile")
    gain_cell(state, cell, seat)
    happen(state, events, "buy_tile", seat=seat, cell=cell)
    next_turn(state)


def buy_business(state, seat, action, events):
    _require(state, seat, ACTION)
    square = check_square(action["square"])
    _no_ban(state, seat)
    if square not in board.BUYABLE:
        raise IllegalAction("bad_square", "Police stations are not for sale")
    if state["businesses"][str(square)]["owner"] is not None:
        raise IllegalAction("occupied", "It has an owner")
    if not family(state, seat)["markers"]:
        raise IllegalAction("no_marker", "No marker left")
    price = board.PRICES[board.RING[square][0]]
    _cash(state, seat, price)
    pay_now(state, events, seat, None, price, "business")
    from engines.cosanostra.city import set_owner
    state["secret"]["red"] += set_owner(state, square, seat)
    happen(state, events, "buy_business", seat=seat, square=square)
    next_turn(state)


def hire(state, seat, action, events):
    _require(state, seat, ACTION)
    _no_ban(state, seat)
    if not state["supply"]:
        raise IllegalAction("no_token", "No picciotto left")
    _cash(state, seat, board.PRICES["picciotto"])
    pay_now(state, events, seat, None, board.PRICES["picciotto"], "hire")
    state["supply"] -= 1
    family(state, seat)["gate_picciotti"] += 1
    happen(state, events, "hire", seat=seat)
    next_turn(state)


def step(state, seat, action, events):
    """Rules §7.3: one step per picciotto and turn (three for R11's night run)."""
    _require(state, seat, ACTION)
    _no_ban(state, seat)
    at, to = action["from"], action["to"]
    if at != "gate":
        check_cell(at)
    if to != "gate":
        check_cell(to)
    if at not in picciotto_positions(state, seat):
        raise IllegalAction("not_yours", "No picciotto of yours there")
    if not may_step_from(state, seat, at):
        raise IllegalAction("already_stepped", "That picciotto has stepped this turn")
    if to not in step_targets(state, seat, at):
        raise IllegalAction("not_adjacent", "Not a step")
    kind = step_kind(state, seat, to)
    if kind in ("occupied", "protected"):
        raise IllegalAction(kind, "A picciotto stands there")
    if kind in ("capture", "attack") and not family(state, seat)["pieces"]:
        raise IllegalAction("no_piece", "No piece left")
    if kind == "attack":
        _cash(state, seat, board.PRICES["attack_tax"])
    fam = family(state, seat)
    if at == "gate":
        fam["gate_picciotti"] -= 1
    else:
        del state["picciotti"][at]
    landed = to
    if kind == "home":
        fam["gate_picciotti"] += 1
    elif kind == "move":
        state["picciotti"][to] = seat
    else:
        landed, victim = None, state["cells"].get(to)
        state["supply"] += 1
        if kind == "attack":
            pay_now(state, events, seat, None, board.PRICES["attack_tax"], "attack")
        gain_cell(state, to, seat)
        happen(state, events, kind, seat=seat, cell=to, victim=victim)
    if kind in ("home", "move"):
        happen(state, events, "step", seat=seat, to=to, **{"from": at})
    run_ = state["night_run"]
    if run_ and run_["at"] == at:
        left = run_["left"] - 1
        state["night_run"] = {"at": landed, "left": left} if landed and left else None
        if landed and not left:
            state["stepped"] = state["stepped"] + [landed]
    elif landed:
        state["stepped"] = state["stepped"] + [landed]
    next_turn(state)


def play_card(state, seat, action, events):
    phase = BEFORE_ROLL if state["phase"] == BEFORE_ROLL else ACTION
    _require(state, seat, phase)
    card = action["card"]
    if card not in state["secret"]["hands"][seat]:
        raise IllegalAction("no_card", "Not in your hand")
    wanted = "BEFORE_ROLL" if phase == BEFORE_ROLL else ("ACTION", "LONG_TERM")
    if timing(card) not in wanted:
        raise IllegalAction("not_allowed_now", "Not now")
    params = {key: value for key, value in action.items() if key not in ("type", "card")}
    if deck_code(card) in FED_BLOCKED and fed_banned(state, seat):
        raise IllegalAction("fed_ban", "Under the federal ban")
    if deck_code(card) in ("R02", "R03") and state["businesses"].get(str(params.get("square")), {}).get("card"):
        raise IllegalAction("protected_by_card", "A bribed director's card lies there")
    if params not in play_options(state, seat, card):
        raise IllegalAction("not_allowed_now", "The card cannot be played so")
    play(state, events, seat, card, params)
    if phase == BEFORE_ROLL:
        state["tasks"] = state["tasks"] + [{"do": "phase", "phase": ACTION}]
        run(state, events)
    elif state["tasks"]:
        state["tasks"] = state["tasks"] + [{"do": "phase", "phase": ACTION, "resume": True}]
        run(state, events)
    else:
        next_turn(state)


def end_turn_(state, seat, action, events):
    _require(state, seat, ACTION)
    end_turn(state, events)


# --- selling up (rules §9.3) ---------------------------------------------------------------------

def sell(state, seat, action, events):
    _require(state, seat, LIQUIDATION)
    cell = check_cell(action["cell"])
    if state["cells"].get(cell) != seat:
        raise IllegalAction("not_yours", "Not your tile")
    sell_to_city(state, events, cell)
    next_turn(state)


def pay(state, seat, action, events):
    _require(state, seat, LIQUIDATION)
    _cash(state, seat, state["liquidation"]["owed"])
    settle(state, events)
    run(state, events)


def no_way_out(state: State) -> bool:
    """Rules §9.6: a debtor with no tile for the city and no deal left to offer has found no
    buyer: he goes bankrupt (so a family is never awaited with nothing to do)."""
    debt = state["liquidation"]
    if state["phase"] != LIQUIDATION or not debt or state["trade"] or state["result"]:
        return False
    seat = debt["seat"]
    return family(state, seat)["cash"] < debt["owed"] and not tiles_of(state, seat) \
        and not _offers(state, seat, selling=True)


def bankrupt_without_buyer(state: State, events: list) -> None:
    debt = state["liquidation"]
    bankrupt(state, events, debt["seat"], debt["to"])
    run(state, events)


# --- reactions (rules §11.2) ---------------------------------------------------------------------

def arm(state, seat, action, events):
    if seat not in in_game(state):
        raise IllegalAction("not_your_turn", "Out of the game")
    card = action["card"]
    if card not in state["secret"]["hands"][seat]:
        raise IllegalAction("no_card", "Not in your hand")
    if deck_code(card) not in REACTIONS:
        raise IllegalAction("not_allowed_now", "Only reaction cards are armed")
    armed = [c for c in state["secret"]["armed"][seat] if c != card]
    state["secret"]["armed"][seat] = sorted(armed + [card]) if action["on"] else armed


# --- deals (rules §13) -------------------------------------------------------------------------

def _proposer_may(state: State, seat: int) -> None:
    if state["trade"]:
        raise IllegalAction("not_allowed_now", "A deal is open")
    active = state["phase"] == ACTION and seat == state["active"]
    selling = state["phase"] == LIQUIDATION and seat == state["liquidation"]["seat"]
    if not (active or selling):
        raise IllegalAction("not_your_turn", "Deals are offered in your action phase or when selling up")
    if state["trades_made"][seat] >= MAX_OFFERS_PER_TURN:
        raise IllegalAction("not_allowed_now", "Enough offers this turn")


def offer_trade(state, seat, action, events):
    _proposer_may(state, seat)
    offer = {"from": seat, "to": action["to"], "give": goods(action["give"]), "take": goods(action["take"])}
    if offer["take"]["red_cards"]:
        raise IllegalAction("trade_invalid", "You cannot ask for a hidden card")
    check_offer(state, offer, accepting=False)
    open_offer(state, events, offer)
    next_turn(state)


def _open_for(state: State, seat, role: str) -> dict:
    if not state["trade"]:
        raise IllegalAction("no_trade", "No deal is open")
    if state["trade"][role] != seat:
        raise IllegalAction("not_your_turn", "Not your deal")
    return state["secret"]["trade"]


def accept_trade(state, seat, action, events):
    offer = _open_for(state, seat, "to")
    check_offer(state, offer, accepting=True)
    execute(state, events, offer)
    next_turn(state)


def decline_trade(state, seat, action, events):
    _open_for(state, seat, "to")
    close(state, events, "trade_declined")
    next_turn(state)


def withdraw_trade(state, seat, action, events):
    _open_for(state, seat, "from")
    close(state, events, "trade_withdrawn")
    next_turn(state)


def counter_trade(state, seat, action, events):
    """The recipient answers with an offer of his own, which replaces the first; he may ask for
    the red cards he was offered (he has seen them), no other."""
    first = _open_for(state, seat, "to")
    offer = {"from": seat, "to": first["from"], "give": goods(action["give"]), "take": goods(action["take"])}
    if not set(offer["take"]["red_cards"]) <= set(first["give"]["red_cards"]):
        raise IllegalAction("trade_invalid", "You cannot ask for a hidden card")
    check_offer(state, offer, accepting=False)
    state["trade"], state["secret"]["trade"] = None, None
    open_offer(state, events, offer, counter=True)
    next_turn(state)


# --- the clock and the host (rules §19.1, §19.7) ----------------------------------------------

def timeout(state, seat, action, events):
    """The clock's move (the engine's own check lets only the game master make it)."""
    if not state["clock"]:
        raise IllegalAction("not_allowed_now", "No clock runs")
    if state["trade"]:
        close(state, events, "trade_expired")
        next_turn(state)
        return
    phase, who = state["phase"], awaited(state)[0]
    if phase == GATES:
        _gates_timeout(state, events)
    elif phase == BEFORE_ROLL:
        roll(state, who, {}, events)
    elif phase == CHOOSE_MOVE:
        move(state, who, {"steps": state["roll"]["die"]}, events)
    elif phase == OFFER:
        decline(state, who, {}, events)
    elif phase == CHOOSE:
        choose(state, who, {"target": state["choose"]["targets"][0]}, events)
    elif phase == ACTION:
        end_turn(state, events)
    elif phase == LIQUIDATION:
        auto_liquidate(state, events)
        run(state, events)


def public_choice(state: State):
    """The choices a host may make for an absent family (rules §19.7): public anyway."""
    def public(move_: dict) -> bool:
        kind = move_.get("type")
        if kind == "move":
            return bool(state["roll"]) and move_.get("steps") == state["roll"]["die"]
        return kind in ("roll", "decline", "end_turn")
    return public


def proxy(state, seat, action, events):
    target, inner = proxied(state, seat, action, legal_actions, public_choice(state))
    HANDLERS[inner["type"]][1](state, target, inner, events)


def removable(state: State) -> list[int]:
    return [] if state["phase"] in (GATES, OVER) else in_game(state)


def remove(state, seat, action, events):
    if seat != HOST:
        raise IllegalAction("host_only", "Only the host does that")
    target = action["seat"]
    if target not in removable(state):
        raise IllegalAction("not_removable", "That family cannot be removed now")
    for key in ("offer", "choose"):
        if state[key] and state[key]["seat"] == target:
            state[key] = None
    bankrupt(state, events, target, None)
    if state["result"]:
        return
    cleared = state["phase"] in (OFFER, CHOOSE, LIQUIDATION) and not any(
        state[key] for key in ("offer", "choose", "liquidation"))
    if cleared or state["tasks"][:1] == [{"do": "end_turn"}]:
        run(state, events)
    next_turn(state)


# --- parsing -----------------------------------------------------------------------------------

def _fields(**kinds):
    def parse(action):
        for key, kind in kinds.items():
            value = action.get(key)
            ok = {"str": isinstance(value, str), "int": type(value) is int, "bool": type(value) is bool,
                  "any": key in action, "dict": isinstance(value, dict)}[kind]
            if not ok:
                raise MalformedAction("bad_action", f"{key} is missing or malformed")
    return parse


HANDLERS = {
    "choose_gate": (_fields(gate="str"), choose_gate),
    "place_start": (_fields(cell="str"), place_start),
    "roll": (_fields(), roll),
    "move": (_fields(steps="int"), move),
    "accept": (_fields(), accept),
    "decline": (_fields(), decline),
    "choose": (_fields(target="any"), choose),
    "buy_tile": (_fields(cell="str"), buy_tile),
    "buy_business": (_fields(square="int"), buy_business),
    "hire": (_fields(), hire),
    "step": (_fields(**{"from": "str", "to": "str"}), step),
    "play_card": (_fields(card="str"), play_card),
    "end_turn": (_fields(), end_turn_),
    "sell_to_city": (_fields(cell="str"), sell),
    "pay": (_fields(), pay),
    "arm": (_fields(card="str", on="bool"), arm),
    "offer_trade": (_fields(to="int", give="dict", take="dict"), offer_trade),
    "accept_trade": (_fields(), accept_trade),
    "decline_trade": (_fields(), decline_trade),
    "counter_trade": (_fields(give="dict", take="dict"), counter_trade),
    "withdraw_trade": (_fields(), withdraw_trade),
    "timeout": (_fields(), timeout),
    "proxy": (parse_proxy, proxy),
    "remove_player": (parse_removal, remove),
}


# --- the legal moves -------------------------------------------------------------------------

def _ok(state: State, seat: int, action: dict) -> bool:
    """Whether ``action`` would be taken (the handler's own checks, on a throwaway copy)."""
    from engines.base import working_copy
    try:
        HANDLERS[action["type"]][1](working_copy(state), seat, action, [])
    except IllegalAction:
        return False
    return True


def _arming(state: State, seat: int) -> list[dict]:
    armed = state["secret"]["armed"][seat]
    return [{"type": "arm", "card": card, "on": card not in armed}
            for card in state["secret"]["hands"][seat] if deck_code(card) in REACTIONS]


def _card_plays(state: State, seat: int, timings: tuple) -> list[dict]:
    return [{"type": "play_card", "card": card, **params}
            for card in state["secret"]["hands"][seat] if timing(card) in timings
            for params in play_options(state, seat, card)]


def _steps(state: State, seat: int) -> list[dict]:
    moves_ = []
    fam = family(state, seat)
    for at in picciotto_positions(state, seat):
        if not may_step_from(state, seat, at):
            continue
        for to in step_targets(state, seat, at):
            kind = step_kind(state, seat, to)
            if kind in ("occupied", "protected") or (kind in ("capture", "attack") and not fam["pieces"]) \
                    or (kind == "attack" and fam["cash"] < board.PRICES["attack_tax"]):
                continue
            moves_.append({"type": "step", "from": at, "to": to})
    return moves_


NO_GOODS = {"cash": 0, "tiles": [], "businesses": [], "red_cards": []}


def _offers(state: State, seat: int, selling: bool) -> list[dict]:
    """A few deals worth offering (the interface lets a phone compose any; these are the ones
    a list of buttons and the random players offer): sell a red card or a business for cash,
    buy a rival's tile beside the territory for a tile's price."""
    if state["trades_made"][seat] >= MAX_OFFERS_PER_TURN:
        return []
    offers = []
    fam = family(state, seat)
    for other in in_game(state):
        if other == seat:
            continue
        choices = []
        if not selling and not fed_banned(state, seat) and fam["pieces"] and fam["cash"] >= board.PRICES["tile"]:
            choices += [{"give": {**NO_GOODS, "cash": board.PRICES["tile"]}, "take": {**NO_GOODS, "tiles": [cell]}}
                        for cell in sorted(territory_cells(state, seat)) if state["cells"].get(cell) == other]
        if family(state, other)["markers"] and not fed_banned(state, other):
            choices += [{"give": {**NO_GOODS, "businesses": [square]},
                         "take": {**NO_GOODS, "cash": board.PRICES.get(board.RING[square][0], 4000)}}
                        for square in owned_businesses(state, seat)]
        choices += [{"give": {**NO_GOODS, "red_cards": [card]}, "take": {**NO_GOODS, "cash": 1000}}
                    for card in state["secret"]["hands"][seat]]
        offers += [{**choice, "to": other} for choice in choices[:1]]
    return [{"type": "offer_trade", **offer} for offer in offers]


def legal_actions(state: State, seat) -> list[dict]:
    if state["phase"] == OVER:
        return []
    if seat is None:
        return [{"type": "timeout"}] if state["clock"] else []
    if seat == HOST or seat not in in_game(state):
        return []
    acts = _arming(state, seat)
    trade = state["trade"]
    if trade:
        if seat == trade["to"]:
            acts += [a for a in ({"type": "accept_trade"},) if _ok(state, seat, a)] + [{"type": "decline_trade"}]
        if seat == trade["from"]:
            acts.append({"type": "withdraw_trade"})
        return acts
    if seat not in awaited(state):
        return acts
    phase = state["phase"]
    if phase == GATES:
        if not family(state, seat)["gate"]:
            return acts + [{"type": "choose_gate", "gate": gate} for gate in free_gates(state)]
        return acts + [{"type": "place_start", "cell": cell} for cell in start_cells(state, seat)]
    if phase == BEFORE_ROLL:
        return acts + [{"type": "roll"}] + _card_plays(state, seat, ("BEFORE_ROLL",))
    if phase == CHOOSE_MOVE:
        low, high = state["roll"]["allowed"]
        return acts + [{"type": "move", "steps": steps} for steps in range(low, high + 1)]
    if phase == OFFER:
        offer = state["offer"]
        yes = ([{"type": "accept", "cell": cell} for cell in sorted(state["picciotti"])]
               if offer["kind"] == "YAKUZA" else [{"type": "accept"}])
        return acts + (yes if family(state, seat)["cash"] >= offer["price"] else []) + [{"type": "decline"}]
    if phase == CHOOSE:
        return acts + [{"type": "choose", "target": target} for target in state["choose"]["targets"]]
    if phase == LIQUIDATION:
        pay_ = [{"type": "pay"}] if family(state, seat)["cash"] >= state["liquidation"]["owed"] else []
        return acts + pay_ + [{"type": "sell_to_city", "cell": cell} for cell in sorted(tiles_of(state, seat))] \
            + _offers(state, seat, selling=True)
    return acts + _action_phase(state, seat)


def _action_phase(state: State, seat: int) -> list[dict]:
    fam = family(state, seat)
    acts = []
    if not fed_banned(state, seat):
        if fam["cash"] >= board.PRICES["tile"] and fam["pieces"]:
            acts += [{"type": "buy_tile", "cell": cell} for cell in sorted(territory_cells(state, seat))
                     if cell not in state["cells"]]
        if fam["markers"]:
            acts += [{"type": "buy_business", "square": square} for square in board.BUYABLE
                     if state["businesses"][str(square)]["owner"] is None
                     and fam["cash"] >= board.PRICES[board.RING[square][0]]]
        if state["supply"] and fam["cash"] >= board.PRICES["picciotto"]:
            acts.append({"type": "hire"})
        acts += _steps(state, seat)
    acts += _card_plays(state, seat, ("ACTION", "LONG_TERM"))
    acts += _offers(state, seat, selling=False)
    return acts + [{"type": "end_turn"}]
