"""The lighter deployment shape (issue #16 items 3 and 5, ``docs/deploy.md``): one front nginx
(``python -m mjref.serve --front-of``) holds the clients and passes the uwsgi protocol straight
to the workers of three app servers started with ``--protocol uwsgi`` (no nginx of their own),
on one PostgreSQL. The front bounds clients and answers its own errors as ``make run``'s nginx
does; a table's posts go to one worker; a server SIGKILLed mid-burst loses nothing
acknowledged, and the posts in flight on it are resent by the front (the clients see no error).
"""
from __future__ import annotations

import random
import signal
import threading

import pytest

from tests.servicekit import (bearer, free_port, hand_events, make_token, pause, request, sql_rows, start_front_of,
                              start_server)
from tests.test_serve import _raw

pytestmark = pytest.mark.postgresql

TABLES = 6


def test_the_front_before_uwsgi_servers_bounds_clients_and_loses_nothing_when_a_server_dies(pg_database, tmp_path):
    url = pg_database
    ports = [free_port() for _ in range(3)]
    servers = [start_server(url, p, processes=1, threads=8, log=tmp_path / f"server-{p}.log", protocol="uwsgi")
               for p in ports]
    front = None
    try:
        front, port = start_front_of(tmp_path, ports, log=open(tmp_path / "front.log", "wb"))  # noqa: SIM115
        assert request(port, "GET", "/health")[0] == 200
        status, headers, body = _raw(port, b"NOT HTTP AT ALL\r\n\r\n")
        assert status == 400 and headers["Content-Type"] == "application/problem+json" and body["code"] == "bad_request"
        status, _, body = _raw(port, b"POST /api/v1/analyze HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                                     b"\r\nContent-Length: 9000000\r\nConnection: close\r\n\r\n")
        assert status == 413 and body["code"] == "body_too_large"
        admin = bearer(make_token(url, "admin"))
        names = [f"F{i:02d}" for i in range(TABLES)]
        for name in names:
            assert request(port, "POST", "/api/v1/tables", {"id": name}, admin)[0] == 201
        tokens = {name: bearer(make_token(url, "table", name)) for name in names}
        plans = {name: hand_events(700 + i) for i, name in enumerate(names)}
        acked: dict[str, dict[int, dict]] = {name: {} for name in names}
        errors: list[str] = []
        stop = threading.Event()

        def burst(name: str, seed: int) -> None:
            rng = random.Random(seed)
            events, i = plans[name], 0
            while i < len(events) and not stop.is_set():
                chunk = events[i:i + rng.randint(1, 3)]
                try:
                    status, body = request(port, "POST", f"/api/v1/tables/{name}/events", {"events": chunk},
                                           tokens[name], timeout=20)
                except OSError as exc:
                    errors.append(repr(exc))
                    return
                if status != 200:
                    errors.append(f"{name}: {status} {body}")
                    return
                for answer in body["results"]:
                    acked[name][answer["seq"]] = answer
                i += len(chunk)

        threads = [threading.Thread(target=burst, args=(name, i), daemon=True) for i, name in enumerate(names)]
        for t in threads:
            t.start()

        def tables_on(p: int) -> set[str]:
            text = (tmp_path / f"server-{p}.log").read_text(errors="replace")
            return {n for n in names if f"/api/v1/tables/{n}/events" in text}

        def logged() -> set[str]:
            return set().union(*(tables_on(p) for p in ports))

        # a server logs a post after answering it: wait until every table's posts are in some log
        # (not only for a count of answers, which a slow-starting table may not be among)
        while ((sum(map(len, acked.values())) < 60 or logged() != set(names))
               and not errors and any(t.is_alive() for t in threads)):
            pause(0.01)
        spread = {p: tables_on(p) for p in ports}
        assert logged() == set(names), spread
        assert all(len([p for p in ports if n in spread[p]]) == 1 for n in names), spread  # a table: one server
        victim = max(ports, key=lambda p: len(spread[p]))
        assert spread[victim]
        servers[ports.index(victim)].send_signal(signal.SIGKILL)  # mid-burst: posts are in flight on it
        servers[ports.index(victim)].wait(10)
        for t in threads:
            t.join(120)
        stop.set()
        assert errors == []  # the front resent what was in flight on the dead server: no 502, no reset
        for name in names:
            assert len(acked[name]) == len(plans[name]), name
            stored = sql_rows(url, "SELECT seq FROM events WHERE table_id = ? AND stream = 'play' ORDER BY id", (name,))
            assert [s for (s,) in stored] == list(range(1, len(plans[name]) + 1)), name  # once each, in order
            assert all(a["verdict"] == "accepted" for a in acked[name].values())
    finally:
        stop_all = [front, *servers]
        for proc in stop_all:
            if proc is not None and proc.poll() is None:
                proc.terminate()
        for proc in stop_all:
            if proc is not None:
                proc.wait(10)
