"""The Mrakošlapi sentence: the Astronom's window and his "NOC!" (rules §5.6, §5.9), the
execution (§5.7) and its aftermath — the Kuskoňa/Gandalf gains, then the Masový vrah (§5.8).

"rules §5.5" means ``docs/rules/mrakoslapi.md``; the package ``engines.mrakoslapi.day`` says what
a table, a day and a step are.  Names with a leading underscore are this package's own.
"""

from __future__ import annotations

from typing import Any

from engines.mrakoslapi import cards as C
from engines.mrakoslapi.day.end import _end_day, _game_over_check, _hit, _lose_life, _set
from engines.mrakoslapi.day.states import (
    DIED, ESCAPED, ESCAPED_OUTCOME, GAINED, LIFE_LOST, MASS_MURDERER, MRAK, NIGHT_CALL, OPEN_STATES,
    SENTENCE, Step, _actor, _begin, _refuse, _Step,
)
from engines.mrakoslapi.players import ALIVE


# --------------------------------------------------------------------------------------------
# §5.6 Sentence and the Astronom window; §5.9 Astronom "NOC" at any time
# --------------------------------------------------------------------------------------------

def astronom(table: dict[str, Any], day: dict[str, Any], seat: int) -> Step:
    """"NOC!" (rules §5.6, §5.9): any READY Astronom holder in V, muted or not, in FLOOR …
    SENTENCE.  His lowest READY Astronom is SPENT, everything pending is discarded, the day ends;
    a sentenced player escapes (nothing of §5.8 happens).  With ``astronom_can_save_others``
    false, during SENTENCE only the condemned may call it."""
    step = _begin(table, day, OPEN_STATES)
    player = _actor(step, seat)
    _refuse(not C.holds(player["cards"], C.ASTRONOM), "no_astronom",
            f"seat {seat} holds no READY Astronom")
    d = step.day
    _refuse(d["state"] == SENTENCE and not d["options"]["astronom_can_save_others"]
            and seat != d["sentenced"], "not_sentenced", "only the condemned may call NOC now")
    no = C.numbers(player["cards"], C.ASTRONOM)[0]
    _set(step, seat, C.ASTRONOM, no, C.SPENT)
    caller = seat if d["options"]["reveal_astronom_caller"] else None
    step.say(NIGHT_CALL, caller=caller)
    step.event("astronom", seat=seat, no=no, state=d["state"], saved=d["sentenced"])
    _end_day(step)
    return step.done()


def close_sentence(table: dict[str, Any], day: dict[str, Any]) -> Step:
    """The Astronom window closed without a valid NOC ("pakliže na svou funkci zapomene, je
    popraven"): EXECUTE and AFTERMATH, atomically (rules §5.7, §5.8), then the end of the day."""
    step = _begin(table, day, (SENTENCE,))
    x = step.day["sentenced"]
    outcome = _execute(step, x)
    if outcome != ESCAPED_OUTCOME:
        _aftermath(step, x, step.day["sentence_voters"])
    if step.result is None:
        _end_day(step)
    return step.done()


def _execute(step: _Step, x: int) -> str:
    """rules §5.7 (A24): Provazochodec, else the lowest Mrakošlap, else the life."""
    player = step.players[x]
    escapes = C.numbers(player["cards"], C.PROVAZOCHODEC)
    if escapes:
        _set(step, x, C.PROVAZOCHODEC, escapes[0], C.SPENT)
        step.say(ESCAPED, seat=x)
        step.event("execute", seat=x, outcome=ESCAPED_OUTCOME, no=escapes[0])
        return ESCAPED_OUTCOME
    outcome = _lose_life(step, x, "rope")
    step.event("execute", seat=x, outcome=outcome)
    return outcome


def _aftermath(step: _Step, x: int, voters: list[int]) -> None:
    """rules §5.8, only after LIFE_LOST or KILLED.  Step 1: Kuskoňa/Gandalf gains (private,
    seat order, A29); step 2: the Masový vrah shoots his other voters (seat order; announced
    numbers ascending, then names, rules §5.8); step 3: the end-of-game test."""
    victim = step.players[x]
    # The victim's hand as it was when he was sentenced (a dead man's cards are SURRENDERED now).
    victim_holds = {t for t in (C.KUSKONA, C.GANDALF, C.MASOVY_VRAH)
                    if any(c["type"] == t for c in victim["cards"])}
    for v in sorted(voters):
        voter = step.players[v]
        if voter["status"] != ALIVE:
            continue
        if ((C.holds(voter["cards"], C.KUSKONA) and C.GANDALF in victim_holds)
                or (C.holds(voter["cards"], C.GANDALF) and C.KUSKONA in victim_holds)):
            no = step.table.get("next_extra_mrak_no", C.EXTRA_MRAKOSLAP_FIRST_NO)
            step.table["next_extra_mrak_no"] = no + 1
            step.table["players"] = [
                {**p, "cards": p["cards"] + [C.card(C.MRAKOSLAP, no)]} if p["seat"] == v else p
                for p in step.table["players"]]
            step.day["progress"] = True
            step.private.append({"seat": v, "code": GAINED, "params": {"no": no}})
            step.event("gain", audience=[v], seat=v, no=no)
    if C.MASOVY_VRAH in victim_holds:
        step.say(MASS_MURDERER, seat=x)
        step.event("mass_murderer", seat=x)
        mraks, names = [], []
        for v in sorted(set(voters) - {x}):                       # A28: never himself
            if step.players[v]["status"] != ALIVE:
                continue
            outcome, no = _hit(step, v, "mass_murderer")
            if outcome == LIFE_LOST:
                mraks.append(no)
            else:
                names.append(v)
        for no in sorted(mraks):
            step.say(MRAK, no=no)
        for v in names:
            step.say(DIED, seat=v)
    _game_over_check(step)
