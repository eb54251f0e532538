"""Idempotency keys of tournament writes (issue #12 item 7): the answer a keyed request got.

A row is written by :func:`save` inside the writer's transaction that appended the
request's events, so a key is stored exactly when the write is committed: a resend after
a lost answer finds the row (and the answer), a resend after a refused or failed write
finds nothing and is judged again. Rows are append-only (triggers), scoped per token
(``principal``: the token's id), never expire.
"""
from __future__ import annotations

import json
from dataclasses import dataclass


from store.tables import Database, dumps, now


@dataclass(frozen=True, slots=True)
class StoredAnswer:
    """What the first request with a key was, and the answer it got."""

    principal: int
    key: str
    fingerprint: str
    method: str
    path: str
    tournament_id: str | None
    first_seq: int | None
    last_seq: int | None
    status: int
    body: dict
    headers: dict
    created_at: str


_COLUMNS = ("principal, key, fingerprint, method, path, tournament_id, first_seq, last_seq, status, answer, headers, "
            "created_at")


def find(db: Database, principal: int, key: str) -> StoredAnswer | None:
    """The answer stored for *principal*'s *key*, or ``None``."""
    row = db.execute(f"SELECT {_COLUMNS} FROM idempotency_keys WHERE principal = ? AND key = ?",
                     (principal, key)).fetchone()
    if row is None:
        return None
    return StoredAnswer(row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8], json.loads(row[9]),
                        json.loads(row[10]), row[11])


def save(db: Database, *, principal: int, key: str, fingerprint: str, method: str, path: str,
         tournament_id: str | None, first_seq: int | None, last_seq: int | None, status: int, body: dict,
         headers: dict | None = None) -> None:
    """Store a keyed request's answer (call inside the transaction that wrote its events).

    :raises store.dialect.INTEGRITY_ERRORS: the key is stored already (look it up first, in the
        same transaction).
    """
    db.execute(f"INSERT INTO idempotency_keys ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
               (principal, key, fingerprint, method, path, tournament_id, first_seq, last_seq, status, dumps(body),
                dumps(headers or {}), now()))
