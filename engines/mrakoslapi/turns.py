"""Whose move it is in Mrakošlapi: the seats awaited, each one's legal moves at night (rules
§4.2) and by day (§5.3–§5.9), the clock's move, the host's (ending the discussion), and the outcome (§6.2).

"rules §4.2" means ``docs/rules/mrakoslapi.md``; ``engines/mrakoslapi/engine.py`` says what the
state holds.  Names with a leading underscore are this package's own.
"""

from __future__ import annotations

from engines.base import GAME_MASTER, HOST, Action, Outcome, State
from engines.mrakoslapi import cards as C
from engines.mrakoslapi import day as D
from engines.mrakoslapi.players import by_seat
from engines.mrakoslapi.state import DAY, NIGHT, OVER, _players, _visible


# --------------------------------------------------------------------------------------------
# Whose move
# --------------------------------------------------------------------------------------------

def waiting_for(state: State) -> list[int]:
    """Seats whose input the game awaits (for the server, never for a screen)."""
    if state["phase"] == NIGHT:
        night = state["secret"]["night"]
        return [s for s in night["awake"] if s not in night["confirmed"]]
    if state["phase"] != DAY:
        return []
    d, visible = state["day"], _visible(state)
    if d["state"] in (D.FLOOR, D.REFLOOR):
        return [s for s in visible if s not in d["ready"]]
    if d["state"] == D.DEFENCE:
        return [d["defence"][0]]
    if d["state"] == D.VOTE:
        return [s for s in visible if _vote_moves(state, s)]
    return []


def _vote_moves(state: State, seat: int) -> list[Action]:
    d = state["day"]
    candidate = d["candidates"][d["window"]]
    if d["options"]["votes_per_player"] == 1:
        voted = any(b["voter"] == seat for b in d["ballots"])
    else:
        voted = any(b["voter"] == seat and b["candidate"] == candidate for b in d["ballots"])
    return [] if voted else [{"type": "vote", "candidate": candidate}]


def legal_actions(state: State, seat: int | None) -> list[Action]:
    if state["phase"] == OVER:
        return []
    if seat == HOST:
        return host_moves(state)
    if seat is GAME_MASTER:
        return [dict(state["clock"]["move"])] if state["clock"] else []
    if state["phase"] == NIGHT:
        return _night_moves(state, seat)
    return _day_moves(state, seat)


def _night_moves(state: State, seat: int) -> list[Action]:
    night = state["secret"]["night"]
    if seat not in night["awake"] or seat in night["confirmed"]:
        return []
    visible = _visible(state)
    moves: list[Action] = []
    for p in night["prompts"][seat]:
        if p["disabled"]:
            continue
        card, no = p["card"], p["no"]
        if card == C.MAFIAN:
            moves += [{"type": "mafia_target", "target": t} for t in visible]
        elif card == C.SILENY_STRELEC:
            moves += [{"type": "gunman_target", "no": no, "target": t} for t in visible]
        elif card == C.MAG:
            moves += [{"type": "tunnel", "no": no, "from": a, "to": b}
                      for a in visible for b in visible if a != b]
        elif card == C.SLINA:
            moves += [{"type": "slime", "no": no, "target": t} for t in visible]
        elif card == C.EXHIBICIONISTA:
            moves += [{"type": "exhibit", "no": no, "target": t} for t in visible]
        elif card == C.MEDIK:
            moves += [{"type": "medik", "use": True}, {"type": "medik", "use": False}]
        elif card == C.DUCH_BOBO:
            moves += [{"type": "bobo", "target": t} for t in visible]
        if card in (C.MAG, C.SLINA, C.EXHIBICIONISTA, C.DUCH_BOBO):
            moves.append({"type": "pass", "card": card, "no": no})
    return moves + [{"type": "done"}]


def _day_moves(state: State, seat: int) -> list[Action]:
    d, visible = state["day"], _visible(state)
    if seat not in visible or d["state"] not in D.OPEN_STATES:
        return []
    player = by_seat(_players(state))[seat]
    muted = D.is_muted(player, d["day"])
    moves: list[Action] = []
    st = d["state"]
    if st in (D.FLOOR, D.REFLOOR):
        if not muted:
            if any(a["accuser"] == seat for a in d["accusations"]):
                moves.append({"type": "withdraw"})
            else:
                moves += [{"type": "accuse", "target": t, "claim": claim}
                          for t in visible for claim in C.CARD_TYPES]
        if seat not in d["ready"]:
            moves.append({"type": "ready"})
    elif st == D.DEFENCE and d["defence"][0] == seat and not muted:
        moves += [{"type": "defend", "how": "spoke"}, {"type": "defend", "how": "waived"}]
    elif st == D.VOTE:
        moves += _vote_moves(state, seat)
    if C.holds(player["cards"], C.ASTRONOM) and not (
            st == D.SENTENCE and not d["options"]["astronom_can_save_others"]
            and seat != d["sentenced"]):
        moves.append({"type": "astronom"})
    if C.holds(player["cards"], C.ANARCHISTA) and not muted:
        moves += [{"type": "anarchist_shot", "target": t} for t in visible if t != seat]
    return moves


def outcome(state: State) -> Outcome | None:
    result = state["result"]
    if state["phase"] != OVER or result is None:
        return None
    winners = tuple(result["winners"])
    return Outcome("last_alive" if len(winners) == 1 and result["reason"] == D.LAST_ALIVE
                   else "shared", result["reason"], winners)


def roles(state: State) -> list[str]:
    """Everyone plays for themselves, no teams (rules §0.2): no roles, every seat is a "player"
    (a hand of cards is not a role; the statistics count games and wins)."""
    return ["player"] * state["players"]


END_DISCUSSION: Action = {"type": "end_discussion"}


def host_moves(state: State) -> list[Action]:
    """The host's one button: end the discussion now, on the floor or the re-floor.  The
    rulebook's "about five minutes" (rules §5.2, ``T_floor_auto``) is the game master's
    judgement, and with an accusation standing a table that has talked enough must not wait out
    ``T_floor_max`` (§11.3, "Ending the discussion").  Every other step ends by its clock."""
    if state["phase"] == DAY and state["day"]["state"] in (D.FLOOR, D.REFLOOR):
        return [dict(END_DISCUSSION)]
    return []
