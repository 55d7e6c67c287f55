"""Every fraud card (docs/rules/cosanostra.md §11.3): red cards played, reactions armed, black
cards drawn — each with the amounts and the place the card goes afterwards."""

from __future__ import annotations

from engines.cosanostra.state import ACTION, CHOOSE, LIQUIDATION
from tests.engines.cosanostra_helpers import BLUE, GREEN, PURPLE, YELLOW, Table


def red_table(card, players=3, **options):
    table = Table(players=players, **options)
    table.give(BLUE, card)
    table.turn_of(BLUE, ACTION)
    return table


def play(table, card, **params):
    return table.act(BLUE, {"type": "play_card", "card": card, **params})


def test_r01_police_dossier_controls_a_neutral_police_station():
    table = red_table("R01-1")
    play(table, "R01-1", square=11)
    assert table.view()["businesses"]["11"] == {"owner": BLUE, "card": "R01", "closed": False, "friends": []}
    assert table.family(BLUE)["markers"] == 5
    table.give(BLUE, "R01-2")
    assert table.refuse(BLUE, {"type": "play_card", "card": "R01-2", "square": 11}) == "not_allowed_now"


def test_r02_takes_a_neutral_bank_free_or_a_rivals_for_4000_unless_a_card_lies_there():
    table = red_table("R02-1")
    table.own(GREEN, 9)
    play(table, "R02-1", square=9)
    assert table.cash(BLUE) == 1000 and table.view()["businesses"]["9"]["owner"] == BLUE
    assert table.family(GREEN)["markers"] == 6
    table.give(GREEN, "R02-2")
    table.turn_of(GREEN, ACTION)
    table.set_cash(GREEN, 10000)
    assert table.refuse(GREEN, {"type": "play_card", "card": "R02-2", "square": 9}) == "protected_by_card"
    table.act(GREEN, {"type": "play_card", "card": "R02-2", "square": 1})
    assert table.cash(GREEN) == 10000 and table.view()["businesses"]["1"]["card"] == "R02"


def test_r03_arms_dealer_takes_a_rivals_shop_for_6000():
    table = red_table("R03-1")
    table.own(GREEN, 13)
    table.set_cash(BLUE, 7000)
    play(table, "R03-1", square=13)
    assert table.cash(BLUE) == 1000 and table.view()["businesses"]["13"]["owner"] == BLUE


def test_r05_r06_r07_money_cards():
    table = red_table("R05-1")
    play(table, "R05-1")
    assert table.cash(BLUE) == 8000 and table.state["secret"]["red"][-1] == "R05-1"
    table.give(BLUE, "R06-1")
    play(table, "R06-1")
    assert (table.cash(BLUE), table.cash(GREEN), table.cash(YELLOW)) == (9000, 4500, 4500)
    table.give(BLUE, "R07-1")
    table.own(BLUE, 1)
    table.own(BLUE, 4)
    play(table, "R07-1")
    assert table.cash(BLUE) == 11000
    assert table.state["phase"] == ACTION


def test_r06_makes_a_rival_sell_up_in_another_familys_turn():
    table = red_table("R06-1")
    table.set_cash(GREEN, 200)
    play(table, "R06-1")
    assert table.state["phase"] == LIQUIDATION and table.view()["liquidation"]["seat"] == GREEN
    assert table.state["active"] == BLUE and table.legal(BLUE) == []
    assert table.refuse(BLUE, {"type": "end_turn"}) == "not_your_turn"
    table.act(GREEN, {"type": "sell_to_city", "cell": "e4"})
    assert table.cash(GREEN) == 1200 and "e4" not in table.state["cells"]
    assert table.family(GREEN)["pieces_out"] == 1          # the rulebook: out of the game
    table.act(GREEN, {"type": "pay"})
    assert table.cash(BLUE) == 6000 and table.cash(YELLOW) == 4500
    assert table.state["phase"] == ACTION and table.state["active"] == BLUE


def test_r08_cousin_and_r09_councillor():
    table = red_table("R08-1")
    play(table, "R08-1")
    assert table.family(BLUE)["gate_picciotti"] == 1 and table.cash(BLUE) == 5000
    table.give(BLUE, "R09-1")
    play(table, "R09-1", cell="c1")
    assert table.state["cells"]["c1"] == BLUE and table.cash(BLUE) == 5000


def test_r10_fast_car_moves_without_a_throw():
    table = Table(players=2)
    table.give(BLUE, "R10-1")
    events = table.act(BLUE, {"type": "play_card", "card": "R10-1", "steps": 6})
    assert table.family(BLUE)["pos"] == 6 and not [e for e in events if e.kind == "chance"]
    assert table.state["phase"] == "offer" or table.state["phase"] == ACTION


def test_r11_night_run_three_steps_ending_at_a_capture():
    table = red_table("R11-1")
    table.gate_picciotti(BLUE, 1)
    play(table, "R11-1", **{"from": "gate"})
    table.act(BLUE, {"type": "step", "from": "gate", "to": "d1"})
    table.act(BLUE, {"type": "step", "from": "d1", "to": "d2"})
    table.act(BLUE, {"type": "step", "from": "d2", "to": "c2"})         # capture: its movement ends
    assert table.state["cells"]["c2"] == BLUE and table.state["night_run"] is None


def test_r12_lawyer_cancels_a_black_card():
    table = Table(players=2)
    table.give(BLUE, "R12-1")
    table.act(BLUE, {"type": "arm", "card": "R12-1", "on": True})
    table.top("black", "B05-1")
    table.land(BLUE, 8)
    assert table.cash(BLUE) == 5000 and table.state["secret"]["black"][-1] == "B05-1"
    assert table.state["secret"]["red"][-1] == "R12-1"


def test_arming_is_private_no_new_turn_no_narration():
    table = Table(players=2)
    table.give(GREEN, "R13-1")
    before = table.view(None)
    events = table.act(GREEN, {"type": "arm", "card": "R13-1", "on": True})
    assert events == [] and table.view(None) == before
    assert table.view(GREEN)["me"]["hand"] == [{"id": "R13-1", "code": "R13", "armed": True}]
    assert table.refuse(GREEN, {"type": "arm", "card": "R05-1", "on": True}) == "no_card"


def test_r14_swiss_account_spares_its_holder_the_city_tax():
    table = Table(players=3)
    table.give(GREEN, "R14-1")
    table.act(GREEN, {"type": "arm", "card": "R14-1", "on": True})
    table.set_cash(BLUE, 10000)
    table.set_cash(YELLOW, 3300)
    table.state["families"][GREEN]["cash"] += table.state["bank"] - 1000
    table.state["bank"] = 1000
    table.land(BLUE, 12)                               # Big City: 600, the bank has 1000... enough
    assert "city_tax" not in table.kinds()
    table.land(BLUE, 0)                                # START: 4000 > 400 left in the bank
    assert "city_tax" in table.kinds()
    assert table.cash(YELLOW) == 3300 - 1600
    assert table.state["secret"]["red"][-1] == "R14-1"
    assert table.money() == 150_000


def test_r15_yakuza_contact_and_r16_friend_of_the_family():
    table = red_table("R15-1")
    table.set_cells({"d1": BLUE, "g4": GREEN})
    table.picciotto("g4")
    play(table, "R15-1", cell="g4")
    assert table.state["picciotti"] == {}
    table.own(GREEN, 9)
    table.give(BLUE, "R16-1")
    play(table, "R16-1", square=9)
    assert table.view()["businesses"]["9"]["friends"] == [BLUE]
    table.set_cash(GREEN, 20000)
    table.turn_of(GREEN, ACTION)
    table.give(GREEN, "R02-1")                         # the business changes hands to the friend: discarded
    table.turn_of(BLUE, ACTION)
    table.give(BLUE, "R02-2")
    table.set_cash(BLUE, 5000)
    play(table, "R02-2", square=9)
    assert table.view()["businesses"]["9"]["friends"] == [] and "R16-1" in table.state["secret"]["red"]


def test_r04_is_refused_on_an_unprotected_tile():
    table = red_table("R04-1")
    table.set_cells({"d1": BLUE, "d2": GREEN, "g4": GREEN})
    assert table.refuse(BLUE, {"type": "play_card", "card": "R04-1", "cell": "d2"}) == "not_allowed_now"


# --- black cards ------------------------------------------------------------------------------

def draw(card, seat=BLUE, players=3, tiles=3, cash=5000, table=None):
    table = table or Table(players=players)
    if tiles is not None:
        table.fill(seat, tiles)
    table.set_cash(seat, cash)
    table.top("black", card)
    table.land(seat, 8)
    return table


def test_b01_police_raid_by_rank():
    assert draw("B01-1", tiles=2).cash(BLUE) == 4000
    assert draw("B01-1", tiles=3).cash(BLUE) == 3000
    assert draw("B01-1", tiles=7).cash(BLUE) == 2000


def test_b02_the_informer_picks_a_picciotto_or_costs_1000():
    assert draw("B02-1").cash(BLUE) == 4000
    table = Table(players=3)
    table.gate_picciotti(BLUE, 1)
    table.picciotto("d2")
    draw("B02-1", table=table, tiles=None)
    assert table.state["phase"] == CHOOSE and table.view()["choose"] == {"card": "B02", "seat": BLUE,
                                                                         "targets": ["gate", "d2"]}
    table.act(BLUE, {"type": "choose", "target": "d2"})
    assert table.state["picciotti"] == {} and table.state["phase"] == ACTION


def test_b03_internal_affairs_and_b12_arson():
    assert draw("B03-1").cash(BLUE) == 4000
    table = Table(players=3)
    table.own(BLUE, 11, card="R01-1")
    draw("B03-1", table=table)
    table.act(BLUE, {"type": "choose", "target": 11})
    assert table.view()["businesses"]["11"]["owner"] is None and "R01-1" in table.state["secret"]["red"]
    arson = Table(players=3)
    arson.own(BLUE, 9, card="R02-1")
    arson.own(BLUE, 1)
    draw("B12-1", table=arson)
    assert arson.view()["choose"]["targets"] == [1]
    arson.timeout()                                    # the clock takes the first choice
    assert arson.view()["businesses"]["1"]["owner"] is None and arson.family(BLUE)["markers"] == 5


def test_b05_b06_b08_b09_payments():
    assert draw("B05-1").cash(BLUE) == 3000
    assert draw("B06-1", tiles=4).cash(BLUE) == 5000 - 800
    table = Table(players=3)
    table.gate_picciotti(BLUE, 3)
    assert draw("B08-1", table=table).cash(BLUE) == 5000 - 1500
    table = draw("B09-1")
    assert (table.cash(BLUE), table.cash(GREEN), table.cash(YELLOW)) == (4000, 5500, 5500)


def test_b07_turf_war_loses_a_tile_beside_a_rival():
    table = Table(players=3)
    table.set_cells({"d1": BLUE, "d2": BLUE, "e2": GREEN, "g4": GREEN, "d7": YELLOW})
    draw("B07-1", tiles=None, table=table)
    assert table.view()["choose"]["targets"] == ["d2"]
    table.act(BLUE, {"type": "choose", "target": "d2"})
    assert "d2" not in table.state["cells"] and table.family(BLUE)["pieces"] == 17


def test_b10_b11_b16_lie_face_up_until_discharged():
    table = draw("B10-1")
    assert table.view()["families"][BLUE]["face_up"] == ["B10"]
    table.land(BLUE, 1)                                # passes START: discarded
    assert table.view()["families"][BLUE]["face_up"] == []
    shark = draw("B11-1")
    shark.act(BLUE, {"type": "end_turn"})
    for turn in range(3):
        while shark.state["active"] != BLUE:
            shark.timeout()
        assert shark.view()["families"][BLUE]["loan_shark"] == (2 - turn or None)
        while shark.state["active"] == BLUE:
            shark.timeout()
    assert shark.view()["families"][BLUE]["face_up"] == []
    assert [e.data["amount"] for e in shark.events if e.kind == "pay" and e.data["why"] == "B11"] == [500] * 3
    closed = Table(players=3)
    closed.own(BLUE, 9)
    draw("B16-1", table=closed)
    closed.act(BLUE, {"type": "choose", "target": 9})
    assert closed.view()["businesses"]["9"]["closed"] and closed.view()["families"][BLUE]["face_up"] == ["B16"]
    assert draw("B16-1").cash(BLUE) == 4500


def test_b13_summoned_to_the_next_police_station():
    table = draw("B13-1", tiles=7)
    assert table.family(BLUE)["pos"] == 11 and table.cash(BLUE) == 4000


def test_b14_vendetta_by_the_colour_die():
    for colour, blue, green in [("GREEN", 4000, 6000), ("BLUE", 4000, 5000), ("PURPLE", 4000, 5000),
                                ("BLACK", 5000, 5000)]:
        table = Table(players=3)
        table.force("colour", colour)
        draw("B14-1", table=table)
        assert (table.cash(BLUE), table.cash(GREEN)) == (blue, green), colour
    table = Table(players=3)
    table.force("colour", "WHITE")
    draw("B14-1", table=table)
    assert table.view()["choose"]["targets"] == [GREEN, YELLOW]
    table.act(BLUE, {"type": "choose", "target": YELLOW})
    assert table.cash(YELLOW) == 6000


def test_b15_the_councillors_cut():
    table = Table(players=3)
    table.fill(GREEN, 5)
    assert draw("B15-1", table=table).cash(GREEN) == 6000
    assert draw("B15-1", tiles=9).state["bank"] == 150_000 - 15000 + 1000


def test_b04_feds_on_your_tail():
    table = draw("B04-1")
    assert table.view()["families"][BLUE]["fed"] == 4
    assert table.refuse(BLUE, {"type": "hire"}) == "fed_ban"


def test_an_empty_deck_draws_nothing():
    table = Table(players=2)
    table.state["secret"]["black"] = []
    table.land(BLUE, 8)
    assert "deck_empty" in table.kinds() and table.state["phase"] == ACTION


def test_a_red_card_is_told_only_to_its_holder_until_played():
    table = Table(players=4)
    table.land(BLUE, 5)
    events = table.act(BLUE, {"type": "accept"})
    card = [e for e in events if e.kind == "red_card"][0]
    assert card.audience == [BLUE]
    assert all(card.data["card"] not in str(e.data) for e in events if e.audience == "public")
    for seat in (None, GREEN, YELLOW, PURPLE):
        assert card.data["card"] not in str(table.view(seat))
