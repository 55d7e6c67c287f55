"""Request checks that must run before Django reads a request's body, and Secure cookies over https."""

from __future__ import annotations

import codecs

from asgiref.sync import iscoroutinefunction
from django.http import HttpResponse
from django.utils.decorators import sync_and_async_middleware
from django.utils.http import parse_header_parameters

UTF8_NAMES = {"utf-8", "ascii"}   # ascii is a subset of utf-8


def charset_refusal(request) -> HttpResponse | None:
    """A 400 for a body declared in a charset other than UTF-8, else None.

    Our pages only ever send UTF-8. Django would decode a `charset=utf-16` form when CSRF or the
    view first reads request.POST, fail there and answer 500 with a long traceback in the log.
    """
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return None
    _, params = parse_header_parameters(request.META.get("CONTENT_TYPE", ""))
    charset = params.get("charset")
    if not charset:
        return None
    try:
        if codecs.lookup(charset).name in UTF8_NAMES:
            return None
    except LookupError:
        pass
    return HttpResponse("Forms must be sent as UTF-8.", status=400, content_type="text/plain; charset=utf-8")


def secure_cookies(request, response: HttpResponse) -> HttpResponse:
    """Every cookie of a response to an https request is marked Secure.

    Django's SESSION_COOKIE_SECURE / CSRF_COOKIE_SECURE are fixed for every request, and phones
    usually play over plain http on the LAN; behind TLS (request.is_secure(), which trusts
    settings.SECURE_PROXY_SSL_HEADER) the seat and host tokens must never travel in clear.
    """
    if request.is_secure():
        for cookie in response.cookies.values():
            cookie["secure"] = True
    return response


def _middleware(get_response, before=lambda request: None, after=lambda request, response: response):
    """A middleware that may answer before the view (``before``) and may adjust the response
    (``after``).  Async-capable like the rest of settings.MIDDLEWARE, so a request hops threads
    only once."""
    if iscoroutinefunction(get_response):
        async def middleware(request):
            return after(request, before(request) or await get_response(request))
    else:
        def middleware(request):
            return after(request, before(request) or get_response(request))
    return middleware


@sync_and_async_middleware
def utf8_forms_only(get_response):
    return _middleware(get_response, before=charset_refusal)


@sync_and_async_middleware
def secure_cookies_over_https(get_response):
    return _middleware(get_response, after=secure_cookies)
