"""A result the table waits for takes the stage for a few seconds: a moment.

A vote revealed, a job's cards turned, a coin toss, a death at dawn, a verdict: the table
watches it together before the game moves on.  Each engine declares which of its PUBLIC
events are such results (``Engine.moments``, a set of event kinds; none by default).  When an
apply emits one, this layer puts those events on the stage (``state["moments"]["on"]``: what
every screen shows, public by construction) and gives the game master a clock of its own,
``MOMENT_SECONDS`` long (or the engine's ``moment_seconds``), whose move ``MOMENT_OVER`` ends the moment; meanwhile the engine's
clock is held, exactly as the briefing holds it (engines/briefing.py), and handed back at the
end (the web layer then starts it afresh: services.clock_started, a clock that appears is
new).  So the server paces the moment and every screen, a reconnected one included, sees the
same moment for the same seconds.

During a moment nobody moves: a player's tap and the host's buttons are refused ("moment":
the table is watching the result).  The host cannot skip a moment (our decision, the same in
every ruleset: docs/rules/*.md, "Moments"): it lasts a few seconds, a skip would end it for the
players who have not read it yet, and the host's Pause stops it like any clock.  A result that
ends the game takes the stage too: the game is over (``outcome``) when its moment is.

The last ``HISTORY`` moments stay in ``state["moments"]["past"]``: the TV's compact history.

Like the briefing, a layer over any engine (``paced(engine)``, engines/registry.py), switched by
an option no host is offered (``MOMENTS``): a game stored before moments existed has no such
key and replays without them; the web layer sets it for a new game from its settings.
"""

from __future__ import annotations

import dataclasses

from engines.base import (GAME_MASTER, PUBLIC, Action, Actor, Engine, Event, IllegalAction, MalformedAction,
                          Option, Result, State)

MOMENTS = Option("moments", True, offered=False)
MOMENT_OVER: Action = {"type": "moment_over"}
# Long enough to read a revealed vote of a full table name by name (the screens reveal its
# lines one by one inside these seconds), short enough not to stall the game.
MOMENT_SECONDS = 8
HISTORY = 3          # moments the TV keeps in its history strip


def paced(engine: Engine) -> Engine:
    """``engine`` with its results on the stage for a few seconds (the module's docstring)."""
    if not isinstance(engine, Engine):
        raise TypeError(f"ruleset {getattr(engine, 'slug', engine)!r}: wrap its functions in engines.base.Engine")

    def setup(players: int, options: dict, seed: int, deal: dict | None = None) -> Result:
        rules = {key: value for key, value in options.items() if key != MOMENTS.key}
        state, events = engine.setup(players, rules, seed, deal)
        if not options.get(MOMENTS.key, False):   # a game from before moments (its replay), or tests
            return Result(state, events)
        return Result({**state, "moments": {"on": None, "past": [], "count": 0}}, events)

    def legal_actions(state: State, actor: Actor) -> list[Action]:
        if not _on(state):
            return engine.legal_actions(state, actor)
        return [dict(MOMENT_OVER)] if actor is GAME_MASTER else []

    def apply(state: State, actor: Actor, action: Action) -> Result:
        moments = state.get("moments")
        over = isinstance(action, dict) and action.get("type") == MOMENT_OVER["type"]
        if moments is None:
            return engine.apply(state, actor, action)
        if moments["on"] is not None:
            if actor is not GAME_MASTER or not over:
                raise IllegalAction("moment", "The table is watching the result")
            if set(action) != {"type"}:
                raise MalformedAction("bad_action", "This action has no fields")
            return _ended(state)
        if over:
            raise IllegalAction("wrong_phase", "No result is on the stage")
        result = engine.apply(state, actor, action)
        shown = [{"kind": event.kind, "data": event.data} for event in result.events
                 if event.audience == PUBLIC and event.kind in engine.moments]
        if not shown:
            return result
        return Result(_staged(result.state, moments, shown, engine.moment_seconds or MOMENT_SECONDS),
                      result.events)

    def view(state: State, seat: int | None) -> dict:
        shown = engine.view(_inner(state), seat)
        moments = state.get("moments") or {"on": None, "past": []}
        on = moments["on"]
        return {**shown, "moment": on and {"n": on["n"], "events": on["events"]}, "moments_past": moments["past"]}

    def when_off(name: str, during):
        """The engine's ``name``, or ``during`` (nobody may act) while a moment is on."""
        function = getattr(engine, name)
        return lambda state: during if _on(state) else function(_inner(state))

    def bot(state: State, seat: int) -> Action | None:
        """A bot watches a moment like everyone (nobody moves meanwhile), then plays on."""
        return None if _on(state) else engine.bot(state, seat)

    return dataclasses.replace(
        engine, options=lambda: [*engine.options(), MOMENTS], setup=setup, legal_actions=legal_actions,
        apply=apply, view=view, bot=bot if engine.bot is not None else None,
        host_moves=when_off("host_moves", []), waiting_for=when_off("waiting_for", []),
        proxy_moves=when_off("proxy_moves", {}), removable=when_off("removable", []),
        outcome=when_off("outcome", None),
        roles=lambda state: engine.roles(_inner(state)))


def _on(state: State) -> bool:
    return bool((state.get("moments") or {}).get("on"))


def _inner(state: State) -> State:
    """The state as the engine underneath knows it: its own clock in place."""
    return {**state, "clock": state["moments"]["on"]["clock"]} if _on(state) else state


def _staged(state: State, moments: dict, shown: list[dict], seconds: float) -> State:
    """The engine's new state with ``shown`` on the stage for ``seconds``: its clock held, the
    moment's running."""
    n = moments["count"] + 1
    on = {"n": n, "events": shown, "clock": state.get("clock")}
    # A negative id never equals an engine's (they count up from 0): a new clock for the web layer.
    clock = {"id": -n, "seconds": seconds, "move": dict(MOMENT_OVER)}
    return {**state, "moments": {**moments, "on": on, "count": n}, "clock": clock}


def _ended(state: State) -> Result:
    """The game master's clock: the moment goes to the history, the engine's clock comes back."""
    moments = state["moments"]
    on = moments["on"]
    past = [*moments["past"], {"n": on["n"], "events": on["events"]}][-HISTORY:]
    inner = _inner(state)
    return Result({**inner, "moments": {**moments, "on": None, "past": past}},
                  [Event("moment_over", {"n": on["n"]}, PUBLIC)])
