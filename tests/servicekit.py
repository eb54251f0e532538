"""Helpers for the service's tests (issue #6): tokens, generated hands, a real server.

Everything is real: tokens are made by the same code as ``flask tokens create``, hands
by the referee's generator, the server is ``python -m mjref.serve`` (nginx in front of
uWSGI, as ``make run`` starts it, two worker processes) in a subprocess on a free
loopback port.
"""
from __future__ import annotations

import contextlib
import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from api.auth import create_token
from referee.events import event_to_dict
from referee.generator import generate_hand
from store import connect
from store.dialect import begin_write, is_postgres

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
#: how long a server may take to answer its first /health: a guard, not a measure (each worker
#: builds its app, about 5 s on a loaded machine; 4 workers starting at once took 20–24 s at load 17)
START_SECONDS = 60


def pause(seconds: float) -> None:
    """Wait ``seconds`` of real time. Not ``time.sleep``: under ``faketime`` (libfaketime 0.9.10,
    as the clock tests are proved with a shifted system date) its absolute-deadline sleep fails
    with EINVAL, while a timed wait works."""
    threading.Event().wait(max(0.0, seconds))


@contextlib.contextmanager
def writing_straight(database: str | os.PathLike):
    """A transaction on the database file itself, beside a running server (as another process
    would write): the write lock taken first (IMMEDIATE: a transaction that read first could
    not wait for it later, SQLite answers "database is locked" at once), waiting up to 30 s
    for the server's writer (on a loaded machine its commits can outlast the store's 5 s);
    committed, or rolled back when the block raises."""
    db = connect(database)
    if not is_postgres(database):
        db.conn.execute("PRAGMA busy_timeout = 30000")
    try:
        begin_write(db)
        try:
            yield db
        except BaseException:
            db.conn.rollback()
            raise
        db.conn.commit()
    finally:
        db.close()


def make_token(database: str | os.PathLike, role: str, table: str | None = None, label: str = "") -> str:
    """A new token's secret, written straight to the database file (:func:`writing_straight`)."""
    with writing_straight(database) as db:
        secret, _row = create_token(db, role=role, table=table, label=label or role)
    return secret


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def hand_events(seed: int, hand: int = 1, table: str | None = None) -> list[dict]:
    """A generated legal hand (digital), as the JSON a table posts."""
    events = [event_to_dict(e) for e in generate_hand(seed, hand=hand, table="x")]
    for e in events:
        e.pop("table", None)
        if table is not None:
            e["table"] = table
    return events


@pytest.fixture()
def official(app):
    return bearer(make_token(app.config["DATABASE"], "official"))


@pytest.fixture()
def admin(app):
    return bearer(make_token(app.config["DATABASE"], "admin"))


def create_table(client, headers, table_id: str, **settings) -> dict:
    response = client.post("/api/v1/tables", json={"id": table_id, **settings}, headers=headers)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


# --- a real server ----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def scorer_pin(database: str | os.PathLike, table: str, label: str = "陳計分") -> str:
    """A scorer's PIN for *table*, written into a running server's SQLite file (waiting for its
    writer: :func:`writing_straight`), as the console's PIN page would: the PIN."""
    from services.pins import create_pin

    with writing_straight(database) as db:
        pin, _row = create_pin(db, table=table, label=label)
    return pin


@contextlib.contextmanager
def official_server(folder: Path, database: str):
    """The service as ``make run`` starts it (:func:`start_server`, 8 threads a worker) on
    *database* (the ``server_database`` fixture's: a new SQLite file, or a PostgreSQL database
    in that pass) with its log in *folder*, and an official's token (王裁判): yields ``{"port",
    "base", "secret", "headers", "database", "tmp"}``, the pages' tests' ``service``; stops it."""
    port = free_port()
    proc = start_server(database, port, threads=8, log=folder / "server.log")
    try:
        secret = make_token(database, "official", label="王裁判")
        yield {"port": port, "base": f"http://127.0.0.1:{port}", "secret": secret, "headers": bearer(secret),
               "database": str(database), "tmp": folder}
    finally:
        proc.terminate()
        proc.wait(10)


def start_server(database: Path, port: int, *, threads: int | None = None, processes: int = 2,
                 log: Path | None = None, user: str | None = None,
                 env: dict[str, str] | None = None, protocol: str = "http") -> subprocess.Popen:
    """The service as ``make run`` starts it (``python -m mjref.serve``: the uWSGI master,
    *processes* worker processes sharing the file, *threads* per worker, default as ``make
    run``, and nginx in front) on 127.0.0.1:*port*, ready to answer; as *user* if given (and
    the tests run as root, like ``make run``'s ``--user``); *env* adds configuration
    (``MJREF_…``). Killing the returned process (the master) kills its workers and nginx too.
    *protocol* ``uwsgi``: no nginx, worker *i* on *port* + *i* − 1 in the uwsgi protocol (for
    :func:`start_front_of`), each ready (its ``/health`` answered 200 through that protocol)."""
    env = {**os.environ, "MJREF_DATABASE": str(database), **(env or {})}
    out = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115 - the server writes it while it runs
    proc = subprocess.Popen(
        [sys.executable, "-m", "mjref.serve", "--host", "127.0.0.1", "--port", str(port), "--processes", str(processes),
         *(["--threads", str(threads)] if threads else []), *(["--user", user] if user else []),
         "--protocol", protocol],
        cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + START_SECONDS
    waiting = [port] if protocol == "http" else [port + i for i in range(processes)]
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}")
        try:
            if protocol == "http":
                status, _ = request(waiting[0], "GET", "/health", timeout=1)
            else:
                status = uwsgi_get(waiting[0], "/health", timeout=5)[0]
            if status == 200:
                waiting.pop(0)
                if not waiting:
                    return proc
        except OSError:
            pause(0.05)
    proc.kill()
    raise RuntimeError(f"the server did not start within {START_SECONDS} s")


def uwsgi_get(port: int, path: str, timeout: float = 10) -> tuple[int, bytes]:
    """``GET path`` to a worker's uwsgi-protocol socket on 127.0.0.1:*port* (``--protocol
    uwsgi``) as nginx's ``uwsgi_pass`` sends it: one packet of CGI variables (a 4-byte
    header: modifier 0, the size little-endian, modifier 0; then each name and value with its
    2-byte length). The status and the raw answer (an HTTP response, then the socket closes)."""
    import struct

    variables = {"REQUEST_METHOD": "GET", "PATH_INFO": path, "REQUEST_URI": path, "QUERY_STRING": "",
                 "SERVER_PROTOCOL": "HTTP/1.1", "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "80",
                 "HTTP_HOST": "127.0.0.1", "REMOTE_ADDR": "127.0.0.1", "REQUEST_SCHEME": "http"}
    body = b"".join(struct.pack("<H", len(k)) + k.encode() + struct.pack("<H", len(v)) + v.encode()
                    for k, v in variables.items())
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(struct.pack("<BHB", 0, len(body), 0) + body)
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    if not answer.startswith(b"HTTP/"):
        raise OSError(f"no HTTP answer from the uwsgi socket on {port}: {answer[:80]!r}")
    return int(answer[9:12]), answer


def start_front_of(run: Path, upstreams: list[int], *, max_fails: int = 2, log=None) -> tuple[subprocess.Popen, int]:
    """The front nginx of ``docs/deploy.md``'s lighter shape (``python -m mjref.serve
    --front-of``: the client bounds and problem+json answers of ``make run``'s nginx, before
    the uwsgi-protocol sockets of app servers started with ``protocol="uwsgi"``, one port per
    worker in *upstreams*) on a free port; the process and its port, once it accepts."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "mjref.serve", "--host", "127.0.0.1", "--port", str(port),
                             "--front-of", *[f"127.0.0.1:{p}" for p in upstreams]],
                            cwd=ROOT, env={**os.environ, "MJREF_FRONT_MAX_FAILS": str(max_fails)},
                            stdout=log or subprocess.DEVNULL, stderr=subprocess.STDOUT)
    return _accepting(proc, port, lambda: "")


#: Debian's nginx, the front of several app servers (``docs/deploy.md``)
NGINX = "/usr/sbin/nginx"


def front_conf(run: Path, port: int, upstreams: list[int], *, max_fails: int = 2) -> Path:
    """The front nginx of ``docs/deploy.md`` on 127.0.0.1:*port*, in front of the app servers
    on *upstreams*; written into *run* (its temp and pid files too), its path returned.

    As the deployment guide has it: a table's posts to one server (``hash $uri``), a server
    that fails left alone for 5 s, and a table's events post whose server died resent to the
    next one (``proxy_next_upstream … non_idempotent`` on that location only: a resent post of
    events is answered as a duplicate; any other POST may have been done, and is not resent).
    *max_fails* 0 never marks a server down (the benchmark's
    servers are all alive)."""
    servers = "\n".join(f"        server 127.0.0.1:{p} max_fails={max_fails} fail_timeout=5s;" for p in upstreams)
    temp = "\n".join(f"    {k}_temp_path {run}/{k};" for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    conf = run / "front.conf"
    conf.write_text(f"""
daemon off;
master_process off;
pid {run}/front.pid;
error_log {run}/front-error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
{temp}
    upstream mjref {{
        hash $uri consistent;
{servers}
        keepalive 256;
    }}
    server {{
        listen 127.0.0.1:{port};
        keepalive_requests 1000000;
        client_header_timeout 10s; client_body_timeout 10s;
        client_max_body_size 4m;
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_connect_timeout 2s;
        proxy_read_timeout 30s;
        location / {{
            proxy_pass http://mjref;
        }}
        location ~ ^/api/v1/tables/[^/]+/events$ {{
            proxy_pass http://mjref;
            proxy_next_upstream error timeout non_idempotent;
        }}
    }}
}}
""")
    return conf


def start_front(run: Path, upstreams: list[int], *, max_fails: int = 2, log=None) -> tuple[subprocess.Popen, int]:
    """Start the front nginx (:func:`front_conf`) on a free port; the process and its port,
    once it answers (a connection accepted)."""
    port = free_port()
    conf = front_conf(run, port, upstreams, max_fails=max_fails)
    proc = subprocess.Popen([NGINX, "-c", str(conf), "-p", str(run)],
                            stdout=log or subprocess.DEVNULL, stderr=subprocess.STDOUT)
    return _accepting(proc, port, lambda: f": {(run / 'front-error.log').read_text()}")


def _accepting(proc: subprocess.Popen, port: int, why: Callable[[], str]) -> tuple[subprocess.Popen, int]:
    """*proc* (a front nginx) and *port* once a connection to it is accepted; if it exits
    first, an error with ``why()`` (what its log says), and if it takes too long, killed."""
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the front nginx exited with {proc.returncode}{why()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc, port
        except OSError:
            pause(0.05)
    proc.kill()
    raise RuntimeError("the front nginx did not start")


def request(port: int, method: str, path: str, body: object | None = None, headers: dict | None = None,
            timeout: float = 10, conn: http.client.HTTPConnection | None = None) -> tuple[int, dict]:
    """One HTTP request; the status and the decoded JSON body."""
    own = conn is None
    conn = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = None if body is None else json.dumps(body).encode()
        conn.request(method, path, body=data, headers={"Content-Type": "application/json", **(headers or {})})
        response = conn.getresponse()
        payload = response.read()
        return response.status, json.loads(payload) if payload else {}
    finally:
        if own:
            conn.close()


# --- the database, as a person with sqlite3 or psql sees it ---------------------------------------


@pytest.fixture(name="app")
def app_storing_nothing(stateless_app):
    """The ``app`` (and so the ``client``) of a module whose tests store nothing, imported by
    name (``from tests.servicekit import app_storing_nothing``): ``conftest.stateless_app``,
    on SQLite whatever the backend, checked to hold no row afterwards. The PostgreSQL pass
    leaves such a module out: nothing of it reaches the database."""
    return stateless_app


def stored_rows(path: str | os.PathLike) -> dict[str, int]:
    """The SQLite file's tables that hold rows, with their counts, leaving out ``meta`` (the
    app's own settings): ``{}`` when nothing was stored."""
    tables = [t for (t,) in sql_rows(path, "SELECT name FROM sqlite_master WHERE type = 'table' "
                                           "AND name NOT IN ('meta', 'sqlite_sequence')")]
    return {t: n for t in tables if (n := sql_rows(path, f'SELECT COUNT(*) FROM "{t}"')[0][0])}


def sql_rows(database: str | os.PathLike, sql: str, params: tuple = ()) -> list[tuple]:
    """Run one statement on its own connection, outside the app (committed at once), on
    either backend; the rows it returns (``[]`` for a statement without rows)."""
    db = connect(database)
    try:
        cursor = db.conn.execute(sql, params)
        rows = [tuple(r) for r in cursor.fetchall()] if cursor.description else []
        db.conn.commit()
        return rows
    finally:
        db.close()
