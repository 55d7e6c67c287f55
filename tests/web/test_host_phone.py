"""Host from a phone (issue 16): the host hands the host controls to a player's phone.

The host offers them (a command of the host's: only the current host may), the offered phone
accepts or declines (only that phone may); accepting rotates the host token, so the old host
browser loses the controls (its page and its open socket, live) and its posts are refused, while
the phone's host posts work.  The host code stays the way back."""

from __future__ import annotations

import dataclasses
import re

import pytest
from channels.db import database_sync_to_async
from django.core import signing
from django.test import Client

from mafiagames import rendering, seating, services
from mafiagames.models import Game, HostDevice, Player, Room
from mafiagames.tables import load_table

from .helpers import host_client, player_client, room_with_players
from .test_consumers import phone_socket, receive_until, tv_socket

pytestmark = pytest.mark.django_db(transaction=True)


def connected(players) -> None:
    """The players' phones are open (the host offers the controls to a connected phone only)."""
    Player.objects.filter(pk__in=[p.pk for p in players]).update(connections=1)


def fresh(room: Room) -> Room:
    return Room.objects.get(pk=room.pk)


def offer(client: Client, room: Room, player: Player):
    return client.post(f"/r/{room.code}/host", {"command": "offer_host", "player": player.pk})


def answer(client: Client, room: Room, answer: str):
    return client.post(f"/p/{room.code}/host-offer", {"answer": answer})


def handed_over(n: int = 5, to: int = 1):
    """A room whose host (the TV) handed the controls to player ``to``'s phone, which accepted."""
    room, players = room_with_players(n)
    connected(players)
    tv = host_client(room)
    assert offer(tv, room, players[to]).status_code == 204
    assert answer(player_client(players[to]), room, "accept").status_code == 204
    return room, players, tv


def hosting(room: Room) -> list[int]:
    return list(HostDevice.objects.hosting(room.pk).values_list("pk", flat=True))


def unchanged(room: Room, before: Room, devices: list[int]) -> bool:
    after = fresh(room)
    return (after.host_offer_id, after.host_player_id, hosting(room), after.host_generation, after.version) == \
        (before.host_offer_id, before.host_player_id, devices, before.host_generation, before.version)


def test_only_the_current_host_can_offer_the_controls():
    room, players = room_with_players(3)
    connected(players)
    before, devices = fresh(room), hosting(room)
    forged = Client()
    forged.cookies[seating.host_cookie_name(room.code)] = signing.dumps(
        {"r": room.code, "t": "guessed"}, salt=seating.HOST_SALT)
    for client in (player_client(players[1]), Client(), forged):
        refused = offer(client, room, players[1])
        assert refused.status_code == 403 and "Only the host can do that." in refused.content.decode()
    assert unchanged(room, before, devices)


@pytest.mark.parametrize("whom, message", [
    ("unknown", "No such player in this room."),
    ("offline", "Dave: that phone is not connected."),
    ("malformed", "That request was malformed."),
])
def test_an_offer_to_nobody_who_can_take_it_is_refused(whom, message):
    room, players = room_with_players(4)
    connected(players[:3])
    tv = host_client(room)
    before, devices = fresh(room), hosting(room)
    player = {"unknown": 999999, "offline": players[3].pk, "malformed": "Ann"}[whom]
    refused = tv.post(f"/r/{room.code}/host", {"command": "offer_host", "player": player})
    assert refused.status_code in (400, 409) and message in refused.content.decode()
    assert unchanged(room, before, devices)


def test_the_offered_phone_is_asked_and_the_tv_says_so():
    room, players = room_with_players(3)
    connected(players)
    tv = host_client(room)
    assert offer(tv, room, players[1]).status_code == 204
    assert "Host controls offered: Bob. Waiting for that phone." in tv.get(f"/r/{room.code}/").content.decode()
    asked = player_client(players[1]).get(f"/p/{room.code}/").content.decode()
    assert "The host offers you the controls" in asked and 'value="accept"' in asked
    for other in (players[0], players[2]):    # every other phone's host section is empty
        page = player_client(other).get(f"/p/{room.code}/").content.decode()
        assert "offers you the controls" not in page
        assert re.search(r'class="ph-host host-only">\s*</section>', page)


def test_only_the_offered_phone_can_accept():
    room, players = room_with_players(3)
    connected(players)
    tv = host_client(room)
    assert answer(player_client(players[1]), room, "accept").status_code == 409    # nothing offered yet
    assert offer(tv, room, players[1]).status_code == 204
    before, devices = fresh(room), hosting(room)
    refused = answer(player_client(players[2]), room, "accept")
    assert refused.status_code == 409 and "has not offered you the controls" in refused.content.decode()
    assert answer(Client(), room, "accept").status_code == 403                     # no seat at all
    assert answer(player_client(players[1]), room, "maybe").status_code == 400
    assert unchanged(room, before, devices)


def test_a_new_offer_replaces_the_old_and_a_decline_clears_it():
    room, players = room_with_players(3)
    connected(players)
    tv = host_client(room)
    assert offer(tv, room, players[1]).status_code == 204
    assert offer(tv, room, players[2]).status_code == 204
    assert answer(player_client(players[1]), room, "accept").status_code == 409    # stale: offered to Carol now
    assert answer(player_client(players[2]), room, "decline").status_code == 204
    room = fresh(room)
    assert room.host_offer_id is None and room.host_player_id is None
    assert answer(player_client(players[2]), room, "accept").status_code == 409    # declined is gone
    assert offer(tv, room, players[0]).status_code == 204                          # the TV is still the host


def test_after_accepting_the_old_host_loses_the_controls_and_the_phone_has_them():
    room, players, tv = handed_over()
    bob = player_client(players[1])
    after = fresh(room)
    assert after.host_player_id == players[1].pk and after.host_offer_id is None and after.host_generation == 1

    # The old TV: no controls at all, a line saying whose phone has them; its host posts are refused.
    page = tv.get(f"/r/{room.code}/").content.decode()
    assert "Host on a phone: Bob" in page
    assert "<form" not in page and "Host controls" not in page and 'name="ruleset"' not in page
    for command in ({"command": "start"}, {"command": "lock"}, {"command": "offer_host", "player": players[2].pk}):
        assert tv.post(f"/r/{room.code}/host", command).status_code == 403
    assert fresh(room).host_offer_id is None and not fresh(room).locked

    # The phone: the host's controls, apart from its own panel; its host posts work.
    page = bob.get(f"/p/{room.code}/").content.decode()
    assert "You are the host" in page and 'name="ruleset"' in page and 'value="start"' in page
    assert bob.post(f"/r/{room.code}/host", {"command": "configure", "ruleset": "mafia_pl"}).status_code == 204
    services.configure(room, "mafie", {})
    assert bob.post(f"/r/{room.code}/host", {"command": "start"}).status_code == 204
    game = Game.objects.get(room=room)
    in_game = bob.get(f"/p/{room.code}/").content.decode()
    assert 'value="go_on"' in in_game and 'value="pause"' in in_game   # the briefing's "Start without waiting"
    assert bob.post(f"/r/{room.code}/host", {"command": "move", "move": "go_on", "turn": game.state["turn"]}).status_code == 204
    assert not Game.objects.get(pk=game.pk).state.get("briefing")
    assert bob.post(f"/r/{room.code}/host", {"command": "pause"}).status_code == 204
    assert Game.objects.get(pk=game.pk).paused_at is not None
    # Other phones never get the controls.
    assert 'value="pause"' not in player_client(players[2]).get(f"/p/{room.code}/").content.decode()


def test_the_new_host_can_hand_over_again():
    room, players, _tv = handed_over()
    bob, carol = player_client(players[1]), player_client(players[2])
    assert "Hand the controls to a phone" in bob.get(f"/p/{room.code}/").content.decode()
    assert offer(carol, room, players[3]).status_code == 403        # not Carol's to offer
    assert offer(bob, room, players[1]).status_code == 409          # Bob hosts already
    assert offer(bob, room, players[2]).status_code == 204
    assert answer(carol, room, "accept").status_code == 204
    assert fresh(room).host_player_id == players[2].pk and fresh(room).host_generation == 2
    assert bob.post(f"/r/{room.code}/host", {"command": "lock"}).status_code == 403
    assert carol.post(f"/r/{room.code}/host", {"command": "lock"}).status_code == 204


def test_the_host_code_takes_the_controls_back_to_the_tv_with_the_phones_yes():
    room, players, old_tv = handed_over()
    bob = player_client(players[1])
    shown = bob.post(f"/r/{room.code}/host", {"command": "host_code"}).content.decode()
    assert fresh(room).host_code_display in shown        # the phone host can read the way back
    tv = Client()
    # Bob's phone is online: the code alone is not enough, the phone must allow the TV.
    assert tv.post(f"/r/{room.code}/host-login", {"host_code": fresh(room).host_code})["Location"] == \
        f"/r/{room.code}/host-login"
    assert tv.post(f"/r/{room.code}/host", {"command": "lock"}).status_code == 403
    asking = HostDevice.objects.get(room=room, status=HostDevice.Status.ASKING)
    assert "A new device asks to host" in bob.get(f"/p/{room.code}/").content.decode()
    assert bob.post(f"/r/{room.code}/host", {"command": "allow_host", "device": asking.pk}).status_code == 204
    assert tv.get(f"/r/{room.code}/host-login")["Location"] == f"/r/{room.code}/"
    # The TV hosts now beside the phone; it takes the phone's controls away.
    assert tv.post(f"/r/{room.code}/host", {"command": "revoke_phone"}).status_code == 204
    assert fresh(room).host_player_id is None
    assert tv.post(f"/r/{room.code}/host", {"command": "lock"}).status_code == 204
    assert bob.post(f"/r/{room.code}/host", {"command": "unlock"}).status_code == 403
    assert "You are the host" not in bob.get(f"/p/{room.code}/").content.decode()
    assert old_tv.post(f"/r/{room.code}/host", {"command": "unlock"}).status_code == 403   # its token stays dead


def test_the_phone_that_hosts_cannot_be_removed_from_the_room():
    room, players, _tv = handed_over()
    refused = player_client(players[1]).post(f"/r/{room.code}/host", {"command": "kick", "player": players[1].pk})
    assert refused.status_code == 409 and "cannot be removed" in refused.content.decode()
    assert Player.objects.filter(pk=players[1].pk).exists()


def test_a_seat_given_to_a_new_phone_takes_the_host_controls_with_it():
    """The host's phone is the seat's: the seat's token changes when it moves to another phone
    (services.answer_claim), and the old phone's host posts die with it."""
    room, players, _tv = handed_over()
    bob = player_client(players[1])
    claim = services.ask_for_seat(room, players[1].pk)
    services.answer_claim(room, claim.pk, approve=True)
    assert bob.post(f"/r/{room.code}/host", {"command": "lock"}).status_code == 403
    assert player_client(Player.objects.get(pk=players[1].pk)).post(
        f"/r/{room.code}/host", {"command": "lock"}).status_code == 204


def test_only_the_hosting_phone_renders_the_host_controls():
    room, players, _tv = handed_over()
    table = load_table(fresh(room))
    screens = {p.pk: rendering.phone_screen(table, p.pk) for p in players}
    assert "You are the host" in screens[players[1].pk]["ph-host"]
    # The rest of the hosting phone is what it would be without the controls.
    for player in players:
        if player.pk != players[1].pk:
            assert "<form" not in screens[player.pk]["ph-host"]
    without = rendering.phone_screen(dataclasses.replace(table, host_phone=None), players[1].pk)
    assert {k: v for k, v in screens[players[1].pk].items() if k != "ph-host"} == \
        {k: v for k, v in without.items() if k != "ph-host"}


async def test_the_old_tv_loses_the_controls_live_and_the_phone_gets_them():
    room, players = await database_sync_to_async(room_with_players)(3)
    await database_sync_to_async(connected)(players)
    tv = tv_socket(room, host=True)
    assert (await tv.connect())[0]
    assert "Host controls" in await tv.receive_from()
    phone = phone_socket(players[1])
    assert (await phone.connect())[0]
    first = await phone.receive_from()
    assert "You are the host" not in first

    await database_sync_to_async(services.offer_host)(room, players[1].pk)
    assert "The host offers you the controls" in await receive_until(phone, "offers you the controls")
    await database_sync_to_async(services.answer_host_offer)(room, players[1].pk, True)
    lost = await receive_until(tv, "Host on a phone: Bob")
    assert 'id="tv-host"' in lost and 'id="tv-door"' in lost and "<form" not in lost
    assert 'id="ph-host"' in await receive_until(phone, "You are the host")
    await phone.disconnect()
    await tv.disconnect()
