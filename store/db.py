"""SQLite access through sqlite-utils: file creation, per-request connection."""
from __future__ import annotations

import os
import sqlite3

import sqlite_utils
from flask import Flask, current_app, g

#: bump when the stored layout changes (and add the migration next to it)
SCHEMA_VERSION = 1


def connect(path: str | os.PathLike) -> sqlite_utils.Database:
    """Open the database file; waits up to 5 s for another writer's lock."""
    return sqlite_utils.Database(sqlite3.connect(os.fspath(path), timeout=5.0))


def init_db(path: str | os.PathLike) -> None:
    """Create the file on first start (WAL mode, ``meta`` table with the schema version)."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    db = connect(path)
    try:
        db.enable_wal()
        db["meta"].create({"key": str, "value": str}, pk="key", if_not_exists=True)
        db["meta"].insert({"key": "schema_version", "value": str(SCHEMA_VERSION)}, ignore=True)
    finally:
        db.close()


def get_db() -> sqlite_utils.Database:
    """The current request's connection, opened on first use."""
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


def init_app(app: Flask) -> None:
    init_db(app.config["DATABASE"])
    app.teardown_appcontext(close_db)
