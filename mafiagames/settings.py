"""Settings for mafiagames: one process with SQLite and the in-memory channel layer by default.

Everything a host may want to change comes from the environment:
PUBLIC_URL (the address phones use, e.g. http://192.168.1.20:8000), SECRET_KEY, DEBUG,
ALLOWED_HOSTS, DB_PATH.
"""

import os
import secrets
from pathlib import Path

from django.utils.translation import gettext_lazy as _

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
        return path.read_text().strip()
    except FileNotFoundError:
        key = secrets.token_urlsafe(50)
        path.write_text(key)
        return key


SECRET_KEY = _secret_key()
DEBUG = _env_bool("DEBUG", False)
# Phones reach the app by the laptop's LAN address, which we cannot know in advance.
# Websocket origins are checked against the request's own Host instead (see asgi.py).
ALLOWED_HOSTS = [h for h in os.environ.get("ALLOWED_HOSTS", "*").split(",") if h]
PUBLIC_URL = os.environ.get("PUBLIC_URL", "").rstrip("/")

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

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
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
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.environ.get("DB_PATH", BASE_DIR / "db.sqlite3"),
        # IMMEDIATE: every transaction takes the write lock up front, so simultaneous votes
        # queue instead of failing with "database is locked" (notes/stack.md §3).
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
CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer",
                              "CONFIG": {"group_expiry": 60 * 60 * 24 * 30}}}

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("cs", _("Czech"))]
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
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True

SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
# Phones play over plain http on the LAN; cookies must not require https.
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
# Signed per-room player tokens live for a long evening and beyond.
PLAYER_COOKIE_MAX_AGE = 60 * 60 * 24 * 7

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"mafiagames": {"handlers": ["console"], "level": "INFO"}},
}
