"""Mrakošlapi: what each template gets — ``present`` (the TV's board and roster), a phone's kept
fragments (``phone_fragments``, ``phone_board``: a template and the only context it reads,
presenters/__init__.py)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from engines.mrakoslapi import cards as C
from engines.mrakoslapi import day as D
from engines.mrakoslapi.state import DAY

from .. import narrated, pick
from .words import (
    CARD_HELP, CARD_NAMES, CARD_STATES, DAY_STATES, IDLE_HELP, NIGHT_ASKS, NIGHT_SKIP, NIGHT_TUNNEL_TO,
    NOTICES, REASONS, winners_text, card_name, narrate,
)


TEMPLATE_DIR = "engines/mrakoslapi"


def present(view: dict, names: list[str]) -> dict:
    """Template context for a Mrakošlapi view (the TV when view["me"] is None)."""
    d = view.get("day")
    accused = {a["accused"] for a in d["accusations"]} if d else set()
    outcome = view.get("outcome")
    winners = set(outcome["winners"]) if outcome else set()
    defending = _defender(d)
    rows = [{"seat": s["seat"], "name": names[s["seat"]], "alive": s["alive"], "muted": s["muted"],
             "accused": s["seat"] in accused,
             "candidate": bool(d) and s["seat"] in d["candidates"] and d["state"] != D.FLOOR,
             "ready": bool(d) and s["seat"] in d["ready"] and d["state"] in (D.FLOOR, D.REFLOOR),
             "defending": s["seat"] == defending, "winner": s["seat"] in winners}
            for s in view["seats"]]
    narration = narrated(narrate, view.get("narration", []), names, view)
    morning = narrated(narrate, view.get("morning", []), names, view)
    context = {
        "v": view, "rows": rows,
        "night": view["phase"] == "night",
        "over": view["phase"] == "over",
        "phase_title": _phase_title(view),
        "narration": narration, "morning": morning,
        # The TV shows the morning once, on the board; its narration (which a day grows from the
        # morning's lines on) shows only the latest line said since, all of it still read aloud.
        "narration_from": max(len(morning) if narration[:len(morning)] == morning else 0, len(narration) - 1),
        "living": [row for row in rows if row["alive"]],
    }
    if d:
        context["day"] = _day(d, names)
    if outcome:
        context["winner_line"] = winners_text(outcome["winners"], names)   # a whole sentence: "Dan wins!"
        context["reason_text"] = str(REASONS.get(outcome["reason"], ""))
        context["reveal"] = _reveal(view, names)
    me = view.get("me")
    if me is not None:
        context.update(_mine(view, me, names))
    return context


def _phase_title(view: dict) -> str:
    n = view["number"]
    if view["phase"] == "night":
        return _("Night %(n)s") % {"n": n}
    if view["phase"] == "day" and view.get("day"):
        return _("Day %(n)s · %(state)s") % {"n": n, "state": DAY_STATES.get(view["day"]["state"], "")}
    return _("Game over")


def _defender(d: dict | None) -> int | None:
    """The candidate speaking in his defence now."""
    return d["defence"][0] if d and d["state"] == D.DEFENCE and d["defence"] else None


def _day(d: dict, names: list[str]) -> dict:
    """The day's public part in names: accusations, the defence, the vote and its hands."""
    window = d["candidates"][d["window"]] if d["state"] == D.VOTE and d["window"] is not None else None
    hands: dict[int, list[str]] = {}
    for ballot in d["ballots"]:
        hands.setdefault(ballot["candidate"], []).append(names[ballot["voter"]])
    return {
        "state": d["state"], "round": d["round"],
        "accusations": [{"accuser": names[a["accuser"]] if a["accuser"] is not None else None,
                         "accused": names[a["accused"]],
                         "claim": CARD_NAMES.get(a["claim"], "") if a["claim"] else "",
                         "text": a["text"] or ""} for a in d["accusations"]],
        "ready": len(d["ready"]),
        "candidates": [{"name": names[c], "window": c == window, "hands": hands.get(c, [])}
                       for c in d["candidates"]] if d["state"] != D.FLOOR else [],
        "defender": names[_defender(d)] if _defender(d) is not None else None,
        "window": names[window] if window is not None else None,
        "sentenced": names[d["sentenced"]] if d["sentenced"] is not None else None,
        "rounds": [{"round": r["round"],
                    "hands": [{"name": names[seat], "voters": [names[v] for v in voters]}
                              for seat, voters in r["hands"]]} for r in d["rounds"]],
    }


def _cards(cards: list[dict] | None) -> list[dict]:
    return [{"type": c["type"], "no": c["no"], "name": card_name(c["type"], c["no"]),
             "state": c["state"], "state_name": str(CARD_STATES.get(c["state"], c["state"])),
             "help": str(CARD_HELP.get(c["type"], "")), "ready": c["state"] == C.READY}
            for c in cards or []]


def _mine(view: dict, me: dict, names: list[str]) -> dict:
    seat = me["seat"]
    mine = {
        "me": me,
        "my_cards": _cards(me["cards"]),
        "fellow_names": [names[s] for s in me["fellow_mafia"] or []],
        "notices": [str(NOTICES[n["code"]]) % n["params"] for n in me["notices"] or [] if n["code"] in NOTICES],
        "fake_dead": me["status"] == "FAKE_DEAD",
        "muted": view["seats"][seat]["muted"],
        "i_won": bool(view.get("outcome")) and seat in view["outcome"]["winners"],
        "night_steps": night_steps(view, me, names) if me.get("night") else [],
    }
    mine.update(_day_choices(me, names))
    return mine


def _targets(me: dict, kind: str, no: int | None, names: list[str], key: str = "target") -> list[dict]:
    return [{"seat": m[key], "name": names[m[key]]} for m in me["moves"]
            if m["type"] == kind and (no is None or m.get("no") == no)]


NIGHT_MOVE = {C.MAFIAN: "mafia_target", C.SILENY_STRELEC: "gunman_target", C.SLINA: "slime",
              C.EXHIBICIONISTA: "exhibit", C.DUCH_BOBO: "bobo"}


NUMBERED = (C.SILENY_STRELEC, C.SLINA, C.EXHIBICIONISTA)     # their moves name the card's number


def night_steps(view: dict, me: dict, names: list[str]) -> list[dict]:
    """A night as equal steps (issue 14: no glance may tell a role): every living phone gets the
    same number of steps — as many as a hand can hold night cards, ``C.HAND_SIZE`` — and every
    step the same parts: a title, a question, a note, one button per living player and one quiet
    "Nobody tonight".  The phone's own prompts come first; the rest ask nothing and send nothing.
    Only buttons that are one of ``me.moves`` send (``live``); the others look the same and are
    inert.  app.js shows one step at a time."""
    living = [s["seat"] for s in view["seats"] if s["alive"]]
    prompts = me["night"]["prompts"] if me.get("night") else []
    confirmed = bool(me.get("night")) and me["night"]["confirmed"]
    steps = [_step(p, me, names, living, confirmed) for p in prompts]
    count = max(C.HAND_SIZE.get(view["players"], len(steps)), len(steps))
    note = str(_("Your night is set. Wait for the morning.")) if confirmed else ""
    steps += [_idle_step(names, living, note) for _ in range(count - len(steps))]
    for number, step in enumerate(steps, start=1):
        step.update(number=number, of=count)
    return steps


def _button(name: str, fields: list | None, picked: bool = False) -> dict:
    """One button of a step: it sends ``fields`` (a legal move), or nothing when None."""
    return {"name": name, "live": fields is not None, "fields": fields or [], "picked": picked}


def _idle_step(names: list[str], living: list[int], note: str = "") -> dict:
    return {"id": "", "title": str(_("Who do you suspect?")), "pair": False, "help": str(IDLE_HELP),
            "ask": str(_("Nothing to play here. Tap any name while you wait — it does nothing.")), "note": note,
            "grid": [_button(names[s], None) for s in living], "skip": _button(str(NIGHT_SKIP), None)}


def _step(p: dict, me: dict, names: list[str], living: list[int], confirmed: bool) -> dict:
    """One night prompt as a step: its buttons are exactly the engine's legal moves."""
    card, no, choice = p["card"], p["no"], p["choice"]
    moves = [] if confirmed or p["disabled"] else me["moves"]
    # One Mafián prompt stands for all the holder's Mafián cards: it is named without a number.
    step = {"id": p["id"], "title": CARD_NAMES[card] if card == C.MAFIAN else card_name(card, no),
            "ask": str(NIGHT_ASKS.get(card, "")), "note": "", "pair": card == C.MAG,
            "help": str(CARD_HELP.get(card, ""))}
    passing = any(m["type"] == "pass" and m["card"] == card and m["no"] == no for m in moves)
    skip_fields = [("action", "pass"), ("card", card), ("no", no)] if passing else None
    if card == C.MAG:
        starts = {m["from"] for m in moves if m["type"] == "tunnel" and m["no"] == no}
        step["grid"] = [_button(names[s], [("action", "tunnel"), ("no", no), ("to", s)] if s in starts else None,
                                bool(choice) and s == choice[0]) for s in living]
        step["then"] = str(NIGHT_TUNNEL_TO)
        if choice:
            step["note"] = f"{_('Your choice:')} {names[choice[0]]} → {names[choice[1]]}"
    elif card == C.MEDIK:
        # Yes is the player's own name ("I play dead"); no is the quiet button.
        can = any(m["type"] == "medik" for m in moves)
        step["grid"] = [_button(names[s], [("action", "medik"), ("use", "yes")] if can and s == me["seat"] else None,
                                bool(choice) and s == me["seat"]) for s in living]
        skip_fields = [("action", "medik"), ("use", "no")] if can else None
        if choice:
            step["note"] = str(_("Yes: you will be announced dead."))
    else:
        move = NIGHT_MOVE[card]
        legal = {m["target"] for m in moves if m["type"] == move
                 and (card in (C.MAFIAN, C.DUCH_BOBO) or m.get("no") == no)}
        extra = [("no", no)] if card in NUMBERED else []
        step["grid"] = [_button(names[s], [("action", move), *extra, ("target", s)] if s in legal else None,
                                s == choice) for s in living]
        if choice is not None:
            step["note"] = f"{_('Your choice:')} {names[choice]}"
    if p["disabled"]:
        step["ask"] = str(_("You hold the Ateista: this card does nothing for you."))
    if card == C.MAFIAN and me.get("mafia_room"):
        picks = "; ".join(f"{names[m['seat']]} → {names[m['target']] if m['target'] is not None else '…'}"
                          f"{' ✓' if m['confirmed'] else ''}" for m in me["mafia_room"])
        step["ask"] = f"{step['ask']} {_('The Mafiáni tonight:')} {picks}"
    step["skip"] = _button(str(NIGHT_SKIP), skip_fields, picked=card == C.MEDIK and choice is False)
    return step


def _seats_named(seats: list[int], names: list[str]) -> list[dict]:
    return [{"seat": s, "name": names[s]} for s in seats]


def _day_choices(me: dict, names: list[str]) -> dict:
    """The day's buttons, exactly from ``me.moves``."""
    kinds = {m["type"] for m in me["moves"]}
    accuse = [m for m in me["moves"] if m["type"] == "accuse"]
    shoot = _targets(me, "anarchist_shot", None, names)
    return {
        # What each day card in the fold does (its "?"), only for the cards it offers.
        "day_help": {"astronom": str(CARD_HELP[C.ASTRONOM]) if "astronom" in kinds else "",
                     "anarchista": str(CARD_HELP[C.ANARCHISTA]) if shoot else ""},
        "accuse_targets": _seats_named(sorted({m["target"] for m in accuse}), names),
        "accuse_claims": [{"type": t, "name": CARD_NAMES[t]} for t in C.CARD_TYPES
                          if any(m["claim"] == t for m in accuse)],
        "can": {kind: kind in kinds for kind in ("withdraw", "ready", "defend", "astronom", "done")},
        "vote_for": [names[m["candidate"]] for m in me["moves"] if m["type"] == "vote"],
        "vote_seat": next((m["candidate"] for m in me["moves"] if m["type"] == "vote"), None),
        "shoot_targets": shoot,
    }


def _reveal(view: dict, names: list[str]) -> dict:
    """Everyone's cards at the end (the nights are the game's story: story.py)."""
    reveal = view["reveal"]
    players = sorted(reveal["players"], key=lambda p: p["seat"])
    return {
        "hands": [{"name": names[p["seat"]], "alive": p["status"] != "DEAD", "cards": _cards(p["cards"]),
                   "dealt": ", ".join(card_name(c["type"], c["no"]) for c in reveal["dealt"][p["seat"]])}
                  for p in players],
        "mafia": [names[s] for s in reveal["mafia_met"]],
    }


# What each of a phone's templates reads of ``present``'s context (``phone_fragments``).
ROLE_READS = ("my_cards", "fellow_names", "notices", "fake_dead")


PANEL_READS = ("over", "fake_dead", "night", "phase_title", "night_steps", "can", "muted", "vote_for", "vote_seat",
               "day", "accuse_targets", "accuse_claims", "shoot_targets", "day_help", "i_won", "winner_line",
               "reason_text")


def phone_fragments(view: dict, names: list[str], clock: dict) -> dict[str, tuple[str, dict]]:
    """A phone's cards and panel (with the countdown), each a template and the only context it
    reads (presenters/__init__.py): ``present``'s words, picked per template.  At night a
    Medik's "yes" is the phone's own name: each phone's night steps are its own."""
    context, me = present(view, names), view["me"]
    night = me.get("night")
    return {
        "role": (f"{TEMPLATE_DIR}/phone_role.html", {**pick(context, ROLE_READS), "me": {"cards": me["cards"]}}),
        "panel": (f"{TEMPLATE_DIR}/phone_panel.html",
                  {**pick(context, PANEL_READS), **clock, "turn": view["turn"],
                   "me": {"alive": me["alive"], "cards": me["cards"], "night": night and {"number": night["number"]}}}),
    }


def phone_board(view: dict, names: list[str]) -> tuple[str, dict]:
    """The phones' board, from the TV's view: the day or night, this morning's news, who is out
    or silenced (listed), the living (counted)."""
    context = present(view, names)
    return f"{TEMPLATE_DIR}/phone_board.html", {
        "rows": [{key: row[key] for key in ("alive", "muted", "name")}
                 for row in context["rows"] if not row["alive"] or row["muted"]],
        "living": [row["name"] for row in context["living"]], **pick(context, ("phase_title", "morning"))}


def audience_poll(view: dict) -> dict | None:
    """The audience's poll (presenters.audience_poll): open while the day's accusations, defence
    and votes are (``OPEN_STATES``), one per day; the living may be named
    (docs/rules/mrakoslapi.md, "The audience")."""
    day = view["day"]
    if view["phase"] != DAY or day is None or day["state"] not in D.OPEN_STATES:
        return None
    return {"key": f"day{day['day']}", "seats": [row["seat"] for row in view["seats"] if row["alive"]]}
