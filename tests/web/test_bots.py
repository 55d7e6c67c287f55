"""Bot seats (engines/base.py, "Bots"; services.add_bot; timers.py): the host fills empty seats
with bots in the lobby, only for a ruleset that has one and up to its most players; during a
game the game master plays each bot's moves as its seat through the same writer as a phone
(``services.submit``), paced, restart-safe; a bot is never a lost phone.  Played on Heads or
Tails (tests/tiny), whose bot calls heads."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from django.template import engines
from django.test import Client

from engines import registry
from engines.base import PROXY
from engines.briefing import SEEN
from mafiagames import db, presenters, rendering, screens, seating, services, timers
from mafiagames.fanout import HUB
from mafiagames.models import Event, Game, Player, Room, game_dict
from mafiagames.tables import load_table
from tests import tiny
from tests.tiny import presenter as tiny_presenter

from .helpers import host_client, player_client, room_with_players
from .test_timers import Screen, until

pytestmark = pytest.mark.django_db(transaction=True)

HEADS = {"type": "call", "side": "heads"}
NO_CLOCK = {"seconds": "off"}   # nothing but the players (and the bots) moves the game on


@pytest.fixture
def hosted(monkeypatch, settings):
    """Heads or Tails hosted here as ``EXTRA_RULESETS`` hosts it (mafiagames/apps.py), for one
    test; its host may choose for an absent seat (``proxy_moves``), so that a bot can be seen
    never to be offered.  Bots move at once (``BOT_SECONDS``): the tests wait on versions."""
    engine = dataclasses.replace(tiny.RULESET, proxy_moves=lambda state: {
        seat: tiny.RULESET.legal_actions(state, seat) for seat in tiny.RULESET.waiting_for(state)})
    monkeypatch.setitem(registry._ENGINES, "tiny", engine)
    monkeypatch.setitem(registry._RULESETS, "tiny", registry.served(engine))
    monkeypatch.setitem(presenters._EXTRA, "tiny", tiny_presenter)
    presenters.presenter.cache_clear()
    # Its templates, found as an app's would be; the engine itself is kept (a new one would drop
    # the templates compiled as the server starts: tests/web/test_views.py).
    django_engine = engines["django"].engine
    monkeypatch.setattr(django_engine, "dirs", [*django_engine.dirs, Path(tiny.__file__).parent / "templates"])
    settings.BOT_SECONDS = 0.01
    # Game ids come again in a fresh database: no bot of an earlier test is armed or stopped.
    monkeypatch.setattr(timers, "_armed", set())
    monkeypatch.setattr(timers, "_stopped", set())
    yield engine
    presenters.presenter.cache_clear()


def post(client, room, **data):
    return client.post(f"/r/{room.code}/host", data)


def tiny_room(humans: int, bots: int, options: dict | None = None) -> tuple[Room, list[Player]]:
    room, players = room_with_players(humans)
    services.configure(room, "tiny", options if options is not None else NO_CLOCK)
    return room, players + [services.add_bot(room) for _ in range(bots)]


def tv_of(room) -> str:
    return host_client(room).get(f"/r/{room.code}/").content.decode()


# --- the lobby -----------------------------------------------------------------------------------

def test_the_host_adds_bots_each_named_and_marked_and_seated_last(hosted):
    room, players = room_with_players(2)
    services.configure(room, "tiny", {})
    assert 'value="add_bot"' in tv_of(room)
    for _ in range(2):
        assert post(host_client(room), room, command="add_bot").status_code == 204
    seated = list(room.players.all())
    assert [(p.name, p.bot) for p in seated] == [("Alice", False), ("Bob", False), ("Bot 1", True), ("Bot 2", True)]
    assert all(p.token == "" for p in seated if p.bot)   # no phone can hold their seats
    tv = tv_of(room)
    assert tv.count('class="chip bot-mark"') == 4             # on the roster and on the host's seating
    assert "Bot 2" in player_client(players[0]).get(f"/p/{room.code}/").content.decode()


def test_a_bots_name_is_one_of_its_own_in_the_room_and_in_the_rooms_language(hosted):
    room, players = room_with_players(1)
    services.join_room(room, "bot 1")                    # a person took the first bot's name
    services.configure(room, "tiny", {})
    assert services.add_bot(room).name == "Bot 2"
    ukrainian = services.create_room("uk")
    services.configure(ukrainian, "tiny", {})
    post(host_client(ukrainian), ukrainian, command="add_bot")
    assert ukrainian.players.get().name == "Бот 1"       # the host's words are the room's language


def test_only_the_host_adds_a_bot(hosted):
    room, players = room_with_players(2)
    services.configure(room, "tiny", {})
    assert post(player_client(players[0]), room, command="add_bot").status_code == 403
    assert post(Client(), room, command="add_bot").status_code == 403
    assert host_client(room).post("/r/QQQQ/host", {"command": "add_bot"}).status_code == 404
    assert not room.players.filter(bot=True).exists()


def test_no_bot_beyond_the_rulesets_most_players(hosted):
    room, players = room_with_players(5)
    services.configure(room, "tiny", {})
    assert post(host_client(room), room, command="add_bot").status_code == 204   # the sixth seat
    assert 'value="add_bot"' not in tv_of(room)
    refused = post(host_client(room), room, command="add_bot")
    assert refused.status_code == 409 and "at most 6 players" in refused.content.decode()
    assert room.players.filter(bot=True).count() == 1


def test_no_bot_for_a_ruleset_without_one(hosted):
    room, players = room_with_players(2)                 # Mafie: no bot (engines/base.py, "Bots")
    assert registry.get(room.ruleset).bot is None
    assert 'value="add_bot"' not in tv_of(room)
    refused = post(host_client(room), room, command="add_bot")
    assert refused.status_code == 409 and "no bot players" in refused.content.decode()
    assert not room.players.filter(bot=True).exists()


def test_no_bot_while_a_game_runs_and_no_game_of_a_ruleset_without_bots_seats_one(hosted):
    room, players = tiny_room(4, 1)                      # five: enough for Mafie
    services.start_game(room)
    assert post(host_client(room), room, command="add_bot").status_code == 409
    services.abandon_game(room)
    services.configure(room, "mafie", {})
    room.refresh_from_db()
    with pytest.raises(services.ServiceError, match="remove the bots first"):
        services.start_game(room)


def test_the_host_removes_a_bot_with_the_seats_remove_control(hosted):
    room, players = tiny_room(2, 2)
    bot = players[2]
    assert post(host_client(room), room, command="kick", player=bot.pk).status_code == 204
    assert [p.name for p in room.players.all()] == ["Alice", "Bob", "Bot 2"]
    assert services.add_bot(room).name == "Bot 1"        # its name is free again


def test_no_phone_can_take_or_ask_for_a_bots_seat(hosted):
    room, players = tiny_room(1, 1)
    bot = players[1]
    # Even a validly signed cookie naming the bot's seat with its (empty) token is no seat.
    cookie = seating.player_token(Player(pk=bot.pk, room=room, token=""))
    assert seating.seated_player(room.code, {seating.player_cookie_name(room.code): cookie}) is None
    forged = Client()
    forged.cookies[seating.player_cookie_name(room.code)] = cookie
    assert forged.get(f"/p/{room.code}/").status_code == 302           # sent to join
    with pytest.raises(services.ServiceError):
        services.ask_for_seat(room, bot.pk)
    join = Client().get(f"/j/{room.code}/").content.decode()
    assert "I was Alice" in join and "Bot 1" not in join
    with pytest.raises(services.ServiceError):
        services.offer_host(room, bot.pk)


# --- during a game -------------------------------------------------------------------------------

def test_a_bot_is_never_a_lost_phone_nor_the_hosts_to_choose_for(hosted):
    """Nobody's phone is connected in this test: the person's seat is offline and the host may
    call for it; the bots' seats are neither."""
    room, players = tiny_room(1, 2)
    game = services.start_game(room)
    game = services.host_move(room, "go_on", expected_turn=None)   # past the briefing: everyone calls
    table = load_table(room)
    assert [p["connected"] for p in table.players] == [False, True, True]
    offered = rendering.host_for_seats(table)
    assert [row["seat"] for row in offered["proxy"]] == [0]
    tv = tv_of(room)
    assert tv.count('value="proxy"') == 1 and tv.count("offline") == 1 and tv.count('class="chip bot-mark"') == 2
    with pytest.raises(services.Conflict, match="Bot 1 is a bot"):
        services.host_for_seat(room, {"type": PROXY, "seat": 1, "action": HEADS}, expected_turn=None)
    assert rendering._hand_over(table)["offer_to"] == []


async def test_one_phone_and_two_bots_play_to_the_end_the_bots_moves_through_the_writer_as_their_seats(hosted):
    room, players = await database_sync_to_async(tiny_room)(1, 2)
    lobby = (await database_sync_to_async(Room.objects.get)(pk=room.pk)).version
    screen = Screen()
    await HUB.register(room.code, screen)
    try:
        game = await database_sync_to_async(services.start_game)(room, deal={"coin": True})
        assert game.bots == [1, 2]
        started = lobby + 1   # the start's own version
        # Each bot looks at its role, then calls (engines/briefing.py: players act meanwhile):
        # four moves, one room version each; the phone has not tapped yet.
        await until(screen, lambda: started + 4 in screen.versions)
        middle = await database_sync_to_async(Game.objects.get)(pk=game.pk)
        assert middle.version == 4 and middle.status == "running"
        assert middle.state["called"] == [False, True, True]
        for action in (SEEN, HEADS):
            await db.write(services.submit_for_player, room, players[0].pk, action, expected_turn=None)
        over = await database_sync_to_async(Game.objects.get)(pk=game.pk)
        assert over.status == "finished" and over.outcome["winners"] == [0, 1, 2]
        actions = await database_sync_to_async(
            lambda: [e.data for e in Event.objects.filter(game=over, kind="action").order_by("seq")])()
        assert sorted((a["seat"], a["action"]["type"]) for a in actions) == [
            (0, "call"), (0, "seen_role"), (1, "call"), (1, "seen_role"), (2, "call"), (2, "seen_role")]
        assert all(a["action"] == HEADS for a in actions if a["action"]["type"] == "call")
    finally:
        await HUB.unregister(room.code, screen)
        screens.forget(room.code)


async def test_after_a_restart_the_bots_of_a_running_game_play_on(hosted):
    """A game whose bots nobody armed (no process listened as it started): the process that
    starts (timers.resume) finds it, and its bots play it to its end."""
    room, players = await database_sync_to_async(tiny_room)(0, 2)
    HUB.adopt(None)   # the process is down: nobody hears the game start
    game = await database_sync_to_async(services.start_game)(room)
    started = (await database_sync_to_async(Room.objects.get)(pk=room.pk)).version
    screen = Screen()
    await HUB.register(room.code, screen)
    try:
        timers._resumed.discard(asyncio.get_running_loop())   # as if this process had just started
        timers.resume()
        await until(screen, lambda: started + 4 in screen.versions)
        over = await database_sync_to_async(Game.objects.get)(pk=game.pk)
        assert over.status == "finished" and over.version == 4 and over.outcome is not None
    finally:
        await HUB.unregister(room.code, screen)
        screens.forget(room.code)


async def test_an_overtaken_bot_plans_again_and_a_refused_one_stops(hosted, monkeypatch, caplog):
    """A bot's move planned at a version a phone's tap has passed is refused as stale and
    changes nothing (the newer version plans afresh: the bot then calls).  A move the engine
    refuses is logged and that bot stops: it is not tried again."""
    room, players = await database_sync_to_async(tiny_room)(1, 1)
    HUB.adopt(None)   # these moves are made by hand here
    game = await database_sync_to_async(services.start_game)(room)
    game = await database_sync_to_async(services.host_move)(room, "go_on", expected_turn=None)
    planned = timers.bot_move(game_dict(game))
    assert planned == (1, HEADS)
    await db.write(services.submit_for_player, room, players[0].pk, {"type": "call", "side": "tails"},
                   expected_turn=None)
    await timers._play(("bot", game.pk, game.version), *planned)          # overtaken: nothing written
    now = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert now.version == game.version + 1 and now.state["called"] == [True, False]
    assert timers.bot_move(game_dict(now)) == (1, HEADS)                 # planned afresh

    with caplog.at_level(logging.ERROR, logger="mafiagames.timers"):
        await timers._play(("bot", game.pk, now.version), 1, {"type": "reveal"})   # a bot's bug
    assert "the bot of seat 1" in caplog.text and "stops" in caplog.text
    assert (await database_sync_to_async(Game.objects.get)(pk=game.pk)).version == now.version
    assert timers.bot_move(game_dict(now)) is None                       # stopped: not asked again


def test_a_bot_that_fails_to_choose_stops_and_the_next_bot_plays(hosted, monkeypatch, caplog):
    """A bot whose ruleset's ``bot`` raises (a bug) is logged and stopped; the others play on
    and the game master's clock is not held up by it (timers.observe)."""
    room, players = tiny_room(0, 2)
    services.start_game(room)
    game = services.host_move(room, "go_on", expected_turn=None)
    served = registry.get("tiny")
    broken = dataclasses.replace(served, bot=lambda state, seat: 1 // 0 if seat == 0 else served.bot(state, seat))
    monkeypatch.setitem(registry._RULESETS, "tiny", broken)
    with caplog.at_level(logging.ERROR, logger="mafiagames.timers"):
        assert timers.bot_move(game_dict(game)) == (1, HEADS)
    assert "the bot of seat 0" in caplog.text and "failed to choose" in caplog.text
    caplog.clear()
    assert timers.bot_move(game_dict(game)) == (1, HEADS) and not caplog.text   # asked no more


def test_cosa_nostra_seats_bots_up_to_four_families_and_they_look_at_their_roles_first(monkeypatch):
    """Cosa Nostra's bot families (rules §17): two people and two bots fill its four seats; the
    game's bots are seats 2 and 3, and each taps "I have seen my role" before it plays."""
    monkeypatch.setattr(timers, "_stopped", set())
    room, players = room_with_players(2)
    services.configure(room, "cosanostra", {})
    bots = [services.add_bot(room) for _ in range(2)]
    with pytest.raises(services.Conflict, match="at most 4"):
        services.add_bot(room)
    game = services.start_game(room)
    assert game.bots == [2, 3] and [p.pk for p in bots] == game.seats[2:]
    assert timers.bot_move(game_dict(game)) == (2, SEEN)
