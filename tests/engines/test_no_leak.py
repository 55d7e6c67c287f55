"""No leak (docs/design.md §3, §7): a view shows nothing its viewer may not know, checked by machine.

At every step of random playthroughs, for every viewer (each seat and the TV), the view must
be identical for every alternative state that differs only in secrets that viewer may not know
(``knowledge.py`` generates them per ruleset).  Views never carry internal secret field names,
and private events reach only the seats entitled to them.
"""

from __future__ import annotations

import json
import random

import pytest

from engines import registry
from tests import tiny
from tests.engines.knowledge import KNOWLEDGE
from tests.engines.playthrough import LEAK_STATE_STRIDE, card_games, option_combinations, pairwise, playthroughs

RULESETS = [*registry.all(), tiny.RULESET]   # and the example of docs/adding-a-ruleset.md
IDS = [ruleset.slug for ruleset in RULESETS]
LEAK_SEEDS = (0, 1)


def knowledge_of(ruleset):
    if ruleset.slug not in KNOWLEDGE:
        pytest.fail(f"tests/engines/knowledge.py has no entry for {ruleset.slug}")
    return KNOWLEDGE[ruleset.slug]


def games(ruleset):
    """Every player count, over a pairwise covering set of the option combinations (Mafie's 32
    are 7 that hold every pair of option values): a view that leaks only with three options
    together is left to the rendered suite, which renders every option switched on."""
    return [play for options in pairwise(option_combinations(ruleset)) + card_games(ruleset)
            for play in playthroughs(ruleset, options, seeds=LEAK_SEEDS)]


def keys_named(value, keys: frozenset) -> set:
    """Those of ``keys`` that appear as a dict key anywhere in ``value`` (a view: dicts and lists
    of plain data).  Read from its JSON text, where a key and only a key is followed by a colon
    (a colon inside a string follows an escaped quote): the C encoder walks the view far faster
    than a Python loop, and this runs for every viewer at every state."""
    text = json.dumps(value)
    return {key for key in keys if f'"{key}":' in text}


def leaks(ruleset, knowledge, plays, view=None):
    """(description, varied) for every view that differs on a variant or names an internal
    secret field; and how many variants differed from the real state.  One pass: each view is
    made once and checked both ways."""
    view = view or ruleset.view
    forbidden = knowledge.secret_keys
    rng = random.Random(0)
    found, varied = [], 0
    stride = LEAK_STATE_STRIDE.get(ruleset.slug, 1)
    for play in plays:
        for index, state in enumerate(play.states):
            if index % stride:
                continue
            for viewer in [None, *range(play.players)]:
                who = "the TV" if viewer is None else f"seat {viewer}"
                shown = view(state, viewer)
                named = keys_named(shown, forbidden)
                if named:
                    found.append(f"{play}: after action {index}, the view of {who} names {sorted(named)}")
                for variant in knowledge.variants(state, viewer, rng):
                    varied += variant != state
                    if view(variant, viewer) != shown:
                        found.append(f"{play}: after action {index}, "
                                     f"{who} can tell apart secrets in phase {state.get('phase')}")
    return found, varied


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_no_view_and_no_event_tells_a_viewer_what_it_may_not_know(ruleset):
    """One pass over every game: at every (stride-th) state, each viewer's view is the same for
    every variant of the secrets it may not know and names no internal secret field; and every
    private event of the game reaches only the seats entitled to it."""
    knowledge = knowledge_of(ruleset)
    plays = games(ruleset)
    stride = LEAK_STATE_STRIDE.get(ruleset.slug, 1)
    assert all(knowledge.secret_keys & set(state) for play in plays for state in play.states[::stride]), \
        "secret_keys should name fields the state has"
    found, varied = leaks(ruleset, knowledge, plays)
    for play in plays:
        for event in play.events:
            problem = knowledge.event_problem(event, play.final)
            if problem is not None:
                found.append(f"{play}: {problem}")
    assert not found, "\n".join(found[:10])
    assert varied, "the knowledge oracle never varied anything: the test is vacuous"


# --------------------------------------------------------------------------------------------
# The oracle catches leaks (so a green run means something)
# --------------------------------------------------------------------------------------------

def test_the_oracle_catches_a_view_that_shows_roles():
    ruleset = registry.get("mafie")
    plays = playthroughs(ruleset, option_combinations(ruleset)[0], seeds=(0,))[:1]

    def leaky(state, seat):
        return {**ruleset.view(state, seat), "spy": state["secret"]["roles"]}

    found, _ = leaks(ruleset, KNOWLEDGE["mafie"], plays, view=leaky)
    assert any("the TV" in line for line in found)


def test_the_oracle_catches_a_phone_that_shows_its_own_vote():
    ruleset = registry.get("mafie")
    plays = playthroughs(ruleset, option_combinations(ruleset)[0], seeds=(0,))[:1]

    def leaky(state, seat):
        shown = ruleset.view(state, seat)
        if seat is not None:
            shown["me"]["my_vote"] = state["secret"]["ballots"][seat]
        return shown

    found, _ = leaks(ruleset, KNOWLEDGE["mafie"], plays, view=leaky)
    assert found and all("the TV" not in line for line in found)


def test_the_oracle_catches_a_running_tally():
    ruleset = registry.get("mafie")
    plays = playthroughs(ruleset, option_combinations(ruleset)[0], seeds=(0,))[:1]

    def leaky(state, seat):
        return {**ruleset.view(state, seat), "fails": state["secret"]["cards"].count("fail")}

    found, _ = leaks(ruleset, KNOWLEDGE["mafie"], plays, view=leaky)
    assert any("action_play" in line for line in found)


def test_the_oracle_catches_a_view_that_shows_mafies_chance_record():
    """The chance record (engines/chance.py) is the game master's: its seed tells every future
    draw, so a screen that showed it would leak, on the TV and on every phone."""
    ruleset = registry.get("mafie")
    plays = playthroughs(ruleset, option_combinations(ruleset)[0], seeds=(0,))[:1]

    def leaky(state, seat):
        return {**ruleset.view(state, seat), "luck": state["secret"]["chance"]["seed"]}

    found, _ = leaks(ruleset, KNOWLEDGE["mafie"], plays, view=leaky)
    assert any("the TV" in line for line in found) and any("the TV" not in line for line in found)


def _card_plays(ruleset, **extended):
    """Random games of GRANNA's extended version (tests/engines/playthrough.py, CARD_GAMES)."""
    return [play for options in card_games(ruleset) for play in playthroughs(ruleset, options, seeds=(0,))
            if all(options.get(key) == value for key, value in extended.items())]


def test_the_oracle_catches_a_phone_that_shows_another_seats_action_card():
    """A card's identity reaches only its holder until it is played (rules B.3.4)."""
    ruleset = registry.get("granna")
    plays = _card_plays(ruleset)[:2]

    def leaky(state, seat):
        shown = ruleset.view(state, seat)
        if seat is not None:
            shown["me"]["neighbour"] = state["secret"]["cards"]["dealt"][(seat + 1) % state["players"]]
        return shown

    found, _ = leaks(ruleset, KNOWLEDGE["granna"], plays, view=leaky)
    assert found and all("the TV" not in line for line in found)


def test_the_oracle_catches_a_tv_that_shows_the_recruits():
    """Who was recruited reaches only the mafia (rules B.3.4 Recruitment): a forced game where
    the mafioso P1 recruits P5 on the first night."""
    from types import SimpleNamespace

    from tests.engines.classic_helpers import Table, deal

    ruleset = registry.engine("granna")
    table = Table("granna", deal(12, mafiosi=[1, 2], agent=0), cards=["recruitment" if seat == 1 else "neutral"
                                                                     for seat in range(12)], action_cards=True)
    states = [table.state]
    for seat, action in [(0, {"type": "check", "target": 3}), (None, {"type": "timeout"}),
                         (1, {"type": "play_card", "card": "recruitment", "target": 5}),
                         (1, {"type": "pick_victim", "target": 9})]:
        table.act(seat, action)
        states.append(table.state)
    play = SimpleNamespace(states=states, players=12)

    def leaky(state, seat):
        return {**ruleset.view(state, seat), "spy": (state["secret"].get("cards") or {}).get("recruits")}

    assert not leaks(ruleset, KNOWLEDGE["granna"], [play])[0]
    found, _ = leaks(ruleset, KNOWLEDGE["granna"], [play], view=leaky)
    assert any("the TV" in line for line in found)
    assert not any(f"seat {seat} " in line for line in found for seat in (1, 2, 5))   # the mafia knows


def test_the_oracle_catches_a_view_that_names_an_internal_secret_field():
    ruleset = registry.get("mafie")
    plays = playthroughs(ruleset, option_combinations(ruleset)[0], seeds=(0,))[:1]

    def leaky(state, seat):   # the same for every variant: only the field's name gives it away
        return {**ruleset.view(state, seat), "wrap": {"secret": None}}

    found, _ = leaks(ruleset, KNOWLEDGE["mafie"], plays, view=leaky)
    assert any("names ['secret']" in line for line in found)


def test_the_oracle_catches_a_tv_that_shows_a_play_waiting_in_a_window():
    """A play waits, secret, for its window's end (rules §0 anti-tell, B.3.4)."""
    ruleset = registry.get("granna")
    plays = [play for play in _card_plays(ruleset)
             if any(event.kind == "card_pending" for event in play.events)]
    assert plays

    def leaky(state, seat):
        cards = state["secret"].get("cards")
        return {**ruleset.view(state, seat), "spy": cards and [p is not None for p in cards["pending"]]}

    found, _ = leaks(ruleset, KNOWLEDGE["granna"], plays, view=leaky)
    assert any("the TV" in line for line in found)


def test_the_oracle_catches_a_tv_that_shows_the_turncoat():
    """A Turncoat is nobody's to know until the game is over (rules B.3.4)."""
    from types import SimpleNamespace

    from tests.engines.classic_helpers import Table, deal

    ruleset = registry.engine("granna")
    table = Table("granna", deal(8, mafiosi=[1, 2], agent=0),
                  cards=["turncoat" if seat == 3 else "neutral" for seat in range(8)], action_cards=True)
    states = [table.state]
    table.night(check=4, kill=5)
    states.append(table.state)
    play = SimpleNamespace(states=states, players=8)

    def leaky(state, seat):
        cards = state["secret"]["cards"]["dealt"]
        return {**ruleset.view(state, seat), "spy": [s for s, card in enumerate(cards) if card == "turncoat"]}

    assert not leaks(ruleset, KNOWLEDGE["granna"], [play])[0]
    found, _ = leaks(ruleset, KNOWLEDGE["granna"], [play], view=leaky)
    assert any("the TV" in line for line in found) and not any("seat 3 " in line for line in found)


def test_the_oracle_catches_a_phone_that_shows_another_familys_red_cards():
    """Cosa Nostra: a hand reaches only its owner (docs/rules/cosanostra.md §14)."""
    ruleset = registry.get("cosanostra")
    plays = [play for play in playthroughs(ruleset, option_combinations(ruleset)[0], seeds=(0,))
             if any(event.kind == "red_card" for event in play.events)][:1]
    assert plays

    def leaky(state, seat):
        shown = ruleset.view(state, seat)
        if seat is not None:
            shown["me"]["spy"] = state["secret"]["hands"][(seat + 1) % state["players"]]
        return shown

    found, _ = leaks(ruleset, KNOWLEDGE["cosanostra"], plays, view=leaky)
    assert found and all("the TV" not in line for line in found)
