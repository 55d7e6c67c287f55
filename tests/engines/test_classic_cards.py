"""GRANNA's extended version, card by card: the action cards and the New Gang (rules B.3.4,
B.3.5), the acceptance scenarios B-S15, B-S17, B-S18, B-S20, and the rules between the cards.

"rules B.3.4" = docs/rules/classic-mafia.md; GRANNA's Ukrainian rulebook is the authority.
Roles and cards are forced with ``deal=`` (classic_helpers.Table's ``cards``); the extended
version's rules are not the host's options yet (engines/classic/editions.py EXTENDED_OPTIONS).
"""

from __future__ import annotations

import pytest

from engines import chance, registry
from engines.base import HOST, PUBLIC, resolve_options
from engines.classic import cards as C
from tests.engines.classic_helpers import M, P, Table, codes, deal, kinds, only

GRANNA = "granna"
N = "neutral"


def dealt(players: int, **held: int) -> list[str]:
    """One card per seat: ``card=seat`` for each action card, neutral elsewhere."""
    cards = [N] * players
    for card, seat in held.items():
        cards[seat] = card
    return cards


def table(roles: list[str], cards: list[str], **options) -> Table:
    return Table(GRANNA, roles, cards=cards, action_cards=True, **options)


def out(t: Table) -> dict[int, str]:
    """Eliminated seat → cause, from the TV's view."""
    return {seat: entry["cause"] for seat, entry in enumerate(t.view()["seats"]) if not entry["alive"]}


def face_up(t: Table) -> list[tuple[int, str]]:
    return [(entry["seat"], entry["card"]) for entry in t.view()["cards"]["face_up"]]


def vote_in_turn(t: Table, votes: dict[int, int]) -> None:
    """The Leader's round: each voter in turn, as the engine awaits them."""
    while t.phase in ("vote", "final_vote", "re_vote"):
        [voter] = t.ruleset.waiting_for(t.state)
        t.act(voter, {"type": "vote", "target": votes[voter]})


# --------------------------------------------------------------------------------------------
# The acceptance scenarios (rules B.5)
# --------------------------------------------------------------------------------------------

def test_B_S15_vest():
    """P5 (Policeman) holds the Vest; the mafia picks him: "The Mafia struck at P5", he plays
    it, nobody dies, his token stays hidden, the Vest lies face up.  Two nights later the mafia
    picks him again and he dies."""
    t = table(deal(12, mafiosi=[1, 2], agent=0), dealt(12, vest=5))
    t.night(check=1, kill=5)
    assert t.window == {"kind": "dawn", "target": 5, "round": 1, "then": "discussion"}
    assert "struck" in codes(t.state) and only(t.last, "struck").audience == PUBLIC
    tv = t.view()
    assert {"type": "play_card", "card": "vest"} in t.moves(5)
    played = t.play(5, "vest")
    assert kinds(played) == ["card_pending"] and played[0].audience == [5]
    assert t.view() == tv                                    # the TV learns nothing before the end
    assert t.view(5)["me"]["card"]["pending"] == {"card": "vest", "target": None}
    assert t.view(5)["me"]["moves"] == []                    # one play per window
    t.timeout()
    assert only(t.last, "card_save").data == {"seat": 5, "by": 5, "card": "vest"}
    assert out(t) == {} and t.view()["seats"][5]["role"] is None
    assert face_up(t) == [(5, "vest")] and "saved_by_vest" in codes(t.state)
    assert t.phase == "discussion" and t.view()["dawn"]["deaths"] == []
    t.lynch(11)
    t.night(check=2, kill=9)            # no window any more: the only Vest is spent
    assert out(t) == {11: "lynch", 9: "night"} and t.phase == "discussion"
    t.lynch(10)
    t.night(check=3, kill=5)
    assert out(t)[5] == "night" and t.view()["seats"][5]["role"] == P


def test_B_S17_leader_tie_break_and_sequential_voting():
    """Leader with P4: the first vote is cast publicly one at a time from P4 clockwise; a tie for
    the most → P4 points at one of the tied, who is out with no runoff; at the end of the day
    the card passes to P5."""
    t = table(deal(12, mafiosi=[1, 2], agent=0), dealt(12, leader=4))
    assert only(t.events, "card_played").data == {"seat": 4, "card": "leader", "round": 0, "target": None}
    assert t.view()["cards"]["leader"] == 4 and "leader_shown" in codes(t.state)
    t.night(check=1, kill=11)
    t.end_discussion()
    assert t.view()["vote"]["order"] == [4, 5, 6, 7, 8, 9, 10, 0, 1, 2, 3]
    assert t.ruleset.waiting_for(t.state) == [4]
    t.refuse(5, {"type": "vote", "target": 6}, "not_your_turn")
    votes = {4: 6, 5: 6, 6: 7, 7: 6, 8: 7, 9: 6, 10: 7, 0: 7, 1: 8, 2: 8, 3: 8}   # 6: 4, 7: 4, 8: 3
    t.act(4, {"type": "vote", "target": 6})
    cast = only(t.last, "vote_cast")
    assert cast.audience == PUBLIC and cast.data == {"seat": 4, "target": 6}     # public at once
    assert t.view(None)["vote"]["cast"] == [{"seat": 4, "target": 6}]
    vote_in_turn(t, votes)
    assert t.phase == "leader_pick" and t.view()["cards"]["leader_pick"] == [6, 7]
    assert t.moves(4) == [{"type": "leader_pick", "target": 6}, {"type": "leader_pick", "target": 7}]
    t.refuse(5, {"type": "leader_pick", "target": 6}, "not_your_turn")
    t.refuse(4, {"type": "leader_pick", "target": 8}, "not_on_ballot")
    t.act(4, {"type": "leader_pick", "target": 6})
    assert out(t) == {11: "night", 6: "lynch"} and not t.state["finalists"]
    assert only(t.last, "leader_passed").data == {"from": 4, "to": 5}
    assert t.view()["cards"]["leader"] == 5 and t.phase == "agent" and t.state["round"] == 2


def test_B_S18_safe_conduct_and_arrest():
    """End of day 2: P6 plays Safe-Conduct → night 3 he is no mafia target; day 3 he may be
    voted for and lynched.  Start of day 3: P9 plays Arrest → not on any ballot; he still votes."""
    t = table(deal(12, mafiosi=[1, 2], agent=0), dealt(12, safe_conduct=6, arrest=9))
    t.night(check=1, kill=11)
    assert t.window["kind"] == "day_start"      # Arrest is in the box: the window opens for all
    t.windows()
    t.lynch(10)
    assert t.window["kind"] == "day_end"
    t.windows()
    t.night(check=2, kill=8)
    t.windows()
    t.lynch(7)
    t.windows({"day_end": {6: ("safe_conduct",)}})
    assert (6, "safe_conduct") in face_up(t) and t.state["round"] == 3
    assert {"seat": 6, "kind": "safe", "card": "safe_conduct"} in t.view()["cards"]["badges"]
    t.act(0, {"type": "check", "target": 3})
    t.timeout()
    assert t.phase == "mafia"
    assert {"type": "pick_victim", "target": 6} not in t.moves(1)
    t.refuse(1, {"type": "pick_victim", "target": 6}, "protected")
    t.night(kill=5)
    t.windows({"day_start": {9: ("arrest",)}})
    assert {"seat": 9, "kind": "arrested", "card": "arrest"} in t.view()["cards"]["badges"]
    assert all(badge["kind"] != "safe" for badge in t.view()["cards"]["badges"])   # its night is over
    t.end_discussion()
    assert 9 not in t.state["vote"]["ballot"] and 9 in t.view()["vote"]["voters"] and 6 in t.state["vote"]["ballot"]
    t.refuse(0, {"type": "vote", "target": 9}, "not_on_ballot")
    living = t.living
    t.vote({voter: 6 if voter != 6 else 0 for voter in living})
    assert t.state["last_vote"]["votes"][9] == 6          # the arrested player voted
    t.end_defence()
    t.vote({voter: 6 if voter != 6 else 0 for voter in living})
    assert out(t)[6] == "lynch"


def test_B_S20_new_gang_three_forces():
    """R=15, New Gang with P2 (Mafioso), P8, P11 (Policemen): they meet between the Agent and the
    Mafia in round 1; with every ordinary Policeman and the Agent gone the game goes on; the
    last ordinary Mafioso lynched → the New Gang wins, its dead too."""
    cards = [C.NEW_GANG if seat in (2, 8, 11) else N for seat in range(15)]
    t = table(deal(15, mafiosi=[2, 3, 4], agent=0), cards, new_gang=True)
    assert t.state["night_steps"] == ["agent", "new_gang", "mafia"]
    t.act(0, {"type": "check", "target": 1})
    t.timeout()
    assert t.phase == "new_gang" and t.state["clock"]["seconds"] == 8    # as long as any step
    meeting = only(t.last, "new_gang_meeting")
    assert meeting.audience == [2, 8, 11] and meeting.data == {"members": [2, 8, 11]}
    assert t.view(8)["me"]["card"]["gang"] == [2, 8, 11] and t.view(3)["me"]["card"]["gang"] is None
    assert t.moves(8) == [] and t.ruleset.waiting_for(t.state) == []
    t.timeout()
    t.night(kill=9)
    for seat in (0, 1, 5, 6, 7, 10, 12, 13, 14):        # every ordinary Policeman and the Agent
        t.act(HOST, {"type": "remove_player", "seat": seat})
        assert t.state["outcome"] is None
    t.lynch(3)
    assert t.state["outcome"] is None
    t.night(kill=8)                       # P2, a Mafioso of the New Gang, wakes with the mafia
    assert (8, C.NEW_GANG) in face_up(t) and "new_gang_shown" in codes(t.state)   # shown at death
    assert t.state["outcome"] is None
    t.lynch(4)
    assert t.state["outcome"] == {"winner": "new_gang", "reason": "last_force", "winners": [2, 8, 11]}
    assert "new_gang_win" in codes(t.state)
    reveal = t.view()["reveal"]
    assert reveal["gang"] == [2, 8, 11] and reveal["cards"][2] == C.NEW_GANG


# --------------------------------------------------------------------------------------------
# The box and the deal (rules B.3.4 "Dealing")
# --------------------------------------------------------------------------------------------

def extended_options(**changes):
    ruleset = registry.engine(GRANNA)
    return {**resolve_options(ruleset, {}), "action_cards": True, **changes}


def test_the_box_holds_at_most_one_action_card_per_four_players_and_a_card_for_everyone():
    ruleset = registry.engine(GRANNA)
    state, events = ruleset.setup(12, extended_options(), 5)
    box = state["cards"]["box"]
    assert len(box) == 3 and set(box) <= C.RECOMMENDED and state["cards"]["neutral"] == 9
    [draw] = [event for event in events if event.kind == "chance" and event.data["label"] == "card_box"]
    assert draw.audience == PUBLIC and draw.data["why"] == "cap"       # 6 chosen, room for 3
    [shuffle] = [event for event in events if event.kind == "chance" and event.data["label"] == "card_deal"]
    assert shuffle.audience == "nobody" and shuffle.data["result"] == state["secret"]["cards"]["dealt"]
    assert sorted(card for card in state["secret"]["cards"]["dealt"] if card != N) == sorted(box)
    assert only(events, "cards_shown").data == {"box": box, "neutral": 9}
    for seat in range(12):
        [mine] = [event for event in events if event.kind == "card" and event.audience == [seat]]
        assert mine.data["card"] == state["secret"]["cards"]["dealt"][seat]


def test_few_enough_chosen_cards_all_go_in_without_a_draw():
    ruleset = registry.engine(GRANNA)
    chosen = {f"card_{card}": card in ("vest", "capture") for card in C.SINGLE_CARDS}
    state, events = ruleset.setup(12, extended_options(**chosen), 5)
    assert state["cards"]["box"] == ["vest", "capture"]
    assert not [data for data in chance.draws(events) if data["label"] == "card_box"]


def test_new_gang_goes_in_from_fourteen_players_and_counts_three():
    ruleset = registry.engine(GRANNA)
    small, _ = ruleset.setup(13, extended_options(new_gang=True), 5)
    assert C.NEW_GANG not in small["cards"]["box"] and not small["cards"]["new_gang"]
    big, _ = ruleset.setup(16, extended_options(new_gang=True), 5)
    assert big["cards"]["box"].count(C.NEW_GANG) == 3 and len(big["cards"]["box"]) == 4


def test_the_extended_version_is_offered_to_grannas_hosts_under_action_cards():
    """Rules B.3.4: the host picks the cards; each card, the New Gang and the window's length
    are offered only under ``action_cards``; the Polish edition has no action cards."""
    options = {option.key: option for option in registry.get(GRANNA).options()}
    assert options["action_cards"].default is False
    dependent = ["new_gang", "window_seconds", *(C.card_option(card) for card in C.SINGLE_CARDS)]
    assert all(options[key].requires == "action_cards" for key in dependent)
    assert {card for card in C.SINGLE_CARDS if options[C.card_option(card)].default} == C.RECOMMENDED
    assert "action_cards" not in {option.key for option in registry.get("mafia_pl").options()}
    with pytest.raises(ValueError):
        registry.engine(GRANNA).setup(12, extended_options(window_seconds="7"), 1)


# --------------------------------------------------------------------------------------------
# Card by card
# --------------------------------------------------------------------------------------------

def test_bandage_saves_another_player_at_dawn_not_its_holder():
    t = table(deal(12, mafiosi=[1, 2], agent=0), dealt(12, bandage=7))
    t.night(check=1, kill=7)
    assert t.moves(7) == []              # "він не може врятувати сам себе"
    t.timeout()
    assert out(t) == {7: "night"}
    assert t.view()["cards"]["face_up"] == [] and t.view(7)["me"]["card"]["used"] is False
    t.lynch(11)
    t.windows()                          # the lynch's window (the Bandage is unplayed: it opens)
    t.night(check=1, kill=5)
    assert t.moves(3) == [] and t.moves(7) == []          # the dead do not bandage
    t.timeout()
    assert out(t)[5] == "night"


def test_bandage_saves_at_dawn_and_the_vest_goes_first():
    t = table(deal(12, mafiosi=[1, 2], agent=0), dealt(12, vest=5, bandage=3))
    t.night(check=1, kill=5)
    t.play(3, "bandage")
    t.play(5, "vest")
    t.timeout()
    assert only(t.last, "card_save").data == {"seat": 5, "by": 5, "card": "vest"}
    assert face_up(t) == [(5, "vest")]
    assert t.view(3)["me"]["card"] == {"card": "bandage", "usable": True, "used": False, "pending": {"card": None, "target": None},
                                       "gang": None, "recruited": False}    # unneeded: back in hand, secret
    t.lynch(11)
    t.windows()
    t.night(check=1, kill=6)
    t.play(3, "bandage")
    t.timeout()
    assert only(t.last, "card_save").data == {"seat": 6, "by": 3, "card": "bandage"}
    assert "saved_by_bandage" in codes(t.state) and out(t) == {11: "lynch"}


def test_a_lynch_saved_by_a_bandage_means_nobody_is_lynched_that_day():
    t = table(deal(12, mafiosi=[1, 2], agent=0), dealt(12, bandage=3))
    t.night(check=1, kill=11)
    t.timeout()                                           # the dawn's window, nobody plays
    t.lynch(6)
    assert t.window == {"kind": "lynch", "target": 6, "round": 1, "then": "night"}
    assert "condemned" in codes(t.state)
    t.play(3, "bandage")
    t.timeout()
    assert only(t.last, "card_save").data == {"seat": 6, "by": 3, "card": "bandage"}
    assert out(t) == {11: "night"} and t.state["round"] == 2 and t.phase == "agent"


def test_an_agent_holding_a_vest_has_a_neutral_card_and_no_move():
    t = table(deal(12, mafiosi=[1, 2], agent=0), dealt(12, vest=0))
    assert t.view(0)["me"]["card"]["usable"] is False
    t.night(check=1, kill=0)
    assert t.window["kind"] == "dawn" and t.moves(0) == []     # the window opens all the same
    t.refuse(0, {"type": "play_card", "card": "vest"}, "card_neutral")
    t.timeout()
    assert out(t) == {0: "night"}


def test_recruitment_wakes_the_recruit_with_the_mafia_who_alone_learn_who():
    t = table(deal(12, mafiosi=[1, 2], agent=0), dealt(12, recruitment=1))
    t.act(0, {"type": "check", "target": 5})
    t.timeout()
    assert {"type": "play_card", "card": "recruitment", "target": 5} in t.moves(1)
    assert not [move for move in t.moves(2) if move["type"] == "play_card"]   # not his card
    events = t.play(1, "recruitment", 5)
    assert only(events, "recruited").audience == [1, 2, 5]
    assert only(events, "recruited").data == {"seat": 1, "recruit": 5, "round": 1}
    assert only(events, "recruitment").audience == PUBLIC and only(events, "recruitment").data == {"round": 1}
    assert "recruitment" in codes(t.state)
    assert t.view(5)["me"]["team"] == "mafia" and t.view(5)["me"]["partners"] == [1, 2]
    assert t.view(1)["me"]["partners"] == [2, 5]
    assert t.view(None)["cards"]["face_up"] == []        # not face up: it would out the holder
    assert {"type": "pick_victim", "target": 5} not in t.moves(1)
    for seat in (1, 2):
        t.act(seat, {"type": "pick_victim", "target": 9})
    assert t.state["secret"]["night"]["locked"] is None   # the recruit's pick is awaited too
    t.act(5, {"type": "pick_victim", "target": 9})
    assert t.state["secret"]["night"]["locked"] == 9
    t.timeout()
    # both mafiosi out: the recruit plays on for the mafia; his death shows his token
    t.act(HOST, {"type": "remove_player", "seat": 1})
    t.act(HOST, {"type": "remove_player", "seat": 2})
    assert t.state["outcome"] is None
    t.lynch(5)
    assert t.view()["seats"][5]["role"] == P
    assert t.state["outcome"]["winner"] == "police" and 5 not in t.state["outcome"]["winners"]


def test_turncoat_inverts_the_team_and_is_never_shown():
    t = table(deal(8, mafiosi=[1, 2], agent=0), dealt(8, turncoat=1))
    assert t.view(1)["me"]["team"] == "police" and t.view(1)["me"]["role"] == M
    t.night(check=2, kill=5)
    assert 1 in t.state["secret"]["met"][2]          # his token says Mafioso: he wakes with them
    t.lynch(2)
    # the only other Mafioso token is the turncoat's: the Police have won
    assert t.state["outcome"] == {"winner": "police", "reason": "mafia_eliminated",
                                  "winners": [0, 1, 3, 4, 5, 6, 7]}
    assert t.view()["reveal"]["turncoats"] == [1]


def test_recruitment_then_turncoat_gives_the_effective_team():
    """rules B.3.4 "Effective team": token → Recruitment (→ Mafia) → Turncoat (invert)."""
    t = table(deal(12, mafiosi=[1, 2], agent=0), dealt(12, recruitment=1, turncoat=6))
    assert C.effective_team(t.state, 6) == "mafia"        # a Policeman's token, turned
    t.act(0, {"type": "check", "target": 5})
    t.timeout()
    t.play(1, "recruitment", 6)
    assert C.effective_team(t.state, 6) == "police" and t.view(6)["me"]["team"] == "police"
    assert t.view()["cards"]["face_up"] == []


def test_role_swap_is_shown_at_setup_and_its_holder_may_swap_tokens():
    t = table(deal(8, mafiosi=[1, 2], agent=0), dealt(8, role_swap=4))
    assert t.phase == "role_swap" and face_up(t) == [(4, "role_swap")]
    assert t.ruleset.waiting_for(t.state) == [4] and {"type": "decline_swap"} in t.moves(4)
    t.refuse(3, {"type": "decline_swap"}, "not_your_turn")
    events = t.play(4, "role_swap", 1)
    assert only(events, "roles_swapped").data == {"seat": 4, "target": 1}
    assert [event.audience for event in events if event.kind == "role"] == [[4], [1]]
    assert t.roles[4] == M and t.roles[1] == P and t.phase == "agent"
    assert t.view()["cards"]["role_swap"] == {"holder": 4, "target": 1}
    assert t.view(4)["me"]["card"]["used"] is True


def test_role_swap_declined_or_left_to_its_deadline_swaps_nothing():
    t = table(deal(8, mafiosi=[1, 2], agent=0), dealt(8, role_swap=4))
    t.act(4, {"type": "decline_swap"})
    assert t.phase == "agent" and t.roles[4] == P
    t = table(deal(8, mafiosi=[1, 2], agent=0), dealt(8, role_swap=4))
    t.timeout()
    assert t.phase == "agent" and kinds(t.last)[0] == "swap_declined"


def test_role_swap_held_by_the_agent_is_shown_but_does_nothing():
    t = table(deal(8, mafiosi=[1, 2], agent=4), dealt(8, role_swap=4))
    assert t.phase == "role_swap" and t.moves(4) == [{"type": "decline_swap"}]


def _to_day_end(t: Table, victim: int, lynched: int, check: int = 1) -> None:
    """Night 1 (the agent checks ``check``, the mafia kills ``victim``), the day's windows, a
    lynch, up to the end-of-day window."""
    t.night(check=check, kill=victim)
    t.windows()
    t.lynch(lynched)


@pytest.mark.parametrize("card", ["wiretap", "hideout"])
def test_wiretap_and_hideout_make_the_holder_untouchable_next_round(card):
    t = table(deal(12, mafiosi=[1, 2], agent=0), dealt(12, **{card: 6, "corner_shot": 7}))
    _to_day_end(t, victim=11, lynched=10)
    assert t.window["kind"] == "day_end"
    t.windows({"day_end": {6: (card,)}})
    assert {"seat": 6, "kind": "untouchable", "card": card} in t.view()["cards"]["badges"]
    t.act(0, {"type": "check", "target": 3})
    t.timeout()
    assert {"type": "pick_victim", "target": 6} not in t.moves(1)
    t.night(kill=9)
    t.windows()
    assert {"type": "play_card", "card": "corner_shot", "target": 6} not in t.moves(7)   # no Corner Shot at him
    t.end_discussion()
    assert 6 not in t.state["vote"]["ballot"] and 6 not in t.view()["vote"]["voters"]
    assert t.moves(6) == []
    t.refuse(6, {"type": "vote", "target": 3}, "no_ballot")


def test_capture_takes_a_players_ballot_but_he_may_be_voted_for():
    t = table(deal(12, mafiosi=[1, 2], agent=0), dealt(12, capture=3))
    t.night(check=1, kill=11)
    assert t.window["kind"] == "day_start"
    assert {"type": "play_card", "card": "capture", "target": 8} in t.moves(3)
    t.windows({"day_start": {3: ("capture", 8)}})
    assert {"seat": 8, "kind": "captured", "card": "capture"} in t.view()["cards"]["badges"]
    t.end_discussion()
    assert 8 in t.state["vote"]["ballot"] and 8 not in t.view()["vote"]["voters"]
    t.refuse(8, {"type": "vote", "target": 3}, "no_ballot")


def test_capture_and_corner_shot_are_policemen_only():
    t = table(deal(12, mafiosi=[1, 2], agent=0), dealt(12, capture=1, corner_shot=2))
    t.night(check=3, kill=11)
    assert t.window["kind"] == "day_start" and t.moves(1) == []
    assert t.view(1)["me"]["card"]["usable"] is False
    t.windows()
    assert t.moves(2) == [] and t.view(2)["me"]["card"]["usable"] is False


def test_corner_shot_kills_at_once_in_the_talk_and_no_vest_stops_it():
    t = table(deal(12, mafiosi=[1, 2], agent=0), dealt(12, corner_shot=7, vest=1))
    t.night(check=3, kill=11)
    t.windows()
    assert t.phase == "discussion"
    events = t.play(7, "corner_shot", 1)
    assert only(events, "card_played").data == {"seat": 7, "card": "corner_shot", "round": 1, "target": 1}
    assert out(t) == {11: "night", 1: "corner_shot"} and t.view()["seats"][1]["role"] == M
    assert t.phase == "discussion" and "window_opened" not in kinds(events)
    assert t.moves(7) == []


def test_corner_shot_is_not_offered_during_a_vote_nor_to_the_player_the_mafia_struck():
    t2 = table(deal(12, mafiosi=[1, 2], agent=0), dealt(12, corner_shot=7, bandage=5))
    t2.night(check=3, kill=7)
    t2.play(5, "bandage")
    t2.timeout()
    assert out(t2) == {} and t2.phase == "discussion"
    # "Якщо Мафіози вказали на тебе у фазі Поліції, ти не можеш використовувати цю картку"
    assert t2.moves(7) == []
    t3 = table(deal(12, mafiosi=[1, 2], agent=0), dealt(12, corner_shot=7))
    t3.night(check=3, kill=11)
    t3.end_discussion()
    assert t3.moves(7) and all(move["type"] == "vote" for move in t3.moves(7))


def test_last_shot_card_when_its_holder_is_lynched_both_tokens_shown():
    t = table(deal(12, mafiosi=[1, 2], agent=0), dealt(12, last_shot=6))
    t.night(check=3, kill=11)
    assert t.window == {"kind": "last_shot", "target": 11, "round": 1, "then": "discussion"}  # 11 was a Policeman
    assert t.moves(11) == []           # not his card
    t.timeout()
    t.lynch(6)
    assert t.window["kind"] == "last_shot" and t.window["target"] == 6
    assert {"type": "play_card", "card": "last_shot", "target": 2} in t.moves(6)   # the dead shoot
    t.play(6, "last_shot", 2)
    t.timeout()
    assert only(t.last, "shot").data == {"shooter": 6, "target": 2}
    assert out(t) == {11: "night", 6: "lynch", 2: "last_shot"}
    assert t.view()["seats"][6]["role"] == P and t.view()["seats"][2]["role"] == M
    assert (6, "last_shot") in face_up(t)


def test_vest_and_bandage_do_not_stop_a_last_shot():
    """rules B.3.4: the Vest and the Bandage name only the mafia's kill and the vote."""
    t = table(deal(12, mafiosi=[1, 2], agent=0), dealt(12, last_shot=6, vest=2, bandage=3))
    t.night(check=1, kill=11)
    t.windows()
    t.lynch(6)
    assert t.window["kind"] == "lynch"
    t.timeout()
    assert t.window == {"kind": "last_shot", "target": 6, "round": 1, "then": "night"}
    t.play(6, "last_shot", 2)
    events = t.timeout()
    assert out(t)[2] == "last_shot" and "card_save" not in kinds(events)
    assert [event.data["kind"] for event in events if event.kind == "window_opened"] == []   # no reaction to it
    assert t.view(3)["me"]["card"]["used"] is False


def test_last_shots_chain_a_rule_shot_then_a_last_shot_card():
    """Large game (20 players), round 1: the night victim shoots (the rule); his target holds
    the Last Shot card and shoots in turn (rules B.3.4 PROPOSED: chains allowed)."""
    t = table(deal(20, mafiosi=[1, 2, 3, 4, 5], agent=0), dealt(20, last_shot=8))
    t.night(check=3, kill=19)
    assert t.phase == "last_shot" and t.state["last_shot"]["shooter"] == 19
    t.act(19, {"type": "last_shot", "target": 8})
    # 19 was a Policeman too: his own window for the card comes first, then 8's
    assert t.window == {"kind": "last_shot", "target": 19, "round": 1, "then": "discussion"}
    t.timeout()
    assert t.window == {"kind": "last_shot", "target": 8, "round": 1, "then": "discussion"}
    t.play(8, "last_shot", 1)
    t.timeout()
    assert out(t) == {19: "night", 8: "last_shot", 1: "last_shot"}
    assert [death["seat"] for death in t.view()["dawn"]["deaths"]] == [19, 8, 1]
    t.windows()
    assert t.phase == "discussion"


def test_an_unused_card_stays_secret_after_its_holders_death_until_the_game_ends():
    t = table(deal(8, mafiosi=[1, 2], agent=0), dealt(8, vest=5, bandage=6))
    t.night(check=1, kill=3)
    t.timeout()
    t.lynch(6)
    t.timeout()                                              # the lynch's window, nobody plays
    tv = t.view()
    assert out(t) == {3: "night", 6: "lynch"}
    assert not tv["cards"]["face_up"] and tv["reveal"] is None and "card" not in tv["seats"][6]
    assert t.view(6)["me"]["card"]["card"] == "bandage"     # his own phone still shows it
    for seat in (1, 2):
        t.act(HOST, {"type": "remove_player", "seat": seat})
    reveal = t.view()["reveal"]
    assert reveal["cards"][6] == "bandage" and reveal["cards"][5] == "vest"
    assert reveal["cards_used"][6] is False and only(t.last, "game_over").data["cards"][6] == "bandage"


def test_the_leader_tie_break_covers_the_final_vote():
    t = table(deal(13, mafiosi=[1, 2, 3], agent=0), dealt(13, leader=4))
    t.night(check=1, kill=12)
    t.end_discussion()
    first = {voter: (6 if voter in (4, 5, 7, 8, 9) else 7 if voter in (6, 10, 11, 0) else 8)
             for voter in t.living}                          # 6: 5, 7: 4, 8: 3
    vote_in_turn(t, first)
    assert t.state["finalists"] == [6, 7]
    t.end_defence()
    vote_in_turn(t, {voter: 6 if voter % 2 else 7 for voter in t.living})     # 6: 6, 7: 6
    assert t.phase == "leader_pick" and t.state["cards"]["leader_pick"] == {"tied": [6, 7]}
    t.act(4, {"type": "leader_pick", "target": 7})
    assert out(t)[7] == "lynch" and "re_discussion" not in codes(t.state)


def test_the_leader_tie_break_covers_the_childrens_single_vote_and_its_deadline_is_the_coin():
    t = table(deal(12, mafiosi=[1, 2], agent=0), dealt(12, leader=4), coins=[7], kids_single_vote=True)
    t.night(check=1, kill=11)
    t.end_discussion()
    vote_in_turn(t, {4: 6, 5: 6, 6: 7, 7: 6, 8: 7, 9: 6, 10: 7, 0: 7, 1: 8, 2: 8, 3: 8})
    assert t.phase == "leader_pick"
    t.timeout()                                               # the Leader let it pass: the coin
    assert only(t.last, "coin").data == {"among": [6, 7], "seat": 7} and out(t)[7] == "lynch"


def test_the_leader_passes_at_once_when_its_holder_dies():
    t = table(deal(12, mafiosi=[1, 2], agent=0), dealt(12, leader=4))
    t.night(check=1, kill=4)
    assert only(t.last, "leader_passed").data == {"from": 4, "to": 5} and t.view()["cards"]["leader"] == 5


def test_no_legal_candidate_means_nobody_is_lynched():
    """The Mafioso left is Wiretapped, the Policeman left arrested: nobody may be voted for."""
    t = table(deal(8, mafiosi=[1, 2], agent=0), dealt(8, wiretap=1, arrest=3))
    t.night(check=1, kill=7)
    t.windows()
    t.lynch(6)
    t.windows({"day_end": {1: ("wiretap",)}})
    t.night(check=2, kill=5)
    t.windows({"day_start": {3: ("arrest",)}})
    for seat in (0, 2, 4):
        t.act(HOST, {"type": "remove_player", "seat": seat})
    t.end_discussion()
    assert "no_lynch" in kinds(t.last) and "no_lynch" in codes(t.state)
    assert t.state["round"] == 3 and out(t) == {7: "night", 6: "lynch", 5: "night", 0: "removed", 2: "removed",
                                                 4: "removed"}


def test_a_neutral_card_never_offers_a_move_and_is_never_shown():
    t = table(deal(12, mafiosi=[1, 2], agent=0), dealt(12, vest=5))
    assert t.view(3)["me"]["card"] == {"card": N, "usable": False, "used": False,
                                       "pending": {"card": None, "target": None}, "gang": None, "recruited": False}
    t.night(check=1, kill=3)
    assert t.window["kind"] == "dawn" and t.moves(3) == []
    t.refuse(3, {"type": "play_card", "card": N}, "card_neutral")
    t.refuse(3, {"type": "play_card", "card": "vest"}, "no_card")
    t.timeout()
    assert out(t) == {3: "night"} and face_up(t) == []


def test_the_host_removing_the_named_player_in_the_window_voids_it_and_his_play():
    t = table(deal(12, mafiosi=[1, 2], agent=0), dealt(12, vest=5, bandage=7))
    t.night(check=1, kill=5)
    t.play(7, "bandage")
    t.act(HOST, {"type": "remove_player", "seat": 7})       # his Bandage waiting: void
    t.timeout()
    assert out(t) == {7: "removed", 5: "night"} and face_up(t) == []
    t = table(deal(12, mafiosi=[1, 2], agent=0), dealt(12, vest=5))
    t.night(check=1, kill=5)
    t.play(5, "vest")
    t.act(HOST, {"type": "remove_player", "seat": 5})
    t.timeout()
    assert out(t) == {5: "removed"} and "card_save" not in kinds(t.last) and t.phase == "discussion"


def test_the_dead_play_no_card_but_their_last_shot():
    t = table(deal(12, mafiosi=[1, 2], agent=0), dealt(12, vest=5, corner_shot=6))
    t.night(check=1, kill=6)
    t.timeout()
    assert out(t) == {6: "night"} and t.moves(6) == []
    t.refuse(6, {"type": "play_card", "card": "corner_shot", "target": 1}, "dead")


# --------------------------------------------------------------------------------------------
# Anti-tell: a window is the same phase, length and shape on every phone (rules §0)
# --------------------------------------------------------------------------------------------

def _shape(value):
    """The fields of a view, all the way down (what a glance at a phone's layout shows)."""
    if isinstance(value, dict):
        return {key: _shape(inner) for key, inner in value.items()}
    return None


@pytest.mark.parametrize("holder", [5, 3, None])
def test_a_reaction_window_looks_the_same_on_every_living_phone_whoever_holds_a_card(holder):
    """The dawn's window opens and lasts its full length whether a Vest or a Bandage is held by
    the target, by another, or lies in nobody's hand among the living; on every living phone
    the public part is identical, the seat's own part has the same fields, and the clock is
    the same."""
    held = dealt(12, vest=holder) if holder == 5 else dealt(12, bandage=holder) if holder else dealt(12, bandage=11)
    t = table(deal(12, mafiosi=[1, 2], agent=0), held)
    if holder is None:
        t.act(HOST, {"type": "remove_player", "seat": 11})
    t.night(check=1, kill=5)
    assert t.window["kind"] == "dawn" and t.state["clock"]["seconds"] == 10
    views = {seat: t.view(seat) for seat in t.living}
    publics = [{key: value for key, value in view.items() if key != "me"} for view in views.values()]
    assert all(public == publics[0] for public in publics)
    assert publics[0] == {key: value for key, value in t.view(None).items() if key != "me"}
    shapes = {seat: _shape({key: value for key, value in view["me"].items()
                            if key not in ("moves", "partners", "checks", "role", "team")})
              for seat, view in views.items()}
    assert len({repr(shape) for shape in shapes.values()}) == 1
    tv = t.view(None)
    if holder is not None:
        t.play(holder, "vest" if holder == 5 else "bandage")
    assert t.view(None) == tv and t.state["clock"]["seconds"] == 10     # the full length, whoever played
    assert all(t.view(seat)["me"]["moves"] == [] or seat == holder for seat in t.living)


def test_in_random_games_every_window_looks_the_same_on_every_living_phone():
    """The property behind the test above, over the random extended games the engine suites
    play (tests/engines/playthrough.py CARD_GAMES): in every card window, every living phone
    shows the same public part and a part of its own with the same fields — whoever holds a
    card, whoever has played one — and each window lasts ``window_seconds`` in full."""
    from tests.engines.playthrough import card_games, playthroughs

    ruleset = registry.engine(GRANNA)
    windows = 0
    for options in card_games(ruleset):
        for play in playthroughs(ruleset, options, seeds=(0,)):
            for step in play.steps:
                state = step.before
                if state["phase"] != "card_window":
                    continue
                windows += 1
                living = [seat for seat in range(play.players) if state["dead"][seat] is None]
                views = [ruleset.view(state, seat) for seat in living]
                public = {key: value for key, value in ruleset.view(state, None).items() if key != "me"}
                assert all({key: value for key, value in view.items() if key != "me"} == public for view in views)
                shapes = {repr(_shape({key: value for key, value in view["me"].items()
                                       if key not in ("moves", "partners", "checks", "role", "team", "ghost")}))
                          for view in views}
                assert len(shapes) == 1, (play, state["cards"]["window"])
                assert state["clock"]["seconds"] == int(options.get("window_seconds", "10"))
    assert windows > 50
