"""Per-ruleset presenters: turn an engine's view dict into template context and sentences.

Engines speak in codes and seat numbers (docs/design.md §4 i18n); presenters are the one place
those codes become translated words and seats become names.  Each presenter is a package
of three modules by job — ``words`` (the translated tables and the sentences made of them),
``context`` (what each template gets), ``forms`` (a phone's tap into an action) — exposing the
contract below (``Presenter``, ``OPTIONAL``).  What they share lives here: the refusals every
engine has, one reading of a button's fields (``button_action``), the keys of kept fragments
(``key_of``).
"""

import functools
import marshal
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Protocol

from django.utils.functional import Promise
from django.utils.safestring import SafeData, mark_safe
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy

from engines import registry


# Rulesets that share one engine share its presenter (the editions of classic Mafia).
_MODULE_OF = {"granna": "classic", "mafia_pl": "classic"}


class Presenter(Protocol):
    """What every presenter module provides (rendering.py, taps.py and the views call these).

    A presenter is a module (or a package exposing these names), not a class: this protocol is
    its checklist.  ``REQUIRED`` is derived from it and ``check_presenter`` holds each ruleset to
    it when the ruleset is registered, naming a missing part.  ``OPTIONAL`` lists what a
    presenter may leave out, with what stands in for it.
    """

    TEMPLATE_DIR: str
    """The folder of the ruleset's templates (``<TEMPLATE_DIR>/tv_board.html``, …)."""
    ERRORS: dict
    """An engine's refusal code → its words (``COMMON_ERRORS`` plus the ruleset's own)."""
    OPTION_LABELS: dict
    """Option key → (label, help) for every option a host is offered: the one place of their
    words (an engine's ``Option`` has none; tests/web/test_presenter_words.py)."""
    OPTION_CHOICES: dict
    """Option key → {choice: words}."""

    def present(self, view: dict, names: list[str]) -> dict:
        """The TV's context from the TV's view (seat None), for its board, roster and result
        templates.  rendering.py reads three entries of it: ``rows`` (a dict per seat, with its
        ``seat``: rendering adds ``connected``), ``narration`` (the lines the TV shows and reads
        aloud: ``narrated``) and ``phase_title`` (the phase's heading, "" for none); and, if
        given, ``mood`` (the stage's look: "night" or "day"; else "night" while ``night`` is
        true) and ``narration_from`` (the TV shows the lines from this index on, and reads all)."""

    def narrate(self, item: dict, names: list[str], view: dict) -> str:
        """One narration line ({"code", "params"}) in words, seats as names."""

    def role_text(self, view: dict) -> str:
        """A seat's role in a few words (the host's list of who is who at the end)."""

    def side_words(self, code: str, ruleset: str, options: dict) -> str:
        """A winning side (an ``Outcome``'s ``winner`` code) in words, as a game of ``ruleset``
        with ``options`` names it (the evening's scoreboard on the TV, mafiagames/scoreboard.py);
        an unknown code comes back as it is."""

    def role_words(self, code: str, ruleset: str, options: dict) -> str:
        """A role code (the engine's ``roles``) in words, as a game of ``ruleset`` with
        ``options`` names it (the admin's per-player statistics); an unknown code comes back as
        it is."""

    def phone_fragments(self, view: dict, names: list[str], clock: dict) -> dict[str, tuple[str, dict]]:
        """A seated phone's kept fragments from the seat's view: {"role": (template, context),
        "panel": (…)}, each context the only thing its template may read (rendering.py keys
        each by exactly that context, so it holds all the template shows and, for phones to
        share renderings, nothing else); ``clock`` is {"deadline", "time_left"}."""

    def phone_board(self, view: dict, names: list[str]) -> tuple[str, dict]:
        """(template, context) from the TV's view: one board for every phone, made once per
        room version, and public by construction."""

    def parse_action(self, post) -> dict:
        """A phone's submitted form as an engine action, or ``FormError`` with words for the
        player (``button_action`` reads every button that encodes a move)."""

    def how_to_play(self, ruleset: str, options: dict) -> list[dict]:
        """"How to play" ``ruleset`` with ``options`` (resolved): 4–7 slides (``slide``), each a
        title, a few lines and tiles (a role, a card, a phase and what it does), made of the
        words the game itself shows (role help, card help, phase titles, narration lines), so
        the lesson never tells another rule than the game plays.  The TV shows them before a
        room's first game of the ruleset and adds the options in play (rendering.lesson_slides)."""

    def story(self, events: list, names: list[str], ruleset: str, options: dict) -> list[dict]:
        """The story of a finished game, told at its end step by step (mafiagames/story.py): its
        whole event log (``engines.base.Event``s, secret ones included: the game is over) into
        steps, each ``story_step(heading, lines)``, a line ``story_line(text, *seats)`` naming
        the seats it is about (a phone marks its own); at least one step.  Words only: which
        step every screen shows is the server's (``Game.story_step``)."""


# The parts every presenter must have, derived from the protocol: its attributes and methods.
REQUIRED = (*Presenter.__annotations__,
            *(name for name, value in vars(Presenter).items() if callable(value) and not name.startswith("_")))
# ... and what it may leave out, with what stands in for a part left out.
OPTIONAL = {
    "HOST_MOVES": {},        # host move type → button label; else the type
    "proxy_label": None,     # (move, names) → the words of a choice the host makes for a seat
    "tv_parts": None,        # (view, context) → the TV's pieces, each rendered once per distinct context
    "ADVANCED_OPTIONS": frozenset(),   # option keys the host's settings fold under "Advanced"
    # (public view) → the audience's poll open now, {"key", "seats"}, or None (``audience_poll``)
    "audience_poll": None,
    "moment_words": None,    # (event, names, view) → a moment's part in words (``moment_part``); else a bare title
    "TITLES": {},            # ruleset slug → its name in words; else the engine's (English) title
    "reason_words": None,    # (code, ruleset, options) → how a game ended, in words; else the code
}


def check_presenter(module) -> None:
    """Refuse, naming the part, a presenter module that lacks a part of ``Presenter`` or has it
    in the wrong shape (at registration, apps.py, not later on somebody's screen)."""
    for name in REQUIRED:
        if not hasattr(module, name):
            raise TypeError(f"presenter {module.__name__} has no {name} (the Presenter protocol, "
                            f"mafiagames/presenters/__init__.py)")
        wanted, found = getattr(Presenter, name, None), getattr(module, name)
        if callable(wanted) and not callable(found):
            raise TypeError(f"presenter {module.__name__}: {name} must be a function")
    for name, stand_in in OPTIONAL.items():
        if stand_in is None and hasattr(module, name) and not callable(getattr(module, name)):
            raise TypeError(f"presenter {module.__name__}: {name} must be a function")


# Presenters of rulesets kept in a folder of their own (settings.EXTRA_RULESETS, apps.py).
_EXTRA: dict = {}


def register(slug: str, module) -> None:
    """The presenter of a ruleset kept outside this package, checked like the built-in ones."""
    check_presenter(module)
    _EXTRA[slug] = module
    presenter.cache_clear()


@functools.cache
def presenter(slug: str) -> Presenter:
    module = _EXTRA.get(slug) or import_module(f"mafiagames.presenters.{_MODULE_OF.get(slug, slug)}")
    check_presenter(module)
    return module


def ruleset_title(slug: str) -> str:
    """A ruleset's name in the current language: its presenter's ``TITLES`` (the engine's own
    title is English and stands in for a ruleset without one); its slug when no longer hosted."""
    try:
        title = registry.get(slug).title
    except KeyError:
        return slug
    return str(part(slug, "TITLES").get(slug, title))


def ruleset_words(slug: str, name: str):
    """A ruleset's title and one of its presenter's word functions (``side_words``,
    ``role_words``, ``reason_words``: (code, ruleset, options) → words) — for a finished game's
    figures, which outlive the ruleset: one no longer hosted here has its slug for a title and
    its codes for words (so has a presenter without that function)."""
    try:
        registry.get(slug)
    except KeyError:
        return slug, _code
    return ruleset_title(slug), getattr(presenter(slug), name, None) or _code


def _code(code: str, ruleset: str, options: dict) -> str:
    return code


def table_words(table: dict, doc: str) -> Callable[[str, str, dict], str]:
    """``side_words``, ``role_words`` or ``reason_words`` of a ruleset whose words for a code do
    not depend on its options: the code's entry in ``table`` (the code itself if none)."""
    def words(code: str, ruleset: str, options: dict) -> str:
        return str(table.get(code, code))
    words.__doc__ = doc
    return words


# The kinds of the events in a game's log (engines' ``Event.kind``, the app's own pause and
# logged actions): what the admin's reader sees beside each event (a kind not here: its code).
EVENT_KINDS = {
    "action": gettext_lazy("a move"), "game_paused": gettext_lazy("game paused"),
    "game_resumed": gettext_lazy("game resumed"), "chance": gettext_lazy("a draw of chance"),
    "briefing_over": gettext_lazy("everyone has seen their role"), "role_seen": gettext_lazy("role seen"),
    "moment_over": gettext_lazy("a result shown"), "roles_dealt": gettext_lazy("roles dealt"),
    "role": gettext_lazy("a role"), "notice": gettext_lazy("a notice"), "game_over": gettext_lazy("game over"),
    "ready": gettext_lazy("ready"), "vote_cast": gettext_lazy("a vote cast"),
    "votes_revealed": gettext_lazy("votes revealed"), "proxied": gettext_lazy("the host chose for a player"),
    # Mafie
    "kmotr_chosen": gettext_lazy("Godfather chosen"), "kmotr_passed": gettext_lazy("next Godfather"),
    "team_proposed": gettext_lazy("crew proposed"), "round_started": gettext_lazy("job started"),
    "card_played": gettext_lazy("a card played"), "action_cards": gettext_lazy("the job's cards"),
    "action_revealed": gettext_lazy("job revealed"),
    "plot_drawn": gettext_lazy("plot cards drawn"), "plot_dealt": gettext_lazy("plot card dealt"),
    "plot_passed": gettext_lazy("plot card passed"), "plot_used": gettext_lazy("plot card played"),
    "plot_learnt": gettext_lazy("plot card's secret"), "plot_window_closed": gettext_lazy("plot window closed"),
    "opinion_votes": gettext_lazy("Opinion Makers' votes"),
    # classic Mafia
    "night_started": gettext_lazy("night falls"), "night_step_ended": gettext_lazy("night step over"),
    "mafia_meeting": gettext_lazy("the mafia meet"), "night_pick": gettext_lazy("a night pick"), "picked": gettext_lazy("a pick"),
    "victim_chosen": gettext_lazy("victim chosen"), "checked": gettext_lazy("a check"),
    "check_skipped": gettext_lazy("no check"), "healed": gettext_lazy("a heal"),
    "heal_skipped": gettext_lazy("no heal"), "swap_cast": gettext_lazy("a spell"),
    "swap_skipped": gettext_lazy("no spell"), "swap_carried_out": gettext_lazy("cards swapped"),
    "spell_cast": gettext_lazy("a spell cast"), "saved": gettext_lazy("saved by the doctor"),
    "dawn": gettext_lazy("dawn"), "eliminated": gettext_lazy("a player out"),
    "discussion_ended": gettext_lazy("discussion over"), "finalists": gettext_lazy("finalists"),
    "defence_ended": gettext_lazy("defences over"), "coin": gettext_lazy("coin toss"),
    "last_shot_offered": gettext_lazy("a last shot offered"), "shot": gettext_lazy("a shot"),
    "shot_skipped": gettext_lazy("no shot"),
    # GRANNA's action cards (rules B.3.4, B.3.5)
    "cards_shown": gettext_lazy("action cards shown"), "cards_dealt": gettext_lazy("action cards dealt"),
    "card": gettext_lazy("an action card"), "card_pending": gettext_lazy("a card played, waiting"),
    "card_save": gettext_lazy("saved by a card"), "recruited": gettext_lazy("a recruit"),
    "recruitment": gettext_lazy("a recruitment"), "roles_swapped": gettext_lazy("tokens swapped"),
    "swap_declined": gettext_lazy("no token swap"), "leader_tie": gettext_lazy("the Leader breaks a tie"),
    "leader_picked": gettext_lazy("the Leader's choice"), "leader_passed": gettext_lazy("the Leader passes"),
    "window_opened": gettext_lazy("a moment to react"), "window_closed": gettext_lazy("the moment is over"),
    "struck": gettext_lazy("the mafia struck"), "condemned": gettext_lazy("voted out"),
    "no_lynch": gettext_lazy("nobody voted out"), "new_gang_meeting": gettext_lazy("the New Gang met"),
    # Mrakošlapi
    "cards": gettext_lazy("a hand dealt"), "night_start": gettext_lazy("night falls"),
    "night_prompts": gettext_lazy("night's questions"), "night_done": gettext_lazy("night choices confirmed"),
    "night_resolved": gettext_lazy("night resolved"), "night_skipped": gettext_lazy("night without meaning"),
    "morning": gettext_lazy("the morning"), "day_start": gettext_lazy("day begins"),
    "day_skipped": gettext_lazy("day without meaning"), "day_end": gettext_lazy("day over"),
    "accuse": gettext_lazy("an accusation"), "withdraw": gettext_lazy("an accusation withdrawn"),
    "auto_accuse": gettext_lazy("everyone accused"), "defence": gettext_lazy("a defence"),
    "candidates": gettext_lazy("candidates"), "window": gettext_lazy("hands up"), "hand": gettext_lazy("a hand raised"),
    "hands": gettext_lazy("hands counted"), "totals": gettext_lazy("totals"), "tie": gettext_lazy("a tie"),
    "back_to_floor": gettext_lazy("back to discussion"), "sentenced": gettext_lazy("sentenced"),
    "execute": gettext_lazy("execution"), "execution_void": gettext_lazy("no execution after all"),
    "no_execution": gettext_lazy("nobody executed"), "astronom": gettext_lazy("NIGHT called"),
    "anarchist": gettext_lazy("Anarchista's shot"), "mass_murderer": gettext_lazy("Mass Murderer's revenge"),
    "mrak_dies": gettext_lazy("a Mrakošlap dies"), "player_dies": gettext_lazy("a player dies"),
    "gain": gettext_lazy("a Mrakošlap gained"),
}


def event_words(kind: str) -> str:
    """An event's kind in words (the admin), else its code."""
    return str(EVENT_KINDS.get(kind, kind))


def part(slug: str, name: str):
    """An optional part of a ruleset's presenter (``OPTIONAL``), or what stands in for it."""
    return getattr(presenter(slug), name, OPTIONAL[name])


def audience_poll(slug: str, view: dict) -> dict | None:
    """The audience's "who do you suspect?" poll open now (issue 16), or None: read off the TV's
    view (seat None) by the ruleset's presenter, so it can only depend on what is public.

    ``{"key": the day it belongs to (one answer per phone per key), "seats": whom one may
    name (the living, in seat order)}``.  Each ruleset decides what "a day's vote" is
    (docs/rules/); a ruleset without ``audience_poll`` has no poll."""
    poll = part(slug, "audience_poll")
    return poll(view) if poll is not None else None


class FormError(ValueError):
    """A phone's form could not be turned into an action; the text is for the player."""


def form_seat(raw) -> int:
    """A seat number from a phone's form field, or a clear refusal (a forged or empty field)."""
    try:
        return int(raw)
    except (TypeError, ValueError):
        raise FormError(gettext("Not a player: %(value)s") % {"value": raw}) from None


def text(raw) -> str:
    """A form field read as words, "" when missing (``button_action``)."""
    return raw or ""


@dataclass(frozen=True)
class Maybe:
    """A button field that may be left out: the action then has no such key."""

    read: Callable


def button_action(post, buttons: dict[str, dict[str, Callable | Maybe]]) -> dict | None:
    """The action a phone's button sends: its hidden fields are an engine move's fields (each
    presenter lists its moves' fields, each with how to read it, ``BUTTONS``), so one reading
    serves every ruleset.  None when the posted ``action`` is not such a button (a form with the
    player's own choice: a crew, a claim, a text)."""
    fields = buttons.get(post.get("action", ""))
    if fields is None:
        return None
    action = {"type": post["action"]}
    for name, read in fields.items():
        raw = post.get(name)
        if isinstance(read, Maybe):
            if not raw:
                continue
            read = read.read
        action[name] = read(raw)
    return action


def slide(title, lines=(), tiles=()) -> dict:
    """One slide of "How to play" (``how_to_play``) as plain words in the active language:
    ``tiles`` are (name, what it does) pairs; a line or tile without words is left out."""
    return {"title": str(title), "lines": [str(line) for line in lines if line],
            "tiles": [{"name": str(name), "text": str(text)} for name, text in tiles if name]}


# Slide titles shared by the rulesets' lessons (``how_to_play``), where the game has no heading.
LESSON_TITLES = {
    "sides": gettext_lazy("Two sides"),
    "roles": gettext_lazy("The roles"),
    "day": gettext_lazy("By day"),
    "end": gettext_lazy("How the game ends"),
    "cards": gettext_lazy("The cards"),
    "options": gettext_lazy("In this game"),
}


# The briefing every game opens with (engines/briefing.py): a phone's "I have seen my role" and
# the host's button to go on without waiting; ``parse_tap`` reads the first for every ruleset.
BRIEFING_HOST_MOVES = {"go_on": gettext_lazy("Start without waiting")}


def parse_tap(slug: str, post) -> dict:
    """A phone's tap as an engine action: the briefing's button is every ruleset's, the rest is
    the ruleset's presenter's (``parse_action``)."""
    if post.get("action") == "seen_role":
        return {"type": "seen_role"}
    return presenter(slug).parse_action(post)


# Words for the refusals every engine shares (engines.base.handler_for, and the turn checks each
# engine makes); a presenter's ERRORS adds its own ruleset's codes to these.
COMMON_ERRORS = {
    "bad_action": gettext_lazy("That request was malformed."),
    "unknown_action": gettext_lazy("Unknown action."),
    "bad_seat": gettext_lazy("You are not playing in this game."),
    "game_over": gettext_lazy("This game is over."),
    "wrong_phase": gettext_lazy("That is not possible right now."),
    "not_your_turn": gettext_lazy("It is not your turn."),
    # The host acting for a player (engines/base.py "proxy", "remove_player").
    "not_proxiable": gettext_lazy("The host cannot make that choice for a player."),
    "bad_proxy": gettext_lazy("That request was malformed."),
    "host_only": gettext_lazy("Only the host can do that."),
    "no_removal": gettext_lazy("Nobody leaves a game of Mafie: vote for the player, or end the game."),
    "not_removable": gettext_lazy("The host can remove a living player by day only."),
    "target_dead": gettext_lazy("Pick a player still in the game."),
    "briefing": gettext_lazy("The clock waits until everyone has seen their role."),
    # A result on the stage (engines/moments.py): nobody moves until the game master's clock ends it.
    "moment": gettext_lazy("Everyone is watching the result. Wait a moment."),
}


# --- moments (engines/moments.py): a result on the stage, in words ----------------------------
# What a moment sounds like on the TV (static/app.js plays one short cue for each).
CUES = ("vote", "cards", "coin", "die", "death", "verdict")


def moment_part(cue: str, title, items=(), result="") -> dict:
    """One event of a moment in words: its ``cue`` (``CUES``), a ``title``, the ``items`` the
    screens reveal one by one (a name and its vote, a card) and the ``result`` they lead to."""
    if cue not in CUES:
        raise ValueError(f"unknown cue {cue!r}")
    return {"cue": cue, "title": str(title), "items": [str(item) for item in items], "result": str(result)}


def moment_context(slug: str, moment: dict, names: list[str], view: dict) -> dict:
    """A moment of the public view (``view["moment"]`` or one of ``view["moments_past"]``) as
    the screens show it: its number, the cue of its last (deciding) part, and each part in the
    ruleset's words (``moment_words``; without it, a bare title).  Public by construction: made
    of the public events the engine put on the stage."""
    words = part(slug, "moment_words") or (lambda event, names, view: moment_part("verdict", gettext("The result")))
    parts = [words(event, names, view) for event in moment["events"]]
    return {"n": moment["n"], "cue": parts[-1]["cue"], "parts": parts}


def seconds(*values: str) -> dict:
    """The words of a setting's choices in seconds ("30" → "30 s"), for ``OPTION_CHOICES``."""
    return {value: format_lazy(gettext_lazy("{n} s"), n=value) for value in values}


def key_of(value) -> bytes | str:
    """A memo key for ``value`` (rendering.py): equal keys, equal contents.

    marshal (format 2, which never shares repeated objects) writes the plain types that views
    and piece contexts are made of exactly, 5–8× faster than ``json.dumps(sort_keys=True)``:
    phones and the TV make some fifty keys per tap (docs/performance.md).  A value holding a
    lazy translation or a safe string (a piece already rendered) is first made plain
    (``plain``) and its key is a str, which a bytes key never equals.  Dicts are taken in the
    order they were built, as a template loops over them: equal contents built in another
    order only cost one more rendering.  ``context_of`` turns a key back into its value."""
    try:
        return marshal.dumps(value, 2)
    except ValueError:
        return marshal.dumps(plain(value), 2).decode("latin-1")


_SAFE = b"safe"   # marks a safe string in a plain value (``plain`` refuses bytes, so nothing else is marked)


def plain(value):
    """``value`` in the plain types marshal writes: a lazy translation as its words in the
    active language (as a template would print it), a safe string tagged as such (a template
    prints it unescaped).  Anything else is refused: a template given it could reach past its
    context (a model, a callable), and no key could name what it shows."""
    if value is None or type(value) in (str, int, bool, float):
        return value
    if isinstance(value, SafeData):
        return (_SAFE, str.__str__(value))
    if isinstance(value, (str, Promise)):
        return str(value)
    if isinstance(value, dict):
        return {plain(key): plain(item) for key, item in value.items()}
    if type(value) in (list, tuple):
        return type(value)(map(plain, value))
    raise TypeError(f"{type(value).__name__} has no place in a fragment's context (rendering.py): plain data only")


def context_of(key: bytes | str):
    """The value whose key is ``key`` (``key_of``), safe strings safe again: the tests render
    a kept fragment's template from its key alone, so its key names all it shows."""
    value = marshal.loads(key.encode("latin-1") if isinstance(key, str) else key)

    def unplain(item):
        if isinstance(item, tuple) and len(item) == 2 and item[0] == _SAFE:
            return mark_safe(item[1])
        if isinstance(item, dict):
            return {k: unplain(v) for k, v in item.items()}
        if isinstance(item, (list, tuple)):
            return type(item)(unplain(v) for v in item)
        return item
    return unplain(value)


def fill(line, params: dict) -> str:
    """A narration line (lazy text with %(name)s places) filled in; "" when there is no line or
    a translation's places do not match the parameters (a line is never worth a crashed screen)."""
    try:
        return str(line) % params if line is not None else ""
    except (KeyError, TypeError, ValueError):
        return ""


def narrated(narrate, items: list[dict], names: list[str], view: dict) -> list[str]:
    """A view's narration items (``view["narration"]``) as the lines a screen shows, in the
    ruleset's words (its ``narrate``); an item without words is left out."""
    return [line for line in (narrate(item, names, view) for item in items) if line]


def pick(context: dict, names: tuple[str, ...]) -> dict:
    """The entries of a ``present`` context that one template reads (``phone_fragments``): a
    phone's fragment is keyed by its context, so what the template does not read stays out."""
    return {name: context[name] for name in names if name in context}


def story_line(text, *seats: int) -> dict:
    """One line of a game's story (``Presenter.story``): its words, and the seats it is about,
    so that each of those phones marks it as its own."""
    return {"text": str(text), "seats": sorted(set(seats))}


def story_step(heading, lines) -> dict:
    """One step of a game's story: a short heading and its lines (``story_line``)."""
    return {"heading": str(heading), "lines": list(lines)}


def names_of(seats, names: list[str]) -> str:
    """Seats as their players' names, joined (a story's lines)."""
    return ", ".join(names[seat] for seat in seats)


def error_message(slug: str, exc) -> str:
    """A refusal (an engine's ``EngineError``) in the words of the ruleset's presenter
    (its ``ERRORS``, by code), else the engine's own English text."""
    return str(presenter(slug).ERRORS.get(exc.code, exc.message))
