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

The modules, in the rulebook's order (the chapters share ``states`` and ``end``; §5.9 also
reads ``floor`` and ``votes``; no module imports one that imports it):

* ``states``    the states, codes and reasons; what the rules read of the table; a transition's
                working copy.
* ``floor``     §5.1 the day start, §5.3 the floor, §5.4 the defences and the time to think.
* ``votes``     §5.5 the vote and the tally.
* ``sentence``  §5.6 the sentence and the Astronom, §5.7 the execution, §5.8 its aftermath.
* ``anytime``   §5.9 the Anarchista, the host's removal, a death mid-day.
* ``end``       the life units, deaths, the end of the day and of the game (§6).
"""

from engines.mrakoslapi.day.anytime import anarchist_shot, remove
from engines.mrakoslapi.day.end import result
from engines.mrakoslapi.day.floor import accuse, close_floor, defend, open_votes, ready, start_day, withdraw
from engines.mrakoslapi.day.sentence import astronom, close_sentence
from engines.mrakoslapi.day.states import (
    ALL_DEAD, ANARCHIST, AUTO_ACCUSE, DAY_END, DEFAULT_OPTIONS, DEFENCE, DEFENCE_WAYS, DIED, END,
    ESCAPED, ESCAPED_OUTCOME, FLOOR, GAINED, GAME_OVER, GAME_OVER_LINE, HANDS, KILLED, LAST_ALIVE,
    LIFE_LOST, MASS_MURDERER, MRAK, NIGHT_CALL, NO_EXEC, OPEN_STATES, REFLOOR, REMOVED, SENTENCE,
    SENTENCED, SKIPPED, SKIPPED_LINE, STALEMATE_NO_MEANING, STALEMATE_QUIET, THINK, TIE, VOTE,
    DayError, Line, Step, candidate_order, day_has_meaning, game_alive, is_muted, line, progressed,
    visible, weight,
)
from engines.mrakoslapi.day.votes import close_window, vote

__all__ = [
    "ALL_DEAD", "ANARCHIST", "AUTO_ACCUSE", "DAY_END", "DECISIONS", "DEFAULT_OPTIONS", "DEFENCE",
    "DEFENCE_WAYS", "DIED", "END", "ESCAPED", "ESCAPED_OUTCOME", "FLOOR", "GAINED", "GAME_OVER",
    "GAME_OVER_LINE", "HANDS", "KILLED", "LAST_ALIVE", "LIFE_LOST", "MASS_MURDERER", "MRAK",
    "NIGHT_CALL", "NO_EXEC", "OPEN_STATES", "REFLOOR", "REMOVED", "SENTENCE", "SENTENCED", "SKIPPED",
    "SKIPPED_LINE", "STALEMATE_NO_MEANING", "STALEMATE_QUIET", "THINK", "TIE", "VOTE", "DayError",
    "Line", "Step", "accuse", "anarchist_shot", "astronom", "candidate_order", "close_floor",
    "close_sentence", "close_window", "day_has_meaning", "defend", "game_alive", "is_muted", "line",
    "open_votes", "progressed", "ready", "remove", "result", "start_day", "visible", "vote", "weight",
    "withdraw",
]

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
  A floor closes when both conditions of rules §5.2 hold, whichever comes true last: the last
  "ready" of a majority with an accusation standing, or the first accusation after a majority
  is ready.
* The host may end the discussion at any moment of FLOOR or REFLOOR: the rulebook's "about five
  minutes" (``T_floor_auto``) is the game master's judgement.  It is ``close_floor`` made now:
  with an accusation standing the floor closes, with none everyone is accused.
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
