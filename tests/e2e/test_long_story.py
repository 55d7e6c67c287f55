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
from mafiagames import services, story
from mafiagames.models import Event, Game, Room
from tests.engines.playthrough import option_combinations, random_playthrough

from .conftest import LONG_NAMES, STAGE_SIZES, check_stages, join_phone, needs_chromium, open_tv, stage_room, stage_twin

MRAK = registry.get("mrakoslapi")


def longest_game(players: int):
    """The longest of a few random playthroughs (the most events: nights, mostly)."""
    options = {**resolve_options(MRAK, {}), "moments": False, "briefing": False}
    plays = [random_playthrough(MRAK, players, options, seed) for seed in range(12)]
    return max(plays, key=lambda play: len(play.events))


def finished_game(room: Room, ruleset, play, players: list, **story) -> None:
    """``play`` written into ``room`` as the writer leaves a finished game (its state, outcome and
    whole log), its story at ``story`` (``story_step``, ``story_all``); the room's version moves on."""
    game = Game.objects.create(
        room=room, ruleset=ruleset.slug, options=play.options, seed=play.seed, seats=[p.pk for p in players],
        names=[p.name for p in players], state=play.final, version=len(play.steps), next_seq=len(play.events),
        status=Game.Status.FINISHED, outcome=ruleset.outcome(play.final).to_json(), finished=timezone.now(), **story)
    Event.objects.bulk_create(Event(game=game, seq=seq, version=0, kind=event.kind, audience=event.audience,
                                    data=event.data) for seq, event in enumerate(play.events))
    services.changed(room)


@needs_chromium
def test_the_whole_story_of_a_long_game_fits_both_tvs(live_daphne, browser, output_dir):
    tv, url = open_tv(browser, live_daphne.url, size=STAGE_SIZES[0])
    names = ["Ann", "Bob", "Cyd", "Dan", "Eve", "Fay", "Gus", "Hal"]
    phone = join_phone(browser, url, names[0], width=360)
    room = Room.objects.get(code=url.rstrip("/").rsplit("/", 1)[-1])
    for name in names[1:]:
        services.join_room(room, name)
    finished_game(room, MRAK, longest_game(len(names)), list(room.players.all()), story_all=True)
    for page in (tv, phone):   # written here, not by the server: its screens would hear of it at their next sync
        page.reload()
    expect(tv.locator("[data-story-all]")).to_have_attribute("data-story-all", "1")
    twin = stage_twin(tv)
    expect(twin.locator("[data-story-all]")).to_have_attribute("data-story-all", "1")
    check_stages([tv, twin], "long-story-all", output_dir)
    # The evening's scores stand above the host's bar, not under it (eight rows once ran beneath it).
    for page in (tv, twin):
        scores, bar = (page.locator(where).bounding_box() for where in ("#tv-players .scoreboard", "#tv-host"))
        assert scores["y"] + scores["height"] <= bar["y"] + 1, f"the scores run under the host's bar at {page.viewport_size}"
    # The TV tells each step's first lines and says how many more; the phone has them all.
    shown = tv.locator(".story-all .story-lines li:not(.more)").count()
    expect(phone.locator(".story-all")).to_be_visible()
    assert phone.locator(".story-all .story-lines li").count() > shown > 0
    phone.screenshot(path=str(output_dir / "long-story-phone-360.png"), full_page=True)


# The longest names at the largest table, every option on: a story's pages are their tallest.
NAMES = LONG_NAMES


def tallest_steps(ruleset) -> list[tuple]:
    """(playthrough, players, step index) of the story steps that take the most rows on the TV's
    story card, at the big size and at the smaller one (``story.rows``), of a few random games at
    the smallest and the largest table: a deal decides how long a step is."""
    found = []
    for combo in (option_combinations(ruleset)[-1], {}):
        options = {**resolve_options(ruleset, combo), "moments": False, "briefing": False}
        for players in sorted({ruleset.min_players, min(ruleset.max_players, len(NAMES))}):
            for seed in range(3):
                play = random_playthrough(ruleset, players, options, seed)
                game = {"ruleset": ruleset.slug, "names": NAMES[:players], "options": play.options}
                for index, step in enumerate(story.steps(game, play.events)):
                    found.append((play, players, index, step))
    big = [f for f in found if not story.many(f[3]["lines"])]
    small = [f for f in found if story.many(f[3]["lines"])]
    chosen = []
    for pool, per_row in ((big, story.BIG_ROW_CHARS), (small, story.SMALL_ROW_CHARS)):
        if pool:
            chosen.append(max(pool, key=lambda f: story.rows(f[3]["lines"], per_row)
                              + story.rows([{"text": f[3]["heading"]}], per_row)))
    return [(play, players, index) for play, players, index, _step in chosen]


@needs_chromium
def test_the_tallest_step_of_every_rulesets_story_fits_both_tvs(live_daphne, browser, output_dir):
    tv, twin, room = stage_room(browser, live_daphne.url, NAMES)
    everyone = list(room.players.all())
    problems, checked = [], 0
    for ruleset in registry.all():
        for play, players, index in tallest_steps(ruleset):
            Game.objects.filter(room=room).delete()
            finished_game(room, ruleset, play, everyone[:players], story_step=index)
            for page in (tv, twin):
                page.reload()
                expect(page.locator("[data-story-step]")).to_have_attribute("data-story-step", str(index))
            try:
                check_stages([tv, twin], f"story-{ruleset.slug}-{index}", output_dir)
            except AssertionError as failed:
                problems.append(str(failed))
            checked += 1
    assert not problems, "\n".join(problems)
    assert checked >= len(registry.all()) + 1
