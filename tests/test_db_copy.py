"""A SQLite deployment moves to PostgreSQL (issue #16 item 6): ``flask db copy``.

A real SQLite deployment is filled through the API (tables and their events, an override,
tokens — one revoked —, a tournament with a keyed write, a scorer's PIN and the players' names at
a table's seats), copied with the CLI into a fresh
PostgreSQL database, and the app on PostgreSQL then answers every read as the SQLite app
did, goes on ingesting after the copied log (next id, next seq), and honours the tokens.
"""
from __future__ import annotations

import json

import pytest

from app import create_app
from store import SCHEMA_VERSION, close_app, get_db
from store.pins import seat_names, set_seat_names
from web.signin import sign_in_pin
from tests.servicekit import bearer, create_table, hand_events, make_token, scorer_pin, sql_rows, writing_straight

pytestmark = pytest.mark.postgresql

READS = ["/api/v1/tables", "/api/v1/tables/C1", "/api/v1/tables/C1/hands", "/api/v1/tables/C1/rulings",
         "/api/v1/tables/C1/overrides", "/api/v1/tables/C1/events?stream=official", "/api/v1/tables/C1/events",
         "/api/v1/tables/C1/hands/1/replay", "/api/v1/tables/C2", "/api/v1/tokens", "/api/v1/tournaments",
         "/api/v1/tournaments/K1"]


NAMES = ["林志強", "王小明", "李大華", "陳美玲"]


def _fill(app):
    client = app.test_client()
    database = app.config["DATABASE"]
    admin = bearer(make_token(database, "admin", label="管理員"))
    official = bearer(make_token(database, "official", label="裁判長"))
    create_table(client, official, "C1")
    create_table(client, official, "C2", mode="physical")
    seed = next(k for k in range(1, 40) if any(e["type"] == "win" for e in hand_events(k)))  # an outcome to amend
    answer = client.post("/api/v1/tables/C1/events", json={"events": hand_events(seed)}, headers=official).get_json()
    client.post("/api/v1/tables/C1/events", json={"events": hand_events(61, hand=2)[:10]}, headers=official)
    paid = answer["results"][-1]["outcome"]["payments"]
    response = client.post("/api/v1/tables/C1/overrides", headers=official, json={
        "hand": 1, "ruling": "outcome", "decision": "amend", "payments": [p * 2 for p in paid],
        "reason_zh": "台數計算有誤，改判", "reason": "the tai were miscounted"})
    assert response.status_code == 201, response.get_json()
    revoked = client.post("/api/v1/tokens", json={"role": "official", "label": "離職"}, headers=admin).get_json()
    assert client.delete(f"/api/v1/tokens/{revoked['id']}", headers=admin).status_code == 200
    keyed = {**official, "Idempotency-Key": "create-K1"}
    response = client.post("/api/v1/tournaments", json={"id": "K1", "name": "複製盃", "rounds": 2}, headers=keyed)
    assert response.status_code == 201, response.get_json()
    pin = scorer_pin(database, "C2", label="陳計分")  # as the console's PIN page writes them
    with writing_straight(database) as db:
        set_seat_names(db, "C2", NAMES)
    return admin, official, bearer(revoked["token"]), pin


def _reads(app, headers):
    client = app.test_client()
    answers = {}
    for url in READS:
        response = client.get(url, headers=headers)
        assert response.status_code == 200, (url, response.get_json())
        answers[url] = response.get_json()
    return answers


def test_a_sqlite_deployment_moves_to_postgresql(tmp_path, pg_database):
    source = str(tmp_path / "hall.sqlite3")
    sqlite_app = create_app({"TESTING": True, "DATABASE": source})
    admin, official, revoked, pin = _fill(sqlite_app)
    before = _reads(sqlite_app, admin)

    result = sqlite_app.test_cli_runner().invoke(args=["db", "copy", source, pg_database])
    assert result.exit_code == 0, result.output
    copied = json.loads(result.stdout)["copied"]
    assert copied["events"] == sql_rows(source, "SELECT COUNT(*) FROM events")[0][0] > 20
    assert copied["tokens"] == 4 and copied["overrides"] == 1 and copied["idempotency_keys"] == 1
    assert copied["pins"] == 1 and copied["seat_names"] == 4  # a row a seat

    pg_app = create_app({"TESTING": True, "DATABASE": pg_database})
    try:
        assert _reads(pg_app, admin) == before  # every read answers as before, ids included
        client = pg_app.test_client()
        assert client.get("/api/v1/whoami", headers=revoked).status_code == 401
        # the scorer's PIN still signs in to its table, and the table's seats keep their names
        with pg_app.test_request_context():
            principal, _pin_id = sign_in_pin("C2", pin)
            assert (principal.role, principal.table, principal.label) == ("table", "C2", "陳計分")
            assert seat_names(get_db(), "C2") == NAMES
        # the keyed write's answer came along: a resend is answered from it
        again = client.post("/api/v1/tournaments", json={"id": "K1", "name": "複製盃", "rounds": 2},
                            headers={**official, "Idempotency-Key": "create-K1"})
        assert again.status_code == 201 and again.headers.get("Idempotent-Replayed") == "true"
        # ingest goes on after the copied log: the next seq of hand 2, the next id
        last_id = sql_rows(pg_database, "SELECT MAX(id) FROM events")[0][0]
        hand2 = hand_events(61, hand=2)
        answer = client.post("/api/v1/tables/C1/events", json={"events": hand2[10:]}, headers=official)
        assert answer.status_code == 200, answer.get_json()
        assert sql_rows(pg_database, "SELECT MIN(id) FROM events WHERE id > ?", (last_id,))[0][0] == last_id + 1
        assert sql_rows(pg_database,
                        "SELECT COUNT(*) FROM events WHERE table_id = 'C1' AND hand = 2")[0][0] == len(hand2)
    finally:
        close_app(pg_app)

    # a second copy into the same database is refused, naming what is there; nothing written
    result = sqlite_app.test_cli_runner().invoke(args=["db", "copy", source, pg_database])
    assert result.exit_code == 2
    problem = json.loads(result.stderr)
    assert problem["code"] == "copy_refused" and "events" in problem["detail"] and problem["detail_zh"]


def test_a_copy_without_its_source_or_target_is_refused_with_a_reason(tmp_path, pg_database):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "app.sqlite3")})
    missing = tmp_path / "nope.sqlite3"
    result = app.test_cli_runner().invoke(args=["db", "copy", str(missing), pg_database])
    assert result.exit_code == 2 and not missing.exists()  # nothing made up
    problem = json.loads(result.stderr)
    assert (problem["code"], problem["field"]) == ("copy_refused", "source") and problem["detail_zh"]
    dead = "postgresql://mjref@127.0.0.1:1/none"  # nobody listens on port 1
    result = app.test_cli_runner().invoke(args=["db", "copy", str(tmp_path / "app.sqlite3"), dead])
    assert result.exit_code == 2
    problem = json.loads(result.stderr)
    assert problem["code"] == "database_unavailable" and problem["field"] == "target" and problem["detail_zh"]


def test_migrate_is_what_runs_once_per_deployment(tmp_path, pg_cluster):
    url = pg_cluster.new_database("fresh", template="template1")
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "x.sqlite3")})
    app.config["DATABASE"] = url
    result = app.test_cli_runner().invoke(args=["db", "migrate"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["applied"] == list(range(1, SCHEMA_VERSION + 1))
    assert json.loads(app.test_cli_runner().invoke(args=["db", "migrate"]).stdout)["applied"] == []
    pg_cluster.drop_database(url)
