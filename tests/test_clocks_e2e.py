"""A small event's round run through the HTTP API with the real clock (issue #7, clocks part
of the end to end flow): configured → started by the scheduler → tables finished (one
played on a linked referee table, whose hand the scheduler's tick records, and reported by an
official; one finished from its recorded hands: 定莊 and a whole 將) → auto-closed →
the next round's seating published → the next round started at its time.

Real parts: the app with its APScheduler on, a real SQLite file, the tournament API
(``api/tournaments.py``) and the clock API (``api/clocks.py``). Waits poll with a timeout.
"""
from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone

import clocks
from app import create_app
from tests.servicekit import bearer, hand_events, make_token, pause
from tournament.clock import format_time
from tournament.clocksource import OffsetClock

NAMES = ["王小明", "李大華", "陳美玲", "林志豪", "張家瑋", "黃淑芬", "吳俊傑", "劉怡君"]


def poll(client, path, predicate, timeout=15.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body = client.get(path).get_json()
        if predicate(body):
            return body
        pause(0.05)
    raise AssertionError(f"timed out: {path} → {body}")


def test_a_round_runs_by_the_clock_through_the_api(database):
    clock = OffsetClock.starting_at(datetime(2026, 12, 1, 0, 59, 50, tzinfo=timezone.utc))  # real speed, fixed date
    app = create_app({"TESTING": True, "DATABASE": database, "SCHEDULER": True, "CLOCK_TICK_SECONDS": 0.2,
                      "CLOCK": clock})
    try:
        client = app.test_client()
        official = bearer(make_token(database, "official"))

        def post(path, body, status=201):
            answer = client.post(path, json=body, headers=official)
            assert answer.status_code == status, answer.get_json()
            return answer.get_json()

        post("/api/v1/tournaments", {"id": "e2e", "name": "時鐘盃", "rounds": 2, "round_minutes": 90})
        post("/api/v1/tournaments/e2e/players",
             {"players": [{"id": f"p{k}", "name": name} for k, name in enumerate(NAMES)]})
        post("/api/v1/tournaments/e2e/schedule", {"seed": 5})
        schedule = client.get("/api/v1/tournaments/e2e/schedule").get_json()["rounds"]

        first = clock.now() + timedelta(seconds=1)
        configured = client.put("/api/v1/tournaments/e2e/clock", headers=official, json={
            "first_start": format_time(first), "interval_seconds": 6, "reminders": [60]})
        assert configured.status_code == 200, configured.get_json()
        assert configured.get_json()["settings"]["round_seconds"] == 90 * 60  # the event's round_minutes
        shown = client.get("/api/v1/tournaments/e2e/seating/published").get_json()
        assert shown["round"] == 1
        assert [[s["name"] for s in t["seats"]] for t in shown["tables"]] == [t["names"] for t in schedule[0]["tables"]]

        status = poll(client, "/api/v1/tournaments/e2e/clock", lambda b: b["round"] and b["round"]["started_at"])
        assert status["round"]["round"] == 1 and status["round"]["waiting"] == [1, 2]

        # table 1 plays on a referee table linked to its 將: the scheduler's tick records the
        # referee's closed hand in the tournament (sync_table_results), then its official reports
        post("/api/v1/tables", {"id": "R1T1", "tournament": "e2e"})
        post("/api/v1/tournaments/e2e/links", {"table_id": "R1T1", "round": 1, "table": 1})
        post("/api/v1/tables/R1T1/events", {"events": hand_events(3)}, status=200)
        hands = poll(client, "/api/v1/tournaments/e2e/hands", lambda b: b["hands"])["hands"]
        assert [h["key"] for h in hands] == [[1, 1, 1, 1]]
        post("/api/v1/tournaments/e2e/clock/reports", {"table": 1}, status=200)
        # table 2: 搬風 and 定莊 recorded, then a whole 將 of hands (each won by the dealer's 下家
        # on the next seat's discard: the deal goes round four times, 東 南 西 北)
        dealer = post("/api/v1/tournaments/e2e/rounds/1/tables/2/matches/1/draw", {"seed": 11})["dealer"]
        for _ in range(16):
            winner = (dealer + 1) % 4
            payer = (winner + 1) % 4
            payments = [120 if s == winner else -120 if s == payer else 0 for s in range(4)]  # 100 + 1 台 × 20
            post("/api/v1/tournaments/e2e/hands", {"round": 1, "table": 2, "payments": payments,
                                                    "wins": [{"seat": winner, "tai": 1, "deal_in": payer}]})
            dealer = winner

        status = poll(client, "/api/v1/tournaments/e2e/clock", lambda b: b["rounds"][0]["closed_at"])
        closed = status["rounds"][0]
        assert closed["close_reason"] == "all_reported" and closed["waiting"] == []
        assert [r["table"] for r in closed["reported"]] == [1, 2]
        assert status["published_round"] == 2
        shown = client.get("/api/v1/tournaments/e2e/seating/published").get_json()
        assert shown["round"] == 2
        assert [[s["name"] for s in t["seats"]] for t in shown["tables"]] == [t["names"] for t in schedule[1]["tables"]]
        log = client.get("/api/v1/tournaments/e2e/log").get_json()["records"]
        reports = [r for r in log if r["event"]["type"] == "TableReported"]
        assert [(r["event"]["table"], r["event"]["derived"], r["by"]) for r in reports] == [
            (1, False, reports[0]["by"]), (2, True, "")]  # the derived report is the clock's, nobody's
        assert reports[0]["by"] != ""

        status = poll(client, "/api/v1/tournaments/e2e/clock",
                      lambda b: b["round"] and b["round"]["round"] == 2 and b["round"]["started_at"])
        assert status["round"]["start_due"] == format_time(first + timedelta(seconds=6))
        assert status["round"]["waiting"] == [1, 2] and status["scheduler"]["role"] == "leader"
    finally:
        clocks.scheduler(app).shutdown()
