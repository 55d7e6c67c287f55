"""Identical night screens in a real browser (issue 14): two phones of different roles at the
same night step are as tall as each other on a 360 px phone.

No server: the panels are rendered as tests/web/test_night_fingerprint.py renders them, and put
side by side in one page, each in a 360 px frame styled by static/app.css; the side-by-side
screenshots go to test-results/ for a person to look at.
"""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from django.conf import settings

from engines import registry
from engines.base import resolve_options
from mafiagames.rendering import phone_screen
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, needs_chromium
from tests.web.test_no_leak_rendered import table_for

ROOT = Path(__file__).resolve().parents[2]
CSS = (ROOT / "static" / "app.css").read_text()


def framed(panel: str) -> str:
    doc = (f"<!doctype html><html><head><meta name=viewport content='width=device-width'><style>{CSS}</style></head>"
           f"<body class='phone'><main class='phone-layout'>{panel}</main></body></html>")
    return f"<iframe srcdoc=\"{html.escape(doc, quote=True)}\" style='width:360px;height:1400px;border:1px solid #888'></iframe>"


def night(slug: str, players: int, options: dict, roles: list[str]) -> tuple:
    ruleset = registry.get(slug)
    state, _ = ruleset.setup(players, resolve_options(ruleset, options), 1, {"roles": roles})
    return ruleset, state


def polish_agent_step():
    """The Polish agent's step: the agent's phone and a sleeping policeman's."""
    roles = ["mafioso", "policeman", "agent", "doctor", "policeman", "policeman", "policeman"]
    ruleset, state = night("mafia_pl", 7, {"doctor": True}, roles)
    assert state["phase"] == "agent"
    return ruleset, state, 7, (2, 5)


def mrakoslapi_first_night():
    """Mrakošlapi's first night (8 players): the phone with the most night cards and the one
    with the fewest (the "Who do you suspect?" card when none)."""
    ruleset = registry.get("mrakoslapi")
    for seed in range(40):
        state, _ = ruleset.setup(8, resolve_options(ruleset, {}), seed)
        counts = {seat: len(ruleset.view(state, seat)["me"]["night"]["prompts"]) for seat in range(8)}
        most, fewest = max(counts, key=counts.get), min(counts, key=counts.get)
        if state["phase"] == "night" and counts[most] >= 3 and counts[fewest] <= 1:
            return ruleset, state, 8, (most, fewest)
    raise AssertionError("no deal with a rich and a poor night in 40 seeds")


def awake_and_asleep(slug: str, players: int, options: dict, phase: str):
    """The first ``phase`` step of a random game: a phone that acts and one that does not (for
    Mafie's action cards: two crew members of the two teams)."""
    from tests.engines.playthrough import random_playthrough
    ruleset = registry.get(slug)
    for seed in range(20):
        for state in random_playthrough(ruleset, players, resolve_options(ruleset, options), seed).states:
            if state.get("phase") != phase:
                continue
            if slug == "mafie":
                crew = state["team"]
                teams = {ruleset.view(state, seat)["me"]["role"] == "mafioso": seat for seat in crew}
                if len(teams) == 2:
                    return ruleset, state, players, (teams[True], teams[False])
                continue
            awake = ruleset.waiting_for(state)
            asleep = [seat for seat in range(players) if seat not in awake and state["dead"][seat] is None]
            if awake and asleep:
                return ruleset, state, players, (awake[0], asleep[0])
    raise AssertionError(f"no {phase} step found")


def granna_mafia_step():
    return awake_and_asleep("granna", 7, {}, "mafia")


def polish_wizard_step():
    return awake_and_asleep("mafia_pl", 8, {"doctor": True, "wizard": True}, "wizard")


def mafie_action_cards():
    return awake_and_asleep("mafie", 7, {}, "action_play")


@needs_chromium
@pytest.mark.parametrize("case", [polish_agent_step, polish_wizard_step, granna_mafia_step, mrakoslapi_first_night,
                                  mafie_action_cards], ids=lambda c: c.__name__)
def test_two_roles_night_panels_are_equally_tall_at_360_px(case):
    from playwright.sync_api import sync_playwright

    ruleset, state, players, seats = case()
    table = table_for(ruleset, state, players, "en")
    panels = [phone_screen(table, 100 + seat)["ph-panel"] for seat in seats]
    out = ROOT / "test-results"
    out.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 760, "height": 1400})
            page.set_content("<body style='margin:0;display:flex;gap:8px'>" + "".join(map(framed, panels)) + "</body>")
            heights = page.evaluate("""() => [...document.querySelectorAll('iframe')].map(
                f => f.contentDocument.querySelector('#ph-panel').offsetHeight)""")
            page.screenshot(path=str(out / f"night-{case.__name__}.png"))
        finally:
            browser.close()
    assert heights[0] > 100 and heights[0] == heights[1], heights
