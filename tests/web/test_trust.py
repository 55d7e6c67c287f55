"""Nobody gets in: host powers change hands only with an online host's yes, the host code works
once, a host can revoke another device at once, and the client address every limit keys on is
the one the client cannot choose (mafiagames/clients.py, services.use_host_code)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.test import Client, override_settings

from mafiagames import clients, seating, services, taps
from mafiagames.models import HostDevice, Room

from .helpers import host_client, player_client, room_with_players, started_game
from .test_consumers import phone_socket, receive_until, receive_until_closed, tv_socket

pytestmark = pytest.mark.django_db(transaction=True)


def fresh(room: Room) -> Room:
    return Room.objects.get(pk=room.pk)


def shown_code(host: Client, room: Room) -> str:
    """The code as the host's "Host code" button shows it on the TV (where everyone can read it)."""
    page = host.post(f"/r/{room.code}/host", {"command": "host_code"}).content.decode()
    code = fresh(room).host_code_display
    assert code in page
    return code


def login(client: Client, room: Room, code: str):
    return client.post(f"/r/{room.code}/host-login", {"host_code": code})


def can_host(client: Client, room: Room) -> bool:
    return client.post(f"/r/{room.code}/host", {"command": "lock" if not fresh(room).locked else "unlock"}).status_code == 204


async def test_a_guest_who_reads_the_code_off_the_tv_cannot_take_a_seat_or_the_controls():
    """The probe's escalation: the host shows the code; a seated player types it on their phone
    while the TV is online; asks for the Agent's seat from a second browser; tries to let itself in."""
    room, players, game = await database_sync_to_async(started_game)(5)
    host = await database_sync_to_async(host_client)(room)
    tv = tv_socket(room, host=True)
    assert (await tv.connect())[0]
    await tv.receive_from()
    code = await database_sync_to_async(shown_code)(host, room)

    guest = await database_sync_to_async(player_client)(players[0])
    answer = await database_sync_to_async(login)(guest, room, code)
    assert answer.status_code == 302 and answer["Location"] == f"/r/{room.code}/host-login"   # it waits, not hosts
    frame = await receive_until(tv, "A new device asks to host")
    assert 'value="allow_host"' in frame and 'value="refuse_host"' in frame
    assert not await database_sync_to_async(can_host)(guest, room)
    waiting = (await database_sync_to_async(guest.get)(f"/r/{room.code}/host-login")).content.decode()
    assert "Waiting for the host to allow this device" in waiting

    # The code was used: it changed, and a second device typing it gets nothing.
    second = Client()
    refused = await database_sync_to_async(login)(second, room, code)
    assert refused.status_code == 403 and "That is not this room" in refused.content.decode()
    assert await database_sync_to_async(lambda: fresh(room).host_code_display)() != code

    # The seat request from a second browser waits for the host; the guest cannot let it in.
    agent = Client()
    assert (await database_sync_to_async(agent.post)(f"/j/{room.code}/", {"seat": players[4].pk})).status_code == 302
    claim = await database_sync_to_async(lambda: room.claims.get(status="pending"))()
    let_in = await database_sync_to_async(guest.post)(f"/r/{room.code}/host", {"command": "let_in", "claim": claim.pk})
    assert let_in.status_code == 403
    assert (await database_sync_to_async(agent.get)(f"/j/{room.code}/claim")).status_code == 200   # still waiting
    assert "Agent" not in (await database_sync_to_async(agent.get)(f"/p/{room.code}/")).content.decode()

    # The host refuses the device: its page says so, and it stays without controls.
    device = await database_sync_to_async(lambda: HostDevice.objects.get(room=room, status="asking"))()
    assert (await database_sync_to_async(host.post)(f"/r/{room.code}/host", {"command": "refuse_host", "device": device.pk})
            ).status_code == 204
    assert "did not allow this device" in (await database_sync_to_async(guest.get)(f"/r/{room.code}/host-login")).content.decode()
    assert not await database_sync_to_async(can_host)(guest, room)
    await tv.disconnect()


async def test_an_allowed_device_hosts_until_another_host_revokes_it_over_http_and_socket():
    room, players = await database_sync_to_async(room_with_players)(3)
    host = await database_sync_to_async(host_client)(room)
    tv = tv_socket(room, host=True)
    assert (await tv.connect())[0]
    await tv.receive_from()
    laptop = Client()
    code = await database_sync_to_async(shown_code)(host, room)
    await database_sync_to_async(login)(laptop, room, code)
    device = await database_sync_to_async(lambda: HostDevice.objects.get(room=room, status="asking"))()
    assert (await database_sync_to_async(host.post)(f"/r/{room.code}/host", {"command": "allow_host", "device": device.pk})
            ).status_code == 204
    assert (await database_sync_to_async(laptop.get)(f"/r/{room.code}/host-login"))["Location"] == f"/r/{room.code}/"
    assert await database_sync_to_async(can_host)(laptop, room)

    # The laptop's TV page is open; the first TV lists it and revokes it.
    laptop_tv = tv_socket(room)
    laptop_tv.scope["headers"].append((b"cookie", f"{seating.host_cookie_name(room.code)}="
                                       f"{laptop.cookies[seating.host_cookie_name(room.code)].value}".encode()))
    assert (await laptop_tv.connect())[0]
    assert 'value="revoke"' in await receive_until(laptop_tv, "Device 1")
    frame = await receive_until(tv, "Device 2")
    assert "this screen" in frame
    # A host cannot revoke its own screen; it revokes the other one.
    mine = await database_sync_to_async(lambda: HostDevice.objects.filter(room=room, status="hosting").order_by("number")[0])()
    self_revoke = await database_sync_to_async(host.post)(f"/r/{room.code}/host", {"command": "revoke", "device": mine.pk})
    assert self_revoke.status_code == 409
    assert (await database_sync_to_async(host.post)(f"/r/{room.code}/host", {"command": "revoke", "device": device.pk})
            ).status_code == 204
    assert not await database_sync_to_async(can_host)(laptop, room)                     # 403 over HTTP
    await receive_until(laptop_tv, "Another host took the host controls from this screen.")
    assert await receive_until_closed(laptop_tv) == 4403                                # and the socket closed
    assert await database_sync_to_async(can_host)(host, room)
    await tv.disconnect()


def test_with_no_host_screen_online_the_code_alone_lets_a_device_in_once():
    room, _ = room_with_players(2)
    host = host_client(room)   # its TV page is closed: the host's browser is gone
    code = shown_code(host, room)
    laptop = Client()
    assert login(laptop, room, code)["Location"] == f"/r/{room.code}/"
    assert can_host(laptop, room)
    assert login(Client(), room, code).status_code == 403       # single-use
    assert fresh(room).host_code_display != code


def test_a_handover_changes_the_host_code():
    room, players = room_with_players(3)
    host = host_client(room)
    code = shown_code(host, room)
    services.Player.objects.filter(pk=players[1].pk).update(connections=1)
    host.post(f"/r/{room.code}/host", {"command": "offer_host", "player": players[1].pk})
    player_client(players[1]).post(f"/p/{room.code}/host-offer", {"answer": "accept"})
    assert fresh(room).host_code_display != code
    assert login(Client(), room, code).status_code == 403


def test_the_tv_lists_who_hosts_and_asks():
    room, players = room_with_players(2)
    host = host_client(room)
    page = host.get(f"/r/{room.code}/").content.decode()
    assert "Device 1 · this screen" in page and 'value="revoke"' not in page


async def test_a_host_tv_online_counts_and_its_close_uncounts():
    room, _ = await database_sync_to_async(room_with_players)(1)
    tv = tv_socket(room, host=True)
    assert (await tv.connect())[0]
    await tv.receive_from()
    assert await database_sync_to_async(services.host_online)(room)
    await tv.disconnect()
    assert not await database_sync_to_async(services.host_online)(room)


# --- the client's address ---------------------------------------------------------------------------

def test_forwarding_headers_count_only_from_a_named_proxy():
    forwarded = {"x-forwarded-for": "127.0.0.1"}
    assert clients.resolve("10.0.0.5", forwarded) == clients.Client("10.0.0.5")
    assert clients.resolve("127.0.0.1", {}) == clients.Client("127.0.0.1", exempt=True)
    assert clients.resolve("127.0.0.1", forwarded).limited                  # a proxy nobody named
    assert clients.resolve("127.0.0.5", {}).limited                         # a stranger on loopback
    with override_settings(TRUSTED_PROXIES=["10.0.0.1", "172.28.0.0/24"]):
        # what the proxy appended (the rightmost) is the client; what the client wrote is not
        assert clients.resolve("10.0.0.1", {"x-forwarded-for": "127.0.0.1, 192.0.2.7"}) == clients.Client("192.0.2.7")
        assert clients.resolve("172.28.0.3", {"x-forwarded-for": "192.0.2.8, 10.0.0.1"}) == clients.Client("192.0.2.8")
        assert clients.resolve("10.0.0.1", {"x-forwarded-for": "nonsense"}) == clients.Client("10.0.0.1")
        assert clients.resolve("10.0.0.9", {"x-forwarded-for": "192.0.2.7"}) == clients.Client("10.0.0.9")


def test_one_audience_answer_per_address():
    """Watchers joined from one phone (one address) count once in the audience's poll."""
    from .test_audience import form, to_team_vote   # the audience's own helpers
    room, players = room_with_players(5)
    from .helpers import FIVE_ROLES
    game = to_team_vote(services.start_game(room, seed=1, deal={"roles": FIVE_ROLES, "kmotr": 0}))
    watchers = [services.join_room(room, name, address=address)
                for name, address in (("W1", "10.0.0.50"), ("W2", "10.0.0.50"), ("W3", "10.0.0.51"))]
    poll = f"job{game.state['round']}"
    answer = lambda watcher, seat=1: taps.tap(room, watcher.pk, form(action="suspect", poll=poll, seat=seat))
    assert answer(watchers[0]).status == 204
    refused = answer(watchers[1])
    assert refused.status == 409 and "answered this poll already" in refused.message
    assert answer(watchers[2]).status == 204
    assert answer(watchers[0], 2).status == 204          # changing one's own answer is fine
    assert game.suspicions.count() == 2
