"""Kept fragments are keyed by construction (rendering._render, docs/design.md §7 and §8).

A fragment kept for the whole room is served to every screen whose context is equal, so its key
must name all it shows: one key that left out an input would serve one seat's panel to another.
No key is written by hand any more: each kept fragment is one template rendered from one small
context, and the key is (template, language, key_of(context)).  These tests play seeded games
of every ruleset and hold every fragment served to that:

* the served HTML is what its template makes of its context alone, for every seat that was
  served it (two seats sharing a key get identical HTML) and from the key alone (the key is the
  whole context: the template reads nothing else);
* the context lacks nothing its template shows: rendering the template from everything a
  screen could show (the presenter's whole ``present`` context and the room's) gives the same
  HTML, so a lean context that dropped an input is caught (and one that does is shown caught);
* every key in ``kept`` has that one shape.
"""

from __future__ import annotations

import random

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from engines import registry
from mafiagames import presenters, rendering
from mafiagames.presenters import context_of
from mafiagames.rendering import Table, phone_screen, tv_screen
from tests.engines.playthrough import option_combinations, random_playthrough
from tests.web.test_no_leak_rendered import MIXED, spread, table_for

LANGUAGES = {code for code, _name in settings.LANGUAGES}


def plays(ruleset, count: int = 2):
    """A few seeded games: random options at a middle size, and every option at the largest."""
    rng = random.Random(f"kept:{ruleset.slug}")
    combos = option_combinations(ruleset)
    middle = (ruleset.min_players + ruleset.max_players) // 2
    chosen = [(middle, rng.choice(combos)), (ruleset.max_players, combos[-1])][:count]
    return [random_playthrough(ruleset, players, options, seed) for seed, (players, options) in enumerate(chosen)]


def tables(ruleset, play, language: str):
    """The room at every stage: the lobby (with a phone asking for a seat, locked), the game
    step by step (and paused), its story once it is over, and the game the host ended."""
    first = table_for(ruleset, play.start, play.players, language)
    lobby = Table(code=first.code, language=first.language, ruleset=ruleset.slug, options=play.options,
                  players=first.players, claims=[{"id": 200, "name": "Alice", "connected": False}], locked=True)
    yield lobby
    for state in spread(play.states, 15):
        table = table_for(ruleset, state, play.players, language)
        yield table
        if table.game["status"] == "running" and state.get("clock"):
            yield Table(**{**table.__dict__, "game": {**table.game, "paused_at": 1.0, "clock_started": 0.0}})
    ended = table_for(ruleset, play.final, play.players, language)
    # The finished game's story (mafiagames/story.py), a step on, and all of it at once.
    told = table_for(ruleset, play.final, play.players, language, events=play.events)
    if told.game["status"] == "finished":
        yield told
        yield Table(**{**told.__dict__, "game": {**told.game, "story": {"step": 1, "all": True, "moved": None}}})
    yield Table(**{**ended.__dict__, "game": {**ended.game, "status": "abandoned"}})


def whole_context(table: Table, screen) -> dict:
    """Everything a screen could show, as screens were rendered before their fragments had
    contexts of their own: the room's, the presenter's whole ``present`` context of the view,
    the host's bars.  ``screen``: "host", "tv", a seat, or None (a phone without a seat)."""
    game = table.game
    ended = bool(game) and game["status"] == "abandoned"
    context = rendering._base_context(table)
    context.update(claims=table.claims, locked=table.locked, host=screen == "host",
                   host_parts=rendering._parts({}, table.language, {"settings": rendering._settings_piece(table),
                                                    "seats": rendering._seat_pieces(table)}))
    if screen in ("host", "tv"):
        context["in_game"] = bool(game)
        if game:
            view = registry.get(game["ruleset"]).view(game["state"], None)
            context.update(rendering._game_context(table, view))
            if screen == "host":
                context.update(host_moves=rendering.host_moves(game["ruleset"], game["state"]),
                               seat_help=rendering.host_for_seats(table) if game["status"] == "running" else None)
    elif screen is not None and not ended:
        view = registry.get(game["ruleset"]).view(game["state"], screen)
        context.update(rendering._game_context(table, view), in_game=True, seat=screen)
        context.update(rendering.briefing_panel(view, screen))
    elif game and game["status"] == "running":   # the audience: everything its fragments could show
        for fragment in rendering._audience(table, 999, {}).values():
            context.update(fragment)
        context.update(in_game=False, audience=True)
    else:
        context.update(in_game=False, ended_by_host=ended)
    return context


def check_kept_fragments(ruleset, language: str = "en") -> int:
    """Play ``ruleset``'s sample games with one room-long ``kept`` and hold every fragment
    served (see the module's docstring); the number of fragments checked."""
    served: list[tuple[str, dict, str]] = []
    real = rendering._render

    def spy(kept, language, template, context):
        assert language == speaks   # the room's on the TV, the phone's own on a phone
        html = real(kept, language, template, context)
        served.append((template, context, html))
        return html

    checked = 0
    for play in plays(ruleset):
        kept: dict = {}
        for table in tables(ruleset, play, language):
            for screen in ["host", "tv", *range(table.game and len(table.game["seats"]) or 0), None]:
                served.clear()
                player = table.game["seats"][screen] if isinstance(screen, int) else 999
                # The room as this screen reads it: a phone in its own language (issue 17).
                seen = table if screen in ("host", "tv") else rendering.in_phone_language(
                    table, {}, next((p for p in table.players if p["id"] == player), None))[0]
                speaks = seen.language
                rendering._render = spy
                try:
                    if screen in ("host", "tv"):
                        tv_screen(table, host=screen == "host", memo={}, kept=kept)
                    else:
                        phone_screen(table, player, kept=kept)
                finally:
                    rendering._render = real
                with translation.override(speaks):
                    whole = whole_context(seen, screen)
                    for template, context, html in served:
                        where = f"{ruleset.slug} {template} for {screen} in {play} at {table.game and table.game['state'].get('phase')}"
                        # What the template makes of its context alone: the same for every
                        # screen given it (even when it came from another's rendering) ...
                        assert render_to_string(template, context) == html, f"{where}: another context's HTML"
                        # ... and its context lacks nothing the template shows (the screens'
                        # fragments; the pieces inside them had contexts of their own before).
                        if "#" in template:
                            assert render_to_string(template, {**context, **whole}) == html, \
                                f"{where}: the context leaves out something its template shows"
                        checked += 1
        for key, html in kept.items():
            template, key_language, context_key = key     # one shape, never a key built by hand
            assert isinstance(template, str) and template.startswith(("screens/", "engines/")), key
            assert key_language in LANGUAGES and isinstance(context_key, (bytes, str)), key
            context = context_of(context_key)
            assert isinstance(context, dict)
            with translation.override(key_language):      # the key alone makes the fragment
                assert render_to_string(template, context) == html, f"{template}: the key is not its context"
    return checked


@pytest.mark.parametrize("ruleset", registry.all(), ids=lambda r: r.slug)
def test_every_kept_fragment_is_its_template_of_its_context_alone(ruleset):
    assert check_kept_fragments(ruleset) > 200


def test_kept_fragments_are_keyed_by_language():
    """Issue 17 (a language per phone): a fragment kept in one language is never served in
    another, and a mixed table (a Czech room, its phones in every language) passes the same
    checks, one ``kept`` serving every phone."""
    assert check_kept_fragments(registry.get("mafie"), MIXED) > 200
    assert check_kept_fragments(registry.get("granna"), MIXED) > 200
    table = Table(code="ABCD", language="en", ruleset="mafie", options={},
                  players=[{"id": 1, "name": "Ann", "connected": True}])
    kept: dict = {}
    english = phone_screen(table, 1, kept=kept)["ph-panel"]
    czech = phone_screen(Table(**{**table.__dict__, "language": "cs"}), 1, kept=kept)["ph-panel"]
    assert "Waiting for the host" in english and "Waiting for the host" not in czech


def test_a_context_that_drops_an_input_is_caught(monkeypatch):
    """The failing-first check of the checks above: Mafie's panel context without the crew's
    names renders a vote without the crew, silently — the comparison with the whole context
    names it."""
    from mafiagames.presenters.mafie import context as mafie

    real = mafie._panel_context

    def dropping(view, names):
        context = real(view, names)
        context.pop("team_names", None)
        return context

    monkeypatch.setattr(mafie, "_panel_context", dropping)
    with pytest.raises(AssertionError, match="leaves out something its template shows"):
        check_kept_fragments(registry.get("mafie"))


def test_a_context_that_could_reach_past_itself_is_refused():
    """A kept context is plain data: an object or a callable a template could call (reaching the
    view, the database) has no key that names what it shows, so it is refused, not rendered."""
    with pytest.raises(TypeError, match="plain data only"):
        presenters.key_of({"name": presenters.gettext_lazy("Mafioso"), "view": lambda: {"me": {"role": "x"}}})
    with pytest.raises(TypeError, match="plain data only"):
        presenters.key_of({"ruleset": registry.get("mafie"), "title": presenters.gettext_lazy("Mafie")})


def test_contexts_that_render_apart_have_different_keys():
    """Keys of contexts holding words (lazy translations) are exact too: a dict's order (a
    template loops over its items in it) and a safe string (printed unescaped) are part of the
    key — a JSON key with sorted keys and safe strings as plain ones made these pairs equal."""
    from django.template import Context, Template
    from django.utils.safestring import mark_safe

    word = presenters.gettext_lazy("Approve")
    template = Template("{% for key, value in fields.items %}{{ key }}={{ value }};{% endfor %}")
    pairs = [{"action": "vote", "target": 2, "label": word}, {"target": 2, "action": "vote", "label": word}], \
        [{"piece": mark_safe("<b>x</b>"), "label": word}, {"piece": "<b>x</b>", "label": word}]
    for one, other in pairs:
        assert template.render(Context({"fields": one})) != template.render(Context({"fields": other}))
        assert presenters.key_of(one) != presenters.key_of(other)


def test_the_host_bar_speaks_the_rooms_language():
    """The host's choices for an absent player ("Approve", "Reject") are worded in the room's
    language, whatever language the process happens to have active."""
    ruleset = registry.get("mafie")
    play = plays(ruleset, 1)[0]
    state = next(s for s in play.states if s["phase"] == "team_vote")
    table = table_for(ruleset, state, play.players, "cs")
    table.players = [{**p, "connected": False} for p in table.players]
    with translation.override("en"):
        bar = tv_screen(table, host=True)["tv-host"]
    assert "Schválit" in bar and ">Approve<" not in bar
