"""Tap → every screen: a load generator for many rooms of phones playing Mafie (docs/design.md §8).

Creates R rooms, each with a TV (the host's browser) and N phones on real websockets, starts a
Mafie game in each and lets bots play real moves the way the phones send them — as htmx
ws-send messages over each phone's own websocket — at ``--rate`` actions per second in total
(spread evenly over the rooms, one action in flight per room).  Every action's t0 is taken just
before it is sent; the phone's answer (its #flash, ``data-v``) names the room version V it
produced, and every socket of the room notes when a frame marked ≥ V arrives.  Rooms with more phones than Mafie seats (10) let the rest watch as spectators.

Reports tap → last screen and tap → first screen (p50/p95/p99), actions/s achieved, late
updates (> 1 s) and lost ones (at the end, every socket's accumulated fragments must equal a
fresh full screen), server CPU per action, and — in the same run — the same figures for a bare
`websockets` broadcast server (bench/baseline_server.py) with the same clients, rate and frame
size.

    .venv/bin/python bench/fanout.py                                   # 1 room × 20 phones, 20/s
    .venv/bin/python bench/fanout.py --rooms 100 --phones 10 --rate 100 --duration 15
    .venv/bin/python bench/fanout.py --url http://127.0.0.1:8000 --server-pid 1234 --json
    .venv/bin/python bench/fanout.py --tvs 499 --phones 10 --rate 5 --no-baseline   # 500 TVs in one room

Without ``--url`` it starts its own daphne on 127.0.0.1 with a temp SQLite database.  It only
talks to 127.0.0.1 and stops by itself (``--seconds`` caps the whole run).

How a socket's update is attributed to an action: the first frame marked m ≥ V, provided
m < the version of the room's next action (else the server coalesced both renders and the frame
belongs to the newer action) and it came before the host restarted the game.  A socket whose
screen did not change for V gets no frame and is not counted for that action.

How the bots play: each room picks a random phone whose #ph-panel offers a move for the turn
the TV shows (data-speak-key), and submits what a player would (crew of the size in the
heading, approve 60 %, mafiosi play success).  After the answer the room waits (at most 2 s) until
the actor's phone and the TV show V before choosing the next move.  When a game ends the host
starts the next one; spectators are kicked before and re-join after (once needed: the server
seated every phone in the room; since issue 16 it seats the first in the seating order and the
rest watch, but the bench keeps its measured path), which costs server CPU that the table also
shows separately (1 room only).
Setup (seating the phones) is not timed as play.  The server runs with bench/bench_settings.py
(the app's settings + request errors logged) and PYTHONFAULTHANDLER=1: if it stops answering,
it is sent SIGABRT so that its Python stacks land in the daphne log, which is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import json
import random
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

# The checkout first: bench/ (the script's own directory) has an engines.py that must not shadow
# the engines package.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench import harness  # noqa: E402
from bench.harness import Client, Screen  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from engines import registry  # noqa: E402
from tests.scaleout import servers as scaleout  # noqa: E402
from tests.scaleout.servers import Unavailable  # noqa: E402

MAFIE = registry.get("mafie")
LATE_S = 1.0              # an update later than this is "late"
ANSWER_TIMEOUT_S = 15.0  # a tap unanswered this long counts as lost
SETTLE_S = 2.0            # how long a room waits for the actor's and the TV's screens before moving on
STEP_TIMEOUT_S = 20.0     # one action or restart, at most
SETUP_CONCURRENCY = 16    # rooms being set up at once
VERIFY_CONCURRENCY = 16   # rooms being verified at once

TURN = re.compile(r'name="turn" value="(\d+)"')
CREW = re.compile(r"crew of (\d+)")
TEAM_SEAT = re.compile(r'name="team" value="(\d+)"')
SPEAK_KEY = re.compile(r'data-speak-key="(\d+):(\d+)"')
SEATING = re.compile(r'<span class="name">([^<]*)</span>\s*<form[^>]*>\s*<input type="hidden" name="player" value="(\d+)"')


T_START = time.perf_counter()


def note(message: str) -> None:
    """Progress on stderr, so --json output stays clean."""
    print(f"[{time.perf_counter() - T_START:6.1f} s] {message}", file=sys.stderr, flush=True)


# --- bots: choose a move from what a phone's screen shows --------------------------------------

def bot_move(shown: dict[str, str], rng: random.Random) -> list[tuple[str, str]] | None:
    """The form a player would submit from this phone's screen now, or None if it has no move."""
    panel = shown.get("ph-panel", "")
    turn = TURN.search(panel)
    if not turn:
        return None
    form = [("turn", turn.group(1))]
    if 'value="ready"' in panel:
        return [("action", "ready"), *form]
    if 'class="pick-team"' in panel:
        size = int(CREW.search(panel).group(1))
        team = rng.sample(TEAM_SEAT.findall(panel), size)
        return [("action", "propose_team"), *form, *(("team", seat) for seat in team)]
    if 'value="approve"' in panel:
        return [("action", "vote"), *form, ("choice", "approve" if rng.random() < 0.6 else "reject")]
    if 'name="card"' in panel:
        mafioso = ">Mafioso<" in shown.get("ph-role", "")
        return [("action", "play_action_card"), *form,
                ("card", "success" if mafioso or rng.random() < 0.5 else "fail")]
    return None


def panel_turn(shown: dict[str, str]) -> int | None:
    match = TURN.search(shown.get("ph-panel", ""))
    return int(match.group(1)) if match else None


# --- one room ---------------------------------------------------------------------------------------

@dataclass
class Phone:
    name: str
    client: Client
    screen: Screen
    playing: bool


@dataclass
class Action:
    kind: str
    t0: float
    t_answer: float
    status: int
    version: int | None
    screens: list  # the room's screens open when it was sent (screens[0] is the TV)
    actor: Screen


@dataclass
class Room:
    bench: "Bench"
    index: int
    code: str
    host: Client
    tv: Screen
    phones: list[Phone] = field(default_factory=list)
    tvs: list[Screen] = field(default_factory=list)      # more TVs of the room (--tvs): each a host's screen
    retired: list[Screen] = field(default_factory=list)  # spectators' sockets closed at a restart
    events: list = field(default_factory=list)           # Action or ("barrier", t) in order
    games: int = 1
    stalls: int = 0
    restart_seconds: float = 0.0
    restart_cpu: float = 0.0  # server CPU seconds measured around restarts (one room at a time only)
    errors: list[str] = field(default_factory=list)

    def screens(self) -> list[Screen]:
        return [self.tv] + self.tvs + [p.screen for p in self.phones]

    def all_screens(self) -> list[Screen]:
        return self.screens() + self.retired

    def tv_turn(self) -> int | None:
        match = SPEAK_KEY.search(self.tv.shown.get("tv-narration", ""))
        return int(match.group(2)) if match else None

    def game_over(self) -> bool:
        return 'value="start"' in self.tv.shown.get("tv-host", "")

    def pick(self) -> tuple[Phone, list] | None:
        """A random phone whose screen offers a move for the turn the TV shows."""
        turn = self.tv_turn()
        if turn is None:
            return None
        moves = []
        for phone in self.phones:
            if phone.playing and phone.screen.closed_at is None and panel_turn(phone.screen.shown) == turn:
                form = bot_move(phone.screen.shown, self.bench.rng)
                if form:
                    moves.append((phone, form))
        return self.bench.rng.choice(moves) if moves else None

    async def step(self) -> None:
        """One action (or, after a game ended, a restart); bounded in time."""
        choice = self.pick()
        if choice is None:
            if self.game_over():
                t, cpu = time.perf_counter(), self.bench.server_cpu()
                await self.restart()
                self.restart_seconds += time.perf_counter() - t
                if cpu is not None and len(self.bench.rooms) == 1:
                    self.restart_cpu += self.bench.server_cpu() - cpu
            else:  # screens are still catching up: give them a moment
                self.stalls += 1
                await self.tv.wait_version(self.tv.version + 1, time.perf_counter() + 0.2)
            return
        phone, form = choice
        open_screens = [s for s in self.screens() if s.closed_at is None]
        message: dict = {"HEADERS": {"HX-Request": "true"}}
        for key, value in form:  # as htmx ws-send sends a form: repeated fields become lists
            message[key] = [*message[key], value] if isinstance(message.get(key), list) else \
                ([message[key], value] if key in message else value)
        if "team" in message and not isinstance(message["team"], list):
            message["team"] = [message["team"]]
        count = len(phone.screen.answers)
        t0 = time.perf_counter()
        await phone.screen.ws.send(json.dumps(message))  # the phone's own socket, as a tap does
        answer = await phone.screen.wait_answer(count, t0 + ANSWER_TIMEOUT_S)
        if answer is None:
            self.events.append(Action(form[0][1], t0, time.perf_counter(), 0, None, open_screens, phone.screen))
            self.errors.append(f"{form[0][1]}: no answer on the socket within {ANSWER_TIMEOUT_S:g} s")
            return
        t_answer, version, text = answer
        status = 204 if version is not None else 409
        self.events.append(Action(form[0][1], t0, t_answer, status, version, open_screens, phone.screen))
        if version is not None:  # the next move is chosen from screens that show this one
            deadline = t_answer + SETTLE_S
            await phone.screen.wait_version(version, deadline)
            await self.tv.wait_version(version, deadline)

    async def restart(self) -> None:
        """Game over: the host starts the next game (spectators leave and re-join around it)."""
        last = next((e.version for e in reversed(self.events) if isinstance(e, Action) and e.version), None)
        if last is not None:  # let the final update land everywhere before the room changes again
            deadline = time.perf_counter() + 3.0
            for screen in self.screens():
                await screen.wait_version(last, deadline)
        self.events.append(("barrier", time.perf_counter()))
        spectators = [p for p in self.phones if not p.playing]
        await self.kick(spectators)
        response = await self.host.post(f"/r/{self.code}/host", {"command": "start"})
        if response.status != 204:
            self.errors.append(f"start → {response.status}: {response.body[:200]!r}")
        for phone in spectators:
            self.phones.remove(phone)
            self.phones.append(await self.bench.join_phone(phone.screen.base, self.code, phone.name, playing=False))
        await self.wait_started()
        self.games += 1

    async def wait_started(self, limit: float = 5.0) -> None:
        """Until the TV shows the new game (a lagging TV would still offer "start")."""
        deadline = time.perf_counter() + limit
        while self.game_over() and time.perf_counter() < deadline:
            await self.tv.wait_version(self.tv.version + 1, deadline)

    async def kick(self, phones: list[Phone]) -> None:
        ids = {name: pid for name, pid in SEATING.findall(self.tv.shown.get("tv-host", ""))}
        for phone in phones:
            response = await self.host.post(f"/r/{self.code}/host", {"command": "kick", "player": ids.get(phone.name, "")})
            if response.status != 204:
                self.errors.append(f"kick {phone.name} → {response.status}: {response.body[:200]!r}")
            await phone.client.close()
        for phone in phones:  # the server closes a removed phone's socket
            if phone.screen.reader:
                await asyncio.wait([phone.screen.reader], timeout=3.0)
            self.retired.append(phone.screen)
            await phone.screen.ws.close()

    async def play(self, first_at: float, interval: float, stop_at: float) -> None:
        next_at = first_at
        while True:
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
            if time.perf_counter() >= stop_at:
                return
            try:
                await asyncio.wait_for(self.step(), STEP_TIMEOUT_S)
            except Exception as exc:  # noqa: BLE001 - count it and carry on
                self.errors.append(f"{type(exc).__name__}: {exc}")
                await asyncio.sleep(0.1)
            next_at = max(next_at + interval, time.perf_counter())  # behind schedule: no bursts


# --- the whole bench --------------------------------------------------------------------------------

class Bench:
    """The rooms, spread over one or more server processes (``urls``).

    With several processes the screens are spread as a round-robin proxy would spread
    connections: the TV and the host on one, the phones in turn on the next ones (``spread``
    "sockets"), or every screen of a room on the same process ("rooms", a sticky proxy).
    """

    def __init__(self, urls: list[str], seed: int, pids: list[int], spread: str = "sockets"):
        self.urls = [url.rstrip("/") for url in urls]
        self.url = self.urls[0]
        self.pids = pids
        self.spread = spread
        self.rng = random.Random(seed)
        self.rooms: list[Room] = []

    def base(self, room: int, screen: int) -> str:
        """The server of a room's screen number ``screen`` (0 is the TV and host)."""
        return self.urls[(room + (screen if self.spread == "sockets" else 0)) % len(self.urls)]

    def server_cpu(self) -> float | None:
        return sum(harness.proc_cpu_seconds(pid) for pid in self.pids) if self.pids else None

    async def screen(self, base: str, label: str, path: str, cookie: str, timeout: float = 30.0) -> Screen:
        return await harness.open_screen(harness.ws_base(base), base, label, path, cookie, connect, timeout)

    async def join_phone(self, base: str, code: str, name: str, playing: bool) -> Phone:
        client = Client(base)
        await harness.join_room(client, code, name)
        screen = await self.screen(base, name, f"/ws/p/{code}/", client.cookie_header())
        # Its taps go over its socket: the HTTP connection is closed (it reopens if ever needed),
        # as a browser drops an idle one — 1,000 rooms would otherwise hold 10,000 of them open.
        await client.close()
        return Phone(name, client, screen, playing)

    async def make_room(self, index: int, phones: int, tvs: int = 0) -> Room:
        base = self.base(index, 0)
        host = Client(base)
        code = await harness.create_room(host)
        tv = await self.screen(base, "tv", f"/ws/r/{code}/", host.cookie_header())
        room = Room(self, index, code, host, tv)
        players = min(phones, MAFIE.max_players)
        for i in range(players):
            room.phones.append(await self.join_phone(self.base(index, i + 1), code, f"P{i}", playing=True))
        response = await host.post(f"/r/{code}/host", {"command": "start"})
        if response.status != 204:
            raise RuntimeError(f"room {code}: start → {response.status} {response.body[:300]!r}")
        await room.wait_started(limit=30.0)
        for i in range(players, phones):
            room.phones.append(await self.join_phone(self.base(index, i + 1), code, f"S{i - players}", playing=False))
        gate = asyncio.Semaphore(SETUP_CONCURRENCY)

        async def another_tv(i):
            async with gate:
                return await self.screen(base, f"tv{i}", f"/ws/r/{code}/", host.cookie_header(), timeout=120.0)

        room.tvs = list(await asyncio.gather(*(another_tv(i + 1) for i in range(tvs))))
        return room

    async def setup(self, rooms: int, phones: int, tvs: int = 0) -> None:
        gate = asyncio.Semaphore(SETUP_CONCURRENCY)

        async def one(index):
            async with gate:
                return await self.make_room(index, phones, tvs)

        self.rooms = list(await asyncio.gather(*(one(i) for i in range(rooms))))

    async def play(self, rate: float, duration: float) -> tuple[float, float]:
        interval = len(self.rooms) / rate
        start = time.perf_counter() + 0.2
        stop_at = start + duration
        await asyncio.gather(*(room.play(start + i / rate, interval, stop_at) for i, room in enumerate(self.rooms)))
        return start, time.perf_counter()

    def frames_seen(self) -> int:
        return sum(len(s.arrivals) for room in self.rooms for s in room.all_screens())

    async def quiet(self, idle: float = 1.0, limit: float = 15.0) -> None:
        """Wait until no frame has arrived for ``idle`` seconds (at most ``limit``)."""
        deadline = time.perf_counter() + limit
        seen, since = self.frames_seen(), time.perf_counter()
        while time.perf_counter() < deadline and time.perf_counter() - since < idle:
            await asyncio.sleep(0.1)
            if self.frames_seen() != seen:
                seen, since = self.frames_seen(), time.perf_counter()

    async def verify(self) -> dict:
        """Compare each open socket's accumulated fragments with a fresh full screen."""
        gate = asyncio.Semaphore(VERIFY_CONCURRENCY)
        result = {"checked": 0, "lost": [], "unresponsive": False}

        async def one(room: Room):
            async with gate:
                for screen in room.screens():
                    if result["unresponsive"]:
                        return
                    if screen.closed_at is not None:
                        result["lost"].append(f"{room.code}/{screen.label}: socket closed by the server "
                                              f"(code {screen.close_code})")
                        continue
                    try:
                        fresh = await self.screen(screen.base, "fresh", screen.path, screen.cookie, timeout=10)
                    except Exception as exc:  # noqa: BLE001 - is the server still there?
                        if not await harness.server_alive(screen.base):
                            if not result["unresponsive"]:
                                note(f"the server stopped answering while verifying: {exc}")
                            result["unresponsive"] = True
                            return
                        result["lost"].append(f"{room.code}/{screen.label}: no fresh screen to compare with: {exc}")
                        continue
                    await fresh.ws.close()
                    result["checked"] += 1
                    ours = {k: v for k, v in screen.shown.items() if k != "sv"}
                    theirs = {k: v for k, v in fresh.shown.items() if k != "sv"}
                    differing = sorted(k for k in ours.keys() | theirs.keys() if ours.get(k) != theirs.get(k))
                    if differing:
                        result["lost"].append(f"{room.code}/{screen.label}: {', '.join(differing)} differ "
                                              f"(socket at v{screen.version}, fresh at v{fresh.version})")

        await asyncio.gather(*(one(room) for room in self.rooms))
        return result

    async def close(self) -> None:
        closing = [s.ws.close() for room in self.rooms for s in room.screens()]
        closing += [c.close() for room in self.rooms for c in [room.host] + [p.client for p in room.phones]]
        await asyncio.gather(*closing, return_exceptions=True)


# --- figures ------------------------------------------------------------------------------------------

def update_latencies(room: Room) -> list[dict]:
    """Per successful action: latency to each socket that got a frame for it (see the docstring)."""
    results = []
    for i, event in enumerate(room.events):
        if not isinstance(event, Action) or event.version is None:
            continue
        upper_v, upper_t = float("inf"), float("inf")
        for later in room.events[i + 1:]:
            if isinstance(later, Action) and later.version is not None:
                upper_v = later.version
                break
            if isinstance(later, tuple):
                upper_t = later[1]
                break
        delays, tv_delays, updated = [], [], set()
        for screen in event.screens:
            markers = [m for _, m in screen.arrivals]
            k = bisect.bisect_left(markers, event.version)
            if k < len(markers):
                t, m = screen.arrivals[k]
                if m < upper_v and t < upper_t and t >= event.t0:
                    delays.append(t - event.t0)
                    updated.add(id(screen))
                    if screen.path.startswith("/ws/r/"):   # a TV's socket
                        tv_delays.append(t - event.t0)
        results.append({"action": event, "delays": delays, "tv_delays": tv_delays, "tv": id(event.screens[0]) in updated,
                        "actor": id(event.actor) in updated, "ends_game": upper_t != float("inf")})
    return results


def summary(values: list[float]) -> dict:
    ms = [v * 1000 for v in values]
    return {"n": len(ms), "p50": harness.percentile(ms, .5), "p95": harness.percentile(ms, .95),
            "p99": harness.percentile(ms, .99), "max": max(ms) if ms else None}


def app_figures(bench: Bench, window: tuple[float, float], rate: float, duration: float, cpu: dict) -> dict:
    actions = [e for room in bench.rooms for e in room.events if isinstance(e, Action)]
    ok = [a for a in actions if a.version is not None]
    per_action = [r for room in bench.rooms for r in update_latencies(room)]
    with_frames = [r for r in per_action if r["delays"]]
    delays = [d for r in per_action for d in r["delays"]]
    sizes = [n for room in bench.rooms for s in room.all_screens() for n in s.update_sizes]
    elapsed = window[1] - window[0]
    kinds: dict[str, list[float]] = {}
    for r in with_frames:
        kind = "game-ending " + r["action"].kind if r["ends_game"] else r["action"].kind
        kinds.setdefault(kind, []).append(max(r["delays"]))
    return {
        "tap_to_last_ms": summary([max(r["delays"]) for r in with_frames]),
        "tap_to_last_ms_by_kind": {kind: summary(values) for kind, values in sorted(kinds.items())},
        "tap_to_first_ms": summary([min(r["delays"]) for r in with_frames]),
        # every TV's frame (the room's TV and the --tvs more), and per action the last TV's
        "tap_to_tv_ms": summary([d for r in per_action for d in r["tv_delays"]]),
        "tap_to_last_tv_ms": summary([max(r["tv_delays"]) for r in per_action if r["tv_delays"]]),
        "tap_to_http_answer_ms": summary([a.t_answer - a.t0 for a in ok]),
        "actions_ok": len(ok),
        "actions_refused": sum(1 for a in actions if 400 <= a.status < 500),
        "actions_5xx": sum(1 for a in actions if a.status >= 500),
        "actions_timed_out": sum(1 for a in actions if a.status == 0),
        "actions_without_any_frame": len(per_action) - len(with_frames),
        "actions_without_tv_frame": sum(1 for r in per_action if not r["tv"]),
        "actions_without_actor_frame": sum(1 for r in per_action if not r["actor"]),
        "rate_asked": rate,
        "rate_achieved": len(ok) / duration,  # every action was sent within the scheduled duration
        "play_seconds": elapsed,
        "screens_per_room": len(bench.rooms[0].screens()) if bench.rooms else 0,
        "screens_updated_per_action": (len(delays) / len(per_action)) if per_action else 0.0,
        "updates": len(delays),
        "late_updates": sum(1 for d in delays if d > LATE_S),
        "update_frames": len(sizes),
        "avg_update_frame_bytes": (sum(sizes) / len(sizes)) if sizes else 0.0,
        "games_started": sum(room.games for room in bench.rooms),
        "restart_seconds": sum(room.restart_seconds for room in bench.rooms),
        "stalls": sum(room.stalls for room in bench.rooms),
        "room_errors": [e for room in bench.rooms for e in room.errors][:10],
        **cpu,
    }


# --- the baseline -------------------------------------------------------------------------------------

async def baseline(rooms: int, clients: int, rate: float, duration: float, size: int) -> dict:
    """The same clients, rate and frame size against bench/baseline_server.py."""
    process = subprocess.Popen([sys.executable, str(Path(__file__).with_name("baseline_server.py")),
                                "--max-seconds", str(duration + 120)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        line = await asyncio.wait_for(asyncio.to_thread(process.stdout.readline), 15)
        port = int(line.split()[1])
        taps = BaselineTaps(clients)
        sockets = [[await connect(f"ws://127.0.0.1:{port}/room{r}", compression=None, ping_interval=None,
                                  max_size=2**22) for _ in range(clients)] for r in range(rooms)]
        readers = [asyncio.create_task(taps.read(ws)) for room in sockets for ws in room]
        cpu0, t_start = harness.proc_cpu_seconds(process.pid), time.perf_counter()
        with harness.load_generator_gc_paused():
            await taps.play(sockets, rate, duration, size)
        elapsed = time.perf_counter() - t_start
        cpu = harness.proc_cpu_seconds(process.pid) - cpu0
        await asyncio.gather(*(ws.close() for room in sockets for ws in room), return_exceptions=True)
        await asyncio.wait(readers, timeout=5)
        last, first, incomplete = taps.figures()
        return {"tap_to_last_ms": summary(last), "tap_to_first_ms": summary(first), "taps": len(taps.sent),
                "taps_incomplete": incomplete, "rate_achieved": len(taps.sent) / duration,
                "frame_bytes": size, "server_cpu_ms_per_tap": 1000 * cpu / max(1, len(taps.sent)),
                "server_cpu_percent": 100 * cpu / elapsed}
    finally:
        scaleout.stop_process(process)


class BaselineTaps:
    """Taps sent to the baseline server and when each client received each broadcast."""

    def __init__(self, clients: int):
        self.clients = clients
        self.sent: list[tuple[str, float]] = []
        self.arrivals: dict[str, list[float]] = {}
        self.complete: dict[str, asyncio.Event] = {}

    async def read(self, ws) -> None:
        try:
            async for message in ws:
                tap_id = message[:message.index(":")]
                times = self.arrivals.setdefault(tap_id, [])
                times.append(time.perf_counter())
                if len(times) == self.clients and tap_id in self.complete:
                    self.complete[tap_id].set()
        except Exception:  # noqa: BLE001 - closed
            pass

    async def play(self, sockets: list[list], rate: float, duration: float, size: int) -> None:
        interval = len(sockets) / rate
        start = time.perf_counter() + 0.2
        stop_at = start + duration
        rng = random.Random(1)

        async def room_loop(r: int, clients: list):
            next_at = start + r / rate
            for n in range(10_000_000):
                await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
                if time.perf_counter() >= stop_at:
                    return
                tap_id = f"{r}.{n}"
                done = self.complete[tap_id] = asyncio.Event()
                t0 = time.perf_counter()
                await rng.choice(clients).send(f"tap {tap_id} {size}")
                self.sent.append((tap_id, t0))
                try:  # one in flight per room, as for the app: wait until every client has it
                    await asyncio.wait_for(done.wait(), SETTLE_S)
                except TimeoutError:
                    pass
                next_at = max(next_at + interval, time.perf_counter())

        await asyncio.gather(*(room_loop(r, clients) for r, clients in enumerate(sockets)))

    def figures(self) -> tuple[list[float], list[float], int]:
        last = [max(self.arrivals[t]) - t0 for t, t0 in self.sent if len(self.arrivals.get(t, ())) == self.clients]
        first = [min(self.arrivals[t]) - t0 for t, t0 in self.sent if self.arrivals.get(t)]
        return last, first, len(self.sent) - len(last)


# --- bursts: a whole table votes at the same instant -----------------------------------------------------

BURST_RULESET = "granna"  # the classic game seats up to 21: a day vote of 20 living phones
PANEL_FORM = re.compile(r"<form ws-send[^>]*>(.*?)</form>", re.S)
HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)"')
SUBMIT = re.compile(r'<button type="submit" name="([^"]+)" value="([^"]*)"')
HOST_MOVE = re.compile(r'name="turn" value="(\d+)">\s*<button type="submit" name="move" value="([^"]+)"')
NIGHT_ACTIONS = {"check", "pick_victim", "heal", "cast_swap", "nothing", "no_check"}
BURST_WAIT_S = 10.0  # a burst's answers and screens, at most


def panel_forms(shown: dict[str, str]) -> list[dict]:
    """Every form this phone's panel would send (ws-send), as htmx sends it; checkbox forms skipped."""
    forms = []
    for body in PANEL_FORM.findall(shown.get("ph-panel", "")):
        if 'type="checkbox"' in body:
            continue
        fields = dict(HIDDEN.findall(body))
        fields.update(SUBMIT.findall(body))
        if "turn" in fields and "action" in fields:
            forms.append(fields)
    return forms


@dataclass
class BurstSample:
    size: int
    kind: str
    ack_last: float       # from the first frame sent to the last answer
    screens_current: float | None  # … to the last screen showing the newest acknowledged version
    refused: int
    frames: int           # update frames the room's screens received for the burst
    screens: int
    stale_screens: int    # screens that never showed that version within BURST_WAIT_S


class BurstTable:
    """One room of the classic game with ``burst`` + 1 phones: at every day vote all its living
    phones (``burst`` of them once the night took one) vote at the same instant.  Between the
    bursts the bots play the night (the agent's check, the mafia's pick; the game master's clock
    ends each step) and the host ends the discussion; after the day the host ends the game and
    starts the next, so every burst is a full table's."""

    def __init__(self, bench: Bench, burst: int):
        self.bench, self.burst = bench, burst
        self.samples: list[BurstSample] = []
        self.acted: set[tuple[str, str]] = set()  # (phone, turn) that already moved at night
        self.bursts_this_game = 0
        self.games = 1

    async def setup(self) -> None:
        base = self.bench.url
        self.host = Client(base)
        self.code = await harness.create_room(self.host)
        self.tv = await self.bench.screen(base, "tv", f"/ws/r/{self.code}/", self.host.cookie_header())
        self.phones = [await self.bench.join_phone(base, self.code, f"P{i}", playing=True)
                       for i in range(self.burst + 1)]
        await self.host_post({"command": "configure", "ruleset": BURST_RULESET})
        # The shortest night; no last shot for the night's victim (the large-game rule), so twenty
        # of twenty-one vote; every other option as the game comes.
        await self.host_post({"command": "configure", "ruleset": BURST_RULESET, "opt-night_seconds": "5", "opt-deadline_seconds": "30",
                              "opt-small_game_rule": "on", "opt-ghost_view": "on"})
        await self.start()

    def screens(self) -> list[Screen]:
        return [self.tv] + [p.screen for p in self.phones]

    all_screens = screens  # as a Room's, for Bench.quiet and Bench.verify

    async def host_post(self, form: dict) -> None:
        response = await self.host.post(f"/r/{self.code}/host", form)
        if response.status != 204:
            raise RuntimeError(f"host {form} → {response.status} {response.body[:300]!r}")

    async def settle(self, limit: float = 5.0) -> None:
        """Until every screen shows the TV's version (the TV hears of every change)."""
        deadline = time.perf_counter() + limit
        for screen in self.screens():
            await screen.wait_version(self.tv.version, deadline)

    async def start(self) -> None:
        await self.host_post({"command": "start"})
        deadline = time.perf_counter() + 10.0
        while 'value="start"' in self.tv.shown.get("tv-host", "") and time.perf_counter() < deadline:
            await self.tv.wait_version(self.tv.version + 1, deadline)
        await self.settle()
        self.bursts_this_game, self.acted = 0, set()

    async def restart(self) -> None:
        await self.host_post({"command": "abandon"})
        await self.start()
        self.games += 1

    def moves(self) -> list[tuple[Phone, dict]]:
        turn = max((int(f["turn"]) for p in self.phones for f in panel_forms(p.screen.shown)), default=None)
        moves = []
        for phone in self.phones:
            forms = [f for f in panel_forms(phone.screen.shown) if int(f["turn"]) == turn]
            if forms and (phone.name, str(turn)) not in self.acted:
                # At night the first name, so the mafia agree and the clock ends the step at once.
                night = forms[0]["action"] in NIGHT_ACTIONS
                moves.append((phone, forms[0] if night else self.bench.rng.choice(forms)))
        return moves

    async def step(self) -> None:
        moves = self.moves()
        kinds = {form["action"] for _, form in moves}
        if moves and kinds & NIGHT_ACTIONS and self.bursts_this_game:
            await self.restart()   # the day is over: the next burst is a new game's full table
        elif moves and kinds == {"vote"}:
            if len(moves) < self.burst:
                await self.restart()
            else:
                self.samples.append(await self.send_burst(moves))
                self.bursts_this_game += 1
        elif moves:  # the night's players: then the game master's clock ends the step
            for phone, form in moves:
                self.acted.add((phone.name, form["turn"]))
            await self.send_all(moves)
            await self.tv.wait_version(self.tv.version + 1, time.perf_counter() + 30.0)
            await self.settle()
        else:
            match = HOST_MOVE.search(self.tv.shown.get("tv-host", ""))
            if match:
                version = self.tv.version
                await self.host_post({"command": "move", "turn": match.group(1), "move": match.group(2)})
                await self.tv.wait_version(version + 1, time.perf_counter() + 5.0)
                await self.settle()
            elif 'value="start"' in self.tv.shown.get("tv-host", ""):
                await self.start()
            else:  # the game master's clock is running
                await self.tv.wait_version(self.tv.version + 1, time.perf_counter() + 30.0)
                await self.settle()

    async def send_all(self, moves: list[tuple[Phone, dict]]) -> tuple[float, list]:
        """Every move's frame at once, each on its phone's own socket; then their answers."""
        counts = [len(phone.screen.answers) for phone, _ in moves]
        frames = [json.dumps({"HEADERS": {"HX-Request": "true"}, **form}) for _, form in moves]
        t0 = time.perf_counter()
        for (phone, _), frame in zip(moves, frames):
            await phone.screen.ws.send(frame)
        deadline = t0 + BURST_WAIT_S
        answers = [await phone.screen.wait_answer(count, deadline) for (phone, _), count in zip(moves, counts)]
        return t0, answers

    async def send_burst(self, moves: list[tuple[Phone, dict]]) -> BurstSample:
        arrivals_before = [len(s.arrivals) for s in self.screens()]
        t0, answers = await self.send_all(moves)
        got = [a for a in answers if a is not None]
        versions = [a[1] for a in got if a[1] is not None]
        ack_last = max(a[0] for a in got) - t0 if len(got) == len(answers) else float("inf")
        newest = max(versions, default=None)
        current, stale = [], 0
        if newest is not None:
            deadline = t0 + BURST_WAIT_S
            for screen in self.screens():
                if await screen.wait_version(newest, deadline):
                    current.append(next(t for t, m in screen.arrivals if m >= newest and t >= t0) - t0)
                else:
                    stale += 1
        frames = sum(len(s.arrivals) - n for s, n in zip(self.screens(), arrivals_before))
        return BurstSample(len(moves), moves[0][1]["action"], ack_last, max(current) if current else None,
                           len(answers) - len(versions), frames, len(self.screens()), stale)

    async def play(self, duration: float, bursts: int | None) -> None:
        stop_at = time.perf_counter() + duration
        while time.perf_counter() < stop_at and (bursts is None or len(self.samples) < bursts):
            await asyncio.wait_for(self.step(), STEP_TIMEOUT_S + 30.0)

    async def close(self) -> None:
        await asyncio.gather(*(s.ws.close() for s in self.screens()), self.host.close(),
                             *(p.client.close() for p in self.phones), return_exceptions=True)


async def run_burst(args, deployment: "Deployment") -> dict:
    load_before = loadavg()
    bench = Bench(deployment.urls, args.seed, deployment.pids)
    table = BurstTable(bench, args.burst)
    await table.setup()
    bench.rooms = [table]
    note(f"room {table.code}: {args.burst + 1} phones + TV seated; bursting for {args.duration:g} s")
    cpu0 = bench.server_cpu()
    with harness.load_generator_gc_paused():
        await table.play(args.duration, args.bursts)
    cpu = bench.server_cpu() - cpu0 if cpu0 is not None else None
    checks = await check_screens(bench, deployment.servers)   # nothing lost on the way
    await table.close()
    samples = table.samples
    return {"config": {"burst": args.burst, "ruleset": BURST_RULESET, "urls": bench.urls,
                       "database": deployment.database, "loadavg_before": load_before, "loadavg_after": loadavg()},
            "bursts": len(samples), "games": table.games,
            "burst_sizes": sorted({s.size for s in samples}),
            "burst_to_last_ack_ms": summary([s.ack_last for s in samples]),
            "burst_to_every_screen_current_ms": summary([s.screens_current for s in samples
                                                         if s.screens_current is not None]),
            "refused": sum(s.refused for s in samples),
            "update_frames_per_screen_per_burst": (sum(s.frames for s in samples) / sum(s.screens for s in samples))
            if samples else None,
            "stale_screens": sum(s.stale_screens for s in samples),
            "server_cpu_s_whole_run": cpu,
            "lost_updates": len(checks["lost"]), "lost_details": checks["lost"][:10],
            "server_unresponsive": checks["unresponsive"]}


def print_burst(result: dict, logs: dict[str, list[str]]) -> None:
    c = result["config"]
    print(f"\nbursts: 1 room of {c['ruleset']} with {c['burst'] + 1} phones + 1 TV on {c['database']}; "
          f"{result['bursts']} bursts of {result['burst_sizes']} simultaneous votes in {result['games']} games; "
          f"load average {c['loadavg_before']} before, {c['loadavg_after']} after")
    print(f"{'latency (ms)':40}{'p50':>8}{'p95':>8}{'p99':>8}{'max':>8}{'n':>8}")
    for label, key in (("burst → last vote acknowledged", "burst_to_last_ack_ms"),
                       ("burst → every screen current", "burst_to_every_screen_current_ms")):
        s = result[key]
        print(f"{label:40}{fmt(s['p50']):>8}{fmt(s['p95']):>8}{fmt(s['p99']):>8}{fmt(s['max']):>8}{s['n']:>8}")
    print(f"update frames per screen per burst: {fmt(result['update_frames_per_screen_per_burst'], '.2f')}; "
          f"votes refused: {result['refused']}; screens never current: {result['stale_screens']}; "
          f"lost updates at the end: {result['lost_updates']}")
    for line in result["lost_details"]:
        print(f"  lost: {line}")
    for log_path, log_errors in logs.items():
        print(f"daphne log ({log_path}): {len(log_errors)} error block(s)")
        for block in log_errors[:3]:
            print(block)


# --- running it ------------------------------------------------------------------------------------------

def loadavg() -> str:
    """The machine's 1/5/15-minute load averages: other work on the box skews every figure."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


async def measure_play(bench: Bench, args, deployment: "Deployment") -> tuple[tuple[float, float], dict]:
    """Play for --duration; the play window and the CPU used during it (servers, backing, ours)."""
    cpu0, client0, backing0 = bench.server_cpu(), time.process_time(), deployment.backing_cpu()
    with harness.load_generator_gc_paused():
        window = await bench.play(args.rate, args.duration)
    elapsed = window[1] - window[0]
    backing = {name: 100 * (cpu - backing0[name]) / elapsed for name, cpu in deployment.backing_cpu().items()}
    cpu = {"server_cpu_ms_per_action": None, "server_cpu_percent": None,
           "server_cpu_ms_per_action_without_restarts": None,
           "loadgen_cpu_percent": 100 * (time.process_time() - client0) / elapsed,
           "backing_cpu_percent": backing}
    if bench.pids:
        used = bench.server_cpu() - cpu0
        ok = sum(1 for room in bench.rooms for e in room.events if isinstance(e, Action) and e.version)
        restarts = sum(room.restart_cpu for room in bench.rooms)
        cpu.update(server_cpu_ms_per_action=1000 * used / max(1, ok), server_cpu_percent=100 * used / elapsed)
        if restarts:
            cpu["server_cpu_ms_per_action_without_restarts"] = 1000 * (used - restarts) / max(1, ok)
    return window, cpu


async def check_screens(bench: Bench, servers: list) -> dict:
    """After play: is the server alive, and does every socket show what a fresh one would?"""
    alive = [await harness.server_alive(url) for url in bench.urls]
    checks = {"checked": 0, "lost": [], "unresponsive": not all(alive)}
    if not checks["unresponsive"]:
        await bench.quiet()
        note("comparing every socket with a fresh screen")
        checks = await bench.verify()
        note(f"checked {checks['checked']} sockets")
    if checks["unresponsive"]:
        note("THE SERVER STOPPED ANSWERING" + ("; asking it for its Python stacks (SIGABRT)" if servers else ""))
        for server in servers:
            harness.dump_stacks(server)
    return checks


async def run(args, deployment: "Deployment") -> dict:
    load_before = loadavg()
    bench = Bench(deployment.urls, args.seed, deployment.pids, args.spread)
    t = time.perf_counter()
    await bench.setup(args.rooms, args.phones, args.tvs)
    setup_s = time.perf_counter() - t
    note(f"set up {len(bench.rooms)} room(s) in {setup_s:.1f} s; playing for {args.duration:g} s")
    window, cpu = await measure_play(bench, args, deployment)
    note("play over; waiting for the screens to go quiet")
    checks = await check_screens(bench, deployment.servers)
    ours = app_figures(bench, window, args.rate, args.duration, cpu)
    ours.update(setup_seconds=setup_s, screens_checked=checks["checked"], lost_updates=len(checks["lost"]),
                lost_details=checks["lost"][:10], server_unresponsive=checks["unresponsive"])
    await bench.close()
    size = max(1, round(ours["avg_update_frame_bytes"]))
    if not args.no_baseline:
        note(f"baseline: bare websockets broadcast of {size} B frames")
    base = None if args.no_baseline else await baseline(
        args.rooms, len(bench.rooms[0].screens()), args.rate, args.baseline_duration or args.duration, size)
    ratio = None
    if base and base["tap_to_last_ms"]["p99"] and ours["tap_to_last_ms"]["p99"]:
        ratio = ours["tap_to_last_ms"]["p99"] / base["tap_to_last_ms"]["p99"]
    return {"config": {"rooms": args.rooms, "phones": args.phones, "tvs": args.tvs, "rate": args.rate, "duration": args.duration,
                       "urls": bench.urls, "database": deployment.database, "spread": args.spread,
                       "loadavg_before": load_before, "loadavg_after": loadavg()}, "mafiagames": ours, "baseline": base, "p99_ratio_vs_baseline": ratio}


def fmt(value, spec=".1f") -> str:
    return "—" if value is None else format(value, spec)


def print_table(result: dict, logs: dict[str, list[str]]) -> None:
    c, ours, base = result["config"], result["mafiagames"], result["baseline"]
    processes = f"{len(c['urls'])} processes ({c['spread']} spread)" if len(c["urls"]) > 1 else "1 process"
    print(f"\nfan-out: {processes} on {c['database']}; "
          f"{c['rooms']} room(s) × ({c['phones']} phones + {1 + c['tvs']} TV) = {c['rooms'] * (c['phones'] + 1 + c['tvs'])} sockets, "
          f"{c['rate']:g} actions/s asked, {ours['play_seconds']:.1f} s of play (setup {ours['setup_seconds']:.1f} s); "
          f"load average {c['loadavg_before']} before, {c['loadavg_after']} after")
    print(f"{'latency (ms)':34}{'p50':>8}{'p95':>8}{'p99':>8}{'max':>8}{'n':>8}")
    rows = [("tap → last screen", ours["tap_to_last_ms"]), ("tap → first screen", ours["tap_to_first_ms"]),
            ("tap → a TV (every TV's frame)", ours["tap_to_tv_ms"]), ("tap → last TV", ours["tap_to_last_tv_ms"]),
            ("tap → answer (ack)", ours["tap_to_http_answer_ms"])]
    if base:
        rows += [("baseline tap → last client", base["tap_to_last_ms"]),
                 ("baseline tap → first client", base["tap_to_first_ms"])]
    rows += [(f"  tap → last screen: {kind}", s) for kind, s in ours["tap_to_last_ms_by_kind"].items()]
    for label, s in rows:
        print(f"{label:34}{fmt(s['p50']):>8}{fmt(s['p95']):>8}{fmt(s['p99']):>8}{fmt(s['max']):>8}{s['n']:>8}")
    print(f"actions: {ours['actions_ok']} applied ({ours['rate_achieved']:.1f}/s achieved), "
          f"{ours['actions_refused']} refused (4xx), {ours['actions_5xx']} server errors (5xx), "
          f"{ours['actions_timed_out']} without an answer, "
          f"{ours['games_started']} games ({ours['restart_seconds']:.1f} s spent restarting games)")
    print(f"screens updated per action: {ours['screens_updated_per_action']:.1f} of {ours['screens_per_room']} "
          f"(no frame within the action's window: {ours['actions_without_any_frame']} actions for any screen, "
          f"{ours['actions_without_tv_frame']} for the TV, {ours['actions_without_actor_frame']} for the actor's phone); "
          f"update frames: {ours['update_frames']}, avg {ours['avg_update_frame_bytes']:.0f} B")
    print(f"late updates (> {LATE_S:g} s): {ours['late_updates']} of {ours['updates']}; lost updates (socket ≠ fresh "
          f"screen at the end): {ours['lost_updates']} of {ours['screens_checked']} sockets")
    for line in ours["lost_details"]:
        print(f"  lost: {line}")
    if ours["server_unresponsive"]:
        print("!! the server stopped answering (/healthz and new sockets time out); lost updates were not "
              "(fully) checked — see the daphne log below")
    print(f"server CPU: {fmt(ours['server_cpu_ms_per_action'], '.2f')} ms/action "
          f"({fmt(ours['server_cpu_percent'], '.0f')}% of one core); load generator CPU: {ours['loadgen_cpu_percent']:.0f}%"
          + "".join(f"; {name}: {percent:.0f}%" for name, percent in ours["backing_cpu_percent"].items()))
    if ours.get("server_cpu_ms_per_action_without_restarts") is not None:
        print(f"  without the CPU spent restarting games (kicks, start, re-joins): "
              f"{ours['server_cpu_ms_per_action_without_restarts']:.2f} ms/action")
    if base:
        print(f"baseline: {base['taps']} taps ({base['rate_achieved']:.1f}/s), {base['frame_bytes']} B frames, "
              f"{base['taps_incomplete']} incomplete, server CPU {base['server_cpu_ms_per_tap']:.2f} ms/tap "
              f"({base['server_cpu_percent']:.0f}% of one core)")
        print(f"p99 tap → last screen vs baseline: {fmt(result['p99_ratio_vs_baseline'], '.1f')}×")
    if ours["room_errors"]:
        print("client-side errors:", *ours["room_errors"], sep="\n  ")
    for log_path, log_errors in logs.items():
        print(f"daphne log ({log_path}): {len(log_errors)} error block(s)")
        for block in log_errors[:3]:
            print(block)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=1)
    parser.add_argument("--phones", type=int, default=20, help="phones per room (beyond 10 they spectate)")
    parser.add_argument("--tvs", type=int, default=0, help="more TVs per room (the host's screen opened again)")
    parser.add_argument("--rate", type=float, default=20.0, help="actions per second over all rooms")
    parser.add_argument("--duration", type=float, default=15.0, help="seconds of play (each: ours, baseline)")
    parser.add_argument("--baseline-duration", type=float, default=None)
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--url", help="an already running server (127.0.0.1 only); default: start daphne")
    parser.add_argument("--server-pid", type=int, help="with --url: read this process's CPU time")
    parser.add_argument("--processes", type=int, default=1,
                        help="daphne processes to start; more than one runs on PostgreSQL + Redis")
    parser.add_argument("--database", choices=["sqlite", "postgres"], default=None,
                        help="sqlite (in-memory channel layer) or postgres (+ Redis channel layer); "
                             "default: sqlite for one process, postgres for more")
    parser.add_argument("--spread", choices=["sockets", "rooms"], default="sockets",
                        help="with several processes: each room's screens in turn over them (round-robin "
                             "proxy), or each room on one process (sticky proxy)")
    parser.add_argument("--seconds", type=float, default=300.0, help="hard cap for the run once daphne is up")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--burst", type=int, default=None, metavar="N",
                        help="instead: one room of the classic game with N + 1 phones, where the N living "
                             "vote at the same instant at every day vote (the other options but --duration, "
                             "--seconds, --url and --seed are ignored)")
    parser.add_argument("--bursts", type=int, default=None, help="with --burst: stop after this many")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    if args.phones < MAFIE.min_players:
        parser.error(f"Mafie needs at least {MAFIE.min_players} players per room")
    if args.url and not args.url.startswith("http://127.0.0.1:"):
        parser.error("--url must point at 127.0.0.1")
    args.database = args.database or ("postgres" if args.processes > 1 else "sqlite")
    if args.processes > 1 and args.database == "sqlite":
        parser.error("several processes share state through PostgreSQL and Redis: --database postgres")
    with contextlib.ExitStack() as stack:
        try:
            deployment = deploy(args, stack)
        except Unavailable as missing:
            print(f"cannot start the deployment: {missing}", file=sys.stderr)
            return 2
        try:
            runner = run_burst if args.burst else run
            result = asyncio.run(asyncio.wait_for(runner(args, deployment), args.seconds))
        except TimeoutError:
            print(f"stopped: the run exceeded --seconds {args.seconds:g}", file=sys.stderr)
            return 2
        finally:
            for server in deployment.servers:
                server.stop()
        logs = {str(path): harness.daphne_errors(path) for path in deployment.logs}
    if args.json:
        print(json.dumps({**result, "daphne_log_errors": logs}, indent=2, default=str))
    elif args.burst:
        print_burst(result, logs)
    else:
        print_table(result, logs)
    return 0


@dataclass
class Deployment:
    """The servers under test: their URLs, daphne pids and logs, and what backs them."""

    urls: list[str]
    pids: list[int]
    database: str
    servers: list = field(default_factory=list)  # Daphne objects we started
    logs: list[Path] = field(default_factory=list)
    backing: dict[str, int] = field(default_factory=dict)  # name → pid (PostgreSQL, Redis)

    def backing_cpu(self) -> dict[str, float]:
        return {name: harness.tree_cpu_seconds(pid) for name, pid in self.backing.items()}


def deploy(args, stack: contextlib.ExitStack) -> Deployment:
    """Start what --url/--processes/--database ask for; ``stack`` tears it down."""
    if args.url:
        return Deployment([args.url], [args.server_pid] if args.server_pid else [], args.database)
    if args.database == "sqlite":
        server = harness.start_server("bench.bench_settings")
        stack.callback(server.stop)
        return Deployment([server.url], [server.process.pid], "sqlite", [server], [server.workdir / "daphne.log"])
    redis = stack.enter_context(scaleout.redis_server())
    pg = stack.enter_context(scaleout.postgres_server())
    workdir = Path(tempfile.mkdtemp(prefix="mafiagames-bench-"))
    servers = stack.enter_context(scaleout.daphnes(
        args.processes, workdir, pg.url("mafiagames"), redis.url,
        {"DJANGO_SETTINGS_MODULE": "bench.bench_settings", "PYTHONFAULTHANDLER": "1"}))
    return Deployment([s.url for s in servers], [s.process.pid for s in servers], "postgres+redis", servers,
                      [s.log_path for s in servers], {"postgres": pg.process.pid, "redis": redis.process.pid})


if __name__ == "__main__":
    sys.exit(main())
