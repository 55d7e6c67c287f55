"""Mafie's setup (docs/rules/mafie.md A.1 "Setup procedure"): the whole game's state, the
roles dealt, the first Kmotr drawn, [the plot deck shuffled]; then the detective meeting
(base_game.py) opens, or the first round with blind detectives (A.3.2)."""

from __future__ import annotations

from engines import chance
from engines.base import NOBODY, Event, Result, State, checked_options, say
from engines.mafie import plot_cards as plot
from engines.mafie.base_game import _begin_detective_meeting, _begin_round
from engines.mafie.tables import DETECTIVE, MAFIOSO, OPTIONS, ROLES, SLOTS

# The chance kit's labels for the setup's draws (engines/chance.py; the plot deck's is plot.SHUFFLE).
DEAL, KMOTR = "deal", "kmotr"


# --------------------------------------------------------------------------------------------
# State
# --------------------------------------------------------------------------------------------

def _initial_state(players: int, options: dict, roles: list[str], kmotr: int, record: chance.Record) -> State:
    """The whole game as JSON types; seats index every per-seat list."""
    return {
        "ruleset": "mafie",
        "players": players,
        "options": options,
        "phase": "setup",           # then one of DETECTIVE_MEETING .. GAME_OVER
        "turn": 0,                  # grows whenever what the players are asked changes
        "round": 1,                 # the action attempt, 1..5 (rules A.2 ROUND_START(r))
        "kmotr": kmotr,             # the seat holding the Kmotr token
        "slot": None,               # the action slot being attempted (= round without targeting)
        "team": [],                 # the proposed / approved crew, in seat order
        "rejections": 0,            # failed votes in a row (rules A.2 invariants)
        "track": [{"result": None, "fails": None} for _ in range(SLOTS)],   # per slot
        "ready": [],                # seats done with the detective meeting
        "last_vote": None,          # the latest revealed vote (see _reveal_votes)
        "last_action": None,        # the latest revealed action: counts only
        "vote_history": [],         # every revealed vote, oldest first
        "narration": [],            # public narration of the latest step (rules A.4)
        "outcome": None,            # {"winner", "reason", "winners"} at game over
        "plot": None,               # The Plot Thickens (plot_cards.py): cards dealt, held, used
        "window": None,             # a reaction window: {"kind", "queue", "then"}
        "clock": None,              # the game master's timed move (engines/base.py)
        "spotlight": None,          # the crew member whose card In the Spotlight shows
        "inspected": [],            # crew members whose card a Close Eye has seen this action
        "opinion": None,            # Opinion Maker in this vote: {"seats", "votes" once revealed}
        "secret": {
            "roles": roles,                 # role per seat
            "ballots": [None] * players,    # vote per seat until the reveal (True = approve)
            "cards": [None] * players,      # action card per crew seat until the reveal
            "chance": record,               # the chance kit's record (engines/chance.py)
        },
    }


# --------------------------------------------------------------------------------------------
# Setup (rules A.1 "Setup procedure")
# --------------------------------------------------------------------------------------------

def setup(players: int, options: dict, seed: int, deal: dict | None = None) -> Result:
    """Deal roles, draw the first Kmotr, and open the detective meeting (or the first round).

    Every draw is the chance kit's (engines/chance.py), recorded as an event; a forced ``deal``
    (tests, replays) is the kit's forced outcomes, so forcing and drawing are one mechanism."""
    if type(players) is not int or players not in ROLES:
        raise ValueError(f"Mafie needs 5 to 10 players, not {players!r}")
    options = checked_options(OPTIONS, options, "Mafie")
    record = chance.new(seed, forced=_forced(players, options, deal or {}))
    events: list[Event] = []
    roles, record = _deal_roles(players, record, events)
    # The first Kmotr is drawn in front of everyone (the token is public): a public pick.
    first = chance.pick(record, KMOTR, list(range(players)))
    state = _initial_state(players, options, roles, first.value, first.chance)
    events.append(Event("roles_dealt", {"roles": list(roles)}, NOBODY))
    events += [Event("role", _role_notice(state, seat), [seat]) for seat in range(players)]
    events += [first.event, Event("kmotr_chosen", {"kmotr": first.value})]
    if options["plot_cards"]:
        public, secret, shuffled = plot.new(players, options["plot_distribution"], first.chance)
        events.append(shuffled.event)
        state["plot"] = public
        state["secret"] = {**state["secret"], "plot": secret, "chance": shuffled.chance}
    say(state, "setup")
    if options["blind_detectives"]:
        _begin_round(state, events)     # rules A.3.2: skip the detective meeting
    else:
        _begin_detective_meeting(state, events)
    return Result(state, events)


def _forced(players: int, options: dict, deal: dict) -> dict[str, list]:
    """A forced secret setup for tests and replays, validated, as the chance kit's forced
    outcomes: ``roles`` is the deal's shuffle, ``kmotr`` the first Kmotr's pick, ``plot_deck``
    the plot deck's shuffle (only with plot cards)."""
    if not isinstance(deal, dict) or set(deal) - {"roles", "kmotr", "plot_deck"}:
        raise ValueError("deal may only force 'roles', 'kmotr' and 'plot_deck'")
    forced: dict[str, list] = {}
    if "roles" in deal:
        roles = deal["roles"]
        mafiosi, detectives = ROLES[players]
        if (not isinstance(roles, list) or len(roles) != players
                or roles.count(MAFIOSO) != mafiosi or roles.count(DETECTIVE) != detectives):
            raise ValueError(
                f"{players} players need {mafiosi} mafiosi and {detectives} detectives")
        forced[DEAL] = [list(roles)]
    if "kmotr" in deal:
        kmotr = deal["kmotr"]
        if type(kmotr) is not int or not 0 <= kmotr < players:
            raise ValueError(f"kmotr must be a seat 0..{players - 1}")
        forced[KMOTR] = [kmotr]
    if "plot_deck" in deal and options["plot_cards"]:
        if not isinstance(deal["plot_deck"], list) or \
                sorted(deal["plot_deck"]) != sorted(plot.deck(players, options["plot_distribution"])):
            raise ValueError("plot_deck must be an order of this game's plot cards")
        forced[plot.SHUFFLE] = [list(deal["plot_deck"])]
    return forced


def _deal_roles(players: int, record: chance.Record, events: list[Event]) -> tuple[list[str], chance.Record]:
    """Shuffle the character cards and deal one to each seat (Czech rulebook, Příprava hry):
    the game master's draw (audience nobody; each seat then learns its own role)."""
    mafiosi, detectives = ROLES[players]
    shuffled = chance.shuffle(record, DEAL, [MAFIOSO] * mafiosi + [DETECTIVE] * detectives)
    events.append(shuffled.event)
    return shuffled.value, shuffled.chance


def _role_notice(state: State, seat: int) -> dict:
    """What ``seat`` learns at the deal: its role and, unless blind, its fellow detectives."""
    return {"role": state["secret"]["roles"][seat], "partners": _partners(state, seat) or []}


def _partners(state: State, seat: int) -> list[int] | None:
    """The other detectives, known to a detective after the meeting (rules A.2); else None."""
    roles = state["secret"]["roles"]
    if roles[seat] != DETECTIVE or state["options"]["blind_detectives"]:
        return None
    return [other for other, role in enumerate(roles) if role == DETECTIVE and other != seat]
