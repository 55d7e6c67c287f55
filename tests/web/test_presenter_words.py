"""Option words live in one place: the presenter's words (``OPTION_LABELS``, ``OPTION_CHOICES``).

An engine's ``Option`` carries no words (key, default, kind, the values of its choices); the
screens show the presenter's, translated.  Every option a host is offered must have them there:
its label, its help, and the words of each of its choices.
"""

from __future__ import annotations

import pytest
from django.utils import translation

from engines import registry
from mafiagames.presenters import presenter


@pytest.mark.parametrize("ruleset", registry.all(), ids=lambda r: r.slug)
def test_every_offered_option_has_its_label_help_and_choice_words_in_the_presenter(ruleset):
    labels, choice_words = presenter(ruleset.slug).OPTION_LABELS, presenter(ruleset.slug).OPTION_CHOICES
    missing = []
    with translation.override("en"):
        for option in ruleset.options():
            if not option.offered:
                continue
            label, help_text = labels.get(option.key, ("", ""))
            if not str(label):
                missing.append(f"{option.key}: label")
            if not str(help_text):
                missing.append(f"{option.key}: help")
            words = choice_words.get(option.key, {})
            missing += [f"{option.key}={value}: words" for value in option.choices if not str(words.get(value, ""))]
    assert not missing, f"{ruleset.slug}'s presenter lacks the words of: {', '.join(missing)}"
