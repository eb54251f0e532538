"""Slow and idle clients cannot take the service offline (issue #12 item 2).

The real server as ``make run`` starts it (nginx in front of 2 uWSGI workers × 128 threads,
:mod:`mjref.serve`), on loopback. 300 clients hold idle keep-alive connections (one request
answered, then nothing) and 300 more trickle a request head, one header line every 5 s, and
open a new connection as soon as one is closed. Before nginx held the connections, the
first 256 of them took every worker thread and ``GET /health`` timed out for as long as
they stayed open (uWSGI's timeout is per read: a line every 5 s never ends a request).

Now, for the whole run: ``/health`` answers within 1 s, a table posts its hand event by
event and every post is answered, the idle connections stay open, and no trickling
connection lives longer than :data:`mjref.serve.HEADER_SECONDS` (plus a little slack).
"""
from __future__ import annotations

import http.client
import selectors
import socket
import threading
import time

from mjref.serve import HEADER_SECONDS, IDLE_SECONDS
from tests.servicekit import bearer, free_port, hand_events, make_token, request, start_server

IDLE = 300
TRICKLING = 300
LINE_SECONDS = 5.0
#: how long the 600 connections are held while /health and the table are watched
HOLD_SECONDS = 16.0


class Crowd:
    """The 600 hostile connections, all driven by one thread (selectors, non-blocking)."""

    def __init__(self, port: int):
        self.port = port
        self.selector = selectors.DefaultSelector()
        self.idle: list[socket.socket] = []
        self.trickling: dict[socket.socket, list[float]] = {}  # socket -> [opened at, next line at]
        self.dropped_idle = 0
        self.ended = 0  # trickling connections the server closed
        self.longest = 0.0  # the longest a trickling connection lived (seconds)
        self.stop = threading.Event()
        self.error: BaseException | None = None

    def _connect(self) -> socket.socket:
        s = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        s.setblocking(False)
        return s

    def open_idle(self) -> None:
        """Keep-alive connections: one request answered each, then silence."""
        for _ in range(IDLE):
            s = self._connect()
            s.setblocking(True)
            s.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            data = b""
            while b"\r\n\r\n" not in data or not data.rstrip().endswith(b"}"):
                chunk = s.recv(4096)
                assert chunk, "an idle client's first request got no answer"
                data += chunk
            assert data.startswith(b"HTTP/1.1 200"), data[:100]
            s.setblocking(False)
            self.idle.append(s)
            self.selector.register(s, selectors.EVENT_READ, "idle")

    def _trickle(self, now: float) -> None:
        s = self._connect()
        s.send(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        self.trickling[s] = [now, now + LINE_SECONDS]
        self.selector.register(s, selectors.EVENT_READ, "trickling")

    def run(self) -> None:
        try:
            now = time.monotonic()
            for _ in range(TRICKLING):
                self._trickle(now)
            n = 0
            while not self.stop.is_set():
                for key, _ in self.selector.select(timeout=0.2):
                    s = key.fileobj
                    try:
                        data = s.recv(4096)
                    except (ConnectionResetError, BlockingIOError):
                        data = b""
                    if data:
                        continue  # a 408 or the like before the close
                    self.selector.unregister(s)
                    s.close()
                    now = time.monotonic()
                    if key.data == "idle":
                        self.dropped_idle += 1
                    else:
                        opened, _ = self.trickling.pop(s)
                        self.ended += 1
                        self.longest = max(self.longest, now - opened)
                        self._trickle(now)  # the attacker comes straight back
                now = time.monotonic()
                for s, times in self.trickling.items():
                    if times[1] <= now:
                        n += 1
                        try:
                            s.send(f"X-Slow-{n}: {'a' * 20}\r\n".encode())
                        except OSError:
                            pass  # closed: the selector sees it
                        times[1] = now + LINE_SECONDS
            now = time.monotonic()
            self.longest = max([self.longest, *(now - t[0] for t in self.trickling.values())])
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            self.error = exc

    def close(self) -> None:
        for s in [*self.idle, *self.trickling]:
            s.close()


def test_600_slow_connections_leave_health_and_a_table_served(tmp_path, server_database):
    assert HEADER_SECONDS + LINE_SECONDS < HOLD_SECONDS < IDLE_SECONDS
    database = server_database(tmp_path, "slow")
    port = free_port()
    server = start_server(database, port, log=tmp_path / "server.log")
    crowd = Crowd(port)
    try:
        admin = bearer(make_token(database, "admin"))
        assert request(port, "POST", "/api/v1/tables", {"id": "S1"}, admin)[0] == 201
        table = bearer(make_token(database, "table", "S1"))
        events = hand_events(7) + hand_events(8, hand=2)

        crowd.open_idle()
        driver = threading.Thread(target=crowd.run, daemon=True)
        driver.start()
        time.sleep(1.0)  # the trickling connections are open and waiting
        assert len(crowd.trickling) == TRICKLING and crowd.error is None

        posted: list[float] = []  # each post's time to its answer
        post_error: list[BaseException] = []
        stop = threading.Event()

        def post() -> None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            try:
                for event in events:
                    if stop.is_set():
                        break
                    start = time.monotonic()
                    status, body = request(port, "POST", "/api/v1/tables/S1/events", {"events": [event]}, table,
                                           conn=conn)
                    assert status == 200 and body["results"][0]["verdict"] == "accepted", body
                    posted.append(time.monotonic() - start)
                    time.sleep(0.02)
            except BaseException as exc:  # noqa: BLE001 - reported by the test
                post_error.append(exc)
            finally:
                conn.close()

        poster = threading.Thread(target=post, daemon=True)
        poster.start()
        health: list[float] = []
        deadline = time.monotonic() + HOLD_SECONDS
        while time.monotonic() < deadline:
            start = time.monotonic()
            status, body = request(port, "GET", "/health", timeout=1.0)  # raises on a timeout
            health.append(time.monotonic() - start)
            assert status == 200 and body["status"] == "ok", body
            time.sleep(0.25)
        stop.set()
        poster.join(10)
        crowd.stop.set()
        driver.join(10)

        assert crowd.error is None, crowd.error
        assert not post_error, post_error
        assert len(health) >= HOLD_SECONDS * 2 and max(health) < 1.0, max(health)
        assert len(posted) >= 50 and max(posted) < 2.0, (len(posted), max(posted, default=None))
        # the idle keep-alive connections were held (idle for less than IDLE_SECONDS) ...
        assert crowd.dropped_idle == 0
        # ... and no request head took longer than HEADER_SECONDS to be refused
        assert crowd.ended >= TRICKLING, crowd.ended
        assert crowd.longest < HEADER_SECONDS + 2.5, crowd.longest
    finally:
        crowd.stop.set()
        crowd.close()
        server.terminate()
        server.wait(10)
