"""Screens as fragments: the one place an engine view meets templates (DESIGN.md §4).

A screen is a dict ``{element id: html}``; every fragment is a top-level element with that
id and ``hx-swap-oob="true"``, so the page embeds them and a websocket can replace any
one of them.  Rendering is a pure function of already-loaded objects, so the no-leak
tests can render a seat's screen for any state without a database.

Rendering is the expensive part of a push (DESIGN.md §8), so each fragment is rendered once
per distinct input: callers pass a ``memo`` dict that lives as long as one version of the
room (``screens.Snapshot``), and fragments are keyed by exactly what they show — the TV's
once for every TV, the public phone board once for every phone, a phone's panel once for
every seat whose view is equal apart from the seat number.
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

from . import clock
from .presenters import key_of, part, presenter

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


def flash(message: str, kind: str = "error", version: int | None = None) -> str:
    """The answer to one phone's tap: an error message, or (applied) an empty, cleared flash."""
    return render_to_string("screens/flash.html", {"message": message, "kind": kind, "version": version})


def version_marker(version: int) -> str:
    """Sent with every update: which room version the screen now shows (load tests read it)."""
    return f'<i id="sv" hx-swap-oob="true" data-v="{int(version)}" hidden></i>'


def _option_rows(slug: str, chosen: dict) -> list[dict]:
    ruleset = registry.get(slug)
    labels = part(slug, "OPTION_LABELS")
    choice_words = part(slug, "OPTION_CHOICES")
    rows = []
    for option in ruleset.options():
        option: Option
        if not option.offered:
            continue
        label, help_text = labels.get(option.key, (option.label, option.help))
        value = chosen.get(option.key, option.default)
        choices = [(choice, choice_words.get(option.key, {}).get(choice, text)) for choice, text in option.choices]
        rows.append({"key": option.key, "label": label, "help": help_text, "kind": option.kind, "value": value,
                     "choices": choices, "value_label": dict(choices).get(value, value)})
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
    context.update(game_id=game["id"], turn=view.get("turn"),
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


def _pause_key(game: dict | None) -> tuple:
    """What a fragment shows of the clock and a pause, as a key: the due time moves on resume."""
    return (paused(game), deadline(game), frozen_time_left(game)) if game else ()


def host_moves(slug: str, state: dict) -> list[dict]:
    """The host's in-game buttons (the engine's ``host_moves``), worded by the ruleset's presenter."""
    labels = part(slug, "HOST_MOVES")
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
    it finds in a context): the lobby's option rows are not shown during a game, nor the track
    in a phone's panel, yet every rendering of those fragments made them."""
    return functools.cache(make)


def _base_context(table: Table) -> dict:
    return {"code": table.code, "players": table.players, "ruleset": registry.get(table.ruleset),
            "rulesets": registry.all(),
            "option_rows": _when_used(lambda: _option_rows(table.ruleset, table.options))}


def _render(memo: dict, key: tuple, template: str, make_context, language: str | None = None) -> str:
    """The fragment under ``key``, rendered in ``language`` unless the memo has it.  The language
    is activated only to render (most fragments of a push come from the memo, and activating
    it cost as much as all else a phone does); None: already active (a piece of a fragment)."""
    html = memo.get(key)
    if html is None:
        if language is None:
            html = render_to_string(template, make_context())
        else:
            with translation.override(language):
                html = render_to_string(template, make_context())
        memo[key] = html
    return html


def _parts(kept: dict, pieces: dict[str, list[tuple[str, dict]]]) -> dict[str, str]:
    """Render a presenter's pieces (``tv_parts``), each once per distinct context, and join them."""
    return {name: mark_safe("".join(
        _render(kept, ("part", template, key_of(context)), template,
                lambda context=context: context)
        for template, context in items)) for name, items in pieces.items()}


def _bounded(kept: dict) -> dict:
    """A room's kept fragments, emptied now and then: a long evening of games in one room."""
    if len(kept) > 2000:
        kept.clear()
    return kept


def _host_pieces(table: Table, option_rows: list[dict]) -> dict[str, list[tuple[str, dict]]]:
    """The host's lobby controls in pieces: the settings, and one row per seat — a join or a
    new game's watchers re-render their own rows only (the settings stay the same)."""
    settings_context = {"code": table.code, "ruleset": table.ruleset, "option_rows": option_rows,
                        "rulesets": [(r.slug, r.title) for r in registry.all()]}
    return {"settings": [("screens/host_settings.html", settings_context)], "seats": _seat_pieces(table)}


def _seat_pieces(table: Table) -> list[tuple[str, dict]]:
    last = len(table.players) - 1
    return [("screens/host_seat.html", {"code": table.code, "id": p["id"], "name": p["name"],
                                        "first": i == 0, "last": i == last})
            for i, p in enumerate(table.players)]


def _seating(table: Table) -> bytes | str:
    """Who sits where, as a key: what the host's seat rows show besides the room."""
    return key_of([(p["id"], p["name"]) for p in table.players])


def _warm_seats(table: Table, kept: dict) -> None:
    """During a game, for the host's TV: render the lobby's seat rows of players who join
    meanwhile as they join.  The lobby comes back with the game's last tap, which would
    otherwise render them all at once (docs/performance.md)."""
    key = ("seats", _seating(table))
    if key not in kept:
        with translation.override(table.language):
            _parts(kept, {"seats": _seat_pieces(table)})
        kept[key] = True


def tv_screen(table: Table, *, host: bool, memo: dict | None = None,
              kept: dict | None = None) -> dict[str, str]:
    """The TV.  The narration and, during a game, the host's bar rarely change: they are kept
    across versions under keys that name all they show; the board and roster are per version."""
    memo = {} if memo is None else memo
    kept = {} if kept is None else _bounded(kept)
    context = None
    game = table.game
    running = bool(game and game["status"] == "running")
    keys = {frag: (memo, (host if frag == "tv-host" else None,)) for frag in TV_FRAGMENTS}
    seat_help = None
    if running:
        if host:
            _warm_seats(table, kept)
            # Once per version for every host screen (the memo): it asks the engine for each
            # absent seat's choices, and its key says when the host's bar changes.
            seat_help = memo.get(("seat_help",))
            if seat_help is None:
                seat_help = memo[("seat_help",)] = host_for_seats(table)
        narration = key_of(game["state"].get("narration"))
        keys["tv-narration"] = (kept, (game["id"], game["state"].get("turn"), game["state"].get("phase"), narration))
        # The host's buttons change only with what the players are asked, i.e. with the turn.
        keys["tv-host"] = (kept, ("running", host, game["id"], game["state"].get("turn"), paused(game),
                                  key_of(seat_help)))
        keys["tv-settings"] = (kept, ("running",))  # empty on every TV
    else:  # the host's lobby controls: the seating and start button; the game and its options
        keys["tv-host"] = (kept, ("lobby", host, bool(game), _seating(table), table.ruleset))
        keys["tv-settings"] = (kept, ("lobby", host, table.ruleset, key_of(table.options)))
    # Who may come in: requests for a seat, the lock; the host's alone, in a game or not.
    keys["tv-door"] = (kept, ("door", host, table.locked, key_of(table.claims) if host else None))

    def make_context():
        nonlocal context
        if context is None:
            context = _base_context(table)
            context.update(host=host, in_game=bool(table.game), claims=table.claims, locked=table.locked)
            if host and not running:
                context["host_parts"] = _parts(kept, _host_pieces(table, context["option_rows"]()))
            if table.game:
                view = registry.get(table.game["ruleset"]).view(table.game["state"], None)
                context.update(_game_context(table, view))
                context["host_moves"] = host_moves(table.game["ruleset"], table.game["state"]) if host else []
                context["seat_help"] = seat_help
                tv_parts = part(table.game["ruleset"], "tv_parts")
                if tv_parts is not None:
                    context["parts"] = _parts(kept, tv_parts(view, context))
        return context

    return {frag: _render(keys[frag][0], ("tv", frag, *keys[frag][1]), f"screens/tv.html#{frag}", make_context,
                          table.language)
            for frag in TV_FRAGMENTS}


def phone_screen(table: Table, player_id: int, memo: dict | None = None,
                 kept: dict | None = None) -> dict[str, str]:
    """One phone's screen.  ``memo`` lives for one room version; ``kept`` for the whole room and
    holds only fragments whose key names everything they show (room and language are fixed),
    so a phone's name line or role card is rendered once, not once per tap."""
    memo = {} if memo is None else memo
    kept = {} if kept is None else _bounded(kept)
    me = next((p for p in table.players if p["id"] == player_id), None)
    game = table.game
    # A game the host ended is over for everyone at once: every phone is back in the lobby.
    ended = bool(game and game["status"] == "abandoned")
    seat = game["seats"].index(player_id) if game and not ended and player_id in game["seats"] else None
    view = registry.get(game["ruleset"]).view(game["state"], seat) if seat is not None else None
    if view is not None:
        mine = view["me"]
        # Equal keys mean equal fragments: a key holds everything its fragment can show.
        pres = presenter(game["ruleset"])
        own_role_key = part(game["ruleset"], "role_key")
        role_key = own_role_key(view) if own_role_key else key_of(
            [mine.get("role"), mine.get("partners"), mine.get("plot_learnt")])
        keys = {"ph-role": (kept, ("role", game["id"], role_key)),
                "ph-panel": (kept, ("panel", game["id"], pres.panel_key(view), _pause_key(game))),
                "ph-board": (kept, ("board", game["id"], pres.board_key(view)))}
    else:
        spectating = bool(game and game["status"] == "running")
        # A watcher's panel is a fixed text; the lobby's names the ruleset and who has joined.
        panel = ("spectating",) if spectating else \
            ("lobby", table.ruleset, ended, key_of([p["name"] for p in table.players]))
        keys = {"ph-role": (kept, ("idle-role",)), "ph-board": (kept, ("idle-board",)), "ph-panel": (kept, panel)}
    keys["ph-head"] = (kept, ("head", me["name"] if me else ""))
    context = None

    def make_context():
        nonlocal context
        if context is None:
            context = _base_context(table)
            context.update(player=me, seat=None, in_game=False, ended_by_host=ended)
            if view is not None:
                context.update(_game_context(table, view))
                context.update(seat=seat, in_game=True)
                phone_parts = part(game["ruleset"], "phone_parts")
                if phone_parts is not None:
                    context["parts"] = _when_used(lambda: _parts(kept, phone_parts(view)))
            elif game and game["status"] == "running":
                context.update(spectating=True)
        return context

    return {frag: _render(keys[frag][0], ("ph", frag, *keys[frag][1]), f"screens/phone.html#{frag}", make_context,
                          table.language)
            for frag in PHONE_FRAGMENTS}
