"""Rooms, players, games and their append-only event logs (docs/design.md §4)."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from engines import registry

# No 0/O, 1/I/L, 5/S, 2/Z, 8/B, U/V: a code read off a TV across the room is typed right.
ROOM_CODE_ALPHABET = "ACDEFGHJKMNPQRTWXY"
ROOM_CODE_LENGTH = 4
NAME_MAX_LENGTH = 24
# The host code opens the host controls on another device (views.host_login): 18^8 ≈ 1.1e10
# codes, tried at most a few times a minute (limits.py), in two groups to be typed off a screen.
HOST_CODE_LENGTH = 8


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_host_code() -> str:
    return "".join(secrets.choice(ROOM_CODE_ALPHABET) for _ in range(HOST_CODE_LENGTH))


class Room(models.Model):
    """One game night: a TV, the players who joined, and the games they play."""

    code = models.CharField(verbose_name=_("code"), max_length=ROOM_CODE_LENGTH, unique=True)
    # Single-use: it changes whenever it is used and at every handover (services.use_host_code),
    # so a code glimpsed on the TV is dead once the host has used it.
    host_code = models.CharField(verbose_name=_("host code"), max_length=HOST_CODE_LENGTH, default=new_host_code)
    # Locked by the host: nobody new may join (a claimed seat may still be given back).
    locked = models.BooleanField(verbose_name=_("locked"), default=False)
    language = models.CharField(verbose_name=_("language"), max_length=8, default="en")
    ruleset = models.CharField(verbose_name=_("ruleset"), max_length=32, default="mafie")
    options = models.JSONField(verbose_name=_("options"), default=dict, blank=True)
    # Host from a phone (services.offer_host): the player the host offered the controls to, until
    # that phone accepts or declines; once accepted, the player whose phone hosts.  Each accepted
    # handover revokes every host device (HostDevice) and counts ``host_generation``: a TV that
    # hosted loses its controls live (consumers.TvConsumer), its cookie no longer works.
    host_offer = models.ForeignKey("Player", verbose_name=_("host offered to"), null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+", editable=False)
    host_player = models.ForeignKey("Player", verbose_name=_("hosting phone"), null=True, blank=True,
                                    on_delete=models.SET_NULL, related_name="+", editable=False)
    host_generation = models.PositiveIntegerField(verbose_name=_("host handovers"), default=0, editable=False)
    # "How to play" on every screen while the host shows it (services.lesson_*): {"ruleset": slug,
    # "slide": index}, else None.  Kept here, so a refresh or a restart shows the same slide.
    lesson = models.JSONField(verbose_name=_("how to play"), null=True, blank=True, default=None)
    # Grows with every change anyone could see (lobby, presence, game): the key of every cached screen.
    version = models.PositiveIntegerField(verbose_name=_("version"), default=0)
    created = models.DateTimeField(verbose_name=_("created"), auto_now_add=True)

    class Meta:
        verbose_name, verbose_name_plural = _("room"), _("rooms")
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.code

    @property
    def group_name(self) -> str:
        return f"room.{self.code}"

    @property
    def host_code_display(self) -> str:
        half = len(self.host_code) // 2
        return f"{self.host_code[:half]}-{self.host_code[half:]}"

    def current_game(self) -> Game | None:
        return self.games.order_by("-id").first()


class Player(models.Model):
    """A phone that joined a room; its seat survives reloads through a signed token."""

    room = models.ForeignKey(Room, verbose_name=_("room"), on_delete=models.CASCADE, related_name="players")
    name = models.CharField(verbose_name=_("name"), max_length=NAME_MAX_LENGTH)
    name_key = models.CharField(verbose_name=_("name for comparison"), max_length=NAME_MAX_LENGTH, editable=False)
    token = models.CharField(verbose_name=_("token"), max_length=64, default=new_token, editable=False)
    order = models.PositiveIntegerField(verbose_name=_("order"), default=0)
    # The server processes that show this player's phone online (presence.py: one mark per
    # process, whatever its number of sockets there, and gone a grace after the last closed).
    connections = models.IntegerField(verbose_name=_("open screens"), default=0)
    # How many times the host gave this seat to another phone: a phone whose count is older holds
    # a dead token, and its open screen is told so (consumers.PhoneConsumer).
    handovers = models.PositiveIntegerField(verbose_name=_("seat handovers"), default=0, editable=False)
    # The language of this phone (settings.LANGUAGES): the browser's on joining, changed on the
    # join page or the phone's menu (services.set_phone_language); "" for the room's.
    language = models.CharField(verbose_name=_("language"), max_length=8, blank=True, default="")
    # A seat the host filled with a bot (services.add_bot): no phone, ever.  It plays its seat's
    # moves itself (the ruleset's ``bot``, timers.py), is never shown as a lost phone or
    # proxied by the host, and no phone can hold or claim its seat (seating.seated_player).
    bot = models.BooleanField(verbose_name=_("bot"), default=False, editable=False)
    # The client address it joined from (clients.py; None for the host's own machine and bots):
    # the audience's poll counts one answer per address, not per name joined (services.suspect).
    address = models.GenericIPAddressField(verbose_name=_("address"), null=True, blank=True, editable=False)
    joined = models.DateTimeField(verbose_name=_("joined"), auto_now_add=True)

    class Meta:
        verbose_name, verbose_name_plural = _("player"), _("players")
        ordering = ["order", "id"]
        constraints = [
            models.UniqueConstraint(fields=["room", "name_key"], name="unique_player_name_in_room"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def connected(self) -> bool:
        """At the table: a phone with a screen open, or a bot (which needs none)."""
        return self.bot or self.connections > 0


CLAIM_WAIT = timedelta(minutes=10)   # an unanswered request for a seat (or to host) lapses


def unlapsed() -> dict:
    """The filter of requests made recently enough to still wait for an answer (CLAIM_WAIT)."""
    return {"created__gte": timezone.now() - CLAIM_WAIT}


class HostDeviceQuerySet(models.QuerySet):
    def hosting(self, room_id: int):
        return self.filter(room_id=room_id, status=HostDevice.Status.HOSTING)

    def asking(self, room_id: int):
        """The room's devices asking to host that no host has answered, but those that lapsed."""
        return self.filter(room_id=room_id, status=HostDevice.Status.ASKING, **unlapsed())


class HostDevice(models.Model):
    """A browser with the host controls (the TV, a laptop), or one asking for them.

    Each has its own secret, held in that browser's signed cookie (seating.host_token): a host
    can see every device that hosts and revoke any other, which ends its controls at once.  A new
    device asks with the host code; while a host screen is online, a host must allow it
    (services.use_host_code)."""

    class Status(models.TextChoices):
        ASKING = "asking", _("asking to host")
        HOSTING = "hosting", _("hosting")
        REFUSED = "refused", _("refused")
        REVOKED = "revoked", _("revoked")

    room = models.ForeignKey(Room, verbose_name=_("room"), on_delete=models.CASCADE, related_name="host_devices")
    token = models.CharField(verbose_name=_("token"), max_length=64, default=new_token, editable=False)
    # "Device 2": the room's devices counted in the order they came, the name the TV lists.
    number = models.PositiveIntegerField(verbose_name=_("number"), default=1)
    status = models.CharField(verbose_name=_("status"), max_length=16, choices=Status, default=Status.HOSTING)
    # Open host screens of this device (consumers.TvConsumer): a host online must approve a new one.
    connections = models.IntegerField(verbose_name=_("open screens"), default=0)
    # The client address that asked (clients.py): one waiting request per address.
    address = models.GenericIPAddressField(verbose_name=_("address"), null=True, blank=True, editable=False)
    created = models.DateTimeField(verbose_name=_("created"), auto_now_add=True)

    objects = HostDeviceQuerySet.as_manager()

    class Meta:
        verbose_name, verbose_name_plural = _("host device"), _("host devices")
        ordering = ["room", "number"]

    def __str__(self) -> str:
        return f"{self.room_id and self.room.code} #{self.number} ({self.status})"


class ClaimQuerySet(models.QuerySet):
    def waiting(self, room_id: int):
        """The room's requests the host has not answered, but those that lapsed."""
        return self.filter(room_id=room_id, status=Claim.Status.PENDING, **unlapsed())

    def waiting_from(self, address: str):
        """The requests from ``address`` the host has not answered, in any room."""
        return self.filter(address=address, status=Claim.Status.PENDING, **unlapsed())


class Claim(models.Model):
    """A new phone asking for a seat ("I was Ann"): the host lets it in or refuses (services.py).

    The asking browser holds ``secret`` in a signed cookie; a seat changes hands only when the
    host approves and that browser comes back for it.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for the host")
        APPROVED = "approved", _("let in")
        REFUSED = "refused", _("refused")
        TAKEN = "taken", _("seat taken over")

    room = models.ForeignKey(Room, verbose_name=_("room"), on_delete=models.CASCADE, related_name="claims")
    player = models.ForeignKey(Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="claims")
    secret = models.CharField(verbose_name=_("secret"), max_length=64, default=new_token, editable=False)
    status = models.CharField(verbose_name=_("status"), max_length=16, choices=Status, default=Status.PENDING)
    # Who asked (clients.py): one waiting request per address, whatever the room.
    address = models.GenericIPAddressField(verbose_name=_("address"), null=True, blank=True, editable=False)
    created = models.DateTimeField(verbose_name=_("created"), auto_now_add=True)

    objects = ClaimQuerySet.as_manager()

    class Meta:
        verbose_name, verbose_name_plural = _("seat claim"), _("seat claims")
        ordering = ["created", "id"]

    def __str__(self) -> str:
        return f"{self.player} ({self.status})"


class GameQuerySet(models.QuerySet):
    def running(self):
        return self.filter(status=Game.Status.RUNNING)

    def finished(self):
        return self.filter(status=Game.Status.FINISHED)

    def scored(self, room_id: int, *, roles: bool = False) -> list[dict]:
        """A room's finished games as the scoreboard reads them (mafiagames/scoreboard.py), in
        the order they were played: one query.  Only finished games: their outcome and roles
        are public (a running game's roles are secret).  ``roles`` also reads each game's role
        per seat off its final state (the engine's ``roles``), for statistics by role; the TV's
        scoreboard does without, and so without loading the states."""
        fields = ["ruleset", "options", "seats", "names", "status", "outcome"]
        rows = self.finished().filter(room_id=room_id).order_by("id")
        if not roles:
            return [{**row, "roles": None} for row in rows.values(*fields)]
        games = []
        for row in rows.values(*fields, "state"):
            state = row.pop("state")
            try:
                ruleset = registry.get(row["ruleset"])
            except KeyError:   # a ruleset no longer hosted here: its games count, by role not
                ruleset = None
            row["roles"] = ruleset.roles(state) if ruleset else None
            games.append(row)
        return games


class Game(models.Model):
    """One game in a room: the ruleset, its options and seed, and the latest snapshot."""

    class Status(models.TextChoices):
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")
        ABANDONED = "abandoned", _("abandoned")

    room = models.ForeignKey(Room, verbose_name=_("room"), on_delete=models.CASCADE, related_name="games")
    ruleset = models.CharField(verbose_name=_("ruleset"), max_length=32)
    options = models.JSONField(verbose_name=_("options"), default=dict)
    seed = models.BigIntegerField(verbose_name=_("seed"), )
    deal = models.JSONField(verbose_name=_("deal"), null=True, blank=True)
    seats = models.JSONField(verbose_name=_("seats"), default=list)  # player ids in seat order
    names = models.JSONField(verbose_name=_("names"), default=list)  # names as they were when the game started
    # The seats bots play (Player.bot as the game started): the game master plays their moves
    # (timers.py), in every process and after a restart.
    bots = models.JSONField(verbose_name=_("bot seats"), default=list, blank=True)
    state = models.JSONField(verbose_name=_("state"), )
    version = models.PositiveIntegerField(verbose_name=_("version"), default=0)
    # seq of the next Event
    next_seq = models.PositiveIntegerField(verbose_name=_("next event number"), default=0, editable=False)
    status = models.CharField(verbose_name=_("status"), max_length=16, choices=Status, default=Status.RUNNING)
    outcome = models.JSONField(verbose_name=_("outcome"), null=True, blank=True)
    started = models.DateTimeField(verbose_name=_("started"), auto_now_add=True)
    finished = models.DateTimeField(verbose_name=_("finished"), null=True, blank=True)
    # When the engine's current clock (state["clock"]) started: the game master's timed move is
    # due ``seconds`` after this, in every process and after a restart (timers.py).
    clock_started = models.DateTimeField(verbose_name=_("clock started"), null=True, blank=True, editable=False)
    # Set while the host has paused the game (services.pause_game): no move is made and the
    # clock stands still; resuming moves ``clock_started`` on by the pause's length.
    paused_at = models.DateTimeField(verbose_name=_("paused"), null=True, blank=True, editable=False)
    # The story told at a finished game's end (mafiagames/story.py): the step every screen shows,
    # whether the host showed it all at once, and when it last moved while it still moves on by
    # itself (None once it stands: told to the end, shown all, or the next game began).  In the
    # database, so every process and a restarted one show the same step and go on from it.
    story_step = models.PositiveIntegerField(verbose_name=_("story step"), default=0, editable=False)
    story_all = models.BooleanField(verbose_name=_("story shown whole"), default=False, editable=False)
    story_moved = models.DateTimeField(verbose_name=_("story moved"), null=True, blank=True, editable=False)

    objects = GameQuerySet.as_manager()

    class Meta:
        verbose_name, verbose_name_plural = _("game"), _("games")
        ordering = ["-started"]

    def __str__(self) -> str:
        return f"{self.ruleset} #{self.pk} in {self.room_id and self.room.code}"

    def seat_of(self, player_id: int) -> int | None:
        try:
            return self.seats.index(player_id)
        except ValueError:
            return None


class Suspicion(models.Model):
    """One audience phone's answer to a day's "who do you suspect?" poll (services.suspect).

    Not a move: the engine never sees it.  One row per (game, player, poll): answering again
    changes the row, so a phone counts once per poll.  The TV shows the totals only once the
    game is finished."""

    game = models.ForeignKey(Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="suspicions")
    player = models.ForeignKey(Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="suspicions")
    poll = models.CharField(verbose_name=_("poll"), max_length=32,
                            help_text=_("the day it was asked on"))
    seat = models.PositiveSmallIntegerField(verbose_name=_("seat"), )
    updated = models.DateTimeField(verbose_name=_("updated"), auto_now=True)

    class Meta:
        verbose_name, verbose_name_plural = _("audience suspicion"), _("audience suspicions")
        ordering = ["game", "poll", "player"]
        constraints = [models.UniqueConstraint(fields=["game", "player", "poll"], name="one_suspicion_per_poll")]

    def __str__(self) -> str:
        return f"{self.player} suspects seat {self.seat} ({self.poll})"


class Event(models.Model):
    """One entry of a game's append-only log, with who may see it."""

    game = models.ForeignKey(Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField(verbose_name=_("number"), )
    version = models.PositiveIntegerField(verbose_name=_("version"),
                                          help_text=_("number of actions applied when it happened"))
    kind = models.CharField(verbose_name=_("kind"), max_length=48)
    audience = models.JSONField(verbose_name=_("who may see it"), help_text=_('"public", "nobody" or a list of seats'))
    data = models.JSONField(verbose_name=_("data"), default=dict)
    created = models.DateTimeField(verbose_name=_("created"), auto_now_add=True)

    class Meta:
        verbose_name, verbose_name_plural = _("event"), _("events")
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="unique_event_seq")]

    def __str__(self) -> str:
        return f"{self.seq} {self.kind}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError("events are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("events are append-only")


def game_dict(game: Game) -> dict:
    """A game as the screens, the fan-out and the game master's clock read it: plain values
    (times as seconds since the epoch), the same in every process."""
    return {"id": game.pk, "ruleset": game.ruleset, "options": game.options, "state": game.state, "version": game.version,
            "names": game.names, "seats": game.seats, "bots": game.bots, "status": game.status,
            "clock_started": game.clock_started.timestamp() if game.clock_started else None,
            "paused_at": game.paused_at.timestamp() if game.paused_at else None,
            "story": {"step": game.story_step, "all": game.story_all,
                      "moved": game.story_moved.timestamp() if game.story_moved else None}}
