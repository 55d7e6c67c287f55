"""The Mrakošlapi ruleset's name, its phases and options (the night's deadline of rules §4.2,
the day's timers of §5.2, the choices of §7), and how the engine reads its state (rules §2).

"rules §4.2" means ``docs/rules/mrakoslapi.md``; ``engines/mrakoslapi/engine.py`` says what the
state holds.  Names with a leading underscore are this package's own.
"""

from __future__ import annotations

from typing import Any

from engines.base import Option, State
from engines.mrakoslapi.players import visible_living

SLUG = "mrakoslapi"
TITLE = "Mrakošlapi"
NIGHT, DAY, OVER = "night", "day", "over"


OPTIONS = [
    # T_night (rules §4.2): the night ends then; missing choices take the defaults.
    Option("night_deadline_seconds", "60", kind="choice", choices=("30", "45", "60", "90", "120")),
    # A night lasts at least this long however fast everybody confirms (anti-tell).
    Option("night_min_seconds", "20", kind="choice", choices=("10", "20", "30")),
    # T_floor_auto (rules §5.2): no accusation by then ⇒ everyone is accused.
    Option("floor_auto_seconds", "300", kind="choice", choices=("120", "180", "300", "420")),
    # T_floor_max (rules §5.2): the floor closes if an accusation stands.
    Option("floor_max_seconds", "600", kind="choice", choices=("300", "450", "600", "900")),
    # T_defence (rules §5.2): each accused's defence.
    Option("defence_seconds", "45", kind="choice", choices=("30", "45", "60", "90")),
    # T_think (rules §5.2): a silence before the vote.
    Option("think_seconds", "10", kind="choice", choices=("5", "10", "15")),
    # T_vote (rules §5.2): the vote window per candidate.
    Option("vote_seconds", "5", kind="choice", choices=("3", "5", "8", "10")),
    # T_refloor (rules §5.2): the discussion before a re-vote.
    Option("refloor_seconds", "120", kind="choice", choices=("60", "120", "180")),
    # T_sentence (rules §5.2, + 0.5 s grace): the Astronom window; the condemned may still call NOC.
    Option("sentence_seconds", "10", kind="choice", choices=("5", "10", "15")),
    # Which nights the Šílený střelec shoots on (rules A1).
    Option("gunman_nights", "even", kind="choice", choices=("even", "odd")),
    # Rules A6: by default only tunnels ONTO the Atheist vanish; on: tunnels from him too.
    Option("atheist_blocks_tunnel_from", False),
    # Votes per player and round: one, or one per candidate (rules A21).
    Option("votes_per_player", "1", kind="choice", choices=("1", "unlimited")),
    # Voting rounds per day (rules A23, MAX_ROUNDS).
    Option("max_rounds", "3", kind="choice", choices=("1", "2", "3")),
    # Whether an Astronom may save the condemned, not only the condemned himself (rules A25).
    Option("astronom_can_save_others", True),
]


def _opt(state: State, key: str) -> Any:
    return state["options"][key]


def _night_options(state: State) -> dict:
    return {"gunman_nights": _opt(state, "gunman_nights"),
            "atheist_blocks_tunnel_from": _opt(state, "atheist_blocks_tunnel_from")}


def _day_options(state: State) -> dict:
    vpp = _opt(state, "votes_per_player")
    return {"votes_per_player": 1 if vpp == "1" else "unlimited",
            "max_rounds": int(_opt(state, "max_rounds")),
            "astronom_can_save_others": _opt(state, "astronom_can_save_others")}


def _table(state: State) -> dict:
    return state["secret"]["table"]


def _players(state: State) -> list[dict]:
    return _table(state)["players"]


def _visible(state: State) -> list[int]:
    return visible_living(_players(state))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
