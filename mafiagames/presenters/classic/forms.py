"""Classic Mafia: a phone's submitted form turned into an engine action (``parse_action``); the
engine validates it (legal moves, turn), this only reads the fields."""

from __future__ import annotations

from django.utils.translation import gettext as _

from .. import FormError, Maybe, button_action, form_seat, text
from .words import SKIP_LABELS
from .context import TARGET_ACTIONS


# The buttons whose fields are a move's (presenters.button_action): one per player named
# (the judge's vote may count double), and the buttons that decline.
BUTTONS = {
    **{kind: {"target": form_seat} for kind in TARGET_ACTIONS},
    "vote": {"target": form_seat, "double": Maybe(bool)},
    **{kind: {} for kind in SKIP_LABELS},
    # an action card (rules B.3.4): which, and whom it names if it names one
    "play_card": {"card": text, "target": Maybe(form_seat)},
}


def parse_action(post) -> dict:
    """Form fields of a phone's tap → an engine action (the engine validates everything)."""
    action = button_action(post, BUTTONS)
    if action is not None:
        return action
    if post.get("action") == "cast_swap":
        targets = [form_seat(raw) for raw in post.getlist("targets")]
        if len(targets) != 2:
            raise FormError(_("Pick exactly two players."))
        return {"type": "cast_swap", "targets": targets}
    raise FormError(_("Unknown action."))
