"""API tokens: only their SHA-256 hash is stored (``api/auth.py`` makes the secrets)."""
from __future__ import annotations

from collections.abc import Sequence

from store.dialect import LOCK_WRITE, PgDatabase
from store.tables import Database, now

_COLUMNS = "id, prefix, role, table_id, label, created_at, revoked_at"


def _token(row: Sequence) -> dict:
    return {"id": row[0], "prefix": row[1], "role": row[2], "table": row[3], "label": row[4],
            "created_at": row[5], "revoked_at": row[6]}


def add_token(db: Database, *, digest: str, prefix: str, role: str, table_id: str | None,
              label: str = "") -> dict:
    token_id = db.execute(
        "INSERT INTO tokens (hash, prefix, role, table_id, label, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
        (digest, prefix, role, table_id, label, now()),
    ).fetchone()[0]
    return get_token(db, token_id)


def get_token(db: Database, token_id: int) -> dict | None:
    row = db.execute(f"SELECT {_COLUMNS} FROM tokens WHERE id = ?", (token_id,)).fetchone()
    return _token(row) if row else None


def token_by_hash(db: Database, digest: str) -> dict | None:
    """The live (not revoked) token with this hash."""
    row = db.execute(f"SELECT {_COLUMNS} FROM tokens WHERE hash = ? AND revoked_at IS NULL", (digest,)).fetchone()
    return _token(row) if row else None


def list_tokens(db: Database, *, include_revoked: bool = False) -> list[dict]:
    sql = f"SELECT {_COLUMNS} FROM tokens" + ("" if include_revoked else " WHERE revoked_at IS NULL") + " ORDER BY id"
    return [_token(r) for r in db.execute(sql)]


def revoke_token(db: Database, token_id: int) -> dict | None:
    """Revoke a token (kept for the audit trail); ``None`` if there is no such token.

    The same transaction counts the revocation in ``meta.tokens_revoked``: every server
    reads that count to know its cached tokens are stale (:func:`revocations`).

    On PostgreSQL it first takes the writers' lock exclusive (a no-op under the write
    batch's own, ``store.writer``; ``flask tokens revoke`` has none): a write batch reads the
    count once, at its BEGIN, and holds that lock shared until it commits, so no revocation
    commits while a batch that read the old count may still write (issue #16 items 2, 5)."""
    if isinstance(db, PgDatabase):
        db.execute(f"SELECT pg_advisory_xact_lock({LOCK_WRITE}, 0)")
    cursor = db.execute("UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", (now(), token_id))
    if cursor.rowcount:
        db.execute("INSERT INTO meta (key, value) VALUES ('tokens_revoked', '1') ON CONFLICT (key) "
                   "DO UPDATE SET value = CAST(CAST(meta.value AS INTEGER) + 1 AS TEXT)")
    return get_token(db, token_id)


#: the revocation count's read (:func:`revocations`); on PostgreSQL every write batch also
#: reads it inside its transaction, after its locks (:mod:`store.writer`, ``Tx.revocations``)
REVOCATIONS_SQL = "SELECT value FROM meta WHERE key = 'tokens_revoked'"
#: (the same count as one SQL expression: :data:`store.tables.REVOCATION_COUNT_SQL`)


def revocation_count(value: str | int | None) -> int:
    """The count from the stored value (no row yet: no revocation)."""
    return 0 if value is None else int(value)


def revocations(db: Database) -> int:
    """How many revocations the database has seen (a counter that only grows)."""
    if isinstance(db, PgDatabase):  # read on every request that shows a token: the lean call
        rows = db.run(REVOCATIONS_SQL).rows
        return revocation_count(rows[0][0] if rows else None)
    row = db.execute(REVOCATIONS_SQL).fetchone()
    return revocation_count(row[0] if row else None)


def count_tokens(db: Database, role: str | None = None) -> int:
    if role is None:
        return db.execute("SELECT COUNT(*) FROM tokens WHERE revoked_at IS NULL").fetchone()[0]
    return db.execute("SELECT COUNT(*) FROM tokens WHERE revoked_at IS NULL AND role = ?", (role,)).fetchone()[0]
