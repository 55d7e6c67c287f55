"""Cosa Nostra's board as data (docs/rules/cosanostra.md §2–§3): the outer ring, the 7×7 city,
its gates, and the constants of the rulebook.  Everything here is public and never changes;
the engine, the presenter and the TV's drawing all read it from here, the one place it is said.

The rulebook names the squares but not their number or order, nor the city's size or shape:
the ring of 24 squares and the 7×7 city with four gates are our design (rules §3, marked [P]).
"""

from __future__ import annotations

# --- families (rules §4.1: our names for the four colours) -----------------------------------
COLOURS = ("BLUE", "GREEN", "YELLOW", "PURPLE")          # seat i plays COLOURS[i]
COLOUR_DIE = COLOURS + ("WHITE", "BLACK")                 # rules §11.4 [P]

# --- constants (rules §2) ------------------------------------------------------------------------
START_CASH = 5000
START_BONUS = 4000
PIECES = 18
MARKERS = 6
PICCIOTTI = 30
BANK_TOTAL = 150_000                                      # [P] G10

# rank by tile count (rules §5): (name, lowest tile count, how far the roll may be bent)
RANKS = (("MAFIOSO", 0, 2), ("CAPIREGIME", 3, 1), ("CAPO", 7, 0))

PRICES = {
    "tile": 3000,
    "picciotto": 2000,
    "picciotto_sports_club": 1000,
    "attack_tax": 3000,
    "BANK": 4000,
    "ARMS": 6000,
    "CASINO": 4000,
    "bank_takeover_with_card": 4000,
    "arms_takeover_with_card": 6000,
    "yakuza": 2000,
    "spicl": 400,
    "city_sale": 1000,
    "big_city_per_tile": 200,
}

# --- the outer ring (rules §3.1 [P]): 24 squares clockwise, 0 = START, corners 0, 6, 12, 18 ----
# (kind, business id or None)
RING = (
    ("START", None), ("BANK", "B1"), ("FORTUNA", None), ("POLICE", "P1"), ("ARMS", "A1"),
    ("SPICL", None), ("SPORTS", None), ("CASINO", "C1"), ("PROBLEM", None), ("BANK", "B2"),
    ("FORTUNA", None), ("POLICE", "P2"), ("BIG_CITY", None), ("ARMS", "A2"), ("YAKUZA", None),
    ("CASINO", "C2"), ("PROBLEM", None), ("SPICL", None), ("FEDERAL", None), ("BANK", "B3"),
    ("FORTUNA", None), ("POLICE", "P3"), ("SPORTS", None), ("BIG_CITY", None),
)
RING_SIZE = len(RING)
CORNERS = (0, 6, 12, 18)
BUSINESS_KINDS = ("BANK", "ARMS", "CASINO", "POLICE")
BUSINESSES = tuple(i for i, (kind, _) in enumerate(RING) if kind in BUSINESS_KINDS)   # ring indexes
BUYABLE = tuple(i for i in BUSINESSES if RING[i][0] != "POLICE")                      # rules §8.1

# --- the city (rules §3.2 [P]): columns a–g west to east, rows 1–7 north to south ------------------
COLUMNS = "abcdefg"
ROWS = range(1, 8)
CELLS = tuple(f"{c}{r}" for r in ROWS for c in COLUMNS)    # reading order: a1, b1, ... g7
GATES = {"N": "d1", "E": "g4", "S": "d7", "W": "a4"}       # gate → its gate cell
SIDES = ("N", "E", "S", "W")


def cell_xy(cell: str) -> tuple[int, int]:
    """A cell's column and row, both 0-based (a1 → (0, 0))."""
    return COLUMNS.index(cell[0]), int(cell[1:]) - 1


def cell_at(x: int, y: int) -> str | None:
    """The cell at column ``x``, row ``y`` (0-based), or None off the map."""
    return f"{COLUMNS[x]}{y + 1}" if 0 <= x < 7 and 0 <= y < 7 else None


def neighbours(cell: str, diagonal: bool = False) -> list[str]:
    """The cells sharing a side with ``cell`` (and a corner too, with ``diagonal``)."""
    x, y = cell_xy(cell)
    steps = [(0, -1), (1, 0), (0, 1), (-1, 0)]
    if diagonal:
        steps += [(1, -1), (1, 1), (-1, 1), (-1, -1)]
    return [c for dx, dy in steps if (c := cell_at(x + dx, y + dy))]


def sides_of(cell: str) -> set[str]:
    """The city's sides a cell touches (a corner cell touches two)."""
    x, y = cell_xy(cell)
    return {side for side, on in (("N", y == 0), ("S", y == 6), ("W", x == 0), ("E", x == 6)) if on}
