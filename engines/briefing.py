"""Before the first timed step, everybody looks at their role.

A game starts with every player's card dealt face down; the first night (or the first timed
step of any ruleset) must not start its clock while somebody is still reading their card.  So
every game opens with a briefing: each phone confirms "I have seen my role" (``SEEN``), and
the game's clock is held until the last one does, or until the host goes on without them
(``GO_ON``: a player who stepped away must not stall the table).  Our decision, the same in
every ruleset (docs/rules/*.md, "Before the first night").

This is a layer over any engine, ``briefed(engine)``, not a part of each: the engine underneath
plays exactly as it always did and always sees its own clock.  The layer only hides that clock
from the outside (``state["clock"]`` is None, so the game master cannot move and no screen counts
down) while ``state["briefing"]`` holds it, and hands it back when the briefing ends — the web
layer then starts it afresh (services.clock_started: a clock that appears is new).  Players may
act meanwhile (a mafioso who has seen his card may choose); only time stands still.  If their
moves end the game before everyone has looked, the briefing ends with it: a finished game awaits
nobody and offers nobody a move, the host's "go on" included.
"""

from __future__ import annotations

import dataclasses

from engines.base import (GAME_MASTER, HOST, PUBLIC, Action, Actor, Engine, Event, IllegalAction,
                          MalformedAction, Option, Result, State)

# Every new game has it (its options are complete when it starts: resolve_options); a game
# stored before briefings existed has no such key, so its replay plays without one.  Not a
# host's choice: the briefing is how every game opens.
BRIEFING = Option("briefing", True, offered=False)
SEEN: Action = {"type": "seen_role"}
GO_ON: Action = {"type": "go_on"}


def briefed(engine: Engine) -> Engine:
    """``engine`` with a briefing before its first clock (the module's docstring)."""
    if not isinstance(engine, Engine):
        raise TypeError(f"ruleset {getattr(engine, 'slug', engine)!r}: wrap its functions in engines.base.Engine")

    def setup(players: int, options: dict, seed: int, deal: dict | None = None) -> Result:
        rules = {key: value for key, value in options.items() if key != BRIEFING.key}
        state, events = engine.setup(players, rules, seed, deal)
        if not options.get(BRIEFING.key, False):   # a game from before briefings (its replay)
            return Result(state, events)
        briefing = {"seen": [False] * players, "clock": state.get("clock")}
        return Result({**state, "briefing": briefing, "clock": None}, events)

    def reading(state: State) -> dict | None:
        """The briefing while it holds the table: none once the game is over.  A game may end
        while somebody is still reading their role (its players may act meanwhile); nothing is
        awaited of a finished game, and the host has nothing left to start."""
        briefing = state.get("briefing")
        if briefing is None or engine.outcome(_inner(state)) is not None:
            return None
        return briefing

    def legal_actions(state: State, actor: Actor) -> list[Action]:
        briefing = reading(state)
        if briefing is None:
            return engine.legal_actions(_inner(state), actor)
        if actor is GAME_MASTER:        # its clock is held: time stands still
            return []
        moves = engine.legal_actions(_inner(state), actor)
        if actor == HOST:
            return [*moves, dict(GO_ON)]
        return [*moves, dict(SEEN)] if not briefing["seen"][actor] else moves

    def host_moves(state: State) -> list[Action]:
        moves = engine.host_moves(_inner(state))
        return [*moves, dict(GO_ON)] if reading(state) else moves

    def apply(state: State, actor: Actor, action: Action) -> Result:
        briefing = state.get("briefing")
        if isinstance(action, dict) and action.get("type") in (SEEN["type"], GO_ON["type"]):
            if engine.outcome(_inner(state)) is not None:
                raise IllegalAction("game_over", "The game is over")
            return _brief(state, briefing, actor, action)
        if briefing is not None and actor is GAME_MASTER:
            raise IllegalAction("briefing", "The clock waits until everyone has seen their role")
        result = engine.apply(_inner(state), actor, action)
        if briefing is None:
            return result
        return Result(_held(result.state, briefing["seen"]), result.events)

    def view(state: State, seat: int | None) -> dict:
        briefing = reading(state)
        shown = engine.view(_inner(state), seat)
        if briefing is None:
            return {**shown, "briefing": None}
        # Public, like a card turned over on the table: who has looked at theirs (every seat
        # must, whatever its role).
        return {**shown, "briefing": {"waiting": briefing["seen"].count(False), "seen": list(briefing["seen"])}}

    def waiting_for(state: State) -> list[int]:
        briefing = reading(state)
        awaited = engine.waiting_for(_inner(state))
        if briefing is None:
            return awaited
        return sorted(set(awaited) | {seat for seat, seen in enumerate(briefing["seen"]) if not seen})

    def bot(state: State, seat: int) -> Action | None:
        """A bot looks at its role first, like everyone (the briefing's own move); then it plays
        as its engine's bot does, on the engine's own state."""
        briefing = reading(state)
        if briefing is not None and not briefing["seen"][seat]:
            return dict(SEEN)
        return engine.bot(_inner(state), seat)

    return dataclasses.replace(
        engine, options=lambda: [*engine.options(), BRIEFING], setup=setup, legal_actions=legal_actions,
        host_moves=host_moves, apply=apply, view=view, waiting_for=waiting_for,
        bot=bot if engine.bot is not None else None,
        outcome=lambda state: engine.outcome(_inner(state)),
        roles=lambda state: engine.roles(_inner(state)),
        proxy_moves=lambda state: engine.proxy_moves(_inner(state)),
        removable=lambda state: engine.removable(_inner(state)))


def _inner(state: State) -> State:
    """The state as the engine underneath knows it: its own clock in place."""
    briefing = state.get("briefing")
    return state if briefing is None else {**state, "clock": briefing["clock"]}


def _held(state: State, seen: list[bool]) -> State:
    """The engine's new state with its clock held again (it may have started a new one)."""
    return {**state, "briefing": {"seen": seen, "clock": state.get("clock")}, "clock": None}


def _brief(state: State, briefing: dict | None, actor: Actor, action: Action) -> Result:
    """A player has seen their role, or the host goes on: the last of either ends the briefing."""
    if set(action) != {"type"}:
        raise MalformedAction("bad_action", "This action has no fields")
    if briefing is None:
        raise IllegalAction("wrong_phase", "Everybody has seen their role already")
    if action["type"] == GO_ON["type"]:
        if actor != HOST:
            raise IllegalAction("host_only", "Only the host can go on")
        return Result(_released(state), [Event("briefing_over", {"by_host": True}, PUBLIC)])
    if type(actor) is not int or not 0 <= actor < len(briefing["seen"]):
        raise MalformedAction("bad_seat", "No such seat")
    if briefing["seen"][actor]:
        raise IllegalAction("wrong_phase", "You have seen your role already")
    seen = [done or seat == actor for seat, done in enumerate(briefing["seen"])]
    events = [Event("role_seen", {"seat": actor}, PUBLIC)]
    if all(seen):
        return Result(_released(state), [*events, Event("briefing_over", {"by_host": False}, PUBLIC)])
    return Result({**state, "briefing": {**briefing, "seen": seen}}, events)


def _released(state: State) -> State:
    """The briefing is over: the engine's clock (if any) runs from now."""
    return {**_inner(state), "briefing": None}
