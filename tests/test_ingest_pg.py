"""The live-ingest fast path on PostgreSQL with a cached token (issue #16 items 2 and 5).

A post whose token the cache holds reads nothing of its own: the write's transaction reads
the revocation count (``store.writer.Tx.revocations``) and the post is stored only if the
count is the one the cache was checked at. Two apps on one database stand for two servers.
"""
from __future__ import annotations

import json
import threading

import pytest

from app import create_app
from store import close_app
from tests.servicekit import bearer, hand_events, make_token, sql_rows

pytestmark = pytest.mark.postgresql


@pytest.fixture()
def two_apps(pg_database):
    apps = [create_app({"TESTING": True, "DATABASE": pg_database, "SCHEDULER": "off"}) for _ in range(2)]
    yield pg_database, apps
    for app in apps:
        close_app(app)


def _post(client, token, table, body):
    response = client.post(f"/api/v1/tables/{table}/events", json=body, headers=bearer(token))
    return response.status_code, response.get_json()


def _stored(database, table):
    return sql_rows(database, "SELECT hand, seq FROM events WHERE table_id = ? AND stream = 'play' "
                              "ORDER BY hand, seq", (table,))


def _setup(database, first):
    admin = make_token(database, "admin")
    client = first.test_client()
    assert client.post("/api/v1/tables", json={"id": "C1"}, headers=bearer(admin)).status_code == 201
    return admin, make_token(database, "table", "C1")


def test_a_cached_tokens_posts_take_no_read_connection(two_apps):
    database, (first, _) = two_apps
    _, token = _setup(database, first)
    client = first.test_client()
    events = hand_events(3)
    for event in events[:3]:  # the token looked up and cached, the table loaded
        assert _post(client, token, "C1", event)[0] == 200
    pool = first.extensions["mjref.pool"]
    before = pool.get_stats()["requests_num"]
    for event in events[3:10]:
        status, answer = _post(client, token, "C1", event)
        assert status == 200 and answer["results"][0]["verdict"] == "accepted"
    assert pool.get_stats()["requests_num"] == before  # no pooled read connection taken
    assert len(_stored(database, "C1")) == 10


def _revoked_after_caching(two_apps, count: int):
    """Table C1's token cached by the second app (three events posted through it), then
    revoked through the first: the database, the second app's client, the token, and the
    hand's first *count* events."""
    database, (first, second) = two_apps
    admin, token = _setup(database, first)
    events = hand_events(count)
    client = second.test_client()
    for event in events[:3]:  # cached by the second app
        assert _post(client, token, "C1", event)[0] == 200
    [(token_id,)] = sql_rows(database, "SELECT id FROM tokens WHERE role = 'table'")
    assert first.test_client().delete(f"/api/v1/tokens/{token_id}", headers=bearer(admin)).status_code == 200
    return database, client, token, events


def test_a_cached_token_revoked_through_another_server_is_refused_and_nothing_stored(two_apps):
    database, client, token, events = _revoked_after_caching(two_apps, 4)
    status, problem = _post(client, token, "C1", events[3])
    assert status == 401 and problem["code"] == "invalid_token"
    assert _stored(database, "C1") == [(1, s) for s in range(1, 4)]


def test_another_tokens_revocation_leaves_a_cached_token_working(two_apps):
    database, (first, second) = two_apps
    admin, token = _setup(database, first)
    other = make_token(database, "official", label="副裁判")
    events = hand_events(5)
    client = second.test_client()
    for event in events[:3]:
        assert _post(client, token, "C1", event)[0] == 200
    [(other_id,)] = sql_rows(database, "SELECT id FROM tokens WHERE role = 'official'")
    assert first.test_client().delete(f"/api/v1/tokens/{other_id}", headers=bearer(admin)).status_code == 200
    for event in events[3:6]:  # the count moved: the first post is checked again, then cached again
        status, answer = _post(client, token, "C1", event)
        assert status == 200 and answer["results"][0]["verdict"] == "accepted"
    assert _stored(database, "C1") == [(1, s) for s in range(1, 7)]
    assert other != token


def test_a_token_looked_up_just_before_its_revocation_is_not_taken_after_it(two_apps):
    """The race the cache closes: a thread reads the count, looks the token up (still live),
    the token is revoked, another thread sees the new count and empties the cache, and only
    then the first thread caches what it looked up. That entry is never taken: it holds the
    count read before its lookup, no longer the count."""
    from services.caller import Principal, digest
    from store import connect

    database, (first, second) = two_apps
    admin, token = _setup(database, first)
    cache = second.extensions["mjref.token_cache"]
    db = connect(database)
    try:
        open_db = lambda: db  # noqa: E731 - a read connection, as the fast path's
        principal, seen = cache.get(digest(token), open_db)  # a miss: the lookup follows
        assert principal is None
        [(token_id, role, table)] = sql_rows(database, "SELECT id, role, table_id FROM tokens WHERE role = 'table'")
        looked_up = Principal(token_id, role, table, "")  # what the lookup found, the token still live
        assert first.test_client().delete(f"/api/v1/tokens/{token_id}", headers=bearer(admin)).status_code == 200
        assert cache.get("another", open_db) == (None, seen + 1)  # another thread sees the revocation
        cache.put(digest(token), looked_up, seen)  # the first thread caches late
        assert cache.get(digest(token), open_db)[0] is None
    finally:
        db.close()
    status, problem = _post(second.test_client(), token, "C1", hand_events(6)[0])  # the fast path: peek, then the write
    assert status == 401 and problem["code"] == "invalid_token"
    assert _stored(database, "C1") == []


@pytest.mark.parametrize("resent", ["duplicate", "gap", "bad_event"])
def test_a_cached_token_revoked_elsewhere_is_refused_for_a_post_that_writes_nothing(two_apps, resent):
    """A post that stores nothing (a resend, answered from the log; a 409 or 400 from the
    ingest) has no write batch to check the revocation count: the token's cache entry must
    not let it in either — 401, not the stored answers or the table's head."""
    database, client, token, events = _revoked_after_caching(two_apps, 6)
    body = {"duplicate": events[2], "gap": events[5], "bad_event": {**events[3], "type": "no_such_type"}}[resent]
    status, problem = _post(client, token, "C1", body)
    assert status == 401 and problem["code"] == "invalid_token"
    assert _stored(database, "C1") == [(1, s) for s in range(1, 4)]


def test_a_revocation_from_the_command_line_waits_for_the_write_batches_in_flight(two_apps):
    """A write batch reads the revocation count once, at its BEGIN (``Tx.revocations``), and
    holds the writers' lock shared until it commits; the API's revoke takes that lock
    exclusive, so no revocation commits while a batch that read the old count is open.
    ``flask tokens revoke`` must wait for it too: else a post let in by a cached token would
    commit after its token's revocation had."""
    import threading

    import psycopg

    from store.dialect import LOCK_WRITE

    database, (first, _) = two_apps
    _setup(database, first)
    [(token_id,)] = sql_rows(database, "SELECT id FROM tokens WHERE role = 'table'")
    batch = psycopg.connect(database, autocommit=True)
    try:
        batch.execute("BEGIN")
        batch.execute(f"SELECT pg_advisory_xact_lock_shared({LOCK_WRITE}, 0)")  # a write batch in flight
        done = {}
        revoke = threading.Thread(target=lambda: done.setdefault(
            "result", first.test_cli_runner().invoke(args=["tokens", "revoke", str(token_id)])))
        revoke.start()
        revoke.join(1.0)
        assert revoke.is_alive()  # waiting for the batch
        assert sql_rows(database, "SELECT revoked_at FROM tokens WHERE id = ?", (token_id,)) == [(None,)]
        batch.execute("COMMIT")
        revoke.join(20)
        assert not revoke.is_alive() and done["result"].exit_code == 0, done
    finally:
        batch.close()
    assert sql_rows(database, "SELECT revoked_at IS NOT NULL FROM tokens WHERE id = ?", (token_id,)) == [(True,)]


def test_the_one_trip_write_stores_what_the_reference_write_stores(pg_database):
    """The same posts — whole hands, a resend, a gap, a batch — to one app whose writer sends
    a batch of declared writes in one round trip (the default) and to one that runs every
    batch the reference way (``WRITE_PIPELINE`` false), each on its own table: the same
    answers, and the same rows in the log and the projections. The first app's posts did go
    in one trip (``writer.pipelined``), the second's never did."""
    apps = [create_app({"TESTING": True, "DATABASE": pg_database, "SCHEDULER": "off", "WRITE_PIPELINE": piped})
            for piped in (True, False)]
    try:
        admin = make_token(pg_database, "admin")
        answers = {}
        for app, table in zip(apps, ("P1", "R1")):
            client = app.test_client()
            assert client.post("/api/v1/tables", json={"id": table}, headers=bearer(admin)).status_code == 201
            token = make_token(pg_database, "table", table)
            hands = [hand_events(7, hand=1), hand_events(8, hand=2)]
            posts = [*hands[0], hands[0][5], hands[1][3]]  # a hand; a resend (idempotent); a gap (409)
            posts += [{"events": hands[1][:4]}, *hands[1][4:]]  # a batch, then one by one
            answers[table] = [_post(client, token, table, body) for body in posts]
        assert [a[0] for a in answers["P1"]] == [200] * len(hands[0]) + [200, 409, 200] + [200] * (len(hands[1]) - 4)
        assert json.dumps(answers["P1"]).replace("P1", "R1") == json.dumps(answers["R1"])  # the same but the table
        assert answers["P1"][len(hands[0])][1]["results"][0]["duplicate"] is True
        assert answers["P1"][len(hands[0]) + 1][0] == 409
        writers = [app.extensions["mjref.writer"] for app in apps]
        assert writers[0].pipelined > len(hands[0]) // 2 and writers[1].pipelined == 0

        def stored(table):
            return {
                "events": sql_rows(pg_database, "SELECT stream, hand, seq, type, body, answer FROM events "
                                                "WHERE table_id = ? ORDER BY id", (table,)),
                "hands": sql_rows(pg_database, "SELECT hand, ended, outcome, payments FROM hands "
                                               "WHERE table_id = ? ORDER BY hand", (table,)),
                "rulings": sql_rows(pg_database, "SELECT hand, id, seq, kind, code, clause, seat, status, ruling, "
                                                 "effective FROM rulings WHERE table_id = ? ORDER BY hand, id",
                                    (table,)),
            }

        assert stored("P1") == stored("R1")
        assert len(stored("P1")["events"]) == len(hands[0]) + len(hands[1]) and stored("P1")["hands"]
    finally:
        for app in apps:
            close_app(app)


class _CuttingProxy:
    """A TCP relay in front of PostgreSQL that, once armed, lets through the first
    connection's statements up to its COMMIT (PostgreSQL commits them) but none of its
    answers, then drops that connection: a batch whose COMMIT went through, its answer lost."""

    def __init__(self, url: str):
        import socket
        from urllib.parse import urlsplit

        target = urlsplit(url)
        self.target = (target.hostname, target.port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = url.replace(f"{target.hostname}:{target.port}", f"127.0.0.1:{self.listener.getsockname()[1]}")
        self.armed = threading.Event()
        self.cut = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        import socket

        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            mute = threading.Event()
            threading.Thread(target=self._pipe, args=(client, server, mute, True), daemon=True).start()
            threading.Thread(target=self._pipe, args=(server, client, mute, False), daemon=True).start()

    def _pipe(self, source, sink, mute, upstream):
        try:
            while data := source.recv(65536):
                if upstream and b"COMMIT\x00" in data and self.armed.is_set() and not self.cut.is_set():
                    self.cut.set()
                    mute.set()
                    sink.sendall(data)
                    threading.Event().wait(0.5)  # PostgreSQL commits; its answers go nowhere
                    source.close()
                    sink.close()
                    return
                if not (mute.is_set() and not upstream):
                    sink.sendall(data)
        except OSError:
            pass

    def close(self):
        self.listener.close()


def test_a_batch_whose_commit_went_through_but_whose_answer_was_lost_is_stored_once(pg_database):
    """The writer's connection is lost after its one-trip batch's COMMIT reached PostgreSQL
    and before the answer came back: the batch runs again the reference way on a new
    connection, where the head check finds the post already stored — the post is answered as
    stored (200, the same answer as it got, marked a duplicate), and stored once."""
    proxy = _CuttingProxy(pg_database)
    app = create_app({"TESTING": True, "DATABASE": proxy.url, "SCHEDULER": "off"})
    try:
        admin, token = _setup(pg_database, app)
        client = app.test_client()
        events = hand_events(7, hand=1)
        for body in events[:3]:
            assert _post(client, token, "C1", body)[0] == 200
        writer = app.extensions["mjref.writer"]
        pipelined = writer.pipelined
        proxy.armed.set()
        status, answer = _post(client, token, "C1", events[3])
        assert proxy.cut.is_set() and writer.pipelined == pipelined  # the trip's answer was lost
        assert status == 200 and answer["results"][0]["duplicate"] is True
        assert _stored(pg_database, "C1") == [(1, seq) for seq in range(1, 5)]
        status, again = _post(client, token, "C1", events[3])  # a resend: the same answer
        assert status == 200 and again["results"] == answer["results"]
        assert _post(client, token, "C1", events[4])[0] == 200 and writer.pipelined == pipelined + 1
    finally:
        close_app(app)
        proxy.close()
