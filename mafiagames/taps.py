"""A phone's tap, wherever it arrives: over its websocket (the usual way) or as an HTTP post.

Both go through ``tap``: parse the form with the ruleset's presenter, then ``services``
(the one writer).  The answer is a status and a message for that phone only.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import QueryDict
from django.utils import translation
from django.utils.translation import gettext as _

from engines.base import EngineError, MalformedAction

from . import db, services, timers
from .models import Player, Room
from .presenters import FormError, error_message, presenter


@dataclass(frozen=True)
class TapResult:
    status: int            # HTTP-like: 204 applied, 400 malformed, 403 not yours, 409 not now
    message: str           # for the player who tapped; empty when applied
    room_version: int | None = None


def form_from_json(data: dict) -> QueryDict:
    """A websocket message (htmx ws-send: form values, lists for repeated fields) as form data."""
    form = QueryDict(mutable=True)
    for key, value in data.items():
        if isinstance(value, list):
            form.setlist(key, [str(v) for v in value])
        elif isinstance(value, (str, int, float)) and not isinstance(value, bool):
            form[key] = str(value)
    return form


def tap(room: Room, player_id: int, form) -> TapResult:
    """Apply the action ``form`` describes for the player's seat; never raises for bad input."""
    with translation.override(room.language):
        try:
            turn = int(form.get("turn", ""))
        except (TypeError, ValueError):
            return TapResult(400, _("That request was malformed."))
        try:
            action = presenter(room.ruleset).parse_action(form)
        except FormError as exc:
            return TapResult(400, str(exc))
        try:
            game = services.submit_for_player(room, player_id, action, expected_turn=turn)
        except services.ServiceError as exc:
            return TapResult(exc.status, exc.message)
        except EngineError as exc:
            status = 400 if isinstance(exc, MalformedAction) else 409
            return TapResult(status, error_message(room.ruleset, exc))
        timers.after_commit(game)   # the game master may owe it a move (a window to close)
        return TapResult(204, "", game.room_version)


def tap_by_id(player_id: int, token: str, form) -> TapResult:
    """``tap`` for a socket's player, looked up afresh: the host may have removed them, or given
    the seat to another phone (its token changed)."""
    room = _room_of(player_id, token)
    if room is None:
        return TapResult(403, _("You are not seated in this room. Join again."))
    return tap(room, player_id, form)


def _room_of(player_id: int, token: str) -> Room | None:
    """The room of a player holding ``token`` (only what a tap needs of it), in one plain
    statement: every tap of every phone runs it (docs/performance.md)."""
    conn = db.this_connection()
    with conn.cursor() as cursor:
        cursor.execute(f"SELECT r.id, r.code, r.language, r.ruleset FROM {Room._meta.db_table} r "
                       f"JOIN {Player._meta.db_table} p ON p.room_id = r.id WHERE p.id = %s AND p.token = %s",
                       [player_id, token])
        row = cursor.fetchone()
    # Loaded like ``only(...)``: should anyone save it, only these fields would be written.
    return None if row is None else Room.from_db(conn.alias, ["id", "code", "language", "ruleset"], row)
