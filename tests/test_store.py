"""The store: migrations, the append-only log (refused by the database itself), uniqueness,
group commit, projections rebuilt from the log. Real SQLite files in tmp_path, or real
PostgreSQL databases (``MJREF_TEST_DATABASE=postgresql``, tests/pgcluster.py)."""
from __future__ import annotations

import sqlite3
import threading

import pytest

from store import SCHEMA_VERSION, StoreUnavailableError, connect, init_db
from store import tables as ts
from store.dialect import INTEGRITY_ERRORS, is_postgres, table_exists
from store.schema import SchemaTooNewError, current_version, migrate
from store.writer import GroupCommitter
from tests.servicekit import sql_rows

LAYOUT = {"events", "tables", "rulings", "overrides", "tokens", "tournaments", "hands", "tournament_events",
          "idempotency_keys", "meta"}


@pytest.fixture()
def path(database):
    init_db(database)
    return database


@pytest.fixture()
def empty(database, request, tmp_path):
    """A database with nothing in it yet (no layout)."""
    if is_postgres(database):
        cluster = request.getfixturevalue("pg_cluster")
        url = cluster.new_database("empty", template="template1")
        yield url
        cluster.drop_database(url)
    else:
        yield str(tmp_path / "old.sqlite3")


def plain(database):
    """Not our code: a plain connection (sqlite3, or psycopg), each statement committed."""
    if is_postgres(database):
        import psycopg

        return psycopg.connect(database, autocommit=True)
    return sqlite3.connect(database, isolation_level=None)


@pytest.fixture()
def db(path):
    conn = connect(path)
    yield conn
    conn.close()


def _table(db, table_id="T1"):
    with db.atomic():
        return ts.create_table(db, table_id)


def test_fresh_file_is_at_the_current_version_in_wal(path):
    if not is_postgres(path):
        assert sql_rows(path, "PRAGMA journal_mode") == [("wal",)]
    [(version,)] = sql_rows(path, "SELECT value FROM meta WHERE key = 'schema_version'")
    assert int(version) == SCHEMA_VERSION
    assert init_db(path) == []  # a second start migrates nothing


def test_a_version_1_file_is_migrated_keeping_its_data(empty):
    path = empty
    db = connect(path)
    if not is_postgres(path):
        db.enable_wal()
    assert current_version(db) == 0
    migrate(db, target=1)
    db.execute("INSERT INTO meta (key, value) VALUES ('note', 'kept')")
    db.conn.commit()
    assert current_version(db) == 1
    db.close()

    assert init_db(path) == list(range(2, SCHEMA_VERSION + 1))

    db = connect(path)
    assert current_version(db) == SCHEMA_VERSION
    assert db.execute("SELECT value FROM meta WHERE key = 'note'").fetchone()[0] == "kept"
    assert all(table_exists(db, name) for name in LAYOUT)
    db.close()


def test_a_version_2_file_gets_the_idempotency_keys_keeping_its_tournaments(empty):
    """Schema 3 (issue #12 item 7): ``idempotency_keys`` added to a file of issue #7's layout."""
    from store import idempotency as istore
    from store import tournaments as tstore

    path = empty
    db = connect(path)
    if not is_postgres(path):
        db.enable_wal()
    migrate(db, target=2)
    assert not table_exists(db, "idempotency_keys")
    with db.atomic():
        tstore.create_tournament(db, "T1", name="台北盃")
        tstore.append_tournament_event(db, "T1", "EventCreated", {"settings": {}})
    db.close()

    assert init_db(path) == list(range(3, SCHEMA_VERSION + 1))  # 3, and any step since

    db = connect(path)
    assert tstore.get_tournament(db, "T1")["name"] == "台北盃" and tstore.last_seq(db, "T1") == 1
    with db.atomic():
        istore.save(db, principal=1, key="k", fingerprint="f", method="POST", path="/p", tournament_id="T1",
                    first_seq=1, last_seq=1, status=201, body={"ok": True}, headers={"Location": "/x"})
    stored = istore.find(db, 1, "k")
    assert (stored.status, stored.body, stored.headers, stored.last_seq) == (201, {"ok": True}, {"Location": "/x"}, 1)
    assert istore.find(db, 2, "k") is None  # another token's key space
    with pytest.raises(INTEGRITY_ERRORS):
        with db.atomic():
            istore.save(db, principal=1, key="k", fingerprint="g", method="POST", path="/p", tournament_id="T1",
                        first_seq=None, last_seq=None, status=201, body={})
    db.close()


def test_a_newer_file_is_refused(path):
    sql_rows(path, "UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION + 1),))
    with pytest.raises(SchemaTooNewError, match="newer"):
        init_db(path)


def test_events_are_append_only_in_the_database_itself(path, db):
    _table(db)
    with db.atomic():
        ts.append_event(db, "T1", 1, 1, "hand_start", {"type": "hand_start"})
    raw = plain(path)
    refused = ["UPDATE events SET body = '{}'", "DELETE FROM events", "DELETE FROM events WHERE seq = 1"]
    if is_postgres(path):
        refused.append("TRUNCATE events CASCADE")
    for table in ("tournament_events", "idempotency_keys"):
        refused += [f"UPDATE {table} SET seq = 0" if table == "tournament_events" else f"UPDATE {table} SET status = 0",
                    f"DELETE FROM {table}"]
    with db.atomic():
        from store import tournaments as tstore

        tstore.create_tournament(db, "C1")
        tstore.append_tournament_event(db, "C1", "EventCreated", {"settings": {}})
        from store import idempotency as istore

        istore.save(db, principal=1, key="k", fingerprint="f", method="POST", path="/p", tournament_id="C1",
                    first_seq=1, last_seq=1, status=201, body={})
    for sql in refused:
        with pytest.raises(INTEGRITY_ERRORS, match="append-only"):
            raw.execute(sql)
    raw.close()
    assert sql_rows(path, "SELECT COUNT(*) FROM tournament_events") == [(1,)]
    assert sql_rows(path, "SELECT COUNT(*) FROM idempotency_keys") == [(1,)]
    assert [e["seq"] for e in ts.events(db, "T1")] == [1]


def test_one_event_per_table_hand_seq(db):
    _table(db)
    _table(db, "T2")
    with db.atomic():
        ts.append_event(db, "T1", 1, 1, "hand_start", {})
        ts.append_event(db, "T2", 1, 1, "hand_start", {})  # another table: fine
        ts.append_event(db, "T1", 2, 1, "hand_start", {})  # another hand: fine
    with pytest.raises(INTEGRITY_ERRORS, match="(?i)unique"), db.atomic():
        ts.append_event(db, "T1", 1, 1, "draw", {})


def test_an_event_needs_its_table(db):
    with pytest.raises(INTEGRITY_ERRORS, match="(?i)foreign key"), db.atomic():
        ts.append_event(db, "nope", 1, 1, "hand_start", {})


def test_token_rows_keep_a_table_only_for_the_table_role(db):
    _table(db)
    from store.tokens import add_token

    with pytest.raises(INTEGRITY_ERRORS, match="(?i)check"), db.atomic():
        add_token(db, digest="a" * 64, prefix="x", role="official", table_id="T1")
    with pytest.raises(INTEGRITY_ERRORS, match="(?i)check"), db.atomic():
        add_token(db, digest="b" * 64, prefix="x", role="table", table_id=None)


# --- group commit -------------------------------------------------------------------------


def test_group_commit_isolates_a_failing_job(path):
    writer = GroupCommitter(lambda: connect(path, check_same_thread=False))
    db = connect(path)
    _table(db)

    def good(seq):
        return lambda tx: ts.append_event(tx.db, "T1", 1, seq, "draw", {"seq": seq})

    def bad(tx):
        ts.append_event(tx.db, "T1", 1, 100, "draw", {})
        raise ValueError("boom")

    results, errors = [], []

    def run(work):
        try:
            results.append(writer.submit(work))
        except ValueError as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(good(i),)) for i in range(1, 21)]
    threads.append(threading.Thread(target=run, args=(bad,)))
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)

    assert len(results) == 20 and len(errors) == 1
    seqs = sorted(e["seq"] for e in ts.events(db, "T1"))
    assert seqs == list(range(1, 21))  # the failing job's write was rolled back alone
    assert writer.jobs == 21 and writer.commits <= 21
    writer.close()
    db.close()


def test_abort_hooks_run_when_a_job_fails(path):
    writer = GroupCommitter(lambda: connect(path, check_same_thread=False))
    undone = []

    def work(tx):
        tx.on_abort(lambda: undone.append(True))
        raise RuntimeError("no")

    with pytest.raises(RuntimeError):
        writer.submit(work)
    assert undone == [True]
    writer.close()


@pytest.mark.sqlite_only
def test_a_locked_database_is_store_unavailable_and_nothing_is_written(path, monkeypatch):
    import store.db

    monkeypatch.setattr(store.db, "BUSY_TIMEOUT", 0.05)
    writer = GroupCommitter(lambda: connect(path, check_same_thread=False))
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        with pytest.raises(StoreUnavailableError):
            writer.submit(lambda tx: ts.create_table(tx.db, "T9"))
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    db = connect(path)
    assert ts.get_table(db, "T9") is None
    assert writer.submit(lambda tx: ts.create_table(tx.db, "T9"))["id"] == "T9"  # works again
    writer.close()
    db.close()


