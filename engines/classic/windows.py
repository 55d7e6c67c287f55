"""Playing the action cards of GRANNA's extended version (rules B.3.4, B.3.5): which card a seat
may play now (``card_moves``), the play itself (``play_card``), and the end of each reaction
window, when the plays waiting in it take effect.

A window (``table._open_window``) is one phase on every phone, of a fixed length whoever holds
what (rules §0 anti-tell): a play made in it waits, secret, for the window's end (only its
player's phone shows it) and then takes effect, face up.  So nobody learns from a window's
length or from a screen who could have played.  The cards and their symbols are ``cards.py``'s.
Two plays do not wait for a window: the Role Swap before the first night (public from the
start) and a Corner Shot in the day's talk, which is its own moment ("в будь-який момент").
"""

from __future__ import annotations

from engines.base import Action, Event, IllegalAction, Result, State, say, stop_clock
from engines.classic import cards as C
from engines.classic.day import _after_shots, _continue, _drop_from_day, _lynch
from engines.classic.night_steps import _after_dawn, _begin_night, _expect_actor, _kill_at_dawn, recruit
from engines.classic.table import (
    AFTER_DAWN, AFTER_LYNCH, CARD_WINDOW, DEFENCE, DISCUSSION, MAFIA_STEP, RE_DISCUSSION, RESUME,
    ROLE_SWAP_PHASE, SHOT, _alive, _checked_target, _eliminate, _expect_phase, _living, _mark_used,
    _offer_last_shot, _role_event, _secret,
)

CORNER = "corner_shot"      # the cause of a death by the Shot from Around the Corner
TALKS = (DISCUSSION, RE_DISCUSSION, DEFENCE)    # Corner Shot's moments besides the day's end


# --------------------------------------------------------------------------------------------
# Which plays a seat may make now
# --------------------------------------------------------------------------------------------

def _targets(state: State, seat: int, card: str) -> list[int]:
    """Whom ``seat`` may point at with ``card``."""
    living = _living(state)
    untouchable = set(C.badges(state, "untouchable"))
    if card == C.CAPTURE:
        # "Вкажи на будь-якого гравця і поклади перед ним цю картку" — another player (our decision)
        return [other for other in living if other != seat]
    if card in (C.CORNER_SHOT, C.LAST_SHOT):
        # Wiretap/Hideout: "тебе не можливо «вбити»" in that round (rules B.3.4 PROPOSED)
        return [other for other in living if other != seat and other not in untouchable]
    if card == C.ROLE_SWAP:
        return [other for other in living if other != seat]
    return []


def _window_plays(state: State, seat: int) -> list[Action]:
    """The plays ``seat`` may make in the open window (none once one of his waits)."""
    window = state["cards"]["window"]
    kind, target = window["kind"], window["target"]
    card = C.card_of(state, seat)
    if state["secret"]["cards"]["pending"][seat] is not None or card not in C.WINDOW_CARDS[kind] \
            or not C.holds(state, seat, card):
        return []
    if kind == C.SHOT_WINDOW:
        if seat != target:
            return []
    elif not _alive(state, seat):
        return []
    if kind in (C.DAWN, C.LYNCH):
        # Vest: "гравець, на якого вказала Мафія"; Bandage: "Коли іншого гравця «вб'ють»"
        if (card == C.VEST) != (seat == target):
            return []
        return [{"type": "play_card", "card": card}]
    if kind == C.DAY_END and card == C.CORNER_SHOT:
        return _corner_shots(state, seat)
    if card in C.TARGETED:
        return [{"type": "play_card", "card": card, "target": other} for other in _targets(state, seat, card)]
    return [{"type": "play_card", "card": card}]


def _corner_shots(state: State, seat: int) -> list[Action]:
    """"Використай цю картку в будь-який момент (доки тебе не «вбили») … Якщо Мафіози вказали на
    тебе у фазі Поліції, ти не можеш використовувати цю картку" — not by the player the mafia
    struck at this round, even if a Vest or a Bandage saved him (the rulebook says so)."""
    if not _alive(state, seat) or not C.holds(state, seat, C.CORNER_SHOT) or state["cards"]["struck"] == seat:
        return []
    return [{"type": "play_card", "card": C.CORNER_SHOT, "target": other}
            for other in _targets(state, seat, C.CORNER_SHOT)]


def card_moves(state: State, seat: int) -> list[Action]:
    """Every card play ``seat`` may make now (moves.py adds them to his legal actions)."""
    if not C.extended(state):
        return []
    phase = state["phase"]
    if phase == CARD_WINDOW:
        return _window_plays(state, seat)
    if phase in TALKS:
        return _corner_shots(state, seat)
    if phase == ROLE_SWAP_PHASE:
        return _role_swaps(state, seat)
    return []


def _role_swap_holder(state: State) -> int:
    """Who holds the Role Swap (face up from the deal)."""
    return next(entry["seat"] for entry in state["cards"]["face_up"] if entry["card"] == C.ROLE_SWAP)


def _role_swaps(state: State, seat: int) -> list[Action]:
    holder = _role_swap_holder(state)
    if seat != holder or not _alive(state, seat):
        return []       # (a holder the host removed: the deadline passes, no swap)
    swaps = [{"type": "play_card", "card": C.ROLE_SWAP, "target": other}
             for other in _targets(state, seat, C.ROLE_SWAP)] if C.usable(state, seat, C.ROLE_SWAP) else []
    return swaps + [{"type": "decline_swap"}]


def awaited(state: State) -> list[int]:
    """The seats that may still play in the open window or the Role Swap (the server's: never
    for a screen, moves.waiting_for)."""
    if not C.extended(state) or state["phase"] not in (CARD_WINDOW, ROLE_SWAP_PHASE):
        return []
    return [seat for seat in range(state["players"]) if card_moves(state, seat)]


# --------------------------------------------------------------------------------------------
# The plays
# --------------------------------------------------------------------------------------------

def play_card(state: State, seat: int | None, action: Action) -> Result:
    """A seat plays its action card: in a window it waits for the window's end; a Corner Shot in
    the talk, a Role Swap and a Recruitment take effect at once."""
    if not C.extended(state) or type(seat) is not int:
        raise IllegalAction("no_card", "You have no card to play now")
    window = state["cards"]["window"]
    if not _alive(state, seat) and not (window and window["kind"] == C.SHOT_WINDOW and window["target"] == seat):
        raise IllegalAction("dead", "The eliminated stay silent")
    card = action["card"]
    if C.card_of(state, seat) != card or C.used(state, seat):
        raise IllegalAction("no_card", "You have no such card to play")
    if card == C.RECRUITMENT:
        return _recruit(state, seat, action)
    if action not in card_moves(state, seat):
        if not C.usable(state, seat, card):
            raise IllegalAction("card_neutral", "Your card has no symbol of your token: it is neutral for you")
        if "target" in action and card in C.TARGETED:
            _checked_target(state, action["target"], seat)
        raise IllegalAction("wrong_phase", "This card cannot be played now")
    events: list[Event] = []
    if state["phase"] == ROLE_SWAP_PHASE:
        _swap_roles(state, events, seat, action["target"])
    elif state["phase"] == CARD_WINDOW:
        pending = list(state["secret"]["cards"]["pending"])
        pending[seat] = {"card": card, "target": action.get("target")}
        _secret(state, cards={**state["secret"]["cards"], "pending": pending})
        events.append(Event("card_pending", {"card": card, "target": action.get("target")}, [seat]))
    else:
        _corner_shot(state, events, seat, action["target"])
    return Result(state, events)


def _recruit(state: State, seat: int, action: Action) -> Result:
    _expect_actor(state, seat, MAFIA_STEP)
    if "target" not in action:
        raise IllegalAction("bad_target", "Pick a player to recruit")
    events: list[Event] = []
    recruit(state, seat, action["target"], events)
    return Result(state, events)


def decline_swap(state: State, seat: int | None, action: Action) -> Result:
    """The Role Swap's holder keeps his token ("можеш (але не мусиш)")."""
    _expect_phase(state, ROLE_SWAP_PHASE)
    if type(seat) is not int or action not in card_moves(state, seat):
        raise IllegalAction("not_your_turn", "Only the Role Swap's holder decides")
    events = [Event("swap_declined", {"seat": seat})]
    say(state, "swap_declined", seat=seat)
    _night_falls(state, events)
    return Result(state, events)


def role_swap_timeout(state: State, events: list[Event]) -> None:
    """The deadline passed: no swap."""
    holder = _role_swap_holder(state)
    events.append(Event("swap_declined", {"seat": holder}))
    say(state, "swap_declined", seat=holder)
    _night_falls(state, events)


def _swap_roles(state: State, events: list[Event], seat: int, target: int) -> None:
    """"Ти вказуєш на гравця і міняєшся з ним жетонами. Відтепер обидва гравці грають нові ролі.
    … ти знаєш яку роль грає цей гравець, але він теж знає ким є ти" — who swapped with whom is
    public (he points), the tokens only the two of them see."""
    roles = list(state["secret"]["roles"])
    roles[seat], roles[target] = roles[target], roles[seat]
    _secret(state, roles=roles)
    state["cards"] = {**state["cards"], "role_swap": {"holder": seat, "target": target}}
    events.append(Event("roles_swapped", {"seat": seat, "target": target}))
    events += [_role_event(state, seat), _role_event(state, target)]
    say(state, "roles_swapped", seat=seat, target=target)
    _night_falls(state, events)


def _night_falls(state: State, events: list[Event]) -> None:
    """The Role Swap is spent, played or not ("Вона не може бути вжита знову"); night falls."""
    _mark_used(state, _role_swap_holder(state))
    stop_clock(state)
    _begin_night(state, events)


def _corner_shot(state: State, events: list[Event], seat: int, target: int) -> None:
    """"Вкажи на одного з гравців. Його «вбито». «Вбитий» покаже свій жетон" — at once, face
    up; a Vest or a Bandage does not stop it (rules B.3.4)."""
    phase = state["phase"]
    if _corner_shot_hits(state, events, seat, target):
        return
    then = RESUME[phase] if _drop_from_day(state, target) else AFTER_LYNCH
    if not _offer_last_shot(state, events, target, CORNER, then):
        if then == AFTER_LYNCH:
            _continue(state, events, then)


def _corner_shot_hits(state: State, events: list[Event], seat: int, target: int) -> bool:
    """The card face up, the target out with his token shown; True if that ended the game."""
    _play(state, events, seat, C.CORNER_SHOT, target)
    return _eliminate(state, events, target, CORNER, "corner_shot", shooter=seat)


# --------------------------------------------------------------------------------------------
# A window's end: the plays take effect (rules B.3.4)
# --------------------------------------------------------------------------------------------

def close_window(state: State, events: list[Event]) -> None:
    """The window's clock ran out: its plays take effect in the rulebook's order, then the game
    goes on to what the window was opened before."""
    window = state["cards"]["window"]
    plays = {seat: play for seat, play in enumerate(state["secret"]["cards"]["pending"]) if play is not None}
    state["cards"] = {**state["cards"], "window": None}
    _secret(state, cards={**state["secret"]["cards"], "pending": [None] * state["players"]})
    stop_clock(state)
    events.append(Event("window_closed", {"kind": window["kind"]}))
    state["narration"] = []
    {C.DAWN: _close_reaction, C.LYNCH: _close_reaction, C.DAY_START: _close_day_start,
     C.DAY_END: _close_day_end, C.SHOT_WINDOW: _close_shot}[window["kind"]](state, events, window, plays)


def _play(state: State, events: list[Event], seat: int, card: str, target: int | None) -> None:
    """The card goes face up (public) and is spent."""
    _mark_used(state, seat)
    C.face_up(state, seat, card, state["round"], target)
    events.append(Event("card_played", {"seat": seat, "card": card, "round": state["round"], "target": target}))


def _saver(state: State, target: int, plays: dict) -> tuple[int, str] | None:
    """Who saves ``target``: his own Vest first, else the first Bandage clockwise from him
    (rules B.3.4 PROPOSED priority); only living players' plays count."""
    if plays.get(target, {}).get("card") == C.VEST and _alive(state, target):
        return target, C.VEST
    players = state["players"]
    for step in range(1, players):
        seat = (target + step) % players
        if plays.get(seat, {}).get("card") == C.BANDAGE and _alive(state, seat):
            return seat, C.BANDAGE
    return None


def _close_reaction(state: State, events: list[Event], window: dict, plays: dict) -> None:
    """The dawn's or the lynch's two steps: saved — nobody dies, no token is shown, the card
    lies face up; else the named player is out.  A Bandage not needed stays in its holder's
    hand, secret (it was never shown)."""
    target, dawn = window["target"], window["kind"] == C.DAWN
    saver = _saver(state, target, plays) if _alive(state, target) else None
    if saver is not None:
        seat, card = saver
        _play(state, events, seat, card, target)
        events.append(Event("card_save", {"seat": target, "by": seat, "card": card}))
        say(state, f"saved_by_{card}", seat=target, by=seat)
        if dawn:
            _after_dawn(state, events)
        else:
            # "if saved, nobody is lynched that day" (rules B.3.4 PROPOSED)
            _continue(state, events, AFTER_LYNCH)
        return
    if not _alive(state, target):       # removed by the host meanwhile
        _continue(state, events, window["then"])
    elif dawn:
        _kill_at_dawn(state, events, target)
    else:
        _lynch(state, events, target)


def _close_day_start(state: State, events: list[Event], window: dict, plays: dict) -> None:
    """Arrest: nobody may vote for its holder today; Capture: its target has no ballot today."""
    for seat, play in sorted(plays.items()):
        if not _alive(state, seat):
            continue
        if play["card"] == C.ARREST:
            _badge(state, seat, "arrested", state["round"], C.ARREST)
            _play(state, events, seat, C.ARREST, None)
            say(state, "arrest_played", seat=seat)
        elif play["card"] == C.CAPTURE and _alive(state, play["target"]):
            _badge(state, play["target"], "captured", state["round"], C.CAPTURE)
            _play(state, events, seat, C.CAPTURE, play["target"])
            say(state, "capture_played", seat=seat, target=play["target"])
    _continue(state, events, window["then"])


def _close_day_end(state: State, events: list[Event], window: dict, plays: dict) -> None:
    """Wiretap and Hideout: untouchable next round; Safe-Conduct: no mafia pick next night; then
    a Corner Shot played "after the lynch"; then the Leader passes and the night falls."""
    shots = []
    for seat, play in sorted(plays.items()):
        if not _alive(state, seat):
            continue
        card = play["card"]
        if card in (C.WIRETAP, C.HIDEOUT, C.SAFE_CONDUCT):
            kind = "safe" if card == C.SAFE_CONDUCT else "untouchable"
            _badge(state, seat, kind, state["round"] + 1, card)
            _play(state, events, seat, card, None)
            say(state, f"{card}_played", seat=seat)
        elif card == C.CORNER_SHOT:
            shots.append((seat, play["target"]))
    for seat, target in shots:
        if _alive(state, seat) and _alive(state, target):
            if _corner_shot_hits(state, events, seat, target):
                return
            if _offer_last_shot(state, events, target, CORNER, window["then"]):
                return
    _continue(state, events, window["then"])


def _close_shot(state: State, events: list[Event], window: dict, plays: dict) -> None:
    """The Last Shot card: "Ти і «вбитий» мусите відкрити свої жетони" — the shooter's token is
    face up already (he is out), the target's as he goes; the target's own shots follow."""
    shooter, play = window["target"], plays.get(window["target"])
    then = state["cards"]["then"] or window["then"]
    if play is not None and _alive(state, play["target"]):
        target = play["target"]
        _play(state, events, shooter, C.LAST_SHOT, target)
        events.append(Event("shot", {"shooter": shooter, "target": target}))
        if _eliminate(state, events, target, SHOT, "shot", at_dawn=then == AFTER_DAWN, shooter=shooter):
            return
        if _offer_last_shot(state, events, target, SHOT, then):
            return
    _after_shots(state, events, then)


def _badge(state: State, seat: int, kind: str, round_: int, card: str) -> None:
    """A card's mark on a seat for a round (cards.badges reads them)."""
    entry = {"seat": seat, "kind": kind, "round": round_, "card": card}
    state["cards"] = {**state["cards"], "badges": state["cards"]["badges"] + [entry]}

