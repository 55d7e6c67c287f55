"""Mafie, rule by rule: the worked scenarios of rules A.5 and the rules of A.1–A.4.

"rules A.x" = docs/rules/mafie.md; MINDOK's Czech "Mafie" rulebook
is the authority.  Roles and the first Kmotr are forced with ``deal=``.
"""

import pytest
from django.utils import translation

from engines import chance, mafie
from engines.mafie import moves, plot_cards
from engines.base import NOBODY, PUBLIC, IllegalAction, MalformedAction, resolve_options
from mafiagames.presenters import presenter
from tests.engines.mafie_helpers import RULESET, Table, codes, kinds, only, roles
from tests.engines.playthrough import random_playthrough

S, F = "S", "F"


def narration(state):
    return [(item["code"], item["params"]) for item in state["narration"]]


# --------------------------------------------------------------------------------------------
# A.5 acceptance scenarios
# --------------------------------------------------------------------------------------------

def test_A_S01_five_players_mafia_wins_3_1():
    """rules A-S01; Czech rulebook, Konec hry: three successful actions win for the mafia."""
    g = Table(5, detectives={3, 4}, kmotr=0)
    g.ready_all()
    assert (g.phase, g.view()["team_size"]) == ("team_selection", 2)

    # Action 1 (size 2): P0 proposes {P0, P1}; P0–P2 approve, P3–P4 reject: 3 ≥ 3.
    proposal = g.propose([1, 0])
    assert kinds(proposal) == ["team_proposed"]
    assert proposal[0].data == {"kmotr": 0, "slot": 1, "team": [0, 1]}
    assert (g.phase, g.view()["team"]) == ("team_vote", [0, 1])
    reveal = g.vote(approve={0, 1, 2})
    assert kinds(reveal) == ["vote_cast", "votes_revealed"]
    assert only(reveal, "votes_revealed").data == {
        "kmotr": 0, "slot": 1, "team": [0, 1], "votes": [True, True, True, False, False],
        "approve": 3, "reject": 2, "approved": True}
    assert g.phase == "action_play"
    assert narration(g.state) == [("approved", {"approve": 3, "reject": 2}), ("action_play", {})]
    reveal = g.play()
    assert kinds(reveal) == ["card_played", "action_cards", "action_revealed", "kmotr_passed",
                             "round_started"]
    assert only(reveal, "action_revealed").data == {"slot": 1, "successes": 2, "fails": 0,
                                                   "result": "success"}
    assert (g.results, g.kmotr, g.state["round"]) == ([S, None, None, None, None], 1, 2)

    # Action 2 (size 3): {P1, P2, P3} approved; S, S, F → FAIL.  Kmotr → P2.
    g.job([1, 2, 3], fails={3})
    assert (g.results, g.kmotr) == ([S, F, None, None, None], 2)
    assert g.state["track"][1] == {"result": "fail", "fails": 1}

    # Action 3 (size 2): {P0, P2} approved; S, S → SUCCESS.  Kmotr → P3.
    g.job([0, 2])
    assert (g.results, g.kmotr) == ([S, F, S, None, None], 3)

    # Action 4 (size 3; N < 7 so one fail would do): two rejections, then P0's crew goes.
    g.propose([3, 4, 0])
    g.vote(approve={3, 4})
    assert (g.state["rejections"], g.kmotr, g.phase) == (1, 4, "team_selection")
    g.propose([4, 1, 2])
    g.vote(approve={3, 4})
    assert (g.state["rejections"], g.kmotr) == (2, 0)
    g.propose([0, 1, 2])
    g.vote(approve={0, 1, 2})
    assert (g.state["rejections"], g.phase) == (0, "action_play")
    end = g.play()

    assert g.results == [S, F, S, S, None]      # action 5 is never played
    assert g.phase == "game_over" and RULESET.waiting_for(g.state) == []
    assert RULESET.outcome(g.state).to_json() == {
        "winner": "mafia", "reason": "three_successes", "winners": [0, 1, 2]}
    assert kinds(end) == ["card_played", "action_cards", "action_revealed", "game_over"]
    assert only(end, "game_over").data == {
        "winner": "mafia", "reason": "three_successes", "winners": [0, 1, 2],
        "roles": roles(5, {3, 4})}
    assert narration(g.state) == [
        ("reveal", {"successes": 3, "fails": 0, "result": "success"}), ("mafia_win", {})]
    assert [vote["approved"] for vote in g.view()["vote_history"]] == [
        True, True, True, False, False, True]


def test_A_S02_tie_is_a_rejection():
    """rules A-S02; Czech rulebook, Hlasování o týmu: a tie is a rejection (4 of 6 needed)."""
    g = Table(6, detectives={0, 5}, kmotr=2)
    g.ready_all()
    g.propose([2, 3])
    reveal = g.vote(approve={0, 1, 2})
    assert only(reveal, "votes_revealed").data["approved"] is False
    assert (g.state["rejections"], g.kmotr, g.state["round"]) == (1, 3, 1)
    assert g.phase == "team_selection" and g.view()["team_size"] == 2
    assert kinds(reveal) == ["vote_cast", "votes_revealed", "kmotr_passed"]
    assert narration(g.state) == [
        ("rejected", {"approve": 3, "reject": 3, "count": 1, "kmotr": 3}),
        ("team_selection", {"kmotr": 3, "team_size": 2})]


def test_A_S03_five_rejections():
    """rules A-S03; Czech rulebook, Hlasování o týmu: 5 teams in a row rejected → detectives win."""
    g = Table(7, detectives={4, 5, 6}, kmotr=0)
    g.ready_all()
    g.job([0, 1])
    assert (g.state["round"], g.kmotr, g.state["rejections"]) == (2, 1, 0)
    track = g.state["track"]

    for proposer in (1, 2, 3, 4, 5):
        assert g.kmotr == proposer
        g.propose([proposer, 0, 6])
        last = g.vote(approve={4, 5, 6})

    assert g.phase == "game_over" and g.state["rejections"] == 5
    assert RULESET.outcome(g.state).to_json() == {
        "winner": "detectives", "reason": "five_rejections", "winners": [4, 5, 6]}
    assert kinds(last) == ["vote_cast", "votes_revealed", "game_over"]
    assert narration(g.state) == [("five_rejections", {"approve": 3, "reject": 4})]
    assert g.state["track"] == track    # unchanged
    assert RULESET.waiting_for(g.state) == []   # no action card requested
    assert all(RULESET.legal_actions(g.state, seat) == [] for seat in [None, *range(7)])


def test_A_S04_counter_resets_on_approval():
    """rules A-S04 and A.2: the rejection counter resets only when a crew is approved."""
    g = Table(7, detectives={0, 3, 6}, kmotr=1)
    g.ready_all()
    for proposer in (1, 2, 3, 4):
        g.propose([proposer, 0])
        g.vote(approve=set())
    assert (g.state["rejections"], g.kmotr) == (4, 5)
    g.propose([5, 6])
    g.vote()
    assert g.state["rejections"] == 0
    g.play()
    assert (g.kmotr, g.state["round"]) == (6, 2)
    g.propose([6, 0, 1])
    g.vote(approve={0})
    assert (g.state["rejections"], g.kmotr, g.phase) == (1, 0, "team_selection")


def test_A_S06_two_fail_rule_needs_seven_players():
    """rules A-S06; Czech rulebook: only with 7+ players does the 4th action need two fails."""
    g = Table(6, detectives={4, 5}, kmotr=0)
    g.ready_all()
    g.job([0, 1])
    g.job([1, 2, 4], fails={4})
    g.job([0, 1, 2, 3])
    assert g.view()["fails_needed"] == 1 and g.view()["team_size"] == 3
    reveal = g.job([0, 1, 5], fails={5})
    assert only(reveal, "action_revealed").data == {"slot": 4, "successes": 2, "fails": 1,
                                                   "result": "fail"}
    assert g.results == [S, F, S, F, None] and g.state["round"] == 5


def test_A_S07_mafioso_cannot_fail():
    """rules A-S07 and A-Q13; Czech rulebook, Průběh akce: mafiosi must play Success."""
    g = Table(5, detectives={3, 4}, kmotr=1)
    g.ready_all()
    g.propose([1, 3])
    g.vote()
    refusal = g.refuse(1, {"type": "play_action_card", "card": "fail"}, "mafioso_must_succeed")
    assert isinstance(refusal, IllegalAction) and refusal.message == "Mafiosi must play Success"
    assert g.phase == "action_play" and RULESET.waiting_for(g.state) == [1, 3]
    g.act(1, {"type": "play_action_card", "card": "success"})
    reveal = g.act(3, {"type": "play_action_card", "card": "fail"})
    assert only(reveal, "action_revealed").data["result"] == "fail"
    assert g.results == [F, None, None, None, None]


def test_A_S08_detectives_win_by_failures_at_ten_players():
    """rules A-S08; Czech rulebook, Konec hry: three foiled actions win for the detectives."""
    g = Table(10, detectives={6, 7, 8, 9}, kmotr=0)
    g.ready_all()
    g.job([0, 1, 6], fails={6})
    g.job([1, 2, 3, 4])
    g.job([2, 3, 4, 7], fails={7})
    assert g.results == [F, S, F, None, None]
    assert (g.view()["team_size"], g.view()["fails_needed"]) == (5, 2)
    end = g.job([0, 1, 2, 6, 7], fails={6, 7})
    assert only(end, "action_revealed").data == {"slot": 4, "successes": 3, "fails": 2,
                                                 "result": "fail"}
    assert RULESET.outcome(g.state).to_json() == {
        "winner": "detectives", "reason": "three_failures", "winners": [6, 7, 8, 9]}
    assert narration(g.state) == [
        ("reveal", {"successes": 3, "fails": 2, "result": "fail"}), ("detective_win", {})]


def test_A_S09_targeting_slot_5_locked():
    """rules A-S09, A.3.1; Czech rulebook, Změna pořadí akcí: action 5 after two successes only."""
    g = Table(8, detectives={5, 6, 7}, kmotr=0, targeting=True)
    g.ready_all()
    assert g.view()["open_slots"] == [1, 2, 3, 4]
    assert (g.view()["slot"], g.view()["team_size"]) == (None, None)
    assert narration(g.state) == [("choose_slot", {"round": 1, "kmotr": 0})]

    g.propose([0, 1, 2, 3], slot=3)
    assert narration(g.state) == [
        ("slot_chosen", {"slot": 3, "team_size": 4, "two_fails": False}),
        ("vote", {"approvals_needed": 5})]
    g.vote()
    g.play()
    assert g.results == [None, None, S, None, None] and g.kmotr == 1

    g.refuse(1, {"type": "propose_team", "team": [0, 1, 2, 3, 4], "slot": 5}, "slot_locked")
    g.propose([1, 2, 3, 4, 5], slot=4)
    assert (g.view()["team_size"], g.view()["fails_needed"]) == (5, 2)
    g.vote()
    reveal = g.play(fails={5})
    assert only(reveal, "action_revealed").data == {"slot": 4, "successes": 4, "fails": 1,
                                                   "result": "success"}
    assert codes(g.state)[:2] == ["reveal", "two_fails_needed"]
    assert g.results == [None, None, S, S, None] and g.state["round"] == 3

    assert g.view()["open_slots"] == [1, 2, 5]
    g.propose([2, 3, 4, 5, 6], slot=5)
    assert g.phase == "team_vote" and g.view()["slot"] == 5 and g.view()["team_size"] == 5


def test_A_S10_targeting_rejection_does_not_use_up_a_slot():
    """rules A-S10, A.3.1: a rejected proposal does not consume its slot."""
    g = Table(5, detectives={3, 4}, kmotr=0, targeting=True)
    g.ready_all()
    g.propose([0, 1, 2], slot=2)
    g.vote(approve=set())
    assert g.view()["open_slots"] == [1, 2, 3, 4]
    assert g.view()["slot"] is None and g.state["round"] == 1
    g.propose([1, 2], slot=1)
    assert g.state["rejections"] == 1 and g.view()["slot"] == 1


def test_A_S11_blind_detectives():
    """rules A-S11, A.3.2; Czech rulebook, Detektivové se neznají: no detective meeting."""
    result = RULESET.setup(7, resolve_options(RULESET, {"blind_detectives": True}), 5)
    state, events = result
    assert state["phase"] == "team_selection"
    assert codes(state) == ["setup", "round_start", "team_selection"]
    dealt = only(events, "roles_dealt").data["roles"]
    assert (dealt.count("mafioso"), dealt.count("detective")) == mafie.ROLES[7]
    for event in events:
        if event.kind == "role":
            assert event.data["partners"] == []
    play = random_playthrough(RULESET, 7, resolve_options(RULESET, {"blind_detectives": True}), 5)
    for state in play.states:
        assert state["ready"] == [] and state["phase"] != "detective_meeting"
        for seat in range(7):
            assert RULESET.view(state, seat)["me"]["partners"] is None


# --------------------------------------------------------------------------------------------
# Setup (rules A.1)
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [4, 11, 0, "7"])
def test_A_1_player_count_is_5_to_10(players):
    with pytest.raises(ValueError):
        RULESET.setup(players, resolve_options(RULESET, {}), 1)


@pytest.mark.parametrize("players", range(5, 11))
def test_A_1_roles_dealt_per_table_and_first_kmotr_at_random(players):
    """rules A.1: roles per the table, shuffled with the seed; first Kmotr uniformly at random."""
    state, events = RULESET.setup(players, resolve_options(RULESET, {}), 42)
    dealt = state["secret"]["roles"]
    expected = ["mafioso"] * mafie.ROLES[players][0] + ["detective"] * mafie.ROLES[players][1]
    shuffled = chance.shuffle(chance.new(42), "deal", expected)     # the kit's draws, in order
    assert dealt == shuffled.value
    assert state["kmotr"] == chance.pick(shuffled.chance, "kmotr", list(range(players))).value
    # Each draw is recorded: the deal is the game master's, the first Kmotr everyone's.
    assert [(draw.audience, draw.data["label"], draw.data["result"]) for draw in events if draw.kind == "chance"] \
        == [(NOBODY, "deal", dealt), (PUBLIC, "kmotr", state["kmotr"])]
    events = [event for event in events if event.kind != "chance"]
    assert kinds(events) == ["roles_dealt"] + ["role"] * players + ["kmotr_chosen"]
    assert events[0].audience == NOBODY and events[0].data == {"roles": dealt}
    detectives = [seat for seat, role in enumerate(dealt) if role == "detective"]
    for seat, event in enumerate(events[1:-1]):
        assert event.audience == [seat]
        partners = [d for d in detectives if d != seat] if seat in detectives else []
        assert event.data == {"role": dealt[seat], "partners": partners}
    assert events[-1].audience == PUBLIC and events[-1].data == {"kmotr": state["kmotr"]}


def test_A_1_first_kmotr_is_spread_over_all_seats():
    seen = {RULESET.setup(5, resolve_options(RULESET, {}), seed)[0]["kmotr"]
            for seed in range(60)}
    assert seen == set(range(5))


@pytest.mark.parametrize("deal", [
    {"roles": ["mafioso"] * 5},
    {"roles": ["mafioso", "mafioso", "detective", "detective"]},
    {"roles": ["mafioso", "mafioso", "mafioso", "detective", "spy"]},
    {"kmotr": 5},
    {"kmotr": -1},
    {"kmotr": True},
    {"dice": 3},
])
def test_A_1_forced_deal_is_validated(deal):
    with pytest.raises(ValueError):
        RULESET.setup(5, resolve_options(RULESET, {}), 1, deal=deal)


def test_A_1_forced_deal_keys_are_optional():
    state, _ = RULESET.setup(5, resolve_options(RULESET, {}), 9, deal={"kmotr": 3})
    assert state["kmotr"] == 3
    forced = roles(5, {0, 1})
    state, events = RULESET.setup(5, resolve_options(RULESET, {}), 9, deal={"roles": forced})
    assert state["secret"]["roles"] == forced
    # A forced deal is the chance kit's forced outcome: recorded as forced, and counted, so the
    # Kmotr is the game's next draw as it would be after a drawn deal.
    dealt = chance.shuffle(chance.new(9, forced={"deal": [forced]}), "deal", forced)
    assert state["kmotr"] == chance.pick(dealt.chance, "kmotr", list(range(5))).value
    assert [(d["label"], d["forced"]) for d in chance.draws(events)] == [("deal", True), ("kmotr", False)]


def test_A_1_a_forced_deal_is_forced_outcomes_of_the_chance_kit_and_the_deck_is_checked():
    """rules A.1, §A.3.3: roles, the first Kmotr and the plot deck forced for a test or a replay
    are taken by the same draws as a seed's deal, each recorded as forced."""
    deck = list(reversed(plot_cards.deck(7)))
    options = resolve_options(RULESET, {"plot_cards": True})
    state, events = RULESET.setup(7, options, 3, deal={"roles": roles(7, {0, 1, 2}), "kmotr": 6, "plot_deck": deck})
    assert (state["secret"]["roles"], state["kmotr"], state["secret"]["plot"]["deck"]) == (roles(7, {0, 1, 2}), 6, deck)
    # In this order (the log's), and counted by the record: an event carries no draw number
    # (tests/engines/test_chance.py), which would tell a seat how often the game master drew.
    assert [(d["label"], d["forced"]) for d in chance.draws(events)] == [("deal", True), ("kmotr", True), ("plot", True)]
    record = state["secret"]["chance"]
    assert record["draws"] == 3 and not any(record["forced"].values())   # every forced outcome taken
    for bad in (deck[1:], deck[:-1] + ["open_up"], "strong_leader"):
        with pytest.raises(ValueError, match="plot_deck"):
            RULESET.setup(7, options, 3, deal={"plot_deck": bad})


def test_options_are_the_two_variants_and_the_expansion():
    options = RULESET.options()
    labels = presenter("mafie").OPTION_LABELS   # an option's words are its presenter's
    with translation.override("en"):
        assert [(o.key, str(labels[o.key][0]), o.default, o.offered) for o in options] == [
            ("targeting", "Change the order of actions", False, True),
            ("blind_detectives", "Detectives don't know each other", False, True),
            ("plot_cards", "The Plot Thickens", False, True),
            ("plot_distribution", "Plot cards with 5–8 players", "cz", True)]
    with pytest.raises(ValueError):
        RULESET.setup(5, {"targeting": False}, 1)
    with pytest.raises(ValueError):
        RULESET.setup(5, {**resolve_options(RULESET, {}), "plot_distribution": "ten"}, 1)


# --------------------------------------------------------------------------------------------
# Detective meeting (rules A.2, A.4 phone mode)
# --------------------------------------------------------------------------------------------

def test_A_2_detective_meeting_everyone_taps_ready():
    g = Table(6, detectives={1, 4}, kmotr=5)
    assert g.phase == "detective_meeting" and g.state["turn"] == 1
    assert codes(g.state) == ["setup", "detective_meeting"]
    assert RULESET.waiting_for(g.state) == list(range(6))
    assert g.view(1)["me"]["partners"] == [4] and g.view(4)["me"]["partners"] == [1]
    assert g.view(0)["me"]["partners"] is None
    assert all(g.view(seat)["me"]["actions"] == ["ready"] for seat in range(6))
    for seat in (3, 1, 0, 2, 5):
        events = g.act(seat, {"type": "ready"})
        assert kinds(events) == ["ready"] and events[0].data == {"seat": seat}
    assert g.state["turn"] == 1 and g.view()["ready"] == [0, 1, 2, 3, 5]
    g.refuse(3, {"type": "ready"}, "already_ready")
    events = g.act(4, {"type": "ready"})
    assert kinds(events) == ["ready", "round_started"]
    assert g.phase == "team_selection" and g.state["turn"] == 2
    assert narration(g.state) == [
        ("round_start", {"round": 1, "team_size": 2, "two_fails": False}),
        ("team_selection", {"kmotr": 5, "team_size": 2})]


# --------------------------------------------------------------------------------------------
# Turn counter, narration and views
# --------------------------------------------------------------------------------------------

def test_turn_grows_with_each_new_question_not_with_each_vote():
    g = Table(5, detectives={3, 4}, kmotr=0)
    g.ready_all()
    turn = g.state["turn"]
    g.propose([0, 1])
    assert g.state["turn"] == turn + 1
    for seat in range(4):
        g.act(seat, {"type": "vote", "approve": True})
        assert g.state["turn"] == turn + 1
    narrated = g.state["narration"]
    assert narration(g.state) == [("vote", {"approvals_needed": 3})]
    g.act(4, {"type": "vote", "approve": True})
    assert g.state["turn"] == turn + 2 and g.state["narration"] != narrated
    g.act(0, {"type": "play_action_card", "card": "success"})
    assert g.state["turn"] == turn + 2
    g.act(1, {"type": "play_action_card", "card": "success"})
    assert g.state["turn"] == turn + 3


def test_A_4_two_fails_needed_narrated_when_one_fail_is_not_enough():
    """rules A.4 narration "2-fail job with 1 fail"; Czech rulebook, Průběh akce."""
    g = Table(7, detectives={4, 5, 6}, kmotr=0)
    g.ready_all()
    g.job([0, 1])
    g.job([0, 1, 4], fails={4})
    g.job([0, 1, 2])
    assert g.view()["round"] == 4 and g.view()["fails_needed"] == 2
    assert narration(g.state)[-2][0] == "round_start"
    assert narration(g.state)[-2][1] == {"round": 4, "team_size": 4, "two_fails": True}
    g.job([0, 1, 2, 5], fails={5})
    assert narration(g.state)[:2] == [
        ("reveal", {"successes": 3, "fails": 1, "result": "success"}), ("two_fails_needed", {})]
    assert g.results == [S, F, S, S, None] and g.phase == "game_over"


def test_A_4_views_show_public_board_and_own_secrets_only():
    g = Table(5, detectives={3, 4}, kmotr=0)
    g.ready_all()
    g.propose([0, 3])
    g.act(3, {"type": "vote", "approve": False})
    tv, p3, p0 = g.view(None), g.view(3), g.view(0)
    assert list(tv) == [
        "ruleset", "phase", "turn", "players", "round", "kmotr", "track", "slot", "team_size",
        "fails_needed", "open_slots", "team", "rejections", "approvals_needed", "ready",
        "votes_cast", "cards_played", "last_vote", "last_action", "vote_history", "narration",
        "options", "roles", "outcome", "plot", "window", "spotlight", "opinion", "inspected", "plot_learnt", "me"]
    assert tv["me"] is None and tv["roles"] is None and tv["outcome"] is None
    assert tv["plot"] is None and tv["plot_learnt"] is None  # no expansion in this game
    assert tv["team"] == [0, 3] and tv["votes_cast"] == [3] and tv["phase"] == "team_vote"
    assert p3["me"] == {"seat": 3, "role": "detective", "partners": [4], "actions": [],
                        "ready": True, "voted": True, "played": False, "on_team": True,
                        "is_kmotr": False, "plot_learnt": []}
    assert p0["me"] == {"seat": 0, "role": "mafioso", "partners": None, "actions": ["vote"],
                        "ready": True, "voted": False, "played": False, "on_team": True,
                        "is_kmotr": True, "plot_learnt": []}
    assert {key: value for key, value in p3.items() if key != "me"} == {
        key: value for key, value in tv.items() if key != "me"}
    assert tv["track"][3] == {"slot": 4, "team_size": 3, "fails_needed": 1, "result": None,
                              "fails": None}


def test_A_4_game_over_reveals_all_roles():
    """rules A-Q14: at game over every role is public."""
    g = Table(5, detectives={3, 4}, kmotr=0)
    g.ready_all()
    for team in ([0, 1], [1, 2, 0], [0, 2]):
        g.job(team)
    tv = g.view()
    assert tv["phase"] == "game_over" and tv["roles"] == roles(5, {3, 4})
    assert tv["outcome"] == {"winner": "mafia", "reason": "three_successes",
                             "winners": [0, 1, 2]}
    assert tv["last_action"] == {"slot": 3, "successes": 2, "fails": 0, "result": "success"}


# --------------------------------------------------------------------------------------------
# Refusals: every code, state unchanged
# --------------------------------------------------------------------------------------------

def _at_vote():
    g = Table(5, detectives={3, 4}, kmotr=0)
    g.ready_all()
    g.propose([0, 3])
    return g


def _at_action():
    g = _at_vote()
    g.vote()
    return g


def _at_targeting():
    g = Table(5, detectives={3, 4}, kmotr=0, targeting=True)
    g.ready_all()
    g.job([0, 1], slot=1)
    return g


def _at_game_over():
    g = Table(5, detectives={3, 4}, kmotr=0)
    g.ready_all()
    for _ in range(5):
        g.propose([g.kmotr, (g.kmotr + 1) % 5])
        g.vote(approve=set())
    return g


def _at_selection():
    g = Table(5, detectives={3, 4}, kmotr=0)
    g.ready_all()
    return g


def _voted():
    g = _at_vote()
    g.act(2, {"type": "vote", "approve": True})
    return g


def _played():
    g = _at_action()
    g.act(3, {"type": "play_action_card", "card": "fail"})
    return g


REFUSALS = [
    # (code, table factory, seat, action)
    ("not_your_turn", _at_selection, None, {"type": "propose_team", "team": [0, 1]}),
    ("not_kmotr", _at_selection, 1, {"type": "propose_team", "team": [0, 1]}),
    ("wrong_team_size", _at_selection, 0, {"type": "propose_team", "team": [0, 1, 2]}),
    ("duplicate_seat", _at_selection, 0, {"type": "propose_team", "team": [1, 1]}),
    ("unknown_seat", _at_selection, 0, {"type": "propose_team", "team": [0, 5]}),
    ("unknown_seat", _at_selection, 0, {"type": "propose_team", "team": [-1, 0]}),
    ("wrong_slot", _at_selection, 0, {"type": "propose_team", "team": [0, 1], "slot": 2}),
    ("slot_required", _at_targeting, 1, {"type": "propose_team", "team": [0, 1, 2]}),
    ("unknown_slot", _at_targeting, 1, {"type": "propose_team", "team": [0, 1], "slot": 6}),
    ("slot_played", _at_targeting, 1, {"type": "propose_team", "team": [0, 1], "slot": 1}),
    ("slot_locked", _at_targeting, 1, {"type": "propose_team", "team": [0, 1, 2], "slot": 5}),
    ("already_voted", _voted, 2, {"type": "vote", "approve": False}),
    ("not_on_team", _at_action, 1, {"type": "play_action_card", "card": "success"}),
    ("already_played", _played, 3, {"type": "play_action_card", "card": "success"}),
    ("mafioso_must_succeed", _at_action, 0, {"type": "play_action_card", "card": "fail"}),
    ("already_ready", lambda: Table(5, {3, 4}, 0), None, None),
    ("game_over", _at_game_over, 0, {"type": "vote", "approve": True}),
    ("wrong_phase", _at_selection, 0, {"type": "vote", "approve": True}),
    ("wrong_phase", _at_vote, 0, {"type": "propose_team", "team": [0, 1]}),
    ("wrong_phase", _at_vote, 0, {"type": "ready"}),
    ("wrong_phase", _at_action, 0, {"type": "vote", "approve": True}),
    ("wrong_phase", _at_vote, 0, {"type": "play_action_card", "card": "success"}),
]


@pytest.mark.parametrize(("code", "factory", "seat", "action"), REFUSALS,
                         ids=[f"{case[0]}-{index}" for index, case in enumerate(REFUSALS)])
def test_illegal_actions_are_refused_and_change_nothing(code, factory, seat, action):
    g = factory()
    if code == "already_ready":
        g.act(2, {"type": "ready"})
        seat, action = 2, {"type": "ready"}
    refusal = g.refuse(seat, action, code)
    assert isinstance(refusal, IllegalAction)
    assert refusal.message and refusal.message[0].isupper()


MALFORMED = [
    ("bad_action", "vote"),
    ("bad_action", {}),
    ("bad_action", {"type": 3}),
    ("unknown_action", {"type": "shoot"}),
    ("bad_team", {"type": "propose_team"}),
    ("bad_team", {"type": "propose_team", "team": "0,1"}),
    ("bad_team", {"type": "propose_team", "team": [0, "1"]}),
    ("bad_team", {"type": "propose_team", "team": [0, True]}),
    ("bad_slot", {"type": "propose_team", "team": [0, 1], "slot": "1"}),
    ("bad_vote", {"type": "vote"}),
    ("bad_vote", {"type": "vote", "approve": "yes"}),
    ("bad_vote", {"type": "vote", "approve": 1}),
    ("bad_card", {"type": "play_action_card"}),
    ("bad_card", {"type": "play_action_card", "card": "FAIL"}),
]


@pytest.mark.parametrize(("code", "action"), MALFORMED)
def test_malformed_actions_are_refused_and_change_nothing(code, action):
    g = _at_vote()
    assert isinstance(g.refuse(0, action, code), MalformedAction)


@pytest.mark.parametrize("seat", [5, -1, "0", True])
def test_unknown_acting_seat_is_malformed(seat):
    g = _at_vote()
    assert isinstance(g.refuse(seat, {"type": "vote", "approve": True}, "bad_seat"),
                      MalformedAction)


def test_server_has_no_actions_in_the_base_game():
    g = _at_vote()
    assert RULESET.legal_actions(g.state, None) == []
    assert g.view(None)["me"] is None


# --------------------------------------------------------------------------------------------
# legal_actions
# --------------------------------------------------------------------------------------------

def test_legal_actions_list_every_crew_and_only_success_for_mafiosi():
    g = Table(10, detectives={6, 7, 8, 9}, kmotr=0)
    g.ready_all()
    crews = RULESET.legal_actions(g.state, 0)
    assert len(crews) == 120    # C(10, 3)
    assert {tuple(action["team"]) for action in crews} == set(moves._crews(10, 3))
    assert RULESET.legal_actions(g.state, 1) == []
    g.propose([0, 6, 7])
    g.vote()
    assert RULESET.legal_actions(g.state, 0) == [{"type": "play_action_card", "card": "success"}]
    assert [a["card"] for a in RULESET.legal_actions(g.state, 6)] == ["success", "fail"]


def test_targeting_legal_actions_cover_open_slots():
    g = _at_targeting()
    slots = {action["slot"] for action in RULESET.legal_actions(g.state, g.kmotr)}
    assert slots == {2, 3, 4}


def test_crew_sample_is_bounded_and_deterministic(monkeypatch):
    monkeypatch.setattr(moves, "TEAM_SAMPLE_LIMIT", 100)
    moves._crews.cache_clear()
    try:
        crews = moves._crews(10, 5)
        assert len(crews) == 100 == len(set(crews))
        assert crews[0] == (0, 1, 2, 3, 4) and all(len(crew) == 5 for crew in crews)
    finally:
        monkeypatch.undo()
        moves._crews.cache_clear()
