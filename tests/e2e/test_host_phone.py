"""Host from a phone (issue 16), in real browsers: the host on the TV hands the host controls to
Bob's phone, Bob accepts on the phone, and the TV loses every control live (no reload) while the
phone gets them; Bob then picks the game, starts it, skips the briefing and shows the coin from
his phone.  The TV shows the public board only, with a line saying whose phone hosts, and stays
a stage at 1920×1080 and 1280×720."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import STAGE_SIZES, check_stages, join_phone, needs_chromium, open_tv, stage_twin

pytestmark = [needs_chromium, pytest.mark.extra_rulesets("tests.tiny")]


def no_controls(tv) -> None:
    """The TV shows no host control at all: no form, button or select in the page but the
    sound switch (the TV's own speaker, in the join card), and the line naming the host's phone."""
    expect(tv.locator("#tv-host")).to_have_text("Host on a phone: Bob")
    expect(tv.locator(".tv-layout :is(form, select, details)")).to_have_count(0)
    expect(tv.locator(".tv-layout button:not([data-sound-toggle])")).to_have_count(0)


def test_the_host_hands_the_controls_to_a_phone(live_daphne, browser, output_dir):
    tv, join_url = open_tv(browser, live_daphne.url, size=STAGE_SIZES[0])
    tvs = [tv, stage_twin(tv)]   # the host's TV at 1920×1080 and at 1280×720
    ann, bob, cat = [join_phone(browser, join_url, name, width=360) for name in ("Ann", "Bob", "Cat")]
    expect(tv.locator("#tv-players .online")).to_have_count(3)

    # The host offers the controls to Bob's phone; the TV says it waits for it.
    expect(tv.locator("#tv-host select[name=player] option:not([disabled])")).to_have_text(["Ann", "Bob", "Cat"])
    tv.select_option("#tv-host select[name=player]", label="Bob")
    tv.click("#tv-host form.hand-over button")
    expect(tv.locator("#tv-host .offered")).to_have_text("Host controls offered: Bob. Waiting for that phone.")
    check_stages(tvs, "handover-offered", output_dir)

    # Only Bob's phone is asked; he accepts.
    expect(bob.locator("#ph-host .host-offer")).to_contain_text("The host offers you the controls")
    for phone in (ann, cat):
        expect(phone.locator("#ph-host *")).to_have_count(0)
    bob.screenshot(path=str(output_dir / "phone-offer-360.png"), full_page=True)
    bob.click("#ph-host button[value=accept]")

    # Live, without a reload: every TV loses its controls; Bob's phone has them.
    for screen in tvs:
        no_controls(screen)
    expect(bob.locator("#ph-host .host-heading")).to_have_text("You are the host")
    expect(bob.locator("#ph-host button.start")).to_be_visible()
    check_stages(tvs, "handover-no-host-lobby", output_dir)

    # Bob runs the evening from his phone: the game, its option, the start.
    bob.select_option("#ph-host select[name=ruleset]", "tiny")
    expect(tv.locator("#tv-main .lobby h2")).to_have_text("Heads or Tails")
    bob.select_option("#ph-host select[name=opt-seconds]", "off")
    expect(bob.locator("#ph-host select[name=opt-seconds]")).to_have_value("off")
    bob.screenshot(path=str(output_dir / "phone-host-lobby-360.png"), full_page=True)
    bob.click("#ph-host button.start")
    for phone in (ann, bob, cat):
        expect(phone.locator("#ph-role .role-name")).to_have_count(1)
    expect(tv.locator("#tv-main .briefing-banner")).to_be_visible()
    no_controls(tv)
    # The briefing's "Start without waiting", from the phone.
    bob.click("#ph-host button.host-move[value=go_on]")
    expect(tv.locator("#tv-main .briefing-banner")).to_have_count(0)
    ann.click("#ph-panel button:has-text('Heads')")
    expect(bob.locator("#ph-host button.host-move")).to_have_text("Show the coin")
    check_stages(tvs, "handover-no-host-game", output_dir)
    for screen in tvs:
        no_controls(screen)
    bob.screenshot(path=str(output_dir / "phone-host-game-360.png"), full_page=True)
    bob.click("#ph-host button.host-move")
    expect(tv.locator("#tv-main .result h2")).to_have_count(1)
    expect(bob.locator("#ph-host button.start")).to_have_text("Start the next game")
    check_stages(tvs, "handover-no-host-result", output_dir)

    # The old host browser has no controls after a reload either: its cookie is dead, and a host
    # command it posts (as its page would, with its CSRF token) is refused.
    tv.reload()
    no_controls(tv)
    status = tv.evaluate("""async (code) => {
      const token = JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRFToken'];
      const answer = await fetch(`/r/${code}/host`, {method: 'POST', headers: {'X-CSRFToken': token},
                                                    body: new URLSearchParams({command: 'lock'})});
      return [answer.status, await answer.text()]; }""", tv.locator(".tv-join .code").inner_text())
    assert status[0] == 403 and "Only the host can do that." in status[1]   # refused as no host (not by CSRF)
    expect(bob.locator("#ph-host button[value=lock]")).to_be_visible()   # the room stays open
