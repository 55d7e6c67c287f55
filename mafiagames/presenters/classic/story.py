"""Classic Mafia's story at the game's end (presenters/__init__.py ``Presenter.story``): who was
who, then each night as it really went — the agent's check, the doctor's heal, the mafia's
victim, the wizard's spell, who died — and each day's verdict, with the judge's double vote
(rules §0: at the end everything is told).  In the edition's own words (``words``)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from .. import names_of, story_line, story_step
from .words import CAUSES, KIDS, KIDS_CAUSES, TEAM_NAMES, role_name, words

NIGHT_DEATHS = {"night", "small_rule_agent"}   # causes of death that belong to a night


def story(events: list, names: list[str], ruleset: str, options: dict) -> list[dict]:
    table = {"ruleset": ruleset, "options": options}
    roles = next(event.data["roles"] for event in events if event.kind == "roles_dealt")
    steps = {("who", 0): story_step(_("Who was who"), _who_was_who(table, roles, names))}
    round_ = 0
    deadly: set[int] = set()   # the nights somebody died

    def add(key: tuple, line: dict) -> None:
        step = steps.setdefault(key, story_step(_heading(key), []))
        step["lines"].append(line)

    for event in events:
        data = event.data
        if event.kind == "night_started":
            round_ = data["round"]
            steps.setdefault(("night", round_), story_step(_heading(("night", round_)), []))
        elif event.kind == "dawn":
            round_ = data["round"]
        line = _line(event.kind, data, table, names)
        if line is not None:
            when = _when(event.kind, data, round_)
            add(when, line)
            if event.kind == "eliminated" and when[0] == "night":
                deadly.add(when[1])
    for (part, number), step in steps.items():
        if part == "night" and number not in deadly:
            step["lines"].append(story_line(_("Nobody died.")))
    return list(steps.values())


def _heading(key: tuple) -> str:
    part, number = key
    return (_("Night %(n)d") if part == "night" else _("Day %(n)d")) % {"n": number}


def _when(kind: str, data: dict, round_: int) -> tuple:
    """Which step an event belongs to: the night or the day of its round."""
    if kind in ("checked", "healed", "victim_chosen", "swap_cast") or (
            kind == "eliminated" and data["cause"] in NIGHT_DEATHS):
        return "night", data.get("round", round_)
    return "day", data.get("round", round_)


def _who_was_who(table: dict, roles: list[str], names: list[str]) -> list[dict]:
    """Each role as dealt and who held it (the wizard's swap comes later, night by night)."""
    order = list(dict.fromkeys(roles))
    return [story_line(f"{role_name(table, role)}: {names_of(seats, names)}", *seats)
            for role in order for seats in [[seat for seat, r in enumerate(roles) if r == role]]]


def _line(kind: str, data: dict, table: dict, names: list[str]) -> dict | None:
    """One event as a line of the story, or None for an event the story does not tell."""
    n = names
    if kind == "checked":
        return story_line(_("Check: %(agent)s → %(target)s: %(result)s.") % {
            "agent": n[data["agent"]], "target": n[data["target"]], "result": role_name(table, data["role"])},
            data["agent"], data["target"])
    if kind == "healed":
        text = (_("Heal: %(doctor)s → themself.") if data["doctor"] == data["target"]
                else _("Heal: %(doctor)s → %(target)s."))
        return story_line(text % {"doctor": n[data["doctor"]], "target": n[data["target"]]},
                          data["doctor"], data["target"])
    if kind == "victim_chosen":
        team = TEAM_NAMES[words(table)]["mafia"]
        text = (_("%(team)s chose: %(name)s (by lot).") if data["how"] == "random"
                else _("%(team)s chose: %(name)s.")) % {"team": team, "name": n[data["victim"]]}
        return story_line(text, data["victim"])
    if kind == "swap_cast":
        first, second = data["targets"]
        return story_line(_("%(wizard)s swapped cards: %(first)s ↔ %(second)s.") % {
            "wizard": n[data["wizard"]], "first": n[first], "second": n[second]}, data["wizard"], first, second)
    if kind == "eliminated":
        causes = KIDS_CAUSES if words(table) == KIDS else CAUSES
        return story_line(_("%(name)s is out — %(role)s, %(cause)s.") % {
            "name": n[data["seat"]], "role": role_name(table, data["role"]),
            "cause": causes.get(data["cause"], data["cause"])}, data["seat"])
    if kind == "votes_revealed" and data.get("double") is not None:
        judge = data["double"]
        return story_line(_("The judge's power: %(judge)s → %(target)s counted twice.") % {
            "judge": n[judge], "target": n[data["votes"][judge]]}, judge, data["votes"][judge])
    if kind == "coin":
        return story_line(_("Tied: %(among)s. The coin decided: %(name)s.") % {
            "among": names_of(data["among"], n), "name": n[data["seat"]]}, data["seat"])
    if kind == "shot":
        return story_line(_("Shot: %(shooter)s → %(target)s.") % {
            "shooter": n[data["shooter"]], "target": n[data["target"]]}, data["shooter"], data["target"])
    return None
