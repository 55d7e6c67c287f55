"""Mrakošlapi — setup, apply and the ruleset object (slug ``mrakoslapi``): the pure rule modules
of this package (``cards``, ``players``, ``night``, ``resolver``, ``announce``, ``day``) wired into
the engine protocol of ``engines/base.py`` by ``cycle``, ``moves``, ``turns`` and ``views``,
registered in ``engines/registry.py``.

"rules §4.2" means ``docs/rules/mrakoslapi.md``; the Czech rulebook is the authority.

Phases (a cycle is night n then day n)::

    setup ── secret deal (cards.deal, or a forced deal) ──► NIGHT_START(1)
    NIGHT_START(n) ── no meaning (rules §4.1) ──► "night.no_meaning" ──► DAY_START(n)
      │
      ▼
    night   every ALIVE seat (and a pending Duch Bobo ghost) has a night screen with its prompts
      │     (rules §4.2), in parallel; choices may change until the seat sends ``done``.
      │     The clock ``timeout`` ends it: ``night_deadline_seconds`` after it began, or
      │     ``night_min_seconds`` once everybody has confirmed.  Missing choices take the
      │     rules §4.2 defaults.
      ▼
    dawn    build_night_input → resolve → apply_night → announce.morning; the trace is kept in
      │     ``secret.traces``; one game-alive player or none ──► over (rules §6.1)
      ▼
    DAY_START(n) ── no meaning (rules §5.1) ──► next night (or over: stalemate guard)
      │
      ▼
    day     the ``day`` machine: FLOOR → DEFENCE → THINK → VOTE → SENTENCE/REFLOOR/END;
      │     players' moves are actions, every timer of rules §5.2 is the game master's clock
      │     move (close_floor, defence_timeout, open_votes, close_window, close_sentence)
      ▼
    END ──► NIGHT_START(n + 1);  GAME_OVER (day.result) ──► over

State (every secret under ``state["secret"]``)::

    {"ruleset": "mrakoslapi", "players": 6, "options": {...}, "turn": int,
     "phase": "night" | "day" | "over", "number": n,          # night n / day n
     "day": <day dict> | None,                               # public
     "morning": [line], "narration": [line],                 # public codes + params
     "clock": {"id", "seconds", "move"} | None, "clock_key": str | None, "clock_count": int,
     "result": {"reason", "winners", "ranking"} | None,
     "secret": {"table": {night, players, pending_bobo, next_extra_mrak_no, quiet_cycles,
                          cycle_progress},
                "dealt": [hand per seat],
                "mafia_met": [seat],                         # the Mafián holders of night 1
                "night": {"n", "awake": [seat], "prompts": [[prompt] per seat],
                          "picks": [{prompt id: value} per seat], "confirmed": [seat]} | None,
                "notices": [{"seat", "code", "params"}],     # private phone notices
                "traces": [{"night", "skipped", "choices", "input", "result"}],
                "chance": <the game's chance record, engines/chance.py>}}

A prompt is ``{"id": "MAG:2", "card": "MAG", "no": 2, "disabled": bool}`` (``MAFIAN:1`` is the
holder's one mafia prompt however many Mafián cards he holds).  Pick values: a seat (mafia,
gunman, slime, exhibit, bobo), ``[from, to]`` (Mág), a bool (Medik).

Our decisions:

* Every ALIVE seat is "prompted" at night: a seat without night cards gets an empty screen with
  only ``done`` (rules §3, the dummy task), so nobody learns from who is awaited or from when the
  night ends who had something to do.  The night lasts at least ``night_min_seconds``.
* Choices may be changed until ``done``; ``done`` locks the seat's screen.  Night 1: Mafián
  holders see each other and each other's current picks and confirmations (``me.mafia_room``);
  from night 2 on they only see who the night-1 holders were (``me.fellow_mafia``).
* The pending Duch Bobo ghost is the one dead player with a phone for that night: his ``me``
  shows his prompt only.  Other dead players' ``me`` has only their seat and status (no cards).
* A fake-dead Medik's phone shows he is alive (``status`` FAKE_DEAD) and his cards; he has no
  moves until he returns.
* Clock moves carry the thing they close (``defence_timeout`` the seat, ``close_window`` the
  candidate), so a stale clock can never close a newer step.  FLOOR's clock is
  ``floor_auto_seconds`` while no accusation stands (or the day's 120 s restart hint) and
  ``floor_max_seconds`` while one does — the same clock id, the seconds change.  The Astronom
  window is ``sentence_seconds`` + 0.5 s grace (rules §5.2).
* ``turn`` grows whenever the clock's step changes (a new night, a new day state, a new
  defender or vote window) and at game over.
* The end-of-game test after a played night (rules §6.1) lives here: one game-alive player or
  none ends the game with ``day.result``.
* Outcome: ``winner`` is ``"last_alive"`` for a single winner, else ``"shared"`` (everyone
  plays for himself); ``reason`` is ``day``'s reason.
* ``reveal_voters`` and ``reveal_astronom_caller`` stay at their defaults (on); they are not
  options, since the day's public dict shows ballots and the Astronom's seat.
"""

from __future__ import annotations

from engines import chance
from engines.base import (
    GAME_MASTER, HOST, PROXY, REMOVE_PLAYER, Action, Engine, Event, IllegalAction, Result, State,
    checked_options, handler_for, working_copy,
)
from engines.mrakoslapi import cards as C
from engines.mrakoslapi.cycle import _begin_night, _refresh
from engines.mrakoslapi.moves import _ACTIONS, host_proxy_moves, removable
from engines.mrakoslapi.players import new_players
from engines.mrakoslapi.state import NIGHT, OPTIONS, OVER, SLUG, TITLE
from engines.mrakoslapi.turns import END_DISCUSSION, host_moves, legal_actions, outcome, roles, waiting_for
from engines.mrakoslapi.views import view

# --------------------------------------------------------------------------------------------
# Setup
# --------------------------------------------------------------------------------------------

def _checked_hands(players: int, deal: dict) -> list[list[dict]]:
    hands = deal.get("hands")
    if not isinstance(hands, list) or len(hands) != players:
        raise ValueError("deal.hands: one hand per seat")
    out = []
    for hand in hands:
        out.append(sorted((C.card(c["type"], c["no"], c.get("state", C.READY)) for c in hand),
                          key=C.sort_key))
    seen = [(c["type"], c["no"]) for hand in out for c in hand]
    if len(seen) != len(set(seen)) or any(t not in C.CARD_TYPES for t, _ in seen):
        raise ValueError("deal.hands: unknown or repeated card")
    return out


def setup(players: int, options: dict, seed: int, deal: dict | None = None) -> Result:
    if players not in C.PLAYER_COUNTS:
        raise ValueError("Mrakošlapi is played by 6–8 players")
    options = checked_options(OPTIONS, options or {}, "Mrakošlapi", defaults=True)
    # A forced deal is the kit's deal draw with its outcome forced (engines/chance.py).
    scripted = _checked_hands(players, deal) if deal and "hands" in deal else None
    hands, drawn = C.deal(players, chance.new(seed, C.forced_deal(scripted) if scripted else None),
                          scripted)
    state: State = {
        "ruleset": SLUG, "players": players, "options": options, "turn": 0,
        "phase": NIGHT, "number": 0, "day": None, "morning": [], "narration": [],
        "clock": None, "clock_key": None, "clock_count": 0, "result": None,
        "secret": {
            "table": {"night": 0, "players": new_players(hands), "pending_bobo": None,
                      "next_extra_mrak_no": C.EXTRA_MRAKOSLAP_FIRST_NO, "quiet_cycles": 0,
                      "cycle_progress": None},
            "dealt": [[dict(c) for c in hand] for hand in hands],
            "mafia_met": [], "night": None, "notices": [], "traces": [],
            "chance": drawn.chance,
        },
    }
    events = [drawn.event] + [Event("cards", {"seat": seat, "cards": [dict(c) for c in hand]}, [seat])
                              for seat, hand in enumerate(hands)]
    _begin_night(state, 1, events)
    _refresh(state)
    return Result(state, events)


# --------------------------------------------------------------------------------------------
# Every move: who may make it, then its handler (engines/mrakoslapi/moves.py) on a working copy
# --------------------------------------------------------------------------------------------

GM_ACTIONS = ("timeout", "close_floor", "defence_timeout", "open_votes", "close_window",
              "close_sentence")


def _check_actor(state: State, seat: int | None, action: Action) -> None:
    """The host presses only the buttons ``host_moves`` offers; the game master makes only its
    running clock's move, and only it makes that move."""
    if seat == HOST:
        if action not in host_moves(state):
            raise IllegalAction("not_your_turn", "The host has nothing to do here")
        return
    if action["type"] == END_DISCUSSION["type"]:
        raise IllegalAction("host_only", "Only the host ends the discussion")
    if seat is GAME_MASTER:
        if action["type"] not in GM_ACTIONS:
            raise IllegalAction("not_your_turn", "The game master has nothing to do here")
        if not state["clock"] or action != state["clock"]["move"]:
            raise IllegalAction("no_clock", "That is not the running clock's move")
    elif action["type"] in GM_ACTIONS:
        raise IllegalAction("game_master_only", "Only the game master's clock does that")


def apply(state: State, seat: int | None, action: Action) -> Result:
    """Apply ``seat``'s action to a copy of ``state``; raise and change nothing if it is bad."""
    handler = handler_for(_ACTIONS, state, seat, action, over=state["phase"] == OVER)
    if action["type"] not in (PROXY, REMOVE_PLAYER):    # the host's: their handlers check him
        _check_actor(state, seat, action)
    new = working_copy(state)
    result = handler(new, seat, action)
    _refresh(new)
    return Result(new, result.events)


# --------------------------------------------------------------------------------------------
# The ruleset object (engines.base.Ruleset), registered in engines/registry.py
# --------------------------------------------------------------------------------------------

RULESET = Engine(
    slug=SLUG, title=TITLE, min_players=C.PLAYER_COUNTS[0], max_players=C.PLAYER_COUNTS[-1],
    options=lambda: list(OPTIONS), setup=setup, legal_actions=legal_actions, apply=apply, view=view,
    outcome=outcome, waiting_for=waiting_for, host_moves=host_moves, proxy_moves=host_proxy_moves,
    removable=removable, roles=roles,
    # The results the table waits for (engines/moments.py): the morning report, an execution.
    moments=frozenset({"morning", "execute"}))
