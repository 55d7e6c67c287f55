""""How to play" (issue 16): every ruleset's lesson has 5–8 slides, each with words in English
and in Czech, made of the words the game itself shows: every role, card and plot card of the
game is named (with what it does), and the options in play are explained."""

from __future__ import annotations

import pytest
from django.utils import translation

from engines import registry
from engines.base import resolve_options
from engines.mrakoslapi import cards as C
from mafiagames.presenters import LESSON_TITLES, check_presenter, presenter
from mafiagames.presenters.classic import words as classic
from mafiagames.presenters.mafie import words as mafie
from mafiagames.presenters.mrakoslapi import words as mrakoslapi
from mafiagames.rendering import lesson_slides
from tests.engines.playthrough import option_combinations
from tests.tiny import RULESET as TINY
from tests.tiny import presenter as tiny


def cases():
    for ruleset in registry.all():
        for options in option_combinations(ruleset):
            yield ruleset.slug, options


@pytest.mark.parametrize("language", ["en", "cs"])
def test_every_ruleset_and_option_set_has_five_to_eight_slides_each_with_words(language):
    seen = set()
    with translation.override(language):
        for slug, options in cases():
            seen.add(slug)
            slides = lesson_slides(slug, options)
            assert 5 <= len(slides) <= 8, (slug, options, len(slides))
            for slide in slides:
                assert slide["title"].strip(), (slug, slide)
                assert slide["lines"] or slide["tiles"], (slug, slide)
                assert all(line.strip() for line in slide["lines"])
    assert {"mafie", "granna", "mafia_pl", "mrakoslapi"} <= seen


def test_the_lesson_speaks_czech_in_a_czech_room():
    with translation.override("cs"):
        czech = lesson_slides("mafie", {})
    english = lesson_slides("mafie", {})
    assert czech[0]["title"] != english[0]["title"] and czech[0]["lines"] != english[0]["lines"]


def words_of(slides) -> str:
    return " ".join([s["title"] for s in slides] + [line for s in slides for line in s["lines"]]
                    + [f'{t["name"]} {t["text"]}' for s in slides for t in s["tiles"]])


def tiles_of(slides, *, options: bool = False) -> dict:
    """Name → text of the slides' tiles; those of the options in play only if ``options`` (an
    extra role is also an option: "Doctor", with the host's words for it)."""
    return {t["name"]: t["text"] for s in slides for t in s["tiles"]
            if options or s["title"] != str(LESSON_TITLES["options"])}


@pytest.mark.parametrize("slug", ["granna", "mafia_pl"])
def test_classic_names_every_role_dealt_with_its_help(slug):
    options = resolve_options(registry.get(slug), {"doctor": True, "wizard": True, "judge": True}
                              if slug == "mafia_pl" else {})
    tiles = tiles_of(lesson_slides(slug, options))
    for role in classic.roles_in_play(options):
        assert tiles[str(classic.ROLE_NAMES[slug][role])] == str(classic.ROLE_HELP[role])
    assert str(classic.TEAM_NAMES[slug]["mafia"]) in tiles


def test_the_childrens_game_teaches_in_its_own_words():
    options = resolve_options(registry.get("granna"), {"kids_retheme": True, "kids_no_agent": True})
    slides = lesson_slides("granna", options)
    tiles = tiles_of(slides)
    assert str(classic.ROLE_NAMES["kids"]["mafioso"]) in tiles and str(classic.ROLE_NAMES["kids"]["agent"]) not in tiles
    assert "Mafia" not in words_of(slides)


def test_mafie_names_both_roles_and_with_the_plot_thickens_every_plot_card():
    plain = lesson_slides("mafie", {})
    assert str(mafie.ROLE_HELP["mafioso"]) in words_of(plain)
    assert str(mafie.PLOT_CARD_NAMES["open_up"]) not in words_of(plain)
    tiles = tiles_of(lesson_slides("mafie", {"plot_cards": True}))
    for card, name in mafie.PLOT_CARD_NAMES.items():
        assert tiles[str(name)] == str(mafie.PLOT_CARD_HELP[card])


def test_mrakoslapi_names_every_card_with_its_help():
    tiles = tiles_of(lesson_slides("mrakoslapi", {}))
    for card in C.CARD_TYPES:
        assert tiles[mrakoslapi.CARD_NAMES[card]] == str(mrakoslapi.CARD_HELP[card])


def test_the_options_in_play_are_explained_in_the_host_settings_words():
    slides = lesson_slides("mafia_pl", {"doctor": True})
    assert slides[-1]["title"] == str(LESSON_TITLES["options"])
    label, help_text = presenter("mafia_pl").OPTION_LABELS["doctor"]
    assert tiles_of(slides, options=True)[str(label)] == str(help_text)
    assert str(presenter("mafia_pl").OPTION_LABELS["wizard"][0]) not in tiles_of(slides, options=True)   # off: not in play


def test_a_presenter_without_how_to_play_is_refused_naming_it():
    class Incomplete:
        __name__ = "incomplete"
    module = presenter("mafie")
    for name in dir(module):
        if name != "how_to_play":
            setattr(Incomplete, name, getattr(module, name))
    with pytest.raises(TypeError, match="has no how_to_play"):
        check_presenter(Incomplete)


def test_a_ruleset_in_a_folder_of_its_own_teaches_too():
    """tests/tiny (docs/adding-a-ruleset.md's example, hosted through EXTRA_RULESETS): its
    presenter passes the check with its lesson, five slides of its own words."""
    check_presenter(tiny)
    slides = tiny.how_to_play("tiny", resolve_options(TINY, {}))
    assert len(slides) == 5 and all(s["title"] and (s["lines"] or s["tiles"]) for s in slides)
    assert {str(side) for side in tiny.SIDES.values()} <= set(tiles_of(slides))
