"""The Mrakošlapi night–day cycle: a night begins with its prompts or is skipped (rules §4.1,
§4.2), its dawn resolves it and announces the morning (§4.3–§4.8), the end-of-game test after a
night (§6.1), the day starts (§5.1) and a day's step is taken in; and the game master's clock of
each step (the night's deadline, §4.2; the day's timers, §5.2).

"rules §4.2" means ``docs/rules/mrakoslapi.md``; ``engines/mrakoslapi/engine.py`` says what the
state holds.  Names with a leading underscore are this package's own.
"""

from __future__ import annotations

import copy
from typing import Any

from engines.base import NOBODY, PUBLIC, Action, Event, State, next_turn, say, start_clock, stop_clock
from engines.mrakoslapi import announce
from engines.mrakoslapi import cards as C
from engines.mrakoslapi import day as D
from engines.mrakoslapi import night as N
from engines.mrakoslapi.players import ALIVE, by_seat
from engines.mrakoslapi.resolver import resolve
from engines.mrakoslapi.state import (
    DAY, NIGHT, OVER, _day_options, _night_options, _opt, _players, _table, _visible,
)


# --------------------------------------------------------------------------------------------
# What the TV says and what a day's step logs, taken into the state
# --------------------------------------------------------------------------------------------

def _narrate(state: State, lines: list[dict]) -> None:
    """Say ``lines`` (codes and parameters from ``announce`` or a day step) after what the TV
    says already."""
    for line in lines:
        say(state, line["code"], **copy.deepcopy(line["params"]))


def _convert(events: list[Event], raw: list[dict]) -> None:
    for e in raw:
        data = {k: copy.deepcopy(v) for k, v in e.items() if k not in ("kind", "audience")}
        audience = e["audience"]
        audience = (PUBLIC if audience == "public" else NOBODY if audience == "nobody"
                    else sorted(set(audience)))
        events.append(Event(e["kind"], data, audience))


# --------------------------------------------------------------------------------------------
# Night
# --------------------------------------------------------------------------------------------

def _prompts(state: State, seat: int, n: int) -> list[dict]:
    table = _table(state)
    player = by_seat(table["players"])[seat]
    out: list[dict] = []
    if player["status"] == ALIVE:
        hand = player["cards"]
        atheist = C.holds(hand, C.ATEISTA)
        if C.holds(hand, C.MAFIAN):
            out.append({"id": "MAFIAN:1", "card": C.MAFIAN, "no": 1, "disabled": False})
        if N.is_gunman_night(n, _opt(state, "gunman_nights")):
            for no in C.numbers(hand, C.SILENY_STRELEC):
                out.append({"id": f"SILENY_STRELEC:{no}", "card": C.SILENY_STRELEC, "no": no,
                            "disabled": False})
        for card_type in (C.MAG, C.SLINA, C.EXHIBICIONISTA, C.MEDIK):
            for no in C.numbers(hand, card_type):
                out.append({"id": f"{card_type}:{no}", "card": card_type, "no": no,
                            "disabled": atheist and card_type in (C.MAG, C.SLINA)})
    elif seat == table.get("pending_bobo") and C.holds(player["cards"], C.DUCH_BOBO):
        out.append({"id": "DUCH_BOBO:1", "card": C.DUCH_BOBO, "no": 1, "disabled": False})
    return out


def _begin_night(state: State, n: int, events: list[Event]) -> None:
    """NIGHT_START(n); skipped nights (and skipped days) loop on to the next night."""
    while True:
        state["secret"]["table"] = {**_table(state), "night": n}
        state["number"], state["day"] = n, None
        players = _players(state)
        if N.night_has_meaning(players):
            break
        applied = N.apply_skipped_night(_table(state))
        _dawn_update(state, applied)
        state["secret"]["traces"].append({"night": n, "skipped": True, "choices": None,
                                          "input": None, "result": None})
        lines = announce.skipped(applied)
        # Said after what the day before ended with (a death, "NIGHT falls."), which the same
        # move may have brought: the TV must still show it.
        state["morning"] = lines
        _narrate(state, lines)
        events.append(Event("night_skipped", {"night": n, "lines": copy.deepcopy(lines)}))
        if _start_day(state, events):
            return
        n += 1
    prompts = [_prompts(state, seat, n) for seat in range(state["players"])]
    awake = sorted(seat for seat in range(state["players"])
                   if by_seat(players)[seat]["status"] == ALIVE or prompts[seat])
    if n == 1:
        state["secret"]["mafia_met"] = sorted(
            s for s in awake if any(p["card"] == C.MAFIAN for p in prompts[s]))
    state["phase"] = NIGHT
    state["secret"]["night"] = {"n": n, "awake": awake, "prompts": prompts,
                                "picks": [{} for _ in range(state["players"])], "confirmed": []}
    events.append(Event("night_start", {"night": n}))
    for seat in awake:
        events.append(Event("night_prompts", {"night": n, "prompts": copy.deepcopy(prompts[seat])},
                            [seat]))


def _dawn_update(state: State, applied: dict) -> None:
    table = _table(state)
    before = table["players"]
    state["secret"]["table"] = {**table, "players": applied["players"],
                                "pending_bobo": applied["pending_bobo"],
                                "cycle_progress": D.progressed(before, applied["players"])}


def _choices(state: State) -> dict:
    night = state["secret"]["night"]
    choices: dict[str, Any] = {"mafia": [], "gunmen": [], "tunnels": [], "slime": [],
                               "exhibit": [], "medik": False, "bobo": None}
    for seat in night["awake"]:
        picks = night["picks"][seat]
        for p in night["prompts"][seat]:
            value = picks.get(p["id"])
            if value is None or p["disabled"]:
                continue
            card, no = p["card"], p["no"]
            if card == C.MAFIAN:
                choices["mafia"].append({"seat": seat, "target": value})
            elif card == C.SILENY_STRELEC:
                choices["gunmen"].append({"no": no, "target": value})
            elif card == C.MAG:
                choices["tunnels"].append({"no": no, "from": value[0], "to": value[1]})
            elif card == C.SLINA:
                choices["slime"].append({"no": no, "target": value})
            elif card == C.EXHIBICIONISTA:
                choices["exhibit"].append({"no": no, "target": value})
            elif card == C.MEDIK:
                choices["medik"] = bool(value)
            elif card == C.DUCH_BOBO:
                choices["bobo"] = value
    return choices


def _end_night(state: State, events: list[Event]) -> None:
    """Dawn: resolve the night, announce, the end-of-game test, then the day."""
    n = state["number"]
    table = _table(state)
    choices = _choices(state)
    night_input = N.build_night_input(table, choices, _night_options(state))
    result = resolve(night_input)
    applied = N.apply_night(table, result)
    _dawn_update(state, applied)
    state["secret"]["night"] = None
    state["secret"]["traces"].append({"night": n, "skipped": False, "choices": choices,
                                      "input": night_input, "result": result})
    lines = announce.morning(result, applied)
    state["morning"], state["narration"] = lines, []       # a new morning: the TV starts anew
    _narrate(state, lines)
    events.append(Event("night_resolved", {"night": n, "choices": copy.deepcopy(choices),
                                           "result": copy.deepcopy(result)}, NOBODY))
    events.append(Event("morning", {"night": n, "lines": copy.deepcopy(lines)}))
    alive = D.game_alive(_players(state))
    if len(alive) <= 1:
        _game_over(state, events, D.result(_players(state),
                                           D.LAST_ALIVE if alive else D.ALL_DEAD))
        return
    if _start_day(state, events):
        return
    _begin_night(state, n + 1, events)


def _game_over(state: State, events: list[Event], result: dict) -> None:
    state["phase"], state["result"] = OVER, copy.deepcopy(result)
    state["secret"]["night"] = None
    params = {"reason": result["reason"], "winners": list(result["winners"])}
    if D.line(D.GAME_OVER_LINE, **params) not in state["narration"]:
        say(state, D.GAME_OVER_LINE, **params)
    events.append(Event("game_over", copy.deepcopy(result)))


# --------------------------------------------------------------------------------------------
# Day
# --------------------------------------------------------------------------------------------

def _start_day(state: State, events: list[Event]) -> bool:
    """DAY_START(n).  True if a day is now being played (or the game ended); False if the day
    was skipped and the next night must start."""
    step = D.start_day(_table(state), _day_options(state))
    _absorb(state, step, events)
    if state["phase"] == OVER:
        return True
    if step["day"]["state"] == D.SKIPPED:
        return False
    state["phase"] = DAY
    return True


def _absorb(state: State, step: dict, events: list[Event]) -> None:
    state["secret"]["table"] = step["table"]
    state["day"] = step["day"]
    _narrate(state, step["announce"])
    _convert(events, step["events"])
    for notice in step["private"]:
        state["secret"]["notices"].append(copy.deepcopy(notice))
        events.append(Event("notice", copy.deepcopy(notice), [notice["seat"]]))
    if step["result"] is not None:
        state["phase"], state["result"] = OVER, copy.deepcopy(step["result"])


def _day_step(state: State, events: list[Event], step: dict) -> None:
    _absorb(state, step, events)
    if state["phase"] != OVER and state["day"]["state"] == D.END:
        _begin_night(state, state["number"] + 1, events)


# --------------------------------------------------------------------------------------------
# The clock
# --------------------------------------------------------------------------------------------

TIMEOUT = {"type": "timeout"}


def _clock_spec(state: State) -> tuple[str, float, Action] | None:
    if state["phase"] == NIGHT:
        night = state["secret"]["night"]
        done = set(night["awake"]) <= set(night["confirmed"])
        key = "night_min_seconds" if done else "night_deadline_seconds"
        return f"night:{night['n']}", int(_opt(state, key)), dict(TIMEOUT)
    if state["phase"] != DAY:
        return None
    d = state["day"]
    prefix = f"day:{d['day']}:{d['state']}:{d['round']}"
    st = d["state"]
    if st == D.FLOOR:
        if D.candidate_order(d["accusations"], _visible(state)):
            seconds = int(_opt(state, "floor_max_seconds"))
        else:
            seconds = d["floor_auto_s"] or int(_opt(state, "floor_auto_seconds"))
        return prefix, seconds, {"type": "close_floor"}
    if st == D.REFLOOR:
        return prefix, int(_opt(state, "refloor_seconds")), {"type": "close_floor"}
    if st == D.DEFENCE:
        head = d["defence"][0]
        return (f"{prefix}:{head}", int(_opt(state, "defence_seconds")),
                {"type": "defence_timeout", "seat": head})
    if st == D.THINK:
        return prefix, int(_opt(state, "think_seconds")), {"type": "open_votes"}
    if st == D.VOTE:
        candidate = d["candidates"][d["window"]]
        return (f"{prefix}:{candidate}", int(_opt(state, "vote_seconds")),
                {"type": "close_window", "candidate": candidate})
    if st == D.SENTENCE:
        return prefix, int(_opt(state, "sentence_seconds")) + 0.5, {"type": "close_sentence"}
    return None


def _refresh(state: State) -> None:
    """Set the clock for the current step; a new step gets a new clock id and a new turn."""
    spec = _clock_spec(state)
    key = spec[0] if spec else state["phase"]
    if key != state["clock_key"]:
        state["clock_key"] = key
        next_turn(state)
        if spec:
            start_clock(state, spec[1], spec[2])
        else:
            stop_clock(state)
    elif spec:                  # the same step: its clock keeps its id, its seconds may change
        state["clock"] = {**state["clock"], "seconds": spec[1], "move": spec[2]}
