"""The chance kit (engines/chance.py): seeded by the game's seed, each draw's number and its
label; each draw recorded as an event; outcomes can be forced; the record is never mutated."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engines import chance
from engines.base import NOBODY, PUBLIC


def test_a_draw_depends_only_on_the_seed_its_number_and_its_label():
    first = chance.new(7)
    again = chance.new(7)
    assert chance.shuffle(first, "deal", list(range(10))) == chance.shuffle(again, "deal", list(range(10)))
    orders = {tuple(chance.shuffle(chance.new(seed), "deal", list(range(10))).value) for seed in range(20)}
    assert len(orders) > 15                                     # other seeds, other deals
    after_one = chance.coin(first, "toss").chance               # the next draw has another number
    assert chance.shuffle(after_one, "deal", list(range(10))).value != chance.shuffle(first, "deal", list(range(10))).value
    assert chance.shuffle(first, "plot", list(range(10))).value != chance.shuffle(first, "deal", list(range(10))).value


def test_each_draw_is_counted_recorded_and_leaves_its_record_as_it_was():
    record = chance.new(3)
    before = json.dumps(record, sort_keys=True)
    rolled = chance.roll(record, "move", dice=2, sides=6)
    assert json.dumps(record, sort_keys=True) == before          # never mutated
    assert len(rolled.value) == 2 and all(1 <= face <= 6 for face in rolled.value)
    assert rolled.chance["draws"] == 1
    assert rolled.event.kind == chance.CHANCE and rolled.event.audience == PUBLIC
    assert rolled.event.data == {"label": "move", "how": "roll", "result": rolled.value, "forced": False}
    picked = chance.pick(rolled.chance, "first", ["a", "b", "c"], why={"tied": 3})
    assert picked.value in ("a", "b", "c") and picked.chance["draws"] == 2 and picked.event.data["why"] == {"tied": 3}
    dealt = chance.shuffle(picked.chance, "deal", [1, 2, 3, 4])
    assert sorted(dealt.value) == [1, 2, 3, 4] and dealt.event.audience == NOBODY and dealt.chance["draws"] == 3
    assert json.loads(json.dumps(dealt.chance)) == dealt.chance  # a record is JSON (it lives in a state)


def test_draws_are_fair_enough_to_play_with():
    record, faces, heads = chance.new(1), Counter(), 0
    for _ in range(3000):
        rolled = chance.roll(record, "die")
        tossed = chance.coin(rolled.chance, "coin")
        faces[rolled.value[0]] += 1
        heads += tossed.value
        record = tossed.chance
    assert set(faces) == {1, 2, 3, 4, 5, 6} and min(faces.values()) > 400
    assert 1300 < heads < 1700


def test_forced_outcomes_are_taken_in_order_by_label_and_checked():
    record = chance.new(5, forced={"die": [[6, 6], [1, 2]], "deal": [[3, 1, 2]], "coin": [False]})
    first = chance.roll(record, "die", dice=2)
    second = chance.roll(first.chance, "die", dice=2)
    third = chance.roll(second.chance, "die", dice=2)             # the queue is empty: drawn
    assert (first.value, second.value) == ([6, 6], [1, 2])
    assert first.event.data["forced"] and not third.event.data["forced"] and third.chance["draws"] == 3
    assert chance.shuffle(record, "deal", [1, 2, 3]).value == [3, 1, 2]
    assert chance.coin(record, "coin").value is False
    with pytest.raises(ValueError, match="deal"):
        chance.shuffle(record, "deal", [1, 2, 4])                  # not an order of these items
    with pytest.raises(ValueError, match="die"):
        chance.roll(record, "die", dice=3)                         # two faces forced for three dice
    with pytest.raises(ValueError, match="seven"):
        chance.pick(chance.new(1, {"seven": ["x"]}), "seven", ["a", "b"])
    with pytest.raises(ValueError):
        chance.new(1, forced={"die": 6})


def test_an_event_does_not_tell_how_many_draws_came_before_it():
    """A public toss after secret draws must not count them (the mafia's lots, rules B.4)."""
    after_secret_draws = chance.shuffle(chance.shuffle(chance.new(2), "deal", [1, 2]).chance, "lot", [3, 4]).chance
    fresh = chance.new(2)
    assert chance.coin(after_secret_draws, "coin").event.data.keys() == chance.coin(fresh, "coin").event.data.keys()
    assert "draw" not in chance.coin(after_secret_draws, "coin").event.data


def test_nothing_to_draw_from_is_refused():
    with pytest.raises(ValueError):
        chance.pick(chance.new(1), "empty", [])
    with pytest.raises(ValueError):
        chance.roll(chance.new(1), "die", sides=1)
