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


# --------------------------------------------------------------------------------------------
# Classic Mafia, GRANNA and Polish (shared/rules/classic-mafia.md B.4, C.4)
# --------------------------------------------------------------------------------------------

CLASSIC_VARIANTS = 3
CLASSIC_PRIVATE = {
    "role", "checked", "check_skipped", "healed", "heal_skipped", "mafia_meeting", "picked",
    "victim_chosen", "swap_cast", "swap_skipped",
}


def classic_dealt(state: State) -> list[str]:
    """The cards as dealt (the wizard's swap undone)."""
    roles = list(state["secret"]["roles"])
    if state["secret"]["swap"]:
        first, second = state["secret"]["swap"]["targets"]
        roles[first], roles[second] = roles[second], roles[first]
    return roles


def classic_all_knowing(state: State, viewer: int | None) -> bool:
    """At game over everything is public; a ghost (a dead phone with ghost_view) sees it all."""
    if state["phase"] == "game_over":
        return True
    return (viewer is not None and state["dead"][viewer] is not None
            and state["options"].get("ghost_view", True))


def classic_known_roles(state: State, viewer: int | None) -> set[int]:
    """Seats whose role ``viewer`` may know.

    The roles of the eliminated are public; a seat knows its own card, the mafiosi it has met
    (``met``, kept after a swap), what its own agent checks showed, and — awake in the mafia
    step of a small game's first round — the caught agent whose token lies face up.
    """
    players = range(state["players"])
    if classic_all_knowing(state, viewer):
        return set(players)
    known = {seat for seat in players if state["dead"][seat] is not None}
    if viewer is None:
        return known
    secret = state["secret"]
    known |= {viewer, *secret["met"][viewer]}
    known |= {record["target"] for record in secret["checks"] if record["agent"] == viewer}
    caught = secret["night"]["caught"]
    if caught is not None and state["phase"] == "mafia" and secret["roles"][viewer] == "mafioso":
        known.add(caught)
    return known


def classic_variants(state: State, viewer: int | None, rng: random.Random) -> list[State]:
    """Shuffle the roles the viewer doesn't know; re-draw every undisclosed vote (the viewer's
    own too: a glance at a phone gives nothing away), other players' checks, heals and the
    wizard's pair, and — for a viewer who never was a mafioso — the mafia's picks and victim
    (kept for the wizard in his step: his choices leave out the dying victim)."""
    if classic_all_knowing(state, viewer):
        return []
    secret = state["secret"]
    players = state["players"]
    seats = range(players)
    living = [seat for seat in seats if state["dead"][seat] is None]
    known = classic_known_roles(state, viewer)
    hidden = [seat for seat in seats if seat not in known]
    insider = viewer is not None and "mafioso" in (secret["roles"][viewer],
                                                   classic_dealt(state)[viewer])
    wizard_step = (state["phase"] == "wizard" and viewer is not None
                   and secret["roles"][viewer] == "wizard")
    tonight = secret["night"]
    vote = state["vote"]
    if vote is not None:
        ballot = vote["ballot"]
        choices = [[seat for seat in ballot if seat != voter] if vote["kind"] == "vote" else ballot
                   for voter in seats]
    variants = []
    for _ in range(CLASSIC_VARIANTS):
        roles = list(secret["roles"])
        shuffled = [roles[seat] for seat in hidden]
        rng.shuffle(shuffled)
        for seat, role in zip(hidden, shuffled):
            roles[seat] = role
        varied = {**secret, "roles": roles, "seed": rng.randrange(10**6)}
        if vote is not None:
            ballots = [None if target is None else rng.choice(choices[voter])
                       for voter, target in enumerate(secret["ballots"])]
            judge = next((seat for seat in living if roles[seat] == "judge"), None)
            double = None
            if judge is not None and ballots[judge] is not None and not state["judge_used"]:
                double = judge if rng.random() < 0.5 else None
            varied["ballots"], varied["double"] = ballots, double
        checks = []
        for record in secret["checks"]:
            if record["agent"] != viewer:
                target = rng.randrange(players - 1)
                target += target >= record["agent"]
                record = {**record, "target": target, "role": roles[target]}
            checks.append(record)
        varied["checks"] = checks
        varied["heals"] = [record if record["doctor"] == viewer else
                           {**record, "target": rng.choice(living)} for record in secret["heals"]]
        night = dict(tonight)
        if tonight["check"] and tonight["check"]["agent"] != viewer:
            night["check"] = {**tonight["check"], "target": rng.choice(living)}
        if tonight["heal"] and tonight["heal"]["doctor"] != viewer and not wizard_step:
            night["heal"] = {**tonight["heal"], "target": rng.choice(living)}
        if tonight["swap"] and tonight["swap"]["wizard"] != viewer:
            night["swap"] = {**tonight["swap"], "targets": sorted(rng.sample(living, 2))}
        if not insider and not wizard_step and (tonight["victim"] is not None
                                                or any(pick is not None for pick in tonight["picks"])):
            targets = [seat for seat in living if roles[seat] != "mafioso"] or living
            if tonight["locked"] is not None:
                locked = rng.choice(targets)
                night["locked"] = locked
                night["picks"] = [None if pick is None else locked for pick in tonight["picks"]]
            else:
                night["picks"] = [None if pick is None else rng.choice(targets)
                                  for pick in tonight["picks"]]
            if tonight["victim"] is not None:
                night["victim"] = rng.choice(targets)
        varied["night"] = night
        variants.append({**state, "secret": varied})
    return variants


def classic_event_problem(event: Event, state: State) -> str | None:
    secret = state["secret"]
    roles, dealt = secret["roles"], classic_dealt(state)

    def ever(seat: int, role: str) -> bool:
        return role in (roles[seat], dealt[seat])

    if event.audience == NOBODY:
        return None
    if event.audience == PUBLIC:
        if event.kind in CLASSIC_PRIVATE | {"roles_dealt", "swap_carried_out"}:
            return f"secret event {event.kind} is public"
        if "roles" in event.data and event.kind != "game_over":
            return f"public event {event.kind} names roles before the game is over"
        if event.kind == "saved" and not state["options"].get("announce_saved", False):
            return "the doctor's save is public without announce_saved"
        return None
    if event.kind in ("mafia_meeting", "picked", "victim_chosen"):
        outsiders = [seat for seat in event.audience if not ever(seat, "mafioso")]
        return f"mafia event {event.kind} reaches {outsiders}" if outsiders else None
    if event.kind not in CLASSIC_PRIVATE or len(event.audience) != 1:
        return f"private event {event.kind} to {event.audience}"
    [owner] = event.audience
    if event.kind == "role":
        if event.data["role"] not in (roles[owner], dealt[owner]):
            return f"seat {owner} is told {event.data}, which is not its card"
        return None
    if event.kind == "checked":
        record = {key: event.data[key] for key in ("round", "agent", "target", "role")}
        if record["agent"] != owner or record not in secret["checks"]:
            return f"seat {owner} is told the check {event.data}, not its own"
        return None
    if event.kind == "healed":
        if event.data["doctor"] != owner or event.data not in secret["heals"]:
            return f"seat {owner} is told the heal {event.data}, not its own"
        return None
    role = {"check_skipped": "agent", "heal_skipped": "doctor", "swap_cast": "wizard",
            "swap_skipped": "wizard"}[event.kind]
    if not ever(owner, role):
        return f"seat {owner} gets {event.kind} but never held the {role}"
    return None


KNOWLEDGE = {
    "mafie": Knowledge(
        secret_keys=frozenset({"secret", "ballots", "cards"}),
        variants=mafie_variants,
        event_problem=mafie_event_problem,
    ),
    "granna": Knowledge(
        secret_keys=frozenset({"secret", "ballots", "met", "seed", "coins", "draws"}),
        variants=classic_variants,
        event_problem=classic_event_problem,
    ),
    "mafia_pl": Knowledge(
        secret_keys=frozenset({"secret", "ballots", "met", "seed", "coins", "draws"}),
        variants=classic_variants,
        event_problem=classic_event_problem,
    ),
}
