"""GRANNA's extended version on the screens (issue 18; rules B.3.4, B.3.5): the action cards'
words, each phone's card area, the reaction windows in one shape on every living phone, the
TV's badges and cards, the reveal and the story — rendered without a server from seeded random
games with the cards on (tests/engines/playthrough.py), as tests/web/test_no_leak_rendered.py
does; and the rendered no-leak, kept-keys and buttons-are-moves oracles run on these games."""

from __future__ import annotations

import functools
import html
import re

import pytest
from django.utils import translation

from engines import registry
from engines.base import resolve_options
from engines.classic import cards as C
from mafiagames.presenters import classic
from mafiagames.presenters.classic import cards as card_words
from mafiagames.presenters.classic import words
from mafiagames.rendering import phone_screen, tv_screen
from tests.engines.playthrough import random_playthrough
from tests.web import test_buttons_are_moves, test_kept_keys, test_no_leak_rendered
from tests.web.test_effect_help import effects
from tests.web.test_night_fingerprint import fingerprint
from tests.web.test_no_leak_rendered import NAMES, table_for

GRANNA = registry.get("granna")
ALL_CARDS = {C.card_option(card): True for card in C.SINGLE_CARDS}
LANGUAGES = ("en", "cs", "pl", "uk")


def extended(**more) -> dict:
    """GRANNA's options with the action cards on (every single card chosen unless ``more`` says)."""
    return {**resolve_options(GRANNA, {}), "moments": False, "action_cards": True, "new_gang": True,
            **ALL_CARDS, **more}


@functools.cache
def games() -> tuple:
    """Seeded random games with the cards on: 13 players (3 of the 13 cards drawn), 12 in the
    children's words with moments, 21 with the New Gang (and 2 more cards), and a small game of
    every card the others leave out."""
    return (random_playthrough(GRANNA, 13, extended(new_gang=False), 1),
            random_playthrough(GRANNA, 12, extended(new_gang=False, kids_retheme=True, moments=True), 2),
            random_playthrough(GRANNA, 21, extended(), 3),
            random_playthrough(GRANNA, 12, extended(new_gang=False, **{C.card_option(card): card in (
                C.VEST, C.BANDAGE, C.ROLE_SWAP) for card in C.SINGLE_CARDS}), 4),
            random_playthrough(GRANNA, 12, extended(new_gang=False, **{C.card_option(card): card in (
                C.RECRUITMENT, C.CAPTURE, C.SAFE_CONDUCT) for card in C.SINGLE_CARDS}), 5))


def states():
    for play in games():
        for state in play.states:
            yield play, state


def panels(play, state, kept: dict) -> list[str]:
    """Every seat's phone panel at ``state``, made as the server makes a room version's phones:
    one room, one memo for all of them, and the room's ``kept`` fragments across its versions
    (tests/web/test_no_leak_rendered.py holds that sharing them changes no screen)."""
    table, shared = table_for(GRANNA, state, play.players, "en"), {}
    return [phone_screen(table, 100 + seat, memo=shared, kept=kept)["ph-panel"] for seat in range(play.players)]


def test_the_sample_games_deal_play_and_open_every_kind_of_window():
    dealt = {card for play in games() for card in play.start["cards"]["box"]}
    played = {entry["card"] for play in games() for entry in play.final["cards"]["face_up"]}
    windows = {state["cards"]["window"]["kind"] for _play, state in states() if state["phase"] == "card_window"}
    phases = {state["phase"] for _play, state in states()}
    assert {C.VEST, C.BANDAGE, C.ROLE_SWAP, C.RECRUITMENT, C.CAPTURE, C.NEW_GANG, C.LEADER} <= dealt
    assert len(played) >= 4, played
    assert {C.DAY_START, C.DAY_END, C.DAWN} <= windows, windows
    assert {"role_swap", "new_gang", "card_window"} <= phases


def test_every_card_narration_line_has_words_in_every_language_and_theme():
    seen = set()
    for play, state in states():
        view = GRANNA.view(state, None)
        for item in state["narration"]:
            seen.add(item["code"])
            for language in LANGUAGES:
                with translation.override(language):
                    text = classic.narrate(item, [f"P{i}" for i in range(play.players)], view)
                assert text and "%(" not in text, f"no {language} words for {item}"
    assert {"cards_dealt", "leader_shown", "role_swap", "new_gang_step", "window_day_start",
            "window_day_end"} <= seen, seen


def test_every_card_window_option_and_refusal_has_words_in_every_language():
    for language in LANGUAGES:
        with translation.override(language):
            for card in (*C.SINGLE_CARDS, C.NEW_GANG, C.NEUTRAL):
                assert str(card_words.CARD_NAMES[card]) and str(card_words.CARD_EFFECTS[card])
            for kind in C.WINDOW_CARDS:
                assert str(card_words.WINDOW_TITLES[kind]) and str(card_words.WINDOW_TEXTS[kind])
            for label, help_text in card_words.OPTION_LABELS.values():
                assert str(label) and str(help_text)


def test_during_a_card_window_every_living_phone_has_the_same_shape():
    """rules §0 anti-tell (issue 18): in a reaction window, in the day's talk (Shot from Around
    the Corner) and at the mafia's step (Recruitment), a holder's play buttons must not change
    his phone's shape at a glance: every living phone shows the same tag tree, buttons and text
    lengths (tests/web/test_night_fingerprint.py's fingerprint)."""
    checked = holders = 0
    for play in games():
        kept: dict = {}
        for state in play.states:
            if state["phase"] not in ("card_window", "discussion", "defence", "mafia"):
                continue
            if (state.get("moments") or {}).get("on"):
                continue
            living = [seat for seat in range(play.players) if state["dead"][seat] is None]
            shapes = {fingerprint(screen) for seat, screen in enumerate(panels(play, state, kept)) if seat in living}
            holders += sum(any(move["type"] == "play_card" for move in GRANNA.legal_actions(state, seat)) for seat in living)
            assert len(shapes) == 1, f"{play} at {state['phase']}: living phones differ in shape"
            checked += 1
    assert checked > 20 and holders > 3, (checked, holders)


def test_each_phone_shows_its_own_card_with_what_it_does_and_no_other_card():
    checked = 0
    for play in games():
        kept: dict = {}
        for state in play.states:
            if (state.get("moments") or {}).get("on") or GRANNA.outcome(state) is not None:
                continue
            checked += check_own_cards(state, panels(play, state, kept))
    assert checked > 500


def check_own_cards(state: dict, screens: list[str]) -> int:
    """Each seat's card area in its panel (``screens``, by seat): its own card, what it does, and
    whether it waits or is of no use to him; the number of seats checked."""
    view = GRANNA.view(state, None)
    checked = 0
    for seat, screen in enumerate(screens):
        me = GRANNA.view(state, seat)["me"]
        mine = me["card"]
        area = re.search(r'<details class="action-card card">.*', screen, re.S)
        assert area, f"seat {seat} has no card area"
        name = html.unescape(re.search(r'<strong class="card-name">(.*?)</strong>', area.group(0)).group(1))
        assert name == str(card_words.CARD_NAMES[mine["card"]])
        assert effects(area.group(0))[0] == words.card_help(view, mine["card"])
        neutral = not mine["usable"] and mine["card"] != C.NEUTRAL and not mine["used"]
        assert (str(card_words.NEUTRAL_FOR_YOU) in area.group(0)) is neutral
        waiting = bool(state["secret"]["cards"]["pending"][seat])
        assert (str(card_words.WAITING) in area.group(0)) is waiting
        checked += 1
    return checked


def test_the_tv_shows_the_public_cards_and_badges_and_never_an_unplayed_card():
    """rules B.4: the Leader, the Role Swap, the cards played face up and the badges are public;
    an unplayed card's name never reaches the TV before the game is over."""
    for play, state in states():
        if GRANNA.outcome(state) is not None:
            continue
        screen = tv_screen(table_for(GRANNA, state, play.players, "en"), host=True)
        shown = html.unescape(screen["tv-main"] + screen["tv-players"])
        cards = state["cards"]
        if cards["leader"] is not None:
            assert re.search(rf'{re.escape(NAMES[cards["leader"]])}</span>.*?card-badge leader', shown, re.S)
        for badge in cards["badges"]:
            if badge["round"] == state["round"]:
                assert f'card-badge {badge["kind"]}">{card_words.CARD_NAMES[badge["card"]]}' in shown
        played = {entry["card"] for entry in cards["face_up"]}
        for seat, card in enumerate(state["secret"]["cards"]["dealt"]):
            if card not in played and card not in cards["box"]:
                assert f">{card_words.CARD_NAMES[card]}<" not in shown


def test_the_reveal_and_the_story_tell_every_card_the_new_gang_and_the_recruits():
    for play in games():
        final = play.final
        table = table_for(GRANNA, final, play.players, "en", events=play.events)
        result = html.unescape(tv_screen(table, host=True)["tv-main"])
        secret = final["secret"]["cards"]
        for seat, card in enumerate(secret["dealt"]):
            if card != C.NEUTRAL:
                assert f"{card_words.CARD_NAMES[card]}</strong> {NAMES[seat]}" in result
        steps = classic.story(play.events, NAMES[:play.players], "granna", play.options)
        told = " ".join(line["text"] for step in steps for line in step["lines"])
        assert "Action cards: " in told
        for seat in secret["recruits"]:
            assert f"Recruitment: " in told and NAMES[seat] in told
        if final["cards"]["new_gang"]:
            assert "The New Gang met: " in told or not any(c == C.NEW_GANG for c in secret["dealt"])


def test_every_card_button_of_a_phone_is_read_as_a_legal_move(monkeypatch):
    monkeypatch.setattr(test_buttons_are_moves, "plays", lambda ruleset: games())
    test_buttons_are_moves.test_every_button_of_a_phone_is_read_as_a_legal_move(GRANNA)


@pytest.mark.parametrize("language", ["en", test_no_leak_rendered.MIXED])
def test_rendered_screens_leak_no_card(monkeypatch, language):
    """A card's identity reaches only its holder until it is played; a recruit's new team only
    the mafia and the recruit; a turncoat's card nobody until game over (tests/engines/knowledge.py
    varies every secret the viewer cannot know: the screens must not change)."""
    monkeypatch.setattr(test_no_leak_rendered, "sample_games", lambda ruleset: games()[:3])
    test_no_leak_rendered.test_rendered_fragments_are_identical_for_states_the_viewer_cannot_tell_apart(GRANNA, language)


def test_kept_fragments_with_cards_are_their_template_of_their_context_alone(monkeypatch):
    monkeypatch.setattr(test_kept_keys, "plays", lambda ruleset, count=2: games()[:2])
    assert test_kept_keys.check_kept_fragments(GRANNA) > 100


def test_the_lobby_offers_the_cards_under_action_cards_and_lists_those_chosen():
    from mafiagames.rendering import Table
    from tests.web.test_settings_form import option_block, settings_html

    off = settings_html("granna", {})
    for key in ("new_gang", "card_vest", "card_capture", "window_seconds"):
        assert "hidden" in option_block(off, key).split(">")[0], key
    on = settings_html("granna", {"action_cards": True})
    fold = on[on.index('<details class="advanced"'):]
    for key in ("new_gang", "card_vest", "card_capture", "window_seconds"):
        block = option_block(on, key)
        assert "hidden" not in block.split(">")[0] and 'data-requires="action_cards"' in block and block in fold
    assert "1 action card per 4 players" in option_block(on, "action_cards")
    assert "14 players" in option_block(on, "new_gang")
    table = Table(code="TEST", language="en", ruleset="granna", options={"action_cards": True, "card_capture": True},
                  players=[{"id": i, "name": f"P{i}", "connected": True} for i in range(12)])
    listed = html.unescape(tv_screen(table, host=False)["tv-main"])
    options = re.search(r'<ul class="options">(.*?)</ul>', listed, re.S).group(1)
    chosen = [str(card_words.CARD_NAMES[card]) for card in C.SINGLE_CARDS if card in C.RECOMMENDED | {C.CAPTURE}]
    assert all(f"<li>{name}</li>" in options for name in chosen) and "Recruitment" not in options


def test_with_the_leader_every_screen_names_whose_vote_it_is():
    seen = 0
    for play, state in states():
        vote = GRANNA.view(state, None)["vote"]
        if not vote or vote.get("turn") is None or (state.get("moments") or {}).get("on"):
            continue
        line = f"One at a time from the Leader. Now voting: {html.escape(NAMES[vote['turn']])}"
        table = table_for(GRANNA, state, play.players, "en")
        assert line in tv_screen(table, host=False)["tv-main"]
        assert line in phone_screen(table, 100 + vote["turn"])["ph-panel"]
        seen += 1
    assert seen > 3
