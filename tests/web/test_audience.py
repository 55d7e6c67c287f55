"""The audience (issue 16): players of a room without a seat in its running game — who joined
after the start, or beyond the ruleset's maximum — watch the public board on their phone and
answer each day's "who do you suspect?" poll; the TV shows the totals only once the game is over."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.http import QueryDict

from engines import registry
from mafiagames import rendering, services, taps
from mafiagames.models import Game, Suspicion
from mafiagames.tables import load_table

from .helpers import FIVE_ROLES, polish_discussion, room_with_players
from .test_evening import play_mafie

pytestmark = pytest.mark.django_db

MAFIE = registry.get("mafie")


def form(**fields) -> QueryDict:
    data = QueryDict(mutable=True)
    data.update({key: str(value) for key, value in fields.items()})
    return data


def phone(room, player) -> dict[str, str]:
    room.refresh_from_db()
    return rendering.phone_screen(load_table(room), player.pk)


def tv(room) -> dict[str, str]:
    room.refresh_from_db()
    return rendering.tv_screen(load_table(room), host=False)


def words(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def poll_buttons(screen: dict[str, str]) -> list[tuple[str, str]]:
    """The poll's (seat, name) buttons on a phone."""
    return re.findall(r'name="seat" value="(\d+)"><button type="submit" class="choice" aria-pressed="\w+">([^<]*)<',
                      screen["ph-panel"])


def mafie_with_late_joiners(*names: str):
    """Five players start Mafie (Alice is Kmotr); ``names`` join after the start."""
    room, players = room_with_players(5)
    game = services.start_game(room, seed=1, deal={"roles": FIVE_ROLES, "kmotr": 0})
    return room, players, game, [services.join_room(room, name) for name in names]


def to_team_vote(game: Game) -> Game:
    """Past the briefing and the detectives' meeting, the Kmotr proposes his first crew."""
    for _step in range(20):
        if game.state["phase"] == "team_vote":
            return game
        seat = MAFIE.waiting_for(game.state)[0]
        game = services.submit(game.pk, seat, MAFIE.legal_actions(game.state, seat)[0])
    raise AssertionError("no team vote")


def test_a_player_who_joins_during_a_game_watches_the_public_board():
    room, _players, game, (frank,) = mafie_with_late_joiners("Frank")
    assert game.seat_of(frank.pk) is None
    screen = phone(room, frank)
    assert "You are watching" in screen["ph-role"]
    # The phones' board of the TV's view, as every seated phone has it.
    assert 'class="ph-board"' in screen["ph-board"] and "Alice" in words(screen["ph-board"])
    assert "Who do you suspect?" not in screen["ph-panel"]   # no vote yet: no poll


def test_players_beyond_the_rulesets_maximum_watch_from_the_start():
    room, players = room_with_players(10)
    extra = [services.join_room(room, name) for name in ("Ken", "Liz")]
    assert "The last 2 players in the seating order will watch the game." in words(tv(room)["tv-main"])
    game = services.start_game(room, seed=1)
    assert game.seats == [p.pk for p in players] and len(game.seats) == MAFIE.max_players
    for watcher in extra:
        assert "You are watching" in phone(room, watcher)["ph-role"]
    assert "You are watching" not in phone(room, players[0])["ph-role"]


def test_too_few_players_still_cannot_start():
    room, _players = room_with_players(4)
    with pytest.raises(services.ServiceError):
        services.start_game(room)
    assert not Game.objects.exists()


def test_the_poll_counts_each_audience_phone_once_and_a_second_tap_changes_its_answer():
    room, players, game, (frank, grace) = mafie_with_late_joiners("Frank", "Grace")
    game = to_team_vote(game)
    key = f"job{game.state['round']}"
    assert poll_buttons(phone(room, frank)) == [(str(s), n) for s, n in enumerate(game.names)]
    assert taps.tap(room, frank.pk, form(action="suspect", poll=key, seat=1)).status == 204
    assert taps.tap(room, frank.pk, form(action="suspect", poll=key, seat=2)).status == 204
    assert taps.tap(room, grace.pk, form(action="suspect", poll=key, seat=2)).status == 204
    assert sorted(Suspicion.objects.values_list("player", "seat")) == [(frank.pk, 2), (grace.pk, 2)]
    screen = phone(room, frank)
    assert "Your suspect: Carol." in words(screen["ph-panel"])
    assert 'value="2"><button type="submit" class="choice" aria-pressed="true"' in screen["ph-panel"]
    # The engine's state is untouched: the poll is no move.
    assert Game.objects.get(pk=game.pk).version == game.version


@pytest.mark.parametrize("fields, status, message", [
    ({"seat": 1}, 400, "malformed"),                       # no poll named
    ({"poll": "job1", "seat": "Bob"}, 400, "Not a player"),
    ({"poll": "job1", "seat": 9}, 400, "Pick a player still in the game."),
    ({"poll": "job7", "seat": 1}, 409, "The poll is closed now."),   # another day's (stale or forged)
])
def test_bad_answers_are_refused_with_a_message_and_change_nothing(fields, status, message):
    room, _players, game, (frank,) = mafie_with_late_joiners("Frank")
    to_team_vote(game)
    room.refresh_from_db()
    version = room.version
    result = taps.tap(room, frank.pk, form(action="suspect", **fields))
    assert (result.status, message in result.message) == (status, True)
    room.refresh_from_db()
    assert not Suspicion.objects.exists() and room.version == version


def test_seated_players_cannot_answer_the_poll():
    room, players, game, _audience = mafie_with_late_joiners("Frank")
    game = to_team_vote(game)
    result = taps.tap(room, players[3].pk, form(action="suspect", poll=f"job{game.state['round']}", seat=0))
    assert result.status == 403 and "the poll is for the audience" in result.message
    assert not Suspicion.objects.exists()
    assert "Who do you suspect?" not in phone(room, players[3])["ph-panel"]


def test_no_poll_outside_a_days_vote():
    room, _players, game, (frank,) = mafie_with_late_joiners("Frank")
    assert game.state["phase"] != "team_vote"
    result = taps.tap(room, frank.pk, form(action="suspect", poll="job1", seat=0))
    assert result.status == 409 and not Suspicion.objects.exists()


def test_the_tv_shows_the_totals_only_once_the_game_is_finished():
    room, _players, game, (frank, grace, heidi) = mafie_with_late_joiners("Frank", "Grace", "Heidi")
    game = to_team_vote(game)
    before = tv(room)
    for watcher, seat in ((frank, 1), (grace, 1), (heidi, 3)):
        assert taps.tap(room, watcher.pk, form(action="suspect", poll=f"job{game.state['round']}", seat=seat)).status == 204
    # Not a word of it on the TV during the game: the same bytes as before anybody answered.
    assert tv(room) == before
    assert "audience" not in words("".join(before.values())).lower()
    game = play_mafie(Game.objects.get(pk=game.pk), "mafia")
    assert game.status == Game.Status.FINISHED
    main = words(tv(room)["tv-main"])
    assert "The audience suspected Bob 2 votes Dave 1 vote" in main


def test_a_game_without_an_audience_shows_no_poll_result():
    room, _players = room_with_players(5)
    game = play_mafie(services.start_game(room, seed=1, deal={"roles": FIVE_ROLES, "kmotr": 0}), "mafia")
    assert game.status == Game.Status.FINISHED
    assert "audience" not in words(tv(room)["tv-main"]).lower()


def test_rulesets_open_the_poll_on_their_day():
    """Each ruleset's decision (docs/rules/): classic all day, Mrakošlapi while its day is open,
    Mafie at each crew vote; the tiny test ruleset has none."""
    from mafiagames.presenters import audience_poll

    classic = {"phase": "vote", "round": 2, "seats": [{"alive": True}, {"alive": False}, {"alive": True}]}
    assert audience_poll("granna", classic) == {"key": "day2", "seats": [0, 2]}
    assert audience_poll("granna", {**classic, "phase": "mafia"}) is None
    mrak = {"phase": "day", "day": {"day": 3, "state": "VOTE"},
            "seats": [{"seat": 0, "alive": True}, {"seat": 1, "alive": False}]}
    assert audience_poll("mrakoslapi", mrak) == {"key": "day3", "seats": [0]}
    assert audience_poll("mrakoslapi", {**mrak, "day": {"day": 3, "state": "END"}}) is None
    assert audience_poll("mafie", {"phase": "team_vote", "round": 4, "players": 5}) == {"key": "job4", "seats": [0, 1, 2, 3, 4]}
    from tests.tiny import presenter as tiny
    assert not hasattr(tiny, "audience_poll")


def test_the_audience_in_czech():
    room, _players = room_with_players(5, language="cs")
    game = services.start_game(room, seed=1, deal={"roles": FIVE_ROLES, "kmotr": 0})
    frank = services.join_room(room, "Frank")
    game = to_team_vote(game)
    screen = phone(room, frank)
    assert "Sleduješ hru" in screen["ph-role"] and "Koho podezíráš?" in screen["ph-panel"]
    assert taps.tap(room, frank.pk, form(action="suspect", poll="job9", seat=1)).message == "Anketa je teď zavřená."
    assert taps.tap(room, frank.pk, form(action="suspect", poll=f"job{game.state['round']}", seat=1)).status == 204
    play_mafie(Game.objects.get(pk=game.pk), "mafia")
    assert "Diváci podezírali Bob 1 hlas" in words(tv(room)["tv-main"])


def test_the_join_page_says_a_newcomer_watches_the_game_under_way(client):
    room, _players = room_with_players(5)
    notice = "A game is under way: you will watch it on your phone and play from the next game."
    assert notice not in client.get(f"/j/{room.code}/").content.decode()
    services.start_game(room, seed=1, deal={"roles": FIVE_ROLES, "kmotr": 0})
    assert notice in client.get(f"/j/{room.code}/").content.decode()


def test_a_classic_day_polls_the_living_only():
    """The Polish edition's first day (seat 6 was killed at night): the poll names the living."""
    room, _players, game = polish_discussion()
    zoe = services.join_room(room, "Zoe")
    key = f"day{game.state['round']}"
    names = [name for _seat, name in poll_buttons(phone(room, zoe))]
    assert names == [name for seat, name in enumerate(game.names) if seat != 6]
    dead = taps.tap(room, zoe.pk, form(action="suspect", poll=key, seat=6))
    assert (dead.status, dead.message) == (400, "Pick a player still in the game.")
    assert taps.tap(room, zoe.pk, form(action="suspect", poll=key, seat=5)).status == 204
    assert list(Suspicion.objects.values_list("poll", "seat")) == [(key, 5)]


def test_the_admin_lists_the_audiences_answers_read_only(admin_client):
    room, _players, game, (frank,) = mafie_with_late_joiners("Frank")
    game = to_team_vote(game)
    assert taps.tap(room, frank.pk, form(action="suspect", poll=f"job{game.state['round']}", seat=2)).status == 204
    page = admin_client.get(f"/admin/mafiagames/game/{game.pk}/change/").content.decode()
    assert "Frank" in page and "Carol" in page and "Audience suspicions" in page
    assert admin_client.get("/admin/mafiagames/suspicion/add/").status_code == 404   # not registered on its own
