"""No leak in what actually reaches a screen: the rendered HTML fragments (docs/design.md §7).

The engine-level suite (tests/engines/test_no_leak.py) proves each view dict is the same for
every state a viewer cannot tell apart.  Here the same oracle is applied to the HTML a phone or
the TV receives over the websocket: render every fragment for the real state and for each
variant, and demand identical bytes.  The real screens share one rendering memo, as they do in
production, so a fragment wrongly reused from another seat's rendering shows up as a difference.  A template that printed, say, a data attribute with
another player's role would differ between variants and fail.
"""

from __future__ import annotations

import random

import pytest
from django.conf import settings

from engines import registry
from mafiagames.presenters import audience_poll
from mafiagames.rendering import Table, phone_screen, tv_screen
from tests.engines.knowledge import KNOWLEDGE
from tests.engines.playthrough import option_combinations, random_playthrough

NAMES = ["Alice", "Bob", "<b>Carol</b>", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy",
         *(f"Player {i}" for i in range(11, 22))]


# A player of the room without a seat in the game: the audience (issue 16), who answered the
# day's poll if one is open (else an earlier day's, for the finished TV's totals).
AUDIENCE = 99

# A mixed table (issue 17): the room (TV) speaks Czech, its phones each their own language, in
# turn every language of settings.LANGUAGES (the audience's phone too).
MIXED = "mixed"


def room_and_phone_languages(language: str, phones: int) -> tuple[str, list[str]]:
    """The room's language and each phone's ("" for the room's) for ``language`` or ``MIXED``."""
    if language != MIXED:
        return language, [""] * phones
    codes = [code for code, _name in settings.LANGUAGES]
    return "cs", [codes[i % len(codes)] for i in range(phones)]


def table_for(ruleset, state, players: int, language: str, events: list | None = None) -> Table:
    """The room with this game; ``events`` is handed to the screens as the game's log (the story
    told at a finished game's end, mafiagames/story.py), at its first step."""
    seats = list(range(100, 100 + players))
    poll = audience_poll(ruleset.slug, ruleset.view(state, None)) or {"key": "day1", "seats": [0]}
    room, phones = room_and_phone_languages(language, players + 1)
    # Seat 0's phone has the host controls (services.offer_host): it must not see more than any other.
    return Table(code="TEST", language=room, ruleset=ruleset.slug, options=state.get("options", {}),
                 players=[*({"id": pid, "name": NAMES[i], "connected": True, "language": phones[i]}
                            for i, pid in enumerate(seats)),
                          {"id": AUDIENCE, "name": "<i>Zoe</i>", "connected": True, "language": phones[-1]}],
                 host_phone={"id": seats[0], "name": NAMES[0], "connected": True},
                 game={"id": 1, "ruleset": ruleset.slug, "state": state, "version": 7,
                       "names": NAMES[:players], "seats": seats, "options": state.get("options", {}),
                       "story": {"step": 0, "all": False, "moved": None},
                       # as services writes it: a game with an outcome is finished (the TV shows the result)
                       "status": "running" if ruleset.outcome(state) is None else "finished"},
                 suspicions=[{"player": AUDIENCE, "poll": poll["key"], "seat": poll["seats"][-1]}],
                 story=events)


def screens(ruleset, state, players, language):
    table = table_for(ruleset, state, players, language)
    yield None, tv_screen(table, host=True)
    for seat in range(players):
        yield seat, phone_screen(table, 100 + seat)
    yield AUDIENCE, phone_screen(table, AUDIENCE)


def spread(states: list, most: int = 40) -> list:
    """At most about ``most`` states, evenly spread, always with the last: long games of 21
    players would otherwise render thousands of screens."""
    step = max(1, len(states) // most)
    return states[::step] + ([states[-1]] if (len(states) - 1) % step else [])


def sample_games(ruleset):
    rng = random.Random(f"rendered:{ruleset.slug}")
    combos = option_combinations(ruleset)  # also those not offered to hosts yet
    counts = [ruleset.min_players, (ruleset.min_players + ruleset.max_players) // 2, ruleset.max_players]
    # Random options, and every option switched on (the last combination: e.g. Mafie's plot cards
    # with targeting and blind detectives) at every size.
    chosen = [(players, rng.choice(combos)) for players in counts] + [(players, combos[-1]) for players in counts]
    return [random_playthrough(ruleset, players, options, seed) for seed, (players, options) in enumerate(chosen)]


def fresh_or_variants(variants: list, real):
    """The states to render from scratch beside a kept rendering of ``real``: its variants, or,
    where the viewer has none, ``real`` itself (the kept rendering must still equal a fresh one)."""
    return variants or [real]


@pytest.mark.parametrize("ruleset", registry.all(), ids=lambda r: r.slug)
@pytest.mark.parametrize("language", ["en", MIXED])   # MIXED: a Czech room, phones in every language
def test_rendered_fragments_are_identical_for_states_the_viewer_cannot_tell_apart(ruleset, language):
    """Each screen, rendered as production renders it (one memo for a room version's screens, one
    kept across the room's versions), equals a rendering from scratch of a state its viewer
    cannot tell apart from the real one.  So this pass checks two things at once: no screen
    leaks a secret, and the room-long memo never serves a stale fragment (its keys name all a
    fragment shows; where a viewer has no variant, the fresh rendering is of the real state)."""
    knowledge = KNOWLEDGE[ruleset.slug]
    rng = random.Random(1)
    checked = hosted = 0
    for play in sample_games(ruleset):
        kept = {}
        # English at 40 states a game (the kept memo's check); the mixed table at 30, as before.
        for state in spread(play.states, 40 if language == "en" else 30):
            real = table_for(ruleset, state, play.players, language)
            for variant in fresh_or_variants(knowledge.variants(state, None, rng)[:1], state):
                assert tv_screen(table_for(ruleset, variant, play.players, language), host=True) == \
                    tv_screen(real, host=True, kept=kept), f"TV leaks (or shows a stale fragment) in {play}"
            shared = {}  # as in production: one memo for every screen of a room version,
            tv_screen(real, host=False, memo=shared)  # and one kept across the room's versions
            # The audience sees what the TV may show, nothing more: its phone is the same for
            # every state the TV cannot tell apart.
            watching = phone_screen(real, AUDIENCE, memo=shared, kept=kept)
            for variant in fresh_or_variants(knowledge.variants(state, None, rng)[:2], state):
                assert phone_screen(table_for(ruleset, variant, play.players, language), AUDIENCE) == watching, \
                    f"the audience's phone leaks (or is stale) in {play} at phase {state.get('phase')}"
            for seat in range(play.players):
                mine = phone_screen(real, 100 + seat, memo=shared, kept=kept)
                for variant in fresh_or_variants(knowledge.variants(state, seat, rng)[:1], state):
                    other = phone_screen(table_for(ruleset, variant, play.players, language), 100 + seat)
                    assert other == mine, f"seat {seat}'s phone leaks (or is stale) in {play} at phase {state.get('phase')}"
                    checked += variant is not state
                    hosted += seat == 0 and "<form" in mine["ph-host"]
    assert checked > 100
    assert hosted, "the host's phone (seat 0) was checked with its host controls"


def test_tv_never_names_a_role_before_the_reveal():
    """A direct check on top of the oracle: the words for the roles are absent from the TV."""
    ruleset = registry.get("mafie")
    for play in sample_games(ruleset):
        for state in play.states:
            html = "".join(dict(screens(ruleset, state, play.players, "en"))[None].values())
            # (The game is over once its last result has had its moment: engines/moments.py.)
            if ruleset.outcome(state) is None:
                assert "Mafioso" not in html and "Detective<" not in html
            else:
                assert "Mafioso" in html and "Detective" in html


@pytest.mark.parametrize("ruleset", registry.all(), ids=lambda r: r.slug)
def test_the_story_is_told_only_once_the_game_is_over(ruleset):
    """The story (mafiagames/story.py) tells the whole log, secrets included: until the game is
    over, even the whole log of the game (its future too) changes nothing on any screen; at its
    end every screen tells the story, each phone marking its own lines and the TV none."""
    for play in sample_games(ruleset):
        kept_told, kept_untold = {}, {}   # two rooms, each with its fragments kept across versions
        for state in spread(play.states, 15):
            told = table_for(ruleset, state, play.players, "en", events=play.events)
            untold = table_for(ruleset, state, play.players, "en")
            told_memo, untold_memo = {}, {}   # a room version's memo, shared by its screens
            over = told.game["status"] == "finished"
            tv = tv_screen(told, host=True, memo=told_memo, kept=kept_told)
            assert (tv == tv_screen(untold, host=True, memo=untold_memo, kept=kept_untold)) is not over, f"TV in {play}"
            assert ('data-story-step="0"' in tv["tv-main"]) is over and 'class="mine"' not in tv["tv-main"]
            for seat in range(play.players):
                phone = phone_screen(told, 100 + seat, memo=told_memo, kept=kept_told)
                untold_phone = phone_screen(untold, 100 + seat, memo=untold_memo, kept=kept_untold)
                assert (phone == untold_phone) is not over, f"seat {seat} in {play}"
                assert ('data-story-step="0"' in phone["ph-panel"]) is over
