"""The Plot Thickens on phones (issue 4, in progress): every button a phone shows for a plot
move sends a form that the presenter turns into an action the engine accepts, and the buttons
are those of the engine's legal moves — no more, no fewer."""

from __future__ import annotations

import json

from django.http import QueryDict

from engines import registry
from engines.base import resolve_options
from mafiagames.presenters import mafie as words
from tests.engines.playthrough import random_playthrough

MAFIE = registry.get("mafie")
NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy"]
PLOT_MOVES = {"assign_plot_card", "overhear", "open_up", "take_plot_card", "play_plot_card", "pass_plot"}


def form(choice: dict, turn: int) -> QueryDict:
    data = QueryDict(mutable=True)
    data["turn"] = str(turn)
    for key, value in choice["fields"].items():
        data[key] = str(value)
    return data


def test_every_plot_button_sends_exactly_the_engines_legal_moves():
    checked = 0
    for players, seed in ((5, 1), (7, 2), (10, 3)):
        options = resolve_options(MAFIE, {"plot_cards": True})
        play = random_playthrough(MAFIE, players, options, seed)
        for state in play.states:
            for seat in MAFIE.waiting_for(state):
                legal = [a for a in MAFIE.legal_actions(state, seat) if a["type"] in PLOT_MOVES]
                if not legal:
                    continue
                view = MAFIE.view(state, seat)
                choices = words.present(view, NAMES[:players])["plot"]["choices"]
                sent = [words.parse_action(form(choice, view["turn"])) for choice in choices]
                assert sorted(map(json.dumps, sent)) == sorted(map(json.dumps, legal)), state["phase"]
                for action in sent:
                    MAFIE.apply(state, seat, action)  # raises if the engine refuses it
                checked += 1
    assert checked > 20


def test_phones_without_a_plot_move_show_no_plot_buttons():
    options = resolve_options(MAFIE, {"plot_cards": True})
    play = random_playthrough(MAFIE, 7, options, 4)
    for state in play.states:
        waiting = MAFIE.waiting_for(state)
        if (state.get("moments") or {}).get("on"):
            continue   # a result on the stage: phones show it, not their panel (tests/web/test_moments.py)
        for seat in range(7):
            if seat not in waiting:
                assert words.present(MAFIE.view(state, seat), NAMES[:7])["plot"]["choices"] == []
