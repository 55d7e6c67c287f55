"""Scaling out: the TV on one daphne process, every phone on another, one game of Mafie.

Both processes share PostgreSQL and Redis (conftest.py).  Every change made through process B
(joins, votes, cards) must reach the TV on process A, and every host command on A must reach the
phones on B, each as it happens: a screen that only caught up through its 30-second resync, or
through a reconnect, would not pass, because the waits here are shorter than the resync and the
test counts every socket opened and closed.  A phone that moves to the other process keeps its
seat (no sticky sessions are needed).
"""

from __future__ import annotations


import psycopg
import pytest
import redis
from playwright.sync_api import expect

from tests.e2e.conftest import join_phone, needs_chromium, open_tv, pick_crew

pytestmark = [needs_chromium]

NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin"]
TEAMS = {"mafia": "Mafioso", "detectives": "Detective"}  # winning team -> role of its members
# Longer than redis-py 8's default 5 s socket timeout: an idle subscription must outlive it
# (settings give the dict host form a longer one; docs/design.md §9.3).
IDLE_SECONDS = 6.5
PUSH_TIMEOUT_MS = 10_000  # well under the pages' 30 s resync: updates must be pushed
SOCKET_LOG = """window.__opens = 0; window.__closes = 0; window.__messages = 0;
document.addEventListener('htmx:wsOpen', () => { window.__opens += 1; });
document.addEventListener('htmx:wsClose', () => { window.__closes += 1; });
document.addEventListener('htmx:wsAfterMessage', () => { window.__messages += 1; });"""


def open_phone(browser, url: str, name: str):
    return join_phone(browser, url, name, init_script=SOCKET_LOG)


def peek_role(phone) -> str:
    card = phone.locator("#ph-role [data-hold]")
    card.hover()
    phone.mouse.down()
    expect(card.locator(".secret")).to_be_visible()
    role = card.locator(".role-name").inner_text()
    phone.mouse.up()
    return role


def subscribers(redis_url: str, code: str) -> int:
    """Processes subscribed to the room's pings (the pub/sub layer's channel for its group)."""
    client = redis.Redis.from_url(redis_url)
    try:
        return dict(client.pubsub_numsub(f"asgi__group__room.{code}"))[f"asgi__group__room.{code}".encode()]
    finally:
        client.close()


def waiting(n: int, one: str, many: str) -> str:
    return f"Waiting for {n} {one if n == 1 else many}"


def every_phone_sees(phones, selector: str, text):
    for phone in phones:
        expect(phone.locator(selector)).to_contain_text(text)


@pytest.fixture
def push_timeout():
    expect.set_options(timeout=PUSH_TIMEOUT_MS)
    yield
    expect.set_options(timeout=5_000)  # Playwright's default, for the tests that follow


def test_tv_on_process_a_and_phones_on_process_b_play_mafie(cluster, browser, output_dir, push_timeout):
    a, b = cluster.a, cluster.b

    # The host's TV opens on A; phones follow the join URL to B, as a proxy might send them.
    tv, join_url = open_tv(browser, a.url, init_script=SOCKET_LOG)
    assert join_url.startswith(a.url + "/j/")
    code = tv.locator(".tv-join .code").inner_text()
    phone_join_url = join_url.replace(a.url, b.url)

    phones = [open_phone(browser, phone_join_url, NAMES[0])]
    try:  # the first update that must cross from B to A
        expect(tv.locator("#tv-players .online")).to_have_count(1)
    except AssertionError as missing:
        raise AssertionError("B's first ping never reached the TV on A; processes subscribed to the "
                             f"room: {subscribers(cluster.redis_url, code)}") from missing
    for name in NAMES[1:]:
        phones.append(open_phone(browser, phone_join_url, name))
        expect(tv.locator("#tv-players .online")).to_have_count(len(phones))  # B's join and socket, on A
    for phone in phones:
        assert phone.url.startswith(b.url)
    mallory = open_phone(browser, phone_join_url, "Mallory")
    expect(tv.locator("#tv-players .online")).to_have_count(6)

    # Both processes listen to the room through Redis: one subscription each.
    assert subscribers(cluster.redis_url, code) == 2
    # And that is all that listens: one relay channel per process, none per socket (7 are open).
    client = redis.Redis.from_url(cluster.redis_url)
    assert len(client.pubsub_channels("asgispecific.*")) == 2
    client.close()

    # Host commands on A reach the phones on B: reorder the seats, remove a player.
    tv.locator("#tv-host .seating li", has_text="Erin").locator("button[value=up]").click()
    order = ["Alice", "Bob", "Carol", "Erin", "Dave", "Mallory"]
    for phone in [*phones, mallory]:
        expect(phone.locator("#ph-panel ol.roster li")).to_have_text(order)
    tv.once("dialog", lambda dialog: dialog.accept())
    tv.locator("#tv-host .seating li", has_text="Mallory").locator("button[value=kick]").click()
    expect(mallory.locator("#ph-panel")).to_contain_text("The host removed you from this room.")
    order.remove("Mallory")
    for phone in phones:
        expect(phone.locator("#ph-panel ol.roster li")).to_have_text(order)
    expect(tv.locator("#tv-players li")).to_have_count(5)

    # Nothing happens for a while; the layer's idle receives must survive it (docs/design.md §9.3).
    tv.wait_for_timeout(IDLE_SECONDS * 1000)
    tv.click("#tv-host button.start")
    every_phone_sees(phones, "#ph-panel", "Check your role in secret")
    roles = [peek_role(phone) for phone in phones]
    assert sorted(roles) == ["Detective"] * 2 + ["Mafioso"] * 3

    for done, phone in enumerate(phones, start=1):
        phone.click("text=I'm ready")
        if done < len(phones):
            expect(tv.locator("#tv-main .progress")).to_contain_text(waiting(len(phones) - done, "player", "players"))
            expect(tv.locator("#tv-players .badge.ok")).to_have_count(done)
    expect(tv.locator("#tv-main")).to_contain_text("The Godfather picks a crew")

    monitor = redis.Redis.from_url(cluster.redis_url)
    connections_before = monitor.info("stats")["total_connections_received"]
    actions = 0
    jobs = 0
    while not tv.locator("#tv-main .result").count():
        # The Godfather (named on A's TV) picks a crew on B.
        size = pick_crew(tv, phones, NAMES)
        expect(tv.locator("#tv-main .progress")).to_contain_text(waiting(5, "vote", "votes"))
        crew = tv.locator("#tv-main .team .chip").all_inner_texts()
        assert len(crew) == size
        for phone in phones:
            expect(phone.locator("#ph-panel .team .chip")).to_have_text(crew)

        # Each vote on B is counted on A's TV, and on every phone that has voted, as it is cast.
        actions += 1 + len(phones) + size
        for cast, phone in enumerate(phones, start=1):
            phone.click("#ph-panel button[value=approve]")
            left = len(phones) - cast
            if left:
                expect(tv.locator("#tv-main .progress")).to_contain_text(waiting(left, "vote", "votes"))
                expect(tv.locator("#tv-players .badge.ok")).to_have_count(cast)
                every_phone_sees(phones[:cast], "#ph-panel", f"Your vote is in. Waiting for {left} more.")
        expect(tv.locator("#tv-main .last-vote h3")).to_have_text("Last vote: approved 5–0")

        # Each card played on B is counted on A; the job's result reaches every screen.
        for played, name in enumerate(crew, start=1):
            phone, role = phones[NAMES.index(name)], roles[NAMES.index(name)]
            phone.click(f"#ph-panel button[value={'fail' if role == 'Detective' else 'success'}]")
            left = len(crew) - played
            if left:
                expect(tv.locator("#tv-main .progress")).to_contain_text(waiting(left, "card", "cards"))
                expect(tv.locator("#tv-players .badge.ok")).to_have_count(played)
        jobs += 1
        fails = sum(roles[NAMES.index(name)] == "Detective" for name in crew)
        expect(tv.locator(".track .job.done")).to_have_count(jobs)
        if not tv.locator("#tv-main .result").count():
            expect(tv.locator("#tv-main .last-action")).to_have_text(
                f"Job {jobs}: {size - fails} × Success, {fails} × Fail")
        for phone in phones:
            expect(phone.locator("#ph-board .track .job.done")).to_have_count(jobs)

    # Every one of those actions was pinged over the connections the processes already had
    # open: a connection per ping would cost a TCP handshake and a Redis login each time.
    opened = monitor.info("stats")["total_connections_received"] - connections_before
    monitor.close()
    assert opened <= 4, f"{opened} new Redis connections for {actions} actions"

    # The final reveal reaches every screen.
    team = next(c for c in tv.locator("#tv-main .result").get_attribute("class").split() if c in TEAMS)
    winner = tv.locator("#tv-main .result h2").inner_text()
    assert winner.endswith("win!"), winner
    expect(tv.locator("#tv-main .reveal li")).to_have_count(5)
    expect(tv.locator("#tv-main .reveal li.winner")).to_have_count(roles.count(TEAMS[team]))
    for phone, role in zip(phones, roles):
        expect(phone.locator("#ph-panel h2")).to_have_text("You won!" if role == TEAMS[team] else "You lost.")
        expect(phone.locator("#ph-panel")).to_contain_text(winner)
    tv.screenshot(path=str(output_dir / "tv-on-a.png"))
    phones[0].screenshot(path=str(output_dir / "phone-on-b.png"))

    # The host deals the next game on A; it reaches every phone on B.
    tv.click("#tv-host button.start")
    every_phone_sees(phones, "#ph-panel", "Check your role in secret")
    role_on_b = peek_role(phones[0])

    # Any process serves any screen: the first phone opens its page on A and keeps its seat.
    moved = phones[0]
    moved.goto(moved.url.replace(b.url, a.url))
    expect(moved.locator("#ph-head .me")).to_have_text("Alice")
    # A new socket first gets the whole screen, which replaces the role card: peek after that.
    moved.wait_for_function("() => window.__messages >= 1")  # a function: CSP allows no eval
    assert peek_role(moved) == role_on_b
    moved.click("text=I'm ready")
    expect(tv.locator("#tv-main .progress")).to_contain_text(waiting(4, "player", "players"))

    # Every screen got all of that over the socket it opened first: no reconnect hid a lost push.
    for page in [tv, *phones]:
        assert page.evaluate("[window.__opens, window.__closes]") == [1, 0], page.url

    # The game really lives in PostgreSQL, written by both processes.
    with psycopg.connect(cluster.database_url) as conn:
        statuses = [s for (s,) in conn.execute(
            "SELECT g.status FROM mafiagames_game g JOIN mafiagames_room r ON r.id = g.room_id "
            "WHERE r.code = %s ORDER BY g.id", [code])]
    assert statuses == ["finished", "running"], statuses

    for server in (a, b):
        log = server.log_text()
        assert "Traceback" not in log and "relay receive failed" not in log, log[-3000:]
