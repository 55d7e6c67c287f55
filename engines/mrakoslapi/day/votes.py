"""The Mrakošlapi vote: raised hands in one window per candidate, and the tally with weighted
votes, ties, re-votes and "no execution" (rules §5.5).

"rules §5.5" means ``docs/rules/mrakoslapi.md``; the package ``engines.mrakoslapi.day`` says what
a table, a day and a step are.  Names with a leading underscore are this package's own.
"""

from __future__ import annotations

from typing import Any

from engines.base import working_copy
from engines.mrakoslapi.day.end import _end_day
from engines.mrakoslapi.day.states import (
    HANDS, NO_EXEC, REFLOOR, SENTENCE, SENTENCED, TIE, VOTE, Step, _actor, _begin, _refuse, _Step,
    visible, weight,
)


# --------------------------------------------------------------------------------------------
# §5.5 Voting and the tally
# --------------------------------------------------------------------------------------------

def vote(table: dict[str, Any], day: dict[str, Any], seat: int, candidate: int) -> Step:
    """A raised hand in the open window "Kdo je pro smrt …": the voter in V (muted ones vote,
    rules §5.10), for the candidate being called, at most one vote per round (A21)."""
    step = _begin(table, day, (VOTE,))
    _actor(step, seat)
    d = step.day
    _refuse(candidate != d["candidates"][d["window"]], "not_candidate",
            f"the open window is for seat {d['candidates'][d['window']]}")
    if d["options"]["votes_per_player"] == 1:
        _refuse(any(b["voter"] == seat for b in d["ballots"]), "already_voted",
                f"seat {seat} has voted in this round")
    else:
        _refuse(any(b["voter"] == seat and b["candidate"] == candidate for b in d["ballots"]),
                "already_voted", f"seat {seat} has voted for seat {candidate}")
    d["ballots"].append({"voter": seat, "candidate": candidate})
    step.event("hand", voter=seat, candidate=candidate)
    return step.done()


def close_window(table: dict[str, Any], day: dict[str, Any]) -> Step:
    """``T_vote`` is over: the next candidate's window, or after the last one the tally."""
    step = _begin(table, day, (VOTE,))
    step.day["window"] += 1
    _after_window(step)
    return step.done()


def _after_window(step: _Step) -> None:
    d = step.day
    if d["window"] < len(d["candidates"]):
        step.event("window", candidate=d["candidates"][d["window"]])
    else:
        _tally(step)


def _tally(step: _Step) -> None:
    """rules §5.5: the unique top total > 0 is condemned; a tie at the top is a new vote (up to
    ``max_rounds``, A23); a top of 0 condemns nobody."""
    d = step.day
    players = step.players
    seats = visible(step.table["players"])
    ballots = [b for b in d["ballots"] if b["voter"] in seats and b["candidate"] in seats]
    hands = [[c, [b["voter"] for b in ballots if b["candidate"] == c]] for c in d["candidates"]]
    totals = {c: sum(weight(players[v], players[c]) for v in voters) for c, voters in hands}
    if d["options"]["reveal_voters"]:
        for c, voters in hands:
            step.say(HANDS, candidate=c, voters=voters)
    step.event("hands", round=d["round"], hands=working_copy(hands))
    step.event("totals", audience="nobody", round=d["round"],
               totals=[[c, totals[c]] for c in d["candidates"]])
    top = max(totals.values(), default=0)
    leaders = [c for c in d["candidates"] if totals[c] == top]
    record = {"round": d["round"], "candidates": list(d["candidates"]), "hands": working_copy(hands)}
    d["window"] = None
    if top > 0 and len(leaders) == 1:
        record["result"] = "sentenced"
        d["rounds"].append(record)
        d["sentenced"] = leaders[0]
        d["sentence_voters"] = dict(hands)[leaders[0]]
        d["state"] = SENTENCE
        step.say(SENTENCED, seat=leaders[0])
        step.event("sentenced", seat=leaders[0], voters=list(d["sentence_voters"]))
    elif top > 0 and d["round"] < d["options"]["max_rounds"]:
        record["result"] = "tie"
        d["rounds"].append(record)
        d["round"] += 1
        d["state"] = REFLOOR
        d["ready"] = []
        d["ballots"] = []
        step.say(TIE)
        step.event("tie", leaders=leaders)
    else:
        record["result"] = "no_execution"
        d["rounds"].append(record)
        step.say(NO_EXEC)
        step.event("no_execution", reason="tie" if top > 0 else "no_votes")
        _end_day(step)
