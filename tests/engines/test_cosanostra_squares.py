"""Every ring square (docs/rules/cosanostra.md §6), the visitor states of a business (§8.3),
the setup (§4) and the turn's clocks (§12, §19.1)."""

from __future__ import annotations

from engines.cosanostra.state import ACTION, BEFORE_ROLL, CHOOSE_MOVE, GATES, OFFER
from tests.engines.cosanostra_helpers import BLUE, ENGINE, GREEN, YELLOW, Table


def test_setup_colour_die_until_a_colour_in_play_then_gates_in_reverse_order():
    state, events = ENGINE.setup(2, {}, 3, deal={"forced": {"colour": ["WHITE", "PURPLE", "GREEN"]}})
    throws = [e.data["result"] for e in events if e.kind == "chance" and e.data["label"] == "colour"]
    assert throws == ["WHITE", "PURPLE", "GREEN"]
    assert all(e.audience == "public" for e in events if e.kind == "chance" and e.data["label"] == "colour")
    assert state["order"] == [GREEN, BLUE] and state["active"] == BLUE and state["phase"] == GATES
    assert state["bank"] == 150_000 - 2 * 5000
    assert [e.audience for e in events if e.kind == "chance" and e.data["label"].endswith("deck")] == ["nobody"] * 2


def test_start_tiles_must_connect_and_the_gate_clock_places_them():
    table = Table(players=2)
    state, _ = ENGINE.setup(2, {}, 1, deal={"forced": {"colour": ["BLUE"]}})
    table.state = state
    table.act(GREEN, {"type": "choose_gate", "gate": "E"})
    assert table.state["cells"] == {"g4": GREEN}
    assert table.refuse(GREEN, {"type": "place_start", "cell": "e4"}) == "not_adjacent"
    assert table.refuse(BLUE, {"type": "place_start", "cell": "f4"}) == "not_your_turn"
    table.timeout()                                    # GREEN's start tiles, then BLUE's gate clock
    assert sorted(c for c, o in table.state["cells"].items() if o == GREEN) == ["g2", "g3", "g4"]
    assert table.refuse(BLUE, {"type": "choose_gate", "gate": "E"}) == "occupied"
    table.timeout()
    assert table.family(BLUE)["gate"] == "N" and table.state["phase"] == BEFORE_ROLL
    assert [f["cash"] for f in table.state["families"]] == [5000, 5000]


def test_the_window_before_the_roll_and_the_choice_are_clocked():
    table = Table(players=2)
    assert table.state["clock"]["seconds"] == 5
    table.force("die", [2])
    table.timeout()
    assert table.state["phase"] == CHOOSE_MOVE and table.state["clock"]["seconds"] == 20
    table.timeout()
    assert table.state["phase"] == ACTION and table.state["clock"]["seconds"] == 180
    table.timeout()
    assert table.state["active"] == GREEN and table.state["phase"] == BEFORE_ROLL


def test_no_turn_clock_when_the_option_is_off():
    table = Table(players=2, turn_seconds="off")
    table.roll(2)
    assert table.state["phase"] == ACTION and table.state["clock"] is None
    assert table.legal(None) == []


def test_fortuna_odd_draws_black_even_draws_red():
    table = Table(players=2)
    table.top("black", "B05-1")
    table.force("die", [3], [5])                       # the move, then Fortuna's throw
    table.family(BLUE)["pos"] = 0
    table.act(BLUE, {"type": "roll"})
    table.act(BLUE, {"type": "move", "steps": 2})      # FORTUNA (2), Fortuna throws 5: black
    assert "drew_black" in table.kinds() and table.state["last_card"] == {"code": "B05", "seat": BLUE}
    red = Table(players=2)
    red.family(BLUE)["pos"] = 0
    red.force("die", [2], [4])
    red.act(BLUE, {"type": "roll"})
    events = red.act(BLUE, {"type": "move", "steps": 2})
    private = [e for e in events if e.kind == "red_card"]
    assert len(private) == 1 and private[0].audience == [BLUE]
    assert red.view()["families"][BLUE]["red_cards"] == 1
    assert red.view(BLUE)["me"]["hand"][0]["id"] == private[0].data["card"]


def test_fortuna_with_the_colour_die():
    table = Table(players=2, fortuna_uses_colour_die=True)
    table.force("colour", "BLUE")
    table.land(BLUE, 10)
    assert table.view()["families"][BLUE]["red_cards"] == 1
    other = Table(players=2, fortuna_uses_colour_die=True)
    other.force("colour", "GREEN")
    other.land(BLUE, 10)
    assert "drew_black" in other.kinds()


def test_spicl_sells_a_red_card_for_400_and_declining_costs_nothing():
    table = Table(players=2)
    cash = table.cash(BLUE)
    table.land(BLUE, 5)
    assert table.state["phase"] == OFFER and table.view()["offer"]["kind"] == "SPICL"
    table.act(BLUE, {"type": "accept"})
    assert table.cash(BLUE) == cash - 400 and len(table.state["secret"]["hands"][BLUE]) == 1
    again = Table(players=2)
    again.land(BLUE, 5)
    again.timeout()                                    # the offer's clock declines
    assert again.cash(BLUE) == 5000 and again.state["phase"] == ACTION


def test_spicl_offers_nothing_without_the_money():
    table = Table(players=2)
    table.set_cash(BLUE, 300)
    table.land(BLUE, 17)
    assert table.state["phase"] == ACTION


def test_yakuza_removes_only_a_map_picciotto():
    table = Table(players=2)
    table.gate_picciotti(GREEN, 1)
    table.land(BLUE, 14)
    assert table.state["phase"] == ACTION              # a picciotto on a gate is out of reach (Q13)


def test_big_city_pays_200_per_tile():
    table = Table(players=2)
    table.fill(BLUE, 5)
    table.land(BLUE, 12)
    assert table.cash(BLUE) == 5000 + 1000


def test_problem_draws_black_and_the_federal_agent_bans():
    table = Table(players=2)
    table.top("black", "B06-1")
    table.land(BLUE, 16)
    assert table.cash(BLUE) == 5000 - 3 * 200
    fed = Table(players=2)
    fed.land(BLUE, 18)
    assert fed.view()["families"][BLUE]["fed"] == 4 and "federal_ban" in fed.kinds()


def test_arms_shop_and_casino_by_visitor_state():
    table = Table(players=3)
    table.own(GREEN, 4)
    table.own(GREEN, 7)
    table.land(BLUE, 4)                                # capiregime at a rival's arms shop
    assert table.cash(BLUE) == 5000 - 600 and table.cash(GREEN) == 5000 + 600
    table.land(BLUE, 7)
    assert table.cash(BLUE) == 5000 - 600 - 800
    table.land(YELLOW, 13)                             # neutral arms shop: protection fee
    assert table.cash(YELLOW) == 5000 + 600
    table.land(YELLOW, 15)                             # neutral casino
    assert table.cash(YELLOW) == 5000 + 600 + 400
    table.land(GREEN, 7)
    assert table.cash(GREEN) == 5000 + 600 + 800 + 2000


def test_a_friend_or_a_closed_business_costs_and_pays_nothing():
    table = Table(players=2)
    table.own(GREEN, 9)
    table.state["businesses"]["9"]["friends"] = [BLUE]
    table.state["secret"]["red"].remove("R16-1")
    table.land(BLUE, 9)
    assert table.cash(BLUE) == 5000
    table.state["businesses"]["9"]["closed"] = GREEN
    table.land(GREEN, 9)
    assert table.cash(GREEN) == 5000


def test_buying_businesses_from_anywhere_with_markers():
    table = Table(players=2)
    table.set_cash(BLUE, 20000)
    table.turn_of(BLUE, ACTION)
    table.act(BLUE, {"type": "buy_business", "square": 13})
    assert table.cash(BLUE) == 14000 and table.view()["businesses"]["13"]["owner"] == BLUE
    assert table.refuse(BLUE, {"type": "buy_business", "square": 13}) == "occupied"
    assert table.refuse(BLUE, {"type": "buy_business", "square": 3}) == "bad_square"
    assert table.refuse(BLUE, {"type": "buy_business", "square": 2}) == "bad_square"
    table.family(BLUE)["markers"] = 0
    assert table.refuse(BLUE, {"type": "buy_business", "square": 1}) == "no_marker"
    table.family(BLUE)["markers"] = 5
    table.set_cash(BLUE, 3000)
    assert table.refuse(BLUE, {"type": "buy_business", "square": 1}) == "no_cash"


def test_an_attack_needs_the_cash_and_a_picciotto_goes_home_from_its_gate_cell():
    table = Table(players=2)
    table.set_cells({"d1": BLUE, "d2": BLUE, "e2": GREEN, "g4": GREEN})
    table.picciotto("d2")
    table.picciotto("d1")
    table.turn_of(BLUE, ACTION)
    table.set_cash(BLUE, 2900)
    assert table.refuse(BLUE, {"type": "step", "from": "d2", "to": "e2"}) == "no_cash"
    assert table.refuse(BLUE, {"type": "step", "from": "d1", "to": "d2"}) == "occupied"
    table.act(BLUE, {"type": "step", "from": "d1", "to": "gate"})
    assert table.family(BLUE)["gate_picciotti"] == 1 and "d1" not in table.state["picciotti"]
    assert table.refuse(BLUE, {"type": "step", "from": "gate", "to": "d1"}) == "already_stepped"


def test_the_host_proxies_public_choices_and_removal_bankrupts():
    table = Table(players=3)
    assert ENGINE.proxy_moves(table.state) == {BLUE: [{"type": "roll"}]}
    table.act("host", {"type": "proxy", "seat": BLUE, "action": {"type": "roll"}})
    die = table.state["roll"]["die"]
    assert ENGINE.proxy_moves(table.state) == {BLUE: [{"type": "move", "steps": die}]}
    table.act("host", {"type": "remove_player", "seat": BLUE})
    assert table.state["phase"] == "over" and table.view()["end"] == "bankruptcy"
    kept = Table(players=3, bankruptcy_ends_game=False)
    kept.act("host", {"type": "remove_player", "seat": BLUE})
    assert kept.family(BLUE)["out"] and kept.state["active"] == GREEN and kept.state["phase"] == BEFORE_ROLL
