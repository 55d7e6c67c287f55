"""No English left untranslated (issue 17): every screen of random games of every ruleset,
rendered in a pseudo-language whose every translated string is wrapped in markers, shows no
word outside the markers but the players' names.  A word a screen shows without passing
through gettext (hard-coded English, a code printed raw) would stand outside them, and stay
English in Polish, Czech and Ukrainian alike.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import trans_real

from engines import registry
from engines.mrakoslapi.cards import CARD_TYPES
from mafiagames import languages
from mafiagames.rendering import phone_screen, tv_screen
from tests.web.test_no_leak_rendered import AUDIENCE, NAMES, sample_games, spread, table_for

PSEUDO = "x-pseudo"
OPEN, CLOSE = "⟦", "⟧"
# What a screen may show that no language translates: the players' names, the room's code, each
# language's own name in the language menus (languages.choices), and the Mrakošlapi cards' Czech
# names, printed on the cards (docs/rules/mrakoslapi.md, "Card names": the same in every language).
UNTRANSLATED = sorted({*NAMES, "<i>Zoe</i>", "TEST", PSEUDO.upper(), *(choice["name"] for choice in languages.choices()),
                       *(name for name, _copies in CARD_TYPES.values())},
                      key=len, reverse=True)
# Attributes a player reads or hears (a screen reader reads labels; a confirm box shows its text).
SHOWN_ATTRIBUTES = {"aria-label", "title", "placeholder", "alt", "hx-confirm"}


class Pseudo(trans_real.DjangoTranslation):
    """English, each translated string wrapped in markers (a context's msgid without its context)."""

    def __init__(self):
        super().__init__("en")
        self._PSEUDO = True

    def gettext(self, message):
        if trans_real.CONTEXT_SEPARATOR in message:
            message = message.split(trans_real.CONTEXT_SEPARATOR, 1)[1]
        return f"{OPEN}{message}{CLOSE}"

    def ngettext(self, singular, plural, number):
        return self.gettext(singular if number == 1 else plural)

    def to_language(self):
        return PSEUDO


@pytest.fixture
def pseudo():
    trans_real._translations[PSEUDO] = Pseudo()
    try:
        yield PSEUDO
    finally:
        del trans_real._translations[PSEUDO]


class Shown(HTMLParser):
    """The text a screen shows: its text nodes and the attributes read to a player."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.skipping = 0

        self.flow: list[str] = []   # the text nodes in order: a marked line may hold markup

    def handle_starttag(self, tag, attrs):
        self.skipping += tag in ("script", "style")
        self.texts.extend(value for name, value in attrs if name in SHOWN_ATTRIBUTES and value)

    def handle_endtag(self, tag):
        self.skipping -= tag in ("script", "style")

    def handle_data(self, data):
        if not self.skipping:
            self.flow.append(data)

    def shown(self) -> list[str]:
        return [*self.texts, "".join(self.flow)]


def english_left(fragment: str) -> list[str]:
    """What of ``fragment`` stands outside every marker and is not a name: words that no
    language would translate."""
    parser = Shown()
    parser.feed(fragment)
    left = []
    for text in parser.shown():
        text = html.unescape(text)
        while True:   # innermost markers first: a translated line may hold a translated word
            shorter = re.sub(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}", " ", text)
            if shorter == text:
                break
            text = shorter
        for name in UNTRANSLATED:
            text = text.replace(name, " ")
        left += re.findall(r"[^\W\d_]{2,}", text)
    return left


def screens_in(language: str, ruleset):
    """Every screen of the sample games: the host's TV, each seat's phone and the audience's."""
    for play in sample_games(ruleset)[:3]:
        for state in spread(play.states, 12) + [play.final]:
            table = table_for(ruleset, state, play.players, language, events=play.events)
            yield "tv", tv_screen(table, host=True)
            for seat in range(play.players):
                yield f"seat {seat}", phone_screen(table, 100 + seat)
            yield "audience", phone_screen(table, AUDIENCE)


@pytest.mark.parametrize("ruleset", registry.all(), ids=lambda r: r.slug)
def test_every_screen_of_every_ruleset_is_all_translated(ruleset, pseudo):
    found: dict[str, str] = {}
    with translation.override(pseudo):
        for where, screen in screens_in(pseudo, ruleset):
            for fragment_id, fragment in screen.items():
                for word in english_left(fragment):
                    at = fragment.find(word)
                    found.setdefault(word, f"{where} {fragment_id}: …{fragment[max(0, at - 60):at + 40]}…")
    assert not found, f"untranslated on {ruleset.slug}'s screens: {found}"


def test_the_pages_around_the_screens_are_all_translated(pseudo):
    with translation.override(pseudo):
        for template, context in [("home.html", {"language": "en"}), ("join.html", {"heading": "", "players": []})]:
            assert english_left(render_to_string(template, context)) == [], template


def test_the_check_finds_an_untranslated_word(pseudo):
    """The check itself: a word outside the markers is found, names and markers are not."""
    assert english_left(f"<p>{OPEN}Vote{CLOSE} Alice <b title='{OPEN}x{CLOSE}'>{OPEN}a {OPEN}b{CLOSE}{CLOSE}</b></p>") == []
    assert english_left(f"<p>{OPEN}Vote{CLOSE}: Mafioso</p>") == ["Mafioso"]
    assert english_left("<button aria-label='Close'>✕</button>") == ["Close"]
