"""Cosa Nostra's board drawn for the TV: where every shape of the SVG goes and how it looks,
from the PUBLIC view alone (templates/engines/cosanostra/svg_board.html draws it).

The board's data (the ring's squares, the city's cells, the gates) is engines/cosanostra/board.py;
this module only lays it out (docs/rules/cosanostra.md §3):

* the ring of 24 squares is the border of a 7 × 7 layout, clockwise from START in the top-left
  corner (corners 0, 6, 12, 18); the board is wider than high (a TV is), so the left and right
  columns are wide and every short label reads in one line at the TV's reading size;
* the 7 × 7 city in the middle, its coordinates a–g and 1–7 on all four edges, the four gates
  (white starting circles, §3.2) outside them.

A family is its colour AND a shape (circle, triangle, square, diamond): a tile, a figure, a
business's marker and a gate of the family all carry its shape, so a colour-blind player tells
the families apart too.  The template defines the shapes as symbols ``cn-mark-<COLOUR>``: the
roster may reuse them (``<use href="#cn-mark-BLUE">``).

Sizes are in the viewBox's units (1600 × 1000).  The TV's reading size is 2.8 % of the screen's
height; a board 60 % of the screen high shows 1000 units in 60 %, so a label needs
2.8 / 60 × 1000 ≈ 47 units: LABEL_SIZE is 48 (tests/web/test_cosanostra_board.py checks it).
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy, ngettext

from engines.cosanostra import board as B

WIDTH, HEIGHT = 1600, 1000
ROW_DEPTH = 152               # the ring's top and bottom rows: band, glyph, label
COLUMN_WIDTH = 300            # the ring's left and right columns (and the corners' width)
BAND = 26                     # a business's marker band, on the square's outer edge
TOKEN = 44                    # a figure's diameter
GLYPH = 64                    # a square's glyph at most
TOKEN_BLOCK = 96              # the 2 × 2 block of a side square where the figures stand
LABEL_SIZE = 48               # every word and number: ≥ 47, the TV's --tv-read on a board 60 % of the screen high
LETTER_WIDTH = 0.62           # a bold system font's mean letter width, in font sizes (a label's estimate)
COORD_BAND = 0.7              # the coordinates' band, in cells
GATE_RADIUS = 0.45            # a gate's radius, in cells
CITY_SPAN = 7 + 2 * (COORD_BAND + 0.95)   # the city with its coordinates and gates, in cells

# A family's shape beside its colour (the template's symbols cn-mark-<COLOUR>), in seat order.
MARKS = dict(zip(B.COLOURS, ("circle", "triangle", "square", "diamond")))

# The squares' short labels: at most about 7 letters, one line on a small square of the TV.
# Translators: a square of Cosa Nostra's board, drawn on the TV: at most 7 letters.
SQUARE_LABELS = {
    "START": gettext_lazy("Start"),
    "BANK": gettext_lazy("Bank"),
    "FORTUNA": gettext_lazy("Fortuna"),
    "POLICE": gettext_lazy("Police"),
    "ARMS": gettext_lazy("Arms"),
    "SPICL": gettext_lazy("Špicl"),
    "SPORTS": gettext_lazy("Sports"),
    "CASINO": gettext_lazy("Casino"),
    "PROBLEM": gettext_lazy("Problem"),
    "BIG_CITY": gettext_lazy("Big city"),
    "YAKUZA": gettext_lazy("Yakuza"),
    "FEDERAL": gettext_lazy("Feds"),
}
# Translators: a gate of Cosa Nostra's city on the TV's board: one letter, its compass point.
GATE_LABELS = {
    "N": gettext_lazy("N"),
    "E": gettext_lazy("E"),
    "S": gettext_lazy("S"),
    "W": gettext_lazy("W"),
}


# --- the ring -----------------------------------------------------------------------------------

def _side_square_height() -> float:
    return (HEIGHT - 2 * ROW_DEPTH) / 5


def _row_square_width() -> float:
    return (WIDTH - 2 * COLUMN_WIDTH) / 5


def square_rect(i: int) -> tuple[float, float, float, float, str]:
    """Ring square ``i``'s box (x, y, width, height) and the side it lies on: top, right, bottom,
    left, or a corner (top-left = START, then clockwise: §3.1)."""
    s, h = _row_square_width(), _side_square_height()
    corners = {0: (0, 0, "top-left"), 6: (WIDTH - COLUMN_WIDTH, 0, "top-right"),
               12: (WIDTH - COLUMN_WIDTH, HEIGHT - ROW_DEPTH, "bottom-right"),
               18: (0, HEIGHT - ROW_DEPTH, "bottom-left")}
    if i in corners:
        x, y, side = corners[i]
        return x, y, COLUMN_WIDTH, ROW_DEPTH, side
    corner, k = max(c for c in B.CORNERS if c < i), i % 6
    if corner == 0:
        return COLUMN_WIDTH + (k - 1) * s, 0, s, ROW_DEPTH, "top"
    if corner == 6:
        return WIDTH - COLUMN_WIDTH, ROW_DEPTH + (k - 1) * h, COLUMN_WIDTH, h, "right"
    if corner == 12:
        return WIDTH - COLUMN_WIDTH - k * s, HEIGHT - ROW_DEPTH, s, ROW_DEPTH, "bottom"
    return 0, HEIGHT - ROW_DEPTH - k * h, COLUMN_WIDTH, h, "left"


def _layout(x, y, w, h, side):
    """A square's parts: its marker band (or None), the box of its glyph over its label, and the
    centres of its four figure slots (slot = seat, so a family always stands in the same place).
    On a row a figure stands on the glyph's line, as a pawn stands on a printed square; on a
    side column, in a 2 × 2 block towards the city."""
    b = TOKEN_BLOCK
    row = lambda box: [(x + w * (j + 0.5) / 4, box[1] + 6 + GLYPH / 2) for j in range(4)]      # noqa: E731
    block = lambda x0: [(x0 + b * (j % 2 + 0.5) / 2, y + h * (j // 2 + 0.5) / 2) for j in range(4)]  # noqa: E731
    if side in ("left", "right"):
        band = (x, y, BAND, h) if side == "left" else (x + w - BAND, y, BAND, h)
        box = (x + BAND, y, w - BAND - b, h) if side == "left" else (x + b, y, w - BAND - b, h)
        return band, box, block(x + w - b if side == "left" else x)
    top = side.startswith("top")
    box = (x, y + BAND, w, h - BAND) if top else (x, y, w, h - BAND)
    band = None if "-" in side else (x, y, w, BAND) if top else (x, y + h - BAND, w, BAND)
    return band, box, row(box)


def _label(text: str, box) -> dict:
    """The label's baseline under its glyph; squeezed (textLength) when a translation is longer
    than the square is wide, so it never runs into the next square and keeps its height."""
    x, y, w, h = box
    return {"text": text, "x": x + w / 2, "y": y + h - 14, "size": LABEL_SIZE,     # baseline: room for descenders
            "squeeze": _squeeze(text, w - 16)}


def _squeeze(text: str, room: float) -> float | None:
    """The width to squeeze ``text`` into (SVG textLength) when it would be wider than ``room``
    at LABEL_SIZE: a long translation keeps its height and stays in its box."""
    return room if len(text) * LETTER_WIDTH * LABEL_SIZE > room else None


def _glyph(box) -> dict:
    x, y, w, h = box
    size = max(24, min(GLYPH, h - 62))      # from the box's top to the label's capitals
    return {"x": x + w / 2 - size / 2, "y": y + 6, "size": size}


def _square(i, view, families, reachable) -> dict:
    kind, business = B.RING[i]
    x, y, w, h, side = square_rect(i)
    band, box, slots = _layout(x, y, w, h, side)
    glyph = _glyph(box)
    state = view["businesses"].get(str(i)) if i in B.BUSINESSES else None
    owner = state["owner"] if state else None
    here = [f for f in families if f["pos"] == i]
    return {
        "index": i, "kind": kind, "business": business, "x": x, "y": y, "w": w, "h": h, "side": side,
        "label": _label(str(SQUARE_LABELS[kind]), box), "glyph": glyph,
        "band": _band(band, owner) if state else None,
        "owner": B.COLOURS[owner] if owner is not None else None,
        "card": _card(state["card"], band, side) if state and state["card"] else None,
        "closed": bool(state and state["closed"]),
        "friends": _friends(state["friends"], band, side) if state else [],
        "steps": reachable.get(i), "steps_at": _steps_at(x, side, glyph),
        "figures": [_figure(f, *slots[f["seat"]]) for f in here],
    }


def _figure(family: dict, cx: float, cy: float) -> dict:
    return dict(family, cx=cx, cy=cy, r=TOKEN / 2, ring=TOKEN / 2 + 9, mark=_mark_box(cx, cy, TOKEN * 0.5))


def _steps_at(x, side, glyph: dict) -> dict:
    """Where a reachable square shows its number of steps: on a side column left of its glyph;
    on a row at the left end of its glyph's line, clear of its label and band (a figure standing
    in the first slot is drawn over it)."""
    cy = glyph["y"] + glyph["size"] / 2
    return {"x": glyph["x"] - 30 if side in ("left", "right") else x + 28, "y": cy}


def _band(band, owner) -> dict:
    x, y, w, h = band
    colour = B.COLOURS[owner] if owner is not None else None
    return {"x": x, "y": y, "w": w, "h": h, "colour": colour,
            "mark": _mark_box(x + w / 2, y + h / 2, min(w, h) - 6) if colour else None}


def _card(code: str, band, side: str) -> dict:
    """A card lying at a business (§8.2): a small card at the end of its marker band, reaching
    into the square."""
    x, y, w, h = band
    cw, ch = 32, 44
    if side in ("top", "bottom"):
        return {"code": code, "x": x + w - cw - 6, "y": y + 4 if side == "top" else y + h - ch - 4, "w": cw, "h": ch}
    return {"code": code, "x": x + 4 if side == "left" else x + w - cw - 4, "y": y + 6, "w": cw, "h": ch}


def _friends(seats: list[int], band, side: str) -> list[dict]:
    """The families a "Friend of the family" card (R16) makes this business FRIENDLY to (§8.3):
    small discs of their colour and shape on the band's first end (the card lies at the other)."""
    x, y, w, h = band
    r = BAND / 2 - 2                # within the band: the ring's outer edge is the board's
    step = 8 + r                    # the first disc's centre from the band's end
    centres = [(x + step + k * (2 * r + 6), y + h / 2) if side in ("top", "bottom")
               else (x + w / 2, y + h - step - k * (2 * r + 6)) for k in range(len(seats))]
    return [{"colour": B.COLOURS[seat], "r": r, "cx": cx, "cy": cy, **_mark_box(cx, cy, r * 1.1)}
            for seat, (cx, cy) in zip(seats, centres)]


def _mark_box(cx: float, cy: float, size: float) -> dict:
    return {"x": cx - size / 2, "y": cy - size / 2, "size": size}


def _reachable(view) -> dict[int, int]:
    """While the roller chooses where to stop (§5), each square he may reach → its steps."""
    roll = view.get("roll")
    if view["phase"] != "choose_move" or not roll:
        return {}
    lo, hi = roll["allowed"]
    start = view["families"][roll["by"]]["pos"]
    return {(start + m) % B.RING_SIZE: m for m in range(lo, hi + 1)}


# --- the city -----------------------------------------------------------------------------------

def _cell_size() -> float:
    return (HEIGHT - 2 * ROW_DEPTH - 16) / CITY_SPAN


def _city_origin() -> tuple[float, float]:
    k = _cell_size()
    return WIDTH / 2 - 3.5 * k, HEIGHT / 2 - 3.5 * k


def _cells(view) -> list[dict]:
    k = _cell_size()
    x0, y0 = _city_origin()
    cells = []
    for cell in B.CELLS:
        cx, cy = B.cell_xy(cell)
        owner, gunman = view["cells"].get(cell), view["picciotti"].get(cell)
        x, y = x0 + cx * k, y0 + cy * k
        cells.append({"cell": cell, "x": x, "y": y, "size": k,
                      "owner": B.COLOURS[owner] if owner is not None else None,
                      "mark": _mark_box(x + k / 2, y + k / 2, k * 0.5) if gunman is None
                      else _mark_box(x + k * 0.3, y + k * 0.3, k * 0.4),
                      "picciotto": {"colour": B.COLOURS[gunman], "r": k * 0.3, "cx": x + k * 0.66, "cy": y + k * 0.66,
                                    **_mark_box(x + k * 0.66, y + k * 0.66, k * 0.42)}
                      if gunman is not None else None})
    return cells


def _coordinates() -> list[dict]:
    """a–g over and under the city, 1–7 left and right of it (§3.2)."""
    k = _cell_size()
    x0, y0 = _city_origin()
    off = COORD_BAND * k / 2
    size = LABEL_SIZE               # as big as the ring's labels: read from the sofa too
    marks = []
    for i, letter in enumerate(B.COLUMNS):
        x = x0 + (i + 0.5) * k
        marks += [{"text": letter, "x": x, "y": y0 - off, "size": size},
                  {"text": letter, "x": x, "y": y0 + 7 * k + off, "size": size}]
    for i in B.ROWS:
        y = y0 + (i - 0.5) * k
        marks += [{"text": str(i), "x": x0 - off, "y": y, "size": size},
                  {"text": str(i), "x": x0 + 7 * k + off, "y": y, "size": size}]
    return marks


def _gates(view) -> list[dict]:
    """The four white starting circles outside the city, each by its gate cell (§3.2), with the
    family that chose it and how many picciotti wait on it (§7.2)."""
    k = _cell_size()
    x0, y0 = _city_origin()
    owners = {f["gate"]: f for f in view["families"] if f["gate"]}
    reach = (COORD_BAND + 0.5) * k
    gates = []
    for gate, cell in B.GATES.items():
        cx, cy = B.cell_xy(cell)
        x, y = x0 + (cx + 0.5) * k, y0 + (cy + 0.5) * k
        dx, dy = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}[gate]
        gx, gy = x + dx * (0.5 * k + reach), y + dy * (0.5 * k + reach)
        family = owners.get(gate)
        r = GATE_RADIUS * k
        # the picciotti waiting there: a bust and their number, beside a north or south gate,
        # under an east or west one (where the city's edge leaves room)
        px, py = (gx + r + 0.35 * k, gy) if dy else (gx - 0.3 * k, gy + r + 0.4 * k)
        label = str(GATE_LABELS[gate])
        gates.append({"gate": gate, "label": label, "squeeze": _squeeze(label, 2 * r - 8), "cx": gx, "cy": gy, "r": r,
                      "owner": B.COLOURS[family["seat"]] if family else None,
                      "mark": _mark_box(gx, gy, k * 0.45),
                      "picciotti": family["gate_picciotti"] if family else 0,
                      "free": view["phase"] == "gates" and not family,      # a family picks it now (§4)
                      "picciotto": _mark_box(px, py, k * 0.6),
                      "count": {"x": px + 0.35 * k, "y": py, "size": LABEL_SIZE}})
    return gates


# --- the families -------------------------------------------------------------------------------

def _families(view, names) -> list[dict]:
    """The families still in the game, as the drawing shows them: figure, colour and shape."""
    active = view["active"] if view["phase"] != "over" else None
    return [{"seat": f["seat"], "colour": f["colour"], "mark": MARKS[f["colour"]],
             "name": names[f["seat"]],
             "pos": f["pos"], "active": f["seat"] == active}
            for f in view["families"] if not f["out"]]


def _summary(families, view) -> str:
    """The board in words for a screen reader: who stands where with how many tiles."""
    tiles = {f["seat"]: f["tiles"] for f in view["families"]}
    return " ".join(ngettext("%(name)s: on %(square)s, %(tiles)s tile.", "%(name)s: on %(square)s, %(tiles)s tiles.",
                             tiles[f["seat"]]) % {
        "name": f["name"], "square": SQUARE_LABELS[B.RING[f["pos"]][0]], "tiles": tiles[f["seat"]]}
        for f in families)


def board_context(view: dict, names: list[str]) -> dict:
    """Everything the SVG board needs, from the public part of ``view`` (a TV's or a seat's view:
    the drawing reads no key a seat has alone) and the players' ``names`` by seat."""
    families = _families(view, names)
    reachable = _reachable(view)
    squares = [_square(i, view, families, reachable) for i in range(B.RING_SIZE)]
    # a family's figure last, the active one over all: drawn after the squares, so nothing hides it
    figures = sorted((f for sq in squares for f in sq["figures"]), key=lambda f: f["active"])
    return _rounded({
        "width": WIDTH, "height": HEIGHT, "squares": squares, "figures": figures,
        "cells": _cells(view), "coordinates": _coordinates(), "gates": _gates(view),
        "families": families, "marks": MARKS,
        "city": {"x": _city_origin()[0], "y": _city_origin()[1], "size": 7 * _cell_size()},
        "title": gettext("The board of Cosa Nostra"), "summary": _summary(families, view),
    })


def _rounded(value):
    """Coordinates to a tenth of a unit: a short SVG, the same text for the same board."""
    if isinstance(value, float):
        return round(value, 1)
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return value
