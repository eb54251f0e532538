"""SQLite access through sqlite-utils: file creation and migrations, per-request connection,
and the one writer per app (:class:`store.writer.GroupCommitter`).

Configuration read here (``app.config``, env ``MJREF_*``):

``DATABASE``
    the SQLite file (created with its folder on first start).
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

from store.schema import SCHEMA_VERSION, migrate
from store.writer import GroupCommitter

__all__ = ["SCHEMA_VERSION", "close_db", "connect", "get_db", "get_writer", "init_app", "init_db", "reader"]

#: seconds a connection waits for another writer's lock before giving up
BUSY_TIMEOUT = 5.0
SYNCHRONOUS_LEVELS = ("OFF", "NORMAL", "FULL", "EXTRA")


def connect(path: str | os.PathLike, *, synchronous: str = "FULL", check_same_thread: bool = True) -> sqlite_utils.Database:
    """Open the database file with mjref's pragmas (foreign keys on, WAL expected).

    Waits up to :data:`BUSY_TIMEOUT` seconds for another writer's lock.
    """
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
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    db = connect(path)
    try:
        db.enable_wal()
        return migrate(db)
    finally:
        db.close()


def get_db() -> sqlite_utils.Database:
    """The current request's read connection.

    Each server thread keeps one connection per app and reuses it request after request:
    opening one costs about a millisecond (SQLite reads the schema again), far more than
    a request's reads. Writes go through :func:`get_writer` instead, so that they are
    group-committed and ordered with the live ingest.
    """
    if "db" not in g:
        g.db = reader(current_app._get_current_object())
    return g.db


def reader(app: Flask) -> sqlite_utils.Database:
    """The calling thread's read connection for *app*, outside a request context (the
    live-ingest fast path, :mod:`api.tables`); the same connection :func:`get_db` uses."""
    readers: threading.local = app.extensions["mjref.readers"]
    db = getattr(readers, "db", None)
    if db is None:
        db = readers.db = connect(app.config["DATABASE"], synchronous=_synchronous(app))
    return db


def get_writer(app: Flask | None = None) -> GroupCommitter:
    """The app's single writer: ``get_writer().submit(work)`` runs ``work(tx)`` in a
    group-committed transaction and returns its result once it is committed."""
    return (app or current_app).extensions["mjref.writer"]


def close_db(exc: BaseException | None = None) -> None:
    """End of a request: the thread's connection stays open for the next one, but must
    not carry a transaction over (a view that wrote through it and failed)."""
    db = g.pop("db", None)
    if db is not None and db.conn.in_transaction:
        db.conn.rollback()


def _synchronous(app: Flask) -> str:
    return str(app.config.get("SQLITE_SYNCHRONOUS", "FULL"))


def init_app(app: Flask) -> None:
    init_db(app.config["DATABASE"])
    app.extensions["mjref.readers"] = threading.local()
    app.extensions["mjref.writer"] = GroupCommitter(
        lambda: connect(app.config["DATABASE"], synchronous=_synchronous(app), check_same_thread=False),
        max_batch=int(app.config.get("WRITE_BATCH_MAX", 256)),
        lock_path=os.fspath(app.config["DATABASE"]) + "-writelock",
    )
    app.teardown_appcontext(close_db)
