"""Every button a phone shows sends a legal move (presenters.button_action, docs/design.md §4).

A phone's buttons are made from the engine's legal moves, and one shared reading
(``presenters.button_action``) turns a button's fields back into a move for every ruleset. Play
seeded games of every ruleset, press (on paper) every button of every seated phone — a
``ws-send`` form of hidden fields and submit buttons, no choice of the player's own — and demand
that the presenter reads it as one of ``legal_actions`` for that seat at that moment.
"""

from __future__ import annotations

import functools
from html.parser import HTMLParser

import pytest
from django.http import QueryDict

from engines import registry
from mafiagames.presenters import parse_tap
from mafiagames.rendering import phone_screen
from tests.web.test_kept_keys import plays
from tests.web.test_no_leak_rendered import spread, table_for

# Filled in by app.js before it is sent: a tunnel's first tap names where it starts (``from``).
COMPLETED_BY_THE_PAGE = {"tunnel"}
# Both buttons on every crew member's phone, so a glance does not tell a mafioso (rules §A.2:
# he must play Success; the engine refuses his Fail in words): the move is legal in its shape.
SAME_ON_EVERY_PHONE = {("mafie", "play_action_card")}


class Forms(HTMLParser):
    """The ws-send forms of a fragment: their hidden fields, submit buttons, and whether the
    player chooses something in them (a box, a list, a text)."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []
        self.form: dict | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.form = {"sends": "ws-send" in attrs, "hidden": [], "buttons": [], "choice": False}
        elif self.form is None:
            return
        elif tag == "input" and attrs.get("type") == "hidden":
            self.form["hidden"].append((attrs["name"], attrs.get("value", "")))
        elif tag in ("input", "select", "textarea"):
            self.form["choice"] = True
        elif tag == "button" and attrs.get("type", "submit") == "submit":
            self.form["buttons"].append((attrs.get("name"), attrs.get("value")))

    def handle_endtag(self, tag):
        if tag == "form" and self.form is not None:
            self.forms.append(self.form)
            self.form = None


def presses(html: str):
    """Each button press of a fragment's forms, as the posted fields (htmx sends the button's
    own name and value with the form's)."""
    reader = Forms()
    reader.feed(html)
    for form in reader.forms:
        if not form["sends"] or form["choice"]:
            continue
        for name, value in form["buttons"]:
            fields = QueryDict(mutable=True)
            for key, raw in form["hidden"] + ([(name, value)] if name else []):
                fields.appendlist(key, raw)
            yield fields


@pytest.mark.parametrize("ruleset", registry.all(), ids=lambda r: r.slug)
def test_every_button_of_a_phone_is_read_as_a_legal_move(ruleset):
    parse = functools.partial(parse_tap, ruleset.slug)   # as taps.py reads a phone's form
    pressed = 0
    for play in plays(ruleset):
        kept: dict = {}   # as the server renders a room: fragments kept across its versions,
        for state in spread(play.states, 25):
            table, memo = table_for(ruleset, state, play.players, "en"), {}   # one memo a version
            for seat in range(play.players):
                legal = ruleset.legal_actions(state, seat)
                html = "".join(phone_screen(table, 100 + seat, memo=memo, kept=kept).values())
                for fields in presses(html):
                    if fields.get("action") in COMPLETED_BY_THE_PAGE:
                        continue
                    assert fields.get("turn") == str(state["turn"])
                    action = parse(fields)
                    if (ruleset.slug, action["type"]) in SAME_ON_EVERY_PHONE:
                        legal_shapes = [(move["type"], move.keys()) for move in legal]
                        assert (action["type"], action.keys()) in legal_shapes, f"seat {seat}: {action}"
                    else:
                        assert action in legal, f"seat {seat}'s button {dict(fields)} reads as {action}, not legal"
                    pressed += 1
    assert pressed > 30
