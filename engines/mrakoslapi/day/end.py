"""The end of a Mrakošlapi day and of the game: life units lost by day (the rope after the
Provazochodec check, rules §5.7; the Masový vrah and the Anarchista, §5.8, §5.9), deaths by day
(§5.8 step 3), DAY_END, the end-of-game test and the stalemate guard (§6.1–§6.3), the ranking
(§6.2).  Every chapter of the day ends here, so this module imports only ``states``.

"rules §5.5" means ``docs/rules/mrakoslapi.md``; the package ``engines.mrakoslapi.day`` says what
a table, a day and a step are.  Names with a leading underscore are this package's own.
"""

from __future__ import annotations

from typing import Any

from engines.base import working_copy
from engines.mrakoslapi import cards as C
from engines.mrakoslapi.day.states import (
    ALL_DEAD, DAY_END, DIED, END, GAME_OVER, GAME_OVER_LINE, KILLED, LAST_ALIVE, LIFE_LOST, MRAK,
    STALEMATE_NO_MEANING, STALEMATE_QUIET, _Step, day_has_meaning, game_alive,
)
from engines.mrakoslapi.night import night_has_meaning
from engines.mrakoslapi.players import ALIVE, FAKE_DEAD, Player, copy_player, die


# --------------------------------------------------------------------------------------------
# Life units, deaths, the end of the day and of the game
# --------------------------------------------------------------------------------------------

def _set(step: _Step, seat: int, card_type: str, no: int, state: str) -> None:
    step.table["players"] = [
        {**p, "cards": C.with_state(p["cards"], card_type, no, state)} if p["seat"] == seat
        else p for p in step.table["players"]]
    step.day["progress"] = True


def _hit(step: _Step, seat: int, cause: str) -> tuple[str, int | None]:
    """One life unit (rope after the Provazochodec check, Masový vrah, Anarchista; no night
    protection applies by day): the lowest READY Mrakošlap, else the life.  Not announced here."""
    mraks = C.numbers(step.players[seat]["cards"], C.MRAKOSLAP)
    if mraks:
        _set(step, seat, C.MRAKOSLAP, mraks[0], C.DEAD)
        step.event("mrak_dies", audience="nobody", seat=seat, no=mraks[0], cause=cause)
        return LIFE_LOST, mraks[0]
    _kill(step, seat, cause)
    return KILLED, None


def _lose_life(step: _Step, seat: int, cause: str) -> str:
    outcome, no = _hit(step, seat, cause)
    if outcome == LIFE_LOST:
        step.say(MRAK, no=no)
    else:
        step.say(DIED, seat=seat)
    return outcome


def _kill(step: _Step, seat: int, cause: str) -> None:
    """rules §5.8 step 3: DEAD, cards SURRENDERED except a READY Duch Bobo (pending for night
    d + 1), ``died_in = DAY d``."""
    step.day["seq"] += 1
    players = []
    for p in step.table["players"]:
        if p["seat"] == seat:
            p = copy_player(p)
            if die(p, {"phase": "DAY", "number": step.day["day"], "t": step.day["seq"]}):
                step.table["pending_bobo"] = seat
        players.append(p)
    step.table["players"] = players
    step.day["progress"] = True
    step.event("player_dies", seat=seat, cause=cause)


def _end_day(step: _Step) -> None:
    """DAY_END: "NIGHT falls.", then the end-of-game test and the stalemate guard."""
    step.day.update(state=END, window=None, defence=[], ready=[])
    _game_over_check(step)
    if step.result is None:
        step.say(DAY_END)
        step.event("day_end", day=step.day["day"])
        _end_of_cycle(step)


def _end_of_cycle(step: _Step) -> None:
    """rules §6.3 at the end of night d + day d: the immediate guard (next night and next day
    both without meaning) and the quiet-cycles guard (≤ 3 game-alive players)."""
    if step.result is not None:
        return
    _game_over_check(step)
    if step.result is not None:
        return
    players = step.table["players"]
    quiet = step.table.get("cycle_progress") is False and not step.day["progress"]
    step.table["quiet_cycles"] = step.table.get("quiet_cycles", 0) + 1 if quiet else 0
    step.table["cycle_progress"] = None
    # The next day sees a fake-dead Medik back (he returns at the dawn of night d + 1).
    back = [{**p, "status": ALIVE} if p["status"] == FAKE_DEAD else p for p in players]
    if not night_has_meaning(players) and not day_has_meaning(back):
        _finish(step, STALEMATE_NO_MEANING)
    elif (len(game_alive(players)) <= 3
          and step.table["quiet_cycles"] >= step.day["options"]["stalemate_cycles"]):
        _finish(step, STALEMATE_QUIET)


def _game_over_check(step: _Step) -> None:
    """rules §6.2: one game-alive player wins; none: the last phase's dead share first place."""
    if step.result is not None:
        return
    alive = game_alive(step.table["players"])
    if len(alive) == 1:
        _finish(step, LAST_ALIVE)
    elif not alive:
        _finish(step, ALL_DEAD)


def _finish(step: _Step, reason: str) -> None:
    step.result = result(step.table["players"], reason)
    step.day.update(state=GAME_OVER, window=None, defence=[], ready=[])
    step.say(GAME_OVER_LINE, reason=reason, winners=list(step.result["winners"]))
    step.event("game_over", **working_copy(step.result))


def _phase_key(died_in: dict[str, Any]) -> int:
    """Night n is 2n − 1, day n is 2n: later is better (rules §6.2)."""
    return 2 * died_in["number"] - (1 if died_in["phase"] == "NIGHT" else 0)


def result(players: list[Player], reason: str) -> dict[str, Any]:
    """The ranking (rules §6.2 [P]): game-alive players first, sharing rank 1; then the dead by
    the phase in which they died, later = better, one phase = one shared rank.  With nobody
    game-alive the dead of the last phase share first place (A32)."""
    groups: list[list[int]] = []
    alive = game_alive(players)
    if alive:
        groups.append(alive)
    dead = [p for p in players if p["status"] not in (ALIVE, FAKE_DEAD) and p.get("died_in")]
    for key in sorted({_phase_key(p["died_in"]) for p in dead}, reverse=True):
        groups.append(sorted(p["seat"] for p in dead if _phase_key(p["died_in"]) == key))
    return {"reason": reason, "winners": groups[0] if groups else [], "ranking": groups}
