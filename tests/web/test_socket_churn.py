"""A phone churning sockets against a real daphne (docs/performance.md, Probes: churn).

One player's phone opens and closes four websockets at a time for 10 s.  It made 792 sockets in
a probe, two room versions each (every screen of the room re-rendered, the player flapping on
the TV), and a traceback for each frame sent to a socket that had closed meanwhile.  Now its
sockets beyond a few are refused at the handshake (limits.OPENS), its presence is written once
on and once off (presence.py) and a frame for a closed socket is dropped quietly
(consumers.ScreenConsumer.send).  Daphne, because the frame-after-close errors are autobahn's,
which the test communicator has none of.
"""

from __future__ import annotations

import asyncio
import re
import time

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from mafiagames import seating
from mafiagames.models import Player, Room

from .helpers import room_with_players

# A daphne process of its own: grouped with the browser tests (tests/conftest.py).
pytestmark = pytest.mark.starts_servers

CHURN_SECONDS = 10
AT_ONCE = 4
PACE = 0.025             # seconds between rounds: 160 sockets a second offered, twice the probe's
MAX_VERSIONS = 30        # the room's versions the churn may cost (it cost ~850 before)
HANG_GUARD = 60          # seconds: only a broken server makes a wait this long


@pytest.fixture
def daphne(transactional_db, output_dir):
    from tests.e2e.conftest import Daphne   # the browser tests' server, on 127.0.0.1

    log = output_dir / "daphne.log"
    log.unlink(missing_ok=True)
    server = Daphne(settings.DATABASES["default"]["NAME"], log)
    server.log_path = log
    server.start()
    yield server
    server.stop()
    server.log.close()


def socket_url(server, code: str) -> str:
    return f"ws://127.0.0.1:{server.port}/ws/p/{code}/"


async def open_socket(server, player: Player):
    cookie = f"{seating.player_cookie_name(player.room.code)}={seating.player_token(player)}"
    return await connect(socket_url(server, player.room.code), origin=None, compression=None, ping_interval=None,
                         additional_headers={"Origin": server.url, "Cookie": cookie},
                         open_timeout=HANG_GUARD, close_timeout=HANG_GUARD)


async def churn(server, player: Player, first_round: asyncio.Event) -> dict[str, int]:
    """``AT_ONCE`` sockets opened and closed again, round after round, for ``CHURN_SECONDS``."""
    counts = {"accepted": 0, "refused": 0}

    async def open_and_close():
        try:
            ws = await open_socket(server, player)
        except InvalidStatus:   # refused at the handshake
            counts["refused"] += 1
            return
        counts["accepted"] += 1
        await ws.close()

    end = time.monotonic() + CHURN_SECONDS
    while time.monotonic() < end:
        await asyncio.gather(*(open_and_close() for _ in range(AT_ONCE)))
        first_round.set()
        await asyncio.sleep(PACE)   # the churn's own pacing
    return counts


async def answered(ws) -> str:
    """The answer to a tap (#flash), past the screen updates that may come first."""
    while True:
        frame = await asyncio.wait_for(ws.recv(), HANG_GUARD)
        if 'id="flash"' in frame:
            return frame


def version(room: Room) -> int:
    return Room.objects.get(pk=room.pk).version


def connections(player: Player) -> int:
    return Player.objects.get(pk=player.pk).connections


async def until_offline(player: Player) -> None:
    """Polls until the TV would show ``player`` offline (the grace after their last socket)."""
    deadline = time.monotonic() + HANG_GUARD
    while await database_sync_to_async(connections)(player):
        assert time.monotonic() < deadline, "the churning phone is still shown online"
        await asyncio.sleep(0.05)


async def test_a_phone_churning_sockets_costs_a_few_versions_no_traceback_and_others_are_answered(daphne):
    room, (churner, bystander) = await database_sync_to_async(room_with_players)(2)
    other = await open_socket(daphne, bystander)
    await other.recv()   # its screen
    before = await database_sync_to_async(version)(room)

    first_round = asyncio.Event()
    churning = asyncio.ensure_future(churn(daphne, churner, first_round))
    await first_round.wait()
    await other.send('{"action": "ready", "turn": "0"}')   # no game: answered with a refusal
    assert 'id="flash"' in await answered(other), "another player's tap is answered during the churn"
    counts = await churning
    grown = await database_sync_to_async(version)(room) - before

    await until_offline(churner)   # every socket of the churn handled, the grace over
    await other.close()
    log = daphne.log_path.read_text(errors="replace")
    assert counts["accepted"] + counts["refused"] > 100, counts   # the churn did churn
    assert grown <= MAX_VERSIONS, f"{grown} versions for {counts}"
    assert "Traceback" not in log
    assert not re.findall(r".*\bERROR\b.*", log)
