"""Whose move it is in classic Mafia: the seats the game awaits, the host's buttons, and every
action an actor may apply now (engines/base.py's ``waiting_for``, ``host_moves``,
``legal_actions``).
"""

from __future__ import annotations

from itertools import combinations

from engines.base import GAME_MASTER, HOST, Action, State
from engines.classic import cards as C
from engines.classic import roles as R
from engines.classic.day import _next_voter, _voters
from engines.classic.night_steps import _actors, _mafia_targets, _recruits, _swap_targets
from engines.classic.table import (
    AGENT_STEP, DEFENCE, DISCUSSION, DOCTOR_STEP, END_DEFENCE, END_DISCUSSION, GAME_OVER, LAST_SHOT,
    LEADER_PICK, MAFIA_STEP, NIGHT_STEPS, RE_DISCUSSION, VOTE, VOTES, WIZARD_STEP, _living, _rule,
)
from engines.classic.windows import awaited, card_moves


def waiting_for(state: State) -> list[int]:
    """Seats whose input the game awaits now (secret: never show it on the TV at night, nor
    in a card window, where it names the seats that hold a card to play)."""
    phase = state["phase"]
    if phase in NIGHT_STEPS:
        if state["step_done"] or (phase == MAFIA_STEP and not _mafia_targets(state)):
            return []   # (cards protect every player left, or the New Gang's mafiosi are awake too)
        return sorted(_actors(state))
    if phase in VOTES:
        turn = _next_voter(state)
        if turn is not None:
            return [turn]
        ballots = state["secret"]["ballots"]
        return [seat for seat in _voters(state) if ballots[seat] is None]
    if phase == LAST_SHOT:
        return [state["last_shot"]["shooter"]]
    if phase == LEADER_PICK:
        return [state["cards"]["leader"]]
    return awaited(state)


def host_moves(state: State) -> list[Action]:
    """The host's buttons (never the clock's ``timeout``)."""
    if state["phase"] in (DISCUSSION, RE_DISCUSSION):
        return [dict(END_DISCUSSION)]
    if state["phase"] == DEFENCE:
        return [dict(END_DEFENCE)]
    return []


def legal_actions(state: State, seat: int | str | None) -> list[Action]:
    """Every action ``seat`` may apply now (the game master: its clock's move; the host: its
    buttons)."""
    if state["phase"] == GAME_OVER:
        return []
    if seat is GAME_MASTER:
        return [dict(state["clock"]["move"])] if state["clock"] else []
    if seat == HOST:
        return host_moves(state)
    if type(seat) is not int or not 0 <= seat < state["players"]:
        return []
    cards = card_moves(state, seat)      # the action cards' plays (windows.py)
    if seat not in waiting_for(state):
        return cards
    return _moves(state, seat) + cards


def _moves(state: State, seat: int) -> list[Action]:
    """An awaited seat's moves besides its card plays."""
    phase = state["phase"]
    if phase not in NIGHT_STEPS + VOTES + (LAST_SHOT, LEADER_PICK):
        return []
    if phase == AGENT_STEP:
        moves = [{"type": "check", "target": target} for target in _living(state) if target != seat]
        return moves + ([{"type": "skip_check"}] if _rule(state, "agent_check_optional") else [])
    if phase == DOCTOR_STEP:
        self_ok = _rule(state, "doctor_self_heal")
        return [{"type": "heal", "target": target} for target in _living(state)
                if self_ok or target != seat] + [{"type": "skip_heal"}]
    if phase == MAFIA_STEP:
        return [{"type": "pick_victim", "target": target} for target in _mafia_targets(state)] + [
            {"type": "play_card", "card": "recruitment", "target": target} for target in _recruits(state, seat)]
    if phase == WIZARD_STEP:
        return [{"type": "cast_swap", "targets": [first, second]}
                for first, second in combinations(_swap_targets(state), 2)] + [{"type": "skip_swap"}]
    if phase == LAST_SHOT:
        moves = [{"type": "last_shot", "target": target} for target in _living(state)
                 if target not in C.badges(state, "untouchable")]
        return moves + ([{"type": "skip_last_shot"}] if state["last_shot"]["optional"] else [])
    if phase == LEADER_PICK:
        return [{"type": "leader_pick", "target": target} for target in state["cards"]["leader_pick"]["tied"]]
    # a vote
    kind = state["vote"]["kind"]
    ballot = [target for target in state["vote"]["ballot"] if kind != VOTE or target != seat]
    moves = [{"type": "vote", "target": target} for target in ballot]
    if state["secret"]["roles"][seat] == R.JUDGE and not state["judge_used"]:
        moves += [{"type": "vote", "target": target, "double": True} for target in ballot]
    return moves
