"""Scaled-out deployment on one machine: redis-server, a throw-away PostgreSQL cluster and two
daphne processes sharing them (docs/design.md §6, README "Scaling out").

Everything listens on 127.0.0.1 only, on free ports, in temporary directories, and is torn down
even when a test fails.  The servers are driven over HTTP and websockets only: this test never
touches pytest-django's database (SQLite), the two daphne processes use the PostgreSQL here.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.scaleout.servers import ScaledDaphne, Unavailable, daphnes, postgres_server, redis_server


@pytest.fixture(scope="module")
def redis_url():
    try:
        with redis_server() as redis:
            yield redis.url
    except Unavailable as missing:
        pytest.skip(str(missing))


@pytest.fixture(scope="module")
def postgres():
    try:
        with postgres_server() as pg:
            yield pg
    except Unavailable as missing:
        pytest.skip(str(missing))


@dataclass
class Cluster:
    a: ScaledDaphne
    b: ScaledDaphne
    database_url: str
    redis_url: str


@pytest.fixture
def cluster(postgres, redis_url, output_dir):
    """Two daphne processes, A and B, on one PostgreSQL database and one Redis."""
    database_url = postgres.url("mafiagames")
    with daphnes(2, output_dir, database_url, redis_url) as (a, b):
        yield Cluster(a, b, database_url=database_url, redis_url=redis_url)


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
