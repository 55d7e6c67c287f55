"""The evening (issue 16): one room plays several real games through the services — one of them
ended by the host — and the TV shows the scoreboard between games: finished games only, the
same after a restart of the server (it is derived from the games, nothing else is kept); the
admin shows each player's games and wins by role."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.utils import translation

from engines import registry
from engines.base import PROXY, REMOVE_PLAYER, movers
from mafiagames import rendering, screens, services
from mafiagames.models import Game, Room
from mafiagames.presenters import presenter
from mafiagames.tables import load_table

from .helpers import FIVE_ROLES, host_client, room_with_players

pytestmark = pytest.mark.django_db

MAFIE = registry.get("mafie")
# Seats 3 and 4 are the mafiosi this time (the deal's other side of the table).
OTHER_ROLES = ["detective", "detective", "mafioso", "mafioso", "mafioso"]


def play_mafie(game: Game, winner: str) -> Game:
    """Play a Mafie game to ``winner``'s win: crews approved and every job pulled off (the
    mafia), or five crews rejected (the detectives)."""
    for _step in range(200):
        if game.status != Game.Status.RUNNING:
            return game
        state = game.state
        seat = MAFIE.waiting_for(state)[0]
        moves = MAFIE.legal_actions(state, seat)
        if state["phase"] == "team_vote":
            move = {"type": "vote", "approve": winner == "mafia"}
        elif state["phase"] == "action_play":
            move = {"type": "play_action_card", "card": "success"}
        else:
            move = moves[0]   # ready; the first crew the Kmotr may propose
        game = services.submit(game.pk, seat, move)
    raise AssertionError("the game did not end")


def evening():
    """Alice, Bob, Carol, Dave, Erin: the mafia (Alice, Bob, Carol) win; a game the host ends;
    the detectives (this time Alice and Bob) win."""
    room, players = room_with_players(5)
    game1 = play_mafie(services.start_game(room, seed=1, deal={"roles": FIVE_ROLES, "kmotr": 0}), "mafia")
    services.start_game(room, seed=2, deal={"roles": OTHER_ROLES, "kmotr": 0})
    services.abandon_game(room)
    game3 = play_mafie(services.start_game(room, seed=3, deal={"roles": OTHER_ROLES, "kmotr": 1}), "detectives")
    return room, players, [game1, game3]


def scoreboard_html(html: str) -> str:
    found = re.search(r'<div class="card scoreboard">.*?</table>.*?</div>\s*</div>', html, re.S)
    return found.group(0) if found else ""


def rows(html: str) -> list[tuple[str, int, int]]:
    return [(unescape(name), int(wins), int(games)) for name, wins, games in re.findall(
        r'<td class="name">([^<]*)</td><td class="num wins">(\d+)</td><td class="num">(\d+)</td>', html)]


def sides(html: str) -> list[tuple[str, int]]:
    return [(unescape(name), int(wins)) for name, wins in
            re.findall(r'<span class="side">([^<]*)</span> <span class="num wins">(\d+)</span>', html)]


def test_the_tv_shows_the_evenings_scoreboard_between_games_and_the_same_after_a_restart():
    room, _players, (game1, game3) = evening()
    assert game1.outcome["winner"] == "mafia" and game3.outcome["winner"] == "detectives"
    assert Game.objects.filter(room=room, status="abandoned").count() == 1

    page = host_client(room).get(f"/r/{room.code}/").content.decode()
    board = scoreboard_html(page)
    assert "Games played: 2" in board          # the abandoned game is not counted
    assert rows(board) == [("Alice", 2, 2), ("Bob", 2, 2), ("Carol", 1, 2), ("Dave", 0, 2), ("Erin", 0, 2)]
    words = presenter("mafie")
    assert sorted(sides(board)) == [("The Mafia", 1), ("The detectives", 1)]
    assert words.side_words("mafia", "mafie", {}) == "The Mafia"
    assert "Wins per side: Mafie" in board

    # A restart: every cache of the process gone, the room read afresh from the database.
    screens._latest.clear()
    presenter.cache_clear()
    fresh = rendering.tv_screen(load_table(Room.objects.get(pk=room.pk)), host=False)
    assert scoreboard_html(fresh["tv-players"]) == board   # beside the finished game's result

    # The next game is running: no scoreboard (and none of its roles), nothing read for it.
    services.start_game(room, seed=4, deal={"roles": FIVE_ROLES, "kmotr": 0})
    table = load_table(Room.objects.get(pk=room.pk))
    assert table.scores is None
    assert "scoreboard" not in rendering.tv_screen(table, host=True)["tv-main"]


def test_no_scoreboard_before_the_first_finished_game():
    room, _players = room_with_players(5)
    assert "scoreboard" not in host_client(room).get(f"/r/{room.code}/").content.decode()
    services.start_game(room, seed=2, deal={"roles": FIVE_ROLES, "kmotr": 0})
    services.abandon_game(room)
    assert "scoreboard" not in host_client(room).get(f"/r/{room.code}/").content.decode()


def test_the_finished_games_screen_shows_the_scoreboard_with_it():
    """Beside the result, in the players' column: the result card has the stage (the stage
    check in the browser tests found it below the fold under the result)."""
    room, _players = room_with_players(5)
    play_mafie(services.start_game(room, seed=1, deal={"roles": FIVE_ROLES, "kmotr": 0}), "detectives")
    screen = rendering.tv_screen(load_table(Room.objects.get(pk=room.pk)), host=False)
    assert "scoreboard" not in screen["tv-main"]
    html = screen["tv-players"]
    assert "Games played: 1" in html
    assert rows(scoreboard_html(html)) == [("Dave", 1, 1), ("Erin", 1, 1), ("Alice", 0, 1), ("Bob", 0, 1),
                                           ("Carol", 0, 1)]


def test_the_last_tap_of_a_game_is_loaded_not_advanced():
    """A tap that ends the game makes the screens load that version (the scoreboard is read from
    the database then) rather than build it from the running game's snapshot."""
    room, _players = room_with_players(5)
    game = services.start_game(room, seed=1, deal={"roles": FIVE_ROLES, "kmotr": 0})
    table = load_table(Room.objects.get(pk=room.pk))
    screens._latest[room.code] = screens.Snapshot(version=table.version, table=table)
    running = {**table.game, "version": table.game["version"] + 1}
    screens.advance(room.code, table.version + 1, running)
    assert screens._latest[room.code].version == table.version + 1
    screens.advance(room.code, table.version + 2, {**running, "status": "finished"})
    assert screens._latest[room.code].version == table.version + 1
    screens._latest.clear()
    assert game.status == "running"


def by_role(html: str) -> list[tuple[str, str, int, int]]:
    return [(unescape(ruleset), unescape(role), int(games), int(wins)) for ruleset, role, games, wins in re.findall(
        r'<tr class="by-role"><td>([^<]*)</td><td>([^<]*)</td><td>(\d+)</td><td>(\d+)</td></tr>', html)]


def test_the_admin_shows_each_players_games_and_wins_by_role(admin_client):
    room, players, _games = evening()
    services.start_game(room, seed=4, deal={"roles": ["detective"] * 2 + ["mafioso"] * 3, "kmotr": 0})  # running
    html = admin_client.get(f"/admin/mafiagames/room/{room.pk}/change/").content.decode()
    assert "Games played: 2" in html
    assert "Alice: games 2, wins 2" in html and "Dave: games 2, wins 0" in html
    # Alice was a mafioso, then (the abandoned game not counted) a detective, and won both; the
    # running game's roles are not read at all (nobody is a detective three times).
    assert by_role(html)[:2] == [("Mafie", "Detective", 1, 1), ("Mafie", "Mafioso", 1, 1)]
    carol = admin_client.get(f"/admin/mafiagames/player/{players[2].pk}/change/").content.decode()
    assert "Carol: games 2, wins 1" in carol and "Alice:" not in carol
    assert by_role(carol) == [("Mafie", "Mafioso", 2, 1)]
    dave = admin_client.get(f"/admin/mafiagames/player/{players[3].pk}/change/").content.decode()
    assert by_role(dave) == [("Mafie", "Detective", 1, 0), ("Mafie", "Mafioso", 1, 0)]


def test_the_admin_statistics_in_czech(admin_client):
    room, players, _games = evening()
    html = admin_client.get(f"/admin/mafiagames/player/{players[0].pk}/change/",
                            HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    assert by_role(html) == [("Mafie", "Detektiv", 1, 1), ("Mafie", "Mafián", 1, 1)]
    assert "Odehrané hry: 2" in html and "Alice: hry 2, výhry 2" in html


def test_the_tvs_scoreboard_in_czech():
    room, _players = room_with_players(5, "cs")
    play_mafie(services.start_game(room, seed=1, deal={"roles": FIVE_ROLES, "kmotr": 0}), "mafia")
    html = rendering.tv_screen(load_table(Room.objects.get(pk=room.pk)), host=False)["tv-players"]
    board = scoreboard_html(html)
    assert "Dnešní výsledky" in board and "Odehrané hry: 1" in board and "Výhry stran: Mafie" in board
    with translation.override("cs"):
        assert sides(board) == [(presenter("mafie").side_words("mafia", "mafie", {}), 1)]
    assert sides(board)[0][0] != "The Mafia"


def play_classic(game: Game, mafioso: int) -> Game:
    """Play a classic game until the town votes out ``mafioso`` (the table's only one): each
    step's first mover makes its first move, every vote is for the mafioso."""
    ruleset = registry.get(game.ruleset)
    for _step in range(300):
        if game.status != Game.Status.RUNNING:
            return game
        actor = movers(ruleset, game.state)[0]
        moves = [move for move in ruleset.legal_actions(game.state, actor)
                 if move["type"] not in (PROXY, REMOVE_PLAYER)]
        move = next((move for move in moves if move["type"] == "vote" and move["target"] == mafioso), moves[0])
        game = services.submit(game.pk, actor, move)
    raise AssertionError("the game did not end")


def test_an_evening_of_two_rulesets_shows_each_rulesets_sides_in_its_own_words():
    """Sides are grouped per ruleset and worded as the ruleset's latest game named them: the
    children's re-theme of GRANNA has Cadets, not the Police."""
    room, _players = room_with_players(6)
    play_mafie(services.start_game(room, seed=1, deal={"kmotr": 0}), "mafia")
    services.configure(room, "granna", {"kids_retheme": True})
    roles = ["mafioso", "policeman", "agent", "policeman", "policeman", "policeman"]
    game = play_classic(services.start_game(room, seed=5, deal={"roles": roles}), mafioso=0)
    assert game.outcome["winner"] == "police"
    html = host_client(room).get(f"/r/{room.code}/").content.decode()
    board = scoreboard_html(html)
    assert "Games played: 2" in board
    titles = re.findall(r"<h3>Wins per side: ([^<]*)</h3>", board)
    assert [unescape(title) for title in titles] == ["Mafie", registry.get("granna").title]
    assert sides(board) == [("The Mafia", 1), ("The Cadets", 1)]
    # Mafie's seeded deal made Alice and Erin the detectives; in GRANNA Alice was the mafioso.
    assert rows(board) == [("Bob", 2, 2), ("Carol", 2, 2), ("Dave", 2, 2), ("Frank", 2, 2), ("Erin", 1, 2),
                           ("Alice", 0, 2)]
