"""Moments on a real server (engines/moments.py): the coin of Heads or Tails (tests/tiny) takes
the stage on the TV and on every phone, its sound cue plays once on the TV with Sound on, the
stage holds at 1920×1080 and 1280×720 during it, a phone that reloads sees it too, and the
server's clock ends it: the result follows (the game is over when its last moment is).

The moment lasts 8 s of the server's clock; the host's Pause stops that clock, so the checks
made during the moment wait on nothing but the server (no race with its seconds)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import STAGE_SIZES, check_stages, join_phone, needs_chromium, open_tv, stage_twin, start_game

pytestmark = [needs_chromium, pytest.mark.extra_rulesets("tests.tiny"), pytest.mark.moments]

SOUND_ON = 'localStorage.setItem("mafiagames.sound", "on");'


def test_the_coin_takes_the_stage_for_the_servers_seconds(live_daphne, browser, output_dir):
    tv, join_url = open_tv(browser, live_daphne.url, init_script=SOUND_ON, size=STAGE_SIZES[0])
    tvs = [tv, stage_twin(tv)]
    ann, bob, cat = phones = [join_phone(browser, join_url, name, width=360) for name in ("Ann", "Bob", "Cat")]
    expect(tv.locator("#tv-players .online")).to_have_count(3)
    tv.select_option("#tv-settings select[name=ruleset]", "tiny")
    tv.select_option("#tv-settings select[name=opt-seconds]", "60")
    expect(tv.locator("#tv-settings select[name=opt-seconds]")).to_have_value("60")
    start_game(tv, phones)
    # A timed step: the TV's big countdown with its bar, the phones' small one.
    expect(tv.locator("#tv-main .tv-countdown .countdown-bar")).to_have_count(1)
    expect(ann.locator("#ph-panel .countdown")).to_have_count(1)
    assert ann.locator("#ph-panel .countdown-bar").count() == 0
    tv.screenshot(path=str(output_dir / "tv-countdown-1080.png"))
    tvs[1].screenshot(path=str(output_dir / "tv-countdown-720.png"))
    check_stages(tvs, "tiny-countdown", output_dir)

    ann.click("#ph-panel button:has-text('Heads')")
    bob.click("#ph-panel button:has-text('Tails')")
    cat.click("#ph-panel button:has-text('Heads')")      # the last call shows the coin: a moment
    moment = tv.locator("#tv-main .moment[data-cue=coin]")
    expect(moment).to_have_count(1)
    tv.click("#tv-host button.pause")                   # the server's clock stands still
    expect(tv.locator("#tv-main .paused-banner")).to_have_count(1)
    expect(moment).to_contain_text("The coin")
    expect(moment.locator(".moment-items li")).to_have_text(["Ann: Heads", "Bob: Tails", "Cat: Heads"])
    side = moment.locator(".moment-result").text_content()   # (it may be still hidden: it comes in last)
    assert side in ("Heads", "Tails")
    # The narration, which tells the result, waits for the moment to be over: the main line
    # names what the table watches.
    expect(tv.locator("#tv-narration .main-line")).to_have_text("The coin")
    assert side not in tv.locator("#tv-narration").inner_text()
    # The cue played once, keyed by the game and the moment (app.js).
    key = moment.get_attribute("data-cue-key")
    expect(tv.locator("body")).to_have_attribute("data-cued", f"{key}:coin")
    assert tv.locator("#tv-main .result").count() == 0          # the result waits for the moment
    for phone in phones:
        expect(phone.locator("#ph-panel .moment")).to_contain_text(side)
        assert phone.locator("#ph-panel .moment").get_attribute("data-cue-key") is None
    expect(tvs[1].locator("#tv-main .moment")).to_have_count(1)
    check_stages(tvs, "tiny-moment", output_dir)
    # Revealed line by line (app.css, within the moment's seconds), the coin last: the pictures.
    # (The pictures without the paused banner, which only this test puts over the moment.)
    for page, name in ((tv, "tv-moment-1080"), (tvs[1], "tv-moment-720")):
        expect(page.locator("#tv-main .moment-result")).to_be_visible()
        page.locator("#tv-main .paused-banner").evaluate("el => { el.style.visibility = 'hidden'; }")
        page.screenshot(path=str(output_dir / f"{name}.png"))
    expect(ann.locator("#ph-panel .moment-result")).to_be_visible()
    ann.screenshot(path=str(output_dir / "phone-moment-360.png"))
    # A phone that reconnects now sees the moment too (it is part of the state).
    ann.reload()
    expect(ann.locator("#ph-panel .moment")).to_contain_text(side)

    tv.click("#tv-host button.resume")                  # the clock goes on; the server ends the moment
    expect(tv.locator("#tv-main .result")).to_have_count(1)
    expect(tv.locator("#tv-main .moment")).to_have_count(0)
    expect(tv.locator("#tv-narration")).to_contain_text(f"The coin shows {side}.")
    expect(ann.locator("#ph-panel h2")).to_have_text("You won!" if side == "Heads" else "You lost.")
    check_stages(tvs, "tiny-after-moment", output_dir)
