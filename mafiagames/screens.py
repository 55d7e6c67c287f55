"""One load per room version per process, shared by every screen of the room (docs/design.md §8).

A ``Snapshot`` is what screens show for one version of a room: the loaded ``Table`` and the
memo of fragments rendered from it.  Twenty phones and a TV that are pinged about version V
cause one database load and one rendering of each distinct fragment, not twenty-one.
Loads are single-flight: sockets that ask while a load is running wait for that load.
"""

from __future__ import annotations

import asyncio
import dataclasses
from dataclasses import dataclass, field

from . import db

from .models import Room
from .rendering import Table
from .tables import load_table


@dataclass
class Snapshot:
    version: int
    table: Table | None  # None: the room no longer exists
    memo: dict = field(default_factory=dict)  # fragments of this version
    kept: dict = field(default_factory=dict)  # fragments valid for the whole room (rendering.py)


_latest: dict[str, Snapshot] = {}
_loading: dict[str, asyncio.Future] = {}


# A load reads the room and then its players, game… in statements of their own, not in one
# transaction (on SQLite a transaction would take the write lock).  A write committed in between
# would put newer data under the older version: its screens would then show the write already,
# and the write's own version would change nothing on them, so they would never be marked with
# it.  Every write bumps the version in its own transaction (services.changed), so a load whose
# room version is the same after as before read one version; else it is read again.
LOAD_ATTEMPTS = 5


def _load(code: str) -> Snapshot:
    room = Room.objects.filter(code=code).first()
    if room is None:
        return Snapshot(version=2**62, table=None)
    for _attempt in range(LOAD_ATTEMPTS):
        table = load_table(room)
        if Room.objects.filter(pk=room.pk, version=room.version).exists():
            break
        room = Room.objects.filter(pk=room.pk).first() or room   # a write came in between: again
    # After LOAD_ATTEMPTS (writes one after another) the last read stands, under its first version.
    return Snapshot(version=room.version, table=table)


async def _load_latest(code: str) -> Snapshot:
    """Load the room and keep it if it is the newest seen; always leaves ``_loading``."""
    try:
        loaded = await db.read(_load, code)
        latest = _latest.get(code)
        if latest is None or loaded.version > latest.version:
            if latest is not None:
                loaded.kept = latest.kept
            _latest[code] = loaded
        return _latest[code]
    finally:
        if _loading.get(code) is asyncio.current_task():
            del _loading[code]


async def snapshot(code: str, at_least: int | None = None) -> Snapshot:
    """The room at ``at_least`` or newer; ``None`` asks the database for the current version."""
    while True:
        latest = _latest.get(code)
        if latest is not None and at_least is not None and latest.version >= at_least:
            return latest
        pending = _loading.get(code)
        # Never wait on a finished load again: awaiting a done task does not yield, so looping
        # on one would block the event loop for good.
        if pending is None or pending.done() or pending.get_loop() is not asyncio.get_running_loop():
            pending = asyncio.ensure_future(_load_latest(code))
            _loading[code] = pending
        loaded = await pending
        if at_least is None or loaded.version >= at_least:
            return loaded
        # That load began before the commit we were told about: load again.


def advance(code: str, version: int, game: dict) -> None:
    """On the event loop: a tap made ``version`` by changing only the game; build its snapshot
    from the previous one instead of loading the room again.  Anything else in between
    (a join, a presence change, another process) leaves a gap, and screens load as usual; so
    does the tap that ends the game (the scoreboard between games is read from the database)."""
    latest = _latest.get(code)
    # A tap that ends the game changes the evening's scoreboard too: that version is loaded.
    if game["status"] != "running":
        return
    if latest is not None and latest.table is not None and latest.version == version - 1:
        table = dataclasses.replace(latest.table, game=game, version=version)
        _latest[code] = Snapshot(version=version, table=table, kept=latest.kept)


def forget(code: str) -> None:
    """Drop a room's cache once its last screen in this process has gone."""
    _latest.pop(code, None)
