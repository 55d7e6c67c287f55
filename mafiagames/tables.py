"""Load what a screen shows about a room, in as few queries as possible."""

from __future__ import annotations

from .models import Claim, Game, Room, game_dict
from .rendering import Table
from .scoreboard import scoreboard
from .story import events_of


def load_table(room: Room) -> Table:
    players = [{"id": p.pk, "name": p.name, "connected": p.connections > 0, "handovers": p.handovers}
               for p in room.players.all()]
    by_id = {p["id"]: p for p in players}
    claims = [{"id": c.pk, "name": by_id[c.player_id]["name"], "connected": by_id[c.player_id]["connected"]}
              for c in Claim.objects.waiting(room.pk) if c.player_id in by_id]
    game = room.current_game()
    # The evening's scoreboard, between games only: one query, none while a game runs.
    scores = scoreboard(Game.objects.scored(room.pk)) if game and game.status != Game.Status.RUNNING else None
    # A finished game's whole log, secrets included, for its story (story.py): only once it is over.
    told = events_of(game.pk) if game and game.status == Game.Status.FINISHED else None
    return Table(code=room.code, language=room.language, ruleset=room.ruleset, options=room.options,
                 players=players, game=game_dict(game) if game else None,
                 version=room.version, claims=claims, locked=room.locked, scores=scores, story=told)
