"""Screens as fragments: the one place an engine view meets templates (DESIGN.md §4).

A screen is a dict ``{element id: html}``; every fragment is a top-level element with that
id and ``hx-swap-oob="true"``, so the page embeds them and a websocket can replace any
one of them.  Rendering is a pure function of already-loaded objects, so the no-leak
tests can render a seat's screen for any state without a database.

Rendering is the expensive part of a push (DESIGN.md §8), so each fragment is rendered once
per distinct input: callers pass a ``memo`` dict that lives as long as one version of the
room (``screens.Snapshot``) — the TV's board and roster, once for every TV — and a ``kept``
dict that lives as long as the room, for every other fragment: each is one template rendered
from one small context, and kept under the template, the language and that context
(``_render``), so a phone's panel is rendered once for every seat that is shown the same.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass, field

from django.conf import settings
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils import translation

from engines import registry
from engines.base import Option

from . import clock, story
from .presenters import BRIEFING_HOST_MOVES, key_of, part, presenter, ruleset_words

TV_FRAGMENTS = ("tv-players", "tv-main", "tv-narration", "tv-settings", "tv-host", "tv-door")
PHONE_FRAGMENTS = ("ph-head", "ph-role", "ph-panel", "ph-board")


@dataclass
class Table:
    """What a screen needs to know about a room, loaded once per version."""

    code: str
    language: str
    ruleset: str
    options: dict
    players: list  # [{"id", "name", "connected"}] in lobby order
    game: dict | None = None  # {"id", "ruleset", "state", "version", "names", "seats", "status"}
    version: int = 0
    claims: list = field(default_factory=list)  # [{"id", "name", "connected"}]: phones asking for a seat
    locked: bool = False   # the host's "Lock room": nobody new may join
    # The evening's scoreboard (scoreboard.py) while no game runs; None during a game (it
    # changes only when one finishes, and nothing is read for it tap by tap).
    scores: dict | None = None
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


def _game_context(table: Table, view: dict) -> dict:
    game = table.game
    pres = presenter(game["ruleset"])
    context = pres.present(view, game["names"])
    online = {p["id"] for p in table.players if p["connected"]}
    for row in context.get("rows", []):
        row["connected"] = game["seats"][row["seat"]] in online
    if game["status"] == "finished":
        # The finished game's rows stay (its reveal); the room has moved on: whoever joined since
        # is listed under them, as the next game will seat them.
        seated = set(game["seats"])
        context["joined_since"] = [p for p in table.players if p["id"] not in seated]
    elif game["status"] == "abandoned":
        context["ended_reveal"] = _when_used(lambda: ended_reveal(game))
    # The stage's mood (app.css): the presenter's word, else night while its ``night`` is on.
    context.setdefault("mood", "night" if context.get("night") else "day")
    context.update(game_id=game["id"], turn=view.get("turn"), briefing=view.get("briefing"),
                   tpl=pres.TEMPLATE_DIR, game_status=game["status"], deadline=deadline(game),
                   paused=paused(game), time_left=frozen_time_left(game))
    return context


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
    return {"code": table.code, "players": table.players, "ruleset": registry.get(table.ruleset),
            "rulesets": registry.all(),
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
        "rulesets": [(r.slug, r.title) for r in registry.all()]})]


def _seat_pieces(table: Table) -> list[tuple[str, dict]]:
    last = len(table.players) - 1
    return [("screens/host_seat.html", {"code": table.code, "id": p["id"], "name": p["name"],
                                        "first": i == 0, "last": i == last})
            for i, p in enumerate(table.players)]


def _warm_seats(table: Table, kept: dict) -> None:
    """During a game, for the host's TV: render the lobby's seat rows of players who join
    meanwhile as they join.  The lobby comes back with the game's last tap, which would
    otherwise render them all at once (docs/performance.md)."""
    _parts(kept, table.language, {"seats": _seat_pieces(table)})


def _tv_narration(table: Table, board) -> dict:
    """What the TV's narration shows: the lines of the turn, spoken once per turn (its key)."""
    game = table.game
    if not game:
        return {"in_game": False}
    context = {"in_game": True, "game_status": game["status"], "game_id": game["id"],
               "turn": game["state"].get("turn")}
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
    lobby the seating and the start button."""
    game = table.game
    if not host:
        return {}
    context = {"host": True, "in_game": bool(game), "game_status": game and game["status"], "code": table.code}
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
                       can_start=ruleset.min_players <= len(table.players) <= ruleset.max_players)
    return context


def _tv_door(table: Table, host: bool) -> dict:
    """Who may come in (the host's alone): requests for a seat, the lock."""
    return {"host": True, "code": table.code, "claims": table.claims, "locked": table.locked} if host else {}


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
    context.update(host=host, in_game=bool(table.game), scoreboard=_scoreboard(table, kept))
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
              kept: dict | None = None) -> dict[str, str]:
    """The TV.  Its board and roster change with nearly every tap: they are rendered once per
    room version for every TV (``memo``).  The narration and the host's bars rarely change:
    they are kept across versions (``_render``), each from a small context of its own."""
    memo = {} if memo is None else memo
    kept = {} if kept is None else _bounded(kept)
    return _in_language(table.language, lambda: _tv(table, host, memo, kept))


def _tv(table: Table, host: bool, memo: dict, kept: dict) -> dict[str, str]:
    game = table.game
    seat_help = None
    if host and game and game["status"] == "running":
        _warm_seats(table, kept)
        # Once per version for every host screen (the memo): it asks the engine for each
        # absent seat's choices.
        seat_help = memo.get(("seat_help",))
        if seat_help is None:
            seat_help = memo[("seat_help",)] = host_for_seats(table)
    board = functools.cache(lambda: _tv_board(table, kept, memo, host))
    screen = {}
    for frag in ("tv-players", "tv-main"):
        html = memo.get(("tv", frag))
        if html is None:
            html = memo[("tv", frag)] = render_to_string(f"screens/tv.html#{frag}", board())
        screen[frag] = html
    contexts = {"tv-narration": _tv_narration(table, board), "tv-settings": _tv_settings(table, kept, host),
                "tv-host": _tv_host(table, kept, memo, host, seat_help), "tv-door": _tv_door(table, host)}
    screen.update({frag: _render(kept, table.language, f"screens/tv.html#{frag}", context)
                   for frag, context in contexts.items()})
    return {frag: screen[frag] for frag in TV_FRAGMENTS}


def _idle_panel(table: Table, ended: bool) -> dict:
    """A phone without a seat: a watcher's fixed text, or the lobby (the ruleset, who joined)."""
    if table.game and table.game["status"] == "running":
        return {"in_game": False, "spectating": True}
    return {"in_game": False, "ended_by_host": ended, "ruleset": {"title": registry.get(table.ruleset).title},
            "players": [{"name": p["name"]} for p in table.players]}


def _seated(table: Table, seat: int, memo: dict) -> dict[str, dict]:
    """A seated phone's role card, panel and board, each the presenter's context in the frame
    around it (phone.html): one dict, one key.  Made in the room's language (they hold words)."""
    game = table.game
    pres = presenter(game["ruleset"])
    view = registry.get(game["ruleset"]).view(game["state"], seat)
    clock = {"deadline": deadline(game), "time_left": frozen_time_left(game)}
    fragments = pres.phone_fragments(view, game["names"], clock)
    board = memo.get(("phone board",))
    if board is None:   # the same for every phone: made once per version, of the TV's view
        board = memo[("phone board",)] = pres.phone_board(_public_view(table, memo), game["names"])
    fragments["board"] = board
    # The briefing (engines/briefing.py) is every ruleset's: phone.html shows it above the panel.
    panel = {"paused": paused(game), **briefing_panel(view, seat)}
    steps = _story(table, memo)
    if steps:   # the game is over: the story, this seat's own part marked
        panel["story"] = story.told(game, steps, seat)
    shell = {"role": {}, "panel": panel, "board": {}}
    return {f"ph-{name}": {**context, **shell[name], "in_game": True, "body": template}
            for name, (template, context) in fragments.items()}


def briefing_panel(view: dict, seat: int) -> dict:
    """What a seated phone shows of the briefing every game opens with (engines/briefing.py),
    above the ruleset's panel: whether this seat has looked, how many have not; {} after it."""
    briefing = view.get("briefing")
    if not briefing:
        return {}
    return {"briefing": {"seen": briefing["seen"][seat], "waiting": briefing["waiting"]}, "turn": view["turn"]}


def phone_screen(table: Table, player_id: int, memo: dict | None = None,
                 kept: dict | None = None) -> dict[str, str]:
    """One phone's screen, every fragment kept for the whole room (``_render``): phones whose
    fragments have equal contexts share one rendering, and a phone's name line or role card is
    rendered once, not once per tap.  ``memo`` (one room version's) holds what every phone
    shares: the public view and the board made of it."""
    memo = {} if memo is None else memo
    kept = {} if kept is None else _bounded(kept)
    me = next((p for p in table.players if p["id"] == player_id), None)
    game = table.game
    # A game the host ended is over for everyone at once: every phone is back in the lobby.
    ended = bool(game and game["status"] == "abandoned")
    if game and not ended and player_id in game["seats"]:
        contexts = _in_language(table.language, lambda: _seated(table, game["seats"].index(player_id), memo))
    else:
        contexts = {"ph-role": {"in_game": False}, "ph-board": {"in_game": False}, "ph-panel": _idle_panel(table, ended)}
    contexts["ph-head"] = {"player": {"name": me["name"]} if me else None, "code": table.code}
    return {frag: _render(kept, table.language, f"screens/phone.html#{frag}", contexts[frag])
            for frag in PHONE_FRAGMENTS}
