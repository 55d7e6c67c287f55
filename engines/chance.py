"""Chance as a kit: every die roll, shuffle, coin toss and random pick of every ruleset.

Rulebooks leave things to chance (a shuffled deck, the first Kmotr, a coin between tied
players, and soon Cosa Nostra's dice).  An engine never draws on its own: it keeps a *chance
record* (``new(seed)``, a JSON dict) in its state and asks this module for each draw.  Every
draw

* is seeded by the game's seed, the draw's number in this game (a per-game counter) and its
  label, so replaying a game's actions from its seed draws exactly the same again
  (engines/replay.py) and no draw depends on another draw's label;
* returns, besides the outcome, the ``Event`` that records it (kind ``chance``) and the new
  record (the kit never changes the record it is given: engines never mutate their input).
  The event does not carry the draw's number: a public coin toss numbered after the mafia's
  secret lots would tell everyone how many lots there were;
* can be forced: a record made with ``forced={"label": [outcome, ...]}`` takes the next
  outcome queued under the draw's label instead of drawing (tests, a replay of a forced deal,
  a demo).  A forced outcome is checked like a drawn one would be: a forced shuffle must be an
  order of the same items, a forced roll must show faces of those dice.

The event's audience is the engine's decision: a shuffled deck is the game master's
(``NOBODY``), a coin toss between two tied players is public.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from engines.base import NOBODY, PUBLIC, Audience, Event

CHANCE = "chance"   # the kind of every event this module makes

Record = dict[str, Any]


class Draw(NamedTuple):
    """One draw: its outcome, the event that records it, and the game's new chance record."""

    value: Any
    event: Event
    chance: Record


def new(seed: int, forced: dict[str, list] | None = None) -> Record:
    """A game's chance record: its seed, how many draws it has made, and outcomes to force
    (label → outcomes, taken in order; none by default)."""
    if type(seed) is not int:
        raise ValueError("the seed must be an int")
    forced = forced or {}
    if not isinstance(forced, dict) or not all(isinstance(queue, list) for queue in forced.values()):
        raise ValueError("forced outcomes are lists by label")
    return {"seed": seed, "draws": 0, "forced": {label: list(queue) for label, queue in forced.items() if queue}}


def roll(chance: Record, label: str, *, dice: int = 1, sides: int = 6, audience: Audience = PUBLIC,
         why: Any = None) -> Draw:
    """``dice`` dice of ``sides`` faces thrown at once: their faces, in the order thrown."""
    if dice < 1 or sides < 2:
        raise ValueError("a roll needs at least one die of at least two sides")

    def check(faces):
        if not (isinstance(faces, list) and len(faces) == dice
                and all(type(face) is int and 1 <= face <= sides for face in faces)):
            raise ValueError(f"a forced {label!r} roll must be {dice} faces of 1..{sides}")

    return _draw(chance, label, "roll", lambda rng: [rng.randint(1, sides) for _ in range(dice)], check,
                 audience, why)


def coin(chance: Record, label: str, *, audience: Audience = PUBLIC, why: Any = None) -> Draw:
    """A coin toss: True (heads) or False (tails)."""

    def check(heads):
        if type(heads) is not bool:
            raise ValueError(f"a forced {label!r} toss is true or false")

    return _draw(chance, label, "coin", lambda rng: rng.random() < 0.5, check, audience, why)


def pick(chance: Record, label: str, items: list, *, audience: Audience = PUBLIC, why: Any = None) -> Draw:
    """One of ``items`` at random, each as likely (the list's order is part of the seed's result:
    pass it in an order that does not depend on anything secret)."""
    if not items:
        raise ValueError(f"nothing to pick from for {label!r}")

    def check(item):
        if item not in items:
            raise ValueError(f"the forced {label!r} pick {item!r} is not among {items!r}")

    return _draw(chance, label, "pick", lambda rng: rng.choice(items), check, audience, why)


def shuffle(chance: Record, label: str, items: list, *, audience: Audience = NOBODY, why: Any = None) -> Draw:
    """``items`` in a random order (a new list; ``items`` is left as it is)."""

    def check(order):
        if not isinstance(order, list) or sorted(order, key=repr) != sorted(items, key=repr):
            raise ValueError(f"a forced {label!r} shuffle must be an order of {items!r}")

    def draw(rng):
        order = list(items)
        rng.shuffle(order)
        return order

    return _draw(chance, label, "shuffle", draw, check, audience, why)


def _draw(chance: Record, label: str, how: str, draw, check, audience: Audience, why: Any) -> Draw:
    """The one place a draw happens: the forced outcome queued under ``label``, else a draw from
    a generator seeded by the game's seed, this draw's number and its label; counted and
    recorded either way."""
    number, queue = chance["draws"], chance["forced"].get(label)
    if queue:
        value, forced = queue[0], {key: rest for key, rest in {**chance["forced"], label: queue[1:]}.items() if rest}
        check(value)
    else:
        value, forced = draw(random.Random(f"{chance['seed']}:{number}:{label}")), chance["forced"]
    data = {"label": label, "how": how, "result": value, "forced": bool(queue)}
    if why is not None:
        data["why"] = why
    return Draw(value, Event(CHANCE, data, audience), {**chance, "draws": number + 1, "forced": forced})


def draws(events: list[Event]) -> list[dict]:
    """The chance events among ``events``, as recorded (tests and the admin read them)."""
    return [event.data for event in events if event.kind == CHANCE]
