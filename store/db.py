"""Database access, SQLite (sqlite-utils) or PostgreSQL (psycopg 3): creation and migrations,
per-request connection, and the one writer per app (:class:`store.writer.GroupCommitter`).

Configuration read here (``app.config``, env ``MJREF_*``):

``DATABASE``
    the SQLite file (created with its folder on first start), or a PostgreSQL URL
    (``postgresql://user:password@host:5432/mjref``: the database must exist; its tables
    are created and migrated on start), issue #16 item 1. See ``docs/deploy.md``.
``PG_POOL_SIZE``
    PostgreSQL only: most read connections one app process keeps (default 16); a request
    takes one from the pool for its reads and gives it back at its end.
``PG_POOL_TIMEOUT``
    PostgreSQL only: seconds a request waits for a read connection (default 5) before it is
    answered 503 ``store_unavailable`` (the database down or every connection busy).
``WRITE_PIPELINE``
    PostgreSQL only: ``true`` (default) sends a write batch whose jobs declared their
    statements (the live ingest's posts) in one round trip (:mod:`store.writer`); ``false``
    runs every batch the reference way (a round trip per statement). The same rows either way.
``SQLITE_SYNCHRONOUS``
    ``FULL`` (default): every commit is on disk (fsync of the WAL) before a request is
    acknowledged; survives a power cut. ``NORMAL``: the WAL is synced only at checkpoints;
    a committed transaction survives a crash of the process (SIGKILL) but may be lost on
    a power cut or OS crash. See ``docs/api.md``.
"""
from __future__ import annotations

import os
import sqlite3
import threading

import sqlite_utils
from flask import Flask, current_app, g

from store.dialect import DATABASE_ERRORS, PgDatabase, is_postgres
from store.schema import SCHEMA_VERSION, migrate
from store.writer import GroupCommitter

__all__ = ["SCHEMA_VERSION", "close_db", "connect", "get_db", "get_writer", "init_app", "init_db", "reader",
           "release_reader"]

#: seconds a connection waits for another writer's lock before giving up
BUSY_TIMEOUT = 5.0
SYNCHRONOUS_LEVELS = ("OFF", "NORMAL", "FULL", "EXTRA")


def connect(path: str | os.PathLike, *, synchronous: str = "FULL", check_same_thread: bool = True):
    """Open the database: a SQLite file with mjref's pragmas (foreign keys on, WAL expected;
    waits up to :data:`BUSY_TIMEOUT` seconds for another writer's lock), or for a
    ``postgresql://`` URL a :class:`store.dialect.PgDatabase` (autocommit; ``synchronous``
    does not apply: PostgreSQL's ``synchronous_commit`` is its own setting).
    """
    if is_postgres(path):
        return PgDatabase(path)
    level = synchronous.upper()
    if level not in SYNCHRONOUS_LEVELS:
        raise ValueError(f"SQLITE_SYNCHRONOUS must be one of {SYNCHRONOUS_LEVELS}, not {synchronous!r}")
    conn = sqlite3.connect(os.fspath(path), timeout=BUSY_TIMEOUT, check_same_thread=check_same_thread)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute(f"PRAGMA synchronous = {level}")
    return sqlite_utils.Database(conn, execute_plugins=False)


def init_db(path: str | os.PathLike) -> list[int]:
    """Create the file (and its folder) on first start, switch it to WAL, migrate it to
    :data:`SCHEMA_VERSION`. Safe to call on every start; returns the migration steps applied.
    """
    if is_postgres(path):
        db = connect(path)
        try:
            return migrate(db)
        finally:
            db.close()
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    db = connect(path)
    try:
        db.enable_wal()
        return migrate(db)
    finally:
        db.close()


def get_db():
    """The current request's read connection.

    Each server thread keeps one connection per app and reuses it request after request:
    opening one costs about a millisecond (SQLite reads the schema again), far more than
    a request's reads. Writes go through :func:`get_writer` instead, so that they are
    group-committed and ordered with the live ingest.
    """
    if "db" not in g:
        g.db = reader(current_app._get_current_object())
    return g.db


def reader(app: Flask, *, check: bool = True):
    """The calling thread's read connection for *app*, outside a request context (the
    live-ingest fast path, :mod:`api.tables`); the same connection :func:`get_db` uses.

    On PostgreSQL the connection comes from the app's pool (``PG_POOL_SIZE``) and is given
    back when the request ends (:func:`close_db`), or by :func:`release_reader`. A pooled
    connection may have gone stale while idle (PostgreSQL restarted): with *check* it is
    tried first (an empty statement, a round trip) and replaced if broken. The live-ingest
    fast path passes ``check=False`` and saves that round trip: its first statement is the
    check, and a request whose connection fails there goes to Flask, whose read connection
    is a checked one (the broken one given back, :func:`_pooled`)."""
    readers: threading.local = app.extensions["mjref.readers"]
    db = getattr(readers, "db", None)
    if db is None or getattr(db, "closed", False):
        pool = app.extensions.get("mjref.pool")
        if pool is not None:
            if db is not None:  # broken: back to the pool, which drops it and opens another
                release_reader(app)
            db = readers.db = PgDatabase(app.config["DATABASE"], connection=_pooled(pool, check))
            readers.pool = pool
        else:
            db = readers.db = connect(app.config["DATABASE"], synchronous=_synchronous(app))
    return db


def _pooled(pool, check: bool):
    """A connection from *pool*; with *check*, one that answers (a broken one is given back,
    the pool drops it, and the next is tried: as the pool's own ``check`` would do)."""
    for _ in range(pool.max_size + 1):
        raw = pool.getconn()
        if not check:
            return raw
        try:
            pool.check_connection(raw)
            return raw
        except DATABASE_ERRORS:
            pool.putconn(raw)
    return pool.getconn()  # every one tried was broken (the database down?): its first statement will say


def release_reader(app: Flask) -> None:
    """Give a pooled (PostgreSQL) read connection of this thread back to the pool; a SQLite
    connection stays open for the thread's next request (opening one costs a schema read)."""
    readers: threading.local = app.extensions["mjref.readers"]
    pool = getattr(readers, "pool", None)
    db = getattr(readers, "db", None)
    if pool is not None and db is not None:
        readers.db = readers.pool = None
        if db.in_transaction and not db.closed:
            db.raw.rollback()
        pool.putconn(db.raw)


def get_writer(app: Flask | None = None) -> GroupCommitter:
    """The app's single writer: ``get_writer().submit(work)`` runs ``work(tx)`` in a
    group-committed transaction and returns its result once it is committed."""
    return (app or current_app).extensions["mjref.writer"]


def close_db(exc: BaseException | None = None) -> None:
    """End of a request: the thread's connection stays open for the next one, but must
    not carry a transaction over (a view that wrote through it and failed)."""
    db = g.pop("db", None)
    if db is not None and not getattr(db, "closed", False) and db.conn.in_transaction:
        db.conn.rollback()
    if isinstance(db, PgDatabase):
        release_reader(current_app._get_current_object())


def _synchronous(app: Flask) -> str:
    return str(app.config.get("SQLITE_SYNCHRONOUS", "FULL"))


def close_app(app: Flask) -> None:
    """Close what :func:`init_app` opened: the writer's connection, the read pool (PostgreSQL)."""
    get_writer(app).close()
    pool = app.extensions.pop("mjref.pool", None)
    if pool is not None:
        pool.close()


def init_app(app: Flask) -> None:
    database = app.config["DATABASE"]
    init_db(database)
    app.extensions["mjref.readers"] = threading.local()
    if is_postgres(database):
        from psycopg_pool import ConnectionPool

        app.extensions["mjref.pool"] = ConnectionPool(
            database, min_size=1, max_size=max(1, int(app.config.get("PG_POOL_SIZE", 16))),
            kwargs={"autocommit": True, "application_name": "mjref", "prepare_threshold": None},  # see PgDatabase
            open=True, name="mjref-readers",
            timeout=float(app.config.get("PG_POOL_TIMEOUT", 5)))  # checked by reader(), not on every getconn
        # several servers on one database take turns through advisory locks (store.writer)
        app.extensions["mjref.writer"] = GroupCommitter(
            lambda: PgDatabase(database, application_name="mjref-writer"),
            max_batch=int(app.config.get("WRITE_BATCH_MAX", 256)),
            pipeline=bool(app.config.get("WRITE_PIPELINE", True)))
    else:
        app.extensions["mjref.writer"] = GroupCommitter(
            lambda: connect(database, synchronous=_synchronous(app), check_same_thread=False),
            max_batch=int(app.config.get("WRITE_BATCH_MAX", 256)), pipeline=False,
            lock_path=os.fspath(database) + "-writelock",
        )
    app.teardown_appcontext(close_db)
