"""The stored layout and its migrations, keyed by :data:`SCHEMA_VERSION`.

``meta.schema_version`` says which layout a file has; :func:`migrate` brings any older
file up to date, one step at a time, each step in its own transaction. A file newer
than this code is refused (an old binary must not write into a newer layout).

The event log is the source of truth:

* ``events`` — every fact a table sent (``stream = 'play'``) and every act of an
  official on a table (``stream = 'official'``: overrides), in arrival order (``id``).
  Append-only: the database itself refuses ``UPDATE`` and ``DELETE`` (triggers).
  ``UNIQUE (table_id, stream, hand, seq)``: a table's play stream has one event per
  (hand, seq). ``answer`` is the verdict acknowledged to the sender (the idempotent
  reply to a resend).
* ``tournament_events`` — the same for a tournament's life (issue #7).
* ``idempotency_keys`` — the ``Idempotency-Key`` of a tournament write and the answer it got
  (status, body, headers), written in the transaction that appended the write's events
  (``first_seq``–``last_seq``): a resend is answered from here (issue #12 item 7).
  Append-only like the logs.

Everything else is either configuration written once (``tables``, ``tournaments``,
``tokens``, ``pins``; ``seat_names``, set by officials on the console) or a projection of the log that
:func:`store.projections.rebuild` can drop and replay (``hands``, ``rulings``, ``overrides``).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from store.dialect import LOCK_MIGRATE, PgDatabase, append_only, begin_write, ddl, table_exists

#: a connection of either backend (:mod:`store.dialect`)
Database = Any

#: bump when the stored layout changes, and add the step to :data:`MIGRATIONS`
SCHEMA_VERSION = 4


class SchemaTooNewError(RuntimeError):
    """The file was written by a newer mjref (its schema version is above ours)."""


def _append_only(db: Database, table: str) -> None:
    append_only(db, table)


def _create(db: Database, sql: str) -> None:
    db.execute(ddl(db, sql))


def _v1(db: Database) -> None:
    """The first layout: only ``meta``."""
    _create(db, "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")


def _v2(db: Database) -> None:
    """Tables, the event log, projections, tokens, tournaments (issue #6)."""
    _create(db,
        """CREATE TABLE tournaments (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL DEFAULT '',
            config TEXT NOT NULL DEFAULT '{}',
            created_at TEXT NOT NULL,
            created_by INTEGER
        )"""
    )
    _create(db,
        """CREATE TABLE tournament_events (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            tournament_id TEXT NOT NULL REFERENCES tournaments(id),
            seq INTEGER NOT NULL,
            type TEXT NOT NULL,
            body TEXT NOT NULL,
            actor INTEGER,
            received_at TEXT NOT NULL,
            UNIQUE (tournament_id, seq)
        )"""
    )
    _append_only(db, "tournament_events")
    _create(db,
        """CREATE TABLE tables (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL DEFAULT '',
            mode TEXT NOT NULL DEFAULT 'digital' CHECK (mode IN ('digital', 'physical')),
            ruleset TEXT NOT NULL,
            params TEXT NOT NULL DEFAULT '{}',
            tournament_id TEXT REFERENCES tournaments(id),
            created_at TEXT NOT NULL,
            created_by INTEGER
        )"""
    )
    _create(db,
        """CREATE TABLE events (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            table_id TEXT NOT NULL REFERENCES tables(id),
            stream TEXT NOT NULL DEFAULT 'play' CHECK (stream IN ('play', 'official')),
            hand INTEGER NOT NULL,
            seq INTEGER NOT NULL,
            type TEXT NOT NULL,
            body TEXT NOT NULL,
            answer TEXT NOT NULL DEFAULT '{}',
            actor INTEGER,
            received_at TEXT NOT NULL,
            UNIQUE (table_id, stream, hand, seq)
        )"""
    )
    _append_only(db, "events")
    # projections: rebuilt from the log by store.projections.rebuild()
    _create(db,
        """CREATE TABLE hands (
            table_id TEXT NOT NULL REFERENCES tables(id),
            hand INTEGER NOT NULL,
            ended INTEGER NOT NULL DEFAULT 0,
            outcome TEXT NOT NULL DEFAULT 'null',
            payments TEXT NOT NULL DEFAULT '[0, 0, 0, 0]',
            updated_at TEXT NOT NULL,
            PRIMARY KEY (table_id, hand)
        )"""
    )
    _create(db,
        """CREATE TABLE rulings (
            table_id TEXT NOT NULL REFERENCES tables(id),
            hand INTEGER NOT NULL,
            id TEXT NOT NULL,
            seq INTEGER,
            kind TEXT NOT NULL,
            code TEXT NOT NULL,
            clause TEXT,
            seat INTEGER,
            status TEXT NOT NULL DEFAULT 'standing' CHECK (status IN ('standing', 'overruled', 'amended')),
            ruling TEXT NOT NULL,
            effective TEXT NOT NULL,
            PRIMARY KEY (table_id, hand, id)
        )"""
    )
    _create(db,
        """CREATE TABLE overrides (
            event_id INTEGER PRIMARY KEY REFERENCES events(id),
            table_id TEXT NOT NULL REFERENCES tables(id),
            hand INTEGER NOT NULL,
            ruling_id TEXT NOT NULL,
            decision TEXT NOT NULL,
            reason TEXT NOT NULL,
            reason_zh TEXT NOT NULL,
            actor INTEGER,
            actor_label TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL
        )"""
    )
    db.execute("CREATE INDEX overrides_by_ruling ON overrides (table_id, hand, ruling_id)")
    _create(db,
        """CREATE TABLE tokens (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            hash TEXT NOT NULL UNIQUE,
            prefix TEXT NOT NULL,
            role TEXT NOT NULL CHECK (role IN ('table', 'official', 'admin')),
            table_id TEXT REFERENCES tables(id),
            label TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL,
            revoked_at TEXT,
            CHECK ((role = 'table') = (table_id IS NOT NULL))
        )"""
    )


def _v3(db: Database) -> None:
    """Idempotency keys of tournament writes (issue #12 item 7), scoped per token: one
    row per ``(principal, key)``, with what the first request was (``fingerprint``: the
    method, path and canonical body hashed) and the answer it got."""
    _create(db,
        """CREATE TABLE idempotency_keys (
            principal INTEGER NOT NULL,
            key TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            method TEXT NOT NULL,
            path TEXT NOT NULL,
            tournament_id TEXT,
            first_seq INTEGER,
            last_seq INTEGER,
            status INTEGER NOT NULL,
            answer TEXT NOT NULL,
            headers TEXT NOT NULL DEFAULT '{}',
            created_at TEXT NOT NULL,
            PRIMARY KEY (principal, key)
        )"""
    )
    _append_only(db, "idempotency_keys")


def _v4(db: Database) -> None:
    """The officials' console (issue #14 item 1): a table scorer's short PIN, bound to a
    table token (signing in with it acts as that token; revoking either ends the sessions),
    stored as a salted PBKDF2 hash (``salt``, ``hash``) with its table for the lookup; and
    the names of the players at each seat of a table, for the pages (payments by name)."""
    _create(db,
        """CREATE TABLE pins (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            token_id INTEGER NOT NULL REFERENCES tokens(id),
            table_id TEXT NOT NULL REFERENCES tables(id),
            salt TEXT NOT NULL,
            hash TEXT NOT NULL,
            label TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL,
            revoked_at TEXT
        )"""
    )
    _create(db, "CREATE INDEX pins_by_table ON pins (table_id)")
    _create(db,
        """CREATE TABLE seat_names (
            table_id TEXT NOT NULL REFERENCES tables(id),
            seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
            name TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            PRIMARY KEY (table_id, seat)
        )"""
    )


#: ``version -> step``: the step brings a file at ``version - 1`` to ``version``
MIGRATIONS: dict[int, Callable[[Database], None]] = {1: _v1, 2: _v2, 3: _v3, 4: _v4}
assert sorted(MIGRATIONS) == list(range(1, SCHEMA_VERSION + 1))


def current_version(db: Database) -> int:
    """The file's schema version; 0 for an empty file."""
    if not table_exists(db, "meta"):
        return 0
    row = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    return int(row[0]) if row else 0


def migrate(db: Database, target: int = SCHEMA_VERSION) -> list[int]:
    """Apply the missing steps up to *target*; the steps applied, in order.

    Each step and its version bump commit together: a crash between steps leaves a file
    at a known version, never half a step.

    :raises SchemaTooNewError: the file is newer than this code.
    """
    conn = db.conn
    applied = []
    version = current_version(db)
    if version > SCHEMA_VERSION:
        raise SchemaTooNewError(
            f"database schema version {version} is newer than this mjref ({SCHEMA_VERSION}); upgrade mjref "
            f"/ 資料庫結構版本 {version} 比本程式（{SCHEMA_VERSION}）新，請更新 mjref"
        )
    pg = isinstance(db, PgDatabase)
    while version < target:
        step = version + 1
        if pg:  # servers starting at once migrate one after another; taken before BEGIN, so that
            # the transaction starts after the previous holder's commit and sees its tables
            conn.execute("SELECT pg_advisory_lock(CAST(? AS INTEGER), 0)", (LOCK_MIGRATE,))
        begin_write(db)
        try:
            if current_version(db) != version:  # another process migrated meanwhile
                conn.execute("ROLLBACK")
                version = current_version(db)
                continue
            MIGRATIONS[step](db)
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('schema_version', ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (str(step),),
            )
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        finally:
            if pg:
                conn.execute("SELECT pg_advisory_unlock(CAST(? AS INTEGER), 0)", (LOCK_MIGRATE,))
        applied.append(step)
        version = step
    return applied
