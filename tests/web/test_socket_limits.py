"""A room's queue of taps for the writer thread is bounded, and screens render only the newest
version when several are queued (issue 14: one flooder cannot delay other rooms; bursts).

The writer thread is held at a gate (``WriterGate``) so that the order of events is decided by
the test, not by the speed of the machine.
"""

from __future__ import annotations

import asyncio
import json
import queue
import threading

import pytest
from channels.db import database_sync_to_async

from mafiagames import consumers, db, taps
from mafiagames.models import Game, Room
from mafiagames.presence import PRESENCE

from .helpers import started_game
from .test_consumers import HANG_GUARD, connections, marker, phone_socket, receive_until, receive_until_closed, tv_socket

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def gate(monkeypatch):
    gate = WriterGate(monkeypatch)
    yield gate
    gate.let_all_through()   # whatever the test did, the writer thread is not left waiting


class WriterGate:
    """Holds every tap at the writer thread's door until the test lets it through."""

    def __init__(self, monkeypatch):
        self.entered: queue.Queue[int] = queue.Queue()   # player ids, in the order they reached the writer
        self.passes = threading.Semaphore(0)
        self.open = threading.Event()
        original = taps.tap_by_id

        def gated(player_id, *rest):
            self.entered.put(player_id)
            if not self.open.is_set():
                self.passes.acquire(timeout=HANG_GUARD)
            return original(player_id, *rest)
        monkeypatch.setattr(taps, "tap_by_id", gated)

    async def next_in(self) -> int:
        """The player whose tap reached the writer next (waits for it)."""
        return await asyncio.get_running_loop().run_in_executor(None, self.entered.get, True, HANG_GUARD)

    def let_one_through(self) -> None:
        self.passes.release()

    def let_all_through(self) -> None:
        self.open.set()
        for _ in range(100):
            self.passes.release()


def ready(game: Game) -> str:
    return json.dumps({"action": "ready", "turn": str(game.state["turn"]), "HEADERS": {"HX-Request": "true"}})


async def connected(*sockets):
    for socket in sockets:
        assert (await socket.connect())[0]
        await socket.receive_from()
    return sockets


async def test_a_full_room_queue_answers_busy_at_once_and_other_rooms_still_get_in(monkeypatch, gate):
    """With the room's queue full, its next tap is refused at once ("busy", nothing done) rather
    than queued ahead of other rooms' taps; another room's tap is queued and applied."""
    monkeypatch.setattr(db, "MAX_QUEUED", 1, raising=False)
    room, players, game = await database_sync_to_async(started_game)()
    other_room, other_players, other_game = await database_sync_to_async(started_game)()
    first, second, elsewhere = await connected(phone_socket(players[0]), phone_socket(players[1]),
                                               phone_socket(other_players[0]))

    await first.send_to(text_data=ready(game))
    assert await gate.next_in() == players[0].pk          # in the writer: the room's queue is full
    await second.send_to(text_data=ready(game))
    refusal = await receive_until(second, 'id="flash"')   # answered while the writer is still held
    assert "The room is busy. Try again in a moment." in refusal and 'role="alert"' in refusal
    await elsewhere.send_to(text_data=ready(other_game))  # another room: its own queue has room

    gate.let_all_through()
    assert await gate.next_in() == other_players[0].pk    # next in the writer: the busy tap never queued
    assert 'class="flash clear"' in await receive_until(first, 'id="flash"')
    assert 'class="flash clear"' in await receive_until(elsewhere, 'id="flash"')
    game = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    other_game = await database_sync_to_async(Game.objects.get)(pk=other_game.pk)
    assert game.state["ready"] == [0] and other_game.state["ready"] == [0]   # the refused tap changed nothing
    assert gate.entered.empty()
    for socket in (first, second, elsewhere):
        await socket.disconnect()


async def test_versions_committed_while_a_render_waits_are_rendered_once_at_the_newest(monkeypatch, gate):
    """Five taps queued at once: the first is written, and while the next four wait for the writer,
    the screens do not render the first's version (its render would be stale at once and would
    hold up the writer and the answers); once all five are written every screen renders the newest
    version, once."""
    room, players, game = await database_sync_to_async(started_game)()
    tv, *phones = await connected(tv_socket(room), *(phone_socket(p) for p in players))
    # A phone's presence is written as its socket opens, but the first frame it reads may be an
    # earlier phone's update: the room's version is read once the TV shows every phone online
    # (under load a last presence version once came after it, and six versions were counted).
    frame = ""
    while frame.count('class="online') < len(players):
        frame = await tv.receive_from(timeout=HANG_GUARD)
    # Presence pings of the connections above may still be on their way: only renders of versions
    # made by the taps below are counted.
    before = (await database_sync_to_async(Room.objects.get)(pk=room.pk)).version
    renders: list[tuple[str, int]] = []
    for kind in (consumers.TvConsumer, consumers.PhoneConsumer):
        original = kind.render

        def counted(self, snap, original=original):
            if snap.version > before:
                renders.append((id(self), snap.version))
            return original(self, snap)
        monkeypatch.setattr(kind, "render", counted)

    on_their_way = asyncio.Event()   # every tap's form built: each goes to the writer in that same step
    built = []
    form_from_json = taps.form_from_json

    def counted_form(data):
        built.append(data)
        if len(built) == len(phones):
            on_their_way.set()
        return form_from_json(data)
    monkeypatch.setattr(taps, "form_from_json", counted_form)

    for phone in phones:
        await phone.send_to(text_data=ready(game))
    await gate.next_in()
    await asyncio.wait_for(on_their_way.wait(), HANG_GUARD)
    gate.let_one_through()      # the first tap commits and pings…
    await gate.next_in()        # …and the second is held in the writer, the others queued behind it
    gate.let_all_through()
    for phone in phones:
        assert 'class="flash clear"' in await receive_until(phone, 'id="flash"')
    newest = (await database_sync_to_async(Room.objects.get)(pk=room.pk)).version
    assert newest == before + 5
    assert marker(await receive_until(tv, f'data-v="{newest}"')) == newest

    assert {version for _, version in renders} == {newest}, "only the newest version was rendered"
    assert len(renders) == len(set(renders)) == 1 + len(phones), "each screen rendered it once"
    for socket in (tv, *phones):
        await socket.disconnect()


async def test_a_flood_is_closed_as_it_arrives_even_while_its_taps_wait_for_the_writer(gate):
    """The rate was counted only as frames were handled, and a socket's taps were handled one
    write at a time: a flood handled slowly (a busy writer, a busy event loop) stayed under the
    limit for as long as it flooded.  Frames waiting beyond a burst close the socket at once."""
    room, players, game = await database_sync_to_async(started_game)()
    flooder, = await connected(phone_socket(players[0]))
    for _ in range(int(consumers.BURST) + 20):    # all queued before the consumer handles one
        await flooder.send_to(text_data=ready(game))
    # The writer is held (``gate``): a tap that reached it would not be answered, nor the next
    # frame handled by a consumer that waits for its tap.
    assert await receive_until_closed(flooder, attempts=int(consumers.BURST) + 20) == consumers.CLOSE_FLOOD


async def test_a_socket_writes_one_tap_at_a_time_and_a_few_wait_the_next_is_busy(gate):
    """One tap of a socket in the writer at a time; a few more wait their turn (a double tap);
    one more than that is answered "busy" at once instead of waiting unseen."""
    room, players, game = await database_sync_to_async(started_game)()
    phone, = await connected(phone_socket(players[0]))
    for _ in range(1 + consumers.MAX_TAPS_WAITING + 1):
        await phone.send_to(text_data=ready(game))
    assert await gate.next_in() == players[0].pk       # the first, held in the writer
    refusal = await receive_until(phone, 'id="flash"')
    assert "The room is busy. Try again in a moment." in refusal
    assert gate.entered.empty()                       # the others wait in the socket, not the writer
    gate.let_all_through()
    answers = [await receive_until(phone, 'id="flash"') for _ in range(1 + consumers.MAX_TAPS_WAITING)]
    assert 'class="flash clear"' in answers[0]          # the first applied…
    assert all("You are already ready." in answer for answer in answers[1:])   # …the rest in order
    await phone.disconnect()


async def test_a_players_oldest_sockets_beyond_a_few_are_closed():
    """Each socket may tap at the rate a person taps; a hundred sockets of one seat were a
    hundred times that.  A player keeps at most a few sockets: a new one closes the oldest."""
    room, players, game = await database_sync_to_async(started_game)()
    sockets = await connected(*(phone_socket(players[0]) for _ in range(consumers.MAX_SOCKETS_PER_PLAYER)))
    other, = await connected(phone_socket(players[1]))
    newest, = await connected(phone_socket(players[0]))
    assert await receive_until_closed(sockets[0]) == consumers.CLOSE_REPLACED
    await sockets[0].wait()
    # The closed one is uncounted; the player is marked online once, by this process (presence.py).
    assert PRESENCE.sockets[players[0].pk] == consumers.MAX_SOCKETS_PER_PLAYER
    assert await database_sync_to_async(connections)(players[0]) == 1
    for socket in (*sockets[1:], newest, other):    # still open and answered
        await socket.send_to(text_data=ready(game))
        assert 'id="flash"' in await receive_until(socket, 'id="flash"')
    for socket in (*sockets[1:], newest, other):
        await socket.disconnect()


async def test_a_tap_posted_over_http_to_a_full_room_is_busy_too(monkeypatch, gate):
    """The HTTP fallback for taps waits in the same queue: with it full, a post is answered 429
    with the same message at once, and changes nothing."""
    from django.test import AsyncClient

    from mafiagames import seating
    monkeypatch.setattr(db, "MAX_QUEUED", 1, raising=False)
    room, players, game = await database_sync_to_async(started_game)()
    first, = await connected(phone_socket(players[0]))
    await first.send_to(text_data=ready(game))
    assert await gate.next_in() == players[0].pk          # in the writer: the room's queue is full
    client = AsyncClient()
    client.cookies[seating.player_cookie_name(room.code)] = seating.player_token(players[1])
    response = await asyncio.wait_for(
        client.post(f"/p/{room.code}/act", {"action": "ready", "turn": str(game.state["turn"])}), HANG_GUARD)
    assert response.status_code == 429
    assert "The room is busy. Try again in a moment." in response.content.decode()
    gate.let_all_through()
    assert 'class="flash clear"' in await receive_until(first, 'id="flash"')
    game = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert game.state["ready"] == [0]
    await first.disconnect()
