"""What the players, the game master's clock and the host may send in Mrakošlapi, each checked
and taken in: the night's choices (rules §4.2), the day's moves (§5.3–§5.9) and the day's timers
(§5.2), and the host for a player whose phone is gone (§11.3).

"rules §4.2" means ``docs/rules/mrakoslapi.md``; ``engines/mrakoslapi/engine.py`` says what the
state holds.  Names with a leading underscore are this package's own.
"""

from __future__ import annotations

from typing import Any

from engines.base import (
    PROXY, REMOVE_PLAYER, Action, Event, IllegalAction, MalformedAction, Result, State, host_for,
    parse_proxy, parse_removal,
)
from engines.mrakoslapi import cards as C
from engines.mrakoslapi import day as D
from engines.mrakoslapi.cycle import _day_step, _end_night
from engines.mrakoslapi.state import DAY, NIGHT, _is_int, _table, _visible


# --------------------------------------------------------------------------------------------
# Actions: the night's choices (rules §4.2), the day's moves and timers (§5.2–§5.9)
# --------------------------------------------------------------------------------------------

def _need(action: Action, key: str, check, what: str) -> None:
    if key not in action or not check(action[key]):
        raise MalformedAction("bad_field", f"{key}: expected {what}")


def _p_none(action: Action) -> None:
    pass


def _p_target(action: Action) -> None:
    _need(action, "target", _is_int, "a seat")


def _p_no_target(action: Action) -> None:
    _need(action, "no", _is_int, "a card number")
    _need(action, "target", _is_int, "a seat")


def _p_tunnel(action: Action) -> None:
    _need(action, "no", _is_int, "a card number")
    _need(action, "from", _is_int, "a seat")
    _need(action, "to", _is_int, "a seat")


def _p_pass(action: Action) -> None:
    _need(action, "card", lambda v: v in (C.MAG, C.SLINA, C.EXHIBICIONISTA, C.DUCH_BOBO), "a card")
    _need(action, "no", _is_int, "a card number")


def _p_medik(action: Action) -> None:
    _need(action, "use", lambda v: isinstance(v, bool), "true or false")


def _p_accuse(action: Action) -> None:
    _need(action, "target", _is_int, "a seat")
    _need(action, "claim", lambda v: isinstance(v, str), "a card type")
    if action.get("text") is not None and (not isinstance(action["text"], str)
                                           or len(action["text"]) > 200):
        raise MalformedAction("bad_field", "text: at most 200 characters")


def _p_defend(action: Action) -> None:
    _need(action, "how", lambda v: v in ("spoke", "waived"), "spoke or waived")


def _p_vote(action: Action) -> None:
    _need(action, "candidate", _is_int, "a seat")


def _p_seat(action: Action) -> None:
    _need(action, "seat", _is_int, "a seat")


def _p_candidate(action: Action) -> None:
    _need(action, "candidate", _is_int, "a seat")


def _prompt(state: State, seat: int, card: str, no: int) -> dict:
    night = state["secret"]["night"]
    for p in night["prompts"][seat]:
        if p["card"] == card and p["no"] == no:
            if p["disabled"]:
                raise IllegalAction("disabled", "The Atheist cannot use this card")
            return p
    raise IllegalAction("no_prompt", "Nothing to choose for that card tonight")


def _night_seat(state: State, seat: int) -> None:
    if state["phase"] != NIGHT:
        raise IllegalAction("wrong_phase", "Not at night")
    night = state["secret"]["night"]
    if seat not in night["awake"]:
        raise IllegalAction("asleep", "Nothing to do tonight")
    if seat in night["confirmed"]:
        raise IllegalAction("confirmed", "Already confirmed")


def _pick(state: State, seat: int, card: str, no: int, value: Any) -> Result:
    _night_seat(state, seat)
    p = _prompt(state, seat, card, no)
    visible = _visible(state)
    targets = value if isinstance(value, list) else [value] if _is_int(value) else []
    if any(t not in visible for t in targets):
        raise IllegalAction("bad_target", "Choose visible living players")
    if card == C.MAG and value is not None and value[0] == value[1]:
        raise IllegalAction("bad_target", "A tunnel joins two different players")
    picks = state["secret"]["night"]["picks"][seat]
    if value is None:
        picks.pop(p["id"], None)
    else:
        picks[p["id"]] = value
    audience = [seat]
    if card == C.MAFIAN and state["number"] == 1:
        audience = list(state["secret"]["mafia_met"])
    return Result(state, [Event("night_pick", {"night": state["number"], "seat": seat, "prompt": p["id"],
                                               "value": value}, audience)])


def a_mafia(state, seat, action):
    return _pick(state, seat, C.MAFIAN, 1, action["target"])


def a_gunman(state, seat, action):
    return _pick(state, seat, C.SILENY_STRELEC, action["no"], action["target"])


def a_tunnel(state, seat, action):
    return _pick(state, seat, C.MAG, action["no"], [action["from"], action["to"]])


def a_slime(state, seat, action):
    return _pick(state, seat, C.SLINA, action["no"], action["target"])


def a_exhibit(state, seat, action):
    return _pick(state, seat, C.EXHIBICIONISTA, action["no"], action["target"])


def a_medik(state, seat, action):
    return _pick(state, seat, C.MEDIK, 1, True if action["use"] else None)


def a_bobo(state, seat, action):
    return _pick(state, seat, C.DUCH_BOBO, 1, action["target"])


def a_pass(state, seat, action):
    return _pick(state, seat, action["card"], action["no"], None)


def a_done(state, seat, action):
    _night_seat(state, seat)
    state["secret"]["night"]["confirmed"] = sorted(state["secret"]["night"]["confirmed"] + [seat])
    return Result(state, [Event("night_done", {"seat": seat}, [seat])])


def a_timeout(state, seat, action):
    events: list[Event] = []
    _end_night(state, events)
    return Result(state, events)


def _day(state: State) -> None:
    if state["phase"] != DAY:
        raise IllegalAction("wrong_phase", "Not by day")


def _day_move(func, *args):
    def handler(state, seat, action):
        _day(state)
        values = [seat if a == "seat" else action[a] for a in args]
        try:
            step = func(_table(state), state["day"], *values)
        except D.DayError as refusal:
            raise IllegalAction(refusal.code, str(refusal)) from None
        events: list[Event] = []
        _day_step(state, events, step)
        return Result(state, events)
    return handler


def a_accuse(state, seat, action):
    _day(state)
    try:
        step = D.accuse(_table(state), state["day"], seat, action["target"], action["claim"],
                        action.get("text"))
    except D.DayError as refusal:
        raise IllegalAction(refusal.code, str(refusal)) from None
    events: list[Event] = []
    _day_step(state, events, step)
    return Result(state, events)


def a_defence_timeout(state, seat, action):
    _day(state)
    try:
        step = D.defend(_table(state), state["day"], action["seat"], "timeout")
    except D.DayError as refusal:
        raise IllegalAction(refusal.code, str(refusal)) from None
    events: list[Event] = []
    _day_step(state, events, step)
    return Result(state, events)


# --------------------------------------------------------------------------------------------
# The host and a player whose phone is gone (engines/base.py; docs/rules/mrakoslapi.md §11.3)
# --------------------------------------------------------------------------------------------

def host_proxy_moves(state: State) -> dict[int, list[Action]]:
    """None: every step that waits for a player has a clock, and the rulebook's own default is
    what an absent player does — no hand raised in time does not count (rules §5.5 ``T_vote``),
    the floor and a defence end by their clocks, a night choice not made is no choice."""
    return {}


def proxy(state, seat, action):
    host_for(state, seat, action)
    raise IllegalAction("not_proxiable", "The host cannot make that choice for a player")


def removable(state: State) -> list[int]:
    """By day, any visible living player; at night nobody (the night's choices meet at its
    end, rules §4: a death in the middle of it has no place; the host waits for the morning)."""
    if state["phase"] != DAY or state["day"]["state"] not in D.OPEN_STATES:
        return []
    return _visible(state)


def a_remove(state, seat, action):
    target = host_for(state, seat, action)
    if target not in removable(state):
        raise IllegalAction("not_removable", "The host can remove a living player by day only")
    return _day_move(D.remove, "target")(state, seat, {"target": target})


_ACTIONS = {
    "mafia_target": (_p_target, a_mafia),
    "gunman_target": (_p_no_target, a_gunman),
    "tunnel": (_p_tunnel, a_tunnel),
    "slime": (_p_no_target, a_slime),
    "exhibit": (_p_no_target, a_exhibit),
    "medik": (_p_medik, a_medik),
    "bobo": (_p_target, a_bobo),
    "pass": (_p_pass, a_pass),
    "done": (_p_none, a_done),
    "accuse": (_p_accuse, a_accuse),
    "withdraw": (_p_none, _day_move(D.withdraw, "seat")),
    "ready": (_p_none, _day_move(D.ready, "seat")),
    "defend": (_p_defend, _day_move(D.defend, "seat", "how")),
    "vote": (_p_vote, _day_move(D.vote, "seat", "candidate")),
    "astronom": (_p_none, _day_move(D.astronom, "seat")),
    "anarchist_shot": (_p_target, _day_move(D.anarchist_shot, "seat", "target")),
    "timeout": (_p_none, a_timeout),
    "close_floor": (_p_none, _day_move(D.close_floor)),
    # The host's button (turns.host_moves): what the floor's clock would do, now (rules §5.2).
    "end_discussion": (_p_none, _day_move(D.close_floor)),
    "defence_timeout": (_p_seat, a_defence_timeout),
    "open_votes": (_p_none, _day_move(D.open_votes)),
    "close_window": (_p_candidate, _day_move(D.close_window)),
    "close_sentence": (_p_none, _day_move(D.close_sentence)),
    PROXY: (parse_proxy, proxy),
    REMOVE_PLAYER: (parse_removal, a_remove),
}
