"""Reviewing past games (docs/design.md §5): read-only logs and a step-by-step replay."""

from __future__ import annotations

import json
import re

from django.contrib import admin
from django.http import Http404
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from engines import registry, replay
from engines.base import GAME_MASTER, HOST

from . import logins, services
from .models import Event, Game, Player, Room, Suspicion
from .presenters import event_words, presenter, ruleset_title, ruleset_words
from .scoreboard import scoreboard


# Wrong passwords are counted per address and per user name, then refused in words (logins.py).
admin.site.login_form = logins.ThrottledLoginForm


class ReadOnlyMixin:
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class EventInline(ReadOnlyMixin, admin.TabularInline):
    model = Event
    fields = ("seq", "version", "kind_words", "audience_display", "data", "created")
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ("seq",)

    @admin.display(description=_("kind"))
    def kind_words(self, event: Event) -> str:
        return event_words(event.kind)

    @admin.display(description=_("audience"))
    def audience_display(self, event: Event) -> str:
        if event.audience == "public":
            return _("everyone")
        if event.audience == "nobody":
            return _("nobody (game master)")
        names = event.game.names
        return ", ".join(names[s] if 0 <= s < len(names) else str(s) for s in event.audience)


class SuspicionInline(ReadOnlyMixin, admin.TabularInline):
    """The audience's answers to the game's polls (services.suspect): no move, so not in the log."""

    model = Suspicion
    fields = ("poll", "player", "suspected", "updated")
    readonly_fields = fields
    extra = 0
    can_delete = False

    @admin.display(description=_("suspected"))
    def suspected(self, suspicion: Suspicion) -> str:
        names = suspicion.game.names
        return names[suspicion.seat] if suspicion.seat < len(names) else str(suspicion.seat)


class RulesetFilter(admin.SimpleListFilter):
    """Games by ruleset: its name in words, its slug in the address."""

    title = _("ruleset")
    parameter_name = "ruleset"

    def lookups(self, request, model_admin):
        slugs = model_admin.get_queryset(request).order_by("ruleset").values_list("ruleset", flat=True).distinct()
        return [(slug, ruleset_title(slug)) for slug in slugs]

    def queryset(self, request, queryset):
        return queryset.filter(ruleset=self.value()) if self.value() else queryset


class WinnerFilter(admin.SimpleListFilter):
    """Finished games by winner: each code in the words of the games that have it (a code two
    rulesets share, e.g. "mafia", lists both words), filtered by the code."""

    title = _("winner")
    parameter_name = "winner"

    def lookups(self, request, model_admin):
        words: dict[str, list[str]] = {}
        for ruleset, options, outcome in (model_admin.get_queryset(request).filter(outcome__isnull=False)
                                          .values_list("ruleset", "options", "outcome")):
            code = (outcome or {}).get("winner")
            if isinstance(code, str):
                word = ruleset_words(ruleset, "side_words")[1](code, ruleset, options or {})
                if word not in words.setdefault(code, []):
                    words[code].append(word)
        return [(code, " / ".join(sorted(words[code]))) for code in sorted(words)]

    def queryset(self, request, queryset):
        return queryset.filter(outcome__winner=self.value()) if self.value() else queryset


@admin.register(Game)
class GameAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "room", "ruleset_words", "player_names", "winner", "reason", "started", "duration",
                    "status", "replay_link")
    list_filter = (RulesetFilter, WinnerFilter, "status", "started")
    search_fields = ("room__code", "names")
    date_hierarchy = "started"
    inlines = [EventInline, SuspicionInline]
    fields = ("room", "ruleset_words", "options", "seed", "player_names", "status", "winner", "reason", "started",
              "finished", "duration", "version", "replay_link")
    readonly_fields = fields

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser  # old games may be removed, never edited

    @admin.display(description=_("players"))
    def player_names(self, game: Game) -> str:
        return ", ".join(game.names)

    @admin.display(description=_("ruleset"), ordering="ruleset")
    def ruleset_words(self, game: Game) -> str:
        return ruleset_title(game.ruleset)

    @admin.display(description=_("winner"))
    def winner(self, game: Game) -> str:
        return self._outcome_words(game, "winner", "side_words")

    @admin.display(description=_("reason"))
    def reason(self, game: Game) -> str:
        return self._outcome_words(game, "reason", "reason_words")

    @staticmethod
    def _outcome_words(game: Game, key: str, words: str) -> str:
        """The outcome's ``key`` (a code) in the words of the game's table; "—" while it runs."""
        code = (game.outcome or {}).get(key)
        if not isinstance(code, str):
            return "—"
        return str(ruleset_words(game.ruleset, words)[1](code, game.ruleset, game.options or {}))

    @admin.display(description=_("duration"))
    def duration(self, game: Game) -> str:
        if not game.finished:
            return "—"
        seconds = int((game.finished - game.started).total_seconds())
        return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"

    @admin.display(description=_("replay"))
    def replay_link(self, game: Game) -> str:
        return format_html('<a href="{}">{}</a>', reverse("admin:mafiagames_game_replay", args=[game.pk]), _("replay"))

    def get_urls(self):
        # Before super(): its "<path:object_id>/" would swallow "<pk>/replay/".
        replay = path("<int:pk>/replay/", self.admin_site.admin_view(self.replay_view), name="mafiagames_game_replay")
        return [replay, *super().get_urls()]

    def replay_view(self, request, pk: int):
        game = self.get_object(request, str(pk))
        if game is None:
            raise Http404("no such game")
        step = _step(request.GET.get("step"), game.version)
        context = {**self.admin_site.each_context(request), "opts": self.model._meta, "original": game,
                   "title": _("Replay of game %(id)s") % {"id": game.pk}, **replay_at(game, step)}
        return TemplateResponse(request, "admin/mafiagames/replay.html", context)


def masked(secret: str) -> str:
    """A secret as the admin shows it: its shape, none of its characters."""
    return "".join("-" if ch == "-" else "•" for ch in secret)


def _step(raw: str | None, last: int) -> int:
    try:
        return max(0, min(int(raw), last))
    except (TypeError, ValueError):
        return last


def replay_at(game: Game, step: int) -> dict:
    """The game rebuilt from seed + log up to ``step`` actions, and whether it matches the snapshot."""
    ruleset = registry.get(game.ruleset)
    events = list(game.events.order_by("seq"))
    actions = [(replay.actor_of(e.data), e.data["action"]) for e in events if e.kind == "action"]
    snapshot_state = state = None
    for index, (state, _new) in enumerate(replay.states(ruleset, len(game.seats), game.options, game.seed,
                                                        game.deal, actions)):
        if index == step:
            snapshot_state = state
    matches = json.dumps(state, sort_keys=True) == json.dumps(game.state, sort_keys=True)
    pres = presenter(game.ruleset)

    def narration(view):
        return [pres.narrate(item, game.names, view) for item in view.get("narration", [])]

    tv_view = ruleset.view(snapshot_state, None)
    seats = [{"seat": s, "name": game.names[s], "view": _pretty(ruleset.view(snapshot_state, s))}
             for s in range(len(game.seats))]
    return {
        "step": step, "last": game.version, "matches": matches,
        "steps": {"first": 0, "prev": max(0, step - 1), "next": min(game.version, step + 1), "last": game.version},
        "state_json": _pretty(snapshot_state), "tv_json": _pretty(tv_view), "tv_narration": narration(tv_view),
        "seat_views": seats, "step_events": [e for e in events if e.version == step],
        "action": actions[step - 1] if step else None,
        "action_by": _actor_words(actions[step - 1][0], game.names) if step else None,
    }


def _actor_words(actor, names) -> str:
    """Who made a logged action, for the admin's reader."""
    if type(actor) is int:
        return _("seat %(seat)s (%(name)s)") % {"seat": actor, "name": names[actor]}
    return {HOST: _("the host"), GAME_MASTER: _("the game master's clock")}.get(actor, _("the host or the clock"))


def _pretty(data) -> str:
    """Indented JSON with short lists of plain values kept on one line."""
    text = json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True)
    return re.sub(r"\[\s*((?:[-\w.\"]+,\s*)*[-\w.\"]+)\s*\]",
                  lambda m: "[" + re.sub(r",\s+", ", ", m.group(1)) + "]", text)


# --- the evening's statistics (issue 16): per player, games, wins and both by role --------------

def statistics(room_id: int, player_id: int | None = None) -> dict:
    """A room's per-player statistics (mafiagames/scoreboard.py over its finished games, with
    each game's roles), worded in the admin's language: all players, or ``player_id``'s row."""
    board = scoreboard(Game.objects.scored(room_id, roles=True))
    players = []
    for row in board["players"]:
        if player_id is not None and row["id"] != player_id:
            continue
        roles = []
        for by_role in row["roles"]:
            title, words = ruleset_words(by_role["ruleset"], "role_words")
            roles.append({"ruleset": title, "role": words(by_role["role"], by_role["ruleset"], by_role["options"]),
                          "games": by_role["games"], "wins": by_role["wins"]})
        players.append({"name": row["name"], "games": row["games"], "wins": row["wins"], "roles": roles})
    return {"played": board["played"], "players": players}


def _statistics_html(room_id: int, player_id: int | None = None) -> str:
    return render_to_string("admin/mafiagames/statistics.html", statistics(room_id, player_id))


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ("code", "language", "ruleset_words", "locked", "created")
    search_fields = ("code",)
    # The host code opens the host controls on another device (a host whose browser closed): never
    # shown in clear, where anyone glancing at the admin could read it; "Rotate" makes a new
    # one and shows it once, to the admin who asked.
    readonly_fields = ("code", "host_code_shown", "created", "statistics")
    exclude = ("host_code",)
    actions = ("rotate_host_code",)

    @admin.display(description=_("ruleset"), ordering="ruleset")
    def ruleset_words(self, room: Room) -> str:
        return ruleset_title(room.ruleset)

    @admin.display(description=_("host code"))
    def host_code_shown(self, room: Room) -> str:
        return masked(room.host_code_display)

    @admin.action(description=_("Rotate the host code (the new one is shown once)"))
    def rotate_host_code(self, request, rooms):
        for room in rooms:
            code = services.rotate_host_code(room)
            self.message_user(request, _("Room %(room)s: the new host code is %(code)s.")
                              % {"room": room.code, "code": code})

    @admin.display(description=_("statistics"))
    def statistics(self, room: Room) -> str:
        """Each player's games and wins this evening, and both by role (finished games only)."""
        return _statistics_html(room.pk) if room.pk else "—"


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "room", "order", "connections", "joined")
    search_fields = ("name", "room__code")
    readonly_fields = ("token_shown", "joined", "statistics")
    exclude = ("token",)

    @admin.display(description=_("token"))
    def token_shown(self, player: Player) -> str:
        return masked(player.token)

    @admin.display(description=_("statistics"))
    def statistics(self, player: Player) -> str:
        """This player's games and wins in the room, and both by role (finished games only)."""
        return _statistics_html(player.room_id, player.pk) if player.pk else "—"
