"""The only thing that tells screens about a change: "room X is now at version V".

Never HTML, never state (DESIGN.md §4): each screen re-renders its own view.  Sent after
commit, so a screen never renders a state that could still roll back.
"""

from django.db import transaction

from .fanout import send_ping

__all__ = ["ping"]


def ping(code: str, version: int, game=None) -> None:
    """``game``: the committed game, when it is all that changed (this process's screens then
    build the new version from the last one instead of loading it; see ``screens.advance``)."""
    transaction.on_commit(lambda: send_ping(code, version, game))
