"""docs/adding-a-ruleset.md, kept true: Heads or Tails (tests/tiny), a ruleset in a folder of its
own, is hosted by a real server and played on a TV and two phones over real websockets.

What it proves of the contract: the ruleset is offered in the lobby with its option's words,
the phones get the engine's moves as buttons, a call is secret (the TV never shows the coin or a
call before the reveal; two phones that called differently look the same), the host's button is
the engine's ``host_moves``, the game master's clock makes its move by itself (only once every
phone has seen its role: the briefing every game opens with), the result reaches every
screen, and the game's story is paced by the server and stepped through by the host."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import STAGE_SIZES, check_stages, join_phone, needs_chromium, open_tv, see_roles, stage_twin, start_game

pytestmark = [needs_chromium, pytest.mark.extra_rulesets("tests.tiny")]

SIDES = ("Heads", "Tails")


@pytest.mark.clock_scale(0.02)   # the 30 s clock of the second game takes 0.6 s
def test_heads_or_tails_on_a_tv_and_phones(live_daphne, browser, output_dir):
    tv, join_url = open_tv(browser, live_daphne.url, size=STAGE_SIZES[0])
    tvs = [tv, stage_twin(tv)]   # the host's TV at 1920×1080 and at 1280×720 (check_stages)
    ann, bob, cat = phones = [join_phone(browser, join_url, name, width=360) for name in ("Ann", "Bob", "Cat")]
    expect(tv.locator("#tv-players .online")).to_have_count(3)
    tv.select_option("#tv-settings select[name=ruleset]", "tiny")
    expect(tv.locator("#tv-main .lobby h2")).to_have_text("Heads or Tails")
    expect(tv.locator("#tv-settings")).to_contain_text("Time to call")   # the presenter's words
    tv.select_option("#tv-settings select[name=opt-seconds]", "off")
    expect(tv.locator("#tv-settings select[name=opt-seconds]")).to_have_value("off")
    check_stages(tvs, "tiny-lobby", output_dir)

    # Game 1, no clock: Ann calls heads, Bob tails, and the host shows the coin before Cat calls.
    start_game(tv, phones)
    expect(tv.locator("#tv-narration")).to_contain_text("The coin is tossed and covered.")
    for phone in phones:
        expect(phone.locator("#ph-panel form.target-choice button")).to_have_text(list(SIDES))
    expect(tv.locator("#tv-host")).not_to_contain_text("Show the coin")   # host_moves: nobody has called
    ann.click("#ph-panel button:has-text('Heads')")
    bob.click("#ph-panel button:has-text('Tails')")
    expect(tv.locator("#tv-players .badge.ok")).to_have_count(2)   # the TV knows who called, not what
    for phone in (ann, bob):
        expect(phone.locator("#ph-panel")).to_contain_text("Waiting for 1 more.")
    assert ann.locator("#ph-panel").inner_html() == bob.locator("#ph-panel").inner_html()   # a call has no shape
    tv_html = tv.content()
    assert "Heads" not in tv_html and "Tails" not in tv_html
    tv.screenshot(path=str(output_dir / "tv-tiny-calling.png"))
    check_stages(tvs, "tiny-calling", output_dir)
    tv.click("#tv-host button:has-text('Show the coin')")
    expect(tv.locator("#tv-main .result h2")).to_have_count(1)
    side = tv.locator("#tv-main .result h2").inner_text()
    assert side in SIDES
    winner, loser = (ann, bob) if side == "Heads" else (bob, ann)
    expect(tv.locator("#tv-main .result")).to_contain_text("Called it: " + ("Ann" if winner is ann else "Bob"))
    expect(winner.locator("#ph-panel h2")).to_have_text("You won!")
    for phone in (loser, cat):
        expect(phone.locator("#ph-panel h2")).to_have_text("You lost.")
    tv.screenshot(path=str(output_dir / "tv-tiny-result.png"))
    check_stages(tvs, "tiny-result", output_dir)
    winner.screenshot(path=str(output_dir / "phone-tiny-result.png"))

    # The story (issue 16): the server paces it to its last step by itself, on every screen...
    story, host = tv.locator("#tv-main .story"), tv.locator("#tv-host .story-controls")
    expect(story).to_have_attribute("data-story-step", "1")
    expect(story.locator(".story-heading")).to_have_text(f"The coin shows {side}.")
    for phone in phones:
        expect(phone.locator("#ph-panel .story")).to_have_attribute("data-story-step", "1")
    expect(host.locator("button[value=story_next]")).to_be_disabled()   # the last step
    check_stages(tvs, "tiny-story-last", output_dir)
    # ... and the host steps it back (it waits there), on again, and shows it all.
    host.locator("button[value=story_back]").click()
    expect(story).to_have_attribute("data-story-step", "0")
    expect(story.locator(".story-heading")).to_have_text("The calls")
    expect(story.locator(".story-earlier li")).to_have_count(0)
    expect(ann.locator("#ph-panel .story li.mine")).to_have_text("Ann called Heads. you")   # her own line, marked
    expect(cat.locator("#ph-panel .story li.mine")).to_have_text("Cat did not call. you")
    expect(tv.locator("#tv-main .story li.mine")).to_have_count(0)
    check_stages(tvs, "tiny-story-first", output_dir)
    host.locator("button[value=story_next]").click()
    expect(story).to_have_attribute("data-story-step", "1")
    expect(story.locator(".story-earlier li")).to_have_text(["The calls"])   # compact above
    host.locator("button[value=story_all]").click()
    expect(story).to_have_attribute("data-story-all", "1")
    expect(story.locator(".story-steps h4")).to_have_text(["The calls", f"The coin shows {side}."])
    expect(ann.locator("#ph-panel .story")).to_have_attribute("data-story-all", "1")
    expect(host.locator("button[value=story_all]")).to_be_disabled()
    check_stages(tvs, "tiny-story-all", output_dir)
    expect(tv.locator("#tv-settings")).to_be_hidden()   # the whole stage is the story's...
    host.locator("button[value=story_back]").click()     # ... until the host steps back
    expect(story).to_have_attribute("data-story-all", "0")
    expect(tv.locator("#tv-settings select[name=opt-seconds]")).to_be_visible()

    # Game 2, a 30 s clock and nobody calls: the game master's clock shows the coin by itself.
    tv.select_option("#tv-settings select[name=opt-seconds]", "30")
    expect(tv.locator("#tv-settings select[name=opt-seconds]")).to_have_value("30")
    tv.click("#tv-host button.start")
    # The briefing (engines/briefing.py): no clock runs until every phone has seen its role.
    expect(tv.locator("#tv-main .briefing-banner")).to_contain_text("3 more players")
    ann.click("#ph-panel form.seen-role button")
    expect(ann.locator("#ph-panel .briefing")).to_contain_text("Waiting for 2 more players to see their role.")
    expect(tv.locator("#tv-main .briefing-banner")).to_contain_text("2 more players")
    assert tv.locator("#tv-main .countdown").count() == 0 and tv.locator("#tv-main .result").count() == 0
    see_roles(tv, (bob, cat))
    expect(tv.locator("#tv-main .result")).to_contain_text("Nobody called it: the coin wins.")
    for phone in phones:
        expect(phone.locator("#ph-panel h2")).to_have_text("You lost.")
