"""Cosa Nostra's story at the game's end (presenters/__init__.py ``Presenter.story``): a few
steps told from the game's public happenings — the gates chosen, the key purchases and attacks,
the deals, the bankruptcies, and the move that decided it (docs/rules/cosanostra.md §15)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from engines.base import PUBLIC

from .. import story_line, story_step
from .words import LINES, narrate, winners_text

# Which happenings each step tells, by the engine's event kinds (they share the narration's codes).
GATES = ("gate_chosen", "start_player")
KEY_MOVES = ("bought_business", "attacked", "deal", "trade_done", "card_played", "city_tax", "fed_ban", "federal")
FALLS = ("bankrupt", "removed", "sold_to_city")
STEP_LINES = 8      # a step the TV can show at once: the latest of its kind


def _seats(data: dict) -> list[int]:
    return [value for key, value in data.items()
            if key in ("seat", "from", "to", "victim", "by") and isinstance(value, int)]


def _lines(events: list, kinds: tuple, names: list[str]) -> list[dict]:
    lines = []
    for event in events:
        if event.kind in kinds and event.kind in LINES and isinstance(event.data, dict):
            text = narrate({"code": event.kind, "params": event.data}, names, {})
            if text:
                lines.append(story_line(text, *_seats(event.data)))
    return lines[-STEP_LINES:]


def story(events: list, names: list[str], ruleset: str, options: dict) -> list[dict]:
    public = [event for event in events if event.audience == PUBLIC]
    steps = []
    for heading, kinds in ((_("The gates"), GATES), (_("Key moves"), KEY_MOVES), (_("Falls"), FALLS)):
        lines = _lines(public, kinds, names)
        if lines:
            steps.append(story_step(heading, lines))
    over = next((event for event in reversed(events) if event.kind in ("game_over", "winner")), None)
    winners = list((over.data or {}).get("winners") or []) if over is not None else []
    steps.append(story_step(_("The deciding move"), [story_line(winners_text(winners, names), *winners)]))
    return steps
