"""The Content-Security-Policy in a real browser: nothing the app itself does is blocked by it,
and what it is there to block (an injected inline script) is blocked."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from .conftest import join_phone, needs_chromium, open_tv, pick_crew

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]
NAMES = ["Ana", "Ben", "Cid", "Dan", "Eli"]

# Every violation the browser reports, kept in sessionStorage so it survives the page's own
# navigations (home → TV, join → phone).
RECORD_VIOLATIONS = """document.addEventListener('securitypolicyviolation', (e) => {
  const seen = JSON.parse(sessionStorage.getItem('csp') || '[]');
  seen.push(e.effectiveDirective + ' ' + e.blockedURI + ' ' + (e.sample || ''));
  sessionStorage.setItem('csp', JSON.stringify(seen));
});"""

INJECT_INLINE_SCRIPT = """() => {
  const script = document.createElement('script');
  script.textContent = 'window.__inlineRan = true';
  document.head.appendChild(script);   // an allowed inline script runs right here
  return window.__inlineRan === true;
}"""


def violations(page) -> list[str]:
    return json.loads(page.evaluate("sessionStorage.getItem('csp') || '[]'"))


def test_a_game_under_the_policy_reports_no_violation(live_daphne, browser):
    tv, join_url = open_tv(browser, live_daphne.url, init_script=RECORD_VIOLATIONS)
    phones = [join_phone(browser, join_url, name, init_script=RECORD_VIOLATIONS) for name in NAMES]
    tv.click("[data-sound-toggle]")
    expect(tv.locator("#tv-players .online")).to_have_count(5)
    # A few taps: start, everyone ready, the Godfather's crew, everyone votes.
    tv.click("#tv-host button.start")
    expect(tv.locator("#tv-main")).to_contain_text("Detective meeting")
    for phone in phones:
        card = phone.locator("#ph-role [data-hold]")
        card.hover()
        phone.mouse.down()
        expect(card.locator(".secret")).to_be_visible()
        phone.mouse.up()
        phone.click("text=I'm ready")
    expect(tv.locator("#tv-main")).to_contain_text("The Godfather picks a crew")
    pick_crew(tv, phones, NAMES)
    for phone in phones:
        phone.click("#ph-panel button[value=approve]")
        expect(phone.locator("#ph-panel button[value=approve]")).to_have_count(0)
    expect(tv.locator("#tv-main")).to_contain_text("Waiting for")

    for page in [tv, *phones]:
        assert violations(page) == [], page.url

    # The policy is really enforced (and the recorder really records): an injected inline
    # script does not run, and is reported.
    assert tv.evaluate(INJECT_INLINE_SCRIPT) is False
    tv.wait_for_function("() => (sessionStorage.getItem('csp') || '').includes('script-src-elem')")
    assert [v.split()[0] for v in violations(tv)] == ["script-src-elem"]
