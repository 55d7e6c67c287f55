"""Cosa Nostra's board on the TV (presenters/cosanostra/drawing.py, engines/cosanostra/svg_board.html):
every square, cell, gate and figure of a public view drawn where it belongs, readable from the
sofa, escaped, and made of nothing but the public view (docs/rules/cosanostra.md §3, §14)."""

from __future__ import annotations

import copy
import math
import xml.etree.ElementTree as ET

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from engines.cosanostra import board as B
from mafiagames.presenters.cosanostra import drawing
from mafiagames.presenters.cosanostra.drawing import board_context
from tests.conftest import CAST

SVG = "{http://www.w3.org/2000/svg}"
NAMES = CAST[:4]


def family(seat: int, pos: int, gate: str | None, tiles: int, gate_picciotti: int = 0, out: bool = False) -> dict:
    return {"seat": seat, "colour": B.COLOURS[seat], "cash": 5000, "rank": "CAPIREGIME", "tiles": tiles,
            "pieces_left": B.PIECES - tiles, "markers_left": B.MARKERS, "pos": pos, "gate": gate, "red_cards": 1,
            "armed": None, "face_up": [], "fed": None, "loan_shark": None, "out": out,
            "gate_picciotti": gate_picciotti}


def tv_view(**changes) -> dict:
    """A TV's view mid-game (cn-interface's shape): Alice (BLUE) has rolled a 4 as a mafioso."""
    businesses = {str(i): {"owner": None, "card": None, "closed": False, "friends": []} for i in B.BUSINESSES}
    businesses["1"]["owner"] = 0
    businesses["9"].update(owner=2, card="R02")
    businesses["11"].update(owner=3, card="R01", friends=[0])
    businesses["15"].update(owner=0, closed=True)
    view = {
        "turn": 40, "narration": [], "me": None, "phase": "choose_move", "active": 0, "order": [0, 1, 2, 3],
        "round": 5,
        "families": [family(0, 9, "N", 6, 2), family(1, 9, "W", 4), family(2, 9, "S", 3, 1), family(3, 21, "E", 5, 3)],
        "cells": {"d1": 0, "d2": 0, "c2": 0, "e2": 0, "e3": 0, "f3": 0, "a4": 1, "b4": 1, "b3": 1, "b5": 1,
                  "d7": 2, "d6": 2, "c6": 2, "g4": 3, "f4": 3, "g5": 3, "f5": 3, "g3": 3},
        "picciotti": {"d2": 0, "b4": 1, "f4": 3},
        "businesses": businesses, "supply": 24, "decks": {"red": 20, "black": 21}, "bank": 120000,
        "roll": {"die": 4, "allowed": [2, 6], "by": 0}, "colour_roll": None, "offer": None, "choose": None,
        "liquidation": None, "trade": None, "stepped": [], "last_card": None, "history": [], "options": {},
        "winner": None, "end": None,
    }
    view.update(changes)
    return view


def seat_view(view: dict, seat: int) -> dict:
    """The same moment on a seat's phone: its hand, its cash and a trade's whole offer (§14)."""
    mine = copy.deepcopy(view)
    mine["me"] = {"seat": seat, "cash": 7300, "hand": [{"id": "R05-1", "code": "R05", "armed": False},
                                                       {"id": "R12-2", "code": "R12", "armed": True}],
                  "legal": [{"type": "move", "steps": 2}]}
    mine["trade"] = {"from": seat, "to": 1, "give": {"cash": 1000, "tiles": ["d2"], "businesses": [1],
                                                     "red_cards": [{"id": "R05-1", "code": "R05"}]},
                     "take": {"cash": 0, "tiles": ["b4"], "businesses": [], "red_cards": []}}
    return mine


def render(view: dict, names=NAMES) -> str:
    return render_to_string("engines/cosanostra/svg_board.html", {"board": board_context(view, names)})


def parse(view: dict, names=NAMES) -> ET.Element:
    return ET.fromstring(render(view, names))


def by(root: ET.Element, attribute: str) -> dict[str, ET.Element]:
    return {el.get(attribute): el for el in root.iter() if el.get(attribute) is not None and el.tag == f"{SVG}g"}


def squares(root):
    return {int(el.get("data-square")): el for el in root.iter(f"{SVG}g") if "cnb-square" in el.get("class", "")}


def figures(root):
    return [el for el in root.iter(f"{SVG}g") if el.get("data-figure")]


# --- the whole board ------------------------------------------------------------------------------

def test_the_board_has_all_24_squares_and_49_cells():
    root = parse(tv_view())
    ring = squares(root)
    assert sorted(ring) == list(range(B.RING_SIZE))
    assert [ring[i].get("data-kind") for i in range(B.RING_SIZE)] == [kind for kind, _ in B.RING]
    assert sorted(by(root, "data-cell")) == sorted(B.CELLS)
    assert sorted(by(root, "data-gate")) == sorted(B.GATES)


def test_the_ring_is_the_border_clockwise_from_start_in_a_corner():
    """§3.1: 24 squares clockwise, START and the other corners (6, 12, 18) at the four corners;
    each square shares an edge with the next; the city lies inside the ring, clear of it."""
    rects = [drawing.square_rect(i) for i in range(B.RING_SIZE)]
    corner_points = {(x, y) for i, (x, y, w, h, _) in enumerate(rects) if i in B.CORNERS}
    right, bottom = drawing.WIDTH - drawing.COLUMN_WIDTH, drawing.HEIGHT - drawing.ROW_DEPTH
    assert corner_points == {(0, 0), (right, 0), (right, bottom), (0, bottom)}
    assert rects[0][:2] == (0, 0) and rects[1][0] > rects[0][0]          # START top-left, then to the right

    def touching(a, b):
        ax, ay, aw, ah, _ = a
        bx, by_, bw, bh, _ = b
        side_by_side = math.isclose(ax + aw, bx) or math.isclose(bx + bw, ax)
        stacked = math.isclose(ay + ah, by_) or math.isclose(by_ + bh, ay)
        return (side_by_side and ay < by_ + bh and by_ < ay + ah) or (stacked and ax < bx + bw and bx < ax + aw)

    assert all(touching(rects[i], rects[(i + 1) % B.RING_SIZE]) for i in range(B.RING_SIZE))
    city = board_context(tv_view(), NAMES)["city"]
    assert drawing.COLUMN_WIDTH < city["x"] and city["x"] + city["size"] < right
    assert drawing.ROW_DEPTH < city["y"] and city["y"] + city["size"] < bottom


def test_the_svg_scales_to_its_box_and_says_what_it_is():
    root = parse(tv_view())
    assert root.get("viewBox") == f"0 0 {drawing.WIDTH} {drawing.HEIGHT}"
    assert (root.get("width"), root.get("height")) == ("100%", "100%")
    assert root.get("preserveAspectRatio").endswith("meet")
    assert root.get("role") == "img"
    assert "Alice" in root.get("aria-label") and root.find(f"{SVG}title").text


def test_ring_labels_are_read_at_the_tvs_reading_size():
    """The TV's --tv-read is 2.8 % of the screen's height (static/app.css); a board 60 % of the
    screen high must still show every ring label at least that big, and no label runs out of
    its square (a long translation is squeezed, never cut)."""
    root = parse(tv_view())
    labels = [t for t in root.iter(f"{SVG}text") if t.get("class") == "cnb-label"]
    assert len(labels) == B.RING_SIZE
    least = 0.028 / 0.60 * drawing.HEIGHT
    assert all(float(t.get("font-size")) >= least for t in labels)
    # and every other word or number on it: coordinates, gates, picciotti waiting, steps
    assert all(float(t.get("font-size")) >= least for t in root.iter(f"{SVG}text"))
    for i, sq in enumerate(board_context(tv_view(), NAMES)["squares"]):
        label = sq["label"]
        width = label["squeeze"] or len(label["text"]) * drawing.LETTER_WIDTH * label["size"]
        assert label["x"] - width / 2 >= sq["x"] and label["x"] + width / 2 <= sq["x"] + sq["w"], B.RING[i]


def test_numbers_stay_svg_numbers_in_every_language():
    """Czech writes 1,5: the SVG must say 1.5 whatever the room's language."""
    with translation.override("cs"):
        root = parse(tv_view())
    for el in list(root.iter())[1:]:                                 # the root's 100 % aside
        for name in ("x", "y", "width", "height", "cx", "cy", "r", "font-size", "textLength"):
            if el.get(name) is not None:
                float(el.get(name))


# --- the ring: owners, cards, CLOSED --------------------------------------------------------------

def test_each_business_shows_its_owner_its_card_and_closed():
    root = parse(tv_view())
    ring = squares(root)
    assert ring[1].get("data-owner") == "BLUE"
    assert ring[9].get("data-owner") == "YELLOW" and ring[9].get("data-card") == "R02"
    assert ring[11].get("data-owner") == "PURPLE" and ring[11].get("data-card") == "R01"
    assert ring[15].get("data-closed") == "true" and ring[15].get("data-owner") == "BLUE"
    assert ring[4].get("data-owner") == "" and ring[4].get("data-card") is None     # neutral: buyable
    assert all(ring[i].get("data-owner") is None for i in range(B.RING_SIZE) if i not in B.BUSINESSES)
    assert [i for i in ring if ring[i].get("data-closed")] == [15]
    assert ring[15].find(f"{SVG}use[@href='#cn-glyph-CLOSED']") is not None, "a padlock for its glyph"
    assert ring[7].find(f"{SVG}use[@href='#cn-glyph-CASINO']") is not None
    friends = [(i, el.get("data-friend")) for i, sq in ring.items() for el in sq.iter(f"{SVG}g") if el.get("data-friend")]
    assert friends == [(11, "BLUE")], "R16 lies at PURPLE's police station for BLUE (§8.3)"
    band = ring[9].find(f"{SVG}rect[@class='cnb-band cnb-f-YELLOW']")
    assert band is not None, "the owner's colour is the band's fill"
    assert ring[9].find(f"{SVG}use[@href='#cn-mark-YELLOW']") is not None, "and its shape is on the band"


def test_a_business_changing_hands_changes_its_band():
    view = tv_view()
    view["businesses"]["4"]["owner"] = 1
    assert squares(parse(view))[4].get("data-owner") == "GREEN"


# --- the city: tiles, picciotti, gates --------------------------------------------------------------

def test_each_tile_shows_its_owner_and_each_picciotto_its_family():
    view = tv_view()
    cells = by(parse(view), "data-cell")
    for cell in B.CELLS:
        owner = view["cells"].get(cell)
        assert cells[cell].get("data-owner") == (B.COLOURS[owner] if owner is not None else None), cell
        gunman = view["picciotti"].get(cell)
        assert cells[cell].get("data-picciotto") == (B.COLOURS[gunman] if gunman is not None else None), cell
    # colour AND shape: a colour-blind player tells the families apart
    assert cells["d1"].find(f"{SVG}use[@href='#cn-mark-BLUE']") is not None
    assert cells["a4"].find(f"{SVG}use[@href='#cn-mark-GREEN']") is not None
    assert cells["a1"].find(f"{SVG}use") is None


def test_the_families_shapes_are_all_different():
    assert len(set(drawing.MARKS.values())) == len(B.COLOURS)


def test_cells_sit_in_the_grid_by_their_coordinates():
    context = board_context(tv_view(), NAMES)
    cells = {c["cell"]: c for c in context["cells"]}
    for cell in B.CELLS:
        x, y = B.cell_xy(cell)
        assert cells[cell]["x"] == pytest.approx(cells["a1"]["x"] + x * cells[cell]["size"], abs=0.2)
        assert cells[cell]["y"] == pytest.approx(cells["a1"]["y"] + y * cells[cell]["size"], abs=0.2)
    texts = [c["text"] for c in context["coordinates"]]
    assert sorted(set(texts)) == sorted(set(B.COLUMNS) | {str(r) for r in B.ROWS})


def test_each_gate_shows_its_family_and_its_picciotti():
    view = tv_view()
    gates = by(parse(view), "data-gate")
    assert (gates["N"].get("data-owner"), gates["N"].get("data-picciotti")) == ("BLUE", "2")
    assert (gates["E"].get("data-owner"), gates["E"].get("data-picciotti")) == ("PURPLE", "3")
    assert (gates["W"].get("data-owner"), gates["W"].get("data-picciotti")) == ("GREEN", "0")
    view["families"][1]["gate"] = None                       # before GREEN chose one (§4)
    assert by(parse(view), "data-gate")["W"].get("data-owner") is None


def test_each_gate_lies_outside_the_city_by_its_gate_cell():
    context = board_context(tv_view(), NAMES)
    cells = {c["cell"]: c for c in context["cells"]}
    for gate in context["gates"]:
        cell = cells[B.GATES[gate["gate"]]]
        cx, cy = cell["x"] + cell["size"] / 2, cell["y"] + cell["size"] / 2
        dx, dy = gate["cx"] - cx, gate["cy"] - cy
        assert {"N": dy < 0 and dx == 0, "S": dy > 0 and dx == 0,
                "E": dx > 0 and dy == 0, "W": dx < 0 and dy == 0}[gate["gate"]]
        city = context["city"]
        inside = city["x"] < gate["cx"] < city["x"] + city["size"] and city["y"] < gate["cy"] < city["y"] + city["size"]
        assert not inside


# --- the figures ------------------------------------------------------------------------------------

def test_each_figure_stands_on_its_square_and_the_active_one_is_marked():
    root = parse(tv_view())
    shown = {f.get("data-figure"): f for f in figures(root)}
    assert {c: f.get("data-square") for c, f in shown.items()} == {"BLUE": "9", "GREEN": "9", "YELLOW": "9",
                                                                    "PURPLE": "21"}
    assert [c for c, f in shown.items() if f.get("data-active")] == ["BLUE"]
    assert "Alice" in shown["BLUE"].find(f"{SVG}title").text


def test_figures_sharing_a_square_are_all_visible_inside_it():
    """Figures may share squares (§5): each one has its own place in the square, apart enough to see."""
    for pos in range(B.RING_SIZE):
        view = tv_view(families=[family(s, pos, B.SIDES[s], 3) for s in range(4)])
        context = board_context(view, NAMES)
        square = context["squares"][pos]
        placed = context["figures"]
        assert len(placed) == 4
        for f in placed:
            assert square["x"] + f["r"] <= f["cx"] <= square["x"] + square["w"] - f["r"] + 1, pos
            assert square["y"] + f["r"] <= f["cy"] <= square["y"] + square["h"] - f["r"] + 1, pos
        for a in placed:
            for b in placed:
                if a is not b:
                    assert math.dist((a["cx"], a["cy"]), (b["cx"], b["cy"])) >= 0.9 * drawing.TOKEN, pos


def test_a_family_out_of_the_game_has_no_figure():
    view = tv_view()
    view["families"][3]["out"] = True
    assert {f.get("data-figure") for f in figures(parse(view))} == {"BLUE", "GREEN", "YELLOW"}


def test_the_squares_the_roll_reaches_are_marked_while_the_roller_chooses():
    """§5: Alice (mafioso) rolled 4 on square 9: she may stop 2 to 6 squares on."""
    ring = squares(parse(tv_view()))
    assert {i: int(el.get("data-steps")) for i, el in ring.items() if el.get("data-steps")} == \
        {11: 2, 12: 3, 13: 4, 14: 5, 15: 6}
    after = squares(parse(tv_view(phase="action")))
    assert not [i for i, el in after.items() if el.get("data-steps")]


def test_the_reach_wraps_past_start():
    view = tv_view(roll={"die": 3, "allowed": [2, 4], "by": 3})     # PURPLE on 21
    ring = squares(parse(view))
    assert {i: int(el.get("data-steps")) for i, el in ring.items() if el.get("data-steps")} == {23: 2, 0: 3, 1: 4}


# --- escaping and secrets ---------------------------------------------------------------------------

def test_a_hostile_name_is_escaped():
    names = ["<script>alert(1)</script>", 'Bob" onload="x', "Carol & Co", "Dave"]
    html = render(tv_view(), names)
    assert "<script>" not in html and 'onload="x' not in html
    assert "&lt;script&gt;" in html
    root = ET.fromstring(html)                                        # still well-formed
    assert "<script>alert(1)</script>" in root.get("aria-label")     # the text, as text


def test_the_drawing_shows_nothing_a_seat_alone_knows():
    """§14: the board is public: a seat's view (hand, armed cards, cash, a trade's contents) draws
    exactly the TV's board."""
    view = tv_view()
    tv = render(view)
    for seat in range(4):
        assert render(seat_view(view, seat)) == tv, seat
    hidden = copy.deepcopy(view)
    for f in hidden["families"]:
        f["cash"] = None                                              # hidden_cash on another's view
    assert render(hidden) == tv


def test_while_families_choose_gates_the_free_ones_are_marked_and_so_is_the_chooser():
    """§4: in reverse turn order each family picks a free gate; PURPLE has taken the east."""
    view = tv_view(phase="gates", active=2, roll=None)
    for f in view["families"]:
        f.update(gate=None, pos=0)
    view["families"][3]["gate"] = "E"
    root = parse(view)
    gates = by(root, "data-gate")
    assert sorted(g for g, el in gates.items() if el.get("data-free")) == ["N", "S", "W"]
    assert [f.get("data-figure") for f in figures(root) if f.get("data-active")] == ["YELLOW"]
    assert not [g for g, el in by(parse(tv_view()), "data-gate").items() if el.get("data-free")]


class Watched(dict):
    """A view that notes every key read from it (and from the dicts inside it)."""

    def __init__(self, data, seen: set, path: str = ""):
        super().__init__({k: self._wrap(v, seen, f"{path}{k}.") for k, v in data.items()})
        self.seen, self.path = seen, path

    @classmethod
    def _wrap(cls, value, seen, path):
        if isinstance(value, dict):
            return cls(value, seen, path)
        if isinstance(value, list):
            return [cls._wrap(v, seen, path) for v in value]
        return value

    def __getitem__(self, key):
        self.seen.add(f"{self.path}{key}")
        return super().__getitem__(key)

    def get(self, key, default=None):
        self.seen.add(f"{self.path}{key}")
        return super().get(key, default)


def test_the_drawing_reads_only_public_keys():
    """§14: what the drawing reads of a seat's view: no hand, no cash, no trade, no armed card."""
    seen: set[str] = set()
    board_context(Watched(seat_view(tv_view(), 0), seen), NAMES)
    private = {"me", "trade", "liquidation"}
    assert not {key for key in seen if key.split(".")[0] in private}
    assert not {key for key in seen if key.rsplit(".", 1)[-1] in {"cash", "armed", "hand", "red_cards"}}
    assert {"cells", "picciotti", "businesses", "families", "phase", "roll"} <= {key.split(".")[0] for key in seen}


# --- the engine's own views, through whole games ----------------------------------------------------

@pytest.mark.parametrize("players, seed", [(2, 3), (4, 7)])
def test_the_engines_views_draw_what_they_say_and_every_seat_draws_the_tvs_board(players, seed):
    """Random legal games (engines/cosanostra): at every few steps the board drawn from the TV's
    view shows its tiles, picciotti, gates, owners and figures, and each seat's own view (hand,
    cash, trade) draws the very same board (§14)."""
    pytest.importorskip("engines.cosanostra.views", reason="the engine is on a branch of its own until merged")
    from engines import registry
    from tests.engines.playthrough import random_playthrough

    engine = registry.engine("cosanostra")
    play = random_playthrough(engine, players, {"max_rounds": "10", "hidden_cash": True}, seed)
    phases = set()
    for state in play.states[::4] + [play.final]:
        tv = engine.view(state, None)
        phases.add(tv["phase"])
        html = render(tv)
        root = ET.fromstring(html)
        cells = by(root, "data-cell")
        assert {c: el.get("data-owner") for c, el in cells.items() if el.get("data-owner")} == \
            {c: B.COLOURS[s] for c, s in tv["cells"].items()}
        assert {c: el.get("data-picciotto") for c, el in cells.items() if el.get("data-picciotto")} == \
            {c: B.COLOURS[s] for c, s in tv["picciotti"].items()}
        ring = squares(root)
        assert {i: ring[i].get("data-owner") or None for i in B.BUSINESSES} == \
            {i: B.COLOURS[b["owner"]] if b["owner"] is not None else None
             for i, b in ((int(k), b) for k, b in tv["businesses"].items())}
        assert {f.get("data-figure"): int(f.get("data-square")) for f in figures(root)} == \
            {f["colour"]: f["pos"] for f in tv["families"] if not f["out"]}
        gates = by(root, "data-gate")
        assert {g: el.get("data-owner") for g, el in gates.items() if el.get("data-owner")} == \
            {f["gate"]: f["colour"] for f in tv["families"] if f["gate"]}
        for seat in range(players):
            assert render(engine.view(state, seat)) == html, (tv["phase"], seat)
    assert {"gates", "choose_move", "action", "over"} <= phases
