"""The fullest screens fit the TV (issue 16): for every ruleset, the states of random games whose
TV shows the most words, each written into a room as the writer would have left it, on a TV at
1920×1080 and one at 1280×720 — nothing runs off the board, whichever cards were dealt.

The browser games check each phase they happen to reach; a random deal decides how much a phase
shows (three held plot cards and a long last vote once ran a plot window off a 720-line TV).
Here the states are chosen for it, from every option switched on, at the largest table."""

from __future__ import annotations

import re

import pytest
from django.utils.html import strip_tags
from playwright.sync_api import expect

from engines import registry
from engines.base import resolve_options
from mafiagames import services
from mafiagames.models import Game, Room
from mafiagames.rendering import tv_screen
from tests.engines.playthrough import option_combinations, random_playthrough
from tests.web.test_no_leak_rendered import table_for

from .conftest import LONG_NAMES, check_stages, needs_chromium, stage_room

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]
NAMES = LONG_NAMES
PER_RULESET = 3   # the fullest states of each ruleset, each of another phase


# GRANNA's extended version at its fullest (issue 18): every action card chosen and the New Gang,
# so the TV shows the cards played, the badges on a roster of 21 and the reaction windows.
EXTRA = {"granna": {"action_cards": True, "new_gang": True,
                    **{option.key: True for option in registry.get("granna").options() if option.key.startswith("card_")}}}


def fullest_states(ruleset, extra: dict | None = None) -> list[tuple[dict, int]]:
    """(state, players) of the running states whose TV shows the most text, one per phase."""
    options = {**resolve_options(ruleset, {**option_combinations(ruleset)[-1], **(extra or {})}),
               "moments": False, "briefing": False}
    players = ruleset.max_players
    best: dict[str, tuple[int, dict]] = {}
    for seed in range(2):
        play = random_playthrough(ruleset, players, options, seed)
        for state in play.states[::3]:   # enough of each phase, at a third of the rendering
            if ruleset.outcome(state) is not None:
                continue
            screen = tv_screen(table_for(ruleset, state, players, "en"), host=True)
            size = len(strip_tags(screen["tv-main"] + screen["tv-narration"]))
            phase = str(state.get("phase"))
            if size > best.get(phase, (0, None))[0]:
                best[phase] = (size, state)
    chosen = sorted(best.values(), key=lambda pair: pair[0], reverse=True)[:PER_RULESET]
    return [(state, players) for _size, state in chosen]


def show(room: Room, ruleset, state: dict, players: list) -> int:
    """The room's game is ``state``, as the writer leaves a running game; the room's version."""
    Game.objects.filter(room=room).delete()
    Game.objects.create(room=room, ruleset=ruleset.slug, options=state.get("options", {}), seed=1,
                        seats=[p.pk for p in players], names=[p.name for p in players], state=state,
                        version=1, status=Game.Status.RUNNING)
    return services.changed(room)


def test_the_fullest_screen_of_every_ruleset_fits_both_tvs(live_daphne, browser, output_dir):
    tv, twin, room = stage_room(browser, live_daphne.url, NAMES)
    # Every phone connected, as at a table (an away player's seat adds the host's proxy controls).
    room.players.update(connections=1)
    everyone = list(room.players.all())
    checked = 0
    plays = [(ruleset, None) for ruleset in registry.all()] + [(registry.get(slug), extra) for slug, extra in EXTRA.items()]
    for ruleset, extra in plays:
        for state, players in fullest_states(ruleset, extra):
            version = show(room, ruleset, state, everyone[:players])
            # Written here, not by the server: its screens would hear of it at their next periodic
            # sync; a reload shows it now.
            for page in (tv, twin):
                page.reload()
            tv.wait_for_function("v => +document.querySelector('#sv').dataset.v >= v", arg=version)
            expect(tv.locator("#tv-main")).to_have_class(re.compile(r"\bplaying\b"))
            check_stages([tv, twin], f"fullest-{ruleset.slug}{'-cards' if extra else ''}-{state.get('phase')}", output_dir)
            checked += 1
    assert checked >= 2 * len(plays)
