"""Heads or Tails: the smallest ruleset we can think of, written to the contract
(engines/base.py) as docs/adding-a-ruleset.md walks through it.

The rules: the game master tosses a coin and keeps it covered.  Every player calls heads or
tails, secretly.  When everyone has called (or the host reveals, or the clock runs out) the coin
is shown: whoever called it right wins; if nobody did, the coin wins.
"""

from __future__ import annotations

from engines import chance
from engines.base import (
    GAME_MASTER, HOST, NOBODY, PUBLIC, Action, Engine, Event, IllegalAction, MalformedAction, Option, Outcome,
    Result, State, checked_options, handler_for, next_turn, say, start_clock, stop_clock, working_copy,
)

CALLING, SHOWN = "calling", "shown"
SIDES = ("heads", "tails")
REVEAL = {"type": "reveal"}

# Seconds to call before the clock shows the coin; "off": no clock (the coin is shown once
# everyone has called, or by the host).  An option's words are its presenter's, not the engine's.
OPTIONS = [Option("seconds", "60", kind="choice", choices=("30", "60", "off"))]


def setup(players: int, options: dict, seed: int, deal: dict | None = None) -> Result:
    """Toss the coin, covered; ``deal={"coin": True}`` forces heads (tests)."""
    if type(players) is not int or not 2 <= players <= 6:
        raise ValueError("Heads or Tails needs 2 to 6 players")
    options = checked_options(OPTIONS, options, "Heads or Tails")
    forced = {"coin": [deal["coin"]]} if deal and "coin" in deal else None
    toss = chance.coin(chance.new(seed, forced), "coin", audience=NOBODY)
    state = {"players": players, "options": options, "phase": CALLING, "turn": 0, "narration": [],
             "clock": None, "called": [False] * players, "outcome": None,
             "secret": {"chance": toss.chance, "heads": toss.value, "calls": [None] * players}}
    say(state, "toss")
    if options["seconds"] != "off":
        start_clock(state, int(options["seconds"]), REVEAL)
    return Result(state, [toss.event])


def _parse_call(action: Action) -> None:
    if action.get("side") not in SIDES:
        raise MalformedAction("bad_side", "Call heads or tails")


def call(state: State, seat, action: Action) -> Result:
    if seat not in waiting_for(state):
        raise IllegalAction("not_your_turn", "You have called already")
    new = working_copy(state)
    new["secret"]["calls"][seat] = action["side"]
    new["called"][seat] = True
    events = [Event("called", {"seat": seat}), Event("call", {"side": action["side"]}, [seat])]
    if all(new["called"]):
        events += _show(new)
    return Result(new, events)


def reveal(state: State, seat, action: Action) -> Result:
    """The clock runs out, or the host shows the coin before everyone has called."""
    if state["phase"] != CALLING:
        raise IllegalAction("wrong_phase", "The coin is shown already")
    new = working_copy(state)
    return Result(new, _show(new))


def _show(state: State) -> list[Event]:
    heads, calls = state["secret"]["heads"], state["secret"]["calls"]
    right = [seat for seat, side in enumerate(calls) if side == ("heads" if heads else "tails")]
    state["outcome"] = (Outcome("players", "called_it", tuple(right)) if right
                        else Outcome("coin", "nobody_called_it", ())).to_json()
    state["phase"] = SHOWN
    next_turn(state)
    stop_clock(state)
    say(state, "shown", heads=heads)
    return [Event("shown", {"heads": heads, "calls": list(calls)}, PUBLIC)]


_ACTIONS = {"call": (_parse_call, call), "reveal": (lambda action: None, reveal)}


def apply(state: State, seat, action: Action) -> Result:
    """A player calls; the clock (its move) or the host (its button) shows the coin."""
    handler = handler_for(_ACTIONS, state, seat, action, over=state["phase"] == SHOWN)
    if type(seat) is int and action["type"] != "call":
        raise IllegalAction("not_your_turn", "The host shows the coin")
    if type(seat) is not int and action not in legal_actions(state, seat):
        raise IllegalAction("not_your_turn", "Nothing to do for you now")
    return handler(state, seat, action)


def legal_actions(state: State, seat) -> list[Action]:
    if state["phase"] == SHOWN:
        return []
    if seat is GAME_MASTER:
        return [dict(state["clock"]["move"])] if state["clock"] else []
    if seat == HOST:
        return host_moves(state)
    return [{"type": "call", "side": side} for side in SIDES] if seat in waiting_for(state) else []


def waiting_for(state: State) -> list[int]:
    return [] if state["phase"] == SHOWN else [seat for seat, done in enumerate(state["called"]) if not done]


def host_moves(state: State) -> list[Action]:
    """The host may show the coin once someone has called (the table is tired of waiting)."""
    return [dict(REVEAL)] if state["phase"] == CALLING and any(state["called"]) else []


def view(state: State, seat: int | None) -> dict:
    shown = state["phase"] == SHOWN
    return {"turn": state["turn"], "phase": state["phase"], "narration": [dict(item) for item in state["narration"]],
            "called": list(state["called"]), "heads": state["secret"]["heads"] if shown else None,
            "outcome": state["outcome"],
            "me": None if seat is None else {"seat": seat, "call": state["secret"]["calls"][seat]}}


def bot(state: State, seat: int) -> Action | None:
    """A bot calls heads, once, when it is asked to call (engines/base.py, "Bots")."""
    return {"type": "call", "side": "heads"} if seat in waiting_for(state) else None


def outcome(state: State) -> Outcome | None:
    return Outcome.from_json(state["outcome"])


def roles(state: State) -> list[str]:
    """Nobody has a role: everyone is a player."""
    return ["player"] * state["players"]


RULESET = Engine(
    slug="tiny", title="Heads or Tails", min_players=2, max_players=6, options=lambda: list(OPTIONS),
    setup=setup, legal_actions=legal_actions, apply=apply, view=view, outcome=outcome, waiting_for=waiting_for,
    host_moves=host_moves, proxy_moves=lambda state: {}, removable=lambda state: [], roles=roles,
    moments=frozenset({"shown"}),   # the coin shown: the table watches it (engines/moments.py)
    bot=bot)
