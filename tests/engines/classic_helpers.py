"""A table of classic Mafia players for rulebook scenarios: force the deal, then play nights and
days step by step (GRANNA ``granna`` and Polish ``mafia_pl``)."""

from __future__ import annotations

import json

import pytest

from engines import chance, registry
from engines.base import HOST, EngineError, Event, resolve_options

M, A, P = "mafioso", "agent", "policeman"
D, W, J = "doctor", "wizard", "judge"
NIGHT_STEPS = ("agent", "doctor", "new_gang", "mafia", "wizard")
TIMEOUT = {"type": "timeout"}


def deal(players: int, mafiosi=(), agent: int | None = None, doctor: int | None = None,
         wizard: int | None = None, judge: int | None = None) -> list[str]:
    """Roles per seat: the named ones, policemen elsewhere."""
    roles = [P] * players
    for seat in mafiosi:
        roles[seat] = M
    for role, seat in ((A, agent), (D, doctor), (W, wizard), (J, judge)):
        if seat is not None:
            roles[seat] = role
    return roles


def kinds(events: list[Event]) -> list[str]:
    return [event.kind for event in events]


def only(events: list[Event], kind: str) -> Event:
    [event] = [event for event in events if event.kind == kind]
    return event


def lots(events: list[Event]) -> list[dict]:
    """The draws of lots among seats (the mafia's deadline lot, the coin) the events record."""
    return [data for data in chance.draws(events) if data["label"] == "lot"]


def narration(state) -> list[tuple[str, dict]]:
    return [(item["code"], item["params"]) for item in state["narration"]]


def codes(state) -> list[str]:
    return [item["code"] for item in state["narration"]]


class Table:
    """One game with a forced deal; every action goes through ``act`` and is logged."""

    def __init__(self, slug: str, roles: list[str], coins: list[int] | None = None, seed: int = 1,
                 cards: list[str] | None = None, **options):
        self.ruleset = registry.engine(slug)   # the rules as the rulebook plays them
        forced = {"roles": roles}
        if coins is not None:
            forced["coins"] = coins
        if cards is not None:
            forced["cards"] = cards         # GRANNA's action cards, one per seat (rules B.3.4)
        # the extended version's rules are not the host's options yet (editions.EXTENDED_OPTIONS)
        extended = {key for key in options if key not in {option.key for option in self.ruleset.options()}}
        chosen = resolve_options(self.ruleset, {k: v for k, v in options.items() if k not in extended})
        self.state, events = self.ruleset.setup(len(roles), {**chosen, **{k: options[k] for k in extended}},
                                                seed, deal=forced)
        self.events: list[Event] = list(events)
        self.last: list[Event] = list(events)

    # -- raw access ---------------------------------------------------------------------------

    def act(self, seat: int | None, action: dict) -> list[Event]:
        self.state, self.last = self.ruleset.apply(self.state, seat, action)
        self.events += self.last
        return self.last

    def refuse(self, seat: int | None, action: dict, code: str) -> EngineError:
        """Assert the action is refused with ``code`` and changes nothing."""
        before, dump = self.state, json.dumps(self.state, sort_keys=True)
        with pytest.raises(EngineError) as refused:
            self.ruleset.apply(self.state, seat, action)
        assert refused.value.code == code, refused.value.code
        assert self.state == before and json.dumps(self.state, sort_keys=True) == dump
        return refused.value

    def view(self, seat: int | None = None) -> dict:
        return self.ruleset.view(self.state, seat)

    def moves(self, seat: int | None) -> list[dict]:
        return self.ruleset.legal_actions(self.state, seat)

    @property
    def phase(self) -> str:
        return self.state["phase"]

    @property
    def roles(self) -> list[str]:
        return self.state["secret"]["roles"]

    @property
    def coins_left(self) -> list[int]:
        """The forced coins (``deal``) no draw has taken yet."""
        return self.state["secret"]["chance"]["forced"].get("lot", [])

    @property
    def living(self) -> list[int]:
        return [seat for seat, dead in enumerate(self.state["dead"]) if dead is None]

    def holder(self, role: str) -> int | None:
        return next((seat for seat in self.living if self.roles[seat] == role), None)

    def mafiosi(self) -> list[int]:
        return [seat for seat in self.living if self.roles[seat] == M]

    # -- the night ----------------------------------------------------------------------------

    def timeout(self) -> list[Event]:
        return self.act(None, TIMEOUT)

    def night(self, check: int | str | None = None, heal: int | str | None = None,
              kill: int | None = None, picks: dict[int, int] | None = None,
              swap: list[int] | str | None = None) -> list[Event]:
        """Play tonight's steps in order, each ended by the clock: the agent checks ``check``
        ("skip": skips), the doctor heals ``heal`` ("skip"), every mafioso picks ``kill`` (or
        ``picks`` per mafioso), the wizard casts ``swap`` ("skip").  None: nobody acts."""
        events: list[Event] = []
        while self.phase in NIGHT_STEPS:
            step = self.phase
            if step == "agent" and check is not None:
                action = {"type": "skip_check"} if check == "skip" else {"type": "check", "target": check}
                events += self.act(self.holder(A), action)
            elif step == "doctor" and heal is not None:
                action = {"type": "skip_heal"} if heal == "skip" else {"type": "heal", "target": heal}
                events += self.act(self.holder(D), action)
            elif step == "mafia" and (kill is not None or picks):
                for seat, target in (picks or {seat: kill for seat in self.mafiosi()}).items():
                    events += self.act(seat, {"type": "pick_victim", "target": target})
            elif step == "wizard" and swap is not None:
                action = ({"type": "skip_swap"} if swap == "skip"
                          else {"type": "cast_swap", "targets": list(swap)})
                events += self.act(self.holder(W), action)
            events += self.timeout()
        return events

    # -- GRANNA's action cards (rules B.3.4) ---------------------------------------------------

    def play(self, seat: int, card: str, target: int | None = None) -> list[Event]:
        action = {"type": "play_card", "card": card}
        if target is not None:
            action["target"] = target
        return self.act(seat, action)

    @property
    def window(self) -> dict | None:
        """The card window open now (its kind and target), None if none."""
        return self.state.get("cards", {}).get("window") if self.phase == "card_window" else None

    def windows(self, plays: dict[str, dict[int, tuple]] | None = None) -> list[Event]:
        """Close every card window that opens now, one after the other, each by its clock; in
        the window of kind ``k`` the seats of ``plays[k]`` first play ``(card[, target])``."""
        events: list[Event] = []
        while self.phase == "card_window":
            for seat, play in (plays or {}).get(self.window["kind"], {}).items():
                events += self.play(seat, *play)
            events += self.timeout()
        return events

    # -- the day ------------------------------------------------------------------------------

    def end_discussion(self) -> list[Event]:
        """The host's button (engines/base.py: the host, not the clock)."""
        return self.act(HOST, {"type": "end_discussion"})

    def end_defence(self) -> list[Event]:
        return self.act(HOST, {"type": "end_defence"})

    def host_moves(self) -> list[dict]:
        return self.ruleset.host_moves(self.state)

    def vote(self, votes: dict[int, int], double: int | None = None) -> list[Event]:
        """Each voter names a target (in seat order); ``double``: the judge's double vote."""
        events: list[Event] = []
        for voter in sorted(votes):
            action = {"type": "vote", "target": votes[voter]}
            if voter == double:
                action["double"] = True
            events += self.act(voter, action)
        return events

    def lynch(self, seat: int) -> list[Event]:
        """A whole day that ends with ``seat`` out: everyone names him, he names someone else;
        both are heard; everyone but him votes him out in the final vote."""
        other = next(voter for voter in self.living if voter != seat)
        events = self.end_discussion()
        events += self.vote({voter: (other if voter == seat else seat) for voter in self.living})
        events += self.end_defence()
        events += self.vote({voter: (other if voter == seat else seat) for voter in self.living})
        return events
