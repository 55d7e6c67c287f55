"""Cosa Nostra (engines/cosanostra/): views into words, maps and buttons.

The engine speaks in codes, cells, ring squares, card ids and seats; this package is the one
place they become families, square and card names, and a phone's buttons — each button exactly
one of the seat's legal actions.  In four modules by job: ``words`` (the translated tables and
sentences), ``context`` (what each template gets), ``forms`` (a submitted form into an action)
and ``story`` (the game told at its end).  This package exposes the presenter contract
(presenters/__init__.py).
"""

from .context import TEMPLATE_DIR, phone_board, phone_fragments, present
from .forms import parse_action
from .story import story
from .words import (ADVANCED_OPTIONS, ERRORS, HOST_MOVES, OPTION_CHOICES, OPTION_LABELS, TITLES, how_to_play,
                    moment_words, narrate, proxy_label, reason_words, role_text, role_words, side_words)

__all__ = [
    "TEMPLATE_DIR", "ERRORS", "present", "moment_words", "narrate", "parse_action", "phone_fragments", "phone_board",
    "role_text", "role_words", "reason_words", "TITLES", "side_words", "OPTION_LABELS", "OPTION_CHOICES",
    "ADVANCED_OPTIONS", "HOST_MOVES", "how_to_play", "story", "proxy_label",
]
