"""Classic Mafia — GRANNA "Мафія" (Ukrainian, slug ``granna``) and "Mafia – zasady gry" (Polish,
slug ``mafia_pl``): one engine, two editions (``editions.py``).

Sources: GRANNA's Ukrainian "Мафія" rulebook and the Polish "Mafia – zasady gry" rulebook are
the authority (credited in the file below), restated in English in
``docs/rules/classic-mafia.md`` §0, §B and §C ("rules B.2.1" below means that file).  The app
is the game master: every human gets a role, the TV shows the public table, each phone its
owner's secrets.  Teams: the mafia (mafiosi) against the police (policemen, the one agent and
the Polish extra roles doctor, wizard and judge).

Phases (a round is a night then a day; ``[...]`` marks what options add)::

    setup ── roles dealt ──► night (round r)
      │   each step is its own phase, lasts at least night_seconds and ends by the game
      │   master's ``timeout`` (the clock); skipped steps are not announced:
      ├─ agent    the agent checks one living player (GRANNA: must; Polish: may skip).
      │           Skipped once the agent is out, [kids_no_agent], [small game: from round 2]
      ├─ [doctor] the doctor heals one living player (or skips); skipped once he is out
      ├─ mafia    the living mafiosi meet and agree on a victim: unanimity locks at once,
      │           else plurality / fair draw at the deadline (night.py).
      │           [small game: skipped in round 1 unless small_game_round1_mafia]
      ├─ [wizard] while the spell is unused: swap two players' cards, or not
      ▼
    _dawn        the spell (cards swapped now), [small game: the caught agent out], the victim
      │          out with his role revealed, or "nobody" (doctor's save); win check after each
      ├─► last_shot   [large game, round 1 / kids_last_shot_all]: the dead victim shoots
      ▼
    discussion ──(host end_discussion / discussion clock)──► vote
      │   every living player names one other living player; secret until the last, then
      │   revealed by name (votes.py)
      ├─ [kids_single_vote] one leader ──► lynch;  a tie ──► final_vote among the tied
      ▼
    defence      the finalists (rules B.2.1) speak; host end_defence (a lone finalist ──► lynch)
      ▼
    final_vote   ballot = the finalists [Polish arrest_scope=anyone: every living player]
      │ one leader ──► lynch
      ▼ tie
    re_discussion ──(host)──► re_vote among the tied ── one leader ──► lynch
                                                     └─ tie ──► coin among the tied ──► lynch
    lynch        role revealed; win check; [last_shot]; round += 1 ──► night

    Win check after every single elimination (rules B.2.4): no living mafioso ──► game_over
    (police); no living police-team member ──► game_over (mafia).  Winners include the dead.

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
* Hooks for the action cards (rules B.3.4, a later issue): ``_night_victim_named`` and
  ``_lynch_victim_named`` are the reaction-window points; today they proceed at once.
"""

from __future__ import annotations

import functools
from itertools import combinations
from typing import Any

from engines import chance
from engines.base import (
    GAME_MASTER, HOST, NOBODY, PROXY, PUBLIC, REMOVE_PLAYER, Action, Audience, Engine, Event, IllegalAction,
    MalformedAction, Outcome, Result, State, checked_options, handler_for, host_for, next_turn, parse_proxy,
    parse_removal, proxied, proxy_moves, say, start_clock, stop_clock, working_copy,
)
from engines.classic import night as night_rules
from engines.classic import roles as R
from engines.classic import votes as V
from engines.classic.editions import EDITIONS, Edition

# --------------------------------------------------------------------------------------------
# Phases
# --------------------------------------------------------------------------------------------

AGENT_STEP, DOCTOR_STEP, MAFIA_STEP, WIZARD_STEP = "agent", "doctor", "mafia", "wizard"
NIGHT_STEPS = (AGENT_STEP, DOCTOR_STEP, MAFIA_STEP, WIZARD_STEP)   # in this order (rules C.2)
LAST_SHOT = "last_shot"
DISCUSSION, VOTE, DEFENCE, FINAL_VOTE = "discussion", "vote", "defence", "final_vote"
RE_DISCUSSION, RE_VOTE = "re_discussion", "re_vote"
VOTES = (VOTE, FINAL_VOTE, RE_VOTE)
GAME_OVER = "game_over"

# Causes of elimination (``seats[i].cause``)
NIGHT, LYNCH, SHOT, SMALL_RULE_AGENT = "night", "lynch", "last_shot", "small_rule_agent"
REMOVED = "removed"   # by the host, for cheating (rules B.2.3)

TIMEOUT = {"type": "timeout"}
END_DISCUSSION = {"type": "end_discussion"}
END_DEFENCE = {"type": "end_defence"}

# The chance kit's label of every draw among seats: the mafia's deadline lot and the coin among
# the tied (one label, so a deal's ``coins`` force them in the order they happen).
LOT = "lot"

_FIXED_RULES = {slug: edition.rules({}) for slug, edition in EDITIONS.items()}

# The role each night step wakes (the mafia step wakes every living mafioso).
STEP_ROLE = {AGENT_STEP: R.AGENT, DOCTOR_STEP: R.DOCTOR, WIZARD_STEP: R.WIZARD}


# --------------------------------------------------------------------------------------------
# State
# --------------------------------------------------------------------------------------------

def _fresh_night(round_: int, players: int) -> dict:
    """Tonight's secret actions (shown to ghosts, and kept until the next night)."""
    return {
        "round": round_,
        "check": None,      # {"agent", "target", "role"} — the agent's check
        "heal": None,       # {"doctor", "target"}
        "picks": [None] * players,      # the mafia's live picks, per seat
        "locked": None,     # the target all living mafiosi agreed on
        "victim": None,     # the mafia's victim once the mafia step is over
        "swap": None,       # {"wizard", "targets"} — cast tonight, carried out at dawn
        "caught": None,     # the agent caught by the small-game rule (rules B.3.1)
    }


def _initial_state(edition: Edition, players: int, options: dict, roles: list[str],
                   record: chance.Record) -> State:
    """The whole game as JSON types; seats index every per-seat list."""
    return {
        "ruleset": edition.slug,
        "players": players,
        "options": options,             # what the host chose (the edition fixes the rest: _rule)
        "role_counts": R.role_counts(players, edition.rules(options)),   # public (the box)
        "phase": "setup",
        "turn": 0,                      # grows whenever what the players are asked changes
        "round": 1,                     # a night then a day
        "dead": [None] * players,       # per seat: None, or {"cause", "round", "role"} (public)
        "night_steps": [],              # tonight's steps (public: skips follow public facts)
        "night_step": None,             # the current one
        "step_done": False,             # its players have acted (public through the clock)
        "dawn": None,                   # what the last dawn told
        "vote": None,                   # the vote being collected: {"kind", "ballot", "voted"}
        "last_vote": None,              # the latest revealed vote
        "finalists": [],                # heard after the first vote (rules B.2.1)
        "tied": [],                     # tied for the most in the final vote / re-vote
        "coin": None,                   # {"among", "seat"} when the coin decided a lynch
        "last_shot": None,              # {"shooter", "optional", "then"}
        "judge_used": False,            # on the judge's card (rules C.3.3)
        "spell_used": False,            # the wizard's spell, public from its dawn (rules C.3.2)
        "clock": None,                  # the game master's timed move (engines/base.py)
        "clock_count": 0,               # clocks started so far (a new clock's id)
        "narration": [],
        "outcome": None,
        "secret": {
            "chance": record,           # the chance kit's record: future draws depend on it
            "roles": roles,             # the current card per seat (a wizard swap changes it)
            "met": [[] for _ in range(players)],    # mafiosi each seat has met at a meeting
            "checks": [],               # every agent check: {"round", "agent", "target", "role"}
            "heals": [],                # every doctor heal: {"round", "doctor", "target"}
            "swap": None,               # the spell once carried out: {"round", "wizard", "targets"}
            "night": _fresh_night(1, players),
            "ballots": [None] * players,    # the seat each voter named, until the reveal
            "double": None,             # the voter whose vote counts double (the judge)
        },
    }


# --------------------------------------------------------------------------------------------
# Setup (rules B.1, C.1)
# --------------------------------------------------------------------------------------------

def setup(edition: Edition, players: int, options: dict, seed: int,
          deal: dict | None = None) -> Result:
    """Deal the roles and let the first night fall (a round starts with the night)."""
    if type(players) is not int or not edition.min_players <= players <= edition.max_players:
        raise ValueError(f"{edition.title} needs {edition.min_players} to "
                         f"{edition.max_players} players, not {players!r}")
    options = checked_options(edition.options, options, edition.title)
    rules = edition.rules(options)
    deal = _checked_deal(players, rules, deal or {})
    # A forced deal is what the chance kit draws instead (engines/chance.py): the roles are the
    # shuffle's outcome, the coins the outcomes of the draws of lots, in order.
    dealt = R.deal(chance.new(seed, {R.DEAL: [deal["roles"]] if "roles" in deal else [],
                                     LOT: deal.get("coins", [])}), players, rules)
    roles = dealt.value
    state = _initial_state(edition, players, options, roles, dealt.chance)
    events = [dealt.event, Event("roles_dealt", {"roles": list(roles)}, NOBODY)]
    events += [_role_event(state, seat) for seat in range(players)]
    say(state, "setup", roles=dict(state["role_counts"]), small_game=_small_game(state),
         large_game=_large_game(state))
    _begin_night(state, events)
    return Result(state, events)


def _checked_deal(players: int, rules: dict, deal: dict) -> dict:
    """Validate a forced secret setup for tests and replays: ``roles`` per seat, ``coins``
    (the seats the coin and every other draw of lots return, in order, instead of drawing)."""
    if not isinstance(deal, dict) or set(deal) - {"roles", "coins"}:
        raise ValueError("deal may only force 'roles' and 'coins'")
    if "roles" in deal:
        roles = deal["roles"]
        if (not isinstance(roles, list) or len(roles) != players
                or sorted(roles) != sorted(R.role_list(players, rules))):
            counts = R.role_counts(players, rules)
            raise ValueError(f"{players} players need " + ", ".join(
                f"{count} × {role}" for role, count in counts.items() if count))
        deal = {**deal, "roles": list(roles)}
    if "coins" in deal:
        coins = deal["coins"]
        if not isinstance(coins, list) or not all(_is_seat(players, seat) for seat in coins):
            raise ValueError(f"coins must be a list of seats 0..{players - 1}")
        deal = {**deal, "coins": list(coins)}
    return deal


def _role_event(state: State, seat: int) -> Event:
    """What a seat's phone learns when it gets a card: the card and its team."""
    role = state["secret"]["roles"][seat]
    return Event("role", {"role": role, "team": R.team(role)}, [seat])


# --------------------------------------------------------------------------------------------
# Small facts
# --------------------------------------------------------------------------------------------

def _is_int(value: Any) -> bool:
    return type(value) is int


def _is_seat(players: int, value: Any) -> bool:
    return _is_int(value) and 0 <= value < players


def _rule(state: State, key: str) -> Any:
    """A rule: the host's option, or the value the edition fixes (editions.py)."""
    options = state["options"]
    return options[key] if key in options else _FIXED_RULES[state["ruleset"]][key]


def dealt_roles(state: State) -> list[str]:
    """The cards as dealt: the current ones with the wizard's swap undone."""
    roles = list(state["secret"]["roles"])
    if state["secret"]["swap"]:
        first, second = state["secret"]["swap"]["targets"]
        roles[first], roles[second] = roles[second], roles[first]
    return roles


def _alive(state: State, seat: int) -> bool:
    return state["dead"][seat] is None


def _living(state: State) -> list[int]:
    return [seat for seat in range(state["players"]) if state["dead"][seat] is None]


def _holder(state: State, role: str) -> int | None:
    """The living seat holding ``role`` (agent, doctor, wizard, judge: one card each)."""
    roles = state["secret"]["roles"]
    for seat in _living(state):
        if roles[seat] == role:
            return seat
    return None


def _mafiosi(state: State) -> list[int]:
    """The living mafiosi (current cards)."""
    roles = state["secret"]["roles"]
    return [seat for seat in _living(state) if roles[seat] == R.MAFIOSO]


def _small_game(state: State) -> bool:
    """Does the small-game rule apply (rules B.3.1: R 6–7, and there is an agent)?"""
    return (_rule(state, "small_game_rule") and state["players"] in R.SMALL_GAME_PLAYERS
            and not _rule(state, "kids_no_agent"))


def _large_game(state: State) -> bool:
    """Does the large-game rule apply (rules B.3.2: R 20–21)?"""
    return _rule(state, "large_game_rule") and state["players"] in R.LARGE_GAME_PLAYERS


def _discussion_clock(state: State) -> None:
    minutes = _rule(state, "discussion_minutes")
    if minutes == "off":
        stop_clock(state)
    else:
        start_clock(state, int(minutes) * 60, END_DISCUSSION)


def _secret(state: State, **changes: Any) -> None:
    state["secret"] = {**state["secret"], **changes}


def _night(state: State, **changes: Any) -> None:
    _secret(state, night={**state["secret"]["night"], **changes})


def _draw_lots(state: State, events: list[Event], candidates: list[int], why: str,
               audience: Audience) -> int:
    """A fair draw among ``candidates`` (rules §0), the chance kit's (engines/chance.py): its
    event goes to ``audience``; a deal's ``coins`` force it."""
    drawn = chance.pick(state["secret"]["chance"], LOT, sorted(candidates), audience=audience, why=why)
    _secret(state, chance=drawn.chance)
    events.append(drawn.event)
    return drawn.value


# --------------------------------------------------------------------------------------------
# Night (rules B.2, C.2)
# --------------------------------------------------------------------------------------------

def _night_steps(state: State) -> list[str]:
    """Tonight's steps, in order; a skipped step is a public fact (the agent's or the doctor's
    death is public, the small-game round and the spent spell too)."""
    round_ = state["round"]
    steps = []
    # "Якщо Агент був раніше «вбитий», то … фаза Агента пропускається" / "o ile nie został
    # wcześniej wyeliminowany"; small game: "тільки в ПЕРШОМУ турі" (rules B.3.1).
    if _holder(state, R.AGENT) is not None and not (_small_game(state) and round_ > 1):
        steps.append(AGENT_STEP)
    if _rule(state, "doctor") and _holder(state, R.DOCTOR) is not None:
        steps.append(DOCTOR_STEP)       # "każdej nocy budzi się przed mafią" (rules C.3.1)
    # Small game, literal reading: round 1 goes from the agent straight to the day (B.3.1).
    if not (_small_game(state) and round_ == 1 and not _rule(state, "small_game_round1_mafia")):
        steps.append(MAFIA_STEP)
    if _rule(state, "wizard") and not state["spell_used"] and _holder(state, R.WIZARD) is not None:
        steps.append(WIZARD_STEP)       # the last night step (rules C.3.2, PROPOSED)
    return steps


def _begin_night(state: State, events: list[Event]) -> None:
    """NIGHT_START: everyone closes their eyes (rules B.2, C.2)."""
    state["night_steps"] = _night_steps(state)
    state["vote"], state["finalists"], state["tied"], state["coin"] = None, [], [], None
    _secret(state, night=_fresh_night(state["round"], state["players"]))
    events.append(Event("night_started", {"round": state["round"],
                                          "steps": list(state["night_steps"])}))
    say(state, "night", round=state["round"])
    _begin_night_step(state, events, 0)


def _begin_night_step(state: State, events: list[Event], index: int) -> None:
    steps = state["night_steps"]
    if index >= len(steps):
        _dawn(state, events)
        return
    step = steps[index]
    if index > 0:
        state["narration"] = []
    next_turn(state, step)
    state["night_step"], state["step_done"] = step, False
    start_clock(state, int(_rule(state, "deadline_seconds")), TIMEOUT)
    if step == MAFIA_STEP:
        _mafia_meeting(state, events)
    say(state, f"{step}_step")


def _mafia_meeting(state: State, events: list[Event]) -> None:
    """The living mafiosi open their eyes and see each other (GRANNA "дивляться один на
    одного"; Polish "to jest moment, w którym gangsterzy się poznają")."""
    mafiosi = _mafiosi(state)
    met = [list(seen) for seen in state["secret"]["met"]]
    for seat in mafiosi:
        met[seat] = sorted(set(met[seat]) | (set(mafiosi) - {seat}))
    _secret(state, met=met)
    events.append(Event("mafia_meeting", {"round": state["round"], "mafiosi": mafiosi}, mafiosi))


def _step_done(state: State) -> None:
    """The step's players have acted: it ends ``night_seconds`` after it began (or now)."""
    state["step_done"] = True
    state["clock"] = {**state["clock"], "seconds": int(_rule(state, "night_seconds"))}


def _actors(state: State) -> list[int]:
    """Who acts in the current night step (before they are done)."""
    step = state["night_step"]
    if step == MAFIA_STEP:
        return _mafiosi(state)
    holder = _holder(state, STEP_ROLE[step])
    return [holder] if holder is not None else []


def _mafia_targets(state: State) -> list[int]:
    """Living non-mafiosi (GRANNA "вказують на одного з Полісменів"; Polish "wybranie
    policjanta"); not an agent the small-game rule already caught (his token lies face up)."""
    roles, caught = state["secret"]["roles"], state["secret"]["night"]["caught"]
    return [seat for seat in _living(state) if roles[seat] != R.MAFIOSO and seat != caught]


def _doomed(state: State) -> int | None:
    """The seat that dies at this dawn by the mafia: the victim unless the doctor healed him."""
    tonight = state["secret"]["night"]
    victim, heal = tonight["victim"], tonight["heal"]
    if victim is None or (heal is not None and heal["target"] == victim):
        return None
    return victim


def _swap_targets(state: State) -> list[int]:
    """Two of these (rules C.3.2, PROPOSED): living, not the wizard, not the dying victim."""
    wizard, doomed = _holder(state, R.WIZARD), _doomed(state)
    return [seat for seat in _living(state) if seat not in (wizard, doomed)]


def _end_night_step(state: State, events: list[Event]) -> None:
    """The game master ends the step (the clock): the mafia's deadline rules, then the next."""
    step = state["night_step"]
    if step == MAFIA_STEP:
        _settle_victim(state, events)
    events.append(Event("night_step_ended", {"step": step}))
    _begin_night_step(state, events, state["night_steps"].index(step) + 1)


def _settle_victim(state: State, events: list[Event]) -> None:
    """The mafia's victim: the locked target, else the deadline rule (rules B.2.5)."""
    tonight = state["secret"]["night"]
    mafiosi = _mafiosi(state)
    if tonight["locked"] is not None:
        victim = tonight["locked"]
    else:
        victim, how, candidates = night_rules.deadline_victim(
            tonight["picks"], mafiosi, _mafia_targets(state),
            lambda among: _draw_lots(state, events, among, "victim", mafiosi))
        events.append(Event("victim_chosen", {"how": how, "candidates": candidates,
                                              "victim": victim}, mafiosi))
    _night(state, victim=victim)


# --------------------------------------------------------------------------------------------
# Dawn, eliminations, win check (rules B.2.3, B.2.4, C.2)
# --------------------------------------------------------------------------------------------

def _dawn(state: State, events: list[Event]) -> None:
    """Everyone opens their eyes: the spell, the caught agent, the victim — in that order."""
    state["narration"] = []
    state["night_step"], state["step_done"] = None, False
    stop_clock(state)
    tonight = state["secret"]["night"]
    state["dawn"] = {"round": state["round"], "spell": False, "deaths": [], "saved": None}
    events.append(Event("dawn", {"round": state["round"]}))
    say(state, "dawn", round=state["round"])
    if tonight["swap"] is not None:
        _carry_out_swap(state, events)
    if tonight["caught"] is not None:
        seat = tonight["caught"]
        # "Агента «вбито» … Коли решта гравців відкриє очі, то дізнається що Агента було
        # «вбито»" (rules B.3.1); his check target stays secret.
        if _eliminate(state, events, seat, SMALL_RULE_AGENT, "agent_caught", at_dawn=True):
            return
    victim, doomed = tonight["victim"], _doomed(state)
    if victim is not None and doomed is None:
        # "Jeśli będzie to osoba wskazana przez mafię, nie zostanie ona wyeliminowana" (C.3.1)
        announce = _rule(state, "announce_saved")
        events.append(Event("saved", {"seat": victim}, PUBLIC if announce else NOBODY))
        if announce:
            state["dawn"] = {**state["dawn"], "saved": victim}
            say(state, "saved", seat=victim)
    if doomed is not None:
        _night_victim_named(state, events, doomed)
        return
    if not state["dawn"]["deaths"]:
        say(state, "nobody_died")
    _begin_discussion(state, events)


def _night_victim_named(state: State, events: list[Event], seat: int) -> None:
    """HOOK (rules B.3.4, action cards — a later issue): the game master names the night's
    victim ("Завжди після фази Мафії Магістр гри повинен стати за гравцем … Саме в цей момент
    гравець має час на реакцію").  A Vest or a Bandage would open a reaction window here,
    before the elimination; today there are no cards, so the elimination proceeds at once."""
    _kill_at_dawn(state, events, seat)


def _kill_at_dawn(state: State, events: list[Event], seat: int) -> None:
    if _eliminate(state, events, seat, NIGHT, "killed", at_dawn=True):
        return
    if not _offer_last_shot(state, events, seat, NIGHT, then=DISCUSSION):
        _begin_discussion(state, events)


def _eliminate(state: State, events: list[Event], seat: int, cause: str, line: str,
               at_dawn: bool = False, **params: Any) -> bool:
    """Out, with the token turned face up (rules B.2.3); True if that ended the game."""
    role = state["secret"]["roles"][seat]
    dead = list(state["dead"])
    dead[seat] = {"cause": cause, "round": state["round"], "role": role}
    state["dead"] = dead
    if at_dawn:
        death = {"seat": seat, "role": role, "cause": cause}
        state["dawn"] = {**state["dawn"], "deaths": state["dawn"]["deaths"] + [death]}
    events.append(Event("eliminated", {"seat": seat, "role": role, "cause": cause,
                                       "round": state["round"]}))
    say(state, line, seat=seat, role=role, **params)
    return _win_check(state, events)


def _win_check(state: State, events: list[Event]) -> bool:
    """After every single elimination (rules B.2.4): a team with nobody left loses at once;
    no parity win; pending last shots are void."""
    roles = state["secret"]["roles"]
    teams = {R.team(roles[seat]) for seat in _living(state)}
    if R.MAFIA not in teams:
        # "Гра закінчується тоді, коли будуть «вбиті» … всі Мафіозі"
        say(state, "police_win")
        _end_game(state, events, R.POLICE, "mafia_eliminated")
        return True
    if R.POLICE not in teams:
        # "… всі Полісмени (разом з Агентом)" / "wszystkich policjantów (również agenta)"
        say(state, "mafia_win")
        _end_game(state, events, R.MAFIA, "police_eliminated")
        return True
    return False


def _carry_out_swap(state: State, events: list[Event]) -> None:
    """The wizard's spell (rules C.3.2): the two cards change places — everything on them,
    the judge's used flag included — and the whole city looks at its cards."""
    tonight = state["secret"]["night"]
    first, second = tonight["swap"]["targets"]
    roles = list(state["secret"]["roles"])
    roles[first], roles[second] = roles[second], roles[first]
    record = {"round": state["round"], "wizard": tonight["swap"]["wizard"],
              "targets": [first, second]}
    _secret(state, roles=roles, swap=record)
    state["spell_used"] = True
    state["dawn"] = {**state["dawn"], "spell": True}
    events.append(Event("swap_carried_out", dict(record), NOBODY))
    events.append(Event("spell_cast", {"round": state["round"]}))
    events += [_role_event(state, first), _role_event(state, second)]
    say(state, "spell_cast")


# --------------------------------------------------------------------------------------------
# Last shots (rules B.3.2 large game, B.3.3 children 2.)
# --------------------------------------------------------------------------------------------

def _shot_kind(state: State, cause: str) -> str | None:
    """Does the player just out by ``cause`` get a last shot: "mandatory", "optional", None?"""
    if cause not in (NIGHT, LYNCH):
        return None     # no chaining; the small-game agent was not out in a mafia/police phase
    if _rule(state, "kids_last_shot_all"):
        return "optional"       # "може виконати останній постріл"
    if _large_game(state) and state["round"] == 1:
        return "mandatory"      # "2 перших гравці … мають право на останній постріл"
    return None


def _offer_last_shot(state: State, events: list[Event], shooter: int, cause: str,
                     then: str) -> bool:
    kind = _shot_kind(state, cause)
    if kind is None:
        return False
    next_turn(state, LAST_SHOT)
    state["last_shot"] = {"shooter": shooter, "optional": kind == "optional", "then": then}
    start_clock(state, int(_rule(state, "deadline_seconds")), TIMEOUT)
    events.append(Event("last_shot_offered", {"shooter": shooter, "optional": kind == "optional"}))
    say(state, "last_shot", seat=shooter, optional=kind == "optional")
    return True


def _after_last_shot(state: State, events: list[Event], then: str) -> None:
    state["last_shot"] = None
    stop_clock(state)
    if then == DISCUSSION:
        _begin_discussion(state, events)
    else:
        _end_day(state, events)


# --------------------------------------------------------------------------------------------
# Day (rules B.2, B.2.1, B.2.2, B.3.3; C.2)
# --------------------------------------------------------------------------------------------

def _begin_discussion(state: State, events: list[Event]) -> None:
    next_turn(state, DISCUSSION)
    _discussion_clock(state)
    say(state, "discussion", round=state["round"])


def _begin_vote(state: State, events: list[Event], kind: str, ballot: list[int]) -> None:
    """Every living player names one player on the ballot; secret until the last vote."""
    next_turn(state, kind)
    stop_clock(state)
    state["vote"] = {"kind": kind, "ballot": sorted(ballot), "voted": []}
    _secret(state, ballots=[None] * state["players"], double=None)
    say(state, kind, ballot=sorted(ballot))


def _reveal_votes(state: State, events: list[Event]) -> None:
    """All votes shown at once, by name (rules §0: "votes are public by name")."""
    players, vote = state["players"], state["vote"]
    votes, double = list(state["secret"]["ballots"]), state["secret"]["double"]
    counts = V.tally(votes, players, double)
    record = {"round": state["round"], "kind": vote["kind"], "ballot": list(vote["ballot"]),
              "votes": votes, "double": double}
    state["vote"] = None
    _secret(state, ballots=[None] * players, double=None)
    state["last_vote"] = record
    state["narration"] = []
    events.append(Event("votes_revealed", _vote_view(record, players)))
    say(state, "votes_revealed", kind=record["kind"])
    if double is not None:
        state["judge_used"] = True
        say(state, "judge_double", seat=double)
    if record["kind"] == VOTE:
        _after_first_vote(state, events, counts)
    elif record["kind"] == FINAL_VOTE:
        _after_final_vote(state, events, counts)
    else:
        _after_re_vote(state, events, counts)


def _tie(state: State, tied: list[int]) -> None:
    """Several players share the most votes: they are the next ballot (rules B.2.2, B.3.3 3.)."""
    state["tied"] = tied
    say(state, "tie", seats=list(tied))


def _after_first_vote(state: State, events: list[Event], counts: list[int]) -> None:
    if _rule(state, "kids_single_vote"):
        # "Є тільки одне голосування … Тільки у випадку, якщо кілька гравців набрали однакову
        # кількість голосів, між ними влаштовують фінал" (children's version 3.)
        seat, tied = V.decide(counts)
        if seat is not None:
            _lynch_victim_named(state, events, seat)
            return
        _tie(state, tied)
        _begin_vote(state, events, FINAL_VOTE, tied)
        return
    state["finalists"] = V.finalists(counts)
    events.append(Event("finalists", {"seats": list(state["finalists"])}))
    say(state, "finalists", seats=list(state["finalists"]))
    next_turn(state, DEFENCE)


def _after_final_vote(state: State, events: list[Event], counts: list[int]) -> None:
    seat, tied = V.decide(counts)
    if seat is not None:
        _lynch_victim_named(state, events, seat)
        return
    # "починається нова дискусія, до моменту, коли хтось з гравців не змінить свою думку"
    _tie(state, tied)
    next_turn(state, RE_DISCUSSION)
    _discussion_clock(state)


def _after_re_vote(state: State, events: list[Event], counts: list[int]) -> None:
    seat, tied = V.decide(counts)
    if seat is None:
        # "В випадку, коли ніхто не змінює свою думку … кинути монету" (rules B.2.2: one
        # re-vote, then the coin among the tied)
        state["tied"] = tied
        seat = _draw_lots(state, events, tied, "coin", PUBLIC)
        state["coin"] = {"among": list(tied), "seat": seat}
        events.append(Event("coin", {"among": list(tied), "seat": seat}))
        say(state, "coin", seats=list(tied), seat=seat)
    _lynch_victim_named(state, events, seat)


def _lynch_victim_named(state: State, events: list[Event], seat: int) -> None:
    """HOOK (rules B.3.4, action cards — a later issue): the day's vote has named who goes;
    a Vest or a Bandage would open a reaction window here, before the elimination ("у
    фінальному голосуванні він так само може оборонитись").  Today it proceeds at once."""
    _lynch(state, events, seat)


def _lynch(state: State, events: list[Event], seat: int) -> None:
    """The token is shown to all and the player is out (rules B.2.3; Polish "aresztowany")."""
    if _eliminate(state, events, seat, LYNCH, "lynched"):
        return
    if not _offer_last_shot(state, events, seat, LYNCH, then="night"):
        _end_day(state, events)


def _end_day(state: State, events: list[Event]) -> None:
    """"Наступає кінець фази Поліції і, водночас, кінець раунду." """
    state["round"] += 1
    _begin_night(state, events)


# --------------------------------------------------------------------------------------------
# End of game
# --------------------------------------------------------------------------------------------

def _end_game(state: State, events: list[Event], winner: str, reason: str) -> None:
    """GAME_OVER: the team with players left wins, its eliminated members too (rules B.2.4)."""
    next_turn(state, GAME_OVER)
    stop_clock(state)
    state["night_step"], state["last_shot"], state["vote"] = None, None, None
    roles = state["secret"]["roles"]
    winners = [seat for seat, role in enumerate(roles) if R.team(role) == winner]
    state["outcome"] = {"winner": winner, "reason": reason, "winners": winners}
    events.append(Event("game_over", {"winner": winner, "reason": reason,
                                      "winners": list(winners), "roles": list(roles)}))


def outcome(state: State) -> Outcome | None:
    return Outcome.from_json(state["outcome"])


# --------------------------------------------------------------------------------------------
# Actions
# --------------------------------------------------------------------------------------------
# Each handler changes the state it is given: ``apply`` hands it a working copy (engines/base.py,
# ``working_copy``), so the caller's state never changes and a refusal leaves nothing behind.

def _expect_phase(state: State, *phases: str) -> None:
    if state["phase"] not in phases:
        raise IllegalAction("wrong_phase", "That is not possible right now")


def _expect_actor(state: State, seat: int | None, step: str) -> None:
    """``seat`` is awake in this night step and has not acted yet."""
    _expect_phase(state, step)
    if seat is None or seat not in _actors(state):
        raise IllegalAction("not_your_turn", "You have nothing to do now")
    if state["step_done"]:
        if step == MAFIA_STEP:
            raise IllegalAction("locked", "The mafia has already agreed on tonight's victim")
        raise IllegalAction("already_acted", "You have already made tonight's choice")


def _checked_target(state: State, target: int, self_seat: int | None = None,
                    self_code: str = "self_target") -> int:
    if not _is_seat(state["players"], target):
        raise IllegalAction("unknown_seat", "Pick a player at this table")
    if not _alive(state, target):
        raise IllegalAction("target_dead", "Pick a player still in the game")
    if target == self_seat:
        raise IllegalAction(self_code, "Pick someone else")
    return target


def check(state: State, seat: int | None, action: Action) -> Result:
    """The agent points at one living player and sees his token (rules B.2 AGENT_PHASE)."""
    _expect_actor(state, seat, AGENT_STEP)
    target = _checked_target(state, action["target"], seat)
    role = state["secret"]["roles"][target]
    # GRANNA shows the printed token; Polish agent_sees=team shows gangster/policeman, the extra
    # police roles as policemen (rules C-Q6).
    seen = role if _rule(state, "agent_sees") == "card" or role == R.MAFIOSO else R.POLICEMAN
    record = {"round": state["round"], "agent": seat, "target": target, "role": seen}
    _secret(state, checks=state["secret"]["checks"] + [record])
    caught = _small_game(state) and role == R.MAFIOSO
    # Small-game rule: "Якщо трапиться, що Агент побачить Мафіозі, тоді Агента «вбито»".
    _night(state, check={"agent": seat, "target": target, "role": seen},
           caught=seat if caught else None)
    events = [Event("checked", {**record, "caught": caught}, [seat])]
    _step_done(state)
    return Result(state, events)


def skip_check(state: State, seat: int | None, action: Action) -> Result:
    """Polish: the agent "may" point at someone (rules C-Q5); GRANNA: he must."""
    _expect_actor(state, seat, AGENT_STEP)
    if not _rule(state, "agent_check_optional"):
        raise IllegalAction("check_required", "The agent must check a player")
    return _pass(state, seat, "check_skipped")


def heal(state: State, seat: int | None, action: Action) -> Result:
    """The doctor picks one person to heal tonight (rules C.3.1)."""
    _expect_actor(state, seat, DOCTOR_STEP)
    self_seat = None if _rule(state, "doctor_self_heal") else seat
    target = _checked_target(state, action["target"], self_seat, "no_self_heal")
    record = {"round": state["round"], "doctor": seat, "target": target}
    _secret(state, heals=state["secret"]["heals"] + [record])
    _night(state, heal={"doctor": seat, "target": target})
    _step_done(state)
    return Result(state, [Event("healed", record, [seat])])


def _pass(state: State, seat: int, kind: str) -> Result:
    """The step's player (checked by the caller) does nothing tonight; only he is told."""
    _step_done(state)
    return Result(state, [Event(kind, {"round": state["round"]}, [seat])])


def skip_heal(state: State, seat: int | None, action: Action) -> Result:
    _expect_actor(state, seat, DOCTOR_STEP)
    return _pass(state, seat, "heal_skipped")


def pick_victim(state: State, seat: int | None, action: Action) -> Result:
    """A mafioso points at tonight's victim; the others see it live; all the same → locked."""
    _expect_actor(state, seat, MAFIA_STEP)
    target = _checked_target(state, action["target"])
    if state["secret"]["roles"][target] == R.MAFIOSO:
        raise IllegalAction("fellow_mafioso", "Pick someone who is not in the mafia")
    if target not in _mafia_targets(state):
        raise IllegalAction("target_dead", "Pick a player still in the game")
    mafiosi = _mafiosi(state)
    picks = list(state["secret"]["night"]["picks"])
    picks[seat] = target
    _night(state, picks=picks)
    events = [Event("picked", {"seat": seat, "target": target}, mafiosi)]
    agreed = night_rules.unanimous(picks, mafiosi)
    if agreed is not None:
        _night(state, locked=agreed)
        events.append(Event("victim_chosen", {"how": night_rules.UNANIMOUS,
                                              "candidates": [agreed], "victim": agreed}, mafiosi))
        _step_done(state)
    return Result(state, events)


def cast_swap(state: State, seat: int | None, action: Action) -> Result:
    """The wizard points at two people whose cards are swapped (rules C.3.2)."""
    _expect_actor(state, seat, WIZARD_STEP)
    first, second = action["targets"]
    for target in (first, second):
        _checked_target(state, target, seat, "wizard_self")
    if first == second:
        raise IllegalAction("same_target", "Pick two different players")
    if _doomed(state) in (first, second):
        raise IllegalAction("target_dead", "Pick a player still in the game")
    swap = {"wizard": seat, "targets": sorted([first, second])}
    _night(state, swap=swap)
    _step_done(state)
    return Result(state, [Event("swap_cast", {"round": state["round"], **swap}, [seat])])


def skip_swap(state: State, seat: int | None, action: Action) -> Result:
    _expect_actor(state, seat, WIZARD_STEP)
    return _pass(state, seat, "swap_skipped")


def vote(state: State, seat: int | None, action: Action) -> Result:
    """One vote, secret until the last one arrives (rules B.2 VOTE_1 / VOTE_2, C.2)."""
    _expect_phase(state, *VOTES)
    if seat is None:
        raise IllegalAction("not_your_turn", "Only players vote")
    if not _alive(state, seat):
        raise IllegalAction("dead", "The eliminated do not vote")
    ballots = state["secret"]["ballots"]
    if ballots[seat] is not None:
        raise IllegalAction("already_voted", "You have already voted")
    target, kind = action["target"], state["vote"]["kind"]
    if kind == VOTE:
        # one living player other than self, no abstention (rules B-Q3)
        _checked_target(state, target, seat, "no_self_vote")
    elif target not in state["vote"]["ballot"]:
        _checked_target(state, target)
        raise IllegalAction("not_on_ballot", "Vote for one of the players on the ballot")
    double = action.get("double", False)
    if double:
        if state["secret"]["roles"][seat] != R.JUDGE:
            raise IllegalAction("not_judge", "Only the judge's vote may count double")
        if state["judge_used"]:
            raise IllegalAction("judge_used", "The judge's double vote is spent")
    ballots = list(ballots)
    ballots[seat] = target
    _secret(state, ballots=ballots, double=seat if double else state["secret"]["double"])
    state["vote"] = {**state["vote"], "voted": sorted(state["vote"]["voted"] + [seat])}
    events = [Event("vote_cast", {"seat": seat})]
    if all(ballots[voter] is not None for voter in _living(state)):
        _reveal_votes(state, events)
    return Result(state, events)


def _expect_shooter(state: State, seat: int | None) -> dict:
    """A last shot is being taken, by ``seat``; the shot's record."""
    _expect_phase(state, LAST_SHOT)
    shot = state["last_shot"]
    if seat != shot["shooter"]:
        raise IllegalAction("not_your_turn", "Only the last shooter shoots")
    return shot


def last_shot(state: State, seat: int | None, action: Action) -> Result:
    """The eliminated shooter points at any living player, who is out at once (B.3.2)."""
    shot = _expect_shooter(state, seat)
    target = _checked_target(state, action["target"])
    events = [Event("shot", {"shooter": seat, "target": target})]
    if _eliminate(state, events, target, SHOT, "shot", at_dawn=shot["then"] == DISCUSSION,
                  shooter=seat):
        return Result(state, events)
    _after_last_shot(state, events, shot["then"])
    return Result(state, events)


def skip_last_shot(state: State, seat: int | None, action: Action) -> Result:
    shot = _expect_shooter(state, seat)
    if not shot["optional"]:
        raise IllegalAction("shot_required", "Take your last shot")
    events = [Event("shot_skipped", {"shooter": seat})]
    say(state, "no_shot", shooter=seat)
    _after_last_shot(state, events, shot["then"])
    return Result(state, events)


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
    else:
        _end_night_step(state, events)
    return Result(state, events)


def end_discussion(state: State, seat: int | None, action: Action) -> Result:
    """The host (or the discussion clock) ends the talk: the vote begins."""
    _expect_host(seat)
    _expect_phase(state, DISCUSSION, RE_DISCUSSION)
    state["narration"] = []
    events = [Event("discussion_ended", {"round": state["round"]})]
    if state["phase"] == DISCUSSION:
        _begin_vote(state, events, VOTE, _living(state))
    else:
        _begin_vote(state, events, RE_VOTE, state["tied"])
    return Result(state, events)


def end_defence(state: State, seat: int | None, action: Action) -> Result:
    """The host ends the finalists' speeches: the final vote (a lone finalist is out)."""
    _expect_host(seat)
    _expect_phase(state, DEFENCE)
    state["narration"] = []
    events = [Event("defence_ended", {"round": state["round"]})]
    finalists = state["finalists"]
    if len(finalists) == 1:
        _lynch_victim_named(state, events, finalists[0])      # rules B.2.1, 3.
    elif _rule(state, "arrest_scope") == "anyone":
        _begin_vote(state, events, FINAL_VOTE, _living(state))
    else:
        _begin_vote(state, events, FINAL_VOTE, finalists)
    return Result(state, events)


# --------------------------------------------------------------------------------------------
# The host acting for a player whose phone is gone
# (engines/base.py; docs/rules/classic-mafia.md §E.2)
# --------------------------------------------------------------------------------------------

def _public_choice(action: Action) -> bool:
    """What the host may choose for a seat: a day vote, public by name anyway (rules §0,
    "votes are public by name") — never the judge's double vote (it would show his card) nor
    anything at night (a secret, and the night's clock ends the step without it)."""
    return action["type"] == "vote" and not action.get("double")


def proxy(state: State, seat: int | None, action: Action) -> Result:
    """The host votes for a player (operational, not a rule): exactly a vote that player may
    cast now; like his own, it stays secret until the last vote is in."""
    target, inner = proxied(state, seat, action, legal_actions, _public_choice)
    say(state, "proxy_vote", seat=target)
    state, events = vote(state, target, inner)
    return Result(state, [Event("proxied", {"seat": target, "type": inner["type"]}), *events])


def host_proxy_moves(state: State) -> dict[int, list[Action]]:
    """The votes the host may cast for each seat that has still to vote (none at night)."""
    if state["phase"] not in VOTES:
        return {}
    return proxy_moves(state, legal_actions, _public_choice, waiting_for(state))


def removable(state: State) -> list[int]:
    """Whom the host may remove: any living player, at any moment of a running game."""
    return [] if state["phase"] == GAME_OVER else _living(state)


def remove_player(state: State, seat: int | None, action: Action) -> Result:
    """REMOVE_FOR_CHEATING (rules B.2.3: "Cheating (peeking) → the GM removes the player at
    once"; GRANNA: "Гравець, якого зловили за порушення правил, одразу виключається з гри
    Магістром"): out with the token face up, then the win check; whatever the player still
    had to do, or had done that is not yet public, is void."""
    target = host_for(state, seat, action)
    if not _alive(state, target):
        raise IllegalAction("target_dead", "Pick a player still in the game")
    events: list[Event] = []
    if _eliminate(state, events, target, REMOVED, "removed"):
        return Result(state, events)
    phase = state["phase"]
    if phase in NIGHT_STEPS:
        _void_at_night(state, target)
    elif phase in VOTES:
        # Votes stay secret until the last one (rules §0): a vote for or by the removed player
        # cannot be taken back alone without showing whose it was, so the vote starts afresh.
        ballot = [other for other in state["vote"]["ballot"] if other != target]
        _begin_vote(state, events, state["vote"]["kind"], ballot)
    elif phase in (DEFENCE, RE_DISCUSSION):
        state["finalists"] = [other for other in state["finalists"] if other != target]
        state["tied"] = [other for other in state["tied"] if other != target]
        if not state["finalists" if phase == DEFENCE else "tied"]:
            _end_day(state, events)       # nobody left to vote on today
    elif phase == LAST_SHOT and state["last_shot"]["shooter"] == target:
        events.append(Event("shot_skipped", {"shooter": target}))
        _after_last_shot(state, events, state["last_shot"]["then"])
    return Result(state, events)


def _void_at_night(state: State, seat: int) -> None:
    """Tonight without the removed player: his picks and the picks at him go, a victim or a
    caught agent who is already out does not die again at dawn, a spell on him or by him fails.
    A step he alone had to act in ends by its clock, as an empty step does (no tell)."""
    tonight = state["secret"]["night"]
    picks = [None if voter == seat or target == seat else target for voter, target in enumerate(tonight["picks"])]
    swap = tonight["swap"]
    changes = {"picks": picks,
               "victim": None if tonight["victim"] == seat else tonight["victim"],
               "caught": None if tonight["caught"] == seat else tonight["caught"],
               "swap": None if swap and seat in (swap["wizard"], *swap["targets"]) else swap}
    if tonight["locked"] is not None and tonight["locked"] == seat:
        changes["locked"] = None
        state["step_done"] = False
        state["clock"] = {**state["clock"], "seconds": int(_rule(state, "deadline_seconds"))}
    _night(state, **changes)
    if state["phase"] == MAFIA_STEP and not state["step_done"]:
        agreed = night_rules.unanimous(picks, _mafiosi(state))   # the others may agree already
        if agreed is not None:
            _night(state, locked=agreed)
            _step_done(state)


def _expect_host(seat: int | None) -> None:
    """The game master's clock or the host's button (``apply`` checks which may make it now)."""
    if seat not in (GAME_MASTER, HOST):
        raise IllegalAction("host_only", "Only the game master does that")


# --------------------------------------------------------------------------------------------
# Parsing actions (structure only; the rules are checked by the handlers above)
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
            and action["type"] not in ("last_shot", "skip_last_shot"):
        raise IllegalAction("dead", "The eliminated stay silent")
    return handler(working_copy(state), seat, action)


# --------------------------------------------------------------------------------------------
# Whose move
# --------------------------------------------------------------------------------------------

def waiting_for(state: State) -> list[int]:
    """Seats whose input the game awaits now (secret: never show it on the TV at night)."""
    phase = state["phase"]
    if phase in NIGHT_STEPS:
        return [] if state["step_done"] else sorted(_actors(state))
    if phase in VOTES:
        ballots = state["secret"]["ballots"]
        return [seat for seat in _living(state) if ballots[seat] is None]
    if phase == LAST_SHOT:
        return [state["last_shot"]["shooter"]]
    return []


def host_moves(state: State) -> list[Action]:
    """The host's buttons (never the clock's ``timeout``)."""
    if state["phase"] in (DISCUSSION, RE_DISCUSSION):
        return [dict(END_DISCUSSION)]
    if state["phase"] == DEFENCE:
        return [dict(END_DEFENCE)]
    return []


def legal_actions(state: State, seat: int | str | None) -> list[Action]:
    """Every action ``seat`` may apply now (the game master: its clock's move; the host: its
    buttons)."""
    if state["phase"] == GAME_OVER:
        return []
    if seat is GAME_MASTER:
        return [dict(state["clock"]["move"])] if state["clock"] else []
    if seat == HOST:
        return host_moves(state)
    if seat not in waiting_for(state):
        return []
    phase = state["phase"]
    if phase == AGENT_STEP:
        moves = [{"type": "check", "target": target} for target in _living(state) if target != seat]
        return moves + ([{"type": "skip_check"}] if _rule(state, "agent_check_optional") else [])
    if phase == DOCTOR_STEP:
        self_ok = _rule(state, "doctor_self_heal")
        return [{"type": "heal", "target": target} for target in _living(state)
                if self_ok or target != seat] + [{"type": "skip_heal"}]
    if phase == MAFIA_STEP:
        return [{"type": "pick_victim", "target": target} for target in _mafia_targets(state)]
    if phase == WIZARD_STEP:
        return [{"type": "cast_swap", "targets": [first, second]}
                for first, second in combinations(_swap_targets(state), 2)] + [{"type": "skip_swap"}]
    if phase == LAST_SHOT:
        moves = [{"type": "last_shot", "target": target} for target in _living(state)]
        return moves + ([{"type": "skip_last_shot"}] if state["last_shot"]["optional"] else [])
    # a vote
    kind = state["vote"]["kind"]
    ballot = [target for target in state["vote"]["ballot"] if kind != VOTE or target != seat]
    moves = [{"type": "vote", "target": target} for target in ballot]
    if state["secret"]["roles"][seat] == R.JUDGE and not state["judge_used"]:
        moves += [{"type": "vote", "target": target, "double": True} for target in ballot]
    return moves


# --------------------------------------------------------------------------------------------
# Views (rules B.4, C.4): built field by field from public state, plus the viewer's own secrets
# --------------------------------------------------------------------------------------------

def view(state: State, seat: int | None) -> dict:
    """What the TV (``seat`` None) or one phone may show now."""
    over = state["phase"] == GAME_OVER
    secret = state["secret"]
    clock = state["clock"]
    return {
        "ruleset": state["ruleset"],   # the edition (editions.py)
        "options": dict(state["options"]),
        "phase": state["phase"],
        "turn": state["turn"],
        "players": state["players"],
        "round": state["round"],
        "role_counts": dict(state["role_counts"]),
        "seats": [_seat_view(state, index, over) for index in range(state["players"])],
        "night_steps": list(state["night_steps"]),
        "night_step": state["night_step"],
        "dawn": _dawn_view(state["dawn"]),
        "victim": _night_victim(state["dawn"]),
        "vote": ({"kind": state["vote"]["kind"], "ballot": list(state["vote"]["ballot"]),
                  "voted": list(state["vote"]["voted"]), "voters": _living(state)}
                 if state["vote"] else None),
        "last_vote": _vote_view(state["last_vote"], state["players"]),
        "finalists": list(state["finalists"]),
        "tied": list(state["tied"]),
        "coin": dict(state["coin"], among=list(state["coin"]["among"])) if state["coin"] else None,
        "last_shot": ({"shooter": state["last_shot"]["shooter"],
                       "optional": state["last_shot"]["optional"]}
                      if state["last_shot"] else None),
        "judge_used": state["judge_used"],
        "spell_used": state["spell_used"],
        "clock": {"id": clock["id"], "seconds": clock["seconds"]} if clock else None,
        "narration": [{"code": item["code"], "params": _copy(item["params"])}
                      for item in state["narration"]],
        "outcome": outcome(state).to_json() if over else None,
        "reveal": ({"roles": list(secret["roles"]), "dealt": dealt_roles(state),
                    "checks": [dict(record) for record in secret["checks"]],
                    "heals": [dict(record) for record in secret["heals"]],
                    "swap": _swap_view(secret["swap"])} if over else None),
        "me": _me(state, seat) if seat is not None else None,
    }


def _copy(params: dict) -> dict:
    """A narration line's parameters: ints, bools, None, lists of seats, a dict of counts."""
    return {key: list(value) if isinstance(value, list) else dict(value)
            if isinstance(value, dict) else value for key, value in params.items()}


def _seat_view(state: State, seat: int, over: bool) -> dict:
    dead = state["dead"][seat]
    role = dead["role"] if dead else state["secret"]["roles"][seat] if over else None
    return {"alive": dead is None, "role": role, "cause": dead["cause"] if dead else None}


def _dawn_view(dawn: dict | None) -> dict | None:
    if dawn is None:
        return None
    return {"round": dawn["round"], "spell": dawn["spell"], "saved": dawn["saved"],
            "deaths": [dict(death) for death in dawn["deaths"]]}


def _night_victim(dawn: dict | None) -> int | None:
    if dawn is None:
        return None
    return next((death["seat"] for death in dawn["deaths"] if death["cause"] == NIGHT), None)


def _vote_view(record: dict | None, players: int) -> dict | None:
    """A revealed vote: who named whom, the judge's double vote and the tally."""
    if record is None:
        return None
    return {**record, "ballot": list(record["ballot"]), "votes": list(record["votes"]),
            "tally": V.tally(record["votes"], players, record["double"])}


def _swap_view(swap: dict | None) -> dict | None:
    return {**swap, "targets": list(swap["targets"])} if swap else None


def _me(state: State, seat: int) -> dict:
    """The viewer's own secrets — never their cast vote (a glance at a phone gives nothing)."""
    secret = state["secret"]
    role, alive = secret["roles"][seat], _alive(state, seat)
    checks = [dict(record) for record in secret["checks"] if record["agent"] == seat]
    tonight = secret["night"]
    pending = tonight["swap"] if tonight["swap"] and tonight["swap"]["wizard"] == seat else None
    cast = secret["swap"] if secret["swap"] and secret["swap"]["wizard"] == seat else None
    awake = alive and role == R.MAFIOSO and state["phase"] == MAFIA_STEP
    return {
        "seat": seat,
        "role": role,
        "team": R.team(role),
        "alive": alive,
        # the "stay silent" banner; a dead (ex-)agent must not reveal what he learned (B.2.3)
        "keep_secret": not alive and bool(checks),
        "partners": list(secret["met"][seat]),
        "checks": checks,
        "heals": [dict(record) for record in secret["heals"] if record["doctor"] == seat],
        "swap": ({"round": tonight["round"], "targets": list(pending["targets"]), "pending": True}
                 if pending else {"round": cast["round"], "targets": list(cast["targets"]),
                                  "pending": False} if cast else None),
        "judge_used": state["judge_used"] if role == R.JUDGE else None,
        "picks": ([{"seat": mafioso, "target": tonight["picks"][mafioso]}
                   for mafioso in _mafiosi(state)] if awake else None),
        "locked": tonight["locked"] if awake else None,
        "voted": bool(state["vote"]) and seat in state["vote"]["voted"],
        "moves": legal_actions(state, seat),
        # Not for a player the host removed (a cheat, rules B.2.3): he left the game, he does
        # not get to watch everyone's cards.
        "ghost": _ghost(state) if not alive and _rule(state, "ghost_view")
        and state["dead"][seat]["cause"] != REMOVED else None,
    }


def _ghost(state: State) -> dict:
    """What the dead see (rules B.2.3, PROPOSED ghost_view): every current role and the
    night's actions as they happen (kept through the day)."""
    secret = state["secret"]
    tonight = secret["night"]
    return {
        "roles": list(secret["roles"]),
        "night": {
            "round": tonight["round"],
            "check": dict(tonight["check"]) if tonight["check"] else None,
            "heal": dict(tonight["heal"]) if tonight["heal"] else None,
            "picks": [{"seat": seat, "target": target}
                      for seat, target in enumerate(tonight["picks"]) if target is not None],
            "victim": tonight["victim"],
            "swap": ({"wizard": tonight["swap"]["wizard"],
                      "targets": list(tonight["swap"]["targets"])} if tonight["swap"] else None),
            "caught": tonight["caught"],
        },
    }


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
        removable=removable)


RULESETS = {slug: _ruleset(edition) for slug, edition in EDITIONS.items()}
