"""A table of Mafie players for rulebook scenarios: force the deal, then play votes and cards."""

from __future__ import annotations

import json

import pytest

from engines import mafie
from engines.base import EngineError, Event, resolve_options

RULESET = mafie.RULESET
M, D = "mafioso", "detective"


def roles(players: int, detectives: set[int]) -> list[str]:
    return [D if seat in detectives else M for seat in range(players)]


class Table:
    """One game with a forced deal; every action goes through ``act`` and is logged."""

    def __init__(self, players: int, detectives: set[int], kmotr: int, seed: int = 1,
                 plot_deck: list[str] | None = None, **options):
        deal = {"roles": roles(players, detectives), "kmotr": kmotr}
        if plot_deck is not None:
            deal["plot_deck"] = plot_deck
        self.state, events = RULESET.setup(players, resolve_options(RULESET, options), seed, deal=deal)
        self.events: list[Event] = list(events)
        self.last: list[Event] = list(events)

    # -- raw access ---------------------------------------------------------------------------

    def act(self, seat: int | None, action: dict) -> list[Event]:
        self.state, self.last = RULESET.apply(self.state, seat, action)
        self.events += self.last
        return self.last

    def refuse(self, seat: int | None, action: dict, code: str) -> EngineError:
        """Assert the action is refused with ``code`` and changes nothing."""
        before, dump = self.state, json.dumps(self.state, sort_keys=True)
        with pytest.raises(EngineError) as refused:
            RULESET.apply(self.state, seat, action)
        assert refused.value.code == code
        assert self.state == before and json.dumps(self.state, sort_keys=True) == dump
        return refused.value

    def view(self, seat: int | None = None) -> dict:
        return RULESET.view(self.state, seat)

    @property
    def phase(self) -> str:
        return self.state["phase"]

    @property
    def kmotr(self) -> int:
        return self.state["kmotr"]

    @property
    def results(self) -> list[str | None]:
        """The track as S/F/None, as the rulebook scenarios write it."""
        short = {"success": "S", "fail": "F", None: None}
        return [short[entry["result"]] for entry in self.state["track"]]

    # -- the steps of a round -----------------------------------------------------------------

    def ready_all(self) -> None:
        for seat in range(self.state["players"]):
            self.act(seat, {"type": "ready"})

    def propose(self, team: list[int], slot: int | None = None) -> list[Event]:
        action = {"type": "propose_team", "team": team}
        if slot is not None:
            action["slot"] = slot
        return self.act(self.kmotr, action)

    def vote(self, approve: set[int] | str = "all") -> list[Event]:
        """Every seat votes; ``approve`` is the set of approving seats (or "all")."""
        players = range(self.state["players"])
        approving = set(players) if approve == "all" else approve
        events: list[Event] = []
        opinion = self.state.get("opinion")   # The Plot Thickens: Opinion Makers vote first
        first = opinion["seats"] if opinion else []
        for seat in [*first, *(s for s in players if s not in first)]:
            events = self.act(seat, {"type": "vote", "approve": seat in approving})
        return events   # those of the last vote: the reveal

    def play(self, fails: set[int] = frozenset()) -> list[Event]:
        """Every crew member plays; those in ``fails`` play Fail, the rest Success."""
        events: list[Event] = []
        for seat in list(self.state["team"]):
            card = "fail" if seat in fails else "success"
            events = self.act(seat, {"type": "play_action_card", "card": card})
        return events   # those of the last card: the reveal

    def pass_plot_cards(self) -> None:
        """The Plot Thickens: hand out the deal's cards (first legal choice) and let every
        reaction window pass, until the game asks for something else."""
        from engines import mafie

        while self.phase in ("plot_deal", "plot_window"):
            seats = mafie.waiting_for(self.state)
            seat = seats[0] if seats else None   # nobody: the game master closes the window
            moves = RULESET.legal_actions(self.state, seat)
            self.act(seat, next((m for m in moves if m["type"] == "pass_plot"), moves[0]))

    def close_window(self) -> list[Event]:
        """The game master (the server's timer) closes a window everyone has answered."""
        return self.act(None, {"type": "close_window"})

    def job(self, team: list[int], fails: set[int] = frozenset(), slot: int | None = None,
            approve: set[int] | str = "all") -> list[Event]:
        """Propose ``team``, approve it, play it out."""
        self.propose(team, slot)
        self.vote(approve)
        assert self.phase == "action_play"
        return self.play(fails)


def kinds(events: list[Event]) -> list[str]:
    return [event.kind for event in events]


def only(events: list[Event], kind: str) -> Event:
    [event] = [event for event in events if event.kind == kind]
    return event


def codes(state: dict) -> list[str]:
    return [item["code"] for item in state["narration"]]
