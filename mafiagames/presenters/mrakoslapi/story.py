"""Mrakošlapi's story at the game's end (presenters/__init__.py ``Presenter.story``): the hands
as dealt, then every night as the app resolved it — what everybody chose, and its secret trace
one shot, tunnel, mirror and death at a time (rules §11: at the end everything is told)."""

from __future__ import annotations

from django.utils.text import capfirst
from django.utils.translation import gettext as _

from .. import story_line, story_step
from .words import card_name, choice_lines, trace_step

# The keys of a trace step that name a seat (engines/mrakoslapi/resolver.py): its line is theirs.
TRACE_SEATS = ("origin", "target", "at", "maker", "from", "to")


def story(events: list, names: list[str], ruleset: str, options: dict) -> list[dict]:
    hands = {event.data["seat"]: event.data["cards"] for event in events if event.kind == "cards"}
    steps = [story_step(_("The hands as dealt"), [
        story_line(f"{names[seat]}: " + ", ".join(card_name(c["type"], c["no"]) for c in cards), seat)
        for seat, cards in sorted(hands.items())])]
    for event in events:
        if event.kind == "night_skipped":
            steps.append(story_step(_("Night %(n)d") % {"n": event.data["night"]},
                                    [story_line(_("A night without meaning: nothing happened."))]))
        elif event.kind == "night_resolved":
            steps += _night(event.data, names)
    return steps


def _night(data: dict, names: list[str]) -> list[dict]:
    """A night in two steps: what everybody chose, then what happened, shot by shot (the table
    reads the choices before it follows the bullets); a night nobody chose anything in is one."""
    n = data["night"]
    chosen = [story_line(text, *seats) for text, seats in choice_lines(data["choices"], names)]
    happened = [story_line(capfirst(trace_step(step, names)),
                           *(step[key] for key in TRACE_SEATS if type(step.get(key)) is int))
                for step in data["result"]["trace"]] or [story_line(_("No shot was fired."))]
    if not chosen:
        return [story_step(_("Night %(n)d") % {"n": n}, happened)]
    return [story_step(_("Night %(n)d: the choices") % {"n": n}, chosen),
            story_step(_("Night %(n)d: what happened") % {"n": n}, happened)]
