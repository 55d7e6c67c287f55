"""Mrakošlapi: a phone's submitted form turned into an engine action (``parse_action``); the engine
validates it (legal moves, turn), this only reads the fields."""

from __future__ import annotations

from django.utils.translation import gettext as _

from ...text import showable
from .. import FormError, button_action, form_seat, text


# The buttons whose fields are a move's (presenters.button_action): the night steps' buttons
# (context.night_steps sends exactly a move of ``me.moves``), the day's.
BUTTONS = {
    "mafia_target": {"target": form_seat}, "bobo": {"target": form_seat},
    **{kind: {"no": form_seat, "target": form_seat} for kind in ("gunman_target", "slime", "exhibit")},
    "tunnel": {"no": form_seat, "from": form_seat, "to": form_seat},
    "vote": {"candidate": form_seat}, "anarchist_shot": {"target": form_seat},
    **{kind: {} for kind in ("done", "withdraw", "ready", "astronom")},
    "pass": {"card": text, "no": form_seat},
    "medik": {"use": lambda raw: raw == "yes"},
    "defend": {"how": text},
}


def parse_action(post) -> dict:
    """Form fields of a phone's tap → an engine action (the engine validates everything)."""
    action = button_action(post, BUTTONS)
    if action is not None:
        return action
    if post.get("action") == "accuse":
        said = showable(post.get("text") or "")
        if len(said) > 200:
            raise FormError(_("Say it in at most 200 characters."))
        return {"type": "accuse", "target": form_seat(post.get("target")), "claim": post.get("claim", ""),
                "text": said or None}
    raise FormError(_("Unknown action."))
