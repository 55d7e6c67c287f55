"""db.py: the one writer thread and who checkpoints SQLite's write-ahead log."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.db import connection

from mafiagames import db
from mafiagames.models import Room

pytestmark = pytest.mark.skipif(connection.vendor != "sqlite", reason="the write-ahead log is SQLite's")


def _autocheckpoint() -> int:
    with db.this_connection().cursor() as cursor:
        cursor.execute("PRAGMA wal_autocheckpoint")
        return cursor.fetchone()[0]


@pytest.mark.django_db(transaction=True)
async def test_the_writer_leaves_checkpoints_to_a_thread_of_their_own():
    """A tap's commit never copies the log into the database (it waited ~6 ms for that), yet
    the log stays small: every CHECKPOINT_EVERY writes the checkpoint thread copies it, and
    the writer then starts the log over from its beginning."""
    room = await Room.objects.acreate(code="WALT")
    pad = "x" * 16_000

    def write(i: int) -> None:
        Room.objects.filter(pk=room.pk).update(options={"pad": pad, "i": i})

    assert await db.write(_autocheckpoint) == 0
    waited = None
    writes = 10 * db.CHECKPOINT_EVERY
    for i in range(writes):
        await db.write(write, i)
        if db._Wal.last is not waited:  # let it finish before the next write, as an idle moment would
            waited = db._Wal.last
            await asyncio.wrap_future(waited)
    assert waited is not None, "no checkpoint was asked for"
    assert (await Room.objects.aget(pk=room.pk)).options["i"] == writes - 1
    # Every commit adds at least one frame to the log.  Without checkpoints the log would now hold
    # them all; with them, only those since it last started over (about CHECKPOINT_EVERY commits').
    busy, frames, _copied = await sync_to_async(_checkpoint_here)()
    assert busy == 0
    assert frames < writes / 2


def _checkpoint_here():
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_checkpoint(PASSIVE)")
        return cursor.fetchone()
