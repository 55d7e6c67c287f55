"""Websocket screens with WebsocketCommunicator against the real ASGI application."""

from __future__ import annotations

import concurrent.futures
import json
import re

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from mafiagames import consumers, seating, services
from mafiagames.asgi import application
from mafiagames.consumers import CLOSE_ERROR, CLOSE_FLOOD, CLOSE_FORBIDDEN, CLOSE_TOO_BIG, MAX_FRAME
from mafiagames.fanout import HUB
from mafiagames.models import Game, Player

from .helpers import host_cookie, room_with_players, started_game

pytestmark = pytest.mark.django_db(transaction=True)
ORIGIN = (b"origin", b"http://testserver")
HOST = (b"host", b"testserver")


def cookie_header(name: str, value: str):
    return (b"cookie", f"{name}={value}".encode())


def phone_socket(player, origin=ORIGIN, code=None):
    code = code or player.room.code
    headers = [origin, HOST, cookie_header(seating.player_cookie_name(code), seating.player_token(player))]
    return WebsocketCommunicator(application, f"/ws/p/{code}/", headers=headers)


def tv_socket(room, host=False):
    headers = [ORIGIN, HOST]
    if host:
        # Made in a thread of its own: the socket is built in async tests, the cookie needs the database.
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            cookie = pool.submit(host_cookie, room).result()
        headers.append(cookie_header(seating.host_cookie_name(room.code), cookie))
    return WebsocketCommunicator(application, f"/ws/r/{room.code}/", headers=headers)


def ids(html: str) -> list[str]:
    """Fragment ids of a frame, without the version marker every update ends with."""
    found = re.findall(r'<[a-z]+ id="([a-z-]+)" hx-swap-oob="true"', html)
    assert found[-1] == "sv", "every update ends with the room version marker"
    return found[:-1]


def marker(html: str) -> int:
    return int(re.search(r'id="sv" hx-swap-oob="true" data-v="(\d+)"', html).group(1))


# Seconds a socket test waits for a frame the server owes it: only a broken server waits this
# long (a busy machine may take seconds; a fixed few would fail a loaded run).
HANG_GUARD = 30


async def receive_until(socket, needle: str, attempts: int = 10) -> str:
    """Frames until one contains ``needle`` (presence pings may arrive first)."""
    seen = []
    for _ in range(attempts):
        frame = await socket.receive_from(timeout=HANG_GUARD)
        seen.append(frame)
        if needle in frame:
            return frame
    raise AssertionError(f"{needle!r} not in {len(seen)} frames")


async def receive_until_each(socket, *needles: str, attempts: int = 10) -> dict[str, str]:
    """Frames until each needle has been in one; the first frame with each.  For a tap's
    acknowledgement and its screen's refresh, which may arrive in either order."""
    found: dict[str, str] = {}
    for _ in range(attempts):
        frame = await socket.receive_from(timeout=HANG_GUARD)
        found.update({needle: frame for needle in needles if needle in frame and needle not in found})
        if len(found) == len(needles):
            return found
    raise AssertionError(f"{sorted(set(needles) - set(found))!r} not in {attempts} frames")


async def receive_until_closed(socket, attempts: int = 20) -> int:
    """The close code, after any screen frames still on their way."""
    for _ in range(attempts):
        output = await socket.receive_output(timeout=HANG_GUARD)
        if output["type"] == "websocket.close":
            return output.get("code", 1000)
    raise AssertionError("the socket was not closed")


def connections(player) -> int:
    return Player.objects.get(pk=player.pk).connections


async def gone_clean(phone, player, room) -> None:
    """After its close: the socket's player counts no open screen and the room has no screen
    registered here (the phone was its only one)."""
    await phone.wait()
    assert await database_sync_to_async(connections)(player) == 0
    assert room.code not in HUB.rooms


async def test_tv_connect_gets_the_whole_screen():
    room, _ = await database_sync_to_async(room_with_players)(3)
    tv = tv_socket(room)
    connected, _code = await tv.connect()
    assert connected
    frame = await tv.receive_from()
    assert ids(frame) == ["tv-players", "tv-main", "tv-narration", "tv-settings", "tv-host", "tv-door"]
    assert "Alice" in frame and "Host controls" not in frame and "<form" not in frame
    await database_sync_to_async(room.refresh_from_db)()
    assert marker(frame) == room.version
    await tv.disconnect()


async def test_host_tv_gets_the_controls():
    room, _ = await database_sync_to_async(room_with_players)(3)
    tv = tv_socket(room, host=True)
    assert (await tv.connect())[0]
    assert "Host controls" in await tv.receive_from()
    await tv.disconnect()


async def test_a_join_leaves_the_host_settings_alone():
    """A player joining re-sends the seating, not the game and its options: replacing those
    would close a list the host has open, mid-choice.  A change of option re-sends only them."""
    room, _ = await database_sync_to_async(room_with_players)(3)
    tv = tv_socket(room, host=True)
    assert (await tv.connect())[0]
    first = await tv.receive_from()
    assert 'name="ruleset"' in first and "Alice" in first

    await database_sync_to_async(services.join_room)(room, "Zed")
    joined = await receive_until(tv, "Zed")
    assert "tv-host" in ids(joined) and "tv-settings" not in ids(joined)
    assert 'name="ruleset"' not in joined      # the settings' elements stay as the host left them

    await database_sync_to_async(services.configure)(room, "mafia_pl", {"doctor": True})
    configured = await receive_until(tv, 'value="mafia_pl" selected')
    assert "tv-settings" in ids(configured)
    assert 'name="opt-doctor" value="on" checked' in configured
    await tv.disconnect()


async def test_phone_connect_gets_its_view_and_a_ping_re_renders_only_what_changed():
    room, players, game = await database_sync_to_async(started_game)()
    phone = phone_socket(players[3])
    assert (await phone.connect())[0]
    first = await phone.receive_from()
    assert ids(first) == ["ph-head", "ph-role", "ph-panel", "ph-board", "ph-host"]
    assert "I&#x27;m ready" in first or "I'm ready" in first
    game = await database_sync_to_async(services.submit)(game.pk, 3, {"type": "ready"})
    update = await receive_until(phone, "Waiting for 4 more players")
    assert ids(update) == ["ph-panel"]  # role, head and board did not change, so they are not re-sent
    assert marker(update) == game.room_version
    await phone.disconnect()


async def test_tv_sees_the_phone_connect_and_disconnect():
    room, players = await database_sync_to_async(room_with_players)(2)
    tv = tv_socket(room)
    assert (await tv.connect())[0]
    assert 'class="offline"' in await tv.receive_from()
    phone = phone_socket(players[0])
    assert (await phone.connect())[0]
    frame = await receive_until(tv, 'class="online"')
    assert frame.count('class="online"') == 1
    await phone.disconnect()
    frame = await receive_until(tv, "tv-players")
    assert 'class="online"' not in frame
    await tv.disconnect()


async def test_a_wrong_origin_is_refused():
    room, players = await database_sync_to_async(room_with_players)(1)
    for origin in [(b"origin", b"http://evil.example"), (b"origin", b"http://testserver.evil")]:
        connected, _ = await phone_socket(players[0], origin=origin).connect()
        assert not connected
    no_origin = WebsocketCommunicator(application, f"/ws/r/{room.code}/", headers=[HOST])
    assert not (await no_origin.connect())[0]


async def test_a_foreign_seat_is_refused():
    room, players = await database_sync_to_async(room_with_players)(1)
    other, strangers = await database_sync_to_async(room_with_players)(1)
    # A valid token of another room's player, offered for this room.
    connected, _ = await phone_socket(strangers[0], code=room.code).connect()
    assert not connected
    no_cookie = WebsocketCommunicator(application, f"/ws/p/{room.code}/", headers=[ORIGIN, HOST])
    assert not (await no_cookie.connect())[0]
    forged = WebsocketCommunicator(application, f"/ws/p/{room.code}/", headers=[
        ORIGIN, HOST, cookie_header(seating.player_cookie_name(room.code), "eyJyIjoiQUJDRCJ9:forged")])
    assert not (await forged.connect())[0]


async def test_unknown_room_socket_is_refused():
    tv = WebsocketCommunicator(application, "/ws/r/QQQQ/", headers=[ORIGIN, HOST])
    assert not (await tv.connect())[0]


async def test_phone_frames_carry_only_that_players_role():
    room, players, game = await database_sync_to_async(started_game)()
    frames = {}
    for seat in (0, 3):
        phone = phone_socket(players[seat])
        assert (await phone.connect())[0]
        frames[seat] = await phone.receive_from()
        await phone.disconnect()
    # Alice (mafioso) never learns the detectives; Dave (detective) sees his partner Erin.
    assert 'class="role-name">Mafioso<' in frames[0] and "The other detectives" not in frames[0]
    assert 'class="role-name">Detective<' in frames[3] and "The other detectives: Erin" in frames[3]


async def test_kicked_phone_is_told_and_closed():
    room, players = await database_sync_to_async(room_with_players)(2)
    phone = phone_socket(players[1])
    assert (await phone.connect())[0]
    await phone.receive_from()
    await database_sync_to_async(services.kick)(room, players[1].pk)
    frame = await receive_until(phone, "removed you")
    assert "ph-panel" in frame
    assert (await phone.receive_output(timeout=HANG_GUARD))["type"] == "websocket.close"


async def test_a_phone_joining_while_an_older_load_runs_is_not_told_it_was_removed(monkeypatch):
    """A screen load that began before this player's join must not make its new socket say
    "removed": the socket waits for at least the version it was identified at."""
    import asyncio

    from mafiagames import screens
    from mafiagames.consumers import PhoneConsumer

    async def no_presence(self):  # its ping would start a fresh load and hide the stale one
        pass

    monkeypatch.setattr(PhoneConsumer, "opened", no_presence)

    room, _ = await database_sync_to_async(room_with_players)(2)
    stale = await database_sync_to_async(screens._load)(room.code)  # from before the join
    newcomer = await database_sync_to_async(services.join_room)(room, "Newcomer")
    awaited = []

    class LoadInFlight(asyncio.Future):
        """The older load, still running when the socket asks; it finishes once awaited."""

        def __await__(self):
            awaited.append(True)
            if not self.done():
                self.set_result(stale)
            return super().__await__()

    screens._loading[room.code] = LoadInFlight()
    try:
        phone = phone_socket(newcomer)
        assert (await phone.connect())[0]
        frame = await phone.receive_from()
        assert awaited, "the socket should have met the load in flight"
        assert "removed you" not in frame and "Newcomer" in frame
        assert ids(frame) == ["ph-head", "ph-role", "ph-panel", "ph-board", "ph-host"]
        await phone.disconnect()
    finally:
        screens._loading.pop(room.code, None)
        screens.forget(room.code)


async def test_a_sync_request_brings_a_stale_screen_up_to_date():
    """A dropped ping is repaired by the screen's periodic sync: it gets what changed, nothing else."""
    room, players, game = await database_sync_to_async(started_game)()
    phone = phone_socket(players[3])
    assert (await phone.connect())[0]
    await phone.receive_from()
    # Change the game (and the room's version, as every service does) but lose the ping.
    from django.db.models import F

    from mafiagames.models import Game, Room
    state = dict(game.state, rejections=2)
    await database_sync_to_async(Game.objects.filter(pk=game.pk).update)(state=state)
    await database_sync_to_async(Room.objects.filter(pk=room.pk).update)(version=F("version") + 1)
    await phone.send_to(text_data='{"sync": true, "HEADERS": {}}')
    frame = await phone.receive_from()
    assert ids(frame) == ["ph-board"] and "Rejected crews: 2/5" in frame
    await phone.send_to(text_data='{"sync": true}')
    assert await phone.receive_nothing(timeout=0.3)  # nothing changed since
    await phone.disconnect()


async def test_a_tap_over_the_socket_is_applied_acknowledged_and_reaches_the_tv():
    """Phones send taps over their socket (htmx ws-send); the answer goes to that phone only."""
    room, players, game = await database_sync_to_async(started_game)()
    tv, phone, other = tv_socket(room), phone_socket(players[3]), phone_socket(players[4])
    for socket in (tv, phone, other):
        assert (await socket.connect())[0]
        await socket.receive_from()
    await phone.send_to(text_data=json.dumps({"action": "ready", "turn": str(game.state["turn"]),
                                              "HEADERS": {"HX-Request": "true"}}))
    ack = await receive_until(phone, 'id="flash"')
    assert 'class="flash clear"' in ack and 'data-v="' in ack
    assert "ready" in await receive_until(tv, "Waiting for 4 players")
    game = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert game.state["ready"] == [3]
    # A refused tap: a message for that phone, nothing for anyone else, nothing changed.
    await phone.send_to(text_data=json.dumps({"action": "ready", "turn": str(game.state["turn"])}))
    refusal = await receive_until(phone, 'id="flash"')
    assert "You are already ready." in refusal and 'role="alert"' in refusal
    await database_sync_to_async(game.refresh_from_db)()
    assert game.state["ready"] == [3]
    for socket in (tv, phone, other):
        await socket.disconnect()


async def test_malformed_socket_messages_get_a_message_and_change_nothing():
    room, players, game = await database_sync_to_async(started_game)()
    phone, tv = phone_socket(players[0]), tv_socket(room, host=True)
    for socket in (phone, tv):
        assert (await socket.connect())[0]
        await socket.receive_from()
    for text in ["not json", "[1, 2]", json.dumps({"action": "fly", "turn": "1"}),
                 json.dumps({"action": "vote", "choice": "maybe", "turn": "1"}), json.dumps({"turn": "x"})]:
        await phone.send_to(text_data=text)
        answer = await receive_until(phone, 'id="flash"')
        assert 'role="alert"' in answer
    # The TV cannot play: a socket sending taps to the TV's address is not the TV page; closed.
    await tv.send_to(text_data=json.dumps({"action": "ready", "turn": "1"}))
    assert await receive_until_closed(tv) == CLOSE_FORBIDDEN
    current = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert current.version == game.version
    await phone.disconnect()
    await tv.wait()


# -- consumers that cannot die dirty (issue 14) -----------------------------------------------------

async def test_a_huge_frame_is_refused_unparsed_and_presence_returns_to_zero():
    room, players = await database_sync_to_async(room_with_players)(2)
    phone = phone_socket(players[0])
    assert (await phone.connect())[0]
    await phone.receive_from()
    assert await database_sync_to_async(connections)(players[0]) == 1
    await phone.send_to(text_data="[" * 200_000)   # 200 KB of nesting: RecursionError in json.loads
    assert await receive_until_closed(phone) == CLOSE_TOO_BIG
    await gone_clean(phone, players[0], room)


async def test_deep_nesting_within_the_size_limit_is_malformed_and_the_socket_lives_on():
    room, players = await database_sync_to_async(room_with_players)(2)
    phone = phone_socket(players[0])
    assert (await phone.connect())[0]
    await phone.receive_from()
    deep = "{\"a\":" * (MAX_FRAME // 6) + "1" + "}" * (MAX_FRAME // 6)
    assert len(deep) < MAX_FRAME and len(deep) > 10_000
    await phone.send_to(text_data=deep)
    assert "malformed" in await receive_until(phone, 'id="flash"')
    await phone.send_to(text_data=json.dumps({"text": "[[[[[[[[ in a string is fine ]]]]]]]]", "sync": True}))
    await phone.send_to(text_data=json.dumps({"sync": True}))   # answered: still open
    await phone.disconnect()
    assert await database_sync_to_async(connections)(players[0]) == 0


def test_every_close_code_is_one_daphne_can_send():
    # autobahn refuses anything but 1000 and 3000–4999: such a close would leave the socket open
    assert all(code == 1000 or 3000 <= code <= 4999 for code in consumers.CLOSE_CODES)


def test_depth_is_counted_outside_strings_only():
    assert consumers.too_deep("[[[[[[1]]]]]]")
    assert not consumers.too_deep(json.dumps({"a": "[[[[[[[[[[", "b": "\\\"{{{{{{{{{"}))
    assert not consumers.too_deep(json.dumps({"action": "vote", "targets": ["1", "2"], "turn": "3"}))


async def test_an_error_while_handling_a_tap_closes_the_socket_and_undoes_presence(monkeypatch, caplog):
    room, players, game = await database_sync_to_async(started_game)()
    phone = phone_socket(players[0])
    assert (await phone.connect())[0]
    await phone.receive_from()

    async def broken(*args, **kwargs):
        raise RuntimeError("the database went away")
    monkeypatch.setattr(consumers.PhoneConsumer, "tap", broken)
    await phone.send_to(text_data=json.dumps({"action": "ready", "turn": "1"}))
    assert await receive_until_closed(phone) == CLOSE_ERROR
    monkeypatch.undo()
    await gone_clean(phone, players[0], room)
    assert "the database went away" in caplog.text   # logged with its traceback


async def test_an_error_in_the_first_push_of_connect_leaves_nothing_registered(monkeypatch):
    room, players = await database_sync_to_async(room_with_players)(2)

    async def broken(self, version):
        raise RuntimeError("the client was already gone")
    monkeypatch.setattr(consumers.ScreenConsumer, "push", broken)
    phone = phone_socket(players[0])
    connected, _ = await phone.connect()
    assert connected
    assert await receive_until_closed(phone) == CLOSE_ERROR
    await gone_clean(phone, players[0], room)


async def test_a_flooding_socket_is_closed_and_others_are_still_answered():
    room, players = await database_sync_to_async(room_with_players)(2)
    flooder, other = phone_socket(players[0]), phone_socket(players[1])
    for socket in (flooder, other):
        assert (await socket.connect())[0]
        await socket.receive_from()
    for _ in range(int(consumers.BURST) + 50):   # far more than any person taps, all at once
        await flooder.send_to(text_data="not json")
    assert await receive_until_closed(flooder, attempts=200) == CLOSE_FLOOD
    await other.send_to(text_data="not json")
    assert "malformed" in await receive_until(other, 'id="flash"', attempts=20)
    await other.disconnect()
    await flooder.wait()
    assert await database_sync_to_async(connections)(players[0]) == 0


async def test_an_audience_phone_answers_the_poll_over_its_socket_and_the_tv_shows_nothing_of_it():
    """Issue 16: a phone that joined during the game watches; its poll tap goes over its socket
    like any tap, is acknowledged, marks its answer; the TV's frames say nothing of it."""
    from .test_audience import mafie_with_late_joiners, to_team_vote

    room, _players, game, (frank,) = await database_sync_to_async(mafie_with_late_joiners)("Frank")
    game = await database_sync_to_async(to_team_vote)(game)
    tv, phone = tv_socket(room), phone_socket(frank)
    for socket in (tv, phone):
        assert (await socket.connect())[0]
    tv_frames = [await tv.receive_from()]
    first = await phone.receive_from()
    assert "You are watching" in first and "Who do you suspect?" in first
    assert "role-name" not in first and "The other detectives" not in first   # never a seat's secrets
    await phone.send_to(text_data=json.dumps({"action": "suspect", "poll": f"job{game.state['round']}", "seat": "2",
                                              "HEADERS": {"HX-Request": "true"}}))
    frames = await receive_until_each(phone, 'id="flash"', "Your suspect")   # in either order
    assert 'class="flash clear"' in frames['id="flash"']
    assert "Your suspect: Carol." in frames["Your suspect"]
    await phone.send_to(text_data=json.dumps({"action": "suspect", "poll": "job9", "seat": "2"}))
    assert "The poll is closed now." in await receive_until(phone, 'id="flash"')
    # A vote after the answers: every TV frame up to the version it made, none about the poll.
    voted = await database_sync_to_async(services.submit)(game.pk, 0, {"type": "vote", "approve": True})
    while not tv_frames or marker(tv_frames[-1]) < voted.room_version:
        tv_frames.append(await tv.receive_from(timeout=HANG_GUARD))
    assert not any("suspect" in frame.lower() or "audience" in frame.lower() for frame in tv_frames)
    for socket in (tv, phone):
        await socket.disconnect()
