"""Serve mjref with uWSGI: several worker processes, each with threads (``make run``; issue #6's load).

    python -m api.serve --host 127.0.0.1 --port 8000 --threads 128 --processes 2

This replaces itself (``exec``) with the ``uwsgi`` binary installed in the virtualenv
(``requirements.txt``: the ``uwsgi`` package, compiled at install time). uWSGI parses HTTP
and runs its accept and read loops in C; waitress did the same in Python, and that cost
more CPU per live post than the app itself (docs/performance.md, "Live ingest").

* **several processes** — one CPython process runs Python on one core at a time (the GIL),
  and 1,500 events/s from 100+ tables need both cores of the project's machine. The uWSGI
  master binds the port and forks ``--processes`` workers; each worker creates its **own**
  app after the fork (``lazy-apps``: :func:`worker_app`), so no SQLite connection, lock or
  thread crosses a fork. The workers share the SQLite file, which is what keeps them correct:
  writes take turns through ``<database>-writelock`` (:mod:`store.writer`); a table's
  in-memory referee is a cache checked against the stored head in every write
  (:meth:`api.live.LiveService.ingest`); token revocation reaches every process at once
  (:mod:`api.auth`); the clock scheduler runs in the one worker holding
  ``<database>.scheduler.lock`` (:mod:`clocks.lock`).
* **threads, one per connection** — HTTP/1.1 keep-alive (``http11-socket``): a worker thread
  serves one connection from accept until it closes or stays idle ``--socket-timeout``
  seconds (:data:`IDLE_SECONDS`). ``--threads`` per process × ``--processes`` is therefore
  how many clients can hold a connection at once (default 2 × 128 for 100+ tables, each
  keeping one); more wait in the listen backlog until a connection is freed.
* **stopping** — SIGTERM or SIGINT stop the master and its workers (``die-on-term``); a
  worker that dies is started again by the master; a worker dies with the master
  (``PR_SET_PDEATHSIG``, and ``no-orphans``), so a killed service leaves no process holding
  the port.

Configuration: ``MJREF_*`` environment variables (:func:`app.create_app`); ``--processes``
defaults to ``MJREF_PROCESSES``, else 2; ``--threads`` to ``MJREF_THREADS``, else 128.
"""
from __future__ import annotations

import argparse
import gc
import os
import shutil
import signal
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BACKLOG = 2048
#: seconds a keep-alive connection may stay idle (or a request take to arrive) before its thread drops it
IDLE_SECONDS = 30
#: request head buffer (uWSGI's default, 4 KB, would drop a request with large headers)
BUFFER_SIZE = 32768


def _die_with_parent(parent: int) -> None:
    """SIGKILL this worker as soon as its parent (the uWSGI master) is gone, however it died.

    ``PR_SET_PDEATHSIG`` (Linux) does it at once, but did not always fire for uWSGI's
    workers here; a watch thread checks the parent every 50 ms as well. (uWSGI's own
    ``no-orphans`` stops a worker gracefully, waiting up to ``IDLE_SECONDS`` for its
    keep-alive connections, and meanwhile the worker still holds the port.)
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


def uwsgi_argv(host: str, port: int, threads: int, processes: int) -> list[str]:
    exe = Path(sys.executable).parent / "uwsgi"
    binary = str(exe) if exe.exists() else shutil.which("uwsgi")
    if binary is None:
        raise SystemExit("mjref: the uwsgi binary is missing (pip install -r requirements.txt)")
    return [
        binary, "--master", "--die-on-term", "--need-app", "--lazy-apps", "--no-orphans", "--single-interpreter",
        "--strict",
        "--http11-socket", f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
        "--processes", str(processes), "--threads", str(threads), "--thunder-lock",
        "--listen", str(BACKLOG), "--socket-timeout", str(IDLE_SECONDS), "--buffer-size", str(BUFFER_SIZE),
        "--disable-logging",  # no line per request (errors are still logged)
        "--chdir", str(ROOT), "--pythonpath", str(ROOT), "--virtualenv", sys.prefix,
        "--eval", "import api.serve; application = api.serve.worker_app()",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m api.serve", description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--threads", type=int, default=int(os.environ.get("MJREF_THREADS", 128)),
                        help="threads per process, each serving one connection at a time (default 128)")
    parser.add_argument("--processes", type=int, default=int(os.environ.get("MJREF_PROCESSES", 2)),
                        help="worker processes (default MJREF_PROCESSES, else 2)")
    args = parser.parse_args(argv)
    command = uwsgi_argv(args.host, args.port, max(1, args.threads), max(1, args.processes))
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(command[0], command)
    return 1  # not reached


if __name__ == "__main__":
    sys.exit(main())
