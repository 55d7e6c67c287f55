"""How long until a tap on a phone shows on the TV and on the phone itself (real browsers).

Starts daphne on 127.0.0.1 with a throw-away SQLite database, opens a TV and N phones in
Debian's Chromium, plays crew votes and measures, per vote, the time from the tap until
(a) the voter's phone shows "Your vote is in" and (b) the TV shows the vote counted.
Times are taken inside the pages (performance.timeOrigin + now()), so polling by the test
driver does not add to them.

    .venv/bin/python bench/vote_latency.py [--phones 5] [--votes 60]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, Daphne  # noqa: E402

STAMP_TV = """() => { window.__seen = []; new MutationObserver(() => {
    const t = document.querySelector('#tv-players'); if (!t) return;
    window.__seen.push([performance.timeOrigin + performance.now(), t.querySelectorAll('.badge.ok').length]);
  }).observe(document.body, {subtree: true, childList: true}); }"""
STAMP_PHONE = """() => { window.__seen = []; new MutationObserver(() => {
    const p = document.querySelector('#ph-panel');
    window.__seen.push([performance.timeOrigin + performance.now(), p ? p.textContent.includes('Your vote is in') || !p.querySelector('button[value=approve]') : false]);
  }).observe(document.body, {subtree: true, childList: true});
  document.addEventListener('click', () => { window.__tap = performance.timeOrigin + performance.now(); }, true); }"""


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=5)
    parser.add_argument("--votes", type=int, default=60)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mafiagames.settings")
    import django
    django.setup()
    from django.core.management import call_command
    from playwright.sync_api import expect, sync_playwright

    workdir = Path(tempfile.mkdtemp(prefix="mafiagames-bench-"))
    db = workdir / "db.sqlite3"
    os.environ["DB_PATH"] = str(db)
    from django.conf import settings
    settings.DATABASES["default"]["NAME"] = str(db)
    call_command("migrate", verbosity=0)
    server = Daphne(db, workdir / "daphne.log")
    server.start()
    to_phone, to_tv = [], []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            tv = browser.new_context().new_page()
            tv.goto(server.url + "/")
            tv.click("text=Create a room")
            join = tv.locator(".tv-join .url").inner_text()
            phones = []
            for i in range(args.phones):
                page = browser.new_context().new_page()
                page.goto(join)
                page.fill("input[name=name]", f"P{i}")
                page.click("button[type=submit]")
                expect(page.locator("#ph-panel")).to_contain_text("You're in")
                phones.append(page)
            tv.click("#tv-host button.start")
            for page in phones:
                page.click("text=I'm ready")
            votes = 0
            while votes < args.votes:
                expect(tv.locator("#tv-main")).to_contain_text("The Godfather picks a crew")
                kmotr = phones[int(tv.locator("#tv-main .kmotr strong").inner_text()[1:])]
                expect(kmotr.locator("form.pick-team")).to_be_visible()
                size = int(re.search(r"crew of (\d+)", kmotr.locator("#ph-panel h2").inner_text()).group(1))
                for i in range(size):
                    kmotr.locator("form.pick-team .members input").nth(i).check()
                kmotr.click("text=Call the vote")
                expect(tv.locator("#tv-main")).to_contain_text("votes.")
                tv.evaluate(STAMP_TV)
                for index, page in enumerate(phones):
                    page.evaluate(STAMP_PHONE)
                    page.click("#ph-panel button[value=reject]")
                    expect(page.locator("#ph-panel button[value=reject]")).to_have_count(0)
                    tap = page.evaluate("window.__tap")
                    shown = [t for t, ok in page.evaluate("window.__seen") if ok]
                    to_phone.append(shown[0] - tap)
                    if index < len(phones) - 1:  # the last vote moves the game on instead
                        expect(tv.locator("#tv-players .badge.ok")).to_have_count(index + 1)
                        counted = [t for t, n in tv.evaluate("window.__seen") if n == index + 1]
                        to_tv.append(counted[0] - tap)
                    votes += 1
                if tv.locator("#tv-main .result").count():
                    tv.click("#tv-host button.start")
                    for page in phones:
                        page.click("text=I'm ready")
            browser.close()
    finally:
        server.stop()
    for label, values in (("tap -> own phone shows the vote", to_phone), ("tap -> TV shows it counted", to_tv)):
        print(f"{label}: n={len(values)} p50={statistics.median(values):.1f} ms "
              f"p95={percentile(values, .95):.1f} ms max={max(values):.1f} ms")


if __name__ == "__main__":
    main()
