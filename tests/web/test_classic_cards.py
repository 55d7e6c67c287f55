"""GRANNA's extended version on the screens (issue 18; rules B.3.4, B.3.5): the action cards'
words, the card area of every phone, the reaction windows in one shape on every living phone,
the TV's badges and the reveal — rendered without a server from seeded random games with the
cards on (tests/engines/playthrough.py), as tests/web/test_no_leak_rendered.py does."""

from __future__ import annotations

import functools

import pytest

from engines import registry
from engines.base import resolve_options
from engines.classic import cards as C
from mafiagames.rendering import phone_screen, tv_screen
from tests.engines.playthrough import random_playthrough
from tests.web.test_no_leak_rendered import table_for

GRANNA = registry.get("granna")
ALL_CARDS = {C.card_option(card): True for card in C.SINGLE_CARDS}


def extended(**more) -> dict:
    """GRANNA's options with the action cards on (every single card chosen unless ``more`` says)."""
    return {**resolve_options(GRANNA, {}), "action_cards": True, "new_gang": True, **ALL_CARDS, **more}


@functools.cache
def games() -> list:
    """Seeded random games with the cards on: 13 players (3 of the 13 cards drawn), 12 in the
    children's words, and 21 with the New Gang (and 2 more cards)."""
    return [random_playthrough(GRANNA, 13, extended(new_gang=False), 1),
            random_playthrough(GRANNA, 12, extended(new_gang=False, kids_retheme=True), 2),
            random_playthrough(GRANNA, 21, extended(), 3)]


def test_smoke():
    for play in games():
        for state in play.states[::5] + [play.final]:
            table = table_for(GRANNA, state, play.players, "en")
            tv_screen(table, host=True)
            for seat in range(play.players):
                phone_screen(table, 100 + seat)
