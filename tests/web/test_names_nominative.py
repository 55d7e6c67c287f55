"""Names inside sentences (issue 17): a player's name always stands in the nominative, so no
Czech, Polish or Ukrainian sentence has to decline it ("Emil → Dáša: …", "Obvinění: Dáša
(obviňuje Emil)", never "obviňuje hráče Dáša"), and no line says a word twice ("Emil vítězí!
vítězí!").  Checked in Czech over the whole catalogue (every msgid that takes a name), over every
narration code of every ruleset, and over the story and narration of a random game of each."""

from __future__ import annotations

import gettext
import re

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from engines import registry
from mafiagames.presenters import presenter
from mafiagames.presenters.classic import words as classic_words
from mafiagames.presenters.mafie import words as mafie_words
from mafiagames.presenters.mrakoslapi import words as mrak_words
from tests.engines.playthrough import random_playthrough

# Czech names, women's and men's, none a part of a Czech word the app says.
NAMES = ["Dáša", "Emil", "Zuzka", "Ondra", "Bára", "Kuba", "Marie", "Tonda", "Věra", "Radek", "Jitka",
         "Pepa", "Hanka", "Luboš", "Olga", "Vašek", "Irena", "Mirek", "Šárka", "Franta", "Lída"]

# The placeholders that are filled with a player's name (or a list of names) ...
NAME_KEYS = {"seat", "seats", "shooter", "kmotr", "target", "holder", "approve_seats", "reject_seats",
             "candidate", "voters", "caller", "name", "names", "voter", "maker", "origin", "at", "from", "to",
             "agent", "doctor", "judge", "wizard", "first", "second", "among"}
# ... and the one-letter ones of the templates, names only in a line about players (an arrow, an
# accusation, the wizard's spell): elsewhere they count votes ("%(a)s–%(r)s").
LETTER_KEYS = {"a", "b", "d", "t", "w"}
# A name may follow a separator ("Obvinění: Dáša", "Emil → Dáša", "(Dáša)") or one of these words,
# after which Czech keeps the nominative: a verb whose subject the name is ("Umírá Dáša", "(hraje
# Emil)"), "je"/"jsi"/"jsem" ("Kmotrem je Dáša"), "jako" ("jako Dáša"), an apposition ("čaroděj Emil").
SEPARATORS = (":", "→", "←", "↔", "(", "—", "–", ",", ">", ".", "!", "?")
NOMINATIVE_AFTER = {"je", "jsi", "jsem", "jako", "umírá", "(hraje", "(obviňuje", "čaroděj",
                    "místo"}   # "místo 3 (Dáša)": the admin's seat number, then the name
# What a Czech sentence must not put before a name: a word that governs another case.
NEVER_BEFORE = {"hráče", "hráči", "hráčů", "hráčem", "na", "pro", "od", "do", "s", "se", "z", "ze", "k", "ke",
                "u", "o", "za", "mezi", "proti", "po", "před", "nad", "pod", "kartu", "roli", "telefon"}


def names_in_wrong_case(line: str, names: list[str]) -> list[str]:
    """Each name of ``names`` in ``line`` after a word that would make Czech decline it."""
    wrong = []
    for name in names:
        for match in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", line):
            before = line[:match.start()].rstrip()
            if not before or before.endswith(SEPARATORS):
                continue
            word = before.split()[-1].lower()
            if word in NEVER_BEFORE or word not in NOMINATIVE_AFTER:
                wrong.append(f"{word} {name}")
    return wrong


def doubled_words(line: str, names: list[str]) -> list[str]:
    """Words said twice in a row ("vítězí! vítězí!"); a name may follow itself ("→ Dáša. Dáša vypadává")."""
    words = re.findall(r"\w+", line.lower())
    lowered = {name.lower() for name in names}
    return [a for a, b in zip(words, words[1:]) if a == b and a not in lowered and not a.isdigit()]


def check(line: str, names: list[str], where: str, present: list[str] = ()) -> None:
    assert "(a)" not in line and "/sama" not in line, f"{where}: a gendered form after a name: {line!r}"
    for name in present:
        assert name in line, f"{where}: {name} not as given in {line!r}"
    assert not names_in_wrong_case(line, names), f"{where}: {names_in_wrong_case(line, names)} in {line!r}"
    assert not doubled_words(line, names), f"{where}: {doubled_words(line, names)} twice in {line!r}"


def czech_catalogue() -> dict:
    """The app's own Czech catalogue (not Django's, whose admin says "Položka %(name)s")."""
    with open(settings.BASE_DIR / "mafiagames" / "locale" / "cs" / "LC_MESSAGES" / "django.mo", "rb") as mo:
        return gettext.GNUTranslations(mo)._catalog


def name_keys(msgid: str) -> set[str]:
    keys = set(re.findall(r"%\((\w+)\)", msgid))
    letters = keys & LETTER_KEYS if re.search(r"→|Accused|wizard", msgid) else set()
    return (keys & NAME_KEYS) | letters


def test_every_czech_line_that_takes_a_name_keeps_it_in_the_nominative():
    catalogue = czech_catalogue()
    checked = 0
    for key, text in catalogue.items():
        msgid = key[0] if isinstance(key, tuple) else key
        keys = name_keys(msgid)
        if not keys or not text:
            continue
        filled = dict.fromkeys(re.findall(r"%\((\w+)\)", msgid), "7")
        given = dict(zip(sorted(keys), NAMES))
        line = text % {**filled, **given}
        check(line, NAMES, f"cs {msgid!r}", present=[given[k] for k in keys if f"%({k})s" in text])
        checked += 1
    assert checked > 100


def lines_of(table: dict) -> list:
    """Every line of a narration table: its values, the editions' lines of a dict value."""
    return [line for value in table.values() for line in (value.values() if isinstance(value, dict) else [value])]


@pytest.mark.parametrize("words", [classic_words, mafie_words, mrak_words], ids=["classic", "mafie", "mrakoslapi"])
def test_every_narration_code_names_its_players_as_given(words):
    """Each narration line of each ruleset (and the moments' lines) in Czech, its players' names
    put in every place a line has for them."""
    extra = {classic_words: [classic_words.OUT, classic_words.VOTED, classic_words.VOTED_TWICE],
             mafie_words: [mafie_words.VOTED_FOR, mafie_words.VOTED_AGAINST],
             mrak_words: list(mrak_words.EXECUTED.values())}[words]
    with translation.override("cs"):
        for line in [*lines_of(words.LINES), *extra]:
            with translation.override("en"):
                english = str(line)
            keys = name_keys(english)
            params = dict.fromkeys(re.findall(r"%\((\w+)\)", english), "3")
            given = dict(zip(sorted(keys), NAMES))
            text = words.fill(line, {**params, **given})
            assert text != english or not keys, f"untranslated: {english!r}"
            check(text, NAMES, f"cs {english!r}", present=list(given.values()))


def test_a_mrakoslapi_winner_is_told_once_on_the_tv_and_every_phone():
    """The phone's end panel once read "Emil vítězí! vítězí!": a whole sentence (the winner line)
    went into "%(team)s win!".  The panel shows the winner's line as it is."""
    with translation.override("cs"):
        line = mrak_words.winners_text([1], NAMES)
        assert line == "Emil vítězí!"   # and the reason says it in other words ("Vyhrává ten, kdo …")
        panel = render_to_string("screens/game_over_panel.html",
                                 {"i_won": False, "winner_line": line, "reason_text": str(mrak_words.REASONS["last_alive"])})
        said = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", panel))
        assert said.count("Emil vítězí!") == 1 and "vítězí! vítězí" not in said
        check(said, NAMES, "the end panel")
        over = mrak_words.narrate({"code": "game.over", "params": {"winners": [1]}}, NAMES, {})
        assert over == "Konec hry. Emil vítězí!"


GAMES = [("mafie", 7, {"plot_cards": True}), ("granna", 7, {"small_game_rule": True}),
         ("mafia_pl", 9, {"doctor": True, "wizard": True, "judge": True, "doctor_self_heal": True}),
         ("granna", 9, {"kids_retheme": True, "kids_last_shot_all": True}), ("mrakoslapi", 7, {})]


@pytest.mark.parametrize(("slug", "players", "options"), GAMES, ids=[f"{g[0]}-{i}" for i, g in enumerate(GAMES)])
def test_a_random_games_narration_and_story_keep_every_name(slug, players, options):
    ruleset = registry.engine(slug)
    names = NAMES[:players]
    pres = presenter(slug)
    for seed in (1, 2):
        play = random_playthrough(ruleset, players, {**{o.key: o.default for o in ruleset.options()}, **options}, seed)
        view = {"ruleset": slug, "options": play.options}
        items = {repr(item): item for step in play.steps for item in step.after.get("narration", [])}
        events = [*play.setup_events, *(event for step in play.steps for event in step.events)]
        with translation.override("cs"):
            for item in items.values():
                check(pres.narrate(item, names, view), names, f"{slug} narration {item}")
            for step in pres.story(events, names, slug, play.options):
                for line in step["lines"]:
                    check(line["text"], names, f"{slug} story {step['heading']}",
                          present=[names[seat] for seat in line["seats"] if names[seat] in line["text"]])
