"""Screens never sleep mid-game, also where the Wake Lock API does not exist: a phone on
plain http from a LAN name (not localhost, which browsers treat as secure) plays the app's own
tiny muted video instead."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from mafiagames import services

from .conftest import CHROMIUM, CHROMIUM_ARGS, GuardedBrowser, needs_chromium

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

NAME = "mafia.test"   # resolved to 127.0.0.1 by Chromium itself; nothing leaves the machine

WAKE_VIDEO_PLAYING = """() => {
  const video = document.querySelector('video.wake-video');
  return video !== null && !video.paused && video.currentTime > 0;
}"""
WAKE_VIDEO_ADVANCED = "t => document.querySelector('video.wake-video').currentTime > t"
# What Chromium looks at before it keeps the screen on for a video (blink's VideoWakeLock): it
# plays, has video frames, is a MediaStream (exempt from the minimum size) and is on screen.
WAKE_VIDEO_COUNTS = """() => {
  const video = document.querySelector('video.wake-video');
  const box = video.getBoundingClientRect();
  return {muted: video.muted, stream: video.srcObject instanceof MediaStream,
          videoTracks: video.srcObject.getVideoTracks().length, width: video.videoWidth,
          onScreen: box.width > 0 && box.left >= 0 && box.top >= 0 &&
                    box.right <= innerWidth && box.bottom <= innerHeight};
}"""


@pytest.fixture
def named_browser():
    """Chromium that resolves mafia.test to 127.0.0.1 (else as conftest's ``browser``)."""
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # sync Playwright runs an event loop here
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                      args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {NAME} 127.0.0.1"])
        yield GuardedBrowser(chromium)
        chromium.close()


def test_a_phone_without_the_wake_lock_api_plays_the_fallback_video_after_a_tap(live_daphne, named_browser):
    # A LAN name the server accepts, as it accepts the laptop's own names (settings.ALLOWED_HOSTS).
    live_daphne.env["ALLOWED_HOSTS"] = NAME
    live_daphne.restart()
    room = services.create_room("en")
    phone = named_browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                                      has_touch=True).new_page()
    phone.goto(f"http://{NAME}:{live_daphne.port}/j/{room.code}/")
    phone.fill("input[name=name]", "Ana")
    phone.click("button[type=submit]")
    expect(phone.locator("#ph-panel")).to_contain_text("You're in")   # the page works under that name
    assert phone.evaluate("window.isSecureContext") is False
    assert phone.evaluate("navigator.wakeLock === undefined") is True
    expect(phone.locator("video.wake-video")).to_have_count(0)        # no video before a tap

    phone.tap("#ph-panel")
    phone.wait_for_function(WAKE_VIDEO_PLAYING)
    started = phone.evaluate("document.querySelector('video.wake-video').currentTime")
    phone.wait_for_function(WAKE_VIDEO_ADVANCED, arg=started)
    assert phone.evaluate(WAKE_VIDEO_COUNTS) == {"muted": True, "stream": True, "videoTracks": 1, "width": 2,
                                                 "onScreen": True}
    expect(phone.locator("video.wake-video")).to_have_count(1)        # one, however many taps
