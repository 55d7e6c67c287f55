"""The protocol every ruleset implements (docs/design.md §3; docs/adding-a-ruleset.md walks through it).

An engine is a module-level object with pure functions over JSON-serialisable
state dicts.  The web layer knows nothing else about a ruleset:

    setup(players, options, seed, deal=None) -> Result(state, events)
    legal_actions(state, actor)              -> list[Action]
    apply(state, actor, action)              -> Result(state, events)   raises EngineError
    view(state, seat)                        -> dict           (seat None = the TV, public only)
    outcome(state)                           -> Outcome | None
    waiting_for(state)                       -> list[int]      seats whose input the game awaits
    host_moves(state)                        -> list[Action]   the host's buttons now
    proxy_moves(state)                       -> {seat: [Action]}  public choices the host may make for a seat
    removable(state)                         -> list[int]      seats the host may remove now
    roles(state)                             -> list[str]      each seat's role code (the scoreboard reads
                                                               it of a finished game only: it is secret before)
    bot(state, seat)                         -> Action | None  optional: the move a bot in this seat makes now

Who acts (the *actor* of ``legal_actions`` and ``apply``, and of every logged action):

* a seat number: that player;
* ``GAME_MASTER`` (``None``): the app as game master, i.e. its clock's timed move (below);
* ``HOST``: the person at the TV pressing a button — ``host_moves``, a ``proxy`` for an absent
  player, a ``remove_player``.  The clock cannot press the host's buttons and the host cannot
  make the clock's move early unless the ruleset offers it among ``host_moves``.

Conventions every engine keeps:

* ``state`` is a plain dict of JSON types and is never mutated by ``apply``: it starts from
  ``working_copy(state)`` and returns that copy.
* ``state["turn"]`` is an int that grows whenever what the players are asked
  changes (a new proposal, a new vote, a new phase).  A phone's form carries the
  turn it was rendered at; an action for an older turn is stale.
* Every random choice is a draw of the chance kit (``engines/chance.py``), recorded as an
  event, so replay from seed + actions reproduces the game exactly.
* Events carry an audience: ``PUBLIC``, ``NOBODY`` (game master / reveal only)
  or a sorted list of seats.  What a seat may ever learn is its ``view`` plus
  the events whose audience includes it.
* Engines emit codes and parameters, never sentences; the web layer translates.
* Every view carries what the screens read of any ruleset: ``turn``; ``narration``, a list of
  ``{"code", "params"}`` (what the TV says now; ``say``); ``me``, the seat's own part (with its
  ``seat``), ``None`` on the TV's view.  A contract test holds every ruleset to it
  (tests/engines/test_contract.py).
* The game master's timed moves: ``state["clock"]`` is ``None`` (or absent) or
  ``{"id": int, "seconds": number, "move": Action}`` — "``seconds`` after the clock with this
  ``id`` started, the game master applies ``move`` (actor ``GAME_MASTER``) if it is still legal".
  A new timed step gets a new ``id`` (``start_clock``); ``seconds`` may change while the ``id``
  stays (a step that ends sooner once everyone has acted).  Engines know no time: the web layer
  notes when each clock started (``Game.clock_started``) and makes the move when it is due
  (``timers.py``).
* No table waits for nothing: a state whose clock runs minutes (over 200 s), or in which nobody
  is awaited and no clock runs, offers the host a move that goes on (``host_moves``; checked on
  random games of every ruleset by tests/engines/test_no_wait.py).  A finished game offers
  nobody anything: no awaited seat, no legal action, no host move.
* Bots (optional, ``Engine.bot``): a ruleset that can fill an empty seat with a simple player
  gives ``bot(state, seat)``, the move a bot in ``seat`` makes now, or ``None`` when it has
  nothing to do (not its turn, or it waits for the others).  Pure and deterministic like the
  rest, and always a move ``apply(state, seat, move)`` accepts; the app asks it for each bot
  seat the game awaits (``waiting_for``) and plays the answer as that seat, through the same
  writer as a phone's tap, a moment later (mafiagames/timers.py).  A ruleset without one offers
  no bot seats.  The contract test checks both: every bot move applies, and bots alone finish
  a game.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

State = dict[str, Any]
Action = dict[str, Any]

# The actors besides the seats (see the module's docstring).
GAME_MASTER = None
HOST = "host"
Actor = int | str | None

PUBLIC = "public"
NOBODY = "nobody"
Audience = str | list[int]


@dataclass(frozen=True)
class Event:
    """Something that happened, with who may know it."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    audience: Audience = PUBLIC

    def visible_to(self, seat: int | None) -> bool:
        if self.audience == PUBLIC:
            return True
        if self.audience == NOBODY or seat is None:
            return False
        return seat in self.audience

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "data": self.data, "audience": self.audience}


class Result(NamedTuple):
    state: State
    events: list[Event]


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winning side, why, and the seats that won."""

    winner: str
    reason: str
    winners: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason, "winners": list(self.winners)}

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Outcome | None:
        """The outcome an engine keeps in its state as ``to_json`` (None while the game runs)."""
        if data is None:
            return None
        return cls(data["winner"], data["reason"], tuple(data["winners"]))


@dataclass(frozen=True)
class Option:
    """A setup option the host can switch; ``kind`` is ``bool`` or ``choice`` (one of the values
    in ``choices``).  Engines emit no words: an option's label, help and the words of its choices
    are the presenter's (``OPTION_LABELS``, ``OPTION_CHOICES`` in mafiagames/presenters)."""

    key: str
    default: Any
    kind: str = "bool"
    choices: tuple[str, ...] = ()
    # False while its screens are still being built: the engine and its tests know the option,
    # hosts are not offered it and cannot set it.
    offered: bool = True
    # The key of the bool option this one depends on (rules knowledge: it changes nothing while
    # that one is off).  The host's settings show it under that option, only while it is on; its
    # value is kept meanwhile.
    requires: str | None = None

    def parse(self, raw: Any) -> Any:
        """Coerce a submitted value, or raise ValueError with a reason."""
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            if raw in (None, "", "0", "false", "off"):
                return False
            if raw in ("1", "true", "on"):
                return True
            raise ValueError(f"{self.key}: expected on/off")
        if raw not in self.choices:
            raise ValueError(f"{self.key}: expected one of {', '.join(self.choices)}")
        return raw


class EngineError(Exception):
    """Base of every error an engine raises on purpose."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class MalformedAction(EngineError):
    """The action cannot be understood at all (HTTP 400)."""


class IllegalAction(EngineError):
    """The action is understood but not allowed now (HTTP 409). State is unchanged."""


class Ruleset(Protocol):
    slug: str
    title: str
    min_players: int
    max_players: int

    def options(self) -> list[Option]: ...
    def setup(self, players: int, options: dict, seed: int, deal: dict | None = None) -> Result: ...
    def legal_actions(self, state: State, actor: Actor) -> list[Action]: ...
    def apply(self, state: State, actor: Actor, action: Action) -> Result: ...
    def view(self, state: State, seat: int | None) -> dict: ...
    def outcome(self, state: State) -> Outcome | None: ...
    def waiting_for(self, state: State) -> list[int]: ...
    # The host's buttons now (each one ``apply(state, HOST, move)`` accepts): the same list as
    # ``legal_actions(state, HOST)``.
    def host_moves(self, state: State) -> list[Action]: ...
    # The host acting for an absent seat (issue 14): the public choices it may make for each seat,
    # and whether (and how) a player may be removed now.
    def proxy_moves(self, state: State) -> dict[int, list[Action]]: ...
    def removable(self, state: State) -> list[int]: ...
    # Each seat's role code as the game ends (the evening's statistics, mafiagames/scoreboard.py):
    # one per seat, each a code the presenter words (``role_words``).  Secret while the game runs:
    # the web layer reads it of a finished game only.  A ruleset without roles gives every seat
    # one code ("player").
    def roles(self, state: State) -> list[str]: ...
    # Optional (``Engine.moments``): the kinds of PUBLIC events that take the stage for a few
    # seconds (engines/moments.py).
    # Optional (``Engine.bot``): the move a bot in a seat makes now, or None (the module's
    # docstring, "Bots"); None for a ruleset that offers no bot seats.


RULESET_VALUES = ("slug", "title", "min_players", "max_players")
RULESET_FUNCTIONS = ("options", "setup", "legal_actions", "apply", "view", "outcome", "waiting_for",
                     "host_moves", "proxy_moves", "removable", "roles")


def check_ruleset(ruleset: Any) -> None:
    """Refuse, naming the part, a ruleset that lacks part of the contract above: at
    registration (engines/registry.py), not later on somebody's screen."""
    name = getattr(ruleset, "slug", None) or type(ruleset).__name__
    for part in RULESET_VALUES:
        if not getattr(ruleset, part, None):
            raise TypeError(f"ruleset {name!r} has no {part}")
    for part in RULESET_FUNCTIONS:
        if not callable(getattr(ruleset, part, None)):
            raise TypeError(f"ruleset {name!r} has no {part}() (engines/base.py, Ruleset)")
    if not 0 < ruleset.min_players <= ruleset.max_players:
        raise TypeError(f"ruleset {name!r}: min_players and max_players do not make a range")


@dataclass(frozen=True)
class Engine:
    """A ruleset made of an engine's functions: the one wrapper every engine uses.  Built at
    import, it checks itself against the contract (``check_ruleset``), so a ruleset missing a
    part fails where it is written, naming the part."""

    slug: str
    title: str
    min_players: int
    max_players: int
    options: Callable[[], list[Option]]
    setup: Callable[..., Result]
    legal_actions: Callable[[State, Actor], list[Action]]
    apply: Callable[[State, Actor, Action], Result]
    view: Callable[[State, int | None], dict]
    outcome: Callable[[State], Outcome | None]
    waiting_for: Callable[[State], list[int]]
    host_moves: Callable[[State], list[Action]]
    proxy_moves: Callable[[State], dict[int, list[Action]]]
    removable: Callable[[State], list[int]]
    roles: Callable[[State], list[str]]
    # Optional: the kinds of this engine's PUBLIC events that are results the table waits for (a
    # vote revealed, a coin toss, a death at dawn, a verdict): each takes the stage for a few
    # seconds (engines/moments.py).  None by default.
    moments: frozenset[str] = frozenset()
    # Optional: how long each of those results stays on the stage, in seconds; None: the app's
    # default (engines/moments.py, long enough to read a full table's vote).  A result that comes
    # every turn and says one thing (Cosa Nostra's die) takes less, or it would stall the evening.
    moment_seconds: float | None = None
    # Optional: the move a bot in this seat makes now, or None when it has nothing to do (the
    # module's docstring, "Bots").  None: this ruleset offers no bot seats.
    bot: Callable[[State, int], Action | None] | None = None

    def __post_init__(self):
        check_ruleset(self)
        if not isinstance(self.moments, frozenset) or not all(isinstance(kind, str) for kind in self.moments):
            raise TypeError(f"ruleset {self.slug!r}: moments must be a frozenset of event kinds")
        if self.moment_seconds is not None and not (isinstance(self.moment_seconds, (int, float))
                                                    and self.moment_seconds > 0):
            raise TypeError(f"ruleset {self.slug!r}: moment_seconds must be a positive number of seconds")
        if self.bot is not None and not callable(self.bot):
            raise TypeError(f"ruleset {self.slug!r}: bot must be a function (state, seat) -> action or None")


def resolve_options(ruleset: Ruleset, raw: dict[str, Any]) -> dict[str, Any]:
    """Every option of ``ruleset`` with its default, overridden by parsed ``raw`` values."""
    unknown = set(raw) - {option.key for option in ruleset.options()}
    if unknown:
        raise ValueError(f"unknown option {sorted(unknown)[0]}")
    return {
        option.key: option.parse(raw[option.key]) if option.key in raw else option.default
        for option in ruleset.options()
    }


def checked_options(options: Iterable[Option], given: dict[str, Any], owner: str, *,
                    defaults: bool = False) -> dict[str, Any]:
    """The options an engine's ``setup`` plays with: no key it does not know, each value one the
    option allows, and every key given — or, with ``defaults``, a missing key at its default
    (an engine whose tests and tools pass only what they change).  The host's choices arrive
    already complete and parsed (``resolve_options``); anything else here is a programming
    error, refused with ``ValueError``."""
    if not isinstance(given, dict):
        raise ValueError(f"{owner} options must be a dict")
    known = {option.key: option for option in options}
    unknown, missing = set(given) - set(known), set(known) - set(given)
    if unknown:
        raise ValueError(f"{owner}: unknown option {sorted(unknown)[0]}")
    if missing and not defaults:
        raise ValueError(f"{owner} options must be exactly {sorted(known)}")
    checked = {}
    for key in sorted(known):
        option, value = known[key], given.get(key, known[key].default)
        if option.kind == "bool" and not isinstance(value, bool):
            raise ValueError(f"{key}: expected on/off")
        if option.kind == "choice" and value not in option.choices:
            raise ValueError(f"{key}: unknown choice {value!r}")
        checked[key] = value
    return checked


def movers(ruleset: Ruleset, state: State) -> list[Actor]:
    """Who may act now: the awaited seats; the game master when nobody is awaited or when its
    clock may fire while seats still are (a night step's deadline); and the host when nothing
    else moves the game on (a discussion without a clock ends by the host's button).  Random
    players (the test suites' monkey, bench/engines.py) pick among these."""
    seats: list[Actor] = list(ruleset.waiting_for(state))
    if not seats or (state.get("clock") and ruleset.legal_actions(state, GAME_MASTER)):
        if not seats and not ruleset.legal_actions(state, GAME_MASTER) and ruleset.host_moves(state):
            return [HOST]
        seats.append(GAME_MASTER)
    return seats


def handler_for(actions: dict[str, tuple[Any, Any]], state: State, seat: Actor, action: Any,
                *, over: bool) -> Any:
    """The gate every engine's ``apply`` starts with: ``action`` is an object of a known type
    whose fields parse (``actions``: type → (parser, handler)), ``seat`` is a seat of this table,
    the game master or the host, and the game (``over``) is still running.  Returns the handler; raises and changes
    nothing otherwise."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise MalformedAction("bad_action", "An action is an object with a type")
    if action["type"] not in actions:
        raise MalformedAction("unknown_action", f"Unknown action {action['type']!r}")
    parse, handler = actions[action["type"]]
    parse(action)
    if seat not in (GAME_MASTER, HOST) and (type(seat) is not int or not 0 <= seat < state["players"]):
        raise MalformedAction("bad_seat", "No such seat")
    if over:
        raise IllegalAction("game_over", "The game is over")
    return handler


# --- the host acting for a seat (issue 14) ----------------------------------------------------
# Operational, not rules: a player's phone is gone in the middle of a game.  These are the
# host's (actor ``HOST``); the action's type says what it is:
#   {"type": "proxy", "seat": 3, "action": {...}}   the host makes seat 3's choice for it
#   {"type": "remove_player", "seat": 3}            the host removes seat 3 (each ruleset decides)
# Which choices a host may make and what removal means are each ruleset's decision
# (docs/rules/<ruleset>.md, "Our decisions").  The host's screen is the TV everyone watches, so
# a ruleset lets the host make only choices that are public anyway.

PROXY = "proxy"
REMOVE_PLAYER = "remove_player"


def parse_proxy(action: Action) -> None:
    inner = action.get("action")
    if type(action.get("seat")) is not int or not isinstance(inner, dict) \
            or not isinstance(inner.get("type"), str) or inner["type"] == PROXY:
        raise MalformedAction("bad_proxy", "A proxy names a seat and that seat's action")


def parse_removal(action: Action) -> None:
    if type(action.get("seat")) is not int:
        raise MalformedAction("bad_seat", "No such seat")


def host_for(state: State, seat: Actor, action: Action) -> int:
    """The seat a host's proxy or removal is for, once it is the host's (actor ``HOST``) and a
    seat of this table."""
    if seat != HOST:
        raise IllegalAction("host_only", "Only the host does that")
    if not 0 <= action["seat"] < state["players"]:
        raise MalformedAction("bad_seat", "No such seat")
    return action["seat"]


def proxied(state: State, seat: Actor, action: Action, legal_actions, public) -> tuple[int, Action]:
    """The seat and the action a host's proxy makes for it: a choice the ruleset lets the host
    make (``public(action)``: one that is public anyway) and one that seat may make now, exactly."""
    target, inner = host_for(state, seat, action), action["action"]
    if not public(inner):
        raise IllegalAction("not_proxiable", "The host cannot make that choice for a player")
    if inner not in legal_actions(state, target):
        raise IllegalAction("not_your_turn", "That player has nothing to do now")
    return target, inner


def proxy_moves(state: State, legal_actions, public, waiting: list[int]) -> dict[int, list[Action]]:
    """What the host may do for each awaited seat now (the host's screen offers these): only
    public choices, so no seat's secret task shows (at night nobody has any)."""
    return {seat: moves for seat in waiting if (moves := [m for m in legal_actions(state, seat) if public(m)])}


# --- what every engine does to the state it is building ---------------------------------------
# The one convention for never mutating the input: ``apply`` takes ``working_copy(state)`` and
# changes only that copy (these helpers replace nested lists rather than append to them, so a
# shallow copy handed to them is safe too).

def working_copy(state: State) -> State:
    """A deep copy of a JSON state, to build the next state in.  marshal writes exactly the
    plain types a state is made of, and reads them back 1.5–2× faster than a JSON round trip
    (copy.deepcopy is slower still): every apply pays it."""
    return marshal.loads(marshal.dumps(state))


def say(state: State, code: str, **params: Any) -> None:
    """Add a public narration line (what the TV says now) to the current step."""
    state["narration"] = state["narration"] + [{"code": code, "params": params}]


def next_turn(state: State, phase: str | None = None) -> None:
    """What the players are asked changes (a new step; optionally a new ``phase``): forms
    rendered before it are stale."""
    if phase is not None:
        state["phase"] = phase
    state["turn"] += 1


def start_clock(state: State, seconds: float, move: Action) -> None:
    """A new timed step: the game master makes ``move`` ``seconds`` after it starts.  Each clock
    gets a new id from the state's ``clock_count``."""
    state["clock_count"] = state.get("clock_count", 0) + 1
    state["clock"] = {"id": state["clock_count"], "seconds": seconds, "move": dict(move)}


def stop_clock(state: State) -> None:
    """No timed step now."""
    state["clock"] = None
