"""SIGKILL the real server in the middle of a burst of concurrent posts, start it again on
the same file: every acknowledged event is stored with the answer it got, the log replays
to the same answers, and the tables carry on from where the log says they are."""
from __future__ import annotations

import http.client
import random
import signal
import sqlite3
import threading
import time

from tests.servicekit import bearer, free_port, hand_events, make_token, request, start_server

TABLES = 12


def test_sigkill_during_a_burst_loses_no_acknowledged_event(tmp_path):
    database = tmp_path / "crash.sqlite3"
    log = tmp_path / "server.log"
    port = free_port()
    server = start_server(database, port, log=log)
    admin = bearer(make_token(database, "admin"))
    names = [f"C{i:02d}" for i in range(TABLES)]
    tokens = {}
    for name in names:
        assert request(port, "POST", "/api/v1/tables", {"id": name}, admin)[0] == 201
        tokens[name] = bearer(make_token(database, "table", name))
    plans = {name: hand_events(200 + i) for i, name in enumerate(names)}
    acked: dict[str, dict[int, dict]] = {name: {} for name in names}
    stop = threading.Event()

    def burst(name: str, seed: int) -> None:
        rng = random.Random(seed)
        events = plans[name]
        i = 0
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            while i < len(events) and not stop.is_set():
                chunk = events[i:i + rng.randint(1, 3)]
                status, body = request(port, "POST", f"/api/v1/tables/{name}/events", {"events": chunk},
                                       tokens[name], conn=conn)
                assert status == 200, body
                for answer in body["results"]:
                    acked[name][answer["seq"]] = answer  # acknowledged: must survive
                i += len(chunk)
        except (OSError, http.client.HTTPException):
            return  # the server died under us: what was acked is what counts

    threads = [threading.Thread(target=burst, args=(name, i), daemon=True) for i, name in enumerate(names)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 10
    while sum(map(len, acked.values())) < 300 and time.monotonic() < deadline:
        time.sleep(0.01)
    server.send_signal(signal.SIGKILL)  # mid-burst: posts are in flight
    server.wait(10)
    stop.set()
    for t in threads:
        t.join(15)
    total_acked = sum(map(len, acked.values()))
    assert total_acked >= 300, "the burst was too slow to test anything"
    assert any(len(acked[n]) < len(plans[n]) for n in names), "the kill came after the burst ended"

    with sqlite3.connect(database) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    port = free_port()
    server = start_server(database, port, log=log)
    try:
        with sqlite3.connect(database) as conn:
            for name in names:
                stored = {seq: answer for seq, answer in conn.execute(
                    "SELECT seq, answer FROM events WHERE table_id = ? ORDER BY id", (name,))}
                assert list(stored) == list(range(1, len(stored) + 1)), name  # in order, no hole
                for seq, answer in acked[name].items():
                    assert seq in stored, f"{name} seq {seq} was acknowledged and is lost"
                    import json

                    assert json.loads(stored[seq]) == answer, f"{name} seq {seq}"
        for name in names:
            headers = tokens[name]
            stored_answers = [e["answer"] for e in request(port, "GET", f"/api/v1/tables/{name}/events?limit=10000",
                                                           headers=headers)[1]["events"]]
            if stored_answers:
                replay = request(port, "GET", f"/api/v1/tables/{name}/hands/1/replay", headers=headers)[1]
                assert replay["answers"] == stored_answers, name  # the log replays to the same state
            # carry on from where the log says the table is
            position = request(port, "GET", f"/api/v1/tables/{name}", headers=headers)[1]["next"]
            rest = [e for e in plans[name] if e["seq"] >= position["seq"]]
            if rest:
                status, body = request(port, "POST", f"/api/v1/tables/{name}/events", {"events": rest}, headers)
                assert status == 200, body
                assert all(r["verdict"] == "accepted" for r in body["results"])
            hand = request(port, "GET", f"/api/v1/tables/{name}/hands", headers=headers)[1]["hands"][0]
            assert hand["ended"] and hand["events"] == len(plans[name]), (name, hand, len(plans[name]), position)
            assert sum(hand["payments"]) == 0
    finally:
        server.terminate()
        server.wait(10)
