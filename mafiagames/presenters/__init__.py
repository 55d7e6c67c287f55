"""Per-ruleset presenters: turn an engine's view dict into template context and sentences.

Engines speak in codes and seat numbers (DESIGN.md §4 i18n); presenters are the one place
those codes become translated words and seats become names.  Each presenter module
exposes ``present(view, names) -> dict`` and ``narrate(item, names, view) -> str`` (the view
says whose words to use: an edition, a re-theme).
"""

import functools
import json
import marshal
from importlib import import_module

from django.utils.translation import gettext, gettext_lazy


# Rulesets that share one engine share its presenter (the editions of classic Mafia).
_MODULE_OF = {"granna": "classic", "mafia_pl": "classic"}


# What every presenter module provides (rendering.py, taps.py and views call these) ...
REQUIRED = ("TEMPLATE_DIR", "ERRORS", "present", "narrate", "parse_action", "panel_key", "board_key", "role_text")
# ... and what it may leave out, with what stands in for a part left out.
OPTIONAL = {
    "OPTION_LABELS": {},     # option key → (label, help) in the ruleset's words; else the engine's English
    "OPTION_CHOICES": {},    # option key → {choice: words}
    "HOST_MOVES": {},        # host move type → button label; else the type
    "proxy_label": None,     # (move, names) → the words of a choice the host makes for a seat
    "tv_parts": None,        # (view, context) → the TV's pieces, each rendered once per distinct context
    "phone_parts": None,     # (view) → a phone's pieces
    "role_key": None,        # (view) → the key of a phone's role card; else role, partners, what it learnt
}


def check_presenter(module) -> None:
    """Refuse, naming the part, a presenter module that lacks a required part (at start-up,
    apps.py, not later on somebody's screen)."""
    for name in REQUIRED:
        if not hasattr(module, name):
            raise TypeError(f"presenter {module.__name__} has no {name} (mafiagames/presenters/__init__.py)")


# Presenters of rulesets kept in a folder of their own (settings.EXTRA_RULESETS, apps.py).
_EXTRA: dict = {}


def register(slug: str, module) -> None:
    """The presenter of a ruleset kept outside this package, checked like the built-in ones."""
    check_presenter(module)
    _EXTRA[slug] = module
    presenter.cache_clear()


@functools.cache
def presenter(slug: str):
    module = _EXTRA.get(slug) or import_module(f"mafiagames.presenters.{_MODULE_OF.get(slug, slug)}")
    check_presenter(module)
    return module


def part(slug: str, name: str):
    """An optional part of a ruleset's presenter (``OPTIONAL``), or what stands in for it."""
    return getattr(presenter(slug), name, OPTIONAL[name])


class FormError(ValueError):
    """A phone's form could not be turned into an action; the text is for the player."""


def form_seat(raw) -> int:
    """A seat number from a phone's form field, or a clear refusal (a forged or empty field)."""
    try:
        return int(raw)
    except (TypeError, ValueError):
        raise FormError(gettext("Not a player: %(value)s") % {"value": raw}) from None


# Words for the refusals every engine shares (engines.base.handler_for, and the turn checks each
# engine makes); a presenter's ERRORS adds its own ruleset's codes to these.
COMMON_ERRORS = {
    "bad_action": gettext_lazy("That request was malformed."),
    "unknown_action": gettext_lazy("Unknown action."),
    "bad_seat": gettext_lazy("You are not playing in this game."),
    "game_over": gettext_lazy("This game is over."),
    "wrong_phase": gettext_lazy("That is not possible right now."),
    "not_your_turn": gettext_lazy("It is not your turn."),
    # The host acting for a player (engines/base.py "proxy", "remove_player").
    "not_proxiable": gettext_lazy("The host cannot make that choice for a player."),
    "bad_proxy": gettext_lazy("That request was malformed."),
    "host_only": gettext_lazy("Only the host can do that."),
    "no_removal": gettext_lazy("Nobody leaves a game of Mafie: vote for the player, or end the game."),
    "not_removable": gettext_lazy("The host can remove a living player by day only."),
    "target_dead": gettext_lazy("Pick a player still in the game."),
}


def key_of(value) -> bytes | str:
    """A memo key for ``value`` (rendering.py): equal keys, equal contents.

    marshal (format 2, which never shares repeated objects) writes the plain types that views
    and piece contexts are made of exactly, 5–8× faster than ``json.dumps(sort_keys=True)``:
    phones and the TV make some fifty keys per tap (docs/performance.md).  Anything else (a
    lazy translation, a safe string) is written as JSON instead, which a bytes key never
    equals.  Dicts are taken in the order they were built: equal contents built in another
    order only cost one more rendering."""
    try:
        return marshal.dumps(value, 2)
    except ValueError:
        return json.dumps(value, sort_keys=True, default=str)


def fill(line, params: dict) -> str:
    """A narration line (lazy text with %(name)s places) filled in; "" when there is no line or
    a translation's places do not match the parameters (a line is never worth a crashed screen)."""
    try:
        return str(line) % params if line is not None else ""
    except (KeyError, TypeError, ValueError):
        return ""


def public_view(view: dict) -> dict:
    """A phone's view without its own part and the narration (which has a fragment of its own):
    what every phone of the table may be shown alike."""
    return {key: value for key, value in view.items() if key not in ("me", "narration")}


def own_view(view: dict) -> dict:
    """The phone's own part of its view, but its seat number: phones with equal parts share
    one rendering (rendering.py)."""
    return {key: value for key, value in view["me"].items() if key != "seat"}


def error_message(slug: str, exc) -> str:
    """A refusal (an engine's ``EngineError``) in the words of the ruleset's presenter
    (its ``ERRORS``, by code), else the engine's own English text."""
    return str(presenter(slug).ERRORS.get(exc.code, exc.message))
