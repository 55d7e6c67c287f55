"""The host acting for a player whose phone is gone (engines/base.py; docs/rules/classic-mafia.md
§E.2): a day vote cast for him, or the player removed (rules B.2.3, cheating).
"""

from __future__ import annotations

from engines.base import Action, Event, IllegalAction, Result, State, host_for, proxied, proxy_moves, say
from engines.classic import night as night_rules
from engines.classic import cards as C
from engines.classic.day import _after_last_shot, _begin_vote, _continue, _drop_from_day, vote
from engines.classic.moves import legal_actions, waiting_for
from engines.classic.night_steps import _step_done
from engines.classic.table import (
    AFTER_LYNCH, DEFENCE, GAME_OVER, LAST_SHOT, LEADER_PICK, MAFIA_STEP, NIGHT_STEPS, RE_DISCUSSION,
    REMOVED, VOTES, _alive, _eliminate, _living, _mafiosi, _night, _rule, _secret,
)


def _public_choice(action: Action) -> bool:
    """What the host may choose for a seat: a day vote, public by name anyway (rules §0,
    "votes are public by name") — never the judge's double vote (it would show his card) nor
    anything at night (a secret, and the night's clock ends the step without it)."""
    return action["type"] == "vote" and not action.get("double")


def proxy(state: State, seat: int | None, action: Action) -> Result:
    """The host votes for a player (operational, not a rule): exactly a vote that player may
    cast now; like his own, it stays secret until the last vote is in."""
    target, inner = proxied(state, seat, action, legal_actions, _public_choice)
    say(state, "proxy_vote", seat=target)
    state, events = vote(state, target, inner)
    return Result(state, [Event("proxied", {"seat": target, "type": inner["type"]}), *events])


def host_proxy_moves(state: State) -> dict[int, list[Action]]:
    """The votes the host may cast for each seat that has still to vote (none at night)."""
    if state["phase"] not in VOTES:
        return {}
    return proxy_moves(state, legal_actions, _public_choice, waiting_for(state))


def removable(state: State) -> list[int]:
    """Whom the host may remove: any living player, at any moment of a running game."""
    return [] if state["phase"] == GAME_OVER else _living(state)


def remove_player(state: State, seat: int | None, action: Action) -> Result:
    """REMOVE_FOR_CHEATING (rules B.2.3: "Cheating (peeking) → the GM removes the player at
    once"; GRANNA: "Гравець, якого зловили за порушення правил, одразу виключається з гри
    Магістром"): out with the token face up, then the win check; whatever the player still
    had to do, or had done that is not yet public, is void."""
    target = host_for(state, seat, action)
    if not _alive(state, target):
        raise IllegalAction("target_dead", "Pick a player still in the game")
    events: list[Event] = []
    if _eliminate(state, events, target, REMOVED, "removed"):
        return Result(state, events)
    phase = state["phase"]
    if phase in NIGHT_STEPS:
        _void_at_night(state, target)
    elif phase in VOTES:
        # Votes stay secret until the last one (rules §0): a vote for or by the removed player
        # cannot be taken back alone without showing whose it was, so the vote starts afresh.
        ballot = [other for other in state["vote"]["ballot"] if other != target]
        _begin_vote(state, events, state["vote"]["kind"], ballot)
    elif phase in (DEFENCE, RE_DISCUSSION):
        if not _drop_from_day(state, target):
            _continue(state, events, AFTER_LYNCH)       # nobody left to vote on today
    elif phase == LEADER_PICK:
        # the Leader passed on at his removal (table._cards_at_death); a tied player leaves the pick
        tied = [other for other in state["cards"]["leader_pick"]["tied"] if other != target]
        state["cards"] = {**state["cards"], "leader_pick": {"tied": tied}}
        state["tied"] = list(tied)
    elif phase == LAST_SHOT and state["last_shot"]["shooter"] == target:
        events.append(Event("shot_skipped", {"shooter": target}))
        _after_last_shot(state, events, state["last_shot"]["then"])
    if C.extended(state) and phase != GAME_OVER:
        # a play of his waiting for its window's end is void (windows.py reads only the living's)
        pending = list(state["secret"]["cards"]["pending"])
        pending[target] = None
        _secret(state, cards={**state["secret"]["cards"], "pending": pending})
    return Result(state, events)


def _void_at_night(state: State, seat: int) -> None:
    """Tonight without the removed player: his picks and the picks at him go, a victim or a
    caught agent who is already out does not die again at dawn, a spell on him or by him fails.
    A step he alone had to act in ends by its clock, as an empty step does (no tell)."""
    tonight = state["secret"]["night"]
    picks = [None if voter == seat or target == seat else target for voter, target in enumerate(tonight["picks"])]
    swap = tonight["swap"]
    changes = {"picks": picks,
               "victim": None if tonight["victim"] == seat else tonight["victim"],
               "caught": None if tonight["caught"] == seat else tonight["caught"],
               "swap": None if swap and seat in (swap["wizard"], *swap["targets"]) else swap}
    if tonight["locked"] is not None and tonight["locked"] == seat:
        changes["locked"] = None
        state["step_done"] = False
        state["clock"] = {**state["clock"], "seconds": int(_rule(state, "deadline_seconds"))}
    _night(state, **changes)
    if state["phase"] == MAFIA_STEP and not state["step_done"]:
        agreed = night_rules.unanimous(picks, _mafiosi(state))   # the others may agree already
        if agreed is not None:
            _night(state, locked=agreed)
            _step_done(state)
