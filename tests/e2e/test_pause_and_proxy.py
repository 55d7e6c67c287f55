"""Pause and the host's vote for an absent player, in real browsers (issue 14): the TV says
"Paused" across the room and every phone says the game is paused, until the host resumes;
a phone that goes away leaves an "…: vote on their behalf" on the host's bar, and the vote counts.
Screenshots of each (TV 1920×1080 and 1280×720, phone 360 px) go to test-results/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import join_phone, needs_chromium, open_tv, pick_crew

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]
NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin"]


def shoot(tv, phone, output_dir, name):
    for width, height in ((1920, 1080), (1280, 720)):
        tv.set_viewport_size({"width": width, "height": height})
        tv.screenshot(path=str(output_dir / f"{name}-tv-{width}.png"))
    phone.screenshot(path=str(output_dir / f"{name}-phone-360.png"), full_page=True)


def test_pause_resume_and_a_vote_for_an_absent_player(live_daphne, browser, output_dir):
    tv, join_url = open_tv(browser, live_daphne.url)
    tv.on("dialog", lambda dialog: dialog.accept())          # the host confirms
    phones = [join_phone(browser, join_url, name, width=360) for name in NAMES]
    tv.click("#tv-host button.start")
    for phone in phones:
        expect(phone.locator("#ph-panel")).to_contain_text("ready")

    tv.click("#tv-host button.pause")
    expect(tv.locator(".paused-banner")).to_have_text("Paused")
    for phone in phones:
        expect(phone.locator(".paused-line")).to_have_text("The game is paused.")
    shoot(tv, phones[0], output_dir, "paused")
    phones[0].click("#ph-panel button[value=ready]")          # refused, privately
    expect(phones[0].locator("#flash")).to_have_text("The game is paused.")
    tv.click("#tv-host button.resume")
    expect(tv.locator(".paused-banner")).to_have_count(0)
    expect(phones[0].locator(".paused-line")).to_have_count(0)

    for phone in phones:
        phone.click("#ph-panel button[value=ready]")
    pick_crew(tv, phones, NAMES)
    expect(tv.locator("#tv-main")).to_contain_text("Waiting for 5 votes")
    away = phones.pop(4)                                      # Erin's phone is gone
    away.context.close()
    form = tv.locator("#tv-host form.proxy")
    expect(form).to_have_count(1)
    expect(form).to_contain_text("Erin: vote on their behalf")
    shoot(tv, phones[0], output_dir, "proxy")
    form.locator("select").select_option(label="Reject")
    form.locator("button").click()
    expect(tv.locator("#tv-narration")).to_contain_text("Erin: the host voted on their behalf.")
    expect(tv.locator("#tv-main")).to_contain_text("Waiting for 4 votes")
    for phone in phones:
        phone.click("#ph-panel button[value=approve]")
    expect(tv.locator("#tv-main")).to_contain_text("Erin")
    expect(tv.locator("#tv-host form.proxy")).to_have_count(0)


def test_the_host_removes_a_player_from_classic_mafia_and_his_card_is_shown(live_daphne, browser, output_dir):
    tv, join_url = open_tv(browser, live_daphne.url)
    tv.on("dialog", lambda dialog: dialog.accept())
    names = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace"]
    phones = [join_phone(browser, join_url, name, width=360) for name in names]
    tv.select_option("#tv-settings select[name=ruleset]", "mafia_pl")
    expect(tv.locator("#tv-main .lobby h2")).to_have_text("Mafia (Polish)")
    tv.click("#tv-host button.start")
    # The host removes a policeman: with seven players the gang is one gangster, and removing
    # him would end the game (the engine tests this: tests/engines/test_host_for_a_seat.py).
    for phone in phones:
        expect(phone.locator("#ph-role .role-name")).to_have_count(1)
    roles = [phone.locator("#ph-role .role-name").inner_text() for phone in phones]
    gone = names[roles.index("Policeman")]
    tv.locator("#tv-host details.remove-players summary").click()
    expect(tv.locator("#tv-host button.remove")).to_have_count(7)
    shoot(tv, phones[0], output_dir, "remove")
    tv.locator("#tv-host button.remove", has_text=f"Remove: {gone}").click()
    expect(tv.locator("#tv-narration")).to_contain_text(f"Removed from the game: {gone}. Card: Policeman")
    expect(tv.locator("#tv-players li", has_text=gone)).to_contain_text("removed from the game")
    expect(tv.locator("#tv-host button.remove")).to_have_count(6)
    shoot(tv, phones[names.index(gone)], output_dir, "removed")
