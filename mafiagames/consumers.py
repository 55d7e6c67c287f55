"""Websockets: push-only screens (docs/design.md §4).

Each socket knows its room and, for a phone, its player.  On connect it sends the full
screen; when told the room reached a new version it takes that version's shared snapshot
(``screens``), picks its own screen from it and sends only the fragments whose HTML changed
(re-swapping unchanged buttons can swallow a tap, docs/design.md §9.2), followed by the version
marker.  Nothing secret travels through the channel layer: pings carry a room code and a
number, and a phone renders only its own seat.

Under load: a screen renders once the room's taps already queued for the writer are written,
so a burst of taps costs one render of the newest version (``db.settled``); a phone's taps are
written one at a time, in the room's bounded queue (``db.write_queued``); a socket that sends
far more than a person taps is closed, a player keeps only a few sockets and opens only a few
a minute, and a player's presence on the TV is written calmly (``presence``).
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import json
import logging

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from . import clients, db, languages, limits, rendering, screens, seating, services, taps, timers
from .fanout import HUB
from .presence import PRESENCE

log = logging.getLogger(__name__)

CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
# Daphne (autobahn) sends only 1000 or 3000–4999: RFC 6455's 1009 and 1011 would raise there
# and leave the socket open. Our own codes mirror HTTP statuses.
CLOSE_TOO_BIG = 4413        # like HTTP 413: a frame bigger than any page sends
CLOSE_FLOOD = 4429          # like HTTP 429: this socket sent far more than a person taps (or, before
                            # the handshake, its player opened far more sockets than a phone does)
CLOSE_REPLACED = 4409       # like HTTP 409: the same player's newer sockets took this one's place
CLOSE_ERROR = 1000          # a server error: 1000 makes the page reconnect (static/app.js)
CLOSE_CODES = (CLOSE_FORBIDDEN, CLOSE_NOT_FOUND, CLOSE_TOO_BIG, CLOSE_FLOOD, CLOSE_REPLACED, CLOSE_ERROR)

# A tap is a few hundred bytes of form values, one level deep; a sync request is {"sync": true}.
MAX_FRAME = 16 * 1024
MAX_DEPTH = 4
# A person taps a few times a second; a page adds a sync request now and then. A socket may send
# BURST messages at once and RATE per second after that; one that sends more is closed.
RATE, BURST = 20.0, 60.0
# Taps of one socket waiting while its previous tap is written (a double tap, a tap during a
# burst); one more is answered "busy".  One tap of a socket is written at a time.
MAX_TAPS_WAITING = 4
# Open sockets of one player in this process: a phone and a laptop, or a phone whose old socket
# has not yet been noticed dead after a network change.  The oldest beyond it are closed: every
# socket may send RATE taps a second, and a hundred sockets of one seat flooded the server
# within that rate (docs/performance.md, Probes: room_flood).
MAX_SOCKETS_PER_PLAYER = 3
_opened = itertools.count()   # the order sockets were opened in


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether JSON text nests brackets deeper than ``limit``, found without parsing it
    (json.loads recurses once per level: deep enough text raises RecursionError)."""
    if text.count("[") + text.count("{") <= limit:
        return False   # every tap: too few brackets to be too deep
    depth, in_string, escaped = 0, False, False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def stop_reading(send) -> None:
    """Read nothing more from this socket: what we send still goes out.

    Daphne (autobahn) goes on reading and parsing what a client sends after we closed its
    socket, until the client answers the close or a second has passed (autobahn's close
    handshake timeout): a flooder's frames, some 2,500 per 64 KB read, each queued for a
    consumer that only ignores them.  Daphne hands the application
    ``partial(handle_reply, protocol)`` as ``send``; under any other server (or a test's
    communicator) this does nothing.
    """
    protocol = next(iter(getattr(send, "args", ())), None)
    pause = getattr(getattr(protocol, "transport", None), "pauseProducing", None)
    if pause is not None:
        pause()


class ScreenConsumer(AsyncWebsocketConsumer):
    """Shared plumbing: who is this, register for pings, coalesce refreshes, diff fragments."""

    code: str = ""
    registered = False
    dropped = False   # closed by us (drop()): anything the client still sends is ignored
    # No channel of its own: pings reach a screen through the hub (fanout.py), never through the
    # channel layer, so a per-socket channel (a Redis subscription when scaled out) would only
    # cost.  An alias that names no layer is how Channels is told so.
    channel_layer_alias = "no layer: pings come through fanout.HUB"

    inbox = None   # where the server queues this socket's frames (daphne, the test communicator)

    async def __call__(self, scope, receive, send):
        # Daphne hands the frames over as ``asyncio.Queue.get`` of the socket's queue: its length
        # tells a flood as it arrives (``backlog``).
        self.inbox = getattr(receive, "__self__", None)
        await super().__call__(scope, receive, send)

    async def dispatch(self, message):
        """As Channels does, minus ``aclose_old_connections()`` before every message: that is a
        hop to Django's sync thread on every tap, and this consumer's database work runs in
        db.py's own threads, which look after their connections themselves."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        try:
            await handler(message)
        except StopConsumer:
            raise
        except Exception:
            # Left to Channels, the consumer would end here without disconnect(): the player
            # "online" on the TV forever and a dead screen registered for pings.
            log.exception("websocket %s in room %s failed on %s", type(self).__name__, self.code, message["type"])
            await self.drop(CLOSE_ERROR)

    def task(self, work, doing: str) -> asyncio.Task:
        """Run ``work`` as a task of this socket's own.  Nobody awaits it, so nobody else would
        see its error: it is logged and the socket dropped, as in ``dispatch``."""
        async def guarded():
            try:
                await work
            except Exception:
                log.exception("%s in room %s failed %s", type(self).__name__, self.code, doing)
                await self.drop(CLOSE_ERROR)
        return asyncio.ensure_future(guarded())

    async def send(self, text_data=None, bytes_data=None, close=False):
        """As Channels sends, but a frame for a socket the client has closed already is dropped:
        a screen refreshed, an answer or a message sent as the phone went (daphne knows it gone
        only once autobahn finished the close) is nothing to log a traceback about.  Every send of
        the consumers comes here."""
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Disconnected:
            log.debug("%s in room %s: a frame for a socket already closed was dropped", type(self).__name__, self.code)

    async def drop(self, code: int):
        """Close, then undo everything connect() did: whatever the client does next (or never
        does), nothing of this socket is left registered or counted online.  The close comes
        first: undoing waits for the writer thread, which a flood may be keeping busy."""
        self.dropped = True
        stop_reading(self.base_send)
        try:
            await self.close(code=code)
        except Exception:   # the socket may already be gone
            pass
        await self.disconnect(code)

    async def connect(self):
        self.code = self.scope["url_route"]["kwargs"]["code"].upper()
        cookies = seating.scope_cookies(self.scope)
        if not self.may_open(cookies):
            # Refused at the handshake, before the database: the page sees the socket fail and
            # htmx-ws tries again (static/app.js), at most 4 s apart, until the window allows.
            await self.close(code=CLOSE_FLOOD)
            return
        verdict = await db.read(self._identify, cookies)
        if verdict is not None:
            await self.close(code=verdict)
            return
        self._sent: dict[str, str] = {}
        self.shown = -1         # room version this screen shows
        self.wanted = -1        # newest version we were told about
        self.worker: asyncio.Task | None = None
        self.allowance, self.allowance_at = BURST, asyncio.get_running_loop().time()
        await self.accept()
        await HUB.register(self.code, self)
        self.registered = True
        timers.resume()   # once per process: moves the game master owes running games
        await self.opened()
        if self.dropped:
            return   # a newer socket of the same player took this one's place meanwhile
        # At least the version read while identifying: a load already running may have begun
        # before this player's join, and its screen would say the player is not in the room.
        await self.push(self.identified_at)

    async def disconnect(self, code):
        if self.registered:
            self.registered = False
            try:
                await HUB.unregister(self.code, self)
            finally:
                await self.closed()

    async def receive(self, text_data=None, bytes_data=None):
        """A message from the page: ``{"sync": true}`` or (phones) a tap, as htmx ws-send sends it.

        Channel layers deliver at most once, so pages ask now and then to be brought up to
        date; the current version is read from the database and only what changed is sent.
        """
        if self.dropped:
            return   # closed already; daphne hands on what the client sent until it hangs up
        if not self.within_rate() or self.backlog() > BURST:
            await self.drop(CLOSE_FLOOD)
            return
        text = text_data if text_data is not None else (bytes_data or b"").decode("utf-8", "replace")
        if len(text) > MAX_FRAME:
            await self.drop(CLOSE_TOO_BIG)
            return
        try:
            message = None if too_deep(text) else json.loads(text)
        except ValueError:
            message = None
        if not isinstance(message, dict):
            await self.malformed()
        elif message.get("sync"):
            await self.push(None)
        else:
            await self.tap(message)

    def backlog(self) -> int:
        """Frames the client sent that wait for this consumer.  The rate is counted as frames
        are handled, and a flood slows their handling down: the event loop spends its time
        parsing the flood (64 KB, some 2,500 frames at a time), and handling one frame takes
        Channels a turn or two of the loop, so a socket flooding as fast as it could was handled
        at ~12 frames a second, under the limit, for as long as it flooded."""
        return self.inbox.qsize() if hasattr(self.inbox, "qsize") else 0

    def within_rate(self) -> bool:
        """A token bucket: BURST messages at once, RATE a second after that."""
        now = asyncio.get_running_loop().time()
        self.allowance = min(BURST, self.allowance + (now - self.allowance_at) * RATE)
        self.allowance_at = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True

    async def tap(self, message: dict):
        await self.malformed()

    async def malformed(self):
        with translation.override(self.language):
            await self.send(text_data=rendering.flash(_("That request was malformed.")))

    async def busy(self):
        with translation.override(self.language):
            await self.send(text_data=rendering.flash(taps.busy().message))

    # -- refreshing ----------------------------------------------------------------------------

    def refresh_soon(self, version: int) -> None:
        """Called by the hub on the event loop; several pings in a row cost one render."""
        if version <= self.wanted:
            return
        self.wanted = version
        if self.worker is None or self.worker.done():
            self.worker = self.task(self._catch_up(), "refreshing the screen")

    async def _catch_up(self):
        while self.registered and self.shown < self.wanted:
            # The room's taps queued for the writer will each make a newer version (and ping
            # before they are done): render once they are written, only the newest.  Twenty
            # votes at once then cost each screen one render, not twenty, and the writer and
            # the taps' answers do not wait behind renders of versions already replaced.
            await db.settled(self.code)
            await self.push(self.wanted)

    async def push(self, version: int | None):
        snap = await screens.snapshot(self.code, version)
        if snap.version <= self.shown and version is not None:
            return
        self.shown = max(self.shown, snap.version)
        fragments = self.render(snap)
        if fragments is None:
            return
        changed = [html for key, html in fragments.items() if self._sent.get(key) != html]
        self._sent = fragments
        if changed:
            changed.append(rendering.version_marker(snap.version))
            await self.send(text_data="".join(changed))

    # -- per kind of screen -----------------------------------------------------------------------

    def _identify(self, cookies) -> int | None:
        """In a worker thread: None to accept, else the close code to refuse with."""
        try:
            room = limits.find_room(self.code, clients.of_scope(self.scope))
        except limits.TooMany:
            room = None
        if room is None:
            return CLOSE_NOT_FOUND
        self.language = room.language
        self.identified_at = room.version
        return self.identify(room, cookies)

    def identify(self, room, cookies) -> int | None:
        raise NotImplementedError

    def may_open(self, cookies) -> bool:
        """Whether this socket is within its opener's budget of new sockets (checked first)."""
        return True

    async def opened(self):
        pass

    async def closed(self):
        pass

    def render(self, snap: screens.Snapshot) -> dict[str, str] | None:
        raise NotImplementedError


class TvConsumer(ScreenConsumer):
    """The public board. Anyone may watch it; only a host device's browser gets the controls."""

    device: int | None = None       # the host device (HostDevice) this TV is, while it hosts
    generation: int = 0             # the room's handovers when it connected
    counted: int | None = None      # the device whose connections count this socket (undone once, in closed())

    def identify(self, room, cookies):
        device = seating.host_device(room, cookies)
        self.device = device and device.pk
        self.generation = room.host_generation
        return None

    async def opened(self):
        if self.device is not None:   # a host screen online: a new device now needs its yes
            self.counted = self.device
            await db.write(services.set_host_presence, self.counted, +1)

    async def closed(self):
        if self.counted is not None:
            counted, self.counted = self.counted, None
            await db.write(services.set_host_presence, counted, -1)

    async def tap(self, message: dict):
        """The TV never taps (its host controls post over HTTP with the host cookie): a socket that
        sends taps here is not the TV page, so it is closed."""
        await self.drop(CLOSE_FORBIDDEN)

    def render(self, snap):
        if snap.table is None:
            return None
        # Decided at every render, not once at connect: a handover to a phone takes the controls
        # off this TV live, and a host's revoke ends them and closes this socket.
        host = self.device is not None and any(d["id"] == self.device for d in snap.table.host_devices)
        if self.device is not None and not host and snap.version >= self.identified_at:
            revoked = snap.table.host_generation == self.generation
            self.device = None
            if revoked:
                self.task(self._revoked(), "closing a revoked host's screen")
        return rendering.tv_screen(snap.table, host=host, memo=snap.memo, kept=snap.kept, device=self.device)

    async def _revoked(self):
        """Another host revoked this device: say so, and close (the page stays as it was, without
        controls; a reload shows the public board)."""
        with translation.override(self.language):
            await self.send(text_data=rendering.flash(_("Another host took the host controls from this screen.")))
        await self.drop(CLOSE_FORBIDDEN)


class PhoneConsumer(ScreenConsumer):
    """One player's private screen; refused before the handshake without a valid token."""

    player_id: int | None = None
    online = False   # counted among the player's sockets in PRESENCE (undone once, in closed())
    tapper: asyncio.Task | None = None   # writes this socket's taps, one at a time

    def may_open(self, cookies) -> bool:
        """A player's new sockets are limited (``limits.OPENS``), keyed on the player id of the
        signed cookie, the one thing a client cannot choose; a socket without one is refused by
        ``identify`` anyway."""
        seat = seating.signed_seat(self.code, cookies)
        return seat is None or limits.OPENS.hit(seat[0])

    def identify(self, room, cookies):
        player = seating.player_from_cookies(room, cookies)
        if player is None:
            return CLOSE_FORBIDDEN
        self.player_id, self.token, self.handovers = player.pk, player.token, player.handovers
        self.language = languages.of_phone(player.language, room.language)
        self.serial = next(_opened)
        return None

    async def tap(self, message: dict):
        """A tap over the socket (the Origin check at the handshake stands in for CSRF).

        Written one at a time, in the order sent, by a task of their own (``_write_taps``):
        ``receive`` goes straight on to the next frame, so the rate limit meets a flood as it
        arrives, not after its taps were written one by one while it went on arriving."""
        message.pop("HEADERS", None) or message.pop("headers", None)  # htmx 2 / htmx 4
        if len(self.taps) >= MAX_TAPS_WAITING:
            await self.busy()
            return
        self.taps.append(message)
        if self.tapper is None or self.tapper.done():
            self.tapper = self.task(self._write_taps(), "writing a tap")

    async def _write_taps(self):
        while self.taps and self.registered:
            await self._write_tap(self.taps.popleft())

    async def _write_tap(self, message: dict):
        try:
            result = await db.write_queued(self.code, taps.tap_by_id, self.player_id, self.token,
                                           taps.form_from_json(message), self.language)
        except db.Busy:
            await self.busy()
            return
        if not self.registered:
            return   # the socket went while its tap was written (the tap stands)
        if result.status == 204:  # the ack: clears an old message; the new screen follows the ping
            await self.send(text_data=rendering.flash("", "clear", result.room_version))
        else:
            await self.send(text_data=rendering.flash(result.message))

    async def opened(self):
        self.taps: collections.deque[dict] = collections.deque()
        # Set before the write: a refresh failing while it runs (the write pings the room) must
        # find the socket to uncount; PRESENCE counts it before awaiting anything.
        self.online = True
        await PRESENCE.opened(self.code, self.player_id)
        # Only once counted: a newer socket of the player that closes this one meanwhile (the
        # awaits below) then finds the count to undo.
        for older in self.older_sockets()[:-(MAX_SOCKETS_PER_PLAYER - 1) or None]:
            await older.drop(CLOSE_REPLACED)

    def older_sockets(self) -> list[PhoneConsumer]:
        """This player's other open sockets in this process, oldest first."""
        return sorted((screen for screen in HUB.rooms.get(self.code, ())
                       if isinstance(screen, PhoneConsumer) and screen is not self
                       and screen.player_id == self.player_id and not screen.dropped),
                      key=lambda screen: screen.serial)

    async def closed(self):
        if self.online:
            self.online = False
            await PRESENCE.closed(self.code, self.player_id)

    def render(self, snap):
        me = None if snap.table is None else next((p for p in snap.table.players if p["id"] == self.player_id), None)
        if me is None or me["handovers"] != self.handovers:
            if snap.table is not None and snap.version < self.identified_at:
                return None  # older than this socket: from before the player joined
            # Kicked by the host, or the seat given to another phone with the host's approval:
            # say so and stop; this close code does not trigger a reconnect.
            self.task(self._removed(replaced=me is not None), "telling a removed player")
            return None
        # The phone's language may have changed from its menu (services.set_phone_language): its
        # refusals follow the screen.
        self.language = languages.of_phone(me["language"], snap.table.language)
        return rendering.phone_screen(snap.table, self.player_id, memo=snap.memo, kept=snap.kept)

    async def _removed(self, replaced: bool = False):
        with translation.override(self.language):
            html = render_to_string("screens/removed.html", {"replaced": replaced})
        await self.send(text_data=html)
        await self.close(code=CLOSE_FORBIDDEN)
