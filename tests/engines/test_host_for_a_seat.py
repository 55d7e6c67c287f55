"""The host acting for a player whose phone is gone (issue 14; engines/base.py "proxy" and
"remove_player"), per ruleset, as each rulebook allows — see "Our decisions" in
docs/rules/<ruleset>.md:

* Mafie: the host may vote (and tap ready) for a seat (rules A-Q15); nobody can be removed.
* Classic: the host may cast a seat's day vote (public by name, rules §0), never a night
  action nor the judge's double; REMOVE_FOR_CHEATING (rules B.2.3) puts the player out with
  the token face up, then the win check, and voids what he still had to do.
* Mrakošlapi: no proxy (every step has a clock; an absent player raises no hand); by day the
  host can remove a player, who dies for good without what a death could set off."""

from __future__ import annotations

import pytest

from engines.base import HOST, EngineError
from engines.classic.engine import RULESETS as CLASSIC
from engines.mafie import RULESET as MAFIE
from engines.mrakoslapi import cards as C
from engines.mrakoslapi.engine import RULESET as MRAK

from .classic_helpers import A, M, P, Table as ClassicTable, codes, deal, kinds
from .mafie_helpers import Table as MafieTable
from .test_mrakoslapi_engine_game import DEAL as MRAK_DEAL, Game as MrakGame


def proxy(seat: int, action: dict) -> dict:
    return {"type": "proxy", "seat": seat, "action": action}


def remove(seat: int) -> dict:
    return {"type": "remove_player", "seat": seat}


# --- Mafie -------------------------------------------------------------------------------------

def test_mafie_the_host_votes_for_an_absent_seat_and_it_counts_like_his_own():
    t = MafieTable(5, detectives={3, 4}, kmotr=0)
    t.act(HOST, proxy(2, {"type": "ready"}))          # the meeting's "I'm ready" tells nothing
    assert 2 in t.state["ready"] and t.last[0].kind == "proxied" and t.last[0].audience == "public"
    for seat in (0, 1, 3, 4):
        t.act(seat, {"type": "ready"})
    t.propose([0, 1])
    assert MAFIE.proxy_moves(t.state) == {s: [{"type": "vote", "approve": True}, {"type": "vote", "approve": False}]
                                           for s in range(5)}
    t.act(HOST, proxy(3, {"type": "vote", "approve": False}))
    assert t.state["secret"]["ballots"][3] is False and ("proxy_vote", {"seat": 3}) in [
        (line["code"], line["params"]) for line in t.state["narration"]]
    t.refuse(HOST, proxy(3, {"type": "vote", "approve": True}), "not_your_turn")   # voted already
    for seat in (0, 1, 2, 4):
        t.act(seat, {"type": "vote", "approve": True})
    assert t.state["last_vote"]["votes"][3] is False and t.phase == "action_play"


def test_mafie_the_host_makes_no_secret_choice_nobody_else_proxies_and_nobody_is_removed():
    t = MafieTable(5, detectives={3, 4}, kmotr=0)
    t.ready_all()
    t.refuse(HOST, proxy(0, {"type": "propose_team", "team": [0, 1]}), "not_proxiable")   # the Kmotr's plan
    t.propose([0, 1])
    t.vote()
    assert MAFIE.proxy_moves(t.state) == {}                    # action cards are secret
    t.refuse(HOST, proxy(0, {"type": "play_action_card", "card": "success"}), "not_proxiable")
    t.refuse(1, proxy(0, {"type": "play_action_card", "card": "success"}), "host_only")
    t.refuse(HOST, remove(1), "no_removal")
    t.refuse(HOST, {"type": "proxy", "seat": 9, "action": {"type": "ready"}}, "bad_seat")
    t.refuse(HOST, {"type": "proxy", "seat": 1, "action": proxy(1, {"type": "ready"})}, "bad_proxy")
    assert MAFIE.removable(t.state) == []


# --- classic -----------------------------------------------------------------------------------

def test_classic_the_host_casts_a_day_vote_for_an_absent_player_never_a_night_choice():
    t = ClassicTable("mafia_pl", deal(9, mafiosi=(0, 1), agent=2, judge=4), judge=True)
    assert t.phase == "agent"
    assert CLASSIC["mafia_pl"].proxy_moves(t.state) == {}           # nothing at night
    t.refuse(HOST, proxy(2, {"type": "check", "target": 0}), "not_proxiable")
    t.night(kill=6)
    t.end_discussion()
    moves = CLASSIC["mafia_pl"].proxy_moves(t.state)
    assert sorted(moves) == t.living and all(m["type"] == "vote" and "double" not in m for m in moves[4])
    t.refuse(HOST, proxy(4, {"type": "vote", "target": 0, "double": True}), "not_proxiable")   # the judge's card
    t.act(HOST, proxy(3, {"type": "vote", "target": 0}))
    assert kinds(t.last) == ["proxied", "vote_cast"] and t.state["vote"]["voted"] == [3]
    t.refuse(HOST, proxy(3, {"type": "vote", "target": 1}), "not_your_turn")
    t.refuse(HOST, proxy(3, {"type": "vote", "target": 3}), "not_your_turn")
    t.vote({voter: 0 for voter in t.living if voter not in (0, 3)} | {0: 1})
    assert t.state["last_vote"]["votes"][3] == 0


def test_classic_removal_reveals_the_token_checks_the_win_and_ends_the_game_when_it_decides():
    t = ClassicTable("granna", deal(7, mafiosi=(0,), agent=1))
    t.night(check=3, kill=5)
    assert t.phase == "discussion"
    t.act(HOST, remove(0))          # the only mafioso is caught peeking
    assert t.state["dead"][0] == {"cause": "removed", "round": 1, "role": M}
    assert [e.kind for e in t.last] == ["eliminated", "game_over"]
    assert t.last[0].data == {"seat": 0, "role": M, "cause": "removed", "round": 1} and t.last[0].audience == "public"
    assert t.state["outcome"]["winner"] == "police" and "removed" in codes(t.state)
    t.refuse(HOST, remove(1), "game_over")


def test_classic_a_removal_in_a_vote_starts_the_vote_afresh_without_the_removed():
    t = ClassicTable("mafia_pl", deal(9, mafiosi=(0, 1), agent=2))
    t.night(kill=6)
    t.end_discussion()
    t.act(3, {"type": "vote", "target": 5})
    turn = t.state["turn"]
    t.act(HOST, remove(5))
    # Nobody learns who had voted for 5: every ballot goes, the ballot lists the living others.
    assert t.state["vote"]["voted"] == [] and t.state["turn"] > turn
    assert t.state["vote"]["ballot"] == [s for s in t.living] and 5 not in t.living
    assert t.state["secret"]["ballots"] == [None] * 9


def test_classic_a_removal_at_night_voids_the_removed_players_part():
    t = ClassicTable("mafia_pl", deal(9, mafiosi=(0, 1), agent=2))
    t.act(2, {"type": "check", "target": 4})
    t.timeout()
    while t.phase != "mafia":
        t.timeout()
    t.act(0, {"type": "pick_victim", "target": 7})
    t.act(1, {"type": "pick_victim", "target": 7})
    assert t.state["secret"]["night"]["locked"] == 7 and t.state["step_done"]
    t.act(HOST, remove(7))                  # the locked victim leaves: the mafia chooses again
    night = t.state["secret"]["night"]
    assert night["locked"] is None and night["picks"] == [None] * 9 and not t.state["step_done"]
    assert CLASSIC["mafia_pl"].waiting_for(t.state) == [0, 1]
    t.act(HOST, remove(1))                  # a mafioso leaves; the other's pick alone decides
    t.act(0, {"type": "pick_victim", "target": 8})
    assert t.state["secret"]["night"]["locked"] == 8
    t.timeout()
    while t.phase in ("wizard",):
        t.timeout()
    assert [d["seat"] for d in t.state["dawn"]["deaths"]] == [8]


def test_classic_a_removed_player_gets_no_ghost_view_and_only_the_host_removes():
    t = ClassicTable("mafia_pl", deal(9, mafiosi=(0, 1), agent=2), ghost_view=True)
    t.refuse(3, remove(4), "host_only")
    t.night(kill=6)
    assert t.view(6)["me"]["ghost"] is not None        # the night's victim watches
    t.act(HOST, remove(4))
    assert t.view(4)["me"]["ghost"] is None             # a cheat does not
    t.refuse(HOST, remove(4), "target_dead")
    assert 4 not in CLASSIC["mafia_pl"].removable(t.state)


# --- Mrakošlapi --------------------------------------------------------------------------------

def test_mrakoslapi_no_proxy_and_no_removal_at_night():
    g = MrakGame()
    assert g.state["phase"] == "night"
    assert MRAK.proxy_moves(g.state) == {} and MRAK.removable(g.state) == []
    for action, code in ((remove(3), "not_removable"), (proxy(3, {"type": "done"}), "not_proxiable")):
        with pytest.raises(EngineError) as refused:
            MRAK.apply(g.state, HOST, action)
        assert refused.value.code == code


def _to_day_one() -> MrakGame:
    g = MrakGame()
    g.do(0, {"type": "mafia_target", "target": 5})
    g.do(1, {"type": "mafia_target", "target": 5})
    g.finish_night()
    assert g.state["phase"] == "day" and g.day["state"] == "FLOOR"
    return g


def test_mrakoslapi_by_day_a_removed_player_dies_for_good_his_spare_life_does_not_save_him():
    g = _to_day_one()
    assert 3 in MRAK.removable(g.state)
    with pytest.raises(EngineError) as refused:
        MRAK.apply(g.state, 2, remove(3))
    assert refused.value.code == "host_only"
    g.do(2, {"type": "accuse", "target": 3, "claim": C.MAFIAN})
    events = g.do(HOST, remove(3))           # 3 holds a spare Mrakošlap: it does not save him
    [me] = [p for p in g.state["secret"]["table"]["players"] if p["seat"] == 3]
    assert me["status"] == "DEAD" and {c["state"] for c in me["cards"]} == {C.SURRENDERED}
    assert [e.data for e in events if e.kind == "player_dies"] == [{"seat": 3, "cause": "removed"}]
    assert {"code": "day.removed", "params": {"seat": 3}} in g.tv()["narration"]
    assert g.day["accusations"] == [] and 3 not in MRAK.removable(g.state)
    assert not g.tv()["seats"][3]["alive"]
