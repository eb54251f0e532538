"""The clocks service: the API, a real scheduler in a real app, exactly one scheduler across
real server processes, and jobs that survive a restart (real SQLite files throughout).

Waits poll the log with a timeout; nothing here asserts on speed.
"""
from __future__ import annotations

import signal
import threading
import time
from pathlib import Path
from datetime import datetime, timedelta, timezone

import pytest

import clocks
from app import create_app
from store import connect, init_db
from store.tournaments import append_events, create_tournament, load_records
from store.dialect import LOCK_LEADER, is_postgres
from store.leader import CLOCKS
from tests.servicekit import (
    bearer, free_port, make_token, pause, request, sql_rows, start_server, writing_straight,
)
from tournament.clock import (
    RoundClosed, RoundStarted, SeatingPublished, TableReported, TimeCalled, format_time, parse_time,
)
from tournament.clocksource import OffsetClock
from tournament.events import EventCreated, EventSettings, PlayerRegistered, RoundSeated
from tournament.schedule import make_schedule

#: where the real-time tests' clocks start (a fixed date, whatever the machine's date is)
START = datetime(2026, 12, 1, 0, 59, 50, tzinfo=timezone.utc)

PLAYERS = ["王小明", "李大華", "陳美玲", "林志豪", "張家瑋", "黃淑芬", "吳俊傑", "劉怡君"]


def seed(database, tournament_id: str = "t1", rounds: int = 2) -> None:
    """An 8-player event (two tables a round), every round seated, written to the file."""
    init_db(database)
    db = connect(database)
    try:
        with db.atomic():
            create_tournament(db, tournament_id, name="時鐘盃")
            events = [EventCreated(EventSettings("時鐘盃", rounds))]
            events += [PlayerRegistered(f"p{k}", name) for k, name in enumerate(PLAYERS)]
            events += [RoundSeated(plan) for plan in make_schedule([f"p{k}" for k in range(8)], rounds, seed=3).rounds]
            append_events(db, tournament_id, events)
    finally:
        db.close()


def clock_records(database, tournament_id: str = "t1") -> list:
    db = connect(database)
    try:
        return [r.event for r in load_records(db, tournament_id)
                if type(r.event).__name__ not in ("EventCreated", "PlayerRegistered", "RoundSeated")]
    finally:
        db.close()


def report_all(database, round_no: int, clock, tournament_id: str = "t1") -> None:
    """Both tables report at the ``clock``'s time, written straight to the file (as another process would)."""
    with writing_straight(database) as db:
        append_events(db, tournament_id, [TableReported(round_no, t, format_time(clock.now())) for t in (1, 2)])


def wait_for(predicate, timeout: float = 15.0, what: str = ""):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        pause(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def of(events, cls, **match) -> list:
    return [e for e in events if isinstance(e, cls) and all(getattr(e, k) == v for k, v in match.items())]


def soon(clock, seconds: float) -> str:
    return format_time(clock.now() + timedelta(seconds=seconds))


# --- the API (no scheduler: actions are an official's, the due ones follow them) ----------------


@pytest.fixture()
def seeded(app):
    seed(app.config["DATABASE"])
    return app


def test_configure_needs_an_official_and_checks_the_settings(seeded, client):
    official = bearer(make_token(seeded.config["DATABASE"], "official"))
    body = {"round_seconds": 5400, "first_start": "2026-12-01T09:00:00+08:00", "interval_seconds": 7200}
    assert client.put("/api/v1/tournaments/t1/clock", json=body).status_code == 401
    admin_less = bearer(make_token(seeded.config["DATABASE"], "admin"))
    assert client.put("/api/v1/tournaments/t1/clock", json=body, headers=admin_less).status_code == 200
    bad = client.put("/api/v1/tournaments/t1/clock", json={**body, "first_start": "2026-12-01T09:00:00"},
                     headers=official)
    assert bad.status_code == 400 and bad.mimetype == "application/problem+json"
    assert bad.get_json()["field"] == "first_start" and "時區" in bad.get_json()["detail_zh"]
    bad = client.put("/api/v1/tournaments/t1/clock", json={**body, "at_time": "later"}, headers=official)
    assert bad.status_code == 400 and bad.get_json()["field"] == "at_time"
    # the event has no round_minutes: its state, not the body, is what is missing (409, issue #12 item 6)
    no_length = client.put("/api/v1/tournaments/t1/clock", json={"first_start": body["first_start"]}, headers=official)
    assert no_length.status_code == 409 and no_length.get_json()["field"] == "round_seconds"
    missing = client.put("/api/v1/tournaments/nope/clock", json=body, headers=official)
    assert missing.status_code == 404
    answer = client.put("/api/v1/tournaments/t1/clock", json={**body, "at_time": "finish_circle"}, headers=official)
    assert answer.status_code == 200
    status = answer.get_json()
    assert status["configured"] and status["settings"]["at_time"] == "finish_circle"
    assert status["settings"]["reminders"] == [900, 300] and status["scheduler"]["role"] == "off"
    # round 1's seating goes up when the clock is set (publish on close; round 1 has no previous round)
    assert status["published_round"] == 1
    assert status["next_due"]["kind"] == "start" and status["next_due"]["at"] == "2026-12-01T01:00:00.000Z"


def test_an_official_runs_a_round_and_the_last_report_closes_it(seeded, client):
    official = bearer(make_token(seeded.config["DATABASE"], "official"))
    table = bearer(make_token(seeded.config["DATABASE"], "admin"))
    assert client.post("/api/v1/tournaments/t1/clock/start", json={}, headers=official).status_code == 409  # no clock
    client.put("/api/v1/tournaments/t1/clock", json={"round_seconds": 600, "reminders": [60]}, headers=official)
    refused = client.post("/api/v1/tournaments/t1/clock/call-time", json={}, headers=official)
    assert refused.status_code == 409 and refused.get_json()["code"] == "no_round"
    started = client.post("/api/v1/tournaments/t1/clock/start", json={}, headers=official).get_json()
    assert started["round"]["round"] == 1 and started["round"]["waiting"] == [1, 2]
    assert 590 < started["round"]["seconds_left"] <= 600
    again = client.post("/api/v1/tournaments/t1/clock/start", json={"round": 1}, headers=official)
    assert again.status_code == 409 and again.get_json()["field"] == "round"
    unknown = client.post("/api/v1/tournaments/t1/clock/reports", json={"table": 9}, headers=official)
    assert unknown.status_code == 409 and unknown.get_json()["field"] == "table"
    bad = client.post("/api/v1/tournaments/t1/clock/reports", json={"table": "一"}, headers=official)
    assert bad.status_code == 400 and bad.get_json()["field"] == "table"
    client.post("/api/v1/tournaments/t1/clock/reports", json={"table": 2}, headers=table)
    twice = client.post("/api/v1/tournaments/t1/clock/reports", json={"table": 2}, headers=official)
    assert twice.status_code == 409
    called = client.post("/api/v1/tournaments/t1/clock/call-time", json={}, headers=official).get_json()
    assert called["round"]["time_called_at"] and called["round"]["policy"] == "finish_hand"
    closed = client.post("/api/v1/tournaments/t1/clock/reports", json={"table": 1}, headers=official).get_json()
    assert closed["round"]["close_reason"] == "all_reported" and closed["published_round"] == 2
    events = clock_records(seeded.config["DATABASE"])
    assert [type(e).__name__ for e in events] == [
        "ClockConfigured", "SeatingPublished", "RoundStarted", "TableReported", "TimeCalled", "TableReported",
        "RoundClosed", "SeatingPublished"]
    # the hall screen: round 2's tables, names by wind
    shown = client.get("/api/v1/tournaments/t1/seating/published").get_json()
    plan = make_schedule([f"p{k}" for k in range(8)], 2, seed=3).rounds[1]
    assert shown["round"] == 2 and [t["table"] for t in shown["tables"]] == [t.table for t in plan.tables]
    first = shown["tables"][0]["seats"]
    assert [s["wind_zh"] for s in first] == ["東", "南", "西", "北"]
    assert [s["name"] for s in first] == [PLAYERS[int(p[1:])] for p in plan.tables[0].seats]


def test_an_official_pauses_and_resumes_the_round_and_its_time_falls_later(seeded, client, app_clock):
    """R-tour-29 over HTTP: the status while paused (since when, the frozen time left), the refusals
    named, and an ``Idempotency-Key`` replayed rather than pausing twice."""
    official = bearer(make_token(seeded.config["DATABASE"], "official"))
    base = "/api/v1/tournaments/t1/clock"
    client.put(base, json={"round_seconds": 600, "reminders": [60]}, headers=official)
    early = client.post(f"{base}/pause", json={"round": 1, "reason": "停電"}, headers=official)
    assert early.status_code == 409 and early.get_json()["field"] == "round"
    assert "尚未開始" in early.get_json()["detail_zh"]
    client.post(f"{base}/start", json={}, headers=official)
    started = parse_time(clock_records(seeded.config["DATABASE"])[-1].at)
    no_reason = client.post(f"{base}/pause", json={}, headers=official)
    assert no_reason.status_code == 400 and no_reason.get_json()["field"] == "reason"
    not_paused = client.post(f"{base}/resume", json={}, headers=official)
    assert not_paused.status_code == 409 and not_paused.get_json()["field"] == "round"
    assert "並未暫停" in not_paused.get_json()["detail_zh"] and "not paused" in not_paused.get_json()["detail"]
    app_clock.advance(100)
    key = {**official, "Idempotency-Key": "pause-1"}
    paused = client.post(f"{base}/pause", json={"reason": "停電 power cut"}, headers=key)
    assert paused.status_code == 200
    rnd = paused.get_json()["round"]
    assert rnd["paused"] and rnd["paused_since"] == format_time(app_clock.now())
    assert rnd["paused_reason"] == "停電 power cut"
    assert rnd["seconds_left"] == 500
    again = client.post(f"{base}/pause", json={"reason": "停電 power cut"}, headers=key)  # the same request, replayed
    assert again.status_code == 200 and again.get_json() == paused.get_json()
    twice = client.post(f"{base}/pause", json={"reason": "停電"}, headers=official)
    assert twice.status_code == 409 and twice.get_json()["field"] == "round" and "已自" in twice.get_json()["detail_zh"]
    app_clock.advance(300)
    status = client.get(base).get_json()["round"]
    assert status["paused"] and status["seconds_left"] == 500  # frozen
    assert status["time_at"] == format_time(app_clock.now() + timedelta(seconds=500))
    assert client.get(base).get_json()["next_due"] is None  # nothing falls due while paused
    refused = client.post(f"{base}/call-time", json={}, headers=official)
    assert refused.status_code == 409 and refused.get_json()["field"] == "round"
    resumed = client.post(f"{base}/resume", json={}, headers={**official, "Idempotency-Key": "resume-1"}).get_json()
    rnd = resumed["round"]
    assert not rnd["paused"] and rnd["paused_since"] is None and rnd["paused_seconds"] == 300
    assert parse_time(rnd["time_at"]) == started + timedelta(seconds=600 + 300)
    assert resumed["next_due"]["kind"] == "remind"
    assert parse_time(resumed["next_due"]["at"]) == started + timedelta(seconds=840)
    events = clock_records(seeded.config["DATABASE"])
    assert [type(e).__name__ for e in events][-2:] == ["ClockPaused", "ClockResumed"]
    client.post(f"{base}/call-time", json={}, headers=official)
    late = client.post(f"{base}/pause", json={"reason": "爭議"}, headers=official)
    assert late.status_code == 409 and "時間到" in late.get_json()["detail_zh"] and late.get_json()["field"] == "round"


def test_reads_follow_the_tournaments_area(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "x.sqlite3"), "PUBLIC_READS": "rulesets"})
    seed(app.config["DATABASE"])
    client = app.test_client()
    assert client.get("/api/v1/tournaments/t1/clock").status_code == 401
    assert client.get("/api/v1/tournaments/t1/seating/published").status_code == 401
    reader = bearer(make_token(app.config["DATABASE"], "official"))
    assert client.get("/api/v1/tournaments/t1/clock", headers=reader).get_json()["configured"] is False
    nothing = client.get("/api/v1/tournaments/t1/seating/published", headers=reader)
    assert nothing.status_code == 200 and nothing.get_json() == {"tournament": "t1", "round": None,
                                                                 "published_at": None, "tables": []}


@pytest.mark.parametrize(("value", "testing", "on"), [
    (None, False, True), (None, True, False), ("0", False, False), ("off", False, False), (True, True, True),
    (1, True, True), ("true", True, True), (False, False, False)])
def test_scheduler_switch(value, testing, on):
    from flask import Flask

    app = Flask("x")
    app.testing = testing
    if value is not None:
        app.config["SCHEDULER"] = value
    assert clocks.enabled(app) is on


# --- a real scheduler in a real app -----------------------------------------------------------------


def test_the_scheduler_runs_a_round_by_the_clock(tmp_path):
    database = str(tmp_path / "clock.sqlite3")
    clock = OffsetClock.starting_at(START)  # real speed: the scheduler waits as the app's clock says
    app = create_app({"TESTING": True, "DATABASE": database, "SCHEDULER": True, "CLOCK_TICK_SECONDS": 0.2,
                      "CLOCK": clock})
    try:
        service = clocks.scheduler(app)
        assert service is not None and service.leading
        seed(database)
        official = bearer(make_token(database, "official"))
        client = app.test_client()
        first = soon(clock, 1.0)
        answer = client.put("/api/v1/tournaments/t1/clock", headers=official, json={
            "round_seconds": 3, "first_start": first, "interval_seconds": 5, "reminders": [2, 1]})
        assert answer.status_code == 200 and answer.get_json()["scheduler"]["role"] == "leader"
        events = wait_for(lambda: (e := clock_records(database)) and of(e, TimeCalled) and e, what="time called")
        names = [type(e).__name__ + str(getattr(e, "seconds_left", "")) for e in events]
        assert names == ["ClockConfigured", "SeatingPublished", "RoundStarted", "ReminderGiven2", "ReminderGiven1",
                         "TimeCalled"]
        started = of(events, RoundStarted)[0]
        assert started.due == format_time(parse_time(first)) and parse_time(started.at) >= parse_time(first)
        called = of(events, TimeCalled)[0]
        assert parse_time(called.at) >= parse_time(started.at) + timedelta(seconds=3)
        # the tables report through another connection: the tick sees it and closes the round
        report_all(database, 1, clock)
        events = wait_for(lambda: (e := clock_records(database)) and of(e, RoundStarted, round=2) and e,
                          what="round 2 started")
        tail = [type(e).__name__ for e in events][events.index(of(events, TableReported)[0]):]
        assert tail == ["TableReported", "TableReported", "RoundClosed", "SeatingPublished", "RoundStarted"]
        assert of(events, RoundClosed)[0].reason == "all_reported"
        assert of(events, SeatingPublished, round=2) and len(of(events, RoundStarted)) == 2
        second = of(events, RoundStarted, round=2)[0]
        assert second.due == format_time(parse_time(first) + timedelta(seconds=5))
    finally:
        clocks.scheduler(app).shutdown()


def test_two_apps_on_one_file_in_one_process_make_one_scheduler(tmp_path):
    database = str(tmp_path / "one.sqlite3")
    config = {"TESTING": True, "DATABASE": database, "SCHEDULER": True, "CLOCK_STANDBY_SECONDS": 0.1}
    first, second = create_app(config), create_app(config)
    try:
        assert clocks.scheduler(first).leading and not clocks.scheduler(second).leading
        clocks.scheduler(first).shutdown()
        wait_for(lambda: clocks.scheduler(second).leading, what="the standby taking over")
    finally:
        clocks.scheduler(first).shutdown()
        clocks.scheduler(second).shutdown()


# --- real server processes: exactly one scheduler, and jobs that survive a restart ------------------


def _start_both(database, ports):
    servers: dict[int, object] = {}
    threads = [threading.Thread(target=lambda p=p: servers.__setitem__(p, start_server(database, p)))
               for p in ports]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return [servers[p] for p in ports]


def _roles(port, headers, tries: int = 12) -> dict[int, str]:
    """pid → scheduler role of the processes that answered ``tries`` fresh connections to a
    server (a server may be several worker processes sharing the port)."""
    roles = {}
    for _ in range(tries):
        try:
            status, body = request(port, "GET", "/api/v1/tournaments/t1/clock", headers=headers, timeout=2)
        except OSError:
            continue
        if status == 200:
            roles[body["scheduler"]["pid"]] = body["scheduler"]["role"]
    return roles


def _holder(database) -> int:
    """The pid of the scheduler lock's holder: written in the lock file (SQLite), or in the
    name of the session that holds the advisory lock (PostgreSQL, ``mjref-leader-<pid>``)."""
    if is_postgres(database):
        rows = sql_rows(database, "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
                                  "WHERE l.locktype = 'advisory' AND l.granted AND l.classid = ? AND l.objid = ?",
                        (LOCK_LEADER, CLOCKS))
        return int(rows[0][0].rsplit("-", 1)[1]) if rows else 0
    return int(open(str(database) + ".scheduler.lock").read().strip() or 0)


def _belongs(pid: int, server) -> bool:
    """Is ``pid`` the server's process or one of its workers?"""
    if pid == server.pid:
        return True
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return f"\nPPid:\t{server.pid}\n" in status


def test_one_scheduler_across_processes_a_standby_takes_over_and_a_restart_catches_up(tmp_path, monkeypatch):
    _one_scheduler(tmp_path / "served.sqlite3", monkeypatch)


@pytest.mark.postgresql
def test_one_scheduler_across_servers_on_postgresql(pg_database, monkeypatch):
    """The same on PostgreSQL (issue #16 item 2): the leader is an advisory lock held by a
    session of the leading process; SIGKILL ends the session, a standby takes the lock."""
    _one_scheduler(pg_database, monkeypatch)


def _one_scheduler(database, monkeypatch):
    monkeypatch.setenv("MJREF_CLOCK_STANDBY_SECONDS", "0.2")
    monkeypatch.setenv("MJREF_CLOCK_TICK_SECONDS", "0.2")
    monkeypatch.setenv("MJREF_CLOCK_LATE_SECONDS", "0.5")
    clock = OffsetClock.starting_at(START)  # every server process reads the same time, at a fixed date
    monkeypatch.setenv("MJREF_CLOCK_OFFSET_SECONDS", repr(clock.offset.total_seconds()))
    seed(database)
    official = bearer(make_token(database, "official"))
    ports = [free_port(), free_port()]
    servers = _start_both(database, ports)
    try:
        # every process of both servers runs a scheduler; only the lock's holder leads
        seen = {**_roles(ports[0], official), **_roles(ports[1], official)}
        holder_pid = _holder(database)
        assert len(seen) >= 2 and all(role == ("leader" if pid == holder_pid else "standby")
                                      for pid, role in seen.items()), (seen, holder_pid)
        holder = next(s for s in servers if _belongs(holder_pid, s))
        standby = ports[1 - servers.index(holder)]
        first = soon(clock, 1.0)
        status, _ = request(standby, "PUT", "/api/v1/tournaments/t1/clock", headers=official, body={
            "round_seconds": 1, "first_start": first, "interval_seconds": 5, "reminders": []})
        assert status == 200
        wait_for(lambda: of(clock_records(database), RoundStarted), what="round 1 started")
        # the holder dies: the standby takes the lock and records the time call
        holder.send_signal(signal.SIGKILL)
        holder.wait()
        # (the lock file names its holder; asking the server may keep reaching its other worker)
        wait_for(lambda: _belongs(_holder(database), servers[ports.index(standby)]), what="the standby taking over")
        events = wait_for(lambda: (e := clock_records(database)) and of(e, TimeCalled) and e, what="time called")
        assert len(of(events, RoundStarted)) == 1 and len(of(events, TimeCalled)) == 1
        # every server dies before round 2's start; the tables report meanwhile
        survivor = servers[ports.index(standby)]  # its workers die with it
        survivor.send_signal(signal.SIGKILL)
        survivor.wait()
        report_all(database, 1, clock)
        due2 = parse_time(first) + timedelta(seconds=5)
        pause(max(0.0, (due2 - clock.now()).total_seconds()) + 0.6)
        assert not of(clock_records(database), RoundStarted, round=2)
        servers.append(start_server(database, free_port()))
        events = wait_for(lambda: (e := clock_records(database)) and of(e, RoundStarted, round=2) and e,
                          what="round 2 caught up")
        # up to round 2's start (its own time call may follow at once: the round lasts 1 s)
        upto = events[:events.index(of(events, RoundStarted, round=2)[0]) + 1]
        assert [type(e).__name__ for e in upto][-3:] == ["RoundClosed", "SeatingPublished", "RoundStarted"]
        closed = of(events, RoundClosed)[0]
        assert closed.late and parse_time(closed.due) < due2  # due when the last table reported
        late = of(events, RoundStarted, round=2)
        assert len(late) == 1 and late[0].late and late[0].due == format_time(due2)
        assert parse_time(late[0].at) > due2
        pause(0.5)  # a few more ticks of the new scheduler: nothing is recorded twice
        again = clock_records(database)  # (round 2's own time call may come meanwhile: its round lasts 1 s)
        keys = [(type(e).__name__, getattr(e, "round", None), getattr(e, "table", None)) for e in again]
        assert len(of(again, RoundStarted)) == 2 and len(of(again, RoundClosed)) == 1 and len(keys) == len(set(keys))
    finally:
        for server in servers:
            if server.poll() is None:
                server.send_signal(signal.SIGKILL)
                server.wait()
