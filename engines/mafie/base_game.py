"""Mafie's base game as a state machine (docs/rules/mafie.md A.2, with the Plot Thickens' hooks
in brackets as the rules write them; A.3.1 targeting): the detective meeting, each round's
crew proposal, the vote on it, the action, the reveal, and the end of the game.

Each chapter holds its phase transitions, then the players' moves that drive them.  The
transitions take the state the current ``setup`` builds or ``apply`` works on (its
``working_copy``: engines/base.py), change it and append to ``events``.  The expansion's moves
(plot_moves.py) come back here through ``_continue`` and ``_after_rejection``.
"""

from __future__ import annotations

from engines.base import NOBODY, Action, Event, IllegalAction, Outcome, Result, State, next_turn, say, stop_clock
from engines.mafie import plot_cards as plot
from engines.mafie.tables import (
    ACTION_PLAY, APPROVALS_NEEDED, DETECTIVE, DETECTIVE_MEETING, DETECTIVES, FAIL, GAME_OVER, MAFIA, MAFIOSO,
    MAX_REJECTIONS, PLOT_DEAL, PLOT_WINDOW, PLOT_WINDOW_SECONDS, SLOT5_SUCCESSES_NEEDED, SLOTS, SUCCESS, TEAM_SELECTION,
    TEAM_VOTE, WINS_NEEDED, _expect_phase, _successes, fails_needed, left, team_size,
)


# --------------------------------------------------------------------------------------------
# The detective meeting (rules A.2 DETECTIVE_MEETING; skipped with blind detectives, A.3.2)
# --------------------------------------------------------------------------------------------

def _begin_detective_meeting(state: State, events: list[Event]) -> None:
    next_turn(state, DETECTIVE_MEETING)
    say(state, "detective_meeting")


def ready(state: State, seat: int, action: Action) -> Result:
    """Detective meeting, phone mode: every seat taps ready once (rules A.2, A.4)."""
    _expect_phase(state, DETECTIVE_MEETING)
    if seat in state["ready"]:
        raise IllegalAction("already_ready", "You are already ready")
    state["ready"] = sorted(state["ready"] + [seat])
    events = [Event("ready", {"seat": seat})]
    if len(state["ready"]) == state["players"]:
        state["narration"] = []
        _begin_round(state, events)
    return Result(state, events)


# --------------------------------------------------------------------------------------------
# A round: its start [and the Kmotr's plot deal] (rules A.2 ROUND_START; §A.3.3)
# --------------------------------------------------------------------------------------------

def _begin_round(state: State, events: list[Event]) -> None:
    """ROUND_START(r) (rules A.2).  [Expansion: the round's plot deal is scheduled from here.]"""
    events.append(Event("round_started", {"round": state["round"], "kmotr": state["kmotr"]}))
    if not state["options"]["targeting"]:
        slot = state["round"]
        say(state, "round_start", round=slot, team_size=team_size(state["players"], slot),
            two_fails=fails_needed(state["players"], slot) == 2)
    if state["plot"] is None:
        _begin_proposal(state, events)
    elif not _open_window(state, events, "pre_proposal", "deal"):
        _begin_plot_deal(state, events)    # Strong Leader first: the new Kmotr would deal


def _begin_plot_deal(state: State, events: list[Event]) -> None:
    """PLOT_DEAL (rules §A.3.3): the Kmotr draws the round's cards, shows them and hands them
    out one at a time; each immediate card is carried out before the next is handed out."""
    count = plot.draw_count(state["players"], state["options"]["plot_distribution"])
    public, secret = plot.draw(state["plot"], state["secret"]["plot"], count, events)
    state["plot"], state["secret"] = public, {**state["secret"], "plot": secret}
    next_turn(state, PLOT_DEAL)
    say(state, "plot_deal", kmotr=state["kmotr"], drawn=[card["card"] for card in public["drawn"]])
    _after_plot_move(state, events)


def _after_plot_move(state: State, events: list[Event]) -> None:
    """The deal goes on while cards remain or a card awaits its holder; then the proposal."""
    if not plot.dealing(state["plot"]):
        _begin_proposal(state, events)


# --------------------------------------------------------------------------------------------
# Team selection: the Kmotr proposes a crew (rules A.2 TEAM_SELECTION; A.3.1 targeting)
# --------------------------------------------------------------------------------------------

def _begin_proposal(state: State, events: list[Event]) -> None:
    """A new team-building attempt.  [Expansion: PRE_PROPOSAL window (Strong Leader) first.]"""
    next_turn(state, TEAM_SELECTION)
    state["team"] = []
    if state["options"]["targeting"]:
        state["slot"] = None    # rules A.3.1: the Kmotr names the slot with the crew
        say(state, "choose_slot", round=state["round"], kmotr=state["kmotr"])
    else:
        state["slot"] = state["round"]
        say(state, "team_selection", kmotr=state["kmotr"],
            team_size=team_size(state["players"], state["slot"]))


def propose_team(state: State, seat: int, action: Action) -> Result:
    """The Kmotr names the crew (and, with targeting, the slot) (rules A.2 TEAM_SELECTION)."""
    _expect_phase(state, TEAM_SELECTION)
    if seat != state["kmotr"]:
        raise IllegalAction("not_kmotr", "Only the Kmotr proposes the crew")
    slot = _checked_slot(state, action.get("slot"))
    team = _checked_team(state, action["team"], team_size(state["players"], slot))
    state["slot"] = slot
    state["team"] = team
    events = [Event("team_proposed", {"kmotr": seat, "slot": slot, "team": list(team)})]
    _begin_vote(state, events)
    return Result(state, events)


def _checked_slot(state: State, slot: int | None) -> int:
    if not state["options"]["targeting"]:
        if slot is not None and slot != state["round"]:
            raise IllegalAction("wrong_slot", f"This is action {state['round']}")
        return state["round"]
    # Targeting (Czech rulebook, Změna pořadí akcí; rules A.3.1)
    if slot is None:
        raise IllegalAction("slot_required", "Choose which action to attempt")
    if not 1 <= slot <= SLOTS:
        raise IllegalAction("unknown_slot", "There are only actions 1 to 5")
    if state["track"][slot - 1]["result"] is not None:
        raise IllegalAction("slot_played", "Each action can be played only once")
    if slot == SLOTS and _successes(state) < SLOT5_SUCCESSES_NEEDED:
        raise IllegalAction("slot_locked", "Action 5 opens only after two successful actions")
    return slot


def _checked_team(state: State, team: list[int], size: int) -> list[int]:
    """Exactly ``size`` distinct players, the Kmotr may include himself (rules A.2)."""
    if any(not 0 <= seat < state["players"] for seat in team):
        raise IllegalAction("unknown_seat", "Pick players at this table")
    if len(set(team)) != len(team):
        raise IllegalAction("duplicate_seat", "Pick each player at most once")
    if len(team) != size:
        raise IllegalAction("wrong_team_size", f"The crew needs exactly {size} players")
    return sorted(team)


# --------------------------------------------------------------------------------------------
# The vote on the crew (rules A.2 TEAM_VOTE; [Opinion Maker votes first])
# --------------------------------------------------------------------------------------------

def _begin_vote(state: State, events: list[Event]) -> None:
    """TEAM_VOTE: every seat votes (rules A.2).  [Expansion: Opinion Makers vote first.]"""
    next_turn(state, TEAM_VOTE)
    state["secret"] = {**state["secret"], "ballots": [None] * state["players"]}
    state["narration"] = []
    openers = plot.opinion_makers(state["plot"]) if state["plot"] is not None else []
    # Opinion Maker (rules §A.3.3, 5): its holders choose first and are revealed, then the rest.
    state["opinion"] = {"seats": openers, "votes": None} if openers else None
    if state["options"]["targeting"]:
        slot = state["slot"]
        say(state, "slot_chosen", slot=slot, team_size=team_size(state["players"], slot),
            two_fails=fails_needed(state["players"], slot) == 2)
    say(state, "vote", approvals_needed=APPROVALS_NEEDED[state["players"]])


def vote(state: State, seat: int, action: Action) -> Result:
    """Approve or reject, secretly; revealed when the last vote arrives (rules A.2 TEAM_VOTE)."""
    _expect_phase(state, TEAM_VOTE)
    ballots = state["secret"]["ballots"]
    if ballots[seat] is not None:
        raise IllegalAction("already_voted", "You have already voted")
    opinion = state["opinion"]
    if _opinion_first(state) and seat not in opinion["seats"]:
        raise IllegalAction("opinion_first", "The Opinion Maker votes first")
    ballots = list(ballots)
    ballots[seat] = action["approve"]
    state["secret"] = {**state["secret"], "ballots": ballots}
    events = [Event("vote_cast", {"seat": seat})]
    if _opinion_first(state) and all(ballots[s] is not None for s in opinion["seats"]):
        # Two Opinion Makers choose secretly and are revealed together.
        votes = [[s, ballots[s]] for s in opinion["seats"]]
        state["opinion"] = {**opinion, "votes": votes}
        next_turn(state)
        events.append(Event("opinion_votes", {"votes": votes}))
        say(state, "opinion_votes", approve_seats=[s for s, v in votes if v],
            reject_seats=[s for s, v in votes if not v])
    if None not in ballots:     # "the app waits for every vote" (rules A.2)
        _reveal_votes(state, events)
    return Result(state, events)


def _opinion_first(state: State) -> bool:
    """Are Opinion Makers still to vote before everyone else (rules §A.3.3, 5)?"""
    return bool(state["opinion"]) and state["opinion"]["votes"] is None


def _reveal_votes(state: State, events: list[Event]) -> None:
    """Flip every vote card face up, with names (Czech rulebook, Hlasování o týmu)."""
    players = state["players"]
    ballots = state["secret"]["ballots"]
    approve = ballots.count(True)
    record = {
        "kmotr": state["kmotr"], "slot": state["slot"], "team": list(state["team"]),
        "votes": list(ballots), "approve": approve, "reject": players - approve,
        # "nadpoloviční většina všech hráčů"; a tie is a rejection (Hlasování o týmu)
        "approved": approve >= APPROVALS_NEEDED[players],
    }
    state["secret"] = {**state["secret"], "ballots": [None] * players}
    state["opinion"] = None
    state["last_vote"] = record
    state["vote_history"] = state["vote_history"] + [record]
    state["narration"] = []
    events.append(Event("votes_revealed", _vote_view(record)))
    if record["approved"]:
        _after_approval(state, events)
    else:
        _after_rejection(state, events)


def _vote_view(record: dict | None) -> dict | None:
    if record is None:
        return None
    return {**record, "team": list(record["team"]), "votes": list(record["votes"])}


def _after_approval(state: State, events: list[Event]) -> None:
    """An approved crew; with plot cards, No Confidence and then In the Spotlight may react."""
    vote = state["last_vote"]
    say(state, "approved", approve=vote["approve"], reject=vote["reject"])
    if state["plot"] is None or not _open_window(state, events, "no_confidence", "spotlight"):
        _continue(state, events, "spotlight")


def _proceed_to_action(state: State, events: list[Event]) -> None:
    # The counter resets only when an approved crew proceeds to the action (rules A.2).
    state["rejections"] = 0
    _begin_action_play(state, events)


def _after_rejection(state: State, events: list[Event], cancelled: bool = False) -> None:
    """A failed vote (rules A.2), or an approval ``cancelled`` by No Confidence, which counts
    the same way (rules §A.3.3, 2) — its narration then gives no vote count."""
    vote = state["last_vote"]
    state["rejections"] += 1
    counts = {} if cancelled else {"approve": vote["approve"], "reject": vote["reject"]}
    if state["rejections"] >= MAX_REJECTIONS:
        # "Detektivové ve hře zvítězí okamžitě, když není schváleno 5 týmů pro akci po sobě."
        say(state, "five_rejections", **counts)
        _end_game(state, events, DETECTIVES, "five_rejections")
        return
    # "posuňte žeton kmotra ke hráči po levici současného kmotra" (Hlasování o týmu)
    _pass_kmotr(state, events, left(state, state["kmotr"]))
    say(state, "rejected" if not cancelled else "cancelled", **counts, count=state["rejections"],
        kmotr=state["kmotr"])
    if state["plot"] is None or not _open_window(state, events, "pre_proposal", "proposal"):
        _begin_proposal(state, events)


def _pass_kmotr(state: State, events: list[Event], seat: int) -> None:
    state["kmotr"] = seat
    events.append(Event("kmotr_passed", {"kmotr": seat}))


# --------------------------------------------------------------------------------------------
# [Reaction windows: the holders of a kept plot card asked in its moment (§A.3.3)]
# --------------------------------------------------------------------------------------------

def _open_window(state: State, events: list[Event], kind: str, then: str) -> bool:
    """Ask the holders of ``kind``'s card, one by one from the Kmotr clockwise (rules §A.3.3,
    "Reaction windows"); False if nobody holds one (holdings are public: nothing to hide)."""
    queue = plot.poll(state["plot"], kind, state["kmotr"], state["players"])
    if not queue:
        return False
    next_turn(state, PLOT_WINDOW)
    # "opened": which window this is (the turn it opened at).  The game master closes it
    # PLOT_WINDOW_SECONDS after it opened, once everyone asked has answered (close_window).
    # The clock's id is that turn, not base.start_clock's counter: a window and its clock are
    # one thing, named alike since they were built (the web layer and its tests rely on it).
    state["window"] = {"kind": kind, "queue": queue, "then": then, "opened": state["turn"]}
    state["clock"] = {"id": state["turn"], "seconds": PLOT_WINDOW_SECONDS, "move": {"type": "close_window"}}
    say(state, "plot_window", kind=kind, card=plot.WINDOWS[kind])
    return True


def _continue(state: State, events: list[Event], then: str) -> None:
    """Where the game goes once a window has closed."""
    state["window"] = None
    stop_clock(state)
    if then == "deal":
        _begin_plot_deal(state, events)
    elif then == "proposal":
        _begin_proposal(state, events)
    elif then == "spotlight":
        if state["plot"] is None or not _open_window(state, events, "spotlight", "action"):
            _proceed_to_action(state, events)
    elif then == "action":
        _proceed_to_action(state, events)
    else:
        _reveal_action(state, events)


# --------------------------------------------------------------------------------------------
# The action: the crew plays its cards, counts revealed (rules A.2 ACTION_PLAY, ACTION_REVEAL)
# --------------------------------------------------------------------------------------------

def _begin_action_play(state: State, events: list[Event]) -> None:
    """ACTION_PLAY: each crew member plays one action card in secret (rules A.2)."""
    next_turn(state, ACTION_PLAY)
    state["secret"] = {**state["secret"], "cards": [None] * state["players"]}
    say(state, "action_play")


def play_action_card(state: State, seat: int, action: Action) -> Result:
    """A crew member plays Success or Fail in secret (rules A.2 ACTION_PLAY)."""
    _expect_phase(state, ACTION_PLAY)
    if seat not in state["team"]:
        raise IllegalAction("not_on_team", "Only the crew plays action cards")
    cards = state["secret"]["cards"]
    if cards[seat] is not None:
        raise IllegalAction("already_played", "You have already played your card")
    card = action["card"]
    # "Mafiáni musejí vybrat karty úspěchu" (Czech rulebook, Průběh akce); refused privately.
    if card == FAIL and state["secret"]["roles"][seat] == MAFIOSO:
        raise IllegalAction("mafioso_must_succeed", "Mafiosi must play Success")
    cards = list(cards)
    cards[seat] = card
    state["secret"] = {**state["secret"], "cards": cards}
    events = [Event("card_played", {"seat": seat})]
    if all(cards[member] is not None for member in state["team"]):
        _after_cards_submitted(state, events)
    return Result(state, events)


def _after_cards_submitted(state: State, events: list[Event]) -> None:
    """All cards are in; with plot cards, Keeping a Close Eye on You may look first."""
    if state["plot"] is None or not _open_window(state, events, "close_eye", "reveal"):
        _reveal_action(state, events)


def _reveal_action(state: State, events: list[Event]) -> None:
    """Shuffle and reveal the cards: counts only, never who played what (rules A.2)."""
    players, slot = state["players"], state["slot"]
    cards = state["secret"]["cards"]
    played = [cards[seat] for seat in state["team"]]
    fails = played.count(FAIL)
    spotlight = state["spotlight"]
    # One fail foils an action, two on the 4th with 7+ players (Czech rulebook, Průběh akce).
    result = FAIL if fails >= fails_needed(players, slot) else SUCCESS
    track = list(state["track"])
    track[slot - 1] = {"result": result, "fails": fails}
    state["track"] = track
    state["last_action"] = {"slot": slot, "successes": len(played) - fails, "fails": fails,
                            "result": result}
    if spotlight is not None:   # In the Spotlight: that one card is shown with its player's name
        state["last_action"]["spotlight"] = {"seat": spotlight, "card": cards[spotlight]}
    state["spotlight"], state["inspected"] = None, []
    state["secret"] = {**state["secret"], "cards": [None] * players}
    events.append(Event("action_cards", {"slot": slot, "team": list(state["team"]),
                                         "cards": played}, NOBODY))
    events.append(Event("action_revealed", dict(state["last_action"])))
    state["narration"] = []
    say(state, "reveal", successes=len(played) - fails, fails=fails, result=result)
    if fails == 1 and fails_needed(players, slot) == 2:
        say(state, "two_fails_needed")
    _after_action(state, events)


def _after_action(state: State, events: list[Event]) -> None:
    """Three of a kind ends the game; else the next round (Czech rulebook, Konec hry)."""
    results = [entry["result"] for entry in state["track"]]
    if results.count(SUCCESS) >= WINS_NEEDED:
        say(state, "mafia_win")
        _end_game(state, events, MAFIA, "three_successes")
    elif results.count(FAIL) >= WINS_NEEDED:
        say(state, "detective_win")
        _end_game(state, events, DETECTIVES, "three_failures")
    else:
        # Left of the Kmotr who proposed the approved crew (rules A.2 invariants).
        _pass_kmotr(state, events, left(state, state["last_vote"]["kmotr"]))
        state["round"] += 1
        _begin_round(state, events)


# --------------------------------------------------------------------------------------------
# End of game (rules A.2; Czech rulebook, Konec hry)
# --------------------------------------------------------------------------------------------

def _end_game(state: State, events: list[Event], winner: str, reason: str) -> None:
    """GAME_OVER: the winning team, and every role revealed (rules A.2, A-Q14)."""
    next_turn(state, GAME_OVER)
    stop_clock(state)
    role = MAFIOSO if winner == MAFIA else DETECTIVE
    roles = state["secret"]["roles"]
    winners = [seat for seat, seat_role in enumerate(roles) if seat_role == role]
    state["outcome"] = {"winner": winner, "reason": reason, "winners": winners}
    events.append(Event("game_over", {"winner": winner, "reason": reason,
                                      "winners": list(winners), "roles": list(roles)}))


def outcome(state: State) -> Outcome | None:
    return Outcome.from_json(state["outcome"])


def roles(state: State) -> list[str]:
    """Each seat's role (mafioso, detective): dealt once, never changed (rules A.1); public at
    game over (A-Q14)."""
    return list(state["secret"]["roles"])
