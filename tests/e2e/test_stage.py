"""The TV as a stage (issue 16): the lobby of every ruleset, with the host's settings, seating
and door, fits a TV at 1920×1080 and 1280×720 without scrolling, readable from the sofa
(``check_stage``).  The games' own tests check every phase of play the same way."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from mafiagames import services
from mafiagames.models import Room

from .conftest import STAGE_SIZES, check_stages, join_phone, needs_chromium, open_tv, stage_twin

pytestmark = [needs_chromium, pytest.mark.extra_rulesets("tests.tiny")]

NAMES = ["Ann", "Bob", "Cyril", "Dana", "Eve", "Filip", "Gita", "Hana"]


def test_every_lobby_fits_both_tvs(live_daphne, browser, output_dir):
    tv, join_url = open_tv(browser, live_daphne.url, size=STAGE_SIZES[0])
    small = stage_twin(tv)
    check_stages([tv, small], "lobby-empty", output_dir)
    for name in NAMES:
        join_phone(browser, join_url, name, width=360).context.close()
    expect(tv.locator("#tv-players li")).to_have_count(len(NAMES))
    slugs = tv.locator("#tv-settings select[name=ruleset] option").evaluate_all("os => os.map(o => o.value)")
    assert {"mafie", "granna", "mafia_pl", "mrakoslapi", "tiny"} <= set(slugs)
    for slug in slugs:
        tv.select_option("#tv-settings select[name=ruleset]", slug)
        expect(small.locator("#tv-settings select[name=ruleset]")).to_have_value(slug)
        check_stages([tv, small], f"lobby-{slug}", output_dir)


@pytest.mark.django_db(transaction=True)
def test_a_full_lobby_of_long_names_fits_both_tvs(live_daphne, browser, output_dir):
    """21 players (the classic editions' most) with names of 22–24 letters: the lobby's roster
    goes to one line a name and three columns, and the host's seating list stays in its box."""
    tv, join_url = open_tv(browser, live_daphne.url, size=STAGE_SIZES[0])
    small = stage_twin(tv)
    room = Room.objects.get(code=join_url.rstrip("/").rsplit("/", 1)[1])
    for i in range(21):   # straight into the room: the screens learn of it on their reload
        services.join_room(room, f"Maximiliána Nováková {i:02d}")
    for page in (tv, small):
        page.reload()
    expect(tv.locator("#tv-players li")).to_have_count(21)
    for slug in ("granna", "mafia_pl"):
        tv.select_option("#tv-settings select[name=ruleset]", slug)
        expect(small.locator("#tv-settings select[name=ruleset]")).to_have_value(slug)
        check_stages([tv, small], f"lobby-21-{slug}", output_dir)
