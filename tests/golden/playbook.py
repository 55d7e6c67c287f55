"""Golden playthroughs: recorded games, every screen of every step as readable text.

One file per game in this folder (``<name>.txt``).  Its head says which game it is (ruleset,
players, options, seed); then each step: who acted and the action (JSON on one line), then the
words the TV and each seat's phone show after it, one line per fragment (``tv-main: …``).  The
words are the real screens (mafiagames/rendering.py, the ruleset's presenter and templates, in
English) with the tags stripped, so a reviewer reads what the players saw; under them what the
engine's ``view`` tells that viewer, one line per key (a seat's only where it differs from the
TV's: its secrets).  A line that did not change since the viewer's previous step is left out, or
the files would repeat themselves.

``tests/golden/test_golden.py`` replays each file's actions and demands the same text;
``python -m tests.golden.regenerate`` writes the files again after an intended change.  The
screens are rendered from the state alone, without a database (``rendering.Table``), with
nothing that changes from run to run: no clock start (so no deadline), a fixed room code and
version, no request (so no CSRF token).
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from engines.base import HOST, EngineError

FOLDER = Path(__file__).resolve().parent
REGENERATE = "python -m tests.golden.regenerate"
NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy", "Kate", "Liam"]
ROOM_CODE = "GOLD"


@dataclass(frozen=True)
class Game:
    """One recorded game: ``options`` are those switched from the host's defaults; ``steps``
    caps how many steps' screens the file shows (the first ``steps`` and the last ``tail``):
    the actions of the steps between are still listed, for the replay."""

    name: str
    ruleset: str
    players: int
    seed: int
    options: dict = field(default_factory=dict)
    why: str = ""
    steps: int | None = None
    tail: int = 10

    @property
    def path(self) -> Path:
        return FOLDER / f"{self.name}.txt"


# Each ruleset with some of its options on (the served rulesets: the briefing and the moments
# are on, as in every new game).  Modest tables, so that a file stays readable.
GAMES = [
    Game("mafie", "mafie", 5, 1, {"targeting": True, "blind_detectives": True, "plot_cards": True},
         "Mafie with targeting, blind detectives and the plot cards"),
    Game("granna_kids", "granna", 7, 2,
         {"kids_no_agent": True, "kids_last_shot_all": True, "kids_single_vote": True, "kids_retheme": True,
          "small_game_round1_mafia": True},
         "GRANNA's children's edition (every kids_ rule, the retheme) and round 1's mafia in a small game"),
    Game("granna_cards", "granna", 8, 3,
         {"action_cards": True, "card_vest": True, "card_bandage": True, "card_leader": True, "card_wiretap": True,
          "card_arrest": True, "card_last_shot": True, "discussion_minutes": "2"},
         "GRANNA's extended version with the recommended action cards, a 2-minute discussion"),
    Game("mafia_pl", "mafia_pl", 8, 4,
         {"doctor": True, "wizard": True, "judge": True, "announce_saved": True, "agent_sees": "card"},
         "the Polish edition with the doctor, the wizard and the judge; saves announced; the agent sees cards"),
    Game("mrakoslapi", "mrakoslapi", 6, 5,
         {"max_rounds": "1", "votes_per_player": "unlimited", "atheist_blocks_tunnel_from": True,
          "gunman_nights": "odd"},
         "Mrakošlapi in one round, unlimited votes, the atheist blocking tunnels from him, the gunman on odd nights",
         steps=60),
    Game("cosanostra", "cosanostra", 2, 6,
         {"max_rounds": "10", "hidden_cash": True, "fortuna_uses_colour_die": True, "capo_diagonal": "off"},
         "Cosa Nostra for two, ten rounds, hidden cash, Fortuna on the colour die, no diagonal capo",
         steps=30, tail=8),
    Game("tiny", "tiny", 3, 7, {"seconds": "30"}, "Heads or Tails (tests/tiny) with a 30-second clock"),
]


# --- Heads or Tails is hosted only where a test names it (EXTRA_RULESETS) ---------------------

@contextlib.contextmanager
def hosting(game: Game):
    """The app as it hosts ``game``: for Heads or Tails, tests/tiny hosted as ``EXTRA_RULESETS``
    would host it (mafiagames/apps.py) for as long as the block runs — registered, its
    presenter known, its templates found — and undone after, so that the other games' screens
    (the lobby's list of rulesets) and the other suites' ``registry.all()`` stay the app's."""
    import pytest
    from django.template import engines

    from engines import registry
    from mafiagames import presenters
    from tests import tiny
    from tests.tiny import presenter as tiny_presenter

    with pytest.MonkeyPatch.context() as patch:
        if game.ruleset == "tiny" and "tiny" not in registry._RULESETS:
            patch.setitem(registry._ENGINES, "tiny", tiny.RULESET)
            patch.setitem(registry._RULESETS, "tiny", registry.served(tiny.RULESET))
            patch.setitem(presenters._EXTRA, "tiny", tiny_presenter)
            django_engine = engines["django"].engine
            patch.setattr(django_engine, "dirs", [*django_engine.dirs, Path(tiny.__file__).parent / "templates"])
        presenters.presenter.cache_clear()
        try:
            yield
        finally:
            presenters.presenter.cache_clear()


# --- playing ------------------------------------------------------------------------------------

def full_options(game: Game) -> dict:
    """The host's defaults (the app's briefing and moments on, as in every new game) with the
    game's own changes."""
    from engines import registry

    defaults = {option.key: option.default for option in registry.get(game.ruleset).options()}
    unknown = set(game.options) - set(defaults)
    assert not unknown, f"{game.name}: {game.ruleset} has no option {', '.join(sorted(unknown))}"
    return {**defaults, **game.options}


def monkey_actions(game: Game) -> list[tuple]:
    """A new recording: the seeded random player of the engine suites (tests/engines/playthrough.py)."""
    from engines import registry
    from tests.engines.playthrough import random_playthrough

    play = random_playthrough(registry.get(game.ruleset), game.players, full_options(game), game.seed)
    return play.actions


def replay(game: Game, options: dict, actions: list[tuple]) -> list[dict]:
    """The states of the game from its setup through each action (EngineError if one is refused)."""
    from engines import registry

    ruleset = registry.get(game.ruleset)
    state, _events = ruleset.setup(game.players, options, game.seed)
    states, log = [state], list(_events)
    for actor, action in actions:
        state, events = ruleset.apply(state, actor, action)
        states.append(state)
        log.extend(events)
    return states, log


# --- screens as text ----------------------------------------------------------------------------

class Words(HTMLParser):
    """The words a fragment shows: text outside ``<script>``, ``<style>``, ``<template>`` and
    any element marked ``hidden``, whitespace collapsed."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
    UNSEEN = {"script", "style", "template"}

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []     # per open element: is it unseen?
        self.parts: list[str] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        self.stack.append(tag in self.UNSEEN or any(name == "hidden" for name, _ in attrs))

    def handle_endtag(self, tag):
        if tag not in self.VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if not any(self.stack):
            self.parts.append(data)

    @property
    def text(self) -> str:
        return re.sub(r"\s+", " ", " ".join(self.parts)).strip()


@functools.lru_cache(maxsize=4096)
def words(html: str) -> str:
    """Memoised: most fragments come back unchanged step after step (the same kept rendering),
    and parsing them is most of a file's time."""
    return Words(html).text


def table_for(game: Game, state: dict, events: list | None):
    """The room as the screens read it: one player per seat, the TV hosting, nothing that
    changes from run to run.  A finished game tells its whole story (``all``), so the file
    shows it."""
    from engines import registry
    from mafiagames.rendering import Table

    ruleset = registry.get(game.ruleset)
    over = ruleset.outcome(state) is not None
    ids = list(range(100, 100 + game.players))
    names = NAMES[:game.players]
    return Table(code=ROOM_CODE, language="en", ruleset=game.ruleset, options=state.get("options", {}),
                 players=[{"id": pid, "name": name, "connected": True, "language": ""} for pid, name in zip(ids, names)],
                 game={"id": 1, "ruleset": game.ruleset, "state": state, "version": 1, "names": names, "seats": ids,
                       "options": state.get("options", {}), "status": "finished" if over else "running",
                       "story": {"step": 0, "all": True, "moved": None}},
                 version=1, story=events if over else None)


def screens(game: Game, state: dict, events: list | None, kept: dict) -> dict[str, dict[str, str]]:
    """Every viewer's fragments as words: the TV (as the host's), then each seat's phone.
    ``kept`` lives for the whole game, as a room's does (rendering._render)."""
    from mafiagames.rendering import phone_screen, tv_screen

    table, memo = table_for(game, state, events), {}
    viewers = {"TV": tv_screen(table, host=True, memo=memo, kept=kept)}
    for seat, name in enumerate(NAMES[:game.players]):
        viewers[viewer_name(seat)] = phone_screen(table, 100 + seat, memo=memo, kept=kept)
    return {viewer: {frag: words(html) for frag, html in screen.items()} for viewer, screen in viewers.items()}


def viewer_name(seat: int) -> str:
    return f"seat {seat} {NAMES[seat]}"


# --- views as lines ---------------------------------------------------------------------------------

def flat(value, path: str = "") -> dict[str, str]:
    """A view as ``{dotted key: JSON value}``, so that a change shows as the one value that
    changed (a list is one value: its items have no keys that stay put)."""
    if isinstance(value, dict) and value:
        return {key: text for name in sorted(value)
                for key, text in flat(value[name], f"{path}.{name}" if path else str(name)).items()}
    return {path: json.dumps(value, sort_keys=True, ensure_ascii=False)}


NOT_SHOWN = "(not in this view)"


def views(game: Game, state: dict) -> dict[str, dict[str, str]]:
    """What the engine tells each viewer (``view``), flattened: the TV's whole view; of a seat's
    only what differs from the TV's (its own part, its secrets), since every seat is told the
    public part too and repeating it once per seat would bury the secrets."""
    from engines import registry

    ruleset = registry.get(game.ruleset)
    public = flat(ruleset.view(state, None))
    every = {"TV": public}
    for seat in range(game.players):
        own = flat(ruleset.view(state, seat))
        # A key the TV's view has and the seat's lacks (not one the seat's spells out deeper,
        # like ``me``: None on the TV, the seat's own part on its phone).
        hidden = {key for key in public if key not in own and not any(mine.startswith(f"{key}.") for mine in own)}
        every[viewer_name(seat)] = {**{key: NOT_SHOWN for key in sorted(hidden)},
                                    **{key: text for key, text in own.items() if public.get(key) != text}}
    return every


def changes(before: dict[str, str], now: dict[str, str], gone: str) -> list[tuple[str, str]]:
    """The lines of ``now`` that differ from ``before`` (``gone`` for a line no longer there)."""
    return [*((key, text) for key, text in now.items() if before.get(key) != text),
            *((key, gone) for key in before if key not in now)]


# --- the file -------------------------------------------------------------------------------------

def actor_text(actor) -> str:
    if actor is None:
        return "game master"
    if actor == HOST:
        return "host"
    return f"seat {actor} {NAMES[actor]}"


def parse_actor(text: str):
    if text == "game master":
        return None
    if text == "host":
        return HOST
    return int(text.split()[1])


def header(game: Game, options: dict, actions: list) -> list[str]:
    return [
        f"# Golden playthrough: {game.why}.",
        f"# {game.ruleset}, {game.players} players, seed {game.seed}, {len(actions)} steps. Options set for this game",
        f"# (the rest at the host's defaults; all of them on the game: line): "
        f"{json.dumps(game.options, sort_keys=True, ensure_ascii=False)}.",
        "# Each step: who acted and the action, then what the TV (the host's) and each seat's phone",
        "# show after it, as words, one line per fragment, and what the engine tells them (`view`,",
        "# one line per key; a seat's only where it differs from the TV's). A line unchanged since",
        "# that viewer's previous step is left out.",
        *([f"# Screens of steps 0-{game.steps} and the last {game.tail} only; the steps between list their actions."]
          if game.steps else []),
        f"# Checked by tests/golden/test_golden.py; after an intended change: {REGENERATE}",
        "game: " + json.dumps({"ruleset": game.ruleset, "players": game.players, "seed": game.seed,
                               "options": options}, sort_keys=True, ensure_ascii=False),
        "",
    ]


def shown(game: Game, index: int, count: int) -> bool:
    """Whether step ``index`` (0 = the setup) of ``count`` steps has its screens in the file."""
    return game.steps is None or index <= game.steps or index >= count - game.tail


def render(game: Game, options: dict, actions: list[tuple]) -> str:
    """The file's text for this game played with these actions."""
    states, log = replay(game, options, actions)
    lines, kept, before = header(game, options, actions), {}, {}
    for index, state in enumerate(states):
        title = "setup" if index == 0 else (
            f"{actor_text(actions[index - 1][0])} {json.dumps(actions[index - 1][1], sort_keys=True, ensure_ascii=False)}")
        lines.append(f"=== step {index}: {title}")
        if not shown(game, index, len(states)):
            continue
        last = index == len(states) - 1
        seen = views(game, state)
        for viewer, fragments in screens(game, state, log if last else None, kept).items():
            said = {f"view {key}": text for key, text in seen[viewer].items()}
            changed = [*changes(before.get((viewer, "screen"), {}), fragments, ""),
                       *changes(before.get((viewer, "view"), {}), said, "(as on the TV)" if viewer != "TV" else "(gone)")]
            before[viewer, "screen"], before[viewer, "view"] = fragments, said
            lines.extend([f"--- {viewer}", *(f"  {key}: {text}".rstrip() for key, text in changed)] if changed else [])
        if game.steps is not None and index == game.steps:
            lines.append(f"... (steps {game.steps + 1}-{len(states) - game.tail - 1}: actions only)")
    return "\n".join(lines) + "\n"


STEP = re.compile(r"=== step (\d+): (game master|host|seat \d+ \S+) (\{.*\})$")


def recorded(game: Game) -> tuple[dict, list[tuple]] | None:
    """The options and actions in ``game``'s file, or None if there is no file yet."""
    if not game.path.exists():
        return None
    options, actions = None, []
    for line in game.path.read_text(encoding="utf-8").splitlines():
        if line.startswith("game: "):
            options = json.loads(line[len("game: "):])["options"]
        elif match := STEP.match(line):
            actions.append((parse_actor(match[2]), json.loads(match[3])))
    return options, actions


def record(game: Game, fresh: bool = False) -> tuple[str, str]:
    """The file's new text and how it was made: the recorded actions replayed when they still
    make a whole game (a change to the screens rewrites only what they show), else a new game
    of the seeded random player."""
    from engines import registry

    known = None if fresh else recorded(game)
    if known and known[0] == full_options(game):
        options, actions = known
        try:
            states, _log = replay(game, options, actions)
            if registry.get(game.ruleset).outcome(states[-1]) is not None:
                return render(game, options, actions), "replayed"
        except EngineError:
            pass
    return render(game, full_options(game), monkey_actions(game)), "new game"
