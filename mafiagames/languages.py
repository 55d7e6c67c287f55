"""Which language each screen speaks (docs/translations.md).

A room has one language: its TV, the narration read aloud, the host's controls.  Each phone has
its own (``Player.language``): a Ukrainian guest at a Czech table reads their phone in Ukrainian
while the TV narrates in Czech.  A browser's language comes from the choice it made on one of our
pages (Django's language cookie), else from its own preferences (Accept-Language), else the room's.
"""

from __future__ import annotations

import functools

from django.conf import settings
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header


def supported(code: str) -> str | None:
    """``code`` if it is one of ours (settings.LANGUAGES), a variant ("pl-PL") as its language."""
    try:
        found = translation.get_supported_language_variant(str(code or ""))
    except LookupError:
        return None
    return found if found in dict(settings.LANGUAGES) else None


def browser_language(request, default: str) -> str:
    """The language this browser asks for: the one chosen on our pages, else the first of its
    preferences we speak, else ``default`` (the room's: a German phone at a Czech table reads
    Czech rather than English)."""
    chosen = supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, ""))
    if chosen:
        return chosen
    for code, _quality in parse_accept_lang_header(request.headers.get("accept-language", "")):
        found = supported(code)
        if found:
            return found
    return default


def of_phone(player_language: str, room_language: str) -> str:
    """A phone's language: its player's own, or the room's for a player who has none."""
    return player_language or room_language


# Django names Czech "česky" ("in Czech"); a menu lists languages by their names.
OWN_NAMES = {"cs": "čeština"}


@functools.cache
def choices() -> tuple[dict, ...]:
    """The languages a menu offers, each in its own words ("Polski", "Українська"): the same in
    every language, so made once."""
    def own_name(code: str) -> str:
        name = OWN_NAMES.get(code) or translation.get_language_info(code)["name_local"]
        return name[:1].upper() + name[1:]
    return tuple({"code": code, "name": own_name(code)} for code, _name in settings.LANGUAGES)


def menu(request) -> dict:
    """Context for every page: the languages its menu offers (templates/language_menu.html)."""
    return {"language_menu": choices()}


def remember(response, language: str) -> None:
    """Keep ``language`` as this browser's choice (the language cookie our pages read first)."""
    response.set_cookie(settings.LANGUAGE_COOKIE_NAME, language, max_age=settings.LANGUAGE_COOKIE_AGE,
                        samesite="Lax")
