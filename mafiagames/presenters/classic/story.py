"""Classic Mafia's story at the game's end (presenters/__init__.py ``Presenter.story``): who was
who, then each night as it really went — the agent's check, the doctor's heal, the mafia's
victim, the wizard's spell, who died — and each day's verdict, with the judge's double vote
(rules §0: at the end everything is told).  In the edition's own words (``words``)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from .. import names_of, story_line, story_step
from engines.classic import cards as C

from .words import CAUSES, KIDS, KIDS_CAUSES, TEAM_NAMES, card_name, role_name, words

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
    if kind in ("cards_dealt", "roles_swapped", "swap_declined") or (kind == "card_played" and data["round"] == 0):
        return "who", 0     # the action cards are dealt, the Leader and the Role Swap shown, before night 1
    if kind in ("checked", "healed", "victim_chosen", "swap_cast", "recruited", "new_gang_meeting") or (
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
    if kind == "victim_chosen" and data["victim"] is not None:   # (None: the cards protected everyone left)
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
    if kind in CARD_EVENTS:
        return CARD_EVENTS[kind](data, n)
    if kind == "shot":
        return story_line(_("Shot: %(shooter)s → %(target)s.") % {
            "shooter": n[data["shooter"]], "target": n[data["target"]]}, data["shooter"], data["target"])
    return None


# The action cards' events (rules B.3.4, B.3.5): every card dealt, each one played, a save, a
# recruitment, the Role Swap, the New Gang's meeting, the Leader's choice.
def _dealt(data: dict, n: list[str]) -> dict:
    seats = [seat for seat, card in enumerate(data["cards"]) if card != C.NEUTRAL]
    text = ", ".join(f"{n[seat]} — {card_name(data['cards'][seat])}" for seat in seats)
    return story_line(_("Action cards: %(cards)s.") % {"cards": text or _("only neutral cards")}, *seats)


def _played(data: dict, n: list[str]) -> dict | None:
    if data["card"] in (C.VEST, C.BANDAGE, C.ROLE_SWAP):
        return None     # the save tells it (card_save), and the swap (roles_swapped, swap_declined)
    if data.get("target") is not None:
        return story_line(_("%(card)s: %(name)s → %(target)s.") % {
            "card": card_name(data["card"]), "name": n[data["seat"]], "target": n[data["target"]]},
            data["seat"], data["target"])
    return story_line(_("%(card)s: %(name)s.") % {"card": card_name(data["card"]), "name": n[data["seat"]]},
                      data["seat"])


def _saved(data: dict, n: list[str]) -> dict:
    if data["by"] == data["seat"]:
        return story_line(_("%(card)s: %(name)s survives.") % {"card": card_name(data["card"]), "name": n[data["seat"]]},
                          data["seat"])
    return story_line(_("%(card)s: %(by)s → %(name)s, saved.") % {
        "card": card_name(data["card"]), "by": n[data["by"]], "name": n[data["seat"]]}, data["by"], data["seat"])


CARD_EVENTS = {
    "cards_dealt": _dealt,
    "card_played": _played,
    "card_save": _saved,
    "recruited": lambda data, n: story_line(_("%(card)s: %(name)s → %(target)s.") % {
        "card": card_name(C.RECRUITMENT), "name": n[data["seat"]], "target": n[data["recruit"]]},
        data["seat"], data["recruit"]),
    "roles_swapped": lambda data, n: story_line(_("%(card)s: %(name)s ↔ %(target)s.") % {
        "card": card_name(C.ROLE_SWAP), "name": n[data["seat"]], "target": n[data["target"]]},
        data["seat"], data["target"]),
    "swap_declined": lambda data, n: story_line(_("%(card)s: %(name)s.") % {
        "card": card_name(C.ROLE_SWAP), "name": n[data["seat"]]}, data["seat"]),
    "new_gang_meeting": lambda data, n: story_line(_("The New Gang met: %(names)s.") % {
        "names": names_of(data["members"], n)}, *data["members"]),
    "leader_picked": lambda data, n: story_line(_("The Leader's choice: %(name)s → %(target)s.") % {
        "name": n[data["seat"]], "target": n[data["target"]]}, data["seat"], data["target"]),
}
