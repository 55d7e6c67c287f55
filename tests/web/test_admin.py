"""Admin: past games are read-only, and the replay rebuilds each step from seed + log."""

from __future__ import annotations

import re

import pytest

from mafiagames import services
from mafiagames.models import Event, Game

from .helpers import start_after_briefing, started_game, to_team_vote

pytestmark = pytest.mark.django_db


def played_game():
    """Alice's crew {Alice, Dave} is approved; Dave sabotages job 1."""
    _room, _players, game = started_game()
    game = to_team_vote(game, [0, 3])
    for seat in range(5):
        game = services.submit(game.pk, seat, {"type": "vote", "approve": seat != 4})
    game = services.submit(game.pk, 0, {"type": "play_action_card", "card": "success"})
    return services.submit(game.pk, 3, {"type": "play_action_card", "card": "fail"})


def test_game_list_shows_ruleset_players_and_status(admin_client):
    game = played_game()
    html = admin_client.get("/admin/mafiagames/game/").content.decode()
    assert "mafie" in html and "Alice, Bob, Carol, Dave, Erin" in html and "running" in html
    assert f"/admin/mafiagames/game/{game.pk}/replay/" in html
    assert admin_client.get("/admin/mafiagames/game/?status__exact=finished").status_code == 200


def test_game_change_page_is_read_only_with_the_event_audiences(admin_client):
    game = played_game()
    html = admin_client.get(f"/admin/mafiagames/game/{game.pk}/change/").content.decode()
    assert 'name="_save"' not in html
    assert "nobody (game master)" in html and "everyone" in html
    audiences = re.findall(r'field-audience_display">\s*<p>([^<]*)</p>', html)
    # Each private role card is shown to exactly one named player.
    for name in game.names:
        assert name in audiences


def test_events_cannot_be_added_or_edited(admin_client):
    game = played_game()
    assert admin_client.get("/admin/mafiagames/event/add/").status_code in (403, 404)
    response = admin_client.post(f"/admin/mafiagames/game/{game.pk}/change/", {"events-TOTAL_FORMS": "1"})
    assert response.status_code == 403
    event = game.events.first()
    event.kind = "forged"
    with pytest.raises(ValueError):
        event.save()
    assert Event.objects.get(pk=event.pk).kind != "forged"


def test_replay_steps_through_the_game_and_matches_the_snapshot(admin_client):
    game = played_game()
    url = f"/admin/mafiagames/game/{game.pk}/replay/"
    last = admin_client.get(url).content.decode()
    assert "reproduces the stored snapshot exactly" in last
    assert f"step {game.version} of {game.version}" in last
    # Step 5 is after the five ready taps: the proposal has not been made yet.
    step5 = admin_client.get(url + "?step=5").content.decode()
    assert "step 5 of" in step5 and "&quot;phase&quot;: &quot;team_selection&quot;" in step5
    # Step 0 is the deal; the full state shows every role, the TV view none.
    step0 = admin_client.get(url + "?step=0").content.decode()
    tv = step0.split('id="tv-view">')[1].split("</pre>")[0]
    full = step0.split('id="full-state">')[1].split("</pre>")[0]
    assert "&quot;detective&quot;" in full and "&quot;detective&quot;" not in tv
    assert admin_client.get(url + "?step=999").status_code == 200  # clamped to the last step
    assert admin_client.get(url + "?step=abc").status_code == 200


def test_replay_reports_a_snapshot_that_does_not_match(admin_client):
    game = played_game()
    state = dict(game.state, rejections=4)
    Game.objects.filter(pk=game.pk).update(state=state)
    html = admin_client.get(f"/admin/mafiagames/game/{game.pk}/replay/").content.decode()
    assert "does NOT reproduce" in html


def test_replay_requires_staff(client):
    game = played_game()
    response = client.get(f"/admin/mafiagames/game/{game.pk}/replay/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_a_classic_game_replays_step_by_step_in_its_editions_words(admin_client):
    """Past games of every ruleset are reviewed the same way: the Polish edition's night, dawn
    and vote, rebuilt from seed + log, narrated in the gang's words."""
    from .helpers import room_with_players

    room, _players = room_with_players(9)
    services.configure(room, "mafia_pl", {"doctor": True})
    roles = ["mafioso", "mafioso", "agent", "doctor", *["policeman"] * 5]
    game = start_after_briefing(room, seed=11, deal={"roles": roles})
    for seat, action in ((2, {"type": "check", "target": 0}), (None, {"type": "timeout"}),
                         (3, {"type": "heal", "target": 3}), (None, {"type": "timeout"}),
                         (0, {"type": "pick_victim", "target": 6}), (1, {"type": "pick_victim", "target": 6}),
                         (None, {"type": "timeout"})):
        game = services.submit(game.pk, seat, action)
    url = f"/admin/mafiagames/game/{game.pk}/replay/"
    last = admin_client.get(url).content.decode()
    assert "reproduces the stored snapshot exactly" in last
    assert "Fallen tonight: Grace. Card: Policeman." in last
    night = admin_client.get(url + "?step=5").content.decode()
    assert "The mafia wakes up" in night
    tv = night.split('id="tv-view">')[1].split("</pre>")[0]
    assert "&quot;role&quot;: &quot;" not in tv and "&quot;role&quot;: null" in tv   # no card on the TV at night


def test_a_mrakoslapi_game_replays_its_night_with_the_secret_trace(admin_client):
    """A Mrakošlapi night, rebuilt from the forced deal + log: the snapshot matches, the morning
    is narrated, and the step-by-step state holds the secret trace of the night."""
    from tests.engines.test_mrakoslapi_engine_game import DEAL

    from .helpers import room_with_players

    room, _players = room_with_players(6)
    services.configure(room, "mrakoslapi", {})
    game = start_after_briefing(room, seed=11, deal=DEAL)
    for seat, action in ((0, {"type": "mafia_target", "target": 5}), (1, {"type": "mafia_target", "target": 5}),
                         (1, {"type": "tunnel", "no": 1, "from": 5, "to": 2}), (None, {"type": "timeout"})):
        game = services.submit(game.pk, seat, action)
    url = f"/admin/mafiagames/game/{game.pk}/replay/"
    last = admin_client.get(url).content.decode()
    assert "reproduces the stored snapshot exactly" in last
    assert "Shots fired: 3" in last and "Mirrors broken: 1" in last
    assert "&quot;kind&quot;: &quot;mirror&quot;" in last                  # the trace, for the reviewer
    tv = last.split('id="tv-view">')[1].split("</pre>")[0]
    assert "&quot;trace&quot;" not in tv and "&quot;reflects&quot;" not in tv      # the trace: never on the TV


def test_the_log_tells_the_host_from_the_game_masters_clock_and_the_replay_says_who(admin_client):
    """engines/base.py, "Who acts": the clock's timeout and the host's "end the discussion" are
    logged as different actors, replayed as such, and named on the admin's step."""
    from .helpers import room_with_players

    room, _players = room_with_players(8)
    services.configure(room, "mafia_pl", {})
    roles = ["mafioso", "mafioso", "agent", *["policeman"] * 5]
    game = start_after_briefing(room, seed=11, deal={"roles": roles})
    for seat, action in ((2, {"type": "check", "target": 0}), (None, {"type": "timeout"}),
                         (0, {"type": "pick_victim", "target": 6}), (1, {"type": "pick_victim", "target": 6}),
                         (None, {"type": "timeout"})):
        game = services.submit(game.pk, seat, action)
    game = services.host_move(room, "end_discussion", expected_turn=None)
    logged = [e.data for e in Event.objects.filter(game=game, kind="action").order_by("seq")]
    assert logged[0] == {"seat": None, "actor": "host", "action": {"type": "go_on"}}   # the briefing
    assert logged[2] == {"seat": None, "actor": "game_master", "action": {"type": "timeout"}}
    assert logged[-1] == {"seat": None, "actor": "host", "action": {"type": "end_discussion"}}
    url = f"/admin/mafiagames/game/{game.pk}/replay/"
    assert "reproduces the stored snapshot exactly" in admin_client.get(url).content.decode()
    assert "the game master&#x27;s clock: {&#x27;type&#x27;: &#x27;timeout&#x27;}" in \
        admin_client.get(url + "?step=3").content.decode()
    assert "the host: {&#x27;type&#x27;: &#x27;end_discussion&#x27;}" in admin_client.get(url).content.decode()


def test_a_log_from_before_the_host_and_the_clock_were_told_apart_still_replays(admin_client):
    """Old logs wrote both as seat None: the replay takes the clock's move for the clock's and
    anything else for the host's."""
    from .helpers import polish_discussion

    room, _players, game = polish_discussion()
    game = services.host_move(room, "end_discussion", expected_turn=None)
    Event.objects.filter(game=game, kind="action", data__actor="game_master").update(
        data={"seat": None, "action": {"type": "timeout"}})   # the clock's, as old logs wrote it
    last = Event.objects.filter(game=game, kind="action").order_by("-seq").first()
    Event.objects.filter(pk=last.pk).update(data={"seat": None, "action": {"type": "end_discussion"}})
    html = admin_client.get(f"/admin/mafiagames/game/{game.pk}/replay/").content.decode()
    assert "reproduces the stored snapshot exactly" in html
    assert "the host or the clock: {&#x27;type&#x27;: &#x27;end_discussion&#x27;}" in html
