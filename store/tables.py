"""Tables, their event log, and the projections rebuilt from it (hands, rulings, overrides).

Every function takes the ``db`` it works on (either backend, :mod:`store.dialect`): a request's read connection
(:func:`store.get_db`) or, for writes, the group-committed transaction's
(``tx.db`` inside :meth:`store.writer.GroupCommitter.submit`). Rows come back as dicts;
JSON columns are decoded.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime, timezone
from typing import Any

from store.dialect import INTEGRITY_ERRORS, PgDatabase, refusable

#: a connection of either backend: :class:`Database` or :class:`store.dialect.PgDatabase`
Database = Any

PLAY = "play"
OFFICIAL = "official"


def now() -> str:
    """UTC time with milliseconds, ISO 8601 (``2026-11-29T18:30:00.123Z``)."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def dumps(value: Any) -> str:
    """Compact JSON, zh-TW unescaped, keys in their given order."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def canonical(value: Any) -> str:
    """The canonical JSON of a posted body (sorted keys): equal bodies, equal text."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


# --- tables -------------------------------------------------------------------------------

_TABLE_COLUMNS = "id, name, mode, ruleset, params, tournament_id, created_at, created_by"


def _table(row: Sequence) -> dict:
    return {
        "id": row[0], "name": row[1], "mode": row[2], "ruleset": row[3], "params": json.loads(row[4]),
        "tournament": row[5], "created_at": row[6], "created_by": row[7],
    }


def create_table(db: Database, table_id: str, *, name: str = "", mode: str = "digital",
                 ruleset: str = "competition", params: dict | None = None, tournament_id: str | None = None,
                 created_by: int | None = None) -> dict | None:
    """Insert a table; ``None`` when the id is taken."""
    try:
        with refusable(db):
            db.execute(
                f"INSERT INTO tables ({_TABLE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (table_id, name, mode, ruleset, dumps(params or {}), tournament_id, now(), created_by),
            )
    except INTEGRITY_ERRORS:
        return None
    return get_table(db, table_id)


def get_table(db: Database, table_id: str) -> dict | None:
    row = db.execute(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)).fetchone()
    return _table(row) if row else None


def list_tables(db: Database, *, tournament_id: str | None = None) -> list[dict]:
    if tournament_id is None:
        rows = db.execute(f"SELECT {_TABLE_COLUMNS} FROM tables ORDER BY created_at, id")
    else:
        rows = db.execute(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE tournament_id = ? ORDER BY created_at, id",
                          (tournament_id,))
    return [_table(r) for r in rows]


# --- the event log ------------------------------------------------------------------------


def stream_head(db: Database, table_id: str, stream: str = PLAY) -> tuple[int, int] | None:
    """``(hand, seq)`` of the table's last stored event in *stream*; ``None`` if none."""
    row = db.execute(
        "SELECT hand, seq FROM events WHERE table_id = ? AND stream = ? ORDER BY hand DESC, seq DESC LIMIT 1",
        (table_id, stream),
    ).fetchone()
    return (row[0], row[1]) if row else None


def stored_event(db: Database, table_id: str, hand: int, seq: int, stream: str = PLAY) -> dict | None:
    """The stored ``body`` (canonical text) and ``answer`` (decoded) of one event."""
    row = db.execute(
        "SELECT id, body, answer FROM events WHERE table_id = ? AND stream = ? AND hand = ? AND seq = ?",
        (table_id, stream, hand, seq),
    ).fetchone()
    return {"id": row[0], "body": row[1], "answer": json.loads(row[2])} if row else None


def append_events(db: Database, table_id: str, rows: Iterable[tuple], *, stream: str = PLAY,
                  actor: int | None = None) -> None:
    """Append events: each row is ``(hand, seq, type, body_text, answer_text)``.

    :raises store.dialect.INTEGRITY_ERRORS: a (hand, seq) already stored.
    """
    at = now()
    db.conn.executemany(
        "INSERT INTO events (table_id, stream, hand, seq, type, body, answer, actor, received_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(table_id, stream, hand, seq, etype, body, answer, actor, at) for hand, seq, etype, body, answer in rows],
    )


#: PostgreSQL: the head check and the inserts of :func:`append_events_at` in one statement (one
#: round trip), one text per number of rows (each prepared once per connection)
_APPEND_AT_HEAD_PG: dict[int, str] = {}


#: the pieces both of the head-checked appends' statements share: the stream's stored head, the
#: insert of *n* typed rows (numbered, to keep their order) from the parameters, the head check
_HEAD_CTE = ("head AS (SELECT hand, seq FROM events WHERE table_id = ? AND stream = ? "
             "ORDER BY hand DESC, seq DESC LIMIT 1)")
_INSERT_AT_HEAD = ("INSERT INTO events (table_id, stream, hand, seq, type, body, answer, actor, received_at) "
                   "SELECT ?, ?, r.hand, r.seq, r.type, r.body, r.answer, CAST(? AS BIGINT), ? "
                   "FROM (VALUES {values}) AS r (hand, seq, type, body, answer, n) "
                   "WHERE COALESCE((SELECT hand FROM head), -1) = CAST(? AS BIGINT) "
                   "AND COALESCE((SELECT seq FROM head), -1) = CAST(? AS BIGINT)")


def _insert_at_head(n: int) -> str:
    return _INSERT_AT_HEAD.format(values=", ".join(
        f"(CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), {k})"
        for k in range(n)))


def _append_at_head_pg(n: int) -> str:
    sql = _APPEND_AT_HEAD_PG.get(n)
    if sql is None:
        sql = f"WITH {_HEAD_CTE} {_insert_at_head(n)} ORDER BY r.n"
        if len(_APPEND_AT_HEAD_PG) < 1024:
            _APPEND_AT_HEAD_PG[n] = sql
    return sql


def append_events_at(db: Database, table_id: str, head: tuple[int, int] | None, rows: Sequence[tuple], *,
                     stream: str = PLAY, actor: int | None = None) -> bool:
    """Append events (rows as :func:`append_events`) only if the stream's stored head is still
    *head* (``None``: no event yet); ``False``, and nothing written, if it is not.

    The same as :func:`stream_head` compared, then :func:`append_events` — which is what it
    does on SQLite, where a statement costs no round trip. On PostgreSQL it is one statement
    (the head read and the inserts together, :meth:`store.dialect.PgDatabase.run`): the live
    ingest's write is then one round trip (issue #16 item 5).

    :raises store.dialect.INTEGRITY_ERRORS: a (hand, seq) already stored.
    """
    if not isinstance(db, PgDatabase) or not rows:
        if stream_head(db, table_id, stream) != head:
            return False
        append_events(db, table_id, rows, stream=stream, actor=actor)
        return True
    hand, seq = head if head is not None else (-1, -1)  # hands and seqs are never negative
    params: list[Any] = [table_id, stream, table_id, stream, actor, now()]
    for row in rows:
        params.extend(row)
    params += [hand, seq]
    appended = db.run(_append_at_head_pg(len(rows)), params).rowcount
    if appended not in (0, len(rows)):  # pragma: no cover - one statement: all or nothing
        raise AssertionError(f"{appended} of {len(rows)} events appended")
    return appended == len(rows)


_APPEND_DECLARED_PG: dict[int, str] = {}
#: the token revocation count (:func:`store.tokens.revocations`) as one SQL expression (a
#: BIGINT; 0 before the first revocation), for a statement that compares it itself
REVOCATION_COUNT_SQL = "COALESCE((SELECT CAST(value AS BIGINT) FROM meta WHERE key = 'tokens_revoked'), 0)"


def append_events_at_statement(table_id: str, head: tuple[int, int] | None, rows: Sequence[tuple], *,
                               stream: str = PLAY, actor: int | None = None,
                               revocations: int | None = None) -> tuple[str, list[Any]]:
    """:func:`append_events_at` as one PostgreSQL statement to declare to the writer
    (:class:`store.writer.Declared`, the one-trip batch of issue #16 item 5): the text and its
    parameters. It appends the rows only if the stream's head is still *head* and, when
    *revocations* is given, the token revocation count (``meta.tokens_revoked``,
    :func:`store.tokens.revocations`) is still that — the comparison the live ingest makes in
    Python on the reference path (``Tx.revocations``), here made in SQL by the statement that
    writes. It answers one row: how many rows it appended (0 or all) and the count it read;
    :func:`appended_at` reads it.

    :raises store.dialect.INTEGRITY_ERRORS: (when run) a (hand, seq) already stored.
    """
    n = len(rows)
    sql = _APPEND_DECLARED_PG.get(n)
    if sql is None:
        sql = (f"WITH {_HEAD_CTE}, "
               f"rev AS (SELECT {REVOCATION_COUNT_SQL} AS n), "
               f"ins AS ({_insert_at_head(n)} "
               "AND (CAST(? AS BIGINT) IS NULL OR (SELECT n FROM rev) = CAST(? AS BIGINT)) "
               "ORDER BY r.n RETURNING 1) "
               "SELECT (SELECT COUNT(*) FROM ins), (SELECT n FROM rev)")
        if len(_APPEND_DECLARED_PG) < 1024:
            _APPEND_DECLARED_PG[n] = sql
    hand, seq = head if head is not None else (-1, -1)  # hands and seqs are never negative
    params: list[Any] = [table_id, stream, table_id, stream, actor, now()]
    for row in rows:
        params.extend(row)
    params += [hand, seq, revocations, revocations]
    return sql, params


def appended_at(ran: Any, rows: Sequence[tuple]) -> tuple[bool, int]:
    """What the statement of :func:`append_events_at_statement` did: whether it appended the
    rows (all of them) and the revocation count it read."""
    appended, count = (int(v) for v in ran.rows[0])
    if appended not in (0, len(rows)):  # pragma: no cover - one statement: all or nothing
        raise AssertionError(f"{appended} of {len(rows)} events appended")
    return appended == len(rows), count


def append_event(db: Database, table_id: str, hand: int, seq: int, etype: str, body: Any, *,
                 answer: Any = None, stream: str = PLAY, actor: int | None = None) -> int:
    """Append one event; its log id."""
    return db.execute(
        "INSERT INTO events (table_id, stream, hand, seq, type, body, answer, actor, received_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (table_id, stream, hand, seq, etype, canonical(body), dumps(answer if answer is not None else {}), actor,
         now()),
    ).fetchone()[0]


def received_at(db: Database, event_id: int) -> str:
    """When the event with log id *event_id* was stored."""
    return db.execute("SELECT received_at FROM events WHERE id = ?", (event_id,)).fetchone()[0]


def next_seq(db: Database, table_id: str, hand: int, stream: str) -> int:
    row = db.execute("SELECT MAX(seq) FROM events WHERE table_id = ? AND stream = ? AND hand = ?",
                     (table_id, stream, hand)).fetchone()
    return 1 if row[0] is None else row[0] + 1


_EVENT_COLUMNS = "id, table_id, stream, hand, seq, type, body, answer, actor, received_at"


def _event(row: Sequence) -> dict:
    return {
        "id": row[0], "table": row[1], "stream": row[2], "hand": row[3], "seq": row[4], "type": row[5],
        "body": json.loads(row[6]), "answer": json.loads(row[7]), "actor": row[8], "received_at": row[9],
    }


def _where(where: list[str], args: list[Any], filters: Iterable[tuple[str, Any]]) -> tuple[list[str], list[Any]]:
    """*where* and *args* with ``column = ?`` for each ``(column, value)`` filter given (a ``None``
    value: no filter), in their order."""
    for column, value in filters:
        if value is not None:
            where.append(f"{column} = ?")
            args.append(value)
    return where, args


def events(db: Database, table_id: str, *, hand: int | None = None, stream: str | None = PLAY,
           after_id: int = 0, limit: int | None = None) -> list[dict]:
    """A table's events in log order (``id``), optionally one hand's, one stream's."""
    where, args = _where(["table_id = ?", "id > ?"], [table_id, after_id], (("stream", stream), ("hand", hand)))
    sql = f"SELECT {_EVENT_COLUMNS} FROM events WHERE {' AND '.join(where)} ORDER BY id"
    if limit is not None:
        sql += " LIMIT ?"
        args.append(limit)
    return [_event(r) for r in db.execute(sql, args)]


def play_bodies(db: Database, table_id: str, hand: int) -> Iterator[dict]:
    """One hand's play events as posted, in seq order (what a replay reads)."""
    for (body,) in db.execute(
        "SELECT body FROM events WHERE table_id = ? AND stream = 'play' AND hand = ? ORDER BY seq",
        (table_id, hand),
    ):
        yield json.loads(body)


def hand_index(db: Database, table_id: str) -> list[dict]:
    """Every hand of a table that has events: counts and seq range, in hand order."""
    rows = db.execute(
        "SELECT hand, COUNT(*), MIN(seq), MAX(seq), MIN(received_at), MAX(received_at) FROM events "
        "WHERE table_id = ? AND stream = 'play' GROUP BY hand ORDER BY hand",
        (table_id,),
    )
    return [{"hand": r[0], "events": r[1], "first_seq": r[2], "last_seq": r[3], "started_at": r[4], "last_at": r[5]}
            for r in rows]


def hand_count(db: Database, table_id: str) -> int:
    """How many hands of the table have play events."""
    return db.execute("SELECT COUNT(DISTINCT hand) FROM events WHERE table_id = ? AND stream = 'play'",
                      (table_id,)).fetchone()[0]


def tables_with_events(db: Database) -> list[str]:
    return [r[0] for r in db.execute("SELECT DISTINCT table_id FROM events ORDER BY table_id")]


# --- projections: hands, rulings, overrides -------------------------------------------------


def save_hand(db: Database, table_id: str, hand: int, *, ended: bool, outcome: Any,
              payments: Sequence[int]) -> None:
    db.execute(
        "INSERT INTO hands (table_id, hand, ended, outcome, payments, updated_at) VALUES (?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (table_id, hand) DO UPDATE SET ended = excluded.ended, outcome = excluded.outcome, "
        "payments = excluded.payments, updated_at = excluded.updated_at",
        (table_id, hand, int(ended), dumps(outcome), dumps(list(payments)), now()),
    )


def hands(db: Database, table_id: str) -> dict[int, dict]:
    """The hands projection of a table: ``hand -> {ended, outcome, payments}``."""
    return {
        r[0]: {"ended": bool(r[1]), "outcome": json.loads(r[2]), "payments": json.loads(r[3]), "updated_at": r[4]}
        for r in db.execute(
            "SELECT hand, ended, outcome, payments, updated_at FROM hands WHERE table_id = ? ORDER BY hand", (table_id,)
        )
    }


def replace_rulings(db: Database, table_id: str, hand: int, rulings: Iterable[dict]) -> None:
    """Set one hand's rulings (each with its ``ruling`` and ``effective`` form and ``status``)."""
    db.execute("DELETE FROM rulings WHERE table_id = ? AND hand = ?", (table_id, hand))
    db.conn.executemany(
        "INSERT INTO rulings (table_id, hand, id, seq, kind, code, clause, seat, status, ruling, effective) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (table_id, hand, r["id"], r.get("seq"), r["kind"], r["code"], r.get("clause"), r.get("seat"),
             r["status"], dumps(r["ruling"]), dumps(r["effective"]))
            for r in rulings
        ],
    )


def rulings(db: Database, *, table_id: str | None = None, hand: int | None = None,
            ruling_id: str | None = None, status: str | None = None, limit: int = 1000) -> list[dict]:
    where, args = _where([], [], (("table_id", table_id), ("hand", hand), ("id", ruling_id), ("status", status)))
    sql = ("SELECT table_id, hand, id, seq, kind, code, clause, seat, status, ruling, effective FROM rulings"
           + (f" WHERE {' AND '.join(where)}" if where else "") + " ORDER BY table_id, hand, seq, id LIMIT ?")
    return [
        {"table": r[0], "hand": r[1], "id": r[2], "seq": r[3], "kind": r[4], "code": r[5], "clause": r[6],
         "seat": r[7], "status": r[8], "ruling": json.loads(r[9]), "effective": json.loads(r[10])}
        for r in db.execute(sql, [*args, limit])
    ]


def add_override(db: Database, *, event_id: int, table_id: str, hand: int, ruling_id: str,
                 decision: str, reason: str, reason_zh: str, actor: int | None, actor_label: str,
                 created_at: str) -> None:
    db.execute(
        "INSERT INTO overrides (event_id, table_id, hand, ruling_id, decision, reason, reason_zh, actor, actor_label,"
        " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (event_id, table_id, hand, ruling_id, decision, reason, reason_zh, actor, actor_label, created_at),
    )


def overrides(db: Database, table_id: str, *, hand: int | None = None,
              ruling_id: str | None = None) -> list[dict]:
    """The audit trail: who overruled what, when, why — in log order."""
    where, args = _where(["o.table_id = ?"], [table_id], (("o.hand", hand), ("o.ruling_id", ruling_id)))
    rows = db.execute(
        "SELECT o.event_id, o.hand, o.ruling_id, o.decision, o.reason, o.reason_zh, o.actor, o.actor_label, "
        f"o.created_at, e.body FROM overrides o JOIN events e ON e.id = o.event_id WHERE {' AND '.join(where)} "
        "ORDER BY o.event_id",
        args,
    )
    return [
        {"event_id": r[0], "table": table_id, "hand": r[1], "ruling": r[2], "decision": r[3], "reason": r[4],
         "reason_zh": r[5], "by": {"token": r[6], "label": r[7]}, "at": r[8], "event": json.loads(r[9])}
        for r in rows
    ]


def clear_projections(db: Database, table_id: str | None = None) -> None:
    """Drop the projections (all, or one table's) before a rebuild from the log."""
    for name in ("hands", "rulings", "overrides"):
        if table_id is None:
            db.execute(f"DELETE FROM {name}")
        else:
            db.execute(f"DELETE FROM {name} WHERE table_id = ?", (table_id,))


# --- re-validation (issue #17 item 4) --------------------------------------------------------


def _stored_hands_sql(table_id: str | None, since: str | None) -> tuple[str, list[Any]]:
    where, args = _where([], [], (("table_id", table_id),))
    sql = ("SELECT table_id, hand FROM events" + (f" WHERE {' AND '.join(where)}" if where else "")
           + " GROUP BY table_id, hand HAVING SUM(CASE WHEN stream = 'play' THEN 1 ELSE 0 END) > 0")
    if since is not None:
        sql += " AND MAX(received_at) >= ?"
        args.append(since)
    return sql, args


def stored_hands(db: Database, *, table_id: str | None = None,
                 since: str | None = None) -> Iterator[tuple[str, int]]:
    """``(table, hand)`` of every hand with play events, in table and hand order (read as
    they are needed, not all at once); with *since* (a time as :func:`now` writes it), only
    the hands with an event — played, or an official's override — received at or after it."""
    sql, args = _stored_hands_sql(table_id, since)
    for row in db.execute(sql + " ORDER BY table_id, hand", args):
        yield row[0], row[1]


def count_stored_hands(db: Database, *, table_id: str | None = None, since: str | None = None) -> int:
    """How many hands :func:`stored_hands` gives."""
    sql, args = _stored_hands_sql(table_id, since)
    return db.execute(f"SELECT COUNT(*) FROM ({sql}) AS stored", args).fetchone()[0]


def stored_hand(db: Database, table_id: str, hand: int) -> dict | None:
    """One hand's row of the hands projection (``ended``, ``outcome``, ``payments``); ``None`` if none."""
    row = db.execute("SELECT ended, outcome, payments FROM hands WHERE table_id = ? AND hand = ?",
                     (table_id, hand)).fetchone()
    return {"ended": bool(row[0]), "outcome": json.loads(row[1]), "payments": json.loads(row[2])} if row else None


def hand_log(db: Database, table_id: str, hand: int) -> Iterator[tuple[dict, str]]:
    """One hand's play events in seq order: ``(body as posted, decoded; answer as stored, JSON text)``
    (the answer left as text: a re-validation compares it as text first, :mod:`api.revalidate`)."""
    for body, answer in db.execute(
        "SELECT body, answer FROM events WHERE table_id = ? AND stream = 'play' AND hand = ? ORDER BY seq",
        (table_id, hand),
    ):
        yield json.loads(body), answer
