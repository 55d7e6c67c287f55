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

import json
import random
import re
from dataclasses import dataclass
from typing import Callable

from engines.base import NOBODY, PUBLIC, Event, State
from engines.classic.table import dealt_roles   # the cards as dealt: the wizard's swap undone


@dataclass(frozen=True)
class Knowledge:
    secret_keys: frozenset[str]
    variants: Callable[[State, int | None, random.Random], list[State]]
    event_problem: Callable[[Event, State], str | None]


# --------------------------------------------------------------------------------------------
# Mafie (docs/rules/mafie.md A.4)
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
        # The chance record (engines/chance.py): another seed, another future.
        varied = {**secret, "roles": roles, "ballots": ballots, "cards": cards,
                  "chance": {**secret["chance"], "seed": rng.randrange(2**31)}}
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
# Classic Mafia, GRANNA and Polish (docs/rules/classic-mafia.md B.4, C.4)
# --------------------------------------------------------------------------------------------

CLASSIC_VARIANTS = 3
CLASSIC_PRIVATE = {
    "role", "checked", "check_skipped", "healed", "heal_skipped", "mafia_meeting", "picked",
    "victim_chosen", "swap_cast", "swap_skipped",
    # GRANNA's action cards (rules B.3.4, B.3.5)
    "card", "card_pending", "recruited", "new_gang_meeting",
}
# The mafia's own: its meeting, picks, lot, and who was recruited by whom.
CLASSIC_MAFIA_EVENTS = ("mafia_meeting", "picked", "victim_chosen", "recruited")


def classic_recruits(state: State) -> list[int]:
    cards = state["secret"].get("cards")
    return list(cards["recruits"]) if cards else []


def classic_insider(state: State, viewer: int | None) -> bool:
    """Has ``viewer`` ever been awake with the mafia (a mafioso's token, now or as dealt, or a
    recruit)?  He knows the mafia's picks and its recruits."""
    if viewer is None:
        return False
    return "mafioso" in (state["secret"]["roles"][viewer], dealt_roles(state)[viewer]) \
        or viewer in classic_recruits(state)


def classic_known_cards(state: State, viewer: int | None) -> set[int]:
    """Seats whose action card ``viewer`` may know (rules B.3.4, B.3.5): every card face up
    (the Leader and the Role Swap from the start, the cards played, a dead New Gang member's),
    his own, the New Gang members he met, and — to the mafia — who played the Recruitment."""
    table = state.get("cards")
    if table is None:
        return set()
    known = {entry["seat"] for entry in table["face_up"]}
    if viewer is None:
        return known
    secret = state["secret"]["cards"]
    known.add(viewer)
    if viewer in secret["gang"]:
        known |= set(secret["gang"])
    if classic_insider(state, viewer):
        known |= {seat for seat, card in enumerate(secret["dealt"]) if card == "recruitment" and secret["used"][seat]}
    return known


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
    swap = (state.get("cards") or {}).get("role_swap")
    if swap and viewer in (swap["holder"], swap["target"]):
        # "ти знаєш яку роль грає цей гравець, але він теж знає ким є ти" (rules B.3.4 Role Swap)
        known |= {swap["holder"], swap["target"]}
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
    insider = classic_insider(state, viewer)
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
        # the chance record's seed: the future draws (the lots, the coin) are the game master's
        varied = {**secret, "roles": roles, "chance": {**secret["chance"], "seed": rng.randrange(10**6)}}
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
        if state.get("cards") is not None:
            varied["cards"] = _classic_vary_cards(state, viewer, insider, rng)
        variants.append({**state, "secret": varied})
    return variants


def _classic_vary_cards(state: State, viewer: int | None, insider: bool, rng: random.Random) -> dict:
    """Deal the action cards the viewer may not know among their seats again (a card's identity
    reaches only its holder until it is played); forget the others' plays waiting in a window;
    and, for one never awake with the mafia, recruit other players (who was recruited reaches
    only the mafia)."""
    cards = state["secret"]["cards"]
    known = classic_known_cards(state, viewer)
    hidden = [seat for seat in range(state["players"]) if seat not in known]
    hands = [(cards["dealt"][seat], cards["used"][seat]) for seat in hidden]
    rng.shuffle(hands)
    dealt, used = list(cards["dealt"]), list(cards["used"])
    for seat, (card, spent) in zip(hidden, hands):
        dealt[seat], used[seat] = card, spent
    pending = [play if seat == viewer else None for seat, play in enumerate(cards["pending"])]
    recruits = list(cards["recruits"])
    if not insider and recruits:
        others = [seat for seat in range(state["players"]) if seat != viewer and state["dead"][seat] is None]
        recruits = sorted(rng.sample(others, min(len(recruits), len(others))))
    return {**cards, "dealt": dealt, "used": used, "pending": pending, "recruits": recruits}


def classic_event_problem(event: Event, state: State) -> str | None:
    secret = state["secret"]
    roles, dealt = secret["roles"], dealt_roles(state)

    def ever(seat: int, role: str) -> bool:
        return role in (roles[seat], dealt[seat]) or (role == "mafioso" and seat in classic_recruits(state))

    # The chance kit's draws (engines/chance.py): the deal is nobody's, the coin among the tied
    # public, the mafia's deadline lot the mafiosi's.
    lot = event.kind == "chance" and event.data["label"] == "lot"
    if event.audience == NOBODY:
        return None
    if event.audience == PUBLIC:
        # the draw of the cards the cap lets in is public, like the box (rules B.3.4)
        if event.kind == "chance" and not (lot and event.data["why"] == "coin") and event.data["label"] != "card_box":
            return f"the draw {event.data} is public"
        if event.kind in CLASSIC_PRIVATE | {"roles_dealt", "swap_carried_out"}:
            return f"secret event {event.kind} is public"
        if "roles" in event.data and event.kind != "game_over":
            return f"public event {event.kind} names roles before the game is over"
        if event.kind == "saved" and not state["options"].get("announce_saved", False):
            return "the doctor's save is public without announce_saved"
        return None
    if event.kind in CLASSIC_MAFIA_EVENTS or (lot and event.data["why"] == "victim"):
        outsiders = [seat for seat in event.audience if not ever(seat, "mafioso")]
        return f"mafia event {event.kind} reaches {outsiders}" if outsiders else None
    if event.kind == "new_gang_meeting":
        gang = [seat for seat, card in enumerate(secret["cards"]["dealt"]) if card == "new_gang"]
        if not set(event.audience) <= set(gang) or event.data["members"] != event.audience:
            return f"the New Gang's meeting reaches {event.audience}, not its members"
        return None
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
    if event.kind in ("card", "card_pending"):
        if event.data["card"] != secret["cards"]["dealt"][owner]:
            return f"seat {owner} is told of the card {event.data}, not its own"
        return None
    role = {"check_skipped": "agent", "heal_skipped": "doctor", "swap_cast": "wizard",
            "swap_skipped": "wizard"}[event.kind]
    if not ever(owner, role):
        return f"seat {owner} gets {event.kind} but never held the {role}"
    return None


# --------------------------------------------------------------------------------------------
# Mrakošlapi (docs/rules/mrakoslapi.md §3; engines/mrakoslapi/engine.py, "Our decisions")
# --------------------------------------------------------------------------------------------

MRAKOSLAPI_VARIANTS = 2
MRAKOSLAPI_PRIVATE = {"cards", "night_prompts", "night_pick", "night_done", "notice", "gain"}
MRAKOSLAPI_HIDDEN = {"night_resolved", "totals", "mrak_dies"}   # the secret log: to nobody


def mrakoslapi_insiders(state: State, viewer: int | None) -> set[int]:
    """Seats whose night screen ``viewer`` shares: himself and — during night 1, if he holds a
    Mafián — the other night-1 Mafián holders (their mafia picks and confirmations)."""
    if viewer is None:
        return set()
    met = state["secret"]["mafia_met"]
    night = state["secret"]["night"]
    if viewer in met and state["phase"] == "night" and night is not None and night["n"] == 1:
        return set(met)
    return {viewer}


def _mrakoslapi_junk_cards(rng: random.Random, count: int) -> list[dict]:
    from engines.mrakoslapi import cards as C
    types, states, pick = list(C.CARD_TYPES), C.CARD_STATES, rng.random
    return [C.card(types[int(pick() * len(types))], 1 + int(pick() * 9),
                   states[int(pick() * len(states))]) for _ in range(count)]


def _mrakoslapi_junk_prompts(rng: random.Random) -> list[dict]:
    cards = ["MAFIAN", "SILENY_STRELEC", "MAG", "SLINA", "EXHIBICIONISTA", "MEDIK"]
    return [{"id": f"{card}:{no}", "card": card, "no": no, "disabled": rng.random() < .3}
            for card, no in ((rng.choice(cards), rng.randint(1, 3))
                             for _ in range(rng.randint(0, 3)))]


def _mrakoslapi_junk_pick(prompt: dict, seats: list[int], rng: random.Random):
    if rng.random() < .3:
        return None
    if prompt["card"] == "MEDIK":
        return True
    if prompt["card"] == "MAG":
        return rng.sample(seats, 2) if len(seats) > 1 else None
    return rng.choice(seats)


def mrakoslapi_variants(state: State, viewer: int | None, rng: random.Random) -> list[State]:
    """Everything the viewer may not know, re-drawn (``[]`` at game over: all is revealed).

    Kept: the public part (seats alive or not, the day, the announcements, the clock, the
    options), the viewer's own player record, hand, notices, night prompts, picks and
    confirmation, and on night 1 a Mafián holder's view of the mafia room (the night-1 holders,
    their mafia picks and confirmations); after night 1 a holder still knows who they were.

    Re-drawn: the chance record's seed (it decides the deal); every other seat's hand and first
    deal (one variant passes the others' hands round among them, the other deals junk: other
    cards, counts and states); whether a "dead" other is really dead or a fake-dead Medik; the pending Duch
    Bobo ghost (and so who is awake at night); the night-1 Mafián holders for an outsider; the
    other seats' notices, night prompts, picks and confirmations (only whether everybody has
    confirmed is public: the night clock's seconds tell it); the table's counters; the traces.
    """
    if state["phase"] == "over":
        return []
    return [_mrakoslapi_variant(state, viewer, rng, shuffle=index == 0)
            for index in range(MRAKOSLAPI_VARIANTS)]


def _mrakoslapi_variant(state: State, viewer: int | None, rng: random.Random,
                        shuffle: bool) -> State:
    # A copy of what changes (the rest is shared: views never change the state).
    secret = {**state["secret"], "dealt": list(state["secret"]["dealt"]),
              "night": json.loads(json.dumps(state["secret"]["night"]))}
    table = secret["table"] = {**secret["table"],
                               "players": [dict(p) for p in secret["table"]["players"]]}
    secret["chance"] = {**secret["chance"], "seed": rng.randrange(10**6)}
    new = {**state, "secret": secret}
    if state["day"] is not None:       # a secret card change counts as progress too (rules §6.3)
        new["day"] = {**state["day"], "progress": rng.random() < .5}
    others = [seat for seat in range(state["players"]) if seat != viewer]
    insiders = mrakoslapi_insiders(state, viewer)
    players = {p["seat"]: p for p in table["players"]}
    hands = [players[seat]["cards"] for seat in others]
    rng.shuffle(hands)
    for seat, hand in zip(others, hands):
        player = players[seat]
        player["cards"] = hand if shuffle else _mrakoslapi_junk_cards(rng, rng.randint(0, 7))
        if player["status"] != "ALIVE":
            player["status"] = rng.choice(["DEAD", "FAKE_DEAD"])
            player["fake_dead_until_dawn_of_night"] = (
                state["number"] + rng.randint(0, 1) if player["status"] == "FAKE_DEAD" else None)
    dealt = [secret["dealt"][seat] for seat in others]
    rng.shuffle(dealt)
    for seat, hand in zip(others, dealt):
        secret["dealt"][seat] = hand if shuffle else _mrakoslapi_junk_cards(rng, 5)
    table["next_extra_mrak_no"] = rng.randint(8, 12)
    table["quiet_cycles"] = rng.randint(0, 2)
    table["cycle_progress"] = rng.choice([None, True, False])
    if table["pending_bobo"] != viewer:
        dead = [seat for seat in others if players[seat]["status"] == "DEAD"]
        table["pending_bobo"] = rng.choice([None, *dead])
    if viewer is None or viewer not in state["secret"]["mafia_met"]:
        secret["mafia_met"] = sorted(rng.sample(others, rng.randint(0, min(3, len(others)))))
    secret["notices"] = [n for n in secret["notices"] if n["seat"] == viewer] + [
        {"seat": rng.choice(others), "code": "day.gained_mrak",
         "params": {"no": rng.randint(8, 12)}} for _ in range(rng.randint(0, 2))]
    secret["traces"] = [{"night": 1, "skipped": False, "choices": {"junk": rng.random()},
                         "input": None, "result": {"trace": [rng.random()]}}]
    night = secret["night"]
    if night is not None:
        _mrakoslapi_vary_night(state, night, viewer, insiders, table["pending_bobo"], rng)
    return new


def _mrakoslapi_vary_night(state: State, night: dict, viewer: int | None, insiders: set[int],
                           bobo: int | None, rng: random.Random) -> None:
    """The others' night: who is awake (the living and the pending ghost), their prompts and
    picks (a fellow's mafia pick kept on night 1), who has confirmed."""
    alive = [p["seat"] for p in state["secret"]["table"]["players"] if p["status"] == "ALIVE"]
    everybody_done = set(night["awake"]) <= set(night["confirmed"])
    awake = set(alive) | (set(night["awake"]) & {viewer}) | ({bobo} if bobo is not None else set())
    night["awake"] = sorted(awake)
    for seat in range(state["players"]):
        if seat == viewer:
            continue
        kept = [p for p in night["prompts"][seat] if seat in insiders and p["card"] == "MAFIAN"]
        prompts = kept + ([] if seat not in awake else
                          [p for p in _mrakoslapi_junk_prompts(rng)
                           if seat not in insiders or p["card"] != "MAFIAN"])
        night["prompts"][seat] = prompts
        picks = {key: value for key, value in night["picks"][seat].items()
                 if seat in insiders and key == "MAFIAN:1"}
        for prompt in prompts[len(kept):]:
            value = _mrakoslapi_junk_pick(prompt, alive, rng)
            if value is not None:
                picks[prompt["id"]] = value
        night["picks"][seat] = picks
    known = set(night["confirmed"]) & insiders
    free = sorted(awake - insiders)
    confirmed = known | {seat for seat in free if everybody_done or rng.random() < .5}
    if not everybody_done and awake <= confirmed:
        if not free:        # nothing hidden to leave unconfirmed: keep the night as it was
            night["awake"], night["confirmed"] = state["secret"]["night"]["awake"], \
                state["secret"]["night"]["confirmed"]
            return
        confirmed.discard(rng.choice(free))
    night["confirmed"] = sorted(confirmed)


def mrakoslapi_event_problem(event: Event, state: State) -> str | None:
    """Private events go to the one seat they are about — a night-1 mafia pick to the night-1
    Mafián holders — and tell it only its own cards, prompts and notices; the secret log (the
    night's choices and result, weighted totals, which Mrakošlap died) goes to nobody."""
    secret = state["secret"]
    if event.audience == NOBODY:
        return None
    if event.audience == PUBLIC:
        if event.kind in MRAKOSLAPI_PRIVATE | MRAKOSLAPI_HIDDEN:
            return f"secret event {event.kind} is public"
        if {"cards", "choices", "prompts", "picks", "trace"} & set(event.data):
            return f"public event {event.kind} carries secrets: {sorted(event.data)}"
        return None
    if event.kind in MRAKOSLAPI_HIDDEN:
        return f"secret log event {event.kind} reaches {event.audience}"
    if (event.kind == "night_pick" and event.data["prompt"] == "MAFIAN:1"
            and len(event.audience) > 1):
        met = secret["mafia_met"]
        if event.data["night"] != 1:
            return f"mafia pick of night {event.data['night']} shown to {event.audience} (blind after night 1)"
        if event.audience != met or event.data["seat"] not in met:
            return f"mafia pick of seat {event.data['seat']} reaches {event.audience}, not {met}"
        return None
    if event.kind not in MRAKOSLAPI_PRIVATE or len(event.audience) != 1:
        return f"private event {event.kind} to {event.audience}"
    [owner] = event.audience
    if event.kind == "night_prompts":
        hand = {(card["type"], card["no"]) for card in secret["dealt"][owner]}
        types = {card_type for card_type, _ in hand}
        foreign = [p["id"] for p in event.data["prompts"]        # MAFIAN:1: any Mafián held
                   if not (p["card"] in types if p["card"] == "MAFIAN"
                           else (p["card"], p["no"]) in hand)]
        return f"seat {owner} is prompted for cards not dealt to it: {foreign}" if foreign else None
    if event.data["seat"] != owner:
        return f"seat {owner} is told {event.kind} about seat {event.data['seat']}"
    if event.kind == "cards" and event.data["cards"] != secret["dealt"][owner]:
        return f"seat {owner} is shown cards it was not dealt"
    if event.kind == "notice" and event.data not in secret["notices"]:
        return f"seat {owner} gets a notice the state does not hold: {event.data}"
    if event.kind == "gain":
        [cards] = [p["cards"] for p in secret["table"]["players"] if p["seat"] == owner]
        if not any(c["type"] == "MRAKOSLAP" and c["no"] == event.data["no"] for c in cards):
            return f"seat {owner} is told of a Mrakošlap {event.data['no']} it never gained"
    return None


# --------------------------------------------------------------------------------------------
# Heads or Tails (tests/tiny, the example of docs/adding-a-ruleset.md)
# --------------------------------------------------------------------------------------------

def tiny_variants(state: State, viewer: int | None, rng: random.Random) -> list[State]:
    """Until the coin is shown: another coin, other calls of the others (who called is public),
    another seed."""
    if state["phase"] == "shown":
        return []
    secret = state["secret"]
    variants = []
    for _ in range(3):
        calls = [call if seat == viewer or call is None else rng.choice(["heads", "tails"])
                 for seat, call in enumerate(secret["calls"])]
        chance = {**secret["chance"], "seed": rng.randrange(10**6)}
        variants.append({**state, "secret": {"heads": rng.random() < 0.5, "calls": calls, "chance": chance}})
    return variants


def tiny_event_problem(event: Event, state: State) -> str | None:
    if event.kind == "call" and (event.audience == PUBLIC or len(event.audience) != 1):
        return "a call is told to its caller only"
    if event.kind == "chance" and event.audience != NOBODY:
        return "the covered coin is nobody's until it is shown"
    return None


# --------------------------------------------------------------------------------------------
# Cosa Nostra (docs/rules/cosanostra.md §14)
# --------------------------------------------------------------------------------------------

COSANOSTRA_VARIANTS = 2
_RED_INSTANCE = re.compile(r"R\d\d-\d")


def cosanostra_variants(state: State, viewer: int | None, rng: random.Random) -> list[State]:
    """Another deck order, other hands and armed flags for the seats the viewer is not, another
    seed; an open deal's contents for a viewer who is not a party.  A deal's party knows the red
    cards offered to him: the proposer's hand stays as it is for him."""
    if state["phase"] == "over":
        return []
    variants = []
    for _ in range(COSANOSTRA_VARIANTS):
        secret = json.loads(json.dumps(state["secret"]))
        trade = state["trade"]
        party = trade is not None and viewer in (trade["from"], trade["to"])
        fixed = {viewer} | ({trade["from"], trade["to"]} if party else set())
        others = [seat for seat in range(state["players"]) if seat not in fixed]
        pool = secret["red"] + [card for seat in others for card in secret["hands"][seat]]
        rng.shuffle(pool)
        for seat in others:
            size = len(secret["hands"][seat])
            secret["hands"][seat], pool = sorted(pool[:size]), pool[size:]
            reactions = [card for card in secret["hands"][seat] if card[:3] in ("R12", "R13", "R14")]
            secret["armed"][seat] = sorted(card for card in reactions if rng.random() < 0.5)
        secret["red"] = pool
        rng.shuffle(secret["black"])
        if trade is not None and not party:
            secret["trade"] = {**secret["trade"], "give": {**secret["trade"]["give"], "cash": rng.randrange(0, 50) * 100}}
        secret["chance"] = {**secret["chance"], "seed": rng.randrange(10**6)}
        variants.append({**state, "secret": secret})
    return variants


def cosanostra_event_problem(event: Event, state: State) -> str | None:
    if event.kind == "red_card" and event.audience != [event.data["seat"]]:
        return "a red card's identity reaches only its holder"
    if event.kind == "trade_offer" and event.audience != sorted([event.data["from"], event.data["to"]]):
        return "a deal's contents reach only its two parties"
    if event.kind == "chance" and event.data["label"] in ("red_deck", "black_deck") and event.audience != NOBODY:
        return "the decks' order is nobody's"
    if event.audience == PUBLIC and _RED_INSTANCE.search(json.dumps(event.data)):
        return "a public event names a red card in a hand"
    return None


KNOWLEDGE = {
    "tiny": Knowledge(
        secret_keys=frozenset({"secret", "calls", "chance"}),
        variants=tiny_variants,
        event_problem=tiny_event_problem,
    ),
    "mafie": Knowledge(
        secret_keys=frozenset({"secret", "ballots", "cards", "chance"}),
        variants=mafie_variants,
        event_problem=mafie_event_problem,
    ),
    "granna": Knowledge(
        secret_keys=frozenset({"secret", "ballots", "met", "chance", "seed", "draws", "forced", "recruits"}),
        variants=classic_variants,
        event_problem=classic_event_problem,
    ),
    "mafia_pl": Knowledge(
        secret_keys=frozenset({"secret", "ballots", "met", "chance", "seed", "draws", "forced"}),
        variants=classic_variants,
        event_problem=classic_event_problem,
    ),
    "mrakoslapi": Knowledge(
        # the state's secret parts; "dealt", "mafia_met", "notices", "traces" are in the game-over
        # reveal, "prompts" and "confirmed" on the phone's night screen
        secret_keys=frozenset({"secret", "seed", "table", "awake", "picks", "pending_bobo",
                               "quiet_cycles", "next_extra_mrak_no", "chance"}),
        variants=mrakoslapi_variants,
        event_problem=mrakoslapi_event_problem,
    ),
    "cosanostra": Knowledge(
        secret_keys=frozenset({"secret", "hands", "chance", "seed", "draws", "forced"}),
        variants=cosanostra_variants,
        event_problem=cosanostra_event_problem,
    ),
}
