"""A scripted 6-player Mrakošlapi game with a forced deal, played to a winner through ``apply``
only: nights with the mafia, a tunnel, saliva and a mirror; days with accusations, a muted
player, weighted votes, an execution; a skipped night; the Anarchista; clocks fired by seat
None (engines/mrakoslapi/engine.py)."""

from __future__ import annotations

import pytest

from engines import chance
from engines.base import NOBODY, IllegalAction
from engines.mrakoslapi import cards as C
from engines.mrakoslapi.engine import RULESET


def hand(*cards):
    return [{"type": t, "no": no} for t, no in cards]


DEAL = {"hands": [
    hand((C.MAFIAN, 1), (C.MAFIAN, 2)),                 # 0: two Mafián cards
    hand((C.MAFIAN, 3), (C.MAG, 1)),                    # 1: Mafián + Mág
    hand((C.SLINA, 1), (C.ZRCADLO, 1)),                 # 2: Slina + Zrcadlo
    hand((C.MRAKOSLAP, 1), (C.MECIAR, 1)),              # 3: a spare life, double vote
    hand((C.EXHIBICIONISTA, 1), (C.ANARCHISTA, 1)),     # 4
    hand((C.SLINA, 2),),                                # 5
]}


class Game:
    def __init__(self):
        self.state, self.events = RULESET.setup(6, {}, 11, DEAL)

    def do(self, seat, action):
        self.state, events = RULESET.apply(self.state, seat, action)
        self.events += events
        return events

    def clock(self, move_type):
        move = self.state["clock"]["move"]
        assert move["type"] == move_type, move
        assert RULESET.legal_actions(self.state, None) == [move]
        return self.do(None, move)

    def finish_night(self):
        for seat in RULESET.waiting_for(self.state):
            self.do(seat, {"type": "done"})
        assert RULESET.waiting_for(self.state) == []
        assert self.state["clock"]["seconds"] == 20          # the shortest night now
        self.clock("timeout")

    @property
    def day(self):
        return self.state["day"]

    def tv(self):
        return RULESET.view(self.state, None)

    def morning(self):
        return {line["code"]: line["params"] for line in self.tv()["morning"]}


def test_scripted_game_to_a_winner():
    g = Game()
    s = g.state
    assert s["phase"] == "night" and s["number"] == 1 and s["clock"]["seconds"] == 60
    assert s["clock"]["move"] == {"type": "timeout"}
    assert RULESET.waiting_for(s) == [0, 1, 2, 3, 4, 5]      # everyone has a night screen
    assert RULESET.legal_actions(s, 3) == [{"type": "done"}]
    me0 = RULESET.view(s, 0)["me"]
    assert me0["fellow_mafia"] == [1] and [p["id"] for p in me0["night"]["prompts"]] == ["MAFIAN:1"]
    assert RULESET.view(s, 2)["me"]["fellow_mafia"] is None

    # ---- night 1: the mafia shoot 5; 1 tunnels 5 → 2; 2's mirror sends it back; 5 dies ----
    g.do(0, {"type": "mafia_target", "target": 5})
    room = RULESET.view(g.state, 1)["me"]["mafia_room"]          # live picks, night 1
    assert room == [{"seat": 0, "target": 5, "confirmed": False},
                    {"seat": 1, "target": None, "confirmed": False}]
    assert RULESET.view(g.state, 2)["me"]["mafia_room"] is None
    g.do(1, {"type": "mafia_target", "target": 4})
    g.do(1, {"type": "mafia_target", "target": 5})                # changed his mind
    g.do(1, {"type": "tunnel", "no": 1, "from": 5, "to": 2})
    g.do(2, {"type": "slime", "no": 1, "target": 4})
    g.do(5, {"type": "slime", "no": 2, "target": 3})
    g.do(4, {"type": "exhibit", "no": 1, "target": 0})
    with pytest.raises(IllegalAction) as refused:
        g.do(4, {"type": "tunnel", "no": 1, "from": 0, "to": 1})
    assert refused.value.code == "no_prompt"
    g.do(0, {"type": "done"})
    with pytest.raises(IllegalAction) as refused:
        g.do(0, {"type": "mafia_target", "target": 4})
    assert refused.value.code == "confirmed"
    with pytest.raises(IllegalAction) as refused:
        g.do(3, {"type": "timeout"})
    assert refused.value.code == "game_master_only"
    turn = g.state["turn"]
    g.finish_night()
    assert g.state["turn"] > turn
    assert g.morning() == {"night.shots": {"count": 3}, "night.slimed": {"seats": [3, 4]},
                           "night.exhibited": {"seats": [0]}, "night.mirrors": {"numbers": [1]},
                           "night.mraks": {"numbers": []}, "night.dead": {"seats": [5]}}
    trace = g.state["secret"]["traces"][0]["result"]["trace"]
    assert [step["kind"] for step in trace if step["t"] > 0][:2] == ["tunnel", "mirror"]
    tv = g.tv()
    assert [seat["alive"] for seat in tv["seats"]] == [True] * 5 + [False]
    assert tv["seats"][0]["muted"] and tv["reveal"] is None
    assert RULESET.view(g.state, 5)["me"]["cards"] is None       # the dead see the TV only

    # ---- day 1: accusations, a muted accused, weighted votes, an execution ----
    assert g.state["phase"] == "day" and g.day["state"] == "FLOOR"
    assert g.state["clock"] == {"id": g.state["clock"]["id"], "seconds": 300,
                                "move": {"type": "close_floor"}}
    with pytest.raises(IllegalAction) as refused:
        g.do(0, {"type": "accuse", "target": 1, "claim": C.MAG})
    assert refused.value.code == "muted"
    g.do(3, {"type": "accuse", "target": 1, "claim": C.MAFIAN, "text": "he smiled"})
    assert g.state["clock"]["seconds"] == 600                    # an accusation stands
    g.do(2, {"type": "accuse", "target": 0, "claim": C.MAFIAN})
    for seat in (1, 2, 3):
        g.do(seat, {"type": "ready"})
    assert g.day["state"] == "DEFENCE" and g.day["candidates"] == [1, 0]
    assert g.state["clock"]["move"] == {"type": "defence_timeout", "seat": 1}
    g.do(1, {"type": "defend", "how": "spoke"})                  # 0 is muted: no defence
    assert g.day["state"] == "THINK"
    g.clock("open_votes")
    assert g.state["clock"]["move"] == {"type": "close_window", "candidate": 1}
    for seat in (2, 3, 4):
        g.do(seat, {"type": "vote", "candidate": 1})
    with pytest.raises(IllegalAction) as refused:
        g.do(2, {"type": "vote", "candidate": 1})
    assert refused.value.code == "already_voted"
    g.clock("close_window")
    g.do(1, {"type": "vote", "candidate": 0})
    g.clock("close_window")
    assert g.day["state"] == "SENTENCE" and g.day["sentenced"] == 1
    assert g.state["clock"]["seconds"] == 10.5
    g.clock("close_sentence")
    codes = [line["code"] for line in g.tv()["narration"]]
    assert {"day.hands", "day.sentenced", "day.died", "day.end"} <= set(codes)

    # ---- night 2: 0 alone shoots 3, whose Mrakošlap dies; 3 dies with the second bullet ----
    assert g.state["phase"] == "night" and g.state["number"] == 2
    assert RULESET.view(g.state, 0)["me"]["mafia_room"] is None   # blind from night 2 on
    g.do(0, {"type": "mafia_target", "target": 3})
    g.do(2, {"type": "slime", "no": 1, "target": 2})
    g.finish_night()
    assert g.morning()["night.shots"] == {"count": 2}
    assert g.morning()["night.mraks"] == {"numbers": [1]}
    assert g.morning()["night.dead"] == {"seats": [3]}

    # ---- day 2: 0 executed; 2 and 4 remain ----
    g.do(2, {"type": "accuse", "target": 0, "claim": C.MAFIAN})
    g.do(2, {"type": "ready"})
    g.do(4, {"type": "ready"})
    g.do(0, {"type": "defend", "how": "waived"})
    g.clock("open_votes")
    g.do(2, {"type": "vote", "candidate": 0})
    g.do(4, {"type": "vote", "candidate": 0})
    g.clock("close_window")
    g.clock("close_sentence")

    # ---- night 3 has no meaning; day 3: the Anarchista ends the game ----
    assert g.state["phase"] == "day" and g.state["number"] == 3
    assert g.tv()["morning"] == [{"code": "night.no_meaning", "params": {}}]
    # One clock move ended day 2 and skipped night 3: the TV still tells how day 2 ended.
    narration = g.tv()["narration"]
    assert {"code": "day.died", "params": {"seat": 0}} in narration
    assert narration.index({"code": "day.end", "params": {}}) < narration.index(
        {"code": "night.no_meaning", "params": {}})
    assert [t["skipped"] for t in g.state["secret"]["traces"]] == [False, False, True]
    g.do(4, {"type": "anarchist_shot", "target": 2})
    result = RULESET.outcome(g.state)
    assert result.to_json() == {"winner": "last_alive", "reason": "last_alive", "winners": [4]}
    assert g.state["clock"] is None and RULESET.waiting_for(g.state) == []
    tv = g.tv()
    assert tv["outcome"]["winners"] == [4] and len(tv["reveal"]["traces"]) == 3
    assert tv["reveal"]["dealt"][0] == [C.card(C.MAFIAN, 1), C.card(C.MAFIAN, 2)]
    with pytest.raises(IllegalAction) as refused:
        g.do(4, {"type": "ready"})
    assert refused.value.code == "game_over"


def test_night_deadline_defaults_and_atheist_prompts():
    deal = {"hands": [hand((C.MAFIAN, 1), (C.MAG, 1), (C.ATEISTA, 1)), hand((C.MAFIAN, 2),),
                      hand((C.MEDIK, 1),), hand((C.MRAKOSLAP, 1),), hand((C.SLINA, 1),),
                      hand((C.ZRCADLO, 1),)]}
    state, _ = RULESET.setup(6, {"night_deadline_seconds": "90"}, 3, deal)
    me = RULESET.view(state, 0)["me"]
    assert [(p["id"], p["disabled"]) for p in me["night"]["prompts"]] == [
        ("MAFIAN:1", False), ("MAG:1", True)]
    assert not any(m["type"] in ("tunnel", "pass") for m in me["moves"])
    assert state["clock"]["seconds"] == 90
    state, _ = RULESET.apply(state, 0, {"type": "mafia_target", "target": 3})
    state, _ = RULESET.apply(state, 2, {"type": "medik", "use": True})
    # the deadline: 1 never chose (disagreement: no mafia shot); the Medik fakes his death
    state, events = RULESET.apply(state, None, {"type": "timeout"})
    lines = {line["code"]: line["params"] for line in RULESET.view(state, None)["morning"]}
    assert lines["night.shots"] == {"count": 0} and lines["night.dead"] == {"seats": [2]}
    assert RULESET.view(state, None)["seats"][2]["alive"] is False
    me = RULESET.view(state, 2)["me"]
    assert me["status"] == "FAKE_DEAD" and me["alive"] and me["moves"] == []
    assert all(e.audience != "public" or "medik" not in str(e.data) for e in events)


def test_duch_bobo_ghost_gets_one_prompt_the_next_night():
    deal = {"hands": [hand((C.MAFIAN, 1),), hand((C.MRAKOSLAP, 1), (C.MRAKOSLAP, 2)),
                      hand((C.DUCH_BOBO, 1),), hand((C.MRAKOSLAP, 3), (C.MRAKOSLAP, 4)),
                      hand((C.MRAKOSLAP, 5),), hand((C.MRAKOSLAP, 6),)]}
    state, _ = RULESET.setup(6, {}, 4, deal)
    state, _ = RULESET.apply(state, 0, {"type": "mafia_target", "target": 2})
    state, _ = RULESET.apply(state, None, {"type": "timeout"})
    assert state["secret"]["table"]["pending_bobo"] == 2
    assert RULESET.view(state, 2)["me"]["moves"] == []
    while state["phase"] == "day":                 # the day runs on its clocks alone
        state, _ = RULESET.apply(state, None, state["clock"]["move"])
    assert state["phase"] == "night" and state["number"] == 2
    assert 2 in RULESET.waiting_for(state)
    me = RULESET.view(state, 2)["me"]
    assert me["status"] == "DEAD" and me["cards"] is None
    assert [p["id"] for p in me["night"]["prompts"]] == ["DUCH_BOBO:1"]
    state, _ = RULESET.apply(state, 2, {"type": "bobo", "target": 4})
    state, _ = RULESET.apply(state, None, {"type": "timeout"})
    lines = {line["code"]: line["params"] for line in RULESET.view(state, None)["morning"]}
    assert lines["night.exhibited"] == {"seats": [4]}
    assert RULESET.view(state, None)["seats"][4]["muted"]


def test_a_forced_deal_is_the_kits_deal_draw_forced_and_logged_for_nobody():
    state, events = RULESET.setup(6, {}, 11, DEAL)
    [drawn] = [event for event in events if event.kind == chance.CHANCE]
    assert drawn.audience == NOBODY and drawn.data["label"] == C.DEAL and drawn.data["forced"]
    scripted = [sorted((C.card(c["type"], c["no"]) for c in hand), key=C.sort_key) for hand in DEAL["hands"]]
    assert state["secret"]["dealt"] == scripted                     # the hands as scripted
    record = state["secret"]["chance"]
    assert (record["seed"], record["draws"]) == (11, 1)
    assert not chance.coin(record, C.DEAL).event.data["forced"]     # the forced deal is used up
