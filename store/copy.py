"""Copy one mjref database into another (issue #16 item 6): a SQLite deployment moving to
PostgreSQL (``flask db copy instance/mjref.sqlite3 postgresql://…``), or back.

Both ends are brought to the current layout first (:func:`store.db.init_db`); the target
must hold no rows yet (a copy never merges two logs). Every table is copied in an order
that satisfies the foreign keys, ids included (an override names its event by id, an
answer's ``event_id`` was shown to an official), inside **one** transaction of the target:
a copy that fails leaves the target empty. PostgreSQL's id sequences are then moved past
the copied ids, so the next event gets the next id. The append-only triggers stay on:
a copy only inserts.

The copy is checked before it commits: every table has as many rows in the target as in
the source, and the same greatest id.
"""
from __future__ import annotations

from typing import Any

from store.dialect import PgDatabase, begin_write

#: every table of the layout, parents before children; ``meta`` first (its schema_version
#: row is the target's own)
TABLES = ("meta", "tournaments", "tables", "tokens", "pins", "seat_names", "events", "tournament_events",
          "idempotency_keys", "hands", "rulings", "overrides")
#: tables whose ``id`` an identity (PostgreSQL) or AUTOINCREMENT (SQLite) hands out
SERIAL = ("tokens", "pins", "events", "tournament_events")
CHUNK = 1000


class CopyRefusedError(RuntimeError):
    """The copy cannot be made (the target holds rows already); nothing was written."""

    def __init__(self, message: str, message_zh: str, field: str = "target"):
        super().__init__(f"{message} / {message_zh}")
        self.message, self.message_zh, self.field = message, message_zh, field


def _count(db: Any, table: str, where: str = "") -> int:
    return db.execute(f"SELECT COUNT(*) FROM {table}{where}").fetchone()[0]


def _columns(db: Any, table: str) -> list[str]:
    cursor = db.execute(f"SELECT * FROM {table} LIMIT 0")
    names = [d[0] for d in cursor.description]
    cursor.fetchall()
    return names


def copy_database(source: str, target: str) -> dict[str, int]:
    """Copy every row of *source* into the empty *target*; rows copied per table.

    :raises CopyRefusedError: the target already holds rows (or is the source), the source file is missing.
    :raises store.dialect.DATABASE_ERRORS: a database cannot be reached (the target is left as it was).
    """
    import os

    from store.db import connect, init_db
    from store.dialect import is_postgres

    if str(source) == str(target):
        raise CopyRefusedError("the source and the target are one database", "來源與目的地是同一個資料庫")
    if not is_postgres(source) and not os.path.isfile(source):
        raise CopyRefusedError(f"no database file at {source}", f"找不到資料庫檔案 {source}", field="source")
    init_db(source)
    init_db(target)
    src, dst = connect(source), connect(target)
    try:
        taken = {t: _count(dst, t, " WHERE key <> 'schema_version'" if t == "meta" else "") for t in TABLES}
        if any(taken.values()):
            full = ", ".join(f"{t} ({n})" for t, n in taken.items() if n)
            raise CopyRefusedError(f"the target database is not empty: {full}", f"目的地資料庫不是空的：{full}")
        copied: dict[str, int] = {}
        begin_write(dst)
        try:
            for table in TABLES:
                columns = _columns(src, table)
                names = ", ".join(columns)
                marks = ", ".join("?" * len(columns))
                where = " WHERE key <> 'schema_version'" if table == "meta" else ""
                order = " ORDER BY id" if "id" in columns and table != "rulings" else ""
                rows = src.execute(f"SELECT {names} FROM {table}{where}{order}").fetchall()
                for start in range(0, len(rows), CHUNK):
                    dst.conn.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})",
                                         [tuple(r) for r in rows[start:start + CHUNK]])
                copied[table] = len(rows)
            if isinstance(dst, PgDatabase):
                for table in SERIAL:
                    dst.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 1), "
                                f"MAX(id) IS NOT NULL) FROM {table}")
            for table in TABLES:  # checked before the commit
                where = " WHERE key <> 'schema_version'" if table == "meta" else ""
                if _count(dst, table, where) != copied[table]:
                    raise RuntimeError(f"{table}: {copied[table]} rows read, {_count(dst, table, where)} written")
                if table in SERIAL:
                    high = "SELECT COALESCE(MAX(id), 0) FROM " + table
                    if src.execute(high).fetchone()[0] != dst.execute(high).fetchone()[0]:
                        raise RuntimeError(f"{table}: the greatest id differs after the copy")
            dst.conn.execute("COMMIT")
        except BaseException:
            if dst.conn.in_transaction:
                dst.conn.execute("ROLLBACK")
            raise
        return copied
    finally:
        src.close()
        dst.close()
