"""Where database work runs when it is called from the event loop (DESIGN.md §4, §8).

All writes of this process go through one thread: SQLite then never sees two writers of
ours at once (its busy handler would make the second *sleep* in steps of up to 100 ms), and
"one writer" is literally true.  Screen loads, which only read, go through a small pool of
their own.  Both keep their database connection open between calls — opening one per call
cost more than the work — and drop it after a database error so the next call reconnects.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from concurrent.futures import ThreadPoolExecutor

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections

_writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="db-writer")
_readers = ThreadPoolExecutor(max_workers=2, thread_name_prefix="db-reader")


def _run(fn, args, kwargs):
    try:
        return fn(*args, **kwargs)
    except DatabaseError:
        connection.close()  # a broken connection must not be reused
        raise


async def _submit(pool, fn, *args, **kwargs):
    context = contextvars.copy_context()  # the caller's language and the like
    call = functools.partial(context.run, _run, fn, args, kwargs)
    return await asyncio.get_running_loop().run_in_executor(pool, call)


async def write(fn, *args, **kwargs):
    """Run ``fn`` (which may write) on this process's single writer thread."""
    return await _submit(_writer, fn, *args, **kwargs)


async def read(fn, *args, **kwargs):
    """Run a read-only ``fn`` on a reader thread."""
    return await _submit(_readers, fn, *args, **kwargs)


def this_connection():
    """This thread's connection.  ``django.db.connection`` is a proxy that looks the connection
    up (a context-local lookup) on every attribute access: on a tap's path that cost more than
    running its statements (docs/performance.md)."""
    return connections[DEFAULT_DB_ALIAS]
