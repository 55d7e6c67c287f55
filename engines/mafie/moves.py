"""Mafie's moves: every action's way in (parsed, then handed to its chapter's handler on a
working copy), the host acting for an absent player (docs/rules/mafie.md §E.1), and whose move
it is and what they may do (rules A.2; A-Q13: the same kinds of action for every role)."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from math import comb
from typing import Any

from engines.base import (
    GAME_MASTER, HOST, PROXY, REMOVE_PLAYER, Action, Event, IllegalAction, MalformedAction, Result, State,
    handler_for, host_for, parse_proxy, parse_removal, proxied, proxy_moves, say, working_copy,
)
from engines.mafie import plot_cards as plot
from engines.mafie.base_game import _opinion_first, play_action_card, propose_team, ready, vote
from engines.mafie.plot_moves import (
    assign_plot_card, carry_out_plot_card, close_window, pass_plot, play_plot_card,
)
from engines.mafie.tables import (
    ACTION_PLAY, DETECTIVE_MEETING, FAIL, GAME_OVER, MAFIOSO, PLOT_DEAL, PLOT_WINDOW, SLOT5_SUCCESSES_NEEDED, SLOTS,
    SUCCESS, TEAM_SELECTION, TEAM_VOTE, _successes, team_size,
)

TEAM_SAMPLE_LIMIT = 256         # legal_actions lists at most this many crews per slot


# --------------------------------------------------------------------------------------------
# Parsing actions (structure only; the rules are checked by the chapters' handlers)
# --------------------------------------------------------------------------------------------

def _is_int(value: Any) -> bool:
    return type(value) is int


def _no_fields(action: Action) -> None:
    pass


def _parse_propose_team(action: Action) -> None:
    team = action.get("team")
    if not isinstance(team, list) or not all(_is_int(seat) for seat in team):
        raise MalformedAction("bad_team", "A crew is a list of seat numbers")
    slot = action.get("slot")
    if slot is not None and not _is_int(slot):
        raise MalformedAction("bad_slot", "A slot is an action number")


def _parse_vote(action: Action) -> None:
    if not isinstance(action.get("approve"), bool):
        raise MalformedAction("bad_vote", "A vote is approve: true or false")


def _parse_play_action_card(action: Action) -> None:
    if action.get("card") not in (SUCCESS, FAIL):
        raise MalformedAction("bad_card", "Play either success or fail")


def _parse_assign_plot_card(action: Action) -> None:
    if not _is_int(action.get("card")) or not _is_int(action.get("to")):
        raise MalformedAction("bad_plot_deal", "Hand out a drawn card (its number) to a seat")


def _parse_play_plot_card(action: Action) -> None:
    if not _is_int(action.get("card")) or not (action.get("target") is None or _is_int(action["target"])):
        raise MalformedAction("bad_plot_play", "Play a plot card you hold (and name a crew member)")


def _parse_plot_choice(action: Action) -> None:
    if not _is_int(action.get("target")) or ("card" in action and not _is_int(action["card"])):
        raise MalformedAction("bad_target", "Pick a player at this table")


# --------------------------------------------------------------------------------------------
# The host acting for a player whose phone is gone (engines/base.py; docs/rules/mafie.md §E.1)
# --------------------------------------------------------------------------------------------

def _public_choice(action: Action) -> bool:
    """What the host may choose for a seat (rules A-Q15: "host may … vote by proxy on the host
    phone (operational, not a rule)"): the crew vote, whose cards are turned face up for all
    (Hlasování o týmu), and the detective meeting's "I'm ready", which tells nothing.  Never an
    action card or a plot card (secret), nor the Kmotr's crew (his own plan)."""
    return action["type"] in ("vote", "ready")


def proxy(state: State, seat: int | None, action: Action) -> Result:
    """The host makes a public choice for a seat; a vote stays secret until the last is in."""
    target, inner = proxied(state, seat, action, legal_actions, _public_choice)
    say(state, "proxy_vote" if inner["type"] == "vote" else "proxy_ready", seat=target)
    state, events = _ACTIONS[inner["type"]][1](state, target, inner)
    return Result(state, [Event("proxied", {"seat": target, "type": inner["type"]}), *events])


def host_proxy_moves(state: State) -> dict[int, list[Action]]:
    if state["phase"] not in (DETECTIVE_MEETING, TEAM_VOTE):   # no public choice is awaited
        return {}
    return proxy_moves(state, legal_actions, _public_choice, waiting_for(state))


def removable(state: State) -> list[int]:
    """Nobody: Mafie (The Resistance) has no elimination — see ``remove_player``."""
    return []


def remove_player(state: State, seat: int | None, action: Action) -> Result:
    """Refused: the rulebook takes nobody out of the game — every player is on every vote, a
    crew needs a fixed number of players (the table by player count), and the mafia's number
    is part of the deal; a seat cannot go without changing the game.  Our decision
    (docs/rules/mafie.md §E.1): the host votes for an absent player, or ends the game."""
    host_for(state, seat, action)
    raise IllegalAction("no_removal", "Nobody leaves a game of Mafie: vote for the player, or end the game")


# --------------------------------------------------------------------------------------------
# Every action's way in: parsed, then its handler works on a copy
# --------------------------------------------------------------------------------------------

_ACTIONS = {
    "ready": (_no_fields, ready),
    "propose_team": (_parse_propose_team, propose_team),
    "vote": (_parse_vote, vote),
    "play_action_card": (_parse_play_action_card, play_action_card),
    "assign_plot_card": (_parse_assign_plot_card, assign_plot_card),
    "play_plot_card": (_parse_play_plot_card, play_plot_card),
    "close_window": (_no_fields, close_window),
    "pass_plot": (_no_fields, pass_plot),
    **{verb: (_parse_plot_choice, carry_out_plot_card) for verb in plot.VERBS.values()},
    PROXY: (parse_proxy, proxy),
    REMOVE_PLAYER: (parse_removal, remove_player),
}

def apply(state: State, seat: int | None, action: Action) -> Result:
    """Apply ``seat``'s action to a copy of ``state``; raise and change nothing if it is bad.
    Every handler works on that copy (``working_copy``): the input is never touched."""
    handler = handler_for(_ACTIONS, state, seat, action, over=state["phase"] == GAME_OVER)
    if seat is GAME_MASTER and handler is not close_window:
        raise IllegalAction("not_your_turn", "The game master has nothing to do here")
    if seat == HOST and handler not in (proxy, remove_player):
        raise IllegalAction("not_your_turn", "The host has nothing to do here")
    return handler(working_copy(state), seat, action)


# --------------------------------------------------------------------------------------------
# Whose move
# --------------------------------------------------------------------------------------------

def waiting_for(state: State) -> list[int]:
    """Seats whose input the game awaits now."""
    phase, players = state["phase"], state["players"]
    if phase == DETECTIVE_MEETING:
        return [seat for seat in range(players) if seat not in state["ready"]]
    if phase == TEAM_SELECTION:
        return [state["kmotr"]]
    if phase == TEAM_VOTE:
        first = state["opinion"]["seats"] if _opinion_first(state) else range(players)
        return [seat for seat in first if state["secret"]["ballots"][seat] is None]
    if phase == ACTION_PLAY:
        cards = state["secret"]["cards"]
        return [seat for seat in state["team"] if cards[seat] is None]
    if phase == PLOT_DEAL:
        return plot.waiting(state["plot"], state["kmotr"])
    if phase == PLOT_WINDOW:
        return state["window"]["queue"][:1]
    return []


def _action_types(state: State, seat: int | None) -> list[str]:
    """The kinds of action ``seat`` may take now (the same for every role: rules A-Q13)."""
    if seat is None or seat not in waiting_for(state):
        return []
    if state["phase"] == PLOT_DEAL:
        pending = state["plot"]["pending"]
        return [plot.VERBS[pending["card"]] if pending else "assign_plot_card"]
    if state["phase"] == PLOT_WINDOW:
        return ["play_plot_card", "pass_plot"]
    return [{DETECTIVE_MEETING: "ready", TEAM_SELECTION: "propose_team", TEAM_VOTE: "vote",
             ACTION_PLAY: "play_action_card"}[state["phase"]]]


def legal_actions(state: State, seat: int | None) -> list[Action]:
    """Every action ``seat`` may apply now (crews: see ``TEAM_SAMPLE_LIMIT``)."""
    if seat == HOST:   # the host has no buttons of its own in Mafie (proxies: proxy_moves)
        return []
    if seat is GAME_MASTER:   # the game master: only a finished reaction window to close
        closing = state["phase"] == PLOT_WINDOW and not state["window"]["queue"]
        return [{"type": "close_window"}] if closing else []
    types = _action_types(state, seat)
    if not types:
        return []
    kind = types[0]
    if state["phase"] == PLOT_DEAL:
        return plot.legal(state["plot"], kmotr=state["kmotr"], seat=seat, players=state["players"])
    if state["phase"] == PLOT_WINDOW:
        return _window_moves(state, seat)
    if kind == "ready":
        return [{"type": "ready"}]
    if kind == "vote":
        return [{"type": "vote", "approve": True}, {"type": "vote", "approve": False}]
    if kind == "play_action_card":
        if state["secret"]["roles"][seat] == MAFIOSO:
            return [{"type": "play_action_card", "card": SUCCESS}]
        return [{"type": "play_action_card", "card": card} for card in (SUCCESS, FAIL)]
    return [{"type": "propose_team", "team": list(team), "slot": slot}
            for slot in _open_slots(state) or [state["round"]]
            for team in _crews(state["players"], team_size(state["players"], slot))]


def _window_moves(state: State, seat: int) -> list[Action]:
    held = plot.holding(state["plot"], seat, plot.WINDOWS[state["window"]["kind"]])
    plays = [{"type": "play_plot_card", "card": held["id"]}]
    if held["card"] == "in_the_spotlight":
        plays = [{**plays[0], "target": member} for member in state["team"]]
    elif held["card"] == "keeping_close_eye":
        plays = [{**plays[0], "target": member} for member in state["team"]
                 if member != seat and member not in state["inspected"]]
    return [*plays, {"type": "pass_plot"}]


def _open_slots(state: State) -> list[int]:
    """Slots the Kmotr may choose now (targeting only; rules A.3.1)."""
    if not state["options"]["targeting"] or state["phase"] != TEAM_SELECTION:
        return []
    unlocked = _successes(state) >= SLOT5_SUCCESSES_NEEDED
    return [slot for slot in range(1, SLOTS + 1)
            if state["track"][slot - 1]["result"] is None and (slot < SLOTS or unlocked)]


@lru_cache(maxsize=None)
def _crews(players: int, size: int) -> tuple[tuple[int, ...], ...]:
    """All crews of ``size``, or an evenly spread deterministic subset of TEAM_SAMPLE_LIMIT."""
    crews = tuple(combinations(range(players), size))
    total = comb(players, size)
    if total <= TEAM_SAMPLE_LIMIT:
        return crews
    return tuple(crews[index * total // TEAM_SAMPLE_LIMIT] for index in range(TEAM_SAMPLE_LIMIT))


def host_moves(state: State) -> list[Action]:
    """Mafie's host has no buttons of its own: the game master's clock closes the windows."""
    return []
