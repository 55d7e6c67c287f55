"""i18n: English and Czech are complete, current, and used for the room's screens."""

from __future__ import annotations

import ast
import gettext
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation
from django.utils.translation import ngettext

from engines import registry
from mafiagames.rendering import tv_screen

from .helpers import player_client, started_game
from .test_no_leak_rendered import table_for

ROOT = Path(__file__).resolve().parents[2]
# Every language but the source's (English), as settings lists them: a language added there is
# held to the same checks.
TRANSLATED = [code for code, _name in settings.LANGUAGES if code != "en"]


def catalogue(language: str) -> Path:
    return ROOT / f"mafiagames/locale/{language}/LC_MESSAGES/django.po"


PO = catalogue("cs")
MO = PO.with_suffix(".mo")


def parse_po(text: str) -> list[dict]:
    """Entries of a .po file: msgid, its context (None without one), plural, msgstr list, flags."""
    entries, entry, field = [], None, None
    for line in text.splitlines() + [""]:
        if not line.strip():
            if entry:
                entries.append(entry)
            entry, field = None, None
            continue
        entry = entry or {"msgid": "", "context": None, "plural": None, "msgstr": {}, "flags": set()}
        if line.startswith("#,"):
            entry["flags"] |= {f.strip() for f in line[2:].split(",")}
        elif line.startswith("#"):
            continue
        elif line.startswith("msgctxt "):
            field, entry["context"] = "context", ast.literal_eval(line[8:])
        elif line.startswith("msgid_plural "):
            field, entry["plural"] = "plural", ast.literal_eval(line[13:])
        elif line.startswith("msgid "):
            field, entry["msgid"] = "msgid", ast.literal_eval(line[6:])
        elif line.startswith("msgstr"):
            key, _, value = line.partition(" ")
            index = int(key[7:-1]) if "[" in key else 0
            field = ("msgstr", index)
            entry["msgstr"][index] = ast.literal_eval(value)
        elif line.startswith('"'):
            if isinstance(field, tuple):
                entry["msgstr"][field[1]] += ast.literal_eval(line)
            else:
                entry[field] += ast.literal_eval(line)
    return [e for e in entries if e["msgid"]]


def plural_forms(po: Path) -> tuple[int, str]:
    """The catalogue's number of plural forms and its formula (a C expression in ``n``)."""
    header = parse_po_header(po.read_text())
    found = re.search(r"nplurals=(\d+);\s*plural=(.+?);?\s*$", header["Plural-Forms"])
    return int(found.group(1)), found.group(2)


def parse_po_header(text: str) -> dict[str, str]:
    header = re.search(r'^msgid ""\nmsgstr ""\n((?:".*"\n)+)', text, re.M).group(1)
    lines = "".join(ast.literal_eval(line) for line in header.splitlines()).splitlines()
    return dict(line.split(": ", 1) for line in lines if ": " in line)


def plural_index(formula: str, n: int) -> int:
    """The C formula of a Plural-Forms header evaluated for ``n`` (gettext's own reading)."""
    return gettext.c2py(formula)(n)


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_catalogue_is_complete_and_compiled(language):
    po = catalogue(language)
    entries = parse_po(po.read_text())
    assert len(entries) > 150
    forms, _formula = plural_forms(po)
    for entry in entries:
        assert "fuzzy" not in entry["flags"], entry["msgid"]
        found = entry["msgstr"]
        assert found and all(found.values()), f"untranslated in {language}: {entry['msgid']!r}"
        if entry["plural"]:
            assert sorted(found) == list(range(forms)), f"{language} needs {forms} plural forms: {entry['msgid']!r}"
    compiled = gettext.GNUTranslations(po.with_suffix(".mo").open("rb"))
    for entry in entries:
        if not entry["plural"]:
            found = (compiled.pgettext(entry["context"], entry["msgid"]) if entry["context"] is not None
                     else compiled.gettext(entry["msgid"]))
            assert found == entry["msgstr"][0], f".mo is stale for {entry['msgid']!r}"


# Which form a count takes, by grammar (1, 2, 5, 21): Czech "1 hráč, 2 hráči, 5 hráčů, 21 hráčů";
# Polish "1 gracz, 2 graczy… 2 gracze, 5 graczy, 21 graczy"; Ukrainian "1 гравець, 2 гравці,
# 5 гравців, 21 гравець".  The form a catalogue's formula picks must be the one that grammar
# needs, and a catalogue's forms for "few" and "many" must differ where the grammar tells them apart.
GRAMMAR = {"cs": {1: "one", 2: "few", 5: "many", 21: "many"},
           "pl": {1: "one", 2: "few", 5: "many", 21: "many"},
           "uk": {1: "one", 2: "few", 5: "many", 21: "one"}}


@pytest.mark.parametrize("language", TRANSLATED)
def test_plural_forms_follow_each_languages_grammar_for_1_2_5_and_21(language):
    _forms, formula = plural_forms(catalogue(language))
    grammar = GRAMMAR[language]
    index = {n: plural_index(formula, n) for n in grammar}
    for a in grammar:
        for b in grammar:   # two counts share a form exactly when the grammar says so
            assert (index[a] == index[b]) == (grammar[a] == grammar[b]), (language, a, b, index)
    with translation.override(language):
        for n in grammar:
            line = ngettext("Waiting for %(n)s more player to see their role.",
                            "Waiting for %(n)s more players to see their role.", n) % {"n": n}
            assert str(n) in line and "Waiting" not in line, line
        lines = {grammar[n]: ngettext("%(n)s vote", "%(n)s votes", n) for n in grammar}
    assert len(set(lines.values())) == len(lines), f"{language}: one word for two forms in {lines}"


@pytest.mark.skipif(not shutil.which("xgettext"), reason="gettext is not installed")
def test_every_catalogue_holds_every_translatable_string_in_the_code(tmp_path):
    """makemessages on a copy finds no msgid that a committed catalogue lacks."""
    copy = tmp_path / "repo"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".venv", ".git", "test-results", "*.sqlite3*"))
    subprocess.run([sys.executable, "manage.py", "makemessages", *(f"-l{code}" for code in TRANSLATED),
                    "--ignore=tests", "--ignore=bench", "--ignore=.venv"], cwd=copy, check=True, capture_output=True)
    for language in TRANSLATED:
        po = catalogue(language)
        fresh = {e["msgid"] for e in parse_po((copy / po.relative_to(ROOT)).read_text())}
        committed = {e["msgid"] for e in parse_po(po.read_text())}
        assert fresh - committed == set(), f"run makemessages -l {language} and translate the new strings"


@pytest.mark.django_db
def test_a_czech_room_speaks_czech_on_pages_and_fragments():
    room, players, game = started_game(language="cs")
    page = player_client(players[0]).get(f"/p/{room.code}/").content.decode()
    assert "Mám hotovo" in page
    table = table_for(registry.get("mafie"), game.state, 5, "cs")
    narration = tv_screen(table, host=False)["tv-narration"]
    assert "dvacátá léta" in narration.lower()
    assert "The twenties" not in narration


def test_every_engine_narration_code_has_words():
    """Each narration code the engine can emit renders to a non-empty sentence in both languages."""
    from django.utils import translation

    from mafiagames.presenters import presenter
    from tests.engines.playthrough import option_combinations, random_playthrough

    ruleset = registry.get("mafie")
    seen = set()
    for index, options in enumerate(option_combinations(ruleset)):  # also those not offered yet
        for players in (5, 7, 10):
            play = random_playthrough(ruleset, players, options, index)
            for state in play.states:
                for item in state["narration"]:
                    seen.add(item["code"])
                    for language in ("en", *TRANSLATED):
                        with translation.override(language):
                            text = presenter("mafie").narrate(item, [f"P{i}" for i in range(players)])
                        assert text, f"no {language} words for {item}"
    assert {"setup", "vote", "reveal", "approved", "rejected"} <= seen


@pytest.mark.parametrize("slug", ["granna", "mafia_pl"])
def test_every_classic_narration_code_has_words_in_every_edition_and_theme(slug):
    """Classic Mafia: each line the engine can say renders in English and Czech, in the words of
    the edition and of the children's re-theme (presenters.classic.LINES)."""
    from django.utils import translation

    from mafiagames.presenters import classic
    from tests.engines.playthrough import option_combinations, random_playthrough

    ruleset = registry.get(slug)
    seen = set()
    for index, options in enumerate(option_combinations(ruleset)):
        for players in (ruleset.min_players, 9, 20):
            play = random_playthrough(ruleset, players, options, index)
            for state in play.states[::3] + [play.final]:
                view = ruleset.view(state, None)
                for item in state["narration"]:
                    seen.add(item["code"])
                    for language in ("en", *TRANSLATED):
                        with translation.override(language):
                            text = classic.narrate(item, [f"P{i}" for i in range(players)], view)
                        assert text, f"no {language} words for {item} in {slug}"
                        assert "%(" not in text
    assert {"setup", "night", "mafia_step", "dawn", "discussion", "vote", "lynched"} <= seen


def test_every_classic_refusal_has_translated_words():
    import re as regex

    from engines import classic
    from mafiagames.presenters import classic as words

    import engines.base
    # every file of the engine (engines/classic/, split by rulebook chapter)
    source = Path(engines.base.__file__).read_text() + "".join(
        path.read_text() for path in sorted(Path(classic.__file__).parent.glob("*.py")))
    codes = set(regex.findall(r'(?:IllegalAction|MalformedAction)\("([a-z_]+)"', source))
    codes |= set(regex.findall(r'_checked_target\([^)]*"([a-z_]+)"\)', source)) | {"self_target"}
    assert len(codes) > 15
    assert codes <= set(words.ERRORS), f"add words for {sorted(codes - set(words.ERRORS))}"


def test_every_refusal_the_engine_can_raise_has_translated_words():
    """Engines speak English codes; each code a player can meet is worded by the presenter."""
    import re as regex

    from engines import mafie
    from mafiagames.presenters import mafie as words

    import engines.base
    sources = [Path(engines.base.__file__), *sorted(Path(mafie.__file__).parent.glob("*.py"))]   # the ruleset's folder
    source = "".join(path.read_text() for path in sources)
    codes = set(regex.findall(r'(?:IllegalAction|MalformedAction)\("([a-z_]+)"', source))
    assert len(codes) > 15
    assert codes <= set(words.ERRORS), f"add words for {sorted(codes - set(words.ERRORS))}"
