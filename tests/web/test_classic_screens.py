"""Classic Mafia on the screens (issue 5): every button a phone shows sends exactly a move the
engine allows, sleeping phones look like working ones and send nothing, the host's buttons end
the discussion and the defence, the dead get their banner (and the ghost view when it is on),
and the game master's clocks move the night on by themselves — counted down on the screens."""

from __future__ import annotations

import asyncio
import json
import re

import pytest
from channels.db import database_sync_to_async
from django.http import QueryDict

from engines import registry, replay
from engines.base import GAME_MASTER, HOST, resolve_options
from mafiagames import screens, services, timers
from mafiagames.fanout import HUB
from mafiagames.models import Game
from mafiagames.presenters import classic as words
from mafiagames.rendering import Table, phone_screen, tv_screen
from tests.engines.playthrough import random_playthrough

from .helpers import NINE, Forms, host_client, player_client, polish_discussion, room_with_players, start_after_briefing

# The engines as their rulebooks play (no briefing: tests/engines/test_briefing.py has its own).
POLISH, GRANNA = registry.engine("mafia_pl"), registry.engine("granna")
NAMES = [f"P{i}" for i in range(21)]
# Nine players, Polish, doctor on: P0, P1 gangsters; P2 agent; P3 doctor; P4–P8 policemen.


def sent(form: dict, button: tuple, boxes=()) -> dict:
    data = QueryDict(mutable=True)
    for key, value in form["hidden"].items():
        data[key] = value
    if button[0]:
        data[button[0]] = button[1]
    for key, value in boxes:
        data.appendlist(key, value)
    return words.parse_action(data)


def table(ruleset, state) -> Table:
    players = state["players"]
    seats = list(range(100, 100 + players))
    return Table(code="TEST", language="en", ruleset=ruleset.slug, options=state["options"],
                 players=[{"id": pid, "name": NAMES[i], "connected": True} for i, pid in enumerate(seats)],
                 game={"id": 1, "ruleset": ruleset.slug, "state": state, "version": 3, "names": NAMES[:players],
                       "seats": seats, "status": "running" if state["phase"] != "game_over" else "finished",
                       "clock_started": 1_000_000.0})


def panel(ruleset, state, seat) -> str:
    return phone_screen(table(ruleset, state), 100 + seat)["ph-panel"]


ALL_ON = {"mafia_pl": {"doctor": True, "wizard": True, "judge": True},
          "granna": {"kids_last_shot_all": True, "kids_retheme": True}}


@pytest.mark.parametrize("ruleset", [POLISH, GRANNA], ids=lambda r: r.slug)
def test_every_button_on_a_phone_sends_exactly_a_move_the_engine_allows(ruleset):
    options = resolve_options(ruleset, ALL_ON[ruleset.slug])
    checked = 0
    for players, seed in ((7, 1), (9, 2)):
        play = random_playthrough(ruleset, players, options, seed)
        for state in play.states:
            for seat in ruleset.waiting_for(state):
                legal = ruleset.legal_actions(state, seat)
                forms = Forms(panel(ruleset, state, seat)).forms
                buttons = [sent(form, button) for form in forms if not form["boxes"] for button in form["buttons"]]
                singles = [move for move in legal if move["type"] != "cast_swap"]
                assert sorted(map(json.dumps, buttons)) == sorted(map(json.dumps, singles)), state["phase"]
                for form in (f for f in forms if f["boxes"]):   # the wizard ticks two players
                    pairs = {json.dumps(sent(form, form["buttons"][0], [a, b]))
                             for i, a in enumerate(form["boxes"]) for b in form["boxes"][i + 1:]}
                    assert pairs == {json.dumps(m) for m in legal if m["type"] == "cast_swap"}
                for action in buttons:
                    ruleset.apply(state, seat, action)   # raises if the engine refuses it
                checked += 1
    assert checked > 30


def test_at_night_a_sleeping_phone_shows_as_many_names_as_the_agent_and_sends_nothing():
    state, _ = POLISH.setup(9, resolve_options(POLISH, {"doctor": True}), 1, {"roles": NINE})
    assert state["phase"] == "agent"
    agent, sleeper = Forms(panel(POLISH, state, 2)), Forms(panel(POLISH, state, 5))
    # Issue 14: nine names and one quieter button on every phone.  The agent's own name sends
    # nothing (he cannot check himself), and a sleeper's ten buttons send nothing at all.
    assert len(agent.forms) == 9 and agent.decoys == 1          # eight others and "no check tonight"
    assert sleeper.forms == [] and sleeper.decoys == 10         # every living player and "Nobody tonight"
    # The gangsters are asleep too during the agent's step: their phone looks the same.
    assert Forms(panel(POLISH, state, 0)).forms == [] and Forms(panel(POLISH, state, 0)).decoys == 10


def to_the_gang(options: dict) -> dict:
    """Nine players, Polish with the doctor: the agent and the doctor skip; the gang wakes."""
    state, _ = POLISH.setup(9, resolve_options(POLISH, {"doctor": True, **options}), 1, {"roles": NINE})
    for seat, action in ((2, {"type": "skip_check"}), (None, {"type": "timeout"}),
                         (3, {"type": "skip_heal"}), (None, {"type": "timeout"})):
        state, _ = POLISH.apply(state, seat, action)
    return state


def test_the_gang_sees_its_live_picks_and_nobody_else_does():
    state = to_the_gang({})
    assert state["phase"] == "mafia"
    state, _ = POLISH.apply(state, 0, {"type": "pick_victim", "target": 4})
    gangster, other = panel(POLISH, state, 1), panel(POLISH, state, 4)
    assert "P0 → P4" in gangster
    assert "P4" not in re.sub(r"<button[^>]*>P4</button>", "", other)   # only as a decoy name


def test_the_dead_see_the_silence_banner_and_the_ghost_view_only_when_it_is_on():
    for ghost in (True, False):
        state = to_the_gang({"ghost_view": ghost})
        for gangster in (0, 1):
            state, _ = POLISH.apply(state, gangster, {"type": "pick_victim", "target": 4})
        state, _ = POLISH.apply(state, None, {"type": "timeout"})
        assert state["phase"] == "discussion" and not state["dead"][4] is None
        html = panel(POLISH, state, 4)
        assert "Stay silent" in html
        assert ("Ghost view" in html) is ghost
        assert ("Gangster" in html) is ghost      # every role, in the ghost view only
        assert "Stay silent" not in panel(POLISH, state, 5)


@pytest.mark.django_db
def test_the_host_ends_the_discussion_and_the_defence_from_the_tv():
    room, players, game = polish_discussion()
    host = host_client(room)
    tv = host.get(f"/r/{room.code}/").content.decode()
    assert 'value="end_discussion"' in tv and "End the discussion" in tv
    turn = game.state["turn"]
    assert player_client(players[0]).post(f"/r/{room.code}/host", {"command": "move", "move": "end_discussion",
                                                                   "turn": turn}).status_code == 403
    assert host.post(f"/r/{room.code}/host", {"command": "move", "move": "end_defence",
                                              "turn": turn}).status_code == 409   # not offered now
    assert host.post(f"/r/{room.code}/host", {"command": "move", "move": "end_discussion",
                                              "turn": "x"}).status_code == 400
    assert Game.objects.get(pk=game.pk).state["phase"] == "discussion"   # nothing changed
    assert host.post(f"/r/{room.code}/host", {"command": "move", "move": "end_discussion",
                                              "turn": turn}).status_code == 204
    game = Game.objects.get(pk=game.pk)
    assert game.state["phase"] == "vote"
    assert host.post(f"/r/{room.code}/host", {"command": "move", "move": "end_discussion",
                                              "turn": turn}).status_code == 409   # a second click: stale
    assert 'value="end_discussion"' not in host.get(f"/r/{room.code}/").content.decode()
    for seat, target in ((0, 2), (1, 2), (2, 0), (3, 0), (4, 0), (5, 2), (7, 0), (8, 2)):
        game = services.submit(game.pk, seat, {"type": "vote", "target": target})
    assert game.state["phase"] == "defence"
    assert host.post(f"/r/{room.code}/host", {"command": "move", "move": "end_defence",
                                              "turn": game.state["turn"]}).status_code == 204
    assert Game.objects.get(pk=game.pk).state["phase"] == "final_vote"


def test_screens_count_down_to_the_clock_only_while_one_runs():
    state, _ = POLISH.setup(9, resolve_options(POLISH, {"doctor": True, "deadline_seconds": "90"}), 1, {"roles": NINE})
    due = round((1_000_000.0 + 90) * 1000)
    assert f'data-deadline="{due}"' in tv_screen(table(POLISH, state), host=False)["tv-main"]
    assert f'data-deadline="{due}"' in panel(POLISH, state, 4)
    state, _ = POLISH.apply(state, 2, {"type": "skip_check"})   # done: the step's minimum now
    assert f'data-deadline="{round((1_000_000.0 + 8) * 1000)}"' in panel(POLISH, state, 4)


async def until_phase(game_id: int, changed: asyncio.Event, phase: str) -> None:
    """Until the stored game reaches ``phase``, woken by the room's pings (``changed``)."""
    while True:
        changed.clear()   # before reading: a ping during the read is not lost
        if (await database_sync_to_async(Game.objects.get)(pk=game_id)).state["phase"] == phase:
            return
        await changed.wait()


@pytest.mark.django_db(transaction=True)
async def test_the_night_moves_on_by_itself_and_the_day_waits_for_the_host(settings):
    """The game master's clocks (timers.py): each night step ends by itself once its time is up,
    the first straight after the game starts — nobody taps for the sleepers."""
    settings.CLOCK_SCALE = 0.01   # 8 s steps take 80 ms
    room, players = await database_sync_to_async(room_with_players)(9)
    await database_sync_to_async(services.configure)(room, "mafia_pl", {"doctor": True})
    changed = asyncio.Event()

    class Screen:
        def refresh_soon(self, version):
            changed.set()

    async def until(phase):
        await until_phase(game.pk, changed, phase)

    async def tap(seat, action):
        # The writer hands every committed game to the game master's clock (notify.py): no
        # caller arms a timer.
        await database_sync_to_async(services.submit)(game.pk, seat, action)

    screen = Screen()
    await HUB.register(room.code, screen)   # this process's loop, as timers.start adopts it in the server
    try:
        game = await database_sync_to_async(start_after_briefing)(room, seed=3, deal={"roles": NINE})
        await asyncio.wait_for(until("agent"), 30)
        await tap(2, {"type": "check", "target": 0})
        await asyncio.wait_for(until("doctor"), 30)   # no tap: the doctor lets his deadline pass
        await asyncio.wait_for(until("mafia"), 30)
        for gangster in (0, 1):
            await tap(gangster, {"type": "pick_victim", "target": 5})
        await asyncio.wait_for(until("discussion"), 30)
        after = await database_sync_to_async(Game.objects.get)(pk=game.pk)
        assert after.state["dead"][5]["cause"] == "night" and after.state["clock"] is None
        kinds = await database_sync_to_async(lambda: list(after.events.values_list("kind", flat=True)))()
        moves = await database_sync_to_async(lambda: [e.data["action"]["type"] for e in after.events.filter(
            kind="action") if replay.actor_of(e.data) is GAME_MASTER])()
        assert moves == ["timeout", "timeout", "timeout"]   # agent, doctor, gang: once each
        assert kinds.count("dawn") == 1
    finally:
        await HUB.unregister(room.code, screen)
        screens.forget(room.code)


@pytest.mark.django_db
def test_the_host_switches_to_a_classic_edition_and_sets_its_options():
    room, players = room_with_players(7)
    host = host_client(room)
    # The lobby form still holds Mafie's options when the host picks another game.
    assert host.post(f"/r/{room.code}/host", {"command": "configure", "ruleset": "mafia_pl",
                                              "opt-targeting": "on", "opt-plot_distribution": "cz"}).status_code == 204
    room.refresh_from_db()
    assert room.ruleset == "mafia_pl" and room.options == resolve_options(registry.get("mafia_pl"), {})
    lobby = host.get(f"/r/{room.code}/").content.decode()
    assert 'name="opt-doctor"' in lobby and 'name="opt-targeting"' not in lobby
    assert host.post(f"/r/{room.code}/host", {"command": "configure", "ruleset": "mafia_pl", "opt-doctor": "on",
                                              "opt-deadline_seconds": "30"}).status_code == 204
    room.refresh_from_db()
    assert room.options["doctor"] is True and room.options["deadline_seconds"] == "30"
    assert "<li>Time to decide at night: 30 s</li>" in host.get(f"/r/{room.code}/").content.decode()
    assert host.post(f"/r/{room.code}/host", {"command": "configure", "ruleset": "mafia_pl",
                                              "opt-deadline_seconds": "7"}).status_code == 400
    room.refresh_from_db()
    assert room.options["deadline_seconds"] == "30"   # a refused value changes nothing
    assert host.post(f"/r/{room.code}/host", {"command": "start"}).status_code == 204
    assert room.games.get().ruleset == "mafia_pl"


@pytest.mark.django_db(transaction=True)
async def test_a_night_step_that_fell_due_while_the_server_was_down_ends_when_it_starts_again():
    """Timers survive a restart: the step's clock started in the database, so a process that
    starts after the deadline ends the step at once (timers.resume), exactly once."""
    from datetime import timedelta

    from django.utils import timezone

    from mafiagames.tables import game_dict

    room, players = await database_sync_to_async(room_with_players)(9)
    await database_sync_to_async(services.configure)(room, "mafia_pl", {"doctor": True})
    game = await database_sync_to_async(start_after_briefing)(room, seed=3, deal={"roles": NINE})
    assert game.state["phase"] == "agent" and game.clock_started is not None
    down = timezone.now() - timedelta(minutes=5)   # the agent's 60 s passed while nobody served
    await database_sync_to_async(Game.objects.filter(pk=game.pk).update)(clock_started=down)
    assert timers.due_in(game_dict(await database_sync_to_async(Game.objects.get)(pk=game.pk))) < 0
    changed = asyncio.Event()

    class Screen:
        def refresh_soon(self, version):
            changed.set()

    screen = Screen()
    await HUB.register(room.code, screen)
    try:
        timers._resumed.discard(asyncio.get_running_loop())   # as if this process had just started
        timers.resume()

        await asyncio.wait_for(until_phase(game.pk, changed, "doctor"), 30)
        after = await database_sync_to_async(Game.objects.get)(pk=game.pk)
        assert after.version == game.version + 1 and after.clock_started > down   # the doctor's own clock
    finally:
        await HUB.unregister(room.code, screen)
        screens.forget(room.code)


def test_with_a_judge_every_voter_has_the_same_folded_more_and_only_the_judge_finds_double_votes_in_it():
    roles = ["mafioso", "mafioso", "agent", "judge", *["policeman"] * 5]
    state, _ = POLISH.setup(9, resolve_options(POLISH, {"judge": True}), 1, {"roles": roles})
    for seat, action in ((2, {"type": "skip_check"}), (None, {"type": "timeout"}),
                         (0, {"type": "pick_victim", "target": 8}), (1, {"type": "pick_victim", "target": 8}),
                         (None, {"type": "timeout"}), (HOST, {"type": "end_discussion"})):
        state, _ = POLISH.apply(state, seat, action)
    assert state["phase"] == "vote"
    judge, other = panel(POLISH, state, 3), panel(POLISH, state, 4)
    for html in (judge, other):
        assert html.count('<details class="more">') == 1
    assert "×2" in judge and "×2" not in other
    doubles = [sent(form, button) for form in Forms(judge).forms for button in form["buttons"]
               if form["hidden"].get("double")]
    assert doubles and all(action["double"] for action in doubles)
    state = to_the_gang({})   # no judge in this game: no "More…" at all
    for seat, action in ((0, {"type": "pick_victim", "target": 8}), (1, {"type": "pick_victim", "target": 8}),
                         (None, {"type": "timeout"}), (HOST, {"type": "end_discussion"})):
        state, _ = POLISH.apply(state, seat, action)
    assert state["phase"] == "vote" and "<details class=\"more\">" not in panel(POLISH, state, 4)


@pytest.mark.parametrize("victim", [0, 5])
def test_the_gang_sees_it_has_agreed_even_on_the_player_in_seat_0(victim):
    """Seat 0 is a seat like any other: ``{% if me.locked %}`` hid the agreement on seat 0."""
    roles = ["policeman", "mafioso", "mafioso", "agent", "doctor", "policeman", "policeman", "policeman", "policeman"]
    state, _ = POLISH.setup(9, resolve_options(POLISH, {"doctor": True}), 1, {"roles": roles})
    for seat, action in ((3, {"type": "skip_check"}), (None, {"type": "timeout"}),
                         (4, {"type": "skip_heal"}), (None, {"type": "timeout"}),
                         (1, {"type": "pick_victim", "target": victim}), (2, {"type": "pick_victim", "target": victim})):
        state, _ = POLISH.apply(state, seat, action)
    assert state["phase"] == "mafia", "the step waits for its minimum length"
    assert "The mafia has agreed." in panel(POLISH, state, 1)
    assert "The mafia has agreed." not in panel(POLISH, state, 5)
