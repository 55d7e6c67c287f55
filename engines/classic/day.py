"""The day of classic Mafia (rules B.2, B.2.1, B.2.2, B.3.3; C.2) and its last shots (rules
B.3.2 large game, B.3.3 children 2.).

In the rulebooks' order: the discussion ends in a vote; the finalists are heard (their
defence) and the final vote decides, a tie goes to a re-discussion and a re-vote, and a tie
again to the coin; the lynched player is out, may take a last shot, and the night falls.  The
discussion itself opens in ``table.py`` (the dawn leads into it too); the pure counting of the
votes is ``votes.py``'s.
"""

from __future__ import annotations

from engines.base import PUBLIC, Action, Event, IllegalAction, Result, State, next_turn, say, stop_clock
from engines.classic import roles as R
from engines.classic import votes as V
from engines.classic.night_steps import _begin_night
from engines.classic.table import (
    DEFENCE, DISCUSSION, FINAL_VOTE, LAST_SHOT, LYNCH, RE_DISCUSSION, RE_VOTE, SHOT, VOTE, VOTES, _alive,
    _begin_discussion, _checked_target, _discussion_clock, _draw_lots, _eliminate, _expect_host,
    _expect_phase, _living, _offer_last_shot, _rule, _secret,
)


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
    if then == DISCUSSION:
        _begin_discussion(state, events)
    else:
        _end_day(state, events)


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
