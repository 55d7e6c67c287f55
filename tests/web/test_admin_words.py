"""The admin in words (issue 17): rulesets, winners, reasons and event kinds read in the admin's
language, while its filters still filter by the codes the database holds."""

from __future__ import annotations

import re

import pytest

from mafiagames.models import Event, Game

from .helpers import room_with_players

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bob", "Cyd", "Dan", "Eve", "Fay"]


def finished(room, ruleset: str, winner: str, reason: str, options: dict | None = None) -> Game:
    return Game.objects.create(room=room, ruleset=ruleset, options=options or {}, seed=1, state={},
                               names=NAMES, seats=list(range(6)), status=Game.Status.FINISHED,
                               outcome={"winner": winner, "reason": reason, "winners": [0]})


@pytest.fixture
def games():
    room, _players = room_with_players(2)
    return {
        "mafie": finished(room, "mafie", "mafia", "three_successes"),
        "granna": finished(room, "granna", "police", "mafia_eliminated"),
        "mafia_pl": finished(room, "mafia_pl", "mafia", "police_eliminated"),
        "kids": finished(room, "granna", "mafia", "police_eliminated", {"kids_retheme": True}),
        "mrakoslapi": finished(room, "mrakoslapi", "last_alive", "last_alive"),
    }


def cells(html: str, field: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(rf'class="field-{field}[^"]*">(.*?)</t[dh]>', html, re.S)]


def test_the_game_list_shows_rulesets_winners_and_reasons_in_czech(admin_client, games):
    html = admin_client.get("/admin/mafiagames/game/", HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    assert set(cells(html, "ruleset_words")) == {"Mafie", "Mafie (GRANNA)", "Mafie (polská)", "Mrakošlapi"}
    assert set(cells(html, "winner")) == {"Mafie", "Policie", "Gang", "Rošťáci", "Poslední živý"}
    assert set(cells(html, "reason")) == {"Tři akce se vydařily.", "Žádný Mafián už nehraje.",
                                          "Nezbyl žádný policista.", "Nezbyl žádný Kadet.",
                                          "Vyhrává ten, kdo zůstane naživu poslední."}
    for code in ("last_alive", "three_successes", "police_eliminated", "mafia_pl"):
        assert f">{code}<" not in html            # no code stands alone as words


def test_the_game_list_in_english_reads_the_editions_own_words(admin_client, games):
    html = admin_client.get("/admin/mafiagames/game/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert set(cells(html, "ruleset_words")) == {"Mafie", "Mafia (GRANNA)", "Mafia (Polish)", "Mrakošlapi"}
    assert set(cells(html, "winner")) == {"The Mafia", "The Police", "The gang", "The Rascals", "The last one alive"}


def test_the_filters_show_words_and_filter_by_the_codes(admin_client, games):
    html = admin_client.get("/admin/mafiagames/game/", HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    assert re.search(r'href="\?ruleset=mafia_pl"[^>]*>Mafie \(polská\)</a>', html)
    # one code, the words of every ruleset that has it
    assert re.search(r'href="\?winner=mafia"[^>]*>Gang / Mafie / Rošťáci</a>', html)
    assert re.search(r'href="\?winner=last_alive"[^>]*>Poslední živý</a>', html)
    polish = admin_client.get("/admin/mafiagames/game/?ruleset=mafia_pl", HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    assert cells(polish, "ruleset_words") == ["Mafie (polská)"]
    mafia = admin_client.get("/admin/mafiagames/game/?winner=mafia").content.decode()
    assert sorted(int(pk) for pk in re.findall(r'/admin/mafiagames/game/(\d+)/change/', mafia)) == sorted(
        {games[key].pk for key in ("mafie", "mafia_pl", "kids")})


def test_a_games_events_show_their_kind_in_words(admin_client, games):
    game = games["mafie"]
    Event.objects.create(game=game, seq=0, version=0, kind="roles_dealt", audience="nobody", data={})
    Event.objects.create(game=game, seq=1, version=1, kind="action_revealed", audience="public", data={})
    Event.objects.create(game=game, seq=2, version=1, kind="an_unknown_kind", audience="public", data={})
    html = admin_client.get(f"/admin/mafiagames/game/{game.pk}/change/", HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    kinds = re.findall(r'field-kind_words">\s*<p>([^<]*)</p>', html)
    assert kinds == ["role rozdány", "výsledek akce", "an_unknown_kind"]   # an unknown kind: its code
    assert "Mafie" in re.findall(r'field-ruleset_words">.*?<div class="readonly">([^<]*)</div>', html, re.S)


@pytest.mark.parametrize("page", ["game", "room", "player"])
def test_every_column_and_filter_heading_is_in_the_admins_language(admin_client, games, page):
    """Each model's fields carry their words (models.py): no English heading in a Czech admin."""
    def headings(language: str) -> list[str]:
        html = admin_client.get(f"/admin/mafiagames/{page}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        columns = re.findall(r'<th scope="col" class="[^"]*column-[^"]*">(.*?)</th>', html, re.S)
        filters = re.findall(r"<summary>(.*?)</summary>", html, re.S)
        return [re.sub(r"<[^>]+>|\s+", " ", words).strip().lower() for words in columns + filters]

    english = set(headings("en")) - {"id", "token"}   # the same word in Czech
    czech = headings("cs")
    assert czech
    for words in czech:
        assert words.removeprefix("dle: ") not in english, words
