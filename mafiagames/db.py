"""Where database work runs when it is called from the event loop (docs/design.md §4, §8).

All writes of this process go through one thread: SQLite then never sees two writers of
ours at once (its busy handler would make the second *sleep* in steps of up to 100 ms), and
"one writer" is literally true.  Screen loads, which only read, go through a small pool of
their own.  Both keep their database connection open between calls — opening one per call
cost more than the work — and drop it after a database error so the next call reconnects.

With SQLite, the writer never checkpoints the write-ahead log itself: by default the commit
that takes the log past 1,000 pages copies it into the database file and syncs it, and the tap
that happened to make that commit waited ~6 ms for it (docs/performance.md).  Every
``CHECKPOINT_EVERY`` writes a thread of its own checkpoints instead, beside the writer.

The writer serves rooms first come, first served, so a room's taps wait in a queue of their own
(``write_queued``): at most ``MAX_QUEUED`` of one room wait at once, and one more is refused at
once (``Busy``) instead of making every other room's taps wait behind it.  Screens ask
``settled`` before rendering: taps already queued will each make a newer version, and only the
newest is worth rendering.

At the end, the statements every tap runs, in plain SQL (``running_game_locked``, ``insert``,
``update``, ``room_of_player``): the one place of the app that writes SQL by hand.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
import weakref
from concurrent.futures import Future, ThreadPoolExecutor

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections

from .models import Game, Player, Room

_writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="db-writer")
_readers = ThreadPoolExecutor(max_workers=2, thread_name_prefix="db-reader")
_checkpointer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="db-checkpoint")

CHECKPOINT_EVERY = 50  # writes: a checkpoint then copies a few hundred pages, not a thousand
# Taps of one room waiting for the writer: more than a full room tapping at the same instant
# (the classic game seats 21; keep it at least the number of players a room admits), so only a
# flood — many sockets of one room, each with a tap in flight — meets the limit.  Any other
# room's tap waits behind at most this many of it.
MAX_QUEUED = 32
log = logging.getLogger(__name__)


class _Wal:
    """The writer thread's bookkeeping of the log (touched by that thread only)."""

    told = None         # the sqlite3 connection told not to checkpoint (a reconnect needs telling again)
    writes = 0          # since the last checkpoint was asked for
    last: Future | None = None  # the newest checkpoint asked for (tests wait for it)


def _run(fn, args, kwargs):
    try:
        return fn(*args, **kwargs)
    except DatabaseError:
        connection.close()  # a broken connection must not be reused
        raise


def _run_writer(fn, args, kwargs):
    conn = this_connection()
    if conn.vendor != "sqlite":
        return _run(fn, args, kwargs)
    conn.ensure_connection()
    if conn.connection is not _Wal.told:
        conn.connection.execute("PRAGMA wal_autocheckpoint=0")
        _Wal.told = conn.connection
    try:
        return _run(fn, args, kwargs)
    finally:
        _Wal.writes += 1
        if _Wal.writes >= CHECKPOINT_EVERY:
            _Wal.writes = 0
            _Wal.last = _checkpointer.submit(_checkpoint)


def _checkpoint():
    """On the checkpoint thread: copy what the log holds into the database file.  PASSIVE: it
    waits for no reader and no writer, and the writer goes on appending meanwhile."""
    try:
        with this_connection().cursor() as cursor:
            cursor.execute("PRAGMA wal_checkpoint(PASSIVE)")
    except DatabaseError:
        connection.close()
        log.exception("checkpoint failed; the next one tries again")


def _submit(pool, fn, args, kwargs) -> asyncio.Future:
    """Queue ``fn`` on ``pool`` now (not when the caller's task next runs)."""
    context = contextvars.copy_context()  # the caller's language and the like
    call = functools.partial(context.run, _run_writer if pool is _writer else _run, fn, args, kwargs)
    return asyncio.get_running_loop().run_in_executor(pool, call)


async def write(fn, *args, **kwargs):
    """Run ``fn`` (which may write) on this process's single writer thread."""
    return await _submit(_writer, fn, args, kwargs)


async def read(fn, *args, **kwargs):
    """Run a read-only ``fn`` on a reader thread."""
    return await _submit(_readers, fn, args, kwargs)


class Busy(Exception):
    """A room already has ``MAX_QUEUED`` writes waiting for the writer thread."""


_queued: dict[str, set[asyncio.Future]] = {}  # room → its writes not yet done (on the event loop)


def _waiting(room: str) -> set[asyncio.Future]:
    """The room's writes still running, on this event loop (tests start a new loop each time)."""
    loop = asyncio.get_running_loop()
    waiting = {f for f in _queued.get(room, ()) if not f.done() and f.get_loop() is loop}
    if waiting:
        _queued[room] = waiting
    else:
        _queued.pop(room, None)
    return waiting


def _finished(room: str, future: asyncio.Future) -> None:
    waiting = _queued.get(room)
    if waiting is not None:
        waiting.discard(future)
        if not waiting:
            del _queued[room]
    if not future.cancelled():
        future.exception()  # seen: its caller gets it through the shield, or has gone


async def write_queued(room: str, fn, *args, **kwargs):
    """``write`` for one of ``room``'s taps, in the room's queue; raises ``Busy`` at once when
    ``MAX_QUEUED`` of them are waiting already.  The write counts as queued until it has run,
    even if the caller stops waiting for it."""
    if len(_waiting(room)) >= MAX_QUEUED:
        raise Busy(room)
    future = _submit(_writer, fn, args, kwargs)
    _queued.setdefault(room, set()).add(future)
    future.add_done_callback(functools.partial(_finished, room))
    return await asyncio.shield(future)


async def settled(room: str) -> None:
    """Until the writes of ``room`` queued so far have run (not any queued meanwhile, so a room
    that keeps tapping cannot keep its screens waiting for more than ``MAX_QUEUED`` writes).
    Each write has pinged the screens before it counts as done here."""
    waiting = _waiting(room)
    if waiting:
        await asyncio.wait(waiting)


def this_connection():
    """This thread's connection.  ``django.db.connection`` is a proxy that looks the connection
    up (a context-local lookup) on every attribute access: on a tap's path that cost more than
    running its statements (docs/performance.md)."""
    return connections[DEFAULT_DB_ALIAS]


# --- the statements of every tap, in plain SQL ---------------------------------------------------
# Measured (docs/performance.md): the ORM compiled these statements afresh on every tap, which
# cost several times what running them did.  Values go through each field's own conversion, so
# what is stored is exactly what the ORM would store, on SQLite and PostgreSQL alike.

def running_game_locked(room_id: int) -> Game | None:
    """The room's running game, its row locked until the transaction ends (PostgreSQL; on
    SQLite the IMMEDIATE transaction already holds the database's write lock)."""
    conn = this_connection()
    sql, names, converters = _game_select(conn)
    with conn.cursor() as cursor:
        cursor.execute(sql, [room_id, Game.Status.RUNNING])
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row)
    for i, (functions, expression) in converters.items():  # as the ORM converts what it reads
        for convert in functions:
            values[i] = convert(values[i], expression, conn)
    return Game.from_db(conn.alias, names, values)


_GAME_SELECTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _game_select(conn) -> tuple[str, list[str], dict]:
    """The SELECT of ``running_game_locked``, the field names and the ORM's converters of its
    columns, made once per connection (the converters are the connection's own)."""
    made = _GAME_SELECTS.get(conn)
    if made is None:
        fields = Game._meta.concrete_fields
        lock = " FOR UPDATE" if conn.features.has_select_for_update else ""
        sql = (f"SELECT {', '.join(conn.ops.quote_name(f.column) for f in fields)} FROM {Game._meta.db_table} "
               f"WHERE room_id = %s AND status = %s ORDER BY id DESC LIMIT 1{lock}")
        compiler = Game.objects.none().query.get_compiler(connection=conn)
        converters = compiler.get_converters([f.get_col(Game._meta.db_table) for f in fields])
        made = _GAME_SELECTS[conn] = (sql, [f.attname for f in fields], converters)
    return made


_COLUMNS: dict = {}


def _columns(conn, model, names: tuple[str, ...]) -> tuple[list, list[str]]:
    """The fields of these names and their quoted columns (the same for every connection of
    a kind of database)."""
    key = (conn.vendor, model, names)
    made = _COLUMNS.get(key)
    if made is None:
        fields = [model._meta.get_field(name) for name in names]
        made = _COLUMNS[key] = (fields, [conn.ops.quote_name(f.column) for f in fields])
    return made


def insert(model, rows: list[dict]) -> None:
    """INSERT rows (dicts of field name → value, all with the same fields)."""
    if not rows:
        return
    conn = this_connection()
    fields, columns = _columns(conn, model, tuple(rows[0]))
    sql = (f"INSERT INTO {model._meta.db_table} ({', '.join(columns)}) "
           f"VALUES ({', '.join(['%s'] * len(columns))})")
    with conn.cursor() as cursor:
        cursor.executemany(sql, [[f.get_db_prep_save(row[f.name], conn) for f in fields] for row in rows])


def update(instance, names: list[str]) -> None:
    """UPDATE these fields of ``instance``'s row."""
    conn = this_connection()
    fields, columns = _columns(conn, type(instance), tuple(names))
    sql = f"UPDATE {instance._meta.db_table} SET {', '.join(c + ' = %s' for c in columns)} WHERE id = %s"
    with conn.cursor() as cursor:
        cursor.execute(sql, [*(f.get_db_prep_save(getattr(instance, f.name), conn) for f in fields), instance.pk])


def room_of_player(player_id: int, token: str) -> Room | None:
    """The room of a player holding ``token`` (only what a tap needs of it), in one plain
    statement: every tap of every phone runs it (docs/performance.md)."""
    conn = this_connection()
    with conn.cursor() as cursor:
        cursor.execute(f"SELECT r.id, r.code, r.language, r.ruleset FROM {Room._meta.db_table} r "
                       f"JOIN {Player._meta.db_table} p ON p.room_id = r.id WHERE p.id = %s AND p.token = %s",
                       [player_id, token])
        row = cursor.fetchone()
    # Loaded like ``only(...)``: should anyone save it, only these fields would be written.
    return None if row is None else Room.from_db(conn.alias, ["id", "code", "language", "ruleset"], row)
