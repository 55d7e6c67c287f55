"""Classic Mafia in real browsers: a TV and seven phones play the Polish edition with the doctor.

The host picks "Mafia (Polish)" and ticks the doctor; the app is the game master: each night
step (agent, doctor, gang) ends by itself on the server's clock, the host ends the discussion
and the defence on the TV, the phones vote, and dawn and every arrest reveal a card. Players act
as their phones offer: the first name on their buttons (the gangster kills, the doctor heals,
the agent checks, everyone votes). Sleeping phones show the same night screen with buttons that
send nothing; the dead see the silence banner; the TV lists everyone's card at the end.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import (STAGE_SIZES, StageWatch, catch_up, check_stages, game_events, join_phone, needs_chromium, open_tv,
                       see_roles_paused, shown_turn, shown_version, stage_twin, start_game, tap_if_there, wait_for_next_step)

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]
NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace"]
STEP_LIMIT = 400   # taps and waits of the loop below; a 7-player game needs far fewer


def choices(phone, turn: int):
    """A phone's buttons for ``turn``; enabled only: a phone whose vote is cast shows its buttons
    disabled until the next step."""
    return phone.locator(f"#ph-panel form.target-choice:has(input[name=turn][value='{turn}']) button:enabled")


def phone_can_act(tv, phones) -> bool:
    turn = shown_turn(tv)
    return any(choices(p, turn).count() for p in phones)


def can_act(tv, phones) -> bool:
    return tv.locator("#tv-host button.host-move").count() > 0 or phone_can_act(tv, phones)


def act_once(tv, phones) -> str | None:
    """The host's button on the TV ("host"), or one phone's first real button ("phone"); None if
    nobody can act.  A phone is first brought up to the TV's turn; one already past it waits for
    the TV."""
    if tap_if_there(tv.locator("#tv-host button.host-move")):
        return "host"
    turn = shown_turn(tv)
    for phone in phones:
        catch_up(phone, turn)
        if tap_if_there(choices(phone, turn)):
            return "phone"
    return None


def play_until(tv, phones, reached) -> None:
    """Act, step after step, until ``reached()`` (checked before each step) says so.  After a
    phone's tap the loop goes on as soon as a phone can act: the other voters need not wait for
    this vote's update, and a tap sent as its socket dropped is never answered — the phone's
    buttons come back with its reconnect (app.js) and it taps again, as its player would.  The
    host's button is pressed once per step: a second press would act on the next."""
    for _ in range(STEP_LIMIT):
        if reached():
            return
        before = shown_version(tv)
        acted = act_once(tv, phones)
        if acted == "host":
            wait_for_next_step(tv, before)
        elif acted == "phone":
            wait_for_next_step(tv, before, ready=lambda: phone_can_act(tv, phones))
        else:   # a night step waits for its clock, or a phone's update with its choice is late
            wait_for_next_step(tv, before, ready=lambda: can_act(tv, phones))
    pytest.fail(f"not reached after {STEP_LIMIT} steps")


# An 8 s night step takes 0.8 s, a 60 s deadline 6 s: time for a phone to answer on a machine
# that also runs the rest of the suite (the doctor's choice must come from his phone).
@pytest.mark.clock_scale(0.1)
@pytest.mark.moments             # each result's moment (engines/moments.py) 0.8 s: the game goes on after it
def test_tv_and_seven_phones_play_the_polish_edition_with_the_doctor(live_daphne, browser, output_dir):
    tv, join_url = open_tv(browser, live_daphne.url, size=STAGE_SIZES[0])
    tvs = [tv, stage_twin(tv)]   # the host's TV at 1920×1080 and at 1280×720 (check_stages)
    phones = [join_phone(browser, join_url, name, width=360) for name in NAMES]
    expect(tv.locator("#tv-players .online")).to_have_count(7)
    tv.select_option("#tv-settings select[name=ruleset]", "mafia_pl")
    expect(tv.locator("#tv-main .lobby h2")).to_have_text("Mafia (Polish)")
    tv.check("input[name=opt-doctor]")
    expect(tv.locator("#tv-main .options")).to_contain_text("Doctor")
    check_stages(tvs, "classic-lobby", output_dir)
    watch = StageWatch(tvs, output_dir, "classic")
    tv.click("#tv-host button.start")
    for phone in phones:
        expect(phone.locator("#ph-role .role-name")).to_have_count(1)
    roles = [phone.locator("#ph-role .role-name").inner_text() for phone in phones]
    assert sorted(roles) == ["Agent", "Doctor", "Gangster"] + ["Policeman"] * 4
    agent, doctor = phones[roles.index("Agent")], phones[roles.index("Doctor")]
    # The agent's step lasts 6 s at this scale: it begins paused (the briefing's last tap and the
    # host's Pause at once), so what it shows is checked with no race against its clock.
    seeing_last = [p for p in phones if p is not agent] + [agent]
    see_roles_paused(tv, seeing_last, [*tvs, *phones])

    # The first night: only the agent's phone can act; every living phone shows the same night
    # screen with a name for each player and one quieter button (issue 14) — on the others,
    # buttons that send nothing.
    expect(tv.locator("#tv-main h2.phase")).to_have_text("Night · The agent is awake")
    expect(agent.locator("#ph-panel form[ws-send].target-choice button")).to_have_count(6)
    for phone in phones:
        expect(phone.locator("#ph-panel h2")).to_contain_text("Night")
        expect(phone.locator("#ph-panel form.target-choice button")).to_have_count(7)
        expect(phone.locator("#ph-panel form.skip button")).to_have_count(1)
        if phone is not agent:
            expect(phone.locator("#ph-panel form[ws-send]")).to_have_count(0)
    expect(tv.locator("#tv-main .countdown")).to_have_count(1)
    phones[1].screenshot(path=str(output_dir / "phone-night.png"))
    tv.locator(".paused-banner").evaluate("el => { el.style.visibility = 'hidden'; }")   # the picture without it
    tv.screenshot(path=str(output_dir / "tv-night.png"))
    tv.click("#tv-host button.resume")
    expect(tv.locator(".paused-banner")).to_have_count(0)

    saw = set()

    def over() -> bool:
        """Also checks each phase's stage, and what stays on the screens once it happened (a
        player out, the last vote); the phases themselves are read from the game's log below."""
        watch.see()
        if tv.locator("#tv-main .result").count():
            return True
        if "banner" not in saw and any(p.locator("#ph-panel .ghost-banner").count() for p in phones):
            saw.add("banner")   # a player out: "stay silent", and the ghost view (on by default)
            dead = next(p for p in phones if p.locator("#ph-panel .ghost-banner").count())
            expect(dead.locator("#ph-panel details.ghost")).to_have_count(1)
        if tv.locator("#tv-main .last-vote").count() and "votes" not in saw:
            saw.add("votes")
            tv.screenshot(path=str(output_dir / "tv-votes.png"))
        return False

    play_until(tv, phones, over)

    # What the table went through, as the server decided it (the game's log): each night step
    # (the doctor's and the gang's last 0.8 s once their players acted: no screen need catch
    # them), the doctor's own choice from his phone, a discussion the host ended and a vote.
    log = game_events(join_url)
    steps = {data["step"] for kind, data in log if kind == "night_step_ended"}
    kinds = {kind for kind, _data in log}
    assert {"agent", "doctor", "mafia"} <= steps, steps
    assert kinds & {"healed", "heal_skipped"}, "the doctor's phone never chose"
    assert {"discussion_ended", "vote_cast", "votes_revealed"} <= kinds, kinds
    assert {"votes", "banner"} <= saw, saw
    expect(tv.locator("#tv-main .result h2")).to_contain_text(re.compile("win!"))
    expect(tv.locator("#tv-main .reveal li")).to_have_count(7)
    expect(tv.locator("#tv-main .result")).to_contain_text("The doctor's heals")
    assert all("You won!" in p.locator("#ph-panel h2").inner_text() or "You lost." in p.locator("#ph-panel h2")
               .inner_text() for p in phones)
    tv.screenshot(path=str(output_dir / "tv-end.png"))
    phones[0].screenshot(path=str(output_dir / "phone-end.png"))
    print(f"night steps: {sorted(steps)}; seen: {sorted(saw)}")


@pytest.mark.clock_scale(0.2)   # the gang has 24 s (120 s scaled) to agree
def test_a_gangster_can_change_his_pick_after_tapping_the_same_name_twice(live_daphne, browser):
    """A tap that changes nothing on its own screen (the same pick again) must not leave the
    phone's buttons disabled: the answer to every tap frees them (static/app.js)."""
    tv, join_url = open_tv(browser, live_daphne.url)
    names = NAMES + ["Heidi"]
    phones = [join_phone(browser, join_url, name, width=360) for name in names]
    tv.select_option("#tv-settings select[name=ruleset]", "mafia_pl")
    expect(tv.locator("#tv-main .lobby h2")).to_have_text("Mafia (Polish)")
    tv.click("#tv-settings details.advanced summary")   # the clocks are folded under "Advanced"
    tv.select_option("select[name=opt-deadline_seconds]", "120")
    expect(tv.locator("#tv-main .options")).to_contain_text("120 s")
    roles = start_game(tv, phones)
    agent = phones[roles.index("Agent")]
    agent.locator("#ph-panel form[ws-send].target-choice button").first.click()   # the agent's step ends sooner
    gangster = phones[roles.index("Gangster")]
    buttons = gangster.locator("#ph-panel form[ws-send].target-choice button")
    expect(buttons.first).to_be_visible()
    first, second = buttons.nth(0).inner_text(), buttons.nth(1).inner_text()
    buttons.nth(0).click()
    expect(gangster.locator("#ph-panel .night-note")).to_contain_text(f"→ {first}")
    buttons.nth(0).click()   # the same name again: nothing changes on the screen
    expect(buttons.nth(0)).to_be_enabled()   # yet the tapped button is free again
    buttons.nth(1).click()
    expect(gangster.locator("#ph-panel .night-note")).to_contain_text(f"→ {second}")
    buttons.nth(0).click()   # and back to the first name
    expect(gangster.locator("#ph-panel .night-note")).to_contain_text(f"→ {first}")
