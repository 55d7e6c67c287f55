"""Mrakošlapi on the screens (issue 6): every button, select and form on a phone sends exactly
a move the engine allows; every living phone has a night screen of the same shape; a phone shows
its own cards with numbers and states; the TV shows the table, muted icons, the morning and the
day's hands — and only at the end every hand and each night's trace, step by step."""

from __future__ import annotations

import html
import itertools
import json
import re

import pytest
from django.http import QueryDict

from engines import registry
from engines.mrakoslapi import cards as C
from mafiagames import services
from mafiagames.models import Game as StoredGame
from mafiagames.presenters import FormError
from mafiagames.presenters import mrakoslapi as words
from mafiagames.rendering import Table, phone_screen, tv_screen
from tests.engines.playthrough import random_playthrough
from tests.engines.test_mrakoslapi_engine_game import DEAL, Game

from .helpers import Forms, host_client, room_with_players, start_after_briefing

MRAK = registry.engine("mrakoslapi")   # as its rulebook plays (no briefing: tests/engines/test_briefing.py)
NAMES = ["Ann", "Bob", "Cyd", "Dan", "Eve", "Fay", "Gus", "Hal"]
ALT = {"gunman_nights": "odd", "votes_per_player": "unlimited", "astronom_can_save_others": False}


def table(state, events=None, step: int = 0, told_all: bool = False) -> Table:
    """The room with this game; once it is over, with its log (``events``) and the story's step."""
    players = state["players"]
    seats = list(range(100, 100 + players))
    return Table(code="TEST", language="en", ruleset="mrakoslapi", options=state["options"],
                 players=[{"id": pid, "name": NAMES[i], "connected": True} for i, pid in enumerate(seats)],
                 game={"id": 1, "ruleset": "mrakoslapi", "state": state, "version": 3, "names": NAMES[:players],
                       "seats": seats, "status": "running" if state["phase"] != "over" else "finished",
                       "clock_started": 1_000_000.0, "options": state["options"],
                       "story": {"step": step, "all": told_all, "moved": None}},
                 story=events if state["phase"] == "over" else None)


def panel(state, seat) -> str:
    return phone_screen(table(state), 100 + seat)["ph-panel"]


def sent(form: dict, forms: list[dict] = ()) -> list[dict]:
    """Every action a form can send: each submit button × each combination of its selects.  A
    Mág's tunnel takes two taps (static/app.js): the first name tapped is where it starts, so a
    tunnel form sends ``from`` = any name of the same card's forms."""
    selects = sorted(form["selects"].items())
    if form["hidden"].get("action") == "tunnel" and "from" not in form["hidden"]:
        starts = [f["hidden"]["to"] for f in forms if f["hidden"].get("action") == "tunnel"
                  and f["hidden"]["no"] == form["hidden"]["no"]]
        selects.append(("from", starts))
    actions = []
    for button in form["buttons"]:
        for values in itertools.product(*(options for _, options in selects)):
            data = QueryDict(mutable=True)
            for key, value in form["hidden"].items():
                data[key] = value
            if button[0]:
                data[button[0]] = button[1]
            for (key, _), value in zip(selects, values):
                data[key] = value
            actions.append(words.parse_action(data))
    return actions


# Night 1 of the scripted game (tests/engines/test_mrakoslapi_engine_game.py): Ann and Bob agree
# on Fay, Bob tunnels Fay → Cyd, Cyd slimes Eve, Fay slimes Dan, Eve exhibits Ann.
NIGHT_ONE = [(0, {"type": "mafia_target", "target": 5}), (1, {"type": "mafia_target", "target": 5}),
             (1, {"type": "tunnel", "no": 1, "from": 5, "to": 2}), (2, {"type": "slime", "no": 1, "target": 4}),
             (5, {"type": "slime", "no": 2, "target": 3}), (4, {"type": "exhibit", "no": 1, "target": 0})]


def night_one(steps: int = len(NIGHT_ONE)) -> Game:
    g = Game()
    for seat, action in NIGHT_ONE[:steps]:
        g.do(seat, action)
    return g


def canonical(actions) -> list[str]:
    return sorted(json.dumps({k: v for k, v in a.items() if k != "text"}, sort_keys=True) for a in actions)


@pytest.mark.parametrize("options", [{}, ALT], ids=["default", "alt"])
def test_every_control_on_a_phone_sends_exactly_a_move_the_engine_allows(options):
    checked = set()
    for players, seed in ((6, 1), (8, 2), (7, 5)):
        play = random_playthrough(MRAK, players, options, seed)
        for state in play.states[::2]:
            if state["phase"] == "over":
                continue
            for seat in range(players):
                legal = MRAK.legal_actions(state, seat)
                forms = Forms(panel(state, seat)).forms
                offered = [a for form in forms for a in sent(form, forms)]
                # A tunnel form offers every ordered pair; a pair of one player twice is refused.
                offered = [a for a in offered if not (a["type"] == "tunnel" and a["from"] == a["to"])]
                assert canonical(offered) == canonical(legal), (state["phase"], seat)
                checked |= {a["type"] for a in legal}
                for action in offered[:1] + offered[-1:]:
                    MRAK.apply(state, seat, action)       # raises if the engine refuses it
    assert {"mafia_target", "tunnel", "slime", "done", "accuse", "ready", "vote", "defend"} <= checked


def test_every_living_phone_gets_a_night_screen_of_the_same_shape():
    g = Game()
    html = {seat: panel(g.state, seat) for seat in range(6)}
    for seat in range(6):
        forms = Forms(html[seat])
        assert any(f["buttons"] == [("action", "done")] for f in forms.forms)     # everyone confirms
        assert "Night 1" in html[seat] and 'data-deadline="' in html[seat]
    # Dan (3) holds no night card: his steps ask a question that sends nothing — as many steps
    # (a hand of six) with a button per living player and a quiet one, as on every phone.
    dan = Forms(html[3])
    assert dan.decoys == 6 * (6 + 1) and len(dan.forms) == 1
    assert html[3].count('class="prompt card step"') == html[0].count('class="prompt card step"') == 6
    # Ann (0) holds two Mafián cards: one choice for both; she sees her night-1 fellow Bob.
    ann = Forms(html[0])
    assert sum(f["hidden"].get("action") == "mafia_target" for f in ann.forms) == 6
    assert "The Mafiáni tonight:" in html[0] and "Bob" in html[0]
    assert "The Mafiáni tonight" not in html[2]
    # Bob's Mág: a tunnel from a name to a name (two taps), and "Nobody tonight".
    bob = Forms(html[1])
    tunnels = [f for f in bob.forms if f["hidden"].get("action") == "tunnel"]
    assert sorted(f["hidden"]["to"] for f in tunnels) == ["0", "1", "2", "3", "4", "5"]
    assert any(f["hidden"].get("action") == "pass" and f["hidden"]["card"] == C.MAG for f in bob.forms)


def test_a_choice_is_shown_until_done_then_the_phone_waits():
    g = night_one(3)
    html = panel(g.state, 1)
    assert "Your choice: Fay → Cyd" in html
    assert re.search(r'name="to" value="5"><button type="submit" class="choice" aria-pressed="true">Fay</button>', html)
    assert "Ann → Fay" in html                                           # the night-1 mafia room
    g.do(1, {"type": "done"})
    html = panel(g.state, 1)
    assert "Your night is set" in html and Forms(html).forms == []


def test_the_phone_shows_its_own_cards_with_numbers_and_states_and_the_dead_see_none():
    g = night_one()
    g.finish_night()
    role = phone_screen(table(g.state), 102)["ph-role"]
    assert "Slina 1" in role and "Zrcadlo 1" in role and "(broken)" in role
    assert phone_screen(table(g.state), 100)["ph-role"].count("Mafián") >= 2
    dead = phone_screen(table(g.state), 105)
    assert "You are out of the game" in dead["ph-role"] and "Slina" not in dead["ph-role"]
    assert "Stay silent" in dead["ph-panel"]


def test_the_tv_shows_the_morning_muted_players_and_the_day_hands_but_never_the_night():
    g = night_one()
    night = "".join(tv_screen(table(g.state), host=True).values())
    assert "Fay" in night and "Cyd" in night      # names on the roster only
    assert "tunnel" not in night.lower() and "Mág" not in night and "Slina" not in night
    g.finish_night()
    tv = "".join(tv_screen(table(g.state), host=True).values())
    for line in ("Shots fired: 3", "Slimed: Dan, Eve", "Exhibited (silent today): Ann", "Mirrors broken: 1",
                 "Mrakošlapy died: —", "Died: Fay"):
        assert line in tv
    assert 'class="badge muted"' in tv and "tunnel" not in tv.lower() and "Mág" not in tv
    # Ann is silenced: her phone says so and offers no accusation.
    ann = panel(g.state, 0)
    assert "You are silenced today" in ann
    assert not any(f["hidden"].get("action") == "accuse" for f in Forms(ann).forms)
    g.do(3, {"type": "accuse", "target": 1, "claim": C.MAFIAN, "text": "<b>he smiled</b>"})
    tv = "".join(tv_screen(table(g.state), host=True).values())
    assert "Accused: Bob (by Dan)" in tv and "&lt;b&gt;he smiled&lt;/b&gt;" in tv and "<b>he smiled" not in tv
    g.do(2, {"type": "accuse", "target": 0, "claim": C.MAFIAN})
    for seat in (1, 2, 3):
        g.do(seat, {"type": "ready"})
    g.do(1, {"type": "defend", "how": "spoke"})
    g.clock("open_votes")
    for seat in (2, 3, 4):
        g.do(seat, {"type": "vote", "candidate": 1})
    tv = "".join(tv_screen(table(g.state), host=True).values())
    assert "hands up now" in tv and "✋ Cyd, Dan, Eve" in tv
    assert "Raise my hand: Bob should die" in panel(g.state, 0)   # Ann has not voted yet
    g.clock("close_window")
    g.do(1, {"type": "vote", "candidate": 0})
    g.clock("close_window")
    sentence = tv_screen(table(g.state), host=True)
    assert "Sentenced: Bob." in "".join(sentence.values())
    # The Astronom window is a server-side clock: the screens count down to its due time.
    due = round((1_000_000.0 + g.state["clock"]["seconds"]) * 1000)
    assert g.state["clock"]["seconds"] == 10.5 and f'data-deadline="{due}"' in sentence["tv-main"]


# The scripted game of tests/engines/test_mrakoslapi_engine_game.py after its first night, to
# Eve's win: (seat, action), or None and the game master's clock move.
TO_THE_END = [
    (3, {"type": "accuse", "target": 1, "claim": C.MAFIAN}), (2, {"type": "accuse", "target": 0, "claim": C.MAFIAN}),
    (1, {"type": "ready"}), (2, {"type": "ready"}), (3, {"type": "ready"}), (1, {"type": "defend", "how": "spoke"}),
    (None, "open_votes"), (2, {"type": "vote", "candidate": 1}), (3, {"type": "vote", "candidate": 1}),
    (4, {"type": "vote", "candidate": 1}), (None, "close_window"), (1, {"type": "vote", "candidate": 0}),
    (None, "close_window"), (None, "close_sentence"),
    (0, {"type": "mafia_target", "target": 3}), (None, "night"),
    (2, {"type": "accuse", "target": 0, "claim": C.MAFIAN}), (2, {"type": "ready"}), (4, {"type": "ready"}),
    (0, {"type": "defend", "how": "waived"}), (None, "open_votes"), (2, {"type": "vote", "candidate": 0}),
    (4, {"type": "vote", "candidate": 0}), (None, "close_window"), (None, "close_sentence"),
    (4, {"type": "anarchist_shot", "target": 2}),
]


def test_at_the_end_the_story_tells_every_night_step_by_step():
    g = night_one()
    g.finish_night()
    for seat, action in TO_THE_END:
        before = "".join(tv_screen(table(g.state, g.events), host=True).values())
        assert "data-story" not in before and "Mág" not in before     # nothing of the nights before the end
        if action == "night":
            g.finish_night()
        elif seat is None:
            g.clock(action)
        else:
            g.do(seat, action)
    assert g.state["phase"] == "over"
    tv = "".join(tv_screen(table(g.state, g.events, step=0), host=True).values())
    assert "The hands as dealt" in tv and "Mafián holders of night 1: Ann, Bob" in tv
    def lines(step: int) -> list[str]:
        tv = "".join(tv_screen(table(g.state, g.events, step=step), host=True).values())
        assert f'data-story-step="{step}"' in tv
        return [html.unescape(re.sub(r"<[^>]+>", "", s)).strip()
                for s in re.findall(r'<ul class="story-lines">(.*?)</ul>', tv, re.S)[0].split("</li>") if s.strip()]
    assert "Bob (Mafián) picked: Fay." in lines(1) and "Mág 1: a tunnel Fay → Cyd." in lines(1)
    steps = lines(2) + lines(3)   # what happened, on two pages (story.paged)
    assert steps[:3] == ["Shot Ann → Fay: the bullet of Mafián 1.", "Shot Ann → Fay: the bullet of Mafián 2.",
                         "Shot Bob → Fay: the bullet of Mafián 3."]
    assert steps[3] == "Tunnel of Mág 1, Fay → Cyd: the bullet of Mafián 1, the bullet of Mafián 2, the " \
                       "bullet of Mafián 3 goes on."
    assert steps[4].startswith("Cyd — Zrcadlo 1 breaks: the bullet of Mafián 1 flies back → Fay")
    # Cyd's phone marks the lines about Cyd (the tunnel's end, the mirror).
    cyd = phone_screen(table(g.state, g.events, step=1), 102)["ph-panel"]   # the choices
    assert re.search(r'<li class="mine">Mág 1: a tunnel Fay → Cyd. <span class="you">you</span></li>', cyd)
    every = "".join(tv_screen(table(g.state, g.events, step=2, told_all=True), host=True).values())
    assert 'data-story-all="1"' in every and "Night 1" in every and "Night 2" in every
    # The winner's line is one sentence, on the TV and on every phone ("Eve wins!", never
    # "Eve wins! win!": the end panel shared by every ruleset words a side, "… win!").
    winner = MRAK.outcome(g.state).winners
    assert len(winner) == 1
    said = f"{NAMES[winner[0]]} wins!"
    for seat in range(g.state["players"]):
        end = html.unescape(re.sub(r"<[^>]+>", "", phone_screen(table(g.state, g.events, step=0), 100 + seat)["ph-panel"]))
        assert said in end and "wins! win!" not in end
    assert said in html.unescape(every) and "wins! win!" not in html.unescape(every)


def test_bad_forms_get_a_clear_message():
    for post in ({"action": "fly"}, {"action": "slime", "no": "x", "target": "1"},
                 {"action": "accuse", "target": "1", "claim": "MAG", "text": "x" * 201}):
        data = QueryDict(mutable=True)
        data.update(post)
        with pytest.raises(FormError):
            words.parse_action(data)
    data = QueryDict(mutable=True)
    data.update({"action": "accuse", "target": "2", "claim": "MAG", "text": "  "})
    assert words.parse_action(data) == {"type": "accuse", "target": 2, "claim": "MAG", "text": None}



def test_by_day_a_glance_at_a_phone_does_not_tell_who_holds_a_day_card():
    g = night_one()
    g.finish_night()
    folds = {}
    for seat in range(5):                                     # Fay died in the night
        html = panel(g.state, seat)
        fold = re.search(r'<details class="card day-cards".*?</details>', html, re.S)
        outside = re.sub(r"<select.*?</select>", "", html.replace(fold.group(0), ""), flags=re.S)  # claims name every card
        assert "Astronom" not in outside and "Anarchista" not in outside
        folds[seat] = fold.group(0)
    assert "anarchist_shot" in folds[4] and "anarchist_shot" not in folds[3]     # Eve holds the Anarchista
    assert len({re.search(r"<summary>.*?</summary>", f).group(0) for f in folds.values()}) == 1


@pytest.mark.django_db
def test_the_host_ends_the_discussion_on_the_floor_from_the_tv():
    """The floor's clock runs minutes (T_floor_auto, T_floor_max): the host's bar has a button
    that ends the discussion now (docs/rules/mrakoslapi.md §11.3), and a second click is stale."""
    room, players = room_with_players(6)
    services.configure(room, "mrakoslapi", {})
    quiet = {"hands": [[{"type": C.MRAKOSLAP, "no": seat + 1}] for seat in range(6)]}   # no night to play
    game = start_after_briefing(room, seed=3, deal=quiet)
    assert game.state["day"]["state"] == "FLOOR"
    host = host_client(room)
    tv = host.get(f"/r/{room.code}/").content.decode()
    assert 'value="end_discussion"' in tv and "End the discussion: defences" in tv
    turn = game.state["turn"]
    assert host.post(f"/r/{room.code}/host", {"command": "move", "move": "end_discussion",
                                              "turn": turn}).status_code == 204
    game = StoredGame.objects.get(pk=game.pk)
    assert game.state["day"]["state"] == "DEFENCE" and game.state["day"]["candidates"] == list(range(6))
    assert host.post(f"/r/{room.code}/host", {"command": "move", "move": "end_discussion",
                                              "turn": turn}).status_code == 409
    assert 'value="end_discussion"' not in host.get(f"/r/{room.code}/").content.decode()
