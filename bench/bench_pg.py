"""Live ingest on PostgreSQL with 1, 2, 3 app servers behind one nginx (issue #16 item 5).

Starts a throwaway PostgreSQL (``tests/pgcluster.py``: ``initdb`` into a temporary folder,
its own port; ``fsync`` on, so an ack means the commit is on disk), N app servers
(``python -m mjref.serve``, each with its own nginx and uWSGI workers, sharing nothing but
the database URL), and a front nginx spreading the tables over them (``hash $uri``: a
table's posts to one server, as ``docs/deploy.md`` advises). Then the load of
:mod:`bench.bench_ingest` — many tables posting generated legal hands at an offered rate,
every answer checked, the stored count checked at the end — through the front.

    .venv/bin/python -m bench.bench_pg --servers 1 2 3 --rate 1500 --tables 60 --timeout 15

Everything runs on the one machine: the servers, PostgreSQL, nginx and the load client
share its cores, so more servers add processes, not cores (see ``docs/performance.md``).
So each run prints where the CPU went, per event acknowledged: ``app`` (each server's uWSGI
and its nginx; ``inner_nginx``: those nginx alone), ``pg`` (the postmaster and its backends,
ended ones too), ``front`` (the front nginx), ``client`` (this process, the load), ``machine``
(the whole machine's busy time, other work included: compare it with the sum of the others to
see how much was not ours), and
``machine_busy_share`` (1.0: both cores busy all along — the run measured a saturated machine).
``--timeline`` prints p50/p99 per second.

``cpu_ms_per_post`` splits our CPU per POST by process (``system_cpu_ms_per_post``: its kernel
part): ``front_nginx``, ``inner_nginx`` (the servers' own), ``uwsgi_master``, ``uwsgi_workers``,
``pg_backends`` (ended ones too), ``pg_walwriter``, ``pg_other``, ``client``, and ``machine``;
``ours_cpu_ms_per_post`` sums ours; ``pg_per_post`` counts PostgreSQL's commits (read-only
transactions too), WAL records, writes and syncs per POST. At a modest ``--rate`` (one event
per POST) this is the cost of a POST by component, comparable between runs in the same minutes
even on a busy machine (``docs/performance.md``). ``--shape front``: no nginx on the servers
(``python -m mjref.serve --protocol uwsgi``), one front passing the uwsgi protocol to every
worker (``--front-of``).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.bench_ingest import (
    admin_token, cpu_seconds, free_port, run_open, setup_tables, start_server, streams, tree_cpu_seconds,
)
from tests.servicekit import start_front


def free_ports(count: int) -> int:
    """The first of *count* consecutive free loopback ports (worker *i* of a ``--protocol
    uwsgi`` server listens on the first + *i* − 1)."""
    for _ in range(100):
        first = free_port()
        try:
            for i in range(1, count):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", first + i))
            return first
        except OSError:
            continue
    raise RuntimeError(f"no {count} consecutive free ports")


def start_uwsgi_server(url: str, port: int, *, threads: int, log: Path, processes: int):
    """An app server with no nginx of its own (``python -m mjref.serve --protocol uwsgi``), ready."""
    from tests.servicekit import start_server as start_servicekit_server

    return start_servicekit_server(url, port, threads=threads, processes=processes, log=log, protocol="uwsgi",
                                   env={"MJREF_SQLITE_SYNCHRONOUS": "FULL"})

ROOT = Path(__file__).resolve().parent.parent


def machine_cpu_seconds() -> float:
    """CPU seconds the whole machine has been busy (all cores; ``/proc/stat``: all but idle and iowait)."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def named_cpu_seconds(pid: int, name: str) -> float:
    """CPU time of the processes called *name* (``/proc/<pid>/comm``) among *pid* and its descendants."""
    try:
        with open(f"/proc/{pid}/comm") as f:
            own = cpu_seconds(pid) if f.read().strip() == name else 0.0
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            kids = [int(k) for k in f.read().split()]
    except OSError:
        return 0.0
    return own + sum(named_cpu_seconds(kid, name) for kid in kids)


def _descendants(pid: int) -> list[int]:
    """*pid* and every process below it (``/proc/<pid>/task/<pid>/children``)."""
    out = [pid]
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            kids = [int(k) for k in f.read().split()]
    except OSError:
        return out
    for kid in kids:
        out += _descendants(kid)
    return out


def _reaped_seconds(pid: int, part: str = "both") -> float:
    """CPU time of *pid*'s children that have ended and been waited for (``cutime + cstime``,
    or ``cstime`` alone for *part* ``system``)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return ((int(fields[13]) if part == "both" else 0) + int(fields[14])) / os.sysconf("SC_CLK_TCK")


def pg_role(pid: int, postmaster: int) -> str:
    """What a PostgreSQL process is: ``postmaster``, ``backend`` (a client's session), or its
    auxiliary's name (``walwriter``, ``checkpointer``, ``background writer``, ...)."""
    if pid == postmaster:
        return "postmaster"
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            title = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return "gone"
    title = title.removeprefix("postgres: ")
    for aux in ("walwriter", "checkpointer", "background writer", "autovacuum launcher", "autovacuum worker",
                "logical replication launcher", "stats collector"):
        if title.startswith(aux):
            return aux
    return "backend"


def components(procs, front, postmaster: int, part: str = "both") -> dict[str, float]:
    """CPU seconds so far of each part of the service, summed over its processes (``/proc``):
    the front nginx; each server's own nginx, uWSGI master and uWSGI workers; PostgreSQL's
    backends (with the ended ones: the postmaster's reaped children), its walwriter and its
    other auxiliaries; this process (the load client); and the whole machine. *part*:
    ``both`` (user + system), or ``system`` alone (the kernel's work for them; the machine's
    then left at 0)."""
    parts = dict.fromkeys(("front_nginx", "inner_nginx", "uwsgi_master", "uwsgi_workers", "pg_backends",
                           "pg_walwriter", "pg_other", "client", "machine"), 0.0)
    parts["front_nginx"] = sum(_safe_cpu(p, part) for p in _descendants(front.pid))
    for proc in procs:
        for pid in _descendants(proc.pid):
            comm = _comm(pid)
            key = ("inner_nginx" if comm == "nginx" else "uwsgi_master" if pid == proc.pid
                   else "uwsgi_workers")
            parts[key] += _safe_cpu(pid, part)
    for pid in _descendants(postmaster):
        role = pg_role(pid, postmaster)
        key = {"backend": "pg_backends", "walwriter": "pg_walwriter"}.get(role, "pg_other")
        parts[key] += _safe_cpu(pid, part)
    parts["pg_backends"] += _reaped_seconds(postmaster, part)
    if part == "both":
        parts["client"] = time.process_time()
        parts["machine"] = machine_cpu_seconds()
    else:
        parts["client"] = os.times().system
    return parts


def _comm(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return ""


def _safe_cpu(pid: int, part: str = "both") -> float:
    try:
        return cpu_seconds(pid, part)
    except OSError:
        return 0.0


def pg_counters(url: str) -> dict[str, int]:
    """PostgreSQL's own counts so far: transactions committed in the database, WAL records,
    WAL writes and WAL syncs (``fsync``: one per commit that flushed, fewer when commits
    share a flush) — ``pg_stat_database`` and ``pg_stat_wal`` (PostgreSQL 14+), after
    ``pg_stat_force_next_flush`` where it exists (15+) so that the counts are current."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        commits = conn.execute("SELECT xact_commit FROM pg_stat_database "
                               "WHERE datname = current_database()").fetchone()[0]
        wal = conn.execute("SELECT wal_records, wal_write, wal_sync FROM pg_stat_wal").fetchone()
    return {"commits": int(commits), "wal_records": int(wal[0]), "wal_writes": int(wal[1]), "wal_syncs": int(wal[2])}


def run_one(cluster, servers: int, args, work: Path) -> dict:
    url = cluster.new_database(f"bench{servers}", template=None)
    ports = [free_port() for _ in range(servers)]
    log = open(work / f"servers-{servers}.log", "wb")  # noqa: SIM115 - the servers write it until the run ends
    procs = []
    front = None
    try:
        if args.shape == "nested":  # each server's own nginx, the front proxying HTTP to it
            for p in ports:
                procs.append(start_server(url, p, threads=args.threads, synchronous="FULL", log=log,
                                          processes=args.processes))
            front, front_port = start_front(work, ports, max_fails=0, log=log)
        else:  # "front": the one nginx, passing the uwsgi protocol to every server's workers
            from tests.servicekit import start_front_of

            ports = [free_ports(args.processes) for _ in range(servers)]
            for p in ports:
                procs.append(start_uwsgi_server(url, p, threads=args.threads, log=work / f"servers-{servers}.log",
                                                processes=args.processes))
            front, front_port = start_front_of(work, [p + i for p in ports for i in range(args.processes)],
                                               max_fails=0, log=log)
        names = [f"T{i:03d}" for i in range(args.tables)]
        plan = streams(names, args.hands, 1)
        admin = admin_token(url)
        tokens = asyncio.run(setup_tables(front_port, admin, names))
        postmaster = int((cluster.data / "postmaster.pid").read_text().split()[0])
        parts = {"app": lambda: sum(tree_cpu_seconds(p.pid) for p in procs),  # uWSGI and each server's nginx
                 "inner_nginx": lambda: sum(named_cpu_seconds(p.pid, "nginx") for p in procs),  # part of app
                 "pg": lambda: tree_cpu_seconds(postmaster, with_reaped=True),
                 "front": lambda: tree_cpu_seconds(front.pid), "client": time.process_time,
                 "machine": machine_cpu_seconds}
        before = {k: f() for k, f in parts.items()}
        split = components(procs, front, postmaster)
        split_sys = components(procs, front, postmaster, "system")
        counts = pg_counters(url)
        wall = time.monotonic()
        flat = {t: [chunk[0] for chunk in chunks] for t, chunks in plan.items()}
        result = asyncio.run(run_open(front_port, tokens, flat, args.rate, args.timeout, args.max_batch,
                                      warmup=args.warmup, timeline=args.timeline))
        used = {k: f() - before[k] for k, f in parts.items()}
        split = {k: v - split[k] for k, v in components(procs, front, postmaster).items()}
        split_sys = {k: v - split_sys[k] for k, v in components(procs, front, postmaster, "system").items()
                     if k != "machine"}
        wall = time.monotonic() - wall
        cpu = used["app"]
        time.sleep(0.6)  # PostgreSQL's statistics reach pg_stat_* within 0.5 s of a transaction's end
        counts = {k: v - counts[k] for k, v in pg_counters(url).items()}
        import psycopg

        with psycopg.connect(url) as conn:
            stored = conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]
        if stored != result["events"]:
            raise SystemExit(f"acknowledged {result['events']} events but {stored} are stored")
        result.update({"servers": servers, "shape": args.shape, "processes_per_server": args.processes,
                       "threads": args.threads, "tables": args.tables,
                       "stored": stored, "app_cpu_ms_per_event": round(cpu / max(1, result["events"]) * 1e3, 3),
                       "app_cpu_ms_per_post": round(cpu / max(1, result["posts"]) * 1e3, 3),
                       **{f"{k}_cpu_ms_per_event": round(v / max(1, result["events"]) * 1e3, 3)
                          for k, v in used.items() if k != "app"},
                       "cpu_ms_per_post": {k: round(v / max(1, result["posts"]) * 1e3, 3) for k, v in split.items()},
                       "system_cpu_ms_per_post": {k: round(v / max(1, result["posts"]) * 1e3, 3)
                                                  for k, v in split_sys.items()},
                       "pg_per_post": {k: round(v / max(1, result["posts"]), 3) for k, v in counts.items()},
                       "ours_cpu_ms_per_post": round(sum(v for k, v in split.items() if k != "machine")
                                                     / max(1, result["posts"]) * 1e3, 3),
                       "machine_busy_share": round(used["machine"] / (wall * os.cpu_count()), 2),
                       "load_average": [round(x, 2) for x in os.getloadavg()]})
        return result
    finally:
        if front is not None:
            front.terminate()
            front.wait(10)
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        log.close()


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--servers", type=int, nargs="+", default=[1, 2, 3], help="app server counts to run")
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--hands", type=int, default=1)
    parser.add_argument("--rate", type=float, default=1500.0, help="events/s the tables offer together")
    parser.add_argument("--max-batch", type=int, default=50)
    parser.add_argument("--threads", type=int, default=32, help="threads per worker process")
    parser.add_argument("--processes", type=int, default=1, help="worker processes per app server")
    parser.add_argument("--timeout", type=float, default=15.0, help="stop posting after this many seconds")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--timeline", action="store_true", help="print p50/p99 per second of each run")
    parser.add_argument("--shape", choices=("nested", "front"), default="nested",
                        help="nested: each app server with its own nginx, the front nginx proxying HTTP to them; "
                             "front: one nginx (python -m mjref.serve --front-of) passing the uwsgi protocol to "
                             "every server's workers (--protocol uwsgi), none on the servers (docs/deploy.md)")
    parser.add_argument("--pg-setting", action="append", default=[], metavar="NAME=VALUE",
                        help="a PostgreSQL server setting for the throwaway cluster (repeatable), "
                             "e.g. commit_delay=200")
    args = parser.parse_args(argv)
    from tests.pgcluster import Cluster

    work = Path(tempfile.mkdtemp(prefix="mjref-bench-pg-"))
    if os.geteuid() == 0:
        os.chmod(work, 0o755)
    settings = dict(item.split("=", 1) for item in args.pg_setting)
    cluster = Cluster(fsync=True, settings=settings).start()
    results = []
    try:
        for n in args.servers:
            print(f"{n} server(s) ...", file=sys.stderr)
            results.append({**run_one(cluster, n, args, work), "pg_settings": settings})
            print(json.dumps(results[-1]), file=sys.stderr)
    finally:
        cluster.remove()
        shutil.rmtree(work, ignore_errors=True)
    keys = ("servers", "shape", "offered_events_per_s", "events_per_s", "p50_ms", "p99_ms", "steady_p99_ms", "max_ms",
            "mean_events_per_post", "app_cpu_ms_per_event", "app_cpu_ms_per_post", "inner_nginx_cpu_ms_per_event",
            "pg_cpu_ms_per_event", "front_cpu_ms_per_event", "client_cpu_ms_per_event", "machine_cpu_ms_per_event",
            "posts", "cpu_ms_per_post", "system_cpu_ms_per_post", "pg_per_post", "ours_cpu_ms_per_post",
            "machine_busy_share", "threads", "processes_per_server",
            "pg_settings", "load_average")
    print(json.dumps([{k: r[k] for k in keys} for r in results], indent=2))
    return results


if __name__ == "__main__":
    main()
