"""The mafia's night kill, pure: how the living mafiosi agree on one victim (rules B.2.5).

The rulebooks only say the mafiosi choose "silently, by gestures, quickly" (GRANNA) and
"jointly" (Polish).  rules B.2.5 (PROPOSED, C-Q12): every mafioso picks on his phone and sees
the others' picks live; the kill locks the moment all living mafiosi pick the same target; at
the deadline the most-picked target dies, a tie is broken by a fair draw among the tied, and
with no pick at all the draw is among every legal target (the kill is mandatory).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

UNANIMOUS, PLURALITY, RANDOM = "unanimous", "plurality", "random"


def unanimous(picks: Sequence[int | None], mafiosi: Sequence[int]) -> int | None:
    """The target every living mafioso picks, or None while they disagree or some have not
    picked."""
    chosen = {picks[seat] for seat in mafiosi}
    if len(chosen) == 1 and None not in chosen:
        return chosen.pop()
    return None


def plurality(picks: Sequence[int | None], mafiosi: Sequence[int]) -> list[int]:
    """The targets picked by the most living mafiosi (sorted); [] if nobody picked."""
    counts: dict[int, int] = {}
    for seat in mafiosi:
        if picks[seat] is not None:
            counts[picks[seat]] = counts.get(picks[seat], 0) + 1
    most = max(counts.values(), default=0)
    return sorted(target for target, count in counts.items() if count == most)


def deadline_victim(picks: Sequence[int | None], mafiosi: Sequence[int], targets: Sequence[int],
                    draw: Callable[[list[int]], int]) -> tuple[int | None, str, list[int]]:
    """The victim when the deadline comes: ``(victim, how, candidates)``.

    ``how`` is UNANIMOUS, PLURALITY or RANDOM (a fair ``draw`` among ``candidates``, the tied
    targets, or every target when nobody picked).  No target at all: nobody dies.
    """
    agreed = unanimous(picks, mafiosi)
    if agreed is not None:
        return agreed, UNANIMOUS, [agreed]
    top = plurality(picks, mafiosi)
    if len(top) == 1:
        return top[0], PLURALITY, top
    candidates = top or sorted(targets)
    if not candidates:
        return None, RANDOM, []
    return draw(list(candidates)), RANDOM, list(candidates)
