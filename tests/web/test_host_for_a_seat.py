"""The host acts for a seat from the TV (issue 14): a public choice for a player whose phone is
gone, or a removal, as the ruleset allows (engines: tests/engines/test_host_for_a_seat.py).
Only the host can; a proxy only while the player has no screen open; the TV says what happened."""

from __future__ import annotations

import json

import pytest

from mafiagames import services
from mafiagames.models import Game, Player

from .helpers import everyone_ready, host_client, player_client, room_with_players, start_after_briefing, started_game
from .test_classic_screens import NINE

pytestmark = pytest.mark.django_db


def post(client, room, **data):
    return client.post(f"/r/{room.code}/host", data)


def at_the_crew_vote():
    room, players, game = started_game(5)
    game = everyone_ready(game)
    game = services.submit(game.pk, game.state["kmotr"], {"type": "propose_team", "team": [0, 1]})
    assert game.state["phase"] == "team_vote"
    return room, players, game


def proxy_vote(room, game, seat, approve, client=None):
    return post(client or host_client(room), room, command="proxy", seat=seat, turn=game.state["turn"],
                move=json.dumps({"type": "vote", "approve": approve}))


def test_the_host_votes_for_a_disconnected_player_and_the_tv_says_so():
    room, players, game = at_the_crew_vote()
    tv = host_client(room).get(f"/r/{room.code}/").content.decode()
    assert tv.count('name="command" value="proxy"') == 5            # nobody is connected in this test
    assert "Carol: vote on their behalf" in tv and '&quot;approve&quot;: false' in tv
    assert "{#" not in tv and "host_for_seats" not in tv      # no template comment shows
    assert proxy_vote(room, game, 2, False).status_code == 204
    after = Game.objects.get(pk=game.pk)
    assert after.state["secret"]["ballots"][2] is False and after.version == game.version + 1
    tv = host_client(room).get(f"/r/{room.code}/").content.decode()
    assert "Carol: the host voted on their behalf." in tv
    assert tv.count('name="command" value="proxy"') == 4            # Carol has voted
    assert "Carol: vote on their behalf" not in tv


def test_at_the_detective_meeting_the_host_can_answer_ready_for_an_absent_player():
    room, players, game = started_game(5)
    tv = host_client(room).get(f"/r/{room.code}/").content.decode()
    assert "Carol: answer on their behalf" in tv and "vote on their behalf" not in tv
    assert post(host_client(room), room, command="proxy", seat=2, turn=game.state["turn"],
                move=json.dumps({"type": "ready"})).status_code == 204
    assert 2 in Game.objects.get(pk=game.pk).state["ready"]
    assert "Carol: the host tapped ready on their behalf." in host_client(room).get(f"/r/{room.code}/").content.decode()


def test_only_the_host_only_for_a_disconnected_seat_and_only_a_public_choice():
    room, players, game = at_the_crew_vote()
    assert proxy_vote(room, game, 2, True, client=player_client(players[0])).status_code == 403
    Player.objects.filter(pk=players[2].pk).update(connections=1)
    refused = proxy_vote(room, game, 2, True)
    assert refused.status_code == 409 and "Carol is connected and chooses for themselves." in refused.content.decode()
    tv = host_client(room).get(f"/r/{room.code}/").content.decode()
    assert "Carol: vote on their behalf" not in tv and "Dave: vote on their behalf" in tv
    card = post(host_client(room), room, command="proxy", seat=3, turn=game.state["turn"],
                move=json.dumps({"type": "play_action_card", "card": "fail"}))
    assert card.status_code == 409 and "The host cannot make that choice for a player." in card.content.decode()
    for bad in ({"seat": "x", "move": "{}"}, {"seat": 3, "move": "[1]"}, {"seat": 3, "move": "{"}):
        assert post(host_client(room), room, command="proxy", turn=game.state["turn"], **bad).status_code == 400
    assert post(host_client(room), room, command="proxy", seat=7, turn=game.state["turn"],
                move="{}").status_code == 400
    assert Game.objects.get(pk=game.pk).version == game.version     # nothing changed
    non_host_tv = player_client(players[0]).get(f"/r/{room.code}/").content.decode()
    assert 'value="proxy"' not in non_host_tv and 'value="remove"' not in non_host_tv


def test_nobody_is_removed_from_mafie():
    room, players, game = at_the_crew_vote()
    refused = post(host_client(room), room, command="remove", seat=1, turn=game.state["turn"])
    assert refused.status_code == 409 and "Nobody leaves a game of Mafie" in refused.content.decode()
    assert 'value="remove"' not in host_client(room).get(f"/r/{room.code}/").content.decode()


def classic_day():
    room, players = room_with_players(9)
    services.configure(room, "mafia_pl", {"doctor": True})
    game = start_after_briefing(room, seed=3, deal={"roles": NINE})
    return room, players, game


def test_classic_the_host_removes_a_cheat_with_his_card_shown_connected_or_not():
    room, players, game = classic_day()
    tv = host_client(room).get(f"/r/{room.code}/").content.decode()
    assert tv.count('name="command" value="remove"') == 9 and 'value="proxy"' not in tv   # night: no proxy
    Player.objects.filter(pk=players[4].pk).update(connections=1)   # at the table, peeking
    assert post(player_client(players[0]), room, command="remove", seat=4,
                turn=game.state["turn"]).status_code == 403
    assert post(host_client(room), room, command="remove", seat=4, turn=game.state["turn"]).status_code == 204
    after = Game.objects.get(pk=game.pk)
    assert after.state["dead"][4] == {"cause": "removed", "round": 1, "role": "policeman"}
    tv = host_client(room).get(f"/r/{room.code}/").content.decode()
    assert "Removed from the game: Erin. Card: Policeman." in tv
    assert tv.count('name="command" value="remove"') == 8
    again = post(host_client(room), room, command="remove", seat=4, turn=after.state["turn"])
    assert again.status_code == 409 and "Pick a player still in the game." in again.content.decode()


def test_mrakoslapi_the_host_bar_offers_removal_by_day_only_and_never_a_proxy():
    from mafiagames.rendering import Table, tv_screen
    from tests.engines.test_mrakoslapi_engine_game import Game as MrakGame

    g = MrakGame()
    names = ["Ann", "Ben", "Cyril", "Dana", "Eva", "Fred"]

    def host_bar(state) -> str:
        table = Table(code="TEST", language="en", ruleset="mrakoslapi", options=state["options"],
                      players=[{"id": 100 + i, "name": n, "connected": False} for i, n in enumerate(names)],
                      game={"id": 1, "ruleset": "mrakoslapi", "state": state, "version": 1, "names": names,
                            "seats": [100 + i for i in range(6)], "status": "running", "clock_started": 1.0})
        return tv_screen(table, host=True)["tv-host"]

    night = host_bar(g.state)
    assert 'value="remove"' not in night and 'value="proxy"' not in night
    g.do(0, {"type": "mafia_target", "target": 5})
    g.do(1, {"type": "mafia_target", "target": 5})
    g.finish_night()
    day = host_bar(g.state)
    assert day.count('name="command" value="remove"') == 5 and "Remove: Fred" not in day   # Fred died at night
    assert 'value="proxy"' not in day
