"""Cosa Nostra in real browsers (issue 19): a TV, two phones and a bot family play a short game
(``max_rounds`` 10) to its end.

The host picks Cosa Nostra and the short game on the TV and fills the third seat with a bot
(services.add_bot).  The two people play their turns by tapping their phones: they choose their
gate and starting tiles, roll, choose where to stop, answer what a square offers, buy a tile on
the phone's map of the city, hire a picciotto, and end the turn; once, Ann offers Bob a deal on
her phone and Bob accepts it on his.  The bot plays its own turns, paced by the server
(timers.py) through the same writer as a phone.  The TV is checked as a stage (1920×1080 and
1280×720) at the board mid-game and at the end; the end screen names the winner on the TV and on
both phones.  Screenshots (TV board at both sizes, a phone during the deal) are kept in the
test's folder and copied to ``CN_SHOTS`` (default /tmp/cn-shots) for a person to look at.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from .conftest import (HANG_GUARD, NEWER_VERSION, STAGE_SIZES, check_stages, join_phone, needs_chromium, open_tv,
                       shown_version, stage_twin, tap_if_there)

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]
NAMES = ["Ann", "Bob"]
# Where to copy the screenshots for a person to look at (besides the test's own folder), if set.
SHOTS = os.environ.get("CN_SHOTS")

PANEL = "#ph-panel"
LIVE_CELL = f"{PANEL} .cn-map form.cn-cell.live button"


class Human:
    """One person's phone and what they have done this game (the script's memory)."""

    def __init__(self, name: str, page):
        self.name, self.page = name, page
        self.hired = 0
        self.taps: list[str] = []

    def find(self, selector: str, text: str | None = None):
        """The first such element, if any; a button only while enabled (a tap in flight
        disables its form's buttons until the answer comes: app.js)."""
        if selector.endswith("button"):
            selector += ":not([disabled])"
        found = self.page.locator(selector, has_text=text) if text else self.page.locator(selector)
        return found.first if found.count() else None

    def tap(self, button, what: str) -> None:
        """Tap ``button`` and wait until this phone shows a newer room version, or a refusal in
        #flash: a stale screen's (the bot moved first) is fine, any other fails the test."""
        before = shown_version(self.page)
        self.taps.append(what)
        # The flash shown now is an older answer's: only a new one (a new element) answers this tap.
        self.page.evaluate("() => { const f = document.getElementById('flash'); if (f) f.dataset.old = '1'; }")
        if not tap_if_there(button):
            return   # gone since it was found: the screen moved on, and the loop looks again
        self.page.wait_for_function(
            "v => { const m = document.querySelector('#sv'); const f = document.querySelector('#flash.error');"
            " return (m && +m.dataset.v > v) || (f && !f.dataset.old && f.textContent.trim()); }", arg=before)
        # Read without waiting (a newer update may replace the answer meanwhile).
        refusal = " ".join(self.page.locator("#flash.error:not([data-old])").all_inner_texts()).strip()
        # A tap made as the bot moved is stale: the phone is refreshed and the loop looks again.
        assert not refusal or "out of date" in refusal, f"{self.name}: {what} refused: {refusal}"


def cash(page) -> int:
    """The family's cash as its phone's family card shows it ("5 000 D")."""
    return int(re.sub(r"\D", "", page.locator("#ph-role .cn-stats strong").first.inner_text()) or 0)


def step(human: Human, game: dict) -> bool:
    """The one tap this phone's panel asks for now, if any (True if it tapped)."""
    page = human.page
    seen = human.find(f"{PANEL} form.seen-role button")
    if seen is not None:   # the briefing every game opens with (engines/briefing.py)
        human.tap(seen, "I have seen my role")
        return True
    if not page.locator(f"{PANEL} .cn-panel").count():
        return False
    trade = human.find(f"{PANEL} .cn-trade")
    if trade is not None:
        accept = human.find(f"{PANEL} .cn-trade .cn-btn button", "Accept")
        if accept is not None:   # the deal reached this phone: Bob reads it, then accepts
            game["trade_seen"] = True
            expect(trade).to_contain_text("100")
            page.screenshot(path=str(game["shots"] / "e2e-phone-360-deal-bob.png"), full_page=True)
            game["proposer"].screenshot(path=str(game["shots"] / "e2e-phone-360-deal-ann.png"), full_page=True)
            human.tap(accept, "accept the deal")
            expect(game["tv"].locator("#tv-main")).to_contain_text("Deal: Ann (Blue) gives 100 D")   # told to all
            return True
        return False             # our own offer waits for the other phone's answer
    # Read without waiting: the panel may have gone since it was counted (the game ended, the
    # screen moved on), and a waiting read would sit out the whole hang guard for it.
    if "Your move" not in " ".join(page.locator(f"{PANEL} .cn-panel h2").all_inner_texts()):
        return False
    gate = human.find(f"{PANEL} .cn-btn.gate button")
    if gate is not None:
        human.tap(gate, "choose a gate")
        return True
    roll = human.find(f"{PANEL} .cn-btn button", "Roll the die")
    if roll is not None:
        human.tap(roll, "roll")
        return True
    stop = human.find(f"{PANEL} .cn-stops button")
    if stop is not None:
        stops = page.locator(f"{PANEL} .cn-stops button")
        human.tap(stops.nth(stops.count() - 1), "choose where to stop")   # as far as the die allows
        return True
    no = human.find(f"{PANEL} .cn-btn button", "No, thanks")
    if no is not None:
        human.tap(no, "decline an offer")
        return True
    pick = human.find(f"{PANEL} .cn-panel > .cn-row .cn-btn button")
    in_action = human.find(f"{PANEL} .cn-end .cn-btn button", "End turn")
    if in_action is None:
        # Setup's starting tiles, a black card's choice, a liquidation: the first choice offered.
        cell = human.find(LIVE_CELL)
        target = cell or pick or human.find(f"{PANEL} .cn-btn button")
        if target is not None:
            human.tap(target, "a choice")
            return True
        return False
    hire = human.find(f"{PANEL} .cn-btn button", "Hire a picciotto")
    if hire is not None and human.name == "Bob" and not human.hired and cash(page) >= 2000:
        human.hired += 1   # Bob's first turn: a picciotto at his gate (rules §7)
        human.tap(hire, "hire a picciotto")
        return True
    cell = human.find(f"{PANEL} details[data-keep-open=cn-buy] form.cn-cell.live button")
    if cell is not None and cash(page) >= 3000:   # a tile whenever the cash allows
        human.tap(cell, "buy a tile")
        return True
    if human.name == "Ann" and not game["trade_sent"] and game["rounds_seen"] >= 2 and cash(page) >= 100:
        offer_deal(human, game)
        return True
    human.tap(in_action, "end the turn")
    return True


def settle(tv, version: int) -> None:
    """Wait for the TV's next room version, half a second at most: then the phones are looked
    at again (what a phone waits for may be its own update, which the TV does not show)."""
    try:
        tv.wait_for_function(NEWER_VERSION, arg=version, timeout=500)
    except PlaywrightTimeout:
        pass


def offer_deal(ann: Human, game: dict) -> None:
    """Ann's deal (rules §13): 100 D to Bob for nothing, composed on her phone."""
    page = ann.page
    page.locator(f"{PANEL} details.cn-fold > summary", has_text="Deal").click()
    form = page.locator(f"{PANEL} form.cn-deal").first
    partner = form.locator("select[name=to]")
    if partner.count():   # the bot's family is a partner too: Bob's
        partner.select_option(partner.locator("option", has_text="Bob").get_attribute("value"))
    form.locator("input[name=give_cash]").fill("100")
    game["trade_sent"] = True
    ann.tap(form.locator("button[type=submit]"), "offer a deal")
    expect(page.locator(f"{PANEL} .cn-trade h3")).to_contain_text("Your offer")


@pytest.mark.bot_seconds(0.05)
def test_two_phones_and_a_bot_play_a_short_game_of_cosa_nostra_to_its_end(live_daphne, browser, output_dir, tmp_path):
    shots = tmp_path / "shots"
    shots.mkdir()
    tv, join_url = open_tv(browser, live_daphne.url, size=STAGE_SIZES[0])
    tvs = [tv, stage_twin(tv)]
    phones = [join_phone(browser, join_url, name, width=360) for name in NAMES]
    tv.select_option("#tv-settings select[name=ruleset]", "cosanostra")
    expect(tv.locator("#tv-main .lobby h2")).to_contain_text("Cosa Nostra")
    tv.select_option("#tv-settings select[name=opt-max_rounds]", "10")
    expect(tv.locator("#tv-settings select[name=opt-max_rounds]")).to_have_value("10")
    tv.click("#tv-host form.add-bot button")
    expect(tv.locator("#tv-players li", has_text="Bot 1").locator(".bot-mark")).to_have_count(1)
    expect(tv.locator("#tv-host form.add-bot")).to_have_count(1)      # a fourth family may still come
    check_stages(tvs, "cosanostra-lobby", output_dir)

    tv.click("#tv-host button.start")
    humans = [Human(name, page) for name, page in zip(NAMES, phones)]
    game = {"shots": shots, "trade_sent": False, "trade_seen": False, "rounds_seen": 0, "board_shot": False,
            "proposer": phones[0], "tv": tv}
    result = tv.locator("#tv-main .result h2")
    deadline = time.monotonic() + HANG_GUARD
    while not result.count():
        assert time.monotonic() < deadline, f"no end after {HANG_GUARD} s: {tv.locator('#tv-main').inner_text()}"
        version = shown_version(tv)
        tapped = any(step(human, game) for human in humans)
        round_text = tv.locator("#tv-main").inner_text()
        game["bot_rolled"] = game.get("bot_rolled") or "Bot 1 (Yellow) rolls" in round_text   # its own turns
        rounds = [int(n) for n in re.findall(r"Round (\d+)", round_text)]
        game["rounds_seen"] = max([game["rounds_seen"], *rounds])
        if not game["board_shot"] and game["rounds_seen"] >= 3:
            game["board_shot"] = True
            check_stages(tvs, "cosanostra-board", output_dir)
            for page in tvs:
                size = page.viewport_size
                page.screenshot(path=str(shots / f"e2e-tv-{size['width']}x{size['height']}-board.png"))
        if not tapped and not result.count():
            settle(tv, version)    # the bot's move, the server's clock, or a phone's own update

    # The end: the winner on the TV and on both phones.
    winner = result.inner_text()
    assert re.search(r"\bwins?\b|\bwin\b", winner), winner
    for page in tvs:
        size = page.viewport_size
        page.screenshot(path=str(shots / f"e2e-tv-{size['width']}x{size['height']}-end.png"))
    check_stages(tvs, "cosanostra-end", output_dir)
    won = winner.split(" (")[0]      # "Ann (Blue) wins!": the winner's name
    assert won in (*NAMES, "Bot 1"), winner
    for human in humans:
        expect(human.page.locator(f"{PANEL} h2")).to_have_text("You won!" if human.name == won else "You lost.")
        expect(human.page.locator(PANEL)).to_contain_text(winner)
        human.page.screenshot(path=str(shots / f"e2e-phone-360-{human.name.lower()}-end.png"), full_page=True)
    assert game["trade_sent"] and game["trade_seen"], "Ann's deal never reached Bob's phone"
    assert game["bot_rolled"], "the TV never showed the bot's roll"
    assert any("buy a tile" in h.taps for h in humans) and any("hire a picciotto" in h.taps for h in humans)
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        for shot in shots.iterdir():
            shutil.copy(shot, Path(SHOTS) / shot.name)
