"""DATABASE_URL and REDIS_URL switch the settings to PostgreSQL and channels-redis (README "Scaling out")."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured

from mafiagames.settings import _database_from_url
from tests.e2e.conftest import ROOT

SHOW = ("import json, django; from django.conf import settings; django.setup(); "
        "db = settings.DATABASES['default']; "
        "print(json.dumps({'db': {k: str(v) for k, v in db.items() if k != 'OPTIONS'}, "
        "'options': db.get('OPTIONS', {}), 'layers': settings.CHANNEL_LAYERS}, default=str))")


def settings_with(**env) -> dict:
    clean = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "DB_PATH")}
    out = subprocess.run([sys.executable, "-c", SHOW], cwd=ROOT, check=True, capture_output=True, text=True,
                         env={**clean, "DJANGO_SETTINGS_MODULE": "mafiagames.settings", "SECRET_KEY": "x", **env})
    return json.loads(out.stdout)


def test_a_postgres_url_becomes_a_django_database():
    db = _database_from_url("postgres://game:p%40ss%3Aw%2Frd@db.example:6543/mafia?sslmode=require")
    assert db == {"ENGINE": "django.db.backends.postgresql", "NAME": "mafia", "USER": "game",
                  "PASSWORD": "p@ss:w/rd", "HOST": "db.example", "PORT": "6543", "CONN_MAX_AGE": 0,
                  "OPTIONS": {"sslmode": "require"}}
    socket_dir = _database_from_url("postgresql://game@%2Fvar%2Frun%2Fpostgresql/mafia")
    assert (socket_dir["HOST"], socket_dir["PORT"], socket_dir["PASSWORD"]) == ("/var/run/postgresql", "", "")


@pytest.mark.parametrize("url", ["mysql://u:p@h/db", "postgres://u:p@h:5432/", "postgres://u:p@h"])
def test_a_database_url_that_is_not_postgres_or_names_no_database_is_refused(url):
    with pytest.raises(ImproperlyConfigured):
        _database_from_url(url)


def test_without_urls_one_box_uses_sqlite_and_the_in_memory_layer():
    shown = settings_with()
    assert shown["db"]["ENGINE"] == "django.db.backends.sqlite3"
    assert shown["options"]["transaction_mode"] == "IMMEDIATE"
    assert shown["layers"]["default"]["BACKEND"] == "channels.layers.InMemoryChannelLayer"


def test_with_urls_processes_share_postgres_and_redis():
    shown = settings_with(DATABASE_URL="postgres://game:secret@db:5432/game", REDIS_URL="redis://redis:6379/0")
    assert shown["db"]["ENGINE"] == "django.db.backends.postgresql"
    assert (shown["db"]["HOST"], shown["db"]["NAME"], shown["db"]["CONN_MAX_AGE"]) == ("db", "game", "0")
    layer = shown["layers"]["default"]
    assert layer["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    # The dict host form with a socket timeout longer than redis-py 8's default 5 s (docs/design.md §9.3).
    assert layer["CONFIG"]["hosts"] == [{"address": "redis://redis:6379/0", "socket_timeout": 10}]
