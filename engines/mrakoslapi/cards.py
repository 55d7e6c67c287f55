"""The Mrakošlapi cards: the 40-card deck, the deck per player count, card state, the secret deal
and the card semantics as data (rules §1).

"rules §1.2" means ``docs/rules/mrakoslapi.md``; the Czech Mrakošlapi rulebook is the
authority ("Funkce ve hře Mrakošlapi",
"Úprava karet pro menší počet hráčů").

A card is the JSON dict ``{"type": "ZRCADLO", "no": 4, "state": "READY"}``: types with several
copies are numbered 1..n as the rulebook numbers them ("Zrcadlo 4", "Mrakošlap 2"), single-copy
types have ``no = 1``.  Functions here are pure and never mutate their arguments.

Our decisions (rules §1, §7):

* Two Exhibicionista cards, although its paragraph says "(1)": the card list and the deck-
  reduction rule ("remove Exhibicionista 2") need two (A19).
* The deal: the deck in catalogue order is shuffled by the chance kit (``engines/chance.py``,
  the draw labelled ``deal``, the game master's: audience NOBODY) and dealt round-robin by seat
  (rules §1.2 [P]); no combination is forbidden.  Each hand is then listed in catalogue order,
  so the order of a hand reveals nothing about the shuffle.
* A forced deal (tests, a scripted demo: setup's ``deal={"hands": …}``) is the same draw with
  its outcome forced (``forced_deal``): the deck on the table is then the scripted cards, in
  the order that deals them, and a hand may hold fewer cards than a real one.
"""

from __future__ import annotations

from typing import Any

from engines import chance
from engines.base import NOBODY

Card = dict[str, Any]

# Card types (rules §1.1), in the rulebook's order: night cards, then day cards.
MRAKOSLAP = "MRAKOSLAP"
MAFIAN = "MAFIAN"
SILENY_STRELEC = "SILENY_STRELEC"
MAG = "MAG"
SLINA = "SLINA"
ZRCADLO = "ZRCADLO"
EXHIBICIONISTA = "EXHIBICIONISTA"
ATEISTA = "ATEISTA"
MEDIK = "MEDIK"
DUCH_BOBO = "DUCH_BOBO"
MECIAR = "MECIAR"
KOVAC = "KOVAC"
KUSKONA = "KUSKONA"
GANDALF = "GANDALF"
PROVAZOCHODEC = "PROVAZOCHODEC"
ASTRONOM = "ASTRONOM"
MASOVY_VRAH = "MASOVY_VRAH"
ANARCHISTA = "ANARCHISTA"

# type: (Czech name as the rulebook prints it, copies) — "Noční kartičky" and "DEN".
CARD_TYPES: dict[str, tuple[str, int]] = {
    MRAKOSLAP: ("Mrakošlap", 7),
    MAFIAN: ("Mafián", 3),
    SILENY_STRELEC: ("Šílený střelec", 2),
    MAG: ("Mág", 3),
    SLINA: ("Slina", 3),
    ZRCADLO: ("Zrcadlo", 5),
    EXHIBICIONISTA: ("Exhibicionista", 2),     # A19: 2 copies, see the module docstring
    ATEISTA: ("Ateista", 1),
    MEDIK: ("Medik", 1),
    DUCH_BOBO: ("Duch Bobo", 1),
    MECIAR: ("Mečiar", 1),
    KOVAC: ("Kováč", 1),
    KUSKONA: ("Kuskoňa", 1),
    GANDALF: ("Gandalf", 1),
    PROVAZOCHODEC: ("Provazochodec", 3),
    ASTRONOM: ("Astronom", 3),
    MASOVY_VRAH: ("Masový vrah", 1),
    ANARCHISTA: ("Anarchista", 1),
}
NIGHT_TYPES = (MRAKOSLAP, MAFIAN, SILENY_STRELEC, MAG, SLINA, ZRCADLO, EXHIBICIONISTA, ATEISTA,
               MEDIK, DUCH_BOBO)
DAY_TYPES = (MECIAR, KOVAC, KUSKONA, GANDALF, PROVAZOCHODEC, ASTRONOM, MASOVY_VRAH, ANARCHISTA)

# Mrakošlapy gained by the Kuskoňa/Gandalf rule are numbered 8, 9, 10, … ("Mrakošlapa č.8").
EXTRA_MRAKOSLAP_FIRST_NO = 8

# Deck per player count (rules §1.2; rulebook "Úprava karet pro menší počet hráčů").
REMOVED: dict[int, tuple[tuple[str, int], ...]] = {
    8: (),
    7: ((DUCH_BOBO, 1), (EXHIBICIONISTA, 2), (ZRCADLO, 5), (ASTRONOM, 3), (PROVAZOCHODEC, 3)),
    6: ((DUCH_BOBO, 1), (EXHIBICIONISTA, 2), (ZRCADLO, 5), (ASTRONOM, 3)),
}
HAND_SIZE = {8: 5, 7: 5, 6: 6}      # "každý hráč si vylosuje 5 kartiček"; 6 players: 6 each
PLAYER_COUNTS = tuple(sorted(HAND_SIZE))

# Card state (rules §1.3).
READY = "READY"                 # usable / counting
SPENT = "SPENT"                 # one-use card used up
BROKEN = "BROKEN"               # a Zrcadlo that broke
DEAD = "DEAD"                   # a Mrakošlap that died
SURRENDERED = "SURRENDERED"     # its holder really died; with the GM, counts for nothing
CARD_STATES = (READY, SPENT, BROKEN, DEAD, SURRENDERED)

# Card semantics as data (rules §1.4), for the engine and the screens to load.
_TARGET = {"kind": "target", "scope": "visible_alive", "self_allowed": True}
CATALOGUE: dict[str, dict[str, Any]] = {
    MRAKOSLAP: {"phase": ["night", "day"], "use": "single", "trigger": "auto",
                "consume_order": "lowest_no_first",
                "extra_numbering_starts_at": EXTRA_MRAKOSLAP_FIRST_NO},
    MAFIAN: {"phase": ["night"], "use": "every_night", "trigger": "wake",
             "choice": dict(_TARGET), "group": "mafia_unanimous", "bullets_per_card": 1},
    SILENY_STRELEC: {"phase": ["night"], "use": "gunman_nights", "trigger": "wake",
                     "choice": {**_TARGET, "mandatory": True}, "bullets_per_card": 1},
    MAG: {"phase": ["night"], "use": "every_night", "trigger": "wake",
          "choice": {"kind": "ordered_pair", "scope": "visible_alive", "distinct": True,
                     "pass_allowed": True},
          "disabled_if_holder_has": ATEISTA},
    SLINA: {"phase": ["night"], "use": "every_night", "trigger": "wake",
            "choice": {**_TARGET, "pass_allowed": True}, "disabled_if_holder_has": ATEISTA},
    ZRCADLO: {"phase": ["night"], "use": "single", "trigger": "auto",
              "consume_order": "lowest_no_first"},
    EXHIBICIONISTA: {"phase": ["night"], "use": "single", "trigger": "wake",
                     "choice": {"kind": "optional_target", "scope": "visible_alive",
                                "self_allowed": True}},
    ATEISTA: {"phase": ["night"], "use": "permanent", "trigger": "auto"},
    MEDIK: {"phase": ["night"], "use": "single", "trigger": "wake",
            "choice": {"kind": "yes_no", "target": "self"}},
    DUCH_BOBO: {"phase": ["night"], "use": "single", "trigger": "wake_after_real_death",
                "choice": {"kind": "optional_target", "scope": "visible_alive"}},
    MECIAR: {"phase": ["day"], "use": "permanent", "vote_weight": 2},
    KOVAC: {"phase": ["day"], "use": "permanent", "vote_weight_vs": {MECIAR: 2}},
    KUSKONA: {"phase": ["day"], "use": "permanent", "pair": GANDALF},
    GANDALF: {"phase": ["day"], "use": "permanent", "pair": KUSKONA},
    PROVAZOCHODEC: {"phase": ["day"], "use": "single", "trigger": "auto_on_execution",
                    "consume_order": "lowest_no_first"},
    ASTRONOM: {"phase": ["day"], "use": "single", "trigger": "player_button",
               "usable_while_muted": True, "consume_order": "lowest_no_first"},
    MASOVY_VRAH: {"phase": ["day"], "use": "permanent", "trigger": "auto_on_execution_loss"},
    ANARCHISTA: {"phase": ["day"], "use": "single", "trigger": "player_button",
                 "usable_while_muted": False},
}
for _type, (_name, _copies) in CARD_TYPES.items():
    CATALOGUE[_type] = {"name": _name, "copies": _copies, **CATALOGUE[_type]}

_ORDER = {card_type: index for index, card_type in enumerate(CARD_TYPES)}


def card(card_type: str, no: int = 1, state: str = READY) -> Card:
    """One card as JSON."""
    return {"type": card_type, "no": no, "state": state}


def sort_key(c: Card) -> tuple[int, int]:
    """Catalogue order, then card number."""
    return _ORDER[c["type"]], c["no"]


def full_deck() -> list[Card]:
    """All 40 cards in catalogue order (rules §1.1)."""
    return [card(card_type, no) for card_type, (_, copies) in CARD_TYPES.items()
            for no in range(1, copies + 1)]


def deck(players: int) -> list[Card]:
    """The deck for ``players`` (rules §1.2): 40 for 8, 35 for 7, 36 for 6 players."""
    if players not in REMOVED:
        raise ValueError(f"Mrakošlapi is played by {PLAYER_COUNTS[0]}–{PLAYER_COUNTS[-1]} seats")
    removed = set(REMOVED[players])
    return [c for c in full_deck() if (c["type"], c["no"]) not in removed]


DEAL = "deal"       # the label of the deal's draw (engines/chance.py)


def deal(players: int, record: chance.Record,
         scripted: list[list[Card]] | None = None) -> tuple[list[list[Card]], chance.Draw]:
    """The secret deal: hand ``i`` belongs to seat ``i`` (rules §1.2 [P]), and the draw that
    made it (its event and the game's new chance record).

    The deck for ``players`` (or the ``scripted`` hands' cards, a forced deal: ``record`` then
    forces the shuffle with ``forced_deal``) is shuffled by the kit, dealt round-robin by seat,
    and each hand listed in catalogue order.
    """
    if scripted is None:
        cards, sizes = deck(players), [HAND_SIZE[players]] * players
    else:
        cards = sorted((c for hand in scripted for c in hand), key=sort_key)
        sizes = [len(hand) for hand in scripted]
    drawn = chance.shuffle(record, DEAL, cards, audience=NOBODY)
    return [sorted(hand, key=sort_key) for hand in _round_robin(drawn.value, sizes)], drawn


def forced_deal(hands: list[list[Card]]) -> dict[str, list]:
    """The kit's forced outcome (``chance.new(seed, forced=…)``) that deals ``hands``: the
    deck order that gives each seat its hand round-robin."""
    rounds = max((len(hand) for hand in hands), default=0)
    return {DEAL: [[hand[r] for r in range(rounds) for hand in hands if r < len(hand)]]}


def _round_robin(order: list[Card], sizes: list[int]) -> list[list[Card]]:
    """``order`` dealt one card a seat in turn, a seat that has its ``sizes[seat]`` cards
    skipped (with equal sizes: seat ``i`` gets ``order[i::players]``)."""
    hands: list[list[Card]] = [[] for _ in sizes]
    cards = iter(order)
    for r in range(max(sizes, default=0)):
        for seat, size in enumerate(sizes):
            if r < size:
                hands[seat].append(next(cards))
    return hands


# ---- reading and changing a hand (no mutation: changes return a new list) ----------------------

def numbers(cards: list[Card], card_type: str, state: str = READY) -> list[int]:
    """Numbers of the cards of ``card_type`` in ``state``, ascending (lowest is used first, A5)."""
    return sorted(c["no"] for c in cards if c["type"] == card_type and c["state"] == state)


def holds(cards: list[Card], card_type: str, state: str = READY) -> bool:
    return bool(numbers(cards, card_type, state))


def with_state(cards: list[Card], card_type: str, no: int, state: str) -> list[Card]:
    """A copy of ``cards`` in which card ``(card_type, no)`` is in ``state``."""
    if not any(c["type"] == card_type and c["no"] == no for c in cards):
        raise ValueError(f"no card {card_type} {no} in this hand")
    return [{**c, "state": state} if c["type"] == card_type and c["no"] == no else dict(c)
            for c in cards]
