"""Screens as fragments: the one place an engine view meets templates (DESIGN.md §4).

A screen is a dict ``{element id: html}``; every fragment is a top-level element with that
id and ``hx-swap-oob="true"``, so the page embeds them and a websocket can replace any
one of them.  Rendering is a pure function of already-loaded objects, so the no-leak
tests can render a seat's screen for any state without a database.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.template.loader import render_to_string
from django.utils import translation

from engines import registry
from engines.base import Option

from .presenters import presenter

TV_FRAGMENTS = ("tv-players", "tv-main", "tv-narration", "tv-host")
PHONE_FRAGMENTS = ("ph-head", "ph-role", "ph-panel", "ph-board")


@dataclass
class Table:
    """What a screen needs to know about a room, loaded once."""

    code: str
    language: str
    ruleset: str
    options: dict
    players: list  # [{"id", "name", "connected"}] in lobby order
    game: dict | None = None  # {"id", "ruleset", "state", "version", "names", "seats", "status"}
    join_url: str = ""
    qr_svg: str = ""
    extra: dict = field(default_factory=dict)


def _option_rows(slug: str, chosen: dict) -> list[dict]:
    ruleset = registry.get(slug)
    labels = getattr(presenter(slug), "OPTION_LABELS", {})
    rows = []
    for option in ruleset.options():
        option: Option
        label, help_text = labels.get(option.key, (option.label, option.help))
        rows.append({"key": option.key, "label": label, "help": help_text, "kind": option.kind,
                     "value": chosen.get(option.key, option.default), "choices": option.choices})
    return rows


def _game_context(table: Table, seat: int | None) -> dict:
    game = table.game
    ruleset = registry.get(game["ruleset"])
    view = ruleset.view(game["state"], seat)
    pres = presenter(game["ruleset"])
    context = pres.present(view, game["names"])
    online = {p["id"] for p in table.players if p["connected"]}
    for row in context.get("rows", []):
        row["connected"] = game["seats"][row["seat"]] in online
    context.update(game_id=game["id"], version=game["version"], turn=view.get("turn"),
                   tpl=pres.TEMPLATE_DIR, game_status=game["status"])
    return context


def _base_context(table: Table) -> dict:
    return {"code": table.code, "players": table.players, "ruleset": registry.get(table.ruleset),
            "rulesets": registry.all(), "option_rows": _option_rows(table.ruleset, table.options),
            "join_url": table.join_url, "qr_svg": table.qr_svg}


def tv_screen(table: Table, *, host: bool) -> dict[str, str]:
    with translation.override(table.language):
        context = _base_context(table)
        context.update(host=host, in_game=bool(table.game))
        if table.game:
            context.update(_game_context(table, None))
        return {frag: render_to_string(f"screens/tv.html#{frag}", context) for frag in TV_FRAGMENTS}


def phone_screen(table: Table, player_id: int) -> dict[str, str]:
    with translation.override(table.language):
        context = _base_context(table)
        me = next((p for p in table.players if p["id"] == player_id), None)
        context.update(player=me, seat=None, in_game=False)
        game = table.game
        if game and player_id in game["seats"]:
            seat = game["seats"].index(player_id)
            context.update(_game_context(table, seat))
            context.update(seat=seat, in_game=True)
        elif game and game["status"] == "running":
            context.update(spectating=True)
        return {frag: render_to_string(f"screens/phone.html#{frag}", context) for frag in PHONE_FRAGMENTS}
