"""Mrakošlapi: the words — every translated table (card names and help, card states, notices,
narration and replay lines) and the sentences made of them (narration, refusals, the host's
buttons, option labels). One place for each word; the context (``context.py``) and the forms
(``forms.py``) use them."""

from __future__ import annotations

from fractions import Fraction

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engines.mrakoslapi import cards as C
from engines.mrakoslapi import day as D

from .. import COMMON_ERRORS, LESSON_TITLES, fill, moment_part, seconds, slide, table_words


# The host's button on the floor and the re-floor (docs/rules/mrakoslapi.md §11.3, "Ending the
# discussion"): the defences come next, of the accused or, with nobody accused, of everyone.
HOST_MOVES = {"end_discussion": gettext_lazy("End the discussion: defences")}


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


def winners_text(winners: list[int], names: list[str]) -> str:
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
            params[key] = winners_text(value, names)
        else:
            params[key] = value
    return fill(line, params)


# How a game ended (``Outcome.winner``: everyone plays for themselves, rules §0.2) and the one
# "role" every seat has (the engine's ``roles``): the evening's scoreboard and statistics.
SIDES = {"last_alive": gettext_lazy("The last one alive"), "shared": gettext_lazy("A shared victory")}
ROLES = {"player": gettext_lazy("Player")}


side_words = table_words(SIDES, "How a game was won, in words (the evening's scoreboard).")
role_words = table_words(ROLES, "A seat's role in words (the admin's statistics).")
reason_words = table_words(REASONS, "How a game ended, in words (the admin's games).")


TITLES = {"mrakoslapi": gettext_lazy("Mrakošlapi")}


def role_text(view: dict) -> str:
    """A seat's cards in words, from its own view: the reveal of a game the host ended."""
    cards = view["me"]["cards"]
    return ", ".join(card_name(c["type"], c["no"]) for c in cards) if cards is not None else str(_("out of the game"))


# "How to play" (rules §0): what the game's own words do not say of a round.
LESSON_LINES = {
    "alone": gettext_lazy("Everyone for themselves"),
    "cards": gettext_lazy("You hold a few secret cards: spare lives, night powers and day powers. Keep them "
                          "to yourself."),
    "night_cards": gettext_lazy("Cards for the night"),
    "day_cards": gettext_lazy("Cards for the day"),
    "night": gettext_lazy("Night"),
    "night_how": gettext_lazy("At night every card with a night power asks on your phone. Then the bullets fly: "
                              "tunnels, saliva and mirrors send them on, and each hit costs a Mrakošlap or a life."),
    "morning": gettext_lazy("In the morning the TV tells what happened, but never who did it."),
    "day_how": gettext_lazy("By day you accuse, defend and raise hands: the condemned loses a Mrakošlap or dies."),
}


# The day's steps as the TV names them, in their order (rules §5.2).
DAY_ORDER = (D.FLOOR, D.DEFENCE, D.THINK, D.VOTE, D.SENTENCE)


def how_to_play(ruleset: str, options: dict) -> list[dict]:
    """The lesson before a first game: alone against everyone, the cards a few at a time (each
    with what it does), the night, the day."""
    def tiles(types) -> list:
        return [(CARD_NAMES[card], CARD_HELP[card]) for card in types]

    night_cards = [card for card in C.NIGHT_TYPES if card != C.MRAKOSLAP]
    return [
        slide(LESSON_LINES["alone"], [LESSON_LINES["cards"], REASONS[D.LAST_ALIVE], REASONS[D.ALL_DEAD]],
              tiles([C.MRAKOSLAP])),
        slide(LESSON_LINES["night_cards"], tiles=tiles(night_cards[:5])),
        slide(LESSON_LINES["night_cards"], tiles=tiles(night_cards[5:])),
        slide(LESSON_LINES["day_cards"], tiles=tiles(C.DAY_TYPES[:4])),
        slide(LESSON_LINES["day_cards"], tiles=tiles(C.DAY_TYPES[4:])),
        slide(LESSON_LINES["night"], [LESSON_LINES["night_how"], LESSON_LINES["morning"]]),
        slide(LESSON_TITLES["day"],
              [LESSON_LINES["day_how"], " → ".join(str(DAY_STATES[state]) for state in DAY_ORDER)]),
    ]


NIGHT_ASKS = {
    C.MAFIAN: gettext_lazy("Whom do the Mafiáni shoot tonight? All of you must pick the same player."),
    C.SILENY_STRELEC: gettext_lazy("Tonight you shoot. At whom?"),
    C.MAG: gettext_lazy("Make a tunnel: bullets reaching the first player go on to the second."),
    C.SLINA: gettext_lazy("Whom do you slime tonight? Bullets slide off them."),
    C.EXHIBICIONISTA: gettext_lazy("Silence a player for tomorrow? You can do it once."),
    C.MEDIK: gettext_lazy("Play dead for the next day and night? Tap your own name for yes. You can do it once."),
    C.DUCH_BOBO: gettext_lazy("You are a ghost tonight. Silence a living player for tomorrow?"),
}


# The "?" of a night step without a card of this phone's (context.night_steps): why it is there.
IDLE_HELP = gettext_lazy("No card of yours acts here: what you tap sends nothing. Every phone has as many "
                         "steps, so nobody can tell who holds which card.")


NIGHT_SKIP = gettext_lazy("Nobody tonight")   # the quiet button of every night step, whatever its card


NIGHT_TUNNEL_TO = gettext_lazy("Now tap where the tunnel leads.")


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
        return _("Shot %(origin)s → %(target)s: %(bullet)s.") % {
            "origin": n[step["origin"]], "bullet": bullet_name(step["bullet"]), "target": n[step["target"]]}
    if kind == "tunnel":
        split = _(" (split %(k)s ways)") % {"k": step["split"]} if step["split"] > 1 else ""
        return _("Tunnel of %(card)s, %(from)s → %(to)s: %(what)s goes on%(split)s.") % {
            "card": card_name(C.MAG, step["mag"]), "what": _carried(step["carries"]), "from": n[step["from"]],
            "to": n[step["to"]], "split": split}
    if kind == "saliva":
        return _("%(at)s is slimed: %(what)s slides off and vanishes.") % {
            "at": n[step["at"]], "what": _carried(step["absorbs"])}
    if kind == "mirror":
        return _("%(at)s — %(card)s breaks: %(what)s.") % {
            "at": n[step["at"]], "card": card_name(C.ZRCADLO, step["no"]),
            "what": "; ".join(_("%(bullet)s flies back → %(to)s") % {
                "bullet": bullet_name(r["bullet"]) + _share(r["fraction"]), "to": n[r["to"]]}
                for r in step["reflects"])}
    if kind == "mrak_dies":
        return _("%(bullet)s hits: %(at)s. %(card)s dies.") % {
            "bullet": bullet_name(step["bullet"]), "at": n[step["at"]],
            "card": card_name(C.MRAKOSLAP, step["no"])}
    if kind == "player_dies":
        return _("%(bullet)s hits: %(at)s, no Mrakošlap left. %(at)s dies.") % {
            "bullet": bullet_name(step["bullet"]), "at": n[step["at"]]}
    if kind == "corpse":
        return _("%(at)s is already dead: %(what)s sticks in the body.") % {"what": _carried(step["fragments"]), "at": n[step["at"]]}
    return ""


def choice_lines(choices: dict, names: list[str]) -> list[tuple[str, list[int]]]:
    """What everybody chose that night (the choices as the engine collected them): each line's
    words and the seats it names."""
    lines = [(_("%(name)s (Mafián) picked: %(target)s.") % {"name": names[c["seat"]], "target": names[c["target"]]},
              [c["seat"], c["target"]]) for c in choices["mafia"]]
    for key, card in (("gunmen", C.SILENY_STRELEC), ("slime", C.SLINA), ("exhibit", C.EXHIBICIONISTA)):
        lines += [(_("%(card)s → %(target)s.") % {"card": card_name(card, c["no"]), "target": names[c["target"]]},
                   [c["target"]]) for c in choices[key]]
    lines += [(_("%(card)s: a tunnel %(from)s → %(to)s.") % {"card": card_name(C.MAG, c["no"]),
                                                             "from": names[c["from"]], "to": names[c["to"]]},
               [c["from"], c["to"]]) for c in choices["tunnels"]]
    if choices["medik"]:
        lines.append((_("The Medik faked his death."), []))
    if choices["bobo"] is not None:
        lines.append((_("Duch Bobo silenced: %(target)s.") % {"target": names[choices["bobo"]]}, [choices["bobo"]]))
    return lines


# The host's settings fold the timers under "Advanced" (rules §5.2: the rulebook's defaults).
ADVANCED_OPTIONS = frozenset({"night_deadline_seconds", "night_min_seconds", "floor_auto_seconds", "floor_max_seconds",
                              "defence_seconds", "think_seconds", "vote_seconds", "refloor_seconds",
                              "sentence_seconds"})

OPTION_LABELS = {
    "night_deadline_seconds": (gettext_lazy("Time to decide at night"),
                               gettext_lazy("Then the night ends; a missing choice does nothing.")),
    "night_min_seconds": (gettext_lazy("Shortest night"),
                          gettext_lazy("A night lasts at least this long, so nobody learns who had a card to "
                                       "play.")),
    "floor_auto_seconds": (gettext_lazy("Nobody accused: everyone is, after"),
                           gettext_lazy("If nobody has accused anyone by then, every living player is accused.")),
    "floor_max_seconds": (gettext_lazy("Longest discussion"),
                          gettext_lazy("Then the discussion ends, if an accusation stands.")),
    "defence_seconds": (gettext_lazy("Defence per accused"), gettext_lazy("How long each accused may speak.")),
    "think_seconds": (gettext_lazy("Time to think before the vote"),
                      gettext_lazy("A short silence before the first hands go up.")),
    "vote_seconds": (gettext_lazy("Hands up: seconds per candidate"),
                     gettext_lazy("A hand raised later does not count.")),
    "refloor_seconds": (gettext_lazy("Discussion before a re-vote"),
                        gettext_lazy("After a tie: accusations may be changed before the next vote.")),
    "sentence_seconds": (gettext_lazy("Astronom window after a verdict"),
                         gettext_lazy("The condemned may still call NIGHT.")),
    "gunman_nights": (gettext_lazy("Šílený střelec shoots on"),
                      gettext_lazy("He shoots every second night: which ones.")),
    "atheist_blocks_tunnel_from": (gettext_lazy("Tunnels from the Ateista vanish too"),
                                   gettext_lazy("By the rulebook only tunnels onto him vanish.")),
    "votes_per_player": (gettext_lazy("Hands per player and round"),
                         gettext_lazy("For one candidate only, or for as many as a player likes.")),
    "max_rounds": (gettext_lazy("Voting rounds per day"),
                   gettext_lazy("After this many tied rounds nobody is condemned that day.")),
    "astronom_can_save_others": (gettext_lazy("An Astronom may save the condemned"),
                                 gettext_lazy("Otherwise only the condemned's own NIGHT saves him.")),
}


OPTION_CHOICES = {
    "night_deadline_seconds": seconds("30", "45", "60", "90", "120"),
    "night_min_seconds": seconds("10", "20", "30"),
    "floor_auto_seconds": seconds("120", "180", "300", "420"),
    "floor_max_seconds": seconds("300", "450", "600", "900"),
    "defence_seconds": seconds("30", "45", "60", "90"),
    "think_seconds": seconds("5", "10", "15"),
    "vote_seconds": seconds("3", "5", "8", "10"),
    "refloor_seconds": seconds("60", "120", "180"),
    "sentence_seconds": seconds("5", "10", "15"),
    "gunman_nights": {"even": gettext_lazy("even nights"), "odd": gettext_lazy("odd nights")},
    "votes_per_player": {"1": gettext_lazy("one"), "unlimited": gettext_lazy("one per candidate")},
    "max_rounds": {rounds: rounds for rounds in ("1", "2", "3")},
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


# Moments (engines/moments.py): the morning report, an execution.
MORNING = gettext_lazy("The morning")
VERDICT = gettext_lazy("The verdict")
EXECUTED = {D.ESCAPED_OUTCOME: gettext_lazy("%(seat)s slips out of the noose."),
            D.LIFE_LOST: gettext_lazy("%(seat)s is hanged and loses a life."),
            D.KILLED: gettext_lazy("%(seat)s is hanged and dies.")}


def moment_words(event: dict, names: list[str], view: dict) -> dict:
    """One event of a moment in words: the morning's lines one by one (rules §4), or the
    executed player's fate (§5.7)."""
    data = event["data"]
    if event["kind"] == "morning":
        lines = [narrate(line, names, view) for line in data["lines"]]
        return moment_part("death", MORNING, [line for line in lines if line])
    return moment_part("verdict", VERDICT, (), fill(EXECUTED.get(data["outcome"]), {"seat": names[data["seat"]]}))
