"""Classic Mafia (GRANNA ``granna``, Polish ``mafia_pl``), rule by rule: the acceptance scenarios
of rules B.5 and C.5 and the rules of B.2–B.4, C.2–C.4.

"rules B.x" = docs/rules/classic-mafia.md; the rulebooks (GRANNA's
Ukrainian "Мафія", the Polish "Mafia – zasady gry") are the authority.  Roles (and coin
results) are forced with ``deal=``.
"""

from __future__ import annotations

import pytest

from engines import chance, registry
from engines.base import HOST, NOBODY, PUBLIC, IllegalAction, MalformedAction, movers, resolve_options
from engines.classic import night as night_rules
from engines.classic import votes as V
from engines.classic.editions import EDITIONS
from engines.classic.roles import role_counts, role_list
from engines.replay import replay
from tests.engines.classic_helpers import A, D, J, M, P, Table, W, codes, deal, kinds, lots, narration, only

GRANNA, POLISH = "granna", "mafia_pl"
TIMEOUT = {"type": "timeout"}


def seats_out(table: Table) -> dict[int, tuple[str, str]]:
    """Eliminated seat → (role, cause), from the public view."""
    return {seat: (entry["role"], entry["cause"]) for seat, entry in enumerate(table.view()["seats"])
            if not entry["alive"]}


def counts(slug: str, players: int, **options) -> dict[str, int]:
    ruleset = registry.engine(slug)
    rules = EDITIONS[ruleset.slug].rules(resolve_options(ruleset, options))
    return {role: count for role, count in role_counts(players, rules).items() if count}


# --------------------------------------------------------------------------------------------
# B.5 — GRANNA
# --------------------------------------------------------------------------------------------

def test_B_S01_role_table():
    """rules B-S01; GRANNA table, printed row T = R + 1 (rules B-Q1)."""
    assert counts(GRANNA, 9) == {M: 2, A: 1, P: 6}
    assert counts(GRANNA, 6) == {M: 1, A: 1, P: 4}
    assert counts(GRANNA, 21) == {M: 5, A: 1, P: 15}
    granna = registry.engine(GRANNA)
    assert (granna.min_players, granna.max_players) == (6, 21)
    small = Table(GRANNA, deal(6, mafiosi=[1], agent=0))
    assert narration(small.state)[0] == ("setup", {"roles": {M: 1, A: 1, P: 4},
                                                   "small_game": True, "large_game": False})
    large = Table(GRANNA, deal(21, mafiosi=[1, 2, 3, 4, 5], agent=0))
    assert narration(large.state)[0] == ("setup", {"roles": {M: 5, A: 1, P: 15},
                                                   "small_game": False, "large_game": True})
    for players in (5, 22):
        with pytest.raises(ValueError, match="6 to 21 players"):
            granna.setup(players, resolve_options(granna, {}), 1)
    with pytest.raises(ValueError, match="2 × mafioso"):
        Table(GRANNA, deal(9, mafiosi=[1], agent=0))


def test_B_S02_basic_round():
    """rules B-S02: R=11 (2M, 1A, 8P); the agent's check, the kill, both votes, the lynch."""
    g = Table(GRANNA, deal(11, mafiosi=[3, 7], agent=5))
    assert (g.phase, g.state["round"], g.state["night_steps"]) == ("agent", 1, ["agent", "mafia"])
    assert codes(g.state) == ["setup", "night", "agent_step"]
    assert g.view()["night_step"] == "agent"
    assert g.ruleset.waiting_for(g.state) == [5]

    checked = g.act(5, {"type": "check", "target": 7})
    assert only(checked, "checked").data == {"round": 1, "agent": 5, "target": 7, "role": M,
                                             "caught": False}
    assert only(checked, "checked").audience == [5]
    assert g.view(5)["me"]["checks"] == [{"round": 1, "agent": 5, "target": 7, "role": M}]
    assert g.phase == "agent" and g.ruleset.waiting_for(g.state) == []
    g.timeout()
    assert g.phase == "mafia" and codes(g.state) == ["mafia_step"]
    assert g.ruleset.waiting_for(g.state) == [3, 7]
    g.act(3, {"type": "pick_victim", "target": 9})
    assert g.view(7)["me"]["picks"] == [{"seat": 3, "target": 9}, {"seat": 7, "target": None}]
    locked = g.act(7, {"type": "pick_victim", "target": 9})
    assert only(locked, "victim_chosen").data == {"how": "unanimous", "candidates": [9], "victim": 9}
    assert only(locked, "victim_chosen").audience == [3, 7]
    dawn = g.timeout()
    assert only(dawn, "eliminated").data == {"seat": 9, "role": P, "cause": "night", "round": 1}
    assert g.phase == "discussion"
    assert narration(g.state) == [("dawn", {"round": 1}), ("killed", {"seat": 9, "role": P}),
                                  ("discussion", {"round": 1})]
    tv = g.view()
    assert tv["victim"] == 9 and tv["dawn"] == {"round": 1, "spell": False, "saved": None,
                                                "deaths": [{"seat": 9, "role": P, "cause": "night"}]}
    assert tv["seats"][9] == {"alive": False, "role": P, "cause": "night"}
    assert tv["seats"][7] == {"alive": True, "role": None, "cause": None}

    g.end_discussion()
    assert g.phase == "vote" and g.view()["vote"]["ballot"] == [0, 1, 2, 3, 4, 5, 6, 7, 8, 10]
    first = {0: 7, 1: 7, 5: 7, 6: 7, 8: 7, 3: 2, 4: 2, 7: 2, 2: 4, 10: 4}
    g.vote(first)
    assert g.phase == "defence"
    assert g.view()["finalists"] == [2, 7]
    assert g.view()["last_vote"]["tally"][7] == 5 and g.view()["last_vote"]["tally"][2] == 3
    assert g.view()["last_vote"]["votes"][0] == 7 and g.view()["last_vote"]["votes"][9] is None
    assert codes(g.state) == ["votes_revealed", "finalists"]
    g.end_defence()
    assert g.phase == "final_vote" and g.view()["vote"]["ballot"] == [2, 7]
    runoff = {seat: 7 for seat in (0, 1, 2, 4, 5, 6, 8)} | {seat: 2 for seat in (3, 7, 10)}
    events = g.vote(runoff)
    assert only(events, "eliminated").data == {"seat": 7, "role": M, "cause": "lynch", "round": 1}
    assert seats_out(g) == {9: (P, "night"), 7: (M, "lynch")}
    assert (g.phase, g.state["round"]) == ("agent", 2)
    assert codes(g.state) == ["votes_revealed", "lynched", "night", "agent_step"]


def test_B_S03_tie_for_second():
    """rules B-S03; B.2.1: A4, B3, C3, D1 → finalists {A, B, C}; the runoff among three."""
    assert V.finalists([4, 3, 3, 1, 0]) == [0, 1, 2]
    g = Table(GRANNA, deal(12, mafiosi=[10, 11], agent=9))
    g.night(check=10, kill=8)
    g.end_discussion()
    # 11 voters: P0 4, P1 3, P2 3, P3 1
    votes = {4: 0, 5: 0, 6: 0, 7: 0, 0: 1, 9: 1, 10: 1, 1: 2, 3: 2, 11: 2, 2: 3}
    g.vote(votes)
    assert g.view()["finalists"] == [0, 1, 2]
    g.end_defence()
    assert g.view()["vote"]["ballot"] == [0, 1, 2]


def test_B_S04_tie_for_first():
    """rules B-S04: A3, B3, C3, D1 → finalists {A, B, C}."""
    assert V.finalists([3, 3, 3, 1]) == [0, 1, 2]
    g = Table(GRANNA, deal(11, mafiosi=[8, 9], agent=7))
    g.night(check=8, kill=10)
    g.end_discussion()
    g.vote({3: 0, 4: 0, 5: 0, 0: 1, 6: 1, 7: 1, 1: 2, 8: 2, 9: 2, 2: 3})
    assert g.view()["finalists"] == [0, 1, 2]


def _runoff_tie(coins=None):
    """Finalists {P0, P1}; the final vote 5–5 (10 voters)."""
    g = Table(GRANNA, deal(11, mafiosi=[8, 9], agent=7), coins=coins)
    g.night(check=8, kill=10)
    g.end_discussion()
    g.vote({voter: 0 for voter in (1, 2, 3, 4, 5)} | {voter: 1 for voter in (0, 6, 7, 8, 9)})
    assert g.view()["finalists"] == [0, 1]
    g.end_defence()
    events = g.vote({voter: 0 for voter in (1, 2, 3, 4, 5)} | {voter: 1 for voter in (0, 6, 7, 8, 9)})
    assert events[-1].kind == "votes_revealed" and g.phase == "re_discussion"
    assert g.view()["tied"] == [0, 1]
    assert codes(g.state) == ["votes_revealed", "tie"]
    assert g.host_moves() == [{"type": "end_discussion"}]
    g.end_discussion()
    assert g.phase == "re_vote" and g.view()["vote"]["ballot"] == [0, 1]
    return g


def test_B_S05_runoff_tie_re_vote_then_coin():
    """rules B-S05; B.2.2: a tied runoff → re-discussion → re-vote → still tied → coin (stub)."""
    g = _runoff_tie(coins=[1])
    events = g.vote({voter: 0 for voter in (1, 2, 3, 4, 5)} | {voter: 1 for voter in (0, 6, 7, 8, 9)})
    assert only(events, "coin").data == {"among": [0, 1], "seat": 1}
    assert only(events, "coin").audience == PUBLIC
    assert only(events, "eliminated").data["seat"] == 1
    assert codes(g.state)[:3] == ["votes_revealed", "coin", "lynched"]
    assert g.view()["coin"] is None      # cleared when the night falls
    # the forced coin is the chance kit's one draw of lots, public, after the deal's shuffle
    assert g.coins_left == [] and lots(g.events) == [
        {"label": "lot", "how": "pick", "result": 1, "forced": True, "why": "coin"}]
    assert [event.audience for event in events if event.kind == chance.CHANCE] == [PUBLIC]


def test_B_S05_variant_re_vote_decides_without_the_coin():
    g = _runoff_tie(coins=[1])
    events = g.vote({voter: 0 for voter in (1, 2, 3, 4, 5, 6)} | {voter: 1 for voter in (0, 7, 8, 9)})
    assert "coin" not in kinds(events)
    assert only(events, "eliminated").data["seat"] == 0
    assert g.coins_left == [1] and lots(g.events) == []


def test_the_coin_without_a_stub_is_seeded_and_fair():
    results = set()
    for seed in range(12):
        g = Table(GRANNA, deal(11, mafiosi=[8, 9], agent=7), seed=seed)
        g.night(check=8, kill=10)
        g.end_discussion()
        tie = {voter: 0 for voter in (1, 2, 3, 4, 5)} | {voter: 1 for voter in (0, 6, 7, 8, 9)}
        g.vote(tie)
        g.end_defence()
        g.vote(tie)
        g.end_discussion()
        expected = chance.pick(g.state["secret"]["chance"], "lot", [0, 1]).value
        events = g.vote(tie)
        seat = only(events, "coin").data["seat"]
        assert seat == expected and lots(events)[0]["forced"] is False
        results.add(seat)
    assert results == {0, 1}


def test_B_S06_agent_killed_at_night():
    """rules B-S06: the agent dies in night 1; from round 2 there is no agent step or line."""
    g = Table(GRANNA, deal(10, mafiosi=[1, 2], agent=5))
    g.night(check=1, kill=5)
    assert g.view()["dawn"]["deaths"] == [{"seat": 5, "role": A, "cause": "night"}]
    assert ("killed", {"seat": 5, "role": A}) in narration(g.state)
    g.lynch(0)
    assert g.state["night_steps"] == ["mafia"]
    assert (g.phase, g.state["round"]) == ("mafia", 2)
    assert "agent_step" not in codes(g.state) and codes(g.state)[-2:] == ["night", "mafia_step"]


def test_B_S07_agent_lynched_keeps_silent():
    """rules B-S07: the lynched agent's token is shown; his phone turns to the ghost view with
    the "keep it to yourself" flag; his checks never reach a living player."""
    g = Table(GRANNA, deal(10, mafiosi=[1, 2], agent=5))
    g.night(check=1, kill=9)
    g.lynch(5)
    assert seats_out(g)[5] == (A, "lynch")
    me = g.view(5)["me"]
    assert (me["alive"], me["keep_secret"]) == (False, True)
    assert me["checks"] == [{"round": 1, "agent": 5, "target": 1, "role": M}]
    assert me["ghost"]["roles"] == g.roles and me["moves"] == []
    for seat in g.living:
        shown = g.view(seat)
        assert shown["me"]["checks"] == [] and shown["me"]["ghost"] is None
        assert "checks" not in str({k: v for k, v in shown.items() if k != "me"})
    assert g.view()["reveal"] is None
    assert [event.audience for event in g.events if event.kind == "checked"] == [[5]]


def _play_to_mafia_win():
    g = Table(GRANNA, deal(8, mafiosi=[1, 6], agent=0), small_game_rule=False)
    g.night(check=1, kill=0)
    g.lynch(6)
    g.night(kill=2)
    g.lynch(3)
    g.night(kill=5)
    g.lynch(7)
    assert g.living == [1, 4]
    return g


def test_B_S08_mafia_wins():
    """rules B-S08: the last policeman killed at night → the mafia wins, its dead included."""
    g = _play_to_mafia_win()
    events = g.night(kill=4)
    assert g.phase == "game_over"
    assert only(events, "game_over").data == {
        "winner": "mafia", "reason": "police_eliminated", "winners": [1, 6], "roles": g.roles}
    assert g.ruleset.outcome(g.state).to_json() == {"winner": "mafia", "reason": "police_eliminated",
                                                    "winners": [1, 6]}
    assert codes(g.state)[-1] == "mafia_win"
    tv = g.view()
    assert [seat["role"] for seat in tv["seats"]] == g.roles
    assert tv["reveal"]["checks"] == [{"round": 1, "agent": 0, "target": 1, "role": M}]
    assert tv["clock"] is None and g.host_moves() == [] and g.ruleset.waiting_for(g.state) == []


def test_B_S09_police_wins_dead_agent_included():
    """rules B-S09: the last mafioso lynched → police win; the dead agent is a winner."""
    g = Table(GRANNA, deal(9, mafiosi=[0, 1], agent=3))
    g.night(check=0, kill=3)
    g.lynch(1)
    g.night(kill=4)
    g.lynch(5)
    g.night(kill=7)
    assert g.living == [0, 2, 6, 8]
    events = g.lynch(0)
    assert only(events, "game_over").data["winners"] == [2, 3, 4, 5, 6, 7, 8]
    assert g.ruleset.outcome(g.state).winner == "police"
    assert codes(g.state)[-2:] == ["lynched", "police_win"]


def test_B_S10_small_game_agent_sees_a_policeman():
    """rules B-S10; B.3.1: R=7 — the agent checks only in round 1; no mafia step that night."""
    g = Table(GRANNA, deal(7, mafiosi=[2], agent=0))
    assert g.state["night_steps"] == ["agent"]
    events = g.night(check=4)
    assert only(events, "checked").data["role"] == P
    assert g.phase == "discussion" and len(g.living) == 7
    assert narration(g.state) == [("dawn", {"round": 1}), ("nobody_died", {}),
                                  ("discussion", {"round": 1})]
    g.lynch(5)
    assert g.state["night_steps"] == ["mafia"] and g.phase == "mafia"
    g.night(kill=3)
    assert seats_out(g)[3] == (P, "night")


def test_B_S10_small_game_agent_caught():
    """rules B.3.1: an agent who checks the mafioso is killed; only his death is told."""
    g = Table(GRANNA, deal(6, mafiosi=[2], agent=0))
    events = g.night(check=2)
    assert only(events, "checked").data == {"round": 1, "agent": 0, "target": 2, "role": M,
                                            "caught": True}
    assert only(events, "eliminated").data == {"seat": 0, "role": A, "cause": "small_rule_agent",
                                               "round": 1}
    assert narration(g.state) == [("dawn", {"round": 1}), ("agent_caught", {"seat": 0, "role": A}),
                                  ("discussion", {"round": 1})]
    assert seats_out(g) == {0: (A, "small_rule_agent")}
    assert g.view()["seats"][2]["role"] is None       # the mafioso's token is covered again
    assert g.view(0)["me"]["keep_secret"] is True


def test_small_game_alternative_reading_adds_the_mafia_kill():
    """rules B.3.1, option small_game_round1_mafia: the mafia also kills in round 1; the caught
    agent's token lies face up, so he is not their target."""
    g = Table(GRANNA, deal(6, mafiosi=[2], agent=0), small_game_round1_mafia=True)
    assert g.state["night_steps"] == ["agent", "mafia"]
    g.act(0, {"type": "check", "target": 2})
    g.timeout()
    assert [move["target"] for move in g.moves(2)] == [1, 3, 4, 5]
    g.refuse(2, {"type": "pick_victim", "target": 0}, "target_dead")
    g.act(2, {"type": "pick_victim", "target": 4})
    g.timeout()
    assert g.view()["dawn"]["deaths"] == [{"seat": 0, "role": A, "cause": "small_rule_agent"},
                                          {"seat": 4, "role": P, "cause": "night"}]


def test_small_game_rule_off_or_other_sizes_changes_nothing():
    off = Table(GRANNA, deal(7, mafiosi=[2], agent=0), small_game_rule=False)
    assert off.state["night_steps"] == ["agent", "mafia"]
    eight = Table(GRANNA, deal(8, mafiosi=[2, 3], agent=0))
    assert eight.state["night_steps"] == ["agent", "mafia"]
    kids = Table(GRANNA, deal(7, mafiosi=[2]), kids_no_agent=True)
    assert kids.state["night_steps"] == ["mafia"]


def test_B_S12_large_game_last_shots():
    """rules B-S12; B.3.2: R=20 — the round-1 night victim and the lynched player shoot."""
    g = Table(GRANNA, deal(20, mafiosi=[3, 15, 16, 17, 18], agent=0))
    g.night(check=16, kill=10)
    assert g.phase == "last_shot" and g.ruleset.waiting_for(g.state) == [10]
    assert g.view()["last_shot"] == {"shooter": 10, "optional": False}
    assert {"type": "skip_last_shot"} not in g.moves(10)
    g.refuse(10, {"type": "skip_last_shot"}, "shot_required")
    g.refuse(11, {"type": "last_shot", "target": 3}, "not_your_turn")
    shot = g.act(10, {"type": "last_shot", "target": 3})
    assert only(shot, "eliminated").data == {"seat": 3, "role": M, "cause": "last_shot", "round": 1}
    assert g.phase == "discussion"      # no chaining: P3 does not shoot
    assert g.view()["dawn"]["deaths"] == [{"seat": 10, "role": P, "cause": "night"},
                                          {"seat": 3, "role": M, "cause": "last_shot"}]
    assert ("shot", {"seat": 3, "role": M, "shooter": 10}) in narration(g.state)
    g.lynch(12)
    assert g.phase == "last_shot" and g.view()["last_shot"]["shooter"] == 12
    g.act(12, {"type": "last_shot", "target": 15})
    assert seats_out(g) == {10: (P, "night"), 3: (M, "last_shot"), 12: (P, "lynch"),
                            15: (M, "last_shot")}
    assert g.phase == "agent" and g.state["round"] == 2
    g.night(check=16, kill=11)
    assert g.phase == "discussion"       # round 2: no last shot
    g.lynch(13)
    assert g.phase == "agent"


def test_large_game_shot_times_out_without_a_shot():
    g = Table(GRANNA, deal(21, mafiosi=[3, 15, 16, 17, 18], agent=0))
    g.night(check=16, kill=10)
    clock = g.state["clock"]
    assert clock["move"] == TIMEOUT and clock["seconds"] == 60
    events = g.timeout()
    assert kinds(events)[0] == "shot_skipped" and g.phase == "discussion"
    assert ("no_shot", {"shooter": 10}) in narration(g.state)


def test_B_S14_kids_single_vote():
    """rules B-S14; B.3.3 (3.): one vote; a tie for the most → a final vote among the tied."""
    g = Table(GRANNA, deal(9, mafiosi=[7, 8], agent=6), kids_single_vote=True,
              kids_last_shot_all=True)
    g.night(check=7, kill=5)
    g.act(5, {"type": "skip_last_shot"})
    g.end_discussion()
    # 8 voters: P0 3, P1 3, P2 2
    g.vote({2: 0, 3: 0, 4: 0, 0: 1, 6: 1, 7: 1, 1: 2, 8: 2})
    assert g.phase == "final_vote" and g.view()["vote"]["ballot"] == [0, 1]
    assert codes(g.state) == ["votes_revealed", "tie", "final_vote"]
    events = g.vote({voter: 0 for voter in (1, 2, 3, 4, 6)} | {voter: 1 for voter in (0, 7, 8)})
    assert only(events, "eliminated").data["seat"] == 0
    assert g.phase == "last_shot" and g.view()["last_shot"] == {"shooter": 0, "optional": True}


def test_B_S14_variant_a_clear_leader_is_out_at_once():
    g = Table(GRANNA, deal(9, mafiosi=[7, 8], agent=6), kids_single_vote=True)
    g.night(check=7, kill=5)
    g.end_discussion()
    events = g.vote({2: 0, 3: 0, 4: 0, 6: 0, 0: 1, 7: 1, 1: 2, 8: 2})
    assert only(events, "eliminated").data == {"seat": 0, "role": P, "cause": "lynch", "round": 1}
    assert "finalists" not in kinds(events) and g.phase == "agent"


# --------------------------------------------------------------------------------------------
# C.5 — Polish
# --------------------------------------------------------------------------------------------

def test_C_S01_table():
    """rules C-S01: T = R + 1; R 5–21."""
    assert counts(POLISH, 5) == {M: 1, A: 1, P: 3}
    assert counts(POLISH, 8) == {M: 2, A: 1, P: 5}
    assert counts(POLISH, 13) == {M: 3, A: 1, P: 9}
    assert counts(POLISH, 18) == {M: 4, A: 1, P: 13}
    assert counts(POLISH, 20) == {M: 5, A: 1, P: 14}
    assert counts(POLISH, 10, doctor=True, wizard=True, judge=True) == {
        M: 2, A: 1, P: 4, D: 1, W: 1, J: 1}
    polish = registry.engine(POLISH)
    for players in (4, 22):
        with pytest.raises(ValueError, match="5 to 21 players"):
            polish.setup(players, resolve_options(polish, {}), 1)


def test_C_S02_basic_turn():
    """rules C-S02: R=8, G={P2, P6}, A=P4."""
    g = Table(POLISH, deal(8, mafiosi=[2, 6], agent=4))
    events = g.night(check=6, kill=0)
    assert only(events, "checked").data["role"] == M and only(events, "checked").audience == [4]
    assert seats_out(g) == {0: (P, "night")}
    g.end_discussion()
    g.vote({1: 6, 3: 6, 4: 6, 5: 6, 6: 2, 7: 2, 2: 3})
    assert g.view()["finalists"] == [2, 6]
    g.end_defence()
    assert g.view()["vote"]["ballot"] == [2, 6]
    events = g.vote({voter: 6 for voter in (1, 3, 4, 5, 7)} | {2: 2, 6: 2})
    assert only(events, "eliminated").data == {"seat": 6, "role": M, "cause": "lynch", "round": 1}
    assert (g.phase, g.state["round"]) == ("agent", 2)


def test_C_S03_hearing_tie_for_second():
    """rules C-S03: A3, B2, C2 → heard {A, B, C}; the arrest ballot is {A, B, C}."""
    g = Table(POLISH, deal(8, mafiosi=[5, 6], agent=4))
    g.night(check=5, kill=7)
    g.end_discussion()
    g.vote({0: 1, 1: 2, 2: 0, 3: 0, 4: 0, 5: 1, 6: 2})
    assert g.view()["last_vote"]["tally"][:3] == [3, 2, 2]
    g.end_defence()
    assert g.view()["vote"]["ballot"] == [0, 1, 2]


def _arrest_tie(coins):
    g = Table(POLISH, deal(9, mafiosi=[6, 7], agent=5), coins=coins)
    g.night(check=6, kill=8)
    g.end_discussion()
    tie = {voter: 0 for voter in (1, 2, 3, 4)} | {voter: 1 for voter in (0, 5, 6, 7)}
    g.vote(tie)
    g.end_defence()
    g.vote(tie)
    assert g.phase == "re_discussion"
    g.end_discussion()
    return g


def test_C_S04_arrest_tie():
    """rules C-S04: ARREST 4–4 → "change your mind?" → re-vote 4–4 → coin (stub) → A."""
    g = _arrest_tie(coins=[0])
    events = g.vote({voter: 0 for voter in (1, 2, 3, 4)} | {voter: 1 for voter in (0, 5, 6, 7)})
    assert only(events, "coin").data == {"among": [0, 1], "seat": 0}
    assert only(events, "eliminated").data["seat"] == 0


def test_C_S04_variant_re_vote_5_3():
    g = _arrest_tie(coins=[0])
    events = g.vote({voter: 0 for voter in (1, 2, 3, 4, 5)} | {voter: 1 for voter in (0, 6, 7)})
    assert "coin" not in kinds(events) and only(events, "eliminated").data["seat"] == 0
    assert g.coins_left == [0] and lots(g.events) == []


def test_C_S05_agent_may_skip():
    """rules C-S05; C-Q5: the Polish agent "may" check; GRANNA's must."""
    g = Table(POLISH, deal(8, mafiosi=[2, 6], agent=4))
    assert g.moves(4)[-1] == {"type": "skip_check"}
    events = g.act(4, {"type": "skip_check"})
    assert kinds(events) == ["check_skipped"] and events[0].audience == [4]
    assert g.state["clock"]["seconds"] == 8
    g.timeout()
    assert g.phase == "mafia" and g.view(4)["me"]["checks"] == []
    granna = Table(GRANNA, deal(8, mafiosi=[2, 6], agent=4))
    assert {"type": "skip_check"} not in granna.moves(4)
    granna.refuse(4, {"type": "skip_check"}, "check_required")


def test_C_S06_agent_arrested():
    """rules C-S06: the arrested agent's token is shown; the next night has no agent step."""
    g = Table(POLISH, deal(8, mafiosi=[2, 6], agent=4))
    g.night(check=6, kill=0)
    g.lynch(4)
    assert seats_out(g)[4] == (A, "lynch")
    assert g.state["night_steps"] == ["mafia"] and g.phase == "mafia"


def test_C_S07_police_win():
    """rules C-S07: the last gangster arrested; dead policemen and the agent win too."""
    g = Table(POLISH, deal(5, mafiosi=[1], agent=3))
    g.night(check=0, kill=0)
    events = g.lynch(1)
    assert only(events, "game_over").data["winners"] == [0, 2, 3, 4]
    assert only(events, "game_over").data["reason"] == "mafia_eliminated"


def test_C_S08_gang_wins_by_killing_the_agent():
    """rules C-S08: the agent is the last police member; his death at night ends the game."""
    g = Table(POLISH, deal(6, mafiosi=[1], agent=3))
    g.night(check="skip", kill=0)
    g.lynch(2)
    g.night(check="skip", kill=4)
    g.lynch(5)
    assert g.living == [1, 3]
    events = g.night(check="skip", kill=3)
    assert only(events, "game_over").data["winner"] == "mafia"
    assert g.ruleset.outcome(g.state).winners == (1,)


def test_C_S09_doctor_saves():
    """rules C-S09; C.3.1: the doctor heals the victim → nobody dies; the saved is not named."""
    g = Table(POLISH, deal(10, mafiosi=[0, 1], agent=2, doctor=8), doctor=True)
    assert g.state["night_steps"] == ["agent", "doctor", "mafia"]
    events = g.night(check=0, heal=5, kill=5)
    assert only(events, "healed").audience == [8]
    assert only(events, "saved").audience == NOBODY and only(events, "saved").data == {"seat": 5}
    assert "eliminated" not in kinds(events)
    assert narration(g.state) == [("dawn", {"round": 1}), ("nobody_died", {}),
                                  ("discussion", {"round": 1})]
    assert g.view()["dawn"] == {"round": 1, "spell": False, "saved": None, "deaths": []}
    assert g.view()["seats"][5] == {"alive": True, "role": None, "cause": None}
    assert g.view(8)["me"]["heals"] == [{"round": 1, "doctor": 8, "target": 5}]
    assert g.view(5)["me"]["heals"] == []


def test_announce_saved_names_the_saved_player():
    g = Table(POLISH, deal(10, mafiosi=[0, 1], agent=2, doctor=8), doctor=True, announce_saved=True)
    events = g.night(check=0, heal=5, kill=5)
    assert only(events, "saved").audience == PUBLIC
    assert ("saved", {"seat": 5}) in narration(g.state) and g.view()["dawn"]["saved"] == 5


def test_C_S10_doctor_misses():
    g = Table(POLISH, deal(10, mafiosi=[0, 1], agent=2, doctor=8), doctor=True)
    g.night(check=0, heal=1, kill=5)
    assert seats_out(g) == {5: (P, "night")}


def test_C_S11_doctor_self_heal_then_dies():
    """rules C-S11: night 2 the doctor saves himself; night 3 he is killed; night 4 no doctor."""
    g = Table(POLISH, deal(10, mafiosi=[0, 1], agent=3, doctor=8), doctor=True)
    g.night(check=0, heal=2, kill=9)
    g.lynch(7)
    g.night(check=1, heal=8, kill=8)
    assert 8 in g.living and g.view()["dawn"]["deaths"] == []
    g.lynch(6)
    g.night(check=2, heal=2, kill=8)
    assert seats_out(g)[8] == (D, "night")
    assert ("killed", {"seat": 8, "role": D}) in narration(g.state)
    g.lynch(5)
    assert g.state["night_steps"] == ["agent", "mafia"]


def test_doctor_self_heal_off():
    g = Table(POLISH, deal(10, mafiosi=[0, 1], agent=3, doctor=8), doctor=True,
              doctor_self_heal=False)
    g.act(3, {"type": "check", "target": 0})
    g.timeout()
    assert {"type": "heal", "target": 8} not in g.moves(8)
    g.refuse(8, {"type": "heal", "target": 8}, "no_self_heal")
    g.act(8, {"type": "skip_heal"})
    g.timeout()
    assert g.phase == "mafia"


def test_C_S13_wizard_restrictions():
    """rules C-S13; C.3.2: once per game; not the dead, not one player twice, not himself."""
    g = Table(POLISH, deal(10, mafiosi=[0, 1], agent=2, wizard=9), wizard=True)
    assert g.state["night_steps"] == ["agent", "mafia", "wizard"]
    g.night(check=0, kill=5, swap="skip")
    assert g.phase == "discussion"
    g.lynch(6)
    g.act(2, {"type": "check", "target": 1})
    g.timeout()
    g.act(0, {"type": "pick_victim", "target": 7})
    g.act(1, {"type": "pick_victim", "target": 7})
    g.timeout()
    assert g.phase == "wizard"
    g.refuse(9, {"type": "cast_swap", "targets": [5, 3]}, "target_dead")
    g.refuse(9, {"type": "cast_swap", "targets": [7, 3]}, "target_dead")     # tonight's victim
    g.refuse(9, {"type": "cast_swap", "targets": [3, 3]}, "same_target")
    g.refuse(9, {"type": "cast_swap", "targets": [9, 3]}, "wizard_self")
    g.refuse(9, {"type": "cast_swap", "targets": [3]}, "bad_targets")
    g.refuse(3, {"type": "cast_swap", "targets": [3, 4]}, "not_your_turn")
    targets = {seat for move in g.moves(9) if move["type"] == "cast_swap" for seat in move["targets"]}
    assert targets == {0, 1, 2, 3, 4, 8}
    events = g.act(9, {"type": "cast_swap", "targets": [4, 3]})
    assert only(events, "swap_cast").data == {"round": 2, "wizard": 9, "targets": [3, 4]}
    assert only(events, "swap_cast").audience == [9]
    g.refuse(9, {"type": "skip_swap"}, "already_acted")
    assert g.view(9)["me"]["swap"] == {"round": 2, "targets": [3, 4], "pending": True}
    g.timeout()
    assert g.view()["spell_used"] and g.view()["dawn"]["spell"]
    assert codes(g.state)[:2] == ["dawn", "spell_cast"]
    g.lynch(8)
    assert "wizard" not in g.state["night_steps"]


def test_C_S14_wizard_moves_the_agent():
    """rules C-S14: the agent P4 ↔ policeman P0; P0 checks from the next night, P4 keeps his old
    results and checks no more; every later check shows current cards."""
    g = Table(POLISH, deal(10, mafiosi=[5, 6], agent=4, wizard=9), wizard=True)
    events = g.night(check=5, kill=7, swap=[4, 0])
    assert [(e.audience, e.data) for e in events if e.kind == "role"] == [
        ([0], {"role": A, "team": "police"}), ([4], {"role": P, "team": "police"})]
    assert g.roles[0] == A and g.roles[4] == P
    assert g.view(0)["me"]["role"] == A and g.view(4)["me"]["role"] == P
    assert g.view(4)["me"]["checks"] == [{"round": 1, "agent": 4, "target": 5, "role": M}]
    g.lynch(8)
    assert g.phase == "agent" and g.ruleset.waiting_for(g.state) == [0]
    assert g.moves(4) == []
    g.refuse(4, {"type": "check", "target": 5}, "not_your_turn")
    g.act(0, {"type": "check", "target": 6})
    assert g.view(0)["me"]["checks"] == [{"round": 2, "agent": 0, "target": 6, "role": M}]
    assert len(g.view(4)["me"]["checks"]) == 1


def test_wizard_swap_of_a_mafioso_and_team_memory():
    """rules C.3.2 consequences: the ex-mafioso keeps his memory, the new one meets the gang at
    the next mafia step; later win checks use the new cards."""
    g = Table(POLISH, deal(8, mafiosi=[1, 2], agent=3, wizard=7), wizard=True)
    assert g.view(1)["me"]["partners"] == []          # before the first meeting
    g.night(check=1, kill=6, swap=[2, 5])
    assert g.roles[2] == P and g.roles[5] == M
    assert g.view(2)["me"]["partners"] == [1] and g.view(2)["me"]["team"] == "police"
    assert g.view(5)["me"]["partners"] == [] and g.view(5)["me"]["role"] == M
    g.lynch(4)
    assert g.phase == "agent"
    g.act(3, {"type": "check", "target": 5})
    assert g.view(3)["me"]["checks"][-1]["role"] == M
    g.timeout()
    assert g.phase == "mafia" and g.ruleset.waiting_for(g.state) == [1, 5]
    assert g.view(5)["me"]["partners"] == [1] and g.view(1)["me"]["partners"] == [2, 5]
    assert {"type": "pick_victim", "target": 2} in g.moves(1)
    g.act(1, {"type": "pick_victim", "target": 0})
    g.act(5, {"type": "pick_victim", "target": 0})
    g.timeout()
    g.lynch(1)
    g.night(check=2, kill=2)
    events = g.lynch(5)
    assert only(events, "game_over").data["winner"] == "police"
    assert g.ruleset.outcome(g.state).winners == (0, 2, 3, 4, 6, 7)
    assert g.view()["reveal"]["swap"] == {"round": 1, "wizard": 7, "targets": [2, 5]}
    assert g.view()["reveal"]["dealt"][2] == M and g.view()["reveal"]["roles"][2] == P


def test_wizard_swap_moves_the_judge_card_with_its_used_flag():
    """rules C.3.2: the whole card moves, the judge's used flag included."""
    g = Table(POLISH, deal(10, mafiosi=[0, 1], agent=2, wizard=9, judge=3), wizard=True, judge=True)
    g.night(check=0, kill=8, swap="skip")
    g.end_discussion()
    g.vote({seat: 4 for seat in g.living if seat != 4} | {4: 5}, double=3)
    assert g.view()["judge_used"] is True
    g.end_defence()
    g.vote({seat: 4 for seat in g.living if seat != 4} | {4: 5})
    g.night(check=1, kill=7, swap=[3, 6])
    assert g.roles[6] == J and g.view(6)["me"]["judge_used"] is True
    g.end_discussion()
    g.refuse(6, {"type": "vote", "target": 5, "double": True}, "judge_used")


def test_C_S17_kill_targets():
    """rules C-S17; B.2.5: only living non-gangsters; no unanimity → plurality, tie → draw."""
    g = Table(POLISH, deal(13, mafiosi=[0, 1, 2], agent=3), coins=[5])
    g.act(3, {"type": "skip_check"})
    g.timeout()
    for mafioso in (0, 1, 2):
        assert [move["target"] for move in g.moves(mafioso)] == list(range(3, 13))
    assert g.moves(3) == [] and g.view(3)["me"]["picks"] is None
    g.refuse(0, {"type": "pick_victim", "target": 1}, "fellow_mafioso")
    g.refuse(3, {"type": "pick_victim", "target": 5}, "not_your_turn")
    g.act(0, {"type": "pick_victim", "target": 5})
    g.act(1, {"type": "pick_victim", "target": 6})
    g.act(1, {"type": "pick_victim", "target": 5})      # a pick may be changed
    g.act(2, {"type": "pick_victim", "target": 7})
    assert g.ruleset.waiting_for(g.state) == [0, 1, 2]   # no unanimity yet
    events = g.timeout()
    assert only(events, "victim_chosen").data == {"how": "plurality", "candidates": [5], "victim": 5}
    assert only(events, "victim_chosen").audience == [0, 1, 2]
    assert seats_out(g) == {5: (P, "night")}
    assert g.coins_left == [5] and lots(g.events) == []     # no draw needed


def test_mafia_deadline_tie_is_drawn_among_the_tied():
    g = Table(POLISH, deal(8, mafiosi=[0, 1], agent=3), coins=[6])
    g.night(check="skip", picks={0: 5, 1: 6})
    assert seats_out(g) == {6: (P, "night")}
    victim = [e for e in g.events if e.kind == "victim_chosen"][-1]
    assert victim.data == {"how": "random", "candidates": [5, 6], "victim": 6}
    assert victim.audience == [0, 1]
    # the lot is the chance kit's draw, told to the mafiosi only (their picks are private, B.4)
    [lot] = [event for event in g.events if event.kind == chance.CHANCE and event.data["label"] == "lot"]
    assert lot.audience == [0, 1] and lot.data["result"] == 6 and lot.data["why"] == "victim"


def test_mafia_without_picks_draws_among_every_target():
    g = Table(POLISH, deal(8, mafiosi=[0, 1], agent=3), coins=[7])
    g.night(check="skip")
    victim = [e for e in g.events if e.kind == "victim_chosen"][-1]
    assert victim.data == {"how": "random", "candidates": [2, 3, 4, 5, 6, 7], "victim": 7}
    assert seats_out(g) == {7: (P, "night")}


# --------------------------------------------------------------------------------------------
# Pure functions: votes.py, night.py
# --------------------------------------------------------------------------------------------

def test_tally_counts_the_judges_vote_double():
    assert V.tally([1, 2, None, 1], 4) == [0, 2, 1, 0]
    assert V.tally([1, 2, None, 2], 4, double=0) == [0, 2, 2, 0]


@pytest.mark.parametrize(("counts", "finalists"), [
    ([5, 3, 2, 0], [0, 1]),             # the two with the most votes
    ([4, 3, 3, 1], [0, 1, 2]),          # a tie for second: all of them
    ([3, 3, 3, 1], [0, 1, 2]),          # a tie for first: all tied, not the next
    ([3, 3, 1, 1], [0, 1]),
    ([2, 0, 1, 1, 0], [0, 2, 3]),
    ([6, 0, 0], [0]),                   # a lone finalist (rules B.2.1, 3.)
    ([0, 0, 0], []),
])
def test_finalists(counts, finalists):
    assert V.finalists(counts) == finalists


def test_decide_and_leaders():
    assert V.decide([5, 3, 0]) == (0, [0])
    assert V.decide([5, 5, 0]) == (None, [0, 1])
    assert V.leaders([0, 0]) == []


def test_night_unanimity_and_plurality():
    mafiosi = [0, 1, 2]
    assert night_rules.unanimous([4, 4, 4, None, None], mafiosi) == 4
    assert night_rules.unanimous([4, 4, None, None, None], mafiosi) is None
    assert night_rules.unanimous([4, 4, 3, None, None], mafiosi) is None
    assert night_rules.unanimous([4, 4, 3, None, None], [0, 1]) == 4       # only the living count
    assert night_rules.plurality([4, 4, 3, None, None], mafiosi) == [4]
    assert night_rules.plurality([4, 3, None, None, None], mafiosi) == [3, 4]
    assert night_rules.plurality([None] * 5, mafiosi) == []


def test_night_deadline_victim():
    def never(among):
        pytest.fail("no draw expected")

    assert night_rules.deadline_victim([4, 4, 4, None], [0, 1, 2], [3], never) == (4, "unanimous", [4])
    assert night_rules.deadline_victim([4, 4, 3, None, None], [0, 1, 2], [3, 4], never) == (
        4, "plurality", [4])
    drawn = []
    assert night_rules.deadline_victim([4, 3, None, None, None], [0, 1, 2], [3, 4],
                                       lambda among: drawn.append(among) or among[-1]) == (
        4, "random", [3, 4])
    assert drawn == [[3, 4]]
    assert night_rules.deadline_victim([None] * 5, [0, 1], [2, 3, 4], lambda among: among[0]) == (
        2, "random", [2, 3, 4])
    assert night_rules.deadline_victim([None] * 2, [0, 1], [], never) == (None, "random", [])


def test_the_deadline_draw_is_fair_and_seeded():
    seen = {}
    for seed in range(40):
        g = Table(POLISH, deal(8, mafiosi=[0, 1], agent=3), seed=seed)
        g.night(check="skip", picks={0: 5, 1: 6})
        victim = [e for e in g.events if e.kind == "victim_chosen"][-1].data["victim"]
        again = Table(POLISH, deal(8, mafiosi=[0, 1], agent=3), seed=seed)
        again.night(check="skip", picks={0: 5, 1: 6})
        assert again.state == g.state
        seen[victim] = seen.get(victim, 0) + 1
    assert set(seen) == {5, 6} and min(seen.values()) >= 10


# --------------------------------------------------------------------------------------------
# The clock (engines/base.py) and the host's moves
# --------------------------------------------------------------------------------------------

def test_clock_id_changes_per_step_and_seconds_drop_to_the_minimum():
    g = Table(POLISH, deal(8, mafiosi=[0, 1], agent=3), deadline_seconds="90", night_seconds="5")
    first = g.state["clock"]
    assert first == {"id": 1, "seconds": 90, "move": TIMEOUT}
    assert g.view()["clock"] == {"id": 1, "seconds": 90}
    assert g.moves(None) == [TIMEOUT] and g.host_moves() == []
    g.act(3, {"type": "check", "target": 0})
    assert g.state["clock"] == {"id": 1, "seconds": 5, "move": TIMEOUT}
    g.timeout()
    assert g.state["clock"] == {"id": 2, "seconds": 90, "move": TIMEOUT}
    g.act(0, {"type": "pick_victim", "target": 4})
    assert g.state["clock"]["seconds"] == 90             # not agreed yet
    g.act(1, {"type": "pick_victim", "target": 4})
    assert g.state["clock"] == {"id": 2, "seconds": 5, "move": TIMEOUT}
    g.refuse(0, {"type": "pick_victim", "target": 5}, "locked")
    g.timeout()
    assert g.phase == "discussion" and g.state["clock"] is None
    assert g.moves(None) == [] and g.moves(HOST) == [{"type": "end_discussion"}]   # no clock: the host's
    assert g.host_moves() == [{"type": "end_discussion"}]
    g.refuse(None, TIMEOUT, "no_clock")
    g.refuse(2, {"type": "end_discussion"}, "host_only")
    g.end_discussion()
    assert g.moves(None) == [] and g.host_moves() == []
    g.vote({2: 3, 3: 2, 5: 3, 6: 3, 7: 3, 0: 2, 1: 2})
    assert g.phase == "defence" and g.moves(HOST) == [{"type": "end_defence"}]


def test_discussion_clock():
    g = Table(GRANNA, deal(8, mafiosi=[0, 1], agent=3), discussion_minutes="3")
    ids = set()
    while g.phase != "discussion":
        ids.add(g.state["clock"]["id"])
        g.timeout()
    assert g.state["clock"] == {"id": 3, "seconds": 180, "move": {"type": "end_discussion"}}
    assert ids == {1, 2}
    assert g.moves(None) == [{"type": "end_discussion"}]
    assert g.host_moves() == [{"type": "end_discussion"}]
    g.act(None, {"type": "end_discussion"})
    assert g.phase == "vote" and g.state["clock"] is None


def test_night_steps_are_the_same_for_everyone_but_their_actors():
    """rules §0 anti-tell: only the actors have moves; the step ends by the clock alone."""
    g = Table(POLISH, deal(8, mafiosi=[0, 1], agent=3))
    for seat in (0, 1, 2, 4):
        assert g.moves(seat) == []
    assert g.view(0)["me"]["picks"] is None      # not in the mafia step yet
    g.act(3, {"type": "check", "target": 0})
    assert g.phase == "agent"                  # the check does not end the step


# --------------------------------------------------------------------------------------------
# Who may know what (rules B.4, C.4)
# --------------------------------------------------------------------------------------------

def test_check_results_reach_only_the_agent():
    g = Table(GRANNA, deal(9, mafiosi=[0, 1], agent=4))
    events = g.night(check=0, kill=6)
    assert only(events, "checked").audience == [4]
    for seat in range(9):
        expected = [{"round": 1, "agent": 4, "target": 0, "role": M}] if seat == 4 else []
        assert g.view(seat)["me"]["checks"] == expected
    assert "check" not in str(g.view()).replace("checks", "")


def test_agent_sees_team_or_card():
    team = Table(POLISH, deal(10, mafiosi=[0, 1], agent=2, doctor=3), doctor=True)
    team.act(2, {"type": "check", "target": 3})
    assert team.view(2)["me"]["checks"][0]["role"] == P
    card = Table(POLISH, deal(10, mafiosi=[0, 1], agent=2, doctor=3), doctor=True, agent_sees="card")
    card.act(2, {"type": "check", "target": 3})
    assert card.view(2)["me"]["checks"][0]["role"] == D


def test_mafiosi_meet_at_the_first_mafia_step():
    g = Table(GRANNA, deal(9, mafiosi=[0, 1], agent=4))
    assert g.view(0)["me"]["partners"] == [] and g.view(4)["me"]["partners"] == []
    g.act(4, {"type": "check", "target": 2})
    g.timeout()
    meeting = only(g.last, "mafia_meeting")
    assert meeting.audience == [0, 1] and meeting.data == {"round": 1, "mafiosi": [0, 1]}
    assert g.view(0)["me"]["partners"] == [1] and g.view(1)["me"]["partners"] == [0]
    assert g.view(0)["me"]["picks"] == [{"seat": 0, "target": None}, {"seat": 1, "target": None}]
    assert g.view(2)["me"]["picks"] is None and g.view()["me"] is None


def test_ghost_view():
    """rules B.2.3 (PROPOSED ghost_view): the dead see every role and the night's actions."""
    g = Table(GRANNA, deal(9, mafiosi=[0, 1], agent=4))
    g.night(check=0, kill=6)
    g.lynch(7)
    g.act(4, {"type": "check", "target": 1})
    ghost = g.view(6)["me"]["ghost"]
    assert ghost["roles"] == g.roles
    assert ghost["night"]["round"] == 2 and ghost["night"]["check"] == {"agent": 4, "target": 1, "role": M}
    g.timeout()
    g.act(0, {"type": "pick_victim", "target": 8})
    assert g.view(7)["me"]["ghost"]["night"]["picks"] == [{"seat": 0, "target": 8}]
    assert g.view(7)["me"]["alive"] is False and g.view(7)["me"]["moves"] == []
    g.refuse(7, {"type": "pick_victim", "target": 1}, "dead")
    for seat in g.living:
        assert g.view(seat)["me"]["ghost"] is None
    off = Table(GRANNA, deal(9, mafiosi=[0, 1], agent=4), ghost_view=False)
    off.night(check=0, kill=6)
    me = off.view(6)["me"]
    assert me["ghost"] is None and me["alive"] is False and me["keep_secret"] is False


def test_a_cast_vote_is_not_shown_until_the_reveal():
    g = Table(GRANNA, deal(9, mafiosi=[0, 1], agent=4))
    g.night(check=0, kill=6)
    g.end_discussion()
    g.act(2, {"type": "vote", "target": 0})
    assert g.view()["vote"] == {"kind": "vote", "ballot": [0, 1, 2, 3, 4, 5, 7, 8], "voted": [2],
                                "voters": [0, 1, 2, 3, 4, 5, 7, 8]}
    assert g.view(2)["me"]["voted"] is True and g.view(2)["me"]["moves"] == []
    assert "0" not in str(g.view(2)["me"]["moves"]) and g.view()["last_vote"] is None
    g.refuse(2, {"type": "vote", "target": 1}, "already_voted")
    g.refuse(6, {"type": "vote", "target": 1}, "dead")
    g.refuse(3, {"type": "vote", "target": 3}, "no_self_vote")
    g.refuse(3, {"type": "vote", "target": 6}, "target_dead")
    g.refuse(3, {"type": "vote", "target": 40}, "unknown_seat")
    g.refuse(3, {"type": "vote", "target": "x"}, "bad_target")


def test_judge_doubles_one_vote_once():
    """rules C.3.3: once per game the judge's vote counts double, announced with the votes."""
    g = Table(POLISH, deal(9, mafiosi=[0, 1], agent=4, judge=5), judge=True)
    g.night(check=0, kill=8)
    g.end_discussion()
    moves = g.moves(5)
    assert {"type": "vote", "target": 2, "double": True} in moves and len(moves) == 14
    g.refuse(2, {"type": "vote", "target": 3, "double": True}, "not_judge")
    g.refuse(5, {"type": "vote", "target": 3, "double": "yes"}, "bad_double")
    events = g.vote({0: 2, 1: 2, 2: 3, 3: 2, 4: 3, 5: 3, 6: 7, 7: 6}, double=5)
    revealed = only(events, "votes_revealed").data
    assert revealed["double"] == 5 and revealed["tally"][3] == 4 and revealed["tally"][2] == 3
    assert ("judge_double", {"seat": 5}) in narration(g.state)
    assert g.view()["finalists"] == [2, 3] and g.view()["judge_used"] is True
    g.end_defence()
    assert all("double" not in move for move in g.moves(5))
    g.refuse(5, {"type": "vote", "target": 3, "double": True}, "judge_used")


def test_arrest_scope_anyone():
    g = Table(POLISH, deal(8, mafiosi=[0, 1], agent=3), arrest_scope="anyone")
    g.night(check=0, kill=7)
    g.end_discussion()
    g.vote({0: 2, 1: 2, 2: 4, 3: 2, 4: 2, 5: 2, 6: 4})
    g.end_defence()
    assert g.view()["vote"]["ballot"] == [0, 1, 2, 3, 4, 5, 6]
    assert {"type": "vote", "target": 3} in g.moves(3)        # self allowed
    events = g.vote({seat: 5 for seat in range(7) if seat != 5} | {5: 0})
    assert only(events, "eliminated").data["seat"] == 5


# --------------------------------------------------------------------------------------------
# Children's version (rules B.3.3), each option on its own
# --------------------------------------------------------------------------------------------

def test_kids_no_agent():
    g = Table(GRANNA, deal(9, mafiosi=[0, 1]), kids_no_agent=True)
    assert g.state["role_counts"] == {M: 2, A: 0, P: 7}
    assert g.state["night_steps"] == ["mafia"] and g.phase == "mafia"
    with pytest.raises(ValueError):
        Table(GRANNA, deal(9, mafiosi=[0, 1], agent=2), kids_no_agent=True)


def test_kids_last_shot_all():
    """Every player out at night or by the vote may shoot (optional); not the shot ones."""
    g = Table(GRANNA, deal(9, mafiosi=[0, 1], agent=4), kids_last_shot_all=True)
    g.night(check=0, kill=6)
    assert g.view()["last_shot"] == {"shooter": 6, "optional": True}
    assert g.moves(6)[-1] == {"type": "skip_last_shot"}
    g.act(6, {"type": "skip_last_shot"})
    assert g.phase == "discussion"
    g.lynch(7)
    assert g.view()["last_shot"] == {"shooter": 7, "optional": True}
    g.act(7, {"type": "last_shot", "target": 0})
    assert seats_out(g)[0] == (M, "last_shot") and g.phase == "agent"
    g.night(check=1, kill=8)
    assert g.phase == "last_shot" and g.state["round"] == 2


def test_kids_single_vote_alone():
    g = Table(GRANNA, deal(9, mafiosi=[0, 1], agent=4), kids_single_vote=True)
    g.night(check=0, kill=6)
    g.end_discussion()
    events = g.vote({seat: 2 for seat in g.living if seat != 2} | {2: 3})
    assert only(events, "eliminated").data["seat"] == 2 and g.phase == "agent"


def test_kids_retheme_changes_only_words():
    plain = Table(GRANNA, deal(9, mafiosi=[0, 1], agent=4))
    themed = Table(GRANNA, deal(9, mafiosi=[0, 1], agent=4), kids_retheme=True)
    assert themed.view()["options"]["kids_retheme"] is True
    for table in (plain, themed):
        table.night(check=0, kill=6)
        table.lynch(2)
    assert plain.state["secret"] == themed.state["secret"]
    assert {k: v for k, v in plain.view().items() if k != "options"} == \
        {k: v for k, v in themed.view().items() if k != "options"}


# --------------------------------------------------------------------------------------------
# Refusals and the action contract
# --------------------------------------------------------------------------------------------

def test_refusal_codes():
    g = Table(POLISH, deal(10, mafiosi=[0, 1], agent=2, doctor=3, wizard=4), doctor=True, wizard=True)
    g.refuse(2, "check", "bad_action")
    g.refuse(2, {"type": "fly"}, "unknown_action")
    g.refuse(2, {"type": "check"}, "bad_target")
    g.refuse(12, {"type": "check", "target": 0}, "bad_seat")
    g.refuse(None, {"type": "check", "target": 0}, "not_your_turn")
    g.refuse(5, {"type": "check", "target": 0}, "not_your_turn")
    g.refuse(2, {"type": "check", "target": 2}, "self_target")
    g.refuse(2, {"type": "heal", "target": 2}, "wrong_phase")
    g.refuse(2, {"type": "last_shot", "target": 1}, "wrong_phase")
    g.refuse(HOST, {"type": "end_defence"}, "wrong_phase")
    g.act(2, {"type": "check", "target": 0})
    g.refuse(2, {"type": "check", "target": 1}, "already_acted")
    g.timeout()
    g.refuse(3, {"type": "heal", "target": 12}, "unknown_seat")
    assert isinstance(g.refuse(3, {"type": "heal", "target": 12}, "unknown_seat"), IllegalAction)
    assert isinstance(g.refuse(2, {"type": "fly"}, "unknown_action"), MalformedAction)


def test_game_over_refuses_everything():
    g = _play_to_mafia_win()
    g.night(kill=4)
    g.refuse(1, {"type": "vote", "target": 4}, "game_over")
    g.refuse(None, TIMEOUT, "game_over")
    assert all(g.moves(seat) == [] for seat in (None, *range(8)))


def test_setup_rejects_bad_deals_and_options():
    granna = registry.engine(GRANNA)
    options = resolve_options(granna, {})
    with pytest.raises(ValueError):
        granna.setup(8, {**options, "doctor": True}, 1)
    with pytest.raises(ValueError):
        granna.setup(8, options, 1, deal={"kmotr": 1})
    with pytest.raises(ValueError):
        granna.setup(8, options, 1, deal={"coins": [9]})
    assert granna.setup(8, options, 1).state == granna.setup(8, options, 1).state


def test_the_deal_is_the_chance_kits_shuffle_told_to_nobody():
    """rules B.1: the tokens are shuffled and dealt; the shuffle is the game's first draw of the
    chance kit (engines/chance.py), the game master's alone; a forced deal is its outcome."""
    granna = registry.engine(GRANNA)
    options = resolve_options(granna, {})
    box = role_list(8, EDITIONS[GRANNA].rules(options))
    for seed in (1, 2):
        state, events = granna.setup(8, options, seed)
        assert state["secret"]["roles"] == chance.shuffle(chance.new(seed), "deal", box).value
        [draw] = [event for event in events if event.kind == chance.CHANCE]
        assert draw.audience == NOBODY and draw.data["forced"] is False
    forced = deal(8, mafiosi=[0, 1], agent=2)
    state, events = granna.setup(8, options, 1, deal={"roles": forced})
    assert state["secret"]["roles"] == forced
    assert chance.draws(events) == [
        {"label": "deal", "how": "shuffle", "result": forced, "forced": True}]


# --------------------------------------------------------------------------------------------
# Big tables: the contract and no-leak suites play 5–13 players (playthrough.PLAYER_COUNTS, for
# speed); these games check 20–21 players, the large-game rule included, on sampled states.
# --------------------------------------------------------------------------------------------

BIG_TABLES = [
    (GRANNA, 21, {}),
    (GRANNA, 20, {"kids_last_shot_all": True, "kids_single_vote": True, "discussion_minutes": "2"}),
    (POLISH, 21, {"doctor": True, "wizard": True, "judge": True, "arrest_scope": "anyone",
                  "agent_sees": "card"}),
]


@pytest.mark.parametrize(("slug", "players", "chosen"), BIG_TABLES,
                         ids=[f"{slug}-{players}" for slug, players, _ in BIG_TABLES])
def test_big_tables_keep_the_contract_and_leak_nothing(slug, players, chosen):
    import random

    from tests.engines.knowledge import KNOWLEDGE
    from tests.engines.playthrough import checked_apply, random_playthrough

    ruleset = registry.engine(slug)
    options = resolve_options(ruleset, chosen)
    play = random_playthrough(ruleset, players, options, 0)
    assert ruleset.outcome(play.final) is not None and ruleset.waiting_for(play.final) == []
    state, events = replay(ruleset, players, options, 0, None, play.actions)
    assert state == play.final
    assert [e.to_json() for e in events] == [e.to_json() for e in play.events]
    knowledge, chooser = KNOWLEDGE[slug], random.Random(0)
    for event in play.events:
        assert knowledge.event_problem(event, play.final) is None, event
    for index, state in enumerate(play.states[:-1]):
        if index % 3:
            continue
        seats = ruleset.waiting_for(state) or movers(ruleset, state)
        for seat in chooser.sample(seats, min(3, len(seats))):
            actions = ruleset.legal_actions(state, seat)
            assert actions
            for action in chooser.sample(actions, min(4, len(actions))):
                checked_apply(ruleset, state, seat, action)
        for viewer in [None, *range(players)]:
            shown = ruleset.view(state, viewer)
            for variant in knowledge.variants(state, viewer, chooser):
                assert ruleset.view(variant, viewer) == shown, (index, viewer, state["phase"])
    offered = [event.data["shooter"] for event in play.events if event.kind == "last_shot_offered"]
    assert offered or slug == POLISH


# --------------------------------------------------------------------------------------------
# The no-leak oracle (tests/engines/knowledge.py) catches classic leaks
# --------------------------------------------------------------------------------------------

def _leaks(slug, leaky, **options):
    from tests.engines.knowledge import KNOWLEDGE
    from tests.engines.playthrough import playthroughs
    from tests.engines.test_no_leak import leaks

    ruleset = registry.engine(slug)
    plays = playthroughs(ruleset, resolve_options(ruleset, options), seeds=(0,))[:2]
    found, _ = leaks(ruleset, KNOWLEDGE[slug], plays, view=leaky)
    return found


def test_the_oracle_catches_the_tv_showing_the_mafia():
    ruleset = registry.engine(GRANNA)

    def leaky(state, seat):
        roles = state["secret"]["roles"]
        return {**ruleset.view(state, seat), "spy": [role == M for role in roles]}

    assert any("the TV" in line for line in _leaks(GRANNA, leaky))


def test_the_oracle_catches_picks_shown_to_the_town():
    ruleset = registry.engine(GRANNA)

    def leaky(state, seat):
        return {**ruleset.view(state, seat), "spy": state["secret"]["night"]["picks"]}

    found = _leaks(GRANNA, leaky)
    assert any("phase mafia" in line for line in found)


def test_the_oracle_catches_someone_elses_check():
    ruleset = registry.engine(POLISH)

    def leaky(state, seat):
        shown = ruleset.view(state, seat)
        if seat is not None:
            shown["me"]["spy"] = [record["target"] for record in state["secret"]["checks"]]
        return shown

    assert _leaks(POLISH, leaky)


def test_the_oracle_catches_a_phone_that_shows_its_own_vote():
    ruleset = registry.engine(POLISH)

    def leaky(state, seat):
        shown = ruleset.view(state, seat)
        if seat is not None:
            shown["me"]["spy"] = state["secret"]["ballots"][seat]
        return shown

    found = _leaks(POLISH, leaky)
    assert found and all("the TV" not in line for line in found)


def test_the_oracle_catches_the_doctors_heal_and_the_wizards_pair():
    ruleset = registry.engine(POLISH)

    def leaky(state, seat):
        tonight = state["secret"]["night"]
        return {**ruleset.view(state, seat), "spy": [tonight["heal"], tonight["swap"]]}

    assert _leaks(POLISH, leaky, doctor=True, wizard=True)
