"""The Plot Thickens in real browsers: a TV and seven phones play Mafie with plot cards on.

The host switches the expansion on in the lobby; each round the Godfather's phone hands out the
drawn cards (shown face up on the TV), immediate cards are carried out on their holders' phones,
reaction windows ask their holders (who play or pass) and close by themselves after their
minimum time; the Opinion Maker votes first.  Players act as the phones offer: the first plot
button, approve, detectives sabotage.  What a plot card shows reaches one phone only, and the
TV's final reveal lists the plot cards played.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import (STAGE_SIZES, StageWatch, check_stages, stage_twin, catch_up, join_phone, needs_chromium, open_tv, pick_crew, shown_turn, shown_version,
                       start_game, tap_if_there, wait_for_next_step)

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]
NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace"]
STEP_LIMIT = 300   # actions; a 7-player game needs far fewer


CHOICES = ", ".join(f"#ph-panel {c}" for c in (".plot-choice button", "button[value=ready]", "form.pick-team",
                                                 "button[value=approve]", "button[value=fail]"))


def can_act(phones) -> bool:
    return any(phone.locator(CHOICES).count() for phone in phones)


def act_once(tv, phones, roles, on_deal) -> bool:
    """One phone that can act does (as a player would); False if nobody can act now.  Before the
    Godfather hands out drawn cards, ``on_deal()`` looks at the deal: the TV shows it until he has
    handed them all out (it waits for him), so it is awaited there, never hoped for."""
    turn = shown_turn(tv)
    for name, phone in zip(NAMES, phones):
        catch_up(phone, turn)
        panel = phone.locator("#ph-panel")
        if panel.locator(".plot-choice button").count():
            if panel.locator(".plot-drawn").count():
                expect(tv.locator("#tv-main .plot-drawn")).to_have_count(1)
                on_deal()
            tap_if_there(panel.locator(".plot-choice button"))
        elif panel.locator("button[value=ready]").count():
            tap_if_there(panel.locator("button[value=ready]"))
        elif panel.locator("form.pick-team").count():
            pick_crew(tv, phones, NAMES)
        elif panel.locator("button[value=approve]").count():
            tap_if_there(panel.locator("button[value=approve]"))
        elif panel.locator("button[value=fail]").count():
            card = "fail" if roles[NAMES.index(name)] == "Detective" else "success"
            tap_if_there(panel.locator(f"button[value={card}]"))
        else:
            continue
        return True
    return False


@pytest.mark.clock_scale(0.125)   # windows still close by themselves, sooner
def test_tv_and_seven_phones_play_the_plot_thickens_to_a_winner(live_daphne, browser, output_dir):
    tv, join_url = open_tv(browser, live_daphne.url, size=STAGE_SIZES[0])
    tvs = [tv, stage_twin(tv)]   # the host's TV at 1920×1080 and at 1280×720 (check_stages)
    phones = [join_phone(browser, join_url, name, width=360) for name in NAMES]
    expect(tv.locator("#tv-players .online")).to_have_count(7)
    expect(tv.locator("#tv-settings [data-option=plot_distribution]")).to_be_hidden()   # applies with plot cards only
    tv.check("input[name=opt-plot_cards]")   # the host switches the expansion on
    expect(tv.locator("#tv-main .options")).to_contain_text("The Plot Thickens")
    expect(tv.locator("#tv-settings [data-option=plot_distribution]")).to_be_visible()
    check_stages(tvs, "plot-lobby", output_dir)
    watch = StageWatch(tvs, output_dir, "plot")
    roles = start_game(tv, phones)
    assert sorted(roles) == ["Detective"] * 3 + ["Mafioso"] * 4

    saw_deal, saw_window = [], False

    def on_deal():   # the drawn cards, face up on the TV; only the Godfather's phone hands them out
        if not saw_deal:
            tv.screenshot(path=str(output_dir / "tv-deal.png"))
        saw_deal.append([p for p in phones if p.locator("#ph-panel .plot-choice").count()])
        assert len(saw_deal[-1]) == 1

    for _ in range(STEP_LIMIT):
        watch.see()
        if tv.locator("#tv-main .result").count():
            break
        if tv.locator("#tv-main .plot-window").count():
            saw_window = True
        before = shown_version(tv)
        if act_once(tv, phones, roles, on_deal):
            wait_for_next_step(tv, before)
        else:   # a window waits for its minimum time, or a phone's update with its choice is late
            wait_for_next_step(tv, before, ready=lambda: can_act(phones))
    else:
        pytest.fail(f"no winner after {STEP_LIMIT} steps")

    assert saw_deal
    expect(tv.locator("#tv-main .result h2")).to_contain_text(re.compile("win!"))
    expect(tv.locator("#tv-main .reveal li")).to_have_count(7)
    expect(tv.locator("#tv-main .plot-log li").first).to_be_attached()   # the plot cards played
    # ... told in the game's story (mafiagames/story.py), step by step, which has the stage.
    expect(tv.locator("#tv-main .story")).to_be_visible()
    # Whatever a plot card showed is on one phone each (inside its press-and-hold card), and all
    # of it on the TV only now, at the end.
    learnt = [phone.locator("#ph-role .learnt").count() for phone in phones]
    shown_on_tv = tv.locator("#tv-main .result .learnt").count()
    assert shown_on_tv == sum(1 for n in learnt if n)
    tv.screenshot(path=str(output_dir / "tv-end.png"))
    phones[0].screenshot(path=str(output_dir / "phone-end.png"))
    print(f"windows seen: {saw_window}; facts learnt per phone: {learnt}")
