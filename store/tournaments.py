"""Tournaments and their append-only event log (the layout issue #7 builds on)."""
from __future__ import annotations

import json
import sqlite3
from typing import Any

import sqlite_utils

from store.tables import canonical, dumps, now


def create_tournament(db: sqlite_utils.Database, tournament_id: str, *, name: str = "", config: dict | None = None,
                      created_by: int | None = None) -> dict | None:
    """Insert a tournament; ``None`` when the id is taken."""
    try:
        db.execute("INSERT INTO tournaments (id, name, config, created_at, created_by) VALUES (?, ?, ?, ?, ?)",
                   (tournament_id, name, dumps(config or {}), now(), created_by))
    except sqlite3.IntegrityError:
        return None
    return get_tournament(db, tournament_id)


def get_tournament(db: sqlite_utils.Database, tournament_id: str) -> dict | None:
    row = db.execute("SELECT id, name, config, created_at, created_by FROM tournaments WHERE id = ?",
                     (tournament_id,)).fetchone()
    if not row:
        return None
    return {"id": row[0], "name": row[1], "config": json.loads(row[2]), "created_at": row[3], "created_by": row[4]}


def list_tournaments(db: sqlite_utils.Database) -> list[dict]:
    return [get_tournament(db, r[0]) for r in db.execute("SELECT id FROM tournaments ORDER BY created_at, id")]


def append_tournament_event(db: sqlite_utils.Database, tournament_id: str, etype: str, body: Any, *,
                            actor: int | None = None) -> dict:
    """Append an event to a tournament's log with the next seq (from 1)."""
    seq = db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM tournament_events WHERE tournament_id = ?",
                     (tournament_id,)).fetchone()[0]
    cursor = db.execute(
        "INSERT INTO tournament_events (tournament_id, seq, type, body, actor, received_at) VALUES (?, ?, ?, ?, ?, ?)",
        (tournament_id, seq, etype, canonical(body), actor, now()),
    )
    return {"id": cursor.lastrowid, "tournament": tournament_id, "seq": seq, "type": etype, "body": body}


def tournament_events(db: sqlite_utils.Database, tournament_id: str, *, after_seq: int = 0) -> list[dict]:
    rows = db.execute(
        "SELECT id, seq, type, body, actor, received_at FROM tournament_events WHERE tournament_id = ? AND seq > ? "
        "ORDER BY seq",
        (tournament_id, after_seq),
    )
    return [{"id": r[0], "tournament": tournament_id, "seq": r[1], "type": r[2], "body": json.loads(r[3]),
             "actor": r[4], "received_at": r[5]} for r in rows]
