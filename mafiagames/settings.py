"""Settings for mafiagames: one process with SQLite and the in-memory channel layer by default.

Everything a host may want to change comes from the environment:
PUBLIC_URL (the address phones use, e.g. http://192.168.1.20:8000), SECRET_KEY, DEBUG,
ALLOWED_HOSTS, DB_PATH; for several processes DATABASE_URL (PostgreSQL) and REDIS_URL (Redis).
"""

import os
import secrets
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

from mafiagames.addresses import allowed_hosts

BASE_DIR = Path(__file__).resolve().parent.parent


def _env_bool(name: str, default: bool) -> bool:
    return os.environ.get(name, "1" if default else "0").lower() in ("1", "true", "yes", "on")


def _secret_key() -> str:
    """SECRET_KEY from the environment, else one generated once and kept beside the database.

    Player tokens are signed with it, so it must survive a restart: phones keep their seats.
    """
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = Path(os.environ.get("SECRET_KEY_FILE", BASE_DIR / ".secret_key"))
    try:
        key = path.read_text().strip()
    except FileNotFoundError:
        key = secrets.token_urlsafe(50)
        # Created readable by its owner only (whoever reads it can forge any player's token);
        # O_EXCL: never write through a file or link someone else put there.
        with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as file:
            file.write(key)
        return key
    if path.stat().st_mode & 0o077 and path.stat().st_uid == os.getuid():
        path.chmod(0o600)   # a key file from an older version, readable by everyone: tighten it
    return key


SECRET_KEY = _secret_key()
DEBUG = _env_bool("DEBUG", False)
PUBLIC_URL = os.environ.get("PUBLIC_URL", "").rstrip("/")
# Phones reach the app by the laptop's LAN address: this machine's own names and addresses, as
# they are while it runs, plus PUBLIC_URL's host and whatever ALLOWED_HOSTS adds ("*": anything,
# which lets a DNS-rebinding page in).  mafiagames/addresses.py, AllowedHosts.
ALLOWED_HOSTS = allowed_hosts(os.environ.get("ALLOWED_HOSTS", ""), PUBLIC_URL)
# Proxies whose X-Forwarded-For is believed (addresses or networks, comma-separated): the client
# address every limit keys on (clients.py).  None by default: `make run` serves phones directly,
# and a phone must not choose its own address with a header.
TRUSTED_PROXIES = [p.strip() for p in os.environ.get("TRUSTED_PROXIES", "").split(",") if p.strip()]
# Behind an https proxy (docker-compose): the origins forms are posted from.
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", PUBLIC_URL).split(",") if o]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "mafiagames",
]

# Rulesets kept in a folder of their own, by package path, comma-separated (docs/adding-a-ruleset.md):
# each package holds its engine's RULESET, a ``presenter`` module and ``templates/<slug>/``.  The
# tests play a tiny one this way; the built-in rulesets need nothing here.
EXTRA_RULESETS = [path for path in os.environ.get("EXTRA_RULESETS", "").split(",") if path.strip()]
INSTALLED_APPS += EXTRA_RULESETS

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    # Outside the session and CSRF middlewares, so it sees the cookies they set.
    "mafiagames.middleware.secure_cookies_over_https",
    # Async-capable (unlike WhiteNoise's): with every middleware async, a request crosses to a
    # worker thread once, for the view, instead of hopping between threads and the event loop
    # once per sync middleware (which stalled taps while the loop was busy pushing screens).
    "servestatic.middleware.ServeStaticMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Before CSRF: its token check reads the form, and a form in another charset must get a 400.
    "mafiagames.middleware.utf8_forms_only",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "mafiagames.urls"
ASGI_APPLICATION = "mafiagames.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",   # <html lang> in the page's language
                "mafiagames.languages.menu",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- database and channel layer ---------------------------------------------------------------
# One box (the default): SQLite and the in-memory channel layer, one daphne process.
# Scaling out (README "Scaling out", docs/design.md §6): DATABASE_URL points at PostgreSQL and
# REDIS_URL at Redis, and any number of daphne processes share them.


def _database_from_url(url: str) -> dict:
    """``postgres://user:password@host:port/name[?option=value...]`` as a Django DATABASES entry.

    Percent-escapes are decoded, so a password may hold any character, and a host like
    ``%2Fvar%2Frun%2Fpostgresql`` names a Unix socket directory.  Query parameters become
    libpq connection options (``?sslmode=require``).
    """
    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql"):
        raise ImproperlyConfigured(f"DATABASE_URL must start with postgres://, not {parts.scheme}://")
    name = unquote(parts.path.lstrip("/"))
    if not name:
        raise ImproperlyConfigured("DATABASE_URL names no database (postgres://user:pass@host:port/NAME)")
    return {
        "ENGINE": "django.db.backends.postgresql",  # psycopg 3
        "NAME": name,
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": unquote(parts.hostname or ""),
        "PORT": str(parts.port or ""),
        # Django's advice under ASGI: no persistent connections (they are per thread and are
        # not closed at the end of a request there; docs/design.md §9.3).
        "CONN_MAX_AGE": 0,
        "OPTIONS": dict(parse_qsl(parts.query)),
    }


if os.environ.get("DATABASE_URL"):
    # Games are serialised by select_for_update on the game row (services.submit).
    DATABASES = {"default": _database_from_url(os.environ["DATABASE_URL"])}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("DB_PATH", BASE_DIR / "db.sqlite3"),
            # IMMEDIATE: every transaction takes the write lock up front, so simultaneous votes
            # queue instead of failing with "database is locked" (docs/design.md §9.3).
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            # A file, not :memory:, so the live server used by browser tests shares it.
            "TEST": {"NAME": BASE_DIR / "test_db.sqlite3"},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Group membership would expire after a day by default, silently leaving a TV that was left
# on without updates; a month outlasts any game night.
_group_expiry = 60 * 60 * 24 * 30
if os.environ.get("REDIS_URL"):
    # Pings cross processes through Redis pub/sub: each process subscribes to the rooms it has
    # screens for (fanout.py), and a ping is one PUBLISH.  The list-based RedisChannelLayer
    # costs several round trips per message received (blocking pop, backup queue, cleanup) and
    # silently drops messages once a channel holds 100, which a busy process hit at 100 taps/s
    # (docs/performance.md).  A ping lost either way is repaired by the pages' periodic sync.
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer", "CONFIG": {
        # The dict form, with a socket_timeout: redis-py 8 defaults to 5 s (docs/design.md §9.3).
        "hosts": [{"address": os.environ["REDIS_URL"], "socket_timeout": 10}],
    }}}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer",
                                  "CONFIG": {"group_expiry": _group_expiry}}}

LANGUAGE_CODE = "en"
# The room's language (the TV, its narration and speech) and each phone's own (Player.language)
# are picked from these; docs/translations.md says how to add one.
LANGUAGES = [("en", _("English")), ("cs", _("Czech")), ("pl", _("Polish")), ("uk", _("Ukrainian"))]
# A browser's choice of language on our pages (languages.remember) outlives the evening.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
LOCALE_PATHS = [BASE_DIR / "mafiagames" / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # No manifest: the app also works without collectstatic (tests, a fresh checkout).
    "staticfiles": {"BACKEND": "servestatic.storage.CompressedStaticFilesStorage"},
}
# `make run` and the Dockerfile collect static files first, and ServeStatic then serves the
# gzipped copies (a phone's first load is half the size).  Straight from the source folders
# (uncompressed) only when nothing was collected, or when asked (tests: always the current files).
SERVESTATIC_USE_FINDERS = _env_bool("STATIC_FROM_SOURCE", not (STATIC_ROOT / "app.js").exists())

SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
# Phones play over plain http on the LAN, so cookies cannot always require https; a response to
# an https request marks every cookie Secure instead (mafiagames.middleware.secure_cookies_over_https).
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
# Behind a TLS proxy (nginx in docker-compose, Caddy, …) the request reaches daphne as plain http;
# the proxy says the browser used https.  Trusted always: our nginx.conf overwrites the header, and
# a client that sends it to a bare daphne on the LAN only changes its own responses (Secure
# cookies its browser then keeps to https, an HSTS header that browsers ignore over http).
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Sent only on https responses (SecurityMiddleware); browsers ignore it for IP addresses, so a
# LAN game at http://192.168.1.20:8000 is never affected.  HSTS_SECONDS=0 switches it off
# (e.g. a proxy tried on localhost, whose http ports would all be upgraded afterwards).
SECURE_HSTS_SECONDS = int(os.environ.get("HSTS_SECONDS", str(60 * 60 * 24 * 365)))

# Content-Security-Policy on every response: only our own scripts (app.js, htmx and its ws
# extension, all served from /static/), our own stylesheet, no inline script, style or eval.
# htmx needs no more: its indicator <style> and eval are switched off in base.html's htmx-config.
# connect-src 'self' also covers ws:// to the same host and port (CSP Level 3).
# No nonces: nothing inline is allowed at all.  The admin needs nothing more either.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],   # the favicon is an empty data: URL; the QR code is inline SVG
    "connect-src": [CSP.SELF],
    # The wake-lock fallback's video is a MediaStream (srcObject), which no fetch directive governs.
    "media-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
# Signed per-room player tokens live for a long evening and beyond.
PLAYER_COOKIE_MAX_AGE = 60 * 60 * 24 * 7
# Every timer of the game master (a Plot Thickens window's minimum length, a night step's
# deadline, …; the engines say how long) runs this many times as long: tests and demos
# shorten them.
CLOCK_SCALE = float(os.environ.get("CLOCK_SCALE", "1"))
# A result the table waits for takes the stage for a few seconds (engines/moments.py): on for
# every new game; the tests turn it off (tests/conftest.py) except where they are about it, as
# tests that play a game through its steps would otherwise wait out every moment.
MOMENTS = os.environ.get("MOMENTS", "1") != "0"
# A bot's move (a seat the host filled with a bot: services.add_bot, timers.py) is made this
# many seconds after the game began to wait for it: long enough for the table to follow it on
# the TV, short enough not to stall the evening.  Tests shorten it.
BOT_SECONDS = float(os.environ.get("BOT_SECONDS", "1.5"))
# Presence on the TV (mafiagames/presence.py): a player whose last socket closed is shown offline
# this many seconds later unless their phone is back by then (a reload, a reconnect after a
# network hiccup: under a second or two), and a room's presence changes are written at most once
# per window, as one version.  The tests' own processes set both to 0 (tests/conftest.py): they
# see each change written as it happens.
PRESENCE_GRACE = float(os.environ.get("PRESENCE_GRACE", "2"))
PRESENCE_WINDOW = float(os.environ.get("PRESENCE_WINDOW", "0.5"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"without_traceback": {"()": "mafiagames.logs.WithoutTraceback"}},
    "formatters": {"named": {"format": "%(levelname)s %(name)s: %(message)s"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler"},
        "refusals": {"class": "logging.StreamHandler", "formatter": "named", "filters": ["without_traceback"]},
    },
    "loggers": {
        "mafiagames": {"handlers": ["console"], "level": "INFO"},
        # Django's own setup prints these only with DEBUG on (and mails ADMINS, which we have
        # none of): without this a view's 500 in production leaves no traceback anywhere.
        "django.request": {"handlers": ["console"], "level": "ERROR", "propagate": False},
        # Requests Django refuses with 400 (a bad Host, too many fields, too big a body): one
        # line each, not a traceback (mafiagames/logs.py).  Not propagated, or daphne's root
        # handler would print the traceback anyway.
        "django.security": {"handlers": ["refusals"], "level": "INFO", "propagate": False},
    },
}
