"""Tokens and roles: made by the CLI, stored hashed, checked on every write; a table token
reaches its own table only; which reads are public is configuration."""
from __future__ import annotations

import hashlib
import json
import sqlite3

import pytest

from app import create_app
from store.dialect import is_postgres
from tests.servicekit import sql_rows, admin, bearer, create_table, hand_events, make_token, official  # noqa: F401


def test_cli_creates_a_token_shown_once_and_stored_hashed(app, client):
    result = app.test_cli_runner().invoke(args=["tokens", "create", "--role", "admin", "--label", "總裁判"])
    assert result.exit_code == 0, result.output
    made = json.loads(result.stdout)
    secret = made["token"]
    assert secret.startswith("mjref_") and len(secret) > 40 and made["role"] == "admin"
    database = app.config["DATABASE"]
    if is_postgres(database):  # every row of every table, as text
        tables = [r[0] for r in sql_rows(database, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
        dump = "\n".join(repr(sql_rows(database, f"SELECT * FROM {t}")) for t in tables)
    else:
        with sqlite3.connect(database) as conn:
            dump = "\n".join(conn.iterdump())
    [(stored,)] = sql_rows(database, "SELECT hash FROM tokens WHERE id = ?", (made["id"],))
    assert secret not in dump
    assert stored == hashlib.sha256(secret.encode()).hexdigest()
    assert client.get("/api/v1/whoami", headers=bearer(secret)).get_json() == {
        "token": made["id"], "role": "admin", "table": None, "label": "總裁判"}

    listed = app.test_cli_runner().invoke(args=["tokens", "list"])
    assert secret not in listed.output and json.loads(listed.output)["tokens"][0]["label"] == "總裁判"


def test_cli_table_token_needs_an_existing_table(app, client, official):
    runner = app.test_cli_runner()
    missing = runner.invoke(args=["tokens", "create", "--role", "table"])
    assert missing.exit_code == 2 and json.loads(missing.stderr)["field"] == "table"
    unknown = runner.invoke(args=["tokens", "create", "--role", "table", "--table", "T9"])
    assert unknown.exit_code == 2 and "T9" in json.loads(unknown.stderr)["detail_zh"]
    create_table(client, official, "T9")
    made = runner.invoke(args=["tokens", "create", "--role", "table", "--table", "T9"])
    assert made.exit_code == 0 and json.loads(made.stdout)["table"] == "T9"
    wrong = runner.invoke(args=["tokens", "create", "--role", "official", "--table", "T9"])
    assert wrong.exit_code == 2
    bad_role = runner.invoke(args=["tokens", "create", "--role", "king"])
    assert bad_role.exit_code == 2


def test_revoked_tokens_stop_working(app, client, admin):
    made = client.post("/api/v1/tokens", json={"role": "official", "label": "副裁判"}, headers=admin).get_json()
    headers = bearer(made["token"])
    assert client.get("/api/v1/whoami", headers=headers).status_code == 200
    assert client.delete(f"/api/v1/tokens/{made['id']}", headers=admin).status_code == 200
    problem = client.get("/api/v1/whoami", headers=headers).get_json()
    assert problem["status"] == 401 and problem["code"] == "invalid_token"
    # from the CLI too (another process: the server sees it within TOKEN_CACHE_SECONDS; here none cached)
    other = client.post("/api/v1/tokens", json={"role": "official"}, headers=admin).get_json()
    result = app.test_cli_runner().invoke(args=["tokens", "revoke", str(other["id"])])
    assert result.exit_code == 0 and json.loads(result.stdout)["revoked_at"]
    assert client.get("/api/v1/whoami", headers=bearer(other["token"])).status_code == 401
    assert app.test_cli_runner().invoke(args=["tokens", "revoke", "999"]).exit_code == 2


def test_a_revoked_token_stops_at_once_in_every_server_process(app, client, admin, official):
    """Two apps on one file stand for two server processes: each caches tokens, and a
    revocation through either (or the CLI) is honoured by both at once — on the live-ingest
    fast path too."""
    other = create_app({"TESTING": True, "DATABASE": app.config["DATABASE"]}).test_client()
    create_table(client, official, "T1")
    events = hand_events(7)
    made = client.post("/api/v1/tokens", json={"role": "table", "table": "T1"}, headers=admin).get_json()
    t1 = bearer(made["token"])
    assert other.post("/api/v1/tables/T1/events", json=events[0], headers=t1).status_code == 200  # cached there
    assert client.delete(f"/api/v1/tokens/{made['id']}", headers=admin).status_code == 200
    response = other.post("/api/v1/tables/T1/events", json=events[1], headers=t1)
    assert response.status_code == 401 and response.get_json()["code"] == "invalid_token"

    made = client.post("/api/v1/tokens", json={"role": "table", "table": "T1"}, headers=admin).get_json()
    t1 = bearer(made["token"])
    assert client.post("/api/v1/tables/T1/events", json=events[1], headers=t1).status_code == 200
    assert other.get("/api/v1/whoami", headers=t1).status_code == 200
    assert app.test_cli_runner().invoke(args=["tokens", "revoke", str(made["id"])]).exit_code == 0
    for c in (client, other):
        assert c.post("/api/v1/tables/T1/events", json=events[2], headers=t1).status_code == 401
        assert c.get("/api/v1/whoami", headers=t1).status_code == 401


@pytest.mark.parametrize("header, code", [
    (None, "token_required"),
    ("Bearer", "malformed_authorization"),
    ("Basic dXNlcjpwYXNz", "malformed_authorization"),
    ("Bearer mjref_not-a-real-token", "invalid_token"),
])
def test_writes_need_a_valid_token(client, header, code):
    headers = {"Authorization": header} if header else {}
    response = client.post("/api/v1/tables", json={"id": "X1"}, headers=headers)
    assert response.status_code == 401 and response.mimetype == "application/problem+json"
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    problem = response.get_json()
    assert problem["code"] == code and problem["field"] == "Authorization" and problem["detail_zh"]


def test_each_role_does_only_its_part(app, client, official, admin):
    create_table(client, official, "T1")
    table = bearer(make_token(app.config["DATABASE"], "table", "T1"))
    start = hand_events(4)[0]
    # a table posts to its table, but creates neither tables nor tokens nor overrides
    assert client.post("/api/v1/tables/T1/events", json=start, headers=table).status_code == 200
    for method, path, body in [
        ("post", "/api/v1/tables", {"id": "T2"}),
        ("post", "/api/v1/tokens", {"role": "admin"}),
        ("post", "/api/v1/tables/T1/overrides",
         {"hand": 1, "ruling": "outcome", "decision": "overrule", "reason": "x"}),
    ]:
        response = getattr(client, method)(path, json=body, headers=table)
        assert response.status_code == 403 and response.get_json()["code"] == "role_forbidden", path
    # an official runs tables but does not manage tokens
    assert client.post("/api/v1/tokens", json={"role": "admin"}, headers=official).status_code == 403
    assert client.get("/api/v1/tokens", headers=official).status_code == 403
    # an admin does
    assert client.post("/api/v1/tokens", json={"role": "table", "table": "T1"}, headers=admin).status_code == 201
    assert client.get("/api/v1/tokens", headers=admin).status_code == 200


def test_a_table_token_never_reaches_another_table(app, client, official):
    create_table(client, official, "T1")
    create_table(client, official, "T2")
    t1 = bearer(make_token(app.config["DATABASE"], "table", "T1"))
    client.post("/api/v1/tables/T2/events", json=hand_events(4)[0], headers=official)
    start = hand_events(5)[0]
    response = client.post("/api/v1/tables/T2/events", json=start, headers=t1)
    assert response.status_code == 403 and response.get_json()["code"] == "forbidden_table"
    assert response.get_json()["field"] == "table"
    for path in ["/api/v1/tables/T2", "/api/v1/tables/T2/events", "/api/v1/tables/T2/state",
                 "/api/v1/tables/T2/hands", "/api/v1/tables/T2/hands/1", "/api/v1/tables/T2/hands/1/replay",
                 "/api/v1/tables/T2/rulings", "/api/v1/tables/T2/overrides"]:
        assert client.get(path, headers=t1).status_code == 403, path
    assert client.get("/api/v1/rulings?table=T2", headers=t1).status_code == 403
    assert [t["id"] for t in client.get("/api/v1/tables", headers=t1).get_json()["tables"]] == ["T1"]
    assert client.get("/api/v1/tables/T1/events", headers=t1).status_code == 200
    assert sql_rows(app.config["DATABASE"], "SELECT COUNT(*) FROM events WHERE table_id = 'T2'") == [(1,)]


def test_public_reads_are_configuration(tmp_path):
    def app_with(public):
        config = {"TESTING": True, "DATABASE": str(tmp_path / "p.sqlite3")}
        if public is not None:
            config["PUBLIC_READS"] = public
        return create_app(config)

    default = app_with(None)
    official_headers = bearer(make_token(default.config["DATABASE"], "official"))
    client = default.test_client()
    create_table(client, official_headers, "T1")
    assert client.get("/api/v1/tables/T1").status_code == 200  # tables: public by default
    assert client.get("/api/v1/rulesets").status_code == 200
    assert client.get("/api/v1/tables/T1/events").status_code == 401  # events (concealed tiles): not
    assert client.get("/api/v1/tables/T1/events", headers=official_headers).status_code == 200

    closed = app_with("").test_client()  # nothing public
    assert closed.get("/api/v1/tables/T1").status_code == 401
    assert closed.get("/api/v1/rulesets").status_code == 401
    assert closed.post("/api/v1/analyze", json={"tiles": "11m"}).status_code == 401
    assert closed.get("/api/v1/tables/T1", headers=official_headers).status_code == 200

    opened = app_with("events,tables").test_client()  # from the environment: a comma list
    assert opened.get("/api/v1/tables/T1/events").status_code == 200
    assert opened.get("/api/v1/tables/T1/rulings").status_code == 401


def test_public_reads_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("MJREF_PUBLIC_READS", '["rulesets"]')
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "e.sqlite3")})
    client = app.test_client()
    assert client.get("/api/v1/rulesets").status_code == 200
    assert client.get("/api/v1/tables").status_code == 401
