"""Deployment-wide values kept in the database's ``meta`` table, so that every server
process — on one host or many, SQLite or PostgreSQL — reads the same one (issue #16: nothing
coordinated through files beside the database).
"""
from __future__ import annotations

import os
from collections.abc import Callable

from store.db import connect


def shared_value(database: str | os.PathLike, key: str, make: Callable[[], str]) -> str:
    """``meta[key]``, made by *make* and stored by the first process that asks: the others,
    racing it, read the stored one (an insert that does nothing when the key is taken)."""
    db = connect(database)
    try:
        db.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING", (key, make()))
        db.conn.commit()
        row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    finally:
        db.close()
    return row[0]


__all__ = ["shared_value"]
