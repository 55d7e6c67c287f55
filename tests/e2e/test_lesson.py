""""How to play" on a TV and a phone (issue 16): the host steps through the lesson of Mafie
(with the Plot Thickens: its longest), of Mrakošlapi (the most cards) and of the Polish Mafia
with every extra role (the longest night, the most options) on a 1920×1080 and a 1280×720 TV,
each slide a stage (``check_stage``), while a 360 px phone reads along."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import STAGE_SIZES, check_stages, join_phone, needs_chromium, open_tv, stage_twin

pytestmark = [needs_chromium]

def step_through(tv, small, phone, slug: str, output_dir, lobby: str = "You're in", tag: str = "") -> int:
    """Start the lesson, check every slide on both TVs and the phone, Next to the last, Done."""
    tv.click("#tv-host .lesson-offer button")
    count = None
    index = 0
    while True:
        for page in (tv, small):   # the server's slide, on both TVs
            expect(page.locator("#tv-main")).to_have_attribute("data-lesson", f"{slug}:{index}")
        place = tv.locator("#tv-host .lesson-place").inner_text()
        count = int(place.split("/")[1])
        assert place.strip() == f"{index + 1} / {count}"
        expect(phone.locator("#ph-panel .lesson-place")).to_contain_text(f"{index + 1} / {count}")
        title = tv.locator("#tv-narration .main-line").inner_text()
        expect(phone.locator("#ph-panel .lesson-title")).to_have_text(title)
        check_stages([tv, small], f"lesson-{tag}{slug}-{index + 1}", output_dir)
        if index in (0, count - 1):   # the TVs' shots are check_stages'
            phone.screenshot(path=str(output_dir / f"phone-{tag}{slug}-{index + 1}.png"), full_page=True)
        if index == count - 1:
            break
        tv.click("#tv-host button[value=lesson_next]")
        index += 1
    tv.click("#tv-host button[value=lesson_back]")
    expect(small.locator("#tv-main")).to_have_attribute("data-lesson", f"{slug}:{count - 2}")
    tv.click("#tv-host button[value=lesson_next]")
    expect(tv.locator("#tv-main")).to_have_attribute("data-lesson", f"{slug}:{count - 1}")
    tv.click("#tv-host button[value=lesson_end]")   # Done
    expect(small.locator("#tv-main .lesson-slide")).to_have_count(0)
    expect(phone.locator("#ph-panel .lesson-slide")).to_have_count(0)
    expect(phone.locator("#ph-panel")).to_contain_text(lobby)
    return count


def czech_room(browser, base_url: str):
    """A Czech room (its words are longer than English ones): the host's TV and a 360 px phone."""
    tv = browser.new_context(viewport=STAGE_SIZES[0]).new_page()
    tv.goto(base_url + "/")
    tv.select_option("select[name=language]", "cs")
    tv.click("button.primary")
    join_url = tv.locator(".tv-join .url.full").inner_text()
    phone = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True,
                                locale="cs-CZ").new_page()
    phone.goto(join_url)
    phone.fill("input[name=name]", "Anna")
    phone.click("form:has(input[name=name]) button[type=submit]")
    expect(phone.locator("#ph-panel")).to_contain_text("Jsi u stolu")
    return tv, phone


def test_the_longest_lessons_fit_a_tv_in_czech_too(live_daphne, browser, output_dir):
    tv, phone = czech_room(browser, live_daphne.url)
    small = stage_twin(tv)
    tv.check("#tv-settings input[name=opt-plot_cards]")
    expect(small.locator("#tv-settings input[name=opt-plot_cards]")).to_be_checked()
    assert step_through(tv, small, phone, "mafie", output_dir, lobby="Jsi u stolu", tag="cs-") == 8
    tv.select_option("#tv-settings select[name=ruleset]", "mafia_pl")
    for role in ("doctor", "wizard", "judge"):
        tv.check(f"#tv-settings input[name=opt-{role}]")
        expect(small.locator(f"#tv-settings input[name=opt-{role}]")).to_be_checked()
    step_through(tv, small, phone, "mafia_pl", output_dir, lobby="Jsi u stolu", tag="cs-")
    tv.select_option("#tv-settings select[name=ruleset]", "mrakoslapi")
    expect(small.locator("#tv-settings select[name=ruleset]")).to_have_value("mrakoslapi")
    step_through(tv, small, phone, "mrakoslapi", output_dir, lobby="Jsi u stolu", tag="cs-")


def test_the_host_steps_through_how_to_play_on_both_tvs_and_a_phone_reads_along(live_daphne, browser, output_dir):
    tv, join_url = open_tv(browser, live_daphne.url, size=STAGE_SIZES[0])
    small = stage_twin(tv)
    phone = join_phone(browser, join_url, "Ann", width=360)
    expect(tv.locator("#tv-host .lesson-offer.first button.primary")).to_be_visible()   # before a first game
    tv.check("#tv-settings input[name=opt-plot_cards]")
    expect(small.locator("#tv-settings input[name=opt-plot_cards]")).to_be_checked()
    assert step_through(tv, small, phone, "mafie", output_dir) == 8
    tv.select_option("#tv-settings select[name=ruleset]", "mrakoslapi")
    expect(small.locator("#tv-settings select[name=ruleset]")).to_have_value("mrakoslapi")
    assert step_through(tv, small, phone, "mrakoslapi", output_dir) == 8
    tv.select_option("#tv-settings select[name=ruleset]", "mafia_pl")
    for role in ("doctor", "wizard", "judge"):
        tv.check(f"#tv-settings input[name=opt-{role}]")
        expect(small.locator(f"#tv-settings input[name=opt-{role}]")).to_be_checked()
    assert 5 <= step_through(tv, small, phone, "mafia_pl", output_dir) <= 8
