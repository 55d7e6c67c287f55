"""Heads or Tails on the screens: the engine's codes and seats into words and names, and what
each template gets (mafiagames/presenters/__init__.py lists what a presenter provides).

A big ruleset splits this into ``words``, ``context`` and ``forms`` (mafiagames/presenters/mafie/);
this one fits in a page.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from mafiagames.presenters import (
    COMMON_ERRORS, LESSON_TITLES, FormError, button_action, fill, moment_part, names_of, narrated, slide, story_line,
    story_step, text,
)

TEMPLATE_DIR = "tiny"

# --- words -------------------------------------------------------------------------------------

ERRORS = {**COMMON_ERRORS, "bad_side": gettext_lazy("Call heads or tails.")}
OPTION_LABELS = {"seconds": (gettext_lazy("Time to call"), gettext_lazy("When it runs out, the coin is shown."))}
OPTION_CHOICES = {"seconds": {"30": "30 s", "60": "1 min", "off": gettext_lazy("No clock")}}
HOST_MOVES = {"reveal": gettext_lazy("Show the coin")}
SIDES = {"heads": gettext_lazy("Heads"), "tails": gettext_lazy("Tails")}
LINES = {
    "toss": gettext_lazy("The coin is tossed and covered. Call it on your phone!"),
    "shown": gettext_lazy("The coin shows %(side)s."),
}


def narrate(item: dict, names: list[str], view: dict) -> str:
    params = dict(item["params"])
    if "heads" in params:
        params["side"] = SIDES["heads" if params.pop("heads") else "tails"]
    return fill(LINES.get(item["code"]), params)


def role_text(view: dict) -> str:
    call = view["me"]["call"]
    return str(SIDES[call]) if call else str(gettext_lazy("no call"))


def story(events: list, names: list[str], ruleset: str, options: dict) -> list[dict]:
    """The game's story at its end: everyone's call (each told only to its caller until now),
    then the coin and who called it right."""
    calls = {event.audience[0]: event.data["side"] for event in events if event.kind == "call"}
    shown = next(event.data for event in events if event.kind == "shown")
    side = "heads" if shown["heads"] else "tails"
    right = [seat for seat, call in sorted(calls.items()) if call == side]
    return [
        story_step(gettext_lazy("The calls"), [
            story_line(fill(gettext_lazy("%(name)s called %(side)s."), {"name": name, "side": SIDES[calls[seat]]})
                       if seat in calls else fill(gettext_lazy("%(name)s did not call."), {"name": name}), seat)
            for seat, name in enumerate(names)]),
        story_step(fill(LINES["shown"], {"side": SIDES[side]}), [
            story_line(fill(gettext_lazy("Called it: %(names)s"), {"names": names_of(right, names)}), *right)
            if right else story_line(gettext_lazy("Nobody called it: the coin wins."))]),
    ]


WINNERS = {"players": gettext_lazy("The callers"), "coin": gettext_lazy("The coin")}


def side_words(code: str, ruleset: str, options: dict) -> str:
    return str(WINNERS.get(code, code))


def role_words(code: str, ruleset: str, options: dict) -> str:
    return str(gettext_lazy("Player")) if code == "player" else code


LESSON = {
    "coin": gettext_lazy("The coin"),
    "call": gettext_lazy("Call it"),
    "call_how": gettext_lazy("Tap heads or tails on your phone. Nobody else sees your call."),
    "shown": gettext_lazy("The coin is shown"),
    "shown_how": gettext_lazy("When everyone has called, when the host shows it, or when the clock runs out."),
}


def how_to_play(ruleset: str, options: dict) -> list[dict]:
    """Heads or Tails in five slides, of the words the game shows."""
    return [
        slide(LESSON["coin"], [LINES["toss"]]),
        slide(LESSON["call"], [LESSON["call_how"]], [(side, "") for side in SIDES.values()]),
        slide(LESSON["shown"], [LESSON["shown_how"], HOST_MOVES["reveal"]]),
        slide(OPTION_LABELS["seconds"][0], [OPTION_LABELS["seconds"][1]]),
        slide(LESSON_TITLES["end"], tiles=[(WINNERS["players"], ""), (WINNERS["coin"], "")]),
    ]


# --- context: what each template gets ----------------------------------------------------------

def present(view: dict, names: list[str]) -> dict:
    """The TV's board, roster and result (rendering.py adds each row's ``connected``), and the
    narration the TV shows and reads aloud."""
    outcome = view["outcome"]
    winners = set(outcome["winners"]) if outcome else set()
    return {"v": view, "phase_title": "", "narration": narrated(narrate, view["narration"], names, view),
            "rows": [{"seat": seat, "name": name, "called": view["called"][seat], "winner": seat in winners}
                     for seat, name in enumerate(names)],
            "side": SIDES["heads" if view["heads"] else "tails"] if view["heads"] is not None else None,
            "winner_names": [names[seat] for seat in sorted(winners)]}


def phone_fragments(view: dict, names: list[str], clock: dict) -> dict[str, tuple[str, dict]]:
    """A phone's card and panel, each a template and the only context it reads: every phone
    that still calls gets the same panel, every phone that has called another (the call itself
    is only on the card, under the thumb)."""
    me, outcome = view["me"], view["outcome"]
    return {
        "role": ("tiny/phone_role.html", {"call": str(SIDES[me["call"]]) if me["call"] else ""}),
        "panel": ("tiny/phone_panel.html", {
            **clock, "turn": view["turn"], "calling": me["call"] is None and outcome is None,
            "sides": [[side, str(words)] for side, words in SIDES.items()],
            "over": outcome is not None, "won": bool(outcome) and me["seat"] in outcome["winners"],
            "waiting": view["called"].count(False)}),
    }


def phone_board(view: dict, names: list[str]) -> tuple[str, dict]:
    """What every phone shows alike, from the TV's view: who has called."""
    return "tiny/phone_board.html", {"called": [name for name, done in zip(names, view["called"]) if done]}


# --- forms: a tap into an action ---------------------------------------------------------------

def parse_action(post) -> dict:
    """Both buttons are the engine's moves: the shared reading serves (the engine checks the side)."""
    action = button_action(post, {"call": {"side": text}})
    if action is None:
        raise FormError(str(COMMON_ERRORS["unknown_action"]))
    return action


def moment_words(event: dict, names: list[str], view: dict) -> dict:
    """The coin shown (engines/moments.py): every call by name, then the coin."""
    data = event["data"]
    calls = [f"{names[seat]}: {SIDES[call]}" for seat, call in enumerate(data["calls"]) if call]
    return moment_part("coin", gettext_lazy("The coin"), calls, SIDES["heads" if data["heads"] else "tails"])
