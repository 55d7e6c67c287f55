"""Load what a screen shows about a room, in as few queries as possible."""

from __future__ import annotations

from .models import Game, Room
from .rendering import Table
from .services import waiting_claims


def load_table(room: Room) -> Table:
    players = [{"id": p.pk, "name": p.name, "connected": p.connections > 0, "handovers": p.handovers}
               for p in room.players.all()]
    by_id = {p["id"]: p for p in players}
    claims = [{"id": c.pk, "name": by_id[c.player_id]["name"], "connected": by_id[c.player_id]["connected"]}
              for c in waiting_claims(room.pk) if c.player_id in by_id]
    game = room.current_game()
    return Table(code=room.code, language=room.language, ruleset=room.ruleset, options=room.options,
                 players=players, game=game_dict(game) if game else None,
                 version=room.version, claims=claims, locked=room.locked)


def game_dict(game: Game) -> dict:
    return {"id": game.pk, "ruleset": game.ruleset, "state": game.state, "version": game.version,
            "names": game.names, "seats": game.seats, "status": game.status,
            "clock_started": game.clock_started.timestamp() if game.clock_started else None,
            "paused_at": game.paused_at.timestamp() if game.paused_at else None}
