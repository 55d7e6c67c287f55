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

from . import db, services
from .models import Room
from .presenters import FormError, error_message, form_seat, parse_tap


@dataclass(frozen=True)
class TapResult:
    status: int            # HTTP-like: 204 applied, 400 malformed, 403 not yours, 409 not now, 429 busy
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


def tap(room: Room, player_id: int, form, language: str | None = None) -> TapResult:
    """Apply the action ``form`` describes for the player's seat; never raises for bad input.
    Answered in ``language``, the phone's (languages.of_phone), else the room's."""
    with translation.override(language or room.language):
        if form.get("action") == SUSPECT:
            return suspect(room, player_id, form)
        try:
            turn = int(form.get("turn", ""))
        except (TypeError, ValueError):
            return TapResult(400, _("That request was malformed."))
        try:
            action = parse_tap(room.ruleset, form)
        except FormError as exc:
            return TapResult(400, str(exc))
        try:
            game = services.submit_for_player(room, player_id, action, expected_turn=turn)
        except services.ServiceError as exc:
            return TapResult(exc.status, exc.message)
        except EngineError as exc:
            return refused(room.ruleset, exc)
        return TapResult(204, "", game.room_version)


# An audience phone's answer to the day's poll (services.suspect): not a move of the game.
SUSPECT = "suspect"


def suspect(room: Room, player_id: int, form) -> TapResult:
    """The poll's tap: ``poll`` (the day it was asked on) and ``seat`` (whom)."""
    poll = form.get("poll")
    try:
        seat = form_seat(form.get("seat"))
    except FormError as exc:
        return TapResult(400, str(exc))
    if not poll:
        return TapResult(400, _("That request was malformed."))
    try:
        version = services.suspect(room, player_id, poll, seat)
    except services.ServiceError as exc:
        return TapResult(exc.status, exc.message)
    return TapResult(204, "", version)


def refused(slug: str, exc: EngineError) -> TapResult:
    """An engine's refusal in the ruleset's words: 400 if it could not be understood at all, 409
    if it is not allowed now.  (The host's buttons are answered the same way.)"""
    return TapResult(400 if isinstance(exc, MalformedAction) else 409, error_message(slug, exc))


def busy() -> TapResult:
    """The answer to a tap that found no room to wait: its room's queue for the writer is full
    (db.MAX_QUEUED), or its socket's (consumers.MAX_TAPS_WAITING).  Nothing was done."""
    return TapResult(429, _("The room is busy. Try again in a moment."))


def tap_by_id(player_id: int, token: str, form, language: str | None = None) -> TapResult:
    """``tap`` for a socket's player, looked up afresh: the host may have removed them, or given
    the seat to another phone (its token changed).  Answered in the socket's ``language``."""
    room = db.room_of_player(player_id, token)
    if room is None:
        with translation.override(language):
            return TapResult(403, _("You are not seated in this room. Join again."))
    return tap(room, player_id, form, language)
