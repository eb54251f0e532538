"""Tournaments and their append-only event log (issue #7).

The log is the tournament's source of truth: ``tournament_events`` rows hold
:mod:`tournament.codec` dicts (``type`` in its own column, the rest in ``body``).
:func:`load_records` reads them back as :class:`tournament.events.Record`;
:func:`append_events` adds events only when the whole log still folds
(:func:`tournament.events.append`), inside the caller's write transaction.
"""
from __future__ import annotations

import json
import threading
from typing import Any

from store.dialect import INTEGRITY_ERRORS, refusable
from store.tables import Database, canonical, dumps, now
from tournament import clock, codec, provenance  # noqa: F401 - importing registers their side events
from tournament.errors import EventLogError
from tournament.events import Record, append


def create_tournament(db: Database, tournament_id: str, *, name: str = "", config: dict | None = None,
                      created_by: int | None = None) -> dict | None:
    """Insert a tournament; ``None`` when the id is taken."""
    try:
        with refusable(db):
            db.execute("INSERT INTO tournaments (id, name, config, created_at, created_by) VALUES (?, ?, ?, ?, ?)",
                       (tournament_id, name, dumps(config or {}), now(), created_by))
    except INTEGRITY_ERRORS:
        return None
    return get_tournament(db, tournament_id)


def get_tournament(db: Database, tournament_id: str) -> dict | None:
    row = db.execute("SELECT id, name, config, created_at, created_by FROM tournaments WHERE id = ?",
                     (tournament_id,)).fetchone()
    if not row:
        return None
    return {"id": row[0], "name": row[1], "config": json.loads(row[2]), "created_at": row[3], "created_by": row[4]}


def list_tournaments(db: Database) -> list[dict]:
    return [get_tournament(db, r[0]) for r in db.execute("SELECT id FROM tournaments ORDER BY created_at, id")]


_INSERT = ("INSERT INTO tournament_events (tournament_id, seq, type, body, actor, received_at) "
           "VALUES (?, ?, ?, ?, ?, ?)")


def append_tournament_event(db: Database, tournament_id: str, etype: str, body: Any, *,
                            actor: int | None = None) -> dict:
    """Append a raw row with the next seq (from 1), past :func:`append_events`' checks: what a
    hand-edited or foreign file may hold (tests of how readers meet a log that does not fold)."""
    seq = db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM tournament_events WHERE tournament_id = ?",
                     (tournament_id,)).fetchone()[0]
    row_id = db.execute(_INSERT + " RETURNING id",
                        (tournament_id, seq, etype, canonical(body), actor, now())).fetchone()[0]
    return {"id": row_id, "tournament": tournament_id, "seq": seq, "type": etype, "body": body}


#: ``(database file, tournament id) → (its last row as read, the records)``: committed rows
#: only (filled outside transactions), so always a true prefix of an append-only log
_RECORDS: dict[tuple[str, str], tuple[tuple, tuple[Record, ...]]] = {}
_RECORDS_LOCK = threading.Lock()
_RECORDS_MAX = 64


def _database_file(db: Database) -> str:
    identity = getattr(db, "identity", None)  # PostgreSQL: its URL
    if identity is not None:
        return identity
    row = db.execute("PRAGMA database_list").fetchone()
    return row[2] if row and row[2] else ""


def load_records(db: Database, tournament_id: str) -> list[Record]:
    """The tournament's log as domain records, in sequence order (``by`` is the actor's token
    id as text, ``at`` the time it was received).

    Decoding is the costly part of a long log: committed records are kept per database file
    and tournament, and only rows after them are read and decoded. The rows are append-only
    (triggers refuse UPDATE and DELETE), so committed records never change; the kept last row
    is compared with the file's before the prefix is reused (another file at the same path).
    """
    path = _database_file(db)
    key = (path, tournament_id)
    base: tuple[Record, ...] = ()
    hit = _RECORDS.get(key) if path else None
    if hit is not None:
        last, kept = hit
        row = db.execute("SELECT type, body, actor, received_at FROM tournament_events WHERE tournament_id = ? "
                         "AND seq = ?", (tournament_id, len(kept))).fetchone()
        if row is not None and tuple(row) == last:
            base = kept
    rows = db.execute("SELECT seq, type, body, actor, received_at FROM tournament_events WHERE tournament_id = ? "
                      "AND seq > ? ORDER BY seq", (tournament_id, len(base)))
    added = []
    last_row = None
    for seq, etype, body, actor, at in rows:
        added.append(Record(seq, codec.decode({**json.loads(body), "type": etype}), "" if actor is None else str(actor),
                            at))
        last_row = (etype, body, actor, at)
    records = [*base, *added]
    if path and added and not db.conn.in_transaction:
        with _RECORDS_LOCK:
            if len(_RECORDS) >= _RECORDS_MAX:
                _RECORDS.clear()
            _RECORDS[key] = (last_row, tuple(records))
    return records


def append_events(db: Database, tournament_id: str, events: list, *, actor: int | None = None,
                  at: str | None = None) -> list[Record]:
    """Append domain events to the log, refusing them all when the log would not fold.

    Call inside a write transaction (``get_writer().submit(lambda tx: append_events(tx.db, …))``)
    so that reading the log and appending to it cannot interleave with another writer.

    :raises tournament.errors.EventLogError: an event does not apply (nothing is written).
    """
    records = load_records(db, tournament_id)
    when = at or now()
    log = append(records, *events, by="" if actor is None else str(actor), at=when)
    added = list(log[len(records):])
    rows = []
    for record in added:
        data = codec.encode(record.event)
        # what is stored must read back as the same event (a plain int where a Wind belongs
        # folds, but would not decode: decode names the field): refuse it before anything is written
        if codec.decode(json.loads(canonical(data))) != record.event:
            raise EventLogError(f"event {data['type']} does not read back as itself: {record.event!r}",
                                field="event", reason_zh=f"事件 {data['type']} 的欄位型別不符，無法如實儲存")
        etype = data.pop("type")
        rows.append((record.seq, etype, canonical(data)))
    for seq, etype, body in rows:
        db.execute(_INSERT, (tournament_id, seq, etype, body, actor, when))
    return added


def last_seq(db: Database, tournament_id: str) -> int:
    """The tournament log's last sequence number (0 when empty): a log is append-only, so
    equal numbers mean an equal log (what a cache of the replayed state is keyed by)."""
    return db.execute("SELECT COALESCE(MAX(seq), 0) FROM tournament_events WHERE tournament_id = ?",
                      (tournament_id,)).fetchone()[0]


def token_labels(db: Database, ids: list[int]) -> dict[int, dict]:
    """``token id → {role, label}`` for the actors of an audit trail (never a secret)."""
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    return {r[0]: {"role": r[1], "label": r[2]}
            for r in db.execute(f"SELECT id, role, label FROM tokens WHERE id IN ({marks})", list(ids))}
