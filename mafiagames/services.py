"""Every change to rooms and games goes through here (docs/design.md §4: one writer).

Views and consumers parse input and call these functions; the functions validate,
write in one short transaction and ping the room after commit.
"""

from __future__ import annotations

import itertools
import secrets

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from engines import registry, replay
from engines.base import (
    GAME_MASTER, HOST, NOBODY, PROXY, PUBLIC, Actor, EngineError, IllegalAction, resolve_options,
)
from engines.base import Event as EngineEvent
from engines.moments import MOMENTS

from . import db, languages, notify, seating, story
from .clock import due_in
from .rendering import lesson_slides
from .models import (
    CLAIM_WAIT, NAME_MAX_LENGTH, ROOM_CODE_ALPHABET, ROOM_CODE_LENGTH, Claim, Event, Game, HostDevice, Player, Room,
    Suspicion, game_dict, new_host_code, new_token,
)
from .presenters import audience_poll, ruleset_title
from .text import unshowable


class ServiceError(Exception):
    """A request that cannot be carried out; ``message`` is for the person who made it."""

    status = 400

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class StaleVersion(ServiceError):
    """The screen that sent the action was out of date; it is re-rendered."""

    status = 409


class Conflict(ServiceError):
    status = 409


class Forbidden(ServiceError):
    status = 403


class NotDue(Conflict):
    """A timed move asked for before its clock is due (a timer armed before a pause); ``game``
    is the game as it is, for the caller to arm again."""

    def __init__(self, game: Game):
        super().__init__("not_due", "The clock is not due yet.")
        self.game = game


# --- rooms -----------------------------------------------------------------------------------

def create_room(language: str) -> Room:
    if language not in dict(settings.LANGUAGES):
        raise ServiceError("bad_language", _("Unknown language."))
    for _attempt in range(20):
        code = "".join(secrets.choice(ROOM_CODE_ALPHABET) for _ in range(ROOM_CODE_LENGTH))
        try:
            with transaction.atomic():
                return Room.objects.create(code=code, language=language)
        except IntegrityError:
            continue
    raise ServiceError("no_code", _("Could not find a free room code; try again."))


def name_key(raw: str) -> str:
    """What makes two names the same name in a room: case and spacing do not count."""
    return " ".join(str(raw).split()).casefold()


def clean_name(raw: str) -> str:
    """A player name: trimmed, inner whitespace collapsed, 1–24 printable characters."""
    name = " ".join(str(raw).split())
    if not name:
        raise ServiceError("name_empty", _("Please type a name."))
    if len(name) > NAME_MAX_LENGTH:
        raise ServiceError("name_long", _("Names can be at most %(n)d characters.") % {"n": NAME_MAX_LENGTH})
    if any(unshowable(ch) for ch in name):   # refused, not stripped: a name must read as typed
        raise ServiceError("name_bad", _("That name has characters we cannot show."))
    return name


# Who may sit in a room: the largest table any ruleset seats, and as many again watching at most
# AUDIENCE (they are dealt in at the next game).  More is a flood, not a game night.
AUDIENCE = 10


def seat_cap() -> int:
    return max(ruleset.max_players for ruleset in registry.all()) + AUDIENCE


def join_room(room: Room, raw_name: str, language: str = "", address: str | None = None) -> Player:
    """A new player of ``room``, whose phone speaks ``language`` ("" for the room's), joining
    from ``address`` (clients.py; None for the host's own machine)."""
    language = languages.supported(language) or ""

    def door_open(door: Room) -> None:
        if door.locked:
            raise Forbidden("room_locked", _("The host has locked this room. If you were playing, "
                                             "ask to get your seat back."))
    return _seat(room, raw_name, door_open, language=language, address=address)


def _seat(room: Room, raw_name: str, admit, **fields) -> Player:
    """A new player of ``room`` at the end of the seating order, named ``raw_name`` (a name of
    its own in the room), if ``admit(room locked for update)`` raises nothing: a phone joining
    (``join_room``) or the host's bot (``add_bot``)."""
    name = clean_name(raw_name)
    try:
        with transaction.atomic():
            door = Room.objects.select_for_update().get(pk=room.pk)
            admit(door)
            if door.players.count() >= seat_cap():
                raise Conflict("room_full", _("This room is full."))
            order = (room.players.order_by("-order").values_list("order", flat=True).first() or 0) + 1
            player = Player.objects.create(room=room, name=name, name_key=name_key(name), order=order, **fields)
            changed(room)
    except IntegrityError:
        raise ServiceError("name_taken", _("Somebody in this room already uses that name.")) from None
    return player


# --- bots (Player.bot): an empty seat filled by the ruleset's bot (engines/base.py, "Bots") ----

def bot_name(n: int) -> str:
    """The ``n``-th bot's name, in the active language (the host's, i.e. the room's)."""
    return _("Bot %(n)d") % {"n": n}


def add_bot(room: Room) -> Player:
    """The host fills an empty seat with a bot, in the lobby: only for a ruleset that has one
    (``Engine.bot``) and while the table is below its most players.  It sits at the end of the
    seating order like anyone who joins, under the first free name "Bot n"; the host moves or
    removes it like any player (``move_player``, ``kick``)."""
    with transaction.atomic():
        door = _lobby_room(room)
        ruleset = registry.get(door.ruleset)
        if ruleset.bot is None:
            raise Conflict("no_bots", _("%(title)s has no bot players.") % {"title": ruleset_title(door.ruleset)})
        if door.players.count() >= ruleset.max_players:
            raise Conflict("table_full", _("The table is full: %(title)s seats at most %(max)d players.")
                           % {"title": ruleset_title(door.ruleset), "max": ruleset.max_players})
        taken = set(door.players.values_list("name_key", flat=True))
        n = next(n for n in itertools.count(1) if name_key(bot_name(n)) not in taken)
        # No token: no phone ever holds a bot's seat (seating.seated_player).
        return _seat(room, bot_name(n), lambda door: None, bot=True, token="")


def set_phone_language(player: Player, language: str) -> None:
    """The phone's own language menu: its screens, refusals and pages from now on.  The room's
    screens re-render (a new version): the phone's fragments are kept per language."""
    code = languages.supported(language)
    if code is None or code != language:
        raise ServiceError("bad_language", _("Unknown language."))
    with transaction.atomic():
        Player.objects.filter(pk=player.pk).update(language=code)
        changed(player.room)
    player.language = code


def set_locked(room: Room, locked: bool) -> None:
    """The host's "Lock room" switch: while locked nobody new joins; a lost phone may still ask
    for its seat back (that is when a locked room needs it most)."""
    with transaction.atomic():
        Room.objects.filter(pk=room.pk).update(locked=locked)
        changed(room)
    room.locked = locked


# --- a seat for a new phone, with the host's consent ---------------------------------------------
# A player whose phone is lost (or whose browser forgot the room) asks for their seat from a new
# phone; so may anyone the host wants to give an empty seat to.  Only the host's approval moves a
# seat: the seat's token changes, so the old phone's cookie and open screen stop working.

# Requests are bounded per asker, never per room: a room-wide cap let one stranger's fake
# requests turn every genuine one away.  Each browser has at most one waiting request (a new one
# withdraws its old one), and so has each client address (clients.py).


def ask_for_seat(room: Room, player_id: int, *, address: str | None = None,
                 replacing: int | None = None) -> Claim:
    """A new phone asks for the seat of ``player_id``; the host sees the request.  ``address``:
    the asker's (None for the host's own machine); ``replacing``: the request this browser
    already has waiting, which the new one withdraws."""
    with transaction.atomic():
        player = Player.objects.filter(room=room, pk=player_id, bot=False).first()   # a bot's seat is no phone's
        if player is None:
            raise ServiceError("unknown_player", _("No such player in this room."))
        if replacing is not None:
            Claim.objects.waiting(room.pk).filter(pk=replacing).update(status=Claim.Status.REFUSED)
        if address and Claim.objects.waiting_from(address).exists():
            raise Conflict("claim_waiting", _("A request from this network is already waiting for the host. "
                                              "Wait for the answer, or ask the host."))
        claim = Claim.objects.create(room=room, player=player, address=address)
        changed(room)
    return claim


def answer_claim(room: Room, claim_id: int, approve: bool) -> None:
    """The host lets the asking phone in (the seat's token changes) or refuses."""
    with transaction.atomic():
        claim = Claim.objects.waiting(room.pk).select_for_update().filter(pk=claim_id).first()
        if claim is None:
            raise Conflict("claim_gone", _("That request is no longer waiting."))
        if approve:
            Player.objects.filter(pk=claim.player_id).update(token=new_token(), handovers=F("handovers") + 1)
            # One phone gets the seat; anyone else asking for it is turned away.
            Claim.objects.waiting(room.pk).filter(player_id=claim.player_id).exclude(pk=claim.pk).update(
                status=Claim.Status.REFUSED)
        claim.status = Claim.Status.APPROVED if approve else Claim.Status.REFUSED
        claim.save(update_fields=["status"])
        changed(room)


def collect_seat(room: Room, claim_id: int, secret: str) -> tuple[Claim, Player | None]:
    """The asking phone comes back: its request, and the seat once (and only once) approved."""
    with transaction.atomic():
        claim = Claim.objects.select_for_update().select_related("player").filter(room=room, pk=claim_id).first()
        if claim is None or not secrets.compare_digest(claim.secret, str(secret)):
            raise Forbidden("claim_unknown", _("We do not know that request. Ask again."))
        if claim.status == Claim.Status.PENDING and claim.created < timezone.now() - CLAIM_WAIT:
            claim.status = Claim.Status.REFUSED   # lapsed unanswered: as good as refused
            claim.save(update_fields=["status"])
        if claim.status != Claim.Status.APPROVED:
            return claim, None
        claim.status = Claim.Status.TAKEN
        claim.save(update_fields=["status"])
        return claim, claim.player


# --- host devices (HostDevice): who has the host controls, and who may get them ----------------------
# Every browser that hosts is a device of its own, listed on the host's screens, and any host can
# revoke another.  The host code lets a new device in only while no host screen is online;
# otherwise a host must allow it.  The code is single-use: it changes whenever it is used and at
# every handover, so a code glimpsed on the TV is worth nothing once the host has used it.

def add_host_device(room: Room, status: str = HostDevice.Status.HOSTING, address: str | None = None) -> HostDevice:
    """A new device of ``room`` (the room's creator's browser, or one that typed the host code)."""
    number = (HostDevice.objects.filter(room=room).order_by("-number").values_list("number", flat=True).first() or 0) + 1
    device = HostDevice.objects.create(room=room, number=number, status=status, address=address)
    device.room = room
    return device


def _new_host_code(room: Room) -> None:
    Room.objects.filter(pk=room.pk).update(host_code=new_host_code())


def rotate_host_code(room: Room) -> str:
    """A new host code (the admin's "Rotate"); the new code, as a host types it."""
    with transaction.atomic():
        _new_host_code(room)
        fresh = Room.objects.get(pk=room.pk)
    room.host_code = fresh.host_code
    return fresh.host_code_display


def host_online(room: Room) -> bool:
    """Whether a host screen is open: a host device's TV, or the phone that hosts."""
    return (HostDevice.objects.hosting(room.pk).filter(connections__gt=0).exists()
            or Player.objects.filter(pk=room.host_player_id, connections__gt=0).exists())


def use_host_code(room: Room, typed: str, address: str | None = None) -> HostDevice:
    """Someone typed the host code (views.host_login).  Right: the code changes, and the browser
    becomes a host device at once if no host screen is online (the host whose browser closed),
    else a device asking to host, which a host allows or refuses (``answer_host_ask``)."""
    with transaction.atomic():
        locked = Room.objects.select_for_update().get(pk=room.pk)
        if not seating.host_code_matches(locked, typed):
            raise Forbidden("host_code", _("That is not this room's host code."))
        _new_host_code(room)
        if host_online(locked):
            if address:   # one waiting request per address: a new one from it replaces the old
                HostDevice.objects.asking(room.pk).filter(address=address).update(status=HostDevice.Status.REFUSED)
            device = add_host_device(room, HostDevice.Status.ASKING, address)
        else:
            device = add_host_device(room)
            # The way back from a phone that hosts (offer_host), now offline: it hosts no more.
            Room.objects.filter(pk=room.pk).update(host_player=None, host_offer=None)
        changed(room)
    return device


def answer_host_ask(room: Room, device_id: int, allow: bool) -> None:
    """A host allows a device that asks to host, or refuses it."""
    with transaction.atomic():
        asking = HostDevice.objects.asking(room.pk).select_for_update().filter(pk=device_id).first()
        if asking is None:
            raise Conflict("ask_gone", _("That request is no longer waiting."))
        asking.status = HostDevice.Status.HOSTING if allow else HostDevice.Status.REFUSED
        asking.save(update_fields=["status"])
        changed(room)


def revoke_host(room: Room, device_id: int, by: HostDevice | None) -> None:
    """A host takes the controls from another device: its controls end at once (its posts are
    refused, its open TV socket is closed: consumers.TvConsumer)."""
    with transaction.atomic():
        if by is not None and by.pk == device_id:
            raise Conflict("revoke_self", _("This is the device you are using."))
        if not HostDevice.objects.hosting(room.pk).filter(pk=device_id).update(status=HostDevice.Status.REVOKED):
            raise Conflict("device_gone", _("That device no longer hosts."))
        changed(room)


def revoke_phone_host(room: Room, by_player: int | None) -> None:
    """A host takes the controls from the phone that has them."""
    with transaction.atomic():
        locked = Room.objects.select_for_update().get(pk=room.pk)
        if locked.host_player_id is None:
            raise Conflict("device_gone", _("That device no longer hosts."))
        if locked.host_player_id == by_player:
            raise Conflict("revoke_self", _("This is the device you are using."))
        Room.objects.filter(pk=room.pk).update(host_player=None)
        changed(room)


def host_ask_status(room: Room, cookies: dict[str, str]) -> str | None:
    """What became of this browser's request to host: "asking", "hosting", "refused" (revoked or
    lapsed too), or None if it holds no request of this room."""
    device = seating.host_device(room, cookies, *HostDevice.Status.values)
    if device is None:
        return None
    if device.status == HostDevice.Status.ASKING and not HostDevice.objects.asking(room.pk).filter(pk=device.pk).exists():
        return HostDevice.Status.REFUSED   # lapsed unanswered
    return device.status if device.status in (HostDevice.Status.ASKING, HostDevice.Status.HOSTING) \
        else HostDevice.Status.REFUSED


def set_host_presence(device_id: int, delta: int) -> None:
    """Count a host device's open TV screens: while any is open, a new device needs a host's yes.
    A new version only when the device comes online or goes offline (the host list shows it)."""
    with transaction.atomic():
        HostDevice.objects.filter(pk=device_id).update(connections=F("connections") + delta)
        device = HostDevice.objects.select_related("room").filter(pk=device_id).first()
        if device is not None and device.connections == max(delta, 0):
            changed(device.room)


# --- host from a phone ----------------------------------------------------------------------------
# The host may hand the host controls to a player's phone, so nobody needs a mouse at the TV: an
# offer (the host's command), then that phone's answer.  Accepting rotates the host token: every
# browser holding a host cookie (the TV) loses the controls; the phone gains them.  The host code
# (use_host_code) stays the way back, with the phone's yes while it is online.

def offer_host(room: Room, player_id: int) -> None:
    """The host offers the controls to ``player_id``'s phone; a new offer replaces an older one."""
    with transaction.atomic():
        locked = Room.objects.select_for_update().get(pk=room.pk)
        player = Player.objects.filter(room=room, pk=player_id, bot=False).first()   # a bot has no phone
        if player is None:
            raise ServiceError("unknown_player", _("No such player in this room."))
        if player.pk == locked.host_player_id:
            raise Conflict("already_host", _("%(name)s: that phone already has the host controls.") % {"name": player.name})
        if not player.connected:
            raise Conflict("offline", _("%(name)s: that phone is not connected.") % {"name": player.name})
        Room.objects.filter(pk=room.pk).update(host_offer=player)
        changed(room)


def answer_host_offer(room: Room, player_id: int, accept: bool) -> None:
    """The offered phone accepts (it becomes the host, the old host cookie dies) or declines."""
    with transaction.atomic():
        locked = Room.objects.select_for_update().get(pk=room.pk)
        if locked.host_offer_id is None or locked.host_offer_id != player_id:
            raise Conflict("no_offer", _("The host has not offered you the controls (or took the offer back)."))
        if accept:
            Room.objects.filter(pk=room.pk).update(host_offer=None, host_player=player_id, host_code=new_host_code(),
                                                   host_generation=F("host_generation") + 1)
            HostDevice.objects.filter(room=room, status__in=[HostDevice.Status.HOSTING, HostDevice.Status.ASKING]
                                      ).update(status=HostDevice.Status.REVOKED)
        else:
            Room.objects.filter(pk=room.pk).update(host_offer=None)
        changed(room)


def changed(room: Room, game: Game | None = None) -> int:
    """Bump the room's version and ping its screens once the transaction commits.

    Call inside the transaction that made the change: screens re-render from the committed
    state, and the version tells them (and their caches) which state that is.  Pass ``game``
    when the change was to that game alone.
    """
    with db.this_connection().cursor() as cursor:  # one statement on the hot path (SQLite ≥ 3.35, PostgreSQL)
        cursor.execute(f"UPDATE {Room._meta.db_table} SET version = version + 1 WHERE id = %s RETURNING version",
                       [room.pk])
        (version,) = cursor.fetchone()
    notify.ping(room.code, version, game)
    return version


def _lobby_room(room: Room) -> Room:
    """The room, locked, provided no game is running in it."""
    locked = Room.objects.select_for_update().get(pk=room.pk)
    if locked.games.running().exists():
        raise Conflict("game_running", _("A game is running; wait for it to end."))
    return locked


def kick(room: Room, player_id: int) -> None:
    with transaction.atomic():
        locked = _lobby_room(room)
        if player_id == locked.host_player_id:   # the room would be left without a host
            raise Conflict("host_phone", _("That phone has the host controls: it cannot be removed."))
        deleted, _rows = Player.objects.filter(room=room, pk=player_id).delete()
        if not deleted:
            raise ServiceError("unknown_player", _("No such player in this room."))
        changed(room)


def move_player(room: Room, player_id: int, direction: int) -> None:
    """Move a player one place up (-1) or down (+1) in the seating order."""
    with transaction.atomic():
        _lobby_room(room)
        players = list(room.players.all())
        index = next((i for i, p in enumerate(players) if p.pk == player_id), None)
        if index is None:
            raise ServiceError("unknown_player", _("No such player in this room."))
        other = index + direction
        if direction not in (-1, 1) or not 0 <= other < len(players):
            return
        players[index], players[other] = players[other], players[index]
        for position, player in enumerate(players, start=1):
            Player.objects.filter(pk=player.pk).update(order=position)
        changed(room)


def configure(room: Room, slug: str, raw_options: dict) -> None:
    """Choose the ruleset and its options for the next game."""
    try:
        ruleset = registry.get(slug)
    except KeyError:
        raise ServiceError("unknown_ruleset", _("Unknown ruleset.")) from None
    try:
        hidden = sorted(o.key for o in ruleset.options() if not o.offered and o.key in raw_options)
        if hidden:
            raise ValueError(f"unknown option {hidden[0]}")
        options = resolve_options(ruleset, raw_options)
    except ValueError as exc:
        raise ServiceError("bad_option", _("Invalid option: %(detail)s") % {"detail": exc}) from None
    with transaction.atomic():
        locked = _lobby_room(room)
        # A lesson teaches the game it was started for: another game ends it.
        lesson = locked.lesson if locked.lesson and locked.lesson["ruleset"] == slug else None
        Room.objects.filter(pk=room.pk).update(ruleset=slug, options=options, lesson=lesson)
        changed(room)
    room.ruleset, room.options = slug, options


# --- "How to play" (the lesson the TV shows before a first game; Room.lesson) ----------------

def lesson_start(room: Room) -> None:
    """The host starts "How to play" the room's ruleset, at its first slide (not during a game)."""
    with transaction.atomic():
        locked = _lobby_room(room)
        Room.objects.filter(pk=room.pk).update(lesson={"ruleset": locked.ruleset, "slide": 0})
        changed(room)


def lesson_step(room: Room, slide: int, step: int) -> None:
    """The host's Next (``step`` 1) or Back (-1) from ``slide``, the slide his screen shows: a
    screen that is behind (a second tap on Next) is refreshed, not moved twice."""
    with transaction.atomic():
        locked = _lobby_room(room)
        lesson = _running_lesson(locked)
        if slide != lesson["slide"]:
            raise StaleVersion("stale", _("Your screen was out of date; it has been refreshed."))
        to = slide + step
        if step not in (-1, 1) or not 0 <= to < len(lesson_slides(lesson["ruleset"], locked.options)):
            raise Conflict("lesson_bounds", _("There is no slide that way."))
        Room.objects.filter(pk=room.pk).update(lesson={**lesson, "slide": to})
        changed(room)


def lesson_end(room: Room) -> None:
    """The host skips or finishes "How to play": every screen is back in the lobby."""
    with transaction.atomic():
        _running_lesson(Room.objects.select_for_update().get(pk=room.pk))
        Room.objects.filter(pk=room.pk).update(lesson=None)
        changed(room)


def _running_lesson(room: Room) -> dict:
    if room.lesson is None:
        raise Conflict("no_lesson", _("“How to play” is not running."))
    return room.lesson


def set_presence(changes: dict[int, int]) -> None:
    """Mark players online (+1) or offline (-1) for one process (presence.py); the TV shows a
    player as connected while any process marks them.  One version per room for them all."""
    with transaction.atomic():
        players = list(Player.objects.filter(pk__in=changes).select_related("room"))
        for player in players:
            Player.objects.filter(pk=player.pk).update(connections=F("connections") + changes[player.pk])
        for room in {player.room for player in players}:   # a player gone meanwhile: nothing
            changed(room)


# --- games ------------------------------------------------------------------------------------

def start_game(room: Room, seed: int | None = None, deal: dict | None = None) -> Game:
    """Deal a new game to the room's players in their seating order."""
    with transaction.atomic():
        room = _lobby_room(room)
        ruleset = registry.get(room.ruleset)
        players = list(room.players.all())
        if len(players) < ruleset.min_players:
            raise ServiceError(
                "player_count",
                _("%(title)s needs %(min)d to %(max)d players; %(n)d joined.")
                % {"title": ruleset_title(room.ruleset), "min": ruleset.min_players, "max": ruleset.max_players,
                   "n": len(players)},
            )
        # Beyond the ruleset's maximum the last in the seating order watch: they are the
        # audience of this game (issue 16), and the host's order decides who plays.
        players = players[:ruleset.max_players]
        bots = [seat for seat, player in enumerate(players) if player.bot]
        if bots and ruleset.bot is None:   # the host switched to a game without bots meanwhile
            raise ServiceError("no_bots", _("%(title)s has no bot players: remove the bots first.")
                               % {"title": ruleset_title(room.ruleset)})
        # Moments are how the app paces a game, not a host's choice (engines/moments.py).
        options = {**resolve_options(ruleset, room.options), MOMENTS.key: settings.MOMENTS}
        # The next game ends the last one's story: it stands where it was, and is not paced on.
        room.games.finished().exclude(story_moved=None).update(story_moved=None)
        seed = secrets.randbits(62) if seed is None else seed
        state, events = ruleset.setup(len(players), options, seed, deal)
        game = Game.objects.create(
            room=room, ruleset=ruleset.slug, options=options, seed=seed, deal=deal,
            seats=[p.pk for p in players], names=[p.name for p in players], bots=bots, state=state,
            clock_started=clock_started(None, state, None),
        )
        _append(game, 0, events)
        game.save(update_fields=["next_seq"])
        Room.objects.filter(pk=room.pk).update(lesson=None)   # the game starts: the lesson is over
        changed(room)
        notify.game_changed(game)   # the first step may be timed
    return game


def abandon_game(room: Room) -> None:
    with transaction.atomic():
        updated = room.games.running().update(status=Game.Status.ABANDONED, finished=timezone.now())
        if not updated:
            raise ServiceError("no_game", _("No game is running."))
        changed(room)


def submit(game_id: int, seat: int | None, action: dict, *, expected_turn: int | None = None,
           expected_version: int | None = None) -> Game:
    """Apply one action to a game: the only code that changes a game's state.

    In one transaction: lock the game, check it is running and the caller's screen is
    current, run the pure engine, append the action and its events, save the snapshot,
    bump the version; after commit, ping the room.  ``expected_turn`` is what a phone's
    form carries (votes of different phones in the same turn do not collide);
    ``expected_version`` is exact and is what timers use, so they can never fire twice.
    """
    with transaction.atomic():
        game = _running_game_by_id(game_id)
        return _apply(game, seat, action, expected_turn, expected_version)


def submit_for_player(room: Room, player_id: int, action: dict, *, expected_turn: int | None) -> Game:
    """A phone's action: ``submit`` for the seat this player holds in the room's running game."""
    with transaction.atomic():
        game = _running_game_of(room)
        seat = game.seat_of(player_id)
        if seat is None:
            raise Forbidden("not_seated", _("You are not playing in this game."))
        game.room = room
        return _apply(game, seat, action, expected_turn, None)


def host_move(room: Room, move_type: str, *, expected_turn: int | None) -> Game:
    """A host's button during a game (end the discussion, …): one of the moves the engine offers
    the host now (``host_moves``), made as the host (actor ``HOST``)."""
    with transaction.atomic():
        game = _running_game_of(room)
        offered = registry.get(game.ruleset).host_moves(game.state)
        move = next((move for move in offered if move["type"] == move_type), None)
        if move is None:
            raise StaleVersion("stale", _("Your screen was out of date; it has been refreshed."))
        game.room = room
        return _apply(game, HOST, move, expected_turn, None)


def clock_move(game_id: int, version: int, move: dict) -> Game:
    """The game master's timed move (timers.py): ``submit`` at exactly ``version``, made only
    once the clock is due.  A timer armed before a pause and resume would fire early; it is
    refused with ``NotDue`` (the game as it is, to arm again) and changes nothing."""
    with transaction.atomic():
        game = _running_game_by_id(game_id)
        if game.paused_at is None and game.version == version:
            left = due_in(game_dict(game))
            if left is None or left > 0:
                raise NotDue(game)
        return _apply(game, GAME_MASTER, move, None, version)


def host_for_seat(room: Room, action: dict, *, expected_turn: int | None) -> Game:
    """The host acts for a seat (engines/base.py): ``{"type": "proxy", "seat", "action"}`` or
    ``{"type": "remove_player", "seat"}``, made as the host (actor ``HOST``); the engine decides what
    its rulebook allows.

    A proxy only while that player has no screen open (``Player.connections == 0``): a player
    who is there makes his own choices, and the host must not make them for him on the TV.
    A removal is not tied to that: the rulebook's removal is of a cheat caught at the table
    (classic rules B.2.3), whose phone is very much connected."""
    with transaction.atomic():
        game = _running_game_of(room)
        seat = action.get("seat")
        if type(seat) is not int or not 0 <= seat < len(game.seats):
            raise ServiceError("unknown_player", _("No such player in this game."))
        if action.get("type") == PROXY and seat in game.bots:
            raise Conflict("bot", _("%(name)s is a bot and plays by itself.") % {"name": game.names[seat]})
        if action.get("type") == PROXY and Player.objects.filter(pk=game.seats[seat], connections__gt=0).exists():
            raise Conflict("connected", _("%(name)s is connected and chooses for themselves.")
                           % {"name": game.names[seat]})
        game.room = room
        return _apply(game, HOST, action, expected_turn, None)


# --- the audience (issue 16): a player of the room without a seat in its running game ----------

def suspect(room: Room, player_id: int, poll: str, seat: int) -> int:
    """An audience phone's answer to the day's "who do you suspect?": kept beside the game, never
    a move (the engine's state is untouched).  One answer per phone per poll; answering again
    replaces it.  The room's new version (the phone shows its answer)."""
    with transaction.atomic():
        game = _running_game_of(room)
        if not Player.objects.filter(pk=player_id, room=room).exists():
            raise Forbidden("not_in_room", _("You are not in this room. Join again."))
        if game.seat_of(player_id) is not None:
            raise Forbidden("seated", _("You are playing in this game: the poll is for the audience."))
        open_now = audience_poll(game.ruleset, registry.get(game.ruleset).view(game.state, None))
        if open_now is None or open_now["key"] != poll:
            raise Conflict("no_poll", _("The poll is closed now."))
        if seat not in open_now["seats"]:
            raise ServiceError("bad_suspect", _("Pick a player still in the game."))
        # One answer per person: per phone (its seat's cookie) and per address it joined from, so
        # ten names joined from one phone count once (Player.address).
        address = Player.objects.filter(pk=player_id).values_list("address", flat=True).first()
        if address and Suspicion.objects.filter(game=game, poll=poll, player__address=address).exclude(
                player_id=player_id).exists():
            raise Conflict("answered", _("Someone on this network has answered this poll already."))
        Suspicion.objects.update_or_create(game=game, player_id=player_id, poll=poll, defaults={"seat": seat})
        return changed(room)


# --- the story told at a finished game's end (story.py) ------------------------------------------

STORY_COMMANDS = ("back", "next", "all")


def story_move(room: Room, command: str, *, expected_step: int) -> Game:
    """The host's Back, Next or All on the story of the room's finished game.  Next goes one
    step on and the story paces itself on from there; Back goes one step back and waits there
    (the host went back to dwell on it: the story must not run away from the table); All shows
    every step at once and stops the pace.  ``expected_step`` is the step the host's screen showed: a press made on an
    older screen (the story moved on meanwhile) is refused as stale and changes nothing."""
    if command not in STORY_COMMANDS:
        raise ServiceError("bad_command", _("Unknown command."))
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(room_id=room.pk).order_by("-id").first()
        if game is None or game.status != Game.Status.FINISHED:
            raise Conflict("no_story", _("There is no finished game to tell the story of."))
        if expected_step != game.story_step:
            raise StaleVersion("stale", _("Your screen was out of date; it has been refreshed."))
        last = _last_step(game)
        if command == "all":
            if game.story_all:
                raise Conflict("story_all", _("The whole story is shown already."))
            return _tell(room, game, last, last, told_all=True, paced=False)
        step = game.story_step + (1 if command == "next" else -1)
        if step < 0:
            raise Conflict("story_start", _("This is the first step of the story."))
        if step > last:
            raise Conflict("story_end", _("This is the last step of the story."))
        return _tell(room, game, step, last, paced=command == "next")


def story_tick(game_id: int, step: int) -> Game:
    """The story's pace (timers.py): the next step, once the one shown (``step``) has held the
    stage its time.  Refused (``Conflict``) if the story moved meanwhile (the host, another
    process) or stands; ``NotDue`` if it is too early (a timer armed before the host moved it)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().select_related("room").filter(pk=game_id).first()
        if game is None or game.story_moved is None or game.story_step != step:
            raise Conflict("story_moved", "The story has moved on.")
        left = story.due_in(game_dict(game))
        if left is None or left > 0:
            raise NotDue(game)
        last = _last_step(game)
        return _tell(game.room, game, min(step + 1, last), last)


def _last_step(game: Game) -> int:
    return len(story.steps(game_dict(game), story.events_of(game.pk))) - 1


def _tell(room: Room, game: Game, step: int, last: int, *, told_all: bool = False, paced: bool = True) -> Game:
    """Show ``step`` of the story on every screen; if ``paced``, it goes on by itself from
    there until its ``last`` step."""
    game.story_step, game.story_all = step, told_all
    game.story_moved = timezone.now() if paced and step < last else None
    db.update(game, ["story_step", "story_all", "story_moved"])
    game.room = room
    game.room_version = changed(room, game)
    notify.game_changed(game)   # the scheduler paces the next step (timers.py)
    return game


# --- pause (an operational step of the host, not a rule: no engine action) ------------------

def pause_game(room: Room) -> Game:
    """The host pauses the running game: every move is refused (taps, the host's and the game
    master's timed ones) and the clock stands still until ``resume_game``."""
    with transaction.atomic():
        game = _running_game_of(room)
        if game.paused_at is not None:
            raise Conflict("paused", _("The game is paused."))
        game.paused_at = timezone.now()
        return _log_pause(room, game, "game_paused")


def resume_game(room: Room) -> Game:
    """The host resumes a paused game: the clock goes on with the time it had left when paused
    (its start moves on by the pause's length; kept in the database, so also after a restart)."""
    with transaction.atomic():
        game = _running_game_of(room)
        if game.paused_at is None:
            raise Conflict("not_paused", _("The game is not paused."))
        if game.clock_started is not None:
            game.clock_started += timezone.now() - game.paused_at
        game.paused_at = None
        return _log_pause(room, game, "game_resumed")


def _log_pause(room: Room, game: Game, kind: str) -> Game:
    """Save a pause or resume and log it: an event of the log (public: everyone sees the game
    stop), at the game's version — no action was applied, so a replay is unchanged."""
    _append(game, game.version, [EngineEvent(kind, {}, PUBLIC)])
    db.update(game, ["paused_at", "clock_started", "next_seq"])
    game.room = room
    game.room_version = changed(room, game)
    notify.game_changed(game)   # paused or resumed: a resumed clock is armed anew
    return game


def _running_game_of(room: Room) -> Game:
    """Inside a transaction: the room's running game, its row locked (``db.running_game_locked``)."""
    game = db.running_game_locked(room.pk)
    if game is None:
        raise Conflict("no_game", _("No game is running."))
    return game


def _running_game_by_id(game_id: int) -> Game:
    """Inside a transaction: the game ``game_id``, its row locked, provided it still runs."""
    game = Game.objects.select_for_update().select_related("room").filter(pk=game_id).first()
    if game is None or game.status != Game.Status.RUNNING:
        raise Conflict("game_over", _("This game is over."))
    return game


def _apply(game: Game, seat: Actor, action: dict, expected_turn: int | None,
           expected_version: int | None) -> Game:
    """Inside the transaction, with the game row locked: the shared body of both submits."""
    if game.paused_at is not None:   # the host paused the game: nobody moves, not even the clock
        raise Conflict("paused", _("The game is paused."))
    if expected_version is not None and expected_version != game.version:
        raise StaleVersion("stale", _("Your screen was out of date; it has been refreshed."))
    if expected_turn is not None and expected_turn != game.state.get("turn"):
        raise StaleVersion("stale", _("Your screen was out of date; it has been refreshed."))
    ruleset = registry.get(game.ruleset)
    state, events = ruleset.apply(game.state, seat, action)  # raises EngineError: nothing written
    version = game.version + 1
    _append(game, version, [_action_event(seat, action), *events])
    game.clock_started = clock_started(game.state, state, game.clock_started)
    game.state, game.version = state, version
    outcome = ruleset.outcome(state)
    if outcome is not None:   # over: its story is told from its first step on (story.py)
        game.status, game.outcome, game.finished = Game.Status.FINISHED, outcome.to_json(), timezone.now()
        game.story_step, game.story_all, game.story_moved = 0, False, game.finished
    db.update(game, ["state", "version", "next_seq", "status", "outcome", "finished", "clock_started",
                     "story_step", "story_all", "story_moved"])
    game.room_version = changed(game.room, game)
    notify.game_changed(game)   # a move may start a clock (a window to close, the next step's timer)
    return game


def clock_started(before: dict | None, after: dict, started):
    """When the engine's clock in ``after`` started: now if it is a new clock (another id),
    ``started`` if it is the same one, None if there is none (engines/base.py, "clock")."""
    clock, previous = after.get("clock"), (before or {}).get("clock")
    if clock is None:
        return None
    if previous is not None and previous["id"] == clock["id"] and started is not None:
        return started
    return timezone.now()


def _action_event(actor: Actor, action: dict) -> EngineEvent:
    # The action itself may be secret (a vote, a card); what it made public is in the engine's events.
    return EngineEvent("action", replay.logged(actor, action), NOBODY)


def _append(game: Game, version: int, events) -> None:
    """Add events to the log; the caller saves ``game.next_seq`` in the same transaction."""
    seq, now = game.next_seq, timezone.now()
    db.insert(Event, [{"game": game.pk, "seq": seq + i, "version": version, "kind": e.kind, "audience": e.audience,
                     "data": e.data, "created": now} for i, e in enumerate(events)])
    game.next_seq = seq + len(events)


__all__ = [
    "Conflict", "EngineError", "IllegalAction", "ServiceError", "StaleVersion", "abandon_game", "add_bot", "answer_claim",
    "answer_host_offer", "offer_host", "take_host_back",
    "ask_for_seat", "clean_name", "clock_move", "collect_seat", "configure", "create_room", "host_for_seat",
    "host_move", "join_room", "kick", "lesson_end", "lesson_start", "lesson_step", "move_player", "name_key", "pause_game", "resume_game", "seat_cap", "set_locked",
    "set_presence", "start_game", "story_move", "story_tick", "submit", "submit_for_player", "suspect",
]
