"""Serve mjref with waitress in one or several processes (``make run``; issue #6's load).

    python -m api.serve --host 127.0.0.1 --port 8000 --threads 32 --processes 2

Why several: one CPython process runs Python on one core at a time (the GIL), and a live
post costs a few tenths of a millisecond of Python; 1,500 events/s from 100+ tables need
both cores of the project's machine. Each process is a whole ``waitress`` server with
its own ``create_app()``; they share the SQLite file, which is what keeps them correct:

* **writes** — each process group-commits its own posts (:mod:`store.writer`); the
  processes take turns through a lock file next to the database (``<file>-writelock``),
  so a process waits in the kernel rather than in SQLite's busy-retry sleeps;
* **a table's state** — the in-memory referee of a table is a cache of the log: every
  write checks the stored head it worked from, and a table whose posts reached another
  process is reloaded from the log (:meth:`api.live.LiveService.ingest`). A table's
  client keeps one connection, so its posts usually stay with one process;
* **tokens** — revocation is seen by every process at once (:mod:`api.auth`).

Connections are spread by the kernel: each process listens on its own ``SO_REUSEPORT``
socket bound to the same address (Linux). ``--processes 1`` (or a system without
``SO_REUSEPORT``) is plain ``waitress-serve --call app:create_app``. The parent only binds
the sockets and watches: if a worker dies the others are stopped and the parent exits
with an error (a supervisor restarts the service); SIGTERM or SIGINT stop them all; a
worker dies with its parent (``PR_SET_PDEATHSIG``), so a killed service leaves no
process holding the port.

Whatever must run once per deployment (the tournament clock scheduler, ``clocks/``)
must not assume one process: it takes its own file lock.

Configuration: the same as ``waitress-serve --call app:create_app`` (``MJREF_*``
environment variables, :func:`app.create_app`); ``--processes`` defaults to
``MJREF_PROCESSES``, else 1.
"""
from __future__ import annotations

import argparse
import gc
import os
import signal
import socket
import sys

#: the most connections one process keeps open (waitress' default, 100, is below the 100+ tables of issue #6)
CONNECTION_LIMIT = 1000
BACKLOG = 2048


def _listen(host: str, port: int, reuse_port: bool) -> socket.socket:
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if reuse_port:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.listen(BACKLOG)
    sock.setblocking(False)
    return sock


def _die_with_parent(parent: int) -> None:
    """Linux: SIGKILL this worker when the parent dies (a killed service leaves no worker)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before prctl
        os._exit(1)


def _serve(sock: socket.socket, threads: int) -> None:
    import waitress

    from app import create_app

    app = create_app()
    app.extensions["mjref.live"].warm_up()  # the first hand's one-time costs now, not under load
    # the app's long-lived objects (rulesets, the referee's tables of waits and scores) out of
    # the cyclic garbage collector's reach: a full collection walks every object it tracks,
    # about 20 ms holding the interpreter here, and stalled every post in flight
    gc.freeze()
    waitress.serve(app, sockets=[sock], threads=threads, connection_limit=CONNECTION_LIMIT, channel_timeout=60)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m api.serve", description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--threads", type=int, default=32, help="waitress worker threads per process (default 32)")
    parser.add_argument("--processes", type=int, default=int(os.environ.get("MJREF_PROCESSES", 1)),
                        help="server processes (default MJREF_PROCESSES, else 1)")
    args = parser.parse_args(argv)
    processes = max(1, args.processes) if hasattr(socket, "SO_REUSEPORT") else 1
    if processes == 1:
        _serve(_listen(args.host, args.port, reuse_port=False), args.threads)
        return 0

    socks = [_listen(args.host, args.port, reuse_port=True) for _ in range(processes)]
    parent = os.getpid()
    workers: list[int] = []
    for mine in socks:
        pid = os.fork()
        if pid == 0:  # a worker: its own socket only
            code = 0
            try:
                _die_with_parent(parent)
                for other in socks:
                    if other is not mine:
                        other.close()
                _serve(mine, args.threads)
            except BaseException:  # noqa: BLE001 - reported, then the worker ends
                import traceback

                traceback.print_exc()
                code = 1
            finally:
                os._exit(code)
        workers.append(pid)
    for sock in socks:
        sock.close()

    stopping = False

    def stop(signum, _frame) -> None:
        nonlocal stopping
        stopping = True
        for pid in workers:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    status = 0
    alive = set(workers)
    while alive:
        try:
            pid, code = os.wait()
        except ChildProcessError:
            break
        alive.discard(pid)
        if not stopping:  # a worker died on its own: stop the others, fail
            print(f"mjref: worker {pid} exited ({code}); stopping the service", file=sys.stderr)
            status = 1
            stop(signal.SIGTERM, None)
    return status


if __name__ == "__main__":
    sys.exit(main())
