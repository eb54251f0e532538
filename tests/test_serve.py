"""The server as ``make run`` starts it, as root (issue #12 item 8): its processes run as an
unprivileged user, the database is theirs to write, every request is one line of the log.

``make run`` passes ``--user mjref``; this test uses ``nobody`` (there on every Debian)
and a database under pytest's private (mode 700) folder, so the server must also reach
folders closed to that user (:func:`mjref.serve.open_the_way`).
"""
from __future__ import annotations

import os
import pwd
import re

import pytest

from mjref.serve import LOG_FORMAT, closed_folders, nginx_conf
from tests.servicekit import bearer, free_port, make_token, pause, request, start_server

USER = "nobody"


def _uid(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        return int(next(line for line in f if line.startswith("Uid:")).split()[2])  # the effective uid


def _children(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        return [int(k) for k in f.read().split()]


def _command(pid: int) -> str:
    with open(f"/proc/{pid}/cmdline", "rb") as f:
        return f.read().replace(b"\0", b" ").decode()


@pytest.mark.skipif(os.geteuid() != 0, reason="started as root only (make run's --user)")
def test_started_as_root_the_service_runs_as_its_user_and_logs_every_request(tmp_path):
    nobody = pwd.getpwnam(USER).pw_uid
    database = tmp_path / "data" / "served.sqlite3"
    log = tmp_path / "server.log"
    port = free_port()
    server = start_server(database, port, log=log, user=USER)
    try:
        kids = _children(server.pid)
        assert len(kids) == 3 and any("nginx" in _command(k) for k in kids), [_command(k) for k in kids]
        assert [_uid(pid) for pid in (server.pid, *kids)] == [nobody] * 4  # master, 2 workers, nginx
        assert database.stat().st_uid == nobody and database.parent.stat().st_uid == nobody

        admin = bearer(make_token(database, "admin"))  # written by root here: the service still writes after
        assert request(port, "POST", "/api/v1/tables", {"id": "U1"}, admin)[0] == 201
        assert request(port, "GET", "/health")[0] == 200
        assert request(port, "GET", "/no-such-page?x=1")[0] == 404
        pause(0.5)
        lines = log.read_text(errors="replace").splitlines()
        requests = [line for line in lines if re.match(r'^127\.0\.0\.1 "[A-Z]+ /', line)]
        assert any(re.match(r'^127\.0\.0\.1 "POST /api/v1/tables HTTP/1\.1" 201 \d+ \d+ms ', r) for r in requests)
        assert any(re.match(r'^127\.0\.0\.1 "GET /no-such-page\?x=1 HTTP/1\.1" 404 ', r) for r in requests)
        # one line per request: start_server's polls of /health and the one above, no more
        assert sum('"GET /health ' in r for r in requests) >= 2
        assert all("Bearer" not in line and "mjref_" not in line for line in lines)  # no token logged
    finally:
        server.terminate()
        server.wait(10)


def test_a_folder_closed_to_the_user_is_found(tmp_path):
    closed = tmp_path / "closed"
    (closed / "inside").mkdir(parents=True)
    closed.chmod(0o700)
    nobody = pwd.getpwnam(USER)
    if os.stat(closed).st_uid == nobody.pw_uid:
        pytest.skip("the tests run as nobody")
    assert closed_folders([closed / "inside" / "x.sqlite3"], nobody.pw_uid, nobody.pw_gid)[closed] == {"inside"}
    closed.chmod(0o711)
    assert closed not in closed_folders([closed / "inside" / "x.sqlite3"], nobody.pw_uid, nobody.pw_gid)


def test_nginx_config_bounds_every_client(tmp_path):
    conf = nginx_conf(tmp_path, "127.0.0.1", 8000, processes=2)
    for line in ("client_header_timeout 10s;", "keepalive_timeout 30s;", "limit_conn per_client 128;",
                 "master_process off;", f"server unix:{tmp_path}/uwsgi-2.sock;", "hash $mjref_table consistent;",
                 "least_conn;"):
        assert line in conf, line
    assert "%(uri)" in LOG_FORMAT and "%(status)" in LOG_FORMAT


def _raw(port: int, data: bytes) -> tuple[int, dict, bytes]:
    import json
    import socket

    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(data)
        answer = b""
        try:
            while chunk := s.recv(65536):
                answer += chunk
        except ConnectionResetError:  # nginx resets a connection whose body it refused, after its answer
            pass
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, json.loads(body) if body else {}


def test_the_front_answers_its_own_errors_as_problem_json(tmp_path):
    port = free_port()
    server = start_server(tmp_path / "front.sqlite3", port, processes=1, threads=4)
    try:
        status, headers, body = _raw(port, b"NOT HTTP AT ALL\r\n\r\n")
        assert status == 400 and headers["Content-Type"] == "application/problem+json", headers
        assert body["code"] == "bad_request" and body["detail_zh"]
        status, headers, body = _raw(port, b"POST /api/v1/analyze HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                                           b"\r\nContent-Length: 9000000\r\nConnection: close\r\n\r\n")
        # the body is not waited for
        assert status == 413 and body["code"] == "body_too_large" and body["field"] == "body", body
        assert headers["X-Content-Type-Options"] == "nosniff"
        status, headers, body = _raw(port, b"GET /.mjref-error/400 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert status == 404 and body["code"] == "not_found"  # nginx's own error pages are not reachable
    finally:
        server.terminate()
        server.wait(10)


def test_a_front_whose_servers_are_down_answers_503_in_its_status_and_its_body(tmp_path):
    """nginx's own 502 and 504 (no app server answered) are the 503 problem the body says,
    with ``Retry-After``: a client retries on the status, not on the body's text."""
    from tests.servicekit import start_front_of

    front, port = start_front_of(tmp_path, [free_port()], max_fails=0,
                                 log=open(tmp_path / "front.log", "wb"))  # noqa: SIM115
    try:
        status, headers, body = _raw(port, b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert status == 503 and body["status"] == 503, (status, body)
        assert headers["Content-Type"] == "application/problem+json" and headers["Retry-After"] == "1"
    finally:
        front.terminate()
        front.wait(10)


def _dying_upstreams(count: int):
    """*count* uwsgi-protocol sockets that take a request and close without an answer (a
    server that died mid-request); how many requests reached them."""
    import socket
    import threading

    seen: list[int] = []
    listeners = []
    for _ in range(count):
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        listeners.append(listener)

        def serve(sock=listener):
            while True:
                try:
                    conn, _ = sock.accept()
                except OSError:
                    return
                with conn:
                    if conn.recv(65536):
                        seen.append(1)

        threading.Thread(target=serve, daemon=True).start()
    return listeners, seen


@pytest.mark.parametrize(("path", "resent"), [
    ("/api/v1/tables/F1/events", True),  # idempotent by (hand, seq): a resend is answered as a duplicate
    ("/api/v1/tournaments", False),      # Idempotency-Key is optional: a resend would write twice
    ("/api/v1/tables", False),           # a resend would answer the client's own create 409
])
def test_the_front_resends_a_post_that_reached_a_dying_server_only_where_a_resend_is_safe(tmp_path, path, resent):
    from tests.servicekit import start_front_of

    listeners, seen = _dying_upstreams(2)
    front = None
    try:
        front, port = start_front_of(tmp_path, [s.getsockname()[1] for s in listeners], max_fails=0,
                                     log=open(tmp_path / "front.log", "wb"))  # noqa: SIM115
        status, body = request(port, "POST", path, {"id": "T1"}, {"Authorization": "Bearer x"})
        assert status == 503 and body["code"]
        assert len(seen) == (2 if resent else 1)
    finally:
        if front is not None:
            front.terminate()
            front.wait(10)
        for listener in listeners:
            listener.close()
