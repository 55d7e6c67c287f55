"""Setup of classic Mafia (rules B.1, C.1): the tokens dealt, and the first night falls.

The deal is the chance kit's shuffle (engines/chance.py, ``roles.deal``); a forced ``deal``
(tests, replays) is that draw's forced outcome, its ``coins`` the forced draws of lots.
"""

from __future__ import annotations

from engines import chance
from engines.base import NOBODY, Event, Result, State, checked_options, next_turn, say, start_clock
from engines.classic import cards as C
from engines.classic import roles as R
from engines.classic.cards import card_of
from engines.classic.editions import Edition
from engines.classic.night_steps import _begin_night
from engines.classic.table import (
    LOT, ROLE_SWAP_PHASE, TIMEOUT, _fresh_night, _is_seat, _large_game, _mark_used, _role_event, _rule, _secret,
    _small_game,
)


def _initial_state(edition: Edition, players: int, options: dict, roles: list[str],
                   record: chance.Record) -> State:
    """The whole game as JSON types; seats index every per-seat list."""
    return {
        "ruleset": edition.slug,
        "players": players,
        "options": options,             # what the host chose (the edition fixes the rest: _rule)
        "role_counts": R.role_counts(players, edition.rules(options)),   # public (the box)
        "phase": "setup",
        "turn": 0,                      # grows whenever what the players are asked changes
        "round": 1,                     # a night then a day
        "dead": [None] * players,       # per seat: None, or {"cause", "round", "role"} (public)
        "night_steps": [],              # tonight's steps (public: skips follow public facts)
        "night_step": None,             # the current one
        "step_done": False,             # its players have acted (public through the clock)
        "dawn": None,                   # what the last dawn told
        "vote": None,                   # the vote being collected: {"kind", "ballot", "voted"}
        "last_vote": None,              # the latest revealed vote
        "finalists": [],                # heard after the first vote (rules B.2.1)
        "tied": [],                     # tied for the most in the final vote / re-vote
        "coin": None,                   # {"among", "seat"} when the coin decided a lynch
        "last_shot": None,              # {"shooter", "optional", "then"}
        "judge_used": False,            # on the judge's card (rules C.3.3)
        "spell_used": False,            # the wizard's spell, public from its dawn (rules C.3.2)
        "clock": None,                  # the game master's timed move (engines/base.py)
        "clock_count": 0,               # clocks started so far (a new clock's id)
        "narration": [],
        "outcome": None,
        # "cards": the extended version's table (cards.py), only in a game with action cards
        "secret": {
            "chance": record,           # the chance kit's record: future draws depend on it
            "roles": roles,             # the current card per seat (a wizard swap changes it)
            "met": [[] for _ in range(players)],    # mafiosi each seat has met at a meeting
            "checks": [],               # every agent check: {"round", "agent", "target", "role"}
            "heals": [],                # every doctor heal: {"round", "doctor", "target"}
            "swap": None,               # the spell once carried out: {"round", "wizard", "targets"}
            "night": _fresh_night(1, players),
            "ballots": [None] * players,    # the seat each voter named, until the reveal
            "double": None,             # the voter whose vote counts double (the judge)
        },
    }


def setup(edition: Edition, players: int, options: dict, seed: int,
          deal: dict | None = None) -> Result:
    """Deal the roles and let the first night fall (a round starts with the night)."""
    if type(players) is not int or not edition.min_players <= players <= edition.max_players:
        raise ValueError(f"{edition.title} needs {edition.min_players} to "
                         f"{edition.max_players} players, not {players!r}")
    options = checked_options(edition.options, options, edition.title)
    rules = edition.rules(options)
    deal = _checked_deal(players, rules, deal or {})
    # A forced deal is what the chance kit draws instead (engines/chance.py): the roles are the
    # shuffle's outcome, the coins the outcomes of the draws of lots, in order.
    dealt = R.deal(chance.new(seed, {R.DEAL: [deal["roles"]] if "roles" in deal else [],
                                     LOT: deal.get("coins", []),
                                     C.CARD_DEAL: [deal["cards"]] if "cards" in deal else []}), players, rules)
    roles = dealt.value
    state = _initial_state(edition, players, options, roles, dealt.chance)
    events = [dealt.event, Event("roles_dealt", {"roles": list(roles)}, NOBODY)]
    events += [_role_event(state, seat) for seat in range(players)]
    say(state, "setup", roles=dict(state["role_counts"]), small_game=_small_game(state),
         large_game=_large_game(state))
    if rules["action_cards"]:
        _deal_action_cards(state, events, rules, deal.get("cards"))
    if not (rules["action_cards"] and _begin_role_swap(state, events)):
        _begin_night(state, events)
    return Result(state, events)


def _deal_action_cards(state: State, events: list, rules: dict, forced: list[str] | None) -> None:
    """rules B.3.4 "Dealing": the box is shown to everyone, filled with neutral cards to one per
    player, shuffled and dealt; the Leader and the Role Swap are shown at once ("Покажи всім цю
    картку одразу як отримаєш її")."""
    players = state["players"]
    record = state["secret"]["chance"]
    if forced is not None:
        box = [card for card in C.SINGLE_CARDS + (C.NEW_GANG,) for _ in range(forced.count(card))]
        box_events: list = []
    else:
        box, box_events, record = C.make_box(record, players, rules)
    dealt = C.deal_cards(record, players, box)
    cards = dealt.value
    _secret(state, chance=dealt.chance, cards={
        "dealt": list(cards),               # each seat's card
        "used": [False] * players,          # played (face up, or to the mafia: Recruitment)
        "pending": [None] * players,        # a play waiting for its window's end
        "recruits": [],                     # recruited seats (rules B.3.4 Recruitment)
        "gang": [],                         # the New Gang's members who met (rules B.3.5)
    })
    state["cards"] = {
        "box": list(box),                   # the action cards in the game (public)
        "neutral": players - len(box),
        "leader": None,                     # the Leader's holder (public)
        "role_swap": None,                  # {"holder", "target"} once the Role Swap swapped (public)
        "face_up": [],                      # every card on the table: {"seat", "card", "round", "target"}
        "badges": [],                       # {"seat", "kind", "round", "card"} (cards.badges)
        "window": None,                     # the open window: {"kind", "target", "round"}
        "shots": [],                        # shots waiting: {"shooter", "rule": bool, "optional"}
        "then": None,                       # what follows the windows and shots under way
        "leader_pick": None,                # {"tied": [...]} while the Leader breaks a tie
        "struck": None,                     # whom the mafia struck at this round (Corner Shot)
        "new_gang": C.NEW_GANG in box,      # three forces (rules B.3.5)
    }
    events += box_events + [dealt.event]
    events.append(Event("cards_shown", {"box": list(box), "neutral": players - len(box)}))
    events.append(Event("cards_dealt", {"cards": list(cards)}, NOBODY))
    events += [Event("card", {"card": card, "usable": C.usable(state, seat, card)}, [seat])
               for seat, card in enumerate(cards)]
    say(state, "cards_dealt", box=list(box), neutral=players - len(box))
    for seat, card in enumerate(cards):
        if card == C.LEADER:
            state["cards"] = {**state["cards"], "leader": seat}
            C.face_up(state, seat, card, 0)
            _mark_used(state, seat)
            events.append(Event("card_played", {"seat": seat, "card": card, "round": 0, "target": None}))
            say(state, "leader_shown", seat=seat)


def _begin_role_swap(state: State, events: list) -> bool:
    """rules B.3.4 Role Swap: shown to everyone at once; its holder may swap tokens with any one
    other player before the first night, or not (a deadline: not).  Our decision: the card is
    always shown, also when the holder's token is the Agent's (no symbol: then it does nothing)
    — the box is public, so a Role Swap nobody showed would tell the table who the Agent is."""
    holder = next((seat for seat in range(state["players"]) if card_of(state, seat) == C.ROLE_SWAP), None)
    if holder is None:
        return False
    C.face_up(state, holder, C.ROLE_SWAP, 0)
    events.append(Event("card_played", {"seat": holder, "card": C.ROLE_SWAP, "round": 0, "target": None}))
    next_turn(state, ROLE_SWAP_PHASE)
    start_clock(state, int(_rule(state, "deadline_seconds")), TIMEOUT)
    say(state, "role_swap", seat=holder)
    return True


def _checked_deal(players: int, rules: dict, deal: dict) -> dict:
    """Validate a forced secret setup for tests and replays: ``roles`` per seat, ``coins``
    (the seats the coin and every other draw of lots return, in order, instead of drawing),
    ``cards`` (the action card per seat; its action cards are the box)."""
    if not isinstance(deal, dict) or set(deal) - {"roles", "coins", "cards"}:
        raise ValueError("deal may only force 'roles', 'coins' and 'cards'")
    if "cards" in deal:
        cards = deal["cards"]
        known = set(C.SINGLE_CARDS) | {C.NEW_GANG, C.NEUTRAL}
        if not rules["action_cards"] or not isinstance(cards, list) or len(cards) != players \
                or not set(cards) <= known or cards.count(C.NEW_GANG) not in (0, C.NEW_GANG_CARDS) \
                or any(cards.count(card) > 1 for card in C.SINGLE_CARDS) \
                or (C.NEW_GANG in cards) != C.new_gang_in_play(players, rules) \
                or len(cards) - cards.count(C.NEUTRAL) > C.cap(players):
            raise ValueError(f"cards must be one card per seat, at most {C.cap(players)} action cards")
        deal = {**deal, "cards": list(cards)}
    if "roles" in deal:
        roles = deal["roles"]
        if (not isinstance(roles, list) or len(roles) != players
                or sorted(roles) != sorted(R.role_list(players, rules))):
            counts = R.role_counts(players, rules)
            raise ValueError(f"{players} players need " + ", ".join(
                f"{count} × {role}" for role, count in counts.items() if count))
        deal = {**deal, "roles": list(roles)}
    if "coins" in deal:
        coins = deal["coins"]
        if not isinstance(coins, list) or not all(_is_seat(players, seat) for seat in coins):
            raise ValueError(f"coins must be a list of seats 0..{players - 1}")
        deal = {**deal, "coins": list(coins)}
    return deal
