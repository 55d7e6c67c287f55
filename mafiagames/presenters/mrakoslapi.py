"""Mrakošlapi (engines/mrakoslapi/): views into words and buttons.

The engine speaks in codes, card ids and seats; this module is the one place they become
sentences, card names and player names.  Card names stay the rulebook's Czech names in every
language (they are the names printed on the cards); what a card does is translated.

What each screen may show is the engine's business (rules §3, ``engine.view``): the TV gets the
table, the morning and day announcements and the raw hands; a phone its own cards, notices and
night prompts.  Every button here is one of ``me.moves`` — nothing is offered that the engine
would refuse.
"""

from __future__ import annotations

from fractions import Fraction

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engines.mrakoslapi import cards as C
from engines.mrakoslapi import day as D

from ..text import showable
from . import COMMON_ERRORS, FormError, form_seat, fill, pick

TEMPLATE_DIR = "engines/mrakoslapi"
HOST_MOVES: dict = {}

CARD_NAMES = {card_type: name for card_type, (name, _copies) in C.CARD_TYPES.items()}
CARD_HELP = {
    C.MRAKOSLAP: gettext_lazy("A spare life, by night and by day: a hit kills it instead of you."),
    C.MAFIAN: gettext_lazy("Every night all Mafián cards pick one target; if they all agree, each fires a "
                           "bullet at it."),
    C.SILENY_STRELEC: gettext_lazy("Fires one bullet every second night at the player you choose."),
    C.MAG: gettext_lazy("Each night makes one tunnel from one player to another: bullets reaching the "
                        "first go on to the second."),
    C.SLINA: gettext_lazy("Each night slimes one player: every bullet slides off them."),
    C.ZRCADLO: gettext_lazy("Breaks once and sends the bullets arriving at you back where they came from."),
    C.EXHIBICIONISTA: gettext_lazy("Once: the player you choose may not speak the next day."),
    C.ATEISTA: gettext_lazy("Saliva and tunnels onto you vanish; you cannot use your own Mág or Slina."),
    C.MEDIK: gettext_lazy("Once: fake your death for the next day and night, then come back."),
    C.DUCH_BOBO: gettext_lazy("The night after you really die, you may silence one living player."),
    C.MECIAR: gettext_lazy("Your votes count twice."),
    C.KOVAC: gettext_lazy("Your vote for the death of the Mečiar counts twice."),
    C.KUSKONA: gettext_lazy("With Gandalf: when one of you dies by day, the other gains a Mrakošlap."),
    C.GANDALF: gettext_lazy("With Kuskoňa: when one of you dies by day, the other gains a Mrakošlap."),
    C.PROVAZOCHODEC: gettext_lazy("Once: you slip out of the noose when you are executed."),
    C.ASTRONOM: gettext_lazy("Once, any time by day: call NIGHT — the day ends, a condemned player escapes."),
    C.MASOVY_VRAH: gettext_lazy("When a vote costs you a life, everyone who voted for your death loses one."),
    C.ANARCHISTA: gettext_lazy("Once, by day: shoot one player; no night protection helps them."),
}
CARD_STATES = {
    C.READY: gettext_lazy("ready"), C.SPENT: gettext_lazy("used"), C.BROKEN: gettext_lazy("broken"),
    C.DEAD: gettext_lazy("dead"), C.SURRENDERED: gettext_lazy("handed in"),
}
DAY_STATES = {
    D.FLOOR: gettext_lazy("Discussion and accusations"),
    D.DEFENCE: gettext_lazy("Defence"),
    D.THINK: gettext_lazy("Think before the vote"),
    D.VOTE: gettext_lazy("Vote"),
    D.REFLOOR: gettext_lazy("A tie: talk once more"),
    D.SENTENCE: gettext_lazy("The verdict"),
}
REASONS = {
    D.LAST_ALIVE: gettext_lazy("The last one alive wins."),
    D.ALL_DEAD: gettext_lazy("Nobody survived: those who died last share the victory."),
    D.STALEMATE_NO_MEANING: gettext_lazy("Neither night nor day can change anything any more: the survivors "
                                         "share the victory."),
    D.STALEMATE_QUIET: gettext_lazy("Three rounds without a loss of life: the survivors share the victory."),
}

# Narration (rules §4.7 and §5.12): code → line.  Seats become names, lists of seats joined
# names ("—" for none), card numbers joined numbers.
LINES = {
    "night.returning": gettext_lazy("%(seat)s returns to the game."),
    "night.shots": gettext_lazy("Shots fired: %(count)s"),
    "night.slimed": gettext_lazy("Slimed: %(seats)s"),
    "night.exhibited": gettext_lazy("Exhibited (silent today): %(seats)s"),
    "night.mirrors": gettext_lazy("Mirrors broken: %(numbers)s"),
    "night.mraks": gettext_lazy("Mrakošlapy died: %(numbers)s"),
    "night.dead": gettext_lazy("Died: %(seats)s"),
    "night.no_meaning": gettext_lazy("The NIGHT has no meaning: nothing can happen tonight."),
    "day.skipped": gettext_lazy("The DAY has no meaning."),
    "day.auto_accuse": gettext_lazy("No accusation — everyone is accused."),
    "day.hands": gettext_lazy("%(candidate)s: %(voters)s"),
    "day.tie": gettext_lazy("Tie — a new vote."),
    "day.no_exec": gettext_lazy("Nobody is executed today."),
    "day.sentenced": gettext_lazy("Sentenced: %(seat)s."),
    "day.night": gettext_lazy("NIGHT! — %(caller)s"),
    "day.escaped": gettext_lazy("%(seat)s slipped out of the noose."),
    "day.mrak": gettext_lazy("Mrakošlap %(no)s dies."),
    "day.died": gettext_lazy("%(seat)s died."),
    "day.removed": gettext_lazy("%(seat)s was removed from the game."),
    "day.mv": gettext_lazy("%(seat)s was the Mass Murderer and shoots everyone who voted for his death."),
    "day.anarchist": gettext_lazy("%(shooter)s: I shoot you, baby! — %(target)s"),
    "day.end": gettext_lazy("NIGHT falls."),
    "game.over": gettext_lazy("The game is over. %(winners)s"),
}
SEAT_PARAMS = {"seat", "candidate", "caller", "shooter", "target"}
SEATS_PARAMS = {"seats", "voters"}
NOTICES = {
    D.GAINED: gettext_lazy("You gained Mrakošlap %(no)s."),
}


def card_name(card_type: str, no: int | None = None) -> str:
    copies = C.CARD_TYPES[card_type][1] if card_type in C.CARD_TYPES else 1
    name = CARD_NAMES.get(card_type, card_type)
    return f"{name} {no}" if no is not None and (copies > 1 or card_type == C.MRAKOSLAP) else name


def _names(seats, names: list[str]) -> str:
    return ", ".join(names[seat] for seat in seats) if seats else "—"


def _winners_text(winners: list[int], names: list[str]) -> str:
    if len(winners) == 1:
        return _("%(name)s wins!") % {"name": names[winners[0]]}
    if winners:
        return _("%(names)s share the victory.") % {"names": _names(winners, names)}
    return _("Nobody wins.")


def narrate(item: dict, names: list[str], view: dict) -> str:
    """One announcement line ("" for an unknown code)."""
    code, raw = item.get("code", ""), item.get("params", {})
    line = LINES.get(code)
    if line is None:
        return ""
    params = {}
    for key, value in raw.items():
        if key in SEAT_PARAMS:
            params[key] = names[value] if isinstance(value, int) else (
                _("the game master") if key == "caller" else "—")
        elif key in SEATS_PARAMS:     # nobody slimed: "—"; nobody raised a hand: "nobody"
            params[key] = _names(value, names) if value or key == "seats" else _("nobody")
        elif key == "numbers":
            params[key] = ", ".join(str(n) for n in value) if value else "—"
        elif key == "winners":
            params[key] = _winners_text(value, names)
        else:
            params[key] = value
    return fill(line, params)


def role_text(view: dict) -> str:
    """A seat's cards in words, from its own view: the reveal of a game the host ended."""
    cards = view["me"]["cards"]
    return ", ".join(card_name(c["type"], c["no"]) for c in cards) if cards is not None else str(_("out of the game"))


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
    context = {
        "v": view, "rows": rows,
        "night": view["phase"] == "night",
        "over": view["phase"] == "over",
        "phase_title": _phase_title(view),
        "narration": [t for t in (narrate(i, names, view) for i in view.get("narration", [])) if t],
        "morning": [t for t in (narrate(i, names, view) for i in view.get("morning", [])) if t],
        "living": [row for row in rows if row["alive"]],
    }
    if d:
        context["day"] = _day(d, names)
    if outcome:
        context["winner_name"] = _winners_text(outcome["winners"], names)
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


# --------------------------------------------------------------------------------------------
# A phone's own things
# --------------------------------------------------------------------------------------------

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
NIGHT_ASKS = {
    C.MAFIAN: gettext_lazy("Whom do the Mafiáni shoot tonight? All of you must pick the same player."),
    C.SILENY_STRELEC: gettext_lazy("Tonight you shoot. At whom?"),
    C.MAG: gettext_lazy("Make a tunnel: bullets reaching the first player go on to the second."),
    C.SLINA: gettext_lazy("Whom do you slime tonight? Bullets slide off them."),
    C.EXHIBICIONISTA: gettext_lazy("Silence a player for tomorrow? You can do it once."),
    C.MEDIK: gettext_lazy("Play dead for the next day and night? Tap your own name for yes. You can do it once."),
    C.DUCH_BOBO: gettext_lazy("You are a ghost tonight. Silence a living player for tomorrow?"),
}
NIGHT_SKIP = gettext_lazy("Nobody tonight")   # the quiet button of every night step, whatever its card
NIGHT_TUNNEL_TO = gettext_lazy("Now tap where the tunnel leads.")


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
    return {"id": "", "title": str(_("Who do you suspect?")), "pair": False,
            "ask": str(_("Nothing to play here. Tap any name while you wait — it does nothing.")), "note": note,
            "grid": [_button(names[s], None) for s in living], "skip": _button(str(NIGHT_SKIP), None)}


def _step(p: dict, me: dict, names: list[str], living: list[int], confirmed: bool) -> dict:
    """One night prompt as a step: its buttons are exactly the engine's legal moves."""
    card, no, choice = p["card"], p["no"], p["choice"]
    moves = [] if confirmed or p["disabled"] else me["moves"]
    # One Mafián prompt stands for all the holder's Mafián cards: it is named without a number.
    step = {"id": p["id"], "title": CARD_NAMES[card] if card == C.MAFIAN else card_name(card, no),
            "ask": str(NIGHT_ASKS.get(card, "")), "note": "", "pair": card == C.MAG}
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
    return {
        "accuse_targets": _seats_named(sorted({m["target"] for m in accuse}), names),
        "accuse_claims": [{"type": t, "name": CARD_NAMES[t]} for t in C.CARD_TYPES
                          if any(m["claim"] == t for m in accuse)],
        "can": {kind: kind in kinds for kind in ("withdraw", "ready", "defend", "astronom", "done")},
        "vote_for": [names[m["candidate"]] for m in me["moves"] if m["type"] == "vote"],
        "vote_seat": next((m["candidate"] for m in me["moves"] if m["type"] == "vote"), None),
        "shoot_targets": _targets(me, "anarchist_shot", None, names),
    }


# --------------------------------------------------------------------------------------------
# The game-end replay (rules §3 [P]: the whole secret log, night by night, step by step)
# --------------------------------------------------------------------------------------------

def bullet_name(bullet: str) -> str:
    card = C.MAFIAN if bullet.startswith("M") else C.SILENY_STRELEC
    return _("the bullet of %(card)s") % {"card": card_name(card, int(bullet[1:]))}


def _share(fraction: str) -> str:
    """"1/2" → " (½ of it)"; a whole bullet says nothing."""
    return "" if Fraction(fraction) == 1 else _(" (%(fraction)s of it)") % {"fraction": fraction}


def _carried(fragments: list[dict]) -> str:
    return ", ".join(bullet_name(f["bullet"]) + _share(f["fraction"]) for f in fragments)


DISCARD_REASONS = {
    "maker_is_atheist": gettext_lazy("its holder is the Ateista"),
    "destination_is_atheist": gettext_lazy("it led onto the Ateista"),
    "origin_is_atheist": gettext_lazy("it led from the Ateista"),
    "target_is_atheist": gettext_lazy("it was put on the Ateista"),
}


def trace_step(step: dict, names: list[str]) -> str:
    """One step of a night's secret trace as a sentence."""
    kind, n = step["kind"], names
    if kind == "discard":
        what = (f"{n[step['from']]} → {n[step['to']]}" if step["card"] == C.MAG else n[step["target"]])
        return _("%(card)s (%(maker)s): %(what)s vanished — %(why)s.") % {
            "card": card_name(step["card"], step["no"]), "maker": n[step["maker"]], "what": what,
            "why": DISCARD_REASONS.get(step["reason"], step["reason"])}
    if kind == "fire":
        return _("%(origin)s fires %(bullet)s at %(target)s.") % {
            "origin": n[step["origin"]], "bullet": bullet_name(step["bullet"]), "target": n[step["target"]]}
    if kind == "tunnel":
        split = _(" (split %(k)s ways)") % {"k": step["split"]} if step["split"] > 1 else ""
        return _("Tunnel of %(card)s: %(what)s goes from %(from)s on to %(to)s%(split)s.") % {
            "card": card_name(C.MAG, step["mag"]), "what": _carried(step["carries"]), "from": n[step["from"]],
            "to": n[step["to"]], "split": split}
    if kind == "saliva":
        return _("%(at)s is slimed: %(what)s slides off and vanishes.") % {
            "at": n[step["at"]], "what": _carried(step["absorbs"])}
    if kind == "mirror":
        return _("%(at)s's %(card)s breaks: %(what)s.") % {
            "at": n[step["at"]], "card": card_name(C.ZRCADLO, step["no"]),
            "what": "; ".join(_("%(bullet)s flies back to %(to)s") % {
                "bullet": bullet_name(r["bullet"]) + _share(r["fraction"]), "to": n[r["to"]]}
                for r in step["reflects"])}
    if kind == "mrak_dies":
        return _("%(bullet)s hits %(at)s: %(card)s dies.") % {
            "bullet": bullet_name(step["bullet"]), "at": n[step["at"]],
            "card": card_name(C.MRAKOSLAP, step["no"])}
    if kind == "player_dies":
        return _("%(bullet)s hits %(at)s, who has no Mrakošlap left: %(at)s dies.") % {
            "bullet": bullet_name(step["bullet"]), "at": n[step["at"]]}
    if kind == "corpse":
        return _("%(what)s sticks in the body of %(at)s.") % {"what": _carried(step["fragments"]), "at": n[step["at"]]}
    return ""


def _choices_text(choices: dict, names: list[str]) -> list[str]:
    """What everybody chose that night (the choices as the engine collected them)."""
    lines = [_("%(name)s (Mafián) picked %(target)s.") % {"name": names[c["seat"]], "target": names[c["target"]]}
             for c in choices["mafia"]]
    for key, card in (("gunmen", C.SILENY_STRELEC), ("slime", C.SLINA), ("exhibit", C.EXHIBICIONISTA)):
        lines += [_("%(card)s → %(target)s.") % {"card": card_name(card, c["no"]), "target": names[c["target"]]}
                  for c in choices[key]]
    lines += [_("%(card)s: a tunnel %(from)s → %(to)s.") % {"card": card_name(C.MAG, c["no"]),
                                                            "from": names[c["from"]], "to": names[c["to"]]}
              for c in choices["tunnels"]]
    if choices["medik"]:
        lines.append(_("The Medik faked his death."))
    if choices["bobo"] is not None:
        lines.append(_("Duch Bobo silenced %(target)s.") % {"target": names[choices["bobo"]]})
    return lines


def _reveal(view: dict, names: list[str]) -> dict:
    reveal = view["reveal"]
    nights = []
    for trace in reveal["traces"]:
        if trace["skipped"]:
            nights.append({"night": trace["night"], "skipped": True, "choices": [], "steps": []})
            continue
        steps = [{"t": s["t"], "text": capfirst(trace_step(s, names))} for s in trace["result"]["trace"]]
        nights.append({"night": trace["night"], "skipped": False,
                       "choices": _choices_text(trace["choices"], names), "steps": steps})
    players = sorted(reveal["players"], key=lambda p: p["seat"])
    return {
        "hands": [{"name": names[p["seat"]], "alive": p["status"] != "DEAD", "cards": _cards(p["cards"]),
                   "dealt": ", ".join(card_name(c["type"], c["no"]) for c in reveal["dealt"][p["seat"]])}
                  for p in players],
        "mafia": [names[s] for s in reveal["mafia_met"]],
        "nights": nights,
    }


# --------------------------------------------------------------------------------------------
# Forms → actions
# --------------------------------------------------------------------------------------------

SEAT_FIELDS = {"mafia_target": ("target",), "bobo": ("target",), "gunman_target": ("no", "target"),
               "slime": ("no", "target"), "exhibit": ("no", "target"), "tunnel": ("no", "from", "to"),
               "vote": ("candidate",), "anarchist_shot": ("target",)}
PLAIN = ("done", "withdraw", "ready", "astronom")


def parse_action(post) -> dict:
    """Form fields of a phone's tap → an engine action (the engine validates everything)."""
    kind = post.get("action", "")
    if kind in SEAT_FIELDS:
        return {"type": kind, **{key: form_seat(post.get(key)) for key in SEAT_FIELDS[kind]}}
    if kind in PLAIN:
        return {"type": kind}
    if kind == "pass":
        return {"type": kind, "card": post.get("card", ""), "no": form_seat(post.get("no"))}
    if kind == "medik":
        return {"type": kind, "use": post.get("use") == "yes"}
    if kind == "defend":
        return {"type": kind, "how": post.get("how", "")}
    if kind == "accuse":
        text = showable(post.get("text") or "")
        if len(text) > 200:
            raise FormError(_("Say it in at most 200 characters."))
        return {"type": kind, "target": form_seat(post.get("target")), "claim": post.get("claim", ""),
                "text": text or None}
    raise FormError(_("Unknown action."))



# --------------------------------------------------------------------------------------------
# Lobby words and refusals
# --------------------------------------------------------------------------------------------

OPTION_LABELS = {
    "night_deadline_seconds": (gettext_lazy("Time to decide at night"),
                               gettext_lazy("Then the night ends; a missing choice does nothing.")),
    "night_min_seconds": (gettext_lazy("Shortest night"),
                          gettext_lazy("A night lasts at least this long, so nobody learns who had a card to "
                                       "play.")),
    "floor_auto_seconds": (gettext_lazy("Nobody accused: everyone is, after"), ""),
    "floor_max_seconds": (gettext_lazy("Longest discussion"), ""),
    "defence_seconds": (gettext_lazy("Defence per accused"), ""),
    "think_seconds": (gettext_lazy("Time to think before the vote"), ""),
    "vote_seconds": (gettext_lazy("Hands up: seconds per candidate"), ""),
    "refloor_seconds": (gettext_lazy("Discussion before a re-vote"), ""),
    "sentence_seconds": (gettext_lazy("Astronom window after a verdict"),
                         gettext_lazy("The condemned may still call NIGHT.")),
    "gunman_nights": (gettext_lazy("Šílený střelec shoots on"), ""),
    "atheist_blocks_tunnel_from": (gettext_lazy("Tunnels from the Ateista vanish too"),
                                   gettext_lazy("By the rulebook only tunnels onto him vanish.")),
    "votes_per_player": (gettext_lazy("Hands per player and round"), ""),
    "max_rounds": (gettext_lazy("Voting rounds per day"), ""),
    "astronom_can_save_others": (gettext_lazy("An Astronom may save the condemned"),
                                 gettext_lazy("Otherwise only the condemned's own NIGHT saves him.")),
}
OPTION_CHOICES = {
    "gunman_nights": {"even": gettext_lazy("even nights"), "odd": gettext_lazy("odd nights")},
    "votes_per_player": {"1": gettext_lazy("one"), "unlimited": gettext_lazy("one per candidate")},
}

ERRORS = {
    **COMMON_ERRORS,
    "bad_field": gettext_lazy("That request was malformed."),
    "no_clock": gettext_lazy("That is not possible right now."),
    "game_master_only": gettext_lazy("Only the game master's clock does that."),
    "asleep": gettext_lazy("You have nothing to do tonight."),
    "confirmed": gettext_lazy("You have already confirmed your night."),
    "disabled": gettext_lazy("The Ateista cannot use this card."),
    "no_prompt": gettext_lazy("That card has nothing to do tonight."),
    "bad_target": gettext_lazy("Pick a living player at this table."),
    "not_visible": gettext_lazy("Pick a living player at this table."),
    "self_target": gettext_lazy("Pick someone else."),
    "muted": gettext_lazy("You are silenced today."),
    "already_accusing": gettext_lazy("You already stand by an accusation."),
    "bad_claim": gettext_lazy("Name one of the cards."),
    "no_accusation": gettext_lazy("You have no accusation to withdraw."),
    "bad_defence": gettext_lazy("That request was malformed."),
    "not_candidate": gettext_lazy("That player is not being voted on now."),
    "already_voted": gettext_lazy("You have already raised your hand."),
    "wrong_state": gettext_lazy("That is not possible right now."),
    "no_astronom": gettext_lazy("You have no Astronom left."),
    "no_anarchist": gettext_lazy("You have no Anarchista shot left."),
}


# What each of a phone's templates reads of ``present``'s context (``phone_fragments``).
ROLE_READS = ("my_cards", "fellow_names", "notices", "fake_dead")
PANEL_READS = ("over", "fake_dead", "night", "phase_title", "night_steps", "can", "muted", "vote_for", "vote_seat",
               "day", "accuse_targets", "accuse_claims", "shoot_targets", "i_won", "winner_name", "reason_text")


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
