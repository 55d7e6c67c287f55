"""Mafie — MINDOK's Czech edition of Don Eskridge's *The Resistance* (slug ``mafie``).

Source: MINDOK's Czech "Mafie" rulebook (the authority; credited in the file below), restated
in English in ``docs/rules/mafie.md`` sections A.0–A.6 ("rules A.2" below means that file).
The Czech edition keeps the Resistance mechanics one to one but swaps the morals: the
**mafiosi** are the uninformed majority and want every action (job) to *succeed*; the undercover
**detectives** are the informed minority and want actions to *fail*.  The app is the game master:
nobody sits out, the TV shows the public board, each phone its owner's secrets.

The package, read in the rulebook's order:

* ``tables.py`` — the components as data (rules A.1), the phases, the options (A.3);
* ``setup.py`` — the setup procedure (A.1): roles dealt, first Kmotr, [plot deck];
* ``base_game.py`` — the base game's state machine (A.2, with the expansion's hooks in brackets;
  A.3.1 targeting): detective meeting, round, team selection, vote, action, end of game;
* ``plot_cards.py`` and ``plot_moves.py`` — the Plot Thickens (A.3.3): the cards, the deck, the
  Kmotr's deal and the immediate cards; then the deal's and the reaction windows' moves;
* ``moves.py`` — every action's way in, the host acting for a player (§E.1), whose move it is;
* ``views.py`` — what each screen may show (A.4).

Modules import "down" only, in the order tables, base_game, setup, plot_moves, moves, views
(plot_cards below them all); this file puts the ruleset together.

Phases (rules A.2; ``[...]`` marks what the Plot Thickens adds, option ``plot_cards``,
rules §A.3.3, cards in ``plot_cards.py``; a window asks the holders of its card one by one)::

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

from engines.base import Engine
from engines.mafie.base_game import outcome, roles
from engines.mafie.moves import apply, host_moves, host_proxy_moves, legal_actions, removable, waiting_for
from engines.mafie.setup import setup
from engines.mafie.tables import OPTIONS, PLOT_WINDOW_SECONDS, ROLES
from engines.mafie.views import view

# What other code reads of Mafie besides RULESET (the presenter, the tests).
__all__ = ["OPTIONS", "PLOT_WINDOW_SECONDS", "ROLES", "RULESET", "waiting_for"]

RULESET = Engine(
    slug="mafie", title="Mafie", min_players=min(ROLES), max_players=max(ROLES), options=lambda: list(OPTIONS),
    setup=setup, legal_actions=legal_actions, apply=apply, view=view, outcome=outcome, waiting_for=waiting_for,
    host_moves=host_moves, proxy_moves=host_proxy_moves, removable=removable, roles=roles,
    # The results the table waits for (engines/moments.py): the team vote, a job's cards.
    moments=frozenset({"votes_revealed", "action_revealed"}))
