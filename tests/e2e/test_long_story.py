"""The longest story fits the TV (issue 16): a Mrakošlapi game of many nights, told to its end,
then shown all at once — the TV never scrolls, whatever the story's length (mafiagames/story.py
``fitted``: each step's first lines, and how many more each phone shows).

The finished game is written straight into the database from a random playthrough (the
engine's own states and events), as the writer would have left it: what is tested is the
screen, not the play."""

from __future__ import annotations

from django.utils import timezone
from playwright.sync_api import expect

from engines import registry
from engines.base import resolve_options
from mafiagames import services
from mafiagames.models import Event, Game, Room
from tests.engines.playthrough import random_playthrough

from .conftest import STAGE_SIZES, check_stages, join_phone, needs_chromium, open_tv, stage_twin

MRAK = registry.get("mrakoslapi")


def longest_game(players: int):
    """The longest of a few random playthroughs (the most events: nights, mostly)."""
    options = {**resolve_options(MRAK, {}), "moments": False, "briefing": False}
    plays = [random_playthrough(MRAK, players, options, seed) for seed in range(12)]
    return max(plays, key=lambda play: len(play.events))


@needs_chromium
def test_the_whole_story_of_a_long_game_fits_both_tvs(live_daphne, browser, output_dir):
    tv, url = open_tv(browser, live_daphne.url, size=STAGE_SIZES[0])
    names = ["Ann", "Bob", "Cyd", "Dan", "Eve", "Fay", "Gus", "Hal"]
    phone = join_phone(browser, url, names[0], width=360)
    room = Room.objects.get(code=url.rstrip("/").rsplit("/", 1)[-1])
    for name in names[1:]:
        services.join_room(room, name)
    play = longest_game(len(names))
    players = list(room.players.all())
    game = Game.objects.create(
        room=room, ruleset="mrakoslapi", options=play.options, seed=play.seed, seats=[p.pk for p in players],
        names=[p.name for p in players], state=play.final, version=len(play.steps), next_seq=len(play.events),
        status=Game.Status.FINISHED, outcome=MRAK.outcome(play.final).to_json(), finished=timezone.now(),
        story_all=True)
    Event.objects.bulk_create(Event(game=game, seq=seq, version=0, kind=event.kind, audience=event.audience,
                                    data=event.data) for seq, event in enumerate(play.events))
    services.changed(room)
    for page in (tv, phone):   # written here, not by the server: its screens would hear of it at their next sync
        page.reload()
    expect(tv.locator("[data-story-all]")).to_have_attribute("data-story-all", "1")
    twin = stage_twin(tv)
    expect(twin.locator("[data-story-all]")).to_have_attribute("data-story-all", "1")
    check_stages([tv, twin], "long-story-all", output_dir)
    # The TV tells each step's first lines and says how many more; the phone has them all.
    shown = tv.locator(".story-all .story-lines li:not(.more)").count()
    expect(phone.locator(".story-all")).to_be_visible()
    assert phone.locator(".story-all .story-lines li").count() > shown > 0
    phone.screenshot(path=str(output_dir / "long-story-phone-360.png"), full_page=True)
