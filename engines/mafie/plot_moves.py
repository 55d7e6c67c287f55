"""The Plot Thickens in play (docs/rules/mafie.md §A.3.3): the Kmotr hands out the drawn cards,
an immediate card's holder makes its choice, and the holders asked in a reaction window play
their card or pass.  The cards themselves are in plot_cards.py; when the windows open and
where the game goes after them is the base game's (base_game.py, the bracketed hooks)."""

from __future__ import annotations

from engines.base import Action, Event, IllegalAction, MalformedAction, Result, State, next_turn, say
from engines.mafie import plot_cards as plot
from engines.mafie.base_game import _after_plot_move, _after_rejection, _continue, _pass_kmotr
from engines.mafie.tables import PLOT_DEAL, PLOT_WINDOW, _expect_phase


# --------------------------------------------------------------------------------------------
# The deal (rules §A.3.3): the Kmotr hands out the cards, ★ cards are carried out
# --------------------------------------------------------------------------------------------

def assign_plot_card(state: State, seat: int, action: Action) -> Result:
    """The Kmotr hands one drawn plot card to another player (rules §A.3.3, the deal)."""
    _expect_phase(state, PLOT_DEAL)
    return _plot_move(state, lambda public, secret, events: plot.assign(
        public, secret, kmotr=state["kmotr"], seat=seat, card_id=action["card"], to=action["to"],
        roles=state["secret"]["roles"], events=events))


def carry_out_plot_card(state: State, seat: int, action: Action) -> Result:
    """The holder of an immediate card makes its choice: take, overhear, open up."""
    _expect_phase(state, PLOT_DEAL)
    return _plot_move(state, lambda public, secret, events: plot.resolve(
        public, secret, seat=seat, action=action, roles=state["secret"]["roles"], events=events))


def _plot_move(state: State, move) -> Result:
    events: list[Event] = []
    public, secret = move(state["plot"], state["secret"]["plot"], events)
    state["plot"], state["secret"] = public, {**state["secret"], "plot": secret}
    next_turn(state)   # the deal's screens change with every card
    _announce_plot(state, events)
    _after_plot_move(state, events)
    return Result(state, events)


def _announce_plot(state: State, events: list[Event]) -> None:
    """The TV announces every card handed out and every card used, and on whom (plot cards
    are never hidden); Strong Leader and No Confidence have lines of their own."""
    for event in events:
        if event.kind == "plot_dealt":
            say(state, "plot_dealt", seat=event.data["to"], card=event.data["card"])
        elif event.kind == "plot_used" and event.data["card"] not in ("strong_leader", "no_confidence"):
            say(state, "plot_used", seat=event.data["seat"], card=event.data["card"],
                target=event.data.get("target"))


# --------------------------------------------------------------------------------------------
# Reaction windows (rules §A.3.3, cards 1–4)
# --------------------------------------------------------------------------------------------

def play_plot_card(state: State, seat: int, action: Action) -> Result:
    """The asked holder plays the window's card (rules §A.3.3, cards 1–4)."""
    window = _asked(state, seat)
    held = plot.holding(state["plot"], seat, plot.WINDOWS[window["kind"]])
    if held is None or held["id"] != action["card"]:
        raise IllegalAction("not_your_plot_card", "You have no plot card to play now")
    target = action.get("target")
    events: list[Event] = []
    if held["card"] in plot.TARGETED:
        if target not in state["team"]:
            raise IllegalAction("not_on_crew", "Pick a member of the crew")
        if held["card"] == "keeping_close_eye":
            if target == seat:
                raise IllegalAction("close_eye_self", "Watch someone else")
            if target in state["inspected"]:
                raise IllegalAction("already_watched", "Someone already watches that card")
            state["inspected"] = state["inspected"] + [target]
            state["secret"] = {**state["secret"], "plot": plot.learn_card(
                state["secret"]["plot"], seat, held, target, state["secret"]["cards"][target], events)}
        else:
            state["spotlight"] = target
    elif target is not None:
        raise MalformedAction("bad_target", "This card takes no target")
    state["plot"] = plot.spend(state["plot"], held, target if held["card"] in plot.TARGETED else None, events)
    next_turn(state)
    _announce_plot(state, events)
    if held["card"] == "strong_leader":
        # Card 1: the holder becomes the Kmotr; one per vote, so the window closes.
        _pass_kmotr(state, events, seat)
        say(state, "strong_leader", kmotr=seat)
        _continue(state, events, window["then"])
    elif held["card"] == "no_confidence":
        # Card 2: the approved crew is cancelled and this counts as a rejected vote.
        state["window"] = None
        say(state, "no_confidence", seat=seat)
        _after_rejection(state, events, cancelled=True)
    else:
        _next_asked(state, events)
    return Result(state, events)


def pass_plot(state: State, seat: int, action: Action) -> Result:
    """The asked holder lets the moment go; a pass is final for this window."""
    _asked(state, seat)
    next_turn(state)
    events: list[Event] = [Event("plot_passed", {"seat": seat, "window": state["window"]["kind"]})]
    _next_asked(state, events)
    return Result(state, events)


def _asked(state: State, seat: int) -> dict:
    _expect_phase(state, PLOT_WINDOW)
    window = state["window"]
    if window["queue"][0] != seat:
        raise IllegalAction("not_your_plot_card", "You have no plot card to play now")
    return window


def _next_asked(state: State, events: list[Event]) -> None:
    """The next holder; after the last, the window waits for the game master (the server) to
    close it: it does so once the window's minimum time is over, so a quick pass and a long
    thought look the same from across the table (rules §A.3.3, reaction windows)."""
    window = state["window"]
    state["window"] = {**window, "queue": window["queue"][1:]}


def close_window(state: State, seat: int | None, action: Action) -> Result:
    """The game master closes a window whose holders have all answered."""
    _expect_phase(state, PLOT_WINDOW)
    if seat is not None or state["window"]["queue"]:
        raise IllegalAction("not_your_turn", "Only the game master closes the window")
    events: list[Event] = [Event("plot_window_closed", {"window": state["window"]["kind"]})]
    _continue(state, events, state["window"]["then"])
    return Result(state, events)
