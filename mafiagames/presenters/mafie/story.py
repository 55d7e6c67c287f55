"""Mafie's story at the game's end (presenters/__init__.py ``Presenter.story``): who was who,
then each job as it really went — its crew, who played Fail (the table saw only how many,
rules A.2), the plot cards played and what each showed its holder in private (rules §A.3.3)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from .. import names_of, story_line, story_step
from .context import _fact
from .words import PLOT_CARD_NAMES, TEAM_NAMES

FAIL = "fail"


def story(events: list, names: list[str], ruleset: str, options: dict) -> list[dict]:
    roles = next(event.data["roles"] for event in events if event.kind == "roles_dealt")
    steps = [_who_was_who(roles, names)]
    learnt: list[dict] = []        # plot cards played and their private results since the last job
    cards: dict = {}               # the game master's record of the job's cards, crew member by member
    for event in events:
        if event.kind == "plot_learnt":
            learnt.append(_learnt(event, names))
        elif event.kind == "plot_used" and event.data["use"] == "used":
            learnt.append(_used(event.data, names))
        elif event.kind == "action_cards":
            cards = event.data
        elif event.kind == "action_revealed":
            steps.append(_job(event.data, cards, learnt, names))
            learnt = []
    if learnt:   # a card looked after the last job (the game ended on it)
        steps.append(story_step(_("Plot cards"), learnt))
    return steps


def _who_was_who(roles: list[str], names: list[str]) -> dict:
    return story_step(_("Who was who"), [
        story_line(f"{TEAM_NAMES[team]}: {names_of(seats, names)}", *seats)
        for role, team in (("mafioso", "mafia"), ("detective", "detectives"))
        if (seats := [seat for seat, r in enumerate(roles) if r == role])])


def _job(revealed: dict, cards: dict, learnt: list[dict], names: list[str]) -> dict:
    """A job: ``cards`` is the game master's ``action_cards`` event, the card of each crew member
    in the crew's order (engines/mafie/base_game.py ``_reveal_action``)."""
    crew, slot = cards["team"], revealed["slot"]
    heading = (_("Job %(n)d: pulled off") if revealed["result"] == "success" else _("Job %(n)d: foiled")) % {"n": slot}
    fails = sorted(seat for seat, card in zip(crew, cards["cards"]) if card == FAIL)
    lines = [story_line(_("Crew: %(names)s") % {"names": names_of(crew, names)}, *crew),
             story_line(_("Played Fail: %(names)s") % {"names": names_of(fails, names)}, *fails) if fails
             else story_line(_("Nobody played Fail."))]
    return story_step(heading, [*lines, *learnt])


def _used(entry: dict, names: list[str]) -> dict:
    """A plot card played (public when it was: the story tells it where it happened)."""
    card, seat, target = PLOT_CARD_NAMES.get(entry["card"], entry["card"]), entry["seat"], entry["target"]
    if isinstance(target, int):
        return story_line(_("%(holder)s played %(card)s: %(target)s.") % {
            "holder": names[seat], "card": card, "target": names[target]}, seat, target)
    return story_line(_("%(holder)s played %(card)s.") % {"holder": names[seat], "card": card}, seat)


def _learnt(event, names: list[str]) -> dict:
    """What a plot card showed its holder (the event is addressed to him alone)."""
    holder, fact = event.audience[0], _fact(event.data, names)
    return story_line(_("%(holder)s — %(card)s: %(fact)s") % {
        "holder": names[holder], "card": fact["card_name"], "fact": fact["text"]}, holder, event.data["about"])
