"""Live ingest under load: many tables posting events at once, real HTTP, the real server.

Starts the service as ``make run`` does (``python -m mjref.serve``: uWSGI, ``--processes``
worker processes of ``--threads`` threads) on a fresh SQLite file and a free loopback port,
creates the tables and one ``table`` token
for each, then plays generated legal hands (``referee.generator``): every table is one
keep-alive connection posting its events in order, each POST waiting for its answer
before the next. Every answer is checked (200, every verdict ``accepted``) and the
stored count is checked at the end. The ack comes after the commit
(``SQLITE_SYNCHRONOUS=FULL``: after the fsync of the WAL).

Two load models:

``--rate R`` (open loop, the target's model)
    the tables together *produce* R events/s (evenly spread over the tables, each at
    R/tables per second). A table's client posts whatever it has produced and not yet
    sent: one event per POST while the service keeps up, a few in one POST when an ack
    takes longer than the gap between two events (as a live table client would).
    Latency is per event: from when it was produced to its ack.
``--rate 0`` (closed loop, the ceiling)
    every table posts its next ``--batch`` events as soon as the last POST is answered.
    Latency is per POST.

    .venv/bin/python -m bench.bench_ingest --rate 1500           # the target: 120 tables, 1,500 events/s
    .venv/bin/python -m bench.bench_ingest --rate 0 --batch 1    # ceiling, one event per POST
    .venv/bin/python -m bench.bench_ingest --rate 0 --batch 8    # ceiling, 8 events per POST
    .venv/bin/python -m bench.bench_ingest --rate 1500 --synchronous NORMAL

Target (issue #6): ≥ 1,500 events/s with p99 ≤ 50 ms on the project's 2-core machine.
Bounded: at most ``--tables × --hands`` hands, and ``--timeout`` seconds.
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

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent


def cpu_seconds(pid: int, part: str = "both") -> float:
    """User + system (or ``part``: ``user``, ``system``) CPU time of a process so far (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    user, system = int(fields[11]), int(fields[12])
    ticks = {"both": user + system, "user": user, "system": system}[part]
    return ticks / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tree_cpu_seconds(pid: int, part: str = "both", with_reaped: bool = False) -> float:
    """CPU time of a process and its children (the server's worker processes); *with_reaped*:
    and of its children that have ended (PostgreSQL's backends that closed)."""
    total = cpu_seconds(pid, part)
    if with_reaped:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            kids = [int(k) for k in f.read().split()]
    except OSError:
        kids = []
    for kid in kids:
        try:
            total += tree_cpu_seconds(kid, part)
        except OSError:
            pass
    return total


def start_server(db: Path, port: int, *, threads: int, synchronous: str, log, processes: int = 1) -> subprocess.Popen:
    """The service as ``make run`` starts it (``python -m mjref.serve``), ready to answer."""
    env = {**os.environ, "MJREF_DATABASE": str(db), "MJREF_SQLITE_SYNCHRONOUS": synchronous}
    cmd = [sys.executable, "-m", "mjref.serve", "--host", "127.0.0.1", "--port", str(port), "--threads", str(threads),
           "--processes", str(processes)]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
                # nginx answers before the workers are up (503): wait for the app
                s.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                if s.recv(16).startswith(b"HTTP/1.1 200"):
                    return proc
                time.sleep(0.05)
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError("the server exited at start")
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("the server did not start")


def admin_token(db: Path) -> str:
    env = {**os.environ, "MJREF_DATABASE": str(db)}
    out = subprocess.run([str(VENV_BIN / "flask"), "--app", "app", "tokens", "create", "--role", "admin",
                          "--label", "bench"], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)["token"]


class Connection:
    """One keep-alive HTTP/1.1 connection (a table's client)."""

    def __init__(self, port: int):
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)

    async def request(self, method: str, path: str, token: str, body: object | None = None) -> tuple[int, dict]:
        """One request, its status and decoded JSON answer. Lean on purpose (the client
        shares the machine's two cores with the server): one write, the head read in one
        ``readuntil``, the body with ``readexactly``."""
        data = b"" if body is None else json.dumps(body, separators=(",", ":")).encode()
        head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n").encode()
        self.writer.write(head + data)
        raw = await self.reader.readuntil(b"\r\n\r\n")
        status = int(raw[9:12])
        at = raw.lower().find(b"\r\ncontent-length:")
        length = int(raw[at + 17:raw.index(b"\r\n", at + 2)]) if at >= 0 else 0
        payload = await self.reader.readexactly(length)
        return status, json.loads(payload) if payload else {}

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def setup_tables(port: int, admin: str, names: list[str]) -> dict[str, str]:
    conn = Connection(port)
    await conn.open()
    tokens = {}
    for name in names:
        status, body = await conn.request("POST", "/api/v1/tables", admin, {"id": name})
        assert status == 201, body
        status, body = await conn.request("POST", "/api/v1/tokens", admin, {"role": "table", "table": name})
        assert status == 201, body
        tokens[name] = body["token"]
    conn.close()
    return tokens


async def play_table(port: int, table: str, token: str, bodies: list[list[dict]], latencies: list[float],
                     deadline: float) -> int:
    conn = Connection(port)
    await conn.open()
    sent = 0
    path = f"/api/v1/tables/{table}/events"
    try:
        for chunk in bodies:
            if time.monotonic() > deadline:
                break
            body = chunk[0] if len(chunk) == 1 else {"events": chunk}
            t0 = time.perf_counter()
            status, answer = await conn.request("POST", path, token, body)
            latencies.append(time.perf_counter() - t0)
            if status != 200 or any(r["verdict"] != "accepted" for r in answer["results"]):
                raise RuntimeError(f"{table}: {status} {answer}")
            sent += len(chunk)
    finally:
        conn.close()
    return sent


class LeanConnection(asyncio.Protocol):
    """One keep-alive HTTP/1.1 connection of the open-loop load, as cheap as we can make it
    (the client shares the machine's two cores with the service; on separate hosts it would
    not): an :class:`asyncio.Protocol` (no stream reader or writer), requests sent as bytes
    made before the run (:func:`encoded_events`), an answer parsed from one buffer. Every
    answer is still decoded and checked by the caller."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.waiter: asyncio.Future | None = None

    @classmethod
    async def open(cls, port: int) -> LeanConnection:
        _, conn = await asyncio.get_running_loop().create_connection(cls, "127.0.0.1", port)
        return conn

    def connection_made(self, transport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        waiter = self.waiter
        if waiter is None or waiter.done():
            return
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return
        head = bytes(self.buffer[:end + 2]).lower()
        at = head.find(b"\r\ncontent-length:")
        length = int(head[at + 17:head.index(b"\r\n", at + 2)]) if at >= 0 else 0
        if len(self.buffer) < end + 4 + length:
            return
        answer = (int(head[9:12]), bytes(self.buffer[end + 4:end + 4 + length]))
        del self.buffer[:end + 4 + length]
        waiter.set_result(answer)

    def connection_lost(self, exc) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(ConnectionError(f"the server closed the connection: {exc}"))

    async def request(self, data: bytes) -> tuple[int, bytes]:
        """Send one whole request (*data*: head and body); the status and the raw body."""
        self.waiter = asyncio.get_running_loop().create_future()
        self.transport.write(data)
        return await self.waiter

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


def encoded_events(events: list[dict]) -> list[bytes]:
    """Each event as the JSON a POST carries (compact), made once before the run."""
    return [json.dumps(ev, separators=(",", ":")).encode() for ev in events]


async def produce_and_post(port: int, table: str, token: str, events: list[dict], interval: float, start: float,
                           latencies: list[float], sizes: list[int], deadline: float, max_batch: int,
                           timeline: list[tuple[float, float]] | None = None) -> int:
    """Open loop: event k of this table exists from ``start + k * interval``; post all that
    exist and are not yet sent, wait for the ack, repeat. *events* holds only the events
    produced within the run's duration."""
    bodies = encoded_events(events)
    head = (f"POST /api/v1/tables/{table}/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
            "Content-Type: application/json\r\nContent-Length: ").encode()
    conn = await LeanConnection.open(port)
    sent = 0
    try:
        while sent < len(events) and time.monotonic() < deadline:
            now = time.perf_counter()
            ready = min(len(events), int((now - start) / interval) + 1) if now >= start else 0
            if ready <= sent:
                await asyncio.sleep(start + sent * interval - now)
                continue
            last = min(ready, sent + max_batch)
            body = bodies[sent] if last - sent == 1 else b'{"events":[' + b",".join(bodies[sent:last]) + b"]}"
            status, payload = await conn.request(head + str(len(body)).encode() + b"\r\n\r\n" + body)
            acked = time.perf_counter()
            answer = json.loads(payload) if payload else {}
            if status != 200 or len(answer.get("results", ())) != last - sent or any(
                    r["verdict"] != "accepted" for r in answer["results"]):
                raise RuntimeError(f"{table}: {status} {answer}")
            latencies.extend(acked - (start + j * interval) for j in range(sent, last))
            if timeline is not None:
                timeline.extend((start + j * interval, acked - (start + j * interval)) for j in range(sent, last))
            sizes.append(last - sent)
            sent = last
    finally:
        conn.close()
    return sent


async def run_open(port: int, tokens: dict[str, str], plan: dict[str, list[dict]], rate: float, timeout: float,
                   max_batch: int, timeline: bool = False, warmup: float = 3.0) -> dict:
    import random

    rng = random.Random(1)
    interval = len(plan) / rate  # seconds between two events of one table
    latencies: list[float] = []
    sizes: list[int] = []
    deadline = time.monotonic() + timeout
    t0 = time.perf_counter() + 0.5
    offsets = {t: rng.random() * interval for t in plan}
    points: list[tuple[float, float]] = []  # (produced at, latency) of every event
    # every table produces for the same duration: the offered rate is constant throughout
    per_table = min(len(events) for events in plan.values())
    duration = per_table * interval
    counts = await asyncio.gather(*(
        produce_and_post(port, t, tokens[t], plan[t][:int((duration - offsets[t]) / interval) + 1], interval,
                         t0 + offsets[t], latencies, sizes, deadline, max_batch, points)
        for t in plan))
    elapsed = time.perf_counter() - t0
    latencies.sort()
    events = sum(counts)
    # a service runs for hours: the latency of the events produced after the first `warmup`
    # seconds (new connections, cold workers) is the steady state, reported beside the whole run's
    steady = sorted(latency for produced, latency in points if produced - t0 >= warmup)
    if timeline:  # p99 of the events produced in each second of the run: a stall, or a slow start?
        by_second: dict[int, list[float]] = {}
        for produced, latency in points:
            by_second.setdefault(int(produced - t0), []).append(latency)
        print("second  events  p50_ms  p99_ms", file=sys.stderr)
        for second, values in sorted(by_second.items()):
            values.sort()
            print(f"{second:6d}  {len(values):6d}  {percentile(values, 50) * 1e3:6.1f}  "
                  f"{percentile(values, 99) * 1e3:6.1f}", file=sys.stderr)
    return {
        "model": "open", "offered_events_per_s": rate, "events": events, "posts": len(sizes),
        "seconds": round(elapsed, 2), "produced_for_s": round(duration, 2), "events_per_s": round(events / elapsed),
        "mean_events_per_post": round(events / max(1, len(sizes)), 2),
        "p50_ms": round(percentile(latencies, 50) * 1e3, 1), "p95_ms": round(percentile(latencies, 95) * 1e3, 1),
        "p99_ms": round(percentile(latencies, 99) * 1e3, 1), "max_ms": round(latencies[-1] * 1e3, 1),
        "warmup_s": warmup, "steady_events": len(steady),
        "steady_p50_ms": round(percentile(steady, 50) * 1e3, 1) if steady else None,
        "steady_p99_ms": round(percentile(steady, 99) * 1e3, 1) if steady else None,
    }


def streams(tables: list[str], hands: int, batch: int) -> dict[str, list[list[dict]]]:
    from referee.events import event_to_dict
    from referee.generator import generate_hand

    out = {}
    for i, table in enumerate(tables):
        events = []
        for h in range(1, hands + 1):
            for ev in generate_hand(1000 * i + h, hand=h, table=table):
                events.append(event_to_dict(ev))
        out[table] = [events[k:k + batch] for k in range(0, len(events), batch)]
    return out


def percentile(sorted_values: list[float], p: float) -> float:
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, max(0, round(p / 100 * (len(sorted_values) - 1))))
    return sorted_values[k]


async def run_load(port: int, tokens: dict[str, str], plan: dict[str, list[list[dict]]], timeout: float) -> dict:
    latencies: list[float] = []
    deadline = time.monotonic() + timeout
    t0 = time.perf_counter()
    counts = await asyncio.gather(*(play_table(port, t, tokens[t], plan[t], latencies, deadline) for t in plan))
    elapsed = time.perf_counter() - t0
    latencies.sort()
    events = sum(counts)
    return {
        "model": "closed", "events": events, "posts": len(latencies), "seconds": round(elapsed, 2),
        "events_per_s": round(events / elapsed), "posts_per_s": round(len(latencies) / elapsed),
        "p50_ms": round(percentile(latencies, 50) * 1e3, 1), "p95_ms": round(percentile(latencies, 95) * 1e3, 1),
        "p99_ms": round(percentile(latencies, 99) * 1e3, 1), "max_ms": round(latencies[-1] * 1e3, 1),
    }


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=120, help="tables posting at once (default 120)")
    parser.add_argument("--hands", type=int, default=2, help="hands per table (default 2; a hand is ~60–190 events)")
    parser.add_argument("--rate", type=float, default=1500.0,
                        help="events/s the tables produce together (open loop); 0: closed loop (default 1500)")
    parser.add_argument("--batch", type=int, default=1,
                        help="closed loop: events per POST (default 1)")
    parser.add_argument("--max-batch", type=int, default=50, help="open loop: most events in one POST (default 50)")
    parser.add_argument("--threads", type=int, default=int(os.environ.get("MJREF_THREADS", 128)),
                        help="threads per worker process, one per open connection (default 128, as make run)")
    parser.add_argument("--processes", type=int, default=int(os.environ.get("MJREF_PROCESSES", 2)),
                        help="server processes (default 2, as make run)")
    parser.add_argument("--synchronous", default="FULL", choices=["FULL", "NORMAL"])
    parser.add_argument("--timeout", type=float, default=120.0, help="stop posting after this many seconds")
    parser.add_argument("--timeline", action="store_true", help="open loop: print p50/p99 per second of the run")
    parser.add_argument("--warmup", type=float, default=3.0,
                        help="open loop: steady_p50/p99 leave out events produced in the first seconds (default 3)")
    parser.add_argument("--keep", action="store_true", help="keep the database and server log")
    args = parser.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="mjref-bench-"))
    db = work / "bench.sqlite3"
    port = free_port()
    names = [f"T{i:03d}" for i in range(args.tables)]
    print(f"generating {args.tables * args.hands} hands ...", file=sys.stderr)
    plan = streams(names, args.hands, 1 if args.rate else args.batch)
    log = open(work / "server.log", "wb")  # noqa: SIM115 - the server writes it until the run ends
    server = start_server(db, port, threads=args.threads, synchronous=args.synchronous, log=log,
                          processes=args.processes)
    try:
        admin = admin_token(db)
        tokens = asyncio.run(setup_tables(port, admin, names))
        print(f"posting to {args.tables} tables on 127.0.0.1:{port} ...", file=sys.stderr)
        server_cpu, client_cpu = tree_cpu_seconds(server.pid), time.process_time()
        server_sys = tree_cpu_seconds(server.pid, "system")
        if args.rate:
            flat = {t: [chunk[0] for chunk in chunks] for t, chunks in plan.items()}
            result = asyncio.run(run_open(port, tokens, flat, args.rate, args.timeout, args.max_batch, args.timeline,
                                             args.warmup))
        else:
            result = asyncio.run(run_load(port, tokens, plan, args.timeout))
        server_cpu = tree_cpu_seconds(server.pid) - server_cpu
        client_cpu = time.process_time() - client_cpu
        result["server_cpu_ms_per_post"] = round(server_cpu / max(1, result["posts"]) * 1e3, 3)
        result["server_cpu_ms_per_event"] = round(server_cpu / max(1, result["events"]) * 1e3, 3)
        result["server_cpu_share"] = round(server_cpu / result["seconds"], 2)
        server_system = tree_cpu_seconds(server.pid, "system") - server_sys
        result["server_system_cpu_share"] = round(server_system / result["seconds"], 2)
        result["client_cpu_share"] = round(client_cpu / result["seconds"], 2)
        result["client_cpu_ms_per_post"] = round(client_cpu / max(1, result["posts"]) * 1e3, 3)
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
    result.update({"tables": args.tables, "processes": args.processes, "threads": args.threads,
                   "synchronous": args.synchronous,
                   "load_average": [round(x, 2) for x in os.getloadavg()]})
    if not args.rate:
        result["batch"] = args.batch
    stored = _count_events(db)
    result["stored"] = stored
    if stored != result["events"]:
        raise SystemExit(f"acknowledged {result['events']} events but {stored} are stored")
    print(json.dumps(result, indent=2))
    if args.keep:
        print(f"kept {work}", file=sys.stderr)
    else:
        shutil.rmtree(work, ignore_errors=True)
    return result


def _count_events(db: Path) -> int:
    import sqlite3

    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]


if __name__ == "__main__":
    main()
