"""Mafie expansion "Smyčka se utahuje" (The Plot Thickens): the plot cards, the deck, the
Kmotr's deal and the immediate (★) cards — docs/rules/mafie.md §A.3.3.

The rest of ``engines.mafie`` plays them (option ``plot_cards``): the deal at the start of every
round, the reaction windows and Opinion Maker live in base_game.py and plot_moves.py.  This
module works on a small sub-state that the game keeps under ``state["plot"]`` (public) and
``state["secret"]["plot"]``:

    plot   = {"held":   [{"id", "card", "holder"}],   # every card in front of a player: public
              "drawn":  [{"id", "card"}],             # drawn this round, not yet handed out
              "pending": None | {"id", "card", "seat"},  # a ★ card waiting for its holder's choice
              "log":    [{"id", "card", "seat", "use", "target"?, "taken"?}],  # every card dealt and used
              "next_id": int}
    secret = {"deck": [card, ...],                    # face down; the order is the future
              "results": [[{"id", "card", "about", "role"}], ...]}   # per seat: what it learnt

Plot cards are never hidden (Czech text: "karty zápletky nejsou nikdy skryté"), so who holds
what and every use is public; only the roles a card reveals are private, to one seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines import chance
from engines.base import Event, IllegalAction, MalformedAction

IMMEDIATE, KEEP, PERMANENT = "immediate", "keep", "permanent"   # ★, ▲, ◎


@dataclass(frozen=True)
class PlotCard:
    kind: str       # IMMEDIATE, KEEP or PERMANENT
    copies: int     # in the full deck (7+ players)
    small: int      # in the 5–6 player deck (Czech text: 7 cards)


# docs/rules/mafie.md §A.3.3, card list (copies per public sources; the Czech text has the 7/15
# totals)
CARDS = {
    "strong_leader": PlotCard(KEEP, 2, 2),
    "no_confidence": PlotCard(KEEP, 3, 1),
    "keeping_close_eye": PlotCard(KEEP, 2, 2),
    "in_the_spotlight": PlotCard(KEEP, 1, 0),
    "opinion_maker": PlotCard(PERMANENT, 2, 1),
    "take_responsibility": PlotCard(IMMEDIATE, 1, 1),
    "overheard_conversation": PlotCard(IMMEDIATE, 2, 0),
    "open_up": PlotCard(IMMEDIATE, 1, 0),
    "establish_confidence": PlotCard(IMMEDIATE, 1, 0),
}

CZ, ULTRA = "cz", "ultraboardgames"
# The alternative distribution (ultraboardgames.com): 10 cards for 5–6 players, but it does not
# say which.  Our decision (docs/rules/mafie.md §E.4): the 7-card deck plus one No Confidence, one
# Overheard Conversation and one Open Up — cards of the full deck that work at any table size.
ULTRA_SMALL_EXTRA = ("no_confidence", "overheard_conversation", "open_up")

SHUFFLE = "plot"   # the chance kit's label for the deck's shuffle (engines/chance.py)


def deck(players: int, distribution: str = CZ) -> list[str]:
    """The plot cards in play, in a fixed order (shuffled by ``new``)."""
    if distribution not in (CZ, ULTRA):
        raise ValueError(f"unknown plot card distribution {distribution!r}")
    if players >= 7:
        return [card for card, data in CARDS.items() for _ in range(data.copies)]
    cards = [card for card, data in CARDS.items() for _ in range(data.small)]
    return cards + list(ULTRA_SMALL_EXTRA) if distribution == ULTRA else cards


def draw_count(players: int, distribution: str = CZ) -> int:
    """Cards the Kmotr draws each round: 1/2/3 (Czech text), or 2 for 5–8 and 3 for 9–10."""
    if players >= 9:
        return 3
    if distribution == ULTRA or players >= 7:
        return 2
    return 1


def new(players: int, distribution: str, record: chance.Record) -> tuple[dict, dict, chance.Draw]:
    """The expansion at setup: a shuffled deck (the chance kit's draw ``SHUFFLE``, the game
    master's: the order is the future), nothing held, nothing learnt; and the draw."""
    shuffled = chance.shuffle(record, SHUFFLE, deck(players, distribution))
    plot = {"held": [], "drawn": [], "pending": None, "log": [], "next_id": 1}
    return plot, {"deck": shuffled.value, "results": [[] for _ in range(players)]}, shuffled


# --------------------------------------------------------------------------------------------
# The deal: at the start of each round the Kmotr draws, shows and hands the cards out
# --------------------------------------------------------------------------------------------

def draw(plot: dict, secret: dict, count: int, events: list[Event]) -> tuple[dict, dict]:
    """Draw ``count`` cards face up (fewer if the deck runs out; it does not with 5 rounds)."""
    taken, rest = secret["deck"][:count], secret["deck"][count:]
    drawn = [{"id": plot["next_id"] + i, "card": card} for i, card in enumerate(taken)]
    events.append(Event("plot_drawn", {"drawn": [dict(c) for c in drawn]}))
    return ({**plot, "drawn": plot["drawn"] + drawn, "next_id": plot["next_id"] + len(drawn)},
            {**secret, "deck": rest})


def dealing(plot: dict) -> bool:
    """Is the deal still going on (cards to hand out, or a ★ card awaiting its holder)?"""
    return bool(plot["drawn"]) or plot["pending"] is not None


def assign(plot: dict, secret: dict, *, kmotr: int, seat: int, card_id: Any, to: Any,
           roles: list[str], events: list[Event]) -> tuple[dict, dict]:
    """The Kmotr hands one drawn card to another player ("nikdy sobě"); a ★ card acts at once."""
    if seat != kmotr:
        raise IllegalAction("not_kmotr_plot", "Only the Kmotr hands out plot cards")
    if plot["pending"] is not None:
        raise IllegalAction("plot_pending", "Wait until the last card has been carried out")
    card = next((c for c in plot["drawn"] if c["id"] == card_id), None)
    if card is None:
        raise IllegalAction("unknown_plot_card", "That card is not among the drawn ones")
    players = len(roles)
    if type(to) is not int or not 0 <= to < players:
        raise IllegalAction("unknown_seat", "Pick players at this table")
    if to == kmotr:
        raise IllegalAction("plot_to_self", "The Kmotr never keeps a plot card himself")
    plot = {**plot, "drawn": [c for c in plot["drawn"] if c["id"] != card_id],
            "log": plot["log"] + [{"id": card["id"], "card": card["card"], "seat": to, "use": "dealt"}]}
    events.append(Event("plot_dealt", {"id": card["id"], "card": card["card"], "to": to}))
    if CARDS[card["card"]].kind != IMMEDIATE:
        return {**plot, "held": plot["held"] + [{"id": card["id"], "card": card["card"], "holder": to}]}, secret
    return _immediate(plot, secret, {"id": card["id"], "card": card["card"], "seat": to}, kmotr, roles, events)


def _immediate(plot: dict, secret: dict, pending: dict, kmotr: int, roles: list[str],
               events: list[Event]) -> tuple[dict, dict]:
    """A ★ card on receipt: Establish Confidence acts alone; the others wait for a choice,
    unless there is nothing to choose (Take Responsibility with no card held by another)."""
    seat, card = pending["seat"], pending["card"]
    if card == "establish_confidence":
        # rules §A.3.3 (9): the recipient privately sees the Kmotr's role.
        return _used(plot, pending, target=kmotr, events=events), _learn(secret, seat, pending, kmotr, roles, events)
    if card == "take_responsibility" and not _takeable(plot, seat):
        return _used(plot, pending, target=None, events=events), secret
    return {**plot, "pending": pending}, secret


def _takeable(plot: dict, seat: int) -> list[dict]:
    return [held for held in plot["held"] if held["holder"] != seat]


def _used(plot: dict, pending: dict, *, target: int | None, events: list[Event], **extra: Any) -> dict:
    """A ★ card carried out: public record (who, on whom), then discarded."""
    entry = {"id": pending["id"], "card": pending["card"], "seat": pending["seat"], "use": "used",
             "target": target, **extra}
    events.append(Event("plot_used", dict(entry)))
    return {**plot, "pending": None, "log": plot["log"] + [entry]}


def _learn(secret: dict, seat: int, pending: dict, about: int, roles: list[str],
           events: list[Event]) -> dict:
    """``seat`` privately learns the role of ``about`` (the only secret a plot card reveals)."""
    fact = {"id": pending["id"], "card": pending["card"], "about": about, "role": roles[about]}
    events.append(Event("plot_learnt", dict(fact), [seat]))
    results = list(secret["results"])
    results[seat] = results[seat] + [fact]
    return {**secret, "results": results}


def resolve(plot: dict, secret: dict, *, seat: int, action: dict, roles: list[str],
            events: list[Event]) -> tuple[dict, dict]:
    """The holder of the pending ★ card makes its choice (``action["type"]`` names the card's verb)."""
    pending = plot["pending"]
    if pending is None or pending["seat"] != seat:
        raise IllegalAction("not_your_plot_card", "You have no plot card to carry out now")
    verb = VERBS[pending["card"]]
    if action.get("type") != verb:
        raise IllegalAction("wrong_plot_action", "Carry out the plot card you were given")
    players = len(roles)
    target = action.get("target")
    if type(target) is not int or not 0 <= target < players:
        raise MalformedAction("bad_target", "Pick a player at this table")
    if pending["card"] == "overheard_conversation":
        # "must look at the character card of one adjacent player" (§A.3.3 7)
        if target not in neighbours(seat, players):
            raise IllegalAction("not_a_neighbour", "You may only overhear a neighbour")
        return _used(plot, pending, target=target, events=events), _learn(secret, seat, pending, target, roles, events)
    if pending["card"] == "open_up":
        # "must show their own character card to one other player" (§A.3.3 8)
        if target == seat:
            raise IllegalAction("open_up_self", "Show your card to someone else")
        return _used(plot, pending, target=target, events=events), _learn(secret, target, pending, seat, roles, events)
    # take_responsibility: "must take one plot card from any other player" (§A.3.3 6); it keeps its state
    card_id = action.get("card")
    taken = next((h for h in _takeable(plot, seat) if h["holder"] == target and h["id"] == card_id), None)
    if taken is None:
        raise IllegalAction("nothing_to_take", "That player does not hold that card")
    held = [{**h, "holder": seat} if h["id"] == card_id else h for h in plot["held"]]
    return _used({**plot, "held": held}, pending, target=target, events=events, taken=card_id), secret


VERBS = {"take_responsibility": "take_plot_card", "overheard_conversation": "overhear",
         "open_up": "open_up"}


def neighbours(seat: int, players: int) -> list[int]:
    return sorted({(seat - 1) % players, (seat + 1) % players})


# --------------------------------------------------------------------------------------------
# Whose move, legal moves, views
# --------------------------------------------------------------------------------------------

def waiting(plot: dict, kmotr: int) -> list[int]:
    if plot["pending"] is not None:
        return [plot["pending"]["seat"]]
    return [kmotr] if plot["drawn"] else []


def legal(plot: dict, *, kmotr: int, seat: int, players: int) -> list[dict]:
    """Every move ``seat`` may make in the deal now."""
    pending = plot["pending"]
    if pending is not None:
        if pending["seat"] != seat:
            return []
        verb = VERBS[pending["card"]]
        if verb == "overhear":
            return [{"type": verb, "target": t} for t in neighbours(seat, players)]
        if verb == "open_up":
            return [{"type": verb, "target": t} for t in range(players) if t != seat]
        return [{"type": verb, "target": h["holder"], "card": h["id"]} for h in _takeable(plot, seat)]
    if seat != kmotr:
        return []
    return [{"type": "assign_plot_card", "card": c["id"], "to": to}
            for c in plot["drawn"] for to in range(players) if to != kmotr]


def public_view(plot: dict) -> dict:
    return {"held": [dict(h) for h in plot["held"]], "drawn": [dict(c) for c in plot["drawn"]],
            "pending": dict(plot["pending"]) if plot["pending"] else None,
            "log": [dict(entry) for entry in plot["log"]]}


def learnt(secret: dict, seat: int) -> list[dict]:
    """What ``seat`` learnt from plot cards (its phone only; everyone's at game over)."""
    return [dict(fact) for fact in secret["results"][seat]]


# --------------------------------------------------------------------------------------------
# Reaction windows: the kept (▲) cards, each in its moment (rules §A.3.3, "Reaction windows")
# --------------------------------------------------------------------------------------------

# window kind → the card it polls for
WINDOWS = {
    "pre_proposal": "strong_leader",        # before a crew is picked: become the Kmotr
    "no_confidence": "no_confidence",       # right after an approval: cancel it
    "spotlight": "in_the_spotlight",        # before cards are chosen: one card played face up
    "close_eye": "keeping_close_eye",       # after the cards are in: look at one
}
TARGETED = {"in_the_spotlight", "keeping_close_eye"}


def poll(plot: dict, kind: str, kmotr: int, players: int) -> list[int]:
    """Seats asked in this window, once each, from the Kmotr clockwise: those holding the
    window's card (a Strong Leader is no use to the Kmotr himself)."""
    card = WINDOWS[kind]
    holders = {held["holder"] for held in plot["held"] if held["card"] == card}
    if kind == "pre_proposal":
        holders.discard(kmotr)
    return [seat for seat in ((kmotr + step) % players for step in range(players)) if seat in holders]


def opinion_makers(plot: dict) -> list[int]:
    """Holders of Opinion Maker (◎), in seat order; one player holding both counts once."""
    return sorted({held["holder"] for held in plot["held"] if held["card"] == "opinion_maker"})


def holding(plot: dict, seat: int, card: str) -> dict | None:
    return next((held for held in plot["held"] if held["holder"] == seat and held["card"] == card), None)


def spend(plot: dict, held: dict, target: int | None, events: list[Event]) -> dict:
    """A kept card used: public record, then discarded."""
    entry = {"id": held["id"], "card": held["card"], "seat": held["holder"], "use": "used", "target": target}
    events.append(Event("plot_used", dict(entry)))
    return {**plot, "held": [h for h in plot["held"] if h["id"] != held["id"]], "log": plot["log"] + [entry]}


def learn_card(secret: dict, seat: int, held: dict, about: int, card: str, events: list[Event]) -> dict:
    """Keeping a Close Eye on You: ``seat`` privately sees the action card ``about`` played."""
    fact = {"id": held["id"], "card": held["card"], "about": about, "action_card": card}
    events.append(Event("plot_learnt", dict(fact), [seat]))
    results = list(secret["results"])
    results[seat] = results[seat] + [fact]
    return {**secret, "results": results}
