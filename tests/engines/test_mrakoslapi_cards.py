"""Mrakošlapi cards (rules §1): the 40-card deck, the deck per player count, the seeded deal,
the catalogue; and the purity of the package (docs/design.md §3).

"rules §1.2" = docs/rules/mrakoslapi.md; the Czech Mrakošlapi rulebook is
the authority ("Funkce ve hře Mrakošlapi", "Úprava karet pro menší počet hráčů").
"""

from __future__ import annotations

import ast
import json
from collections import Counter
from pathlib import Path

import pytest

from engines import chance
from engines.base import NOBODY
from engines.mrakoslapi import cards as C
from engines.mrakoslapi.players import ALIVE, new_players, visible_living
from tests.engines.test_purity import FORBIDDEN, imported_modules

PACKAGE = Path(C.__file__).resolve().parent


def test_the_full_deck_has_40_cards_with_the_rulebook_counts():
    deck = C.full_deck()
    assert len(deck) == 40
    assert Counter(c["type"] for c in deck) == {
        C.MRAKOSLAP: 7, C.MAFIAN: 3, C.SILENY_STRELEC: 2, C.MAG: 3, C.SLINA: 3, C.ZRCADLO: 5,
        C.EXHIBICIONISTA: 2, C.ATEISTA: 1, C.MEDIK: 1, C.DUCH_BOBO: 1,
        C.MECIAR: 1, C.KOVAC: 1, C.KUSKONA: 1, C.GANDALF: 1, C.PROVAZOCHODEC: 3, C.ASTRONOM: 3,
        C.MASOVY_VRAH: 1, C.ANARCHISTA: 1}
    assert sum(C.CARD_TYPES[t][1] for t in C.NIGHT_TYPES) == 28
    assert sum(C.CARD_TYPES[t][1] for t in C.DAY_TYPES) == 12
    assert len({(c["type"], c["no"]) for c in deck}) == 40
    assert all(c["state"] == C.READY for c in deck)


def test_cards_are_numbered_from_one():
    for card_type, (_, copies) in C.CARD_TYPES.items():
        assert [c["no"] for c in C.full_deck() if c["type"] == card_type] == list(
            range(1, copies + 1))


@pytest.mark.parametrize(("players", "size", "hand", "removed"), [
    (8, 40, 5, set()),
    (7, 35, 5, {(C.DUCH_BOBO, 1), (C.EXHIBICIONISTA, 2), (C.ZRCADLO, 5), (C.ASTRONOM, 3),
                (C.PROVAZOCHODEC, 3)}),
    (6, 36, 6, {(C.DUCH_BOBO, 1), (C.EXHIBICIONISTA, 2), (C.ZRCADLO, 5), (C.ASTRONOM, 3)}),
])
def test_deck_per_player_count(players, size, hand, removed):
    deck = C.deck(players)
    assert len(deck) == size == players * hand == players * C.HAND_SIZE[players]
    keys = {(c["type"], c["no"]) for c in deck}
    assert keys == {(c["type"], c["no"]) for c in C.full_deck()} - removed


@pytest.mark.parametrize("players", [5, 9, 0])
def test_other_player_counts_are_not_supported(players):
    with pytest.raises(ValueError):
        C.deck(players)


def hands_of(players: int, seed: int) -> list[list[dict]]:
    """The hands a game of ``players`` with ``seed`` is dealt (its first draw)."""
    return C.deal(players, chance.new(seed))[0]


@pytest.mark.parametrize("players", C.PLAYER_COUNTS)
def test_the_deal_gives_every_card_exactly_once(players):
    hands = hands_of(players, seed=42)
    assert len(hands) == players
    assert all(len(hand) == C.HAND_SIZE[players] for hand in hands)
    dealt = sorted((c["type"], c["no"]) for hand in hands for c in hand)
    assert dealt == sorted((c["type"], c["no"]) for c in C.deck(players))
    assert all(hand == sorted(hand, key=C.sort_key) for hand in hands)


def test_the_deal_is_reproducible_from_the_seed():
    assert hands_of(8, seed=7) == hands_of(8, seed=7)
    assert hands_of(8, seed=7) != hands_of(8, seed=8)
    assert len({json.dumps(hands_of(6, seed)) for seed in range(20)}) == 20


def test_the_deal_is_the_kits_shuffle_recorded_for_the_game_master_only():
    record = chance.new(7)
    hands, drawn = C.deal(8, record)
    assert drawn.event.kind == chance.CHANCE and drawn.event.audience == NOBODY
    assert drawn.event.data["label"] == C.DEAL and drawn.chance["draws"] == 1
    assert [drawn.value[seat::8] for seat in range(8)] == [           # dealt round-robin by seat
        [c for c in drawn.value if c in hand] for hand in hands]
    assert drawn.chance["draws"] == 1 and record["draws"] == 0


def test_a_forced_deal_is_the_same_draw_forced_and_may_be_short():
    scripted = [[C.card(C.MAFIAN, 1), C.card(C.MAG, 1), C.card(C.ATEISTA, 1)],
                [C.card(C.MAFIAN, 2)], [], [C.card(C.ZRCADLO, 1, C.BROKEN)], [C.card(C.SLINA, 1)],
                [C.card(C.MRAKOSLAP, 1), C.card(C.MRAKOSLAP, 2)]]
    hands, drawn = C.deal(6, chance.new(3, C.forced_deal(scripted)), scripted)
    assert hands == scripted
    assert drawn.event.data["forced"] and drawn.event.audience == NOBODY
    assert drawn.chance["draws"] == 1                      # the forced outcome is used up:
    assert not chance.shuffle(drawn.chance, C.DEAL, [1, 2]).event.data["forced"]
    with pytest.raises(ValueError, match="deal"):          # forced cards must be the ones dealt
        C.deal(6, chance.new(3, C.forced_deal(scripted)))


def test_new_players_are_alive_with_their_hands():
    hands = hands_of(7, seed=3)
    players = new_players(hands)
    assert visible_living(players) == list(range(7))
    assert all(p["status"] == ALIVE and p["cards"] == hands[p["seat"]] for p in players)
    players[0]["cards"][0]["state"] = C.SPENT
    assert hands[0][0]["state"] == C.READY                # a copy, not the dealt dicts


def test_the_catalogue_covers_every_type_as_json():
    assert list(C.CATALOGUE) == list(C.CARD_TYPES)
    for card_type, entry in C.CATALOGUE.items():
        assert (entry["name"], entry["copies"]) == C.CARD_TYPES[card_type]
        assert set(entry["phase"]) <= {"night", "day"}
    assert json.loads(json.dumps(C.CATALOGUE)) == C.CATALOGUE
    assert C.CATALOGUE[C.MAG]["disabled_if_holder_has"] == C.ATEISTA
    assert C.CATALOGUE[C.MRAKOSLAP]["extra_numbering_starts_at"] == 8


def test_hand_helpers_do_not_mutate():
    hand = [C.card(C.ZRCADLO, 4), C.card(C.ZRCADLO, 1), C.card(C.MRAKOSLAP, 2, C.DEAD)]
    assert C.numbers(hand, C.ZRCADLO) == [1, 4]
    assert C.numbers(hand, C.MRAKOSLAP) == [] and not C.holds(hand, C.MRAKOSLAP)
    changed = C.with_state(hand, C.ZRCADLO, 1, C.BROKEN)
    assert C.numbers(changed, C.ZRCADLO) == [4]
    assert C.numbers(hand, C.ZRCADLO) == [1, 4]
    with pytest.raises(ValueError):
        C.with_state(hand, C.MAG, 1, C.SPENT)


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_package_imports_nothing_impure(path):
    """The same scan as tests/engines/test_purity.py, for this package only."""
    impure = imported_modules(ast.parse(path.read_text())) & FORBIDDEN
    assert not impure, f"{path.name} imports {sorted(impure)}"
