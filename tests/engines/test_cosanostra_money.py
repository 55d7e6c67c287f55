"""Money (docs/rules/cosanostra.md §9), deals (§13) and the ends of the game (§15) beyond the
acceptance tests."""

from __future__ import annotations

from engines.cosanostra.state import ACTION, LIQUIDATION, OVER
from tests.engines.cosanostra_helpers import BLUE, GREEN, YELLOW, Table

NO = {"cash": 0, "tiles": [], "businesses": [], "red_cards": []}


def in_debt(amount=2000, cash=500, **options):
    table = Table(players=3, **options)
    table.set_cash(BLUE, cash)
    table.top("black", "B05-1")
    table.land(BLUE, 8)
    assert table.state["phase"] == LIQUIDATION
    return table


def test_selling_up_pays_the_debt_when_the_cash_covers_it():
    table = in_debt()
    assert table.view()["liquidation"] == {"seat": BLUE, "owed": 2000, "to": None, "cells": ["d1", "d2", "d3"]}
    assert table.state["clock"]["seconds"] == 120
    assert table.refuse(BLUE, {"type": "pay"}) == "no_cash"
    table.act(BLUE, {"type": "sell_to_city", "cell": "d3"})
    assert table.refuse(BLUE, {"type": "sell_to_city", "cell": "e4"}) == "not_yours"
    table.act(BLUE, {"type": "sell_to_city", "cell": "d2"})
    table.act(BLUE, {"type": "pay"})
    assert table.cash(BLUE) == 500 and table.state["phase"] == ACTION
    assert table.family(BLUE)["pieces_out"] == 2


def test_the_clock_sells_the_most_recently_acquired_tiles_first():
    table = in_debt(cash=900, city_sale_piece="to_supply")
    table.timeout()
    assert [e.data["cell"] for e in table.events if e.kind == "city_sale"] == ["d3", "d2"]
    assert sorted(c for c, o in table.state["cells"].items() if o == BLUE) == ["d1"]
    assert table.cash(BLUE) == 900 + 2000 - 2000
    assert table.family(BLUE)["pieces"] == 17 and table.state["phase"] == ACTION


def test_the_clock_bankrupts_a_family_that_cannot_pay():
    table = in_debt(amount=2000, cash=0)
    table.set_cells({"d1": BLUE, "g4": GREEN, "d7": YELLOW})
    table.timeout()
    assert table.state["phase"] == OVER and table.family(BLUE)["out"]


def test_bankruptcy_without_the_end_drops_the_family_and_play_goes_on():
    table = Table(players=3, bankruptcy_ends_game=False)
    table.own(BLUE, 9, card="R02-1")
    table.picciotto("d2")
    table.give(BLUE, "R05-1")
    table.set_cash(BLUE, 0)
    table.turn_of(BLUE, ACTION)
    table.state["tasks"] = [{"do": "pay", "from": BLUE, "to": GREEN, "amount": 50000, "why": "test"},
                            {"do": "phase", "phase": ACTION}]
    from engines.cosanostra.turns import run
    run(table.state, [])
    table.timeout()
    fam = table.family(BLUE)
    assert fam["out"] and fam["pieces_out"] == 3 and table.state["supply"] == 30
    assert table.view()["businesses"]["9"]["owner"] is None and "R02-1" in table.state["secret"]["red"]
    assert "R05-1" in table.state["secret"]["red"] and table.state["active"] == GREEN
    assert table.state["phase"] != OVER and table.money() == 150_000


def test_city_tax_halves_everyones_cash_rounded_down_to_100():
    table = Table(players=3)
    table.set_cash(GREEN, 3350)
    table.set_cash(YELLOW, 999)
    table.state["families"][BLUE]["cash"] += table.state["bank"] - 100
    table.state["bank"] = 100
    blue = table.cash(BLUE)
    table.land(BLUE, 12)                               # Big City, 600: the bank has 100
    assert table.cash(GREEN) == 3350 - 1600 and table.cash(YELLOW) == 999 - 400
    assert table.cash(BLUE) == blue - blue // 200 * 100 + 600
    assert table.money() == 150_000


def test_a_counter_offer_replaces_the_first_and_a_deal_expires_on_the_clock():
    table = Table(players=3)
    table.turn_of(BLUE, ACTION)
    table.give(BLUE, "R05-1")
    table.act(BLUE, {"type": "offer_trade", "to": GREEN, "give": {**NO, "red_cards": ["R05-1"]},
                     "take": {**NO, "cash": 2000}})
    assert table.state["clock"]["seconds"] == 60 and table.legal(YELLOW) == []
    assert table.refuse(BLUE, {"type": "end_turn"}) == "not_allowed_now"
    table.act(GREEN, {"type": "counter_trade", "give": {**NO, "cash": 1000}, "take": {**NO, "red_cards": ["R05-1"]}})
    assert table.view(BLUE)["trade"]["from"] == GREEN and table.view()["trade"]["to"] == BLUE
    clock = table.state["clock"]["id"]
    table.timeout()                                    # expired: the action phase's clock again, in full
    assert table.state["trade"] is None and table.state["clock"]["seconds"] == 180
    assert table.state["clock"]["id"] != clock and table.state["secret"]["hands"][BLUE] == ["R05-1"]
    table.act(BLUE, {"type": "offer_trade", "to": YELLOW, "give": {**NO, "cash": 100}, "take": NO})
    table.act(BLUE, {"type": "withdraw_trade"})
    assert table.refuse(BLUE, {"type": "offer_trade", "to": YELLOW, "give": {**NO, "cash": 100},
                               "take": NO}) == "not_allowed_now"          # two offers a turn


def test_the_debtor_may_sell_a_business_to_another_family():
    table = Table(players=3)
    table.own(BLUE, 13)
    table.set_cash(BLUE, 500)
    table.top("black", "B05-1")
    table.land(BLUE, 8)
    table.act(BLUE, {"type": "offer_trade", "to": GREEN, "give": {**NO, "businesses": [13]},
                     "take": {**NO, "cash": 4000}})
    table.act(GREEN, {"type": "accept_trade"})
    assert table.view()["businesses"]["13"]["owner"] == GREEN
    table.act(BLUE, {"type": "pay"})
    assert table.cash(BLUE) == 2500 and table.state["phase"] == ACTION


def test_a_full_map_goes_to_the_most_tiles():
    from engines.cosanostra import board
    table = Table(players=3)
    cells = [c for c in board.CELLS if c != "g7"]
    # BLUE rows 1–2 and a3–d3 (18), GREEN e3–g3 and rows 4–5 (17), YELLOW rows 6–7 (13): nobody
    # links four sides
    table.set_cells({cell: BLUE if n < 18 else GREEN if n < 35 else YELLOW for n, cell in enumerate(cells)})
    table.turn_of(YELLOW, ACTION)
    table.act(YELLOW, {"type": "buy_tile", "cell": "g7"})
    assert table.state["phase"] == OVER and table.view()["end"] == "full_map"
    assert table.view()["winner"] == [BLUE]


def test_the_round_limit_ends_after_the_last_familys_turn():
    table = Table(players=2, max_rounds="10")
    table.state["round"] = 10
    table.fill(GREEN, 5)
    table.roll(1)
    table.act(BLUE, {"type": "end_turn"})
    assert table.state["phase"] != OVER and table.state["active"] == GREEN
    table.roll(1)
    table.act(GREEN, {"type": "end_turn"})
    assert table.view()["end"] == "rounds" and table.view()["winner"] == [GREEN]


def test_hidden_cash_shows_each_family_only_its_own():
    table = Table(players=2, hidden_cash=True)
    assert [f["cash"] for f in table.view(BLUE)["families"]] == [5000, None]
    assert [f["cash"] for f in table.view(None)["families"]] == [None, None]


def test_a_debtor_in_another_familys_turn_has_his_own_offers():
    table = Table(players=3)
    table.turn_of(BLUE, ACTION)
    table.give(BLUE, "R06-1")
    table.give(GREEN, "R05-1")
    for _ in range(2):
        table.act(BLUE, {"type": "offer_trade", "to": YELLOW, "give": {**NO, "cash": 100}, "take": NO})
        table.act(BLUE, {"type": "withdraw_trade"})
    table.set_cells({"d1": BLUE, "d7": YELLOW})            # GREEN has no tile to sell
    table.set_cash(GREEN, 0)
    table.act(BLUE, {"type": "play_card", "card": "R06-1"})
    assert table.view()["liquidation"]["seat"] == GREEN
    table.act(GREEN, {"type": "offer_trade", "to": YELLOW, "give": {**NO, "red_cards": ["R05-1"]},
                      "take": {**NO, "cash": 500}})
    table.act(YELLOW, {"type": "decline_trade"})
    table.act(GREEN, {"type": "offer_trade", "to": BLUE, "give": {**NO, "red_cards": ["R05-1"]},
                      "take": {**NO, "cash": 500}})
    table.act(BLUE, {"type": "decline_trade"})             # no buyer and no offer left: bankrupt
    assert table.family(GREEN)["out"] and table.state["phase"] == OVER
