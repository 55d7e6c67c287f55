"""A real daphne process and Debian's Chromium for browser tests (docs/design.md §9.4)."""

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
from playwright.sync_api import Error as PlaywrightError
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

    def __init__(self, db_path: str, log_path: Path, websocket_timeout: int = -1, flags: tuple[str, ...] = ()):
        self.websocket_timeout = websocket_timeout
        self.flags = list(flags)   # more daphne options (tests/e2e/test_client_address.py: `make run`'s)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "DB_PATH": str(db_path), "SECRET_KEY": settings.SECRET_KEY, "DEBUG": "0",
                    "PUBLIC_URL": self.url, "DJANGO_SETTINGS_MODULE": "mafiagames.settings",
                    "STATIC_FROM_SOURCE": "1", "MOMENTS": "0"}
        self.log = open(log_path, "ab")
        self.process = None

    def start(self):
        # As `make run` does: sockets from before a restart are gone, so nobody is connected yet.
        subprocess.run([sys.executable, "manage.py", "clear_presence"], cwd=ROOT, env=self.env, check=True)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), "--websocket_timeout", str(self.websocket_timeout),
             *self.flags, "mafiagames.asgi:application"], cwd=ROOT, env=self.env, stdout=self.log, stderr=self.log)
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
    ``@pytest.mark.moments`` gives its games moments (engines/moments.py; off otherwise),
    ``@pytest.mark.extra_rulesets("tests.tiny")`` hosts rulesets kept in folders of their own,
    ``@pytest.mark.bot_seconds(0.2)`` makes its bot seats move sooner (settings.BOT_SECONDS)."""
    server = Daphne(settings.DATABASES["default"]["NAME"], output_dir / "daphne.log")
    marker = request.node.get_closest_marker("clock_scale")
    if marker is not None:
        server.env["CLOCK_SCALE"] = str(marker.args[0])
    if request.node.get_closest_marker("moments") is not None:
        server.env["MOMENTS"] = "1"
    bots = request.node.get_closest_marker("bot_seconds")
    if bots is not None:
        server.env["BOT_SECONDS"] = str(bots.args[0])
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


def open_tv(browser, base_url: str, init_script: str | None = None, size: dict | None = None):
    """The host's TV browser creates an English room; returns the page and the join URL it shows."""
    tv = browser.new_context(viewport=size or {"width": 1600, "height": 900}).new_page()
    if init_script:
        tv.add_init_script(init_script)
    tv.goto(base_url + "/")
    tv.select_option("select[name=language]", "en")
    tv.click("text=Create a room")
    return tv, tv.locator(".tv-join .url.full").inner_text()


def join_phone(browser, url: str, name: str, width: int = 375, init_script: str | None = None,
               welcome: tuple[str, str] = ("#ph-panel", "You're in"), locale: str = "en-US"):
    """A phone in its own browser context follows the join URL and takes a seat as ``name``;
    ``welcome``: where it then says what (during a game a newcomer watches: issue 16).  The
    browser prefers ``locale``: the phone's language (issue 17) comes from it."""
    phone = browser.new_context(viewport={"width": width, "height": 740}, is_mobile=True, has_touch=True,
                                locale=locale).new_page()
    if init_script:
        phone.add_init_script(init_script)
    phone.goto(url)
    phone.fill("input[name=name]", name)
    phone.click("form:has(input[name=name]) button[type=submit]")
    expect(phone.locator(welcome[0])).to_contain_text(welcome[1])
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


def see_roles_paused(tv, phones, pages) -> None:
    """``see_roles``, but the game's first timed step begins paused, so its screens can be checked
    for as long as that takes (a clock of a fraction of a second under ``clock_scale``: no race).
    Every phone but the last taps "I have seen my role"; once the server has taken each tap, the
    last phone's and the host's Pause are made here, in one transaction: the clock starts with
    the game already paused.  This process's changes ping no open screen (each process pings its
    own), so every page in ``pages`` (the TVs and phones) reloads.  The host's Resume (on the TV,
    ``#tv-host button.resume``) then lets the clock run."""
    from django.db import transaction

    from mafiagames import services
    from mafiagames.models import Game, Room

    for phone in phones[:-1]:
        phone.click("#ph-panel form.seen-role button")
    for phone in phones[:-1]:   # taken by the server: its answer has no "seen" to ask for
        expect(phone.locator("#ph-panel form.seen-role")).to_have_count(0)
    last = phones[-1]
    room = Room.objects.get(code=room_code(last.url))
    name = last.locator("#ph-head .me").inner_text()
    with transaction.atomic():
        game = Game.objects.running().get(room=room)
        player = room.players.get(name=name)
        services.submit(game.pk, game.seat_of(player.pk), {"type": "seen_role"})
        services.pause_game(room)
    for page in pages:
        page.reload()
    expect(tv.locator("#tv-main .briefing-banner")).to_have_count(0)
    expect(tv.locator(".paused-banner")).to_have_count(1)


def game_events(url: str) -> list[tuple[str, dict]]:
    """The log of the (latest) game of the room at ``url`` (a join, phone or TV address), as the
    server wrote it: (kind, data) per event, in order.  Tests share the live server's database."""
    from mafiagames.models import Event, Game

    game = Game.objects.filter(room__code=room_code(url)).order_by("-pk").first()
    return [(kind, data) for kind, data in Event.objects.filter(game=game).order_by("seq").values_list("kind", "data")]


def server_side(url: str) -> str:
    """What the server holds for the room at ``url`` when a test waited in vain: its version, the
    game's phase, whom it waits for, its clock and pause, the last events — so a hang that one
    loaded run turns up says what it was stuck on."""
    from engines import registry
    from mafiagames.models import Event, Game, Room

    room = Room.objects.filter(code=room_code(url)).first()
    game = Game.objects.filter(room=room).order_by("-pk").first()
    if game is None:
        return f"room {room and room.version}: no game"
    state = game.state
    last = list(Event.objects.filter(game=game).order_by("-seq").values_list("seq", "kind", "data")[:5])
    return (f"room version {room.version}, game {game.status} version {game.version}, phase {state.get('phase')!r}, "
            f"waiting for {registry.get(game.ruleset).waiting_for(state)}, clock {state.get('clock')} started "
            f"{game.clock_started}, paused {game.paused_at}; last events {last[::-1]}")


def room_code(url: str) -> str:
    """The room's code in a join, phone or TV address."""
    return re.search(r"/[a-z]/([A-Z]{4})/", url).group(1)


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
    # One read in the page: a count, then a read, could fall between an update's removal of the
    # marker and its new one.
    return page.evaluate("() => { const m = document.querySelector('#sv'); return m ? +m.dataset.v : -1; }")


def shown_turn(tv) -> int:
    """The game turn the TV shows (its narration is keyed by game and turn)."""
    return int(tv.locator("#tv-narration").get_attribute("data-speak-key").split(":")[1])


def catch_up(phone, turn: int) -> None:
    """Wait until no form on the phone is older than ``turn``: the phone's update may still be on
    its way, and a tap from an older screen is refused as stale — then nothing would follow."""
    phone.wait_for_function(
        "t => [...document.querySelectorAll('#ph-panel input[name=turn]')].every(i => +i.value >= t)", arg=turn)


def tap_if_there(locator) -> bool:
    """Tap the first element ``locator`` finds now, as a player taps what his screen shows; False
    if there is none.  The element itself is tapped, not the locator: a screen that moves on
    meanwhile (the server's clock closed the step) detaches it, and the tap then ends at once —
    the caller looks again — instead of waiting for another such button that may never come."""
    handles = locator.element_handles()   # what is there now: no waiting
    if not handles:
        return False
    try:
        handles[0].click()
    except PlaywrightError as gone:
        if "not attached" not in str(gone) and "detached" not in str(gone):
            raise
    return True


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
            pytest.fail(f"nothing happened for {HANG_GUARD} s after room version {before}: {server_side(tv.url)}")
        try:
            tv.wait_for_function(NEWER_VERSION, arg=before, timeout=500)
        except PlaywrightTimeout:
            pass   # look at the phones again


# --- The TV as a stage (issue 16): what a player 3 m away must be able to read ----------------

# The page, measured in the page: no scroll, nothing off screen, the main line and every text a
# player reads large enough, every text's contrast at least 7:1 against what it is drawn on, and
# the join card where it belongs (the host's settings may scroll inside their box while he has
# "Advanced" open: the only exception).  Host-only controls (``.host-only``: settings, seating, door,
# the game's bar) may be smaller, down to HOST_MIN of the height, but keep the contrast.
STAGE_SIZES = ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720})
MAIN_MIN, READ_MIN, HOST_MIN, CONTRAST_MIN = 0.045, 0.025, 0.0175, 7.0

MEASURE_STAGE = """([mainMin, readMin, hostMin, contrastMin]) => {
  const W = innerWidth, H = innerHeight, de = document.documentElement, problems = [];
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\\s+/).join('.') : '') +
    ' "' + (el.textContent || '').trim().slice(0, 40) + '"';
  if (de.scrollWidth > W) problems.push(`page scrolls sideways: ${de.scrollWidth} > ${W}`);
  if (de.scrollHeight > H) problems.push(`page scrolls down: ${de.scrollHeight} > ${H}`);
  const shown = (el) => {   // checkVisibility: also false inside a closed <details> (content-visibility)
    if (!el.getClientRects().length || !el.checkVisibility({contentVisibilityAuto: true, visibilityProperty: true})) return false;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || !(+style.opacity > 0)) return false;
    // Wholly outside the nearest box that hides its overflow (a list that folds what does not
    // fit out of sight: Cosa Nostra's history): not on the stage at all.  Half in is "cut off".
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      const r = el.getBoundingClientRect(), b = a.getBoundingClientRect();
      return r.right > b.left && r.left < b.right && r.bottom > b.top && r.top < b.bottom;
    }
    return true;
  };
  const rgba = (text) => {
    const m = text.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) => [0, 1, 2].map(i => top[i] * top[3] + under[i] * (1 - top[3]));
  const backdrop = (el) => {   // the colour behind el: its own and its ancestors' backgrounds, blended
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let colour = [255, 255, 255];
    for (const layer of layers.reverse()) colour = over(layer, colour);
    return colour;
  };
  const opacity = (el) => { let o = 1; for (let e = el; e; e = e.parentElement) o *= +getComputedStyle(e).opacity; return o; };
  const luminance = (c) => {
    const [r, g, b] = c.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrast = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  let texts = 0;
  for (const el of document.body.querySelectorAll('*')) {
    if (['SCRIPT', 'STYLE', 'TEMPLATE', 'svg', 'path', 'VIDEO'].includes(el.tagName) || el.closest('svg') || !shown(el)) continue;
    const r = el.getBoundingClientRect(), inView = (q) => q.left >= -1 && q.top >= -1 && q.right <= W + 1 && q.bottom <= H + 1;
    // The one box allowed to scroll: the host's settings while he has "Advanced" open (folded,
    // they fit like everything else), if the box itself is on screen.
    const box = el.closest('.host-settings .host-panel');
    const scrolls = box && box.querySelector('details.advanced[open]') && inView(box.getBoundingClientRect());
    if (r.width && r.height && !inView(r) && !scrolls)
      problems.push(`off screen: ${name(el)} at ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)}`);
    // ... nor cut off by a box that hides or scrolls its overflow (its nearest such ancestor);
    // a fixed box (the paused banner) is laid out on the viewport, which no such box clips.
    const fixed = getComputedStyle(el).position === 'fixed';
    for (let a = el.parentElement; a && a !== document.body && r.width && r.height && !scrolls && !fixed; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      const b = a.getBoundingClientRect();
      if (r.left < b.left - 1 || r.top < b.top - 1 || r.right > b.right + 1 || r.bottom > b.bottom + 1)
        problems.push(`cut off: ${name(el)} by ${name(a)}`);
      break;
    }
    // A drawn box (a border or a background) whose content is wider than it spills over its
    // edge into the next one ("Foiled (2 sabotages)" out of a job's box): with visible
    // overflow nothing is "cut off", yet the words run across the line.
    const look = getComputedStyle(el);
    const drawn = parseFloat(look.borderLeftWidth) > 0 || (rgba(look.backgroundColor) || [0, 0, 0, 0])[3] > 0;
    if (drawn && look.display !== 'inline' && look.overflowX === 'visible' && el.scrollWidth > el.clientWidth + 1 &&
        el !== document.body && el !== de)
      problems.push(`spills out of its box: ${name(el)} ${el.scrollWidth}px in ${el.clientWidth}px`);
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()) ||
      (['BUTTON', 'SELECT', 'INPUT'].includes(el.tagName) && el.type !== 'hidden' && el.type !== 'checkbox');
    if (!own || el.closest('.sr-only')) continue;
    texts += 1;
    const style = getComputedStyle(el), size = parseFloat(style.fontSize);
    const host = el.closest('.host-only'), least = (host ? hostMin : readMin) * H;
    if (size < least - 0.5) problems.push(`too small: ${name(el)} ${size}px < ${least.toFixed(1)}px${host ? ' (host)' : ''}`);
    if (el.closest(':disabled')) continue;   // WCAG 1.4.6 exempts inactive controls
    const under = backdrop(el), ink = rgba(style.color), o = opacity(el);
    const seen = over([ink[0], ink[1], ink[2], ink[3] * o], under);
    const ratio = contrast(seen, under);
    if (ratio < contrastMin) problems.push(`low contrast: ${name(el)} ${ratio.toFixed(2)}:1 (${style.color} on rgb(${under.map(Math.round)}))`);
  }
  const main = document.querySelector('.main-line');
  if (!main || !shown(main)) problems.push('no main line (.main-line) shown');
  else if (parseFloat(getComputedStyle(main).fontSize) < mainMin * H - 0.5)
    problems.push(`main line too small: ${getComputedStyle(main).fontSize} < ${(mainMin * H).toFixed(1)}px`);
  const join = document.querySelector('#tv-join'), qr = document.querySelector('#tv-join .qr svg');
  const playing = !!document.querySelector('#tv-main.playing, #tv-main.finished');   // a game on the stage
  if (!join || !qr) problems.push('no join card');
  else {
    const j = join.getBoundingClientRect(), q = qr.getBoundingClientRect();
    if (playing) {   // a small card in a corner
      const corner = (j.left < 0.03 * W || j.right > 0.97 * W) && (j.top < 0.05 * H || j.bottom > 0.95 * H);
      if (!corner) problems.push(`join card not in a corner: ${Math.round(j.left)},${Math.round(j.top)}–${Math.round(j.right)},${Math.round(j.bottom)}`);
      if (j.width * j.height > 0.06 * W * H) problems.push(`join card too big in a game: ${Math.round(j.width)}×${Math.round(j.height)}`);
      if (q.height < 0.08 * H) problems.push(`join card's QR too small to scan: ${Math.round(q.height)}px`);
    } else if (q.height < 0.4 * H) problems.push(`lobby QR not dominant: ${Math.round(q.height)}px < 40% of ${H}`);
    const url = document.querySelector('#tv-join .url');
    if (!playing && url && parseFloat(getComputedStyle(url).fontSize) < 0.035 * H - 0.5)
      problems.push(`join address too small in the lobby: ${getComputedStyle(url).fontSize}`);
  }
  if (!texts) problems.push('no text found');
  return problems;
}"""


def check_stage(page, where: str, output_dir: Path | None = None) -> None:
    """The TV ``page`` as a stage: fails naming every problem found; a screenshot per check
    (``<where>-<width>x<height>.png`` in ``output_dir``).  Call it once the page shows what it
    should (it measures what is on screen now)."""
    size = page.viewport_size
    label = f"{where}-{size['width']}x{size['height']}"
    if output_dir is not None:
        page.screenshot(path=str(Path(output_dir) / f"stage-{re.sub(r'[^a-z0-9-]+', '-', label.lower())}.png"))
    problems = page.evaluate(MEASURE_STAGE, [MAIN_MIN, READ_MIN, HOST_MIN, CONTRAST_MIN])
    assert not problems, f"{label}:\n  " + "\n  ".join(problems)


# Long names for the fullest screens: the longest a table of 21 is likely to type.
LONG_NAMES = ["Alexandra", "Bartholomew", "Christina", "Dominik", "Evangeline", "Ferdinand", "Gwendolyn",
              "Hieronymus", "Isabella", "Jaroslav", *(f"Player {i}" for i in range(11, 22))]


def stage_room(browser, base_url: str, names: list[str]):
    """A host's TV at 1920×1080 and its twin at 1280×720 on a new room that ``names`` joined (no
    phones: the tests write the room's games themselves); (tv, twin, room)."""
    from mafiagames import services
    from mafiagames.models import Room

    tv, url = open_tv(browser, base_url, size=STAGE_SIZES[0])
    twin = stage_twin(tv)
    room = Room.objects.get(code=url.rstrip("/").rsplit("/", 1)[-1])
    for name in names:
        services.join_room(room, name)
    return tv, twin, room


def stage_twin(tv, size: dict | None = None):
    """A second host TV on the same room at the other stage size, sharing the first's cookies
    (the host's): both are checked at every phase change."""
    first = tv.viewport_size
    size = size or next(s for s in STAGE_SIZES if s != first)
    # A context of its own (a window of its own), not a second tab of the TV's: a tab in the
    # background gets an animation frame about once a second, and Playwright waits for two
    # frames before each click ("stable"), so every tap on the first TV would take two seconds.
    context = tv.context.browser.new_context(viewport=size, storage_state=tv.context.storage_state())
    context.set_default_timeout(HANG_GUARD * 1000)
    twin = context.new_page()
    twin.goto(tv.url)
    expect(twin.locator("#sv")).to_have_attribute("data-v", re.compile(r"\d+"))
    return twin


def check_stages(pages, where: str, output_dir: Path | None = None) -> None:
    """``check_stage`` on each TV once it shows the room version the first one shows."""
    version = shown_version(pages[0])
    for page in pages:
        page.wait_for_function("v => { const m = document.querySelector('#sv'); return m && +m.dataset.v >= v; }",
                               arg=version)
    for page in pages:
        check_stage(page, where, output_dir)


class StageWatch:
    """``check_stages`` once per phase a game shows: ``see()`` after each step checks both TVs
    when the phase heading (or the result) differs from the last one checked."""

    def __init__(self, tvs, output_dir: Path, name: str):
        self.tvs, self.output_dir, self.name, self.seen = tvs, output_dir, name, set()

    def see(self) -> None:
        tv = self.tvs[0]
        # Read without waiting: the heading counted a moment ago may be gone (the screen moved on),
        # and a waiting read would sit out the whole hang guard for it.
        phase = (tv.locator("#tv-main h2").all_inner_texts() or ["lobby"])[0]
        phase = re.sub(r"\d+", "n", phase)   # round n: one check per kind of phase
        if phase not in self.seen:
            self.seen.add(phase)
            check_stages(self.tvs, f"{self.name}-{len(self.seen):02d}-{phase[:24]}", self.output_dir)
