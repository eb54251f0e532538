"""API tokens: only their SHA-256 hash is stored (``api/auth.py`` makes the secrets)."""
from __future__ import annotations

from collections.abc import Sequence

import sqlite_utils

from store.tables import now

_COLUMNS = "id, prefix, role, table_id, label, created_at, revoked_at"


def _token(row: Sequence) -> dict:
    return {"id": row[0], "prefix": row[1], "role": row[2], "table": row[3], "label": row[4],
            "created_at": row[5], "revoked_at": row[6]}


def add_token(db: sqlite_utils.Database, *, digest: str, prefix: str, role: str, table_id: str | None,
              label: str = "") -> dict:
    cursor = db.execute(
        "INSERT INTO tokens (hash, prefix, role, table_id, label, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        (digest, prefix, role, table_id, label, now()),
    )
    return get_token(db, cursor.lastrowid)


def get_token(db: sqlite_utils.Database, token_id: int) -> dict | None:
    row = db.execute(f"SELECT {_COLUMNS} FROM tokens WHERE id = ?", (token_id,)).fetchone()
    return _token(row) if row else None


def token_by_hash(db: sqlite_utils.Database, digest: str) -> dict | None:
    """The live (not revoked) token with this hash."""
    row = db.execute(f"SELECT {_COLUMNS} FROM tokens WHERE hash = ? AND revoked_at IS NULL", (digest,)).fetchone()
    return _token(row) if row else None


def list_tokens(db: sqlite_utils.Database, *, include_revoked: bool = False) -> list[dict]:
    sql = f"SELECT {_COLUMNS} FROM tokens" + ("" if include_revoked else " WHERE revoked_at IS NULL") + " ORDER BY id"
    return [_token(r) for r in db.execute(sql)]


def revoke_token(db: sqlite_utils.Database, token_id: int) -> dict | None:
    """Revoke a token (kept for the audit trail); ``None`` if there is no such token."""
    db.execute("UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", (now(), token_id))
    return get_token(db, token_id)


def count_tokens(db: sqlite_utils.Database, role: str | None = None) -> int:
    if role is None:
        return db.execute("SELECT COUNT(*) FROM tokens WHERE revoked_at IS NULL").fetchone()[0]
    return db.execute("SELECT COUNT(*) FROM tokens WHERE revoked_at IS NULL AND role = ?", (role,)).fetchone()[0]
