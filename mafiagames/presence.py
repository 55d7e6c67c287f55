"""Who is at the table, as the TV shows it: the phones' sockets in this process, published calmly.

The TV marks a player online while their phone has a screen open (``Player.connected``).  A phone
on bad Wi-Fi, a reload, or a script opens and closes sockets, sometimes many a second; writing
each open and close as it happened bumped the room's version twice per socket: every screen of
the room re-rendered, the player flapped online/offline on the TV, and the other players' taps
waited behind it all (docs/performance.md, Probes: ``churn``).  So this process counts each
player's open sockets itself and writes only what the TV should show:

- a player's first socket here marks them online (``Player.connections`` + 1); more sockets, or
  a socket reopened while they are still shown online, write nothing;
- a player whose last socket here closed is marked offline ``grace`` seconds later
  (``settings.PRESENCE_GRACE``), unless a socket of theirs reopened meanwhile: a reload or a
  reconnect after a network hiccup never shows them offline, and a phone that truly left is
  shown offline within the grace;
- a room's presence is written at most once per ``window`` (``settings.PRESENCE_WINDOW``): the
  first change at once, the ones that follow within the window together, as one version.

``Player.connections`` thus counts the processes that show the player online (one, unless scaled
out), not sockets.  What a process marked lives in its memory, like its sockets: a process that
stops leaves its marks behind, and ``clear_presence`` resets them as the server starts
(docs/operations.md, Restarting), as it always did.

Everything here runs on the event loop; the writes go through the one writer (``db.write``).
"""

from __future__ import annotations

import asyncio
import collections
import logging
import math

from django.conf import settings

from . import db, services

log = logging.getLogger(__name__)


async def _write_marks(changes: dict[int, int]) -> None:
    await db.write(services.set_presence, changes)


class Presence:
    """This process's presence marks.  ``publish`` (an async function of {player id: ±1}) writes
    them; ``clock`` (``time()`` and ``call_later()``, the running event loop's by default), and
    ``grace`` and ``window`` (the settings' by default) can be given for tests."""

    def __init__(self, publish=_write_marks, clock=None, grace: float | None = None,
                 window: float | None = None):
        self._publish, self._clock, self._grace, self._window = publish, clock, grace, window
        self._loop = None
        self._forget()

    def _forget(self) -> None:
        self.sockets: collections.Counter[int] = collections.Counter()  # player → open sockets here
        self.leaving: dict[int, asyncio.TimerHandle] = {}  # player → their offline, due after the grace
        self.shown: set[int] = set()           # players this process marks online (written or being written)
        self.dirty: dict[str, set[int]] = {}   # room → players whose mark may be out of date
        self.busy: set[str] = set()            # rooms with a write scheduled or under way
        self.written: dict[str, float] = {}    # room → when its last write began
        self.tasks: set[asyncio.Task] = set()  # scheduled writes running

    def _adopt(self) -> None:
        """A new event loop (tests start one each) starts afresh, as ``fanout.HUB`` does."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._loop = loop
            self._forget()

    @property
    def clock(self):
        return self._clock or asyncio.get_running_loop()

    @property
    def grace(self) -> float:
        return settings.PRESENCE_GRACE if self._grace is None else self._grace

    @property
    def window(self) -> float:
        return settings.PRESENCE_WINDOW if self._window is None else self._window

    # -- sockets come and go --------------------------------------------------------------------

    async def opened(self, code: str, player: int) -> None:
        """A socket of ``player`` (of room ``code``) opened.  Counted before anything is awaited:
        ``closed`` can always undo it, even if the write fails."""
        self._adopt()
        self.sockets[player] += 1
        timer = self.leaving.pop(player, None)
        if timer is not None:
            timer.cancel()   # back within the grace: still shown online
        await self._changed(code, player)

    async def closed(self, code: str, player: int) -> None:
        """A socket of ``player`` closed; after their last, they go offline once the grace ends."""
        self._adopt()
        if self.sockets[player] <= 0:
            return   # counted on an event loop of before (tests)
        self.sockets[player] -= 1
        if self.sockets[player]:
            return
        del self.sockets[player]
        if self.grace > 0:
            self.leaving[player] = self.clock.call_later(self.grace, self._left, code, player)
        else:
            await self._changed(code, player)

    def _left(self, code: str, player: int) -> None:
        """The grace ended with no socket of ``player`` reopened."""
        self.leaving.pop(player, None)
        self._spawn(self._changed(code, player))

    def online(self, player: int) -> bool:
        """Whether ``player`` is to be shown online, as far as this process knows."""
        return self.sockets[player] > 0 or player in self.leaving

    # -- writing the marks ----------------------------------------------------------------------

    async def _changed(self, code: str, player: int) -> None:
        """Write ``player``'s mark now, or with the room's next write if one is due within the
        window; nothing if it is already what the TV shows."""
        if self.online(player) == (player in self.shown):
            return
        self.dirty.setdefault(code, set()).add(player)
        if code in self.busy:
            return   # the write scheduled or under way takes it, or schedules the next one
        wait = self._wait(code)
        if wait > 0:
            self._schedule(code, wait)
        else:
            await self._write(code)

    def _wait(self, code: str) -> float:
        """Seconds until the room may be written again (one write per window)."""
        return self.written.get(code, -math.inf) + self.window - self.clock.time()

    def _schedule(self, code: str, wait: float) -> None:
        self.busy.add(code)
        self.clock.call_later(wait, lambda: self._spawn(self._write(code)))

    async def _write(self, code: str) -> None:
        """Write the marks of the room's players that differ from their sockets, as one version."""
        self.busy.add(code)
        changes: dict[int, int] = {}
        try:
            for player in self.dirty.pop(code, ()):
                online = self.online(player)
                if online != (player in self.shown):
                    changes[player] = 1 if online else -1
                    # Marked before the write is awaited: a change meanwhile compares with it
                    # and is written next, in order.
                    (self.shown.add if online else self.shown.discard)(player)
            if changes:
                self.written[code] = self.clock.time()
                await self._publish(changes)
        except BaseException:
            # Not written: the marks are as the database has them, and the player's next change
            # tries again (as before; retrying on our own could spin while the database is away).
            for player, delta in changes.items():
                (self.shown.discard if delta > 0 else self.shown.add)(player)
            raise
        finally:
            self.busy.discard(code)
            if self.dirty.get(code):   # changed while this write was under way
                self._schedule(code, max(0.0, self._wait(code)))

    def _spawn(self, work) -> None:
        """Run a write nobody awaits; its failure is logged (the next change tries again)."""
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("writing presence failed", exc_info=task.exception())

    async def settled(self) -> None:
        """Until the writes running now are done (tests)."""
        while self.tasks:
            await asyncio.gather(*self.tasks, return_exceptions=True)


PRESENCE = Presence()
