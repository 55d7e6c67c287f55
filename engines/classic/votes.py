"""Day votes of classic Mafia, pure: the tally, the finalists, the winner or the tie.

rules B.2 (GRANNA) and C.2 (Polish): every living player points at one player; the votes are
public by name.  These functions only count; ``engine.py`` decides who may vote for whom.
"""

from __future__ import annotations

from collections.abc import Sequence

JUDGE_WEIGHT = 2    # the judge's vote counts double, once per game (rules C.3.3)


def tally(votes: Sequence[int | None], players: int, double: int | None = None) -> list[int]:
    """Votes received per seat.  ``votes[voter]`` is the seat named (None: no vote);
    ``double`` is the voter whose vote counts twice (the judge's power, rules C.3.3)."""
    counts = [0] * players
    for voter, target in enumerate(votes):
        if target is not None:
            counts[target] += JUDGE_WEIGHT if voter == double else 1
    return counts


def leaders(counts: Sequence[int]) -> list[int]:
    """The seats with the most votes (never a seat with none)."""
    most = max(counts, default=0)
    return [seat for seat, count in enumerate(counts) if count == most and most > 0]


def finalists(counts: Sequence[int]) -> list[int]:
    """Who is heard again after the first vote (rules B.2.1, PROPOSED exact; C-Q3).

    GRANNA: "the two players with the most votes (not necessarily equal) … if several players
    have the same count, they may all speak"; Polish: "the two with the highest (not necessarily
    the same) number of votes".  So: everyone tied for the most votes if two or more are tied;
    else the leader and everyone tied for the second-highest count.  A seat without votes is
    never a finalist; a lone finalist (only one seat received votes) is eliminated after his
    defence without a runoff.
    """
    first = leaders(counts)
    if len(first) != 1:
        return first
    rest = [count if seat not in first else 0 for seat, count in enumerate(counts)]
    return sorted(first + leaders(rest))


def decide(counts: Sequence[int]) -> tuple[int | None, list[int]]:
    """The runoff's result: ``(seat, [seat])`` for a clear winner, ``(None, tied)`` for a tie
    for the most votes (GRANNA: "if the count stays equal … a new discussion")."""
    top = leaders(counts)
    return (top[0], top) if len(top) == 1 else (None, top)
