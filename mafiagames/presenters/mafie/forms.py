"""Mafie: a phone's submitted form turned into an engine action (``parse_action``); the engine
validates it (legal moves, turn), this only reads the fields."""

from __future__ import annotations

from django.utils.translation import gettext as _

from .. import FormError, Maybe, button_action, form_seat


# The buttons whose fields are a move's (presenters.button_action): ready, and the plot cards'
# choices (context._plot_choices sends exactly a move of ``me.plot_moves``).
BUTTONS = {
    "ready": {}, "pass_plot": {},
    "assign_plot_card": {"card": form_seat, "to": form_seat},
    "overhear": {"target": form_seat}, "open_up": {"target": form_seat},
    "take_plot_card": {"target": form_seat, "card": form_seat},
    "play_plot_card": {"card": form_seat, "target": Maybe(form_seat)},
}


def parse_action(post) -> dict:
    """Form fields of a phone's tap → an engine action (the engine validates everything)."""
    action = button_action(post, BUTTONS)
    if action is not None:
        return action
    kind = post.get("action", "")
    if kind == "propose_team":
        action = {"type": "propose_team", "team": [form_seat(s) for s in post.getlist("team")]}
        if post.get("slot"):
            action["slot"] = form_seat(post["slot"])
        return action
    if kind == "vote":
        choice = post.get("choice")
        if choice not in ("approve", "reject"):
            raise FormError(_("Choose approve or reject."))
        return {"type": "vote", "approve": choice == "approve"}
    if kind == "play_action_card":
        card = post.get("card")
        if card not in ("success", "fail"):
            raise FormError(_("Choose Success or Fail."))
        return {"type": "play_action_card", "card": card}
    raise FormError(_("Unknown action."))
