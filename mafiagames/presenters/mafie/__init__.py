"""Mafie (MINDOK, The Resistance re-themed): words and template context for its views.

Narration follows docs/rules/mafie.md §A.4; the theme is the Czech one (rules A.0):
the majority are mafiosi who want jobs to succeed, the detectives sabotage them.

In three modules by job: ``words`` (the translated tables and sentences), ``context`` (what
each template gets), ``forms`` (a submitted form into an action).  This package exposes the
presenter contract (presenters/__init__.py).
"""

from .context import TEMPLATE_DIR, audience_poll, present, phone_fragments, phone_board, tv_parts
from .forms import parse_action
from .story import story
from .words import (ERRORS, moment_words, narrate, role_text, role_words, reason_words, TITLES, side_words, OPTION_LABELS, OPTION_CHOICES, proxy_label,
                    how_to_play)

__all__ = [
    "TEMPLATE_DIR", "audience_poll", "ERRORS", "present", "moment_words", "narrate", "parse_action", "phone_fragments", "phone_board",
    "role_text", "role_words", "reason_words", "TITLES", "side_words", "OPTION_LABELS", "OPTION_CHOICES", "proxy_label", "tv_parts", "how_to_play", "story",
]
