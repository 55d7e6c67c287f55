"""The player records of Mrakošlapi (rules §2, the ``Player`` part of the state model).

A player is the JSON dict::

    {"seat": 3, "status": "ALIVE", "cards": [{"type": "ZRCADLO", "no": 4, "state": "READY"}],
     "muted_day": null, "fake_dead_until_dawn_of_night": null, "died_in": null}

Players are identified by seat number everywhere in this package; seat order is table order.
Names live in the web layer.  Functions are pure and never mutate their arguments.
"""

from __future__ import annotations

from typing import Any

from engines.mrakoslapi.cards import DUCH_BOBO, READY, SURRENDERED, Card, holds, numbers

Player = dict[str, Any]

ALIVE = "ALIVE"
FAKE_DEAD = "FAKE_DEAD"       # a Medik holder "dead" for a day and a night (rules §1.5 Medik)
DEAD = "DEAD"
STATUSES = (ALIVE, FAKE_DEAD, DEAD)


def new_player(seat: int, cards: list[Card]) -> Player:
    return {"seat": seat, "status": ALIVE, "cards": [dict(c) for c in cards],
            "muted_day": None, "fake_dead_until_dawn_of_night": None, "died_in": None}


def new_players(hands: list[list[Card]]) -> list[Player]:
    """Seat ``i`` gets ``hands[i]`` (``cards.deal``)."""
    return [new_player(seat, hand) for seat, hand in enumerate(hands)]


def by_seat(players: list[Player]) -> dict[int, Player]:
    return {p["seat"]: p for p in players}


def visible_living(players: list[Player]) -> list[int]:
    """``V``: the seats with status ALIVE, in seat order (rules §2)."""
    return sorted(p["seat"] for p in players if p["status"] == ALIVE)


def living_holders(players: list[Player], card_type: str) -> list[tuple[int, int]]:
    """``(no, seat)`` of every READY ``card_type`` held by an ALIVE player ("living X card",
    rules §1.3), ascending by card number."""
    return sorted((no, p["seat"]) for p in players if p["status"] == ALIVE
                  for no in numbers(p["cards"], card_type))


def holder_of(players: list[Player], card_type: str, no: int) -> Player | None:
    """The player holding card ``(card_type, no)`` in any state, or None."""
    for p in players:
        if any(c["type"] == card_type and c["no"] == no for c in p["cards"]):
            return p
    return None


def alive_and_holds(player: Player | None, card_type: str) -> bool:
    return player is not None and player["status"] == ALIVE and holds(player["cards"], card_type)


def copy_player(player: Player) -> Player:
    """A copy the caller may change (cards and ``died_in`` copied too)."""
    return {**player, "cards": [dict(c) for c in player["cards"]],
            "died_in": dict(player["died_in"]) if player.get("died_in") else None}


def die(player: Player, died_in: dict[str, Any]) -> bool:
    """Really dead (rules §4.8 step 3, §5.7), changing ``player`` (a copy): every card
    SURRENDERED except a READY Duch Bobo.  True if that Duch Bobo now waits for the next night."""
    bobo = holds(player["cards"], DUCH_BOBO)
    player["status"] = DEAD
    player["died_in"] = died_in
    player["cards"] = [c if c["type"] == DUCH_BOBO and c["state"] == READY
                       else {**c, "state": SURRENDERED} for c in player["cards"]]
    return bobo

