"""The Plot Thickens (rules/mafie.md §A.3.3): deck, draw, the Kmotr's deal, the ★ cards.

The first tests drive the module's functions directly; the last ones play it inside Mafie
(issue 4 in progress: the deal and the immediate cards are wired, the windows are not yet).
"""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from engines import mafie_plot as plot
from engines.base import IllegalAction, MalformedAction

ROLES7 = ["mafioso", "detective", "mafioso", "mafioso", "detective", "mafioso", "detective"]


def test_the_czech_deck_has_7_cards_for_5_or_6_players_and_all_15_from_7():
    small = Counter(plot.deck(5))
    assert small == {"strong_leader": 2, "keeping_close_eye": 2, "no_confidence": 1,
                     "take_responsibility": 1, "opinion_maker": 1}
    assert plot.deck(6) == plot.deck(5)
    for players in (7, 8, 9, 10):
        assert len(plot.deck(players)) == 15
        assert Counter(plot.deck(players))["no_confidence"] == 3


def test_the_kmotr_draws_1_2_3_cards_and_five_rounds_never_empty_the_deck():
    assert [plot.draw_count(n) for n in range(5, 11)] == [1, 1, 2, 2, 3, 3]
    assert [plot.draw_count(n, plot.ULTRA) for n in range(5, 11)] == [2, 2, 2, 2, 3, 3]
    assert len(plot.deck(5, plot.ULTRA)) == 10
    for distribution in (plot.CZ, plot.ULTRA):
        for players in range(5, 11):
            assert 5 * plot.draw_count(players, distribution) <= len(plot.deck(players, distribution))


def test_the_deck_is_shuffled_by_the_seed_and_kept_secret():
    public, secret = plot.new(7, plot.CZ, seed=1)
    assert sorted(secret["deck"]) == sorted(plot.deck(7))
    assert plot.new(7, plot.CZ, seed=1) == (public, secret)
    assert plot.new(7, plot.CZ, seed=2)[1]["deck"] != secret["deck"]
    assert "deck" not in public and plot.public_view(public)["held"] == []


def dealt(cards: list[str], players: int = 7):
    """A fresh expansion whose next draws are ``cards``, drawn for the round."""
    public, secret = plot.new(players, plot.CZ, seed=0)
    secret = {**secret, "deck": list(cards) + [c for c in secret["deck"]]}
    events = []
    public, secret = plot.draw(public, secret, len(cards), events)
    assert [c["card"] for c in public["drawn"]] == cards
    assert events[0].kind == "plot_drawn" and events[0].audience == "public"  # shown to everyone
    return public, secret


def assign(public, secret, card_id, to, kmotr=0, seat=None, roles=ROLES7):
    events = []
    before = copy.deepcopy((public, secret))
    result = plot.assign(public, secret, kmotr=kmotr, seat=kmotr if seat is None else seat, card_id=card_id,
                         to=to, roles=roles, events=events)
    assert (public, secret) == before  # inputs untouched
    return (*result, events)


def test_the_kmotr_hands_a_kept_card_to_another_player_face_up():
    public, secret = dealt(["no_confidence", "strong_leader"])
    with pytest.raises(IllegalAction) as refused:
        assign(public, secret, 1, to=2, seat=3)
    assert refused.value.code == "not_kmotr_plot"
    with pytest.raises(IllegalAction) as refused:
        assign(public, secret, 1, to=0)
    assert refused.value.code == "plot_to_self"  # "nikdy sobě"
    with pytest.raises(IllegalAction) as refused:
        assign(public, secret, 9, to=2)
    assert refused.value.code == "unknown_plot_card"
    public, secret, events = assign(public, secret, 2, to=4)
    assert public["held"] == [{"id": 2, "card": "strong_leader", "holder": 4}]
    assert [c["id"] for c in public["drawn"]] == [1] and plot.dealing(public)
    assert events[0].kind == "plot_dealt" and events[0].audience == "public"
    public, secret, _ = assign(public, secret, 1, to=4)  # several cards to one player: allowed
    assert not plot.dealing(public) and len(public["held"]) == 2


def test_establish_confidence_shows_the_kmotrs_role_to_its_recipient_only():
    public, secret = dealt(["establish_confidence"])
    public, secret, events = assign(public, secret, 1, to=3, kmotr=1)
    assert plot.learnt(secret, 3) == [{"id": 1, "card": "establish_confidence", "about": 1, "role": "detective"}]
    assert all(plot.learnt(secret, seat) == [] for seat in range(7) if seat != 3)
    private = [e for e in events if e.kind == "plot_learnt"]
    assert len(private) == 1 and private[0].audience == [3]
    public_events = [e for e in events if e.audience == "public"]
    assert all("role" not in e.data for e in public_events)
    assert public["held"] == [] and public["pending"] is None  # discarded once carried out
    assert public["log"][-1] == {"id": 1, "card": "establish_confidence", "seat": 3, "use": "used", "target": 1}


def test_overheard_conversation_looks_at_a_neighbours_role():
    public, secret = dealt(["overheard_conversation", "opinion_maker"])
    public, secret, _ = assign(public, secret, 1, to=6)
    assert public["pending"] == {"id": 1, "card": "overheard_conversation", "seat": 6}
    assert plot.waiting(public, kmotr=0) == [6]
    with pytest.raises(IllegalAction) as refused:
        assign(public, secret, 2, to=3)
    assert refused.value.code == "plot_pending"  # ★ resolves completely before the next card
    assert plot.legal(public, kmotr=0, seat=6, players=7) == [
        {"type": "overhear", "target": 0}, {"type": "overhear", "target": 5}]
    events = []
    with pytest.raises(IllegalAction) as refused:
        plot.resolve(public, secret, seat=6, action={"type": "overhear", "target": 3}, roles=ROLES7, events=events)
    assert refused.value.code == "not_a_neighbour"
    with pytest.raises(IllegalAction) as refused:
        plot.resolve(public, secret, seat=5, action={"type": "overhear", "target": 6}, roles=ROLES7, events=events)
    assert refused.value.code == "not_your_plot_card"
    with pytest.raises(MalformedAction):
        plot.resolve(public, secret, seat=6, action={"type": "overhear", "target": "left"}, roles=ROLES7, events=events)
    public, secret = plot.resolve(public, secret, seat=6, action={"type": "overhear", "target": 0},
                                  roles=ROLES7, events=events)
    assert plot.learnt(secret, 6) == [{"id": 1, "card": "overheard_conversation", "about": 0, "role": "mafioso"}]
    assert [e.audience for e in events if e.kind == "plot_learnt"] == [[6]]
    assert public["pending"] is None and plot.waiting(public, kmotr=0) == [0]  # back to the deal


def test_open_up_shows_the_holders_role_to_the_player_they_choose():
    public, secret = dealt(["open_up"])
    public, secret, _ = assign(public, secret, 1, to=2)
    events = []
    with pytest.raises(IllegalAction) as refused:
        plot.resolve(public, secret, seat=2, action={"type": "open_up", "target": 2}, roles=ROLES7, events=events)
    assert refused.value.code == "open_up_self"
    public, secret = plot.resolve(public, secret, seat=2, action={"type": "open_up", "target": 0},  # the Kmotr too
                                  roles=ROLES7, events=events)
    assert plot.learnt(secret, 0) == [{"id": 1, "card": "open_up", "about": 2, "role": "mafioso"}]
    assert plot.learnt(secret, 2) == []
    assert [e.audience for e in events if e.kind == "plot_learnt"] == [[0]]


def test_take_responsibility_takes_a_card_from_another_player_keeping_its_state():
    public, secret = dealt(["opinion_maker", "no_confidence", "take_responsibility"])
    public, secret, _ = assign(public, secret, 1, to=3)
    public, secret, _ = assign(public, secret, 2, to=5)
    public, secret, _ = assign(public, secret, 3, to=5)
    assert plot.legal(public, kmotr=0, seat=5, players=7) == [{"type": "take_plot_card", "target": 3, "card": 1}]
    events = []
    with pytest.raises(IllegalAction) as refused:  # its own card is not "from another player"
        plot.resolve(public, secret, seat=5, action={"type": "take_plot_card", "target": 5, "card": 2},
                     roles=ROLES7, events=events)
    assert refused.value.code == "nothing_to_take"
    public, secret = plot.resolve(public, secret, seat=5, action={"type": "take_plot_card", "target": 3, "card": 1},
                                  roles=ROLES7, events=events)
    assert public["held"] == [{"id": 1, "card": "opinion_maker", "holder": 5},
                              {"id": 2, "card": "no_confidence", "holder": 5}]
    assert public["log"][-1]["taken"] == 1 and public["log"][-1]["target"] == 3


def test_take_responsibility_with_no_card_held_by_anyone_else_has_no_effect():
    public, secret = dealt(["take_responsibility"])
    public, secret, events = assign(public, secret, 1, to=4)
    assert public["pending"] is None and not plot.dealing(public)
    assert public["log"][-1] == {"id": 1, "card": "take_responsibility", "seat": 4, "use": "used", "target": None}


@pytest.mark.parametrize("seed", range(20))
def test_every_legal_deal_move_is_accepted_until_the_deal_is_over(seed):
    """Random deals of a whole game's cards: legal moves always apply, the deal always ends."""
    import random

    chooser = random.Random(seed)
    players = 5 + seed % 6
    roles = (ROLES7 * 2)[:players]
    public, secret = plot.new(players, plot.CZ if seed % 2 else plot.ULTRA, seed)
    for round_ in range(5):
        kmotr = (seed + round_) % players
        public, secret = plot.draw(public, secret, plot.draw_count(players, plot.CZ if seed % 2 else plot.ULTRA), [])
        for _ in range(20):
            if not plot.dealing(public):
                break
            (seat,) = plot.waiting(public, kmotr)
            moves = plot.legal(public, kmotr=kmotr, seat=seat, players=players)
            assert moves and all(plot.legal(public, kmotr=kmotr, seat=other, players=players) == []
                                 for other in range(players) if other != seat)
            move = chooser.choice(moves)
            if move["type"] == "assign_plot_card":
                public, secret = plot.assign(public, secret, kmotr=kmotr, seat=seat, card_id=move["card"],
                                             to=move["to"], roles=roles, events=[])
            else:
                public, secret = plot.resolve(public, secret, seat=seat, action=move, roles=roles, events=[])
        assert not plot.dealing(public)
    kinds = [plot.CARDS[h["card"]].kind for h in public["held"]]
    assert plot.IMMEDIATE not in kinds  # ★ cards are carried out and discarded
    learnt = [fact for seat in range(players) for fact in plot.learnt(secret, seat)]
    assert all(fact["role"] == roles[fact["about"]] for fact in learnt)


# --------------------------------------------------------------------------------------------
# Inside a game of Mafie
# --------------------------------------------------------------------------------------------

def test_in_mafie_each_round_opens_with_the_kmotrs_deal_then_the_crew():
    from tests.engines.mafie_helpers import Table

    deck = ["overheard_conversation", "establish_confidence", *[c for c in plot.deck(7)
            if c not in ("overheard_conversation", "establish_confidence")][:12], "overheard_conversation"]
    g = Table(7, detectives={1, 4, 6}, kmotr=2, plot_deck=deck, plot_cards=True)
    g.ready_all()
    assert g.phase == "plot_deal" and g.view()["plot"]["drawn"] == [
        {"id": 1, "card": "overheard_conversation"}, {"id": 2, "card": "establish_confidence"}]
    assert mafie_waiting(g) == [2]
    g.refuse(2, {"type": "assign_plot_card", "card": 1, "to": 2}, "plot_to_self")
    g.refuse(3, {"type": "assign_plot_card", "card": 1, "to": 4}, "not_kmotr_plot")
    g.refuse(2, {"type": "assign_plot_card", "card": "one", "to": 4}, "bad_plot_deal")
    g.act(2, {"type": "assign_plot_card", "card": 2, "to": 5})       # ★: seat 5 sees the Kmotr's role
    assert g.view(5)["me"]["plot_learnt"] == [
        {"id": 2, "card": "establish_confidence", "about": 2, "role": "mafioso"}]
    assert all(g.view(seat)["me"]["plot_learnt"] == [] for seat in range(7) if seat != 5)
    g.act(2, {"type": "assign_plot_card", "card": 1, "to": 0})       # ★: seat 0 must overhear now
    assert g.phase == "plot_deal" and mafie_waiting(g) == [0]
    assert g.view(0)["me"]["actions"] == ["overhear"]
    g.refuse(0, {"type": "overhear", "target": 3}, "not_a_neighbour")
    g.act(0, {"type": "overhear", "target": 6})
    assert g.view(0)["me"]["plot_learnt"][0]["role"] == "detective"
    assert g.phase == "team_selection" and g.kmotr == 2
    tv = g.view()
    assert tv["plot"]["held"] == [] and [e["use"] for e in tv["plot"]["log"]] == ["dealt", "used", "dealt", "used"]
    assert tv["plot_learnt"] is None  # only at the end


def mafie_waiting(g):
    from engines import mafie

    return mafie.waiting_for(g.state)


def test_at_game_over_the_reveal_includes_what_every_plot_card_showed():
    from tests.engines.mafie_helpers import Table

    deck = ["establish_confidence", *[c for c in plot.deck(7) if c != "establish_confidence"]]
    g = Table(7, detectives={0, 1, 2}, kmotr=0, plot_deck=deck, plot_cards=True)
    g.ready_all()
    for _ in range(3):  # the mafia wins three jobs; each round opens with two cards to deal
        g.pass_plot_cards()
        g.propose([3, 4, 5, 6][:g.view()["team_size"]])
        g.vote()
        g.pass_plot_cards()
        g.play()
        g.pass_plot_cards()
    assert g.phase == "game_over"
    end = g.view()
    learnt = [plot.learnt(g.state["secret"]["plot"], seat) for seat in range(7)]
    assert end["plot_learnt"] == learnt and learnt[1][0]["card"] == "establish_confidence"
    assert len(end["plot"]["log"]) >= 6  # two cards dealt a round, each logged
