"""Shared test setup: static files without a manifest, and a small cast of players."""

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def pytest_configure(config):
    if not config.pluginmanager.hasplugin("django"):
        return  # engine tests also run without Django: pytest -p no:django tests/engines
    from django.conf import settings

    # Tests run with DEBUG=False; the manifest storage would need collectstatic first.
    settings.STORAGES = {**settings.STORAGES,
                         "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    # Games played through the services would wait out every moment (engines/moments.py): off,
    # except in the tests about them (override_settings(MOMENTS=True), the browser tests'
    # ``@pytest.mark.moments``).
    settings.MOMENTS = False
    os.environ["MOMENTS"] = "0"     # and in the servers the tests start (tests/scaleout, tests/e2e)
    # Presence written as sockets come and go, awaited by the socket (mafiagames/presence.py),
    # in this process only: the servers the tests start keep the grace and window they ship with.
    settings.PRESENCE_GRACE = settings.PRESENCE_WINDOW = 0


def pytest_collection_modifyitems(config, items):
    """Under ``make test``'s two workers, the tests that start servers and browsers run on one
    worker, one at a time: two at once would fight for this machine's two cores with the rest."""
    for item in items:
        if item.path.is_relative_to(ROOT / "tests" / "e2e") or item.path.is_relative_to(ROOT / "tests" / "scaleout"):
            item.add_marker(pytest.mark.xdist_group("servers"))


CAST = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy"]


@pytest.fixture
def cast():
    return CAST


@pytest.fixture
def output_dir(request) -> Path:
    """test-results/<test name>/: screenshots and server logs a test leaves behind."""
    path = ROOT / "test-results" / request.node.name
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(autouse=True)
def fresh_limits(request):
    """Every test starts with no joins or probes counted (mafiagames/limits.py is per process)."""
    if request.config.pluginmanager.hasplugin("django"):
        from mafiagames import limits, screens

        limits.reset_all()
        # Room codes are random: a room of this test may draw the code of an earlier test's room,
        # whose cached snapshot (at a higher version) would then pass for this room's.
        screens._latest.clear()
        screens._loading.clear()
    yield
