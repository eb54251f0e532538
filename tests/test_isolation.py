"""Many tables posting at once through the real server (uWSGI as make run starts it, real HTTP, two server
processes as ``make run`` starts them): each table's order is kept, resends and clashes
are answered per table, and a table token never reaches another table, whatever the
interleaving — also when a table reconnects and its posts reach the other process."""
from __future__ import annotations

import http.client
import random
import threading

import pytest

from tests.servicekit import bearer, free_port, hand_events, make_token, request, sql_rows, start_server

TABLES = 16


@pytest.fixture()
def server(tmp_path, server_database):
    database = server_database(tmp_path, "iso")
    port = free_port()
    proc = start_server(database, port, log=tmp_path / "server.log")
    yield database, port
    proc.terminate()
    proc.wait(10)


def test_many_tables_at_once_keep_their_order_and_their_own_tokens(server):
    database, port = server
    admin = bearer(make_token(database, "admin"))
    names = [f"T{i:02d}" for i in range(TABLES)]
    tokens = {}
    for name in names:
        assert request(port, "POST", "/api/v1/tables", {"id": name}, admin)[0] == 201
        tokens[name] = bearer(make_token(database, "table", name))
    plans = {name: hand_events(100 + i) for i, name in enumerate(names)}
    failures: list[str] = []
    acked: dict[str, list[dict]] = {name: [] for name in names}

    def play(name: str, seed: int) -> None:
        rng = random.Random(seed)
        events = plans[name]
        other = names[(names.index(name) + 1) % TABLES]
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        path = f"/api/v1/tables/{name}/events"
        i = 0
        try:
            while i < len(events):
                n = rng.randint(1, 12)
                chunk = events[i:i + n]
                status, body = request(port, "POST", path, {"events": chunk}, tokens[name], conn=conn)
                if status != 200:
                    failures.append(f"{name}: {status} {body}")
                    return
                acked[name].extend(r for r in body["results"] if not r.get("duplicate"))
                i += len(chunk)
                roll = rng.random()
                if roll < 0.15 and i + 1 < len(events):  # skip one ahead: a gap
                    status, body = request(port, "POST", path, events[i + 1], tokens[name], conn=conn)
                    if status != 409 or body["expected_seq"] != events[i]["seq"]:
                        failures.append(f"{name}: gap answered {status} {body}")
                elif roll < 0.3:  # resend the last one: same answer
                    status, body = request(port, "POST", path, events[i - 1], tokens[name], conn=conn)
                    if status != 200 or not body["results"][0]["duplicate"]:
                        failures.append(f"{name}: resend answered {status} {body}")
                elif roll < 0.4:  # try the next table with this table's token
                    status, body = request(port, "POST", f"/api/v1/tables/{other}/events", events[0], tokens[name],
                                           conn=conn)
                    if status != 403:
                        failures.append(f"{name} reached {other}: {status} {body}")
                elif roll < 0.55:  # reconnect: the next posts may reach the other server process
                    conn.close()
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        finally:
            conn.close()

    threads = [threading.Thread(target=play, args=(name, i)) for i, name in enumerate(names)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not failures, failures[:5]

    for name in names:
        seqs = [r[0] for r in sql_rows(database, "SELECT seq FROM events WHERE table_id = ? ORDER BY id", (name,))]
        assert seqs == [e["seq"] for e in plans[name]], name  # this table's order, nothing else
    for name in names:
        assert all(a["verdict"] == "accepted" for a in acked[name]), name
        replay = request(port, "GET", f"/api/v1/tables/{name}/hands/1/replay", headers=tokens[name])[1]
        assert replay["answers"] == acked[name], name  # live == replay
