"""Properties of the Mrakošlapi night resolver (rules §4.4 R1–R12, §4.6), on random nights.

"rules §4.6" = docs/rules/mrakoslapi.md.  Random inputs go beyond legal deals (up to six Mág
numbers, any seats, any number of mirrors and Mrakošlapy); the resolver must not care.
"""

from __future__ import annotations

import copy
import json
from collections import defaultdict
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import chance
from engines.mrakoslapi import announce, night
from engines.mrakoslapi import cards as C
from engines.mrakoslapi.players import DEAD, new_players
from engines.mrakoslapi.resolver import _resolve_in_order, bullet_key, resolve

FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BULLETS = ["M1", "M2", "M3", "G1", "G2"]
TERMINAL = {"saliva": "absorbs", "mrak_dies": "fragments", "player_dies": "fragments",
            "corpse": "fragments"}


@st.composite
def night_inputs(draw):
    seats = sorted(draw(st.lists(st.integers(0, 9), min_size=2, max_size=8, unique=True)))
    counter = iter(range(1, 100))
    players = [{"seat": seat,
                "mirrors": [next(counter) for _ in range(draw(st.integers(0, 2)))],
                "mraks": [next(counter) for _ in range(draw(st.integers(0, 2)))]}
               for seat in seats]
    person = st.sampled_from(seats)
    bullets = draw(st.lists(st.sampled_from(BULLETS), unique=True, max_size=5))
    shots = [{"bullet": b, "origin": draw(person), "target": draw(person)} for b in bullets]
    pairs = st.tuples(person, person).filter(lambda p: p[0] != p[1])
    ends = draw(st.lists(pairs, max_size=6))
    mags = draw(st.permutations(range(1, len(ends) + 1)))
    tunnels = [{"mag": mag, "from": a, "to": b} for mag, (a, b) in zip(mags, ends)]
    slimed = draw(st.lists(person, unique=True, max_size=3))
    merge = draw(st.booleans())
    return {"night": 2, "players": players, "shots": shots, "tunnels": tunnels,
            "slimed": slimed, "options": {"merge_same_bullet_same_time": merge}}


def normalised(result: dict) -> dict:
    """The result with every list in a fixed order (the order inside one time unit is free)."""
    return {key: sorted(value, key=json.dumps) if isinstance(value, list) else value
            for key, value in result.items()}


@FAST
@given(night_inputs())
def test_the_night_terminates_within_the_bound(night_input):
    """R12: the last time unit is at most 1 + #tunnels + #READY mirrors."""
    result = resolve(night_input)
    mirrors = sum(len(p["mirrors"]) for p in night_input["players"])
    assert result["last_t"] <= 1 + len(night_input["tunnels"]) + mirrors
    assert all(step["t"] <= result["last_t"] for step in result["trace"])


@FAST
@given(night_inputs())
def test_every_fragment_ends_in_exactly_one_place(night_input):
    """Conservation: what reaches a person at t + 1 is exactly what was sent to him at t, and
    the fragments that stop (saliva, Mrakošlap, life, corpse) add up to 1 for every bullet."""
    result = resolve(night_input)
    sent = defaultdict(Fraction)          # (t, person, bullet) -> fraction sent to arrive then
    received = defaultdict(Fraction)
    stopped = defaultdict(Fraction)
    for step in result["trace"]:
        t, kind = step["t"], step["kind"]
        if kind == "fire":
            sent[(1, step["target"], step["bullet"])] += 1
        elif kind == "tunnel":
            for f in step["carries"]:
                received[(t, step["at"], f["bullet"])] += Fraction(f["fraction"])
                sent[(t + 1, step["to"], f["bullet"])] += Fraction(f["fraction"])
        elif kind == "mirror":
            for f in step["reflects"]:
                received[(t, step["at"], f["bullet"])] += Fraction(f["fraction"])
                sent[(t + 1, f["to"], f["bullet"])] += Fraction(f["fraction"])
        elif kind in TERMINAL:
            for f in step[TERMINAL[kind]]:
                assert Fraction(f["fraction"]) > 0
                received[(t, step["at"], f["bullet"])] += Fraction(f["fraction"])
                stopped[f["bullet"]] += Fraction(f["fraction"])
    assert dict(sent) == dict(received)
    assert dict(stopped) == {s["bullet"]: 1 for s in night_input["shots"]}


@FAST
@given(night_inputs(), st.randoms(use_true_random=False))
def test_the_outcome_does_not_depend_on_input_or_processing_order(night_input, rnd):
    """R1: permuting the input lists changes nothing at all; handling the persons of one time
    unit in another order changes only the order of steps inside that time unit."""
    result = resolve(night_input)
    shuffled = copy.deepcopy(night_input)
    for key in ("players", "shots", "tunnels", "slimed"):
        rnd.shuffle(shuffled[key])
    assert resolve(shuffled) == result
    order = [p["seat"] for p in night_input["players"]]
    rnd.shuffle(order)
    other = _resolve_in_order(night_input, order)
    assert normalised(other) == normalised(result)
    by_t = lambda r: [s["t"] for s in r["trace"]]  # noqa: E731
    assert by_t(other) == by_t(result)


@FAST
@given(night_inputs())
def test_the_result_is_json_and_the_input_is_untouched(night_input):
    before = copy.deepcopy(night_input)
    result = resolve(night_input)
    assert night_input == before
    assert json.loads(json.dumps(result)) == result
    assert resolve(night_input) == result                            # deterministic


@FAST
@given(night_inputs())
def test_defences_are_spent_in_order(night_input):
    """§4.6 property 4 (R2): no mirror breaks and no Mrakošlap dies at a slimed person; no
    Mrakošlap dies while the person still has a READY mirror; nobody dies while he still has a
    READY Mrakošlap; a tunnel is used at most once."""
    result = resolve(night_input)
    slimed = set(night_input["slimed"])
    mirrors = {p["seat"]: list(p["mirrors"]) for p in night_input["players"]}
    mraks = {p["seat"]: list(p["mraks"]) for p in night_input["players"]}
    used = [s["mag"] for s in result["trace"] if s["kind"] == "tunnel"]
    assert len(used) == len(set(used))
    for step in result["trace"]:
        at = step.get("at")
        if step["kind"] == "mirror":
            assert at not in slimed and step["no"] == min(mirrors[at])
            mirrors[at].remove(step["no"])
        elif step["kind"] == "mrak_dies":
            assert at not in slimed and not mirrors[at] and step["no"] == min(mraks[at])
            mraks[at].remove(step["no"])
        elif step["kind"] == "player_dies":
            assert at not in slimed and not mirrors[at] and not mraks[at]
    deaths = [d["seat"] for d in result["deaths"]]
    assert len(deaths) == len(set(deaths))


@FAST
@given(night_inputs())
def test_hits_follow_the_canonical_bullet_order(night_input):
    """R7: inside one group the distinct bullets hit in the order M1, M2, M3, G1, G2."""
    result = resolve(night_input)
    hits = defaultdict(list)
    for step in result["trace"]:
        if step["kind"] in ("mrak_dies", "player_dies") or (
                step["kind"] == "corpse" and step["died_at"] == step["t"]):
            hits[(step["t"], step["at"])].append(step["fragments"][0]["bullet"])
    for bullets in hits.values():
        assert bullets == sorted(bullets, key=bullet_key)


@pytest.mark.parametrize("change", [
    {"shots": [{"bullet": "M1", "origin": 0, "target": 1}] * 2},        # one bullet twice
    {"shots": [{"bullet": "X1", "origin": 0, "target": 1}]},            # not a bullet name
    {"shots": [{"bullet": "M1", "origin": 0, "target": 5}]},            # not a night player
    {"tunnels": [{"mag": 1, "from": 0, "to": 0}]},                      # a tunnel onto oneself
    {"tunnels": [{"mag": 1, "from": 0, "to": 1}, {"mag": 1, "from": 1, "to": 0}]},
    {"players": [{"seat": 0, "mirrors": [1]}, {"seat": 1, "mirrors": [1]}]},
])
def test_a_malformed_input_is_refused(change):
    night_input = {"players": [{"seat": 0}, {"seat": 1}], "shots": [], **change}
    with pytest.raises(ValueError):
        resolve(night_input)


def test_a_night_without_shots_is_empty():
    result = resolve({"players": [{"seat": 0}, {"seat": 1}], "shots": [],
                      "tunnels": [{"mag": 1, "from": 0, "to": 1}], "slimed": [1]})
    assert result["trace"] == [] and result["last_t"] == 0 and result["slimed"] == [1]


# --------------------------------------------------------------------------------------------
# The whole night pipeline on legal deals: build → resolve → apply → announce
# --------------------------------------------------------------------------------------------

@st.composite
def dealt_nights(draw):
    """A real seeded deal, some players already dead, random legal choices."""
    count = draw(st.sampled_from(C.PLAYER_COUNTS))
    players = new_players(C.deal(count, chance.new(draw(st.integers(0, 10**6))))[0])
    for p in players:
        if draw(st.integers(0, 4)) == 0:
            p["status"] = DEAD
    n = draw(st.integers(1, 6))
    alive = [p["seat"] for p in players if p["status"] != DEAD]
    if len(alive) < 2:
        players[0]["status"] = players[1]["status"] = "ALIVE"
        alive = [p["seat"] for p in players if p["status"] != DEAD]
    person = st.sampled_from(alive)
    held = lambda t: [(c["no"], p["seat"]) for p in players if p["status"] != DEAD  # noqa: E731
                      for c in p["cards"] if c["type"] == t]
    mafia_target = draw(person)
    choices = {
        "mafia": [{"seat": seat,
                   "target": mafia_target if draw(st.integers(0, 3)) else draw(person)}
                  for seat in sorted({seat for _, seat in held(C.MAFIAN)})],
        "gunmen": ([{"no": no, "target": draw(person)} for no, _ in held(C.SILENY_STRELEC)]
                   if n % 2 == 0 else []),
        "tunnels": [{"no": no, "from": a, "to": b} for no, _ in held(C.MAG)
                    for a, b in [(draw(person), draw(person))] if a != b],
        "slime": [{"no": no, "target": draw(person)} for no, _ in held(C.SLINA)
                  if draw(st.booleans())],
        "exhibit": [{"no": no, "target": draw(person)} for no, _ in held(C.EXHIBICIONISTA)
                    if draw(st.booleans())],
        "medik": bool(held(C.MEDIK)) and draw(st.booleans()),
    }
    return {"night": n, "players": players, "pending_bobo": None}, choices


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dealt_nights())
def test_a_dealt_night_runs_end_to_end(case):
    tbl, choices = case
    before = copy.deepcopy((tbl, choices))
    night_input = night.build_night_input(tbl, choices)
    result = resolve(night_input)
    applied = night.apply_night(tbl, result)
    lines = announce.morning(result, applied)
    assert (tbl, choices) == before
    assert json.loads(json.dumps([night_input, result, applied, lines])) == [
        night_input, result, applied, lines]
    assert len(result["shots"]) <= 5
    codes = [line["code"] for line in lines]
    assert codes == [announce.SHOTS, announce.SLIMED, announce.EXHIBITED, announce.MIRRORS,
                     announce.MRAKS, announce.DEAD]
    for seat in applied["died"]:
        dead = applied["players"][seat]
        assert dead["status"] == DEAD
        assert all(c["state"] == C.SURRENDERED or c["type"] == C.DUCH_BOBO for c in dead["cards"])
    # Every card changed by the night is accounted for in the announcement.
    for p_before, p_after in zip(tbl["players"], applied["players"]):
        if p_after["seat"] in applied["died"]:
            continue
        changed = [(a["type"], a["no"], a["state"]) for b, a in zip(p_before["cards"],
                                                                    p_after["cards"]) if a != b]
        for card_type, no, state in changed:
            if card_type == C.ZRCADLO:
                assert no in lines[3]["params"]["numbers"] and state == C.BROKEN
            elif card_type == C.MRAKOSLAP:
                assert no in lines[4]["params"]["numbers"] and state == C.DEAD
            else:
                assert card_type in (C.EXHIBICIONISTA, C.MEDIK) and state == C.SPENT

