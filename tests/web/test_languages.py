"""A language per phone (issue 17): the room speaks its language on the TV; each phone its own,
first the browser's, then what its player picks on the join page or from the phone's menu."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client, RequestFactory
from django.utils import translation
from django.utils.translation import gettext

from mafiagames import languages, services
from mafiagames.models import Player, Room
from mafiagames.rendering import phone_screen
from mafiagames.tables import load_table

from .helpers import host_client, player_client, room_with_players, started_game

CODES = [code for code, _name in settings.LANGUAGES]


def page_language(html: str) -> str:
    return re.search(r'<html lang="([^"]+)"', html).group(1)


def words(language: str, msgid: str) -> str:
    with translation.override(language):
        return gettext(msgid)


def test_the_four_languages_of_the_design_are_offered_each_in_its_own_words():
    assert CODES == ["en", "cs", "pl", "uk"]
    assert [choice["name"] for choice in languages.choices()] == ["English", "Čeština", "Polski", "Українська"]


@pytest.mark.parametrize(("cookie", "header", "expected"), [
    ("", "", "cs"),                         # nothing we speak: the room's
    ("", "de-DE,de;q=0.9", "cs"),
    ("", "de-DE,pl;q=0.8,uk;q=0.5", "pl"),  # the first of its preferences we speak
    ("", "uk-UA", "uk"),
    ("en", "uk-UA", "en"),                  # a choice made on our pages comes first
    ("xx", "uk-UA", "uk"),                  # a cookie we do not speak counts for nothing
])
def test_a_browsers_language_is_its_choice_then_its_preferences_then_the_rooms(cookie, header, expected):
    request = RequestFactory().get("/", HTTP_ACCEPT_LANGUAGE=header)
    if cookie:
        request.COOKIES[settings.LANGUAGE_COOKIE_NAME] = cookie
    assert languages.browser_language(request, "cs") == expected


@pytest.mark.django_db
def test_a_phone_joins_in_its_browsers_language_and_keeps_it_on_its_own_pages():
    room, _players = room_with_players(3, language="cs")
    browser = Client(HTTP_ACCEPT_LANGUAGE="uk-UA,uk;q=0.9,en;q=0.5")
    join = browser.get(f"/j/{room.code}/").content.decode()
    assert page_language(join) == "uk"
    browser.post(f"/j/{room.code}/", {"name": "Olena"})
    olena = Player.objects.get(room=room, name="Olena")
    assert olena.language == "uk"
    assert page_language(browser.get(f"/p/{room.code}/").content.decode()) == "uk"
    # The TV speaks the room's language, whatever the browser showing it prefers.
    tv = Client(HTTP_ACCEPT_LANGUAGE="uk-UA").get(f"/r/{room.code}/").content.decode()
    assert page_language(tv) == "cs" and 'data-lang="cs"' in tv


@pytest.mark.django_db
def test_the_join_page_offers_every_language_and_the_choice_sticks():
    room, _players = room_with_players(2, language="en")
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    page = browser.get(f"/j/{room.code}/").content.decode()
    for code in CODES:
        assert f'name="language" value="{code}"' in page
    answer = browser.post("/i18n/setlang/", {"language": "cs", "next": f"/j/{room.code}/"})
    assert answer.status_code == 302 and answer["Location"] == f"/j/{room.code}/"
    page = browser.get(f"/j/{room.code}/").content.decode()
    assert page_language(page) == "cs" and words("cs", "Your name") in page
    browser.post(f"/j/{room.code}/", {"name": "Dáša"})
    assert Player.objects.get(room=room, name="Dáša").language == "cs"


@pytest.mark.django_db
def test_the_phones_menu_changes_its_language_for_good_and_bad_input_changes_nothing():
    room, players = room_with_players(3, language="en")
    phone = player_client(players[0])
    assert 'value="cs"' in phone.get(f"/p/{room.code}/").content.decode()   # the menu, in the header
    version = Room.objects.get(pk=room.pk).version
    answer = phone.post(f"/p/{room.code}/language", {"language": "cs"})
    assert answer.status_code == 204 and answer["HX-Refresh"] == "true"
    assert answer.cookies[settings.LANGUAGE_COOKIE_NAME].value == "cs"
    assert Player.objects.get(pk=players[0].pk).language == "cs"
    assert Room.objects.get(pk=room.pk).version == version + 1   # its open screen re-renders
    assert page_language(phone.get(f"/p/{room.code}/").content.decode()) == "cs"
    # The others and the TV keep theirs.
    assert page_language(player_client(players[1]).get(f"/p/{room.code}/").content.decode()) == "en"
    assert page_language(host_client(room).get(f"/r/{room.code}/").content.decode()) == "en"

    version += 1
    for bad in ("xx", "", "CS", "cs-CZ", "<script>"):
        answer = phone.post(f"/p/{room.code}/language", {"language": bad})
        assert answer.status_code == 400 and words("cs", "Unknown language.") in answer.content.decode()
    assert Client().post(f"/p/{room.code}/language", {"language": "pl"}).status_code == 403   # no seat
    assert Client().post("/p/QQQQ/language", {"language": "pl"}).status_code == 404
    assert Player.objects.get(pk=players[0].pk).language == "cs"
    assert Room.objects.get(pk=room.pk).version == version


@pytest.mark.django_db(transaction=True)   # a tap is written by the writer thread (db.write_queued)
def test_a_refusal_on_a_phone_is_in_that_phones_language_not_the_rooms():
    room, players, game = started_game(language="en")
    services.set_phone_language(players[0], "cs")
    czech = player_client(players[0]).post(f"/p/{room.code}/act", {"turn": "x", "action": "vote"})
    english = player_client(players[1]).post(f"/p/{room.code}/act", {"turn": "x", "action": "vote"})
    assert words("cs", "That request was malformed.") in czech.content.decode()
    assert "That request was malformed." in english.content.decode()


@pytest.mark.django_db
def test_phones_of_one_room_each_read_their_own_language_and_the_tv_the_rooms():
    room, players, game = started_game(language="en")
    services.set_phone_language(players[1], "cs")
    table = load_table(Room.objects.get(pk=room.pk))
    memo, kept = {}, {}   # shared by the whole room, as in production (screens.Snapshot)
    english = phone_screen(table, players[0].pk, memo=memo, kept=kept)
    czech = phone_screen(table, players[1].pk, memo=memo, kept=kept)
    again = phone_screen(table, players[2].pk, memo=memo, kept=kept)
    # The same public board, each in its phone's language: never the other's kept copy.
    assert czech["ph-board"] != english["ph-board"] == again["ph-board"]
    assert 'aria-current="true">Čeština' in czech["ph-head"] and 'aria-current="true">English' in english["ph-head"]
