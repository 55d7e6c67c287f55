"""Builders for web tests: rooms with players, games with a forced deal, cookies."""

from __future__ import annotations

from html.parser import HTMLParser

from django.test import Client

from mafiagames import seating, services
from mafiagames.models import Game, HostDevice, Player, Room
from tests.conftest import CAST

# Five players: Alice, Bob, Carol are mafiosi; Dave and Erin are the detectives; Alice is Kmotr.
FIVE_ROLES = ["mafioso", "mafioso", "mafioso", "detective", "detective"]


class Forms(HTMLParser):
    """Every ws-send form of a fragment: its hidden fields, submit buttons, checkboxes, the
    options of its selects and its text inputs; and how many buttons send nothing (decoys)."""

    def __init__(self, html: str):
        super().__init__()
        self.forms: list[dict] = []
        self.decoys = 0
        self._select: str | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and "ws-send" in attrs:
            self.forms.append({"hidden": {}, "buttons": [], "boxes": [], "selects": {}, "texts": []})
        elif tag == "input" and self.forms and attrs.get("type") == "hidden":
            self.forms[-1]["hidden"][attrs["name"]] = attrs["value"]
        elif tag == "input" and self.forms and attrs.get("type") == "checkbox" and "name" in attrs:  # unnamed: sends nothing
            self.forms[-1]["boxes"].append((attrs["name"], attrs["value"]))
        elif tag == "input" and self.forms and attrs.get("type") == "text":
            self.forms[-1]["texts"].append(attrs["name"])
        elif tag == "select" and self.forms:
            self._select = attrs["name"]
            self.forms[-1]["selects"][self._select] = []
        elif tag == "option" and self._select:
            self.forms[-1]["selects"][self._select].append(attrs["value"])
        elif tag == "button" and attrs.get("type") == "button" and "choice" in attrs.get("class", ""):
            self.decoys += 1
        elif tag == "button" and self.forms and attrs.get("type") == "submit":
            self.forms[-1]["buttons"].append((attrs.get("name"), attrs.get("value")))

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None


def room_with_players(n: int, language: str = "en") -> tuple[Room, list[Player]]:
    room = services.create_room(language)
    players = [services.join_room(room, name) for name in CAST[:n]]
    return room, players


def start_after_briefing(room: Room, **kwargs) -> Game:
    """``services.start_game``, then the host's "start without waiting": these tests play what
    comes after the briefing every game opens with (engines/briefing.py; it has tests of its
    own: tests/engines/test_briefing.py, tests/web/test_briefing.py)."""
    services.start_game(room, **kwargs)
    return services.host_move(room, "go_on", expected_turn=None)


def started_game(n: int = 5, roles: list[str] | None = None, kmotr: int = 0, options: dict | None = None,
                 language: str = "en") -> tuple[Room, list[Player], Game]:
    room, players = room_with_players(n, language)
    if options:
        services.configure(room, "mafie", options)
    roles = roles or (FIVE_ROLES if n == 5 else None)
    deal = {"kmotr": kmotr, **({"roles": roles} if roles else {})}
    game = services.start_game(room, seed=1234, deal=deal)   # Mafie's briefing holds no clock: it stays
    return room, players, game


# Nine players of the Polish edition with the doctor: two gangsters, the agent, the doctor, five policemen.
NINE = ["mafioso", "mafioso", "agent", "doctor", "policeman", "policeman", "policeman", "policeman", "policeman"]


def polish_discussion() -> tuple[Room, list[Player], Game]:
    """The Polish edition with the doctor, past its first night (the agent and the doctor skip,
    the gangsters kill seat 6): the first discussion, which the host ends from the TV."""
    room, players = room_with_players(9)
    services.configure(room, "mafia_pl", {"doctor": True})
    game = start_after_briefing(room, seed=3, deal={"roles": NINE})
    for seat, action in ((2, {"type": "skip_check"}), (None, {"type": "timeout"}),
                         (3, {"type": "skip_heal"}), (None, {"type": "timeout"}),
                         (0, {"type": "pick_victim", "target": 6}), (1, {"type": "pick_victim", "target": 6}),
                         (None, {"type": "timeout"})):
        game = services.submit(game.pk, seat, action)
    assert game.state["phase"] == "discussion"
    return room, players, game


def player_client(player: Player) -> Client:
    client = Client()
    client.cookies[seating.player_cookie_name(player.room.code)] = seating.player_token(player)
    return client


def host_cookie(room: Room) -> str:
    """A host device's cookie: the room's first device (its creator's browser), made if none."""
    device = HostDevice.objects.hosting(room.pk).order_by("number").first() or services.add_host_device(room)
    device.room = room
    return seating.host_token(device)


def host_client(room: Room) -> Client:
    client = Client()
    client.cookies[seating.host_cookie_name(room.code)] = host_cookie(room)
    return client


def everyone_ready(game: Game) -> Game:
    for seat in range(len(game.seats)):
        game = services.submit(game.pk, seat, {"type": "ready"})
    return game


def to_team_vote(game: Game, team: list[int]) -> Game:
    game = everyone_ready(game) if game.state["phase"] == "detective_meeting" else game
    return services.submit(game.pk, game.state["kmotr"], {"type": "propose_team", "team": team})
