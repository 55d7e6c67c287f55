"""What each viewer is entitled to know, per ruleset: the oracle of the no-leak suite.

For every ruleset (keyed by slug) a ``Knowledge`` says

* ``secret_keys``: names of internal secret fields that must never appear as a key anywhere in
  a view (views are built field by field, never by copying secret parts of the state);
* ``variants(state, viewer, rng)``: alternative states that differ from ``state`` only in what
  ``viewer`` (a seat, or ``None`` for the TV) must not be able to tell apart *on screen* —
  the no-leak test asserts ``view(variant, viewer) == view(state, viewer)``;
* ``event_problem(event, state)``: why an event's audience is wrong (``None`` if it is fine),
  given the final state of the game.

A new ruleset must add its entry here; the no-leak suite fails for a ruleset without one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from engines.base import NOBODY, PUBLIC, Event, State


@dataclass(frozen=True)
class Knowledge:
    secret_keys: frozenset[str]
    variants: Callable[[State, int | None, random.Random], list[State]]
    event_problem: Callable[[Event, State], str | None]


# --------------------------------------------------------------------------------------------
# Mafie (shared/rules/mafie.md A.4)
# --------------------------------------------------------------------------------------------

MAFIE_VARIANTS = 3


def mafie_known_roles(state: State, viewer: int | None) -> set[int]:
    """Seats whose role ``viewer`` knows.

    Everybody knows their own role; a detective who had the meeting knows every detective and so
    every role; a plot card may have shown the viewer someone's role (rules §A.3.3); at game over
    all roles are public (rules A-Q14); the TV knows none before that.
    """
    players = range(state["players"])
    if state["phase"] == "game_over":
        return set(players)
    if viewer is None:
        return set()
    roles = state["secret"]["roles"]
    if roles[viewer] == "detective" and not state["options"]["blind_detectives"]:
        return set(players)
    return {viewer} | {fact["about"] for fact in mafie_plot_facts(state, viewer)}


def mafie_plot_facts(state: State, seat: int) -> list[dict]:
    """What plot cards showed ``seat`` (The Plot Thickens)."""
    secret = state["secret"].get("plot")
    return list(secret["results"][seat]) if secret else []


def mafie_variants(state: State, viewer: int | None, rng: random.Random) -> list[State]:
    """Shuffle the roles the viewer doesn't know, re-draw every undisclosed vote and card.

    Votes and cards still in ``secret`` are undisclosed (both are cleared at their reveal).  The
    viewer's own vote and card are re-drawn too: a glance at a phone must give nothing away.
    Re-drawn cards respect the (varied) roles: a mafioso's card is always a success.
    """
    secret = state["secret"]
    known = mafie_known_roles(state, viewer)
    hidden = [seat for seat in range(state["players"]) if seat not in known]
    variants = []
    for _ in range(MAFIE_VARIANTS):
        roles = list(secret["roles"])
        shuffled = [roles[seat] for seat in hidden]
        rng.shuffle(shuffled)
        for seat, role in zip(hidden, shuffled):
            roles[seat] = role
        ballots = [None if ballot is None else rng.random() < 0.5 for ballot in secret["ballots"]]
        cards = [None if card is None
                 else "success" if roles[seat] == "mafioso" else rng.choice(["success", "fail"])
                 for seat, card in enumerate(secret["cards"])]
        varied = {**secret, "roles": roles, "ballots": ballots, "cards": cards}
        if secret.get("plot"):
            # The deck's order (the future draws) and what others learnt, told with the varied roles.
            deck = list(secret["plot"]["deck"])
            rng.shuffle(deck)
            results = [[{**fact, "role": roles[fact["about"]]} if "role" in fact else fact for fact in facts]
                       for facts in secret["plot"]["results"]]
            varied["plot"] = {**secret["plot"], "deck": deck, "results": results}
        variants.append({**state, "secret": varied})
    return variants


def mafie_event_problem(event: Event, state: State) -> str | None:
    roles = state["secret"]["roles"]
    if event.audience == NOBODY:
        return None
    if event.audience == PUBLIC:
        if event.kind in {"roles_dealt", "role", "action_cards"}:
            return f"secret event {event.kind} is public"
        if "roles" in event.data and event.kind != "game_over":
            return f"public event {event.kind} names roles before the game is over"
        return None
    if event.kind == "plot_learnt" and len(event.audience) == 1:
        [owner] = event.audience
        if event.data not in mafie_plot_facts(state, owner) or \
                event.data.get("role", roles[event.data["about"]]) != roles[event.data["about"]]:
            return f"seat {owner} is told {event.data}, which no plot card showed it"
        return None
    if event.kind != "role" or len(event.audience) != 1:
        return f"private event {event.kind} to {event.audience}"
    [owner] = event.audience
    detectives = [seat for seat, role in enumerate(roles) if role == "detective"]
    partners = ([seat for seat in detectives if seat != owner]
                if roles[owner] == "detective" and not state["options"]["blind_detectives"]
                else [])
    if event.data != {"role": roles[owner], "partners": partners}:
        return f"seat {owner} is told {event.data}, which is not its own role and partners"
    return None


KNOWLEDGE = {
    "mafie": Knowledge(
        secret_keys=frozenset({"secret", "ballots", "cards"}),
        variants=mafie_variants,
        event_problem=mafie_event_problem,
    ),
}
