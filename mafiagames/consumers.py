"""Websockets: push-only screens (DESIGN.md §4, notes/style.md G12).

Each socket knows its room and, for a phone, its player.  On connect it sends the full
screen; on every "room changed" ping it re-renders its own screen and sends only the
fragments whose HTML changed (re-swapping unchanged buttons can swallow a tap,
notes/stack.md §2).  Nothing secret ever travels through the channel layer: pings carry
no data, and a phone renders only its own seat.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer
from django.template.loader import render_to_string
from django.utils import translation

from . import rendering, seating, services
from .models import Room
from .notify import group_name
from .tables import load_table

CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404


class ScreenConsumer(WebsocketConsumer):
    """Shared plumbing: room lookup, group membership, diffing fragments."""

    room: Room | None = None

    def connect(self):
        code = self.scope["url_route"]["kwargs"]["code"].upper()
        self.room = Room.objects.filter(code=code).first()
        if self.room is None:
            self.close(code=CLOSE_NOT_FOUND)
            return
        self.cookies = seating.scope_cookies(self.scope)
        if not self.authorise():
            self.close(code=CLOSE_FORBIDDEN)
            return
        self._sent: dict[str, str] = {}
        async_to_sync(self.channel_layer.group_add)(group_name(self.room.code), self.channel_name)
        self.accept()
        self.opened()
        self.push()

    def disconnect(self, code):
        if self.room is not None:
            async_to_sync(self.channel_layer.group_discard)(group_name(self.room.code), self.channel_name)

    def receive(self, text_data=None, bytes_data=None):
        """Actions arrive as HTTP posts; the only message a screen sends is a periodic "sync".

        Channel layers deliver at most once, so a screen asks now and then to be brought up
        to date; only fragments that differ from what it was last sent go out.
        """
        if text_data and '"sync"' in text_data[:64]:
            self.push()

    def room_changed(self, event):
        self.push()

    def push(self):
        fragments = self.render()
        if fragments is None:
            return
        changed = [html for key, html in fragments.items() if self._sent.get(key) != html]
        self._sent = fragments
        if changed:
            self.send(text_data="".join(changed))

    def authorise(self) -> bool:
        return True

    def opened(self):
        pass

    def render(self) -> dict[str, str] | None:
        raise NotImplementedError


class TvConsumer(ScreenConsumer):
    """The public board. Anyone may watch it; only the host's browser gets the controls."""

    def authorise(self) -> bool:
        self.host = seating.is_host(self.room, self.cookies)
        return True

    def render(self):
        self.room.refresh_from_db()
        return rendering.tv_screen(load_table(self.room), host=self.host)


class PhoneConsumer(ScreenConsumer):
    """One player's private screen; refused before the handshake without a valid token."""

    player_id: int | None = None

    def authorise(self) -> bool:
        player = seating.player_from_cookies(self.room, self.cookies)
        if player is None:
            return False
        self.player_id = player.pk
        return True

    def opened(self):
        services.set_presence(self.player_id, +1)

    def disconnect(self, code):
        if self.player_id is not None:
            services.set_presence(self.player_id, -1)
        super().disconnect(code)

    def render(self):
        self.room.refresh_from_db()
        table = load_table(self.room)
        if not any(p["id"] == self.player_id for p in table.players):
            # Kicked by the host: say so and stop; the closed code does not trigger a reconnect.
            with translation.override(self.room.language):
                self.send(text_data=render_to_string("screens/removed.html"))
            self.close(code=CLOSE_FORBIDDEN)
            return None
        return rendering.phone_screen(table, self.player_id)
