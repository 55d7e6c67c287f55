"""The app's own settings, plus two things the bench scripts need (and nothing else changes).

* ``django.request`` errors go to the console, so a 500 leaves its traceback in the daphne log
  (with DEBUG off Django would only mail them to the admins);
* ``BENCH_STATIC_ROOT`` moves collectstatic's output to a temp dir, so bench/page_weight.py can
  serve static files as `make run` does without writing into the checkout.
"""

import os

from mafiagames.settings import *  # noqa: F403
from mafiagames.settings import LOGGING, STATIC_ROOT

LOGGING = {**LOGGING, "loggers": {**LOGGING.get("loggers", {}),
                                  "django.request": {"handlers": ["console"], "level": "ERROR", "propagate": False}}}
STATIC_ROOT = os.environ.get("BENCH_STATIC_ROOT", STATIC_ROOT)
# Collected into BENCH_STATIC_ROOT: serve those (with their .gz copies), as `make run` does.
if os.environ.get("BENCH_STATIC_ROOT"):
    SERVESTATIC_USE_FINDERS = False
