"""The tests' PostgreSQL database (tests/pgcluster.py): one database per test process, put
back into the migrated template's state after each test rather than copied anew."""
from __future__ import annotations

import psycopg
import pytest

from store import connect
from store import tables as ts
from tests.servicekit import sql_rows

pytestmark = pytest.mark.postgresql


def _write_a_table(url: str) -> None:
    db = connect(url)
    try:
        ts.create_table(db, "T1")
        ts.append_event(db, "T1", 1, 1, "hand_start", {"dealer": 0})
        db.commit()
    finally:
        db.close()


def test_a_reset_leaves_no_row_no_sequence_no_session_and_no_lock(pg_cluster):
    url = pg_cluster.clean_database()
    _write_a_table(url)
    first_id = sql_rows(url, "SELECT MAX(id) FROM events")[0][0]
    holder = psycopg.connect(url, autocommit=True)
    holder.execute("SELECT pg_advisory_lock(7, 7)")
    holder.execute("BEGIN")  # and a transaction left open
    pg_cluster.reset_database(url)

    assert pg_cluster.clean_database() == url  # the same database, reused
    assert holder.closed or holder.broken or _ended(holder)
    for table in ("events", "tables", "hands", "tokens"):
        assert sql_rows(url, f"SELECT COUNT(*) FROM {table}")[0][0] == 0, table
    with psycopg.connect(url, autocommit=True) as other:
        assert other.execute("SELECT pg_try_advisory_lock(7, 7)").fetchone()[0] is True
    _write_a_table(url)
    assert sql_rows(url, "SELECT MAX(id) FROM events")[0][0] == first_id  # the sequence restarted
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("UPDATE meta SET value = 'spoilt' WHERE key = 'schema_version'")
        conn.execute("INSERT INTO meta (key, value) VALUES ('tokens_revoked', '3')")
    pg_cluster.reset_database(url)
    assert pg_cluster.clean_database() == url
    assert sql_rows(url, "SELECT key, value FROM meta") == sql_rows(pg_cluster.url(pg_cluster.template),
                                                                    "SELECT key, value FROM meta")
    pg_cluster.reset_database(url)


def _ended(conn) -> bool:
    try:
        conn.execute("SELECT 1")
    except psycopg.OperationalError:
        return True
    return False


def test_the_append_only_triggers_hold_again_after_a_reset(pg_cluster):
    url = pg_cluster.clean_database()
    pg_cluster.reset_database(url)
    _write_a_table(url)
    with psycopg.connect(url, autocommit=True) as conn, pytest.raises(psycopg.errors.IntegrityConstraintViolation,
                                                                     match="append-only"):
        conn.execute("DELETE FROM events")
    pg_cluster.reset_database(url)


@pytest.mark.parametrize("spoil", [
    "CREATE TABLE stray (n INTEGER)",
    "ALTER TABLE tables ADD COLUMN stray INTEGER",
    "DROP TRIGGER events_no_delete ON events",
    "ALTER TABLE tokens ADD CONSTRAINT stray CHECK (id < 0)",  # a constraint, a default, a type: no relation
    "ALTER TABLE meta ALTER COLUMN value SET DEFAULT 'stray'",
    "CREATE TYPE stray AS ENUM ('a')",
])
def test_a_database_whose_schema_changed_is_replaced(pg_cluster, spoil):
    url = pg_cluster.clean_database()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(spoil)
    pg_cluster.reset_database(url)

    fresh = pg_cluster.clean_database()
    assert fresh != url
    with psycopg.connect(pg_cluster.url(), autocommit=True) as admin:
        names = {name for (name,) in admin.execute("SELECT datname FROM pg_database").fetchall()}
    assert url.rsplit("/", 1)[1] not in names  # dropped
    with psycopg.connect(fresh, autocommit=True) as conn:
        assert conn.execute("SELECT to_regclass('stray')").fetchone()[0] is None
        assert conn.execute("SELECT COUNT(*) FROM pg_trigger WHERE tgname = 'events_no_delete'").fetchone()[0] == 1
        assert "stray" not in {c for (c,) in conn.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'tables'").fetchall()}
    pg_cluster.reset_database(fresh)
