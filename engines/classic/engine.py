"""Classic Mafia — GRANNA "Мафія" (Ukrainian, slug ``granna``) and "Mafia – zasady gry" (Polish,
slug ``mafia_pl``): one engine, two editions (``editions.py``).

Sources: GRANNA's Ukrainian "Мафія" rulebook and the Polish "Mafia – zasady gry" rulebook are
the authority (credited in the file below), restated in English in
``docs/rules/classic-mafia.md`` §0, §B and §C ("rules B.2.1" below means that file).  The app
is the game master: every human gets a role, the TV shows the public table, each phone its
owner's secrets.  Teams: the mafia (mafiosi) against the police (policemen, the one agent and
the Polish extra roles doctor, wizard and judge).

The code follows the rulebooks' chapters, each file read top to bottom: ``table.py`` (the
phases, the state and what every chapter reads; eliminations and the win check, rules B.2.3,
B.2.4), ``setup.py`` (B.1, C.1), ``night_steps.py`` (the night and its dawn, B.2, C.2, C.3),
``day.py`` (votes, lynch and last shots, B.2.1, B.2.2, B.3.2, B.3.3), ``windows.py`` (GRANNA's
action cards played, B.3.4), ``host.py`` (the host for a seat, E.2), ``moves.py`` (whose move),
``views.py`` (B.4, C.4); the pure tables ``roles.py``, ``night.py``, ``votes.py``, the cards'
``cards.py`` (B.3.4, B.3.5) and the editions' presets ``editions.py``.  This file gathers them:
the actions and ``apply``, and the two rulesets.

Phases (a round is a night then a day; ``[...]`` marks what options add; ``{...}`` what GRANNA's
extended version adds — the action cards and the New Gang, rules B.3.4, B.3.5, ``cards.py``,
``windows.py``)::

    setup ── roles dealt {cards dealt; the Leader and the Role Swap shown}
      ├─ {role_swap}  the Role Swap's holder swaps tokens with one player, or not (deadline: not)
      ▼
    night (round r)
      │   each step is its own phase, lasts at least night_seconds and ends by the game
      │   master's ``timeout`` (the clock); skipped steps are not announced:
      ├─ agent    the agent checks one living player (GRANNA: must; Polish: may skip).
      │           Skipped once the agent is out, [kids_no_agent], [small game: from round 2]
      ├─ [doctor] the doctor heals one living player (or skips); skipped once he is out
      ├─ {new_gang} round 1: the New Gang's members see each other (nobody acts)
      ├─ mafia    the living mafiosi {and recruits} meet and agree on a victim: unanimity locks
      │           at once, else plurality / fair draw at the deadline (night.py).
      │           {A mafioso may play Recruitment: the recruit wakes and joins the choice}
      │           [small game: skipped in round 1 unless small_game_round1_mafia]
      ├─ [wizard] while the spell is unused: swap two players' cards, or not
      ▼
    _dawn        the spell (cards swapped now), [small game: the caught agent out], the victim
      │          out with his role revealed, or "nobody" (doctor's save); win check after each
      ├─ {card_window dawn}  "the Mafia struck at …": Vest (him) / Bandage (another) → saved
      ├─► last_shot   [large game, round 1 / kids_last_shot_all]: the dead victim shoots
      ├─ {card_window last_shot}  a dead Policeman may show the Last Shot card (chains)
      ├─ {card_window day_start}  Arrest, Capture
      ▼
    discussion ──(host end_discussion / discussion clock)──► vote
      │   every living player {not barred by a card} names one other player {on the ballot};
      │   secret until the last, then revealed by name (votes.py) {with the Leader: one at a
      │   time from its holder clockwise, each public at once}.  {Corner Shot: any moment of
      │   the discussion, the defence, the re-discussion}
      ├─ {a tie for the most in any vote, the Leader on the table ──► leader_pick ──► lynch}
      ├─ [kids_single_vote] one leader ──► lynch;  a tie ──► final_vote among the tied
      ▼
    defence      the finalists (rules B.2.1) speak; host end_defence (a lone finalist ──► lynch)
      ▼
    final_vote   ballot = the finalists [Polish arrest_scope=anyone: every living player]
      │ one leader ──► lynch
      ▼ tie
    re_discussion ──(host)──► re_vote among the tied ── one leader ──► lynch
                                                     └─ tie ──► coin among the tied ──► lynch
    lynch        {card_window lynch: Vest / Bandage → saved, nobody lynched today} role
                 revealed; win check; [last_shot]; {card_window last_shot};
                 {card_window day_end: Wiretap, Hideout, Safe-Conduct, Corner Shot; the Leader
                 passes left}; round += 1 ──► night

    Win check after every single elimination (rules B.2.4): no living mafioso ──► game_over
    (police); no living police-team member ──► game_over (mafia).  Winners include the dead.
    {Teams are effective teams: the token's, then Recruitment (→ mafia), then Turncoat
    (inverted); with the New Gang three forces play until one is left, which wins.}

Who may know what (rules B.4, C.4):

* Roles: each seat its own (event ``role``); the roles of the eliminated are public; all roles
  at game over.  Mafiosi learn each other at their meetings (``me.partners``: everyone the seat
  has met; an ex-mafioso keeps his memory after a swap, a new one meets them at the next
  meeting) and see each other's live picks during the mafia step only.
* The agent's checks reach only the agent (event ``checked``, ``me.checks``), also after he is
  out or swapped away; the doctor's heals only the doctor; the wizard's pair only the wizard.
  At game over all of them are public (``reveal``).
* Votes are secret until the last one arrives, then revealed with names; not even the voter's
  own phone shows a cast vote.  The judge's double vote is announced with the reveal.
* A dead player's phone (option ``ghost_view``) shows every current role and the night's
  actions, with ``me.alive`` False for the "stay silent" banner.

* GRANNA's action cards (rules B.3.4, B.4): each seat its own card (event ``card``,
  ``me.card``), also after death; the box, the Leader, the Role Swap and every card played lie
  face up (``cards``); a play waiting in a window reaches only its player; the Recruitment and
  who was recruited only the mafia (and the recruit), the table only that "a recruitment
  happened"; a Turncoat nobody until the game is over; the New Gang's members each other after
  their meeting, and everybody a member's card at his death.  At game over every card is
  public (``reveal``).

Every secret lives under ``state["secret"]``; views are built field by field.

Our decisions where the rules leave room (rules PROPOSED items are followed unless listed):

* Every night step ends by the game master's ``timeout`` (the clock): ``deadline_seconds``
  while its players have not acted, ``night_seconds`` once they have — so a step always lasts
  at least the minimum and ends at once after it.  The clock is public, so the table can see
  *when* the step's players finished, never what they chose.
* The GRANNA agent must check; if he lets the deadline pass there is simply no check.
* The mafia's deadline: plurality of the picks made; a tie (or no pick at all) is drawn fairly
  among the tied (among every target).  The draw's event (the chance kit's, engines/chance.py)
  goes to the mafiosi only: their picks are private (rules B.4), so not even "the lot decided"
  is public.  The coin among the tied after the re-vote is a public draw of the same kit.
* Small-game rule (R 6–7, GRANNA): the caught agent is out at dawn (cause
  ``small_rule_agent``), before the night's victim; under ``small_game_round1_mafia`` the
  mafia, waking after him, see his face-up token, so he is not among their targets.  He takes
  no last shot (he was not removed in the mafia or police phase) and must not tell whom he saw.
  With ``kids_no_agent`` the small-game rule changes nothing (it is a rule about the agent).
* Last shots: any living player may be shot.  The large-game shots (rules B.3.2: "each get a
  last shot") have no skip button — GRANNA's "мають право" ("have the right") is honoured by
  letting the deadline pass, which means no shot; with ``kids_last_shot_all`` every shot,
  the large-game ones included, is optional ("може", "may") and has a skip button.
* One re-vote, then the coin (rules B.2.2), even when some votes changed but the count is
  still tied (GRANNA talks on "until someone changes his mind").
* kids_single_vote: a tie for the most votes goes straight to the final vote among the tied
  (no defence phase), then rules B.2.2.
* ``arrest_scope=anyone``: the final ballot is every living player, the voter included.
* The judge may double any day vote (first vote, final vote, re-vote); the ``used`` flag is on
  the judge's card, so it follows the card in a wizard swap.
* The wizard's cast is stored at night and carried out at dawn (then every phone shows its
  current role); its targets exclude the wizard and the night's dying victim (a victim saved
  by the doctor may be swapped: the wizard must not learn of the save).
* The doctor heals any living player (himself only with ``doctor_self_heal``), may repeat and
  may skip.
* Re-discussion uses the discussion timer too.
* Engine role and team names are the same in both editions (``mafioso``, ``mafia``…); the
  Polish "gangster" and the children's words are the web layer's.
* ``waiting_for`` names the night's secret actors: it is for the server, never for a screen.
* Narration resets at every night step but the night's first (which follows the day's end),
  at dawn, when the host ends a discussion or the defence, and at every vote's reveal.
* GRANNA's extended version (rules B.3.4, B.3.5; docs/rules/classic-mafia.md E.4 lists them
  all): not offered to hosts yet (editions.EXTENDED_OPTIONS).  A card window is a phase of
  ``window_seconds`` (default 10) on every phone, opened whenever a card that may be played in
  it is in the box and unplayed (public facts), lasting in full whoever plays; a play waits,
  secret, for its end.  The night victim and the lynched player are named first
  (``_night_victim_named``, ``_lynch_victim_named``), then the window; a save means nobody dies
  that dawn / nobody is lynched that day.  More cards chosen than the cap (one per 4 players,
  the New Gang counting 3): the cap's worth drawn by lot, in public.  The Role Swap is always
  shown (for an Agent it does nothing).  A Leader who lets the deadline pass leaves the tie to
  the coin.  Corner Shot: not by the player the mafia struck that round (the rulebook), not at a
  Wiretapped or Hidden player.
"""

from __future__ import annotations

import functools

from engines.base import (
    GAME_MASTER, HOST, PROXY, REMOVE_PLAYER, Action, Engine, Event, IllegalAction, MalformedAction, Result,
    State, handler_for, parse_proxy, parse_removal, say, working_copy,
)
from engines.classic import cards as C
from engines.classic.day import (
    _after_last_shot, end_defence, end_discussion, last_shot, leader_pick, leader_pick_timeout, skip_last_shot, vote,
)
from engines.classic.editions import EDITIONS, Edition
from engines.classic.host import host_proxy_moves, proxy, removable, remove_player
from engines.classic.moves import host_moves, legal_actions, waiting_for
from engines.classic.night_steps import (
    _end_night_step, cast_swap, check, heal, pick_victim, skip_check, skip_heal, skip_swap,
)
from engines.classic.setup import setup
from engines.classic.table import (
    CARD_WINDOW, GAME_OVER, LAST_SHOT, LEADER_PICK, ROLE_SWAP_PHASE, TIMEOUT, _alive, _expect_host, _is_int, outcome,
    roles,
)
from engines.classic.views import view
from engines.classic.windows import close_window, decline_swap, play_card, role_swap_timeout


# --------------------------------------------------------------------------------------------
# The game master's clock ran out (a night step, a last shot)
# --------------------------------------------------------------------------------------------

def timeout(state: State, seat: int | None, action: Action) -> Result:
    """The game master's clock ran out: end the night step, or no last shot."""
    _expect_host(seat)
    if state["clock"] is None or state["clock"]["move"] != TIMEOUT:
        raise IllegalAction("no_clock", "Nothing is timed now")
    events: list[Event] = []
    if state["phase"] == LAST_SHOT:
        shooter = state["last_shot"]["shooter"]
        events.append(Event("shot_skipped", {"shooter": shooter}))
        say(state, "no_shot", shooter=shooter)
        _after_last_shot(state, events, state["last_shot"]["then"])
    elif state["phase"] == CARD_WINDOW:
        close_window(state, events)             # the window's plays take effect (windows.py)
    elif state["phase"] == LEADER_PICK:
        leader_pick_timeout(state, events)
    elif state["phase"] == ROLE_SWAP_PHASE:
        role_swap_timeout(state, events)
    else:
        _end_night_step(state, events)
    return Result(state, events)


# --------------------------------------------------------------------------------------------
# The actions: each parsed (structure only; the rules are checked by the handlers), then
# ``apply``
# --------------------------------------------------------------------------------------------

def _no_fields(action: Action) -> None:
    pass


def _parse_target(action: Action) -> None:
    if not _is_int(action.get("target")):
        raise MalformedAction("bad_target", "Pick a player (a seat number)")


def _parse_targets(action: Action) -> None:
    targets = action.get("targets")
    if not isinstance(targets, list) or len(targets) != 2 or not all(map(_is_int, targets)):
        raise MalformedAction("bad_targets", "Pick two players (two seat numbers)")


def _parse_card(action: Action) -> None:
    if action.get("card") not in C.SINGLE_CARDS + (C.NEW_GANG, C.NEUTRAL):
        raise MalformedAction("bad_action", "Name an action card")
    if "target" in action:
        _parse_target(action)


def _parse_vote(action: Action) -> None:
    _parse_target(action)
    if "double" in action and not isinstance(action["double"], bool):
        raise MalformedAction("bad_double", "double is true or false")


_ACTIONS = {
    "check": (_parse_target, check),
    "skip_check": (_no_fields, skip_check),
    "heal": (_parse_target, heal),
    "skip_heal": (_no_fields, skip_heal),
    "pick_victim": (_parse_target, pick_victim),
    "cast_swap": (_parse_targets, cast_swap),
    "skip_swap": (_no_fields, skip_swap),
    "vote": (_parse_vote, vote),
    "last_shot": (_parse_target, last_shot),
    "skip_last_shot": (_no_fields, skip_last_shot),
    "timeout": (_no_fields, timeout),
    "end_discussion": (_no_fields, end_discussion),
    "end_defence": (_no_fields, end_defence),
    "play_card": (_parse_card, play_card),
    "decline_swap": (_no_fields, decline_swap),
    "leader_pick": (_parse_target, leader_pick),
    PROXY: (parse_proxy, proxy),
    REMOVE_PLAYER: (parse_removal, remove_player),
}
_HOST_ACTIONS = {"timeout", "end_discussion", "end_defence", PROXY, REMOVE_PLAYER}
_HOST_BUTTONS = {"end_discussion", "end_defence", PROXY, REMOVE_PLAYER}   # the host's (never the clock's timeout)


def apply(state: State, seat: int | str | None, action: Action) -> Result:
    """Apply ``seat``'s action to a copy of ``state``; raise and change nothing if it is bad.
    The game master makes only its clock's move; the host its buttons, proxies and removals."""
    handler = handler_for(_ACTIONS, state, seat, action, over=state["phase"] == GAME_OVER)
    if seat is GAME_MASTER and action["type"] not in _HOST_ACTIONS:
        raise IllegalAction("not_your_turn", "The game master has nothing to do here")
    if seat is GAME_MASTER and not state["clock"]:
        raise IllegalAction("no_clock", "No clock is running")
    if seat is GAME_MASTER and action != state["clock"]["move"]:
        raise IllegalAction("not_your_turn", "That is not the running clock's move")
    if seat == HOST and action["type"] not in _HOST_BUTTONS:
        raise IllegalAction("not_your_turn", "The host has nothing to do here")
    if type(seat) is int and action["type"] not in _HOST_ACTIONS and not _alive(state, seat) \
            and action["type"] not in ("last_shot", "skip_last_shot", "play_card"):
        # a dead player shoots (a last shot, or his Last Shot card in its window: windows.py)
        raise IllegalAction("dead", "The eliminated stay silent")
    return handler(working_copy(state), seat, action)


# --------------------------------------------------------------------------------------------
# The ruleset objects (engines.base.Ruleset), one per edition
# --------------------------------------------------------------------------------------------

def _ruleset(edition: Edition) -> Engine:
    """One edition of classic Mafia; everything but ``setup`` reads the edition from state."""
    return Engine(
        slug=edition.slug, title=edition.title, min_players=edition.min_players,
        max_players=edition.max_players, options=lambda: list(edition.options),
        setup=functools.partial(setup, edition), legal_actions=legal_actions, apply=apply, view=view,
        outcome=outcome, waiting_for=waiting_for, host_moves=host_moves, proxy_moves=host_proxy_moves,
        removable=removable, roles=roles,
        # The results the table waits for (engines/moments.py): a vote shown, the coin among the
        # tied, a player out (at dawn, by the verdict, by a last shot).
        moments=frozenset({"votes_revealed", "coin", "eliminated"}))


RULESETS = {slug: _ruleset(edition) for slug, edition in EDITIONS.items()}
