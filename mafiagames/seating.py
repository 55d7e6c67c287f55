"""Who is this browser? Signed per-room tokens for players and for the host (docs/design.md §4).

A player token names the room, the player and the player's secret; it is signed with
SECRET_KEY, so a forged or altered cookie is simply not a seat.  The same functions
serve HTTP views (request cookies) and websockets (cookies from the handshake).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core import signing
from django.http import parse_cookie

from .models import Claim, HostDevice, Player, Room

PLAYER_SALT = "mafiagames.player"
HOST_SALT = "mafiagames.host"
CLAIM_SALT = "mafiagames.claim"


def player_cookie_name(code: str) -> str:
    return f"mg_p_{code}"


def host_cookie_name(code: str) -> str:
    return f"mg_h_{code}"


def claim_cookie_name(code: str) -> str:
    return f"mg_c_{code}"


def claim_token(claim: Claim) -> str:
    """What a phone asking for a seat holds until the host answers (services.collect_seat)."""
    return signing.dumps({"r": claim.room.code, "c": claim.pk, "s": claim.secret}, salt=CLAIM_SALT)


def claim_from_cookies(code: str, cookies: dict[str, str]) -> tuple[int, str] | None:
    """The request id and secret this browser holds for room ``code``, or None."""
    data = _load(cookies.get(claim_cookie_name(code)), CLAIM_SALT)
    if not data or data.get("r") != code or not isinstance(data.get("c"), int):
        return None
    return data["c"], str(data.get("s"))


def player_token(player: Player) -> str:
    return signing.dumps({"r": player.room.code, "p": player.pk, "t": player.token}, salt=PLAYER_SALT)


def host_token(device: HostDevice) -> str:
    """What a host device holds (HostDevice): its room, its number and its own secret."""
    return signing.dumps({"r": device.room.code, "d": device.pk, "t": device.token}, salt=HOST_SALT)


def _load(value: str | None, salt: str) -> dict | None:
    if not value:
        return None
    try:
        data = signing.loads(value, salt=salt, max_age=settings.PLAYER_COOKIE_MAX_AGE)
    except signing.BadSignature:
        return None
    return data if isinstance(data, dict) else None


def player_from_cookies(room: Room, cookies: dict[str, str]) -> Player | None:
    """The room's player this browser holds a valid token for, or None."""
    return seated_player(room.code, cookies)


def signed_seat(code: str, cookies: dict[str, str]) -> tuple[int, str] | None:
    """The player id and token of room ``code`` this browser holds a signed cookie for, or None;
    without the database (the seat may have gone since)."""
    data = _load(cookies.get(player_cookie_name(code)), PLAYER_SALT)
    if not data or data.get("r") != code or not isinstance(data.get("p"), int):
        return None
    return data["p"], str(data.get("t"))


def seated_player(code: str, cookies: dict[str, str]) -> Player | None:
    """The player (with its room) of room ``code`` that this browser holds a valid token for.

    One query: it serves every tap of every phone.
    """
    seat = signed_seat(code, cookies)
    if seat is None:
        return None
    player_id, token = seat
    # Never a bot's seat: it has no token, and no phone may play it (services.add_bot).
    return Player.objects.select_related("room").filter(
        room__code=code, pk=player_id, token=token, bot=False).first()


def host_device(room: Room, cookies: dict[str, str], *statuses: str) -> HostDevice | None:
    """The room's host device whose cookie this browser holds, if its status is one of
    ``statuses`` (hosting, unless told otherwise); else None.  A revoked device, a refused one,
    and every device after a handover to a phone hold dead cookies."""
    data = _load(cookies.get(host_cookie_name(room.code)), HOST_SALT)
    if not data or data.get("r") != room.code or not isinstance(data.get("d"), int):
        return None
    return HostDevice.objects.filter(room=room, pk=data["d"], token=str(data.get("t")),
                                     status__in=statuses or [HostDevice.Status.HOSTING]).first()


def holds_host_cookie(room: Room, cookies: dict[str, str]) -> bool:
    """Whether this browser is one of the room's host devices: the TV's (or another device's,
    let in through the host code)."""
    return host_device(room, cookies) is not None


def is_host(room: Room, cookies: dict[str, str]) -> bool:
    """Whether this browser may use the host's controls: it holds the host cookie, or it is the
    phone the controls were handed to (``Room.host_player``, with that seat's valid token)."""
    if holds_host_cookie(room, cookies):
        return True
    if room.host_player_id is None:
        return False
    player = seated_player(room.code, cookies)
    return player is not None and player.pk == room.host_player_id


def scope_cookies(scope: dict) -> dict[str, str]:
    """Cookies sent with a websocket handshake."""
    for name, value in scope.get("headers", []):
        if name == b"cookie":
            return parse_cookie(value.decode("latin-1"))
    return {}


def set_cookie(response, name: str, value: str) -> None:
    response.set_cookie(name, value, max_age=settings.PLAYER_COOKIE_MAX_AGE, httponly=True, samesite="Lax")


def host_code_matches(room: Room, typed: str) -> bool:
    """Whether ``typed`` is the room's host code, however it was spaced, dashed or cased."""
    code = "".join(ch for ch in str(typed).upper() if ch.isalnum())[:64]
    return secrets.compare_digest(code.encode(), room.host_code.encode())
