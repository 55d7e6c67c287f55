"""Moments as the screens serve them (engines/moments.py): a result takes the stage on the TV and
on every phone, a tap meanwhile is refused in words and changes nothing, a screen that
(re)connects during it shows it, and the game master's clock ends it; the TV keeps a history."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import override_settings

from engines import registry
from engines.base import GAME_MASTER, HOST, movers
from engines.moments import MOMENT_OVER, MOMENTS
from mafiagames import services, taps
from mafiagames.models import Game
from mafiagames.presenters import CUES

from .helpers import everyone_ready, host_client, player_client, room_with_players, started_game

pytestmark = pytest.mark.django_db


def tap(player, fields: dict):
    """A phone's tap as its socket sends it (consumers.py: taps.tap_by_id)."""
    return taps.tap_by_id(player.pk, player.token, taps.form_from_json(fields))


def crew_vote_on_stage():
    """Mafie with moments: the Godfather (Alice) proposes Alice and Dave; everyone votes, the
    last vote by a phone's tap: the vote is revealed and takes the stage."""
    room, players, game = started_game()
    assert game.options[MOMENTS.key] is True
    game = everyone_ready(game)
    game = services.submit(game.pk, 0, {"type": "propose_team", "team": [0, 3]})
    for seat in range(4):
        game = services.submit(game.pk, seat, {"type": "vote", "approve": seat != 1})
    assert tap(players[4], {"action": "vote", "choice": "approve", "turn": str(game.state["turn"])}).status == 204
    return room, players, Game.objects.get(pk=game.pk)


@override_settings(MOMENTS=True)
def test_a_vote_takes_the_stage_on_the_tv_and_every_phone():
    room, players, game = crew_vote_on_stage()
    assert game.state["moments"]["on"]["events"][0]["kind"] == "votes_revealed"
    assert game.state["clock"]["move"] == MOMENT_OVER and game.clock_started is not None
    tv = host_client(room).get(f"/r/{room.code}/").content.decode()   # a TV (re)connecting now
    assert 'data-cue="vote"' in tv and f'data-cue-key="{game.pk}:1"' in tv
    assert "The vote on the crew" in tv and "Bob: against" in tv and "Approved 4–1" in tv
    assert 'class="countdown-bar"' in tv          # the moment is timed: the big countdown
    for player in players:
        page = player_client(player).get(f"/p/{room.code}/").content.decode()
        assert "The vote on the crew" in page and "Approved 4–1" in page
        assert "data-cue-key" not in page             # the TV plays the cue, not the phones
        assert 'name="action"' not in page             # no button to tap meanwhile


@override_settings(MOMENTS=True)
def test_a_tap_during_a_moment_is_refused_in_words_and_changes_nothing():
    room, players, game = crew_vote_on_stage()
    turn = str(game.state["turn"])
    for fields in ({"action": "play_action_card", "card": "success", "turn": turn},
                   {"action": "seen_role", "turn": turn}):
        answer = tap(players[0], fields)
        assert answer.status == 409 and answer.message == "Everyone is watching the result. Wait a moment."
    # The host's buttons too (none is offered meanwhile), and the clock's move before it is due.
    with pytest.raises(services.ServiceError):
        services.host_move(room, "go_on", expected_turn=None)
    with pytest.raises(services.NotDue):
        services.clock_move(game.pk, game.version, MOMENT_OVER)
    after = Game.objects.get(pk=game.pk)
    assert (after.version, after.state, after.next_seq) == (game.version, game.state, game.next_seq)


@override_settings(MOMENTS=True)
def test_the_refusal_is_in_czech_in_a_czech_room():
    room, players, game = started_game(language="cs")
    game = everyone_ready(game)
    game = services.submit(game.pk, 0, {"type": "propose_team", "team": [0, 3]})
    for seat in range(5):
        game = services.submit(game.pk, seat, {"type": "vote", "approve": True})
    answer = tap(players[0], {"action": "play_action_card", "card": "success", "turn": str(game.state["turn"])})
    assert answer.status == 409 and answer.message == "Všichni sledují výsledek. Chvilku počkej."


@override_settings(MOMENTS=True, CLOCK_SCALE=0)   # every clock is due at once
def test_the_game_masters_clock_ends_the_moment_and_the_tv_keeps_it_in_its_history():
    room, players, game = crew_vote_on_stage()
    game = services.clock_move(game.pk, game.version, MOMENT_OVER)
    assert game.state["moments"]["on"] is None and game.state["clock"] is None   # Mafie's crew plays untimed
    assert game.clock_started is None
    tv = host_client(room).get(f"/r/{room.code}/").content.decode()
    assert "data-cue-key" not in tv and 'class="moment-history"' in tv and "Approved 4–1" in tv
    page = player_client(players[0]).get(f"/p/{room.code}/").content.decode()
    assert "The vote on the crew" not in page and 'value="play_action_card"' in page
    # The crew plays: the job's cards take the stage next, the second moment.
    turn = str(game.state["turn"])
    assert tap(players[0], {"action": "play_action_card", "card": "success", "turn": turn}).status == 204
    assert tap(players[3], {"action": "play_action_card", "card": "success", "turn": turn}).status == 204
    game = Game.objects.get(pk=game.pk)
    assert game.state["moments"]["on"]["n"] == 2
    tv = host_client(room).get(f"/r/{room.code}/").content.decode()
    assert 'data-cue="cards"' in tv and "The job succeeds." in tv


def test_a_game_started_with_moments_off_has_none():
    """The tests' default (tests/conftest.py): games play straight through."""
    room, players, game = started_game()
    assert game.options[MOMENTS.key] is False and "moments" not in game.state


@override_settings(MOMENTS=True, CLOCK_SCALE=0)   # every clock is due at once
@pytest.mark.parametrize(("slug", "players"), [("mafia_pl", 7), ("granna", 7), ("mafie", 5), ("mrakoslapi", 6)])
def test_games_with_moments_play_to_their_end_through_the_writer(slug, players):
    """Random games through the services: the game master's clock (``clock_move``, only once
    due) ends every moment, the game goes on, and it ends."""
    ruleset = registry.get(slug)
    for seed in range(2):
        room, _players = room_with_players(players)
        services.configure(room, slug, {})
        game = services.start_game(room, seed=seed)
        chooser, moments = random.Random(seed), 0
        while game.status == "running":
            actor = chooser.choice(movers(ruleset, game.state))
            action = chooser.choice(ruleset.legal_actions(game.state, actor))
            moments += action == MOMENT_OVER
            if actor is GAME_MASTER:
                game = services.clock_move(game.pk, game.version, game.state["clock"]["move"])
            elif actor == HOST:
                game = services.host_move(room, action["type"], expected_turn=None)
            else:
                game = services.submit(game.pk, actor, action)
        assert game.status == "finished" and moments and game.state["moments"]["on"] is None


def test_every_cue_a_moment_may_have_has_its_sound_on_the_tv():
    """A moment's cue (presenters.CUES) is played by the TV's app.js: each has its notes there,
    and app.js has none that no moment can ask for (Cosa Nostra's die brought a new one)."""
    script = (Path(settings.BASE_DIR) / "static" / "app.js").read_text()
    table = re.search(r"var CUES = \{(.*?)\n\s*\};", script, re.S).group(1)
    assert set(re.findall(r"^\s*(\w+): \[\[", table, re.M)) == set(CUES)
