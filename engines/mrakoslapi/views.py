"""What Mrakošlapi shows (rules §3): the TV's view and each phone's, built field by field, and
everything at game over.

"rules §4.2" means ``docs/rules/mrakoslapi.md``; ``engines/mrakoslapi/engine.py`` says what the
state holds.  Names with a leading underscore are this package's own.
"""

from __future__ import annotations

import copy
from typing import Any

from engines.base import State
from engines.mrakoslapi import cards as C
from engines.mrakoslapi.players import ALIVE, DEAD, by_seat
from engines.mrakoslapi.state import DAY, NIGHT, OVER, SLUG, _players
from engines.mrakoslapi.turns import legal_actions, outcome


# --------------------------------------------------------------------------------------------
# Views (rules §3): built field by field
# --------------------------------------------------------------------------------------------

def view(state: State, seat: int | None) -> dict:
    over = state["phase"] == OVER
    clock = state["clock"]
    d = state["day"]
    muted_day = d["day"] if d is not None and state["phase"] == DAY else None
    seats = [{"seat": p["seat"], "alive": p["status"] == ALIVE,
              "muted": p["status"] == ALIVE and muted_day is not None
              and p.get("muted_day") == muted_day}
             for p in _players(state)]
    secret = state["secret"]
    return {
        "ruleset": SLUG,
        "options": dict(state["options"]),
        "phase": state["phase"],
        "number": state["number"],
        "turn": state["turn"],
        "players": state["players"],
        "seats": seats,
        "morning": copy.deepcopy(state["morning"]),
        "narration": copy.deepcopy(state["narration"]),
        "day": _day_view(d) if d is not None else None,
        "clock": {"id": clock["id"], "seconds": clock["seconds"]} if clock else None,
        "outcome": outcome(state).to_json() if over else None,
        "reveal": ({"players": copy.deepcopy(_players(state)),
                    "dealt": copy.deepcopy(secret["dealt"]),
                    "mafia_met": list(secret["mafia_met"]),
                    "notices": copy.deepcopy(secret["notices"]),
                    "traces": copy.deepcopy(secret["traces"])} if over else None),
        "me": _me(state, seat) if seat is not None else None,
    }


_DAY_KEYS = ("day", "state", "round", "accusations", "ready", "candidates", "defence",
             "defended", "window", "ballots", "rounds", "sentenced", "sentence_voters",
             "floor_auto_s")


def _day_view(d: dict) -> dict:
    return {key: copy.deepcopy(d[key]) for key in _DAY_KEYS}


def _me(state: State, seat: int) -> dict:
    player = by_seat(_players(state))[seat]
    status = player["status"]
    night = state["secret"]["night"] if state["phase"] == NIGHT else None
    awake = night is not None and seat in night["awake"]
    me: dict[str, Any] = {"seat": seat, "status": status, "alive": status != DEAD,
                          "cards": None, "gained": None, "fellow_mafia": None,
                          "notices": None, "night": None, "mafia_room": None,
                          "moves": legal_actions(state, seat)}
    if awake:
        picks = night["picks"][seat]
        me["night"] = {"number": night["n"], "confirmed": seat in night["confirmed"],
                       "prompts": [{**p, "choice": copy.deepcopy(picks.get(p["id"]))}
                                   for p in night["prompts"][seat]]}
    if status == DEAD:
        return me
    me["cards"] = [dict(c) for c in player["cards"]]
    me["gained"] = [c["no"] for c in player["cards"]
                    if c["type"] == C.MRAKOSLAP and c["no"] >= C.EXTRA_MRAKOSLAP_FIRST_NO]
    me["notices"] = [copy.deepcopy(n) for n in state["secret"]["notices"] if n["seat"] == seat]
    met = state["secret"]["mafia_met"]
    if seat in met:
        me["fellow_mafia"] = [s for s in met if s != seat]
        if night is not None and night["n"] == 1:
            me["mafia_room"] = [{"seat": s, "target": night["picks"][s].get("MAFIAN:1"),
                                 "confirmed": s in night["confirmed"]} for s in met]
    return me
