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


def _seconds(*values: int) -> tuple[tuple[str, str], ...]:
    return tuple((str(v), f"{v} s") for v in values)


OPTIONS = [
    Option("night_deadline_seconds", "Night deadline", "60", kind="choice",
           choices=_seconds(30, 45, 60, 90, 120),
           help="T_night (rules §4.2): the night ends then; missing choices take the defaults."),
    Option("night_min_seconds", "Shortest night", "20", kind="choice",
           choices=_seconds(10, 20, 30),
           help="A night lasts at least this long however fast everybody confirms (anti-tell)."),
    Option("floor_auto_seconds", "Nobody accused: everyone is", "300", kind="choice",
           choices=_seconds(120, 180, 300, 420),
           help="T_floor_auto (rules §5.2): no accusation by then ⇒ everyone is accused."),
    Option("floor_max_seconds", "Longest discussion", "600", kind="choice",
           choices=_seconds(300, 450, 600, 900),
           help="T_floor_max (rules §5.2): the floor closes if an accusation stands."),
    Option("defence_seconds", "Defence per accused", "45", kind="choice",
           choices=_seconds(30, 45, 60, 90), help="T_defence (rules §5.2)."),
    Option("think_seconds", "Time to think before the vote", "10", kind="choice",
           choices=_seconds(5, 10, 15), help="T_think (rules §5.2)."),
    Option("vote_seconds", "Vote window per candidate", "5", kind="choice",
           choices=_seconds(3, 5, 8, 10), help="T_vote (rules §5.2)."),
    Option("refloor_seconds", "Discussion before a re-vote", "120", kind="choice",
           choices=_seconds(60, 120, 180), help="T_refloor (rules §5.2)."),
    Option("sentence_seconds", "Astronom window", "10", kind="choice",
           choices=_seconds(5, 10, 15),
           help="T_sentence (rules §5.2, + 0.5 s grace): the condemned may still call NOC."),
    Option("gunman_nights", "Šílený střelec shoots on", "even", kind="choice",
           choices=(("even", "even nights"), ("odd", "odd nights")), help="A1."),
    Option("atheist_blocks_tunnel_from", "Tunnels from the Atheist vanish too", False,
           help="A6: by default only tunnels ONTO the Atheist vanish."),
    Option("votes_per_player", "Votes per player and round", "1", kind="choice",
           choices=(("1", "one"), ("unlimited", "one per candidate")), help="A21."),
    Option("max_rounds", "Voting rounds per day", "3", kind="choice",
           choices=(("1", "1"), ("2", "2"), ("3", "3")), help="A23, MAX_ROUNDS."),
    Option("astronom_can_save_others", "Astronom may save the condemned", True, help="A25."),
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
