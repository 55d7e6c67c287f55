"""Cosa Nostra's story at the game's end (presenters/__init__.py ``Presenter.story``): a few
steps told from the game's public happenings — the gates chosen, the businesses bought and
deals made, the attacks and cards played, the falls (sales to the city, bankruptcies), and how it
ended (docs/rules/cosanostra.md §15).  Each step keeps its latest lines: the TV shows a step at
once."""

from __future__ import annotations

from collections import Counter

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engines.base import PUBLIC

from .. import story_line, story_step
from .words import REASONS, family, narrate, winners_text

STEP_LINES = 5       # a step fits the TV beside the host's settings at 1280 × 720
SEAT_KEYS = ("seat", "from", "to", "owner")


def _seats(kind: str, data: dict) -> list[int]:
    keys = SEAT_KEYS if kind in ("pay", "trade_done") else ("seat", "owner")
    return [data[key] for key in keys if isinstance(data.get(key), int)]


def _told(event, names: list[str]):
    text = narrate({"code": event.kind, "params": event.data}, names, {})
    return story_line(text, *_seats(event.kind, event.data)) if text else None


def _step(heading, events, names: list[str], wanted) -> list[dict]:
    lines = [line for line in (_told(e, names) for e in events if wanted(e)) if line][-STEP_LINES:]
    return [story_step(heading, lines)] if lines else []


def story(events: list, names: list[str], ruleset: str, options: dict) -> list[dict]:
    public = [e for e in events if e.audience == PUBLIC and isinstance(e.data, dict)]
    steps = _step(_("The gates"), public, names, lambda e: e.kind in ("start_player", "gate"))
    steps += _step(_("Businesses and deals"), public, names,
                   lambda e: e.kind in ("buy_business", "business_lost", "trade_done"))
    steps += _step(_("Attacks, cards and the feds"), public, names,
                   lambda e: e.kind in ("card_played", "federal_ban", "city_tax")
                   or (e.kind == "pay" and e.data.get("why") == "attack"))
    sold = Counter(e.data["seat"] for e in public if e.kind == "city_sale")
    falls = [story_line(ngettext("%(family)s sold %(n)s tile to the city.", "%(family)s sold %(n)s tiles to the city.",
                                 n) % {"family": family(seat, names), "n": n}, seat) for seat, n in sorted(sold.items())]
    falls += [line for line in (_told(e, names) for e in public if e.kind == "bankruptcy") if line]
    if falls:
        steps.append(story_step(_("Falls"), falls))
    over = next((e for e in reversed(public) if e.kind == "game_over"), None)
    winners = list(over.data.get("winners") or []) if over else []
    end = [story_line(winners_text(winners, names), *winners)]
    if over and over.data.get("end") in REASONS:
        end.append(story_line(REASONS[over.data["end"]]))
    steps.append(story_step(_("How it ended"), end))
    return steps
