"""A tournament write committed whose answer never reached the client (issue #12 item 7):
the real server (uWSGI, two workers, as ``make run``) is SIGKILLed after the commit and
before the answer. Started again, the resend gets the original answer — by its
``Idempotency-Key``, or as a duplicate when the request names its hand — and nothing is
recorded twice.

The window between commit and answer is held open by ``TESTING_DELAY_AFTER_COMMIT_SECONDS``
(config only, off by default: :func:`services.idempotency._delay_for_tests`); the test polls the
SQLite file from its own connection and kills the server the moment both writes are in it.
"""
from __future__ import annotations

import http.client
import json
import signal
import sqlite3
import threading
import time

from app import create_app
from api.idempotency import HEADER, REPLAYED
from tests.servicekit import bearer, free_port, make_token, pause, request, start_server
from tests.test_api_tournaments import BASE, PLAYERS

#: hand 1 of round 1 table 1, "the next hand" (no number): only its key makes a resend safe
KEYED = {"round": 1, "table": 1, "payments": [-260, 260, 0, 0], "wins": [{"seat": 1, "tai": 8, "deal_in": 0}]}
#: hand 1 of round 1 table 2, named by its key: a resend is a duplicate
NAMED = {"round": 1, "table": 2, "hand": 1, "payments": [0, 0, 300, -300],
         "wins": [{"seat": 2, "tai": 10, "deal_in": 3}]}


def _set_up(database) -> dict:
    app = create_app({"TESTING": True, "DATABASE": str(database)})
    headers = bearer(make_token(database, "official"))
    client = app.test_client()
    assert client.post(BASE, json={"id": "T1", "name": "台北盃", "rounds": 2}, headers=headers).status_code == 201
    assert client.post(f"{BASE}/T1/players", json={"players": PLAYERS}, headers=headers).status_code == 201
    assert client.post(f"{BASE}/T1/schedule", json={"seed": 5}, headers=headers).status_code == 201
    return headers


def _committed(database) -> tuple[dict | None, list]:
    """From another connection: the stored answer of key ``crash-1`` and the hands' records."""
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5)
    try:
        row = conn.execute("SELECT status, answer FROM idempotency_keys WHERE key = 'crash-1'").fetchone()
        hands = conn.execute("SELECT seq, body FROM tournament_events WHERE tournament_id = 'T1' "
                             "AND type = 'HandRecorded' ORDER BY seq").fetchall()
    finally:
        conn.close()
    return (None if row is None else {"status": row[0], "body": json.loads(row[1])}), hands


def _post_unanswered(port: int, body: dict, headers: dict, outcome: dict) -> None:
    """POST a hand and note what came back: an answer, or the connection dropped."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        conn.request("POST", f"{BASE}/T1/hands", body=json.dumps(body).encode(),
                     headers={"Content-Type": "application/json", **headers})
        response = conn.getresponse()
        outcome["status"] = response.status
        response.read()
    except (OSError, http.client.HTTPException) as exc:
        outcome["error"] = type(exc).__name__
    finally:
        conn.close()


def test_sigkill_between_commit_and_answer_then_the_resend_gets_the_original_answer(tmp_path):
    database = tmp_path / "crash.sqlite3"
    official = _set_up(database)
    port = free_port()
    server = start_server(database, port, log=tmp_path / "server.log",
                          env={"MJREF_TESTING_DELAY_AFTER_COMMIT_SECONDS": "120"})
    try:
        outcomes: list[dict] = [{}, {}]
        posts = [threading.Thread(target=_post_unanswered, args=(port, KEYED, {**official, HEADER: "crash-1"},
                                                                 outcomes[0])),
                 threading.Thread(target=_post_unanswered, args=(port, NAMED, official, outcomes[1]))]
        for t in posts:
            t.start()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            stored, hands = _committed(database)
            if stored is not None and len(hands) == 2:
                break
            pause(0.005)
        else:
            raise AssertionError(f"the writes were not committed: {_committed(database)}")
        server.send_signal(signal.SIGKILL)  # committed, the answers held back: they are never sent
        server.wait(10)
        for t in posts:
            t.join(30)
        assert all("status" not in o and o.get("error") for o in outcomes), outcomes
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)

    port = free_port()
    server = start_server(database, port, log=tmp_path / "server.log")
    try:
        stored, _ = _committed(database)
        status, body = _request_with_headers(port, KEYED, {**official, HEADER: "crash-1"})
        assert status == (201, "true") and body == stored["body"] and body["key"] == [1, 1, 1, 1]
        status, dup = _request_with_headers(port, NAMED, official)
        assert status == (200, None) and dup["duplicate"] is True and dup["key"] == [1, 2, 1, 1]
        _, hands = _committed(database)
        assert [seq for seq, _ in hands] == sorted([body["records"][0]["seq"], dup["records"][0]["seq"]])
        keys = sorted(tuple(json.loads(text)["key"]) for _, text in hands)
        assert keys == [(1, 1, 1, 1), (1, 2, 1, 1)]  # each once: nothing recorded twice
        assert request(port, "GET", f"{BASE}/T1/hands")[1]["hands"][0]["payments"] == KEYED["payments"]
    finally:
        server.terminate()
        server.wait(20)


def _request_with_headers(port: int, body: dict, headers: dict) -> tuple[tuple[int, str | None], dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("POST", f"{BASE}/T1/hands", body=json.dumps(body).encode(),
                     headers={"Content-Type": "application/json", **headers})
        response = conn.getresponse()
        return (response.status, response.getheader(REPLAYED)), json.loads(response.read())
    finally:
        conn.close()
