"""The turn (docs/rules/cosanostra.md §12) as a queue of tasks, the phases that wait for a
player, and their clocks (§19.1).

``state["tasks"]`` is what is still to happen in this turn, in order: a payment, the bank paying,
a draw, resolving a square, a move, an offer or a choice to ask for, a phase to wait in, the end
of the turn.  ``run`` takes tasks until one waits for a player (or the game ends); a payment the
debtor cannot make waits in "liquidation" (money.py) and the queue goes on where it stopped
once he has paid.  So a payment can interrupt any step, even of another family's turn.
"""

from __future__ import annotations

from engines.base import Event, State, next_turn, start_clock, stop_clock
from engines.cosanostra import board
from engines.cosanostra.cards import draw_task, to_bottom
from engines.cosanostra.ending import check_end, finish_by_power
from engines.cosanostra.money import bank_pays, pay_task
from engines.cosanostra.squares import resolve_task
from engines.cosanostra.state import (
    ACTION, BEFORE_ROLL, CHOOSE, CHOOSE_MOVE, CHOOSE_SECONDS, GATE_SECONDS, GATES, LIQUIDATION,
    LIQUIDATION_SECONDS, OFFER, TRADE_SECONDS, BEFORE_ROLL_SECONDS, deck_code, family, happen, in_game,
    option, push,
)

TIMEOUT = {"type": "timeout"}


def clock_seconds(state: State, phase: str) -> int | None:
    """Rules §19.1: how long each waiting phase may take (None: no clock)."""
    if phase == ACTION:
        limit = option(state, "turn_seconds")
        return None if limit == "off" else int(limit)
    return {GATES: GATE_SECONDS, BEFORE_ROLL: BEFORE_ROLL_SECONDS, CHOOSE_MOVE: CHOOSE_SECONDS,
            OFFER: CHOOSE_SECONDS, CHOOSE: CHOOSE_SECONDS, LIQUIDATION: LIQUIDATION_SECONDS}[phase]


def restart_clock(state: State) -> None:
    """The current step's clock, in full (a new step, or after a deal closed: §19.1)."""
    seconds = TRADE_SECONDS if state["trade"] else clock_seconds(state, state["phase"])
    if seconds is None:
        stop_clock(state)
    else:
        start_clock(state, seconds, TIMEOUT)


def enter(state: State, phase: str) -> None:
    """A phase that waits for a player begins."""
    next_turn(state, phase)
    restart_clock(state)


# --- the queue ---------------------------------------------------------------------------------

def run(state: State, events: list[Event]) -> None:
    """Take tasks until one waits for a player or the game is over (rules §15: tested after
    every change)."""
    while state["tasks"] and not state["result"]:
        task, state["tasks"] = state["tasks"][0], state["tasks"][1:]
        go_on = TASKS[task["do"]](state, events, task)
        if check_end(state, events) or not go_on:
            return


def _bank_pays(state: State, events: list[Event], task: dict) -> bool:
    if not family(state, task["to"])["out"] and task["amount"] > 0:
        bank_pays(state, events, task["to"], task["amount"], task["why"])
    return True


def _phase(state: State, events: list[Event], task: dict) -> bool:
    """Wait in a phase; back in the action phase after a card's payments went through without
    stopping, its clock runs on (a stop for selling up gives it back in full)."""
    if task.get("resume") and state["phase"] == task["phase"]:
        next_turn(state)
    else:
        enter(state, task["phase"])
    return False


def _offer(state: State, events: list[Event], task: dict) -> bool:
    """A square's optional offer (Špicl, sports club, Yakuza: rules §6)."""
    state["offer"] = {"kind": task["kind"], "seat": task["seat"], "price": task["price"]}
    enter(state, OFFER)
    return False


def _choose(state: State, events: list[Event], task: dict) -> bool:
    """A black card asks its drawer to pick (rules §11.3)."""
    state["choose"] = {"card": task["card"], "seat": task["seat"], "targets": task["targets"]}
    enter(state, CHOOSE)
    return False


def _move(state: State, events: list[Event], task: dict) -> bool:
    """MOVE (rules §12): clockwise; passing or reaching START pays the bonus and discards the
    family's B10 and B16 (a B16's business opens again)."""
    seat, steps = task["seat"], task["steps"]
    fam = family(state, seat)
    start = fam["pos"]
    fam["pos"] = (start + steps) % board.RING_SIZE
    happen(state, events, "move", seat=seat, steps=steps, **{"from": start, "to": fam["pos"]})
    if start + steps >= board.RING_SIZE:
        for card in [c for c in fam["face_up"] if deck_code(c) in ("B10", "B16")]:
            fam["face_up"] = [c for c in fam["face_up"] if c != card]
            to_bottom(state, card)
        for business in state["businesses"].values():
            if business["closed"] == seat:
                business["closed"] = None
        push(state, {"do": "bank_pays", "to": seat, "amount": board.START_BONUS, "why": "START"})
    return True


def start_turn(state: State, events: list[Event], seat: int) -> None:
    """TURN_START (rules §12): the loan shark's 500 (B11, three turns), then the window before
    the roll."""
    state["active"], state["stepped"], state["night_run"] = seat, [], None
    state["roll"], state["trades_made"] = None, [0] * state["players"]
    fam = family(state, seat)
    tasks = []
    if fam["loan_shark"]:
        tasks.append({"do": "pay", "from": seat, "to": None, "amount": 500, "why": "B11"})
        fam["loan_shark"] -= 1
        if not fam["loan_shark"]:
            fam["loan_shark"] = None
            card = next(c for c in fam["face_up"] if deck_code(c) == "B11")
            fam["face_up"] = [c for c in fam["face_up"] if c != card]
            to_bottom(state, card)
    happen(state, events, "turn", seat=seat, round=state["round"])
    state["tasks"] = tasks + [{"do": "phase", "phase": BEFORE_ROLL}]
    run(state, events)


def _end_turn(state: State, events: list[Event], task: dict) -> bool:
    """END_TURN (rules §12): the ban's count (not in the turn it began), the next family in
    turn order; after the last family of the last round, the round limit (rules §15.4)."""
    seat = state["active"]
    fam = family(state, seat)
    if fam["fed"] is not None:
        if fam["fed_now"]:
            fam["fed_now"] = False
        else:
            fam["fed"] -= 1
            if not fam["fed"]:
                fam["fed"] = None
    seats = in_game(state)
    order = state["order"]
    later = [s for s in order[order.index(seat) + 1:] if s in seats]
    following = later[0] if later else seats[0]
    if not later:
        if state["round"] >= round_limit(state):
            finish_by_power(state, events, "rounds")
            return False
        state["round"] += 1
    start_turn(state, events, following)
    return False


# Ours: with no round limit chosen, a game still ends after this many rounds (twice the usual
# length of rules §17), as with the limit (§15.4): a city locked up, or families without
# pieces left, cannot hold the evening forever.
BACKSTOP_ROUNDS = 100


def round_limit(state: State) -> int:
    limit = option(state, "max_rounds")
    return BACKSTOP_ROUNDS if limit == "off" else int(limit)


TASKS = {
    "pay": pay_task, "bank_pays": _bank_pays, "draw": draw_task, "resolve": resolve_task,
    "move": _move, "phase": _phase, "offer": _offer, "choose": _choose, "end_turn": _end_turn,
}


def end_turn(state: State, events: list[Event]) -> None:
    state["tasks"] = [{"do": "end_turn"}]
    run(state, events)
