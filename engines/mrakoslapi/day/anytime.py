"""What may happen at any time of the Mrakošlapi day (rules §5.9): the Anarchista's shot, the
host removing a player (our decision, rules §11.3), and a player who dies mid-day dropped from
the floor, the defences, the vote or the sentence.

"rules §5.5" means ``docs/rules/mrakoslapi.md``; the package ``engines.mrakoslapi.day`` says what
a table, a day and a step are.  Names with a leading underscore are this package's own.
"""

from __future__ import annotations

from typing import Any

from engines.mrakoslapi import cards as C
from engines.mrakoslapi.day.end import _end_day, _game_over_check, _kill, _lose_life, _set
from engines.mrakoslapi.day.floor import _defence_done_check
from engines.mrakoslapi.day.states import (
    ANARCHIST, DEFENCE, FLOOR, KILLED, OPEN_STATES, REFLOOR, REMOVED, SENTENCE, VOTE, Step, _actor,
    _begin, _refuse, _speaker, _Step, visible,
)
from engines.mrakoslapi.day.votes import _after_window


# --------------------------------------------------------------------------------------------
# §5.9 Anarchista
# --------------------------------------------------------------------------------------------

def anarchist_shot(table: dict[str, Any], day: dict[str, Any], seat: int, target: int) -> Step:
    """"I shoot you, baby!!!" (rules §5.9): the READY Anarchista holder in V, not muted, at
    another player in V, at any open moment of the day ("kdykoliv během dne" — the rulebook,
    also during VOTE, see DECISIONS).  No night protection, no Provazochodec; a killed
    candidate is dropped; killing the condemned voids the execution (the day ends, nothing of
    §5.8); a killed Masový vrah does not shoot back; end-of-game test at once."""
    step = _begin(table, day, OPEN_STATES)
    player = _speaker(step, seat)
    _refuse(not C.holds(player["cards"], C.ANARCHISTA), "no_anarchist",
            f"seat {seat} holds no READY Anarchista")
    _refuse(target == seat, "self_target", "the Anarchist may not shoot himself")
    _refuse(target not in visible(step.table["players"]), "bad_target",
            f"seat {target} is not a visible living player")
    _set(step, seat, C.ANARCHISTA, 1, C.SPENT)
    step.say(ANARCHIST, shooter=seat, target=target)
    outcome = _lose_life(step, target, "anarchist")
    step.event("anarchist", shooter=seat, target=target, outcome=outcome)
    _game_over_check(step)
    if step.result is None and outcome == KILLED:
        _drop_dead(step, target)
    return step.done()


def remove(table: dict[str, Any], day: dict[str, Any], seat: int) -> Step:
    """The host takes a player out of the game by day (our decision, docs/rules/mrakoslapi.md
    §11.3): he dies for good at once, as the rulebook's dead do — "Mrtvé osoby odevzdají
    kartičky šéfovi hry a dál nijak nezasahují do hry" — so no spare Mrakošlap saves him, his
    cards go to the game master unshown, and nothing of his acts after him (a Duch Bobo does
    not haunt; a Masový vrah fires only at an execution, rules §5.8).  Then the end-of-game
    test, and the day goes on without him (rules §5.9, as for any death by day)."""
    step = _begin(table, day, OPEN_STATES)
    _actor(step, seat)
    before = step.table.get("pending_bobo")
    _kill(step, seat, "removed")
    step.table["pending_bobo"] = before
    step.table["players"] = [
        {**p, "cards": [{**c, "state": C.SURRENDERED} for c in p["cards"]]} if p["seat"] == seat else p
        for p in step.table["players"]]
    step.say(REMOVED, seat=seat)
    _game_over_check(step)
    if step.result is None:
        _drop_dead(step, seat)
    return step.done()


def _drop_dead(step: _Step, seat: int) -> None:
    """A player who died mid-day stops being a candidate and a voter (rules §5.9)."""
    d = step.day
    d["accusations"] = [a for a in d["accusations"] if a["accused"] != seat]
    d["ready"] = [s for s in d["ready"] if s != seat]
    d["ballots"] = [b for b in d["ballots"] if b["voter"] != seat and b["candidate"] != seat]
    d["defence"] = [s for s in d["defence"] if s != seat]
    if d["state"] == SENTENCE:
        if d["sentenced"] == seat:                    # the execution is void
            step.event("execution_void", seat=seat)
            _end_day(step)
        else:
            d["sentence_voters"] = [v for v in d["sentence_voters"] if v != seat]
        return
    if seat not in d["candidates"] or d["state"] in (FLOOR, REFLOOR):
        d["candidates"] = [c for c in d["candidates"] if c != seat]
        if d["state"] == DEFENCE:
            _defence_done_check(step)
        return
    index = d["candidates"].index(seat)
    d["candidates"] = [c for c in d["candidates"] if c != seat]
    if not d["candidates"]:                           # rules §5.2 [P]: back to the floor
        d.update(state=FLOOR, window=None, defence=[], ballots=[], ready=[],
                 floor_auto_s=d["options"]["refloor_auto_s"])
        step.event("back_to_floor")
        return
    if d["state"] == DEFENCE:
        _defence_done_check(step)
    elif d["state"] == VOTE:
        if index < d["window"]:
            d["window"] -= 1
        elif index == d["window"]:                    # his window is over; the next one opens
            _after_window(step)
