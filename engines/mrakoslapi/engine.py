"""Mrakošlapi — the ruleset object (slug ``mrakoslapi``): the pure rule modules of this package
(``cards``, ``players``, ``night``, ``resolver``, ``announce``, ``day``) wired into the engine
protocol of ``engines/base.py``, registered in ``engines/registry.py``.

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
    day     the ``day.py`` machine: FLOOR → DEFENCE → THINK → VOTE → SENTENCE/REFLOOR/END;
      │     players' moves are actions, every timer of rules §5.2 is the game master's clock
      │     move (close_floor, defence_timeout, open_votes, close_window, close_sentence)
      ▼
    END ──► NIGHT_START(n + 1);  GAME_OVER (day.result) ──► over

State (every secret under ``state["secret"]``)::

    {"ruleset": "mrakoslapi", "players": 6, "options": {...}, "turn": int,
     "phase": "night" | "day" | "over", "number": n,          # night n / day n
     "day": <day.py dict> | None,                            # public
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

import copy
from typing import Any

from engines import chance
from engines.base import (
    GAME_MASTER, HOST, NOBODY, PROXY, PUBLIC, REMOVE_PLAYER, Action, Engine, Event, IllegalAction,
    MalformedAction, Option, Outcome, Result, State, checked_options, handler_for, host_for, next_turn, parse_proxy,
    parse_removal, say, start_clock, stop_clock, working_copy,
)
from engines.mrakoslapi import announce
from engines.mrakoslapi import cards as C
from engines.mrakoslapi import day as D
from engines.mrakoslapi import night as N
from engines.mrakoslapi.players import ALIVE, DEAD, by_seat, new_players, visible_living
from engines.mrakoslapi.resolver import resolve

SLUG = "mrakoslapi"
TITLE = "Mrakošlapi"
NIGHT, DAY, OVER = "night", "day", "over"

TIMEOUT = {"type": "timeout"}


def _seconds(*values: int) -> tuple[tuple[str, str], ...]:
    return tuple((str(v), f"{v} s") for v in values)


OPTIONS = [
    Option("night_deadline_seconds", "Night deadline", "60", kind="choice",
           choices=_seconds(30, 45, 60, 90, 120),
           help="T_night (rules §4.2): the night ends then; missing choices take the defaults."),
    Option("night_min_seconds", "Shortest night", "20", kind="choice",
           choices=_seconds(10, 20, 30),
           help="A night lasts at least this long however fast everybody confirms (anti-tell)."),
    Option("floor_auto_seconds", "Nobody accused: everyone is", "300", kind="choice",
           choices=_seconds(120, 180, 300, 420),
           help="T_floor_auto (rules §5.2): no accusation by then ⇒ everyone is accused."),
    Option("floor_max_seconds", "Longest discussion", "600", kind="choice",
           choices=_seconds(300, 450, 600, 900),
           help="T_floor_max (rules §5.2): the floor closes if an accusation stands."),
    Option("defence_seconds", "Defence per accused", "45", kind="choice",
           choices=_seconds(30, 45, 60, 90), help="T_defence (rules §5.2)."),
    Option("think_seconds", "Time to think before the vote", "10", kind="choice",
           choices=_seconds(5, 10, 15), help="T_think (rules §5.2)."),
    Option("vote_seconds", "Vote window per candidate", "5", kind="choice",
           choices=_seconds(3, 5, 8, 10), help="T_vote (rules §5.2)."),
    Option("refloor_seconds", "Discussion before a re-vote", "120", kind="choice",
           choices=_seconds(60, 120, 180), help="T_refloor (rules §5.2)."),
    Option("sentence_seconds", "Astronom window", "10", kind="choice",
           choices=_seconds(5, 10, 15),
           help="T_sentence (rules §5.2, + 0.5 s grace): the condemned may still call NOC."),
    Option("gunman_nights", "Šílený střelec shoots on", "even", kind="choice",
           choices=(("even", "even nights"), ("odd", "odd nights")), help="A1."),
    Option("atheist_blocks_tunnel_from", "Tunnels from the Atheist vanish too", False,
           help="A6: by default only tunnels ONTO the Atheist vanish."),
    Option("votes_per_player", "Votes per player and round", "1", kind="choice",
           choices=(("1", "one"), ("unlimited", "one per candidate")), help="A21."),
    Option("max_rounds", "Voting rounds per day", "3", kind="choice",
           choices=(("1", "1"), ("2", "2"), ("3", "3")), help="A23, MAX_ROUNDS."),
    Option("astronom_can_save_others", "Astronom may save the condemned", True, help="A25."),
]

GM_ACTIONS = ("timeout", "close_floor", "defence_timeout", "open_votes", "close_window",
              "close_sentence")


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
# Helpers
# --------------------------------------------------------------------------------------------

def _opt(state: State, key: str) -> Any:
    return state["options"][key]


def _night_options(state: State) -> dict:
    return {"gunman_nights": _opt(state, "gunman_nights"),
            "atheist_blocks_tunnel_from": _opt(state, "atheist_blocks_tunnel_from")}


def _day_options(state: State) -> dict:
    vpp = _opt(state, "votes_per_player")
    return {"votes_per_player": 1 if vpp == "1" else "unlimited",
            "max_rounds": int(_opt(state, "max_rounds")),
            "astronom_can_save_others": _opt(state, "astronom_can_save_others")}


def _table(state: State) -> dict:
    return state["secret"]["table"]


def _players(state: State) -> list[dict]:
    return _table(state)["players"]


def _visible(state: State) -> list[int]:
    return visible_living(_players(state))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _narrate(state: State, lines: list[dict]) -> None:
    """Say ``lines`` (codes and parameters from ``announce`` or a day step) after what the TV
    says already."""
    for line in lines:
        say(state, line["code"], **copy.deepcopy(line["params"]))


def _convert(events: list[Event], raw: list[dict]) -> None:
    for e in raw:
        data = {k: copy.deepcopy(v) for k, v in e.items() if k not in ("kind", "audience")}
        audience = e["audience"]
        audience = (PUBLIC if audience == "public" else NOBODY if audience == "nobody"
                    else sorted(set(audience)))
        events.append(Event(e["kind"], data, audience))


# --------------------------------------------------------------------------------------------
# Night
# --------------------------------------------------------------------------------------------

def _prompts(state: State, seat: int, n: int) -> list[dict]:
    table = _table(state)
    player = by_seat(table["players"])[seat]
    out: list[dict] = []
    if player["status"] == ALIVE:
        hand = player["cards"]
        atheist = C.holds(hand, C.ATEISTA)
        if C.holds(hand, C.MAFIAN):
            out.append({"id": "MAFIAN:1", "card": C.MAFIAN, "no": 1, "disabled": False})
        if N.is_gunman_night(n, _opt(state, "gunman_nights")):
            for no in C.numbers(hand, C.SILENY_STRELEC):
                out.append({"id": f"SILENY_STRELEC:{no}", "card": C.SILENY_STRELEC, "no": no,
                            "disabled": False})
        for card_type in (C.MAG, C.SLINA, C.EXHIBICIONISTA, C.MEDIK):
            for no in C.numbers(hand, card_type):
                out.append({"id": f"{card_type}:{no}", "card": card_type, "no": no,
                            "disabled": atheist and card_type in (C.MAG, C.SLINA)})
    elif seat == table.get("pending_bobo") and C.holds(player["cards"], C.DUCH_BOBO):
        out.append({"id": "DUCH_BOBO:1", "card": C.DUCH_BOBO, "no": 1, "disabled": False})
    return out


def _begin_night(state: State, n: int, events: list[Event]) -> None:
    """NIGHT_START(n); skipped nights (and skipped days) loop on to the next night."""
    while True:
        state["secret"]["table"] = {**_table(state), "night": n}
        state["number"], state["day"] = n, None
        players = _players(state)
        if N.night_has_meaning(players):
            break
        applied = N.apply_skipped_night(_table(state))
        _dawn_update(state, applied)
        state["secret"]["traces"].append({"night": n, "skipped": True, "choices": None,
                                          "input": None, "result": None})
        lines = announce.skipped(applied)
        # Said after what the day before ended with (a death, "NIGHT falls."), which the same
        # move may have brought: the TV must still show it.
        state["morning"] = lines
        _narrate(state, lines)
        events.append(Event("night_skipped", {"night": n, "lines": copy.deepcopy(lines)}))
        if _start_day(state, events):
            return
        n += 1
    prompts = [_prompts(state, seat, n) for seat in range(state["players"])]
    awake = sorted(seat for seat in range(state["players"])
                   if by_seat(players)[seat]["status"] == ALIVE or prompts[seat])
    if n == 1:
        state["secret"]["mafia_met"] = sorted(
            s for s in awake if any(p["card"] == C.MAFIAN for p in prompts[s]))
    state["phase"] = NIGHT
    state["secret"]["night"] = {"n": n, "awake": awake, "prompts": prompts,
                                "picks": [{} for _ in range(state["players"])], "confirmed": []}
    events.append(Event("night_start", {"night": n}))
    for seat in awake:
        events.append(Event("night_prompts", {"night": n, "prompts": copy.deepcopy(prompts[seat])},
                            [seat]))


def _dawn_update(state: State, applied: dict) -> None:
    table = _table(state)
    before = table["players"]
    state["secret"]["table"] = {**table, "players": applied["players"],
                                "pending_bobo": applied["pending_bobo"],
                                "cycle_progress": D.progressed(before, applied["players"])}


def _choices(state: State) -> dict:
    night = state["secret"]["night"]
    choices: dict[str, Any] = {"mafia": [], "gunmen": [], "tunnels": [], "slime": [],
                               "exhibit": [], "medik": False, "bobo": None}
    for seat in night["awake"]:
        picks = night["picks"][seat]
        for p in night["prompts"][seat]:
            value = picks.get(p["id"])
            if value is None or p["disabled"]:
                continue
            card, no = p["card"], p["no"]
            if card == C.MAFIAN:
                choices["mafia"].append({"seat": seat, "target": value})
            elif card == C.SILENY_STRELEC:
                choices["gunmen"].append({"no": no, "target": value})
            elif card == C.MAG:
                choices["tunnels"].append({"no": no, "from": value[0], "to": value[1]})
            elif card == C.SLINA:
                choices["slime"].append({"no": no, "target": value})
            elif card == C.EXHIBICIONISTA:
                choices["exhibit"].append({"no": no, "target": value})
            elif card == C.MEDIK:
                choices["medik"] = bool(value)
            elif card == C.DUCH_BOBO:
                choices["bobo"] = value
    return choices


def _end_night(state: State, events: list[Event]) -> None:
    """Dawn: resolve the night, announce, the end-of-game test, then the day."""
    n = state["number"]
    table = _table(state)
    choices = _choices(state)
    night_input = N.build_night_input(table, choices, _night_options(state))
    result = resolve(night_input)
    applied = N.apply_night(table, result)
    _dawn_update(state, applied)
    state["secret"]["night"] = None
    state["secret"]["traces"].append({"night": n, "skipped": False, "choices": choices,
                                      "input": night_input, "result": result})
    lines = announce.morning(result, applied)
    state["morning"], state["narration"] = lines, []       # a new morning: the TV starts anew
    _narrate(state, lines)
    events.append(Event("night_resolved", {"night": n, "choices": copy.deepcopy(choices),
                                           "result": copy.deepcopy(result)}, NOBODY))
    events.append(Event("morning", {"night": n, "lines": copy.deepcopy(lines)}))
    alive = D.game_alive(_players(state))
    if len(alive) <= 1:
        _game_over(state, events, D.result(_players(state),
                                           D.LAST_ALIVE if alive else D.ALL_DEAD))
        return
    if _start_day(state, events):
        return
    _begin_night(state, n + 1, events)


def _game_over(state: State, events: list[Event], result: dict) -> None:
    state["phase"], state["result"] = OVER, copy.deepcopy(result)
    state["secret"]["night"] = None
    params = {"reason": result["reason"], "winners": list(result["winners"])}
    if D.line(D.GAME_OVER_LINE, **params) not in state["narration"]:
        say(state, D.GAME_OVER_LINE, **params)
    events.append(Event("game_over", copy.deepcopy(result)))


# --------------------------------------------------------------------------------------------
# Day
# --------------------------------------------------------------------------------------------

def _start_day(state: State, events: list[Event]) -> bool:
    """DAY_START(n).  True if a day is now being played (or the game ended); False if the day
    was skipped and the next night must start."""
    step = D.start_day(_table(state), _day_options(state))
    _absorb(state, step, events)
    if state["phase"] == OVER:
        return True
    if step["day"]["state"] == D.SKIPPED:
        return False
    state["phase"] = DAY
    return True


def _absorb(state: State, step: dict, events: list[Event]) -> None:
    state["secret"]["table"] = step["table"]
    state["day"] = step["day"]
    _narrate(state, step["announce"])
    _convert(events, step["events"])
    for notice in step["private"]:
        state["secret"]["notices"].append(copy.deepcopy(notice))
        events.append(Event("notice", copy.deepcopy(notice), [notice["seat"]]))
    if step["result"] is not None:
        state["phase"], state["result"] = OVER, copy.deepcopy(step["result"])


def _day_step(state: State, events: list[Event], step: dict) -> None:
    _absorb(state, step, events)
    if state["phase"] != OVER and state["day"]["state"] == D.END:
        _begin_night(state, state["number"] + 1, events)


# --------------------------------------------------------------------------------------------
# The clock
# --------------------------------------------------------------------------------------------

def _clock_spec(state: State) -> tuple[str, float, Action] | None:
    if state["phase"] == NIGHT:
        night = state["secret"]["night"]
        done = set(night["awake"]) <= set(night["confirmed"])
        key = "night_min_seconds" if done else "night_deadline_seconds"
        return f"night:{night['n']}", int(_opt(state, key)), dict(TIMEOUT)
    if state["phase"] != DAY:
        return None
    d = state["day"]
    prefix = f"day:{d['day']}:{d['state']}:{d['round']}"
    st = d["state"]
    if st == D.FLOOR:
        if D.candidate_order(d["accusations"], _visible(state)):
            seconds = int(_opt(state, "floor_max_seconds"))
        else:
            seconds = d["floor_auto_s"] or int(_opt(state, "floor_auto_seconds"))
        return prefix, seconds, {"type": "close_floor"}
    if st == D.REFLOOR:
        return prefix, int(_opt(state, "refloor_seconds")), {"type": "close_floor"}
    if st == D.DEFENCE:
        head = d["defence"][0]
        return (f"{prefix}:{head}", int(_opt(state, "defence_seconds")),
                {"type": "defence_timeout", "seat": head})
    if st == D.THINK:
        return prefix, int(_opt(state, "think_seconds")), {"type": "open_votes"}
    if st == D.VOTE:
        candidate = d["candidates"][d["window"]]
        return (f"{prefix}:{candidate}", int(_opt(state, "vote_seconds")),
                {"type": "close_window", "candidate": candidate})
    if st == D.SENTENCE:
        return prefix, int(_opt(state, "sentence_seconds")) + 0.5, {"type": "close_sentence"}
    return None


def _refresh(state: State) -> None:
    """Set the clock for the current step; a new step gets a new clock id and a new turn."""
    spec = _clock_spec(state)
    key = spec[0] if spec else state["phase"]
    if key != state["clock_key"]:
        state["clock_key"] = key
        next_turn(state)
        if spec:
            start_clock(state, spec[1], spec[2])
        else:
            stop_clock(state)
    elif spec:                  # the same step: its clock keeps its id, its seconds may change
        state["clock"] = {**state["clock"], "seconds": spec[1], "move": spec[2]}


# --------------------------------------------------------------------------------------------
# Actions
# --------------------------------------------------------------------------------------------

def _need(action: Action, key: str, check, what: str) -> None:
    if key not in action or not check(action[key]):
        raise MalformedAction("bad_field", f"{key}: expected {what}")


def _p_none(action: Action) -> None:
    pass


def _p_target(action: Action) -> None:
    _need(action, "target", _is_int, "a seat")


def _p_no_target(action: Action) -> None:
    _need(action, "no", _is_int, "a card number")
    _need(action, "target", _is_int, "a seat")


def _p_tunnel(action: Action) -> None:
    _need(action, "no", _is_int, "a card number")
    _need(action, "from", _is_int, "a seat")
    _need(action, "to", _is_int, "a seat")


def _p_pass(action: Action) -> None:
    _need(action, "card", lambda v: v in (C.MAG, C.SLINA, C.EXHIBICIONISTA, C.DUCH_BOBO), "a card")
    _need(action, "no", _is_int, "a card number")


def _p_medik(action: Action) -> None:
    _need(action, "use", lambda v: isinstance(v, bool), "true or false")


def _p_accuse(action: Action) -> None:
    _need(action, "target", _is_int, "a seat")
    _need(action, "claim", lambda v: isinstance(v, str), "a card type")
    if action.get("text") is not None and (not isinstance(action["text"], str)
                                           or len(action["text"]) > 200):
        raise MalformedAction("bad_field", "text: at most 200 characters")


def _p_defend(action: Action) -> None:
    _need(action, "how", lambda v: v in ("spoke", "waived"), "spoke or waived")


def _p_vote(action: Action) -> None:
    _need(action, "candidate", _is_int, "a seat")


def _p_seat(action: Action) -> None:
    _need(action, "seat", _is_int, "a seat")


def _p_candidate(action: Action) -> None:
    _need(action, "candidate", _is_int, "a seat")


def _prompt(state: State, seat: int, card: str, no: int) -> dict:
    night = state["secret"]["night"]
    for p in night["prompts"][seat]:
        if p["card"] == card and p["no"] == no:
            if p["disabled"]:
                raise IllegalAction("disabled", "The Atheist cannot use this card")
            return p
    raise IllegalAction("no_prompt", "Nothing to choose for that card tonight")


def _night_seat(state: State, seat: int) -> None:
    if state["phase"] != NIGHT:
        raise IllegalAction("wrong_phase", "Not at night")
    night = state["secret"]["night"]
    if seat not in night["awake"]:
        raise IllegalAction("asleep", "Nothing to do tonight")
    if seat in night["confirmed"]:
        raise IllegalAction("confirmed", "Already confirmed")


def _pick(state: State, seat: int, card: str, no: int, value: Any) -> Result:
    _night_seat(state, seat)
    p = _prompt(state, seat, card, no)
    visible = _visible(state)
    targets = value if isinstance(value, list) else [value] if _is_int(value) else []
    if any(t not in visible for t in targets):
        raise IllegalAction("bad_target", "Choose visible living players")
    if card == C.MAG and value is not None and value[0] == value[1]:
        raise IllegalAction("bad_target", "A tunnel joins two different players")
    picks = state["secret"]["night"]["picks"][seat]
    if value is None:
        picks.pop(p["id"], None)
    else:
        picks[p["id"]] = value
    audience = [seat]
    if card == C.MAFIAN and state["number"] == 1:
        audience = list(state["secret"]["mafia_met"])
    return Result(state, [Event("night_pick", {"night": state["number"], "seat": seat, "prompt": p["id"],
                                               "value": value}, audience)])


def a_mafia(state, seat, action):
    return _pick(state, seat, C.MAFIAN, 1, action["target"])


def a_gunman(state, seat, action):
    return _pick(state, seat, C.SILENY_STRELEC, action["no"], action["target"])


def a_tunnel(state, seat, action):
    return _pick(state, seat, C.MAG, action["no"], [action["from"], action["to"]])


def a_slime(state, seat, action):
    return _pick(state, seat, C.SLINA, action["no"], action["target"])


def a_exhibit(state, seat, action):
    return _pick(state, seat, C.EXHIBICIONISTA, action["no"], action["target"])


def a_medik(state, seat, action):
    return _pick(state, seat, C.MEDIK, 1, True if action["use"] else None)


def a_bobo(state, seat, action):
    return _pick(state, seat, C.DUCH_BOBO, 1, action["target"])


def a_pass(state, seat, action):
    return _pick(state, seat, action["card"], action["no"], None)


def a_done(state, seat, action):
    _night_seat(state, seat)
    state["secret"]["night"]["confirmed"] = sorted(state["secret"]["night"]["confirmed"] + [seat])
    return Result(state, [Event("night_done", {"seat": seat}, [seat])])


def a_timeout(state, seat, action):
    events: list[Event] = []
    _end_night(state, events)
    return Result(state, events)


def _day(state: State) -> None:
    if state["phase"] != DAY:
        raise IllegalAction("wrong_phase", "Not by day")


def _day_move(func, *args):
    def handler(state, seat, action):
        _day(state)
        values = [seat if a == "seat" else action[a] for a in args]
        try:
            step = func(_table(state), state["day"], *values)
        except D.DayError as refusal:
            raise IllegalAction(refusal.code, str(refusal)) from None
        events: list[Event] = []
        _day_step(state, events, step)
        return Result(state, events)
    return handler


def a_accuse(state, seat, action):
    _day(state)
    try:
        step = D.accuse(_table(state), state["day"], seat, action["target"], action["claim"],
                        action.get("text"))
    except D.DayError as refusal:
        raise IllegalAction(refusal.code, str(refusal)) from None
    events: list[Event] = []
    _day_step(state, events, step)
    return Result(state, events)


def a_defence_timeout(state, seat, action):
    _day(state)
    try:
        step = D.defend(_table(state), state["day"], action["seat"], "timeout")
    except D.DayError as refusal:
        raise IllegalAction(refusal.code, str(refusal)) from None
    events: list[Event] = []
    _day_step(state, events, step)
    return Result(state, events)


# --------------------------------------------------------------------------------------------
# The host and a player whose phone is gone (engines/base.py; docs/rules/mrakoslapi.md §11.3)
# --------------------------------------------------------------------------------------------

def host_proxy_moves(state: State) -> dict[int, list[Action]]:
    """None: every step that waits for a player has a clock, and the rulebook's own default is
    what an absent player does — no hand raised in time does not count (rules §5.5 ``T_vote``),
    the floor and a defence end by their clocks, a night choice not made is no choice."""
    return {}


def proxy(state, seat, action):
    host_for(state, seat, action)
    raise IllegalAction("not_proxiable", "The host cannot make that choice for a player")


def removable(state: State) -> list[int]:
    """By day, any visible living player; at night nobody (the night's choices meet at its
    end, rules §4: a death in the middle of it has no place; the host waits for the morning)."""
    if state["phase"] != DAY or state["day"]["state"] not in D.OPEN_STATES:
        return []
    return _visible(state)


def a_remove(state, seat, action):
    target = host_for(state, seat, action)
    if target not in removable(state):
        raise IllegalAction("not_removable", "The host can remove a living player by day only")
    return _day_move(D.remove, "target")(state, seat, {"target": target})


_ACTIONS = {
    "mafia_target": (_p_target, a_mafia),
    "gunman_target": (_p_no_target, a_gunman),
    "tunnel": (_p_tunnel, a_tunnel),
    "slime": (_p_no_target, a_slime),
    "exhibit": (_p_no_target, a_exhibit),
    "medik": (_p_medik, a_medik),
    "bobo": (_p_target, a_bobo),
    "pass": (_p_pass, a_pass),
    "done": (_p_none, a_done),
    "accuse": (_p_accuse, a_accuse),
    "withdraw": (_p_none, _day_move(D.withdraw, "seat")),
    "ready": (_p_none, _day_move(D.ready, "seat")),
    "defend": (_p_defend, _day_move(D.defend, "seat", "how")),
    "vote": (_p_vote, _day_move(D.vote, "seat", "candidate")),
    "astronom": (_p_none, _day_move(D.astronom, "seat")),
    "anarchist_shot": (_p_target, _day_move(D.anarchist_shot, "seat", "target")),
    "timeout": (_p_none, a_timeout),
    "close_floor": (_p_none, _day_move(D.close_floor)),
    "defence_timeout": (_p_seat, a_defence_timeout),
    "open_votes": (_p_none, _day_move(D.open_votes)),
    "close_window": (_p_candidate, _day_move(D.close_window)),
    "close_sentence": (_p_none, _day_move(D.close_sentence)),
    PROXY: (parse_proxy, proxy),
    REMOVE_PLAYER: (parse_removal, a_remove),
}


def _check_actor(state: State, seat: int | None, action: Action) -> None:
    """The host presses no button here; the game master makes only its running clock's move,
    and only it makes that move."""
    if seat == HOST:
        raise IllegalAction("not_your_turn", "The host has nothing to do here")
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
# Whose move
# --------------------------------------------------------------------------------------------

def waiting_for(state: State) -> list[int]:
    """Seats whose input the game awaits (for the server, never for a screen)."""
    if state["phase"] == NIGHT:
        night = state["secret"]["night"]
        return [s for s in night["awake"] if s not in night["confirmed"]]
    if state["phase"] != DAY:
        return []
    d, visible = state["day"], _visible(state)
    if d["state"] in (D.FLOOR, D.REFLOOR):
        return [s for s in visible if s not in d["ready"]]
    if d["state"] == D.DEFENCE:
        return [d["defence"][0]]
    if d["state"] == D.VOTE:
        return [s for s in visible if _vote_moves(state, s)]
    return []


def _vote_moves(state: State, seat: int) -> list[Action]:
    d = state["day"]
    candidate = d["candidates"][d["window"]]
    if d["options"]["votes_per_player"] == 1:
        voted = any(b["voter"] == seat for b in d["ballots"])
    else:
        voted = any(b["voter"] == seat and b["candidate"] == candidate for b in d["ballots"])
    return [] if voted else [{"type": "vote", "candidate": candidate}]


def legal_actions(state: State, seat: int | None) -> list[Action]:
    if state["phase"] == OVER:
        return []
    if seat == HOST:
        return host_moves(state)
    if seat is GAME_MASTER:
        return [dict(state["clock"]["move"])] if state["clock"] else []
    if state["phase"] == NIGHT:
        return _night_moves(state, seat)
    return _day_moves(state, seat)


def _night_moves(state: State, seat: int) -> list[Action]:
    night = state["secret"]["night"]
    if seat not in night["awake"] or seat in night["confirmed"]:
        return []
    visible = _visible(state)
    moves: list[Action] = []
    for p in night["prompts"][seat]:
        if p["disabled"]:
            continue
        card, no = p["card"], p["no"]
        if card == C.MAFIAN:
            moves += [{"type": "mafia_target", "target": t} for t in visible]
        elif card == C.SILENY_STRELEC:
            moves += [{"type": "gunman_target", "no": no, "target": t} for t in visible]
        elif card == C.MAG:
            moves += [{"type": "tunnel", "no": no, "from": a, "to": b}
                      for a in visible for b in visible if a != b]
        elif card == C.SLINA:
            moves += [{"type": "slime", "no": no, "target": t} for t in visible]
        elif card == C.EXHIBICIONISTA:
            moves += [{"type": "exhibit", "no": no, "target": t} for t in visible]
        elif card == C.MEDIK:
            moves += [{"type": "medik", "use": True}, {"type": "medik", "use": False}]
        elif card == C.DUCH_BOBO:
            moves += [{"type": "bobo", "target": t} for t in visible]
        if card in (C.MAG, C.SLINA, C.EXHIBICIONISTA, C.DUCH_BOBO):
            moves.append({"type": "pass", "card": card, "no": no})
    return moves + [{"type": "done"}]


def _day_moves(state: State, seat: int) -> list[Action]:
    d, visible = state["day"], _visible(state)
    if seat not in visible or d["state"] not in D.OPEN_STATES:
        return []
    player = by_seat(_players(state))[seat]
    muted = D.is_muted(player, d["day"])
    moves: list[Action] = []
    st = d["state"]
    if st in (D.FLOOR, D.REFLOOR):
        if not muted:
            if any(a["accuser"] == seat for a in d["accusations"]):
                moves.append({"type": "withdraw"})
            else:
                moves += [{"type": "accuse", "target": t, "claim": claim}
                          for t in visible for claim in C.CARD_TYPES]
        if seat not in d["ready"]:
            moves.append({"type": "ready"})
    elif st == D.DEFENCE and d["defence"][0] == seat and not muted:
        moves += [{"type": "defend", "how": "spoke"}, {"type": "defend", "how": "waived"}]
    elif st == D.VOTE:
        moves += _vote_moves(state, seat)
    if C.holds(player["cards"], C.ASTRONOM) and not (
            st == D.SENTENCE and not d["options"]["astronom_can_save_others"]
            and seat != d["sentenced"]):
        moves.append({"type": "astronom"})
    if C.holds(player["cards"], C.ANARCHISTA) and not muted:
        moves += [{"type": "anarchist_shot", "target": t} for t in visible if t != seat]
    return moves


def outcome(state: State) -> Outcome | None:
    result = state["result"]
    if state["phase"] != OVER or result is None:
        return None
    winners = tuple(result["winners"])
    return Outcome("last_alive" if len(winners) == 1 and result["reason"] == D.LAST_ALIVE
                   else "shared", result["reason"], winners)


# --------------------------------------------------------------------------------------------
# Views (rules §3): built field by field
# --------------------------------------------------------------------------------------------

def view(state: State, seat: int | None) -> dict:
    over = state["phase"] == OVER
    clock = state["clock"]
    d = state["day"]
    muted_day = d["day"] if d is not None and state["phase"] == DAY else None
    seats = [{"seat": p["seat"], "alive": p["status"] == ALIVE,
              "muted": p["status"] == ALIVE and muted_day is not None
              and p.get("muted_day") == muted_day}
             for p in _players(state)]
    secret = state["secret"]
    return {
        "ruleset": SLUG,
        "options": dict(state["options"]),
        "phase": state["phase"],
        "number": state["number"],
        "turn": state["turn"],
        "players": state["players"],
        "seats": seats,
        "morning": copy.deepcopy(state["morning"]),
        "narration": copy.deepcopy(state["narration"]),
        "day": _day_view(d) if d is not None else None,
        "clock": {"id": clock["id"], "seconds": clock["seconds"]} if clock else None,
        "outcome": outcome(state).to_json() if over else None,
        "reveal": ({"players": copy.deepcopy(_players(state)),
                    "dealt": copy.deepcopy(secret["dealt"]),
                    "mafia_met": list(secret["mafia_met"]),
                    "notices": copy.deepcopy(secret["notices"]),
                    "traces": copy.deepcopy(secret["traces"])} if over else None),
        "me": _me(state, seat) if seat is not None else None,
    }


_DAY_KEYS = ("day", "state", "round", "accusations", "ready", "candidates", "defence",
             "defended", "window", "ballots", "rounds", "sentenced", "sentence_voters",
             "floor_auto_s")


def _day_view(d: dict) -> dict:
    return {key: copy.deepcopy(d[key]) for key in _DAY_KEYS}


def _me(state: State, seat: int) -> dict:
    player = by_seat(_players(state))[seat]
    status = player["status"]
    night = state["secret"]["night"] if state["phase"] == NIGHT else None
    awake = night is not None and seat in night["awake"]
    me: dict[str, Any] = {"seat": seat, "status": status, "alive": status != DEAD,
                          "cards": None, "gained": None, "fellow_mafia": None,
                          "notices": None, "night": None, "mafia_room": None,
                          "moves": legal_actions(state, seat)}
    if awake:
        picks = night["picks"][seat]
        me["night"] = {"number": night["n"], "confirmed": seat in night["confirmed"],
                       "prompts": [{**p, "choice": copy.deepcopy(picks.get(p["id"]))}
                                   for p in night["prompts"][seat]]}
    if status == DEAD:
        return me
    me["cards"] = [dict(c) for c in player["cards"]]
    me["gained"] = [c["no"] for c in player["cards"]
                    if c["type"] == C.MRAKOSLAP and c["no"] >= C.EXTRA_MRAKOSLAP_FIRST_NO]
    me["notices"] = [copy.deepcopy(n) for n in state["secret"]["notices"] if n["seat"] == seat]
    met = state["secret"]["mafia_met"]
    if seat in met:
        me["fellow_mafia"] = [s for s in met if s != seat]
        if night is not None and night["n"] == 1:
            me["mafia_room"] = [{"seat": s, "target": night["picks"][s].get("MAFIAN:1"),
                                 "confirmed": s in night["confirmed"]} for s in met]
    return me


# --------------------------------------------------------------------------------------------
# The ruleset object (engines.base.Ruleset), registered in engines/registry.py
# --------------------------------------------------------------------------------------------

def host_moves(state: State) -> list[Action]:
    """Mrakošlapi's host has no buttons of its own: the game master's clock ends each step."""
    return []


RULESET = Engine(
    slug=SLUG, title=TITLE, min_players=C.PLAYER_COUNTS[0], max_players=C.PLAYER_COUNTS[-1],
    options=lambda: list(OPTIONS), setup=setup, legal_actions=legal_actions, apply=apply, view=view,
    outcome=outcome, waiting_for=waiting_for, host_moves=host_moves, proxy_moves=host_proxy_moves,
    removable=removable)
