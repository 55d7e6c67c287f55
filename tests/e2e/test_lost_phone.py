"""A lost phone mid-vote: its player gets the seat back on a new phone, with the host's approval.

Seven players play the Polish edition in real browsers.  In the first vote a living player's
phone is lost (its browser context closes) before it votes; the game waits for that vote.  The
player opens the join page in a new browser, says "I was <name>", the host lets them in on the
TV, the new phone shows the vote, and the game goes on to a winner.  The old phone's cookie is
dead afterwards.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import join_phone, needs_chromium, open_tv, shown_turn, start_game
from .test_classic_polish import NAMES, play_until

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def vote_buttons(phone, turn: int):
    return phone.locator(f"#ph-panel form.target-choice:has(input[name=turn][value='{turn}']) button")


@pytest.mark.clock_scale(0.05)
def test_a_phone_lost_mid_vote_comes_back_with_the_hosts_approval(live_daphne, browser, output_dir):
    tv, join_url = open_tv(browser, live_daphne.url)
    phones = [join_phone(browser, join_url, name, width=360) for name in NAMES]
    tv.select_option("#tv-settings select[name=ruleset]", "mafia_pl")
    expect(tv.locator("#tv-main .lobby h2")).to_have_text("Mafia (Polish)")
    start_game(tv, phones)

    # Play until the first vote has begun and a living player can vote.
    voters = []

    def voting() -> bool:
        if tv.locator("#tv-main h2.phase").inner_text() == "Vote":
            voters[:] = [p for p in phones if vote_buttons(p, shown_turn(tv)).count()]
        return bool(voters)

    play_until(tv, phones, voting)
    turn = shown_turn(tv)
    lost = voters[-1]
    seat = phones.index(lost)
    name = NAMES[seat]
    old_cookies = lost.context.cookies()
    lost.context.close()                  # the phone is gone; the vote waits for it
    expect(tv.locator(f"#tv-players li.offline:has-text('{name}')")).to_have_count(1)

    # A borrowed phone: a new browser, no cookie.  The name is taken, so it asks for the seat.
    borrowed = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True).new_page()
    borrowed.goto(join_url)
    borrowed.fill("input[name=name]", name)
    borrowed.click("form:has(input[name=name]) button[type=submit]")
    borrowed.click(f"text=I was {name}: ask the host")
    expect(borrowed.locator("#claim")).to_contain_text(f"Waiting for the host to let you back in as {name}")
    borrowed.screenshot(path=str(output_dir / "phone-waiting.png"))
    claim = tv.locator("#tv-door .claim")
    expect(claim).to_contain_text(f"A new phone asks for a seat: {name}.")
    expect(claim).to_contain_text("Their old phone is offline.")
    tv.screenshot(path=str(output_dir / "tv-claim.png"))
    claim.locator("button[value=let_in]").click()
    expect(tv.locator("#tv-door .claim")).to_have_count(0)

    # The new phone is seated where the old one sat, and shows the vote it owes.
    borrowed.wait_for_url(re.compile(r"/p/[A-Z]{4}/$"))
    expect(borrowed.locator("#ph-head .me")).to_have_text(name)
    expect(vote_buttons(borrowed, turn).first).to_be_visible()
    expect(tv.locator(f"#tv-players li.online:has-text('{name}')")).to_have_count(1)
    phones[seat] = borrowed

    # The old phone's cookie no longer holds a seat.
    stale = browser.new_context()
    stale.add_cookies(old_cookies)
    stale_page = stale.new_page()
    stale_page.goto(join_url.replace("/j/", "/p/"))
    assert "/j/" in stale_page.url
    stale.close()

    play_until(tv, phones, lambda: tv.locator("#tv-main .result").count() > 0)
    expect(tv.locator("#tv-main .result h2")).to_contain_text(re.compile("win!"))
    expect(borrowed.locator("#ph-panel h2")).to_contain_text(re.compile("You won!|You lost."))
    tv.screenshot(path=str(output_dir / "tv-end.png"))
