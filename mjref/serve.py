"""Serve mjref: nginx in front, uWSGI workers behind it (``make run``; issue #6's load, issue #12's clients).

    python -m mjref.serve --host 127.0.0.1 --port 8000 --threads 128 --processes 2 [--user mjref]

This writes a runtime folder (the nginx configuration, the workers' sockets, nginx's buffers),
then replaces itself (``exec``) with the ``uwsgi`` binary installed in the virtualenv
(``requirements.txt``: the ``uwsgi`` package, compiled at install time). The returned
process *is* the uWSGI master; nginx (Debian's, ``/usr/sbin/nginx``: ``make run`` installs
it when missing) is a daemon of that master (``attach-daemon2``).

* **nginx holds the clients' connections** (issue #12 item 2). It reads every request
  head and body in its event loop, and only a whole request reaches a uWSGI thread, over
  a local socket per worker (the uwsgi protocol; a table's requests always to the same
  worker, the rest to the least busy one: :func:`nginx_conf`). So a thread is busy for the time a request takes
  to *run*, never for the time a client takes to *send* it: idle keep-alive connections
  and slow clients cost a file descriptor each, not a thread. Each connection is bounded:

  - a request head must arrive **whole** within :data:`HEADER_SECONDS` of the first byte
    (nginx ``client_header_timeout``: one timer, not restarted by each line that arrives,
    unlike uWSGI's per-read ``socket-timeout``), else the connection is closed;
  - a body may pause at most :data:`BODY_SECONDS` between reads, and is at most the app's
    ``MAX_CONTENT_LENGTH`` (:func:`body_limit`: nginx answers the app's 413 before reading it);
  - an idle keep-alive connection is closed after :data:`IDLE_SECONDS`;
  - one client address has at most :data:`REQUESTS_PER_CLIENT` requests in flight
    (``limit_conn``; more are a 429), so one client cannot take every thread.

  nginx's own errors (a bad request line, too big a body, a worker not answering) are
  problem+json like the app's (:func:`nginx_conf`).
* **several processes** — one CPython process runs Python on one core at a time (the GIL),
  and 1,500 events/s from 100+ tables need both cores of the project's machine. The uWSGI
  master binds one socket per worker and forks ``--processes`` workers; each worker creates its **own**
  app after the fork (``lazy-apps``: :func:`worker_app`), so no SQLite connection, lock or
  thread crosses a fork. The workers share the SQLite file, which is what keeps them correct:
  writes take turns through ``<database>-writelock`` (:mod:`store.writer`); a table's
  in-memory referee is a cache checked against the stored head in every write
  (:meth:`services.live.LiveService.ingest`); token revocation reaches every process at once
  (:mod:`api.auth`); the clock scheduler runs in the one worker holding
  ``<database>.scheduler.lock`` (:mod:`clocks.lock`). On PostgreSQL
  (``MJREF_DATABASE=postgresql://…``) the same is done in the database — advisory locks,
  a revocation counter, the leader's advisory lock — so servers on several hosts share
  nothing but the database (``docs/deploy.md``, issue #16).
* **threads** — ``--threads`` per process × ``--processes`` is how many requests run at
  once; more wait in the socket's backlog, nginx keeps their clients' connections.
* **privileges** — started as root with ``--user NAME`` (``make run`` passes ``mjref``,
  created as a system user when missing), uWSGI drops to that user and group right after
  binding its sockets (``--uid``/``--gid``): the master, the workers and nginx run
  unprivileged. The database's folder and files are given to that user (:func:`own_database`);
  a folder on the way that is closed to it (a Python under root's private home) is opened
  for this process tree alone (:func:`open_the_way`). The port must then be 1024 or above
  (nginx binds it as that user).
* **request log** — one line per request on standard output (uWSGI's request logger,
  :data:`LOG_FORMAT`: client address, method, path and query, protocol, status, bytes, ms,
  worker, time; no header, so no token); uWSGI's and nginx's own messages go there too.
* **stopping** — SIGTERM or SIGINT stop the master, its workers and nginx (``die-on-term``);
  a worker or nginx that dies is started again by the master; both die with the master
  (``PR_SET_PDEATHSIG``; nginx runs as one process, ``master_process off``, so that a
  SIGKILLed master leaves no nginx worker holding the port).

Configuration: ``MJREF_*`` environment variables (:func:`app.create_app`); ``--processes``
defaults to ``MJREF_PROCESSES``, else 2; ``--threads`` to ``MJREF_THREADS``, else 128;
``--user`` to ``MJREF_USER``, else none (stay who started it).

**Behind a front** (several app servers, ``docs/deploy.md``, issue #16 item 5): ``--protocol
uwsgi`` starts no nginx here; worker *i* serves the uwsgi protocol on TCP ``--port`` + *i* − 1
(:func:`uwsgi_sockets`), and ``python -m mjref.serve --front-of HOST:PORT …`` runs the one
nginx that holds the clients — this module's configuration (:func:`nginx_conf`: the same
timeouts, limits and problem+json answers) before every worker of every server, a table's
requests to one worker, a dead server's request resent to the next (``MJREF_FRONT_MAX_FAILS``:
failures before a server is left alone for 5 s, default 2; 0 never). One nginx per request
instead of two; but nginx opens a connection per request in the uwsgi protocol, so on one
machine this measured no cheaper than the front proxying HTTP to servers with their own
nginx (``docs/performance.md``, ``docs/deploy.md``): it moves that CPU off the app hosts.
"""
from __future__ import annotations

import argparse
import gc
import os
import pwd
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BACKLOG = 2048
#: seconds an idle keep-alive connection stays open (nginx ``keepalive_timeout``)
IDLE_SECONDS = 30
#: seconds a request head may take to arrive, from its first byte to its blank line (``client_header_timeout``)
HEADER_SECONDS = 10
#: seconds a request body may pause between two reads (``client_body_timeout``); and nginx's answer may
BODY_SECONDS = 10
#: requests of one client address in flight at once (nginx ``limit_conn``); a thread's worth of one worker
REQUESTS_PER_CLIENT = 128
#: request head buffer of uWSGI (the whole uwsgi packet: nginx sends at most 4 × 8 KB of header lines)
BUFFER_SIZE = 65535
#: connections nginx holds at once (each request to uWSGI takes one more while it runs)
NGINX_CONNECTIONS = 8192
#: one line per request (uWSGI's log variables): %(uri) is the path with its query; no header is logged
LOG_FORMAT = '%(addr) "%(method) %(uri) %(proto)" %(status) %(size) %(msecs)ms pid=%(pid) [%(ltime)]'
NGINX = "/usr/sbin/nginx"
#: where runtime folders go: mjref-run-XXXX, one per server
RUN_PREFIX = "mjref-run-"


def _die_with_parent(parent: int) -> None:
    """SIGKILL this worker as soon as its parent (the uWSGI master) is gone, however it died.

    ``PR_SET_PDEATHSIG`` (Linux) does it at once, but did not always fire for uWSGI's
    workers here; a watch thread checks the parent every 50 ms as well. (uWSGI's own
    ``no-orphans`` stops a worker gracefully, waiting for its requests, and meanwhile the
    worker still holds the socket.)
    """
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.05)
        os.kill(os.getpid(), signal.SIGKILL)

    threading.Thread(target=watch, name="mjref-parent-watch", daemon=True).start()


def worker_app():
    """The WSGI app of one uWSGI worker, created in the worker after the fork (``lazy-apps``)."""
    _die_with_parent(os.getppid())
    from app import create_app

    app = create_app()
    app.extensions["mjref.live"].warm_up()  # the first hand's one-time costs now, not under load
    # the app's long-lived objects (rulesets, the referee's tables of waits and scores) out of
    # the cyclic garbage collector's reach: a full collection walks every object it tracks,
    # about 20 ms holding the interpreter here, and stalled every post in flight
    gc.freeze()
    return app


def _problem(status: int, code: str, title: str, detail: str, detail_zh: str, field: str | None = None) -> str:
    """An nginx ``return`` of a problem+json body (the same members as :func:`api.problem`)."""
    import json

    body = json.dumps({"type": "about:blank", "title": title, "status": status, "code": code, "field": field,
                       "detail": detail, "detail_zh": detail_zh}, ensure_ascii=False)
    return "'" + body.replace("\\", "\\\\").replace("'", "\\'") + "'"


#: nginx's own errors, answered as problem+json: (status, code, title, detail, detail_zh)
NGINX_PROBLEMS = [
    (400, "bad_request", "請求錯誤 Bad Request", "the request could not be read as HTTP", "無法解讀此 HTTP 請求"),
    (404, "not_found", "找不到資源 Not Found", "no such resource", "找不到資源"),
    (414, "request_uri_too_long", "網址過長 Request-URI Too Long", "the request line is too long", "請求網址過長"),
    (429, "too_many_requests", "請求過多 Too Many Requests",
     f"more than {REQUESTS_PER_CLIENT} requests of one client at once; wait for their answers",
     f"同一用戶端同時進行中的請求超過 {REQUESTS_PER_CLIENT} 個；請等候回覆"),
    (500, "internal_server_error", "伺服器內部錯誤 Internal Server Error",
     "the server's front failed on this request", "伺服器前端處理此請求時發生錯誤"),
    (503, "service_unavailable", "服務暫時無法使用 Service Unavailable",
     "the service is starting or overloaded; retry", "服務啟動中或忙碌中，請重試"),
]


def body_limit() -> int:
    """The app's ``MAX_CONTENT_LENGTH`` (env ``MJREF_MAX_CONTENT_LENGTH``, default 4 MiB, as
    :func:`api.intake.init_app` reads it): nginx refuses a larger body as the app would —
    the same 413 ``body_too_large`` — before it is read (a chunked one as it passes it)."""
    raw = os.environ.get("MJREF_MAX_CONTENT_LENGTH", "")
    try:
        limit = int(raw) if raw.strip() else 4 * 1024 * 1024
    except ValueError:
        raise SystemExit(f"mjref: MJREF_MAX_CONTENT_LENGTH must be a number of bytes, got {raw!r}") from None
    if limit < 1:
        raise SystemExit(f"mjref: MJREF_MAX_CONTENT_LENGTH must be a positive number of bytes, got {raw!r}")
    return limit


def _too_large(limit: int) -> tuple:
    return (413, "body_too_large", "請求內容過大 Payload Too Large",
            f"the body is larger than {limit} bytes (MAX_CONTENT_LENGTH)",
            f"請求內容超過 {limit} 位元組（MAX_CONTENT_LENGTH）", "body")


def nginx_conf(run: Path, host: str, port: int, processes: int = 1, limit: int | None = None,
               upstreams: list[str] | None = None, max_fails: int = 2) -> str:
    """nginx's whole configuration: one process, listening on *host*:*port*, passing whole
    requests to the uWSGI workers' sockets in *run* (one per worker, :func:`worker_sockets`);
    every path it writes is in *run*.

    *upstreams* (the front of several app servers, ``--front-of``, issue #16 item 5): the
    uwsgi-protocol sockets of **every** worker of every app server (``host:port``, each
    served by ``python -m mjref.serve --protocol uwsgi``) instead of this server's own: the
    same bounds on every client and the same problem+json answers, here at the front,
    with no second nginx on each app server. A table's requests then go to one worker of
    one server; a server's socket that refuses or fails is left alone for 5 s after
    *max_fails* failures (0: never), a request its server refused is sent to the next one,
    and so is a table's events post whose server died mid-request
    (``uwsgi_next_upstream … non_idempotent`` on that location only: a resent post of
    events is answered as a duplicate). Any other POST that reached a dying server is
    answered 503, not resent: it may have been done, and its Idempotency-Key is optional.

    A table's requests all go to one worker (``hash`` of the table id in the path): each
    worker keeps the referee of the tables it serves in memory (:class:`services.live.LiveService`),
    checked against the stored head and rebuilt from the log when another process wrote
    since. Sent to any worker, a table's events would find it stale at nearly every post
    and each post would replay the hand so far (4 × the CPU per post, docs/performance.md).
    Other requests go to the worker with the fewest requests in hand (``least_conn``: one
    still starting, or busy, gets none); if a worker's socket refuses, nginx tries the next
    one (a request that reached a worker is never sent twice)."""
    limit = body_limit() if limit is None else limit
    problems = [*NGINX_PROBLEMS, _too_large(limit)]
    listen = _listen_address(host, port)
    # URI locations, not named ones: a request line nginx cannot read has no URI to keep
    pages = "\n".join(f"        error_page {status} /.mjref-error/{status};" for status, *_ in problems)
    named = "\n".join(
        f"        location = /.mjref-error/{status} {{\n"
        "            internal;\n"
        "            default_type application/problem+json;\n"
        "            add_header X-Content-Type-Options nosniff always;\n"
        + ("            add_header Retry-After 1 always;\n" if status in (429, 503) else "")
        + f"            return {status} {_problem(status, *rest)};\n"
        "        }" for status, *rest in problems)
    temp = "\n".join(f"    {kind}_temp_path {run}/{kind};"
                     for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    if upstreams is None:
        servers = "\n".join(f"        server unix:{path};" for path in worker_sockets(run, processes))
        resend = ""  # one server: a request that reached a worker is never sent twice
    else:
        servers = "\n".join(f"        server {address} max_fails={max_fails} fail_timeout=5s;" for address in upstreams)
        # A request refused at connect goes to the next server (nginx's default, any method); a
        # post that reached a server that died is resent only where a resend is answered as a
        # duplicate — a table's events (idempotent by (hand, seq)). Any other POST may have been
        # done (Idempotency-Key is optional: a clock's extra time twice, a table created then 409):
        # its client gets the 503 and decides.
        resend = """
        location ~ ^/api/v1/tables/(?<mjref_table>[^/]+)/events$ {
            uwsgi_pass mjref_table;
            uwsgi_next_upstream error timeout non_idempotent;  # a dead server's posts to the next
        }
"""
    return f"""# written by python -m mjref.serve (mjref/serve.py) at every start; edits are lost
daemon off;
master_process off;  # one process under the uWSGI master: it dies with it (mjref/serve.py)
worker_rlimit_nofile {2 * NGINX_CONNECTIONS + 64};
pid {run}/nginx.pid;
error_log stderr warn;

events {{
    worker_connections {NGINX_CONNECTIONS};
}}

http {{
    access_log off;  # uWSGI logs every request (mjref/serve.py LOG_FORMAT)
{temp}
    server_tokens off;
    client_header_timeout {HEADER_SECONDS}s;  # the whole head, from its first byte (one timer)
    client_body_timeout {BODY_SECONDS}s;
    send_timeout {BODY_SECONDS}s;
    keepalive_timeout {IDLE_SECONDS}s;
    keepalive_requests 1000000;  # a table posts every event over one connection
    reset_timedout_connection on;
    client_max_body_size {limit};  # the app's MAX_CONTENT_LENGTH (body_limit)
    client_body_buffer_size 64k;
    merge_slashes off;  # the app sees the path the client sent
    limit_conn_zone $binary_remote_addr zone=per_client:4m;
    limit_conn_status 429;
    limit_conn_log_level warn;

    upstream mjref_table {{  # a table's requests: its worker
        hash $mjref_table consistent;
{servers}
    }}

    upstream mjref_any {{  # the rest: the worker with the fewest requests in hand
        least_conn;
{servers}
    }}

    server {{
        listen {listen} backlog={BACKLOG} default_server;
        server_name _;
        limit_conn per_client {REQUESTS_PER_CLIENT};
{pages}
        error_page 502 504 =503 /.mjref-error/503;  # no server answered: the 503 its body says

        location / {{
            uwsgi_pass mjref_any;
        }}

{resend}
        location ~ ^/api/v1/tables/(?<mjref_table>[^/]+) {{
            uwsgi_pass mjref_table;
        }}

        uwsgi_param QUERY_STRING $query_string;
        uwsgi_param REQUEST_METHOD $request_method;
        uwsgi_param CONTENT_TYPE $content_type;
        uwsgi_param CONTENT_LENGTH $content_length;
        uwsgi_param HTTP_TRANSFER_ENCODING "";  # nginx has read a chunked body whole: the app gets it plain
        uwsgi_param REQUEST_URI $request_uri;
        uwsgi_param PATH_INFO $document_uri;
        uwsgi_param SERVER_PROTOCOL $server_protocol;
        uwsgi_param REQUEST_SCHEME $scheme;
        uwsgi_param REMOTE_ADDR $remote_addr;
        uwsgi_param REMOTE_PORT $remote_port;
        uwsgi_param SERVER_ADDR $server_addr;
        uwsgi_param SERVER_PORT $server_port;
        uwsgi_param SERVER_NAME $host;
        uwsgi_read_timeout 60s;
        uwsgi_send_timeout {BODY_SECONDS}s;
        uwsgi_connect_timeout 2s;

{named}
    }}
}}
"""


def worker_sockets(run: Path, processes: int) -> list[Path]:
    """The uwsgi-protocol socket of each worker process (``--map-socket``: socket *i* is
    served by worker *i* + 1 alone)."""
    return [run / f"uwsgi-{i}.sock" for i in range(1, processes + 1)]


def run_user(name: str) -> tuple[int, int]:
    """The uid and gid of the user *name*; created as a system user (no home, no shell) when
    missing. Only called as root."""
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        subprocess.run(["useradd", "--system", "--user-group", "--no-create-home", "--home-dir", "/nonexistent",
                        "--shell", "/usr/sbin/nologin", name], check=True)
        entry = pwd.getpwnam(name)
    return entry.pw_uid, entry.pw_gid


def database_path() -> Path | None:
    """The database file the workers will open: ``MJREF_DATABASE``, else the app's default
    (``instance/mjref.sqlite3`` next to ``app.py``, as :func:`app.create_app` says);
    ``None`` for a PostgreSQL URL (no file here: nothing to own, issue #16)."""
    setting = os.environ.get("MJREF_DATABASE")
    if setting and setting.startswith(("postgresql://", "postgres://")):
        return None
    return Path(setting or ROOT / "instance" / "mjref.sqlite3").absolute()


def own_database(database: Path, uid: int, gid: int) -> None:
    """Make the database writable by the service's user: its folder (created when missing)
    and the files SQLite and mjref keep beside it. A shared folder (sticky, such as /tmp) is
    left as it is, only the files are given."""
    folder = database.parent
    folder.mkdir(parents=True, exist_ok=True)
    if not folder.stat().st_mode & stat.S_ISVTX:
        os.chown(folder, uid, gid)
    for suffix in ("", "-wal", "-shm", "-writelock", "-revoked", ".scheduler.lock"):
        path = Path(f"{database}{suffix}")
        if path.exists():
            os.chown(path, uid, gid)


def _can_enter(path: Path, uid: int, gids: set[int]) -> bool:
    """Whether *uid* (groups *gids*) may pass through the folder *path* (its x bit for them)."""
    st = path.stat()
    bit = stat.S_IXUSR if st.st_uid == uid else stat.S_IXGRP if st.st_gid in gids else stat.S_IXOTH
    return bool(st.st_mode & bit)


def closed_folders(paths: list[Path], uid: int, gid: int) -> dict[Path, set[str]]:
    """The folders on the way to *paths* that the user cannot pass through, each with the
    names inside it that lead on to a path (``{Path('/root'): {'.pyenv'}}`` when Python is
    installed under a private /root)."""
    name = pwd.getpwuid(uid).pw_name
    gids = {gid, *os.getgrouplist(name, gid)}
    closed: dict[Path, set[str]] = {}
    for path in paths:
        parts = path.absolute().parts
        for depth in range(1, len(parts)):
            folder = Path(*parts[:depth])
            if folder.is_dir() and not _can_enter(folder, uid, gids):
                closed.setdefault(folder, set()).add(parts[depth])
    return closed


def open_the_way(paths: list[Path], uid: int, gid: int, covers: Path) -> list[str]:
    """Let the service's user reach *paths* (the Python install, the virtualenv, the project,
    the database) where a folder on the way is closed to it — typically a Python built
    under root's private home (pyenv in /root, mode 700): in a mount namespace of this
    process alone, each closed folder is covered by a passable one (mode 711) holding only
    the entries that lead to those paths, bound to the real ones (the covers are made in
    *covers*, this server's runtime folder). Nothing changes outside
    this process and its children; the rest of the closed folder is not visible to them.
    Returns what it did, one line per folder (empty when nothing was closed).

    :raises SystemExit: a folder is closed and no mount namespace can be made.
    """
    closed = closed_folders(paths, uid, gid)
    if not closed:
        return []
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    clone_newns, ms_rec, ms_private, ms_bind = 0x00020000, 0x4000, 1 << 18, 0x1000

    def mount(source: str | None, target: str, flags: int) -> None:
        if libc.mount(None if source is None else source.encode(), target.encode(), None, flags, None) != 0:
            raise OSError(ctypes.get_errno(), f"mount {source} on {target}")

    try:
        if libc.unshare(clone_newns) != 0:
            raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWNS)")
        mount(None, "/", ms_rec | ms_private)
        done = []
        for folder in sorted(closed, key=lambda f: len(f.parts)):
            names = closed_folders(paths, uid, gid).get(folder)
            if not names:
                continue
            cover = Path(tempfile.mkdtemp(prefix="cover-", dir=covers))
            cover.chmod(0o711)
            for entry in sorted(names):
                real = folder / entry
                (cover / entry).mkdir() if real.is_dir() else (cover / entry).touch()
                mount(str(real), str(cover / entry), ms_bind)
            mount(str(cover), str(folder), ms_bind | ms_rec)  # with the entries bound in it
            done.append(f"{folder} (closed to the service's user) shows it only {', '.join(sorted(names))}")
        return done
    except OSError as exc:
        blocked = ", ".join(f"{f} (needed for {', '.join(sorted(n))})" for f, n in closed.items())
        raise SystemExit(f"mjref: the service's user cannot reach {blocked}, and no mount namespace could be made "
                         f"({exc}); install Python and the project where that user can read them, "
                         f"or run without --user") from exc


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def runtime_folder(uid: int | None, gid: int | None) -> Path:
    """A new folder for this server's nginx configuration, sockets and buffers (``/tmp/mjref-run-…``,
    owned by the service's user); folders of servers that are gone are removed first."""
    base = Path(tempfile.gettempdir())
    for old in base.glob(RUN_PREFIX + "*"):
        try:
            if not _alive(int((old / "owner.pid").read_text())):
                shutil.rmtree(old, ignore_errors=True)
        except (OSError, ValueError):
            pass
    run = Path(tempfile.mkdtemp(prefix=RUN_PREFIX, dir=base))
    (run / "owner.pid").write_text(str(os.getpid()))  # this process becomes the uWSGI master (exec)
    if uid is not None:
        os.chown(run, uid, gid)
    return run


def _nginx() -> str:
    nginx = NGINX if os.path.exists(NGINX) else shutil.which("nginx")
    if nginx is None:
        raise SystemExit("mjref: nginx is missing (make run installs it: apt-get install nginx)")
    return nginx


def _listen_address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def uwsgi_sockets(host: str, port: int, processes: int) -> list[str]:
    """``--protocol uwsgi``: the uwsgi-protocol TCP socket of each worker process — worker
    *i* (1, 2, …) on *port* + *i* − 1 — that a front nginx passes requests to
    (``--front-of``, :func:`nginx_conf` with *upstreams*)."""
    return [_listen_address(host, port + i) for i in range(processes)]


def uwsgi_argv(host: str, port: int, threads: int, processes: int, run: Path,
               user: tuple[int, int] | None = None, protocol: str = "http") -> list[str]:
    """The uWSGI master's command line. *protocol* ``http`` (``make run``): nginx of its own
    on *host*:*port* (a daemon of the master) holds the clients, the workers on unix sockets
    in *run*. ``uwsgi`` (behind a front nginx that holds the clients, issue #16 item 5): no
    nginx here, each worker on a TCP socket of its own (:func:`uwsgi_sockets`) — reachable
    by the front alone (a private network or a firewall: the uwsgi protocol has no
    authentication, and its variables, the client's address among them, are taken as sent)."""
    exe = Path(sys.executable).parent / "uwsgi"
    binary = str(exe) if exe.exists() else shutil.which("uwsgi")
    if binary is None:
        raise SystemExit("mjref: the uwsgi binary is missing (pip install -r requirements.txt)")
    sockets = []
    daemon = []
    if protocol == "http":
        nginx = _nginx()
        (run / "nginx.conf").write_text(nginx_conf(run, host, port, processes))
        for i, path in enumerate(worker_sockets(run, processes)):
            sockets += ["--socket", str(path), "--map-socket", f"{i}:{i + 1}"]
        sockets.append("--chmod-socket=600")
        daemon = ["--attach-daemon2",
                  f"cmd=exec {nginx} -p {run} -c {run}/nginx.conf -e stderr,stopsignal={int(signal.SIGQUIT)}"]
    else:
        for i, address in enumerate(uwsgi_sockets(host, port, processes)):
            sockets += ["--socket", address, "--map-socket", f"{i}:{i + 1}"]
        sockets.append("--tcp-nodelay")  # an answer's head and body leave at once, not after an ACK (Nagle)
    drop = []
    if user is not None:
        uid, gid = user
        drop = ["--uid", str(uid), "--gid", str(gid)]
        drop += ["--chown-socket", f"{uid}:{gid}"] if protocol == "http" else []
    return [
        binary, "--master", "--die-on-term", "--need-app", "--lazy-apps", "--no-orphans", "--single-interpreter",
        "--strict", "--vacuum",
        *sockets, *drop,
        "--processes", str(processes), "--threads", str(threads),
        "--listen", str(min(BACKLOG, _somaxconn())), "--socket-timeout", str(BODY_SECONDS),
        "--buffer-size", str(BUFFER_SIZE),
        "--log-format", LOG_FORMAT, "--logger-req", "fd:1",
        *daemon,
        "--chdir", str(ROOT), "--pythonpath", str(ROOT), "--virtualenv", sys.prefix,
        "--eval", "import mjref.serve; application = mjref.serve.worker_app()",
    ]


def front_argv(host: str, port: int, upstreams: list[str], run: Path, max_fails: int = 2) -> list[str]:
    """``--front-of``: nginx alone, as the front of several app servers (``--protocol uwsgi``
    on *upstreams*: every worker's socket), listening on *host*:*port* (:func:`nginx_conf`)."""
    (run / "nginx.conf").write_text(nginx_conf(run, host, port, upstreams=upstreams, max_fails=max_fails))
    return [_nginx(), "-p", str(run), "-c", f"{run}/nginx.conf", "-e", "stderr"]


def _somaxconn() -> int:
    try:
        return int(Path("/proc/sys/net/core/somaxconn").read_text())
    except (OSError, ValueError):
        return 128


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mjref.serve", description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--threads", type=int, default=int(os.environ.get("MJREF_THREADS", 128)),
                        help="threads per process, each running one request at a time (default 128)")
    parser.add_argument("--processes", type=int, default=int(os.environ.get("MJREF_PROCESSES", 2)),
                        help="worker processes (default MJREF_PROCESSES, else 2)")
    parser.add_argument("--user", default=os.environ.get("MJREF_USER") or None,
                        help="started as root: run as this user (created when missing); ignored otherwise")
    parser.add_argument("--protocol", choices=("http", "uwsgi"), default="http",
                        help="http (default, make run): nginx of its own holds the clients on --port; uwsgi: no "
                             "nginx here, worker i serves the uwsgi protocol on --port + i - 1, for a front nginx "
                             "(--front-of) on a private network")
    parser.add_argument("--front-of", nargs="+", metavar="HOST:PORT", default=None,
                        help="run only the front nginx, on --host:--port, before these workers' uwsgi sockets "
                             "(every worker of every app server started with --protocol uwsgi)")
    args = parser.parse_args(argv)
    if args.front_of:
        run = runtime_folder(None, None)
        command = front_argv(args.host, args.port, args.front_of, run,
                             max_fails=int(os.environ.get("MJREF_FRONT_MAX_FAILS", 2)))
        sys.stdout.flush()
        sys.stderr.flush()
        os.execv(command[0], command)
    user = None
    if args.user and os.geteuid() == 0:
        user = run_user(args.user)
        if database_path() is not None:
            own_database(database_path(), *user)
    elif args.user:
        print(f"mjref: not root, --user {args.user} ignored (the service runs as {pwd.getpwuid(os.geteuid()).pw_name})",
              file=sys.stderr)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 2 * NGINX_CONNECTIONS + 64
    if soft < want:  # nginx's connections and the workers' threads: one descriptor each
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))
    run = runtime_folder(*(user or (None, None)))
    if user is not None:
        database = database_path()
        ways = [Path(sys.base_prefix), Path(sys.prefix), ROOT, run] + ([database.parent] if database else [])
        for line in open_the_way(ways, *user, covers=run):
            print(f"mjref: {line}", file=sys.stderr)
    command = uwsgi_argv(args.host, args.port, max(1, args.threads), max(1, args.processes), run, user, args.protocol)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(command[0], command)
    return 1  # not reached


if __name__ == "__main__":
    sys.exit(main())
