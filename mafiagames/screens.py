"""One load per room version per process, shared by every screen of the room (DESIGN.md §8).

A ``Snapshot`` is what screens show for one version of a room: the loaded ``Table`` and the
memo of fragments rendered from it.  Twenty phones and a TV that are pinged about version V
cause one database load and one rendering of each distinct fragment, not twenty-one.
Loads are single-flight: sockets that ask while a load is running wait for that load.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from channels.db import database_sync_to_async

from .models import Room
from .rendering import Table
from .tables import load_table


@dataclass
class Snapshot:
    version: int
    table: Table | None  # None: the room no longer exists
    memo: dict = field(default_factory=dict)


_latest: dict[str, Snapshot] = {}
_loading: dict[str, asyncio.Future] = {}


def _load(code: str) -> Snapshot:
    room = Room.objects.filter(code=code).first()
    if room is None:
        return Snapshot(version=2**62, table=None)
    return Snapshot(version=room.version, table=load_table(room))


async def snapshot(code: str, at_least: int | None = None) -> Snapshot:
    """The room at ``at_least`` or newer; ``None`` asks the database for the current version."""
    while True:
        latest = _latest.get(code)
        if latest is not None and at_least is not None and latest.version >= at_least:
            return latest
        pending = _loading.get(code)
        if pending is None or pending.get_loop() is not asyncio.get_running_loop():
            pending = asyncio.ensure_future(database_sync_to_async(_load)(code))
            _loading[code] = pending
            pending.add_done_callback(lambda _f, c=code, p=pending: _drop_pending(c, p))
        loaded = await pending
        if latest is None or loaded.version > latest.version:
            _latest[code] = loaded
        if at_least is None:
            return _latest[code]
        at_least = min(at_least, loaded.version) if loaded.table is None else at_least
        # A load that began before the commit we were told about may be older: load again.


def _drop_pending(code: str, future: asyncio.Future) -> None:
    if _loading.get(code) is future:
        del _loading[code]


def forget(code: str) -> None:
    """Drop a room's cache once its last screen in this process has gone."""
    _latest.pop(code, None)
