"""The day of classic Mafia (rules B.2, B.2.1, B.2.2, B.3.3; C.2) and its last shots (rules
B.3.2 large game, B.3.3 children 2.).

In the rulebooks' order: the discussion ends in a vote; the finalists are heard (their
defence) and the final vote decides, a tie goes to a re-discussion and a re-vote, and a tie
again to the coin; the lynched player is out, may take a last shot, and the night falls.  The
discussion itself opens in ``table.py`` (the dawn leads into it too); the pure counting of the
votes is ``votes.py``'s.
"""

from __future__ import annotations

from engines.base import (
    PUBLIC, Action, Event, IllegalAction, Result, State, next_turn, say, start_clock, stop_clock,
)
from engines.classic import cards as C
from engines.classic import roles as R
from engines.classic import votes as V
from engines.classic.night_steps import _after_dawn, _begin_night
from engines.classic.table import (
    AFTER_DAWN, AFTER_LYNCH, DEFENCE, DISCUSSION, END_DAY, FINAL_VOTE, LAST_SHOT, LEADER_PICK, LYNCH,
    RE_DISCUSSION, RE_VOTE, RESUME, SHOT, TALK, TIMEOUT, VOTE, VOTES, _alive, _begin_discussion,
    _checked_target, _discussion_clock, _draw_lots, _eliminate, _expect_host, _expect_phase, _living,
    _next_shot, _offer_last_shot, _open_window, _pass_leader, _rule, _secret, _window_wanted,
)


def _voters(state: State) -> list[int]:
    """Who votes in the vote under way: every living player but those a card bars (Wiretap,
    Hideout, Capture; rules B.3.4) and, in the first vote, one whose only name on the ballot
    would be his own."""
    voting = C.voters(state, _living(state))
    vote = state["vote"]
    if vote is not None and vote["kind"] == VOTE:
        voting = [seat for seat in voting if set(vote["ballot"]) - {seat}]
    return voting


def _next_voter(state: State) -> int | None:
    """With the Leader on the table, the one voter whose turn it is (rules B.3.4 Leader);
    None while every voter may vote at once."""
    order = state["vote"].get("order")
    if order is None:
        return None
    ballots = state["secret"]["ballots"]
    return next((seat for seat in order if seat in _voters(state) and ballots[seat] is None), None)


def _begin_vote(state: State, events: list[Event], kind: str, ballot: list[int]) -> None:
    """Every living player names one player on the ballot; secret until the last vote.  With
    the action cards the ballot leaves out whom a card protects (rules B.3.4); with no name
    left on it, or nobody to vote, nobody is lynched today.  With the Leader on the table the
    votes are cast one at a time, from its holder clockwise, each public at once."""
    ballot = sorted(C.candidates(state, ballot))
    next_turn(state, kind)
    stop_clock(state)
    state["vote"] = {"kind": kind, "ballot": ballot, "voted": []}
    _secret(state, ballots=[None] * state["players"], double=None)
    order = C.leader_order(state, _living(state), _voters(state))
    if order is not None:
        state["vote"] = {**state["vote"], "order": order, "cast": []}
    if not ballot or not _voters(state):
        _no_lynch(state, events)
        return
    say(state, kind, ballot=ballot)


def _no_lynch(state: State, events: list[Event]) -> None:
    """"If no legal candidate remains, nobody is lynched that day" (rules B.3.4)."""
    state["vote"] = None
    events.append(Event("no_lynch", {"round": state["round"]}))
    say(state, "no_lynch")
    _continue(state, events, AFTER_LYNCH)


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
    top = V.leaders(counts)
    if len(top) > 1 and C.extended(state) and state["cards"]["leader"] is not None:
        _leader_pick(state, events, top)
        return
    if record["kind"] == VOTE:
        _after_first_vote(state, events, counts)
    elif record["kind"] == FINAL_VOTE:
        _after_final_vote(state, events, counts)
    else:
        _after_re_vote(state, events, counts)


def _vote_view(record: dict | None, players: int) -> dict | None:
    """A revealed vote: who named whom, the judge's double vote and the tally."""
    if record is None:
        return None
    return {**record, "ballot": list(record["ballot"]), "votes": list(record["votes"]),
            "tally": V.tally(record["votes"], players, record["double"])}


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
        seat = _coin(state, events, tied)
    _lynch_victim_named(state, events, seat)


def _coin(state: State, events: list[Event], tied: list[int]) -> int:
    """The coin among the tied: a public draw of lots (rules B.2.2)."""
    seat = _draw_lots(state, events, tied, "coin", PUBLIC)
    state["coin"] = {"among": list(tied), "seat": seat}
    events.append(Event("coin", {"among": list(tied), "seat": seat}))
    say(state, "coin", seats=list(tied), seat=seat)
    return seat


def _leader_pick(state: State, events: list[Event], tied: list[int]) -> None:
    """"Якщо під час голосування … кілька гравців дістануть одну і ту саму кількість голосів, то
    «вбитим» стає той гравець, на якого вкаже Лідер" (rules B.3.4, PROPOSED scope: a tie for
    the most in any vote).  The Leader's holder points at one of the tied (himself too, if tied)."""
    next_turn(state, LEADER_PICK)
    state["tied"] = list(tied)
    state["cards"] = {**state["cards"], "leader_pick": {"tied": list(tied)}}
    start_clock(state, int(_rule(state, "deadline_seconds")), TIMEOUT)
    events.append(Event("leader_tie", {"seat": state["cards"]["leader"], "tied": list(tied)}))
    say(state, "leader_tie", seat=state["cards"]["leader"], seats=list(tied))


def leader_pick(state: State, seat: int | None, action: Action) -> Result:
    """The Leader's holder names who goes among the tied."""
    _expect_phase(state, LEADER_PICK)
    if seat != state["cards"]["leader"]:
        raise IllegalAction("not_your_turn", "Only the Leader breaks the tie")
    target = action["target"]
    if target not in state["cards"]["leader_pick"]["tied"]:
        _checked_target(state, target)
        raise IllegalAction("not_on_ballot", "Pick one of the tied players")
    events = [Event("leader_picked", {"seat": seat, "target": target})]
    say(state, "leader_picked", seat=seat, target=target)
    _settle_leader_pick(state, events, target)
    return Result(state, events)


def _settle_leader_pick(state: State, events: list[Event], target: int) -> None:
    state["cards"] = {**state["cards"], "leader_pick": None}
    stop_clock(state)
    _lynch_victim_named(state, events, target)


def leader_pick_timeout(state: State, events: list[Event]) -> None:
    """Our decision: a Leader who lets the deadline pass leaves it to the coin among the tied."""
    tied = [seat for seat in state["cards"]["leader_pick"]["tied"] if _alive(state, seat)]
    if not tied:
        state["cards"] = {**state["cards"], "leader_pick": None}
        _continue(state, events, AFTER_LYNCH)
        return
    _settle_leader_pick(state, events, _coin(state, events, tied))


def _lynch_victim_named(state: State, events: list[Event], seat: int) -> None:
    """The day's vote has named who goes.  With a Vest or a Bandage in play the lynch has two
    steps: the name, then the reaction window ("у фінальному голосуванні він так само може
    оборонитись", rules B.3.4; windows.py); else the elimination at once."""
    if _window_wanted(state, C.LYNCH):
        events.append(Event("condemned", {"seat": seat, "round": state["round"]}))
        say(state, "condemned", seat=seat)
        _open_window(state, events, C.LYNCH, seat, AFTER_LYNCH)
        return
    _lynch(state, events, seat)


def _lynch(state: State, events: list[Event], seat: int) -> None:
    """The token is shown to all and the player is out (rules B.2.3; Polish "aresztowany")."""
    if _eliminate(state, events, seat, LYNCH, "lynched"):
        return
    if not _offer_last_shot(state, events, seat, LYNCH, then=AFTER_LYNCH):
        _continue(state, events, AFTER_LYNCH)


def _end_day(state: State, events: list[Event]) -> None:
    """"Наступає кінець фази Поліції і, водночас, кінець раунду."  The Leader passes left
    ("В кінці фази Поліції передай цю картку активному гравцеві … по ліву руку")."""
    if C.extended(state) and state["cards"]["leader"] is not None:
        _pass_leader(state, events)
    state["round"] += 1
    _begin_night(state, events)


def _continue(state: State, events: list[Event], then: str) -> None:
    """Go on to ``then`` (table.py: what follows the shots and windows under way)."""
    if then == AFTER_DAWN:
        _after_dawn(state, events)
    elif then == TALK:
        _begin_discussion(state, events)
    elif then == AFTER_LYNCH and _window_wanted(state, C.DAY_END):
        _open_window(state, events, C.DAY_END, None, END_DAY)
    elif then in (AFTER_LYNCH, END_DAY):
        _end_day(state, events)
    else:
        # a phase a Corner Shot interrupted (windows.py): back to it
        phase = next(phase for phase, code in RESUME.items() if code == then)
        next_turn(state, phase)
        if phase != DEFENCE:
            _discussion_clock(state)


def _drop_from_day(state: State, seat: int) -> bool:
    """A finalist or tied player who is out leaves the ballot to come; False if nobody is left
    to vote on today (the host's removal, a Corner Shot)."""
    state["finalists"] = [other for other in state["finalists"] if other != seat]
    state["tied"] = [other for other in state["tied"] if other != seat]
    if state["phase"] == DEFENCE:
        return bool(state["finalists"])
    if state["phase"] == RE_DISCUSSION:
        return bool(state["tied"])
    return True


# --------------------------------------------------------------------------------------------
# The day's actions
# --------------------------------------------------------------------------------------------

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
    if seat not in _voters(state):
        raise IllegalAction("no_ballot", "A card keeps you from voting today")
    if _next_voter(state) not in (None, seat):
        raise IllegalAction("not_your_turn", "Wait for your turn: the votes go round from the Leader")
    target, kind = action["target"], state["vote"]["kind"]
    if kind == VOTE:
        # one living player other than self, no abstention (rules B-Q3)
        _checked_target(state, target, seat, "no_self_vote")
    if target not in state["vote"]["ballot"]:
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
    if "cast" in state["vote"]:
        # the Leader's round: each vote is public as it is cast ("по черзі")
        state["vote"] = {**state["vote"], "cast": state["vote"]["cast"] + [{"seat": seat, "target": target}]}
        events = [Event("vote_cast", {"seat": seat, "target": target})]
    else:
        events = [Event("vote_cast", {"seat": seat})]
    if all(ballots[voter] is not None for voter in _voters(state)):
        _reveal_votes(state, events)
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
# Last shots (rules B.3.2 large game, B.3.3 children 2.; offered in table.py)
# --------------------------------------------------------------------------------------------

def _after_last_shot(state: State, events: list[Event], then: str) -> None:
    state["last_shot"] = None
    stop_clock(state)
    _after_shots(state, events, then)


def _after_shots(state: State, events: list[Event], then: str) -> None:
    """The next shot waiting (extended version), or on to ``then``."""
    if C.extended(state):
        if _next_shot(state, events):
            return
        state["cards"] = {**state["cards"], "then": None}
    _continue(state, events, then)


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
    if target in C.badges(state, "untouchable"):
        raise IllegalAction("protected", "A card protects that player this round")
    events = [Event("shot", {"shooter": seat, "target": target})]
    if _eliminate(state, events, target, SHOT, "shot", at_dawn=shot["then"] == AFTER_DAWN,
                  shooter=seat):
        return Result(state, events)
    state["last_shot"] = None
    stop_clock(state)
    # the one shot may give another (a Last Shot card, rules B.3.4): chains are allowed
    if not _offer_last_shot(state, events, target, SHOT, shot["then"]):
        _after_shots(state, events, shot["then"])
    return Result(state, events)


def skip_last_shot(state: State, seat: int | None, action: Action) -> Result:
    shot = _expect_shooter(state, seat)
    if not shot["optional"]:
        raise IllegalAction("shot_required", "Take your last shot")
    events = [Event("shot_skipped", {"shooter": seat})]
    say(state, "no_shot", shooter=seat)
    _after_last_shot(state, events, shot["then"])
    return Result(state, events)
