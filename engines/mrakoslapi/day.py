"""The Mrakošlapi day as a small state machine over a JSON ``day`` dict (rules §5, §6).

"rules §5.5" means ``docs/rules/mrakoslapi.md``; the Czech Mrakošlapi rulebook
("DEN", the day cards, "Den nemá význam když") is the
authority.  Pure functions: JSON in, JSON out, nothing here mutates its arguments, no clock.  The
web layer owns the timers of rules §5.2 and calls the transition a timer stands for
(``close_floor`` at ``T_floor_auto``/``T_floor_max``, ``defend(..., "timeout")``,
``open_votes`` after ``T_think``, ``close_window`` after ``T_vote``, ``close_sentence`` when the
≈10 s Astronom window closes).

The table (the night's shape, ``night.py``, extended; every new key optional)::

    {"night": d,                    # day d follows night d
     "players": [player, …],        # players.py records
     "pending_bobo": seat | None,   # set here too when a Duch Bobo holder dies by day
     "next_extra_mrak_no": 8,       # Kuskoňa/Gandalf gains are numbered 8, 9, … (rules §5.8)
     "quiet_cycles": 0,             # night+day cycles without a progress event (rules §6.3)
     "cycle_progress": bool | None} # did this cycle's night progress? (the engine sets it with
                                    #   ``progressed(players_before, players_after)``; None or
                                    #   absent counts as "yes"); reset to None at day end

The day (public: everything in it may be shown; secrets only travel in ``events``)::

    {"day": d, "state": "FLOOR", "round": 1, "options": {...},
     "accusations": [{"id": 1, "accuser": seat | None, "accused": seat, "claim": "SLINA",
                      "text": str | None}],     # standing ones only; accuser None = automatic
     "next_accusation_id": 2,
     "ready": [seat],                # pressed "Ready to vote" (FLOOR/REFLOOR)
     "candidates": [seat],           # this round's, frozen when the floor closes
     "defence": [seat],              # still to speak, head first (DEFENCE)
     "defended": [seat],             # had their defence turn today (offered, spoken or waived)
     "window": int | None,           # index into candidates of the open vote window (VOTE)
     "ballots": [{"voter", "candidate"}],   # this round, in the order received
     "rounds": [{"round", "candidates", "hands": [[seat, [voters]]], "result"}],
     "sentenced": seat | None, "sentence_voters": [seat],  # the deciding round's hands for him
     "floor_auto_s": None | 120,     # hint: restart T_floor_auto at 120 s (rules §5.2 [P])
     "progress": bool,               # a progress event happened today (rules §6.3)
     "seq": int}                     # deaths today, for ``died_in.t``

States: FLOOR → DEFENCE → THINK → VOTE → (SENTENCE | REFLOOR → DEFENCE … | END);
SENTENCE → END; any of FLOOR…SENTENCE → END by an Astronom; SKIPPED (rules §5.1);
GAME_OVER (rules §6).  END means "NIGHT_START(d + 1)".

Every transition returns a *step*::

    {"table": table, "day": day,
     "announce": [{"code", "params"}],      # the TV lines, rules §5.12, in order
     "events": [{"kind", "audience", …}],   # trace; audience "public" | "nobody" | [seats]
     "private": [{"seat", "code", "params"}],   # phone notices (a Kuskoňa/Gandalf gain)
     "result": None | {"reason", "winners", "ranking"}}     # rules §6.2, when the game ends

and an illegal move raises ``DayError`` (a ``ValueError``) with a stable ``code``.

Our decisions where the rules file is silent (rules §7 ids where one applies) — and the places
where the rulebook wins over the rules file — are listed in ``DECISIONS`` at the bottom.
"""

from __future__ import annotations

from typing import Any

from engines.base import working_copy
from engines.mrakoslapi import cards as C
from engines.mrakoslapi.night import night_has_meaning
from engines.mrakoslapi.players import ALIVE, FAKE_DEAD, Player, by_seat, copy_player, die

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
    seats = visible(step.table["players"])
    majority = 2 * len([s for s in step.day["ready"] if s in seats]) > len(seats)
    if majority and candidate_order(step.day["accusations"], seats):
        _close_floor(step)
    return step.done()


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


DECISIONS = """
Where the rules file (§5, §6, §7) is silent or where we follow the rulebook against it:

* Rulebook over the rules file — Anarchista "kdykoliv během dne" (any time of the day): the shot
  is also accepted during VOTE windows (A27 excludes them).  EXECUTE/AFTERMATH are one atomic
  transition here, so nothing can happen inside them anyway.  A voter shot dead mid-round loses
  his hand; a candidate shot dead loses his window and hands; if it was the open window, the next
  one opens (or the tally runs after the last).
* The TV's hands per candidate are in the order the server received them (D06 prints "Gita: Gita,
  Cyril"); the Masový vrah and the Kuskoňa/Gandalf gains go in seat order (rules §5.8).
* Accusations by a player who dies stay standing (only their author may withdraw them, and an
  accusation is a fact spoken to the table); accusations AGAINST a dead player disappear.
* Automatic accusations (rules §5.3, A35) are stored as accusations with ``accuser: None`` and
  ``claim: None``; nobody can withdraw them; they carry over to a re-vote like any other.
* REFLOOR closes like FLOOR: early by a "ready" majority, or by the web layer's ``T_refloor``
  timer via ``close_floor``; if no accusation stands then, everyone is accused (A35 again).
* "Newly added candidates" (rules §5.4) = candidates who had no defence turn yet today (spoken,
  waived, timed out or skipped as muted).
* The "ready" set is cleared whenever a floor closes; an accusation or withdrawal does not clear it.
* A defence timeout (``how="timeout"``) is the timer's move: no muted/visible check on the seat.
* An Astronom "NOC" is followed by "NIGHT falls." like every DAY_END (rules §5.2 ASTRONOM_NIGHT →
  DAY_END); a game that ends during the day says "game.over" instead of "NIGHT falls.".
* The Masový vrah's own voters who are no longer ALIVE when he retaliates are skipped (nothing to
  lose); he retaliates whether he lost a Mrakošlap or his life (rulebook).  Kuskoňa/Gandalf are
  read from the victim's hand at the sentence (a dead victim's cards are SURRENDERED).
* ``died_in`` of a day death is ``{"phase": "DAY", "number": d, "t": k}``, k = 1, 2, … in the
  order of the day's deaths.
* Stalemate guard (rules §6.3) runs at every DAY_END and after a skipped day; the next day is
  judged with a fake-dead Medik back in V (he returns at the next dawn).  The night's progress
  comes from ``table["cycle_progress"]`` (set by the engine with ``progressed``; unknown counts as
  progress, so the quiet-cycles guard never fires on missing data).
* ``day_has_meaning`` follows the rules file's formula (A30); the rulebook's fourth condition
  ("no other combination …") is not decidable in general and is left to the stalemate guard.
"""
