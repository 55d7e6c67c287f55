"""Seats that survive a lost phone, hosts that survive a closed browser, rooms that cannot be
flooded, and a game the host ends ending on every screen."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.core import signing
from django.test import Client
from django.utils import timezone

from mafiagames import limits, rendering, seating, services, taps
from mafiagames.models import CLAIM_WAIT, Claim, HostDevice, Player, Room
from mafiagames.tables import load_table

from .helpers import host_client, player_client, room_with_players, started_game
from .test_consumers import phone_socket, receive_until, receive_until_closed

pytestmark = pytest.mark.django_db(transaction=True)


def ask(client: Client, room: Room, player: Player):
    """A new browser says "I was <player>"."""
    return client.post(f"/j/{room.code}/", {"seat": player.pk})


def waiting(room: Room) -> list[Claim]:
    return list(Claim.objects.waiting(room.pk))


def fresh(player: Player) -> Player:
    return Player.objects.get(pk=player.pk)


# --- "I was Ann": the host gives a seat to a new phone ------------------------------------------

def test_a_taken_name_offers_to_ask_the_host_for_that_seat():
    room, players = room_with_players(3)
    page = Client().post(f"/j/{room.code}/", {"name": "alice"})
    assert page.status_code == 400 and b"already uses that name" in page.content
    assert f'name="seat" value="{players[0].pk}"'.encode() in page.content and b"I was Alice: ask the host" in page.content
    assert Player.objects.filter(room=room).count() == 3


def test_the_join_page_lists_the_seats_a_player_can_ask_back():
    room, players = room_with_players(3)
    page = Client().get(f"/j/{room.code}/").content.decode()
    for player in players:
        assert f'name="seat" value="{player.pk}">I was {player.name}</button>' in page


def test_an_approved_request_moves_the_seat_and_kills_the_old_token():
    room, players, game = started_game(5)
    old_phone, new_phone = player_client(players[1]), Client()
    response = ask(new_phone, room, players[1])
    assert response.status_code == 302 and response["Location"] == f"/j/{room.code}/claim"
    page = new_phone.get(f"/j/{room.code}/claim")
    assert b"Waiting for the host to let you back in as Bob" in page.content
    assert new_phone.get(f"/p/{room.code}/")["Location"] == f"/j/{room.code}/"     # no seat yet
    tv = host_client(room).get(f"/r/{room.code}/").content.decode()
    assert "A new phone asks for a seat: Bob." in tv and 'value="let_in"' in tv

    claim = waiting(room)[0]
    assert host_client(room).post(f"/r/{room.code}/host", {"command": "let_in", "claim": claim.pk}).status_code == 204
    collected = new_phone.get(f"/j/{room.code}/claim", headers={"HX-Request": "true"})
    assert collected.status_code == 204 and collected["HX-Redirect"] == f"/p/{room.code}/"
    phone = new_phone.get(f"/p/{room.code}/")
    assert phone.status_code == 200 and b"Mafioso" in phone.content          # Bob's card, on the new phone
    # The old phone's cookie is dead: its page sends it to the join page and its taps are refused.
    assert old_phone.get(f"/p/{room.code}/")["Location"] == f"/j/{room.code}/"
    assert old_phone.post(f"/p/{room.code}/act", {"action": "ready", "turn": 0}).status_code == 403
    assert taps.tap_by_id(players[1].pk, players[1].token, {"action": "ready", "turn": "0"}).status == 403
    # Collected once: the request cannot seat a second browser.
    assert Claim.objects.get(pk=claim.pk).status == Claim.Status.TAKEN
    assert new_phone.get(f"/j/{room.code}/claim").status_code == 302   # its cookie went with the seat
    assert fresh(players[1]).handovers == 1 and game.seats[1] == players[1].pk


def test_a_refused_request_gets_no_seat():
    room, players = room_with_players(3)
    new_phone = Client()
    ask(new_phone, room, players[0])
    host_client(room).post(f"/r/{room.code}/host", {"command": "refuse", "claim": waiting(room)[0].pk})
    page = new_phone.get(f"/j/{room.code}/claim")
    assert b"The host did not let you in as Alice." in page.content and b"hx-trigger" not in page.content
    assert new_phone.get(f"/p/{room.code}/")["Location"] == f"/j/{room.code}/"
    assert fresh(players[0]).token == players[0].token


def test_a_seat_is_never_taken_without_the_hosts_approval():
    room, players = room_with_players(3)
    other_room, _ = room_with_players(2)
    new_phone = Client()
    ask(new_phone, room, players[0])
    claim = waiting(room)[0]
    # Nobody but this room's host can answer; another room's host cannot reach this request.
    assert player_client(players[1]).post(f"/r/{room.code}/host", {"command": "let_in", "claim": claim.pk}).status_code == 403
    assert host_client(other_room).post(f"/r/{other_room.code}/host",
                                        {"command": "let_in", "claim": claim.pk}).status_code == 409
    # A forged, altered or guessed request cookie is no request.
    name = seating.claim_cookie_name(room.code)
    for value in ["forged", signing.dumps({"r": room.code, "c": claim.pk, "s": "guess"}, salt=seating.CLAIM_SALT),
                  signing.dumps({"r": room.code, "c": claim.pk, "s": claim.secret}, salt="another salt")]:
        browser = Client()
        browser.cookies[name] = value
        assert browser.get(f"/j/{room.code}/claim").status_code in (302, 403)
        assert browser.get(f"/p/{room.code}/")["Location"] == f"/j/{room.code}/"
    # A request the host never answered lapses, and cannot be approved then.
    Claim.objects.filter(pk=claim.pk).update(created=timezone.now() - CLAIM_WAIT - timedelta(seconds=1))
    assert host_client(room).post(f"/r/{room.code}/host", {"command": "let_in", "claim": claim.pk}).status_code == 409
    assert b"did not let you in" in new_phone.get(f"/j/{room.code}/claim").content
    assert fresh(players[0]).token == players[0].token and fresh(players[0]).handovers == 0


def test_approving_one_request_turns_away_the_others_for_that_seat():
    room, players = room_with_players(3)
    first, second = Client(), Client()
    ask(first, room, players[2])
    ask(second, room, players[2])
    mine = waiting(room)[0]
    host_client(room).post(f"/r/{room.code}/host", {"command": "let_in", "claim": mine.pk})
    assert first.get(f"/j/{room.code}/claim").status_code == 302
    assert b"did not let you in" in second.get(f"/j/{room.code}/claim").content


def test_requests_are_bounded_per_asker_so_nobody_can_block_a_genuine_one():
    """One waiting request per browser and per address: a stranger's fake requests (as many as
    its join limit lets it send) never turn a genuine request from another address away."""
    room, players = room_with_players(4)
    stranger = Client(REMOTE_ADDR="10.0.0.66")
    statuses = [ask(stranger, room, players[i % 4]).status_code for i in range(8)]
    assert statuses == [302] * 8           # each new one withdraws the browser's last
    assert [c.player_id for c in waiting(room)] == [players[3].pk]
    others = [ask(Client(REMOTE_ADDR="10.0.0.66"), room, players[0]) for _ in range(2)]   # same address, new browsers
    assert {o.status_code for o in others} == {409}
    assert b"already waiting for the host" in others[0].content
    assert len(waiting(room)) == 1
    genuine = Client(REMOTE_ADDR="10.0.0.67")
    assert ask(genuine, room, players[1]).status_code == 302
    claim = Claim.objects.waiting(room.pk).get(player=players[1])
    assert host_client(room).post(f"/r/{room.code}/host", {"command": "let_in", "claim": claim.pk}).status_code == 204
    assert genuine.get(f"/j/{room.code}/claim").status_code == 302 and seating.player_from_cookies(
        room, {name: cookie.value for name, cookie in genuine.cookies.items()}) == players[1]


def test_a_request_for_a_seat_whose_phone_is_online_says_so_on_the_tv():
    room, players = room_with_players(3)
    Player.objects.filter(pk=players[0].pk).update(connections=1)
    ask(Client(REMOTE_ADDR="10.0.0.70"), room, players[0])
    ask(Client(REMOTE_ADDR="10.0.0.71"), room, players[1])
    door = rendering.tv_screen(load_table(room), host=True)["tv-door"]
    # the offline seat's request first: a lost phone's owner is the one who needs it
    assert door.index("asks for a seat: Bob") < door.index("asks for a seat: Alice")
    alice = door[door.index("asks for a seat: Alice"):]
    assert "Their old phone is still connected." in alice[:400]


async def test_the_old_phones_open_screen_is_told_and_closed():
    room, players, _game = await database_sync_to_async(started_game)(5)
    old = phone_socket(players[3])
    assert (await old.connect())[0]
    await old.receive_from()
    claim = await database_sync_to_async(services.ask_for_seat)(room, players[3].pk)
    await database_sync_to_async(services.answer_claim)(room, claim.pk, True)
    await receive_until(old, "Your seat is now on another phone.")
    assert await receive_until_closed(old) == 4403


# --- the host on another device -------------------------------------------------------------------

def test_the_host_code_opens_the_host_controls_on_another_device():
    room, _ = room_with_players(3)
    host = host_client(room)
    assert room.host_code not in host.get(f"/r/{room.code}/").content.decode()   # never part of the screen
    shown = host.post(f"/r/{room.code}/host", {"command": "host_code"}).content.decode()
    assert room.host_code_display in shown and f"/r/{room.code}/host-login" in shown
    assert Client().post(f"/r/{room.code}/host", {"command": "host_code"}).status_code == 403
    laptop = Client()
    assert laptop.post(f"/r/{room.code}/host-login", {"host_code": "WRONG-CODE"}).status_code == 403
    typed = room.host_code_display.lower().replace("-", " ")     # however it is typed
    assert laptop.post(f"/r/{room.code}/host-login", {"host_code": typed})["Location"] == f"/r/{room.code}/"
    assert laptop.post(f"/r/{room.code}/host", {"command": "lock"}).status_code == 204   # both hosts work
    assert host.post(f"/r/{room.code}/host", {"command": "unlock"}).status_code == 204
    assert Client().get(f"/host-login?code={room.code.lower()}")["Location"] == f"/r/{room.code}/host-login"


def test_host_code_tries_are_limited_per_address_and_never_lock_the_host_out():
    room, _ = room_with_players(1)
    guesser = Client(REMOTE_ADDR="10.0.0.31")
    answers = [guesser.post(f"/r/{room.code}/host-login", {"host_code": "AAAA-AAAA"}).status_code for _ in range(6)]
    assert answers == [403] * limits.HOST_CODE_TRIES.count + [429]
    # Even the right code waits now, from that address.
    assert guesser.post(f"/r/{room.code}/host-login", {"host_code": room.host_code}).status_code == 429
    # 25 wrong codes from other addresses: the host, from yet another, gets in with the right one.
    statuses = [Client(REMOTE_ADDR=f"10.0.1.{i}").post(f"/r/{room.code}/host-login", {"host_code": "AAAAAAAA"}).status_code
                for i in range(25)]
    assert statuses == [403] * 25
    host = Client(REMOTE_ADDR="10.0.2.1")
    assert host.post(f"/r/{room.code}/host-login", {"host_code": room.host_code})["Location"] == f"/r/{room.code}/"
    assert host.post(f"/r/{room.code}/host", {"command": "lock"}).status_code == 204
    assert guesser.post(f"/r/{room.code}/host", {"command": "unlock"}).status_code == 403


def test_the_admin_masks_the_host_code_and_rotates_it(admin_client):
    room, players = room_with_players(1)
    host_client(room)
    page = admin_client.get(f"/admin/mafiagames/room/{room.pk}/change/").content.decode()
    assert "••••-••••" in page and room.host_code_display not in page and room.host_code not in page
    for device in HostDevice.objects.filter(room=room):
        assert device.token not in page
    player_page = admin_client.get(f"/admin/mafiagames/player/{players[0].pk}/change/").content.decode()
    assert players[0].token not in player_page
    answer = admin_client.post("/admin/mafiagames/room/", {"action": "rotate_host_code", "_selected_action": [room.pk]},
                               follow=True).content.decode()
    new = Room.objects.get(pk=room.pk)
    assert new.host_code != room.host_code and new.host_code_display in answer    # shown once, to the admin
    assert new.host_code_display not in admin_client.get(f"/admin/mafiagames/room/{room.pk}/change/").content.decode()
    assert Client().post(f"/r/{room.code}/host-login", {"host_code": room.host_code}).status_code == 403


# --- ending a game ends it everywhere --------------------------------------------------------------

def test_ending_a_game_returns_every_screen_to_the_lobby_with_the_reveal_on_the_tv():
    room, players, game = started_game(5)
    assert host_client(room).post(f"/r/{room.code}/host", {"command": "abandon"}).status_code == 204
    table = load_table(Room.objects.get(pk=room.pk))
    tv = "".join(rendering.tv_screen(table, host=False).values())
    assert tv.count("The host ended the game.") == 2       # the narration and the result card
    for name, role in zip(game.names, ["Mafioso"] * 3 + ["Detective"] * 2):
        assert f'<span class="name">{name}</span> <span class="role">{role}</span>' in tv
    for player in players:      # after a reload too: the page is rendered afresh
        page = player_client(player).get(f"/p/{room.code}/").content.decode()
        assert "The host ended the game." in page and "You're in!" in page
        assert "Mafioso" not in page and "Detective" not in page and "Your vote" not in page


async def test_ending_a_game_reaches_open_phones():
    room, players, _game = await database_sync_to_async(started_game)(5)
    phone = phone_socket(players[4])
    assert (await phone.connect())[0]
    await phone.receive_from()
    await database_sync_to_async(services.abandon_game)(room)
    frame = await receive_until(phone, "The host ended the game.")
    assert 'id="ph-role"' in frame and "Your role appears here" in frame
    await phone.disconnect()


# --- rooms that cannot be flooded -----------------------------------------------------------------

def test_a_room_seats_at_most_the_largest_table_and_its_audience():
    room, _ = room_with_players(0)
    Player.objects.bulk_create([Player(room=room, name=f"P{i}", name_key=f"p{i}", order=i)
                                for i in range(services.seat_cap())])
    refused = Client().post(f"/j/{room.code}/", {"name": "One more"})
    assert refused.status_code == 409 and b"This room is full." in refused.content
    assert room.players.count() == services.seat_cap() == 21 + services.AUDIENCE


def test_joins_are_limited_per_client_address():
    room, _ = room_with_players(0)
    phones = [Client(REMOTE_ADDR="10.0.0.7") for _ in range(limits.JOINS.count + 1)]   # one NAT, many phones
    statuses = [phone.post(f"/j/{room.code}/", {"name": f"N{i}"}).status_code for i, phone in enumerate(phones)]
    assert statuses == [302] * limits.JOINS.count + [429]
    assert b"Too many joins" in phones[-1].post(f"/j/{room.code}/", {"name": "N99"}).content
    assert Client(REMOTE_ADDR="10.0.0.8").post(f"/j/{room.code}/", {"name": "Neighbour"}).status_code == 302
    assert room.players.count() == limits.JOINS.count + 1


def test_a_locked_room_takes_no_one_new_but_gives_a_seat_back():
    room, players = room_with_players(3)
    assert Client().post(f"/r/{room.code}/host", {"command": "lock"}).status_code == 403   # the host's alone
    host_client(room).post(f"/r/{room.code}/host", {"command": "lock"})
    refused = Client().post(f"/j/{room.code}/", {"name": "Mallory"})
    assert refused.status_code == 403 and b"The host has locked this room" in refused.content
    assert ask(Client(), room, players[0]).status_code == 302 and len(waiting(room)) == 1
    assert "Room locked: unlock" in host_client(room).get(f"/r/{room.code}/").content.decode()
    host_client(room).post(f"/r/{room.code}/host", {"command": "unlock"})
    assert Client().post(f"/j/{room.code}/", {"name": "Mallory"}).status_code == 302


def test_probing_room_codes_is_limited_per_client_address():
    room, _ = room_with_players(1)
    prober = Client(REMOTE_ADDR="10.0.0.9")
    misses = [prober.get(f"/j/{code}/").status_code for code in ("QQQQ", "QQQW", "QQQX") * 7][:limits.MISSES.count]
    assert misses == [404] * limits.MISSES.count
    assert prober.get(f"/j/QQQY/").status_code == 429
    assert prober.get(f"/j/{room.code}/").status_code == 429      # even a real code: the list is not for reading
    assert Client(REMOTE_ADDR="10.0.0.10").get(f"/j/{room.code}/").status_code == 200
    assert Client().get(f"/j/{room.code}/").status_code == 200     # the host's own machine is never limited


def test_the_counter_forgets_old_windows_and_bounds_its_memory():
    now = [0.0]
    limit = limits.Limit(2, 60, max_keys=4, clock=lambda: now[0])
    assert [limit.hit("a") for _ in range(3)] == [True, True, False]
    now[0] = 60.0
    assert limit.hit("a")          # a new window
    for key in "bcdefgh":
        limit.hit(key)
    assert len(limit._windows) <= 4


async def test_probing_room_codes_over_websockets_counts_too():
    room, _ = await database_sync_to_async(room_with_players)(1)
    from .test_consumers import tv_socket

    def from_prober(code):
        socket = tv_socket(room)
        socket.scope["path"] = f"/ws/r/{code}/"
        socket.scope["client"] = ["10.0.0.44", 5555]
        return socket

    for _ in range(limits.MISSES.count):
        assert (await from_prober("QQQQ").connect()) == (False, 4404)
    assert (await from_prober(room.code).connect()) == (False, 4404)     # the list is not for reading
    other = tv_socket(room)
    other.scope["client"] = ["10.0.0.45", 5555]
    assert (await other.connect())[0]
    await other.disconnect()
