"""A whole game night in real browsers: a TV and five phones play Mafie to a winner.

Each phone is its own browser context (its own cookies), joins through the join URL the
TV shows, peeks at its role with press-and-hold, and plays like a person would:
detectives sabotage, mafiosi succeed.  Halfway through, the server is restarted; every
screen must come back by itself with nothing lost.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import STAGE_SIZES, StageWatch, check_stages, join_phone, needs_chromium, open_tv, pick_crew, stage_twin

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]
NAMES = ["Alice", "Bob", "Carol", "Dave", "<i>Eve</i>"]


def peek_role(phone) -> str:
    card = phone.locator("#ph-role [data-hold]")
    expect(card.locator(".secret")).to_be_hidden()
    card.hover()
    phone.mouse.down()
    expect(card.locator(".secret")).to_be_visible()
    role = card.locator(".role-name").inner_text()
    phone.mouse.up()
    expect(card.locator(".secret")).to_be_hidden()
    return role


def kmotr_proposes(tv, phones):
    expect(tv.locator("#tv-main")).to_contain_text("The Godfather picks a crew")
    pick_crew(tv, phones, NAMES)
    expect(tv.locator("#tv-main")).to_contain_text(f"Waiting for {len(phones)} votes")


def everyone_approves(tv, phones):
    for phone in phones:
        phone.click("#ph-panel button[value=approve]")
        expect(phone.locator("#ph-panel button[value=approve]")).to_have_count(0)


def crew_plays(tv, phones, roles, refused):
    crew = tv.locator("#tv-main .team .chip").all_inner_texts()
    for name in crew:
        phone, role = phones[NAMES.index(name)], roles[NAMES.index(name)]
        expect(phone.locator("#ph-panel button[value=fail]")).to_be_visible()
        if role == "Mafioso" and not refused:
            phone.click("#ph-panel button[value=fail]")  # the server refuses it, privately
            expect(phone.locator("#flash")).to_have_text("Mafiosi must play Success.")
            refused.append(phone)
        phone.click(f"#ph-panel button[value={'fail' if role == 'Detective' else 'success'}]")


@pytest.mark.moments            # each vote and job takes the stage (engines/moments.py) ...
@pytest.mark.clock_scale(0.25)  # ... for 2 s (no other clock runs without plot cards)
def test_tv_and_five_phones_play_mafie_to_a_winner(live_daphne, browser, output_dir):
    tv, join_url = open_tv(browser, live_daphne.url, size=STAGE_SIZES[0])
    assert re.fullmatch(rf"{live_daphne.url}/j/[A-Z]{{4}}/", join_url)
    tvs = [tv, stage_twin(tv)]   # the host's TV at 1920×1080 and at 1280×720 (check_stages)
    watch = StageWatch(tvs, output_dir, "mafie")

    phones = [join_phone(browser, join_url, name) for name in NAMES]
    expect(tv.locator("#tv-players .online")).to_have_count(5)
    expect(tv.locator("#tv-players")).to_contain_text("<i>Eve</i>")  # shown as text, not markup
    check_stages(tvs, "mafie-lobby", output_dir)
    tv.click("#tv-host button.start")
    expect(tv.locator("#tv-main")).to_contain_text("Detective meeting")
    expect(tv.locator("#tv-main")).to_have_class(re.compile("mood-night"))   # a secret step: the night's look
    watch.see()

    # Frank joins after the start: he is the audience (issue 16), his phone the public board.
    frank = join_phone(browser, join_url, "Frank", width=360, welcome=("#ph-role", "You are watching"))
    expect(frank.locator("#ph-board .track")).to_be_visible()
    expect(frank.locator("#ph-panel .audience-poll")).to_have_count(0)   # no crew vote yet
    frank.screenshot(path=str(output_dir / "audience-board-360.png"), full_page=True)

    roles = [peek_role(phone) for phone in phones]
    assert sorted(roles) == ["Detective"] * 2 + ["Mafioso"] * 3
    for phone in phones:
        phone.click("text=I'm ready")
    expect(tv.locator("#tv-main")).to_contain_text("The Godfather picks a crew")

    refused, jobs, restarted = [], 0, False
    while not tv.locator("#tv-main .result").count():
        expect(tv.locator("#tv-main")).to_contain_text("The Godfather picks a crew")
        watch.see()
        kmotr_proposes(tv, phones)
        watch.see()
        if not jobs:   # the first crew vote: the audience's poll is open; Frank suspects Bob
            frank.click("#ph-panel .audience-poll button:text-is('Bob')")
            expect(frank.locator("#ph-panel .audience-poll")).to_contain_text("Your suspect: Bob.")
            expect(frank.locator("#ph-panel .audience-poll button[aria-pressed=true]")).to_have_text("Bob")
            frank.screenshot(path=str(output_dir / "audience-poll-360.png"), full_page=True)
            expect(tv.locator("body")).not_to_contain_text("suspect")   # nothing of it on the TV meanwhile
        everyone_approves(tv, phones)
        # The crew plays once the TV is at the job, past the vote's moment: the TV still counting
        # votes, or showing the vote's result, has no crew to read yet (the test once read none).
        expect(tv.locator("#tv-main .progress")).to_contain_text(re.compile(r"Waiting for \d+ cards?\."))
        watch.see()
        crew_plays(tv, phones, roles, refused)
        jobs += 1
        expect(tv.locator("#tv-main .job.done")).to_have_count(jobs)   # (the board is back: the job's moment is over)
        if not tv.locator("#tv-main .result").count():
            # The job's cards had their moment, after the vote's; both stay in the TV's history.
            expect(tv.locator("#tv-main .moment-history li").first).to_contain_text("The job's cards")
            expect(tv.locator("#tv-main .moment-history li.cue-vote").first).to_contain_text("The vote on the crew")
        if not restarted and not tv.locator("#tv-main .result").count():
            restarted = True
            board = tv.locator("#tv-main .track").inner_text()
            live_daphne.restart()
            # Every screen reconnects on its own and shows the same game, with everyone connected again.
            expect(tv.locator("#tv-players .online")).to_have_count(5)
            expect(tv.locator("#tv-main .track")).to_have_text(board)
            for phone in phones:
                expect(phone.locator("body")).not_to_have_class(re.compile("ws-down"))
    assert restarted and refused
    expect(tv.locator("#tv-main .result h2")).to_contain_text(re.compile("win!"))
    # The reveal shows every role on the TV.
    expect(tv.locator("#tv-main .reveal li")).to_have_count(5)
    winner = tv.locator("#tv-main .result h2").inner_text()
    won = [p for p in phones if "You won!" in p.locator("#ph-panel").inner_text()]
    assert len(won) == (3 if "Mafia" in winner else 2)
    # The audience's totals, on the finished TV only (checked on both stages by watch.see()).
    for page in tvs:
        expect(page.locator("#tv-main .audience-result")).to_contain_text("The audience suspected")
        expect(page.locator("#tv-main .audience-result li")).to_have_text(["Bob 1 vote"])
    watch.see()
    tv.screenshot(path=str(output_dir / "tv.png"))
    phones[0].screenshot(path=str(output_dir / "phone.png"))
