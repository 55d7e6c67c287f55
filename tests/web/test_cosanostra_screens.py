"""Cosa Nostra on the screens (issue 19; docs/rules/cosanostra.md §12–§14): in every phase the
phone of the family asked shows exactly its legal moves as buttons (the deal composer aside, a
form of the player's own choices) and every other phone the same "follow the board" panel; a red
card's text reaches its owner's phone only; an offer's contents reach its two parties only and the
TV tells the deal once it is done; a debtor's phone lists what it can sell; bad input is refused in
words and changes nothing.  Games are the engine's with forced chance (tests/engines/
cosanostra_helpers.py)."""

from __future__ import annotations

import html

import pytest
from django.http import QueryDict

from engines.cosanostra.state import ACTION
from mafiagames import services, taps
from mafiagames.models import Game
from mafiagames.presenters import FormError
from mafiagames.presenters.cosanostra import forms
from mafiagames.presenters.cosanostra.words import CARD_HELP, CARD_NAMES
from mafiagames.rendering import Table as Room
from mafiagames.rendering import phone_screen, tv_screen
from tests.engines.cosanostra_helpers import BLUE, ENGINE, GREEN, YELLOW, Table
from tests.web.test_buttons_are_moves import presses

from .helpers import room_with_players, start_after_briefing

NAMES = ["Ann", "Bob", "Cyd", "Dan"]
# A counter-offer is composed in a form of the player's own choices (rules §13), not a button.
COMPOSED = {"counter_trade"}


def room(state) -> Room:
    players = state["players"]
    seats = list(range(100, 100 + players))
    return Room(code="TEST", language="en", ruleset="cosanostra", options=state["options"],
                players=[{"id": pid, "name": NAMES[i], "connected": True} for i, pid in enumerate(seats)],
                game={"id": 1, "ruleset": "cosanostra", "state": state, "version": 3, "names": NAMES[:players],
                      "seats": seats, "status": "running" if state["phase"] != "over" else "finished",
                      "clock_started": 1_000_000.0, "options": state["options"],
                      "story": {"step": 0, "all": False, "moved": None}})


def phone(state, seat) -> dict:
    return phone_screen(room(state), 100 + seat)


def tv(state) -> str:
    return "".join(tv_screen(room(state), host=False).values())


def buttons(state, seat) -> list[dict]:
    """Every move the seat's phone sends with one tap (hidden fields and a submit button)."""
    screen = "".join(phone(state, seat).values())
    return [forms.parse_action(fields) for fields in presses(screen)]


def assert_buttons_are_the_legal_moves(table: Table, seat: int) -> None:
    sent, legal = buttons(table.state, seat), table.legal(seat)
    assert all(move in legal for move in sent), [move for move in sent if move not in legal]
    assert all(move in sent for move in legal if move["type"] not in COMPOSED), \
        [move for move in legal if move["type"] not in COMPOSED and move not in sent]
    assert len(sent) == len({repr(move) for move in sent}), "a move offered twice"


def waiting_panels_alike(table: Table, asked: set[int]) -> None:
    """Every phone not asked shows the same panel, whatever its hand (rules §14)."""
    panels = {phone(table.state, seat)["ph-panel"] for seat in range(table.state["players"]) if seat not in asked}
    assert len(panels) == 1
    (panel,) = panels
    assert "follow the board" in panel and "ws-send" not in panel


def test_the_gates_offer_the_free_gates_then_the_start_cells():
    state, _ = ENGINE.setup(3, {}, 1, deal={"forced": {"colour": ["BLUE"]}})
    table = Table.__new__(Table)
    table.state, table.events = state, []
    chooser = state["active"]
    assert_buttons_are_the_legal_moves(table, chooser)
    assert {move["gate"] for move in buttons(state, chooser)} == {"N", "E", "S", "W"}
    waiting_panels_alike(table, {chooser})
    table.act(chooser, {"type": "choose_gate", "gate": "S"})
    assert {move["cell"] for move in buttons(table.state, chooser) if move["type"] == "place_start"} == {"c7", "e7", "d6"}
    assert_buttons_are_the_legal_moves(table, chooser)


def test_before_the_roll_roll_and_the_fast_car_then_one_button_per_allowed_stop():
    table = Table(3)
    table.give(BLUE, "R10-1")
    assert_buttons_are_the_legal_moves(table, BLUE)
    assert {m["steps"] for m in buttons(table.state, BLUE) if m["type"] == "play_card"} == set(range(1, 7))
    waiting_panels_alike(table, {BLUE})
    table.force("die", [4])
    table.act(BLUE, {"type": "roll"})
    assert [m["steps"] for m in buttons(table.state, BLUE) if m["type"] == "move"] == [3, 4, 5]   # capiregime: 4 ± 1
    panel = phone(table.state, BLUE)["ph-panel"]
    assert "Arms shop 1" in panel and "Špicl" in panel          # each stop names where it lands (squares 4, 5)
    assert_buttons_are_the_legal_moves(table, BLUE)
    waiting_panels_alike(table, {BLUE})


def test_an_offer_on_the_square_is_yes_or_no_and_the_yakuza_picks_a_cell():
    table = Table(3)
    table.land(BLUE, 5)                                         # Špicl: 400 D for a red card
    assert table.state["phase"] == "offer"
    assert {m["type"] for m in buttons(table.state, BLUE)} == {"accept", "decline"}
    assert_buttons_are_the_legal_moves(table, BLUE)
    table.act(BLUE, {"type": "decline"})
    table.act(BLUE, {"type": "end_turn"})
    table.picciotto("f4")
    table.land(GREEN, 14)                                       # Yakuza: a picciotto's cell
    assert {m.get("cell") for m in buttons(table.state, GREEN) if m["type"] == "accept"} == {"f4"}
    assert_buttons_are_the_legal_moves(table, GREEN)


def test_the_action_phase_shows_the_city_map_of_legal_cells_hire_businesses_cards_and_end():
    table = Table(3)
    table.gate_picciotti(BLUE, 1)
    table.give(BLUE, "R05-1")
    table.give(BLUE, "R12-1")
    table.turn_of(BLUE, ACTION)
    sent = buttons(table.state, BLUE)
    assert {m["type"] for m in sent} >= {"buy_tile", "buy_business", "hire", "step", "play_card", "end_turn", "arm"}
    assert_buttons_are_the_legal_moves(table, BLUE)
    panel = phone(table.state, BLUE)["ph-panel"]
    # The map: 49 cells, the buyable ones buttons, the rest greyed squares that send nothing.
    buy_map = panel.split('class="cn-map"')[1].split("</details>")[0]
    assert buy_map.count("cn-cell live") == len([m for m in sent if m["type"] == "buy_tile"])
    assert buy_map.count("cn-cell") == 49
    waiting_panels_alike(table, {BLUE})


def test_a_black_card_asking_a_choice_lists_its_targets():
    table = Table(3)
    table.picciotto("d2")
    table.gate_picciotti(BLUE, 1)
    table.top("black", "B02-1")                                  # the informer: which picciotto goes
    table.land(BLUE, 8)                                          # Problem: draw a black card
    assert table.state["phase"] == "choose"
    assert {m["target"] for m in buttons(table.state, BLUE) if m["type"] == "choose"} == {"d2", "gate"}
    assert_buttons_are_the_legal_moves(table, BLUE)
    assert str(CARD_NAMES["B02"]) in html.unescape(phone(table.state, BLUE)["ph-panel"])


def test_liquidation_lists_every_sellable_tile_and_pay_only_once_the_cash_covers_the_debt():
    table = Table(3)
    table.set_cash(BLUE, 300)
    table.top("black", "B05-1")                                  # lost shipment: pay 2000
    table.land(BLUE, 8)
    assert table.state["phase"] == "liquidation"
    panel = html.unescape(phone(table.state, BLUE)["ph-panel"])
    sells = [m["cell"] for m in buttons(table.state, BLUE) if m["type"] == "sell_to_city"]
    assert sorted(sells) == ["d1", "d2", "d3"] and panel.count("+1 000 D") == 3
    assert "You owe 2 000 D" in panel and not any(m["type"] == "pay" for m in buttons(table.state, BLUE))
    assert_buttons_are_the_legal_moves(table, BLUE)
    table.act(BLUE, {"type": "sell_to_city", "cell": "d3"})
    table.act(BLUE, {"type": "sell_to_city", "cell": "d2"})
    assert {"type": "pay"} in buttons(table.state, BLUE)
    assert_buttons_are_the_legal_moves(table, BLUE)


def test_a_red_card_and_its_text_are_on_its_owners_phone_only():
    table = Table(3)
    table.give(GREEN, "R13-1")                                   # Alibi
    name, text = str(CARD_NAMES["R13"]), str(CARD_HELP["R13"])
    mine = html.unescape(phone(table.state, GREEN)["ph-role"])
    assert name in mine and text in mine
    assert {"type": "arm", "card": "R13-1", "on": True} in buttons(table.state, GREEN)
    for seat in (BLUE, YELLOW):
        assert name not in html.unescape("".join(phone(table.state, seat).values()))
    assert name not in html.unescape(tv(table.state))


def test_a_deals_contents_reach_its_two_parties_only_and_the_tv_tells_it_once_done():
    table = Table(3)
    table.give(BLUE, "R05-1")
    table.turn_of(BLUE, ACTION)
    composer = phone(table.state, BLUE)["ph-panel"]
    assert 'value="offer_trade"' in composer and 'name="give_red_cards" value="R05-1"' in composer
    table.act(BLUE, {"type": "offer_trade", "to": GREEN,
                     "give": {"cash": 0, "tiles": [], "businesses": [], "red_cards": ["R05-1"]},
                     "take": {"cash": 1500, "tiles": [], "businesses": [], "red_cards": []}})
    name = str(CARD_NAMES["R05"])
    recipient = html.unescape(phone(table.state, GREEN)["ph-panel"])
    assert name in recipient and str(CARD_HELP["R05"]) in recipient and "1 500 D" in recipient
    assert {m["type"] for m in buttons(table.state, GREEN)} >= {"accept_trade", "decline_trade"}
    assert 'value="counter_trade"' in recipient                  # the counter-offer's composer
    assert name in html.unescape(phone(table.state, BLUE)["ph-panel"])
    assert {"type": "withdraw_trade"} in buttons(table.state, BLUE)
    assert name not in html.unescape("".join(phone(table.state, YELLOW).values()))
    assert name not in html.unescape(tv(table.state))
    table.act(GREEN, {"type": "accept_trade"})
    told = html.unescape(tv(table.state))
    assert "Deal: Ann (Blue) gives 1 red card; Bob (Green) gives 1 500 D." in told
    assert name not in told                                      # a done deal shows a count, no text (§14)


@pytest.fixture
def gates_game(db):
    """A room's game of three at its first step: the last family in turn order picks a gate."""
    room, players = room_with_players(3)
    services.configure(room, "cosanostra", {})
    game = start_after_briefing(room, seed=1, deal={"forced": {"colour": ["BLUE"]}})
    chooser = players[game.seats.index(next(p.pk for p in players if p.pk == game.seats[game.state["active"]]))]
    return room, chooser, game


def tap(room, player, **fields):
    form = QueryDict(mutable=True)
    for key, value in fields.items():
        form[key] = str(value)
    return taps.tap(room, player.pk, form)


def test_bad_input_is_refused_in_words_and_changes_nothing(gates_game):
    room, chooser, game = gates_game
    before = Game.objects.get(pk=game.pk).state
    turn = before["turn"]
    refusals = [
        tap(room, chooser, action="choose_gate", gate="N"),                    # no turn
        tap(room, chooser, turn=turn, action="choose_gate", gate="Q"),         # no such gate
        tap(room, chooser, turn=turn, action="place_start", cell="z9"),        # no such cell
        tap(room, chooser, turn=turn, action="buy_business", square="x"),      # not a square
        tap(room, chooser, turn=turn, action="dance"),                         # no such move
        tap(room, chooser, turn=turn - 1, action="choose_gate", gate="N"),     # a stale screen
        tap(room, chooser, turn=turn, action="roll"),                          # not now
    ]
    assert [r.status for r in refusals[:5]] == [400] * 5
    assert refusals[5].status == 409 and refusals[6].status == 409
    assert "no such cell: z9" in refusals[2].message and "no such gate" in refusals[1].message
    assert all(r.message for r in refusals)
    assert Game.objects.get(pk=game.pk).state == before
    assert tap(room, chooser, turn=turn, action="choose_gate", gate="N").status == 204


def test_the_deal_composer_reads_goods_in_hundreds_and_refuses_odd_amounts():
    form = QueryDict(mutable=True)
    form.update({"action": "offer_trade", "to": "1", "give_cash": "500", "take_cash": "0"})
    form.setlist("take_tiles", ["e4"])
    form.setlist("give_red_cards", ["R05-1"])
    assert forms.parse_action(form) == {"type": "offer_trade", "to": 1,
                                        "give": {"cash": 500, "tiles": [], "businesses": [], "red_cards": ["R05-1"]},
                                        "take": {"cash": 0, "tiles": ["e4"], "businesses": [], "red_cards": []}}
    form["give_cash"] = "550"
    with pytest.raises(FormError):
        forms.parse_action(form)


def test_a_black_cards_target_that_only_looks_like_a_number_is_refused_in_words():
    """"²" passes str.isdigit but not int(): a clear refusal, not a server error."""
    for raw in ("²", "٣x", "", "z9"):
        with pytest.raises(FormError):
            forms.parse_action(QueryDict(f"action=choose&target={raw}"))
    assert forms.parse_action(QueryDict("action=choose&target=11")) == {"type": "choose", "target": 11}
    assert forms.parse_action(QueryDict("action=choose&target=gate")) == {"type": "choose", "target": "gate"}


def test_the_tv_shows_each_familys_cash_rank_tiles_the_roll_and_the_latest_moves():
    table = Table(3)
    table.roll(4)                                               # BLUE, capiregime: 3–5, moves 4 to the arms shop
    shown = html.unescape(tv(table.state))
    for name in ("Ann", "Bob", "Cyd"):
        assert name in shown
    assert "Capiregime" in shown and "3 tiles" in shown and "5 000 D" in shown
    assert "Ann (Blue): 3–5 squares" in shown                    # the die and its range beside the board
    assert "Ann (Blue) moves 4 to Arms shop 1." in shown            # the history


def test_hidden_cash_shows_a_familys_cash_on_its_own_phone_only():
    table = Table(3, hidden_cash=True)
    table.set_cash(GREEN, 4200)
    assert "4 200 D" in html.unescape(phone(table.state, GREEN)["ph-role"])
    assert "4 200 D" not in html.unescape("".join(phone(table.state, BLUE).values()))
    assert "4 200 D" not in html.unescape(tv(table.state))


def test_each_family_choosing_its_gate_gets_a_clock_the_web_layer_starts_afresh():
    """docs/rules/cosanostra.md §19.1: 30 s for each family in turn.  The web layer keeps a
    clock's start while its id stays (services.clock_started): the next family's clock is new."""
    state, _ = ENGINE.setup(3, {}, 1)
    after, _ = ENGINE.apply(state, None, {"type": "timeout"})
    assert after["phase"] == "gates" and after["active"] != state["active"]
    started = object()
    assert services.clock_started(state, state, started) is started
    assert services.clock_started(state, after, started) is not started
