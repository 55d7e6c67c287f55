"""Shared test setup: static files without a manifest, and a small cast of players."""

import pytest


def pytest_configure(config):
    if not config.pluginmanager.hasplugin("django"):
        return  # engine tests also run without Django: pytest -p no:django tests/engines
    from django.conf import settings

    # Tests run with DEBUG=False; the manifest storage would need collectstatic first.
    settings.STORAGES = {**settings.STORAGES,
                         "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}


CAST = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy"]


@pytest.fixture
def cast():
    return CAST
