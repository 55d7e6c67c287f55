"""The Mrakošlapi day's vocabulary: its states (rules §5.2), the day announcement codes
(§5.12), the end-of-game reasons (§6), what the rules read of the table (V, the game-alive,
muted players, "the day has no meaning" of §5.1, a vote's weight of §5.5, the candidates'
order of §5.3, a progress event of §6.3), and the working copy one transition changes.

"rules §5.5" means ``docs/rules/mrakoslapi.md``; the package ``engines.mrakoslapi.day`` says what
a table, a day and a step are.  Names with a leading underscore are this package's own.
"""

from __future__ import annotations

from typing import Any

from engines.base import working_copy
from engines.mrakoslapi import cards as C
from engines.mrakoslapi.players import ALIVE, FAKE_DEAD, Player, by_seat

Step = dict[str, Any]
Line = dict[str, Any]

# States (rules §5.2).
FLOOR = "FLOOR"
DEFENCE = "DEFENCE"
THINK = "THINK"
VOTE = "VOTE"
REFLOOR = "REFLOOR"
SENTENCE = "SENTENCE"
END = "END"
SKIPPED = "SKIPPED"
GAME_OVER = "GAME_OVER"
OPEN_STATES = (FLOOR, DEFENCE, THINK, VOTE, REFLOOR, SENTENCE)

# Announcement codes (rules §5.12), plus the end of the game.
SKIPPED_LINE = "day.skipped"        # {}
AUTO_ACCUSE = "day.auto_accuse"     # {}
HANDS = "day.hands"                 # {"candidate": seat, "voters": [seat]}  (received order)
TIE = "day.tie"                     # {}
NO_EXEC = "day.no_exec"             # {}
SENTENCED = "day.sentenced"         # {"seat": seat}
NIGHT_CALL = "day.night"            # {"caller": seat | None}
ESCAPED = "day.escaped"             # {"seat": seat}
MRAK = "day.mrak"                   # {"no": n}
DIED = "day.died"                   # {"seat": seat}
REMOVED = "day.removed"             # {"seat": seat}: the host took the player out (remove)
MASS_MURDERER = "day.mv"            # {"seat": seat}
ANARCHIST = "day.anarchist"         # {"shooter": seat, "target": seat}
DAY_END = "day.end"                 # {}
GAME_OVER_LINE = "game.over"        # {"reason": str, "winners": [seat]}
GAINED = "day.gained_mrak"          # private: {"no": n}

# End-of-game reasons (rules §6.2, §6.3).
LAST_ALIVE = "last_alive"
ALL_DEAD = "all_dead"
STALEMATE_NO_MEANING = "stalemate_no_meaning"
STALEMATE_QUIET = "stalemate_quiet"

# Execution outcomes (rules §5.7).
ESCAPED_OUTCOME = "ESCAPED"
LIFE_LOST = "LIFE_LOST"
KILLED = "KILLED"

DEFAULT_OPTIONS: dict[str, Any] = {
    "max_rounds": 3,                    # A23
    "votes_per_player": 1,              # A21: 1 | "unlimited"
    "astronom_can_save_others": True,   # A25
    "reveal_astronom_caller": True,     # A25
    "reveal_voters": True,              # A36
    "stalemate_cycles": 3,              # A31, rules §6.3
    "refloor_auto_s": 120,              # rules §5.2 [P]: FLOOR restarted when every candidate died
}

DEFENCE_WAYS = ("spoke", "waived", "timeout")


class DayError(ValueError):
    """An illegal day move; ``code`` is stable for the screens and tests."""

    def __init__(self, code: str, message: str = ""):
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code


def _refuse(condition: bool, code: str, message: str = "") -> None:
    if condition:
        raise DayError(code, message)


def line(code: str, **params: Any) -> Line:
    return {"code": code, "params": params}


# --------------------------------------------------------------------------------------------
# Reading the table
# --------------------------------------------------------------------------------------------

def visible(players: list[Player]) -> list[int]:
    """``V``: ALIVE seats in seat order (rules §2; a fake-dead Medik is not in it, §5.11)."""
    return sorted(p["seat"] for p in players if p["status"] == ALIVE)


def game_alive(players: list[Player]) -> list[int]:
    """ALIVE ∪ FAKE_DEAD, for the end of the game only (rules §2, §6)."""
    return sorted(p["seat"] for p in players if p["status"] in (ALIVE, FAKE_DEAD))


def is_muted(player: Player, d: int) -> bool:
    """Exhibited for day d (rules §5.10)."""
    return player.get("muted_day") == d


def _holds(player: Player, card_type: str) -> bool:
    return player["status"] == ALIVE and C.holds(player["cards"], card_type)


def day_has_meaning(players: list[Player]) -> bool:
    """rules §5.1 (A30), "Den nemá význam když: jsou živí pouze dva hráči, z nichž ani jeden není
    Mečiar … nemá kartu Anarchista … nemá kartu Masový vrah": False iff |V| ≤ 1, or |V| = 2 and
    nobody in V holds Mečiar, a READY Anarchista or the Masový vrah."""
    seats = visible(players)
    if len(seats) <= 1:
        return False
    if len(seats) > 2:
        return True
    table = by_seat(players)
    return any(_holds(table[s], t) for s in seats for t in (C.MECIAR, C.ANARCHISTA,
                                                            C.MASOVY_VRAH))


def weight(voter: Player, candidate: Player) -> int:
    """rules §5.5: 2 for Mečiar, 2 for Kováč voting for the Mečiar holder, else 1; never more
    than 2 (A22)."""
    if C.holds(voter["cards"], C.MECIAR):
        return 2
    if C.holds(voter["cards"], C.KOVAC) and C.holds(candidate["cards"], C.MECIAR):
        return 2
    return 1


def candidate_order(accusations: list[dict[str, Any]], seats: list[int]) -> list[int]:
    """rules §5.3: each accused person once, in the order of his earliest standing accusation;
    only persons in V."""
    order: list[int] = []
    for a in accusations:
        if a["accused"] in seats and a["accused"] not in order:
            order.append(a["accused"])
    return order


def progressed(before: list[Player], after: list[Player]) -> bool:
    """A progress event (rules §6.3) between two player lists: a card changed state or was
    gained, or a status changed (real or fake death, a Medik return)."""
    def shape(players: list[Player]) -> dict[int, Any]:
        return {p["seat"]: (p["status"], sorted((c["type"], c["no"], c["state"])
                                                for c in p["cards"])) for p in players}
    return shape(before) != shape(after)


# --------------------------------------------------------------------------------------------
# Steps
# --------------------------------------------------------------------------------------------

class _Step:
    """The mutable working copy inside one transition (never visible outside): the one
    convention of engines/base.py, ``working_copy``, so a transition never changes its input."""

    def __init__(self, table: dict[str, Any], day: dict[str, Any] | None):
        self.table = working_copy(table)
        self.day = working_copy(day) if day is not None else None
        self.announce: list[Line] = []
        self.events: list[dict[str, Any]] = []
        self.private: list[dict[str, Any]] = []
        self.result: dict[str, Any] | None = None

    @property
    def players(self) -> dict[int, Player]:
        return by_seat(self.table["players"])

    def say(self, code: str, **params: Any) -> None:
        self.announce.append(line(code, **params))

    def event(self, kind: str, audience: Any = "public", **data: Any) -> None:
        self.events.append({"kind": kind, "audience": audience, **data})

    def done(self) -> Step:
        return {"table": self.table, "day": self.day, "announce": self.announce,
                "events": self.events, "private": self.private, "result": self.result}


def _begin(table: dict[str, Any], day: dict[str, Any], states: tuple[str, ...]) -> _Step:
    _refuse(day["state"] not in states, "wrong_state",
            f"not allowed in {day['state']} (allowed: {', '.join(states)})")
    return _Step(table, day)


def _actor(step: _Step, seat: int) -> Player:
    """A player who acts by day must be in V (rules §5.11: not dead, not fake-dead)."""
    player = step.players.get(seat)
    _refuse(player is None or player["status"] != ALIVE, "not_visible",
            f"seat {seat} is not a visible living player")
    return player


def _speaker(step: _Step, seat: int) -> Player:
    player = _actor(step, seat)
    _refuse(is_muted(player, step.day["day"]), "muted", f"seat {seat} is exhibited today")
    return player
