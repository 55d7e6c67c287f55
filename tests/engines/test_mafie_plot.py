"""The Plot Thickens (docs/rules/mafie.md §A.3.3): deck, draw, the Kmotr's deal, the ★ cards.

The first tests drive the module's functions directly; the others play it inside Mafie.
"""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from engines import chance
from engines.mafie import plot_cards as plot
from engines.base import NOBODY, IllegalAction, MalformedAction

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
    public, secret, shuffled = plot.new(7, plot.CZ, chance.new(1))
    assert sorted(secret["deck"]) == sorted(plot.deck(7))
    assert plot.new(7, plot.CZ, chance.new(1)) == (public, secret, shuffled)
    assert plot.new(7, plot.CZ, chance.new(2))[1]["deck"] != secret["deck"]
    assert "deck" not in public and plot.public_view(public)["held"] == []
    # The shuffle is a draw of the chance kit, recorded for the game master only.
    assert shuffled.event.audience == NOBODY and shuffled.event.data["result"] == secret["deck"]
    assert shuffled.chance["draws"] == 1


def dealt(cards: list[str], players: int = 7):
    """A fresh expansion whose next draws are ``cards``, drawn for the round."""
    public, secret, _ = plot.new(players, plot.CZ, chance.new(0))
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
    public, secret, _ = plot.new(players, plot.CZ if seed % 2 else plot.ULTRA, chance.new(seed))
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


def window(g):
    """The window open now: its kind and who is asked."""
    shown = g.view()["window"]
    return shown["kind"], shown["asked"]


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


# --------------------------------------------------------------------------------------------
# Reaction windows (rules §A.3.3 cards 1–4, "Reaction windows", interaction table)
# --------------------------------------------------------------------------------------------

def table_with(first_cards: list[str], to: list[int], players: int = 7, kmotr: int = 0,
               detectives: set[int] = frozenset({1, 4, 6})):
    """A game whose first deal hands ``first_cards`` to the seats ``to``, in order."""
    from tests.engines.mafie_helpers import Table

    rest = list(plot.deck(players))
    for card in first_cards:
        rest.remove(card)
    g = Table(players, detectives=set(detectives), kmotr=kmotr, plot_deck=first_cards + rest, plot_cards=True)
    g.ready_all()
    for card_id, seat in enumerate(to, start=1):
        g.act(kmotr, {"type": "assign_plot_card", "card": card_id, "to": seat})
    return g


def test_strong_leader_makes_its_holder_the_kmotr_before_a_proposal():
    g = table_with(["strong_leader", "no_confidence"], to=[3, 5])
    assert g.phase == "team_selection" and g.kmotr == 0   # a window only after the deal's own
    g.propose([0, 1])
    g.vote(approve=set())                                  # rejected: Kmotr → 1, then the window
    assert g.phase == "plot_window" and mafie_waiting(g) == [3]
    assert window(g) == ("pre_proposal", 3)
    g.refuse(5, {"type": "play_plot_card", "card": 2}, "not_your_plot_card")
    g.refuse(3, {"type": "play_plot_card", "card": 2}, "not_your_plot_card")  # not the window's card
    g.act(3, {"type": "play_plot_card", "card": 1})
    assert g.phase == "team_selection" and g.kmotr == 3 and g.state["rejections"] == 1
    assert [h["card"] for h in g.view()["plot"]["held"]] == ["no_confidence"]


def test_no_confidence_cancels_an_approval_as_a_rejected_vote():
    g = table_with(["no_confidence", "strong_leader"], to=[5, 0 + 2])
    g.propose([0, 1])
    g.vote()
    assert g.phase == "plot_window" and window(g) == ("no_confidence", 5)
    g.act(5, {"type": "play_plot_card", "card": 1})
    # counted as a failed vote: the Kmotr token moves on; Strong Leader's holder (2) is asked next
    assert g.state["rejections"] == 1 and g.kmotr == 1
    assert window(g) == ("pre_proposal", 2)
    g.act(2, {"type": "pass_plot"})
    # everyone asked has answered: the window stays open until the game master closes it
    assert g.phase == "plot_window" and mafie_waiting(g) == [] and g.view()["window"]["asked"] is None
    g.refuse(2, {"type": "close_window"}, "not_your_turn")
    g.close_window()
    assert g.phase == "team_selection" and g.kmotr == 1


def test_no_confidence_on_the_fifth_proposal_lets_the_detectives_win_at_once():
    g = table_with(["no_confidence", "opinion_maker"], to=[5, 4])
    for _ in range(4):
        g.propose([g.kmotr, (g.kmotr + 1) % 7])
        g.vote(approve=set())
    assert g.state["rejections"] == 4
    g.propose([g.kmotr, (g.kmotr + 1) % 7])
    g.vote()
    g.act(5, {"type": "play_plot_card", "card": 1})
    assert g.phase == "game_over" and g.view()["outcome"]["winner"] == "detectives"
    assert g.view()["outcome"]["reason"] == "five_rejections"


def test_in_the_spotlight_shows_one_crew_members_card_with_their_name_at_the_reveal():
    g = table_with(["in_the_spotlight", "opinion_maker"], to=[2, 5])
    g.propose([1, 2])
    g.vote()
    assert window(g) == ("spotlight", 2)
    g.refuse(2, {"type": "play_plot_card", "card": 1, "target": 4}, "not_on_crew")
    g.act(2, {"type": "play_plot_card", "card": 1, "target": 1})   # before anyone chooses a card
    g.close_window()
    assert g.phase == "action_play" and g.view()["spotlight"] == 1
    g.play(fails={1})
    assert g.view()["last_action"]["spotlight"] == {"seat": 1, "card": "fail"}
    assert g.view()["spotlight"] is None


def test_keeping_a_close_eye_sees_one_card_privately_each_crew_member_once():
    g = table_with(["keeping_close_eye", "keeping_close_eye"], to=[5, 1], kmotr=3)
    g.propose([0, 2])
    g.vote()
    g.play()  # seats 0 and 2 are mafiosi: two successes
    assert window(g) == ("close_eye", 5)   # from the Kmotr (3) clockwise: 5, then 1
    g.refuse(1, {"type": "play_plot_card", "card": 2, "target": 0}, "not_your_plot_card")
    g.act(5, {"type": "play_plot_card", "card": 1, "target": 0})
    assert g.view(5)["me"]["plot_learnt"] == [
        {"id": 1, "card": "keeping_close_eye", "about": 0, "action_card": "success"}]
    assert [e.audience for e in g.last if e.kind == "plot_learnt"] == [[5]]
    assert window(g) == ("close_eye", 1)
    g.refuse(1, {"type": "play_plot_card", "card": 2, "target": 0}, "already_watched")
    g.refuse(1, {"type": "play_plot_card", "card": 2, "target": 4}, "not_on_crew")
    g.act(1, {"type": "pass_plot"})
    g.close_window()
    assert g.phase in ("plot_window", "plot_deal", "team_selection")  # revealed; next round opened
    assert g.view()["last_action"]["successes"] == 2
    assert all(g.view(seat)["me"]["plot_learnt"] == [] for seat in range(7) if seat != 5)


def test_two_strong_leaders_in_one_window_only_the_first_in_poll_order_is_played():
    g = table_with(["strong_leader", "strong_leader"], to=[5, 3])
    g.propose([0, 1])
    g.vote(approve=set())                        # Kmotr → 1; asked from 1 clockwise: 3, then 5
    assert window(g) == ("pre_proposal", 3)
    g.act(3, {"type": "play_plot_card", "card": 2})
    assert g.phase == "team_selection" and g.kmotr == 3   # the window closed: 5 is not asked
    assert [h["holder"] for h in g.view()["plot"]["held"]] == [5]


def test_a_taken_card_works_for_its_new_holder():
    g = table_with(["strong_leader", "take_responsibility"], to=[5, 2])
    assert g.phase == "plot_deal" and mafie_waiting(g) == [2]   # Take Responsibility: take now
    g.act(2, {"type": "take_plot_card", "target": 5, "card": 1})
    g.propose([0, 1])
    g.vote(approve=set())
    assert window(g) == ("pre_proposal", 2)  # the taken Strong Leader
    g.act(2, {"type": "play_plot_card", "card": 1})
    assert g.kmotr == 2


def test_spotlight_and_close_eye_on_the_same_crew_member_are_both_allowed():
    g = table_with(["in_the_spotlight", "keeping_close_eye"], to=[3, 5])
    g.propose([1, 2])
    g.vote()
    g.act(3, {"type": "play_plot_card", "card": 1, "target": 2})
    g.close_window()
    g.play()
    g.act(5, {"type": "play_plot_card", "card": 2, "target": 2})
    g.close_window()
    assert g.view(5)["me"]["plot_learnt"][0]["action_card"] == "success"
    assert g.view()["last_action"]["spotlight"] == {"seat": 2, "card": "success"}


def test_the_opinion_maker_votes_first_and_openly_then_everyone_else():
    g = table_with(["opinion_maker", "strong_leader"], to=[4, 3])
    g.propose([0, 1])
    assert mafie_waiting(g) == [4]
    g.refuse(0, {"type": "vote", "approve": True}, "opinion_first")
    g.act(4, {"type": "vote", "approve": False})
    assert g.view()["opinion"] == {"seats": [4], "votes": [[4, False]]}   # public before the rest vote
    assert [e.kind for e in g.last] == ["vote_cast", "opinion_votes"]
    assert mafie_waiting(g) == [0, 1, 2, 3, 5, 6]
    g.refuse(4, {"type": "vote", "approve": True}, "already_voted")
    for seat in (0, 1, 2, 3, 5, 6):
        g.act(seat, {"type": "vote", "approve": True})
    assert g.view()["last_vote"]["approve"] == 6 and g.view()["opinion"] is None


def test_two_opinion_makers_choose_secretly_and_are_revealed_together():
    g = table_with(["opinion_maker", "opinion_maker"], to=[2, 5])
    g.propose([0, 1])
    g.act(5, {"type": "vote", "approve": True})
    assert g.view()["opinion"] == {"seats": [2, 5], "votes": None} and mafie_waiting(g) == [2]
    g.act(2, {"type": "vote", "approve": False})
    assert g.view()["opinion"]["votes"] == [[2, False], [5, True]]


def test_no_confidence_is_narrated_without_the_vote_count_it_cancelled():
    g = table_with(["no_confidence", "opinion_maker"], to=[5, 4])
    g.propose([0, 1])
    g.vote()
    g.act(5, {"type": "play_plot_card", "card": 1})
    said = [(n["code"], n["params"]) for n in g.state["narration"]]
    start = said.index(("no_confidence", {"seat": 5}))
    assert said[start + 1] == ("cancelled", {"count": 1, "kmotr": 1})
    assert not any(code == "rejected" for code, _ in said)


def test_the_tv_announces_every_card_handed_out_and_used():
    g = table_with(["opinion_maker", "overheard_conversation"], to=[4, 6])
    said = [(n["code"], n["params"]) for n in g.state["narration"]]
    assert ("plot_dealt", {"seat": 6, "card": "overheard_conversation"}) in said
    assert ("plot_dealt", {"seat": 4, "card": "opinion_maker"}) in said
    assert mafie_waiting(g) == [6]
    g.act(6, {"type": "overhear", "target": 5})
    said = [(n["code"], n["params"]) for n in g.state["narration"]]
    assert ("plot_used", {"seat": 6, "card": "overheard_conversation", "target": 5}) in said
    assert all("role" not in params for _, params in said)   # what was learnt stays on one phone


# --------------------------------------------------------------------------------------------
# The rules file's scenarios (docs/rules/mafie.md §A.5)
# --------------------------------------------------------------------------------------------

def ordered_deck(players: int, first: list[str]) -> list[str]:
    rest = list(plot.deck(players))
    for card in first:
        rest.remove(card)
    return first + rest


def test_A_S12_plot_deal_at_5_players():
    from tests.engines.mafie_helpers import Table

    g = Table(5, detectives={3, 4}, kmotr=0, plot_deck=ordered_deck(5, ["strong_leader"]), plot_cards=True)
    g.ready_all()
    assert [c["card"] for c in g.view()["plot"]["drawn"]] == ["strong_leader"]   # 1 card, on the TV
    g.refuse(0, {"type": "assign_plot_card", "card": 1, "to": 0}, "plot_to_self")
    g.act(0, {"type": "assign_plot_card", "card": 1, "to": 2})
    assert g.view()["plot"]["held"] == [{"id": 1, "card": "strong_leader", "holder": 2}]
    drawn = 1
    while g.phase != "game_over":   # five rounds at most: at most five cards drawn
        g.pass_plot_cards()
        if g.phase == "team_selection":
            g.propose([g.kmotr, (g.kmotr + 1) % 5][:g.view()["team_size"]] if g.view()["team_size"] == 2
                      else [(g.kmotr + i) % 5 for i in range(g.view()["team_size"])])
            g.vote()
            g.pass_plot_cards()
            g.play()
            g.pass_plot_cards()
    assert g.state["plot"]["next_id"] - 1 <= 5 and len(g.state["secret"]["plot"]["deck"]) >= 2


def test_A_S15_strong_leader_at_round_start_deals_the_plot_cards():
    from tests.engines.mafie_helpers import Table

    deck = ordered_deck(9, ["strong_leader", "keeping_close_eye", "keeping_close_eye",
                            "no_confidence", "opinion_maker", "in_the_spotlight"])
    g = Table(9, detectives={0, 5, 8}, kmotr=3, plot_deck=deck, plot_cards=True)
    g.ready_all()
    for card_id, seat in ((1, 7), (2, 1), (3, 2)):
        g.act(3, {"type": "assign_plot_card", "card": card_id, "to": seat})
    g.propose([3, 4, 6])
    g.vote()
    g.play()
    assert window(g) == ("close_eye", 1)
    g.act(1, {"type": "pass_plot"})
    g.act(2, {"type": "pass_plot"})
    g.close_window()
    # Action 2 starts with Kmotr P4; P7's Strong Leader is asked before the deal.
    assert g.state["round"] == 2 and g.kmotr == 4 and window(g) == ("pre_proposal", 7)
    g.act(7, {"type": "play_plot_card", "card": 1})
    assert g.kmotr == 7 and g.phase == "plot_deal" and len(g.view()["plot"]["drawn"]) == 3
    assert mafie_waiting(g) == [7]   # P7 deals the round's cards
    g.refuse(7, {"type": "assign_plot_card", "card": 4, "to": 7}, "plot_to_self")
    for card_id, seat in ((4, 0), (5, 2), (6, 5)):
        g.act(7, {"type": "assign_plot_card", "card": card_id, "to": seat})
    assert g.phase == "team_selection" and g.kmotr == 7 and g.view()["team_size"] == 4


def test_A_S16_opinion_makers_at_6_and_at_8_players():
    g = table_with(["opinion_maker"], to=[2], players=6, detectives={0, 5}, kmotr=0)   # 1 card a round
    g.propose([0, 1] if g.view()["team_size"] == 2 else [0, 1, 3])
    assert mafie_waiting(g) == [2]
    g.act(2, {"type": "vote", "approve": False})
    assert g.view()["opinion"]["votes"] == [[2, False]]
    narration = [n["code"] for n in g.state["narration"]]
    assert "opinion_votes" in narration
    g2 = table_with(["opinion_maker", "opinion_maker"], to=[2, 5], players=8, detectives={0, 3, 6}, kmotr=0)
    g2.propose([0, 1, 3][:g2.view()["team_size"]])
    assert mafie_waiting(g2) == [2, 5]
    g2.act(5, {"type": "vote", "approve": True})
    assert g2.view()["opinion"]["votes"] is None   # secret until both are in
    g2.act(2, {"type": "vote", "approve": True})
    assert g2.view()["opinion"]["votes"] == [[2, True], [5, True]] and len(mafie_waiting(g2)) == 6


def test_A_S18_in_the_spotlight_on_a_two_fail_action():
    from tests.engines.mafie_helpers import Table

    g = Table(7, detectives={2, 4, 6}, kmotr=0, plot_deck=ordered_deck(7, ["in_the_spotlight", "opinion_maker"]),
              plot_cards=True)
    g.ready_all()
    g.act(0, {"type": "assign_plot_card", "card": 1, "to": 1})
    g.act(0, {"type": "assign_plot_card", "card": 2, "to": 3})
    for _ in range(3):   # actions 1–3: successes and failures so that action 4 comes (S, F, F)
        g.pass_plot_cards()
        size = g.view()["team_size"]
        crew = [0, 1, 3, 5][:size] if g.state["round"] == 1 else [0, 2, 4, 6][:size]
        g.propose(crew)
        g.vote()
        g.pass_plot_cards()
        g.play(fails={2} if g.state["round"] > 1 else set())
        g.pass_plot_cards()
    assert g.state["round"] == 4 and g.view()["fails_needed"] == 2
    g.pass_plot_cards()
    g.propose([0, 2, 4, 6])
    g.vote()
    while window(g)[0] != "spotlight":   # no No Confidence played
        kind, asked = window(g)
        g.act(asked, {"type": "pass_plot"}) if asked is not None else g.close_window()
    assert window(g) == ("spotlight", 1)
    g.act(1, {"type": "play_plot_card", "card": 1, "target": 6})
    g.close_window()
    g.play(fails={6})
    g.pass_plot_cards()   # a Close Eye may look before the reveal
    last = g.view()["last_action"]
    assert last["slot"] == 4 and last["result"] == "success" and last["fails"] == 1   # f = 1 < 2
    assert last["spotlight"] == {"seat": 6, "card": "fail"}


def test_A_S20_establish_confidence_and_open_up():
    from tests.engines.mafie_helpers import Table

    g = Table(9, detectives={0, 4, 7}, kmotr=0,
              plot_deck=ordered_deck(9, ["establish_confidence", "open_up", "no_confidence"]), plot_cards=True)
    g.ready_all()
    g.act(0, {"type": "assign_plot_card", "card": 1, "to": 3})
    assert g.view(3)["me"]["plot_learnt"] == [{"id": 1, "card": "establish_confidence", "about": 0, "role": "detective"}]
    g.act(0, {"type": "assign_plot_card", "card": 2, "to": 5})
    g.act(5, {"type": "open_up", "target": 8})
    assert g.view(8)["me"]["plot_learnt"] == [{"id": 2, "card": "open_up", "about": 5, "role": "mafioso"}]
    g.act(0, {"type": "assign_plot_card", "card": 3, "to": 7})
    assert g.view()["plot"]["held"] == [{"id": 3, "card": "no_confidence", "holder": 7}]   # face up
    assert all(g.view(seat)["me"]["plot_learnt"] == [] for seat in (0, 1, 2, 4, 5, 6, 7))


def test_take_responsibility_can_take_the_opinion_maker_which_then_works_for_its_new_holder():
    g = table_with(["opinion_maker", "take_responsibility"], to=[4, 2])
    g.act(2, {"type": "take_plot_card", "target": 4, "card": 1})
    g.propose([0, 1])
    assert mafie_waiting(g) == [2]


def test_with_targeting_the_deal_comes_once_per_action_attempt_not_per_proposal():
    from tests.engines.mafie_helpers import Table

    g = Table(7, detectives={1, 4, 6}, kmotr=0, plot_deck=ordered_deck(7, ["opinion_maker", "keeping_close_eye"]),
              plot_cards=True, targeting=True)
    g.ready_all()
    g.act(0, {"type": "assign_plot_card", "card": 1, "to": 3})
    g.act(0, {"type": "assign_plot_card", "card": 2, "to": 5})
    g.propose([0, 1], slot=1)
    g.vote(approve=set())                 # rejected: the same attempt goes on, no new deal
    assert g.phase == "team_selection" and g.state["plot"]["next_id"] == 3
