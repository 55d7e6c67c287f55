"""A request Django refuses with 400 is one line in the log; a real 500 keeps its traceback."""

from __future__ import annotations

import io
import logging

import pytest
from django.test import Client, override_settings

from .test_hardening import boom  # noqa: F401  (the failing view of the 500 test, urlpatterns below)
from .test_hardening import urlpatterns  # noqa: F401


@pytest.fixture
def log(monkeypatch) -> io.StringIO:
    """Everything logged, as daphne's process prints it: our handlers plus a root handler like the
    one daphne's command line installs (logging.basicConfig)."""
    stream = io.StringIO()
    for name in ("django.security", "django.request"):
        for handler in logging.getLogger(name).handlers:
            if type(handler) is logging.StreamHandler:   # ours, not pytest's (its subclasses)
                monkeypatch.setattr(handler, "stream", stream)
    root = logging.StreamHandler(stream)
    root.setFormatter(logging.Formatter("%(asctime)-15s %(levelname)-8s %(message)s"))
    logging.getLogger().addHandler(root)
    yield stream
    logging.getLogger().removeHandler(root)


def refused(request) -> int:
    return request(Client(raise_request_exception=False)).status_code


REFUSALS = {
    "bad host": lambda client: client.get("/", HTTP_HOST="evil.example"),
    "too many fields": lambda client: client.post("/", "&".join(f"f{i}=1" for i in range(20)),
                                                  content_type="application/x-www-form-urlencoded"),
    "too big a body": lambda client: client.post("/", "name=" + "x" * 5000,
                                                 content_type="application/x-www-form-urlencoded"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("kind", REFUSALS)
@override_settings(ALLOWED_HOSTS=["testserver"], DATA_UPLOAD_MAX_NUMBER_FIELDS=10, DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
def test_a_refused_request_is_one_line_without_a_traceback(log, kind):
    assert refused(REFUSALS[kind]) == 400
    lines = log.getvalue().splitlines()
    assert len(lines) == 1, lines
    assert "Traceback" not in log.getvalue() and "django.security" in lines[0]


@pytest.mark.urls("tests.web.test_hardening")
def test_a_real_error_still_logs_its_traceback(log, settings):
    settings.DEBUG = False
    assert Client(raise_request_exception=False).get("/boom/").status_code == 500
    assert "Traceback" in log.getvalue() and "ZeroDivisionError: a view that fails" in log.getvalue()
