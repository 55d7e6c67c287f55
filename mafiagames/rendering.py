"""Screens as fragments: the one place an engine view meets templates (docs/design.md §4).

A screen is a dict ``{element id: html}``; every fragment is a top-level element with that
id and ``hx-swap-oob="true"``, so the page embeds them and a websocket can replace any
one of them.  Rendering is a pure function of already-loaded objects, so the no-leak
tests can render a seat's screen for any state without a database.

Rendering is the expensive part of a push (docs/design.md §8), so each fragment is rendered once
per distinct input: callers pass a ``memo`` dict that lives as long as one version of the
room (``screens.Snapshot``) — the TV's board and roster, once for every TV — and a ``kept``
dict that lives as long as the room, for every other fragment: each is one template rendered
from one small context, and kept under the template, the language and that context
(``_render``), so a phone's panel is rendered once for every seat that is shown the same.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
from dataclasses import dataclass, field

from django.conf import settings
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils import translation

from engines import registry
from engines.base import Option, resolve_options

from . import clock, languages, story
from .presenters import (BRIEFING_HOST_MOVES, LESSON_TITLES, audience_poll, key_of, moment_context, part, presenter,
                         ruleset_title, ruleset_words, slide)

TV_FRAGMENTS = ("tv-players", "tv-main", "tv-narration", "tv-settings", "tv-host", "tv-door")
PHONE_FRAGMENTS = ("ph-head", "ph-role", "ph-panel", "ph-board", "ph-host")


@dataclass
class Table:
    """What a screen needs to know about a room, loaded once per version."""

    code: str
    language: str
    ruleset: str
    options: dict
    players: list  # [{"id", "name", "connected", "bot" (optional)}] in lobby order (a bot is always connected)
    game: dict | None = None  # {"id", "ruleset", "state", "version", "names", "seats", "status"}
    version: int = 0
    claims: list = field(default_factory=list)  # [{"id", "name", "connected"}]: phones asking for a seat
    locked: bool = False   # the host's "Lock room": nobody new may join
    # The evening's scoreboard (scoreboard.py) while no game runs; None during a game (it
    # changes only when one finishes, and nothing is read for it tap by tap).
    scores: dict | None = None
    # The audience's answers to the polls of the current game (services.suspect):
    # [{"player", "poll", "seat"}]; a phone shows its own, the TV the totals once it is finished.
    suspicions: list = field(default_factory=list)
    # Host from a phone (services.offer_host): the player (as in ``players``) whose phone has the
    # host controls, the one they are offered to, and the count of handovers (a handover takes
    # the controls off every host device: consumers.TvConsumer tells it from a revoke).
    host_phone: dict | None = None
    host_offer: dict | None = None
    host_generation: int = 0
    # The devices that host ([{"id", "number", "online"}]) and those asking to ([{"id", "number"}]):
    # HostDevice; a host's screens list them, allow or refuse the asking, revoke the others.
    host_devices: list = field(default_factory=list)
    host_asks: list = field(default_factory=list)
    # "How to play" (Room.lesson): {"ruleset", "slide"} while the host shows it, else None.
    lesson: dict | None = None
    # No game of the room's ruleset has been played in this room yet: the TV offers the lesson.
    first_of_ruleset: bool = False
    # A finished game's whole event log (engine events, secrets included) for the story told at
    # its end (story.py); None for any other game: nothing of it is read before the game is over.
    story: list | None = None


def flash(message: str, kind: str = "error", version: int | None = None) -> str:
    """The answer to one phone's tap: an error message, or (applied) an empty, cleared flash."""
    return render_to_string("screens/flash.html", {"message": message, "kind": kind, "version": version})


def version_marker(version: int) -> str:
    """Sent with every update: which room version the screen now shows (load tests read it)."""
    return f'<i id="sv" hx-swap-oob="true" data-v="{int(version)}" hidden></i>'


def _option_rows(slug: str, chosen: dict) -> list[dict]:
    """The offered options, each right after the one it ``requires``: ``applies`` while that one
    is on (the settings hide it otherwise, keeping its value), ``advanced`` if the presenter
    folds it under "Advanced" (``ADVANCED_OPTIONS``)."""
    ruleset = registry.get(slug)
    labels, choice_words = presenter(slug).OPTION_LABELS, presenter(slug).OPTION_CHOICES
    advanced = part(slug, "ADVANCED_OPTIONS")
    offered = [option for option in ruleset.options() if option.offered]
    value_of = {option.key: chosen.get(option.key, option.default) for option in offered}
    # Each option that depends on none, followed by those that depend on it.
    ordered: list[Option] = [member for parent in offered if parent.requires is None
                             for member in (parent, *(o for o in offered if o.requires == parent.key))]
    rows = []
    for option in ordered:
        # The words are the presenter's alone (tests/web/test_presenter_words.py holds every
        # offered option to having them there); an engine's option carries none.
        label, help_text = labels[option.key]
        value = value_of[option.key]
        choices = [(choice, choice_words[option.key][choice]) for choice in option.choices]
        rows.append({"key": option.key, "label": label, "help": help_text, "kind": option.kind, "value": value,
                     "choices": choices, "value_label": dict(choices).get(value, value),
                     "requires": option.requires, "advanced": option.key in advanced,
                     "changed": value != option.default,
                     "applies": option.requires is None or bool(value_of.get(option.requires))})
    return rows


# The options in play on one slide of "How to play": a TV's slide holds this many tiles.
OPTION_TILES = 6


def lesson_slides(slug: str, options: dict) -> list[dict]:
    """ "How to play" ``slug`` with the room's ``options``: the presenter's slides
    (``how_to_play``), then the options in play with their explanations (the host's settings'
    words, ``_option_rows``), a few a slide: only the rules the host chose, not the clocks."""
    resolved = resolve_options(registry.get(slug), options)
    rows = [row for row in _option_rows(slug, resolved)
            if row["applies"] and not row["advanced"] and (row["kind"] != "bool" or row["value"])]
    tiles = [(row["label"] if row["kind"] == "bool" else f'{row["label"]}: {row["value_label"]}', row["help"])
             for row in rows]
    return presenter(slug).how_to_play(slug, resolved) + [
        slide(LESSON_TITLES["options"], tiles=tiles[start:start + OPTION_TILES])
        for start in range(0, len(tiles), OPTION_TILES)]


def lesson_context(table: Table, memo: dict) -> dict | None:
    """The slide the room's lesson is at (every screen shows the same one), with its place
    ("n / N"), made once per room version; None when no lesson runs (or a game does)."""
    lesson = table.lesson
    if lesson is None or (table.game and table.game["status"] == "running") or lesson["ruleset"] != table.ruleset:
        return None
    if ("lesson",) not in memo:
        slides = lesson_slides(table.ruleset, table.options)
        index = min(lesson["slide"], len(slides) - 1)
        memo[("lesson",)] = {"slide": slides[index], "index": index, "number": index + 1, "count": len(slides),
                             "last": index == len(slides) - 1, "key": f'{table.ruleset}:{index}'}
    return memo[("lesson",)]


def _game_context(table: Table, view: dict) -> dict:
    game = table.game
    pres = presenter(game["ruleset"])
    context = pres.present(view, game["names"])
    online = {p["id"] for p in table.players if p["connected"]}
    bots = set(game.get("bots") or ())
    for row in context.get("rows", []):
        row["connected"] = game["seats"][row["seat"]] in online
        row["bot"] = row["seat"] in bots   # the roster's bot mark (a ruleset with bots shows it)
    if game["status"] == "finished":
        # The finished game's rows stay (its reveal); the room has moved on: whoever joined since
        # is listed under them, as the next game will seat them.
        seated = set(game["seats"])
        context["joined_since"] = [p for p in table.players if p["id"] not in seated]
        context["audience_suspected"] = audience_suspected(table.suspicions, game["names"])
    elif game["status"] == "abandoned":
        context["ended_reveal"] = _when_used(lambda: ended_reveal(game))
    # The stage's mood (app.css): the presenter's word, else night while its ``night`` is on.
    context.setdefault("mood", "night" if context.get("night") else "day")
    context.update(game_id=game["id"], turn=view.get("turn"), briefing=view.get("briefing"),
                   tpl=pres.TEMPLATE_DIR, game_status=game["status"], deadline=deadline(game),
                   paused=paused(game), time_left=frozen_time_left(game),
                   started=clock_started_ms(game), moment=on_stage(game, view), moments_past=moments_past(game, view))
    return context


def audience_suspected(suspicions: list[dict], names: list[str]) -> list[dict]:
    """The audience's totals for the finished game's TV (issue 16): each player they named, with
    how many answers named them over all the game's polls, most suspected first (then in seat
    order).  Only ever shown once the game is over: during it they are nobody's business."""
    counts: dict[int, int] = {}
    for row in suspicions:
        counts[row["seat"]] = counts.get(row["seat"], 0) + 1
    return [{"name": names[seat], "count": count}
            for seat, count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]


def on_stage(game: dict, view: dict) -> dict | None:
    """The moment on the stage (engines/moments.py) in words, from the TV's (public) view: the
    TV shows it instead of the board, every phone above its panel."""
    moment = view.get("moment")
    return moment and moment_context(game["ruleset"], moment, game["names"], view)


def moments_past(game: dict, view: dict) -> list[dict]:
    """The last few moments, the latest first: the TV's compact history strip."""
    return [moment_context(game["ruleset"], moment, game["names"], view)
            for moment in reversed(view.get("moments_past") or [])]


def ended_reveal(game: dict) -> list[dict]:
    """Who was what in a game the host ended: no rulebook outcome reveals it, so each seat's
    role is read from that seat's own view, worded by the ruleset's presenter."""
    ruleset, pres = registry.get(game["ruleset"]), presenter(game["ruleset"])
    return [{"name": name, "role": pres.role_text(ruleset.view(game["state"], seat))}
            for seat, name in enumerate(game["names"])]


def deadline(game: dict) -> int | None:
    """When the running clock's move is due, in ms since the epoch (screens count down to it);
    None without a clock, or while the game is paused (its clock stands still)."""
    clock = game["state"].get("clock")
    if game["status"] != "running" or not clock or game.get("clock_started") is None or paused(game):
        return None
    return round((game["clock_started"] + clock["seconds"] * settings.CLOCK_SCALE) * 1000)


def clock_started_ms(game: dict) -> int | None:
    """When the running clock started, in ms since the epoch, while it runs: the TV's countdown
    bar shows the share of its time left (app.js)."""
    return round(game["clock_started"] * 1000) if deadline(game) is not None else None


def paused(game: dict | None) -> bool:
    return bool(game and game["status"] == "running" and game.get("paused_at") is not None)


def frozen_time_left(game: dict) -> str | None:
    """A paused clock's time left, as the countdowns write it (app.js): it does not tick."""
    left = clock.time_left(game) if paused(game) else None
    if left is None:
        return None
    seconds = max(0, math.ceil(left))
    return f"{seconds // 60}:{seconds % 60:02d}" if seconds >= 60 else str(seconds)


def _story(table: Table, memo: dict) -> list[dict] | None:
    """The finished game's story in the room's language (the caller's), made once per room
    version for every screen (``memo``); None for a game not finished: no screen is told any
    of it before the game is over."""
    game = table.game
    if table.story is None or not game or game["status"] != "finished" or not game.get("story"):
        return None
    steps = memo.get(("story",))
    if steps is None:
        steps = memo[("story",)] = story.steps(game, table.story)
    return steps


def host_moves(slug: str, state: dict) -> list[dict]:
    """The host's in-game buttons (the engine's ``host_moves``), worded by the ruleset's presenter."""
    labels = {**BRIEFING_HOST_MOVES, **part(slug, "HOST_MOVES")}
    return [{"type": move["type"], "label": str(labels.get(move["type"], move["type"]))}
            for move in registry.get(slug).host_moves(state)]


def host_for_seats(table: Table) -> dict:
    """What the host may do for seats during a game (engines/base.py): the public choices he may
    make for a player whose phone is gone (``proxy_moves``: one ``<select>`` per seat, each
    option a move as JSON) and whom he may remove (``removable``).  Public facts only: the TV
    shows them."""
    game = table.game
    ruleset = registry.get(game["ruleset"])
    names, online = game["names"], {p["id"] for p in table.players if p["connected"]}
    label = part(game["ruleset"], "proxy_label") or (lambda move, names: move["type"])
    offered = ruleset.proxy_moves(game["state"])
    proxy = [{"seat": seat, "name": names[seat], "vote": any(move["type"] == "vote" for move in moves),
              "moves": [{"value": json.dumps(move, sort_keys=True), "label": label(move, names)} for move in moves]}
             for seat, moves in sorted(offered.items()) if game["seats"][seat] not in online]
    removable = [{"seat": seat, "name": names[seat]}
                 for seat in ruleset.removable(game["state"])]
    return {"proxy": proxy, "removable": removable}


def _when_used(make):
    """A context value made only if a template uses it, and then once (Django calls a callable
    it finds in a context): the lobby's option rows are not shown on the TV's board during a
    game.  Never in a kept fragment's context (``plain`` refuses it: no key could name it)."""
    return functools.cache(make)


def _base_context(table: Table) -> dict:
    ruleset = registry.get(table.ruleset)
    # Beyond the ruleset's maximum the last in the seating order watch (services.start_game).
    return {"code": table.code, "players": table.players,
            "ruleset": {"title": ruleset_title(table.ruleset), "min_players": ruleset.min_players,
                        "max_players": ruleset.max_players},
            "watchers": max(0, len(table.players) - ruleset.max_players),
            "option_rows": _when_used(lambda: _option_rows(table.ruleset, table.options))}


def _render(kept: dict, language: str, template: str, context: dict) -> str:
    """A kept fragment: ``template`` rendered from ``context`` alone in ``language`` (the active
    one: callers render a screen under its room's language), once per distinct context for the
    whole room.

    The one way anything enters ``kept`` (phone and TV alike), so a fragment is served only to
    a screen whose context is equal: the template sees that dict and nothing else (no request,
    so no context processors; an ``{% include %}`` inherits the same dict), and the key is made
    of the template, the language and the context itself (``key_of``; ``plain`` refuses what
    could reach past it).  No key is written by hand, so none can leave out what a fragment
    shows: the way one seat's panel could reach another seat."""
    key = (template, language, key_of(context))
    html = kept.get(key)
    if html is None:
        html = kept[key] = _in_language(language, lambda: render_to_string(template, context))
    return html


def _in_language(language: str, make):
    """``make()`` with ``language`` active.  Activating one (Django's context-local, ~3 µs each
    way) cost as much as all else a phone's push does when its fragments come from ``kept``:
    only when another is active."""
    if translation.get_language() == language:
        return make()
    with translation.override(language):
        return make()


def _parts(kept: dict, language: str, pieces: dict[str, list[tuple[str, dict]]]) -> dict[str, str]:
    """Render pieces (a presenter's ``tv_parts``, the host's lobby controls), each once per
    distinct context, and join them."""
    return {name: mark_safe("".join(_render(kept, language, template, context) for template, context in items))
            for name, items in pieces.items()}


def _bounded(kept: dict) -> dict:
    """A room's kept fragments, emptied now and then: a long evening of games in one room."""
    if len(kept) > 2000:
        kept.clear()
    return kept


def _settings_piece(table: Table) -> list[tuple[str, dict]]:
    """The host's game and options: a piece of its own, so a join (a new seat row) does not
    re-render them."""
    rows = _option_rows(table.ruleset, table.options)
    return [("screens/host_settings.html", {
        "code": table.code, "ruleset": table.ruleset, "option_rows": rows,
        "has_advanced": any(row["advanced"] for row in rows),
        "rulesets": [(r.slug, ruleset_title(r.slug)) for r in registry.all()]})]


def _seat_pieces(table: Table) -> list[tuple[str, dict]]:
    last = len(table.players) - 1
    return [("screens/host_seat.html", {"code": table.code, "id": p["id"], "name": p["name"], "bot": p.get("bot", False),
                                        "first": i == 0, "last": i == last})
            for i, p in enumerate(table.players)]


def _warm_seats(table: Table, kept: dict) -> None:
    """During a game, for the host's TV: render the lobby's seat rows of players who join
    meanwhile as they join.  The lobby comes back with the game's last tap, which would
    otherwise render them all at once (docs/performance.md)."""
    _parts(kept, table.language, {"seats": _seat_pieces(table)})


def _tv_narration(table: Table, board, lesson: dict | None) -> dict:
    """What the TV's narration shows: the lines of the turn, spoken once per turn (its key); in
    "How to play" the slide's title, and all of the slide read aloud once per slide."""
    game = table.game
    if lesson:
        slide = lesson["slide"]
        return {"lesson": {"key": lesson["key"], "title": slide["title"],
                           "said": slide["lines"] + [f'{t["name"]}: {t["text"]}' if t["text"] else t["name"]
                                                     for t in slide["tiles"]]}}
    if not game:
        return {"in_game": False}
    context = {"in_game": True, "game_status": game["status"], "game_id": game["id"],
               "turn": game["state"].get("turn")}
    # A result on the stage (engines/moments.py) is revealed line by line on the board: the
    # narration, which already tells it, waits until the moment is over (it is spoken then, under
    # a key of its own); meanwhile its main line names what the table is watching (tv.html).
    context["moment"] = board()["moment"]
    if game["status"] != "abandoned":   # the host ended it: one fixed line instead
        context.update({key: board()[key] for key in ("narration", "phase_title")})
        # Lines before ``narration_from`` (the presenter's; else none) are read aloud, not shown:
        # the board shows them, or they are old news.
        context["narration_from"] = board().get("narration_from", 0)
    return context


def _tv_settings(table: Table, kept: dict, host: bool) -> dict:
    """The host's game and options, in the lobby only (one kept piece: tv-settings)."""
    game = table.game
    if not host or (game and game["status"] == "running"):
        return {}
    return {"host": True, "game_status": game and game["status"],
            "host_parts": _parts(kept, table.language, {"settings": _settings_piece(table)})}


def _public_view(table: Table, memo: dict) -> dict:
    """The running game's view for no seat (the TV's): what every screen may show, asked of the
    engine once per room version (``memo``)."""
    view = memo.get(("public view",))
    if view is None:
        game = table.game
        view = memo[("public view",)] = registry.get(game["ruleset"]).view(game["state"], None)
    return view


def _tv_host(table: Table, kept: dict, memo: dict, host: bool, seat_help: dict | None) -> dict:
    """The host's bar: in a game his moves, a choice for an absent seat, pause and end; in the
    lobby the seating, "How to play" and the start button; in "How to play" its steps; handing the
    controls to a phone.  A TV without the controls says whose phone has them."""
    game = table.game
    if not host:
        return {"host_phone": table.host_phone["name"]} if table.host_phone else {}
    lesson = lesson_context(table, memo)
    if lesson:
        return {"host": True, "code": table.code,
                "lesson": {key: lesson[key] for key in ("index", "number", "count", "last")}}
    context = {"host": True, "in_game": bool(game), "game_status": game and game["status"], "code": table.code,
               **_hand_over(table)}
    if game and game["status"] == "running":
        view = _public_view(table, memo)
        context.update(paused=paused(game), turn=view.get("turn"), seat_help=seat_help,
                       host_moves=host_moves(game["ruleset"], game["state"]))
    else:
        ruleset = registry.get(table.ruleset)
        steps = _story(table, memo)
        if steps:   # the story's Back / Next / All: where it is, not what it says
            told = story.told(game, steps)
            context["story"] = {key: told[key] for key in ("index", "number", "count", "all")}
        context.update(host_parts=_parts(kept, table.language, {"seats": _seat_pieces(table)}),
                       can_start=len(table.players) >= ruleset.min_players,   # beyond the maximum: an audience
                       # An empty seat for a bot (services.add_bot): a ruleset with one, a table not full.
                       can_add_bot=ruleset.bot is not None and len(table.players) < ruleset.max_players,
                       lesson_offer="first" if table.first_of_ruleset else "again")
    return context


# Requests for a seat shown at once on a host's screen: those for a seat whose phone is offline
# first (a lost phone's owner); the rest are counted.  Requests are bounded per asker
# (services.ask_for_seat), so the list cannot crowd out a genuine one.
DOOR_CLAIMS = 4


def _tv_door(table: Table, host: bool, device: int | None = None, phone: int | None = None) -> dict:
    """Who may come in (the host's alone): requests for a seat and to host, the lock, and who
    hosts: the devices (``device``: this screen's own, which it cannot revoke) and the phone
    (``phone``: the player whose screen this is)."""
    if not host:
        return {}
    claims = sorted(table.claims, key=lambda claim: claim["connected"])
    return {"host": True, "code": table.code, "claims": claims[:DOOR_CLAIMS],
            "more_claims": len(claims[DOOR_CLAIMS:]), "locked": table.locked, "asks": table.host_asks,
            "devices": [{**d, "me": d["id"] == device} for d in table.host_devices],
            "phone_host": table.host_phone and {"name": table.host_phone["name"],
                                                "online": table.host_phone["connected"],
                                                "me": table.host_phone["id"] == phone}}


def _hand_over(table: Table) -> dict:
    """Whose phone the host may hand the controls to (services.offer_host): a connected player's,
    not the one hosting; and whom they are offered to, waiting for that phone's answer."""
    hosting = table.host_phone and table.host_phone["id"]
    return {"offer_to": [{"id": p["id"], "name": p["name"]} for p in table.players
                         if p["connected"] and not p.get("bot") and p["id"] != hosting],
            "offered": table.host_offer and table.host_offer["name"]}


def _seat_help(table: Table, kept: dict, memo: dict) -> dict | None:
    """For a host's screen during a game: what he may do for seats (``host_for_seats``), asked of
    the engine once per version for every host screen (``memo``); None outside a game."""
    game = table.game
    if not (game and game["status"] == "running"):
        return None
    _warm_seats(table, kept)
    seat_help = memo.get(("seat_help",))
    if seat_help is None:
        seat_help = memo[("seat_help",)] = host_for_seats(table)
    return seat_help


def _phone_host(table: Table, player_id: int, kept: dict, memo: dict) -> dict:
    """A phone's host section (phone.html#ph-host), apart from its private panel: the host's
    offer of the controls to this phone, or, on the phone that has them, the TV's host controls
    (settings, bar, door: the same pieces, so one place decides what a host may do).  Public
    facts only, as on the TV; every other phone's section is empty."""
    if table.host_offer and table.host_offer["id"] == player_id:
        return {"offered_to_me": True, "code": table.code}
    if not (table.host_phone and table.host_phone["id"] == player_id):
        return {}
    settings_ctx = _tv_settings(table, kept, True)
    bar = _tv_host(table, kept, memo, True, _seat_help(table, kept, memo))
    # Keys of their own (not "host"): a phone's other fragments know nothing of hosting.
    return {"hosting": True,
            "host_settings": settings_ctx["host_parts"]["settings"] if settings_ctx else "",
            "host_bar": _render(kept, table.language, "screens/host_bar.html", bar),
            "host_door": _render(kept, table.language, "screens/host_door.html", _tv_door(table, True, phone=player_id))}


def scoreboard_context(scores: dict) -> dict:
    """The evening's scoreboard in words (templates/screens/scoreboard.html reads only this):
    players by name, and each ruleset's sides worded by its presenter as its latest game named
    them.  Finished games only (scoreboard.py): every figure here is public."""
    groups = []
    for group in scores["sides"]:
        slug = group["ruleset"]
        title, words = ruleset_words(slug, "side_words")
        groups.append({"title": title, "sides": [{"name": str(words(side["code"], slug, group["options"])),
                                                   "wins": side["wins"]} for side in group["sides"]]})
    return {"played": scores["played"], "sides": groups,
            "players": [{"name": row["name"], "wins": row["wins"], "games": row["games"]}
                        for row in scores["players"]]}


def _scoreboard(table: Table, kept: dict) -> str:
    """The TV's scoreboard between games, once the room has finished a game: a kept fragment
    (``_render``), rendered once per distinct scoreboard, not once per join or presence change."""
    game = table.game
    if not table.scores or not table.scores["played"] or (game and game["status"] == "running"):
        return ""
    return _render(kept, table.language, "screens/scoreboard.html", scoreboard_context(table.scores))


def _tv_board(table: Table, kept: dict, memo: dict, host: bool) -> dict:
    """The TV's board and roster: everything they may show, made once per room version."""
    context = _base_context(table)
    context.update(host=host, in_game=bool(table.game), scoreboard=_scoreboard(table, kept),
                   lesson=lesson_context(table, memo))
    if table.game:
        view = _public_view(table, memo)
        context.update(_game_context(table, view))
        tv_parts = part(table.game["ruleset"], "tv_parts")
        if tv_parts is not None:
            context["parts"] = _parts(kept, table.language, tv_parts(view, context))
        steps = _story(table, memo)
        if steps:
            context["story"] = story.told(table.game, steps)
    return context


def tv_screen(table: Table, *, host: bool, memo: dict | None = None,
              kept: dict | None = None, device: int | None = None) -> dict[str, str]:
    """The TV.  Its board and roster change with nearly every tap: they are rendered once per
    room version for every TV (``memo``), and so is each distinct screen.  The narration and the
    host's bars rarely change: they are kept across versions (``_render``), each from a small
    context of its own.  ``device``: the host device this TV is (HostDevice), if it hosts."""
    memo = {} if memo is None else memo
    kept = {} if kept is None else _bounded(kept)
    # The whole screen, once per room version for all the TVs that show the same (host or not,
    # which host device): a room watched by hundreds of screens renders it once per tap.
    key = ("tv-screen", host, device)
    screen = memo.get(key)
    if screen is None:
        screen = memo[key] = _in_language(table.language, lambda: _tv(table, host, memo, kept, device))
    return screen


def _tv(table: Table, host: bool, memo: dict, kept: dict, device: int | None = None) -> dict[str, str]:
    seat_help = _seat_help(table, kept, memo) if host else None

    def board() -> dict:
        # Once per room version for every TV of the room (its narration reads it too), not once
        # per socket: a room watched by many screens made it again for each.
        made = memo.get(("tv-board", host))
        if made is None:
            made = memo[("tv-board", host)] = _tv_board(table, kept, memo, host)
        return made

    screen = {}
    for frag in ("tv-players", "tv-main"):
        html = memo.get(("tv", frag))
        if html is None:
            html = memo[("tv", frag)] = render_to_string(f"screens/tv.html#{frag}", board())
        screen[frag] = html
    contexts = {"tv-narration": _tv_narration(table, board, lesson_context(table, memo)),
                "tv-settings": _tv_settings(table, kept, host),
                "tv-host": _tv_host(table, kept, memo, host, seat_help), "tv-door": _tv_door(table, host, device)}
    screen.update({frag: _render(kept, table.language, f"screens/tv.html#{frag}", context)
                   for frag, context in contexts.items()})
    return {frag: screen[frag] for frag in TV_FRAGMENTS}


def _idle_panel(table: Table, ended: bool, lesson: dict | None) -> dict:
    """A phone without a seat outside a running game: the lobby (the ruleset, who joined), or
    the TV's slide of "How to play", to read along (the same on every phone)."""
    if lesson:
        return {"in_game": False, "lesson": {key: lesson[key] for key in ("slide", "number", "count")}}
    return {"in_game": False, "ended_by_host": ended, "ruleset": {"title": ruleset_title(table.ruleset)},
            "players": [{"name": p["name"], "bot": p.get("bot", False)} for p in table.players]}


def _seated(table: Table, seat: int, memo: dict) -> dict[str, dict]:
    """A seated phone's role card, panel and board, each the presenter's context in the frame
    around it (phone.html): one dict, one key.  Made in the room's language (they hold words)."""
    game = table.game
    pres = presenter(game["ruleset"])
    view = registry.get(game["ruleset"]).view(game["state"], seat)
    clock = {"deadline": deadline(game), "time_left": frozen_time_left(game)}
    fragments = pres.phone_fragments(view, game["names"], clock)
    fragments["board"] = _phone_board(table, memo)
    # The briefing (engines/briefing.py) is every ruleset's: phone.html shows it above the panel;
    # so is a moment (engines/moments.py), the same on every phone: it stands for the panel.
    moment = memo.get(("moment",), False)
    if moment is False:
        moment = memo[("moment",)] = on_stage(game, _public_view(table, memo))
    panel = {"paused": paused(game), **briefing_panel(view, seat), **({"moment": moment} if moment else {})}
    steps = _story(table, memo)
    if steps:   # the game is over: the story, this seat's own part marked
        panel["story"] = story.told(game, steps, seat)
    shell = {"role": {}, "panel": panel, "board": {}}
    return {f"ph-{name}": {**context, **shell[name], "in_game": True, "body": template}
            for name, (template, context) in fragments.items()}


def _phone_board(table: Table, memo: dict) -> tuple[str, dict]:
    """The phones' board (the presenter's ``phone_board``): the same for every phone, seated or
    watching, made once per version of the TV's view."""
    board = memo.get(("phone board",))
    if board is None:
        board = memo[("phone board",)] = presenter(table.game["ruleset"]).phone_board(
            _public_view(table, memo), table.game["names"])
    return board


def _audience(table: Table, player_id: int, memo: dict) -> dict[str, dict]:
    """An audience phone during a game (issue 16: a player of the room without a seat in it):
    "you are watching", what happens now and the phones' board — all made of the TV's view, the
    same for every watcher — and the day's poll with this phone's own answer.  Never a seat's
    view: nothing here can be a secret."""
    game = table.game
    pres, names = presenter(game["ruleset"]), game["names"]
    view = _public_view(table, memo)
    shared = memo.get(("audience",))
    if shared is None:   # made once per version for every watcher
        now = pres.present(view, names)
        board_template, board = _phone_board(table, memo)
        shared = memo[("audience",)] = {
            "now": {"title": str(now.get("phase_title", "")),
                    "lines": [str(line) for line in now.get("narration", [])[now.get("narration_from", 0):]]},
            "board": {**board, "audience": True, "body": board_template},
            "poll": audience_poll(game["ruleset"], view)}
    poll = shared["poll"]
    panel = {"in_game": False, "audience": True, "paused": paused(game), "now": shared["now"]}
    if poll is not None:
        mine = next((row["seat"] for row in table.suspicions
                     if row["player"] == player_id and row["poll"] == poll["key"]), None)
        panel["poll"] = {"key": poll["key"], "mine": names[mine] if mine is not None else "",
                         "choices": [{"seat": seat, "name": names[seat], "mine": seat == mine}
                                     for seat in poll["seats"]]}
    return {"ph-role": {"in_game": False, "audience": True}, "ph-panel": panel, "ph-board": shared["board"]}


def briefing_panel(view: dict, seat: int) -> dict:
    """What a seated phone shows of the briefing every game opens with (engines/briefing.py),
    above the ruleset's panel: whether this seat has looked, how many have not; {} after it."""
    briefing = view.get("briefing")
    if not briefing:
        return {}
    return {"briefing": {"seen": briefing["seen"][seat], "waiting": briefing["waiting"]}, "turn": view["turn"]}


def in_phone_language(table: Table, memo: dict, me: dict | None) -> tuple[Table, dict]:
    """The room as the phone of player ``me`` reads it: in the phone's own language (issue 17),
    with that language's share of the version's memo.  Every phone in the room's language
    shares the TV's memo; the others share one per language.  Kept fragments are keyed by
    language (``_render``), so no phone is ever handed another language's."""
    language = languages.of_phone((me or {}).get("language", ""), table.language)
    if language == table.language:
        return table, memo
    local = memo.get(("in", language))
    if local is None:
        local = memo[("in", language)] = {("table",): dataclasses.replace(table, language=language)}
    return local[("table",)], local


def phone_screen(table: Table, player_id: int, memo: dict | None = None,
                 kept: dict | None = None) -> dict[str, str]:
    """One phone's screen, every fragment kept for the whole room (``_render``): phones whose
    fragments have equal contexts share one rendering, and a phone's name line or role card is
    rendered once, not once per tap.  ``memo`` (one room version's) holds what every phone
    shares: the public view and the board made of it."""
    memo = {} if memo is None else memo
    kept = {} if kept is None else _bounded(kept)
    me = next((p for p in table.players if p["id"] == player_id), None)
    table, memo = in_phone_language(table, memo, me)
    # In the phone's language throughout, keys included: a context's lazy words are keyed as the
    # fragment prints them (presenters.key_of); one switch of language per phone, not per part.
    return _in_language(table.language, lambda: _phone(table, player_id, me, memo, kept))


def _phone(table: Table, player_id: int, me: dict | None, memo: dict, kept: dict) -> dict[str, str]:
    """``phone_screen`` in the phone's language (active)."""
    game = table.game
    # A game the host ended is over for everyone at once: every phone is back in the lobby.
    ended = bool(game and game["status"] == "abandoned")
    lesson = lesson_context(table, memo)
    if game and not ended and not lesson and player_id in game["seats"]:
        contexts = _seated(table, game["seats"].index(player_id), memo)
    elif game and game["status"] == "running":
        contexts = _audience(table, player_id, memo)
    else:
        contexts = {"ph-role": {"in_game": False}, "ph-board": {"in_game": False},
                    "ph-panel": _idle_panel(table, ended, lesson)}
    # The phone's language menu (views.phone_language), its own language marked.
    contexts["ph-head"] = {"player": {"name": me["name"]} if me else None, "code": table.code,
                           "language": table.language, "languages": languages.choices()}
    contexts["ph-host"] = _phone_host(table, player_id, kept, memo)
    return {frag: _render(kept, table.language, f"screens/phone.html#{frag}", contexts[frag])
            for frag in PHONE_FRAGMENTS}
