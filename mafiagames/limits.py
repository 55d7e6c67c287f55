"""How often one client may do what a person does a few times an evening (issue: rooms that
cannot be flooded).

One small counter serves every limit: joins and seat requests per client address, unknown room
codes tried per address (enumerating rooms), host-code attempts per address, a player's new
sockets, wrong admin passwords per address and per user name (logins.py).  It lives in this
process, counts in fixed windows of a monotonic clock and forgets keys once it holds too many;
when the app runs as several processes each counts for itself (docs/operations.md).

Every limit keys on the client's real address (clients.py: the TCP peer, or what a proxy the
deployment trusts says), never on anything a client can choose, and no limit is shared by
clients: one client's misses never refuse another.  The machine's own browser asking directly
(the host's laptop) is not limited: it is the host, and a laptop trying the app with several tabs
is not a flood.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from django.utils.translation import gettext as _

from .clients import Client
from .models import ROOM_CODE_LENGTH, Room


class Limit:
    """At most ``count`` hits per key in each window of ``seconds``."""

    def __init__(self, count: int, seconds: float, *, max_keys: int = 10_000,
                 clock: Callable[[], float] = time.monotonic):
        self.count, self.seconds, self.max_keys, self.clock = count, seconds, max_keys, clock
        self._windows: dict[object, tuple[float, int]] = {}
        self._lock = threading.Lock()   # views run in several threads

    def hit(self, key) -> bool:
        """Count one hit; False if the key is over its limit (the hit is refused)."""
        now = self.clock()
        with self._lock:
            start, hits = self._windows.get(key, (now, 0))
            if now - start >= self.seconds:
                start, hits = now, 0
            if hits >= self.count:
                return False
            if key not in self._windows and len(self._windows) >= self.max_keys:
                self._forget(now)
            self._windows[key] = (start, hits + 1)
            return True

    def over(self, key) -> bool:
        """Whether the key has used up this window (without counting a hit)."""
        now = self.clock()
        with self._lock:
            start, hits = self._windows.get(key, (now, 0))
            return now - start < self.seconds and hits >= self.count

    def _forget(self, now: float) -> None:
        """Bounded memory: drop ended windows; if all are live, drop the oldest half."""
        live = {k: v for k, v in self._windows.items() if now - v[0] < self.seconds}
        if len(live) >= self.max_keys:
            live = dict(sorted(live.items(), key=lambda item: item[1][0])[len(live) // 2:])
        self._windows = live

    def reset(self) -> None:
        with self._lock:
            self._windows.clear()


# A table behind one NAT shares an address: ten joins a minute seats a whole table in one go.
JOINS = Limit(10, 60)
# A mistyped code or two a minute is a person; twenty is a script reading the 18^4 codes.
MISSES = Limit(20, 60)
# Host-code attempts per address, whatever the room (18^8 codes, and each one used changes):
# never per room, or strangers' guesses would lock the real host out.
HOST_CODE_TRIES = Limit(5, 60)

# New sockets of one player (consumers.PhoneConsumer, keyed on the player id of the signed cookie,
# whatever the address: the host's laptop is no exception).  A real phone opens one per page load,
# per reconnect after a network change or a sleep, per tab: a few a minute at worst, and a reload
# every three seconds for half a minute is still within ten.  A refused handshake is not counted
# (htmx-ws reconnects after it, at most 4 s apart: static/app.js), so a phone that did hit the
# limit is back within the window.  A phone churning sockets (Probes: churn) gets ten, not hundreds.
OPENS = Limit(10, 30)

# Wrong admin passwords (mafiagames/logins.py): per address, and per user name from any address.
# The per-user count refuses only addresses that never logged in as that user (KNOWN_LOGINS), so
# strangers' guesses cannot lock the admin out of the devices the admin uses.
LOGIN_FAILURES = Limit(5, 15 * 60)
LOGIN_FAILURES_PER_USER = Limit(10, 15 * 60)


class Remembered:
    """Keys seen within the last ``seconds``, at most ``max_keys`` of them (the oldest go first)."""

    def __init__(self, seconds: float, *, max_keys: int = 10_000, clock: Callable[[], float] = time.monotonic):
        self.seconds, self.max_keys, self.clock = seconds, max_keys, clock
        self._seen: dict[object, float] = {}
        self._lock = threading.Lock()

    def add(self, key) -> None:
        with self._lock:
            self._seen.pop(key, None)          # re-inserted last: dicts keep insertion order
            self._seen[key] = self.clock()
            while len(self._seen) > self.max_keys:
                del self._seen[next(iter(self._seen))]

    def __contains__(self, key) -> bool:
        seen = self._seen.get(key)
        return seen is not None and self.clock() - seen < self.seconds

    def reset(self) -> None:
        with self._lock:
            self._seen.clear()


# (user name, address) pairs that logged in to the admin in the last 30 days (logins.py).
KNOWN_LOGINS = Remembered(30 * 24 * 3600)

ALL = (JOINS, MISSES, HOST_CODE_TRIES, OPENS, LOGIN_FAILURES, LOGIN_FAILURES_PER_USER, KNOWN_LOGINS)


def allow(limit: Limit, client: Client, *key) -> bool:
    """Count a hit of ``client`` (and ``key``) against ``limit``.  The host's own machine is free."""
    return client.exempt or limit.hit((client.address, *key))


def reset_all() -> None:
    """Forget every count (tests)."""
    for limit in ALL:
        limit.reset()


class TooMany(Exception):
    """A client over one of these limits; the message is for that client (HTTP 429)."""


def find_room(code: str, client: Client):
    """The room of ``code``, or None.  Unknown codes are counted per client address: one that
    tries many is reading the list of rooms, not mistyping a code off the TV (MISSES)."""
    if client.limited and MISSES.over((client.address,)):
        raise TooMany(_("Too many unknown room codes. Wait a minute and try again."))
    code = code.upper()
    room = Room.objects.filter(code=code).first() if len(code) == ROOM_CODE_LENGTH else None
    if room is None:
        allow(MISSES, client)
    return room
