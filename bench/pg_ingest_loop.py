"""The live ingest's cost per POST on PostgreSQL, in one process (issue #16 item 5): the real
Flask app (``create_app``, its WSGI stack with the ingest fast path) on a real PostgreSQL
(a throwaway cluster, ``tests/pgcluster.py``), *tables* tables each posting one generated
hand one event per POST, round-robin, from one thread. No HTTP, no uWSGI: what is left is
what the app does per POST, for a profiler or callgrind to count::

    .venv/bin/python -m bench.pg_ingest_loop --tables 20 --profile      # cProfile, top 30 by own time
    .venv/bin/python -m bench.pg_ingest_loop --tables 20                # CPU and statements per POST
    .venv/bin/python -m bench.pg_ingest_loop --tables 20 --sqlite       # the same on a SQLite file

It prints the process's CPU per POST, PostgreSQL's (the postmaster and its backends), and the
statements sent to PostgreSQL per POST (counted at psycopg's ``Connection.execute`` and
``Cursor.executemany``, at :meth:`store.dialect.PgDatabase.run` and ``run_simple``, and each
statement of a :meth:`~store.dialect.PgDatabase.pipeline`), the round trips per POST (a
pipeline is one), and checks every answer (200, ``accepted``) and the stored count.
``--sqlite``: the same loop on a SQLite file (a temporary directory) instead, for the
comparison of the two backends' paths (statements counted by each open connection's trace
callback there; PostgreSQL's CPU is then 0).
"""
from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import subprocess
import sys
import time
from collections import Counter


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--hands", type=int, default=1)
    parser.add_argument("--batch", type=int, default=1, help="events per POST")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--sqlite", action="store_true", help="a SQLite file instead of PostgreSQL")
    parser.add_argument("--callgrind", action="store_true",
                        help="under valgrind --tool=callgrind --instr-atstart=no: count the posts only "
                             "(callgrind_control turns the counting on and off around them)")
    args = parser.parse_args(argv)

    import psycopg

    from bench.bench_ingest import streams
    from tests.pgcluster import Cluster
    from tests.servicekit import make_token

    import sqlite3
    import tempfile

    cluster = None if args.sqlite else Cluster(fsync=True).start()
    scratch = tempfile.TemporaryDirectory(prefix="mjref-loop-") if args.sqlite else None
    try:
        url = os.path.join(scratch.name, "loop.db") if scratch else cluster.new_database("loop", template=None)
        from app import create_app

        app = create_app({"DATABASE": url, "SCHEDULER": "off"})
        names = [f"T{i:03d}" for i in range(args.tables)]
        admin = make_token(url, "admin")
        client = app.test_client()
        tokens = {}
        for name in names:
            assert client.post("/api/v1/tables", json={"id": name},
                               headers={"Authorization": f"Bearer {admin}"}).status_code == 201
            tokens[name] = make_token(url, "table", name)
        plan = streams(names, args.hands, args.batch)
        posts = []  # round-robin over the tables, as many tables posting at once
        for k in range(max(len(v) for v in plan.values())):
            for name in names:
                if k < len(plan[name]):
                    chunk = plan[name][k]
                    body = chunk[0] if len(chunk) == 1 else {"events": chunk}
                    posts.append((name, json.dumps(body, separators=(",", ":")).encode(), len(chunk)))
        wsgi = app.wsgi_app
        statements: Counter[str] = Counter()
        execute, executemany = psycopg.Connection.execute, psycopg.Cursor.executemany

        def counted_execute(self, query, *a, **kw):
            statements[(str(query).split(None, 1) or ["(empty)"])[0].upper()] += 1
            return execute(self, query, *a, **kw)

        def counted_executemany(self, query, *a, **kw):
            statements["executemany " + (str(query).split(None, 1) or ["(empty)"])[0].upper()] += 1
            return executemany(self, query, *a, **kw)

        psycopg.Connection.execute, psycopg.Cursor.executemany = counted_execute, counted_executemany
        # SQLite: the store's statements go through sqlite-utils to sqlite3.Connection.execute,
        # whose type cannot be patched; the writer's and the readers' connections are wrapped
        counted_sqlite: list = []
        if args.sqlite:
            def traced(conn):
                conn.set_trace_callback(lambda sql: statements.__setitem__(
                    "sqlite " + (sql.split(None, 1) or ["(empty)"])[0].upper(),
                    statements["sqlite " + (sql.split(None, 1) or ["(empty)"])[0].upper()] + 1))
                counted_sqlite.append(conn)

            for obj in gc_sqlite_connections():
                traced(obj)
        from store import dialect

        lean = getattr(dialect.PgDatabase, "run", None), getattr(dialect.PgDatabase, "run_simple", None)
        if lean[0] is not None:
            def counted_run(self, sql, *a, **kw):
                statements["run " + sql.split(None, 1)[0].upper()] += 1
                return lean[0](self, sql, *a, **kw)

            def counted_run_simple(self, sql, *a, **kw):
                statements["run_simple " + sql.split(None, 1)[0].upper()] += 1
                return lean[1](self, sql, *a, **kw)

            dialect.PgDatabase.run, dialect.PgDatabase.run_simple = counted_run, counted_run_simple
        piped = getattr(dialect.PgDatabase, "pipeline", None)
        trips: Counter[str] = Counter()  # pipelines: one round trip each, many statements
        if piped is not None:
            def counted_pipeline(self, stmts, *a, **kw):
                trips["pipeline"] += 1
                for sql, _ in stmts:
                    statements["pipeline " + sql.split(None, 1)[0].upper()] += 1
                return piped(self, stmts, *a, **kw)

            dialect.PgDatabase.pipeline = counted_pipeline

        def post(name: str, data: bytes) -> None:
            environ = {"REQUEST_METHOD": "POST", "PATH_INFO": f"/api/v1/tables/{name}/events", "SCRIPT_NAME": "",
                       "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "80", "wsgi.url_scheme": "http",
                       "SERVER_PROTOCOL": "HTTP/1.1", "HTTP_HOST": "127.0.0.1",
                       "HTTP_AUTHORIZATION": f"Bearer {tokens[name]}", "CONTENT_TYPE": "application/json",
                       "CONTENT_LENGTH": str(len(data)), "wsgi.input": io.BytesIO(data), "wsgi.errors": sys.stderr,
                       "wsgi.multithread": True, "wsgi.multiprocess": False, "wsgi.run_once": False}
            status = []
            out = b"".join(wsgi(environ, lambda s, h, e=None: status.append(s)))
            answer = json.loads(out)
            if not status[0].startswith("200") or any(r["verdict"] != "accepted" for r in answer["results"]):
                raise RuntimeError(f"{name}: {status} {answer}")

        warm = len(names) * 5  # the first events of each table: its load, the token's first lookup
        for name, data, _ in posts[:warm]:
            post(name, data)
        statements.clear()
        trips.clear()
        profiler = cProfile.Profile(time.thread_time) if args.profile else None
        from bench.bench_ingest import tree_cpu_seconds

        postmaster = None if cluster is None else int((cluster.data / "postmaster.pid").read_text().split()[0])
        pg_cpu = 0 if postmaster is None else tree_cpu_seconds(postmaster, with_reaped=True)
        pg_sys = 0 if postmaster is None else tree_cpu_seconds(postmaster, "system")
        cpu, wall, own = time.process_time(), time.perf_counter(), time.thread_time()
        if profiler:
            profiler.enable()
        if args.callgrind:
            subprocess.run(["callgrind_control", "--instr=on", str(os.getpid())], check=True, capture_output=True)
        for name, data, _ in posts[warm:]:
            post(name, data)
        if args.callgrind:
            subprocess.run(["callgrind_control", "--instr=off", str(os.getpid())], check=True, capture_output=True)
        if profiler:
            profiler.disable()
        cpu, wall, own = time.process_time() - cpu, time.perf_counter() - wall, time.thread_time() - own
        if postmaster is not None:
            pg_cpu = tree_cpu_seconds(postmaster, with_reaped=True) - pg_cpu
            pg_sys = tree_cpu_seconds(postmaster, "system") - pg_sys  # the live processes' kernel time
        psycopg.Connection.execute, psycopg.Cursor.executemany = execute, executemany
        if lean[0] is not None:
            dialect.PgDatabase.run, dialect.PgDatabase.run_simple = lean
        if piped is not None:
            dialect.PgDatabase.pipeline = piped
        n = len(posts) - warm
        events = sum(e for _, _, e in posts[warm:])
        for conn in counted_sqlite:
            conn.set_trace_callback(None)
        if args.sqlite:
            with sqlite3.connect(url) as conn:
                stored = conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]
        else:
            with psycopg.connect(url) as conn:
                stored = conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]
        if stored != sum(e for _, _, e in posts):
            raise SystemExit(f"posted {sum(e for _, _, e in posts)} events but {stored} are stored")
        result = {"backend": "sqlite" if args.sqlite else "postgresql",
                  "posts": n, "events": events, "cpu_ms_per_post": round(cpu / n * 1e3, 3),
                  "posting_thread_cpu_ms_per_post": round(own / n * 1e3, 3),
                  "postgresql_cpu_ms_per_post": round(pg_cpu / n * 1e3, 3),
                  "postgresql_system_cpu_ms_per_post": round(pg_sys / n * 1e3, 3),
                  "wall_ms_per_post": round(wall / n * 1e3, 3),
                  "statements_per_post": round(sum(statements.values()) / n, 2),
                  "round_trips_per_post": round((sum(v for k, v in statements.items() if not k.startswith(
                      ("pipeline ", "sqlite "))) + trips["pipeline"]) / n, 2) if not args.sqlite else 0,
                  "pipelines_per_post": round(trips["pipeline"] / n, 2),
                  "by_statement": {k: round(v / n, 2) for k, v in statements.most_common()},
                  "load_average": [round(x, 2) for x in os.getloadavg()]}
        print(json.dumps(result, indent=2))
        if profiler:
            stats = pstats.Stats(profiler)
            by_part: Counter[str] = Counter()
            for (filename, _, _), (_, _, tottime, _, _) in stats.stats.items():
                part = filename.split("site-packages/")[-1].split("/")[0] if "site-packages" in filename else (
                    filename.replace(os.getcwd() + "/", "").split("/")[0] if filename.startswith(os.getcwd())
                    else "python" if filename.startswith("/") or filename.startswith("<frozen") else filename)
                by_part[part] += tottime
            total = sum(by_part.values())
            print("own time by part (ms per POST, under the profiler):")
            for part, t in by_part.most_common(15):
                print(f"  {part:30s} {t / n * 1e3:7.3f}  {t / total:5.1%}")
            s = io.StringIO()
            pstats.Stats(profiler, stream=s).sort_stats("tottime").print_stats(args.top)
            print(s.getvalue())
            s = io.StringIO()
            pstats.Stats(profiler, stream=s).sort_stats("cumulative").print_stats(args.top + 20)
            print(s.getvalue())
        from store.db import close_app

        close_app(app)
        return result
    finally:
        if cluster is not None:
            cluster.remove()
        if scratch is not None:
            scratch.cleanup()


def gc_sqlite_connections() -> list:
    """Every open ``sqlite3.Connection`` of this process (the writer's, the readers'), to count
    their statements with a trace callback."""
    import gc
    import sqlite3

    return [obj for obj in gc.get_objects() if isinstance(obj, sqlite3.Connection)]


if __name__ == "__main__":
    main()
