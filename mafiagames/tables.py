"""Load what a screen shows about a room, in as few queries as possible."""

from __future__ import annotations

from .models import Claim, Game, HostDevice, Room, Suspicion, game_dict
from .rendering import Table
from .scoreboard import scoreboard
from .story import events_of


def load_table(room: Room) -> Table:
    # A bot is always at the table (Player.connected): never shown as a lost phone, never proxied.
    players = [{"id": p.pk, "name": p.name, "connected": p.connected, "bot": p.bot, "handovers": p.handovers,
                "language": p.language}
               for p in room.players.all()]
    by_id = {p["id"]: p for p in players}
    claims = [{"id": c.pk, "name": by_id[c.player_id]["name"], "connected": by_id[c.player_id]["connected"]}
              for c in Claim.objects.waiting(room.pk) if c.player_id in by_id]
    # Who hosts and who asks to (HostDevice): one query.
    devices = list((HostDevice.objects.hosting(room.pk) | HostDevice.objects.asking(room.pk)).values(
        "id", "number", "status", "connections"))
    game = room.current_game()
    # The evening's scoreboard, between games only: one query, none while a game runs.
    scores = scoreboard(Game.objects.scored(room.pk)) if game and game.status != Game.Status.RUNNING else None
    # The audience's answers (rendering.Table.suspicions): only a room with a player outside
    # the game can have any, so most loads ask nothing.
    suspicions = (list(Suspicion.objects.filter(game=game).values("player", "poll", "seat"))
                  if game and any(p["id"] not in game.seats for p in players) else [])
    # The lobby offers "How to play" prominently before the room's first game of its ruleset.
    running = game is not None and game.status == Game.Status.RUNNING
    first = not running and not room.games.filter(ruleset=room.ruleset).exists()
    # A finished game's whole log, secrets included, for its story (story.py): only once it is over.
    told = events_of(game.pk) if game and game.status == Game.Status.FINISHED else None
    return Table(code=room.code, language=room.language, ruleset=room.ruleset, options=room.options,
                 players=players, game=game_dict(game) if game else None,
                 version=room.version, claims=claims, locked=room.locked, scores=scores,
                 lesson=room.lesson, first_of_ruleset=first, suspicions=suspicions,
                 host_phone=by_id.get(room.host_player_id), host_offer=by_id.get(room.host_offer_id),
                 host_generation=room.host_generation, story=told,
                 host_devices=[{"id": d["id"], "number": d["number"], "online": d["connections"] > 0}
                               for d in devices if d["status"] == HostDevice.Status.HOSTING],
                 host_asks=[{"id": d["id"], "number": d["number"]}
                            for d in devices if d["status"] == HostDevice.Status.ASKING])
