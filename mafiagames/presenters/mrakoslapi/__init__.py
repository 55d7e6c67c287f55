"""Mrakošlapi (engines/mrakoslapi/): views into words and buttons.

The engine speaks in codes, card ids and seats; this module is the one place they become
sentences, card names and player names.  Card names stay the rulebook's Czech names in every
language (they are the names printed on the cards); what a card does is translated.

What each screen may show is the engine's business (rules §3, ``engine.view``): the TV gets the
table, the morning and day announcements and the raw hands; a phone its own cards, notices and
night prompts.  Every button here is one of ``me.moves`` — nothing is offered that the engine
would refuse.

In three modules by job: ``words`` (the translated tables and sentences), ``context`` (what
each template gets), ``forms`` (a submitted form into an action).  This package exposes the
presenter contract (presenters/__init__.py).
"""

from .context import TEMPLATE_DIR, audience_poll, present, phone_fragments, phone_board
from .forms import parse_action
from .story import story
from .words import (ERRORS, moment_words, narrate, role_text, role_words, reason_words, TITLES, side_words, OPTION_LABELS, OPTION_CHOICES, ADVANCED_OPTIONS,
                    HOST_MOVES, how_to_play)

__all__ = [
    "TEMPLATE_DIR", "audience_poll", "ERRORS", "present", "moment_words", "narrate", "parse_action", "phone_fragments", "phone_board",
    "role_text", "role_words", "reason_words", "TITLES", "side_words", "OPTION_LABELS", "OPTION_CHOICES", "ADVANCED_OPTIONS", "HOST_MOVES",
    "how_to_play", "story",
]
