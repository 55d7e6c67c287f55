"""Mrakošlapi days, rule by rule: every day acceptance test of rules §10 (D01–D12 as listed),
then our own tests for the day rules of rules §5 and the end of the game of rules §6.

"rules §10" = docs/rules/mrakoslapi.md; the Czech Mrakošlapi rulebook is
the authority.  The TV lines are rendered back into the English templates of rules §5.12 so
each test compares with the fixture text.  Every transition call goes through ``Play.do``, which
checks that nothing was mutated and that the step is plain JSON.
Seats (rules §8): Adam 0, Bara 1, Cyril 2, Dana 3, Emil 4, Fany 5, Gita 6, Hugo 7.
"""

from __future__ import annotations

import copy
import json

import pytest

from engines.mrakoslapi import cards as C
from engines.mrakoslapi import day as D
from engines.mrakoslapi.players import ALIVE, DEAD, FAKE_DEAD, new_player
from tests.engines.test_mrakoslapi_night import NAMES, SEAT, parse_cards

ALL = ", ".join(NAMES)


def table(night_no: int = 1, cards: str = "", alive: str = ALL, muted: str = "",
          fake_dead: str = "", **extra) -> dict:
    """Eight seats; those not in ``alive`` (nor fake-dead) are DEAD; fixture convention (rules
    §8): only the listed cards exist."""
    alive_names = {n.strip() for n in alive.split(",")}
    fake = {n.strip() for n in fake_dead.split(",") if n.strip()}
    mute = {n.strip() for n in muted.split(",") if n.strip()}
    hands = parse_cards(cards)
    players = []
    for seat, name in enumerate(NAMES):
        player = new_player(seat, hands.get(name, []))
        if name in fake:
            player["status"] = FAKE_DEAD
            player["fake_dead_until_dawn_of_night"] = night_no + 1
        elif name not in alive_names:
            player["status"] = DEAD
            player["died_in"] = {"phase": "NIGHT", "number": 1, "t": 1}
        if name in mute:
            player["muted_day"] = night_no
        players.append(player)
    return {"night": night_no, "players": players, "pending_bobo": None, **extra}


def tv(line: dict) -> str:
    """A TV line in the words of rules §5.12."""
    n, p = NAMES.__getitem__, line["params"]
    return {
        D.SKIPPED_LINE: lambda: "DAY has no meaning.",
        D.AUTO_ACCUSE: lambda: "No accusation — everyone is accused.",
        D.HANDS: lambda: f"{n(p['candidate'])}: "
                         + (", ".join(map(n, p["voters"])) or "nobody"),
        D.TIE: lambda: "Tie — new vote.",
        D.NO_EXEC: lambda: "Nobody is executed today.",
        D.SENTENCED: lambda: f"Sentenced: {n(p['seat'])}.",
        D.NIGHT_CALL: lambda: f"NIGHT! — {n(p['caller']) if p['caller'] is not None else '?'}",
        D.ESCAPED: lambda: f"{n(p['seat'])} slipped out of the noose.",
        D.MRAK: lambda: f"Mrakošlap {p['no']} dies.",
        D.DIED: lambda: f"{n(p['seat'])} died.",
        D.MASS_MURDERER: lambda: f"{n(p['seat'])} was the Mass Murderer and shoots everyone who "
                                 "voted for his death.",
        D.ANARCHIST: lambda: f"{n(p['shooter'])}: I shoot you, baby! — {n(p['target'])}",
        D.DAY_END: lambda: "NIGHT falls.",
        D.GAME_OVER_LINE: lambda: f"GAME OVER ({p['reason']}): "
                                  + ", ".join(map(n, p["winners"])),
    }[line["code"]]()


class Play:
    """Drives one day through the pure transitions, checking purity and JSON on every call."""

    def __init__(self, tbl: dict, options: dict | None = None):
        self.table = tbl
        self.tv: list[str] = []
        self.private: list[dict] = []
        self.events: list[dict] = []
        self.result = None
        self.day = None
        self._take(self._call(D.start_day, tbl, options))

    def _call(self, fn, *args):
        before = copy.deepcopy(args)
        step = fn(*args)
        assert args == before, f"{fn.__name__} mutated its input"
        assert json.loads(json.dumps(step)) == step, "the step is not plain JSON"
        return step

    def _take(self, step: dict) -> dict:
        self.table, self.day = step["table"], step["day"]
        self.tv += [tv(x) for x in step["announce"]]
        self.private += step["private"]
        self.events += step["events"]
        self.result = step["result"] or self.result
        return step

    def do(self, fn, *args):
        return self._take(self._call(fn, self.table, self.day, *args))

    # Shorthands in the fixture notation.
    def accuse(self, accuser: str, accused: str, claim: str = C.SLINA):
        return self.do(D.accuse, SEAT[accuser], SEAT[accused], claim)

    def defend_all(self):
        while self.day["state"] == D.DEFENCE:
            self.do(D.defend, self.day["defence"][0], "spoke")

    def votes(self, hands: dict[str, list[str]]):
        """Open the windows and raise the listed hands, candidate after candidate."""
        if self.day["state"] == D.THINK:
            self.do(D.open_votes)
        while self.day["state"] == D.VOTE:
            candidate = NAMES[self.day["candidates"][self.day["window"]]]
            for voter in hands.get(candidate, []):
                self.do(D.vote, SEAT[voter], SEAT[candidate])
            self.do(D.close_window)

    def round(self, hands: dict[str, list[str]]):
        self.do(D.close_floor)
        self.defend_all()
        self.votes(hands)

    def player(self, name: str) -> dict:
        return self.table["players"][SEAT[name]]

    def state(self, name: str, card_type: str, no: int = 1) -> str:
        [c] = [c for c in self.player(name)["cards"] if c["type"] == card_type and c["no"] == no]
        return c["state"]

    def refused(self, code: str, fn, *args):
        before = (copy.deepcopy(self.table), copy.deepcopy(self.day))
        with pytest.raises(D.DayError) as err:
            fn(self.table, self.day, *args)
        assert err.value.code == code
        assert (self.table, self.day) == before


# --------------------------------------------------------------------------------------------
# Rules §10, in order
# --------------------------------------------------------------------------------------------

def test_D01_plain_plurality_the_condemned_loses_a_mrakoslap():
    g = Play(table(1, "Emil: Mrakošlap 4"))
    g.accuse("Bara", "Emil", C.SLINA)
    g.accuse("Cyril", "Fany", C.MAG)
    g.do(D.close_floor)
    assert g.day["defence"] == [SEAT["Emil"], SEAT["Fany"]]
    g.do(D.defend, SEAT["Emil"], "spoke")
    g.do(D.defend, SEAT["Fany"], "waived")
    assert g.day["state"] == D.THINK
    g.votes({"Emil": ["Adam", "Bara", "Dana", "Gita"], "Fany": ["Cyril", "Emil"]})
    assert g.day["state"] == D.SENTENCE
    g.do(D.close_sentence)                                    # 10 s, no NOC
    assert g.tv == ["Emil: Adam, Bara, Dana, Gita", "Fany: Cyril, Emil", "Sentenced: Emil.",
                    "Mrakošlap 4 dies.", "NIGHT falls."]
    assert g.player("Emil")["status"] == ALIVE
    assert g.state("Emil", C.MRAKOSLAP, 4) == C.DEAD
    assert not C.holds(g.player("Emil")["cards"], C.MRAKOSLAP)
    assert g.day["state"] == D.END and g.result is None
    totals = [e for e in g.events if e["kind"] == "totals"]
    assert totals == [{"kind": "totals", "audience": "nobody", "round": 1,
                       "totals": [[SEAT["Emil"], 4], [SEAT["Fany"], 2]]}]


def test_D02_meciar_double_vote_makes_a_tie_revote_with_a_new_accusation_provazochodec():
    g = Play(table(1, "Dana: Mečiar · Fany: Provazochodec 1; Mrakošlap 6"))
    g.accuse("Bara", "Emil")
    g.accuse("Cyril", "Fany")
    g.round({"Emil": ["Adam", "Bara", "Cyril"], "Fany": ["Dana", "Gita"]})
    assert g.tv == ["Emil: Adam, Bara, Cyril", "Fany: Dana, Gita", "Tie — new vote."]
    assert g.day["state"] == D.REFLOOR and g.day["round"] == 2
    g.accuse("Hugo", "Gita", C.SILENY_STRELEC)
    g.do(D.close_floor)
    assert g.day["candidates"] == [SEAT["Emil"], SEAT["Fany"], SEAT["Gita"]]
    assert g.day["defence"] == [SEAT["Gita"]]                 # Emil and Fany had theirs
    g.defend_all()
    g.votes({"Emil": ["Adam", "Bara"], "Fany": ["Cyril", "Dana", "Hugo"],
             "Gita": ["Emil", "Fany"]})
    g.do(D.close_sentence)
    assert g.tv[3:] == ["Emil: Adam, Bara", "Fany: Cyril, Dana, Hugo", "Gita: Emil, Fany",
                        "Sentenced: Fany.", "Fany slipped out of the noose.", "NIGHT falls."]
    assert g.state("Fany", C.PROVAZOCHODEC, 1) == C.SPENT
    assert g.state("Fany", C.MRAKOSLAP, 6) == C.READY


def test_D02b_three_tied_rounds_nobody_is_executed():
    g = Play(table(1, "Dana: Mečiar"))
    g.accuse("Bara", "Emil")
    g.accuse("Cyril", "Fany")
    g.round({"Emil": ["Adam", "Bara", "Cyril"], "Fany": ["Dana", "Gita"]})       # 3 : 3
    g.round({"Emil": ["Adam", "Bara"], "Fany": ["Dana"]})                         # 2 : 2
    g.round({"Emil": ["Adam", "Bara", "Cyril"], "Fany": ["Dana", "Gita"]})       # 3 : 3
    assert [x for x in g.tv if ":" not in x] == ["Tie — new vote.", "Tie — new vote.",
                                                 "Nobody is executed today.", "NIGHT falls."]
    assert g.day["state"] == D.END and len(g.day["rounds"]) == 3


def test_D03_kovac_votes_double_only_against_meciar():
    g = Play(table(1, "Cyril: Kováč · Dana: Mečiar"))
    g.accuse("Emil", "Dana", C.MAFIAN)
    g.accuse("Dana", "Bara", C.MAG)
    g.round({"Dana": ["Cyril", "Emil"], "Bara": ["Dana"]})
    g.do(D.close_sentence)
    assert g.tv == ["Dana: Cyril, Emil", "Bara: Dana", "Sentenced: Dana.", "Dana died.",
                    "NIGHT falls."]
    assert g.player("Dana")["status"] == DEAD
    assert g.player("Dana")["died_in"] == {"phase": "DAY", "number": 1, "t": 1}
    assert {c["state"] for c in g.player("Dana")["cards"]} == {C.SURRENDERED}


def test_D03b_kovac_voting_for_someone_else_counts_once():
    g = Play(table(1, "Cyril: Kováč · Dana: Mečiar"))
    g.accuse("Emil", "Dana", C.MAFIAN)
    g.accuse("Dana", "Bara", C.MAG)
    g.round({"Dana": ["Emil"], "Bara": ["Dana", "Cyril"]})
    assert g.tv == ["Dana: Emil", "Bara: Dana, Cyril", "Sentenced: Bara."]


def test_D05_the_masovy_vrah_dies_and_shoots_all_his_voters():
    g = Play(table(1, "Gita: Masový vrah · Dana: Mečiar; Mrakošlap 3 · "
                      "Adam: Mrakošlap 1; Zrcadlo 2"))
    g.accuse("Adam", "Gita")
    g.round({"Gita": ["Adam", "Bara", "Dana"]})
    g.do(D.close_sentence)
    assert g.tv == ["Gita: Adam, Bara, Dana", "Sentenced: Gita.", "Gita died.",
                    "Gita was the Mass Murderer and shoots everyone who voted for his death.",
                    "Mrakošlap 1 dies.", "Mrakošlap 3 dies.", "Bara died.", "NIGHT falls."]
    assert g.state("Adam", C.ZRCADLO, 2) == C.READY            # the mirror is ignored
    assert g.state("Adam", C.MRAKOSLAP, 1) == C.DEAD
    assert g.state("Dana", C.MRAKOSLAP, 3) == C.DEAD           # weight 2, one life unit
    assert g.player("Dana")["status"] == ALIVE
    assert [g.player(n)["status"] for n in ("Gita", "Bara")] == [DEAD, DEAD]
    assert g.player("Bara")["died_in"]["t"] == 2


def test_D06_the_masovy_vrah_accuses_himself_loses_a_mrakoslap_does_not_shoot_himself():
    g = Play(table(1, "Gita: Masový vrah; Mrakošlap 5"))
    g.do(D.accuse, SEAT["Gita"], SEAT["Gita"], C.MASOVY_VRAH)
    g.round({"Gita": ["Gita", "Cyril"]})
    g.do(D.close_sentence)
    assert g.tv == ["Gita: Gita, Cyril", "Sentenced: Gita.", "Mrakošlap 5 dies.",
                    "Gita was the Mass Murderer and shoots everyone who voted for his death.",
                    "Cyril died.", "NIGHT falls."]
    assert g.player("Gita")["status"] == ALIVE and g.player("Cyril")["status"] == DEAD


def _d09(cards: str, **kw) -> Play:
    g = Play(table(1, "Hugo: Anarchista · Bara: Zrcadlo 1" + cards, **kw))
    g.accuse("Cyril", "Bara")
    return g


def test_D09_anarchista_kills_a_candidate_during_the_floor():
    g = _d09("")
    g.do(D.anarchist_shot, SEAT["Hugo"], SEAT["Bara"])
    assert g.tv == ["Hugo: I shoot you, baby! — Bara", "Bara died."]
    assert g.state("Bara", C.ZRCADLO, 1) == C.SURRENDERED      # ignored, then handed in
    assert g.state("Hugo", C.ANARCHISTA) == C.SPENT
    assert g.player("Bara")["status"] == DEAD
    assert g.day["state"] == D.FLOOR and g.day["accusations"] == []
    g.accuse("Dana", "Emil")                                   # FLOOR simply continues
    assert D.candidate_order(g.day["accusations"], D.visible(g.table["players"])) == [4]


def test_D09b_a_mrakoslap_absorbs_the_shot_and_bara_stays_a_candidate():
    g = _d09("; Mrakošlap 7")
    g.do(D.anarchist_shot, SEAT["Hugo"], SEAT["Bara"])
    assert g.tv == ["Hugo: I shoot you, baby! — Bara", "Mrakošlap 7 dies."]
    assert g.day["accusations"][0]["accused"] == SEAT["Bara"]


def test_D09c_a_muted_anarchist_cannot_shoot():
    g = _d09("", muted="Hugo")
    for state in (D.FLOOR, D.DEFENCE, D.THINK, D.VOTE, D.SENTENCE):
        g.day = {**g.day, "state": state}
        g.refused("muted", D.anarchist_shot, SEAT["Hugo"], SEAT["Bara"])


def test_D09d_a_shot_masovy_vrah_does_not_retaliate():
    g = Play(table(1, "Hugo: Anarchista · Gita: Masový vrah"))
    g.accuse("Adam", "Gita")
    g.do(D.anarchist_shot, SEAT["Hugo"], SEAT["Gita"])
    assert g.tv == ["Hugo: I shoot you, baby! — Gita", "Gita died."]
    assert all(g.player(n)["status"] == ALIVE for n in NAMES if n != "Gita")


def test_D10a_two_players_left_day_has_no_meaning():
    g = Play(table(4, "Adam: Mafián 1; Zrcadlo 2 · Bara: Slina 1; Kováč; Mrakošlap 4",
                   alive="Adam, Bara"))
    assert g.tv == ["DAY has no meaning."]
    assert g.day["state"] == D.SKIPPED and g.result is None    # the next night has a Mafián


def test_D10b_two_players_with_meciar_the_day_is_played():
    g = Play(table(4, "Adam: Mečiar · Bara: Mrakošlap 3", alive="Adam, Bara"))
    assert g.day["state"] == D.FLOOR
    g.accuse("Adam", "Bara")
    g.accuse("Bara", "Adam")
    g.round({"Bara": ["Adam"], "Adam": ["Bara"]})
    g.do(D.close_sentence)
    assert g.tv == ["Bara: Adam", "Adam: Bara", "Sentenced: Bara.", "Mrakošlap 3 dies.",
                    "NIGHT falls."]


def test_D10c_a_spent_anarchista_does_not_make_the_day_meaningful():
    tbl = table(4, "Adam: Mafián 1; Zrcadlo 2 · Bara: Slina 1; Kováč; Mrakošlap 4",
                alive="Adam, Bara")
    tbl["players"][1]["cards"].append(C.card(C.ANARCHISTA, 1, C.SPENT))
    assert Play(tbl).tv == ["DAY has no meaning."]


def test_D10d_the_masovy_vrah_makes_the_day_meaningful():
    g = Play(table(4, "Adam: Mafián 1; Zrcadlo 2; Masový vrah · Bara: Slina 1; Kováč; "
                      "Mrakošlap 4", alive="Adam, Bara"))
    assert g.day["state"] == D.FLOOR and g.tv == []


def test_D11_nobody_accuses_everybody_is_accused_nobody_votes():
    g = Play(table(3, alive="Adam, Cyril, Dana, Fany, Gita, Hugo"))
    g.do(D.close_floor)                                        # 300 s without an accusation
    assert g.tv == ["No accusation — everyone is accused."]
    order = [SEAT[n] for n in ("Dana", "Fany", "Gita", "Hugo", "Adam", "Cyril")]
    assert g.day["candidates"] == order and g.day["defence"] == order
    g.defend_all()
    g.votes({})
    assert g.tv[1:] == [f"{n}: nobody" for n in ("Dana", "Fany", "Gita", "Hugo", "Adam",
                                                 "Cyril")] + ["Nobody is executed today.",
                                                              "NIGHT falls."]


def test_D12_fake_dead_medik_through_a_day():
    cards = "Cyril: Medik; Mečiar; Kováč; Astronom 1; Anarchista · Adam: Mafián 1"
    tbl = table(3, cards, fake_dead="Cyril")
    tbl["players"][SEAT["Cyril"]]["cards"][0]["state"] = C.SPENT
    g = Play(tbl)
    g.refused("bad_target", D.accuse, SEAT["Adam"], SEAT["Cyril"], C.MEDIK)
    g.refused("not_visible", D.accuse, SEAT["Cyril"], SEAT["Adam"], C.MAFIAN)
    g.refused("not_visible", D.ready, SEAT["Cyril"])
    g.refused("not_visible", D.anarchist_shot, SEAT["Cyril"], SEAT["Adam"])
    g.refused("not_visible", D.astronom, SEAT["Cyril"])
    # "majority ready" without him: 4 of the 7 in V.
    g.accuse("Adam", "Bara")
    for name in ("Adam", "Bara", "Dana"):
        g.do(D.ready, SEAT[name])
    assert g.day["state"] == D.FLOOR
    g.do(D.ready, SEAT["Emil"])
    assert g.day["state"] == D.DEFENCE
    g.defend_all()
    g.do(D.open_votes)
    g.refused("not_visible", D.vote, SEAT["Cyril"], SEAT["Bara"])
    # Auto-accusation leaves him out.
    h = Play(table(3, cards, fake_dead="Cyril"))
    h.do(D.close_floor)
    assert SEAT["Cyril"] not in h.day["candidates"] and len(h.day["candidates"]) == 7


def test_D12_all_others_but_one_die_the_game_continues_with_two_game_alive():
    g = Play(table(3, "Hugo: Anarchista · Cyril: Medik", alive="Adam, Hugo",
                   fake_dead="Cyril"))
    g.do(D.anarchist_shot, SEAT["Hugo"], SEAT["Adam"])
    assert g.result is None and D.game_alive(g.table["players"]) == [SEAT["Cyril"], SEAT["Hugo"]]
    assert g.tv == ["Hugo: I shoot you, baby! — Adam", "Adam died."]


# --------------------------------------------------------------------------------------------
# Accusations, the floor, the defence (rules §5.3, §5.4, §5.10)
# --------------------------------------------------------------------------------------------

def test_muted_players_cannot_accuse_withdraw_or_defend_but_vote_ready_and_call_noc():
    g = Play(table(1, "Emil: Astronom 2", muted="Emil"))
    g.refused("muted", D.accuse, SEAT["Emil"], SEAT["Adam"], C.MAG)
    g.refused("muted", D.withdraw, SEAT["Emil"])
    g.accuse("Adam", "Emil")
    g.accuse("Bara", "Cyril")
    g.do(D.ready, SEAT["Emil"])
    assert g.day["ready"] == [SEAT["Emil"]]
    g.do(D.close_floor)
    assert g.day["defence"] == [SEAT["Cyril"]]                 # Emil is skipped, muted
    assert {"kind": "defence", "audience": "public", "seat": SEAT["Emil"],
            "how": "muted"} in g.events
    g.refused("muted", D.defend, SEAT["Emil"], "spoke")
    g.defend_all()
    g.do(D.open_votes)
    g.do(D.vote, SEAT["Emil"], SEAT["Emil"])                   # a raised hand is not speech
    g.do(D.astronom, SEAT["Emil"])
    assert g.tv == ["NIGHT! — Emil", "NIGHT falls."]


def test_accusation_refusals():
    g = Play(table(1, alive="Adam, Bara, Cyril, Dana"))
    g.refused("bad_target", D.accuse, SEAT["Adam"], SEAT["Emil"], C.MAG)     # dead
    g.refused("not_visible", D.accuse, SEAT["Emil"], SEAT["Adam"], C.MAG)
    g.refused("bad_claim", D.accuse, SEAT["Adam"], SEAT["Bara"], "WEREWOLF")
    g.refused("no_accusation", D.withdraw, SEAT["Adam"])
    g.accuse("Adam", "Bara")
    g.refused("already_accusing", D.accuse, SEAT["Adam"], SEAT["Cyril"], C.MAG)
    g.do(D.close_floor)
    g.refused("wrong_state", D.accuse, SEAT["Cyril"], SEAT["Dana"], C.MAG)
    g.refused("wrong_state", D.withdraw, SEAT["Adam"])
    g.refused("not_your_turn", D.defend, SEAT["Cyril"], "spoke")
    g.refused("bad_defence", D.defend, SEAT["Bara"], "sang")
    g.refused("wrong_state", D.vote, SEAT["Adam"], SEAT["Bara"])


def test_candidate_order_follows_the_earliest_standing_accusation():
    g = Play(table(1))
    g.accuse("Adam", "Emil")
    g.accuse("Bara", "Fany")
    g.accuse("Cyril", "Emil")
    g.do(D.withdraw, SEAT["Adam"])                             # Emil moves to Cyril's place
    g.accuse("Adam", "Gita")
    g.do(D.close_floor)
    assert g.day["candidates"] == [SEAT["Fany"], SEAT["Emil"], SEAT["Gita"]]


def test_whichever_of_an_accusation_and_a_ready_majority_comes_last_closes_the_floor():
    """Rules §5.2: FLOOR → DEFENCE when (≥ 1 accusation) ∧ (majority ready), in either order."""
    # An accusation first: the floor closes at the last "ready" of a majority (5 of 8).
    g = Play(table(1))
    g.accuse("Adam", "Bara")
    for name in ("Adam", "Bara", "Cyril", "Dana"):              # 4 of 8: half is no majority
        g.do(D.ready, SEAT[name])
    assert g.day["state"] == D.FLOOR
    g.do(D.ready, SEAT["Emil"])
    assert g.day["state"] == D.DEFENCE and g.day["ready"] == []
    assert g.day["candidates"] == [SEAT["Bara"]]
    # A majority ready first: the floor waits for the first accusation, which closes it.
    g = Play(table(1))
    for name in ("Adam", "Bara", "Cyril", "Dana", "Emil"):
        g.do(D.ready, SEAT[name])
    assert g.day["state"] == D.FLOOR                           # no accusation yet
    g.accuse("Fany", "Gita")
    assert g.day["state"] == D.DEFENCE and g.day["ready"] == []
    assert g.day["candidates"] == [SEAT["Gita"]]
    # Half ready is no majority: an accusation leaves the floor open.
    g = Play(table(1))
    for name in ("Adam", "Bara", "Cyril", "Dana"):
        g.do(D.ready, SEAT[name])
    g.accuse("Fany", "Gita")
    assert g.day["state"] == D.FLOOR


# --------------------------------------------------------------------------------------------
# Voting (rules §5.5)
# --------------------------------------------------------------------------------------------

def test_vote_weights():
    p = {n: new_player(SEAT[n], parse_cards(c).get(n, [])) for n, c in
         (("Adam", "Adam: Mečiar"), ("Bara", "Bara: Kováč"), ("Cyril", ""),
          ("Dana", "Dana: Kováč; Mečiar"))}
    assert D.weight(p["Adam"], p["Cyril"]) == 2
    assert D.weight(p["Bara"], p["Cyril"]) == 1
    assert D.weight(p["Bara"], p["Adam"]) == 2
    assert D.weight(p["Dana"], p["Dana"]) == 2                 # A22: never more than 2


def test_one_vote_per_round_for_the_candidate_being_called():
    g = Play(table(1))
    g.accuse("Adam", "Bara")
    g.accuse("Bara", "Cyril")
    g.do(D.close_floor)
    g.defend_all()
    g.do(D.open_votes)
    g.refused("not_candidate", D.vote, SEAT["Adam"], SEAT["Cyril"])
    g.do(D.vote, SEAT["Adam"], SEAT["Bara"])
    g.refused("already_voted", D.vote, SEAT["Adam"], SEAT["Bara"])
    g.do(D.close_window)
    g.refused("already_voted", D.vote, SEAT["Adam"], SEAT["Cyril"])


def test_unlimited_votes_per_player_option():
    g = Play(table(1), {"votes_per_player": "unlimited"})
    g.accuse("Adam", "Bara")
    g.accuse("Bara", "Cyril")
    g.round({"Bara": ["Adam", "Dana"], "Cyril": ["Adam"]})
    assert g.tv == ["Bara: Adam, Dana", "Cyril: Adam", "Sentenced: Bara."]


# --------------------------------------------------------------------------------------------
# The sentence and the Astronom (rules §5.6, §5.9)
# --------------------------------------------------------------------------------------------

def _sentenced_gita(cards: str) -> Play:
    g = Play(table(1, cards))
    g.accuse("Adam", "Gita")
    g.round({"Gita": ["Adam", "Bara"]})
    assert g.day["state"] == D.SENTENCE
    return g


def test_astronom_inside_the_window_saves_the_condemned_nothing_else_happens():
    g = _sentenced_gita("Gita: Masový vrah; Astronom 2, 3 · Adam: Kuskoňa · Bara: Gandalf")
    g.do(D.astronom, SEAT["Gita"])
    assert g.tv == ["Gita: Adam, Bara", "Sentenced: Gita.", "NIGHT! — Gita", "NIGHT falls."]
    assert g.state("Gita", C.ASTRONOM, 2) == C.SPENT          # the lowest
    assert g.state("Gita", C.ASTRONOM, 3) == C.READY
    assert all(p["status"] == ALIVE for p in g.table["players"])
    assert g.private == [] and g.table.get("next_extra_mrak_no", 8) == 8
    g.refused("wrong_state", D.close_sentence)


def test_after_the_window_closes_the_astronom_is_too_late():
    g = _sentenced_gita("Gita: Astronom 1; Mrakošlap 2")
    g.do(D.close_sentence)
    assert g.tv[-2:] == ["Mrakošlap 2 dies.", "NIGHT falls."]
    g.refused("wrong_state", D.astronom, SEAT["Gita"])
    assert g.state("Gita", C.ASTRONOM, 1) == C.READY


def test_another_astronom_may_save_the_condemned_and_is_named():
    g = _sentenced_gita("Dana: Astronom 1")
    g.do(D.astronom, SEAT["Dana"])
    assert g.tv[-2:] == ["NIGHT! — Dana", "NIGHT falls."]
    h = _sentenced_gita("Dana: Astronom 1")
    h.day = {**h.day, "options": {**h.day["options"], "astronom_can_save_others": False}}
    h.refused("not_sentenced", D.astronom, SEAT["Dana"])
    k = Play(table(1, "Dana: Astronom 1"), {"reveal_astronom_caller": False})
    k.do(D.astronom, SEAT["Dana"])
    assert k.tv == ["NIGHT! — ?", "NIGHT falls."]


def test_astronom_at_any_moment_ends_the_day_and_discards_everything_pending():
    for state_steps in ([], ["close_floor"], ["close_floor", "defend"],
                        ["close_floor", "defend", "open_votes"]):
        g = Play(table(1, "Hugo: Astronom 1"))
        g.accuse("Adam", "Bara")
        for name in state_steps:
            if name == "defend":
                g.defend_all()
            else:
                g.do(getattr(D, name))
        g.do(D.astronom, SEAT["Hugo"])
        assert g.day["state"] == D.END and g.tv[-2:] == ["NIGHT! — Hugo", "NIGHT falls."]
    g = Play(table(1))
    g.refused("no_astronom", D.astronom, SEAT["Hugo"])


# --------------------------------------------------------------------------------------------
# The aftermath (rules §5.8)
# --------------------------------------------------------------------------------------------

def test_kuskona_voting_gandalf_to_a_lost_mrakoslap_gains_number_8_then_9():
    g = Play(table(1, "Adam: Kuskoňa; Mrakošlap 2 · Bara: Gandalf; Mrakošlap 1, 3"))
    g.accuse("Adam", "Bara")
    g.round({"Bara": ["Adam", "Cyril"]})
    g.do(D.close_sentence)
    assert g.tv[-2:] == ["Mrakošlap 1 dies.", "NIGHT falls."]  # the gain is not announced
    assert g.private == [{"seat": SEAT["Adam"], "code": D.GAINED, "params": {"no": 8}}]
    assert g.state("Adam", C.MRAKOSLAP, 8) == C.READY
    assert g.table["next_extra_mrak_no"] == 9
    # Next day Gandalf votes for Kuskoňa's death: Adam loses #2 (lowest first), Bara gains #9.
    tbl = {**g.table, "night": 2}
    h = Play(tbl)
    h.accuse("Bara", "Adam")
    h.round({"Adam": ["Bara", "Dana"]})
    h.do(D.close_sentence)
    assert h.tv[-2:] == ["Mrakošlap 2 dies.", "NIGHT falls."]
    assert h.private == [{"seat": SEAT["Bara"], "code": D.GAINED, "params": {"no": 9}}]
    assert h.table["next_extra_mrak_no"] == 10


def test_holder_of_both_gains_by_voting_for_himself_only_with_a_mrakoslap():
    g = Play(table(1, "Adam: Kuskoňa; Gandalf; Mrakošlap 5"))
    g.do(D.accuse, SEAT["Adam"], SEAT["Adam"], C.KUSKONA)
    g.round({"Adam": ["Adam", "Bara"]})
    g.do(D.close_sentence)
    assert g.private == [{"seat": SEAT["Adam"], "code": D.GAINED, "params": {"no": 8}}]
    h = Play(table(1, "Adam: Kuskoňa; Gandalf"))
    h.do(D.accuse, SEAT["Adam"], SEAT["Adam"], C.KUSKONA)
    h.round({"Adam": ["Adam", "Bara"]})
    h.do(D.close_sentence)
    assert h.private == [] and h.player("Adam")["status"] == DEAD


def test_no_gain_when_the_condemned_escapes():
    g = Play(table(1, "Adam: Kuskoňa · Bara: Gandalf; Provazochodec 2; Mrakošlap 1"))
    g.accuse("Adam", "Bara")
    g.round({"Bara": ["Adam", "Cyril"]})
    g.do(D.close_sentence)
    assert g.tv[-2:] == ["Bara slipped out of the noose.", "NIGHT falls."]
    assert g.private == []


def test_gain_comes_before_the_masovy_vrah_retaliation():
    """D07-like: a Kuskoňa voting for the Gandalf + Masový vrah holder gains #8, then loses it."""
    g = Play(table(1, "Adam: Kuskoňa · Gita: Gandalf; Masový vrah · Cyril: Mrakošlap 4"))
    g.accuse("Adam", "Gita")
    g.round({"Gita": ["Hugo", "Cyril", "Adam", "Bara"]})
    g.do(D.close_sentence)
    assert g.tv[-8:] == ["Sentenced: Gita.", "Gita died.",
                         "Gita was the Mass Murderer and shoots everyone who voted for his death.",
                         "Mrakošlap 4 dies.", "Mrakošlap 8 dies.", "Bara died.", "Hugo died.",
                         "NIGHT falls."]
    assert g.state("Adam", C.MRAKOSLAP, 8) == C.DEAD and g.player("Adam")["status"] == ALIVE
    kinds = [e["kind"] for e in g.events]
    assert kinds.index("gain") < kinds.index("mass_murderer")


def test_a_duch_bobo_holder_executed_by_day_haunts_the_next_night():
    g = _sentenced_gita("Gita: Duch Bobo; Zrcadlo 1")
    g.do(D.close_sentence)
    assert g.table["pending_bobo"] == SEAT["Gita"]
    assert g.state("Gita", C.DUCH_BOBO) == C.READY
    assert g.state("Gita", C.ZRCADLO, 1) == C.SURRENDERED


# --------------------------------------------------------------------------------------------
# The Anarchista beyond D09 (rules §5.9; the rulebook's "kdykoliv během dne")
# --------------------------------------------------------------------------------------------

def test_anarchist_refusals():
    g = Play(table(1, "Hugo: Anarchista", alive="Bara, Cyril, Dana, Hugo",
                   fake_dead="Emil"))
    g.refused("self_target", D.anarchist_shot, SEAT["Hugo"], SEAT["Hugo"])
    g.refused("no_anarchist", D.anarchist_shot, SEAT["Bara"], SEAT["Hugo"])
    g.refused("bad_target", D.anarchist_shot, SEAT["Hugo"], SEAT["Adam"])       # dead
    g.refused("bad_target", D.anarchist_shot, SEAT["Hugo"], SEAT["Emil"])       # fake-dead
    g.do(D.anarchist_shot, SEAT["Hugo"], SEAT["Bara"])
    g.refused("no_anarchist", D.anarchist_shot, SEAT["Hugo"], SEAT["Cyril"])
    g.do(D.close_floor)
    g.defend_all()
    g.votes({})
    assert g.day["state"] == D.END
    g.refused("wrong_state", D.anarchist_shot, SEAT["Hugo"], SEAT["Cyril"])


def test_anarchist_shooting_the_condemned_voids_the_execution():
    g = _sentenced_gita("Gita: Masový vrah · Hugo: Anarchista · Adam: Kuskoňa")
    g.do(D.anarchist_shot, SEAT["Hugo"], SEAT["Gita"])
    assert g.tv[-3:] == ["Hugo: I shoot you, baby! — Gita", "Gita died.", "NIGHT falls."]
    assert g.player("Adam")["status"] == ALIVE and g.player("Bara")["status"] == ALIVE
    assert g.day["state"] == D.END


def test_anarchist_during_the_vote_kills_the_candidate_being_called():
    g = Play(table(1, "Hugo: Anarchista"))
    g.accuse("Adam", "Bara")
    g.accuse("Bara", "Cyril")
    g.do(D.close_floor)
    g.defend_all()
    g.do(D.open_votes)
    g.do(D.vote, SEAT["Dana"], SEAT["Bara"])
    g.do(D.anarchist_shot, SEAT["Hugo"], SEAT["Bara"])
    assert g.day["candidates"] == [SEAT["Cyril"]] and g.day["window"] == 0
    g.do(D.vote, SEAT["Dana"], SEAT["Cyril"])                  # Dana's hand for Bara is void
    g.do(D.close_window)
    assert g.tv[-3:] == ["Bara died.", "Cyril: Dana", "Sentenced: Cyril."]


def test_anarchist_killing_the_only_candidate_returns_to_the_floor():
    g = Play(table(1, "Hugo: Anarchista"))
    g.accuse("Adam", "Bara")
    g.do(D.close_floor)
    g.do(D.anarchist_shot, SEAT["Hugo"], SEAT["Bara"])
    assert g.day["state"] == D.FLOOR and g.day["floor_auto_s"] == 120
    assert g.day["candidates"] == [] and g.day["accusations"] == []


def test_anarchist_killing_the_last_window_candidate_runs_the_tally():
    g = Play(table(1, "Hugo: Anarchista"))
    g.accuse("Adam", "Bara")
    g.accuse("Bara", "Cyril")
    g.do(D.close_floor)
    g.defend_all()
    g.do(D.open_votes)
    g.do(D.vote, SEAT["Dana"], SEAT["Bara"])
    g.do(D.close_window)
    g.do(D.vote, SEAT["Emil"], SEAT["Cyril"])
    g.do(D.anarchist_shot, SEAT["Hugo"], SEAT["Cyril"])
    assert g.tv[-3:] == ["Cyril died.", "Bara: Dana", "Sentenced: Bara."]


# --------------------------------------------------------------------------------------------
# The end of the game (rules §6)
# --------------------------------------------------------------------------------------------

def test_last_one_alive_wins():
    g = Play(table(5, "Hugo: Anarchista · Adam: Mafián 1", alive="Adam, Hugo"))
    g.do(D.anarchist_shot, SEAT["Hugo"], SEAT["Adam"])
    assert g.tv == ["Hugo: I shoot you, baby! — Adam", "Adam died.",
                    "GAME OVER (last_alive): Hugo"]
    assert g.day["state"] == D.GAME_OVER
    assert g.result["winners"] == [SEAT["Hugo"]]
    assert g.result["ranking"][:2] == [[SEAT["Hugo"]], [SEAT["Adam"]]]
    assert g.result["ranking"][2] == sorted(SEAT[n] for n in NAMES if n not in ("Adam", "Hugo"))


def test_everybody_dies_in_the_last_phase_they_share_first_place():
    g = Play(table(5, "Adam: Masový vrah", alive="Adam, Bara"))
    g.accuse("Bara", "Adam")
    g.round({"Adam": ["Adam", "Bara"]})
    g.do(D.close_sentence)
    assert g.tv[-5:] == ["Sentenced: Adam.", "Adam died.",
                         "Adam was the Mass Murderer and shoots everyone who voted for his death.",
                         "Bara died.", "GAME OVER (all_dead): Adam, Bara"]
    assert g.result["reason"] == D.ALL_DEAD and g.result["winners"] == [0, 1]


def test_stalemate_guard_next_night_and_next_day_both_meaningless():
    g = Play(table(6, "Bara: Mrakošlap 2; Kováč", alive="Bara, Emil"))
    assert g.tv == ["DAY has no meaning.", "GAME OVER (stalemate_no_meaning): Bara, Emil"]
    assert g.result["winners"] == [SEAT["Bara"], SEAT["Emil"]]


def test_stalemate_guard_a_returning_medik_counts_for_the_next_day():
    # V = Bara alone today, but Cyril (fake-dead) is back tomorrow and holds the Mečiar.
    g = Play(table(6, "Cyril: Mečiar", alive="Bara", fake_dead="Cyril"))
    assert g.tv == ["DAY has no meaning."] and g.result is None


def test_stalemate_guard_quiet_cycles():
    tbl = table(6, "Adam: Mafián 1", alive="Adam, Bara, Cyril", cycle_progress=False,
                quiet_cycles=1)
    g = Play(tbl)
    g.do(D.close_floor)
    g.defend_all()
    g.votes({})
    assert g.table["quiet_cycles"] == 2 and g.result is None
    assert g.table["cycle_progress"] is None
    h = Play({**tbl, "quiet_cycles": 2})
    h.do(D.close_floor)
    h.defend_all()
    h.votes({})
    assert h.tv[-2:] == ["NIGHT falls.", "GAME OVER (stalemate_quiet): Adam, Bara, Cyril"]
    # Unknown night progress (None) counts as progress: the counter restarts.
    k = Play({**tbl, "cycle_progress": None, "quiet_cycles": 2})
    k.do(D.close_floor)
    k.defend_all()
    k.votes({})
    assert k.table["quiet_cycles"] == 0 and k.result is None


def test_progressed_sees_card_changes_and_status_changes():
    a = table(1, "Adam: Zrcadlo 1")["players"]
    b = copy.deepcopy(a)
    assert not D.progressed(a, b)
    b[0]["cards"][0]["state"] = C.BROKEN
    assert D.progressed(a, b)
    c = copy.deepcopy(a)
    c[1]["status"] = FAKE_DEAD
    assert D.progressed(a, c)
