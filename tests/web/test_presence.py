"""A phone opening and closing sockets costs the room a few versions, not two per socket
(mafiagames/presence.py, limits.OPENS, consumers.ScreenConsumer.send; docs/performance.md, Probes:
churn).  The presence marks are driven by a clock the test moves: no test here waits for time."""

from __future__ import annotations

import asyncio
import logging

import pytest
from autobahn.exception import Disconnected
from channels.db import database_sync_to_async

from mafiagames import consumers, db, limits
from mafiagames.presence import Presence

from .helpers import room_with_players
from .test_consumers import connections, phone_socket, receive_until

GRACE, WINDOW = 2.0, 0.5
ALICE, BOB, CAROL = 1, 2, 3


class Clock:
    """``time`` and ``call_later`` of an event loop, moved on by ``advance`` only."""

    def __init__(self):
        self.now = 0.0
        self.timers: list[Timer] = []

    def time(self) -> float:
        return self.now

    def call_later(self, delay: float, callback, *args):
        timer = Timer(self.now + delay, callback, args)
        self.timers.append(timer)
        return timer

    def advance(self, seconds: float) -> None:
        """Move on by ``seconds``, running the timers due meanwhile in order."""
        end = self.now + seconds
        while due := sorted((t for t in self.timers if not t.cancelled and t.when <= end), key=lambda t: t.when):
            timer = due[0]
            self.timers.remove(timer)
            self.now = timer.when
            timer.callback(*timer.args)
        self.now = end


class Timer:
    def __init__(self, when, callback, args):
        self.when, self.callback, self.args, self.cancelled = when, callback, args, False

    def cancel(self):
        self.cancelled = True


class Marks:
    """What the presence wrote, one entry per write (each write is one room version)."""

    def __init__(self):
        self.writes: list[dict[int, int]] = []
        self.gate: asyncio.Event | None = None   # set: writes wait until it opens
        self.at_gate = asyncio.Event()
        self.fail = False

    async def publish(self, changes: dict[int, int]) -> None:
        if self.gate is not None:
            self.at_gate.set()
            await self.gate.wait()
        if self.fail:
            raise RuntimeError("the database went away")
        self.writes.append(dict(changes))


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def marks():
    return Marks()


@pytest.fixture
def presence(clock, marks):
    return Presence(marks.publish, clock, grace=GRACE, window=WINDOW)


async def later(presence, clock, seconds: float) -> None:
    """Move the clock on and let the writes it started finish."""
    clock.advance(seconds)
    await presence.settled()


async def test_a_flapping_phone_is_written_online_once_and_offline_once_after_its_grace(presence, clock, marks):
    for _ in range(50):   # four sockets at a time, fifty times, each round within the grace
        for _ in range(4):
            await presence.opened("ROOM", ALICE)
        for _ in range(4):
            await presence.closed("ROOM", ALICE)
        await later(presence, clock, 0.1)
    assert marks.writes == [{ALICE: +1}]
    await later(presence, clock, GRACE)
    assert marks.writes == [{ALICE: +1}, {ALICE: -1}]


async def test_a_phone_that_leaves_is_offline_once_its_grace_ends_and_not_before(presence, clock, marks):
    await presence.opened("ROOM", ALICE)
    await presence.closed("ROOM", ALICE)
    await later(presence, clock, GRACE - 0.01)
    assert marks.writes == [{ALICE: +1}] and presence.online(ALICE)
    await later(presence, clock, 0.02)
    assert marks.writes == [{ALICE: +1}, {ALICE: -1}] and not presence.online(ALICE)


async def test_a_second_socket_or_a_reload_within_the_grace_writes_nothing(presence, clock, marks):
    await presence.opened("ROOM", ALICE)
    await presence.opened("ROOM", ALICE)            # a laptop beside the phone
    await presence.closed("ROOM", ALICE)
    await presence.closed("ROOM", ALICE)            # a reload: gone…
    await later(presence, clock, GRACE / 2)
    await presence.opened("ROOM", ALICE)            # …and back within the grace
    await later(presence, clock, 10 * GRACE)
    assert marks.writes == [{ALICE: +1}]


async def test_a_rooms_changes_within_the_window_are_one_write(presence, clock, marks):
    await presence.opened("ROOM", ALICE)            # the first at once
    assert marks.writes == [{ALICE: +1}]
    await later(presence, clock, 0.1)
    await presence.opened("ROOM", BOB)
    await later(presence, clock, 0.1)
    await presence.opened("ROOM", CAROL)
    await presence.opened("OTHER", 9)               # another room: its own window
    assert marks.writes == [{ALICE: +1}, {9: +1}]
    await later(presence, clock, WINDOW)
    assert marks.writes == [{ALICE: +1}, {9: +1}, {BOB: +1, CAROL: +1}]


async def test_a_change_while_a_write_is_under_way_is_written_after_it(presence, clock, marks):
    """Nothing is lost to a slow write: the phone left while its online mark was being written,
    and its offline mark follows."""
    marks.gate = asyncio.Event()
    arriving = asyncio.ensure_future(presence.opened("ROOM", ALICE))
    await marks.at_gate.wait()                      # the write has begun
    await presence.closed("ROOM", ALICE)
    clock.advance(GRACE)
    marks.gate.set()
    await arriving
    await later(presence, clock, WINDOW)
    assert marks.writes == [{ALICE: +1}, {ALICE: -1}]


async def test_a_failed_write_leaves_the_marks_as_written_and_the_next_change_tries_again(presence, clock, marks):
    marks.fail = True
    with pytest.raises(RuntimeError):
        await presence.opened("ROOM", ALICE)        # the socket that awaited it hears of it
    marks.fail = False
    await later(presence, clock, WINDOW)
    await presence.opened("ROOM", ALICE)            # a later socket
    assert marks.writes == [{ALICE: +1}]


async def test_without_grace_or_window_every_change_is_written_as_it_happens(clock, marks):
    presence = Presence(marks.publish, clock, grace=0, window=0)
    await presence.opened("ROOM", ALICE)
    await presence.closed("ROOM", ALICE)
    assert marks.writes == [{ALICE: +1}, {ALICE: -1}]


# -- through the consumers ----------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
async def test_a_players_sockets_beyond_their_budget_are_refused_before_the_database(monkeypatch, clock):
    """A player opens only ``limits.OPENS.count`` sockets a window; the next is refused at the
    handshake (4429) without a database call; other players are not affected, and once the
    window has passed the same player gets in again by themselves."""
    monkeypatch.setattr(limits.OPENS, "clock", clock.time)
    room, players = await database_sync_to_async(room_with_players)(2)
    for _ in range(limits.OPENS.count):
        phone = phone_socket(players[0])
        assert (await phone.connect())[0]
        await phone.receive_from()
        await phone.disconnect()

    reads = []
    read = db.read

    async def counted(fn, *args, **kwargs):
        reads.append(fn)
        return await read(fn, *args, **kwargs)
    monkeypatch.setattr(db, "read", counted)
    assert await phone_socket(players[0]).connect() == (False, consumers.CLOSE_FLOOD)
    assert reads == [], "refused before the database"
    other = phone_socket(players[1])
    assert (await other.connect())[0]
    await other.disconnect()

    clock.advance(limits.OPENS.seconds)
    again = phone_socket(players[0])
    assert (await again.connect())[0]
    await again.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_churned_sockets_leave_the_player_counted_once_and_offline_at_the_end():
    """In-process (no grace, no window: tests/conftest.py), sockets of one player opened side by
    side and closed in any order: marked online once, offline once the last is gone."""
    room, players = await database_sync_to_async(room_with_players)(2)
    phones = [phone_socket(players[0]) for _ in range(3)]
    for phone in phones:
        assert (await phone.connect())[0]
        await receive_until(phone, 'id="sv"')
    assert await database_sync_to_async(connections)(players[0]) == 1
    for phone in reversed(phones):
        await phone.disconnect()
    assert await database_sync_to_async(connections)(players[0]) == 0


async def test_a_frame_for_a_socket_the_client_closed_is_dropped_without_an_error(caplog):
    """autobahn raises Disconnected for a send after the close began; a screen refreshed or a
    tap answered just then was an ERROR with a traceback, hundreds of them under churn."""
    async def closed_already(message):
        raise Disconnected("Attempt to send on a closed protocol")

    consumer = consumers.PhoneConsumer()
    consumer.base_send, consumer.code = closed_already, "ROOM"
    with caplog.at_level(logging.DEBUG, logger="mafiagames"):
        await consumer.send(text_data="<div id='flash'></div>")
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert "already closed" in caplog.text
