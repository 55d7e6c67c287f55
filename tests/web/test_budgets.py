"""Budgets a test holds (docs/performance.md, "Budgets a test holds"): what one tap costs in a room
of 20 phones and a host's TV, counted, not timed — template renders, SQL statements, bytes per
update frame (median and largest) and update frames per screen.

For each ruleset: its busiest tap (the first vote of a public vote; in Cosa Nostra a move on the
board; in the tiny test ruleset a call) and the tap that ends a game.  The room is reached
deterministically: a fixed deal (``SEED``), the same twenty names, and a seeded random walk of the
engine (``walk``) whose moves are written to the database as the services write them, events
included (a finished game's story is read from them).  Then the TV and the twenty phones connect
(``WebsocketCommunicator``, the real ASGI application), every screen is brought up to date, and
the tap is sent over the tapping phone's socket exactly as the page sends it: one of the buttons
its screen shows.  The wait is the server's: until every socket of the room has shown the tap's
version and has nothing left to send (``settled``); no sleeps.

Each budget is the measured figure plus a margin (about 15 %, at least 1), the figure in the
comment beside it.  A new feature that costs more fails here and has to pay for itself, or the
budget is raised in the same commit with the reason.  To see the figures:

    BUDGETS_PRINT=1 .venv/bin/python -m pytest tests/web/test_budgets.py -s

and copy the printed rows into ``BUDGETS`` (and the table in docs/performance.md).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import random
import re
import statistics
import threading
from collections import Counter
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from django.db import transaction
from django.db.backends import utils as db_utils
from django.test.signals import template_rendered

from engines import registry
from engines.base import GAME_MASTER, HOST, movers
from mafiagames import db, presenters, services, timers
from mafiagames.fanout import HUB
from mafiagames.models import Game, Room
from mafiagames.presenters import parse_tap
from tests import tiny
from tests.conftest import CAST
from tests.tiny import presenter as tiny_presenter

from .test_buttons_are_moves import presses
from .test_consumers import phone_socket, tv_socket

pytestmark = pytest.mark.django_db(transaction=True, reset_sequences=True)

# --- the budgets ---------------------------------------------------------------------------------
# Per tap, everything the room does for it: the write, every screen's refresh, the tapper's answer.
#   renders:    templates rendered (django.test.signals.template_rendered: a partial
#               ``tv.html#tv-main`` and every template it includes count one each)
#   statements: SQL statements on every thread (the writer's, the screen loads', ours)
#   frame_p50, frame_max: bytes of an update frame (one carrying the version marker), median and
#               largest over all 21 screens
#   frames:     update frames the busiest screen received for the tap
# Budget = measured × 1.15 rounded up (at least measured + 1); frames: exactly the measured 1 (a second
# frame per screen for one tap is a regression in itself).  Measured 2026-11-28; the figures are counts
# and sizes, the same on any machine and in every run (three runs in a row gave the same rows).
# "last" in Mrakošlapi is the game master's move (the sentence's clock): no walk ends it by a phone.
BUDGETS = {
    # (ruleset, tap): {measure: budget},  # measured renders / statements / frame_p50 / frame_max / frames
    ("mafie", "vote"): {"renders": 13, "statements": 7, "frame_p50": 2252, "frame_max": 3724, "frames": 1},  # 11 / 6 / 1958 / 3238 / 1
    ("mafie", "last"): {"renders": 59, "statements": 19, "frame_p50": 2156, "frame_max": 22072, "frames": 1},  # 51 / 16 / 1874 / 19193 / 1
    ("granna", "vote"): {"renders": 97, "statements": 7, "frame_p50": 1969, "frame_max": 4977, "frames": 1},  # 84 / 6 / 1712 / 4327 / 1
    ("granna", "last"): {"renders": 66, "statements": 18, "frame_p50": 1985, "frame_max": 31834, "frames": 1},  # 57 / 15 / 1726 / 27681 / 1
    ("mafia_pl", "vote"): {"renders": 97, "statements": 7, "frame_p50": 1937, "frame_max": 4977, "frames": 1},  # 84 / 6 / 1684 / 4327 / 1
    ("mafia_pl", "last"): {"renders": 48, "statements": 18, "frame_p50": 2020, "frame_max": 25833, "frames": 1},  # 41 / 15 / 1756 / 22463 / 1
    ("mrakoslapi", "vote"): {"renders": 56, "statements": 7, "frame_p50": 1912, "frame_max": 2321, "frames": 1},  # 48 / 6 / 1662 / 2018 / 1
    ("mrakoslapi", "last"): {"renders": 81, "statements": 18, "frame_p50": 817, "frame_max": 28194, "frames": 1},  # 70 / 15 / 710 / 24516 / 1
    ("cosanostra", "vote"): {"renders": 63, "statements": 7, "frame_p50": 1315, "frame_max": 38926, "frames": 1},  # 54 / 6 / 1143 / 33848 / 1
    ("cosanostra", "last"): {"renders": 74, "statements": 19, "frame_p50": 837, "frame_max": 22804, "frames": 1},  # 64 / 16 / 727 / 19829 / 1
    ("tiny", "vote"): {"renders": 26, "statements": 7, "frame_p50": 182, "frame_max": 3020, "frames": 1},  # 22 / 6 / 158 / 2626 / 1
    ("tiny", "last"): {"renders": 58, "statements": 19, "frame_p50": 820, "frame_max": 19192, "frames": 1},  # 50 / 16 / 713 / 16688 / 1
}

PHONES = 20
NAMES = CAST + ["Ken", "Liam", "Mia", "Noor", "Olga", "Pete", "Quinn", "Rosa", "Sven", "Tara"]
SEED = 1234            # the deal
ATTEMPTS = 8           # walks tried for a game whose last move is a phone's (else the game master's)
# The busiest tap of each ruleset: the first vote of a public vote, a move on Cosa Nostra's board,
# a call of Heads or Tails (its calls are secret: it has no public vote).
VOTES = {"mafie": "vote", "granna": "vote", "mafia_pl": "vote", "mrakoslapi": "vote", "cosanostra": "move",
         "tiny": "call"}
OPTIONS = {"tiny": {"seconds": "off"}}
CASES = [(slug, tap) for slug in VOTES for tap in ("vote", "last")]
MEASURES = ("renders", "statements", "frame_p50", "frame_max", "frames")


# --- counting --------------------------------------------------------------------------------------

class Counts:
    """Template renders and SQL statements, on every thread, from ``reset()`` on."""

    def __init__(self):
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        with self.lock:
            self.templates: Counter[str] = Counter()
            self.statements: Counter[str] = Counter()   # by thread name

    def rendered(self, sender, template=None, **kwargs):
        with self.lock:
            self.templates[getattr(template, "name", None) or "?"] += 1

    def statement(self):
        name = re.sub(r"_\d+$", "", threading.current_thread().name)
        with self.lock:
            self.statements[name] += 1


@pytest.fixture
def counts(monkeypatch):
    counted = Counts()
    execute, executemany = db_utils.CursorWrapper.execute, db_utils.CursorWrapper.executemany

    def counting_execute(self, sql, params=None):
        counted.statement()
        return execute(self, sql, params)

    def counting_executemany(self, sql, param_list):
        counted.statement()
        return executemany(self, sql, param_list)

    # The base class: CursorDebugWrapper's own execute calls it, so a statement counts once.
    monkeypatch.setattr(db_utils.CursorWrapper, "execute", counting_execute)
    monkeypatch.setattr(db_utils.CursorWrapper, "executemany", counting_executemany)
    # A WAL checkpoint every CHECKPOINT_EVERY writes of the process would land in some tap or other.
    monkeypatch.setattr(db, "CHECKPOINT_EVERY", 10**9)
    template_rendered.connect(counted.rendered, dispatch_uid="budgets")
    yield counted
    template_rendered.disconnect(dispatch_uid="budgets")


@pytest.fixture
def quiet_room(settings, monkeypatch):
    """No clock falls due while a tap is measured (the screens' deadlines keep their width), and
    no timer of an earlier test's game id is remembered."""
    settings.CLOCK_SCALE = 1000.0
    monkeypatch.setattr(timers, "_armed", set())
    monkeypatch.setattr(timers, "_stopped", set())


def host_tiny(monkeypatch):
    """Heads or Tails hosted as ``EXTRA_RULESETS`` hosts it (as tests/web/test_bots.py does)."""
    from django.template import engines

    monkeypatch.setitem(registry._ENGINES, "tiny", tiny.RULESET)
    monkeypatch.setitem(registry._RULESETS, "tiny", registry.served(tiny.RULESET))
    monkeypatch.setitem(presenters._EXTRA, "tiny", tiny_presenter)
    presenters.presenter.cache_clear()
    django_engine = engines["django"].engine
    monkeypatch.setattr(django_engine, "dirs", [*django_engine.dirs, Path(tiny.__file__).parent / "templates"])


# --- reaching the tap ---------------------------------------------------------------------------------

@dataclasses.dataclass
class Step:
    actor: object
    move: dict
    state: dict      # after the move
    events: list


def walk(ruleset, state: dict, rng: random.Random, target, avoid: str | None = None
         ) -> tuple[list[Step], object, dict] | None:
    """Random legal moves from ``state`` until ``target(ruleset, state, actor, move)`` names
    (actor, move), where ``move`` is the one the walk would make next; None if the game ended
    first.  Moves of type ``avoid`` are made only when nothing else is legal (Heads or Tails'
    players may call during the briefing: its first call after it would be its last)."""
    steps: list[Step] = []
    while True:
        actors = movers(ruleset, state)
        if avoid is None:
            actor = rng.choice(actors)
            move = rng.choice(offered(ruleset, state, actor))
        else:
            pairs = [(actor, move) for actor in actors for move in offered(ruleset, state, actor)]
            actor, move = rng.choice([pair for pair in pairs if pair[1]["type"] != avoid] or pairs)
        found = target(ruleset, state, actor, move)
        if found is not None:
            return steps, *found
        after, events = ruleset.apply(state, actor, move)
        if ruleset.outcome(after) is not None:
            return None
        steps.append(Step(actor, move, after, events))
        state = after


def offered(ruleset, state: dict, actor) -> list[dict]:
    return ruleset.host_moves(state) if actor == HOST else ruleset.legal_actions(state, actor)


def vote_of(kind: str):
    def target(ruleset, state, actor, move):
        """The first seat offered a move of ``kind`` once the briefing is over."""
        if state.get("briefing"):
            return None
        for seat in ruleset.waiting_for(state):
            for legal in ruleset.legal_actions(state, seat):
                if legal["type"] == kind:
                    return seat, legal
        return None
    return target


def last_of(phones_only: bool):
    def target(ruleset, state, actor, move):
        """The move the walk makes next, if it ends the game (a phone's, if ``phones_only``)."""
        if phones_only and actor in (HOST, GAME_MASTER):
            return None
        return (actor, move) if ruleset.outcome(ruleset.apply(state, actor, move)[0]) is not None else None
    return target


def prepare(slug: str, tap: str):
    """The room with 20 players, its game at the state before the tap, and the tap (seat, move)."""
    room = services.create_room("en")
    players = [services.join_room(room, name) for name in NAMES[:PHONES]]
    services.configure(room, slug, OPTIONS.get(slug, {}))
    game = services.start_game(room, seed=SEED)
    ruleset = registry.get(slug)
    found = None
    targets = [vote_of(VOTES[slug])] if tap == "vote" else [last_of(True)] * ATTEMPTS + [last_of(False)]
    for attempt, target in enumerate(targets):
        found = walk(ruleset, game.state, random.Random(f"budgets:{slug}:{tap}:{attempt}"), target,
                     avoid=VOTES[slug] if tap == "vote" else None)
        if found is not None:
            break
    assert found is not None, f"{slug}: no walk reached the {tap} tap"
    steps, actor, move = found
    with transaction.atomic():   # written as services._apply writes each move
        version, state = game.version, game.state
        for step in steps:
            version += 1
            services._append(game, version, [services._action_event(step.actor, step.move), *step.events])
            state = step.state
        Game.objects.filter(pk=game.pk).update(state=state, version=version, next_seq=game.next_seq,
                                               clock_started=services.clock_started(None, state, None))
        services.changed(room)
    return room, players, Game.objects.get(pk=game.pk), actor, move


# --- the sockets ------------------------------------------------------------------------------------

MARKER = re.compile(r'id="sv" hx-swap-oob="true" data-v="(\d+)"')
FLASH_VERSION = re.compile(r'id="flash"[^>]*data-v="(\d+)"')
GUARD = 30.0   # seconds: a screen that has not caught up by then is a failure, not a wait


async def settled(code: str, version: int, screens: int) -> None:
    """Until every screen of the room here shows ``version`` or newer and has nothing left to send
    (its refresh task done): what the server decides, polled."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + GUARD
    while True:
        present = HUB.rooms.get(code, ())
        if len(present) == screens and all(s.shown >= version and (s.worker is None or s.worker.done())
                                           for s in present):
            return
        assert loop.time() < deadline, f"screens of {code} not at version {version} after {GUARD:g} s"
        await asyncio.sleep(0.002)


async def online(room) -> int:
    """The room's version once every player and the host's TV are written online (presence.py
    may write a socket's mark after its first screen): nothing else will change the room."""
    def marked() -> int | None:
        fresh = Room.objects.get(pk=room.pk)
        players = list(fresh.players.values_list("connections", flat=True))
        devices = list(fresh.host_devices.values_list("connections", flat=True))
        return fresh.version if all(players) and len(players) == PHONES and all(devices) else None

    loop = asyncio.get_running_loop()
    deadline = loop.time() + GUARD
    while (version := await database_sync_to_async(marked)()) is None:
        assert loop.time() < deadline, f"the players of {room.code} are not all online after {GUARD:g} s"
        await asyncio.sleep(0.005)
    return version


def drain(socket) -> list[str]:
    """The frames a socket has been sent and we have not read (nothing is waited for)."""
    frames = []
    queue = socket.output_queue
    while not queue.empty():
        message = queue.get_nowait()
        assert message["type"] == "websocket.send", message
        frames.append(message["text"])
    return frames


def as_message(fields) -> dict:
    """A phone's form as htmx ws-send sends it: repeated fields as lists."""
    message: dict = {"HEADERS": {"HX-Request": "true"}}
    for key in fields:
        values = fields.getlist(key)
        message[key] = values if len(values) > 1 else values[0]
    return message


def button_for(slug: str, html: str, move: dict) -> dict:
    pressed = [fields for fields in presses(html) if parse_tap(slug, fields) == move]
    assert pressed, f"{slug}: no button on the phone sends {move}"
    return as_message(pressed[0])


async def measure(slug: str, tap: str, counts: Counts) -> dict:
    room, players, game, seat, move = await database_sync_to_async(prepare)(slug, tap)
    tv = tv_socket(room, host=True)
    phones = {player.pk: phone_socket(player) for player in players}
    sockets = [tv, *phones.values()]
    shown: dict[int, dict[str, str]] = {}
    try:
        for socket in sockets:
            assert (await socket.connect())[0]
        for socket in sockets:   # the whole screen, sent once the socket's presence is written
            await socket.receive_from(timeout=GUARD)
        current = await online(room)
        await settled(room.code, current, len(sockets))
        for socket in sockets:
            drain(socket)

        by_phone = seat not in (HOST, GAME_MASTER)
        if by_phone:
            tapper = phones[game.seats[seat]]
            message = button_for(slug, await database_sync_to_async(screen_html)(room.code, game.seats[seat]), move)
        counts.reset()
        if not by_phone:   # the game ends by the game master's move (its clock), made as timers.py makes it
            done = await db.write(services.submit, game.pk, seat, move, expected_version=game.version)
            version, answer = done.room_version, []
        else:
            await tapper.send_to(text_data=json.dumps(message))
            answer = []
            while not (answered := FLASH_VERSION.search(answer[-1] if answer else "")):
                answer.append(await tapper.receive_from(timeout=GUARD))
            version = int(answered.group(1))
            assert 'role="alert"' not in answer[-1], answer[-1]
        await settled(room.code, version, len(sockets))
        renders, statements = sum(counts.templates.values()), sum(counts.statements.values())
        templates, threads = dict(counts.templates), dict(counts.statements)
        now = (await database_sync_to_async(Room.objects.get)(pk=room.pk)).version
        assert now == version, f"the room changed after the tap as well (version {now}, the tap's {version})"
        received = [drain(socket) for socket in sockets]
        if answer:
            received[sockets.index(tapper)] = answer + received[sockets.index(tapper)]
        updates = [[frame for frame in frames if MARKER.search(frame)] for frames in received]
        sizes = [len(frame.encode()) for frames in updates for frame in frames]
        assert sizes, "the tap changed no screen"
        assert all(int(MARKER.search(frames[-1]).group(1)) >= version for frames in updates if frames)
        return {"renders": renders, "statements": statements, "frame_p50": statistics.median(sizes),
                "frame_max": max(sizes), "frames": max(len(frames) for frames in updates),
                "screens_updated": sum(1 for frames in updates if frames), "templates": templates,
                "threads": threads}
    finally:
        for socket in sockets:
            await socket.disconnect()


def screen_html(code: str, player_id: int) -> str:
    """The tapping phone's screen as the server shows it now (its buttons)."""
    from mafiagames.rendering import phone_screen
    from mafiagames.tables import load_table

    return "".join(phone_screen(load_table(Room.objects.get(code=code)), player_id).values())


def report(slug: str, tap: str, measured: dict) -> None:
    """One row to copy into BUDGETS; printed with ``-s`` (or always kept in the captured output)."""
    figures = ", ".join(f'"{key}": {measured[key]:g}' for key in MEASURES)
    print(f'\n    ("{slug}", "{tap}"): {{{figures}}},  # {measured["screens_updated"]} screens updated; '
          f'statements by thread {measured["threads"]}')
    if os.environ.get("BUDGETS_PRINT"):
        for name, count in sorted(measured["templates"].items(), key=lambda item: -item[1]):
            print(f"        {count:4} {name}")


@pytest.mark.parametrize(("slug", "tap"), CASES, ids=[f"{slug}-{tap}" for slug, tap in CASES])
async def test_a_tap_stays_within_its_budget(slug, tap, counts, quiet_room, monkeypatch):
    if slug == "tiny":
        host_tiny(monkeypatch)
    measured = await measure(slug, tap, counts)
    report(slug, tap, measured)
    budget = BUDGETS.get((slug, tap))
    assert budget is not None, f"no budget for {slug} {tap}: add the printed row to BUDGETS"
    over = {key: (measured[key], budget[key]) for key in MEASURES if measured[key] > budget[key]}
    assert not over, f"{slug} {tap} over budget: " + "; ".join(
        f"{key} {value:g} > {limit:g}" for key, (value, limit) in over.items())


def test_a_room_version_builds_each_distinct_tv_screen_once_however_many_tvs_watch(monkeypatch):
    """Every TV of a room that is not the host's shows the same screen: each room version builds
    it once for all of them (rendering.tv_screen's memo, one per version: screens.Snapshot), as
    it builds the host's once.  A room on 500 screens built it 500 times per tap (bench/fanout.py
    --tvs; docs/performance.md)."""
    from mafiagames import rendering
    from mafiagames.tables import load_table

    room, *_ = prepare("mafie", "vote")
    table = load_table(Room.objects.get(pk=room.pk))
    made, board = Counter(), Counter()
    tv, tv_board = rendering._tv, rendering._tv_board

    def counting_tv(table, host, *args, **kwargs):
        made[host] += 1
        return tv(table, host, *args, **kwargs)

    def counting_board(table, kept, memo, host):
        board[host] += 1
        return tv_board(table, kept, memo, host)

    monkeypatch.setattr(rendering, "_tv", counting_tv)
    monkeypatch.setattr(rendering, "_tv_board", counting_board)
    memo, kept = {}, {}   # as the consumers of one room version share them
    device = table.host_devices[0]["id"] if table.host_devices else None
    hosts = [rendering.tv_screen(table, host=True, memo=memo, kept=kept, device=device) for _ in range(2)]
    audience = [rendering.tv_screen(table, host=False, memo=memo, kept=kept) for _ in range(5)]
    assert made == {True: 1, False: 1} and board == {True: 1, False: 1}, (made, board)
    # and what they show is what each would have been shown alone
    assert all(screen == rendering.tv_screen(table, host=True, device=device) for screen in hosts)
    assert all(screen == rendering.tv_screen(table, host=False) for screen in audience)
    assert audience[0] != hosts[0]   # the host's bars are the host's alone
