"""What happens once a change commits: screens are told "room X is now at version V", and
whoever listens for game changes (the game master's clock, timers.py) hears the game.

Never HTML, never state to the screens (docs/design.md §4): each screen re-renders its own view.
Sent after commit, so nobody acts on a state that could still roll back.  The writer
(services.py) calls these; it never needs to know who listens (apps.py connects the clock).
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction

from .fanout import send_ping

__all__ = ["game_changed", "listen", "ping"]

_listeners: list[Callable] = []


def ping(code: str, version: int, game=None) -> None:
    """``game``: the committed game, when it is all that changed (this process's screens then
    build the new version from the last one instead of loading it; see ``screens.advance``)."""
    transaction.on_commit(lambda: send_ping(code, version, game))


def listen(listener: Callable) -> None:
    """Call ``listener(game)`` after every committed change of a game (once per listener)."""
    if listener not in _listeners:
        _listeners.append(listener)


def game_changed(game) -> None:
    """A game started, moved or resumed: its listeners hear it once the transaction commits."""
    transaction.on_commit(lambda: [listener(game) for listener in _listeners])
