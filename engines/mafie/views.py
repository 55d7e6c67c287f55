"""What each screen may show of a game of Mafie (docs/rules/mafie.md A.4): built field by field
from the public state, plus the viewer's own secrets; never a copy of ``state["secret"]``."""

from __future__ import annotations

from engines.base import State
from engines.mafie import plot_cards as plot
from engines.mafie.base_game import _vote_view, outcome
from engines.mafie.moves import _action_types, _open_slots, legal_actions
from engines.mafie.setup import _partners
from engines.mafie.tables import APPROVALS_NEEDED, GAME_OVER, PLOT_DEAL, PLOT_WINDOW, fails_needed, team_size


# --------------------------------------------------------------------------------------------
# Views (rules A.4): built field by field from public state, plus the viewer's own secrets
# --------------------------------------------------------------------------------------------

def view(state: State, seat: int | None) -> dict:
    """What the TV (``seat`` None) or one phone may show now."""
    players, phase, slot = state["players"], state["phase"], state["slot"]
    secret = state["secret"]
    return {
        "ruleset": "mafie",
        "phase": phase,
        "turn": state["turn"],
        "players": players,
        "round": state["round"],
        "kmotr": state["kmotr"],
        "track": _track_view(state),
        "slot": slot,
        "team_size": team_size(players, slot) if slot else None,
        "fails_needed": fails_needed(players, slot) if slot else None,
        "open_slots": _open_slots(state),
        "team": list(state["team"]),
        "rejections": state["rejections"],
        "approvals_needed": APPROVALS_NEEDED[players],
        "ready": list(state["ready"]),
        "votes_cast": [voter for voter, ballot in enumerate(secret["ballots"])
                       if ballot is not None],
        "cards_played": [member for member in state["team"]
                         if secret["cards"][member] is not None],
        "last_vote": _vote_view(state["last_vote"]),
        "last_action": dict(state["last_action"]) if state["last_action"] else None,
        "vote_history": [_vote_view(record) for record in state["vote_history"]],
        "narration": [{"code": item["code"], "params": dict(item["params"])}
                      for item in state["narration"]],
        "options": dict(state["options"]),
        "roles": list(secret["roles"]) if phase == GAME_OVER else None,
        "outcome": outcome(state).to_json() if phase == GAME_OVER else None,
        "plot": plot.public_view(state["plot"]) if state["plot"] is not None else None,
        "window": ({"kind": state["window"]["kind"], "opened": state["window"]["opened"],
                    "asked": state["window"]["queue"][0] if state["window"]["queue"] else None}
                   if state["window"] else None),
        "spotlight": state["spotlight"],
        "opinion": ({"seats": list(state["opinion"]["seats"]),
                     "votes": [list(pair) for pair in state["opinion"]["votes"]]
                     if state["opinion"]["votes"] is not None else None}
                    if state["opinion"] else None),
        "inspected": list(state["inspected"]),
        # At the end the reveal lists what every plot card showed, and to whom.
        "plot_learnt": ([plot.learnt(secret["plot"], viewer) for viewer in range(players)]
                        if phase == GAME_OVER and state["plot"] is not None else None),
        "me": _me(state, seat) if seat is not None else None,
    }


def _track_view(state: State) -> list[dict]:
    players = state["players"]
    return [{"slot": slot, "team_size": team_size(players, slot),
             "fails_needed": fails_needed(players, slot),
             "result": entry["result"], "fails": entry["fails"]}
            for slot, entry in enumerate(state["track"], start=1)]


def _me(state: State, seat: int) -> dict:
    """The viewer's own secrets — never their cast vote or played card (a glance gives nothing)."""
    secret = state["secret"]
    me = {
        "seat": seat,
        "role": secret["roles"][seat],
        "partners": _partners(state, seat),
        "actions": _action_types(state, seat),
        "ready": seat in state["ready"],
        "voted": secret["ballots"][seat] is not None,
        "played": secret["cards"][seat] is not None,
        "on_team": seat in state["team"],
        "is_kmotr": seat == state["kmotr"],
        "plot_learnt": plot.learnt(secret["plot"], seat) if state["plot"] is not None else [],
    }
    if state["plot"] is not None:
        # The phone's plot buttons are exactly these (public facts and the seat's own place).
        me["plot_moves"] = legal_actions(state, seat) if state["phase"] in (PLOT_DEAL, PLOT_WINDOW) else []
    return me
