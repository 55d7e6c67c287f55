"""The evening's scoreboard (issue 16): games played, wins per player and per side, and each
player's games and wins by role — derived from a room's games, never stored apart from them.

Nothing here is kept: the games are the one source of truth, so a restart of the server loses
nothing and nothing can drift.  ``scoreboard`` is a pure function over plain game dicts (the
database's are made by ``models.GameQuerySet.scored``), unit-tested without a database.

Only finished games count: a game the host ended (abandoned) has no winner, and a running one
has none yet (its roles are still secret).

A game dict, in the order the games were played::

    {"ruleset": "mafie", "options": {...}, "seats": [player ids in seat order],
     "names": [names as the game started], "status": "finished",
     "outcome": {"winner": side code, "reason": ..., "winners": [seats]},
     "roles": [role code per seat] or None}     # roles: only where statistics by role are wanted

The result::

    {"played": 3,
     "players": [{"id", "name", "games", "wins", "roles": [{"ruleset", "options", "role", "games", "wins"}]}],
     "sides": [{"ruleset", "options", "sides": [{"code", "wins"}]}]}

Players are keyed by id (the seat a phone holds all evening) and shown by the name of their
latest game; they are sorted for display: most wins first, then by name.  Sides are grouped per
ruleset (an evening may play several), each ruleset in the order it was first played, with the
options of its latest game (a presenter words a side by them: the children's re-theme names its
own sides).  A player's roles are grouped the same way, per ruleset and role (rulesets as first played,
then the roles played most).
"""

from __future__ import annotations

from collections.abc import Iterable

FINISHED = "finished"


def _by_wins(row: dict) -> tuple:
    return (-row["wins"], row.get("name", "").casefold(), row.get("id", 0))


def scoreboard(games: Iterable[dict]) -> dict:
    players: dict[int, dict] = {}
    sides: dict[str, dict] = {}
    options: dict[str, dict] = {}   # each ruleset's latest options
    played = 0
    for game in games:
        if game["status"] != FINISHED or not game.get("outcome"):
            continue
        played += 1
        ruleset, outcome = game["ruleset"], game["outcome"]
        options[ruleset] = game.get("options") or {}
        winners = set(outcome["winners"])
        group = sides.setdefault(ruleset, {})
        group[outcome["winner"]] = group.get(outcome["winner"], 0) + 1
        roles = game.get("roles")
        for seat, player_id in enumerate(game["seats"]):
            row = players.setdefault(player_id, {"id": player_id, "games": 0, "wins": 0, "roles": {}})
            row["name"] = game["names"][seat]
            won = seat in winners
            row["games"] += 1
            row["wins"] += won
            if roles is not None:
                by_role = row["roles"].setdefault((ruleset, roles[seat]), {"games": 0, "wins": 0})
                by_role["games"] += 1
                by_role["wins"] += won
    order = {ruleset: index for index, ruleset in enumerate(sides)}   # as first played
    for row in players.values():
        row["roles"] = sorted(
            ({"ruleset": ruleset, "options": options[ruleset], "role": role, **counts}
             for (ruleset, role), counts in row["roles"].items()),
            key=lambda r: (order[r["ruleset"]], -r["games"], -r["wins"], r["role"]))
    return {
        "played": played,
        "players": sorted(players.values(), key=_by_wins),
        "sides": [{"ruleset": ruleset, "options": options[ruleset],
                   "sides": [{"code": code, "wins": wins}
                             for code, wins in sorted(group.items(), key=lambda item: (-item[1], item[0]))]}
                  for ruleset, group in sides.items()],
    }
