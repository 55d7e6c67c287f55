"""services: the one writer (docs/design.md §4)."""

from __future__ import annotations

import threading

import pytest
from django.db import close_old_connections

from engines.base import IllegalAction, MalformedAction
from mafiagames import db, services
from mafiagames.models import Event, Game

from .helpers import room_with_players, started_game, to_team_vote

pytestmark = pytest.mark.django_db


def snapshot(game_id: int):
    game = Game.objects.get(pk=game_id)
    return game.state, game.version, game.events.count(), game.status


def test_start_game_deals_seats_in_lobby_order_and_logs_setup_events():
    room, players, game = started_game()
    assert game.seats == [p.pk for p in players]
    assert game.names == ["Alice", "Bob", "Carol", "Dave", "Erin"]
    assert game.version == 0 and game.status == Game.Status.RUNNING
    kinds = list(game.events.values_list("kind", flat=True))
    assert "roles_dealt" in kinds
    roles_event = game.events.get(kind="roles_dealt")
    assert roles_event.audience == "nobody"


def test_start_game_refuses_wrong_player_count_and_writes_nothing():
    room, _players = room_with_players(4)
    with pytest.raises(services.ServiceError) as err:
        services.start_game(room)
    assert err.value.code == "player_count"
    assert not Game.objects.exists()


def test_a_second_game_cannot_start_while_one_runs():
    room, _players, _game = started_game()
    with pytest.raises(services.Conflict):
        services.start_game(room)


def test_stale_turn_is_refused_and_changes_nothing():
    _room, _players, game = started_game()
    before = snapshot(game.pk)
    with pytest.raises(services.StaleVersion):
        services.submit(game.pk, 0, {"type": "ready"}, expected_turn=game.state["turn"] - 1)
    with pytest.raises(services.StaleVersion):
        services.submit(game.pk, 0, {"type": "ready"}, expected_version=game.version + 1)
    assert snapshot(game.pk) == before


def test_illegal_action_leaves_the_game_unchanged():
    """Rules A.2 / A-S07: a mafioso's Fail is refused and nothing is written."""
    _room, _players, game = started_game()
    game = to_team_vote(game, [0, 3])
    for seat in range(5):
        game = services.submit(game.pk, seat, {"type": "vote", "approve": True})
    assert game.state["phase"] == "action_play"
    before = snapshot(game.pk)
    with pytest.raises(IllegalAction) as err:
        services.submit(game.pk, 0, {"type": "play_action_card", "card": "fail"}, expected_turn=game.state["turn"])
    assert err.value.code == "mafioso_must_succeed"
    assert snapshot(game.pk) == before


def test_malformed_action_is_refused_and_changes_nothing():
    _room, _players, game = started_game()
    before = snapshot(game.pk)
    with pytest.raises(MalformedAction):
        services.submit(game.pk, 0, {"type": "fly"})
    assert snapshot(game.pk) == before


def test_each_action_is_logged_with_its_seat_for_replay():
    _room, _players, game = started_game()
    services.submit(game.pk, 2, {"type": "ready"})
    action = Event.objects.get(game=game, kind="action")
    assert action.data == {"seat": 2, "action": {"type": "ready"}}
    assert action.audience == "nobody" and action.version == 1


def test_what_a_tap_writes_in_plain_sql_reads_back_through_the_orm_unchanged():
    """The tap's statements bypass the ORM (docs/performance.md); every value must still be
    stored exactly as the ORM would store it: JSON, timestamps, the seq counter."""
    from django.utils import timezone

    room, players, game = started_game()
    before = timezone.now()
    for seat in range(5):
        services.submit_for_player(room, players[seat].pk, {"type": "ready"}, expected_turn=game.state["turn"])
    returned = to_team_vote(Game.objects.get(pk=game.pk), [0, 1])
    stored = Game.objects.get(pk=game.pk)
    assert (stored.state, stored.version, stored.next_seq, stored.status, stored.outcome) == \
        (returned.state, returned.version, returned.next_seq, returned.status, returned.outcome)
    events = list(Event.objects.filter(game=game).order_by("seq"))
    assert [e.seq for e in events] == list(range(stored.next_seq))  # no gaps, none twice
    proposal = next(e for e in events if e.kind == "action" and e.data["action"]["type"] == "propose_team")
    assert proposal.data == {"seat": 0, "action": {"type": "propose_team", "team": [0, 1]}}
    assert proposal.audience == "nobody" and proposal.version == 6
    assert any(isinstance(e.audience, list) and e.audience for e in events)  # private ones: seats
    assert all(before <= e.created <= timezone.now() for e in events if e.version > 0)


def test_the_taps_own_read_of_the_game_equals_the_orms():
    """``db.running_game_locked`` reads the game row in plain SQL with the ORM's converters: every
    field must come back as the ORM reads it (JSON, timestamps with their zone, the room id)."""
    from django.db import transaction

    from mafiagames.models import Room

    room, players, game = started_game()
    services.submit_for_player(room, players[0].pk, {"type": "ready"}, expected_turn=game.state["turn"])
    Game.objects.filter(pk=game.pk).update(outcome={"winner": "x"}, clock_started=game.started)
    with transaction.atomic():
        read = db.running_game_locked(room.pk)
    stored = Game.objects.get(pk=game.pk)
    fields = [f.attname for f in Game._meta.concrete_fields]
    assert {f: getattr(read, f) for f in fields} == {f: getattr(stored, f) for f in fields}
    assert read.clock_started.tzinfo is not None and read.outcome == {"winner": "x"}
    assert db.running_game_locked(Room.objects.create(code="ZZZZ").pk) is None


def test_finished_game_refuses_actions():
    _room, _players, game = started_game()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    with pytest.raises(services.Conflict):
        services.submit(game.pk, 0, {"type": "ready"})


def test_names_are_trimmed_validated_and_unique_per_room():
    room, _players = room_with_players(2)
    assert services.join_room(room, "  Zoe   Q  ").name == "Zoe Q"
    for bad, code in [("", "name_empty"), ("   ", "name_empty"), ("x" * 25, "name_long"),
                      ("alice", "name_taken"), ("ALICE", "name_taken"), ("a\u0000b", "name_bad")]:
        with pytest.raises(services.ServiceError) as err:
            services.join_room(room, bad)
        assert err.value.code == code
    other, _ = room_with_players(1)
    assert services.join_room(other, "Bob").name == "Bob"  # unique per room only


def test_room_codes_avoid_ambiguous_letters():
    codes = {services.create_room("en").code for _ in range(30)}
    assert all(len(c) == 4 and not set(c) & set("0O1IL5S2Z8BUV") for c in codes)


@pytest.mark.django_db(transaction=True)
def test_ten_concurrent_submits_are_each_applied_exactly_once_or_refused():
    """Ten phones vote at the same instant, each twice: every first vote counts once, every repeat is refused."""
    _room, _players, game = started_game(n=10, kmotr=0)
    game = to_team_vote(game, [0, 1, 2])
    turn = game.state["turn"]
    results: dict[int, list[str]] = {seat: [] for seat in range(10)}
    barrier = threading.Barrier(10)

    def phone(seat: int):
        close_old_connections()
        barrier.wait()
        for _attempt in range(2):
            try:
                services.submit(game.pk, seat, {"type": "vote", "approve": seat % 2 == 0}, expected_turn=turn)
                results[seat].append("applied")
            except (IllegalAction, services.ServiceError) as exc:
                results[seat].append(getattr(exc, "code", "refused"))
        close_old_connections()

    threads = [threading.Thread(target=phone, args=(seat,)) for seat in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    game.refresh_from_db()
    applied = [seat for seat, r in results.items() if r.count("applied") == 1]
    assert sorted(applied) == list(range(10)), results
    # After the tenth vote the phase moved on, so a repeat is refused as stale or as already voted.
    assert all(r[1] in ("already_voted", "stale", "wrong_phase") for r in results.values()), results
    votes = game.events.filter(kind="action", data__action__type="vote")
    assert votes.count() == 10
    assert sorted(e.data["seat"] for e in votes) == list(range(10))
    assert game.version == 10 + 1 + 10  # ten ready, one proposal, ten votes
    assert game.state["last_vote"]["votes"] == [seat % 2 == 0 for seat in range(10)]
