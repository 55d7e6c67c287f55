"""A real daphne process and Debian's Chromium for browser tests (notes/stack.md §4)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect
from django.conf import settings

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
ROOT = Path(__file__).resolve().parents[2]

# An init script: the page's speech is recorded in window.__spoken as [lang, text] pairs.
RECORD_SPEECH = """window.__spoken = [];
  if (window.speechSynthesis) { window.speechSynthesis.speak = (u) => window.__spoken.push([u.lang, u.text]); }"""

needs_chromium = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian chromium is not installed")


class Daphne:
    """daphne serving the test database on 127.0.0.1; can be restarted mid-game."""

    def __init__(self, db_path: str, log_path: Path, websocket_timeout: int = -1):
        self.websocket_timeout = websocket_timeout
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "DB_PATH": str(db_path), "SECRET_KEY": settings.SECRET_KEY, "DEBUG": "0",
                    "PUBLIC_URL": self.url, "DJANGO_SETTINGS_MODULE": "mafiagames.settings",
                    "STATIC_FROM_SOURCE": "1"}
        self.log = open(log_path, "ab")
        self.process = None

    def start(self):
        # As `make run` does: sockets from before a restart are gone, so nobody is connected yet.
        subprocess.run([sys.executable, "manage.py", "clear_presence"], cwd=ROOT, env=self.env, check=True)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), "--websocket_timeout", str(self.websocket_timeout),
             "mafiagames.asgi:application"], cwd=ROOT, env=self.env, stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # poll until it answers; no fixed sleeps
            if self.process.poll() is not None:
                raise RuntimeError("daphne exited during start-up")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("daphne did not answer /healthz within 30 s")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def restart(self):
        self.stop()
        self.start()


@pytest.fixture
def live_daphne(transactional_db, output_dir, request):
    """daphne on the test database; ``@pytest.mark.clock_scale("0.1")`` shortens its game timers,
    ``@pytest.mark.extra_rulesets("tests.tiny")`` hosts rulesets kept in folders of their own."""
    server = Daphne(settings.DATABASES["default"]["NAME"], output_dir / "daphne.log")
    marker = request.node.get_closest_marker("clock_scale")
    if marker is not None:
        server.env["CLOCK_SCALE"] = str(marker.args[0])
    extra = request.node.get_closest_marker("extra_rulesets")
    if extra is not None:
        server.env["EXTRA_RULESETS"] = ",".join(extra.args)
    server.start()
    yield server
    server.stop()
    server.log.close()


# Playwright's default waits (5 s for expect, 30 s for actions) are budgets a busy machine can
# exceed: CI may share its cores.  Every wait in these tests is for something the server decides
# (a version, a text, its clock), so the only limit is a guard against a real hang.
HANG_GUARD = 300   # seconds
expect.set_options(timeout=HANG_GUARD * 1000)


class GuardedBrowser:
    """Chromium whose pages wait as long as ``HANG_GUARD`` for what they are told to wait for."""

    def __init__(self, browser):
        self._browser = browser

    def new_context(self, **kwargs):
        context = self._browser.new_context(**kwargs)
        context.set_default_timeout(HANG_GUARD * 1000)
        return context

    def new_page(self, **kwargs):
        return self.new_context(**kwargs).new_page()

    def __getattr__(self, name):
        return getattr(self._browser, name)


@pytest.fixture
def browser():
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # sync Playwright runs an event loop here
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield GuardedBrowser(chromium)
        chromium.close()


def open_tv(browser, base_url: str, init_script: str | None = None):
    """The host's TV browser creates an English room; returns the page and the join URL it shows."""
    tv = browser.new_context(viewport={"width": 1600, "height": 900}).new_page()
    if init_script:
        tv.add_init_script(init_script)
    tv.goto(base_url + "/")
    tv.select_option("select[name=language]", "en")
    tv.click("text=Create a room")
    return tv, tv.locator(".tv-join .url").inner_text()


def join_phone(browser, url: str, name: str, width: int = 375, init_script: str | None = None):
    """A phone in its own browser context follows the join URL and takes a seat as ``name``."""
    phone = browser.new_context(viewport={"width": width, "height": 740}, is_mobile=True, has_touch=True).new_page()
    if init_script:
        phone.add_init_script(init_script)
    phone.goto(url)
    phone.fill("input[name=name]", name)
    phone.click("button[type=submit]")
    expect(phone.locator("#ph-panel")).to_contain_text("You're in")
    return phone


def start_game(tv, phones) -> list[str]:
    """The host starts the game on the TV and every phone confirms it has seen its role (the
    briefing, engines/briefing.py); the role each phone was dealt, as its card names it."""
    tv.click("#tv-host button.start")
    roles = []
    for phone in phones:
        expect(phone.locator("#ph-role .role-name")).to_have_count(1)
        roles.append(phone.locator("#ph-role .role-name").inner_text())
    see_roles(tv, phones)
    return roles


def see_roles(tv, phones) -> None:
    """Every phone taps "I have seen my role"; the TV's briefing is over (its clock may run)."""
    for phone in phones:
        phone.click("#ph-panel form.seen-role button")
    expect(tv.locator("#tv-main .briefing-banner")).to_have_count(0)


def pick_crew(tv, phones, names) -> int:
    """The Godfather named on the TV ticks the first seats of a crew of the size his phone asks
    for and calls the vote; returns the crew size."""
    kmotr = phones[names.index(tv.locator("#tv-main .kmotr strong").inner_text())]
    expect(kmotr.locator("form.pick-team")).to_be_visible()
    size = int(re.search(r"crew of (\d+)", kmotr.locator("#ph-panel h2").inner_text()).group(1))
    boxes = kmotr.locator("form.pick-team .members input[type=checkbox]")
    for i in range(size):
        boxes.nth(i).check()
    kmotr.click("text=Call the vote")
    return size


def shown_version(page) -> int:
    """The room version a screen shows (#sv, sent with every update); -1 before the first."""
    marker = page.locator("#sv")
    return int(marker.get_attribute("data-v")) if marker.count() else -1


def shown_turn(tv) -> int:
    """The game turn the TV shows (its narration is keyed by game and turn)."""
    return int(tv.locator("#tv-narration").get_attribute("data-speak-key").split(":")[1])


def catch_up(phone, turn: int) -> None:
    """Wait until no form on the phone is older than ``turn``: the phone's update may still be on
    its way, and a tap from an older screen is refused as stale — then nothing would follow."""
    phone.wait_for_function(
        "t => [...document.querySelectorAll('#ph-panel input[name=turn]')].every(i => +i.value >= t)", arg=turn)


# Page predicates are functions ("() => …", "v => …"), never bare expressions: Playwright polls a
# bare expression with eval() inside the page, which the Content-Security-Policy refuses.
NEWER_VERSION = "v => { const m = document.querySelector('#sv'); return m && +m.dataset.v > v; }"


def wait_for_next_step(tv, before: int, ready=lambda: False) -> None:
    """Wait until the TV shows a room version after ``before``, or ``ready()`` says a phone can
    act now.  The server decides when: its clock closes a window or a night step, and on a busy
    machine a phone's own update (the choice it is waiting for) may reach it only after the TV
    asked the table.  No budget that load can exceed — only ``HANG_GUARD`` for a real hang."""
    end = time.monotonic() + HANG_GUARD
    while shown_version(tv) <= before and not ready():
        if time.monotonic() > end:
            pytest.fail(f"nothing happened for {HANG_GUARD} s after room version {before}")
        try:
            tv.wait_for_function(NEWER_VERSION, arg=before, timeout=500)
        except PlaywrightTimeout:
            pass   # look at the phones again
