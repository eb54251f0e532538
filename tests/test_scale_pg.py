"""Several app servers on one PostgreSQL (issue #16 items 2 and 3): real servers
(``python -m mjref.serve``: nginx in front of uWSGI) on their own ports, sharing nothing but
the database URL — no file beside a database, as servers on separate hosts would be.

* any server takes any table's events: a table's posts go to either server at random, and
  two clients racing the same events through both servers store each event once, in order;
* a token revoked through one server is refused by the other at once (no cache window);
* the log afterwards replays to the answers the servers gave.
"""
from __future__ import annotations

import random
import signal
import threading

import pytest

from tests.servicekit import bearer, free_port, hand_events, make_token, request, sql_rows, start_server

pytestmark = pytest.mark.postgresql


@pytest.fixture()
def two_servers(pg_database, tmp_path):
    ports = [free_port(), free_port()]
    servers: dict[int, object] = {}
    threads = [threading.Thread(target=lambda p=p: servers.__setitem__(
        p, start_server(pg_database, p, processes=1, threads=16, log=tmp_path / f"server-{p}.log"))) for p in ports]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert len(servers) == 2, "a server did not start"
        yield pg_database, ports
    finally:
        for server in servers.values():
            server.send_signal(signal.SIGKILL)
            server.wait()


def _post(port, headers, table, body, conn=None):
    return request(port, "POST", f"/api/v1/tables/{table}/events", body, headers=headers, timeout=30, conn=conn)


def test_any_server_takes_any_tables_events_each_stored_once_in_order(two_servers):
    database, ports = two_servers
    official = bearer(make_token(database, "official"))
    tables = [f"S{k}" for k in range(4)]
    for table in tables:
        status, body = request(ports[0], "POST", "/api/v1/tables", {"id": table}, headers=official)
        assert status == 201, body
    streams = {table: hand_events(30 + k) + hand_events(40 + k, hand=2) for k, table in enumerate(tables)}
    answers: dict[str, dict[tuple[int, int], dict]] = {table: {} for table in tables}
    failures: list = []

    def client(table, seed):
        """A table's client: each event to a server picked at random; two such clients race on S0."""
        pick = random.Random(seed)
        for event in streams[table]:
            status, body = _post(pick.choice(ports), official, table, event)
            if status != 200:
                failures.append((table, event["hand"], event["seq"], status, body))
                return
            answers[table].setdefault((event["hand"], event["seq"]), body["results"][0])

    threads = [threading.Thread(target=client, args=(t, k)) for k, t in enumerate(tables)]
    threads.append(threading.Thread(target=client, args=("S0", 99)))  # the same events again, racing
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert not failures, failures[:3]
    for table in tables:
        stored = sql_rows(database, "SELECT hand, seq FROM events WHERE table_id = ? AND stream = 'play' ORDER BY id",
                          (table,))
        assert stored == [(e["hand"], e["seq"]) for e in streams[table]], table  # once each, in order
        for hand in (1, 2):
            status, replayed = request(ports[hand % 2], "GET", f"/api/v1/tables/{table}/hands/{hand}/replay",
                                       headers=official)
            assert status == 200
            given = [answers[table][(a["hand"], a["seq"])] for a in replayed["answers"]]
            assert replayed["answers"] == [{k: v for k, v in a.items() if k != "duplicate"} for a in given]


def test_a_token_revoked_through_one_server_is_refused_by_the_other_at_once(two_servers):
    database, (first, second) = two_servers
    admin = bearer(make_token(database, "admin"))
    status, made = request(first, "POST", "/api/v1/tokens", {"role": "official", "label": "副裁判"}, headers=admin)
    assert status == 201
    headers = bearer(made["token"])
    for _ in range(3):  # cached by both servers
        assert request(first, "GET", "/api/v1/whoami", headers=headers)[0] == 200
        assert request(second, "GET", "/api/v1/whoami", headers=headers)[0] == 200
    assert request(first, "DELETE", f"/api/v1/tokens/{made['id']}", headers=admin)[0] == 200
    status, problem = request(second, "GET", "/api/v1/whoami", headers=headers)
    assert status == 401 and problem["code"] == "invalid_token"
    # a table token on the live-ingest fast path too
    request(first, "POST", "/api/v1/tables", {"id": "R1"}, headers=admin)
    status, made = request(second, "POST", "/api/v1/tokens", {"role": "table", "table": "R1"}, headers=admin)
    table = bearer(made["token"])
    events = hand_events(5)
    assert _post(first, table, "R1", events[0])[0] == 200
    assert request(second, "DELETE", f"/api/v1/tokens/{made['id']}", headers=admin)[0] == 200
    assert _post(first, table, "R1", events[1])[0] == 401
