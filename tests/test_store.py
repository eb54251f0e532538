"""The store: migrations, the append-only log (refused by SQLite itself), uniqueness,
group commit, projections rebuilt from the log. Real SQLite files in tmp_path."""
from __future__ import annotations

import sqlite3
import threading

import pytest

from store import SCHEMA_VERSION, StoreUnavailableError, connect, init_db
from store import tables as ts
from store.schema import SchemaTooNewError, current_version, migrate
from store.writer import GroupCommitter


@pytest.fixture()
def path(tmp_path):
    p = tmp_path / "store.sqlite3"
    init_db(p)
    return p


@pytest.fixture()
def db(path):
    conn = connect(path)
    yield conn
    conn.close()


def _table(db, table_id="T1"):
    with db.atomic():
        return ts.create_table(db, table_id)


def test_fresh_file_is_at_the_current_version_in_wal(path):
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        version = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0]
    assert int(version) == SCHEMA_VERSION
    assert init_db(path) == []  # a second start migrates nothing


def test_a_version_1_file_is_migrated_keeping_its_data(tmp_path):
    path = tmp_path / "old.sqlite3"
    db = connect(path)
    db.enable_wal()
    migrate(db, target=1)
    db.execute("INSERT INTO meta (key, value) VALUES ('note', 'kept')")
    db.conn.commit()
    assert current_version(db) == 1
    db.close()

    assert init_db(path) == list(range(2, SCHEMA_VERSION + 1))

    db = connect(path)
    assert current_version(db) == SCHEMA_VERSION
    assert db.execute("SELECT value FROM meta WHERE key = 'note'").fetchone()[0] == "kept"
    assert {"events", "tables", "rulings", "overrides", "tokens", "tournaments", "hands"} <= set(db.table_names())
    db.close()


def test_a_version_2_file_gets_the_idempotency_keys_keeping_its_tournaments(tmp_path):
    """Schema 3 (issue #12 item 7): ``idempotency_keys`` added to a file of issue #7's layout."""
    from store import idempotency as istore
    from store import tournaments as tstore

    path = tmp_path / "v2.sqlite3"
    db = connect(path)
    db.enable_wal()
    migrate(db, target=2)
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
    with pytest.raises(sqlite3.IntegrityError):
        with db.atomic():
            istore.save(db, principal=1, key="k", fingerprint="g", method="POST", path="/p", tournament_id="T1",
                        first_seq=None, last_seq=None, status=201, body={})
    db.close()


def test_a_newer_file_is_refused(path):
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION + 1),))
    with pytest.raises(SchemaTooNewError, match="newer"):
        init_db(path)


def test_events_are_append_only_in_the_database_itself(path, db):
    _table(db)
    with db.atomic():
        ts.append_event(db, "T1", 1, 1, "hand_start", {"type": "hand_start"})
    raw = sqlite3.connect(path)  # not our code: a plain connection
    for sql in ("UPDATE events SET body = '{}'", "DELETE FROM events", "DELETE FROM events WHERE seq = 1"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute(sql)
    raw.close()
    assert [e["seq"] for e in ts.events(db, "T1")] == [1]


def test_one_event_per_table_hand_seq(db):
    _table(db)
    _table(db, "T2")
    with db.atomic():
        ts.append_event(db, "T1", 1, 1, "hand_start", {})
        ts.append_event(db, "T2", 1, 1, "hand_start", {})  # another table: fine
        ts.append_event(db, "T1", 2, 1, "hand_start", {})  # another hand: fine
    with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"), db.atomic():
        ts.append_event(db, "T1", 1, 1, "draw", {})


def test_an_event_needs_its_table(db):
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"), db.atomic():
        ts.append_event(db, "nope", 1, 1, "hand_start", {})


def test_token_rows_keep_a_table_only_for_the_table_role(db):
    _table(db)
    from store.tokens import add_token

    with pytest.raises(sqlite3.IntegrityError, match="CHECK"), db.atomic():
        add_token(db, digest="a" * 64, prefix="x", role="official", table_id="T1")
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"), db.atomic():
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


def test_the_writer_notices_other_connections_writes(path):
    writer = GroupCommitter(lambda: connect(path, check_same_thread=False))
    seen = []
    writer.submit(lambda tx: seen.append(tx.external_change))
    writer.submit(lambda tx: seen.append(tx.external_change))
    other = connect(path)
    _table(other, "T5")
    writer.submit(lambda tx: seen.append(tx.external_change))
    assert seen == [True, False, True]
    writer.close()
    other.close()
