"""Builders for web tests: rooms with players, games with a forced deal, cookies."""

from __future__ import annotations

from django.test import Client

from mafiagames import seating, services
from mafiagames.models import Game, Player, Room
from tests.conftest import CAST

# Five players: Alice, Bob, Carol are mafiosi; Dave and Erin are the detectives; Alice is Kmotr.
FIVE_ROLES = ["mafioso", "mafioso", "mafioso", "detective", "detective"]


def room_with_players(n: int, language: str = "en") -> tuple[Room, list[Player]]:
    room = services.create_room(language)
    players = [services.join_room(room, name) for name in CAST[:n]]
    return room, players


def started_game(n: int = 5, roles: list[str] | None = None, kmotr: int = 0, options: dict | None = None,
                 language: str = "en") -> tuple[Room, list[Player], Game]:
    room, players = room_with_players(n, language)
    if options:
        services.configure(room, "mafie", options)
    roles = roles or (FIVE_ROLES if n == 5 else None)
    deal = {"kmotr": kmotr, **({"roles": roles} if roles else {})}
    game = services.start_game(room, seed=1234, deal=deal)
    return room, players, game


def player_client(player: Player) -> Client:
    client = Client()
    client.cookies[seating.player_cookie_name(player.room.code)] = seating.player_token(player)
    return client


def host_client(room: Room) -> Client:
    client = Client()
    client.cookies[seating.host_cookie_name(room.code)] = seating.host_token(room)
    return client


def everyone_ready(game: Game) -> Game:
    for seat in range(len(game.seats)):
        game = services.submit(game.pk, seat, {"type": "ready"})
    return game


def to_team_vote(game: Game, team: list[int]) -> Game:
    game = everyone_ready(game) if game.state["phase"] == "detective_meeting" else game
    return services.submit(game.pk, game.state["kmotr"], {"type": "propose_team", "team": team})
