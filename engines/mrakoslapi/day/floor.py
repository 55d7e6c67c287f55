"""The Mrakošlapi day from its start to the vote: the day start and "the day has no meaning"
(rules §5.1), the floor — accusations, withdrawals, "Ready to vote", closing the floor and
"everyone is accused" (§5.3) — and the defences and the time to think (§5.4).

"rules §5.5" means ``docs/rules/mrakoslapi.md``; the package ``engines.mrakoslapi.day`` says what
a table, a day and a step are.  Names with a leading underscore are this package's own.
"""

from __future__ import annotations

from typing import Any

from engines.mrakoslapi import cards as C
from engines.mrakoslapi.day.end import _end_of_cycle
from engines.mrakoslapi.day.states import (
    AUTO_ACCUSE, DEFAULT_OPTIONS, DEFENCE, DEFENCE_WAYS, FLOOR, REFLOOR, SKIPPED, SKIPPED_LINE,
    THINK, VOTE, Step, _actor, _begin, _refuse, _speaker, _Step, candidate_order, day_has_meaning,
    is_muted, visible,
)


# --------------------------------------------------------------------------------------------
# §5.1 Day start
# --------------------------------------------------------------------------------------------

def start_day(table: dict[str, Any], options: dict[str, Any] | None = None) -> Step:
    """DAY_START(d), d = ``table["night"]``, after the morning announcement: the day in FLOOR, or
    SKIPPED ("DEN nemá význam", rules §5.1) followed by the end-of-game test (rules §6.1)."""
    options = {**DEFAULT_OPTIONS, **(options or {})}
    d = table["night"]
    day = {"day": d, "state": FLOOR, "round": 1, "options": options, "accusations": [],
           "next_accusation_id": 1, "ready": [], "candidates": [], "defence": [],
           "defended": [], "window": None, "ballots": [], "rounds": [], "sentenced": None,
           "sentence_voters": [], "floor_auto_s": None, "progress": False, "seq": 0}
    step = _Step(table, day)
    if day_has_meaning(table["players"]):
        step.event("day_start", day=d, visible=visible(table["players"]),
                   muted=[s for s in visible(table["players"])
                          if is_muted(step.players[s], d)])
        return step.done()
    step.day["state"] = SKIPPED
    step.say(SKIPPED_LINE)
    step.event("day_skipped", day=d)
    _end_of_cycle(step)
    return step.done()


# --------------------------------------------------------------------------------------------
# §5.3 Accusations, "ready", closing the floor
# --------------------------------------------------------------------------------------------

def accuse(table: dict[str, Any], day: dict[str, Any], seat: int, target: int, claim: str,
           text: str | None = None) -> Step:
    """"Obviňuji ___ z toho, že je <karta>" (rules §5.3, A34): FLOOR or REFLOOR, the accuser in V
    and not muted, the accused in V (oneself allowed), one standing accusation per accuser."""
    step = _begin(table, day, (FLOOR, REFLOOR))
    _speaker(step, seat)
    _refuse(target not in visible(step.table["players"]), "bad_target",
            f"seat {target} cannot be accused")
    _refuse(claim not in C.CARD_TYPES, "bad_claim", f"{claim!r} is not a card type")
    _refuse(any(a["accuser"] == seat for a in step.day["accusations"]), "already_accusing",
            f"seat {seat} must withdraw his standing accusation first")
    accusation = {"id": step.day["next_accusation_id"], "accuser": seat, "accused": target,
                  "claim": claim, "text": text}
    step.day["accusations"].append(accusation)
    step.day["next_accusation_id"] += 1
    step.day["floor_auto_s"] = None
    step.event("accuse", **accusation)
    _close_if_agreed(step)
    return step.done()


def withdraw(table: dict[str, Any], day: dict[str, Any], seat: int) -> Step:
    """"Libovolné obvinění může být navrhovatelem staženo" (rules §5.3): FLOOR or REFLOOR, not
    muted."""
    step = _begin(table, day, (FLOOR, REFLOOR))
    _speaker(step, seat)
    standing = [a for a in step.day["accusations"] if a["accuser"] == seat]
    _refuse(not standing, "no_accusation", f"seat {seat} has no standing accusation")
    step.day["accusations"] = [a for a in step.day["accusations"] if a["accuser"] != seat]
    step.event("withdraw", id=standing[0]["id"], accuser=seat, accused=standing[0]["accused"])
    return step.done()


def ready(table: dict[str, Any], day: dict[str, Any], seat: int) -> Step:
    """"Ready to vote" (rules §5.2; muted players may press it, §5.10).  When more than half of
    V is ready and an accusation stands, the floor closes at once (→ DEFENCE)."""
    step = _begin(table, day, (FLOOR, REFLOOR))
    _actor(step, seat)
    if seat not in step.day["ready"]:
        step.day["ready"] = sorted(step.day["ready"] + [seat])
        step.event("ready", seat=seat)
    _close_if_agreed(step)
    return step.done()


def majority_ready(day: dict[str, Any], seats: list[int]) -> bool:
    """"Majority ready" (rules §5.2): more than half of V (muted players included) pressed
    "Ready to vote"."""
    return 2 * len([s for s in day["ready"] if s in seats]) > len(seats)


def _close_if_agreed(step: _Step) -> None:
    """FLOOR → DEFENCE once (≥ 1 accusation) ∧ (majority ready) (rules §5.2): whichever of the two
    comes true last closes the floor — the last "ready" of a majority with an accusation standing,
    or the first accusation after a majority is ready (§11.3, "Closing the floor")."""
    seats = visible(step.table["players"])
    if majority_ready(step.day, seats) and candidate_order(step.day["accusations"], seats):
        _close_floor(step)


def close_floor(table: dict[str, Any], day: dict[str, Any]) -> Step:
    """The floor's timer: ``T_floor_max`` (or ``T_refloor``) with an accusation standing →
    DEFENCE; ``T_floor_auto`` without one → "everyone is accused" (rules §5.3, A35) → DEFENCE."""
    step = _begin(table, day, (FLOOR, REFLOOR))
    _close_floor(step)
    return step.done()


def _close_floor(step: _Step) -> None:
    day = step.day
    seats = visible(step.table["players"])
    if not candidate_order(day["accusations"], seats):
        # "Pakliže nejsou žádní obvinění, jsou po přibližně 5 minutách hry automaticky obviněni
        # všichni dosud žijící hráči"; order rotated by the day number (A35).
        start = (day["day"] - 1) % len(seats)
        for target in seats[start:] + seats[:start]:
            day["accusations"].append({"id": day["next_accusation_id"], "accuser": None,
                                       "accused": target, "claim": None, "text": None})
            day["next_accusation_id"] += 1
        step.say(AUTO_ACCUSE)
        step.event("auto_accuse", order=seats[start:] + seats[:start])
    day["candidates"] = candidate_order(day["accusations"], seats)
    day["ready"] = []
    day["floor_auto_s"] = None
    # rules §5.4: each candidate in order; in a re-vote only the new ones (we: those who had no
    # defence turn yet today).  Muted candidates are skipped.
    day["defence"] = []
    for seat in day["candidates"]:
        if seat in day["defended"]:
            continue
        day["defended"].append(seat)
        if is_muted(step.players[seat], day["day"]):
            step.event("defence", seat=seat, how="muted")
        else:
            day["defence"].append(seat)
    day["state"] = DEFENCE
    step.event("candidates", round=day["round"], seats=list(day["candidates"]))
    _defence_done_check(step)


# --------------------------------------------------------------------------------------------
# §5.4 Defence, THINK
# --------------------------------------------------------------------------------------------

def defend(table: dict[str, Any], day: dict[str, Any], seat: int, how: str = "spoke") -> Step:
    """The current defender finished: ``how`` = "spoke" | "waived" | "timeout" (the web layer's
    ``T_defence``).  Only the head of the queue; a muted player has no defence (rules §5.4)."""
    step = _begin(table, day, (DEFENCE,))
    _refuse(how not in DEFENCE_WAYS, "bad_defence", f"{how!r}")
    if how != "timeout":
        _speaker(step, seat)
    _refuse(not step.day["defence"] or step.day["defence"][0] != seat, "not_your_turn",
            f"seat {seat} is not the one defending")
    step.day["defence"] = step.day["defence"][1:]
    step.event("defence", seat=seat, how=how)
    _defence_done_check(step)
    return step.done()


def _defence_done_check(step: _Step) -> None:
    if step.day["state"] == DEFENCE and not step.day["defence"]:
        step.day["state"] = THINK


def open_votes(table: dict[str, Any], day: dict[str, Any]) -> Step:
    """THINK is over ("všichni dostanou krátký čas na rozmyšlenou"): the first window opens."""
    step = _begin(table, day, (THINK,))
    step.day["state"] = VOTE
    step.day["window"] = 0
    step.day["ballots"] = []
    step.event("window", candidate=step.day["candidates"][0])
    return step.done()
