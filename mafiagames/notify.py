"""The only thing the channel layer carries: "room X changed" (DESIGN.md §4).

Never HTML, never state: each socket re-renders its own seat's view on a ping.
"""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction


def group_name(code: str) -> str:
    return f"room.{code}"


def ping(code: str) -> None:
    """Tell every screen of the room to re-render, once the current transaction commits."""

    def send():
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(group_name(code), {"type": "room.changed"})

    transaction.on_commit(send)
