"""A mixed table in real browsers (issue 17): a Polish room plays the Polish edition to the end
with six Polish phones and one Ukrainian guest.  The TV and its narration are in Polish, the
guest's phone in Ukrainian (its browser prefers it), every other phone in Polish; a refusal on the
guest's phone is in Ukrainian.  Each screen's words are checked against the catalogues."""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from django.utils.translation import gettext, ngettext
from playwright.sync_api import expect

from .conftest import join_phone, needs_chromium, see_roles_paused
from .test_classic_polish import NAMES, play_until

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

# The TV's browser has a Polish voice, so no note about a missing one (static/app.js).
POLISH_VOICE = ("Object.defineProperty(window.speechSynthesis, 'getVoices', "
                "{value: () => [{lang: 'pl-PL', name: 'Test', default: true}]});")
NO_VOICE = "Object.defineProperty(window.speechSynthesis, 'getVoices', {value: () => []});"


def say(language: str, msgid: str, plural: str | None = None, n: int = 1) -> str:
    with translation.override(language):
        return ngettext(msgid, plural, n) if plural else gettext(msgid)


def polish_tv(browser, base_url: str, init_script: str):
    tv = browser.new_context(viewport={"width": 1600, "height": 900}, locale="pl-PL").new_page()
    tv.add_init_script(init_script)
    tv.goto(base_url + "/")
    expect(tv.locator("html")).to_have_attribute("lang", "pl")   # the home page in the browser's language
    tv.select_option("select[name=language]", "pl")
    tv.click("main.home form.card button.primary")
    return tv, tv.locator(".tv-join .url.full").inner_text()


def test_the_tv_says_when_its_browser_has_no_voice_for_the_rooms_language(live_daphne, browser):
    tv, _url = polish_tv(browser, live_daphne.url, NO_VOICE)
    note = tv.locator("[data-no-voice]")
    expect(note).to_be_visible()
    expect(note).to_have_text(say("pl", "This browser has no voice for the room's language: the narration is not read aloud."))
    voiced, _url = polish_tv(browser, live_daphne.url, POLISH_VOICE)
    expect(voiced.locator("body")).to_have_attribute("data-voice", "pl-PL")
    expect(voiced.locator("[data-no-voice]")).to_be_hidden()


@pytest.mark.clock_scale(0.05)   # an 8 s night step takes 0.4 s, a 60 s deadline 3 s
def test_a_polish_room_with_a_ukrainian_guest_plays_the_polish_edition_to_the_end(live_daphne, browser, output_dir):
    tv, join_url = polish_tv(browser, live_daphne.url, POLISH_VOICE)
    guest = 3   # Dave's browser prefers Ukrainian
    phones = [join_phone(browser, join_url, name, width=360, locale="uk-UA" if i == guest else "pl-PL",
                         welcome=("#ph-panel", say("uk" if i == guest else "pl", "You're in!")))
              for i, name in enumerate(NAMES)]
    tv.select_option("#tv-settings select[name=ruleset]", "mafia_pl")
    expect(tv.locator("#tv-main .lobby h2")).to_have_text(say("pl", "Mafia (Polish)"))
    expect(tv.locator("html")).to_have_attribute("lang", "pl")
    for i, phone in enumerate(phones):
        expect(phone.locator("html")).to_have_attribute("lang", "uk" if i == guest else "pl")
        expect(phone.locator("#ph-head .language-pick summary")).to_have_text("UK" if i == guest else "PL")

    tv.click("#tv-host button.start")
    for phone in phones:
        expect(phone.locator("#ph-role .role-name")).to_have_count(1)
    # The guest's card and briefing in Ukrainian, a Polish phone's in Polish.
    expect(phones[guest].locator("#ph-panel .briefing")).to_contain_text(
        say("uk", "Press and hold your card to see your role, then:"))
    expect(phones[0].locator("#ph-panel .briefing")).to_contain_text(
        say("pl", "Press and hold your card to see your role, then:"))
    # A refusal reaches the guest in Ukrainian: the host pauses, the guest taps anyway.
    tv.click("#tv-host button.pause")
    # Once the guest's phone shows the pause (the server's version of it), no newer screen can
    # come and clear the refusal before it is read: nothing moves in a paused game.
    expect(phones[guest].locator(".paused-line")).to_have_count(1)
    phones[guest].click("#ph-panel form.seen-role button")
    expect(phones[guest].locator("#flash")).to_have_text(say("uk", "The game is paused."))
    tv.click("#tv-host button.resume")
    expect(phones[guest].locator(".paused-line")).to_have_count(0)
    # The night's first step (3 s at this scale) begins paused: its narration is checked with no
    # race against its clock.
    see_roles_paused(tv, phones, [tv, *phones])
    expect(tv.locator("#tv-narration")).to_contain_text(
        say("pl", "Night %(round)s: the city falls asleep. Look only at your own phone.") % {"round": 1})
    tv.locator(".paused-banner").evaluate("el => { el.style.visibility = 'hidden'; }")   # the picture without it
    tv.screenshot(path=str(output_dir / "tv-night-pl.png"))
    phones[guest].screenshot(path=str(output_dir / "phone-night-uk.png"), full_page=True)
    tv.click("#tv-host button.resume")
    expect(tv.locator(".paused-banner")).to_have_count(0)

    play_until(tv, phones, lambda: tv.locator("#tv-main .result").count() > 0)

    expect(tv.locator("#tv-main .reveal li")).to_have_count(7)
    ends = {language: (say(language, "You won!"), say(language, "You lost.")) for language in ("pl", "uk")}
    for i, phone in enumerate(phones):   # each phone reaches its end screen in its own time
        won, lost = ends["uk" if i == guest else "pl"]
        expect(phone.locator("#ph-panel h2").first).to_have_text(re.compile(f"^({re.escape(won)}|{re.escape(lost)})"))
    tv.screenshot(path=str(output_dir / "tv-end-pl.png"))
    phones[guest].screenshot(path=str(output_dir / "phone-end-uk.png"), full_page=True)
