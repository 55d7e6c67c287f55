"""Mrakošlapi in real browsers: a TV and six phones play a game to its winner with scripted
choices — the game of tests/engines/test_mrakoslapi_engine_game.py, tapped on the phones.

The players join by the TV's link and the host picks Mrakošlapi and its timers on the TV.  The
deal is forced (``services.start_game`` with the scripted hands, then every screen reloads): a
browser cannot know random cards in advance, and the choices are scripted for these hands.
Everything after that goes through the phones and the server's clock: night choices (the mafia
agree, a tunnel, saliva, an exhibition) and "Done", the morning on the TV, accusations, a
defence, hands up in each vote window, the verdicts, a night that has no meaning, and the
Anarchista's shot that leaves one player alive.  At the end the TV tells the game's story,
each night's trace in it; the host steps back to night 1 and shows it all.
"""

from __future__ import annotations

import re

import pytest
from django.test import override_settings
from playwright.sync_api import expect

from mafiagames import services
from mafiagames.models import Room
from tests.engines.test_mrakoslapi_engine_game import DEAL

from .conftest import (HANG_GUARD, RECORD_SPEECH, STAGE_SIZES, check_stages, join_phone, needs_chromium, open_tv,
                       see_roles, stage_twin)

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]
NAMES = ["Ann", "Bob", "Cyd", "Dan", "Eve", "Fay"]
ANN, BOB, CYD, DAN, EVE, FAY = range(6)
CLOCK = HANG_GUARD * 1000   # ms: what the server's clock brings (a 5 s window, a 5 s night) comes when it decides


def show_step(phone, prompt: str) -> None:
    """Step through the night (one card at a time, the same number on every phone) to ``prompt``."""
    step = phone.locator(f"#ph-panel [data-prompt='{prompt}']")
    for _card in range(phone.locator("#ph-panel [data-night-step]").count()):   # a hand's cards at most
        if step.is_visible():
            return
        phone.click("#ph-panel [data-step-next]")
    assert step.is_visible(), f"the night never showed the step {prompt!r}"


def pick(phone, prompt: str, name: str) -> None:
    show_step(phone, prompt)
    phone.locator(f"#ph-panel [data-prompt='{prompt}'] form.target-choice button", has_text=name).click()
    expect(phone.locator(f"#ph-panel [data-prompt='{prompt}'] .done")).to_contain_text(name)


def done(phone) -> None:
    phone.click("#ph-panel form.done-form button")
    expect(phone.locator("#ph-panel")).to_contain_text("Your night is set")


def accuse(phone, target: int, claim: str, why: str = "") -> None:
    phone.select_option("#ph-panel form.accuse select[name=target]", str(target))
    phone.select_option("#ph-panel form.accuse select[name=claim]", claim)
    phone.fill("#ph-panel form.accuse input[name=text]", why)
    phone.click("#ph-panel form.accuse button")
    expect(phone.locator("#ph-panel form.withdraw")).to_have_count(1)


def hands_up(phones, voters, candidate: str) -> None:
    """Each voter raises a hand in the vote window for ``candidate`` (a server-timed window)."""
    for phone in voters:
        # This candidate's button, not any vote button: were the window to close first, the click
        # must fail here rather than raise a hand for the next candidate.
        button = phone.locator("#ph-panel form.vote button", has_text=f"{candidate} should die")
        expect(button).to_have_count(1, timeout=CLOCK)   # after the time to think
        button.click()
        expect(phone.locator("#ph-panel form.vote")).to_have_count(0)


def said(tv, line: str) -> None:
    """Wait until the TV has read ``line`` aloud (RECORD_SPEECH keeps every line it read)."""
    tv.wait_for_function("line => window.__spoken.some(([_lang, text]) => text.includes(line))", arg=line,
                         timeout=CLOCK)


def morning(tv) -> list[str]:
    return tv.locator("#tv-main .morning li").all_inner_texts()


@pytest.mark.clock_scale(0.5)   # hands up for 5 s per candidate, the verdict's window 5.25 s
# The morning report and each execution take the stage for 4 s (engines/moments.py): the game is
# started with moments below.
def test_tv_and_six_phones_play_mrakoslapi_to_a_winner(live_daphne, browser, output_dir):
    tv, join_url = open_tv(browser, live_daphne.url, init_script=RECORD_SPEECH, size=STAGE_SIZES[0])
    tv.click("[data-sound-toggle]")                      # the TV reads the narration aloud
    tvs = [tv, stage_twin(tv)]   # the host's TV at 1920×1080 and at 1280×720 (check_stages)
    phones = [join_phone(browser, join_url, name) for name in NAMES]
    expect(tv.locator("#tv-players .online")).to_have_count(6)
    tv.select_option("#tv-settings select[name=ruleset]", "mrakoslapi")
    expect(tv.locator("#tv-main .lobby h2")).to_have_text("Mrakošlapi")
    tv.click("#tv-settings details.advanced summary")   # the timers are folded under "Advanced"
    tv.select_option("#tv-settings select[name=opt-vote_seconds]", "10")
    expect(tv.locator("#tv-main .options")).to_contain_text("Hands up: seconds per candidate: 10 s")
    tv.select_option("#tv-settings select[name=opt-night_min_seconds]", "10")
    expect(tv.locator("#tv-main .options")).to_contain_text("Shortest night: 10 s")
    # The longest night: every phone's picks must be in before the night's clock ends it (the
    # script's outcomes follow from them), and on a busy machine the first night's checks took
    # longer than 30 s; once every phone is done the shortest night ends it.
    tv.select_option("#tv-settings select[name=opt-night_deadline_seconds]", "120")
    expect(tv.locator("#tv-main .options")).to_contain_text("Time to decide at night: 120 s")
    check_stages(tvs, "mrak-lobby", output_dir)   # "Advanced" open on the big TV, folded on the small
    with override_settings(MOMENTS=True):   # started here, in the tests' process (moments off by default)
        services.start_game(Room.objects.get(code=join_url.rstrip("/").rsplit("/", 1)[1]), seed=11, deal=DEAL)
    for page in (*tvs, *phones):
        page.reload()
    see_roles(tv, phones)

    # ---- night 1: every living phone has a night screen; the choices are secret ----
    ann, bob, cyd, dan, eve, fay = phones
    for phone in phones:
        expect(phone.locator("#ph-panel h2")).to_have_text("Night 1")
        expect(phone.locator("#ph-panel form.done-form")).to_have_count(1)
    # The checks of the night's screens below take their time on a busy machine (in a loaded run
    # they and the picks outlasted the 60 s night, and the script's outcomes follow from every
    # pick): the host pauses the game's clock while they look, and resumes it for the picks.
    tv.click("#tv-host button.pause")
    for phone in phones:
        expect(phone.locator(".paused-line")).to_have_count(1)
    # Every living phone: six steps (a hand of six), one shown at a time, a name per living player
    # and "Nobody tonight" on each; Dan's send nothing.
    for phone in phones:
        expect(phone.locator("#ph-panel [data-night-step]")).to_have_count(6)
        expect(phone.locator("#ph-panel [data-night-step]:visible")).to_have_count(1)
        expect(phone.locator("#ph-panel [data-night-step]:visible form.target-choice button")).to_have_count(6)
        expect(phone.locator("#ph-panel [data-step-count]")).to_have_text("Card 1 of 6")
    expect(dan.locator("#ph-panel form[ws-send]:not(.done-form)")).to_have_count(0)
    dan.locator("#ph-role .role-card").dispatch_event("pointerdown")
    expect(dan.locator("#ph-role .hand")).to_contain_text("Mrakošlap 1")
    expect(dan.locator("#ph-role .hand")).to_contain_text("Mečiar")
    expect(tv.locator("#tv-main h2.phase")).to_have_text("Night 1")
    check_stages(tvs, "mrak-night-paused", output_dir)   # the TV's night is the same whatever is picked
    tv.click("#tv-host button.resume")
    for phone in phones:
        expect(phone.locator(".paused-line")).to_have_count(0)
    tv.screenshot(path=str(output_dir / "tv-night.png"))
    pick(ann, "MAFIAN:1", "Fay")
    expect(bob.locator("#ph-panel [data-prompt='MAFIAN:1'] .ask")).to_contain_text("Ann → Fay")   # night 1: they meet
    pick(bob, "MAFIAN:1", "Fay")
    show_step(bob, "MAG:1")       # the tunnel: where it starts, then where it leads
    bob.locator("#ph-panel [data-prompt='MAG:1'] form.target-choice button", has_text="Fay").click()
    expect(bob.locator("#ph-panel [data-prompt='MAG:1'] .ask")).to_have_text("Now tap where the tunnel leads.")
    bob.locator("#ph-panel [data-prompt='MAG:1'] form.target-choice button", has_text="Cyd").click()
    expect(bob.locator("#ph-panel [data-prompt='MAG:1'] .done")).to_contain_text("Fay → Cyd")
    expect(bob.locator("#ph-panel [data-step-count]")).to_have_text("Card 2 of 6")   # kept across updates
    pick(cyd, "SLINA:1", "Eve")
    pick(fay, "SLINA:2", "Dan")
    pick(eve, "EXHIBICIONISTA:1", "Ann")
    bob.screenshot(path=str(output_dir / "phone-night.png"))
    for phone in phones:
        done(phone)
    assert "Mág" not in tv.content() and "Fay → Cyd" not in tv.content()

    # ---- morning 1 on the TV, exactly the rules §4.7 lines ----
    expect(tv.locator("#tv-main h2.phase")).to_contain_text("Day 1", timeout=CLOCK)
    assert morning(tv) == ["Shots fired: 3", "Slimed: Dan, Eve", "Exhibited (silent today): Ann",
                           "Mirrors broken: 1", "Mrakošlapy died: —", "Died: Fay"]
    expect(tv.locator("#tv-players .badge.muted")).to_have_count(1)
    # The morning had its moment on the stage, and stays in the TV's history of results.
    expect(tv.locator("#tv-main .moment-history li.cue-death")).to_contain_text("The morning")
    expect(ann.locator("#ph-panel")).to_contain_text("You are silenced today")
    expect(ann.locator("#ph-panel form.accuse")).to_have_count(0)
    expect(fay.locator("#ph-panel .ghost-banner")).to_contain_text("Stay silent")
    tv.screenshot(path=str(output_dir / "tv-morning.png"))
    check_stages(tvs, "mrak-morning", output_dir)

    # ---- day 1: accusations, a defence, hands up (Dan's count twice), Bob executed ----
    accuse(dan, BOB, "MAFIAN", "he smiled")
    accuse(cyd, ANN, "MAFIAN")
    expect(tv.locator("#tv-main .accusations li")).to_have_count(2)
    expect(tv.locator("#tv-main .accusations")).to_contain_text("Accused: Bob (by Dan) Mafián — “he smiled”")
    for phone in (bob, cyd, dan):
        phone.click("#ph-panel form.ready button")
    expect(bob.locator("#ph-panel form.defend")).to_have_count(1)
    expect(tv.locator("#tv-main .finalists")).to_contain_text("Bob is defending")
    check_stages(tvs, "mrak-defence", output_dir)
    bob.click("#ph-panel form.defend button[value=spoke]")
    hands_up(phones, (cyd, dan, eve), "Bob")
    hands_up(phones, (bob,), "Ann")
    check_stages(tvs, "mrak-vote", output_dir)
    # The verdict comes when Ann's window closes, on the server's clock (up to 5 s after Bob's hand).
    # The narration moves on with the night, so what the TV said is read from what it read aloud
    # (kept for the whole game), never from a line that may have gone by the time we look.
    said(tv, "Sentenced: Bob.")
    said(tv, "Bob died.")
    expect(tv.locator("#tv-main h2.phase")).to_have_text("Night 2", timeout=CLOCK)
    expect(tv.locator("#tv-main .moment-history li.cue-verdict")).to_contain_text("Bob is hanged and dies.")

    # ---- night 2: Ann alone is the mafia; Dan's Mrakošlap takes one bullet, the other kills ----
    pick(ann, "MAFIAN:1", "Dan")
    expect(ann.locator("#ph-panel [data-prompt='MAFIAN:1'] .ask")).not_to_contain_text("The Mafiáni tonight")  # blind from night 2
    pick(cyd, "SLINA:1", "Cyd")
    for phone in (ann, cyd, dan, eve):
        done(phone)
    expect(tv.locator("#tv-main h2.phase")).to_contain_text("Day 2", timeout=CLOCK)
    assert morning(tv) == ["Shots fired: 2", "Slimed: Cyd", "Exhibited (silent today): —", "Mirrors broken: —",
                           "Mrakošlapy died: 1", "Died: Dan"]

    # ---- day 2: Ann waives her defence and is executed ----
    accuse(cyd, ANN, "MAFIAN")
    cyd.click("#ph-panel form.ready button")
    eve.click("#ph-panel form.ready button")
    ann.click("#ph-panel form.defend button[value=waived]")
    hands_up(phones, (cyd, eve), "Ann")
    said(tv, "Ann died.")

    # ---- night 3 has no meaning; day 3: the Anarchista shoots, and Eve is the last one alive ----
    expect(tv.locator("#tv-main h2.phase")).to_contain_text("Day 3", timeout=CLOCK)
    assert morning(tv) == ["The NIGHT has no meaning: nothing can happen tonight."]
    eve.click("#ph-panel details.day-cards summary")
    eve.locator("#ph-panel .anarchist button", has_text="Cyd").click()
    expect(tv.locator("#tv-main .result h2")).to_have_text("Eve wins!")
    expect(eve.locator("#ph-panel h2")).to_have_text("You won!")
    expect(cyd.locator("#ph-panel h2")).to_have_text("You lost.")
    check_stages(tvs, "mrak-result", output_dir)

    # The TV read each line once, though a day's narration grows from the morning's lines on.
    spoken = " ".join(text for _lang, text in tv.evaluate("window.__spoken"))
    for line in ("Shots fired: 3", "Died: Fay", "Sentenced: Bob.", "Bob died.", "Eve wins!"):
        assert spoken.count(line) == 1, line

    # ---- the story (issue 16): paced by the server's clock (it moves a step on by itself), taken
    # to its last step by the host's Next, then stepped back (back: it waits there) to night 1
    # and its whole trace ----
    story, host = tv.locator("#tv-main .story"), tv.locator("#tv-host .story-controls")
    next_button = host.locator("button[value=story_next]")
    expect(story).to_have_attribute("data-story-step", re.compile(r"\d+"))
    step = int(story.get_attribute("data-story-step"))
    expect(story).to_have_attribute("data-story-step", str(step + 1), timeout=CLOCK)   # the clock's pace
    while next_button.is_enabled():
        step = int(story.get_attribute("data-story-step"))
        # The clock may move it meanwhile (then the press is stale and changes nothing) or end
        # it (then the button is disabled and a click does nothing): either way the story moved.
        next_button.click(force=True)
        tv.wait_for_function(
            """s => { const story = document.querySelector('#tv-main .story');
                      const next = document.querySelector('#tv-host .story-controls button[value=story_next]');
                      return (story && +story.dataset.storyStep > s) || !next || next.disabled; }""", arg=step)
    heading = story.locator(".story-heading")

    def back() -> None:   # back: the story waits on each step, on the TV and on Cyd's phone
        before = story.get_attribute("data-story-step")
        host.locator("button[value=story_back]").click()
        for screen in (story, cyd.locator("#ph-panel .story")):
            expect(screen).to_have_attribute("data-story-step", str(int(before) - 1))
    lines = story.locator(".story-lines li")
    # Night 1's trace and choices are long: each goes on over further steps, their headings
    # numbered (story.paged cuts a step by the rows it fills on the TV).  Back through them all.
    while not heading.inner_text().startswith("Night 1: what happened"):
        back()
    trace: list[str] = []
    while True:
        check_stages(tvs, "mrak-story-" + re.sub(r"\W+", "-", heading.inner_text()), output_dir)
        trace[:0] = lines.all_inner_texts()
        if heading.inner_text() == "Night 1: what happened":
            break
        back()
    assert trace[0] == "Shot Ann → Fay: the bullet of Mafián 1."
    assert sum("Cyd — Zrcadlo 1 breaks" in line for line in trace) == 1
    assert sum("Tunnel of Mág 1" in line for line in trace) == 1
    mine = cyd.locator("#ph-panel .story li.mine", has_text="Mág 1: a tunnel Fay → Cyd.")
    back()
    while not mine.count() and heading.inner_text() != "Night 1: the choices":
        back()
    expect(heading).to_have_text(re.compile(r"^Night 1: the choices"))
    expect(mine).to_have_count(1)
    check_stages(tvs, "mrak-story-night-1-choices", output_dir)
    host.locator("button[value=story_all]").click()
    expect(story).to_have_attribute("data-story-all", "1")
    # All on the TV: the last steps that fit, and how many before them the phones show (story.fitted);
    # a phone has the whole story from its first step.
    expect(cyd.locator("#ph-panel .story-steps h4").first).to_have_text("The hands as dealt")
    expect(story.locator(".story-steps h4").last).to_have_text(cyd.locator("#ph-panel .story-steps h4").last.inner_text())
    if story.locator(".story-steps h4").first.inner_text() != "The hands as dealt":
        expect(story.locator("p.more")).to_contain_text("before these")
    expect(tv.locator("#tv-main .result .reveal li").nth(EVE)).to_have_text("Eve: Exhibicionista 1 (used) Anarchista (used)")
    expect(tv.locator("#tv-main .result .reveal li").nth(DAN)).to_have_text("Dan ✝: Mrakošlap 1 Mečiar")
    tv.screenshot(path=str(output_dir / "tv-story.png"), full_page=True)
