"""The city map and the businesses changing hands (docs/rules/cosanostra.md §7, §8.4, §15.1):
gaining and losing tiles, the territory, picciotto steps, owners of businesses, the four-sides
test.  Pure helpers over the state; the moves that use them check what the player may do.
"""

from __future__ import annotations

from engines.base import IllegalAction, State
from engines.cosanostra import board
from engines.cosanostra.state import FRIEND_CARD, family, option, rank, tiles_of


# The board's adjacency and sides, looked up rather than recomputed (the end test runs after
# every change, rules §15).
NEIGHBOURS = {cell: tuple(board.neighbours(cell)) for cell in board.CELLS}
SIDES_OF = {cell: frozenset(board.sides_of(cell)) for cell in board.CELLS}
ALL_SIDES = frozenset(board.SIDES)


# --- tiles (rules §7.5) -------------------------------------------------------------------------

def gain_cell(state: State, cell: str, seat: int) -> None:
    """A piece of ``seat`` goes from his supply onto ``cell`` (emptied first if someone held it)."""
    if cell in state["cells"]:
        lose_cell(state, cell)
    family(state, seat)["pieces"] -= 1
    state["cells"][cell] = seat
    state["acquired_count"] += 1
    state["acquired"][cell] = state["acquired_count"]


def lose_cell(state: State, cell: str, out_of_game: bool = False) -> None:
    """Rules §7.5: the owner's piece leaves the cell (to his supply, or out of the game: §9.4
    city sale, §9.6 bankruptcy) and his picciotto on it goes back to his gate."""
    owner = state["cells"].pop(cell)
    state["acquired"].pop(cell, None)
    fam = family(state, owner)
    if out_of_game:
        fam["pieces_out"] += 1
    else:
        fam["pieces"] += 1
    if state["picciotti"].get(cell) == owner:
        del state["picciotti"][cell]
        fam["gate_picciotti"] += 1


def territory_cells(state: State, seat: int) -> set[str]:
    """Cells orthogonally adjacent to a family's territory: its tiles and its gate (rules §3.3)."""
    near = {n for cell in tiles_of(state, seat) for n in NEIGHBOURS[cell]}
    gate = family(state, seat)["gate"]
    if gate:
        near.add(board.GATES[gate])
    return near


def adjacent_to_territory(state: State, seat: int, cell: str) -> bool:
    return cell in territory_cells(state, seat)


def check_cell(cell) -> str:
    if not isinstance(cell, str) or cell not in board.CELLS:
        raise IllegalAction("bad_cell", "No such cell")
    return cell


def check_buyable_cell(state: State, seat: int, cell) -> str:
    """Rules §7.1 (and R09): an empty cell beside the territory, with a piece to put on it."""
    check_cell(cell)
    if cell in state["cells"]:
        raise IllegalAction("occupied", "The cell is taken")
    if not adjacent_to_territory(state, seat, cell):
        raise IllegalAction("not_adjacent", "The cell does not border your territory")
    if family(state, seat)["pieces"] < 1:
        raise IllegalAction("no_piece", "No piece left")
    return cell


# --- picciotti (rules §7.3) -------------------------------------------------------------------

def diagonal_steps(state: State, seat: int) -> bool:
    """Rules §7.3, Q3: a capo's picciotti step across the corner too (option ``capo_diagonal``)."""
    return option(state, "capo_diagonal") == "all_steps" and rank(state, seat) == "CAPO"


def picciotto_positions(state: State, seat: int) -> list[str]:
    """Where ``seat``'s picciotti stand: each map cell, and "gate" once if any wait there."""
    cells = sorted(cell for cell, owner in state["picciotti"].items() if owner == seat)
    return (["gate"] if family(state, seat)["gate_picciotti"] else []) + cells


def may_step_from(state: State, seat: int, at: str) -> bool:
    """A picciotto of ``seat`` stands at ``at`` and has a step left this turn (one each, §7.3;
    R11's night run gives one of them three)."""
    run = state["night_run"]
    if run and run["at"] == at:
        return True
    if at == "gate":
        return family(state, seat)["gate_picciotti"] - state["stepped"].count("gate") > 0
    return state["picciotti"].get(at) == seat and at not in state["stepped"]


def step_targets(state: State, seat: int, at: str) -> list[str]:
    """Where a picciotto at ``at`` may try to step (rules §7.3): the gate to its cell; a cell to
    its neighbours (diagonal too for a capo) and back to the own gate from the gate cell."""
    gate = family(state, seat)["gate"]
    if at == "gate":
        return [board.GATES[gate]]
    targets = board.neighbours(at, diagonal=diagonal_steps(state, seat))
    return targets + (["gate"] if board.GATES[gate] == at else [])


def step_kind(state: State, seat: int, to: str) -> str:
    """What a step onto ``to`` is (rules §7.3 table): move, back to the gate, capture, attack —
    or the refusal's code."""
    if to == "gate":
        return "home"
    if to in state["picciotti"]:
        return "occupied" if state["cells"].get(to) == seat else "protected"
    owner = state["cells"].get(to)
    if owner == seat:
        return "move"
    return "capture" if owner is None else "attack"


# --- businesses (rules §8) ------------------------------------------------------------------

def set_owner(state: State, square: int, owner: int | None, card: str | None = None) -> list[str]:
    """A business changes hands (rules §8.4): markers move, a card lying at it comes with it (a
    trade) or is replaced by ``card``; a friend card (R16) naming it goes when it becomes
    neutral or its holder's own.  Returns the red cards that go back under the deck."""
    business = state["businesses"][str(square)]
    freed: list[str] = []
    if business["owner"] is not None:
        family(state, business["owner"])["markers"] += 1
    if owner is not None:
        family(state, owner)["markers"] -= 1
    business["owner"] = owner
    if card is not None:
        if business["card"]:
            freed.append(business["card"])
        business["card"] = card
    elif owner is None and business["card"]:
        freed.append(business["card"])
        business["card"] = None
    keep = [seat for seat in business["friends"] if owner is not None and seat != owner]
    if keep != business["friends"]:
        freed.append(FRIEND_CARD)
        business["friends"] = keep
    return freed


def check_square(square) -> int:
    if type(square) is not int or str(square) not in _BUSINESS_KEYS:
        raise IllegalAction("bad_square", "No such business")
    return square


_BUSINESS_KEYS = {str(square) for square in board.BUSINESSES}


# --- the four sides (rules §15.1) ------------------------------------------------------------

def links_four_sides(state: State, seat: int) -> bool:
    """One orthogonally connected group of ``seat``'s tiles touches N, E, S and W."""
    mine = set(tiles_of(state, seat))
    if frozenset().union(*(SIDES_OF[cell] for cell in mine)) != ALL_SIDES:
        return False
    seen: set[str] = set()
    for start in mine:
        if start in seen:
            continue
        group, todo = {start}, [start]
        while todo:
            for n in NEIGHBOURS[todo.pop()]:
                if n in mine and n not in group:
                    group.add(n)
                    todo.append(n)
        seen |= group
        if frozenset().union(*(SIDES_OF[cell] for cell in group)) == ALL_SIDES:
            return True
    return False
