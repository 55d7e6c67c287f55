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


# Seconds each file of browser and server tests took in a quiet ``make test`` (2026-11-28; the
# two longest after this stop's cuts); a file not listed counts as SERVER_TEST_DEFAULT.  They only
# balance the groups below: a wrong figure costs time, never a result.
SERVER_TEST_SECONDS = {
    "test_granna_cards.py": 86, "test_mrakoslapi_game.py": 80, "test_classic_polish.py": 67,
    "test_lesson.py": 47, "test_mafie_game_night.py": 39, "test_plot_thickens.py": 34,
    "test_two_processes.py": 30, "test_cosanostra_game.py": 30, "test_pause_and_proxy.py": 27,
    "test_moments.py": 26, "test_screens_stay_live.py": 24, "test_lost_phone.py": 24,
    "test_fullest_stages.py": 23, "test_mixed_languages.py": 22, "test_stage.py": 18,
    "test_host_phone.py": 14, "test_long_story.py": 45, "test_tiny_ruleset.py": 12, "test_socket_churn.py": 12, "test_csp.py": 11,
}
SERVER_TEST_DEFAULT = 5
# The browser and server tests mostly wait (for a browser, for the game's clock), so they run in
# this many groups at once, each group's files one after another on one worker (``make test``
# starts one worker more than there are groups: the rest of the suite always has a worker).
SERVER_GROUPS = 3


def server_groups(files: list[str]) -> dict[str, str]:
    """Each file's group: the longest file first into the group with the least time so far."""
    load = [0] * SERVER_GROUPS
    groups = {}
    for name in sorted(files, key=lambda name: (-SERVER_TEST_SECONDS.get(name, SERVER_TEST_DEFAULT), name)):
        least = load.index(min(load))
        load[least] += SERVER_TEST_SECONDS.get(name, SERVER_TEST_DEFAULT)
        groups[name] = f"servers-{least + 1}"
    return groups


def pytest_collection_modifyitems(config, items):
    """Under ``make test``'s workers, the tests that start servers and browsers run in a few
    groups, each group's tests one at a time on one worker (a file's tests always together: they
    may share a server and a game), while the rest of the suite fills the other workers."""
    def starts_servers(item) -> bool:
        return (item.path.is_relative_to(ROOT / "tests" / "e2e") or item.path.is_relative_to(ROOT / "tests" / "scaleout")
                or item.get_closest_marker("starts_servers") is not None)

    groups = server_groups(sorted({item.path.name for item in items if starts_servers(item)}))
    for item in items:
        ruleset = getattr(getattr(item, "callspec", None), "params", {}).get("ruleset")
        if starts_servers(item):
            item.add_marker(pytest.mark.xdist_group(groups[item.path.name]))
        elif item.path.is_relative_to(ROOT / "tests" / "engines") and hasattr(ruleset, "slug"):
            # A ruleset's engine suites replay the same random games (tests/engines/playthrough.py
            # plays each once per process): on one worker, each game is played once per run.
            item.add_marker(pytest.mark.xdist_group(f"games-{ruleset.slug}"))


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
