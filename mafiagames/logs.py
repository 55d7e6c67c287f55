"""Log filters for settings.LOGGING."""

from __future__ import annotations

import logging


class WithoutTraceback(logging.Filter):
    """Drop a record's traceback, keeping its message: one line per refused request.

    Django logs every request it refuses as suspicious (a Host not in ALLOWED_HOSTS, too many
    form fields, a body over DATA_UPLOAD_MAX_MEMORY_SIZE) to ``django.security.*`` with the
    exception attached, and daphne's root handler prints its ~25-line traceback: a phone or a
    scanner sending such requests would bury the log.  The traceback says nothing the message
    does not: the request was refused before any of our code ran.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info = record.exc_text = None
        return True
