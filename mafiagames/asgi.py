"""ASGI entry point: HTTP through Django, websockets through Channels."""

import gc
import os
import sys
from pathlib import Path
from urllib.parse import urlsplit

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mafiagames.settings")
# Fewer, later cyclic collections: with a thousand sockets the default (700, 10, 10) collects
# so often that it shows in the p95/p99 of a tap (docs/performance.md: −5 % CPU per tap).
gc.set_threshold(*(int(n) for n in os.environ.get("GC_THRESHOLD", "20000,50,100").split(",")))
django_asgi_app = get_asgi_application()  # before importing anything that touches models

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import WebsocketDenier  # noqa: E402
from django.conf import settings  # noqa: E402
from django.http.request import split_domain_port, validate_host  # noqa: E402

from mafiagames.routing import websocket_urlpatterns  # noqa: E402


class SameOriginValidator:
    """Refuse a websocket handshake unless its Origin is the host it was sent to.

    Websockets carry no CSRF token, so the Origin check is what stops another site
    from opening a player's socket with the player's cookies.  The Host must also be one
    ALLOWED_HOSTS accepts, as for a page: a stranger's domain resolving to this laptop
    (DNS rebinding) is same-origin with itself, and only the Host check refuses it.
    """

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not self.same_origin(scope):
            denier = WebsocketDenier()
            return await denier(scope, receive, send)
        return await self.application(scope, receive, send)

    @staticmethod
    def same_origin(scope) -> bool:
        headers = dict(scope.get("headers", []))
        origin = headers.get(b"origin", b"").decode("latin-1")
        host = headers.get(b"host", b"").decode("latin-1")
        if not origin or not host:
            return False
        name, _port = split_domain_port(host)
        return validate_host(name, settings.ALLOWED_HOSTS) and urlsplit(origin).netloc.lower() == host.lower()


application = ProtocolTypeRouter({
    "http": django_asgi_app,
    "websocket": SameOriginValidator(URLRouter(websocket_urlpatterns)),
})


def _start_game_master() -> None:
    """Run the game master's clock from process start, not from the first screen's connect:
    a timed move that fell due while the server was down is made even if no screen connects.

    daphne speaks no ASGI lifespan; it runs the application on Twisted's asyncio reactor, which
    daphne.server installs before it imports this module.  Once the reactor runs, its first
    turn of the loop starts the timers (``timers.start``) on the loop every screen will use.
    Elsewhere (tests with their own loops) the first screen's connect still does it."""
    reactor = sys.modules.get("twisted.internet.reactor")
    if reactor is None:
        return
    from twisted.internet.asyncioreactor import AsyncioSelectorReactor

    if not isinstance(reactor, AsyncioSelectorReactor):
        return
    from mafiagames import timers

    # callWhenRunning fires before the asyncio loop spins; callLater(0) runs inside it.
    reactor.callWhenRunning(reactor.callLater, 0, timers.start)


_start_game_master()


def _compile_templates() -> None:
    """Compile every template now, not on first use: otherwise the first vote, the first reveal
    of the evening, … each wait for Django to parse their templates (a few ms each)."""
    from django.conf import settings
    from django.template.loader import get_template

    for folder in settings.TEMPLATES[0]["DIRS"]:
        for path in sorted(Path(folder).rglob("*.html")):
            get_template(str(path.relative_to(folder)))   # its partials ("x.html#part") with it


_compile_templates()
# Everything alive now (Django, the URL conf, the engines, the templates) lives as long as the
# process: out of the cyclic collector's sight, the rare full collections have far less to walk.
gc.freeze()
