"""Every end of the game (docs/rules/cosanostra.md §15), tested after every atomic change:
four sides linked, the full map, a bankruptcy, the round limit; the tie-breaks of §15.
"""

from __future__ import annotations

from engines.base import Event, State, next_turn, stop_clock
from engines.cosanostra import board
from engines.cosanostra.city import links_four_sides
from engines.cosanostra.state import OVER, family, happen, in_game, owned_businesses, tile_count


def power_order(state: State, seats: list[int]) -> list[int]:
    """The strongest first: more tiles, then more cash, then more businesses (rules §15)."""
    return sorted(seats, key=lambda seat: (-tile_count(state, seat), -family(state, seat)["cash"],
                                           -len(owned_businesses(state, seat)), seat))


def strongest(state: State, seats: list[int]) -> list[int]:
    """The winners among ``seats`` by power; several share the victory when tied on all three."""
    def key(seat):
        return (tile_count(state, seat), family(state, seat)["cash"], len(owned_businesses(state, seat)))

    best = max(key(seat) for seat in seats)
    return sorted(seat for seat in seats if key(seat) == best)


def finish(state: State, events: list[Event], end: str, winners: list[int]) -> None:
    state["result"] = {"end": end, "winners": sorted(winners)}
    state["tasks"], state["offer"], state["choose"], state["liquidation"] = [], None, None, None
    state["trade"], state["secret"]["trade"] = None, None
    stop_clock(state)
    next_turn(state, OVER)
    happen(state, events, "game_over", end=end, winners=sorted(winners))


def finish_by_power(state: State, events: list[Event], end: str) -> None:
    """Rules §15.2–§15.4: the family with the greatest power (tiles) among those still in."""
    finish(state, events, end, strongest(state, in_game(state)))


def check_end(state: State, events: list[Event]) -> bool:
    """Rules §15.1 and §15.2 after a change: four sides linked wins at once (two at once: the
    active family, else the one with more tiles); a full map goes to the most tiles."""
    if state["result"]:
        return True
    linked = [seat for seat in in_game(state) if links_four_sides(state, seat)]
    if linked:
        winner = state["active"] if state["active"] in linked else power_order(state, linked)[0]
        finish(state, events, "four_sides", [winner])
        return True
    if len(state["cells"]) == len(board.CELLS):
        finish_by_power(state, events, "full_map")
        return True
    return False
