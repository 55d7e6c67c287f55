"""HTTP views: find the room and the caller, parse the form, call a service, answer.

Errors a person can fix come back as a message (HTTP 400/409) that the page shows in
#flash; nothing changes.  Screens update through the websocket after a successful post.
"""

from __future__ import annotations

import functools
import json

from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from engines import registry
from engines.base import PROXY, REMOVE_PLAYER, EngineError

from . import addresses, clients, db, languages, limits, rendering, seating, services, taps
from .models import ROOM_CODE_LENGTH, HostDevice, Room
from .tables import load_table


def _room(request: HttpRequest, code: str) -> Room:
    """The room named in the URL; 404 for an unknown one, 429 for a client that tries many."""
    room = limits.find_room(code, _client(request))
    if room is None:
        raise Http404("no such room")
    return room


def _client(request: HttpRequest) -> clients.Client:
    return clients.of_request(request)


def _limited_address(request: HttpRequest) -> str | None:
    """The address a request counts against (one seat request, one poll answer per address);
    None for the host's own machine, which no limit binds."""
    client = _client(request)
    return client.address if client.limited else None


def too_many(message: str) -> HttpResponse:
    return HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")


def flash(message: str, status: int = 400, *, kind: str = "error") -> HttpResponse:
    return HttpResponse(rendering.flash(message, kind), status=status)


def _page_keys(fragments: dict[str, str]) -> dict[str, str]:
    """Fragment ids use dashes; templates reach them with underscores."""
    return {key.replace("-", "_"): html for key, html in fragments.items()}


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return HttpResponse("ok", content_type="text/plain")


@require_http_methods(["GET", "POST"])
def home(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        try:
            room = services.create_room(request.POST.get("language", ""))
        except services.ServiceError as exc:
            return render(request, "home.html", {"error": exc.message}, status=400)
        response = redirect("tv", code=room.code)
        seating.set_cookie(response, seating.host_cookie_name(room.code), seating.host_token(services.add_host_device(room)))
        return response
    return render(request, "home.html", {"language": translation.get_language()})


def answers_limits(view):
    """A view whose room lookup may refuse a client that probes too many codes (``_room``)."""
    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        try:
            return view(*args, **kwargs)
        except limits.TooMany as exc:
            return too_many(str(exc))
    return wrapper


@require_GET
@answers_limits
def tv(request: HttpRequest, code: str) -> HttpResponse:
    room = _room(request, code)
    url = addresses.join_url(request.get_host(), room.code, request.scheme, request.get_port())
    # The TV's controls go with a host device's cookie alone: a phone that hosts has them on its own page.
    device = seating.host_device(room, request.COOKIES)
    host = device is not None
    with translation.override(room.language):
        fragments = rendering.tv_screen(load_table(room), host=host, device=device and device.pk)
        return render(request, "screens/tv_page.html", {"room": room, "f": _page_keys(fragments), "host": host,
                                                        "join_url": url, "qr_svg": addresses.qr_svg(url)})


@require_http_methods(["GET", "POST"])
@answers_limits
def join(request: HttpRequest, code: str) -> HttpResponse:
    """Join with a name, or ask for a seat already in the room ("I was Ann"): the host decides."""
    room = _room(request, code)
    if seating.player_from_cookies(room, request.COOKIES) is not None:
        return redirect("phone", code=room.code)
    # The joining phone's language (languages.browser_language): its page now, its screens later.
    language = languages.browser_language(request, room.language)
    with translation.override(language):
        if request.method == "GET":
            return _join_page(request, room)
        if not limits.allow(limits.JOINS, _client(request)):
            return _join_page(request, room, _("Too many joins from this network. Wait a minute and try again."), 429)
        try:
            if "seat" in request.POST:
                held = seating.claim_from_cookies(room.code, request.COOKIES)
                claim = services.ask_for_seat(room, int(request.POST["seat"]), address=_limited_address(request),
                                              replacing=held and held[0])
                response = redirect("claim", code=room.code)
                seating.set_cookie(response, seating.claim_cookie_name(room.code), seating.claim_token(claim))
                return response
            player = services.join_room(room, request.POST.get("name", ""), language, _limited_address(request))
        except ValueError:
            return _join_page(request, room, _("That request was malformed."), 400)
        except services.ServiceError as exc:
            return _join_page(request, room, exc.message, exc.status)
        response = redirect("phone", code=room.code)
        seating.set_cookie(response, seating.player_cookie_name(room.code), seating.player_token(player))
        return response


def _join_page(request: HttpRequest, room: Room, error: str = "", status: int = 200) -> HttpResponse:
    players = list(room.players.filter(bot=False))   # a bot's seat is no phone's to ask for
    name = request.POST.get("name", "")[:100] if request.method == "POST" else ""
    # The name typed is taken: offer to ask the host for that seat.
    taken = next((p for p in players if error and p.name_key == services.name_key(name)), None)
    return render(request, "join.html", {"room": room, "error": error, "name": name, "players": players,
                                         "languages": languages.choices(),
                                         "taken": taken, "heading": _join_heading(room),
                                         # who joins now is the audience of the running game (issue 16)
                                         "under_way": room.games.running().exists()}, status=status)


def _join_heading(room: Room) -> str:
    return _("Join room %(code)s") % {"code": room.code}


@require_GET
@answers_limits
def claim(request: HttpRequest, code: str) -> HttpResponse:
    """A phone that asked for a seat: waiting, refused, or (once approved) seated — its page asks
    again every few seconds; the answer that seats it sets the seat's new cookie."""
    room = _room(request, code)
    held = seating.claim_from_cookies(room.code, request.COOKIES)
    if held is None:
        return redirect("join", code=room.code)
    with translation.override(languages.browser_language(request, room.language)):
        try:
            asked, player = services.collect_seat(room, *held)
        except services.ServiceError as exc:
            response = _join_page(request, room, exc.message, exc.status)
            response.delete_cookie(seating.claim_cookie_name(room.code))
            return response
        if player is None:
            template = "claim_status.html" if request.htmx else "claim.html"
            return render(request, template, {"room": room, "claim": asked, "name": asked.player.name,
                                              "heading": _join_heading(room)})
        response = HttpResponse(status=204)
        if request.htmx:
            response["HX-Redirect"] = reverse("phone", kwargs={"code": room.code})
        else:
            response = redirect("phone", code=room.code)
        response.delete_cookie(seating.claim_cookie_name(room.code))
        seating.set_cookie(response, seating.player_cookie_name(room.code), seating.player_token(player))
        return response


@require_http_methods(["GET", "POST"])
@answers_limits
def host_login(request: HttpRequest, code: str) -> HttpResponse:
    """The host controls on another device: the host code from the host's screen (or the admin's
    "Rotate").  With no host screen online the code alone lets this browser in; otherwise a host
    must allow it, and this page waits for the answer (services.use_host_code).  A few tries a
    minute per address (limits.HOST_CODE_TRIES): never per room, where others' guesses would
    lock the real host out."""
    room = _room(request, code)
    with translation.override(languages.browser_language(request, room.language)):
        page = {"room": room, "heading": _("Host room %(code)s") % {"code": room.code}}
        if request.method == "GET":
            status = services.host_ask_status(room, request.COOKIES)
            if status == HostDevice.Status.HOSTING:
                return _to_tv(request, room)
            template = "host_ask_status.html" if request.htmx else "host_login.html"
            return render(request, template, {**page, "asking": status == HostDevice.Status.ASKING,
                                              "refused": status == HostDevice.Status.REFUSED})
        if not limits.allow(limits.HOST_CODE_TRIES, _client(request)):
            return render(request, "host_login.html", {**page, "error": _(
                "Too many tries. Wait a minute and try again.")}, status=429)
        try:
            device = services.use_host_code(room, request.POST.get("host_code", ""), _limited_address(request))
        except services.ServiceError as exc:
            return render(request, "host_login.html", {**page, "error": exc.message}, status=exc.status)
        response = redirect("tv" if device.status == HostDevice.Status.HOSTING else "host_login", code=room.code)
        seating.set_cookie(response, seating.host_cookie_name(room.code), seating.host_token(device))
        return response


def _to_tv(request: HttpRequest, room: Room) -> HttpResponse:
    """Allowed: on to the TV page, with its controls (htmx's poll follows HX-Redirect)."""
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = reverse("tv", kwargs={"code": room.code})
        return response
    return redirect("tv", code=room.code)


@require_GET
@answers_limits
def host_login_start(request: HttpRequest) -> HttpResponse:
    """The home page's "Host an existing room": from a room code to that room's host login."""
    room = _room(request, request.GET.get("code", "").strip())
    return redirect("host_login", code=room.code)


@require_GET
@answers_limits
def phone(request: HttpRequest, code: str) -> HttpResponse:
    room = _room(request, code)
    player = seating.player_from_cookies(room, request.COOKIES)
    if player is None:
        return redirect("join", code=room.code)
    with translation.override(languages.of_phone(player.language, room.language)):
        fragments = rendering.phone_screen(load_table(room), player.pk)
        return render(request, "screens/phone_page.html",
                      {"room": room, "f": _page_keys(fragments), "player": player})


@require_POST
async def act(request: HttpRequest, code: str) -> HttpResponse:
    """A phone's game action: vote, play a card, propose a team…

    The hottest path of the app: it runs on the process's single writer thread
    (``db.write``), which keeps its connection and never waits for a rival writer; in the
    room's queue, as a tap over the socket (``db.write_queued``).
    """
    try:
        return await db.write_queued(code.upper(), _act, request, code)
    except db.Busy:
        busy = taps.busy()
        return flash(busy.message, busy.status)


@answers_limits
def _act(request: HttpRequest, code: str) -> HttpResponse:
    code = code.upper()
    player = seating.seated_player(code, request.COOKIES)
    if player is None:
        room = _room(request, code)  # unknown room: 404
        with translation.override(languages.browser_language(request, room.language)):
            return flash(_("You are not seated in this room. Join again."), 403)
    result = taps.tap(player.room, player.pk, request.POST, languages.of_phone(player.language, player.room.language))
    if result.status != 204:
        return flash(result.message, result.status)
    response = HttpResponse(status=204)  # the websocket brings the new screen
    # Screens mark each update with the room version (#sv); load tests match taps to updates by it.
    response["X-Room-Version"] = str(result.room_version)
    return response


@require_POST
@answers_limits
def host_offer(request: HttpRequest, code: str) -> HttpResponse:
    """A phone answers the host's offer of the host controls (services.offer_host): accept or decline."""
    room = _room(request, code)
    player = seating.player_from_cookies(room, request.COOKIES)
    with translation.override(languages.of_phone(player.language, room.language) if player
                              else languages.browser_language(request, room.language)):
        if player is None:
            return flash(_("You are not seated in this room. Join again."), 403)
        answer = request.POST.get("answer", "")
        if answer not in ("accept", "decline"):
            return flash(_("That request was malformed."), 400)
        try:
            services.answer_host_offer(room, player.pk, accept=answer == "accept")
        except services.ServiceError as exc:
            return flash(exc.message, exc.status)
        return HttpResponse(status=204)


@require_POST
@answers_limits
def phone_language(request: HttpRequest, code: str) -> HttpResponse:
    """The phone's language menu: this phone's screens, refusals and pages from now on in the
    language picked (services.set_phone_language); the page reloads in it."""
    room = _room(request, code)
    player = seating.player_from_cookies(room, request.COOKIES)
    with translation.override(languages.browser_language(request, room.language)):
        if player is None:
            return flash(_("You are not seated in this room. Join again."), 403)
        try:
            services.set_phone_language(player, request.POST.get("language", ""))
        except services.ServiceError as exc:
            return flash(exc.message, exc.status)
    response = HttpResponse(status=204)
    response["HX-Refresh"] = "true"   # the whole page, its title and frame included, in the new language
    languages.remember(response, player.language)
    return response


def _options_from_form(slug: str, post, switched: bool) -> dict:
    """Options posted as ``opt-<key>``; an unticked checkbox is not posted at all, so it means off.
    When the host has just ``switched`` to another game the form still holds the old game's
    options: the new game starts from its defaults."""
    if switched:
        return {}
    options = {key[4:]: value for key, value in post.items() if key.startswith("opt-")}
    if slug in {ruleset.slug for ruleset in registry.all()}:
        for option in registry.get(slug).options():
            if option.kind == "bool" and option.offered:
                options.setdefault(option.key, False)
    return options


@require_POST
@answers_limits
def host(request: HttpRequest, code: str) -> HttpResponse:
    """The host's controls (on the TV, or on the phone they were handed to): settings, seating,
    start, end, next game, who comes in, handing the controls to a phone, the finished game's
    story (Back / Next / All)."""
    room = _room(request, code)
    with translation.override(room.language):
        if not seating.is_host(room, request.COOKIES):
            return flash(_("Only the host can do that."), 403)
        command = request.POST.get("command", "")
        try:
            if command == "configure":
                slug = request.POST.get("ruleset", room.ruleset)
                services.configure(room, slug, _options_from_form(slug, request.POST, slug != room.ruleset))
            elif command in ("up", "down", "kick"):
                player_id = int(request.POST.get("player", ""))
                if command == "kick":
                    services.kick(room, player_id)
                else:
                    services.move_player(room, player_id, -1 if command == "up" else 1)
            elif command == "add_bot":
                services.add_bot(room)
            elif command == "start":
                services.start_game(room)
            elif command == "lesson_start":
                services.lesson_start(room)
            elif command in ("lesson_next", "lesson_back"):
                services.lesson_step(room, int(request.POST.get("slide", "")), 1 if command == "lesson_next" else -1)
            elif command == "lesson_end":
                services.lesson_end(room)
            elif command == "abandon":
                services.abandon_game(room)
            elif command in ("let_in", "refuse"):
                services.answer_claim(room, int(request.POST.get("claim", "")), approve=command == "let_in")
            elif command == "offer_host":
                services.offer_host(room, int(request.POST.get("player", "")))
            elif command in ("allow_host", "refuse_host"):
                services.answer_host_ask(room, int(request.POST.get("device", "")), allow=command == "allow_host")
            elif command == "revoke":
                services.revoke_host(room, int(request.POST.get("device", "")),
                                     by=seating.host_device(room, request.COOKIES))
            elif command == "revoke_phone":   # a device may; the hosting phone may not revoke itself
                services.revoke_phone_host(room, by_player=None if seating.holds_host_cookie(room, request.COOKIES)
                                           else room.host_player_id)
            elif command in ("lock", "unlock"):
                services.set_locked(room, command == "lock")
            elif command == "host_code":   # shown on request only: the TV is watched by everyone
                return render(request, "screens/host_code.html", {
                    "code": room.code, "host_code": room.host_code_display,
                    "login_url": addresses.base_url(request.get_host(), request.scheme, request.get_port()) + reverse(
                        "host_login", kwargs={"code": room.code})})
            elif command == "hide_code":
                return HttpResponse("")
            elif command in ("proxy", "remove"):
                services.host_for_seat(room, _for_seat(command, request.POST),
                                       expected_turn=int(request.POST.get("turn", "")))
            elif command == "pause":
                services.pause_game(room)
            elif command == "resume":
                services.resume_game(room)
            elif command in ("story_back", "story_next", "story_all"):
                services.story_move(room, command.removeprefix("story_"), expected_step=int(request.POST.get("step", "")))
            elif command == "move":
                services.host_move(room, request.POST.get("move", ""), expected_turn=int(request.POST.get("turn", "")))
            else:
                return flash(_("Unknown command."), 400)
        except ValueError:
            return flash(_("That request was malformed."), 400)
        except services.ServiceError as exc:
            return flash(exc.message, exc.status)
        except EngineError as exc:
            refusal = taps.refused(room.ruleset, exc)
            return flash(refusal.message, refusal.status)
        return HttpResponse(status=204)


def _for_seat(command: str, post) -> dict:
    """The host's proxy or removal as an engine action; ``move`` is one of the moves the host
    bar offered (rendering.host_for_seats), as JSON; the engine checks it is still legal."""
    seat = int(post.get("seat", ""))
    if command == "remove":
        return {"type": REMOVE_PLAYER, "seat": seat}
    move = json.loads(post.get("move", "")[:1000])
    if not isinstance(move, dict):
        raise ValueError("a move is an object")
    return {"type": PROXY, "seat": seat, "action": move}
