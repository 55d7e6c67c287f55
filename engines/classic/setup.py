"""Setup of classic Mafia (rules B.1, C.1): the tokens dealt, and the first night falls.

The deal is the chance kit's shuffle (engines/chance.py, ``roles.deal``); a forced ``deal``
(tests, replays) is that draw's forced outcome, its ``coins`` the forced draws of lots.
"""

from __future__ import annotations

from engines import chance
from engines.base import NOBODY, Event, Result, State, checked_options, say
from engines.classic import roles as R
from engines.classic.editions import Edition
from engines.classic.night_steps import _begin_night
from engines.classic.table import LOT, _fresh_night, _is_seat, _large_game, _role_event, _small_game


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
                                     LOT: deal.get("coins", [])}), players, rules)
    roles = dealt.value
    state = _initial_state(edition, players, options, roles, dealt.chance)
    events = [dealt.event, Event("roles_dealt", {"roles": list(roles)}, NOBODY)]
    events += [_role_event(state, seat) for seat in range(players)]
    say(state, "setup", roles=dict(state["role_counts"]), small_game=_small_game(state),
         large_game=_large_game(state))
    _begin_night(state, events)
    return Result(state, events)


def _checked_deal(players: int, rules: dict, deal: dict) -> dict:
    """Validate a forced secret setup for tests and replays: ``roles`` per seat, ``coins``
    (the seats the coin and every other draw of lots return, in order, instead of drawing)."""
    if not isinstance(deal, dict) or set(deal) - {"roles", "coins"}:
        raise ValueError("deal may only force 'roles' and 'coins'")
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
