"""GRANNA's extended version in real browsers (issue 18): a TV and sixteen phones at 360 px play a
game with four action cards to its end, each card played on its holder's phone.

Sixteen, not twelve: at most one action card per four players (rules B.3.4, the cap the engine
holds a forced deal to), so four cards need sixteen players.  The host switches the cards on and
chooses the four on the TV; the deal is forced (``services.start_game`` with these roles and
cards, then every screen reloads: a browser cannot know a random deal in advance).  Everything
after that goes through the phones, the host's buttons and the server's clock:

* the Role Swap before the first night (its holder swaps tokens with another policeman);
* the mafia strike at the Bulletproof Vest's holder, who plays it in the dawn's window — every
  living phone shows that window in one shape, only his "Play my card" sends;
* the Arrest in the start-of-day window (a badge on the TV's roster, off the ballot);
* the Shot from Around the Corner in the discussion, at a mafioso;
* two days' votes out the other two mafiosi: the Police win, and the TV's reveal names every card.

The TV at 1920×1080 and at 1280×720 is checked as a stage at each of those moments (the lobby with
the cards, a reaction window, a day with badges, the reveal), and screenshots of them and of a
phone are left in the output folder.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from mafiagames import services
from mafiagames.models import Room

from .conftest import (NEWER_VERSION, STAGE_SIZES, check_stages, join_phone, needs_chromium, open_tv, see_roles,
                       shown_version, stage_twin)

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]
NAMES = ["Ann", "Bob", "Cyd", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou", "Max", "Ned",
         "Oli", "Pam"]
ANN, BOB, CYD, DAN, EVE, FAY, GUS, HAL, IVY, JON = range(10)
ROLES = ["policeman", "mafioso", "mafioso", "mafioso", "agent", *["policeman"] * 11]
CARDS = ["neutral"] * 16
CARDS[FAY], CARDS[GUS], CARDS[HAL], CARDS[IVY] = "role_swap", "vest", "arrest", "corner_shot"
CHOSEN = {"vest", "arrest", "corner_shot", "role_swap"}


def heading(page):
    return page.locator("#tv-main h2.phase")


def tap(phone, name: str) -> None:
    """The phone's button with a player's name in its panel's step (a vote, a night pick, a choice)."""
    phone.locator("#ph-panel .secret-shape form[ws-send] button", has_text=name).click()


def open_card(phone) -> None:
    phone.locator("#ph-panel details.action-card > summary").click()
    expect(phone.locator("#ph-panel details.action-card")).to_have_attribute("open", "")


def vote(phones, living: list[int], target: int, mafia_target: int, mafiosi: set[int]) -> None:
    for seat in living:
        phone = phones[seat]
        who = NAMES[mafia_target if seat in mafiosi else target]
        expect(phone.locator("#ph-panel .secret-shape form[ws-send] button", has_text=who)).to_have_count(1)
        tap(phone, who)
        if seat != living[-1]:   # the last vote ends it: the game goes on at once
            expect(phone.locator("#ph-panel")).to_contain_text("Your vote is in")


def test_sixteen_phones_play_four_action_cards_to_the_end(live_daphne, browser, output_dir):
    tv, join_url = open_tv(browser, live_daphne.url, size=STAGE_SIZES[0])
    tvs = [tv, stage_twin(tv)]
    # Half the table first: the lobby is checked as a stage with eight (sixteen names in a lobby's
    # roster and the host's seating list run off a 720-line TV whatever the options).
    phones = [join_phone(browser, join_url, name, width=360) for name in NAMES[:8]]
    expect(tv.locator("#tv-players .online")).to_have_count(8)

    # ---- the lobby: GRANNA with the action cards, four of them chosen ----
    tv.select_option("#tv-settings select[name=ruleset]", "granna")
    expect(tv.locator("#tv-main .lobby h2")).to_have_text("Mafia (GRANNA)")
    card_option = tv.locator("#tv-settings [data-option=card_vest]")
    expect(card_option).to_be_hidden()                       # shown only with the cards on
    tv.check("#tv-settings input[name=opt-action_cards]")
    expect(tv.locator("#tv-main .options")).to_contain_text("Action cards (extended version)")
    expect(tv.locator("#tv-settings [data-option=action_cards] .help")).to_contain_text("1 action card per 4 players")
    expect(tv.locator("#tv-settings [data-option=new_gang] .help")).to_contain_text("14 players")
    tv.click("#tv-settings details.advanced summary")
    for card in ("vest", "bandage", "recruitment", "leader", "turncoat", "role_swap", "wiretap", "hideout",
                 "safe_conduct", "arrest", "corner_shot", "capture", "last_shot"):
        box = tv.locator(f"#tv-settings input[name=opt-card_{card}]")
        if box.is_checked() != (card in CHOSEN):
            # The form posts all its options: the next tick waits until the server has taken this
            # one (a newer room version), as a host's next tap comes after the TV showed the last.
            before = shown_version(tv)
            box.set_checked(card in CHOSEN)
            tv.wait_for_function(NEWER_VERSION, arg=before)
            expect(tv.locator(f"#tv-settings input[name=opt-card_{card}]")).to_be_checked(checked=card in CHOSEN)
    tv.check("#tv-settings input[name=opt-kids_single_vote]")    # one vote a day: a shorter game
    for name in ("Bulletproof Vest", "Arrest", "Shot from Around the Corner", "Role Swap"):
        expect(tv.locator("#tv-main .options")).to_contain_text(name)
    expect(tv.locator("#tv-main .options")).not_to_contain_text("Bandage")
    tv.click("#tv-settings details.advanced summary")             # folded again: the stage fits
    check_stages(tvs, "cards-lobby", output_dir)
    phones[0].screenshot(path=str(output_dir / "phone-cards-lobby.png"), full_page=True)
    phones += [join_phone(browser, join_url, name, width=360) for name in NAMES[8:]]
    expect(tv.locator("#tv-players .online")).to_have_count(16)

    room = Room.objects.get(code=join_url.rstrip("/").rsplit("/", 1)[1])
    assert {key for key, value in room.options.items() if key.startswith("card_") and value in (True, "on")} == \
        {f"card_{card}" for card in CHOSEN}
    services.start_game(room, seed=18, deal={"roles": ROLES, "cards": CARDS})
    for page in (*tvs, *phones):
        page.reload()
    see_roles(tv, phones)
    for seat, phone in enumerate(phones):   # every phone has its card area, its own card in it
        open_card(phone)
        expect(phone.locator("#ph-panel .card-name")).to_have_text(
            {"neutral": "Neutral card", "role_swap": "Role Swap", "vest": "Bulletproof Vest", "arrest": "Arrest",
             "corner_shot": "Shot from Around the Corner"}[CARDS[seat]])
        phone.locator("#ph-panel details.action-card > summary").click()

    # ---- the Role Swap, shown to all: Fay swaps tokens with Jon (two policemen) ----
    for page in tvs:
        expect(heading(page)).to_have_text("Role Swap")
    expect(tv.locator("#tv-players .card-badge.role_swap")).to_have_count(1)
    expect(phones[ANN].locator("#ph-panel")).to_contain_text("Fay may swap tokens with one player.")
    phones[FAY].screenshot(path=str(output_dir / "phone-cards-role-swap.png"), full_page=True)
    tap(phones[FAY], "Jon")

    # ---- night 1: the agent checks, the mafia strike at the Vest's holder ----
    expect(heading(tv)).to_have_text("Night · The agent is awake")
    tap(phones[EVE], "Bob")
    expect(heading(tv)).to_have_text("Night · The mafia is awake")
    for seat in (BOB, CYD, DAN):
        tap(phones[seat], "Gus")

    # ---- dawn: the reaction window, one shape on every living phone; Gus plays his Vest ----
    for page in tvs:
        expect(heading(page)).to_have_text("Dawn: a moment to react")
    expect(tv.locator("#tv-main .window-text")).to_contain_text("Struck at: Gus.")
    expect(tv.locator("#tv-main .tv-countdown")).to_have_count(1)
    for phone in phones:
        expect(phone.locator("#ph-panel h2")).to_have_text("Dawn: a moment to react")
        expect(phone.locator("#ph-panel details.action-card form.target-choice button")).to_have_count(16)
        expect(phone.locator("#ph-panel details.action-card form.skip button")).to_have_text("Play my card")
    for seat, phone in enumerate(phones):
        expect(phone.locator("#ph-panel details.action-card form[ws-send]")).to_have_count(1 if seat == GUS else 0)
    check_stages(tvs, "cards-window", output_dir)
    open_card(phones[GUS])
    phones[GUS].screenshot(path=str(output_dir / "phone-cards-window-holder.png"), full_page=True)
    phones[ANN].screenshot(path=str(output_dir / "phone-cards-window-other.png"), full_page=True)
    phones[GUS].locator("#ph-panel details.action-card form[ws-send] button", has_text="Play my card").click()
    expect(phones[GUS].locator("#ph-panel .card-line")).to_contain_text("takes effect when the time is up")

    # ---- the day begins: Gus survives; Hal plays Arrest in the start-of-day window ----
    expect(heading(tv)).to_have_text("The day begins: action cards")
    expect(tv.locator("#tv-narration")).to_contain_text("Gus is wearing a vest and survives!")
    open_card(phones[HAL])
    phones[HAL].locator("#ph-panel details.action-card form[ws-send] button", has_text="Play my card").click()
    expect(heading(tv)).to_have_text("Discussion")
    expect(tv.locator("#tv-players li", has_text="Hal").locator(".card-badge.arrested")).to_have_text("Arrest")
    expect(tv.locator("#tv-main .cards-line")).to_contain_text("Arrest")
    check_stages(tvs, "cards-day", output_dir)

    # ---- the discussion: Ivy shoots Bob from around the corner ----
    open_card(phones[IVY])
    phones[IVY].screenshot(path=str(output_dir / "phone-cards-corner-shot.png"), full_page=True)
    phones[IVY].locator("#ph-panel details.action-card form[ws-send] button", has_text="Bob").click()
    expect(tv.locator("#tv-narration")).to_contain_text("Shot from Around the Corner: Ivy → Bob. Bob is out — Mafioso.")
    expect(heading(tv)).to_have_text("Discussion")
    tv.locator("#tv-host button.host-move").click()          # the host starts the vote

    # ---- the vote: Hal is not on the ballot (Arrest); Cyd is voted out ----
    expect(heading(tv)).to_have_text("Vote")
    expect(tv.locator("#tv-main .ballot")).not_to_contain_text("Hal")
    living = [seat for seat in range(16) if seat != BOB]
    vote(phones, living, CYD, ANN, {CYD, DAN})
    expect(tv.locator("#tv-players li.out", has_text="Cyd")).to_have_count(1)

    # ---- night 2: Dan alone strikes at Ann (no card left to save her) ----
    expect(heading(tv)).to_have_text("Night · The agent is awake")
    tap(phones[EVE], "Dan")
    expect(heading(tv)).to_have_text("Night · The mafia is awake")
    tap(phones[DAN], "Ann")
    expect(heading(tv)).to_have_text("Discussion")
    tv.locator("#tv-host button.host-move").click()
    expect(heading(tv)).to_have_text("Vote")
    living = [seat for seat in range(16) if seat not in (BOB, CYD, ANN)]
    vote(phones, living, DAN, GUS, {DAN})

    # ---- the end: the Police win; the reveal names every card dealt ----
    for page in tvs:
        expect(page.locator("#tv-main .result h2")).to_have_text("The Police win!")
    reveal = tv.locator("#tv-main .cards-reveal")
    for text in ("Role Swap Fay", "Bulletproof Vest Gus", "Arrest Hal", "Shot from Around the Corner Ivy"):
        expect(reveal).to_contain_text(text)
    check_stages(tvs, "cards-reveal", output_dir)
    phones[GUS].screenshot(path=str(output_dir / "phone-cards-end.png"), full_page=True)
