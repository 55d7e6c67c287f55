"""The "?" on a phone (issue 16): every plot card, Mrakošlapi night step and day card, Mafie
vote and job, and classic vote a phone shows has what it does one tap away — a collapsed
``<details class="effect">`` holding exactly the game's words for it.  Collapsed it is the same
mark on every phone; its text sits in a fixed-height box (``.fixed-lines``), so a secret step's
phones keep one shape (tests/web/test_night_fingerprint.py holds every ruleset to that)."""

from __future__ import annotations

import html
import re

from engines import registry
from engines.base import resolve_options
from engines.mrakoslapi import cards as C
from mafiagames.presenters.classic import words as classic
from mafiagames.presenters.mafie import words as mafie
from mafiagames.presenters.mrakoslapi import words as mrakoslapi
from mafiagames.rendering import phone_screen
from tests.engines.playthrough import random_playthrough
from tests.web.test_no_leak_rendered import table_for

EFFECT = re.compile(r'<details class="effect"><summary aria-label="What does it do\?">\?</summary>'
                    r'<span class="fixed-lines effect-text">(.*?)</span></details>', re.S)


def effects(fragment: str) -> list[str]:
    return [html.unescape(text) for text in EFFECT.findall(fragment)]


def panels(slug: str, players: int, options: dict, seed: int):
    """(state, [each seat's panel]) along a random game of ``slug``."""
    ruleset = registry.get(slug)
    play = random_playthrough(ruleset, players, resolve_options(ruleset, options), seed)
    for state in play.states:
        if (state.get("moments") or {}).get("on"):
            continue   # a result on the stage: phones show it, not their panel (tests/web/test_moments.py)
        table = table_for(ruleset, state, players, "en")
        yield state, [phone_screen(table, 100 + seat)["ph-panel"] for seat in range(players)]


def test_every_plot_card_a_phone_shows_has_its_effect_one_tap_away():
    seen = set()
    for state, screens in panels("mafie", 7, {"plot_cards": True}, 5):
        if state["phase"] != "plot_deal":
            continue
        drawn = [mafie.PLOT_CARD_NAMES[c["card"]] for c in state["plot"]["drawn"]]
        for screen in screens:
            for name in drawn:
                chip = re.search(rf'<span class="chip plot-card"><strong>{re.escape(str(name))}</strong>(<details.*?</details>)</span>',
                                 html.unescape(screen), re.S)
                assert chip, name
                card = next(key for key, words in mafie.PLOT_CARD_NAMES.items() if words == name)
                assert effects(chip.group(1)) == [str(mafie.PLOT_CARD_HELP[card])]
                seen.add(card)
    assert len(seen) >= 3


def test_the_vote_and_the_job_say_what_the_choice_does_alike_on_every_phone():
    phases = set()
    for state, screens in panels("mafie", 6, {}, 4):
        phase = state["phase"]
        if phase not in ("team_vote", "action_play"):
            continue
        phases.add(phase)
        for screen in screens:
            assert effects(screen) == [mafie.choice_help(phase)]
    assert phases == {"team_vote", "action_play"}


def test_each_mrakoslapi_night_step_has_its_cards_effect_and_a_step_without_a_card_says_why():
    nights = 0
    for state, screens in panels("mrakoslapi", 6, {}, 3):
        if state["phase"] != "night" or state.get("briefing"):
            continue
        for seat, screen in enumerate(screens):
            steps = re.findall(r'<div class="prompt card step".*?<h3 class="fixed-lines title">(.*?)</h3>(.*?)</div>',
                               screen, re.S)
            if not steps:
                continue   # dead, or the night is over for this phone
            nights += 1
            for title, rest in steps:
                (text,) = effects(rest)
                card = next((c for c in C.CARD_TYPES if html.unescape(title).startswith(mrakoslapi.CARD_NAMES[c])), None)
                assert text == str(mrakoslapi.CARD_HELP[card] if card else mrakoslapi.IDLE_HELP)
    assert nights


def test_a_classic_vote_says_what_follows_it():
    kinds = set()
    for state, screens in panels("mafia_pl", 8, {}, 4):
        vote = state.get("vote")
        if not vote or state["phase"] not in ("vote", "final_vote", "re_vote"):
            continue
        kinds.add(vote["kind"])
        for screen in screens:
            if "<h2>" in screen and "secret-shape" in screen and "ghost-banner" not in screen:
                assert effects(screen) == [classic.vote_help(vote["kind"], state["options"])]
    assert "vote" in kinds
