"""Mafie — MINDOK's Czech edition of Don Eskridge's *The Resistance* (slug ``mafie``).

Source: MINDOK's Czech "Mafie" rulebook (the authority; credited in the file below), restated
in English in ``docs/rules/mafie.md`` sections A.0–A.6 ("rules A.2" below means that file).
The Czech edition keeps the Resistance mechanics one to one but swaps the morals: the
**mafiosi** are the uninformed majority and want every action (job) to *succeed*; the undercover
**detectives** are the informed minority and want actions to *fail*.  The app is the game master:
nobody sits out, the TV shows the public board, each phone its owner's secrets.

Phases (rules A.2; ``[...]`` marks what the Plot Thickens adds, option ``plot_cards``,
rules §A.3.3, cards in ``mafie_plot.py``; a window asks the holders of its card one by one)::

    setup ── roles dealt, first Kmotr drawn at random
      │
      ├──────────────► detective_meeting   every seat taps "ready" (detectives see their partners)
      │ blind_detectives        │ all ready
      ▼                         ▼
    _begin_round ◄──────────────┘     round_start narration: job r, crew size, 2 fails?
      ▼               [plot_window pre_proposal: Strong Leader; then plot_deal: the Kmotr
      ▼                hands out the drawn cards, immediate ones carried out one by one]
    _begin_proposal   (after a rejection: [plot_window pre_proposal] first)
      ▼
    team_selection    the Kmotr proposes a crew ([targeting] and the job slot)
      ▼
    _begin_vote       [Opinion Makers vote first, revealed together, then everyone else]
      ▼
    team_vote         every seat votes, secret and simultaneous; revealed by name at the end
      │  rejected: rejections += 1 ── 5th ──► game_over (detectives, five_rejections)
      │            else Kmotr → left, back to _begin_proposal (same job)
      ▼  approved
    _after_approval   [plot_window no_confidence: counts as a rejection; then spotlight];
      ▼               rejections := 0
      ▼
    action_play       each crew member plays Success/Fail in secret (mafiosi: Success only)
      ▼
    _after_cards_submitted   [plot_window close_eye: one private look per crew member]
      ▼
    _reveal_action    counts only; 3 successes ──► game_over (mafia, three_successes)
      │                          3 failures  ──► game_over (detectives, three_failures)
      └── else Kmotr → left of the Kmotr who proposed this crew; round += 1; _begin_round

Who may know what (rules A.4):

* Roles: each seat learns its own (event ``role``, audience [seat]); non-blind detectives also
  learn the other detectives.  ``roles_dealt`` goes to nobody.  All roles are public at game
  over (rules A-Q14).
* Chance (engines/chance.py, kept in ``state["secret"]["chance"]``): the deal's shuffle and the
  plot deck's are the game master's (audience nobody); the first Kmotr's pick is public.
* Votes: secret until the last one arrives, then all revealed with names (rules A.0, A.2).
  Not even the voter's own phone shows a cast vote (a glance at a phone gives nothing away).
* Action cards: never attributed, only the counts are revealed (rules A.2 ``ACTION_REVEAL``).
  They are dropped from the state at the reveal; the game-master-only ``action_cards`` event
  keeps them for the log.
* Everything else (Kmotr, crew, track, rejection counter, who has voted/played/is ready) is public.

Every secret lives under ``state["secret"]`` (``roles``, ``ballots``, ``cards``); views are built
field by field and never copy that dict.

Our decisions where the rules leave room (report these in ``docs/``):

* Detective meeting, phone mode: every seat taps ready, so the TV and the table learn nothing
  from who acts (rules A.2 ``DETECTIVE_MEETING``, A.4 "phone mode").
* A mafioso who plays Fail gets a private refusal ``mafioso_must_succeed``; every phone shows
  the same buttons (rules A-Q13).  ``legal_actions`` of a mafioso lists only Success.
* The crew is stored in seat order (the Kmotr's picking order carries no meaning).
* Targeting (rules A.3.1): the slot is part of the proposal and is required; the two-fail rule
  sits on slot 4 (A-Q12); ``round`` counts attempted jobs, the team size comes from the slot.
* Narration: the fifth rejection says ``five_rejections {approve, reject}`` instead of
  ``rejected`` (there is no next Kmotr).  With targeting the round's opening is
  ``choose_slot {round, kmotr}`` (the crew size is unknown until the slot is chosen) and a
  proposal opens with ``slot_chosen {slot, team_size, two_fails}`` before ``vote``.
* ``legal_actions`` enumerates every crew: C(n, k) ≤ 252 for every row of the table.  Should a
  table ever exceed ``TEAM_SAMPLE_LIMIT`` crews, a deterministic, evenly spread subset is listed.
* The server (seat ``None``) has nothing to do in the base game.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from math import comb
from typing import Any

from engines import chance
from engines import mafie_plot as plot
from engines.base import (
    GAME_MASTER, HOST, NOBODY, PROXY, REMOVE_PLAYER, Action, Engine, Event, IllegalAction, MalformedAction, Option,
    Outcome, Result, State, checked_options, handler_for, host_for, next_turn, parse_proxy, parse_removal, proxied,
    proxy_moves, say, stop_clock, working_copy,
)

# --------------------------------------------------------------------------------------------
# Tables (rules A.1; Czech rulebook, Příprava hry and Vytvoření týmu)
# --------------------------------------------------------------------------------------------

MAFIOSO, DETECTIVE = "mafioso", "detective"
SUCCESS, FAIL = "success", "fail"
MAFIA, DETECTIVES = "mafia", "detectives"

# players: (mafiosi, detectives) — Czech rulebook, Příprava hry.
ROLES = {5: (3, 2), 6: (4, 2), 7: (4, 3), 8: (5, 3), 9: (6, 3), 10: (6, 4)}

# players: crew size for actions 1..5 — Czech rulebook, Vytvoření týmu.
TEAM_SIZE = {
    5: (2, 3, 2, 3, 3),
    6: (2, 3, 4, 3, 4),
    7: (2, 3, 3, 4, 4),
    8: (3, 4, 4, 5, 5),
    9: (3, 4, 4, 5, 5),
    10: (3, 4, 4, 5, 5),
}

# "more than half of ALL players", i.e. floor(N/2) + 1; a tie is a rejection
# (Czech rulebook, Hlasování o týmu).
APPROVALS_NEEDED = {5: 3, 6: 4, 7: 4, 8: 5, 9: 5, 10: 6}

SLOTS = 5                       # at most five actions (Czech rulebook, Průběh hry)
WINS_NEEDED = 3                 # 3 successes: mafia; 3 failures: detectives (Konec hry)
MAX_REJECTIONS = 5              # 5 teams in a row not approved: detectives win at once
TWO_FAIL_SLOT = 4               # "the 4th action with 7+ players needs 2 fail cards"
TWO_FAIL_MIN_PLAYERS = 7
SLOT5_SUCCESSES_NEEDED = 2      # targeting: "the 5th action only after 2 actions succeeded"
TEAM_SAMPLE_LIMIT = 256         # legal_actions lists at most this many crews per slot
# A reaction window lasts at least this long however quickly its holders answer, so nobody
# learns from its length who thought about playing (rules §A.3.3; PROPOSED length).
PLOT_WINDOW_SECONDS = 4

DETECTIVE_MEETING = "detective_meeting"
TEAM_SELECTION = "team_selection"
TEAM_VOTE = "team_vote"
ACTION_PLAY = "action_play"
PLOT_DEAL = "plot_deal"         # The Plot Thickens: the Kmotr hands out the round's plot cards
PLOT_WINDOW = "plot_window"     # The Plot Thickens: holders of a card are asked, one by one
GAME_OVER = "game_over"

# The chance kit's labels for the setup's draws (engines/chance.py; the plot deck's is plot.SHUFFLE).
DEAL, KMOTR = "deal", "kmotr"

OPTIONS = [
    Option("targeting", "Change the order of actions", False,
           help="The Kmotr first picks which action to attempt; each action once; the 5th "
                "only after two actions succeeded (Czech rulebook, Změna pořadí akcí)."),
    Option("blind_detectives", "Detectives don't know each other", False,
           help="Skip the detective meeting (Czech rulebook, Detektivové se neznají)."),
    Option("plot_cards", "The Plot Thickens", False,
           help="Plot cards: the Kmotr deals 1–3 each round (Czech rulebook, Smyčka se utahuje)."),
    Option("plot_distribution", "Plot cards for 5–6 players", plot.CZ, kind="choice",
           choices=((plot.CZ, "7 cards, 1 per round (Czech rulebook)"),
                    (plot.ULTRA, "10 cards, 2 per round")),
           help="Which deck and how many cards a round with 5–8 players uses."),
]


def team_size(players: int, slot: int) -> int:
    return TEAM_SIZE[players][slot - 1]


def fails_needed(players: int, slot: int) -> int:
    """Fail cards that foil the action in ``slot`` (rules A.2; A-Q12 puts the rule on slot 4)."""
    return 2 if slot == TWO_FAIL_SLOT and players >= TWO_FAIL_MIN_PLAYERS else 1


def left(state: State, seat: int) -> int:
    """The next seat clockwise (rules §0: Czech "po levici" = clockwise)."""
    return (seat + 1) % state["players"]


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
        "plot": None,               # The Plot Thickens (mafie_plot.py): cards dealt, held, used
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


# --------------------------------------------------------------------------------------------
# Phase transitions
#
# Each takes the state the current ``setup`` builds or ``apply`` works on (its
# ``working_copy``: engines/base.py), changes it and appends to ``events``.
# --------------------------------------------------------------------------------------------

def _begin_detective_meeting(state: State, events: list[Event]) -> None:
    next_turn(state, DETECTIVE_MEETING)
    say(state, "detective_meeting")


def _begin_round(state: State, events: list[Event]) -> None:
    """ROUND_START(r) (rules A.2).  [Expansion: the round's plot deal is scheduled from here.]"""
    events.append(Event("round_started", {"round": state["round"], "kmotr": state["kmotr"]}))
    if not state["options"]["targeting"]:
        slot = state["round"]
        say(state, "round_start", round=slot, team_size=team_size(state["players"], slot),
            two_fails=fails_needed(state["players"], slot) == 2)
    if state["plot"] is None:
        _begin_proposal(state, events)
    elif not _open_window(state, events, "pre_proposal", "deal"):
        _begin_plot_deal(state, events)    # Strong Leader first: the new Kmotr would deal


def _begin_plot_deal(state: State, events: list[Event]) -> None:
    """PLOT_DEAL (rules §A.3.3): the Kmotr draws the round's cards, shows them and hands them
    out one at a time; each immediate card is carried out before the next is handed out."""
    count = plot.draw_count(state["players"], state["options"]["plot_distribution"])
    public, secret = plot.draw(state["plot"], state["secret"]["plot"], count, events)
    state["plot"], state["secret"] = public, {**state["secret"], "plot": secret}
    next_turn(state, PLOT_DEAL)
    say(state, "plot_deal", kmotr=state["kmotr"], drawn=[card["card"] for card in public["drawn"]])
    _after_plot_move(state, events)


def _after_plot_move(state: State, events: list[Event]) -> None:
    """The deal goes on while cards remain or a card awaits its holder; then the proposal."""
    if not plot.dealing(state["plot"]):
        _begin_proposal(state, events)


def _begin_proposal(state: State, events: list[Event]) -> None:
    """A new team-building attempt.  [Expansion: PRE_PROPOSAL window (Strong Leader) first.]"""
    next_turn(state, TEAM_SELECTION)
    state["team"] = []
    if state["options"]["targeting"]:
        state["slot"] = None    # rules A.3.1: the Kmotr names the slot with the crew
        say(state, "choose_slot", round=state["round"], kmotr=state["kmotr"])
    else:
        state["slot"] = state["round"]
        say(state, "team_selection", kmotr=state["kmotr"],
            team_size=team_size(state["players"], state["slot"]))


def _begin_vote(state: State, events: list[Event]) -> None:
    """TEAM_VOTE: every seat votes (rules A.2).  [Expansion: Opinion Makers vote first.]"""
    next_turn(state, TEAM_VOTE)
    state["secret"] = {**state["secret"], "ballots": [None] * state["players"]}
    state["narration"] = []
    openers = plot.opinion_makers(state["plot"]) if state["plot"] is not None else []
    # Opinion Maker (rules §A.3.3, 5): its holders choose first and are revealed, then the rest.
    state["opinion"] = {"seats": openers, "votes": None} if openers else None
    if state["options"]["targeting"]:
        slot = state["slot"]
        say(state, "slot_chosen", slot=slot, team_size=team_size(state["players"], slot),
            two_fails=fails_needed(state["players"], slot) == 2)
    say(state, "vote", approvals_needed=APPROVALS_NEEDED[state["players"]])


def _reveal_votes(state: State, events: list[Event]) -> None:
    """Flip every vote card face up, with names (Czech rulebook, Hlasování o týmu)."""
    players = state["players"]
    ballots = state["secret"]["ballots"]
    approve = ballots.count(True)
    record = {
        "kmotr": state["kmotr"], "slot": state["slot"], "team": list(state["team"]),
        "votes": list(ballots), "approve": approve, "reject": players - approve,
        # "nadpoloviční většina všech hráčů"; a tie is a rejection (Hlasování o týmu)
        "approved": approve >= APPROVALS_NEEDED[players],
    }
    state["secret"] = {**state["secret"], "ballots": [None] * players}
    state["opinion"] = None
    state["last_vote"] = record
    state["vote_history"] = state["vote_history"] + [record]
    state["narration"] = []
    events.append(Event("votes_revealed", _vote_view(record)))
    if record["approved"]:
        _after_approval(state, events)
    else:
        _after_rejection(state, events)


def _after_approval(state: State, events: list[Event]) -> None:
    """An approved crew; with plot cards, No Confidence and then In the Spotlight may react."""
    vote = state["last_vote"]
    say(state, "approved", approve=vote["approve"], reject=vote["reject"])
    if state["plot"] is None or not _open_window(state, events, "no_confidence", "spotlight"):
        _continue(state, events, "spotlight")


def _proceed_to_action(state: State, events: list[Event]) -> None:
    # The counter resets only when an approved crew proceeds to the action (rules A.2).
    state["rejections"] = 0
    _begin_action_play(state, events)


def _after_rejection(state: State, events: list[Event], cancelled: bool = False) -> None:
    """A failed vote (rules A.2), or an approval ``cancelled`` by No Confidence, which counts
    the same way (rules §A.3.3, 2) — its narration then gives no vote count."""
    vote = state["last_vote"]
    state["rejections"] += 1
    counts = {} if cancelled else {"approve": vote["approve"], "reject": vote["reject"]}
    if state["rejections"] >= MAX_REJECTIONS:
        # "Detektivové ve hře zvítězí okamžitě, když není schváleno 5 týmů pro akci po sobě."
        say(state, "five_rejections", **counts)
        _end_game(state, events, DETECTIVES, "five_rejections")
        return
    # "posuňte žeton kmotra ke hráči po levici současného kmotra" (Hlasování o týmu)
    _pass_kmotr(state, events, left(state, state["kmotr"]))
    say(state, "rejected" if not cancelled else "cancelled", **counts, count=state["rejections"],
        kmotr=state["kmotr"])
    if state["plot"] is None or not _open_window(state, events, "pre_proposal", "proposal"):
        _begin_proposal(state, events)


def _pass_kmotr(state: State, events: list[Event], seat: int) -> None:
    state["kmotr"] = seat
    events.append(Event("kmotr_passed", {"kmotr": seat}))


def _begin_action_play(state: State, events: list[Event]) -> None:
    """ACTION_PLAY: each crew member plays one action card in secret (rules A.2)."""
    next_turn(state, ACTION_PLAY)
    state["secret"] = {**state["secret"], "cards": [None] * state["players"]}
    say(state, "action_play")


def _after_cards_submitted(state: State, events: list[Event]) -> None:
    """All cards are in; with plot cards, Keeping a Close Eye on You may look first."""
    if state["plot"] is None or not _open_window(state, events, "close_eye", "reveal"):
        _reveal_action(state, events)


def _open_window(state: State, events: list[Event], kind: str, then: str) -> bool:
    """Ask the holders of ``kind``'s card, one by one from the Kmotr clockwise (rules §A.3.3,
    "Reaction windows"); False if nobody holds one (holdings are public: nothing to hide)."""
    queue = plot.poll(state["plot"], kind, state["kmotr"], state["players"])
    if not queue:
        return False
    next_turn(state, PLOT_WINDOW)
    # "opened": which window this is (the turn it opened at).  The game master closes it
    # PLOT_WINDOW_SECONDS after it opened, once everyone asked has answered (close_window).
    # The clock's id is that turn, not base.start_clock's counter: a window and its clock are
    # one thing, named alike since they were built (the web layer and its tests rely on it).
    state["window"] = {"kind": kind, "queue": queue, "then": then, "opened": state["turn"]}
    state["clock"] = {"id": state["turn"], "seconds": PLOT_WINDOW_SECONDS, "move": {"type": "close_window"}}
    say(state, "plot_window", kind=kind, card=plot.WINDOWS[kind])
    return True


def _continue(state: State, events: list[Event], then: str) -> None:
    """Where the game goes once a window has closed."""
    state["window"] = None
    stop_clock(state)
    if then == "deal":
        _begin_plot_deal(state, events)
    elif then == "proposal":
        _begin_proposal(state, events)
    elif then == "spotlight":
        if state["plot"] is None or not _open_window(state, events, "spotlight", "action"):
            _proceed_to_action(state, events)
    elif then == "action":
        _proceed_to_action(state, events)
    else:
        _reveal_action(state, events)


def _reveal_action(state: State, events: list[Event]) -> None:
    """Shuffle and reveal the cards: counts only, never who played what (rules A.2)."""
    players, slot = state["players"], state["slot"]
    cards = state["secret"]["cards"]
    played = [cards[seat] for seat in state["team"]]
    fails = played.count(FAIL)
    spotlight = state["spotlight"]
    # One fail foils an action, two on the 4th with 7+ players (Czech rulebook, Průběh akce).
    result = FAIL if fails >= fails_needed(players, slot) else SUCCESS
    track = list(state["track"])
    track[slot - 1] = {"result": result, "fails": fails}
    state["track"] = track
    state["last_action"] = {"slot": slot, "successes": len(played) - fails, "fails": fails,
                            "result": result}
    if spotlight is not None:   # In the Spotlight: that one card is shown with its player's name
        state["last_action"]["spotlight"] = {"seat": spotlight, "card": cards[spotlight]}
    state["spotlight"], state["inspected"] = None, []
    state["secret"] = {**state["secret"], "cards": [None] * players}
    events.append(Event("action_cards", {"slot": slot, "team": list(state["team"]),
                                         "cards": played}, NOBODY))
    events.append(Event("action_revealed", dict(state["last_action"])))
    state["narration"] = []
    say(state, "reveal", successes=len(played) - fails, fails=fails, result=result)
    if fails == 1 and fails_needed(players, slot) == 2:
        say(state, "two_fails_needed")
    _after_action(state, events)


def _after_action(state: State, events: list[Event]) -> None:
    """Three of a kind ends the game; else the next round (Czech rulebook, Konec hry)."""
    results = [entry["result"] for entry in state["track"]]
    if results.count(SUCCESS) >= WINS_NEEDED:
        say(state, "mafia_win")
        _end_game(state, events, MAFIA, "three_successes")
    elif results.count(FAIL) >= WINS_NEEDED:
        say(state, "detective_win")
        _end_game(state, events, DETECTIVES, "three_failures")
    else:
        # Left of the Kmotr who proposed the approved crew (rules A.2 invariants).
        _pass_kmotr(state, events, left(state, state["last_vote"]["kmotr"]))
        state["round"] += 1
        _begin_round(state, events)


# --------------------------------------------------------------------------------------------
# Actions
# --------------------------------------------------------------------------------------------

def ready(state: State, seat: int, action: Action) -> Result:
    """Detective meeting, phone mode: every seat taps ready once (rules A.2, A.4)."""
    _expect_phase(state, DETECTIVE_MEETING)
    if seat in state["ready"]:
        raise IllegalAction("already_ready", "You are already ready")
    state["ready"] = sorted(state["ready"] + [seat])
    events = [Event("ready", {"seat": seat})]
    if len(state["ready"]) == state["players"]:
        state["narration"] = []
        _begin_round(state, events)
    return Result(state, events)


def propose_team(state: State, seat: int, action: Action) -> Result:
    """The Kmotr names the crew (and, with targeting, the slot) (rules A.2 TEAM_SELECTION)."""
    _expect_phase(state, TEAM_SELECTION)
    if seat != state["kmotr"]:
        raise IllegalAction("not_kmotr", "Only the Kmotr proposes the crew")
    slot = _checked_slot(state, action.get("slot"))
    team = _checked_team(state, action["team"], team_size(state["players"], slot))
    state["slot"] = slot
    state["team"] = team
    events = [Event("team_proposed", {"kmotr": seat, "slot": slot, "team": list(team)})]
    _begin_vote(state, events)
    return Result(state, events)


def _checked_slot(state: State, slot: int | None) -> int:
    if not state["options"]["targeting"]:
        if slot is not None and slot != state["round"]:
            raise IllegalAction("wrong_slot", f"This is action {state['round']}")
        return state["round"]
    # Targeting (Czech rulebook, Změna pořadí akcí; rules A.3.1)
    if slot is None:
        raise IllegalAction("slot_required", "Choose which action to attempt")
    if not 1 <= slot <= SLOTS:
        raise IllegalAction("unknown_slot", "There are only actions 1 to 5")
    if state["track"][slot - 1]["result"] is not None:
        raise IllegalAction("slot_played", "Each action can be played only once")
    if slot == SLOTS and _successes(state) < SLOT5_SUCCESSES_NEEDED:
        raise IllegalAction("slot_locked", "Action 5 opens only after two successful actions")
    return slot


def _checked_team(state: State, team: list[int], size: int) -> list[int]:
    """Exactly ``size`` distinct players, the Kmotr may include himself (rules A.2)."""
    if any(not 0 <= seat < state["players"] for seat in team):
        raise IllegalAction("unknown_seat", "Pick players at this table")
    if len(set(team)) != len(team):
        raise IllegalAction("duplicate_seat", "Pick each player at most once")
    if len(team) != size:
        raise IllegalAction("wrong_team_size", f"The crew needs exactly {size} players")
    return sorted(team)


def vote(state: State, seat: int, action: Action) -> Result:
    """Approve or reject, secretly; revealed when the last vote arrives (rules A.2 TEAM_VOTE)."""
    _expect_phase(state, TEAM_VOTE)
    ballots = state["secret"]["ballots"]
    if ballots[seat] is not None:
        raise IllegalAction("already_voted", "You have already voted")
    opinion = state["opinion"]
    if _opinion_first(state) and seat not in opinion["seats"]:
        raise IllegalAction("opinion_first", "The Opinion Maker votes first")
    ballots = list(ballots)
    ballots[seat] = action["approve"]
    state["secret"] = {**state["secret"], "ballots": ballots}
    events = [Event("vote_cast", {"seat": seat})]
    if _opinion_first(state) and all(ballots[s] is not None for s in opinion["seats"]):
        # Two Opinion Makers choose secretly and are revealed together.
        votes = [[s, ballots[s]] for s in opinion["seats"]]
        state["opinion"] = {**opinion, "votes": votes}
        next_turn(state)
        events.append(Event("opinion_votes", {"votes": votes}))
        say(state, "opinion_votes", approve_seats=[s for s, v in votes if v],
            reject_seats=[s for s, v in votes if not v])
    if None not in ballots:     # "the app waits for every vote" (rules A.2)
        _reveal_votes(state, events)
    return Result(state, events)


def _opinion_first(state: State) -> bool:
    """Are Opinion Makers still to vote before everyone else (rules §A.3.3, 5)?"""
    return bool(state["opinion"]) and state["opinion"]["votes"] is None


def play_action_card(state: State, seat: int, action: Action) -> Result:
    """A crew member plays Success or Fail in secret (rules A.2 ACTION_PLAY)."""
    _expect_phase(state, ACTION_PLAY)
    if seat not in state["team"]:
        raise IllegalAction("not_on_team", "Only the crew plays action cards")
    cards = state["secret"]["cards"]
    if cards[seat] is not None:
        raise IllegalAction("already_played", "You have already played your card")
    card = action["card"]
    # "Mafiáni musejí vybrat karty úspěchu" (Czech rulebook, Průběh akce); refused privately.
    if card == FAIL and state["secret"]["roles"][seat] == MAFIOSO:
        raise IllegalAction("mafioso_must_succeed", "Mafiosi must play Success")
    cards = list(cards)
    cards[seat] = card
    state["secret"] = {**state["secret"], "cards": cards}
    events = [Event("card_played", {"seat": seat})]
    if all(cards[member] is not None for member in state["team"]):
        _after_cards_submitted(state, events)
    return Result(state, events)


def assign_plot_card(state: State, seat: int, action: Action) -> Result:
    """The Kmotr hands one drawn plot card to another player (rules §A.3.3, the deal)."""
    _expect_phase(state, PLOT_DEAL)
    return _plot_move(state, lambda public, secret, events: plot.assign(
        public, secret, kmotr=state["kmotr"], seat=seat, card_id=action["card"], to=action["to"],
        roles=state["secret"]["roles"], events=events))


def carry_out_plot_card(state: State, seat: int, action: Action) -> Result:
    """The holder of an immediate card makes its choice: take, overhear, open up."""
    _expect_phase(state, PLOT_DEAL)
    return _plot_move(state, lambda public, secret, events: plot.resolve(
        public, secret, seat=seat, action=action, roles=state["secret"]["roles"], events=events))


def play_plot_card(state: State, seat: int, action: Action) -> Result:
    """The asked holder plays the window's card (rules §A.3.3, cards 1–4)."""
    window = _asked(state, seat)
    held = plot.holding(state["plot"], seat, plot.WINDOWS[window["kind"]])
    if held is None or held["id"] != action["card"]:
        raise IllegalAction("not_your_plot_card", "You have no plot card to play now")
    target = action.get("target")
    events: list[Event] = []
    if held["card"] in plot.TARGETED:
        if target not in state["team"]:
            raise IllegalAction("not_on_crew", "Pick a member of the crew")
        if held["card"] == "keeping_close_eye":
            if target == seat:
                raise IllegalAction("close_eye_self", "Watch someone else")
            if target in state["inspected"]:
                raise IllegalAction("already_watched", "Someone already watches that card")
            state["inspected"] = state["inspected"] + [target]
            state["secret"] = {**state["secret"], "plot": plot.learn_card(
                state["secret"]["plot"], seat, held, target, state["secret"]["cards"][target], events)}
        else:
            state["spotlight"] = target
    elif target is not None:
        raise MalformedAction("bad_target", "This card takes no target")
    state["plot"] = plot.spend(state["plot"], held, target if held["card"] in plot.TARGETED else None, events)
    next_turn(state)
    _announce_plot(state, events)
    if held["card"] == "strong_leader":
        # Card 1: the holder becomes the Kmotr; one per vote, so the window closes.
        _pass_kmotr(state, events, seat)
        say(state, "strong_leader", kmotr=seat)
        _continue(state, events, window["then"])
    elif held["card"] == "no_confidence":
        # Card 2: the approved crew is cancelled and this counts as a rejected vote.
        state["window"] = None
        say(state, "no_confidence", seat=seat)
        _after_rejection(state, events, cancelled=True)
    else:
        _next_asked(state, events)
    return Result(state, events)


def pass_plot(state: State, seat: int, action: Action) -> Result:
    """The asked holder lets the moment go; a pass is final for this window."""
    _asked(state, seat)
    next_turn(state)
    events: list[Event] = [Event("plot_passed", {"seat": seat, "window": state["window"]["kind"]})]
    _next_asked(state, events)
    return Result(state, events)


def _asked(state: State, seat: int) -> dict:
    _expect_phase(state, PLOT_WINDOW)
    window = state["window"]
    if window["queue"][0] != seat:
        raise IllegalAction("not_your_plot_card", "You have no plot card to play now")
    return window


def _next_asked(state: State, events: list[Event]) -> None:
    """The next holder; after the last, the window waits for the game master (the server) to
    close it: it does so once the window's minimum time is over, so a quick pass and a long
    thought look the same from across the table (rules §A.3.3, reaction windows)."""
    window = state["window"]
    state["window"] = {**window, "queue": window["queue"][1:]}


def close_window(state: State, seat: int | None, action: Action) -> Result:
    """The game master closes a window whose holders have all answered."""
    _expect_phase(state, PLOT_WINDOW)
    if seat is not None or state["window"]["queue"]:
        raise IllegalAction("not_your_turn", "Only the game master closes the window")
    events: list[Event] = [Event("plot_window_closed", {"window": state["window"]["kind"]})]
    _continue(state, events, state["window"]["then"])
    return Result(state, events)


def _plot_move(state: State, move) -> Result:
    events: list[Event] = []
    public, secret = move(state["plot"], state["secret"]["plot"], events)
    state["plot"], state["secret"] = public, {**state["secret"], "plot": secret}
    next_turn(state)   # the deal's screens change with every card
    _announce_plot(state, events)
    _after_plot_move(state, events)
    return Result(state, events)


def _announce_plot(state: State, events: list[Event]) -> None:
    """The TV announces every card handed out and every card used, and on whom (plot cards
    are never hidden); Strong Leader and No Confidence have lines of their own."""
    for event in events:
        if event.kind == "plot_dealt":
            say(state, "plot_dealt", seat=event.data["to"], card=event.data["card"])
        elif event.kind == "plot_used" and event.data["card"] not in ("strong_leader", "no_confidence"):
            say(state, "plot_used", seat=event.data["seat"], card=event.data["card"],
                target=event.data.get("target"))


def _expect_phase(state: State, phase: str) -> None:
    if state["phase"] != phase:
        raise IllegalAction("wrong_phase", "That is not possible right now")


def _successes(state: State) -> int:
    return sum(1 for entry in state["track"] if entry["result"] == SUCCESS)


# --------------------------------------------------------------------------------------------
# Parsing actions (structure only; the rules are checked by the handlers above)
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


# --------------------------------------------------------------------------------------------
# End of game
# --------------------------------------------------------------------------------------------

def _end_game(state: State, events: list[Event], winner: str, reason: str) -> None:
    """GAME_OVER: the winning team, and every role revealed (rules A.2, A-Q14)."""
    next_turn(state, GAME_OVER)
    stop_clock(state)
    role = MAFIOSO if winner == MAFIA else DETECTIVE
    roles = state["secret"]["roles"]
    winners = [seat for seat, seat_role in enumerate(roles) if seat_role == role]
    state["outcome"] = {"winner": winner, "reason": reason, "winners": winners}
    events.append(Event("game_over", {"winner": winner, "reason": reason,
                                      "winners": list(winners), "roles": list(roles)}))


def outcome(state: State) -> Outcome | None:
    return Outcome.from_json(state["outcome"])


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


def _vote_view(record: dict | None) -> dict | None:
    if record is None:
        return None
    return {**record, "team": list(record["team"]), "votes": list(record["votes"])}


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


# --------------------------------------------------------------------------------------------
# The ruleset object (engines.base.Ruleset)
# --------------------------------------------------------------------------------------------

def host_moves(state: State) -> list[Action]:
    """Mafie's host has no buttons of its own: the game master's clock closes the windows."""
    return []


RULESET = Engine(
    slug="mafie", title="Mafie", min_players=min(ROLES), max_players=max(ROLES), options=lambda: list(OPTIONS),
    setup=setup, legal_actions=legal_actions, apply=apply, view=view, outcome=outcome, waiting_for=waiting_for,
    host_moves=host_moves, proxy_moves=host_proxy_moves, removable=removable)
