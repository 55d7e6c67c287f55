"""Pings to this process's screens (docs/design.md §4, §8).

Every open screen registers here by room.  A ping ("room X is at version V") reaches the
screens of that room in this process directly, without a message per socket through the
channel layer (whose in-memory implementation scans every channel on every receive).

Across processes (channels-redis pub/sub), each process keeps one *relay* channel that joins
the group of every room it has screens for; a ``group_send`` is one PUBLISH that reaches
each process once, not each socket.  With the in-memory layer (one process) pings are delivered
in-process and the channel layer is not used at all.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from . import screens
from .models import game_dict

log = logging.getLogger(__name__)


def group_name(code: str) -> str:
    return f"room.{code}"


def crosses_processes(layer) -> bool:
    return layer is not None and not isinstance(layer, InMemoryChannelLayer)


class Hub:
    def __init__(self):
        self.rooms: dict[str, set] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.relay_channel: str | None = None
        self.relay_task: asyncio.Task | None = None

    # -- screens come and go (called on the event loop) ----------------------------------------

    def adopt(self, loop: asyncio.AbstractEventLoop) -> None:
        """Serve from ``loop``: the server's, known from process start (``timers.start``) or from
        the first screen.  A new event loop (tests) starts afresh."""
        if self.loop is not loop:
            self.rooms, self.loop, self.relay_channel, self.relay_task = {}, loop, None, None

    async def register(self, code: str, screen) -> None:
        self.adopt(asyncio.get_running_loop())
        first = code not in self.rooms
        self.rooms.setdefault(code, set()).add(screen)
        layer = get_channel_layer()
        if first and crosses_processes(layer):
            await self._relay(layer)
            await layer.group_add(group_name(code), self.relay_channel)

    async def unregister(self, code: str, screen) -> None:
        present = self.rooms.get(code)
        if not present:
            return
        present.discard(screen)
        if not present:
            del self.rooms[code]
            screens.forget(code)
            # The relay stays in the room's group: leaving could race with a screen that reconnects
            # at once, and a ping for a room without screens here costs nothing.

    # -- pings ----------------------------------------------------------------------------------

    def deliver(self, code: str, version: int, game: dict | None = None) -> None:
        """On the event loop: tell this process's screens of ``code`` about ``version``;
        with ``game`` (all that changed), first make that version's snapshot from the last one."""
        if game is not None:
            screens.advance(code, version, game)
        for screen in list(self.rooms.get(code, ())):
            screen.refresh_soon(version)

    def deliver_threadsafe(self, code: str, version: int, game: dict | None = None) -> None:
        loop = self.loop
        if loop is not None and not loop.is_closed() and code in self.rooms:
            # A fresh context: the caller's (a worker thread inside sync_to_async) would make the
            # screens' own database calls believe they run in that thread, and refuse.
            # One callback for the snapshot and the ping: were they two, the screens could wake
            # between them and load from the database what the writer is about to hand over.
            loop.call_soon_threadsafe(self.deliver, code, version, game, context=contextvars.Context())

    def call_soon_threadsafe(self, callback, *args) -> None:
        """Run ``callback`` on this process's event loop, after pings already scheduled."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(callback, *args, context=contextvars.Context())

    async def _relay(self, layer) -> None:
        if self.relay_task is not None and not self.relay_task.done():
            return
        self.relay_channel = await layer.new_channel()
        self.relay_task = asyncio.ensure_future(self._listen(layer, self.relay_channel))

    async def _listen(self, layer, channel: str) -> None:
        while True:
            try:
                message = await layer.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception:  # the layer's server went away for a moment: keep listening
                log.exception("relay receive failed")
                await asyncio.sleep(1)
                continue
            if message.get("type") == "room.changed" and message.get("from") != channel:
                self.deliver(message["code"], message["version"])


HUB = Hub()


def send_ping(code: str, version: int, game=None) -> None:
    """From any thread, after commit: reach every screen of the room in every process.

    ``game`` (the committed Game, when it is all that changed) reaches this process's
    screens only; the other processes load the version from the database.

    This process's screens hear it at once; the others through the channel layer.  The
    ``group_send`` runs on the server's event loop, whose Redis connections stay open:
    ``async_to_sync`` from a worker thread would run it in a new event loop each time, and
    channels-redis keeps its connection pools per loop, so every ping would open (and close)
    a fresh connection.
    """
    layer = get_channel_layer()
    HUB.deliver_threadsafe(code, version, game_dict(game) if game is not None else None)
    if not crosses_processes(layer):
        return
    # "from": this process heard it already; its relay skips its own pings.
    message = {"type": "room.changed", "code": code, "version": version, "from": HUB.relay_channel}
    if HUB.loop is not None and not HUB.loop.is_closed():
        HUB.call_soon_threadsafe(_publish, layer, code, message)
    else:  # no screen has ever connected to this process: no loop of ours to borrow
        async_to_sync(layer.group_send)(group_name(code), message)


def _publish(layer, code: str, message: dict) -> None:
    task = asyncio.ensure_future(layer.group_send(group_name(code), message))
    task.add_done_callback(_log_failure)


def _log_failure(task: asyncio.Task) -> None:
    if not task.cancelled() and task.exception() is not None:
        # The other processes' screens catch up with their periodic sync (app.js).
        log.error("ping to the channel layer failed", exc_info=task.exception())
