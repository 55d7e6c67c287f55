"""Screens that stay live for hours: server-side socket timeouts and the spoken narration."""

from __future__ import annotations

import pytest
from django.conf import settings
from playwright.sync_api import expect

from mafiagames import services

from .conftest import RECORD_SPEECH, Daphne, needs_chromium, open_tv


def join(browser, url: str, name: str, joined_text: str = "You're in", locale: str = "en-US"):
    phone = browser.new_context(locale=locale).new_page()
    phone.goto(url)
    phone.fill("input[name=name]", name)
    phone.click("form:has(input[name=name]) button[type=submit]")
    expect(phone.locator("#ph-panel")).to_contain_text(joined_text)
    return phone

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

COUNT_OPENS = "window.__opens = 0; document.addEventListener('htmx:wsOpen', () => { window.__opens += 1; });"


def test_tv_reconnects_after_daphne_closes_its_socket_and_still_updates(browser, output_dir):
    """daphne closes sockets after --websocket_timeout with code 1000, which htmx-ext-ws would not
    retry; the page must reconnect by itself and keep showing new players."""
    server = Daphne(settings.DATABASES["default"]["NAME"], output_dir / "daphne.log", websocket_timeout=2)
    server.start()
    try:
        room = services.create_room("en")
        tv = browser.new_page()
        tv.add_init_script(COUNT_OPENS)
        tv.goto(f"{server.url}/r/{room.code}/")
        tv.wait_for_function("() => window.__opens >= 3")  # closed twice, reopened twice
        join(browser, f"{server.url}/j/{room.code}/", "Latecomer")
        expect(tv.locator("#tv-players")).to_contain_text("Latecomer")
    finally:
        server.stop()


def test_tv_reads_the_narration_aloud_once_sound_is_on(live_daphne, browser):
    tv = browser.new_page()
    tv.add_init_script(RECORD_SPEECH)
    tv.goto(live_daphne.url + "/")
    tv.select_option("select[name=language]", "cs")
    tv.click("button[type=submit]")
    toggle = tv.locator("[data-sound-toggle]")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert tv.evaluate("window.__spoken") == []
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    tv.wait_for_function("() => window.__spoken.length === 1")
    assert tv.evaluate("window.__spoken")[0] == ["cs", "Naskenujte kód telefonem a připojte se."]
    code = tv.locator(".tv-join .code").inner_text()
    for name in ["Ana", "Ben", "Cid", "Dan", "Eli"]:
        join(browser, f"{live_daphne.url}/j/{code}/", name, "Jsi u stolu", locale="cs-CZ")
    tv.click("#tv-host button.start")
    tv.wait_for_function("() => window.__spoken.length === 2")
    lang, text = tv.evaluate("window.__spoken")[1]
    assert lang == "cs" and "dvacátá léta" in text.lower()
    # The choice sticks across a reload.
    tv.reload()
    expect(tv.locator("[data-sound-toggle]")).to_have_attribute("aria-pressed", "true")


def test_the_host_settings_stay_put_while_players_join(live_daphne, browser):
    """The host may be mid-choice in a settings list when someone joins: the join brings a new
    seat row, and must leave the settings' elements as they are (a replaced list closes)."""
    tv, join_url = open_tv(browser, live_daphne.url)
    join(browser, join_url, "Ann")
    expect(tv.locator("#tv-host .seating li")).to_have_count(1)
    tv.focus("select[name=ruleset]")
    tv.evaluate("document.querySelector('select[name=ruleset]').dataset.touched = 'yes'")
    join(browser, join_url, "Bob")
    expect(tv.locator("#tv-host .seating li")).to_have_count(2)
    still = tv.evaluate("""() => {
        const select = document.querySelector('select[name=ruleset]');
        return [select.dataset.touched, document.activeElement === select];
    }""")
    assert still == ["yes", True]
    tv.select_option("#tv-settings select[name=ruleset]", "granna")   # a change still reaches the server
    expect(tv.locator("#tv-main .lobby h2")).not_to_have_text("Mafie")
