"""The table every chapter of classic Mafia plays on: the phases, the state, the facts the rules
read, the checks every action makes, and what every elimination leads to (rules B.2.3, B.2.4).

"rules B.2.3" means ``docs/rules/classic-mafia.md``; ``engine.py`` tells the whole game and our
decisions.  The chapters build on this module in the rulebooks' order: ``setup.py`` (rules B.1,
C.1), ``night_steps.py`` (B.2, C.2, C.3: the night and its dawn), ``day.py`` (B.2.1, B.2.2, B.3.2,
B.3.3: discussion, votes, lynch, last shots); then ``host.py`` (the host for a seat, E.2),
``moves.py`` (whose move) and ``views.py`` (B.4, C.4).  A name with a leading underscore belongs
to this package, not to the ruleset's interface (engines/base.py).

The night leads into the day and the day back into the night, so the two steps both of them
lead into live here, below both: a last shot offered (rules B.3.2, B.3.3) and the day's
discussion opened.
"""

from __future__ import annotations

from typing import Any

from engines import chance
from engines.base import (
    GAME_MASTER, HOST, Audience, Event, IllegalAction, Outcome, State, next_turn, say, start_clock,
    stop_clock,
)
from engines.classic import cards as C
from engines.classic import roles as R
from engines.classic.editions import EDITIONS


# --------------------------------------------------------------------------------------------
# Phases
# --------------------------------------------------------------------------------------------

AGENT_STEP, DOCTOR_STEP, MAFIA_STEP, WIZARD_STEP = "agent", "doctor", "mafia", "wizard"
NEW_GANG_STEP = "new_gang"      # round 1, between the agent and the mafia (rules B.3.5)
NIGHT_STEPS = (AGENT_STEP, DOCTOR_STEP, NEW_GANG_STEP, MAFIA_STEP, WIZARD_STEP)   # in this order (rules C.2)
ROLE_SWAP_PHASE = "role_swap"   # before the first night (rules B.3.4 Role Swap)
CARD_WINDOW = "card_window"     # a reaction window (rules B.3.4; cards.WINDOW_CARDS)
LEADER_PICK = "leader_pick"     # the Leader breaks a tie (rules B.3.4 Leader)
LAST_SHOT = "last_shot"
DISCUSSION, VOTE, DEFENCE, FINAL_VOTE = "discussion", "vote", "defence", "final_vote"
RE_DISCUSSION, RE_VOTE = "re_discussion", "re_vote"
VOTES = (VOTE, FINAL_VOTE, RE_VOTE)
GAME_OVER = "game_over"

# Causes of elimination (``seats[i].cause``)
NIGHT, LYNCH, SHOT, SMALL_RULE_AGENT = "night", "lynch", "last_shot", "small_rule_agent"
REMOVED = "removed"   # by the host, for cheating (rules B.2.3)

# The game master's clock's move and the host's buttons
TIMEOUT = {"type": "timeout"}
END_DISCUSSION = {"type": "end_discussion"}
END_DEFENCE = {"type": "end_defence"}

# The chance kit's label of every draw among seats: the mafia's deadline lot and the coin among
# the tied (one label, so a deal's ``coins`` force them in the order they happen).
LOT = "lot"

# Every rule each edition fixes, over the host's options (editions.py; ``_rule``)
_FIXED_RULES = {slug: edition.rules({}) for slug, edition in EDITIONS.items()}


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
    """The cards as dealt: the current ones with the wizard's swap and the Role Swap undone."""
    roles = list(state["secret"]["roles"])
    if state["secret"]["swap"]:
        first, second = state["secret"]["swap"]["targets"]
        roles[first], roles[second] = roles[second], roles[first]
    role_swap = state["cards"]["role_swap"] if C.extended(state) else None
    if role_swap:
        first, second = role_swap["holder"], role_swap["target"]
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
    """The living mafiosi (current cards) and recruits: those awake in the mafia step (rules
    B.3.4: a recruit "стає мафіозі" and wakes with them; a Turncoat with a Mafioso token still
    wakes — his token says Mafioso)."""
    roles = state["secret"]["roles"]
    recruits = state["secret"]["cards"]["recruits"] if C.extended(state) else []
    return [seat for seat in _living(state) if roles[seat] == R.MAFIOSO or seat in recruits]


def _mark_used(state: State, seat: int) -> None:
    """``seat``'s action card is played: single use (rules B.3.4)."""
    played = list(state["secret"]["cards"]["used"])
    played[seat] = True
    _secret(state, cards={**state["secret"]["cards"], "used": played})


def _small_game(state: State) -> bool:
    """Does the small-game rule apply (rules B.3.1: R 6–7, and there is an agent)?"""
    return (_rule(state, "small_game_rule") and state["players"] in R.SMALL_GAME_PLAYERS
            and not _rule(state, "kids_no_agent"))


def _large_game(state: State) -> bool:
    """Does the large-game rule apply (rules B.3.2: R 20–21)?"""
    return _rule(state, "large_game_rule") and state["players"] in R.LARGE_GAME_PLAYERS


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


def _role_event(state: State, seat: int) -> Event:
    """What a seat's phone learns when it gets a card: the card and its team."""
    role = state["secret"]["roles"][seat]
    return Event("role", {"role": role, "team": R.team(role)}, [seat])


# --------------------------------------------------------------------------------------------
# What every action is checked for (each handler changes the state it is given: ``apply``
# hands it a working copy, engines/base.py ``working_copy``)
# --------------------------------------------------------------------------------------------

def _expect_phase(state: State, *phases: str) -> None:
    if state["phase"] not in phases:
        raise IllegalAction("wrong_phase", "That is not possible right now")


def _checked_target(state: State, target: int, self_seat: int | None = None,
                    self_code: str = "self_target") -> int:
    if not _is_seat(state["players"], target):
        raise IllegalAction("unknown_seat", "Pick a player at this table")
    if not _alive(state, target):
        raise IllegalAction("target_dead", "Pick a player still in the game")
    if target == self_seat:
        raise IllegalAction(self_code, "Pick someone else")
    return target


def _expect_host(seat: int | None) -> None:
    """The game master's clock or the host's button (``apply`` checks which may make it now)."""
    if seat not in (GAME_MASTER, HOST):
        raise IllegalAction("host_only", "Only the game master does that")


# --------------------------------------------------------------------------------------------
# Eliminations, win check, end of game (rules B.2.3, B.2.4)
# --------------------------------------------------------------------------------------------

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
    if C.extended(state):
        _cards_at_death(state, events, seat)
    return _win_check(state, events)


def _cards_at_death(state: State, events: list[Event], seat: int) -> None:
    """A New Gang card is shown when its holder dies ("Якщо тебе «вбивають» – покажи цю
    картку"); every other unplayed card stays secret (rules B.3.4).  The Leader passes at once
    to the next living player on the left (rules B.3.4 PROPOSED)."""
    if seat in C.new_gang_members(state):
        C.face_up(state, seat, C.NEW_GANG, state["round"])
        events.append(Event("card_played", {"seat": seat, "card": C.NEW_GANG, "round": state["round"],
                                            "target": None}))
        say(state, "new_gang_shown", seat=seat)
    if state["cards"]["leader"] == seat:
        _pass_leader(state, events)


def _pass_leader(state: State, events: list[Event]) -> None:
    """The Leader card goes to the next living player on its holder's left (rules B.3.4)."""
    holder = state["cards"]["leader"]
    heir = C.left_of(state, holder, _living(state))
    if heir is None or heir == holder:
        return
    state["cards"] = {**state["cards"], "leader": heir}
    events.append(Event("leader_passed", {"from": holder, "to": heir}))
    say(state, "leader_passed", seat=heir)


def _win_check(state: State, events: list[Event]) -> bool:
    """After every single elimination (rules B.2.4): a team with nobody left loses at once;
    no parity win; pending last shots are void.  Teams are effective teams (rules B.3.4,
    B-Q20); with the New Gang, three forces play until one is left (rules B.3.5)."""
    teams = {C.force(state, seat) for seat in _living(state)}
    if C.extended(state) and state["cards"]["new_gang"]:
        if len(teams) > 1:
            return False
        [winner] = teams or {C.NEW_GANG}
        say(state, f"{winner}_win")
        _end_game(state, events, winner, "last_force")
        return True
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


def _end_game(state: State, events: list[Event], winner: str, reason: str) -> None:
    """GAME_OVER: the team with players left wins, its eliminated members too (rules B.2.4)."""
    next_turn(state, GAME_OVER)
    stop_clock(state)
    state["night_step"], state["last_shot"], state["vote"] = None, None, None
    roles = state["secret"]["roles"]
    winners = [seat for seat in range(state["players"]) if C.force(state, seat) == winner]
    state["outcome"] = {"winner": winner, "reason": reason, "winners": winners}
    over = {"winner": winner, "reason": reason, "winners": list(winners), "roles": list(roles)}
    if C.extended(state):
        # The game-over reveal (rules §0): every card, the recruits, the turncoats, the New Gang.
        secret_cards = state["secret"]["cards"]
        state["cards"] = {**state["cards"], "window": None, "shots": [], "then": None, "leader_pick": None}
        over["cards"] = list(secret_cards["dealt"])
        over["recruits"] = list(secret_cards["recruits"])
    events.append(Event("game_over", over))


def outcome(state: State) -> Outcome | None:
    return Outcome.from_json(state["outcome"])


def roles(state: State) -> list[str]:
    """Each seat's card as the game ends: after a wizard's swap (rules C.3.2) the card a seat
    holds then, the one its side won or lost with (``_end_game`` reads the same)."""
    return list(state["secret"]["roles"])


# --------------------------------------------------------------------------------------------
# What an elimination leads to: a last shot (rules B.3.2 large game, B.3.3 children 2.),
# or the day's discussion (rules B.2, C.2)
# --------------------------------------------------------------------------------------------

# What follows the shots and windows a death or a day's moment opens (``then``): the day after
# the dawn (DISCUSSION, through the start-of-day window), the night after the lynch (through the
# end-of-day window); and, once a window is over, the talk itself, the day's end, or the phase a
# Corner Shot interrupted.
AFTER_DAWN, AFTER_LYNCH = DISCUSSION, "night"
TALK, END_DAY = "talk", "end_day"
RESUME = {DISCUSSION: "resume_discussion", DEFENCE: "resume_defence", RE_DISCUSSION: "resume_re_discussion"}


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
    """The shots ``shooter``'s death gives, in order: a rule's last shot (B.3.2, B.3.3), and —
    with the action cards — the window in which a Last Shot card may be shown (B.3.4).  True if
    one began (it goes on to ``then`` when they are all taken), False if the caller goes on."""
    kind = _shot_kind(state, cause)
    if not C.extended(state):
        if kind is None:
            return False
        _begin_last_shot(state, events, shooter, kind == "optional", then)
        return True
    shots = list(state["cards"]["shots"])
    if kind is not None:
        shots.append({"shooter": shooter, "rule": True, "optional": kind == "optional"})
    # The window opens after the death of every player whose token (face up now) is a
    # Policeman's while the Last Shot is in the box and unplayed: public facts only.
    if state["secret"]["roles"][shooter] == R.POLICEMAN and C.unplayed_in_box(state, C.WINDOW_CARDS[C.SHOT_WINDOW]):
        shots.append({"shooter": shooter, "rule": False, "optional": True})
    if not shots:
        return False
    state["cards"] = {**state["cards"], "shots": shots, "then": state["cards"]["then"] or then}
    _next_shot(state, events)
    return True


def _next_shot(state: State, events: list[Event]) -> bool:
    """Begin the next shot waiting (extended version); False if none is left."""
    shots = state["cards"]["shots"]
    if not shots:
        return False
    shot, rest = shots[0], shots[1:]
    state["cards"] = {**state["cards"], "shots": rest}
    then = state["cards"]["then"]
    if shot["rule"]:
        _begin_last_shot(state, events, shot["shooter"], shot["optional"], then)
    else:
        _open_window(state, events, C.SHOT_WINDOW, shot["shooter"], then)
    return True


def _begin_last_shot(state: State, events: list[Event], shooter: int, optional: bool, then: str) -> None:
    next_turn(state, LAST_SHOT)
    state["last_shot"] = {"shooter": shooter, "optional": optional, "then": then}
    start_clock(state, int(_rule(state, "deadline_seconds")), TIMEOUT)
    events.append(Event("last_shot_offered", {"shooter": shooter, "optional": optional}))
    say(state, "last_shot", seat=shooter, optional=optional)


def _window_wanted(state: State, kind: str) -> bool:
    """Does the window ``kind`` open now?  With the action cards, whenever a card that may be
    played in it is in the box and unplayed (cards.WINDOW_CARDS): public facts only, so nobody
    learns from it who holds what (rules §0 anti-tell)."""
    return C.extended(state) and C.unplayed_in_box(state, C.WINDOW_CARDS[kind])


def _open_window(state: State, events: list[Event], kind: str, target: int | None, then: str) -> None:
    """A reaction window (rules B.3.4): the same phase on every phone, lasting ``window_seconds``
    in full whoever plays (anti-tell, rules §0); the plays wait, secret, for its end."""
    next_turn(state, CARD_WINDOW)
    seconds = int(_rule(state, "window_seconds"))
    window = {"kind": kind, "target": target, "round": state["round"], "then": then}
    state["cards"] = {**state["cards"], "window": window}
    start_clock(state, seconds, TIMEOUT)
    events.append(Event("window_opened", {"kind": kind, "target": target, "seconds": seconds}))
    say(state, f"window_{kind}", seat=target, seconds=seconds)


def _discussion_clock(state: State) -> None:
    minutes = _rule(state, "discussion_minutes")
    if minutes == "off":
        stop_clock(state)
    else:
        start_clock(state, int(minutes) * 60, END_DISCUSSION)


def _begin_discussion(state: State, events: list[Event]) -> None:
    next_turn(state, DISCUSSION)
    _discussion_clock(state)
    say(state, "discussion", round=state["round"])
