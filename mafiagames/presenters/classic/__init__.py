"""Classic Mafia (engines/classic/: GRANNA ``granna`` and Polish ``mafia_pl``): views into words.

The engine speaks in codes and seats; this module is the one place they become sentences and
names, in the edition's own words (rules B.4 and C.4 narration tables): GRANNA's Spytown with
Mafiosi and Policemen, the Polish city with its gang, and the children's "Police Academy"
(option ``kids_retheme``, rules B.3.3 4.) with Rascals and Cadets, never "Mafia".

In three modules by job: ``words`` (the translated tables and sentences), ``context`` (what
each template gets), ``forms`` (a submitted form into an action).  This package exposes the
presenter contract (presenters/__init__.py).
"""

from .context import TEMPLATE_DIR, audience_poll, present, phone_fragments, phone_board
from .forms import parse_action
from .story import story
from .words import (ERRORS, moment_words, narrate, role_text, role_words, reason_words, TITLES, side_words, OPTION_LABELS, OPTION_CHOICES, ADVANCED_OPTIONS,
                    HOST_MOVES, proxy_label, how_to_play)

__all__ = [
    "TEMPLATE_DIR", "audience_poll", "ERRORS", "present", "moment_words", "narrate", "parse_action", "phone_fragments", "phone_board",
    "role_text", "role_words", "reason_words", "TITLES", "side_words", "OPTION_LABELS", "OPTION_CHOICES", "ADVANCED_OPTIONS", "HOST_MOVES",
    "proxy_label", "how_to_play", "story",
]
