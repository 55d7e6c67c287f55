"""A Cosa Nostra table for the rules' scenario tests (docs/rules/cosanostra.md): a game after
its setup with forced chance, then tiles, cash, positions and cards set by hand."""

from __future__ import annotations

from engines import registry
from engines.base import EngineError, working_copy
from engines.cosanostra import board
from engines.cosanostra.state import ACTION, BEFORE_ROLL, tile_count

BLUE, GREEN, YELLOW, PURPLE = range(4)
ENGINE = registry.engine("cosanostra")
# Each family's gate and start tiles in the default table: N, E, S, W, three cells inward.
START = {BLUE: ("N", "d2", "d3"), GREEN: ("E", "f4", "e4"), YELLOW: ("S", "d6", "d5"), PURPLE: ("W", "b4", "c4")}


class Table:
    """One game; every move goes through the engine's ``apply``."""

    def __init__(self, players: int = 3, seed: int = 1, **options):
        state, self.setup_events = ENGINE.setup(players, options, seed, deal={"forced": {"colour": ["BLUE"]}})
        self.state, self.events = state, []
        for seat in reversed(range(players)):
            gate, *cells = START[seat]
            self.act(seat, {"type": "choose_gate", "gate": gate})
            for cell in cells:
                self.act(seat, {"type": "place_start", "cell": cell})
        assert self.state["phase"] == BEFORE_ROLL and self.state["active"] == BLUE

    # --- moves ------------------------------------------------------------------------------
    def act(self, seat, action: dict) -> list:
        self.state, events = ENGINE.apply(self.state, seat, action)
        self.events += events
        return events

    def refuse(self, seat, action: dict) -> str:
        before = working_copy(self.state)
        try:
            ENGINE.apply(self.state, seat, action)
        except EngineError as refusal:
            assert self.state == before
            return refusal.code
        raise AssertionError(f"{action} was taken")

    def legal(self, seat) -> list[dict]:
        return ENGINE.legal_actions(self.state, seat)

    def view(self, seat=None) -> dict:
        return ENGINE.view(self.state, seat)

    def timeout(self) -> list:
        return self.act(None, {"type": "timeout"})

    # --- chance -----------------------------------------------------------------------------
    def force(self, label: str, *outcomes) -> None:
        forced = self.state["secret"]["chance"]["forced"]
        forced[label] = forced.get(label, []) + list(outcomes)

    def roll(self, die: int, steps: int | None = None) -> None:
        """The active family throws ``die`` and moves ``steps`` (default: what it threw)."""
        seat = self.state["active"]
        self.force("die", [die])
        self.act(seat, {"type": "roll"})
        self.act(seat, {"type": "move", "steps": die if steps is None else steps})

    def land(self, seat: int, square: int) -> None:
        """``seat``'s turn: from three squares before ``square`` (never across START unless
        ``square`` < 3) it throws 3 and moves 3."""
        self.turn_of(seat)
        self.family(seat)["pos"] = (square - 3) % board.RING_SIZE
        self.roll(3)

    # --- the table by hand --------------------------------------------------------------------
    def family(self, seat: int) -> dict:
        return self.state["families"][seat]

    def cash(self, seat: int) -> int:
        return self.state["families"][seat]["cash"]

    def set_cash(self, seat: int, amount: int) -> None:
        """Cash moved between the bank and the family: money stays 150 000."""
        self.state["bank"] += self.family(seat)["cash"] - amount
        self.family(seat)["cash"] = amount

    def set_cells(self, cells: dict[str, int], gates: dict[int, str] | None = None) -> None:
        """The whole map: ``cells`` (cell → seat); pieces in supply follow."""
        state = self.state
        state["supply"] += len(state["picciotti"])
        state["cells"], state["picciotti"] = dict(cells), {}
        state["acquired"] = {cell: n for n, cell in enumerate(cells, 1)}
        state["acquired_count"] = len(cells)
        for seat, fam in enumerate(state["families"]):
            fam["pieces"] = board.PIECES - fam["pieces_out"] - tile_count(state, seat)
            assert fam["pieces"] >= 0, "more tiles than pieces"
            if gates and seat in gates:
                fam["gate"] = gates[seat]

    def fill(self, seat: int, count: int, avoid=()) -> None:
        """Give ``seat`` exactly ``count`` tiles: his own first, then free cells far from ``avoid``."""
        mine = [c for c, o in self.state["cells"].items() if o == seat][:count]
        free = [c for c in reversed(board.CELLS) if c not in self.state["cells"] and c not in avoid]
        cells = {c: o for c, o in self.state["cells"].items() if o != seat}
        cells.update({c: seat for c in mine + free[:count - len(mine)]})
        self.set_cells(cells)

    def picciotto(self, cell: str, seat: int | None = None) -> None:
        self.state["picciotti"][cell] = self.state["cells"][cell] if seat is None else seat
        self.state["supply"] -= 1

    def gate_picciotti(self, seat: int, count: int) -> None:
        self.family(seat)["gate_picciotti"] += count
        self.state["supply"] -= count

    def turn_of(self, seat: int, phase: str = BEFORE_ROLL) -> None:
        """Make it ``seat``'s turn, waiting in ``phase`` with nothing queued."""
        state = self.state
        state.update(active=seat, phase=phase, tasks=[], stepped=[], night_run=None, offer=None,
                     choose=None, liquidation=None, trades_made=[0] * state["players"])
        state["roll"] = {"die": 3, "allowed": [3, 3], "by": seat} if phase == ACTION else None

    def give(self, seat: int, card: str) -> None:
        """A red card from the deck into ``seat``'s hand."""
        secret = self.state["secret"]
        secret["red"].remove(card)
        secret["hands"][seat].append(card)

    def top(self, deck: str, card: str) -> None:
        """``card`` on top of its deck."""
        secret = self.state["secret"]
        secret[deck].remove(card)
        secret[deck].insert(0, card)

    def own(self, seat: int, square: int, card: str | None = None) -> None:
        business = self.state["businesses"][str(square)]
        business["owner"] = seat
        self.family(seat)["markers"] -= 1
        if card:
            self.state["secret"]["red"].remove(card)
            business["card"] = card

    def money(self) -> int:
        return self.state["bank"] + sum(fam["cash"] for fam in self.state["families"])

    def kinds(self, events=None) -> list[str]:
        return [event.kind for event in (self.events if events is None else events)]

    def pays(self, events) -> list[tuple]:
        return [(e.data["from"], e.data["to"], e.data["amount"]) for e in events if e.kind == "pay"]
